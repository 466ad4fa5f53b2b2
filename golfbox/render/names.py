"""Seats in words: one name per seat on every display, and what a waiting seat waits for."""

from __future__ import annotations

from typing import Sequence

from golfbox.engine import OVER, START, SeatView
from golfbox.render.words import say


def seat_name(seat: int, names: Sequence[str] | None, lang: str = "en") -> str:
    """names[seat] (the table service passes each player's display name), else P1 … Pn
    (J1 … Jn in French)."""
    if names is not None and seat < len(names) and names[seat]:
        return names[seat]
    return say(lang, "P{n}", n=seat + 1)


def wait_words(view: SeatView, names: Sequence[str] | None = None, lang: str = "en") -> str:
    """Why a seat cannot act now, naming the others: 'wait: P2 (bot) is playing',
    'wait: Ann, P3 still starting'; '' when it may act or the round is over."""
    if view.legal or view.phase == OVER:
        return ""
    if view.phase == START:
        waiting = [seat_name(s, names, lang) for s, due in enumerate(view.start_pending) if due]
        return say(lang, "wait: {who} still starting", who=", ".join(waiting)) if waiting else ""
    if view.to_move is None:
        return ""
    return say(lang, "wait: {who} is playing", who=seat_name(view.to_move, names, lang))
