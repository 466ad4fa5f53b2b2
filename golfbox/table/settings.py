"""The [game] table of the config file, validated into TableSettings.

Seats are numbered from 1 in the file (as on the table and the displays) and
from 0 inside the program (as in ButtonEvent.seat)::

    [game]
    variant = "6-card"          # 4-card, 6-card, polish-poker, 9-card
    rules = { final_turn = true }
    rounds = 9
    bots = { 3 = "medium" }     # seat 3 starts as a bot (easy, medium, hard); or N: hard in the last N seats
    bot_delay = 1.0             # seconds a bot "thinks"
    peek_timeout = 10.0         # seconds a 4-card peek stays up before "ready" is pressed for you
    takeover_after = 120.0      # seconds a seat whose node is unplugged waits before a bot
                                # plays for it (until it is back); 0: wait for ever
    auto_start = false          # true: skip the lobby and play at once
    hints = false               # true: holding ● shows what the hard bot would do (for learners)
    language = "en"             # what the displays say: "en" or "fr" (also chosen in the lobby)
    names = { 1 = "Ann", 2 = "Иван", 3 = "Γιώργος" }   # Latin, Cyrillic or Greek letters
    seed = 1234                 # the first match deals a known deal (default: a fresh seed per match)
    screen_saver_minutes = 10   # every display goes dark but for a small moving line after this
                                # long with no press and nothing changing; 0: never
"""

from __future__ import annotations

import re
import string
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Mapping

from golfbox.bots import BOTS, DEFAULT_BOT
from golfbox.configfile import ConfigError, Section, check_str
from golfbox.engine import DEFAULT_ROUNDS, RuleError, get_variant, make_rules
from golfbox.hal.base import DEFAULT_HOLD_TIME
from golfbox.hal.config import MAX_SEATS
from golfbox.render import glyphs
from golfbox.render.words import DEFAULT_LANGUAGE, LANGUAGES, say

SEAT_NUMBER = re.compile(r"[1-9][0-9]*")  # a seat as the config writes it, from 1
MAX_ROUNDS = 99  # a match's rounds, from the config or the command line
MAX_SEED = 2**64 - 1  # a match's seed is a whole number 0..MAX_SEED
MAX_SAVER_MINUTES = 1440.0  # a day: more is a mistake (hours, or seconds, meant)
# What a name may hold, as the refusal of one says it.
DRAWN = ("they draw Latin, Cyrillic and Greek letters (marks too: Dvořák, Ёжиков, Γιώργος), "
         "digits, spaces and the signs on an English keyboard: "
         + " ".join(c for c in string.punctuation if glyphs.undrawable(c) is None))
GAME_KEYS = ("variant", "rules", "rounds", "seats", "bots", "bot_delay", "peek_timeout",
             "takeover_after", "auto_start", "hints", "language", "names", "seed",
             "screen_saver_minutes")


@dataclass
class TableSettings:
    variant: str = "6-card"
    rules: dict[str, Any] = field(default_factory=dict)
    rounds: int = DEFAULT_ROUNDS
    seats: int = 4  # physical seats (pads and displays) at the table
    bots: dict[int, str] = field(default_factory=dict)  # 0-based seat -> bot name
    # golfbox sim: nobody can join the seats in ``bots`` (no keys there). They are the
    # lobby's empty seats, its bots of their level at first; a config's bots stay its own.
    lobby_fills_bots: bool = False
    bot_delay: float = 1.0
    peek_timeout: float = 10.0
    takeover_after: float = 120.0  # 0: a seat that went away is waited for, for ever
    auto_start: bool = False
    hints: bool = False  # holding ● moves a person's cursor to what `hard` would do
    hold_time: float = DEFAULT_HOLD_TIME  # the pads' long press (gpio.hold_time): ● waits this long with hints
    hold_times: dict[int, float] = field(default_factory=dict)  # seats held otherwise: nodes
    names: dict[int, str] = field(default_factory=dict)  # 0-based seat -> name
    seed: int | None = None
    language: str = DEFAULT_LANGUAGE  # what the displays say (golfbox.render.words)
    # The OLEDs burn in: after this long with no press and no change in the game, every
    # display shows the screen saver (table/saver.py). 0: never.
    screen_saver_minutes: float = 10.0

    def hold_time_of(self, seat: int) -> float:
        """How long after PRESSED this seat's pad sends HELD."""
        return self.hold_times.get(seat, self.hold_time)

    def name(self, seat: int, lang: str | None = None) -> str:
        """The configured name, else P1, P2 … (J1, J2 … in French; seats 1-based, as on
        the screens)."""
        return self.names.get(seat) or say(lang or self.language, "P{n}", n=seat + 1)

    def display_name(self, seat: int, bot: str | None, lang: str | None = None) -> str:
        """The one name of a seat in a match, on every display: 'Ann', 'P3 (HARD)', 'J3 (FORT)'."""
        lang = lang or self.language
        name = self.name(seat, lang)
        return f"{name} ({say(lang, bot).upper()})" if bot is not None else name


def settings_from_config(game: Mapping[str, Any], seats: int) -> TableSettings:
    """Validate a [game] table for a table of ``seats`` physical seats.

    Raises ConfigError naming the key: ``game.bots.5: there is no seat 5 (seats 1 to 4)``.
    """
    game = Section(dict(game), "game")
    game.check_known(GAME_KEYS)
    if seats < 2:  # check-hardware can bring up one seat; a game needs two
        raise ConfigError("seats", f"{seats} seat wired, a game needs at least 2 "
                                   "(one [[seats]] table per seat)")
    settings = TableSettings(seats=seats)
    settings.seats = game.getint("seats", seats, minval=2, maxval=MAX_SEATS)
    if settings.seats > seats:
        raise ConfigError("game.seats",
                          f"{settings.seats} seats, but only {seats} are wired ([[seats]])")
    settings.variant = game.getstr("variant", settings.variant, nonempty=True)
    try:
        variant = get_variant(settings.variant)
    except RuleError as exc:
        raise ConfigError("game.variant", str(exc)) from None
    rules = game.section("rules", {}).raw
    try:
        make_rules(variant, rules)
    except RuleError as exc:
        raise ConfigError("game.rules", str(exc)) from None
    settings.rules = dict(rules)
    settings.rounds = game.getint("rounds", settings.rounds, minval=1, maxval=MAX_ROUNDS)
    settings.bots = _bots(game, settings.seats)
    settings.bot_delay = game.getseconds("bot_delay", settings.bot_delay, minval=0.0, maxval=30.0)
    settings.peek_timeout = game.getseconds("peek_timeout", settings.peek_timeout,
                                            minval=0.5, maxval=600.0)
    settings.takeover_after = game.getseconds("takeover_after", settings.takeover_after,
                                              minval=0.0, maxval=86400.0)
    settings.auto_start = game.getbool("auto_start", settings.auto_start)
    settings.hints = game.getbool("hints", settings.hints)
    settings.language = game.getchoice("language", tuple(LANGUAGES), settings.language)
    names = _by_seat(game, "names", settings.seats)
    settings.names = {seat: _name(name, names.key(str(seat + 1))) for seat, name in _seat_items(names)}
    _check_names_differ(settings.names, settings.seats, names)
    settings.seed = game.getint("seed", None, minval=0, maxval=MAX_SEED)
    settings.screen_saver_minutes = game.getamount(
        "screen_saver_minutes", settings.screen_saver_minutes, minval=0.0,
        maxval=MAX_SAVER_MINUTES, unit="minutes", symbol="min")
    if 0 < settings.screen_saver_minutes < 1:  # it would swallow every first press
        raise ConfigError(game.key("screen_saver_minutes"),
                          f"{settings.screen_saver_minutes:g} min would darken the table between "
                          "two presses: 0 (never), or from 1 min")
    if settings.auto_start:
        check_players(settings.variant, settings.seats)
    return settings


def check_players(variant_name: str, players: int) -> None:
    """ConfigError when ``players`` cannot play the variant (auto_start plays every seat)."""
    variant = get_variant(variant_name)
    if not variant.min_players <= players <= variant.max_players:
        raise ConfigError("game.variant", f"{variant.name} is for {variant.min_players} to "
                          f"{variant.max_players} players, the table has {players} seats")


def _name(value: Any, key: str) -> str:
    """A player's name: shown on every display and written in the log, on one line."""
    name = check_str(value, key, nonempty=True)
    if any(unicodedata.category(c) == "Cc" for c in name):  # a newline, a tab, an escape
        raise ConfigError(key, f"{name!r} holds a control character; write the name alone")
    # A zero-width space, a right-to-left override: '?' on a panel, a log line turned round.
    # Joiners are left to the check after: they join an emoji's parts, the thing to name.
    invisible = next((c for c in name if unicodedata.category(c) == "Cf"
                      and c not in "\u200c\u200d"), None)
    if invisible:
        raise ConfigError(key, f"{name!r} holds an invisible character "
                               f"(U+{ord(invisible):04X}); write the name alone")
    # An emoji, a Chinese or an Arabic letter: every display would draw it as '?'.
    unknown = glyphs.undrawable(name)
    if unknown:
        raise ConfigError(key, f"{name!r} holds {unknown!r} (U+{ord(unknown):04X}), which the "
                               f"displays cannot draw; {DRAWN}")
    return name


def _check_names_differ(names: dict[int, str], seats: int, section: Section) -> None:
    """Displays draw names in capitals, a letter the font lacks as its plain letter, a
    Cyrillic or Greek letter that looks like a Latin one as that one (Тома as TOMA): two
    seats that read alike there could not be told apart, nor could a name from an unnamed
    seat's own (P3, or J3 once the lobby speaks French)."""
    def looks(name: str) -> str:
        return " ".join(glyphs.drawn_letters(name).split()).casefold()

    owner: dict[str, int] = {}
    for seat in range(seats):
        if seat not in names:
            for lang in LANGUAGES:
                owner[looks(say(lang, "P{n}", n=seat + 1))] = seat
    for seat, name in sorted(names.items()):
        other = owner.setdefault(looks(name), seat)
        if other != seat:
            whose = (f"seat {other + 1}'s name too" if other in names
                     else f"seat {other + 1}'s name when it has none")
            raise ConfigError(section.key(str(seat + 1)), f"{name!r} is {whose}; "
                                                          "give each seat a name of its own")


def _bots(game: Section, seats: int) -> dict[int, str]:
    raw = game.get("bots", {})
    if isinstance(raw, int) and not isinstance(raw, bool):
        if not 0 <= raw <= seats:
            raise ConfigError("game.bots", f"{raw} bots at a table of {seats} seats")
        return {seat: DEFAULT_BOT for seat in range(seats - raw, seats)}
    by_seat = _by_seat(game, "bots", seats)
    bots = {}
    for seat, name in _seat_items(by_seat):
        key = by_seat.key(str(seat + 1))
        name = check_str(name, key, nonempty=True)
        if name not in BOTS:
            raise ConfigError(key, f"unknown bot {name!r} (one of: {', '.join(sorted(BOTS))})")
        bots[seat] = name
    return bots


def _by_seat(game: Section, key: str, seats: int) -> Section:
    """A table by 1-based seat number, { 1 = x, 3 = y }, every number a seat of the table."""
    if not isinstance(game.get(key, {}), dict):
        raise ConfigError(f"game.{key}",
                          f"expected a table by seat number, e.g. {key} = {{ 1 = ... }}")
    table = game.section(key, {})
    for number in table.raw:
        # Plain ASCII digits without a leading zero: "²" passes str.isdigit() but not int(),
        # and "01" would be a second key for seat 1.
        if not SEAT_NUMBER.fullmatch(str(number)) or not 1 <= int(number) <= seats:
            raise ConfigError(table.key(number), f"there is no seat {number} (seats 1 to {seats})")
    return table


def _seat_items(table: Section) -> list[tuple[int, Any]]:
    """(0-based seat, value) of a table checked by _by_seat."""
    return [(int(number) - 1, value) for number, value in table.raw.items()]
