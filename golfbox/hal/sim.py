"""Laptop backends: displays that keep their last image, a pad driven by code.

Used by the simulator, by tests and by ``check-hardware`` with no config. They
follow the same rules as the real backends, so what passes here means
something on the Pi: a long press is PRESSED then HELD (as gpio.py sends it),
and a display can be told to fail like an unplugged I2C OLED.
"""

from __future__ import annotations

import threading
import time
from typing import Callable, Iterable

from PIL import Image

from golfbox.hal.base import Button, ButtonEvent, DisplayError, EventKind, EventSink


class SimDisplay:
    """Keeps the last image shown, counts frames, reports changes."""

    def __init__(self, name: str, size: tuple[int, int] = (128, 64), mode: str = "1",
                 on_change: Callable[["SimDisplay"], None] | None = None):
        self.name = name
        self.size = size
        self.mode = mode
        self.on_change = on_change
        self.image: Image.Image | None = None
        self.frames = 0  # show() calls that reached the "panel"
        self.changes = 0  # of those, how many changed what is on it
        self.closed = False
        self._failure: OSError | None = None

    def show(self, image: Image.Image) -> None:
        if image.size != self.size:
            raise ValueError(f"{self.name}: image is {image.size[0]}x{image.size[1]}, "
                             f"display is {self.size[0]}x{self.size[1]}")
        if self._failure is not None:
            raise self._failure
        image = image if image.mode == self.mode else image.convert(self.mode)
        self.frames += 1
        if self.image is not None and self.image.tobytes() == image.tobytes():
            return
        self.image = image.copy()
        self.changes += 1
        if self.on_change is not None:
            self.on_change(self)

    def fail(self, error: OSError | None = None) -> None:
        """Make show() raise from now on, like a display pulled off its bus."""
        self._failure = error or DisplayError("I2C error (simulated)")

    def recover(self) -> None:
        self._failure = None

    def close(self) -> None:
        self.closed = True


class SimPad:
    """A pad for any number of seats whose presses come from code (or a keyboard); each
    is stamped on ``clock`` when it is made, as a GPIO pad stamps its callbacks."""

    def __init__(self, seats: Iterable[int], clock: Callable[[], float] = time.monotonic):
        self.seats = frozenset(seats)
        self.clock = clock
        self._sink: EventSink | None = None
        self._lock = threading.Lock()

    def start(self, sink: EventSink) -> None:
        with self._lock:
            self._sink = sink

    def close(self) -> None:
        with self._lock:
            self._sink = None

    def press(self, seat: int, button: Button | str) -> None:
        """A short press: PRESSED."""
        self._post(seat, button, EventKind.PRESSED)

    def hold(self, seat: int, button: Button | str) -> None:
        """A long press: PRESSED at once, HELD when hold_time has passed (as on GPIO)."""
        self._post(seat, button, EventKind.PRESSED)
        self._post(seat, button, EventKind.HELD)

    def held(self, seat: int, button: Button | str) -> None:
        """HELD alone: a hold whose PRESSED was posted earlier, as a slow pad sends it."""
        self._post(seat, button, EventKind.HELD)

    def _post(self, seat: int, button: Button | str, kind: EventKind) -> None:
        if seat not in self.seats:
            raise ValueError(f"seat {seat} is not on this pad (seats {sorted(self.seats)})")
        event = ButtonEvent(seat, _button(button), kind, at=self.clock())
        with self._lock:
            sink = self._sink
        if sink is None:
            raise RuntimeError("SimPad: start(sink) first (or the pad is closed)")
        sink(event)


def _button(button: Button | str) -> Button:
    return button if isinstance(button, Button) else Button(button)
