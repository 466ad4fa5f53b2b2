"""What a seat can do. Actions are small immutable values, created once.

Legal-action tuples are precomputed per grid size and face-down bitmask, so
"what may this seat do now" is a table look-up, not a search.
"""

from __future__ import annotations

from enum import StrEnum
from functools import lru_cache
from typing import NamedTuple

class ActionKind(StrEnum):
    """What a seat does. A StrEnum: each equals its word ("draw"), as journals write it."""
    DRAW = "draw"  # take the top card of the stock into your hand
    TAKE = "take"  # take the top card of the discard pile into your hand
    PLACE = "place"  # put the card in hand at grid position ``pos``
    DISCARD = "discard"  # put the card drawn from the stock on the discard pile
    FLIP = "flip"  # turn up the face-down card at ``pos``
    PASS = "pass"  # polish-poker: turn nothing up after a discard
    KNOCK = "knock"  # end the round: everyone else has one more turn
    READY = "ready"  # done looking at the peeked cards


DRAW, TAKE, PLACE, DISCARD, FLIP, PASS, KNOCK, READY = ActionKind

KINDS_WITH_POS = (PLACE, FLIP)
KINDS = (DRAW, TAKE, PLACE, DISCARD, FLIP, PASS, KNOCK, READY)


class Action(NamedTuple):
    kind: ActionKind
    pos: int = -1  # flat grid position (row * cols + col) for place/flip

    def __str__(self) -> str:
        return f"{self.kind} {self.pos}" if self.kind in KINDS_WITH_POS else self.kind

    @classmethod
    def parse(cls, text: str) -> "Action":
        """Inverse of str(): 'draw', 'place 4', 'flip 0'."""
        kind, _, pos = text.strip().partition(" ")
        if kind not in KINDS:
            raise ValueError(f"unknown action {text!r}")
        if kind in KINDS_WITH_POS:
            if not pos.strip().isdigit():
                raise ValueError(f"action {text!r} needs a grid position")
            return cls(ActionKind(kind), int(pos))
        if pos:
            raise ValueError(f"action {text!r} takes no position")
        return cls(ActionKind(kind))


DRAW_ACTION = Action(DRAW)
TAKE_ACTION = Action(TAKE)
DISCARD_ACTION = Action(DISCARD)
PASS_ACTION = Action(PASS)
KNOCK_ACTION = Action(KNOCK)
READY_ACTION = Action(READY)


class ActionTables(NamedTuple):
    place_all: tuple[Action, ...]
    place_or_discard: tuple[Action, ...]
    flip_by_facedown: tuple[tuple[Action, ...], ...]  # indexed by face-down bitmask
    flip_or_pass_by_facedown: tuple[tuple[Action, ...], ...]
    turn_start: tuple[Action, ...]
    turn_start_with_knock: tuple[Action, ...]
    ready: tuple[Action, ...]


@lru_cache(maxsize=None)
def action_tables(size: int) -> ActionTables:
    place = tuple(Action(PLACE, p) for p in range(size))
    flip = [Action(FLIP, p) for p in range(size)]
    flips = tuple(
        tuple(flip[p] for p in range(size) if mask >> p & 1) for mask in range(1 << size)
    )
    return ActionTables(
        place_all=place,
        place_or_discard=place + (DISCARD_ACTION,),
        flip_by_facedown=flips,
        flip_or_pass_by_facedown=tuple(f + (PASS_ACTION,) for f in flips),
        turn_start=(DRAW_ACTION, TAKE_ACTION),
        turn_start_with_knock=(DRAW_ACTION, TAKE_ACTION, KNOCK_ACTION),
        ready=(READY_ACTION,),
    )
