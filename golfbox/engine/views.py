"""What leaves the engine: a seat's view and the public view.

A view is a snapshot of immutable values. A seat's view holds that seat's own
knowledge and the public table, nothing else: a face-down card the seat has
not seen is simply absent (None), and the view keeps no reference back to
the round, so nothing hidden is reachable from it.
"""

from __future__ import annotations

from enum import StrEnum
from operator import attrgetter
from typing import NamedTuple

from golfbox.engine.actions import Action
from golfbox.engine.cards import Card
from golfbox.engine.variants import Rules, Variant

class Phase(StrEnum):
    """Where a round is. A StrEnum: each equals its word ("start")."""
    START = "start"  # seats turn up / peek at their starting cards, in any order
    TURN = "turn"  # the seat to move chooses draw, take, knock (or its first-turn flips)
    HOLDING = "holding"  # the seat to move holds a card: place it (or discard it)
    FLIP_OPTION = "flip_option"  # polish-poker, after a discard: flip one or pass
    OVER = "over"  # the round is scored


START, TURN, HOLDING, FLIP_OPTION, OVER = Phase

STOCK = "stock"
DISCARD_PILE = "discard"


class LastAction(NamedTuple):
    seat: int
    action: Action
    revealed: Card | None  # the card this action made public (taken, discarded, replaced, flipped)


class PublicTable(NamedTuple):
    """Everything every seat may see, at one moment."""

    variant: Variant
    rules: Rules
    players: int
    round_no: int
    rounds: int
    dealer: int
    phase: Phase
    to_move: int | None
    grids: tuple[tuple[Card | None, ...], ...]  # face-up cards; None for face down
    face_up: tuple[int, ...]  # bitmask per seat
    holder: int | None  # who holds a card in hand
    held_from: str | None  # STOCK or DISCARD_PILE
    public_held: Card | None  # the card in hand when it was taken from the discard pile
    discard_top: Card | None
    discard_size: int
    stock_size: int
    knocker: int | None
    ender: int | None  # who knocked or turned up their last card
    final_turns_left: int | None
    start_pending: tuple[int, ...]  # start actions each seat still owes
    last: LastAction | None
    round_scores: tuple[int, ...] | None  # after penalties, once the round is over
    raw_scores: tuple[int, ...] | None
    totals: tuple[int, ...]  # match totals, including this round once it is over
    # Public history: what every player at the table saw happen this round.
    history: tuple[LastAction, ...]  # every action since the deal, as every seat saw it
    discard_pile: tuple[Card, ...]  # the whole discard pile, bottom first (the top is last)
    owner_seen: tuple[int, ...]  # per seat, the face-down cards its owner has seen (bitmask)
    turns: int  # turns played this round
    restocked_at: int | None  # ``turns`` when the discard pile last became the stock (None: not yet)


class SeatView(NamedTuple):
    """One seat's view: the public table plus that seat's own knowledge.

    ``seat`` is None for the public view (the shared display): then ``grids``
    holds only face-up cards and ``held`` only a card taken from the discard.
    Every PublicTable field reads through: ``view.phase``, ``view.stock_size`` …
    (properties, set below).
    """

    table: PublicTable
    seat: int | None
    legal: tuple[Action, ...]  # what this seat may do now (empty when it is not its move)
    own_grid: tuple[Card | None, ...] | None  # face-up cards plus own face-down cards seen
    known: int  # bitmask of own face-down cards this seat has seen
    held: Card | None  # the card in this seat's hand (or one taken publicly from the discard)
    flips_due: int  # cards this seat must still turn up (start phase or 9-card first turn)

    @property
    def grids(self) -> tuple[tuple[Card | None, ...], ...]:
        """Every seat's grid as this seat sees it."""
        if self.seat is None:
            return self.table.grids
        grids = list(self.table.grids)
        grids[self.seat] = self.own_grid
        return tuple(grids)

    @property
    def peeking(self) -> bool:
        """The seat is looking at its peeked row (4-card, 6-card peek_row) before saying ready."""
        return (self.seat is not None and self.table.phase == START and self.flips_due == 0
                and self.table.start_pending[self.seat] > 0)

    def __repr__(self) -> str:
        who = "public" if self.seat is None else f"seat {self.seat}"
        return f"<SeatView {who} {self.table.phase} to_move={self.table.to_move} legal={len(self.legal)}>"


# The public fields read through as properties of C getters (view.phase is view.table.phase),
# not through __getattr__, which Python calls only after a failed lookup: bots read these
# fields dozens of times a decision, and __getattr__ was 30 % of greedy's time.
for _name in PublicTable._fields:
    if _name not in SeatView.__dict__:  # grids: this seat's own is in its view
        setattr(SeatView, _name, property(attrgetter("table." + _name)))
del _name
