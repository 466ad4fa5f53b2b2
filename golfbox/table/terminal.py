"""Terminal drawing for the simulator: cell pictures, the key map, the layout.

Everything here is pure (no curses calls), so it is tested without a terminal.
A display image becomes rows of character cells in one of two drawings:

* half-blocks (▀ ▄ █): a cell is 1×2 pixels, so a pixel is square on an
  ordinary font and keeps its grey level, but shared display + seat need 256×68;
* Braille (⣿): a cell is 2×4 pixels, one dot each, so the same table fits in
  128×36; a cell has one colour, the brightest of its lit pixels.

Both are lossless: every lit pixel is drawn, nothing is scaled, what is shown
is the very image the hardware would be sent.
"""

from __future__ import annotations

import curses
from dataclasses import dataclass
from typing import Callable, NamedTuple

from PIL import Image

from golfbox.hal.base import Button, EventKind

# Grey levels a cell can show: 0 off, 1 dim, 2 mid, 3 full. Mono panels use 0 and 3;
# greyscale panels (the SSD1322 shared display) keep three shades.
LEVELS = 4


def pixel_level(value: int) -> int:
    """A 0-255 grey value as one of the LEVELS (0 only for black, so no lit pixel vanishes)."""
    if value == 0:
        return 0
    return 1 + min(LEVELS - 2, value * (LEVELS - 1) // 256)


class Run(NamedTuple):
    """Consecutive cells drawn with one character set and one colour pair."""

    text: str
    fg: int  # level of the lit half (top half when both differ); in Braille, the brightest dot
    bg: int  # level of the other half; 0 in Braille


def _cell(top: int, bottom: int) -> tuple[str, int, int]:
    if top == bottom:
        return ("█", top, 0) if top else (" ", 0, 0)
    if bottom == 0:
        return "▀", top, 0
    if top == 0:
        return "▄", bottom, 0
    return "▀", top, bottom  # two different shades: top as foreground, bottom as background


def halfblock_runs(image: Image.Image) -> list[list[Run]]:
    """The image as rows of runs, two pixel rows per text row (an odd last row is padded off)."""
    grey = image.convert("L")
    width, height = grey.size
    levels = [pixel_level(v) for v in grey.tobytes()]
    rows: list[list[Run]] = []
    for y in range(0, height, 2):
        top = levels[y * width:(y + 1) * width]
        bottom = levels[(y + 1) * width:(y + 2) * width] if y + 1 < height else [0] * width
        runs: list[Run] = []
        chars: list[str] = []
        colour: tuple[int, int] | None = None
        for t, b in zip(top, bottom):
            char, fg, bg = _cell(t, b)
            if (fg, bg) != colour and chars:
                runs.append(Run("".join(chars), *colour))
                chars = []
            colour = (fg, bg)
            chars.append(char)
        if chars:
            runs.append(Run("".join(chars), *colour))
        rows.append(runs)
    return rows


def halfblock_text(image: Image.Image) -> list[str]:
    """The characters alone, one string per text row (for logs and tests)."""
    return ["".join(run.text for run in row) for row in halfblock_runs(image)]


# Braille dot bits by (column, row) within a 2×4 cell, as Unicode numbers the dots 1-8.
BRAILLE_BASE = 0x2800
BRAILLE_DOTS = {
    (0, 0): 0x01, (0, 1): 0x02, (0, 2): 0x04, (1, 0): 0x08,
    (1, 1): 0x10, (1, 2): 0x20, (0, 3): 0x40, (1, 3): 0x80,
}


def braille_runs(image: Image.Image) -> list[list[Run]]:
    """The image as rows of Braille runs, 2×4 pixels a cell, a dot for every lit pixel.

    A cell has one foreground colour, so it takes the brightest level among its
    dots: a dim pixel next to a bright one looks bright, but is never lost.
    Empty cells are plain spaces, as in the half-block drawing; edges that do not
    fill a cell are padded off.
    """
    grey = image.convert("L")
    width, height = grey.size
    levels = [pixel_level(v) for v in grey.tobytes()]
    rows: list[list[Run]] = []
    for y0 in range(0, height, 4):
        runs: list[Run] = []
        chars: list[str] = []
        colour = -1
        for x0 in range(0, width, 2):
            bits = level = 0
            for (dx, dy), bit in BRAILLE_DOTS.items():
                x, y = x0 + dx, y0 + dy
                if x < width and y < height:
                    value = levels[y * width + x]
                    if value:
                        bits |= bit
                        level = max(level, value)
            if level != colour and chars:
                runs.append(Run("".join(chars), colour, 0))
                chars = []
            colour = level
            chars.append(chr(BRAILLE_BASE + bits) if bits else " ")
        if chars:
            runs.append(Run("".join(chars), colour, 0))
        rows.append(runs)
    return rows


def braille_text(image: Image.Image) -> list[str]:
    """The Braille characters alone, one string per text row (for logs and tests)."""
    return ["".join(run.text for run in row) for row in braille_runs(image)]


class CellGeometry(NamedTuple):
    """How many pixels of a display one character cell shows."""

    name: str  # as --cells spells it
    width: int
    height: int


HALFBLOCK = CellGeometry("halfblock", 1, 2)
BRAILLE = CellGeometry("braille", 2, 4)
# --cells: the drawings to try, finest first; auto falls back to Braille when half-blocks don't fit.
CELL_MODES: dict[str, tuple[CellGeometry, ...]] = {
    "auto": (HALFBLOCK, BRAILLE),
    HALFBLOCK.name: (HALFBLOCK,),
    BRAILLE.name: (BRAILLE,),
}


def cell_runs(image: Image.Image, cell: CellGeometry = HALFBLOCK) -> list[list[Run]]:
    """The image drawn with ``cell``'s characters."""
    return braille_runs(image) if cell == BRAILLE else halfblock_runs(image)


def cells_for(size: tuple[int, int], cell: CellGeometry = HALFBLOCK) -> tuple[int, int]:
    """Columns and rows a display of ``size`` pixels takes (a part-filled cell counts)."""
    width, height = size
    return -(-width // cell.width), -(-height // cell.height)


# ---------------------------------------------------------------- keys


class Binding(NamedTuple):
    keys: tuple[str | int, ...]  # characters from get_wch(), or curses KEY_* codes
    button: Button
    kind: EventKind


@dataclass(frozen=True)
class SeatKeys:
    """The keys of one human seat, and how to say them on screen."""

    bindings: tuple[Binding, ...]
    hint: str  # one line under the seat's picture

    def lookup(self, key: str | int) -> tuple[Button, EventKind] | None:
        for binding in self.bindings:
            if key in binding.keys:
                return binding.button, binding.kind
        return None


def _letters(left: str, right: str, ok: str, back: str) -> SeatKeys:
    # Keyboards send no key-up, so a long press cannot be timed: Shift (the capital
    # letter) stands for holding the button.
    bindings = []
    for key, button in ((left, Button.LEFT), (right, Button.RIGHT), (ok, Button.OK), (back, Button.BACK)):
        bindings.append(Binding((key,), button, EventKind.PRESSED))
        bindings.append(Binding((key.upper(),), button, EventKind.HELD))
    hint = (f"◀ {left}  ▶ {right}  ● {ok}  ✕ {back}   hold: Shift "
            f"({left.upper()} {right.upper()} {ok.upper()} {back.upper()})")
    return SeatKeys(tuple(bindings), hint)


# The first human seat gets the arrows (Shift+arrow holds); the others a letter group each,
# placed so that four people can share one laptop keyboard without elbows colliding.
SEAT_KEYS: tuple[SeatKeys, ...] = (
    SeatKeys((
        Binding((curses.KEY_LEFT,), Button.LEFT, EventKind.PRESSED),
        Binding((curses.KEY_RIGHT,), Button.RIGHT, EventKind.PRESSED),
        Binding((curses.KEY_DOWN, curses.KEY_ENTER, "\n", "\r"), Button.OK, EventKind.PRESSED),
        Binding((curses.KEY_UP, curses.KEY_BACKSPACE, "\x7f", "\b"), Button.BACK, EventKind.PRESSED),
        Binding((curses.KEY_SLEFT,), Button.LEFT, EventKind.HELD),
        Binding((curses.KEY_SRIGHT,), Button.RIGHT, EventKind.HELD),
        Binding((curses.KEY_SF,), Button.OK, EventKind.HELD),  # Shift+↓
        Binding((curses.KEY_SR,), Button.BACK, EventKind.HELD),  # Shift+↑
    ), "◀ ←  ▶ →  ● ↓ or Enter  ✕ ↑ or Backspace   hold: Shift+arrow"),
    _letters("a", "d", "s", "x"),
    _letters("f", "h", "g", "b"),
    _letters("j", "l", "k", "m"),
)
MAX_HUMANS = len(SEAT_KEYS)

# Shift+arrows as xterm and its kin send them, for a TERM whose terminfo does not name them
# (screen, linux): curses then hands the sequence over a character at a time, and its last
# letter would press another seat's button ('D': seat 2's held ▶).
SHIFTED_ARROWS = {"[1;2A": curses.KEY_SR, "[1;2B": curses.KEY_SF,
                  "[1;2C": curses.KEY_SRIGHT, "[1;2D": curses.KEY_SLEFT}
UNKNOWN_KEY = -1  # an escape sequence that is no key of ours (Alt+letter, F13 …)


def escape_sequence(next_char: Callable[[], str | int | None]) -> str:
    """The rest of an escape sequence curses left undecoded, after its ESC ('[1;2B').
    ``next_char()`` gives the characters already sent, None when there are no more."""
    rest = ""
    while isinstance(char := next_char(), str):
        rest += char
        if rest in ("[", "O"):
            continue  # CSI or SS3: what follows belongs to it
        if rest[0] == "[" and not "@" <= char <= "~":
            continue  # CSI parameters: it ends with a character from @ to ~
        break  # SS3's one character, CSI's last, or the key after an Alt
    return rest


QUIT_KEYS = ("q", "Q", "\x03")
HELP_KEYS = ("?",)
NEXT_VIEW_KEYS = ("\t",)


def help_lines(humans: list[int], curtained: bool) -> list[str]:
    """The help overlay: every human seat's keys and the table keys. ``curtained``: each
    person's screen is hidden from the others (a Curtain with people: not --all-screens)."""
    lines = ["golfbox sim: keys", ""]
    for index, seat in enumerate(humans):
        lines.append(f"seat {seat + 1}:  {SEAT_KEYS[index].hint}")
    if not humans:
        lines.append("no human seats: the bots play on their own")
    if curtained:
        lines += ["A person's screen shows after one of their keys (it plays nothing),",
                  "until another person's: the others do not see it (--all-screens",
                  "shows them all)."]
    lines += [
        "",
        "A real pad tells a short press from a long one; a keyboard cannot,",
        "so Shift (or Shift+arrow) sends a long press (held button).",
        "",
        "Tab  show other seats      ?  this help      q or Ctrl-C  quit",
        "The match is journaled: the next start resumes it;",
        "golfbox sim --new (or golfbox run --new) starts a new one instead.",
        "",
        "any key closes this help",
    ]
    return lines


class Curtain:
    """Whose screen the others at one keyboard may see. A real seat's OLED is its player's
    alone (during a round it shows the cards they have looked at); with several people
    at one laptop, each person's screen shows after one of their own keys (which only
    uncovers it), until someone else's. The lobby and the reveals hide nothing; one
    person playing several seats (--all-screens) sees them all."""

    PRIVATE = frozenset({"playing", "paused"})  # the table's states that show seats' cards

    def __init__(self, humans: list[int], all_screens: bool = False):
        self.people = frozenset(humans) if len(humans) > 1 and not all_screens else frozenset()
        self.looking: int | None = None  # nobody has pressed yet: every person's is hidden
        self.drawn_hidden: set[int] = set()  # the seats last drawn hidden
        self.uncovering: set[int] = set()  # seats a key uncovered since the last draw

    def key(self, seat: int, state: str) -> bool:
        """A key of ``seat``'s: True if it acts, False if it only uncovers the seat. Its
        player saw the curtain (drawn, or hidden by now), not the screen the key would
        act on: like a press that wakes a table's screen saver, it is dropped whole (a
        hold's HELD with its press). So is every key of the seat until the front end
        has drawn it uncovered: the window reads all the keys of a 20 ms pass first."""
        acts = (seat not in self.drawn_hidden and seat not in self.uncovering
                and not self.hides(seat, state))
        self.looking = seat
        self.drawn_hidden.discard(seat)
        if not acts:
            self.uncovering.add(seat)
        return acts

    def hides(self, seat: int, state: str) -> bool:
        """Is ``seat``'s screen hidden while the table is in ``state``?"""
        return state in self.PRIVATE and seat in self.people and seat != self.looking

    def draws(self, seat: int, state: str) -> bool:
        """hides(), for a panel about to be drawn: remembered for the seat's next key."""
        hidden = self.hides(seat, state)
        (self.drawn_hidden.add if hidden else self.drawn_hidden.discard)(seat)
        return hidden

    def drawn(self) -> None:
        """The front end has drawn the panels it shows: a seat a key uncovered is seen
        now (the terminal turns to the page of a seat whose key it had not shown)."""
        self.uncovering.clear()


def curtain_lines(seat: int) -> tuple[str, ...]:
    """What a hidden seat's panel says instead of its picture."""
    return ("hidden from", "the others:", "press a key", f"of seat {seat + 1}")


# ---------------------------------------------------------------- layout

LABEL_ROWS = 1  # the name above each picture
GAP = 2  # columns between seat pictures
STATUS_ROWS = 1  # the top line: variant, round, keys


class Panel(NamedTuple):
    display: str  # "shared" or "seat-N" (0-based N)
    top: int
    left: int
    hint_row: bool  # a key hint line under the picture


@dataclass(frozen=True)
class Layout:
    panels: tuple[Panel, ...]
    seats_shown: tuple[int, ...]
    seats_hidden: tuple[int, ...]
    cell: CellGeometry = HALFBLOCK  # the drawing the panels are sized for
    next_first: int = 0  # ``first`` after one Tab: the next page of seats
    seats_next: tuple[int, ...] = ()  # the seats one Tab shows


def tab_hint(layout: Layout) -> str:
    """The top line's hint: the seats one Tab shows ('Tab: seats 3, 4  '), '' if all fit."""
    if not layout.seats_hidden:
        return ""
    return "Tab: seats " + ", ".join(str(s + 1) for s in layout.seats_next) + "  "


class TooSmall(NamedTuple):
    need_cols: int
    need_rows: int
    cell: CellGeometry = HALFBLOCK  # the drawing the sizes are for: the last tried, the one needing least


def minimum_size(shared: tuple[int, int] | None, seat: tuple[int, int],
                 cell: CellGeometry = HALFBLOCK) -> tuple[int, int]:
    """The smallest terminal that shows the shared display and one seat, every pixel drawn."""
    seat_cols, seat_rows = cells_for(seat, cell)
    cols, rows = seat_cols, STATUS_ROWS + LABEL_ROWS + seat_rows + 1
    if shared is not None:
        shared_cols, shared_rows = cells_for(shared, cell)
        cols = max(cols, shared_cols)
        rows += LABEL_ROWS + shared_rows
    return cols, rows


def plan_layout(cols: int, rows: int, shared: tuple[int, int] | None, seat: tuple[int, int],
                seat_order: list[int], first: int = 0, humans: frozenset[int] = frozenset(),
                cells: CellGeometry | tuple[CellGeometry, ...] = HALFBLOCK) -> Layout | TooSmall:
    """Shared display on top, then as many seats side by side as the width allows.

    ``seat_order`` lists the seats in the order Tab walks through them (humans first);
    ``first`` is where the window of shown seats starts in it; one Tab moves it a whole
    window on (``next_first``), so the next seats replace the shown ones. ``cells`` is one drawing
    or several, finest first: the first that fits is used, so a terminal too small for
    half-blocks still shows every pixel in Braille. TooSmall names the last one's size.
    """
    choices = (cells,) if isinstance(cells, CellGeometry) else cells
    for cell in choices:
        need_cols, need_rows = minimum_size(shared, seat, cell)
        if cols >= need_cols and rows >= need_rows:
            break
    else:
        return TooSmall(need_cols, need_rows, cell)
    panels: list[Panel] = []
    top = STATUS_ROWS
    if shared is not None:
        panels.append(Panel("shared", top, 0, False))
        top += LABEL_ROWS + cells_for(shared, cell)[1]
    seat_cols = cells_for(seat, cell)[0]
    fits = max(1, min(len(seat_order), (cols + GAP) // (seat_cols + GAP)))
    shown = [seat_order[(first + i) % len(seat_order)] for i in range(fits)] if seat_order else []
    for i, seat_no in enumerate(shown):
        panels.append(Panel(f"seat-{seat_no}", top, i * (seat_cols + GAP), seat_no in humans))
    hidden = tuple(s for s in seat_order if s not in shown)
    next_first = (first + fits) % len(seat_order) if seat_order else 0
    seats_next = tuple(seat_order[(next_first + i) % len(seat_order)] for i in range(fits)) \
        if seat_order else ()
    return Layout(tuple(panels), tuple(shown), hidden, cell, next_first, seats_next)
