"""TCA9548A channels: which /dev/i2c-N each one is, and a RESET pulse when one is stuck.

The kernel's ``i2c-mux`` overlay gives a mux's channels the next free adapter
numbers, which change with the Pi model and with whatever else is enabled; a
shift by one would swap seats 1-2 with 3-4 without any error (both channels
carry 0x3C and 0x3D). The stable name is sysfs: the mux's device directory
``/sys/bus/i2c/devices/<parent>-00<addr>/`` holds a ``channel-N`` link to the
channel's ``i2c-K`` adapter (drivers/i2c/i2c-mux.c, Documentation/i2c/i2c-sysfs.rst). It is read
each time a display is opened, never written into the config.
"""

from __future__ import annotations

import errno
import logging
import os
import time
from pathlib import Path
from typing import Any, Callable

from golfbox.hal.config import I2CLocation

log = logging.getLogger(__name__)

SYSFS_I2C_DEVICES = Path("/sys/bus/i2c/devices")


class MuxChannelError(OSError):
    """A mux channel with no adapter in sysfs (overlay missing, mux not answering at boot)."""

    def __str__(self) -> str:  # our own sentence, without OSError's "[Errno 2] " before it
        return self.strerror


def mux_device_dir(parent: int, address: int, devices: Path = SYSFS_I2C_DEVICES) -> Path:
    return devices / f"{parent}-{address:04x}"


def resolve_bus(location: I2CLocation, devices: Path = SYSFS_I2C_DEVICES) -> int:
    """The /dev/i2c-N number of ``location``: its bus, or its mux channel's adapter."""
    if location.bus is not None:
        return location.bus
    mux_dir = mux_device_dir(location.parent, location.mux, devices)
    link = mux_dir / f"channel-{location.channel}"
    try:
        target = os.readlink(link)
    except FileNotFoundError:
        if not mux_dir.exists():  # nothing declares it, answering or not
            hint = ("the kernel knows of no mux there: is dtoverlay=i2c-mux,pca9548,addr=0x%02x "
                    "in config.txt?" % location.mux)
        elif not _bound(mux_dir):
            hint = (f"the TCA9548A did not answer when the kernel probed it at boot: its VIN, "
                    f"GND, SDA, SCL, A0-A2 set for 0x{location.mux:02X}, RESET not held low; "
                    "then reboot")
        else:
            hint = "the mux has no such channel"
        raise MuxChannelError(errno.ENOENT, f"no {link} ({hint})") from None
    name = os.path.basename(target)
    if not name.startswith("i2c-") or not name[4:].isdigit():
        raise MuxChannelError(errno.EINVAL, f"{link} points to {target}, not to an i2c-N adapter")
    return int(name[4:])


def _bound(mux_dir: Path) -> bool:
    """Has a driver taken the mux? The overlay makes its device either way; the driver
    makes the channels only once the chip has answered its probe."""
    return any(mux_dir.glob("channel-*"))


MUX_IDLE_DISCONNECT = "-2"  # dt-bindings/mux/mux.h; -1 (MUX_IDLE_AS_IS) is the driver's default
IDLE_STATE_RULE = "/etc/udev/rules.d/60-golfbox-i2c-mux.rules"  # systemd/install.sh writes it


def idle_state_warning(index: int, parent: int, address: int,
                       devices: Path | None = None) -> str | None:
    """One line if this mux's kernel driver keeps a channel selected when idle, else None.

    i2c-mux-pca954x caches the channel it last selected and writes the mux only for
    another one; with idle_state -2 it deselects after every transfer and forgets it,
    so a RESET pulse cannot leave it believing a channel is still connected. A mux
    that is not bound at all is left to its displays' own error.
    """
    mux_dir = mux_device_dir(parent, address, SYSFS_I2C_DEVICES if devices is None else devices)
    if not mux_dir.is_dir() or not _bound(mux_dir):
        return None
    path = mux_dir / "idle_state"
    try:
        state = path.read_text().strip()
    except FileNotFoundError:
        state = "missing (a kernel too old for it?)"
    except OSError as exc:
        state = f"unreadable ({exc.strerror})"
    if state == MUX_IDLE_DISCONNECT:
        return None
    return (f"i2c_mux[{index}] (TCA9548A 0x{address:02X} on I2C{parent}): {path} is {state}, not -2 "
            "(disconnect when idle), so after a RESET pulse the displays on the channel last used "
            f"can stay dark; run systemd/install.sh (it installs {IDLE_STATE_RULE}) and reboot, "
            f"or for now: echo -2 | sudo tee {path}")


# errno values a transfer gets when SDA or SCL is held low: the controller times out
# (i2c-bcm2835: ETIMEDOUT on a clock-stretch timeout) or loses arbitration (EAGAIN).
STUCK_ERRNOS = (errno.ETIMEDOUT, errno.EAGAIN)


class MuxReset:
    """Pulses a TCA9548A's RESET (active low) through a gpiozero output.

    A seat OLED that browns out mid-transfer can hold its channel's SDA low; with
    that channel selected the parent bus is held too, and every seat fails.
    Resetting the mux deselects all channels, which frees the parent bus; the
    displays then reopen as after any failure. At most one pulse every
    ``min_interval`` seconds, so a panel that is simply gone does not keep the
    other channels blinking.
    """

    PULSE_S = 0.001  # the data sheet asks for 6 ns low; 1 ms is far beyond any doubt

    def __init__(self, pin: int, *, pin_factory: Any = None, min_interval: float = 5.0,
                 clock: Callable[[], float] = time.monotonic, name: str = "TCA9548A"):
        from gpiozero import DigitalOutputDevice

        # active_high=False: on() drives RESET low. initial_value=False: released.
        self.output = DigitalOutputDevice(pin, active_high=False, initial_value=False,
                                          pin_factory=pin_factory)
        self.name = name
        self.pulses = 0
        self._min_interval = min_interval
        self._clock = clock
        self._last: float | None = None

    def on_error(self, exc: BaseException) -> None:
        """A display behind this mux failed: pulse RESET if the bus looks stuck."""
        if getattr(exc, "errno", None) in STUCK_ERRNOS or getattr(exc.__cause__, "errno", None) in STUCK_ERRNOS:
            self.pulse()

    def pulse(self) -> bool:
        now = self._clock()
        if self._last is not None and now - self._last < self._min_interval:
            return False
        self._last = now
        log.warning("%s: bus stuck, pulsing RESET", self.name)
        self.output.on()
        time.sleep(self.PULSE_S)
        self.output.off()
        self.pulses += 1
        return True

    def close(self) -> None:
        self.output.close()
