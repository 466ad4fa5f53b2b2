"""Digits that stay apart at the size they are read: a score on the shared display is
5 px, 1.5 mm on a 3.12" SSD1322, about 4 arcmin across a table, so one pixel is
under 1 arcmin, at the edge of what an eye resolves. The small font's 0 was its 8
without the middle pixel: a total of 10 read 18, 30 read 38 (hardware/BOM.md,
reading distance)."""

from __future__ import annotations

from itertools import combinations

import pytest
from PIL import Image, ImageChops, ImageDraw

from golfbox.render import glyphs

DIGITS = "0123456789"


def pixels_apart(a: str, b: str, draw) -> int:
    """How many pixels differ between ``a`` and ``b`` drawn at the same place."""
    images = []
    for text in (a, b):
        image = Image.new("1", (40, 20), 0)
        draw(ImageDraw.Draw(image), text)
        images.append(image)
    return ImageChops.logical_xor(*images).histogram()[255]  # the lit ones


def small(draw: ImageDraw.ImageDraw, text: str) -> None:
    glyphs.draw_text(draw, 2, 4, text, 1)


def rank(draw: ImageDraw.ImageDraw, text: str) -> None:
    glyphs.draw_rank(draw, 2, 4, text, 1)


@pytest.mark.parametrize("a, b", list(combinations(DIGITS, 2)))
def test_small_digits_differ_in_two_pixels_or_more(a, b):
    assert pixels_apart(a, b, small) >= 2, (a, b)


def test_zero_is_no_eight_with_a_pixel_missing():
    """0 and 8 differed in their middle pixel alone; 0 and U in a top one."""
    assert pixels_apart("0", "8", small) >= 3
    assert pixels_apart("10", "18", small) >= 3
    assert pixels_apart("0", "U", small) >= 3


@pytest.mark.parametrize("a, b", list(combinations("A234567890JQK", 2)))
def test_card_ranks_differ_by_two_doubled_cells_or_more(a, b):
    """The big ranks (2-pixel strokes): 6 and 8, the closest, differ in two cells of
    2×2 pixels, each about 2 arcmin on a 0.96" seat at 50 cm."""
    assert pixels_apart(a, b, rank) >= 2 * glyphs.RANK_SCALE ** 2, (a, b)
