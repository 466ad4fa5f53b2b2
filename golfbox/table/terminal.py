"""Terminal drawing for the simulator: half-block pictures, the key map, the layout.

Everything here is pure (no curses calls), so it is tested without a terminal.
A display image becomes rows of character cells, each cell two pixels tall
(▀ ▄ █): one pixel of the panel is one cell wide and half a cell tall, which
is square on an ordinary terminal font. Nothing is scaled: what is drawn is
the very image the hardware would be sent.
"""

from __future__ import annotations

import curses
from dataclasses import dataclass
from typing import NamedTuple

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
    fg: int  # level of the lit half (or of the top half when both are lit differently)
    bg: int  # level of the other half


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


def cells_for(size: tuple[int, int]) -> tuple[int, int]:
    """Columns and rows a display of ``size`` pixels takes."""
    width, height = size
    return width, (height + 1) // 2


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

QUIT_KEYS = ("q", "Q", "\x03")
HELP_KEYS = ("?",)
NEXT_VIEW_KEYS = ("\t",)


def help_lines(humans: list[int]) -> list[str]:
    """The help overlay: every human seat's keys and the table keys."""
    lines = ["golfbox sim: keys", ""]
    for index, seat in enumerate(humans):
        lines.append(f"seat {seat + 1}:  {SEAT_KEYS[index].hint}")
    if not humans:
        lines.append("no human seats: the bots play on their own")
    lines += [
        "",
        "A real pad tells a short press from a long one; a keyboard cannot,",
        "so Shift (or Shift+arrow) sends a long press (held button).",
        "",
        "Tab  show other seats      ?  this help      q or Ctrl-C  quit",
        "",
        "any key closes this help",
    ]
    return lines


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


class TooSmall(NamedTuple):
    need_cols: int
    need_rows: int


def minimum_size(shared: tuple[int, int] | None, seat: tuple[int, int]) -> tuple[int, int]:
    """The smallest terminal that shows the shared display and one seat at full resolution."""
    seat_cols, seat_rows = cells_for(seat)
    cols, rows = seat_cols, STATUS_ROWS + LABEL_ROWS + seat_rows + 1
    if shared is not None:
        shared_cols, shared_rows = cells_for(shared)
        cols = max(cols, shared_cols)
        rows += LABEL_ROWS + shared_rows
    return cols, rows


def plan_layout(cols: int, rows: int, shared: tuple[int, int] | None, seat: tuple[int, int],
                seat_order: list[int], first: int = 0, humans: frozenset[int] = frozenset()
                ) -> Layout | TooSmall:
    """Shared display on top, then as many seats side by side as the width allows.

    ``seat_order`` lists the seats in the order Tab walks through them (humans first);
    ``first`` is where the window of shown seats starts in it.
    """
    need_cols, need_rows = minimum_size(shared, seat)
    if cols < need_cols or rows < need_rows:
        return TooSmall(need_cols, need_rows)
    panels: list[Panel] = []
    top = STATUS_ROWS
    if shared is not None:
        panels.append(Panel("shared", top, 0, False))
        top += LABEL_ROWS + cells_for(shared)[1]
    seat_cols = cells_for(seat)[0]
    fits = max(1, min(len(seat_order), (cols + GAP) // (seat_cols + GAP)))
    shown = [seat_order[(first + i) % len(seat_order)] for i in range(fits)] if seat_order else []
    for i, seat_no in enumerate(shown):
        panels.append(Panel(f"seat-{seat_no}", top, i * (seat_cols + GAP), seat_no in humans))
    hidden = tuple(s for s in seat_order if s not in shown)
    return Layout(tuple(panels), tuple(shown), hidden)
