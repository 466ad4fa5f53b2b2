from __future__ import annotations

import random

from golfbox.engine import Action, SeatView


class RandomBot:
    """Uniform over the legal actions. Rounds still end: every variant's end can be reached."""
    name = "random"

    needs_view = False  # it reads only view.legal

    def __init__(self, rng: random.Random):
        self._random = rng.random

    def choose(self, view: SeatView) -> Action:
        return self.choose_legal(view.legal)

    def choose_legal(self, legal: tuple[Action, ...]) -> Action:
        return legal[int(self._random() * len(legal))]
