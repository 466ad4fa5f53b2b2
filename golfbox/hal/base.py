"""The two small interfaces every backend implements.

A ButtonPad turns presses into ButtonEvents posted to a sink (a callable,
usually ``queue.Queue.put``); it never runs game logic itself, because
gpiozero and serial readers call back on their own threads. It stamps each
event with the moment of the press on its ``clock``, the table's own: a press
may wait in the queue while the table is busy, and the table must still know
whether it came before or after what the player saw (table/service.py).
A Display takes a 1-bit or greyscale PIL image of its own size.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Callable, Protocol, runtime_checkable

from PIL import Image


class Button(enum.Enum):
    """The four buttons of a seat pad: ◀ ▶ ● ✕."""

    LEFT = "left"
    RIGHT = "right"
    OK = "ok"
    BACK = "back"

    @property
    def symbol(self) -> str:
        return {"left": "◀", "right": "▶", "ok": "●", "back": "✕"}[self.value]


class EventKind(enum.Enum):
    PRESSED = "pressed"
    HELD = "held"  # a long press, sent once after hold_time


# gpio.hold_time's default, for every pad: wired, simulated, and a node until the host
# tells it (the firmware's board.HOLD_MS says the same in ms: it cannot import this).
DEFAULT_HOLD_TIME = 0.8
# A button down this long is stuck (or something is on it): it acts no more until let go,
# and the pad's log says which, once; gpio and seat nodes alike.
STUCK_AFTER = 60.0
# What the log says of such a button, after its name (gpio: "seat 1 ● (GPIO22)"; a node:
# "seat 5 ●"), the same for both: STUCK with STUCK_AFTER, then LET_GO.
STUCK = ("has been down for %g s: stuck, or something on it? It does nothing more "
         "until let go; the rest of the table plays on")
LET_GO = "let go: it works again"


@dataclass(frozen=True, slots=True)
class ButtonEvent:
    seat: int
    button: Button
    kind: EventKind = EventKind.PRESSED
    at: float = field(kw_only=True)  # when it happened, on the pad's clock (the table's)

    def __str__(self) -> str:  # "seat 2 ▶ pressed" (seats are shown 1-based)
        return f"seat {self.seat + 1} {self.button.symbol} {self.kind.value}"


@dataclass(frozen=True, slots=True)
class LinkEvent:
    """A seat's hardware went away or came back (serial node unplugged, display failing).

    Posted into the same sink as button events so the table thread learns of it
    in order; ``reason`` is shown to the players ("seat 3: node unplugged").
    """

    seat: int | None  # None: the shared display
    connected: bool
    reason: str = ""
    buttons: bool = False  # the seat's buttons went (or came back) too, not only its display
    # When it happened, on the table's clock (as a press): it may wait in the queue while
    # the part's steady timer falls due, and a failure before that means it was not
    # steady (TableService._steady). None: when the table handles it (a test's own).
    # Not compared: two reports of one change are equal whenever each was made.
    at: float | None = field(default=None, kw_only=True, compare=False)


EventSink = Callable[["ButtonEvent | LinkEvent"], None]


class DisplayError(OSError):
    """A display that could not be reached (unplugged, bus error, …)."""


class HardwareSetupError(Exception):
    """Hardware this machine cannot drive at all (a missing package, not a Pi, a pin the
    kernel holds): retrying will not heal it, so it stops the start with one line naming
    the part (its config key, pin or panel) and what to do."""


@runtime_checkable
class ButtonPad(Protocol):
    """Yields ButtonEvents for one or more seats into a sink."""

    clock: Callable[[], float]  # what its events are stamped with: the table's clock

    def start(self, sink: EventSink) -> None:
        """Begin delivering events to ``sink`` (may be called from any thread)."""

    def close(self) -> None:
        """Release pins/ports; no events are delivered afterwards."""


@runtime_checkable
class Display(Protocol):
    """Something that shows an image of ``size`` pixels."""

    name: str
    size: tuple[int, int]
    mode: str  # "1" for mono OLEDs, "L" for greyscale ones

    def show(self, image: Image.Image) -> None:
        """Show ``image``; raise OSError (e.g. DisplayError) when the hardware fails."""

    def close(self) -> None:
        """Release the device; ``persist`` decides whether the panel stays lit."""
