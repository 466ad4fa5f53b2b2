"""Seats in words: one name per seat on every display, and what a waiting seat waits for."""

from __future__ import annotations

from typing import Sequence

from golfbox.engine import OVER, START, SeatView


def seat_name(seat: int, names: Sequence[str] | None) -> str:
    """names[seat] (the table service passes each player's display name), else P1 … Pn."""
    if names is not None and seat < len(names) and names[seat]:
        return names[seat]
    return f"P{seat + 1}"


def wait_words(view: SeatView, names: Sequence[str] | None = None) -> str:
    """Why a seat cannot act now, naming the others: 'wait: P2 (bot) is playing',
    'wait: Ann, P3 still starting'; '' when it may act or the round is over."""
    if view.legal or view.phase == OVER:
        return ""
    if view.phase == START:
        waiting = [seat_name(s, names) for s, due in enumerate(view.start_pending) if due]
        return f"wait: {', '.join(waiting)} still starting" if waiting else ""
    if view.to_move is None:
        return ""
    return f"wait: {seat_name(view.to_move, names)} is playing"
