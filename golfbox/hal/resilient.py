"""A display wrapper that lets the game go on when a panel fails.

An I2C OLED on a long seat cable will, one day, NAK or vanish. The table must
not crash for that: show() never raises. The first failure marks the display
degraded and posts one LinkEvent(connected=False); later frames are only kept
(the newest one) and the display is tried again with exponential backoff. When
a try works, a LinkEvent(connected=True) is posted and the newest frame is on
the panel. This is the only layer that retries a display.

No thread of its own: the clock is injected, and the retries are deadlines set
with ``call_at(when, callback)`` on the loop that owns the display (the table's
timers), so a display comes back even when no new frame is being drawn. Without
``call_at`` a degraded display is tried again by the next show() or poll().
"""

from __future__ import annotations

import dataclasses
import logging
import os
import threading
import time
from typing import Callable

from PIL import Image

from golfbox.hal.base import Display, EventSink, LinkEvent

log = logging.getLogger(__name__)

FIRST_RETRY, MAX_RETRY = 0.5, 30.0  # seconds: a failed display is tried again after 0.5, 1, 2 … 30 s
TRIES_LOGGED_EVERY = 100


def retry_limits(environ=os.environ) -> tuple[float, float]:
    """(first, longest) wait before a failed display is tried again.

    GOLFBOX_DISPLAY_RETRY=SECONDS sets both, for tests that must see hundreds of
    retries (the system test's drop-in); unset, a bad value or 0 keeps the defaults.
    """
    try:
        seconds = float(environ.get("GOLFBOX_DISPLAY_RETRY", ""))
    except ValueError:
        return FIRST_RETRY, MAX_RETRY
    if not 0.001 <= seconds <= MAX_RETRY:
        return FIRST_RETRY, MAX_RETRY
    return seconds, seconds


class ResilientDisplay:
    def __init__(self, display: Display, seat: int | None, sink: EventSink | None = None, *,
                 clock: Callable[[], float] = time.monotonic,
                 first_retry: float | None = None, max_retry: float | None = None,
                 on_error: Callable[[OSError], None] | None = None,
                 call_at: Callable[[float, Callable[[], None]], object] | None = None):
        self.inner = display
        self.seat = seat  # None: the shared display
        self.sink = sink
        self.name = display.name
        self.size = display.size
        self.mode = display.mode
        self.healthy = True
        self.last_error: OSError | None = None
        self.failed_tries = 0  # since it last worked
        self._clock = clock
        limits = retry_limits()
        self._first_retry = limits[0] if first_retry is None else first_retry
        self._max_retry = limits[1] if max_retry is None else max_retry
        self._delay = self._first_retry
        self._next_try = 0.0
        self._pending: Image.Image | None = None  # newest frame not yet on the panel
        self._lock = threading.Lock()
        self._on_error = on_error  # e.g. a mux RESET pulse when the bus looks stuck
        self.call_at = call_at  # sets the deadline of the next try (the table lends its timers)
        self._retry = None  # that deadline's handle, while one is set

    def show(self, image: Image.Image) -> None:
        with self._lock:
            self._pending = image
            if self.healthy or self._clock() >= self._next_try:
                self._flush()

    def poll(self) -> None:
        """Try a degraded display again if its backoff has run out."""
        with self._lock:
            if not self.healthy and self._clock() >= self._next_try:
                self._flush()

    def close(self) -> None:
        try:
            self.inner.close()
        except OSError as exc:  # closing a dead panel is not worth a crash at shutdown
            log.warning("%s: error while closing: %s", self.name, exc)

    def _flush(self) -> None:
        image = self._pending
        try:
            if image is not None:
                self.inner.show(image)
        except OSError as exc:
            self._failed(exc)
            return
        self._pending = None
        if not self.healthy:
            self.healthy = True
            self._delay = self._first_retry
            log.log(self._level(logging.INFO), "%s: working again", self.name)
            self._post(LinkEvent(self.seat, True, f"{self.name}: working again"))

    def _failed(self, exc: OSError) -> None:
        self.last_error = exc
        if self._on_error is not None:
            self._on_error(exc)
        if self.healthy:
            self.healthy = False
            self._delay = self._first_retry
            log.log(self._level(logging.WARNING), "%s: %s; retrying in the background",
                    self.name, exc)
            self._post(LinkEvent(self.seat, False, f"{self.name}: {exc or type(exc).__name__}"))
            self.failed_tries = 0
        else:
            self._delay = min(self._delay * 2, self._max_retry)
        self.failed_tries += 1
        if self.failed_tries % TRIES_LOGGED_EVERY == 0:  # the log shows it is still being tried
            log.info("%s: still failing after %d tries: %s", self.name, self.failed_tries, exc)
        self._next_try = self._clock() + self._delay
        # No backoff (a seat node's display): tried again at each frame, not on a timer
        # that would fall due at once for ever, the table's loop firing it and reading
        # no press while the node is away.
        if self.call_at is not None and self._delay > 0:
            if self._retry is not None:
                self._retry.cancel()
            self._retry = self.call_at(self._next_try, self.poll)

    def _level(self, level: int) -> int:
        """A change posted to a sink is logged by whoever takes it (the table: naming
        whose seat, a few lines a minute for a loose cable); here only at DEBUG, or
        each flip was two more lines, without bound."""
        return logging.DEBUG if self.sink is not None else level

    def _post(self, event: LinkEvent) -> None:
        if self.sink is not None:
            self.sink(dataclasses.replace(event, at=self._clock()))  # when it happened: now

