"""The Pi's supply, as its kernel reports it: under-voltage.

Raspberry Pi OS's firmware driver adds a hwmon device named ``rpi_volt``
(drivers/hwmon/raspberrypi-hwmon.c) when the firmware answers its throttling
query. Every 2 s the driver asks the firmware for its sticky under-voltage bit,
clearing it as it asks: ``in0_lcrit_alarm`` reads 1 when the supply was low
within the last 2 s or so. Not since boot, and nothing counts how often; the
kernel's own log says "Under-voltage detected!" (rate-limited). At each change
the driver wakes a poll() on that file (sysfs_notify), so watching it costs no
wakeups.

A low supply is the likely cause of USB seat nodes dropping off and coming
back, of OLEDs that stop answering, of a throttled Pi and of bad SD writes.
"""

from __future__ import annotations

import logging
import math
import os
import select
import threading
import time
from pathlib import Path
from typing import Callable

SYSFS = Path("/sys")
ADVICE = ("use the official supply for this Pi model (5 V 5 A for a Pi 5, 5 V 3 A "
          "for a Pi 4: hardware/BOM.md) with its own cable")
LIKELY = "seat nodes dropping off USB and displays failing are likely this"
# The alarm comes and goes every few seconds on a failing supply: a sag is over
# (and said to be) once it has stayed down this long.
SETTLE_SECONDS = 60.0


def sysfs_root(environ=os.environ) -> Path:
    """/sys, or GOLFBOX_SYSFS for a test's fake tree (laid out like /sys)."""
    return Path(environ.get("GOLFBOX_SYSFS") or SYSFS)


def find_alarm(sysfs: Path = SYSFS) -> Path | None:
    """The ``in0_lcrit_alarm`` of the hwmon device named rpi_volt, or None (not a
    Raspberry Pi, or a kernel without the driver). hwmonN's number varies."""
    try:
        devices = sorted((sysfs / "class" / "hwmon").iterdir())
    except OSError:
        return None
    for device in devices:
        try:
            name = (device / "name").read_text().strip()
        except OSError:
            continue
        if name == "rpi_volt":
            return device / "in0_lcrit_alarm"
    return None


def is_low(text: str | bytes) -> bool:
    """The alarm file's text ("0\\n" or "1\\n") as the supply's state; ValueError otherwise."""
    return int(text) != 0


class SupplyWatch:
    """Logs the supply's sags while the table runs: once as the alarm first rises,
    once when it has stayed down SETTLE_SECONDS (with how many times it rose), not
    at each of a failing supply's flickers. A thread sleeps in poll() until the
    kernel says the alarm changed, or a sag's settling time is over."""

    def __init__(self, alarm: Path, log: logging.Logger, *,
                 clock: Callable[[], float] = time.monotonic, settle: float = SETTLE_SECONDS):
        self.alarm, self.log, self.clock, self.settle = alarm, log, clock, settle
        self.low = False
        self.began: float | None = None  # the sag being watched, None: none
        self.cleared: float | None = None  # when its alarm last went down
        self.rises = 0  # of that sag's alarm
        self._thread: threading.Thread | None = None
        self._stop_read = self._stop_write = -1  # a pipe: close() writes, poll() wakes

    def saw(self, low: bool) -> float | None:
        """Take the alarm as just read. Returns how long to wait for a change at most,
        None: until there is one."""
        now = self.clock()
        if low and not self.low:
            self.rises += 1
            if self.began is None:
                self.began = now
                self.log.warning("power: the Pi's supply is low (under-voltage, kernel's "
                                 "rpi_volt alarm): %s; %s", LIKELY, ADVICE)
        elif self.low and not low:
            self.cleared = now
        self.low = low
        if self.began is None or low:
            return None
        left = self.cleared + self.settle - now
        if left > 0:
            return left
        self.log.info("power: the supply has held for %.0f s; it was low %d time%s in the "
                      "%.0f s before", self.settle, self.rises, "" if self.rises == 1 else "s",
                      self.cleared - self.began)
        self.began, self.rises = None, 0
        return None

    def check(self) -> float | None:
        """Read the alarm now and take it (saw); what the thread does at each wake."""
        return self.saw(is_low(self.alarm.read_bytes()))

    def start(self) -> None:
        self._stop_read, self._stop_write = os.pipe()
        self._thread = threading.Thread(target=self._watch, daemon=True, name="supply-watch")
        self._thread.start()

    def close(self) -> None:
        if self._thread is None:
            return
        os.write(self._stop_write, b"x")
        self._thread.join()
        os.close(self._stop_write)
        os.close(self._stop_read)
        self._thread = None

    def _watch(self) -> None:
        try:
            with open(self.alarm, "rb", buffering=0) as alarm:
                poller = select.poll()
                poller.register(alarm, select.POLLPRI | select.POLLERR)
                poller.register(self._stop_read, select.POLLIN)
                while True:
                    alarm.seek(0)  # a sysfs file wakes poll() again once it has been read
                    wait = self.saw(is_low(alarm.read()))
                    woken = poller.poll(None if wait is None else math.ceil(wait * 1000))
                    if any(fd == self._stop_read for fd, _ in woken):
                        return
        except (OSError, ValueError) as exc:
            self.log.warning("power: stopped watching the supply: %s: %s", self.alarm, exc)


def watch_supply(log: logging.Logger, sysfs: Path = SYSFS) -> SupplyWatch | None:
    """Start watching the Pi's under-voltage alarm (None: there is none, not a Pi)."""
    alarm = find_alarm(sysfs)
    if alarm is None:
        return None
    watch = SupplyWatch(alarm, log)
    watch.start()
    return watch
