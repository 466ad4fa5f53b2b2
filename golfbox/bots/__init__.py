"""Players that choose an action from their seat's view only."""

from golfbox.bots.base import BOTS, Bot, make_bot

__all__ = ["BOTS", "Bot", "make_bot"]
