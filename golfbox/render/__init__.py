"""Pure drawing: a seat's view → its 128×64 screen, the public view → the shared display.

Every function here is a pure function of its arguments: same input, same
pixels. No I/O, no clock, no state kept between calls.
"""

from golfbox.render.names import seat_name, wait_words
from golfbox.render.seat import CURSOR_CHOICES, render_seat
from golfbox.render.table import (
    describe_last,
    render_lobby,
    render_match_result,
    render_notice,
    render_reveal,
    render_saver,
    render_table,
    reveal_pages,
)

__all__ = [
    "CURSOR_CHOICES", "render_seat", "describe_last", "render_lobby", "render_match_result", "render_notice",
    "render_reveal", "render_saver", "render_table", "reveal_pages", "seat_name", "wait_words",
]
