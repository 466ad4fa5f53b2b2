"""Players that choose an action from their seat's view only."""

from golfbox.bots.base import BOTS, Bot, make_bot

LEVELS = ("easy", "medium", "hard")  # what the lobby offers, weakest first
DEFAULT_BOT = "hard"  # the one default: seats the lobby fills, stand-ins, `[game] bots = N`, sim

__all__ = ["BOTS", "Bot", "make_bot", "LEVELS", "DEFAULT_BOT"]
