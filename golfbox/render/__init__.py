"""Pure drawing: a seat's view → its 128×64 screen, the public view → the shared display.

Every function here is a pure function of its arguments: same input, same
pixels. No I/O, no clock, no state kept between calls.
"""

from golfbox.render.seat import render_seat

__all__ = ["render_seat"]
