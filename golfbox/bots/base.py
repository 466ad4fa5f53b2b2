from __future__ import annotations

import random
from typing import Callable, Protocol

from golfbox.engine.actions import Action
from golfbox.engine.views import SeatView


class Bot(Protocol):
    name: str
    # A bot that reads nothing of its view but the legal actions says so, and offers
    # choose_legal(legal): the simulator then skips snapshotting the rest of the view.
    needs_view: bool

    def choose(self, view: SeatView) -> Action:
        """An action from ``view.legal``."""


BOTS: dict[str, Callable[[random.Random], Bot]] = {}


def register(name: str):
    def wrap(cls):
        BOTS[name] = cls
        cls.name = name
        return cls
    return wrap


def make_bot(name: str, rng: random.Random) -> Bot:
    # Import the bot modules so they register themselves.
    from golfbox.bots import greedy, levels, random_bot, search  # noqa: F401

    try:
        return BOTS[name](rng)
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (one of: {', '.join(sorted(BOTS))})") from None
