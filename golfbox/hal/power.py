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

import os
from pathlib import Path

SYSFS = Path("/sys")
ADVICE = ("use the official supply for this Pi model (5 V 5 A for a Pi 5, 5 V 3 A "
          "for a Pi 4: hardware/BOM.md) with its own cable")


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
