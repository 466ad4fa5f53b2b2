"""The levels a table offers: ``easy``, ``medium``, ``hard`` (bots.search).

``medium`` is greedy with its faults fixed: it counts cards (an unknown card is
worth the mean of the cards it has not seen, from the public history), scores
a grid it knows fully by the real rules (four of a kind, rows+columns, the −30
double line), rates an opponent's face-down cards that the opponent has seen as
kept low cards, knocks only when clearly lowest, by a margin that grows
with the knock penalty, and in 9-card takes the discard only when it is low or
of a rank its grid shows. ``easy`` plays like medium but forgets the face-down
cards it peeked at and now and then makes a loose move, as a learner does.
"""

from __future__ import annotations

from golfbox.bots.greedy import TAKE_MARGIN, GreedyBot, added_in_order, estimate
from golfbox.bots.patience import past_patience
from golfbox.engine import (Action, ActionKind as A, FINISHER_PENALTY_PER_LOWER, HOLDING,
                            SCORE_LINES, START, SeatView, grid_score, public_memory, rank_of,
                            unseen_cards)

KEPT_BELOW_MEAN = 2.5  # a face-down card its owner has seen and kept: this much below the mean
KNOCK_MARGIN = 3.0  # medium knocks only this much below every other seat's estimate
FINAL_TURN_GAIN = 3.0  # how much lower another player may get on the turn left after going out
EASY_SLIP = 0.2  # how often easy makes a loose move


def mean_value(variant, cards, empty: float) -> float:
    """The mean value of ``cards`` (what an unseen card is worth, counting cards), or
    ``empty`` when there are none."""
    values = variant.values
    return sum(values[rank_of(c)] for c in cards) / len(cards) if cards else empty


class MediumBot(GreedyBot):
    name = "medium"
    needs_view = True

    def choose(self, view: SeatView) -> Action:
        self._unknown = None
        return super().choose(view)

    def _unknown_value(self, view: SeatView) -> float:
        """The mean value of the cards this seat cannot locate (card counting)."""
        if self._unknown is None:
            self._unknown = mean_value(view.variant, unseen_cards(view), 0.0)
        return self._unknown

    def _estimate(self, view, grid, unknown) -> float:
        if None not in grid:
            return grid_score(view.variant, view.rules, [rank_of(c) for c in grid])
        return estimate(view.variant, view.rules, grid, unknown)

    def _start_turn(self, view, grid, kinds, unknown) -> Action:
        return super()._start_turn(view, grid, kinds, self._unknown_value(view))

    def _place_or_discard(self, view, grid, legal, unknown) -> Action:
        return super()._place_or_discard(view, grid, legal, self._unknown_value(view))

    def _worth_a_look(self, view, grid, top, unknown) -> bool:
        """In 9-card only a low discard, or one of a rank its grid already shows, is
        worth taking (as for the play-out player): a middling card that beats a high
        one by TAKE_MARGIN still gains less than a draw is likely to (a King or a
        joker, or a card of a rank the grid shows). Taking any card that
        gained TAKE_MARGIN, medium scored 9-card no better than greedy (+0.04 points a
        round against 3 greedy; with this rule, -1.72). The rule also helps it a little
        in the other variants (4-card -0.48 -> -0.58), but there medium already beats
        greedy, and in 4-card it would play as well as hard (-0.04 ± 0.14 a round):
        the levels keep their order, so it is 9-card's alone."""
        if view.variant.scoring != SCORE_LINES:
            return True
        rank = rank_of(top)
        return view.variant.values[rank] <= unknown - TAKE_MARGIN or any(
            card is not None and rank_of(card) == rank for card in grid)

    def _opponent_estimates(self, view, unknown) -> list[float]:
        memory = public_memory(view)
        kept = unknown - KEPT_BELOW_MEAN
        values = view.variant.values
        out = []
        for seat, grid in enumerate(view.grids):
            if seat == view.seat:
                continue
            seen = view.owner_seen[seat]
            total_known = list(grid)
            for pos, card in memory[seat].items():
                total_known[pos] = card
            est = estimate(view.variant, view.rules, total_known, unknown)
            # A card its owner has seen and kept is likely low: rate it so.
            adjust = added_in_order(unknown - kept for p, c in enumerate(total_known)
                                    if c is None and seen >> p & 1)
            out.append(est - adjust if values else est)
        return out

    def _should_knock(self, view, grid, mine, unknown) -> bool:
        if self._impatient:
            return True
        unknown = self._unknown_value(view)
        mine = self._estimate(view, grid, unknown)
        unseen = sum(1 for c in grid if c is None)
        if unseen > 1:
            return False
        penalty = view.rules.get("knock_penalty", 0)
        margin = KNOCK_MARGIN + unseen * 2 + (3 if penalty == "double" else (penalty or 0) / 4)
        return mine + margin <= min(self._opponent_estimates(view, unknown))

    def _going_out_cost(self, view, grid, pos, after, unknown) -> float:
        """Going out (the last face-down card turned up, a peeked one too) while behind
        costs; in 9-card the finisher also pays 5 for each player who ends lower, and
        every other player still has a turn to get lower."""
        face_up = view.face_up[view.seat]
        down = [p for p in range(len(grid)) if not face_up >> p & 1]
        if not view.variant.ends_when_all_face_up or down != [pos] \
                or self._impatient:
            return 0
        others = self._opponent_estimates(view, self._unknown_value(view))
        cost = 10 if after > min(others) else 0
        if view.variant.scoring == SCORE_LINES:
            cost += FINISHER_PENALTY_PER_LOWER * sum(1 for o in others if o - FINAL_TURN_GAIN < after)
        return cost

    def _lowest_other(self, view, unknown) -> float:
        return min(self._opponent_estimates(view, self._unknown_value(view)))


class EasyBot(MediumBot):
    name = "easy"

    def choose(self, view: SeatView) -> Action:
        legal = view.legal
        # Past its patience a round must end: no loose move then (it would draw instead of
        # knocking, or place a card over a face-up one).
        if len(legal) > 1 and view.phase != START and not past_patience(view) \
                and self._rng.random() < EASY_SLIP:
            loose = [a for a in legal if a.kind != A.KNOCK]
            if view.phase == HOLDING:  # a card goes somewhere plausible, not anywhere
                loose = [a for a in loose if a.kind == A.DISCARD or view.own_grid[a.pos] is None
                         or view.variant.values[rank_of(view.own_grid[a.pos])]
                         > view.variant.values[rank_of(view.held)]] or loose
            return loose[int(self._rng.random() * len(loose))]
        # It forgets about half the face-down cards it has seen, anew each time.
        up, rnd = view.face_up[view.seat], self._rng.random
        forgotten = tuple(c if up >> p & 1 or rnd() < 0.5 else None
                          for p, c in enumerate(view.own_grid))
        return super().choose(view._replace(own_grid=forgotten))
