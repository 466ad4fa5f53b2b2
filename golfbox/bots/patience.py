"""Patience: every bot brings every round to its end.

After PATIENCE_TURNS own turns in a round a bot only does what ends it: knock, or
turn a face-down card up. Turns are read from the round's public history, never
counted along in the bot, so they are this round's whatever the bot played before.
"""

from __future__ import annotations

from golfbox.engine import Action, ActionKind as A, SeatView, TURN

PATIENCE_TURNS = 25  # own turns in a round, after which a bot moves the round to its end


def own_turns(view: SeatView) -> int:
    """The turns ``view.seat`` has begun this round (drawn, taken or knocked), the one
    it is about to begin included (none while another seat is to move)."""
    about_to_begin = view.phase == TURN and view.to_move == view.seat
    return sum(1 for seat, action, _ in view.table.history
               if seat == view.seat and action.kind in (A.DRAW, A.TAKE, A.KNOCK)) + about_to_begin


def past_patience(view: SeatView) -> bool:
    table = view.table
    # Turns go round the table, so a seat has begun at most turns // players + 1 of them:
    # most decisions need no count (random, whose rounds are many, reads this each move).
    if table.turns // table.players + 1 <= PATIENCE_TURNS:
        return False
    return own_turns(view) > PATIENCE_TURNS


def hurry(view: SeatView, legal) -> tuple[Action, ...]:
    """Of ``legal``, the actions that bring the round to its end (knock; turn a face-down
    card up), or ``legal`` itself when none does (a turn must begin with a draw)."""
    knock = [a for a in legal if a.kind == A.KNOCK]
    if knock:
        return tuple(knock)
    if view.variant.ends_when_all_face_up:
        up = view.face_up[view.seat]
        down = [a for a in legal if a.kind == A.PLACE and not up >> a.pos & 1]
        if down:
            return tuple(down)
    return legal
