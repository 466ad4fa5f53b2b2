from __future__ import annotations

import random

from golfbox.bots.patience import hurry, past_patience
from golfbox.engine import Action, SeatView


class RandomBot:
    """Uniform over the legal actions; past its patience, over those that end the round
    (knock, turn a face-down card up), as every bot. Given only the legal actions
    (choose_legal: simulate's all-random tables, which measure the engine) it has no
    turns to count: its rounds still end, every variant's end can be reached, but
    without the bound."""
    name = "random"

    needs_view = False  # choose_legal is enough (see above)

    def __init__(self, rng: random.Random):
        self._random = rng.random

    def choose(self, view: SeatView) -> Action:
        return self.choose_legal(hurry(view, view.legal) if past_patience(view) else view.legal)

    def choose_legal(self, legal: tuple[Action, ...]) -> Action:
        return legal[int(self._random() * len(legal))]
