"""The one place a table is put together: pads and displays, timers, journal, service.

Every display is wrapped in a ResilientDisplay (unless it already is one) that
posts its failures into the table's queue and sets its retries on the table's
timers, so a panel that fails is retried in exactly one layer, and the loop
that owns the panel is the one that tries it again.
"""

from __future__ import annotations

import queue
import time
from typing import Callable

from golfbox.hal.base import ButtonPad, Display
from golfbox.hal.resilient import ResilientDisplay
from golfbox.table.journal import Journal
from golfbox.table.service import TableService
from golfbox.table.settings import TableSettings
from golfbox.table.timers import Timers


def assemble_table(settings: TableSettings, pads: list[ButtonPad],
                   seat_displays: dict[int, Display], shared_display: Display | None,
                   journal: Journal | None = None, clock: Callable[[], float] = time.monotonic,
                   notifier=None, *, inbox: queue.SimpleQueue | None = None,
                   think_off_loop: bool = False, faults=()) -> TableService:
    """A table service over these parts (``inbox``: the queue the pads already post into;
    ``faults``: TableService's, shown from the first frame)."""
    inbox = inbox if inbox is not None else queue.SimpleQueue()
    timers = Timers()

    def resilient(display: Display, seat: int | None) -> ResilientDisplay:
        if not isinstance(display, ResilientDisplay):
            display = ResilientDisplay(display, seat, clock=clock)
        if display.sink is None:
            display.sink = inbox.put
        display.call_at = timers.call_at
        return display

    seats = {seat: resilient(d, seat) for seat, d in seat_displays.items()}
    shared = resilient(shared_display, None) if shared_display is not None else None
    return TableService(settings, pads, seats, shared, journal, clock, notifier,
                        inbox=inbox, think_off_loop=think_off_loop, timers=timers,
                        faults=faults)
