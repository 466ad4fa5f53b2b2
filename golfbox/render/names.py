"""Seats in words: one name per seat on every display, and what a waiting seat waits for."""

from __future__ import annotations

from typing import Sequence

from golfbox.engine import OVER, START, SeatView
from golfbox.render import glyphs
from golfbox.render.words import say


def seat_name(seat: int, names: Sequence[str] | None, lang: str = "en") -> str:
    """names[seat] (the table service passes each player's display name), else P1 … Pn
    (J1 … Jn in French)."""
    if names is not None and seat < len(names) and names[seat]:
        return names[seat]
    return say(lang, "P{n}", n=seat + 1)


def short_name(name: str, width: int) -> str:
    """``name`` without a bot's level ('J2 (FACILE)' → 'J2') if it is too wide whole."""
    if glyphs.text_width(name) > width and name.endswith(")") and " (" in name:
        return name[:name.rindex(" (")]
    return name


def doubled(view: SeatView, seat: int) -> bool:
    """Did ``seat``'s knock double its round score (knock_penalty = "double", RULES.md)?
    Then the displays say '19×2', not the sum '19+19' that reads as a penalty of 19."""
    return (view.rules.get("knock_penalty") == "double" and seat == view.knocker
            and view.round_scores is not None and view.round_scores[seat] != view.raw_scores[seat])


def score_words(view: SeatView, seat: int) -> str:
    """A round score as the reveal shows it: '19'; with a penalty added '19+10'; doubled '19×2'."""
    score, raw = view.round_scores[seat], view.raw_scores[seat]
    if score == raw:
        return str(score)
    return f"{raw}×2" if doubled(view, seat) else f"{raw}{score - raw:+d}"


def wait_words(view: SeatView, names: Sequence[str] | None = None, lang: str = "en",
               width: int | None = None) -> str:
    """Why a seat cannot act now, naming the others: 'wait: P2 (bot) is playing',
    'wait: Ann, P3 still starting'; '' when it may act or the round is over. Within
    ``width`` px if given: several who do not fit are counted ('wait: 7 players still
    starting'), one is named alone ('wait: Maximilienne'), cut short only if too long."""
    if view.legal or view.phase == OVER:
        return ""
    if view.phase == START:
        waiting = [seat_name(s, names, lang) for s, due in enumerate(view.start_pending) if due]
        if not waiting:
            return ""
        if len(waiting) == 1:
            words = say(lang, "wait: {who} still starting", who=waiting[0])
        else:  # French's verb agrees: 'Benoît, Cléo commencent'
            words = say(lang, "wait: {several} still starting", several=", ".join(waiting))
        if width is not None and glyphs.text_width(words) > width and len(waiting) > 1:
            return say(lang, "wait: {n} players still starting", n=len(waiting))
    elif view.to_move is None:
        return ""
    else:
        waiting = [seat_name(view.to_move, names, lang)]
        words = say(lang, "wait: {who} is playing", who=waiting[0])
    if width is not None and glyphs.text_width(words) > width:
        words = glyphs.fit_text(say(lang, "wait: {who}", who=waiting[0]), width)
    return words
