"""Seats in words: one name per seat on every display, and what a waiting seat waits for."""

from __future__ import annotations

from typing import Callable, Sequence

from golfbox.engine import OVER, START, SeatView
from golfbox.render import glyphs
from golfbox.render.words import say


def seat_name(seat: int, names: Sequence[str] | None, lang: str = "en") -> str:
    """names[seat] (the table service passes each player's display name), else P1 … Pn
    (J1 … Jn in French)."""
    if names is not None and seat < len(names) and names[seat]:
        return names[seat]
    return say(lang, "P{n}", n=seat + 1)


def table_names(players: int, names: Sequence[str] | None, lang: str = "en") -> list[str]:
    """Every seat's name at a table of ``players``, as seat_name gives them."""
    return [seat_name(seat, names, lang) for seat in range(players)]


def fit_name(name: str, width: int, table: Sequence[str] = (), scale: int = 1) -> str:
    """``name`` within ``width`` px, told apart from every other name in ``table`` (the
    names at the table, table_names). The one rule of every display that cuts a name:

    whole if it fits; else a bot's seat without its level ('J2 (FACILE)' → 'J2'); else
    its first letters and '…'; and where those letters also begin another name at the
    table, fewer of them and its last letters after the '…' ('MAXIMI…NE' beside
    'MAXIMILIEN'; 'JEAN-B…TE' and 'JEAN-B…NE' for 'JEAN-BAPTISTE' and 'JEAN-BAPTISTINE')."""
    return _abbreviate(name, lambda text: glyphs.text_width(text, scale) <= width, table)


def name_words(lang: str, words: str, who: str, width: int | None, table: Sequence[str] = (),
               **more: str) -> str:
    """say(lang, words, who=who, **more) in ``width`` px (None: any) if it can: ``who``
    cut by fit_name where the whole is too wide, the other words whole ('FRANÇOISE-X…IS:
    PRESS ● TO JOIN', not 'FRANÇOISE-XAVIÈRE DUBOIS: PRESS ● T…')."""
    return say(lang, words, who=fit_who(lang, words, who, width, table, **more), **more)


def fit_who(lang: str, words: str, who: str, width: int | None, table: Sequence[str] = (),
            **more: str) -> str:
    """``who`` as name_words puts it into ``words``: whole if the whole fits ``width``
    px, else cut by fit_name to the room the other words leave."""
    if width is None or glyphs.text_width(say(lang, words, who=who, **more)) <= width:
        return who
    room = width - glyphs.text_width(say(lang, words, who="", **more)) - 1  # the gap it joins by
    return fit_name(who, room, table)


def cut_name(name: str, letters: int, table: Sequence[str] = ()) -> str:
    """``name`` in at most ``letters`` characters, '…' included, as fit_name cuts it
    ('Jean-…te' beside 'Jean-Baptistine'), where a text is cut a letter count at a time."""
    return _abbreviate(name, lambda text: len(text) <= letters, table)


CUT_NAMES_TO = (12, 10, 8, 6, 4)  # letters, a step at a time, where long names would not fit


def wrap_naming(text: str, width: int, lines: int, table: Sequence[str], sep: str = " ") -> list[str]:
    """``text`` in at most ``lines`` lines of ``width`` px (glyphs.wrap_text, broken at
    ``sep``); if it does not fit, the names of the ``table`` in it are cut shorter
    (cut_name, a step at a time) before any of its own words: 'MARIE-H…ÈVRE'S SEAT IS
    UNPLUGGED · A BOT PLAYS IN 120 S', not '… IS UNPLU…'."""
    wrapped: list[str] = []
    for longest in (None, *CUT_NAMES_TO):
        shown = text
        for name in sorted(table, key=len, reverse=True) if longest else ():
            shown = shown.replace(name, cut_name(name, longest, table))
        wrapped = glyphs.wrap_text(shown, width, lines, sep=sep)
        if sum(line.count("…") for line in wrapped) == shown.count("…"):  # nothing cut
            break
    return wrapped


def _without_level(name: str) -> str:
    """A bot's seat's name without the bot's level: 'P2 (HARD)' → 'P2'."""
    return name[:name.rindex(" (")] if name.endswith(")") and " (" in name else name


def _abbreviate(name: str, fits: Callable[[str], bool], table: Sequence[str]) -> str:
    if fits(name):
        return name
    base = _without_level(name)
    if fits(base):
        return base
    # the others as drawn, each with its seat's name without a bot's level (_could_be)
    others = [{glyphs.drawn_letters(other), glyphs.drawn_letters(_without_level(other))}
              for other in table if other.upper() != name.upper()]
    first = ""
    head = base
    # The last letters after the '…': none, then two (one, 'MAXIMI…E', reads as a typo)
    # and more; the '…' always stands for one letter at least.
    for tail_len in (0, *range(2, len(base) - 1)):
        tail = base[len(base) - tail_len:]
        head = head[:len(base) - tail_len - 1]
        while head and not fits(head.rstrip() + "…" + tail):
            head = head[:-1]
        if not head.strip():
            break
        shown = head.rstrip() + "…" + tail
        first = first or shown
        drawn = glyphs.drawn_letters(shown)
        if not any(_could_be(drawn, other) for other in others):
            return shown
    return first or "…"  # too narrow to tell anyone apart: still a sign that it is cut


def told_apart(shown: str, name: str, table: Sequence[str]) -> bool:
    """Is ``shown`` (``name`` as fit_name cut it) read as no other name of the ``table``?
    Where the room is too narrow, fit_name gives its first letters anyway ('JE…')."""
    drawn = glyphs.drawn_letters(shown)
    return not any(_could_be(drawn, {glyphs.drawn_letters(other),
                                     glyphs.drawn_letters(_without_level(other))})
                   for other in table if other.upper() != name.upper())


def _could_be(shown: str, name: set[str]) -> bool:
    """Could ``shown`` be read as a name, given as drawn with its seat's name without the
    bot's level? A '…' after a whole name reads as that name cut short: 'MAXIMILIEN…'
    could be 'MAXIMILIEN'. Both as drawn (glyphs.drawn_letters): Cyrillic 'ТОМ…' is
    Latin 'TOM…' on a display, Romanian 'ȘTEF…' is Turkish 'ŞTEF…'."""
    head, cut, tail = shown.partition("…")
    for whole in name:
        if not cut and shown == whole:
            return True
        if cut and len(whole) >= len(head) + len(tail) and whole.startswith(head) and whole.endswith(tail):
            return True
    return False


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
    """Why a seat cannot act now, naming the others: 'wait: P2 (HARD) is playing',
    'wait: Ann, P3 still starting'; '' when it may act or the round is over. Within
    ``width`` px if given: several who do not fit are counted ('wait: 7 players still
    starting'), one is named alone ('wait: Maximilienne'), cut short (fit_name) only if
    too long."""
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
    if width is not None and glyphs.text_width(words) > width:  # the name cut if need be
        words = name_words(lang, "wait: {who}", waiting[0], width, table_names(view.players, names, lang))
    return words
