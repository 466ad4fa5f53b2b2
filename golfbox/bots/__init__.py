"""Players that choose an action from their seat's view only.

Every bot by name, in one explicit table: the lobby, ``[game] bots``, ``golfbox sim --bot``
and ``simulate --bots`` all read it.
"""

from __future__ import annotations

import random
from typing import Callable

from golfbox.bots.base import Bot
from golfbox.bots.greedy import GreedyBot
from golfbox.bots.levels import EasyBot, MediumBot
from golfbox.bots.random_bot import RandomBot
from golfbox.bots.search import SearchBot

BOTS: dict[str, Callable[[random.Random], Bot]] = {
    bot.name: bot for bot in (RandomBot, EasyBot, GreedyBot, MediumBot, SearchBot)}
LEVELS = ("easy", "medium", "hard")  # what the lobby offers, weakest first
DEFAULT_BOT = "hard"  # the one default: seats the lobby fills, stand-ins, `[game] bots = N`, sim


def make_bot(name: str, rng: random.Random) -> Bot:
    try:
        return BOTS[name](rng)
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (one of: {', '.join(sorted(BOTS))})") from None


__all__ = ["BOTS", "Bot", "make_bot", "LEVELS", "DEFAULT_BOT"]
