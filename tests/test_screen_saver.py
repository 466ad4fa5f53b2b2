"""The screen saver: a table left alone goes dark but for a small moving line, so the
OLEDs do not burn in; any press wakes it, and only wakes it."""

from __future__ import annotations

import pytest

from golfbox.table import screens

HOUR = 60  # the saver's text moves once a minute


@pytest.mark.parametrize("size", [(128, 64), (256, 64)])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_savers_text_moves_so_that_no_pixel_stays_lit(size, lang):
    lit_minutes: dict[tuple[int, int], int] = {}
    for spot in range(HOUR):
        image = screens.saver(size, spot, lang)[1]()
        assert image.size == size
        lit = [xy for xy in ((x, y) for x in range(size[0]) for y in range(size[1]))
               if image.getpixel(xy)]
        assert 0 < len(lit) < size[0] * size[1] // 20  # black but for a small line
        for xy in lit:
            lit_minutes[xy] = lit_minutes.get(xy, 0) + 1
    # In an hour, no pixel is lit for more than a quarter of it.
    assert max(lit_minutes.values()) <= HOUR // 4
