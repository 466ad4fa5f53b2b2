"""The drawing functions the table uses, from golfbox.render.

golfbox.render is written alongside the table; a function it does not have
yet is replaced here by a plain text screen drawn with its bitmap font, so
the table runs (and its tests pass) before every picture exists. Each text
screen is built from the same inputs the real function gets: a seat's
screen still only ever sees that seat's view.
"""

from __future__ import annotations

from typing import Sequence

from PIL import Image, ImageDraw

from golfbox.engine import SeatView, card_name
from golfbox.render import glyphs
from golfbox.render import render_seat  # noqa: F401  (re-exported: the seat screen always exists)

LINE = 7  # pixels per line of the 5-pixel font


def _text_screen(size: tuple[int, int], title: str, lines: Sequence[str]) -> Image.Image:
    image = Image.new("1", size, 0)
    draw = ImageDraw.Draw(image)
    glyphs.draw_text(draw, 0, 0, glyphs.fit_text(title, size[0]), 1)
    y = LINE + 2
    for line in lines:
        for part in glyphs.wrap_text(line, size[0], max(1, (size[1] - y) // LINE)):
            if y + LINE > size[1] + 1:
                return image
            glyphs.draw_text(draw, 0, y, part, 1)
            y += LINE
    return image


def _text_notice(size: tuple[int, int], title: str, text: str) -> Image.Image:
    return _text_screen(size, title, text.splitlines())


def _text_table(view: SeatView, size: tuple[int, int], names: Sequence[str], message: str = "") -> Image.Image:
    top = card_name(view.discard_top) if view.discard_top is not None else "-"
    if view.to_move is not None:
        whose = f"{names[view.to_move]} to play"
    else:
        whose = "everyone: choose your start cards"
    scores = "  ".join(f"{name} {total}" for name, total in zip(names, view.totals))
    lines = [f"stock {view.stock_size}  discard {top}", whose, scores]
    return _text_screen(size, f"{view.variant.name} round {view.round_no}/{view.rounds}",
                        lines + ([message] if message else []))


def _text_reveal(view: SeatView, size: tuple[int, int], names: Sequence[str]) -> Image.Image:
    scores = view.round_scores or ()
    lines = [f"{name}: {score} (total {total})" for name, score, total in zip(names, scores, view.totals)]
    return _text_screen(size, f"round {view.round_no} over", lines)


def _text_match_result(totals: Sequence[int], winners: Sequence[int], names: Sequence[str],
                       size: tuple[int, int]) -> Image.Image:
    won = " & ".join(names[s] for s in winners)
    lines = [f"{name}: {total}" for name, total in zip(names, totals)]
    return _text_screen(size, f"{won} won", lines)


try:
    from golfbox.render import render_notice
except ImportError:
    render_notice = _text_notice
try:
    from golfbox.render import render_table
except ImportError:
    render_table = _text_table
try:
    from golfbox.render import render_reveal
except ImportError:
    render_reveal = _text_reveal
try:
    from golfbox.render import render_match_result
except ImportError:
    render_match_result = _text_match_result
