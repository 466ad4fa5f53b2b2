"""Rounds consistent with one seat's view: what search plays its futures in.

A seat's view shows the face-up cards, its own seen cards, the discard pile and
the public history. Everything else — the stock's order, the face-down cards
nobody has shown, a card drawn by someone else — is unseen: any arrangement of
the unseen cards is a round the seat cannot tell from the real one. A
``Determinizer`` works that out once per decision and then deals as many such
rounds as search asks for, each a cheap copy with the holes filled.

Card counting from the history, as a person at the table does it: in 4-card a
card taken from the discard and placed face down is hidden, yet everybody saw
which card went where, so it is not unseen (``public_memory``).
"""

from __future__ import annotations

import random
from collections import Counter

from golfbox.engine import actions as A
from golfbox.engine.cards import Card, shuffle
from golfbox.engine.round import Round, _fresh_deck
from golfbox.engine.views import SeatView


def public_memory(view: SeatView) -> list[dict[int, Card]]:
    """Per seat, face-down positions whose card every player saw go there (taken from the
    discard pile and placed face down, 4-card) and that nothing has covered since."""
    table = view.table
    memory: list[dict[int, Card]] = [{} for _ in range(table.players)]
    taken: dict[int, Card] = {}  # seat -> card it took publicly and holds
    for seat, action, revealed in table.history:
        kind = action.kind
        if kind == A.TAKE:
            taken[seat] = revealed
        elif kind == A.PLACE:
            card = taken.pop(seat, None)
            if card is None:
                memory[seat].pop(action.pos, None)  # a drawn card: nobody else saw it
            else:
                memory[seat][action.pos] = card
    for seat in range(table.players):  # face-up cards are in the grids anyway
        up = table.face_up[seat]
        memory[seat] = {p: c for p, c in memory[seat].items() if not up >> p & 1}
    return memory


def unseen_cards(view: SeatView, memory: list[dict[int, Card]] | None = None) -> list[Card]:
    """The cards ``view.seat`` has no place for: the deck minus every card it can locate.
    (After a stock ran out, the reshuffled stock's cards are counted among them too.)"""
    table = view.table
    if memory is None:
        memory = public_memory(view)
    left = Counter(_fresh_deck(table.variant.decks(table.players), table.variant.jokers_per_deck))
    grids = view.grids
    for seat, grid in enumerate(grids):
        for pos, card in enumerate(grid):
            if card is None and seat != view.seat:
                card = memory[seat].get(pos)
            if card is not None:
                left[card] -= 1
    left.subtract(table.discard_pile)
    if view.held is not None:
        left[view.held] -= 1
    if any(n < 0 for n in left.values()):
        raise ValueError("the view locates more copies of a card than the decks hold")
    return sorted(left.elements())


class Determinizer:
    """Deals rounds consistent with ``view``: ``sample(rng)`` is one of them, the unseen
    cards dealt uniformly at random into the holes, the stock and a hidden hand."""

    def __init__(self, view: SeatView):
        table = view.table
        self.memory = memory = public_memory(view)
        self.unseen = unseen_cards(view, memory)
        grids, self.holes = [], []
        for seat, grid in enumerate(view.grids):
            row = list(grid)
            for pos, card in enumerate(row):
                if card is None and seat != view.seat:
                    card = memory[seat].get(pos)
                if card is None:
                    self.holes.append((seat, pos))
                    card = -1  # a placeholder, filled by sample()
                row[pos] = card
            grids.append(row)
        self.hidden_held = table.holder is not None and view.held is None
        stock_size = table.stock_size
        if len(self.unseen) != len(self.holes) + stock_size + self.hidden_held:
            raise ValueError("the view's unseen cards do not fill its holes and stock")
        self.base = Round.from_view(view, grids, [-1] * stock_size,
                                    -1 if self.hidden_held else None)
        self.base._dealt_from = _fresh_deck(table.variant.decks(table.players),
                                            table.variant.jokers_per_deck)

    def sample(self, rng: random.Random) -> Round:
        cards = self.unseen[:]
        shuffle(cards, rng)  # random.shuffle's very draws, at half the cost
        new = self.base.copy(rng)
        grids = new.grids
        for (seat, pos), card in zip(self.holes, cards):
            grids[seat][pos] = card
        rest = cards[len(self.holes):]
        if self.hidden_held:
            new.held = rest.pop()
        new.stock = rest
        return new
