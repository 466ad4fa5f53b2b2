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
    names = { 1 = "Ann", 2 = "Bob" }
    seed = 1234                 # replay a known deal (default: a fresh random seed per match)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Mapping

from golfbox.bots import DEFAULT_BOT, make_bot
from golfbox.engine import DEFAULT_ROUNDS, RuleError, get_variant, make_rules
from golfbox.hal.config import MAX_SEATS, ConfigError

GAME_KEYS = ("variant", "rules", "rounds", "seats", "bots", "bot_delay", "peek_timeout",
             "takeover_after", "auto_start", "names", "seed")


@dataclass
class TableSettings:
    variant: str = "6-card"
    rules: dict[str, Any] = field(default_factory=dict)
    rounds: int = DEFAULT_ROUNDS
    seats: int = 4  # physical seats (pads and displays) at the table
    bots: dict[int, str] = field(default_factory=dict)  # 0-based seat -> bot name
    bot_delay: float = 1.0
    peek_timeout: float = 10.0
    takeover_after: float = 120.0  # 0: a seat that went away is waited for, for ever
    auto_start: bool = False
    names: dict[int, str] = field(default_factory=dict)  # 0-based seat -> name
    seed: int | None = None

    def name(self, seat: int) -> str:
        """The configured name, else P1, P2 … (seats 1-based, as on the screens)."""
        return self.names.get(seat) or f"P{seat + 1}"

    def display_name(self, seat: int, bot: str | None) -> str:
        """The one name of a seat in a match, on every display: 'Ann', 'P3 (HARD)'."""
        name = self.name(seat)
        return f"{name} ({bot.upper()})" if bot is not None else name


def settings_from_config(game: Mapping[str, Any], seats: int) -> TableSettings:
    """Validate a [game] table for a table of ``seats`` physical seats.

    Raises ConfigError naming the key: ``game.bots.5: there is no seat 5 (4 seats)``.
    """
    for key in game:
        if key not in GAME_KEYS:
            raise ConfigError(f"game.{key}: unknown key (expected one of: {', '.join(GAME_KEYS)})")
    settings = TableSettings(seats=seats)
    if "seats" in game:
        settings.seats = _int(game, "seats", 2, MAX_SEATS)
        if settings.seats > seats:
            raise ConfigError(f"game.seats: {settings.seats} seats, but only {seats} are wired ([[seats]])")
    if "variant" in game:
        settings.variant = _str(game, "variant")
    try:
        variant = get_variant(settings.variant)
    except RuleError as exc:
        raise ConfigError(f"game.variant: {exc}") from None
    rules = game.get("rules", {})
    if not isinstance(rules, dict):
        raise ConfigError(f"game.rules: expected a table, e.g. rules = {{ final_turn = true }}")
    try:
        make_rules(variant, rules)
    except RuleError as exc:
        raise ConfigError(f"game.rules: {exc}") from None
    settings.rules = dict(rules)
    if "rounds" in game:
        settings.rounds = _int(game, "rounds", 1, 99)
    settings.bots = _bots(game.get("bots", {}), settings.seats)
    if "bot_delay" in game:
        settings.bot_delay = _seconds(game, "bot_delay", 0.0, 30.0)
    if "peek_timeout" in game:
        settings.peek_timeout = _seconds(game, "peek_timeout", 0.5, 600.0)
    if "takeover_after" in game:
        settings.takeover_after = _seconds(game, "takeover_after", 0.0, 86400.0)
    if "auto_start" in game:
        if not isinstance(game["auto_start"], bool):
            raise ConfigError(f"game.auto_start: expected true or false, got {game['auto_start']!r}")
        settings.auto_start = game["auto_start"]
    settings.names = {seat: _str_value(name, f"game.names.{seat + 1}")
                      for seat, name in _by_seat(game.get("names", {}), "names", settings.seats).items()}
    if "seed" in game:
        settings.seed = _int(game, "seed", 0, 2**64 - 1)
    if settings.auto_start:
        check_players(settings.variant, settings.seats)
    return settings


def check_players(variant_name: str, players: int) -> None:
    """ConfigError when ``players`` cannot play the variant (auto_start plays every seat)."""
    variant = get_variant(variant_name)
    if not variant.min_players <= players <= variant.max_players:
        raise ConfigError(f"game.variant: {variant.name} is for {variant.min_players} to "
                          f"{variant.max_players} players, the table has {players} seats")


def _bots(raw: Any, seats: int) -> dict[int, str]:
    if isinstance(raw, int) and not isinstance(raw, bool):
        if not 0 <= raw <= seats:
            raise ConfigError(f"game.bots: {raw} bots at a table of {seats} seats")
        return {seat: DEFAULT_BOT for seat in range(seats - raw, seats)}
    bots = {}
    for seat, name in _by_seat(raw, "bots", seats).items():
        name = _str_value(name, f"game.bots.{seat + 1}")
        try:
            make_bot(name, random.Random(0))
        except ValueError as exc:
            raise ConfigError(f"game.bots.{seat + 1}: {exc}") from None
        bots[seat] = name
    return bots


def _by_seat(raw: Any, key: str, seats: int) -> dict[int, Any]:
    """{ "1" = x, "3" = y } (1-based seat numbers) -> {0: x, 2: y}."""
    if not isinstance(raw, dict):
        raise ConfigError(f"game.{key}: expected a table by seat number, e.g. {key} = {{ 1 = ... }}")
    out = {}
    for number, value in raw.items():
        if not str(number).isdigit() or not 1 <= int(number) <= seats:
            raise ConfigError(f"game.{key}.{number}: there is no seat {number} (seats 1 to {seats})")
        out[int(number) - 1] = value
    return out


def _int(game: Mapping[str, Any], key: str, lo: int, hi: int) -> int:
    value = game[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"game.{key}: expected a whole number, got {value!r}")
    if not lo <= value <= hi:
        raise ConfigError(f"game.{key}: {value} is out of range ({lo}..{hi})")
    return value


def _seconds(game: Mapping[str, Any], key: str, lo: float, hi: float) -> float:
    value = game[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ConfigError(f"game.{key}: expected a number of seconds, got {value!r}")
    if not lo <= value <= hi:
        raise ConfigError(f"game.{key}: {value} is out of range ({lo}..{hi} s)")
    return float(value)


def _str(game: Mapping[str, Any], key: str) -> str:
    return _str_value(game[key], f"game.{key}")


def _str_value(value: Any, key: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{key}: expected a non-empty string, got {value!r}")
    return value.strip()
