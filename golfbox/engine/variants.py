"""The four variants of RULES.md, as data, and their house rules.

A Variant says how many cards, how the round starts, which turns exist, how
it ends and how it scores. House rules are named, typed and validated here,
so the config file and the command line get the same clear errors.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

from golfbox.engine.cards import JOKER

# How a round starts.
START_PEEK_NEAREST = "peek_nearest"  # look once at the nearest row, then "ready"
START_CHOOSE_TWO = "choose_two"  # turn up two cards of your choice
START_RANDOM_TWO = "random_two"  # two cards turned up at random at the deal
START_FIRST_TURN_THREE = "first_turn_three"  # your first turn begins by turning up three

# How grids score.
SCORE_SUM = "sum"
SCORE_COLUMN_PAIRS = "column_pairs"
SCORE_LINES = "lines"


class RuleError(ValueError):
    """An unknown variant or house rule, or a value a rule does not take."""


MAX_RULE_NUMBER = 1000  # a penalty or a score far beyond any round's points


@dataclass(frozen=True)
class RuleSpec:
    name: str
    default: Any
    kind: str  # "bool", "int", "penalty" (int >= 0 or "double"), "score_or_off", "lines"
    help: str

    def parse(self, value: Any, bounded: bool = True) -> Any:
        """Accept a TOML value or a command-line string; raise RuleError naming the rule.
        ``bounded=False``: a number beyond MAX_RULE_NUMBER too (see make_rules)."""
        text = str(value).strip().lower() if not isinstance(value, bool) else None
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if text in ("on", "true", "yes", "1"):
                return True
            if text in ("off", "false", "no", "0"):
                return False
            raise RuleError(f"rule {self.name}: {value!r} is not on/off")
        if self.kind == "lines":
            if text in ("rows", "rows+columns"):
                return text
            raise RuleError(f"rule {self.name}: {value!r} is not 'rows' or 'rows+columns'")
        if self.kind == "penalty" and text == "double":
            return "double"
        if self.kind == "penalty" and text in ("off", "false", "no"):
            return 0  # no penalty: docs/RULES.md calls the default "off"
        if self.kind == "score_or_off" and text in ("off", "false", "no"):
            return None
        if self.kind == "score_or_off" and text in ("on", "true", "yes"):
            return -10
        if isinstance(value, bool):
            raise RuleError(f"rule {self.name}: {value!r} is not a number")
        try:
            number = int(value) if isinstance(value, int) else int(text, 10)
        except (TypeError, ValueError):
            expected = {"int": "a whole number", "penalty": "a whole number >= 0, 'double' or 'off'",
                        "score_or_off": "a whole number (the score) or 'off'"}[self.kind]
            raise RuleError(f"rule {self.name}: {value!r} is not {expected}") from None
        if self.kind == "penalty" and number < 0:
            raise RuleError(f"rule {self.name}: {number} is negative (a penalty adds points)")
        # The bots' play-outs score in floats: 10**400 overflowed.
        if bounded and abs(number) > MAX_RULE_NUMBER:
            raise RuleError(f"rule {self.name}: {number} is out of range "
                            f"({0 if self.kind == 'penalty' else -MAX_RULE_NUMBER}..{MAX_RULE_NUMBER})")
        return number

    def choices(self, current: Any = None) -> tuple[Any, ...]:
        """The values a menu steps through (the lobby's ◀▶), ``current`` among them."""
        offered = list(_MENU_CHOICES.get(self.kind, ()))
        for value in (self.default, current):
            if value is not None and value not in offered:
                offered.append(value)
        if self.kind in ("int", "penalty", "score_or_off"):
            # Off first, then the numbers growing in size, then "double".
            numbers = sorted((v for v in offered if type(v) is int), key=abs)
            offered = [v for v in offered if v is None] + numbers + [v for v in offered if type(v) is str]
        return tuple(offered)

    def describe(self, value: Any) -> str:
        """A value as a player reads it: 'on', 'off', 'double', '-10', 'rows+columns'."""
        if value is None or value is False or (self.kind == "penalty" and value == 0):
            return "off"  # no penalty: docs/RULES.md and README call it "off", as parse() takes it
        if value is True:
            return "on"
        return str(value)


# What a menu offers for each kind of rule; a configured value outside these is added.
_MENU_CHOICES: dict[str, tuple[Any, ...]] = {
    "bool": (False, True),
    "lines": ("rows", "rows+columns"),
    "penalty": (0, 5, 10, 15, 20, "double"),
    "score_or_off": (None, -5, -10, -15, -20),
}


@dataclass(frozen=True)
class Variant:
    name: str
    rows: int
    cols: int
    min_players: int
    max_players: int
    two_decks_from: int  # players from which two decks are used (1: always two)
    jokers_per_deck: int
    values: tuple[int, ...]  # by rank index, A … K, JK
    start: str
    can_knock: bool
    draw_and_discard: bool  # a card drawn from the stock may be discarded
    flip_after_discard: bool  # polish-poker: then optionally turn one up
    place_face_up: bool  # False in 4-card: cards stay face down
    ends_when_all_face_up: bool
    final_turns_after_finish: bool  # 9-card: the others play once more (6-card: house rule)
    scoring: str
    rule_specs: tuple[RuleSpec, ...] = field(default=())

    @property
    def size(self) -> int:
        return self.rows * self.cols

    def decks(self, players: int) -> int:
        return 2 if players >= self.two_decks_from else 1

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise RuleError(
                f"{self.name} is for {self.min_players}-{self.max_players} players, not {players}"
            )

    @property
    def has_jokers(self) -> bool:
        return self.jokers_per_deck > 0


class Rules(Mapping[str, Any]):
    """The house rules in force: every rule of the variant, defaults filled in."""

    def __init__(self, values: dict[str, Any]):
        self._values = MappingProxyType(dict(values))

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    def __iter__(self):
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def get(self, name: str, default: Any = None) -> Any:
        # Mapping.get goes through __getitem__ and an exception; scoring asks often.
        return self._values.get(name, default)

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(name) from None

    def __repr__(self) -> str:
        return f"Rules({dict(self._values)!r})"

    def __reduce__(self):
        # A mappingproxy neither pickles nor deep-copies: rebuild from a plain dict.
        return (Rules, (dict(self._values),))


def bounded_rules(rules: Rules) -> Rules:
    """``rules`` with a number past MAX_RULE_NUMBER taken as that bound, for the bots: a
    match an older golfbox dealt may hold one (make_rules, bounded=False), and the bots'
    sums are floats, which 10**400 overflowed. The bound already outweighs any round's
    points; the engine scores the real number. ``rules`` itself if none is past it."""
    def bounded(value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, int):
            return value
        return max(-MAX_RULE_NUMBER, min(MAX_RULE_NUMBER, value))

    values = {name: bounded(value) for name, value in rules.items()}
    return rules if values == dict(rules) else Rules(values)


def _values(*, two: int, jack: int, queen: int, joker: int) -> tuple[int, ...]:
    # A, 2, 3 … 10, J, Q, K, JK
    return (1, two, 3, 4, 5, 6, 7, 8, 9, 10, jack, queen, 0, joker)


_KNOCK_PENALTY_HELP = "points added to a knocker whose score is not the lowest, or 'double'"

FOUR_CARD = Variant(
    name="4-card", rows=2, cols=2, min_players=2, max_players=10, two_decks_from=7,
    jokers_per_deck=0, values=_values(two=2, jack=10, queen=10, joker=0),
    start=START_PEEK_NEAREST, can_knock=True, draw_and_discard=True, flip_after_discard=False,
    place_face_up=False, ends_when_all_face_up=False, final_turns_after_finish=False,
    scoring=SCORE_SUM,
    rule_specs=(
        RuleSpec("assist", False, "bool", "the seat display also shows face-down cards the owner has seen"),
        RuleSpec("knock_penalty", 0, "penalty", _KNOCK_PENALTY_HELP),
    ),
)

SIX_CARD = Variant(
    name="6-card", rows=2, cols=3, min_players=2, max_players=8, two_decks_from=5,
    jokers_per_deck=0, values=_values(two=-2, jack=10, queen=10, joker=0),
    start=START_CHOOSE_TWO, can_knock=False, draw_and_discard=True, flip_after_discard=False,
    place_face_up=True, ends_when_all_face_up=True, final_turns_after_finish=False,
    scoring=SCORE_COLUMN_PAIRS,
    rule_specs=(
        RuleSpec("final_turn", False, "bool", "after a sixth card face up, every other player has one more turn"),
        RuleSpec("peek_row", False, "bool", "look once at the nearest row instead of turning two cards"),
        RuleSpec("four_of_a_kind", None, "score_or_off", "two columns paired in one rank score this together"),
    ),
)

POLISH_POKER = Variant(
    name="polish-poker", rows=2, cols=3, min_players=2, max_players=8, two_decks_from=5,
    jokers_per_deck=2, values=_values(two=2, jack=10, queen=10, joker=-2),
    start=START_RANDOM_TWO, can_knock=True, draw_and_discard=True, flip_after_discard=True,
    place_face_up=True, ends_when_all_face_up=False, final_turns_after_finish=False,
    scoring=SCORE_COLUMN_PAIRS,
    rule_specs=(
        RuleSpec("choose_start", False, "bool", "players choose their two starting cards"),
        RuleSpec("negative_pairs_keep", False, "bool", "a pair of jokers keeps its -4"),
        RuleSpec("knock_penalty", 10, "penalty", _KNOCK_PENALTY_HELP),
    ),
)

NINE_CARD = Variant(
    name="9-card", rows=3, cols=3, min_players=2, max_players=8, two_decks_from=1,
    jokers_per_deck=2, values=_values(two=2, jack=11, queen=12, joker=-3),
    start=START_FIRST_TURN_THREE, can_knock=False, draw_and_discard=False, flip_after_discard=False,
    place_face_up=True, ends_when_all_face_up=True, final_turns_after_finish=True,
    scoring=SCORE_LINES,
    rule_specs=(
        RuleSpec("lines", "rows", "lines", "which lines score combinations: 'rows' or 'rows+columns'"),
    ),
)

VARIANTS: dict[str, Variant] = {v.name: v for v in (FOUR_CARD, SIX_CARD, POLISH_POKER, NINE_CARD)}
assert all(len(v.values) == JOKER + 1 for v in VARIANTS.values())


def get_variant(name: str) -> Variant:
    try:
        return VARIANTS[name]
    except KeyError:
        raise RuleError(f"unknown variant {name!r} (one of: {', '.join(VARIANTS)})") from None


def make_rules(variant: Variant | str, overrides: Mapping[str, Any], *,
               bounded: bool = True) -> Rules:
    """The variant's house rules with ``overrides`` applied; RuleError names a bad one.
    ``bounded=False`` for a match already dealt (a journal's): a golfbox before the
    bound took any number, and its match is finished under the rules it was dealt with."""
    if isinstance(variant, str):
        variant = get_variant(variant)
    specs = {spec.name: spec for spec in variant.rule_specs}
    values = {name: spec.default for name, spec in specs.items()}
    for name, value in overrides.items():
        if name not in specs:
            known = ", ".join(specs) or "none"
            raise RuleError(f"unknown rule {name!r} for {variant.name} (its rules: {known})")
        values[name] = specs[name].parse(value, bounded)
    return Rules(values)


def parse_rule_args(pairs: list[str]) -> dict[str, str]:
    """['final_turn=on', ...] from the command line -> {'final_turn': 'on'}."""
    out: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise RuleError(f"--rule {pair!r}: expected NAME=VALUE")
        name, value = name.strip(), value.strip()
        if out.get(name, value) != value:  # which one was meant? (TOML refuses a key twice too)
            raise RuleError(f"--rule {name}: given twice, as {out[name]} and {value}")
        out[name] = value
    return out
