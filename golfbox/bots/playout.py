"""A fast rule-of-thumb player for search play-outs: it reads a Round's own state.

Search plays thousands of rounds to their end per decision, so this player
skips views: it reads the round's lists directly, and only what the seat
would know (face-up cards, its own seen cards, the discard's top) — the
round it plays in is one dealt from a view (golfbox.engine.determinize),
never the real one. The choices come from legal_actions, so the rules are
still the engine's.
"""

from __future__ import annotations

import copy
from array import array
from functools import lru_cache

# The same thresholds as medium's, so that the futures played out have the others
# take, knock and keep cards as the real players at the table do.
from golfbox.bots.greedy import LINE_HOPE, TAKE_MARGIN, added_in_order
from golfbox.bots.levels import KEPT_BELOW_MEAN, KNOCK_MARGIN
from golfbox.engine import (Action, ActionKind as A, HOLDING, JOKER, NINE_CARD_LINE_SCORES,
                            Round, Rules, SCORE_COLUMN_PAIRS, SCORE_LINES, TURN, Variant,
                            grid_score, rank_of)

# A card's rank by table look-up: rank_of for every card, as fast as the engine's own decoding.
RANK = tuple(rank_of(c) for c in range((JOKER + 1) * 4))
# A known card's rank, or UNKNOWN for None: the key of 9-card's table of rows (see gains).
UNKNOWN = JOKER + 1
RANK_OR_UNKNOWN = {None: UNKNOWN, **{c: RANK[c] for c in range(len(RANK))}}
KEYS_PER_CELL, KEYS_PER_CARD = UNKNOWN + 1, JOKER + 1  # a row's ranks or unknown; the card's rank
ROW_KEYS = KEYS_PER_CELL ** 3 * KEYS_PER_CARD

KEEP_GAIN = 0.5  # a drawn card worth less than this is discarded (where allowed)
UNSEEN_MARGIN = 2.0  # knock: this much more below the others for each own card unseen


@lru_cache(maxsize=None)
def card_values(variant: Variant) -> tuple[int, ...]:
    """Value by card integer (rank * 4 + suit)."""
    return tuple(variant.values[RANK[c]] for c in range((JOKER + 1) * 4))


@lru_cache(maxsize=None)
def deck_mean(variant: Variant) -> float:
    jokers = variant.jokers_per_deck
    return (4 * sum(variant.values[:13]) + jokers * variant.values[JOKER]) / (52 + jokers)


class PlayoutPolicy:
    """Draw or take, place where the estimate drops most, discard what does not help,
    knock when clearly lowest, avoid ending a round while behind."""

    def __init__(self, variant: Variant, rules: Rules):
        self.variant, self.rules = variant, rules
        self.values = card_values(variant)
        self.mean = deck_mean(variant)
        self.size, self.cols, self.rows = variant.size, variant.cols, variant.rows
        self.pairs = variant.scoring == SCORE_COLUMN_PAIRS
        self.lines = variant.scoring == SCORE_LINES
        self.keep_negative = bool(rules.get("negative_pairs_keep"))
        self.ends_all_up = variant.ends_when_all_face_up
        self.full = (1 << variant.size) - 1
        self.places = tuple(Action(A.PLACE, p) for p in range(variant.size))
        self.low = self.mean - TAKE_MARGIN  # a card this low is worth taking anywhere
        penalty = rules.get("knock_penalty", 0)
        self.knock_margin = KNOCK_MARGIN + (3 if penalty == "double" else (penalty or 0) / 4)
        # For one search (see seated): the seat searching, and how much wider a lead it
        # waits for before it knocks in its own futures.
        self.searcher, self.own_caution = None, 0.0
        self.row_gains = self.row_known = None  # 9-card: see gains

    def seated(self, seat: int, unseen_mean: float, own_caution: float) -> "PlayoutPolicy":
        """This player for one search from ``seat``'s view: an unknown card is worth
        the mean of the cards the seat has not seen (it counts cards, as medium
        does), and in its own futures the seat knocks only ``own_caution`` points
        further ahead than the others would."""
        seated = copy.copy(self)
        seated.mean, seated.low = unseen_mean, unseen_mean - TAKE_MARGIN
        seated.searcher, seated.own_caution = seat, own_caution
        seated.row_gains = seated.row_known = None  # rated with the other mean: not shared
        return seated

    # -- estimates from what ``seat`` knows of its own grid
    def cells(self, r: Round, seat: int) -> list:
        """Own cards the seat knows (None for unknown)."""
        seen = r.face_up[seat] | r.known[seat]
        grid = r.grids[seat]
        return [grid[p] if seen >> p & 1 else None for p in range(self.size)]

    def column(self, a, b) -> float:
        values, mean = self.values, self.mean
        if a is not None and b is not None and RANK[a] == RANK[b] and not (
                self.keep_negative and values[a] < 0):
            return 0.0
        return (values[a] if a is not None else mean) + (values[b] if b is not None else mean)

    def line(self, cards) -> float:
        """A line of three (9-card's rows), written out card by card: it is the
        play-outs' inner loop, and 9-card play-outs ran 2.2x faster than with a loop
        over the cards (bench/playout_speed.py)."""
        a, b, c = cards
        values = self.values
        if a is not None and b is not None and c is not None:
            rank = RANK[a]
            if rank == RANK[b] == RANK[c]:
                return NINE_CARD_LINE_SCORES.get(rank, 0)
            return values[a] + values[b] + values[c]
        mean = self.mean
        # Summed in the cards' order, as a loop would: the same figures to the last bit.
        va = values[a] if a is not None else mean
        vb = values[b] if b is not None else mean
        vc = values[c] if c is not None else mean
        total = va + vb + vc
        # One card from three of a kind (a line scoring 0): worth keeping, as medium
        # rates it. Without it this player scored 0.4-0.6 points a round worse.
        if a is None:
            if b is not None and c is not None and RANK[b] == RANK[c]:
                total -= LINE_HOPE * (vb + vc)
        elif b is None:
            if c is not None and RANK[a] == RANK[c]:
                total -= LINE_HOPE * (va + vc)
        elif RANK[a] == RANK[b]:  # c is None
            total -= LINE_HOPE * (va + vb)
        return total

    def estimate(self, cells) -> float:
        if self.pairs:
            cols = self.cols
            return added_in_order(self.column(cells[c], cells[c + cols]) for c in range(cols))
        if self.lines:
            cols = self.cols
            return added_in_order(self.line(cells[r * cols:(r + 1) * cols]) for r in range(self.rows))
        values, mean = self.values, self.mean
        return added_in_order(values[c] if c is not None else mean for c in cells)

    def public_estimate(self, r: Round, seat: int, shown: int = 0) -> float:
        """``seat``'s grid from its face-up cards and the face-down ones everybody saw
        it place (``shown``, a bitmask: see PublicMemory); the rest unknown."""
        public, grid = r.face_up[seat] | shown, r.grids[seat]
        return self.estimate([grid[p] if public >> p & 1 else None for p in range(self.size)])

    def rival_estimate(self, r: Round, seat: int, shown: int = 0) -> float:
        """What the others make of ``seat``'s grid: its public estimate, with the
        face-down cards its owner has seen and kept rated lower than an unseen card."""
        seen_down = r.known[seat] & ~(r.face_up[seat] | shown)
        return self.public_estimate(r, seat, shown) - KEPT_BELOW_MEAN * bin(seen_down).count("1")

    def should_knock(self, r: Round, seat: int, cells,
                     memory: "PublicMemory | None" = None) -> bool:
        """Knock only with at most one own card unseen, clearly below every other
        seat, by a margin that grows with the knock penalty: as ``medium`` does, so
        that the futures played out have the others knock when real players would.
        The searching seat itself waits for a wider lead (``own_caution``)."""
        unseen = cells.count(None)
        if unseen > 1:
            return False
        mine = self.estimate(cells) + self.knock_margin + UNSEEN_MARGIN * unseen
        if seat == self.searcher:
            mine += self.own_caution
        shown = memory.shown if memory is not None else None
        return all(mine <= self.rival_estimate(r, s, shown[s] if shown else 0)
                   for s in range(r.players) if s != seat)

    def gains(self, cells, card: int) -> list[float]:
        """For every position, how much placing ``card`` there lowers the estimate
        (written out per scoring: this is the play-outs' inner loop)."""
        values, mean, size = self.values, self.mean, self.size
        value = values[card]
        if self.pairs:
            cols, keep_negative = self.cols, self.keep_negative
            rank = RANK[card]
            out = []
            for pos in range(size):
                a = cells[pos]
                o = cells[pos + cols] if pos < cols else cells[pos - cols]
                vo = values[o] if o is not None else mean
                if a is None:
                    before = mean + vo
                elif o is not None and RANK[a] == RANK[o] and not (keep_negative and values[a] < 0):
                    before = 0.0
                else:
                    before = values[a] + vo
                if o is not None and RANK[o] == rank and not (keep_negative and value < 0):
                    out.append(before)
                else:
                    out.append(before - value - vo)
            return out
        if self.lines:
            # A row's gains depend only on the ranks in it and the card's rank (a
            # card's value is its rank's): each is worked out once, then looked up.
            # 9-card play-outs ran about 1.4x faster. A flat array of doubles keeps
            # the whole table at 1.1 MB (a dict of tuples reached 7 MiB in 32 rounds).
            if self.row_gains is None:
                self.row_gains = array("d", bytes(8 * 3 * ROW_KEYS))
                self.row_known = bytearray(ROW_KEYS)
            table, known, key_of = self.row_gains, self.row_known, RANK_OR_UNKNOWN
            per_cell, per_card = KEYS_PER_CELL, KEYS_PER_CARD
            rank = RANK[card]
            out = []
            for start in range(0, size, 3):  # 9-card's three rows of three
                a, b, c = row = cells[start:start + 3]
                # Rows are numbered by their three keys, then by the card's rank.
                at = ((key_of[a] * per_cell + key_of[b]) * per_cell + key_of[c]) * per_card + rank
                if not known[at]:
                    table[3 * at:3 * at + 3] = array("d", self.row_gain(row, card))
                    known[at] = 1
                out += table[3 * at:3 * at + 3]
            return out
        return [(values[c] if c is not None else mean) - value for c in cells]

    def row_gain(self, row: list, card: int) -> tuple[float, float, float]:
        """How much placing ``card`` at each place of a 9-card row lowers its rating."""
        line = self.line
        before = line(row)
        out = []
        for i in range(3):
            after = row[:]
            after[i] = card
            out.append(before - line(after))
        return tuple(out)

    def best_place(self, r: Round, seat: int, cells, card: int) -> tuple[float, int]:
        gains = self.gains(cells, card)
        best = max(gains)
        best_pos = gains.index(best)
        if self.ends_all_up:
            up = r.face_up[seat]
            down = self.full & ~up
            if down & (down - 1) == 0 and down >> best_pos & 1:
                # Turning up the last card ends the round: only when not behind.
                trial = list(cells)
                trial[best_pos] = card
                mine = self.estimate(trial)
                if any(self.public_estimate(r, s) < mine
                       for s in range(r.players) if s != seat):
                    gains[best_pos] -= 10
                    best = max(gains)
                    best_pos = gains.index(best)
        return best, best_pos

    # -- the choice
    def choose(self, r: Round, seat: int, memory: "PublicMemory | None" = None) -> Action:
        legal = r.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        phase = r.phase
        if phase == HOLDING:
            g, pos = self.best_place(r, seat, self.cells(r, seat), r.held)
            if g <= KEEP_GAIN and legal[-1].kind == A.DISCARD:
                return legal[-1]
            return self.places[pos]
        if phase == TURN:
            if r.first_flips[seat]:
                return legal[0]
            cells = self.cells(r, seat)
            if len(legal) == 3 and self.should_knock(r, seat, cells, memory):  # draw, take, knock
                return legal[2]
            top = r.discard[-1] if r.discard else None
            # Only a low card, or one that can match a card of the grid, is worth a look.
            if top is not None and (self.values[top] <= self.low or any(
                    c is not None and RANK[c] == RANK[top] for c in cells)):
                if self.best_place(r, seat, cells, top)[0] >= TAKE_MARGIN:
                    return legal[1]
            return legal[0]
        return legal[0]  # START: flip or ready; FLIP_OPTION: a free look, turn one up


class PublicMemory:
    """Per seat, a bitmask of the face-down cards every player saw it place (in 4-card
    a card taken from the discard pile is placed face down, in full view), kept up to
    date along a play-out: what the players at the table remember of each other."""

    __slots__ = ("shown", "taker")

    def __init__(self, shown: list[int], taker: int | None = None):
        self.shown, self.taker = shown, taker  # taker: the seat holding a card it took

    def after(self, seat: int, action: Action) -> "PublicMemory":
        """A copy that has noted ``action``: this memory stays as it is."""
        new = PublicMemory(self.shown[:], self.taker)
        new.note(seat, action)
        return new

    def note(self, seat: int, action: Action) -> None:
        kind = action[0]
        if kind == A.PLACE:
            if self.taker == seat:
                self.shown[seat] |= 1 << action[1]
            else:  # a drawn card: nobody else saw it
                self.shown[seat] &= ~(1 << action[1])
            self.taker = None
        elif kind == A.TAKE:
            self.taker = seat


def playout(r: Round, policy: PlayoutPolicy, turn_limit: int,
            memory: PublicMemory | None = None) -> None:
    """Play ``r`` on with ``policy`` in every seat until it is over or ``turn_limit``;
    ``memory``, when given, is brought up to date as cards are placed."""
    apply, choose = r.apply, policy.choose
    while (seats := r.acting_seats) and r.turns < turn_limit:
        for seat in seats:
            action = choose(r, seat, memory)
            if memory is not None:
                memory.note(seat, action)
            apply(seat, action)


def final_scores(r: Round) -> tuple[int, ...]:
    """The round's scores; a round stopped at its turn limit scores its grids as they lie."""
    if r.over:
        return r.scores
    variant, rules = r.variant, r.rules
    return tuple(grid_score(variant, rules, [RANK[c] for c in g]) for g in r.grids)
