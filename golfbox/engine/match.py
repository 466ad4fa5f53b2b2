"""A match: N rounds with a rotating dealer, running totals, the winners.

The match owns the random generator, so a match played from a recorded seed
is replayed card for card by applying the same actions again.
"""

from __future__ import annotations

import random
from typing import Any, Mapping

from golfbox.engine.actions import Action
from golfbox.engine.round import IllegalAction, Round
from golfbox.engine.variants import Rules, Variant, get_variant, make_rules
from golfbox.engine.views import SeatView

DEFAULT_ROUNDS = 9


class Match:
    def __init__(self, variant: Variant | str, players: int,
                 rules: Rules | Mapping[str, Any] | None = None, *, rounds: int = DEFAULT_ROUNDS,
                 seed: int | None = None):
        self.variant = get_variant(variant) if isinstance(variant, str) else variant
        self.variant.check_players(players)
        if rounds < 1:
            raise ValueError(f"a match has at least one round, not {rounds}")
        self.rules = rules if isinstance(rules, Rules) else make_rules(self.variant, rules or {})
        self.players, self.rounds, self.seed = players, rounds, seed
        # Without a seed, shuffles draw from the operating system's randomness.
        self.rng = random.Random(seed) if seed is not None else random.SystemRandom()
        self.totals = [0] * players
        self.history: list[tuple[int, ...]] = []  # round scores, one tuple per finished round
        self.round_no = 0
        self.round: Round = self._deal_next()

    def _deal_next(self) -> Round:
        self.round_no += 1
        return Round(self.variant, self.rules, self.players,
                     dealer=(self.round_no - 1) % self.players, rng=self.rng,
                     round_no=self.round_no, rounds=self.rounds, totals=self.totals)

    @property
    def over(self) -> bool:
        return self.round.over and self.round_no >= self.rounds

    @property
    def winners(self) -> list[int]:
        """Seats with the lowest total (ties share the win)."""
        best = min(self.totals)
        return [seat for seat, total in enumerate(self.totals) if total == best]

    def apply(self, seat: int, action: Action) -> None:
        self.round.apply(seat, action)
        if self.round.over:
            self.apply_round_end()

    def apply_round_end(self) -> None:
        """Book the finished round's scores (apply() does it; simulations playing
        ``match.round`` directly call it once the round is over)."""
        if not self.round.over or len(self.history) == self.round_no:
            return
        self.history.append(self.round.scores)
        self.totals = [t + s for t, s in zip(self.totals, self.round.scores)]

    def next_round(self) -> Round:
        """Deal the next round once the current one is scored."""
        if not self.round.over:
            raise IllegalAction(f"round {self.round_no} is still being played")
        if self.over:
            raise IllegalAction(f"the match is over after {self.rounds} rounds")
        self.round = self._deal_next()
        return self.round

    def view(self, seat: int | None) -> SeatView:
        return self.round.view(seat)
