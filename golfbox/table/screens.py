"""What each display shows: a frame's source and how to draw it.

Each frame function returns ``(source, render)``: ``source`` is a tuple of what
the frame is drawn from, ``render`` draws it (called only when the source changed
since that display's last frame, so an unchanged screen costs no drawing).
The states (table/states.py) choose which of these each display shows.
"""

from __future__ import annotations

from typing import Sequence

from golfbox import render as draw
from golfbox.render import rules as draw_rules
from golfbox.render.words import say
from golfbox.hal.base import Display
from golfbox.table.input import SeatInput
from golfbox.table.lobby import Lobby
from golfbox.table.session import Session

Frame = tuple[tuple, object]


class Painter:
    """Draws each display when what its frame is drawn from changed since its last one."""

    def __init__(self, seat_displays: dict[int, Display], shared_display: Display | None):
        self.seat_displays, self.shared_display = seat_displays, shared_display
        self._shown: dict[object, tuple] = {}  # display key -> what its last frame was drawn from

    def draw(self, state, first: int | None = None) -> None:
        """Every display from ``state``'s frames; the seat that pressed goes first."""
        for seat in sorted(self.seat_displays, key=lambda s: s != first):
            self.draw_seat(state, seat)
        if self.shared_display is not None:
            display = self.shared_display
            self._show("shared", display, *state.shared_frame(display.size))

    def draw_seat(self, state, seat: int) -> None:
        """That seat's display alone, from ``state``'s frame for it."""
        display = self.seat_displays[seat]
        self._show(("seat", seat), display, *state.seat_frame(seat, display.size))

    def forget(self, seat: int | None) -> None:
        """Draw this display (None: the shared one) again next time: it may have lost its picture."""
        self._shown.pop("shared" if seat is None else ("seat", seat), None)

    def _show(self, key: object, display: Display, source: tuple, render) -> None:
        if self._shown.get(key) == source:
            return
        image = render()
        if image.mode != display.mode:
            image = image.convert(display.mode)
        self._shown[key] = source
        display.show(image)  # a ResilientDisplay: never raises, retries on its own


def lobby(size: tuple[int, int], lobby: Lobby, title: str, footer: str) -> Frame:
    """The lobby's menu as a seat or the shared display shows it."""
    lines = tuple(str(line) for line in lobby.lines())
    players = ", ".join(p.name for p in lobby.players()) or say(lobby.language, "nobody yet")
    cursor = lobby.cursor
    lang = lobby.language
    source = ("lobby", title, lines, cursor, players, footer, lang)
    return source, lambda: draw.render_lobby(size, title, lines, cursor, players, footer, lang)


def seat_in_match(size: tuple[int, int], session: Session, seat: int, seat_input: SeatInput,
                  message: str, idle_prompt: str, match_over: bool = False) -> tuple[Frame, bool]:
    """A seat's screen during a match (the cursor follows the engine first), or at its
    result (``match_over``).

    Also says whether the seat's choices just changed: its "wait: …" message is then stale."""
    name, lang = session.name(seat), session.language
    engine_seat = session.engine_seat.get(seat)
    if engine_seat is None or session.players[engine_seat].bot is not None:
        text = (say(lang, "a bot plays this seat") if engine_seat is not None
                else say(lang, "not in this match"))
        # A press here says why it did nothing: "a bot plays this seat" again, or "not in this
        # match: join when it ends". It replaces the standing line rather than repeating it.
        text = message or text
        names = session.names()
        return (("notice", text), lambda: draw.render_notice(size, name, text, names)), False
    view = session.match.view(engine_seat)
    changed = seat_input.update(view.legal, view.variant.cols)
    if changed:
        message = ""
    prompt = seat_input.prompt_in(lang) or idle_prompt
    cursor = seat_input.cursor
    source = ("seat", match_over, view.table, view.legal, view.own_grid, view.known, view.held,
              view.flips_due, cursor, prompt, message)
    names = session.names()
    return (source, lambda: draw.render_seat(view, cursor=cursor, prompt=prompt, message=message,
                                             label=name, names=names, lang=lang,
                                             match_over=match_over)), changed


def table(size: tuple[int, int], session: Session, message: str) -> Frame:
    """The shared display during a round: stock, discard, grids, whose turn."""
    view, names, lang = session.match.view(None), session.names(), session.language
    return (("table", view.table, message, lang),
            lambda: draw.render_table(view, size, names, message, lang))


def reveal(size: tuple[int, int], session: Session, page: int) -> Frame:
    """The shared display after a round: every grid face up with its score (``page`` of them)."""
    view, names, lang = session.match.view(None), session.names(), session.language
    page %= draw.reveal_pages(view.players, size)
    return (("reveal", view.table, page, lang),
            lambda: draw.render_reveal(view, size, names, page=page, lang=lang))


def result(size: tuple[int, int], session: Session) -> Frame:
    """The shared display after the last round: totals and winners."""
    match, names, lang = session.match, session.names(), session.language
    totals, winners = tuple(match.totals), tuple(match.winners)
    return (("result", totals, winners, session.match_id, lang),
            lambda: draw.render_match_result(totals, winners, names, size, lang))


def rules_pages(variant, rules, lang: str) -> list:
    return draw_rules.rules_pages(variant, rules, lang)


def rules(size: tuple[int, int], pages: list, page: int, reader: str, message: str,
          lang: str, table: Sequence[str] = ()) -> Frame:
    """A page of the rules (``reader``: whose page, on the shared display; ``table``:
    the names it is told apart from if cut)."""
    source = ("rules", tuple(pages), page, reader, message, lang, tuple(table))
    return source, lambda: draw_rules.render_rules(size, pages, page, reader, message, lang, table)


def reveal_pages(session: Session, shared_size: tuple[int, int] | None) -> int:
    """How many pages a round's reveal needs on the shared display."""
    if shared_size is None:
        return 1
    return draw.reveal_pages(len(session.players) or 1, shared_size)


def wait_words(session: Session) -> str:
    """"wait: P2 is playing" — what a seat that may not act now is told."""
    return draw.wait_words(session.match.view(None), session.names(), session.language)


def notice(size: tuple[int, int], title: str, text: str, table: Sequence[str] = ()):
    """A plain notice (the table paused or stopping), drawn every time it is asked for;
    ``table``: the names a seat's name as ``title`` is told apart from if cut."""
    return draw.render_notice(size, title, text, table)


def saver(size: tuple[int, int], spot: int, lang: str) -> Frame:
    """The screen saver (table/saver.py): black but for a small line at ``spot``."""
    lines = ("golfbox", say(lang, "press a button"))
    return ("saver", spot, lines), lambda: draw.render_saver(size, lines, spot)
