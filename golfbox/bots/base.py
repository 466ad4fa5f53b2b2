from __future__ import annotations

from typing import Protocol

from golfbox.engine import Action, SeatView


class Bot(Protocol):
    """A bot keeps nothing between its moves that its view does not hold (the view has
    the round's public history): the table makes one for each move, seeded for that
    move, so a match resumed from its journal plays on exactly as it would have."""
    name: str
    # A bot that reads nothing of its view but the legal actions says so, and offers
    # choose_legal(legal): the simulator then skips snapshotting the rest of the view.
    needs_view: bool

    def choose(self, view: SeatView) -> Action:
        """An action from ``view.legal``."""
