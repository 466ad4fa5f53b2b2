from __future__ import annotations

from typing import Protocol

from golfbox.engine import Action, SeatView


class Bot(Protocol):
    name: str
    # A bot that reads nothing of its view but the legal actions says so, and offers
    # choose_legal(legal): the simulator then skips snapshotting the rest of the view.
    needs_view: bool

    def choose(self, view: SeatView) -> Action:
        """An action from ``view.legal``."""
