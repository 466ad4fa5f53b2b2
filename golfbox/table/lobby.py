"""Before a match: who plays, which game, which house rules.

On any seat's pad:

    ●        join (your seat plays as a person; it replaces a configured bot);
             once joined, ● moves to the next setting
    ✕        leave
    ◀ ▶      (a joined seat) change the setting under the cursor; on "rules", read them
             (a seat not joined reads them at once)
    hold ●   (a joined seat) start the match

The settings, one line each on the shared display: the game (variant), who
fills empty seats (nobody, or bots of a level: hard, medium, easy), the number
of rounds, then every house rule of the chosen variant (RULES.md), each
stepping through the values a table would pick (see RuleSpec.choices), hints,
the language of the displays (it changes at once), and the rules to read. They
start from the config: its house rules belong to its variant; another variant
starts from its defaults. After a restart, they and who joined are what the
journal kept of the lobby (to_json, restore); if the restart resumed a match,
that match's game, rounds, rules, hints and language over them (Lobby.resume).

Seats named in the config's ``bots`` play as bots unless someone joins there.
``golfbox sim``'s bots (past --humans: no keys there to join) are empty seats
instead, filled at their own level at first (TableSettings.lobby_fills_bots).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Callable

from golfbox.engine import VARIANTS, RuleError, get_variant, make_rules
from golfbox.hal.base import Button, EventKind
from golfbox.bots import DEFAULT_BOT, LEVELS
from golfbox.render.table import variant_words
from golfbox.render.words import LANGUAGES, say
from golfbox.table.settings import MAX_ROUNDS, TableSettings

log = logging.getLogger(__name__)

ROUND_CHOICES = (1, 3, 5, 9, 18)  # 9 is the default, 18 is common (RULES.md)
# Who fills empty seats: nobody, or bots of a level; ▶ from "empty" reaches the default first.
FILL_CHOICES = (None, DEFAULT_BOT) + tuple(lvl for lvl in reversed(LEVELS) if lvl != DEFAULT_BOT)


@dataclass(frozen=True)
class Player:
    """One engine seat of a match: which physical seat, person or bot, and its name."""

    seat: int  # the physical seat (pad and display)
    bot: str | None  # a bot's name, or None for a person
    name: str

    def to_json(self) -> dict:
        return {"seat": self.seat, "bot": self.bot, "name": self.name}

    @classmethod
    def from_json(cls, data: dict) -> "Player":
        return cls(int(data["seat"]), data.get("bot"), str(data["name"]))


@dataclass(frozen=True)
class SettingLine:
    """One line of the lobby's menu, as the displays show it (in the lobby's language)."""

    key: str  # "variant", "fill", "rounds", a house rule's name, "hints", "language", "rules"
    label: str  # "game", "empty seats", "rounds", "final turn"
    value: str  # "6-card", "bots", "9", "on"
    lang: str = "en"

    def __str__(self) -> str:
        return say(self.lang, "{label}: {value}", label=self.label, value=self.value)


class Lobby:
    def __init__(self, settings: TableSettings):
        self.settings = settings
        self.joined: set[int] = set()
        self.variant = settings.variant
        # The level of the bots in empty seats, or None: a config's start empty, the sim's
        # at its bots' level (--bot), kept among the choices as the config's rounds are.
        self.fill = self.first_fill()
        self.fill_choices = FILL_CHOICES + (() if self.fill in FILL_CHOICES else (self.fill,))
        self.rounds = settings.rounds
        self.round_choices = tuple(sorted(set(ROUND_CHOICES) | {settings.rounds}))
        # Each variant keeps its own house rules while the lobby steps through the games.
        self.rule_values: dict[str, dict[str, Any]] = {
            name: dict(make_rules(name, settings.rules if name == settings.variant else {}))
            for name in VARIANTS
        }
        self.hints = settings.hints
        self.language = settings.language  # the displays' language, from the lobby on
        self.cursor = 0  # which line ◀▶ changes
        self._cursor_moved_by: int | None = None  # the seat whose last press moved the cursor

    def configured(self, seat: int) -> bool:
        """A bot the config put in ``seat`` plays it unless someone joins (not the sim's:
        its seats are empty seats)."""
        return seat in self.settings.bots and not self.settings.lobby_fills_bots

    def first_fill(self) -> str | None:
        """The level empty seats start at: none (they stay empty), the sim's bots' own."""
        s = self.settings
        return next(iter(s.bots.values()), None) if s.lobby_fills_bots else None

    # ---- what the displays show

    def lines(self, lang: str | None = None) -> list[SettingLine]:
        """The menu in ``lang`` (default the lobby's language)."""
        lang = lang or self.language
        lines = [
            SettingLine("variant", say(lang, "game"), variant_words(self.variant, lang), lang),
            self._fill_line(lang),
            SettingLine("rounds", say(lang, "rounds"), str(self.rounds), lang),
        ]
        values = self.rule_values[self.variant]
        for spec in get_variant(self.variant).rule_specs:
            lines.append(SettingLine(spec.name, rule_words(spec.name, lang),
                                     value_words(spec.describe(values[spec.name]), lang), lang))
        # "on" says how to ask: at the table a turn's prompt has no room for it.
        lines.append(SettingLine("hints", say(lang, "hints"),
                                 say(lang, "on (hold ●)") if self.hints else say(lang, "off"), lang))
        lines.append(SettingLine("language", say(lang, "language"), LANGUAGES[lang], lang))
        lines.append(SettingLine("rules", say(lang, "rules"), say(lang, "◀▶ read"), lang))
        return lines

    def _fill_line(self, lang: str) -> SettingLine:
        """'2 empty seats: hard bots' / '… stay empty'; 'empty seats: none' when every seat
        is joined or has a configured bot (then the setting changes nothing)."""
        empty = [s for s in range(self.settings.seats)
                 if s not in self.joined and not self.configured(s)]
        if not empty:
            return SettingLine("fill", say(lang, "empty seats"), say(lang, "none"), lang)
        if len(empty) == 1:  # one seat, one bot
            label = say(lang, "1 empty seat")
            value = (say(lang, "{level} bot", level=say(lang, self.fill)) if self.fill
                     else say(lang, "stays empty"))
        else:
            label = say(lang, "{n} empty seats", n=len(empty))
            value = (say(lang, "{level} bots", level=say(lang, self.fill)) if self.fill
                     else say(lang, "stay empty"))
        return SettingLine("fill", label, value, lang)

    @property
    def selected(self) -> SettingLine:
        return self.lines()[self.cursor]

    def describe(self) -> str:
        """The game in one line, in English (the status line and the log): '6-card · 9
        rounds · final turn on'."""
        words = [self.variant, f"{self.rounds} round{'s' if self.rounds != 1 else ''}"]
        changed = self.rules()
        words += [str(line).replace(":", "") for line in self.lines("en")[3:] if line.key in changed]
        if self.hints:
            words.append("hints on")
        return " · ".join(words)

    def players(self) -> list[Player]:
        """The match's players in seat order, as the lobby stands now."""
        players = []
        for seat in range(self.settings.seats):
            if seat in self.joined:
                bot = None
            elif self.configured(seat):
                bot = self.settings.bots[seat]
            elif self.fill:
                bot = self.fill
            else:
                continue
            players.append(Player(seat, bot, self.settings.display_name(seat, bot, self.language)))
        return players

    def name(self, seat: int) -> str:
        """The seat's name as the lobby stands now: 'P2 (HARD)' if a bot would play it."""
        return next((p.name for p in self.players() if p.seat == seat),
                    self.settings.name(seat, self.language))

    def problem(self) -> str | None:
        """Why the match cannot start now, or None."""
        players = self.players()
        variant, lang = get_variant(self.variant), self.language
        game = variant_words(variant.name, lang)
        if not any(p.bot is None for p in players):
            return say(lang, "press ● on your pad to join")
        if len(players) < variant.min_players:
            return say(lang, "{game} needs {n} players: join, or bots in empty seats",
                       game=game, n=variant.min_players)
        if len(players) > variant.max_players:
            return say(lang, "{game} is for at most {n} players", game=game, n=variant.max_players)
        return None

    def prompt(self, seat: int) -> str:
        if seat in self.joined:
            return say(self.language, "◀▶ change · ● next setting · hold ● start · ✕ leave")
        return say(self.language, "● join · ◀▶ rules")

    # ---- presses

    def press(self, seat: int, button: Button, kind: EventKind) -> tuple[bool, str]:
        """Handle a button; returns (start the match now?, a message for that seat)."""
        if kind is EventKind.HELD:
            if button is Button.OK and seat in self.joined:
                # A hold begins as a press (PRESSED, then HELD after hold_time); if that
                # press moved the cursor on, put it back: the hold meant "start".
                if self._cursor_moved_by == seat:
                    self.cursor = (self.cursor - 1) % len(self.lines())
                    self._cursor_moved_by = None
                problem = self.problem()
                return (problem is None, problem or "")
            return False, ""
        self._cursor_moved_by = None
        if button is Button.BACK:
            self.joined.discard(seat)
        elif seat not in self.joined:
            if button is Button.OK:
                self.joined.add(seat)
            else:  # the table shows the rules for ◀ ▶ (states.ReadsRules)
                return False, say(self.language, "press ● to join first")
        elif button is Button.OK:
            self.cursor = (self.cursor + 1) % len(self.lines())
            self._cursor_moved_by = seat
        else:
            self._step(-1 if button is Button.LEFT else 1)
        return False, ""

    def _step(self, direction: int) -> None:
        """Change the setting under the cursor to its previous or next value."""
        key = self.selected.key
        if key == "rules":
            return  # the table opens the rules (states.ReadsRules)
        if key == "hints":
            self.hints = not self.hints
            return
        if key == "language":
            self.language = _next(tuple(LANGUAGES), self.language, direction)
            return
        if key == "variant":
            self.variant = _next(tuple(VARIANTS), self.variant, direction)
        elif key == "fill":
            self.fill = _next(self.fill_choices, self.fill, direction)
        elif key == "rounds":
            self.rounds = _next(self.round_choices, self.rounds, direction)
        else:
            values = self.rule_values[self.variant]
            spec = next(s for s in get_variant(self.variant).rule_specs if s.name == key)
            values[key] = _next(spec.choices(values[key]), values[key], direction)

    def resume(self, config: dict, players: list[Player]) -> None:
        """The lobby as it stood when a match resumed after a restart was started (its
        journaled ``config`` and ``players``): the lobby after it offers what the table
        chose, not the config file's game."""
        self.variant, self.rounds = config["variant"], config["rounds"]
        self.round_choices = tuple(sorted(set(self.round_choices) | {self.rounds}))
        try:
            self.rule_values[self.variant] = dict(make_rules(self.variant, config.get("rules", {})))
        except RuleError as exc:  # an older golfbox dealt it (a number now out of range)
            log.warning("the resumed match's house rules are not offered again (%s)", exc)
        self.hints, self.language = bool(config.get("hints")), config.get("language", "en")
        # Bots in seats the config gives none came from "empty seats": their level.
        fill = [p.bot for p in players if p.bot is not None and not self.configured(p.seat)]
        if fill and fill[0] in self.fill_choices:
            self.fill = fill[0]

    def to_json(self) -> dict:
        """The choices and who joined, for the journal (not the cursor), and the config
        they were made from (``config_key``)."""
        rules = {name: self.rules(name) for name in VARIANTS}
        return {"variant": self.variant, "fill": self.fill, "rounds": self.rounds,
                "rules": {name: changed for name, changed in rules.items() if changed},
                "hints": self.hints, "language": self.language, "joined": sorted(self.joined),
                "config": self.config_key()}

    def config_key(self) -> str:
        """What the lobby starts from in the config: an owner who edits it and restarts
        wants the new game, not the choices kept from before the edit."""
        s = self.settings
        return repr((s.seats, s.variant, sorted(s.rules.items()), s.rounds, s.hints, s.language,
                     sorted(s.bots.items())))

    def restore(self, data: Any) -> None:
        """The lobby as ``to_json`` kept it before a restart. A ValueError names what is
        wrong in it (a game or a rule this golfbox no longer knows, a seat the config
        dropped, a bad value) and nothing is changed then."""
        if not isinstance(data, dict):
            raise ValueError(f"not a table of choices: {data!r:.80}")

        def value(key: str, ok: Callable[[Any], bool]) -> Any:
            if key not in data or not ok(data[key]):
                raise ValueError(f"{key}: {data.get(key, 'missing')!r:.80}")
            return data[key]

        variant = value("variant", lambda v: isinstance(v, str))
        get_variant(variant)  # RuleError (a ValueError) names an unknown one
        fill = value("fill", lambda v: v in self.fill_choices)
        rounds = value("rounds", lambda v: type(v) is int and 1 <= v <= MAX_ROUNDS)
        hints = value("hints", lambda v: isinstance(v, bool))
        language = value("language", lambda v: v in LANGUAGES)
        joined = value("joined", lambda v: isinstance(v, list) and all(
            type(s) is int and 0 <= s < self.settings.seats for s in v))
        rules = value("rules", lambda v: isinstance(v, dict) and all(
            isinstance(r, dict) for r in v.values()))
        for name in rules:
            get_variant(name)
        try:
            rule_values = {name: dict(make_rules(name, rules.get(name, {}))) for name in VARIANTS}
        except ValueError as exc:
            raise ValueError(f"rules: {exc}") from None
        self.variant, self.fill, self.rounds, self.hints = variant, fill, rounds, hints
        self.language, self.joined, self.rule_values = language, set(joined), rule_values
        self.round_choices = tuple(sorted(set(self.round_choices) | {rounds}))

    # ---- the match to start

    def rules(self, variant: str | None = None) -> dict[str, Any]:
        """The house rules of the chosen variant (or ``variant``) that differ from its
        defaults, as the config file would write them (off for a rule without a value),
        for the journal."""
        variant = variant or self.variant
        values = self.rule_values[variant]
        return {spec.name: "off" if values[spec.name] is None else values[spec.name]
                for spec in get_variant(variant).rule_specs
                if values[spec.name] != spec.default}


def rule_words(name: str, lang: str) -> str:
    """A house rule's name as the lobby shows it: 'final turn', 'dernier tour'."""
    return say(lang, name.replace("_", " "))


def value_words(value: str, lang: str) -> str:
    """A house rule's value (RuleSpec.describe) in ``lang``: numbers stay, words change."""
    return value if value.lstrip("-").isdigit() else say(lang, value)


def _next(choices: tuple, current: Any, direction: int) -> Any:
    return choices[(choices.index(current) + direction) % len(choices)]
