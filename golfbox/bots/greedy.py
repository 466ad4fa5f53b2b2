"""A greedy bot: keeps low cards, builds pairs and lines, knocks when likely lowest.

It reads only its seat's view. Unknown cards are valued at the deck's mean
value; every choice minimises the estimated score of its own grid. The tips
of seed 001 are its rules of thumb: Kings and jokers first, make a pair even
of high cards, take the discard only when it helps, discard a useless draw
(and in polish-poker turn a card up for free).
"""

from __future__ import annotations

import random
from functools import lru_cache, reduce
from operator import add

from golfbox.bots.patience import past_patience
from golfbox.engine import (Action, ActionKind as A, FLIP_OPTION, HOLDING, JOKER,
                            NINE_CARD_LINE_SCORES, SCORE_COLUMN_PAIRS, SCORE_LINES, START,
                            SeatView, Variant, rank_of)

TAKE_MARGIN = 2.5  # the discard is taken only if placing it lowers the estimate this much
LINE_HOPE = 0.3  # lines: two of a kind with the third card unknown, rated this share lower


def added_in_order(numbers) -> float:
    """What sum() gave on Python 3.11: from 3.12 on, sum() rounds a sum of floats
    otherwise (compensated), a last bit apart, enough to break a tie between two cards
    differently. The bots add their estimates in order on every Python, so a seed plays
    the same on Pi OS bookworm (3.11) and trixie (3.13), and a journal resumes so."""
    return reduce(add, numbers, 0)


@lru_cache(maxsize=None)
def mean_card_value(variant: Variant) -> float:
    jokers = variant.jokers_per_deck
    total = 4 * sum(variant.values[:13]) + jokers * variant.values[JOKER]
    return total / (52 + jokers)


def estimate(variant: Variant, rules, grid, unknown: float) -> float:
    """Expected score of a grid whose None cards are worth ``unknown`` on average."""
    values = variant.values
    if variant.scoring == SCORE_COLUMN_PAIRS:
        cols, total = variant.cols, 0.0
        for c in range(cols):
            top, bottom = grid[c], grid[cols + c]
            if top is not None and bottom is not None:
                if rank_of(top) == rank_of(bottom) and not (rules.get("negative_pairs_keep")
                                                    and values[rank_of(top)] < 0):
                    continue  # a pair cancels
                total += values[rank_of(top)] + values[rank_of(bottom)]
            else:
                total += added_in_order(values[rank_of(c)] if c is not None else unknown
                                        for c in (top, bottom))
        return total
    if variant.scoring == SCORE_LINES:
        cols, total = variant.cols, 0.0
        for r in range(variant.rows):
            line = grid[r * cols:(r + 1) * cols]
            ranks = [rank_of(c) for c in line if c is not None]
            same = len(ranks) == cols and len(set(ranks)) == 1
            if same:
                total += NINE_CARD_LINE_SCORES.get(ranks[0], 0)
                continue
            total += sum(values[r_] for r_ in ranks) + unknown * (cols - len(ranks))
            if len(ranks) == cols - 1 and len(set(ranks)) == 1:
                total -= LINE_HOPE * sum(values[r_] for r_ in ranks)  # one card from a line
        return total
    return added_in_order(values[rank_of(c)] if c is not None else unknown for c in grid)


class GreedyBot:
    name = "greedy"
    needs_view = True

    def __init__(self, rng: random.Random):
        self._rng = rng
        self._impatient = False  # past its PATIENCE_TURNS own turns this round

    def choose(self, view: SeatView) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        # Read from the round, not counted along: a count kept across calls went on from one
        # match into the next when both were round 1 dealt by seat 0 (simulate --rounds 1).
        self._impatient = past_patience(view)
        variant = view.variant
        unknown = mean_card_value(variant)
        grid = list(view.own_grid)
        kinds = {a.kind for a in legal}
        if view.phase == START or (A.FLIP in kinds and view.phase != FLIP_OPTION):
            return self._spread_flip(variant, grid, legal)
        if view.phase == FLIP_OPTION:
            return self._spread_flip(variant, grid, legal)  # a free look is always worth it
        if view.phase == HOLDING:
            return self._place_or_discard(view, grid, legal, unknown)
        return self._start_turn(view, grid, kinds, unknown)

    def _estimate(self, view, grid, unknown) -> float:
        return estimate(view.variant, view.rules, grid, unknown)

    # -- turn start: knock, take the discard, or draw
    def _start_turn(self, view, grid, kinds, unknown) -> Action:
        mine = self._estimate(view, grid, unknown)
        if A.KNOCK in kinds and self._should_knock(view, grid, mine, unknown):
            return Action(A.KNOCK)
        top = view.discard_top
        if top is not None and self._worth_a_look(view, grid, top, unknown):
            gain, _ = self._best_place(grid, top, unknown, view)
            if gain >= TAKE_MARGIN:
                return Action(A.TAKE)
        return Action(A.DRAW)

    def _worth_a_look(self, view, grid, top, unknown) -> bool:
        """Whether the discard's top is a candidate at all (greedy: any card)."""
        return True

    def _should_knock(self, view, grid, mine, unknown) -> bool:
        unseen = sum(1 for c in grid if c is None)
        others = [self._estimate(view, g, unknown)
                  for seat, g in enumerate(view.grids) if seat != view.seat]
        if self._impatient:
            return True
        if unseen > 1:
            return False
        margin = 2 + 2 * unseen
        return mine + margin <= min(others) or mine <= (0 if unseen else 3) * view.variant.size / 4

    # -- holding a card: the placement that lowers the estimate most
    def _place_or_discard(self, view, grid, legal, unknown) -> Action:
        variant = view.variant
        if variant.ends_when_all_face_up and self._impatient:
            # Move the round on: turn up a face-down card, even one already peeked at
            # (known, yet face down: only placing over it turns it up).
            face_up = view.face_up[view.seat]
            down = [p for p in range(variant.size) if not face_up >> p & 1]
            if down:
                return Action(A.PLACE, self._best_place(grid, view.held, unknown, view, down)[1])
        gain, pos = self._best_place(grid, view.held, unknown, view)
        can_discard = any(a.kind == A.DISCARD for a in legal)
        if can_discard and gain <= 0.5:
            return Action(A.DISCARD)
        return Action(A.PLACE, pos)

    def _best_place(self, grid, card, unknown, view, positions=None) -> tuple[float, int]:
        before = self._estimate(view, grid, unknown)
        best_gain, best_pos = float("-inf"), 0
        for pos in positions if positions is not None else range(len(grid)):
            trial = list(grid)
            trial[pos] = card
            after = self._estimate(view, trial, unknown)
            gain = before - after - self._going_out_cost(view, grid, pos, after, unknown)
            if gain > best_gain:
                best_gain, best_pos = gain, pos
        return best_gain, best_pos

    def _going_out_cost(self, view, grid, pos, after, unknown) -> float:
        """What ending the round by placing at ``pos`` costs, on top of the grid's change."""
        face_up = view.face_up[view.seat]
        last_card = view.variant.ends_when_all_face_up and grid[pos] is None and \
            sum(1 for p in range(len(grid)) if not face_up >> p & 1) == 1
        if last_card and after > self._lowest_other(view, unknown) \
                and not self._impatient:
            return 10  # turning up the last card would end the round while behind
        return 0

    def _lowest_other(self, view, unknown) -> float:
        return min(self._estimate(view, g, unknown)
                   for seat, g in enumerate(view.grids) if seat != view.seat)

    # -- choosing which card to turn up: spread over columns, one per row
    def _spread_flip(self, variant, grid, legal) -> Action:
        flips = [a for a in legal if a.kind == A.FLIP]
        if not flips:
            return next(a for a in legal if a.kind == A.PASS)
        cols = variant.cols

        def crowding(action):
            col, row = action.pos % cols, action.pos // cols
            known_in_col = sum(1 for r in range(variant.rows) if grid[r * cols + col] is not None)
            known_in_row = sum(1 for c in grid[row * cols:(row + 1) * cols] if c is not None)
            return (known_in_col + known_in_row, action.pos)

        return min(flips, key=crowding)
