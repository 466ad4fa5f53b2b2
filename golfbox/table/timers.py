"""Deadlines for the table loop, in the manner of Klipper's reactor timers.

``call_at(when, callback)`` returns a handle; ``handle.cancel()`` drops it.
The loop asks ``next_due()`` how long it may block, and ``fire_due(now)``
runs one callback whose time has come. Two deadlines at the same moment
fire in the order they were set, so a table replays the same way each time.
Everything here runs on the loop's thread: nothing is locked.
"""

from __future__ import annotations

import itertools
from typing import Callable


class Timer:
    """One pending call; ``cancel()`` it, or move it with ``reschedule(when)``."""

    __slots__ = ("when", "callback", "order", "_timers")

    def __init__(self, timers: "Timers", when: float, callback: Callable[[], None], order: int):
        self._timers, self.when, self.callback, self.order = timers, when, callback, order

    @property
    def active(self) -> bool:
        return self in self._timers._pending

    def cancel(self) -> None:
        self._timers._pending.discard(self)

    def reschedule(self, when: float) -> None:
        """A new deadline, keeping its place among deadlines set at the same moment."""
        self.when = when


class Timers:
    def __init__(self) -> None:
        self._pending: set[Timer] = set()
        self._order = itertools.count()

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        timer = Timer(self, when, callback, next(self._order))
        self._pending.add(timer)
        return timer

    def next_due(self) -> Timer | None:
        """The earliest deadline (a table has a handful at most: no heap needed)."""
        return min(self._pending, key=lambda t: (t.when, t.order), default=None)

    def fire_due(self, now: float) -> bool:
        """Run the earliest callback if its time has come. True if one ran."""
        timer = self.next_due()
        if timer is None or timer.when > now:
            return False
        timer.cancel()
        timer.callback()
        return True


class ManualClock:
    """A clock that moves only when told: the demo's virtual time and the tests' clock."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
