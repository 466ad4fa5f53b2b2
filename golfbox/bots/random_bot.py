from __future__ import annotations

import random

from golfbox.bots.base import register
from golfbox.engine.actions import Action
from golfbox.engine.views import SeatView


@register("random")
class RandomBot:
    """Uniform over the legal actions. Rounds still end: every variant's end can be reached."""

    def __init__(self, rng: random.Random):
        self._random = rng.random

    def choose(self, view: SeatView) -> Action:
        legal = view.legal
        return legal[int(self._random() * len(legal))]
