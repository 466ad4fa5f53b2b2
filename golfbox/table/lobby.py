"""Before a match: who plays, which game.

On any seat's pad:

    ●        join (your seat plays as a person; it replaces a configured bot)
    ✕        leave
    ◀ ▶      (a joined seat) change the game: each variant, with or without
             bots filling the empty seats; the shared display shows the choice
    hold ●   (a joined seat) start the match

Seats named in the config's ``bots`` play as bots unless someone joins
there. The house rules come from the config and apply to the configured
variant only (another variant chosen here plays its defaults).
"""

from __future__ import annotations

from dataclasses import dataclass

from golfbox.engine import VARIANTS, get_variant
from golfbox.hal.base import Button, EventKind
from golfbox.table.settings import DEFAULT_BOT, TableSettings


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
class GameChoice:
    variant: str
    fill_with_bots: bool

    def describe(self) -> str:
        return f"{self.variant} · empty seats: {'bots' if self.fill_with_bots else 'none'}"


class Lobby:
    def __init__(self, settings: TableSettings):
        self.settings = settings
        self.joined: set[int] = set()
        self.choices = [GameChoice(v, fill) for v in VARIANTS for fill in (False, True)]
        self.index = self.choices.index(GameChoice(settings.variant, False))

    @property
    def choice(self) -> GameChoice:
        return self.choices[self.index]

    def players(self) -> list[Player]:
        """The match's players in seat order, as the lobby stands now."""
        players = []
        for seat in range(self.settings.seats):
            name = self.settings.name(seat)
            if seat in self.joined:
                players.append(Player(seat, None, name))
            elif seat in self.settings.bots:
                players.append(Player(seat, self.settings.bots[seat], f"{name} (bot)"))
            elif self.choice.fill_with_bots:
                players.append(Player(seat, DEFAULT_BOT, f"{name} (bot)"))
        return players

    def problem(self) -> str | None:
        """Why the match cannot start now, or None."""
        players = self.players()
        variant = get_variant(self.choice.variant)
        if not any(p.bot is None for p in players):
            return "press ● on your pad to join"
        if len(players) < variant.min_players:
            return f"{variant.name} needs {variant.min_players} players: join, or ◀▶ for bots"
        if len(players) > variant.max_players:
            return f"{variant.name} is for at most {variant.max_players} players"
        return None

    def prompt(self, seat: int) -> str:
        if seat in self.joined:
            return "◀▶ game · hold ● start · ✕ leave"
        return "● join"

    def press(self, seat: int, button: Button, kind: EventKind) -> tuple[bool, str]:
        """Handle a button; returns (start the match now?, a message for that seat)."""
        if kind is EventKind.HELD:
            if button is Button.OK and seat in self.joined:
                problem = self.problem()
                return (problem is None, problem or "")
            return False, ""
        if button is Button.OK:
            self.joined.add(seat)
        elif button is Button.BACK:
            self.joined.discard(seat)
        elif seat not in self.joined:
            return False, "press ● to join first"
        elif button is Button.LEFT:
            self.index = (self.index - 1) % len(self.choices)
        elif button is Button.RIGHT:
            self.index = (self.index + 1) % len(self.choices)
        return False, ""

    def rules(self) -> dict:
        """The config's house rules belong to the config's variant."""
        return dict(self.settings.rules) if self.choice.variant == self.settings.variant else {}
