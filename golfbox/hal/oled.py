"""OLED displays through luma.oled (any of its drivers, over I2C or SPI).

``LumaDisplay`` adapts a luma device to our ``Display``:

* it opens the bus on first use and again after a bus error (a panel that
  lost power needs its init sequence again), so a missing panel is an
  ``OSError`` from ``show()`` that ``ResilientDisplay`` can retry, not a crash
  at start. One luma device is built per panel and kept (``PanelWire``): a
  failed open closes its bus handle and leaks nothing, however often it is
  retried;
* an image identical to the last one sent is not sent at all (luma's SSD1306
  driver always sends all 1,024 bytes);
* for SSD1306-family and SH1106 panels it sends only the changed columns of
  the changed 8-pixel pages, through the device's own ``command()``/``data()``
  (``page_diff``); other drivers go through luma's ``display()`` (greyscale
  ones diff internally);
* every byte that goes through the serial interface is counted, so a
  benchmark can say what a move costs on the bus;
* ``persist`` is set so the panel keeps its last picture when we exit.

luma is imported only when a device is opened.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from PIL import Image

from golfbox.hal.base import DisplayError, HardwareSetupError
from golfbox.hal.config import LUMA_DRIVERS, DisplayConfig
from golfbox.hal.pages import pack_pages

log = logging.getLogger(__name__)

# Drivers whose RAM is 8-pixel pages we can address ourselves, and how.
HORIZONTAL_WINDOW = ("ssd1306", "ssd1309", "ssd1315")  # COLUMNADDR/PAGEADDR window
PAGE_ADDRESSED = ("sh1106",)  # one page at a time: 0xB0|page, column low/high nibble
SH1106_COLUMN_OFFSET = 2  # luma's default page_address_offset: 128 columns in 132 of RAM
# Bus overhead of one write: I2C address byte + control byte (0x00 command, 0x40 data).
I2C_BYTES_PER_TRANSFER = 2


@dataclass
class BusCounter:
    """What went over the serial interface (payload bytes, write transfers)."""

    command_bytes: int = 0
    data_bytes: int = 0
    transfers: int = 0

    @property
    def payload(self) -> int:
        return self.command_bytes + self.data_bytes

    @property
    def i2c_bytes(self) -> int:
        """Bytes on the wire for I2C, counting the address and control byte of each transfer."""
        return self.payload + I2C_BYTES_PER_TRANSFER * self.transfers


class PanelWire:
    """The one serial interface a luma device is ever given: it counts bytes, and the
    real bus behind it can be closed and opened again.

    luma's ``device.__init__`` registers an ``atexit`` hook holding the device
    before it sends the init sequence, so building a device for every retry
    would keep each failed one (and its bus handle) alive until exit. Instead
    one device is built per panel, with the wire recording: the init sequence
    it sends is kept and replayed on the real bus at every (re)open.
    """

    def __init__(self, counter: BusCounter):
        self.counter = counter
        self.inner: Any = None  # the real luma serial interface while the bus is open
        self.recording = False
        self.init_sequence: list[tuple[bool, Any]] = []  # (is a command, bytes)

    def record(self) -> None:
        self.recording, self.init_sequence = True, []

    def attach(self, inner: Any) -> None:
        """Open: the recorded init sequence goes out first (raises on a bus error, with
        the bus closed again: no device exists yet for the caller to release)."""
        self.detach()  # never two buses open for one panel
        self.recording = False
        self.inner = inner
        try:
            for is_command, payload in self.init_sequence:
                if is_command:
                    self.command(*payload)
                else:
                    self.data(payload)  # luma's init ends with a blank frame
        except BaseException:
            self.detach()
            raise

    def detach(self) -> None:
        """Close the real bus, whatever state it is in; the device stays."""
        inner, self.inner = self.inner, None
        if inner is not None:
            try:
                inner.cleanup()
            except Exception:  # it is already broken; we only want the handle closed
                pass

    def command(self, *cmd: int) -> None:
        if self.recording:
            self.init_sequence.append((True, cmd))
            return
        self._bus().command(*cmd)
        self.counter.command_bytes += len(cmd)
        self.counter.transfers += 1

    def data(self, data: Any) -> None:
        if self.recording:
            self.init_sequence.append((False, list(data)))
            return
        self._bus().data(data)
        self.counter.data_bytes += len(data)
        self.counter.transfers += 1

    def cleanup(self) -> None:  # luma's device.cleanup() (close, or its atexit hook)
        self.detach()

    def _bus(self) -> Any:
        if self.inner is None:
            raise OSError("the bus is not open")
        return self.inner


@dataclass
class FrameStats:
    shown: int = 0  # show() calls
    sent: int = 0  # frames that reached the panel
    skipped: int = 0  # identical to what the panel already shows
    partial: int = 0  # of the sent ones, sent as changed pages only


class LumaDisplay:
    """Any luma device as a ``Display``; ``open_device()`` builds the device."""

    def __init__(self, name: str, size: tuple[int, int], mode: str,
                 open_device: Callable[[], Any], *, where: str = "",
                 counter: BusCounter | None = None, contrast: int | None = None,
                 persist: bool = True, page_layout: str | None = None,
                 release: Callable[[Any], None] | None = None):
        self.name = name
        self.size = size
        self.mode = mode
        self.where = where  # "I2C bus 22 address 0x3C": for error messages
        self.counter = counter or BusCounter()
        self.stats = FrameStats()
        self._open_device = open_device
        self._release = release  # closes a broken device's bus; default: luma's cleanup()
        self._contrast = contrast
        self._persist = persist
        self._page_layout = page_layout  # "window", "pages" or None (luma's display())
        self._device: Any = None
        self._last: bytes | None = None  # the image on the panel, as bytes
        self._pages: list[bytes] | None = None  # the panel's RAM, page by page
        self._lock = threading.Lock()

    @property
    def device(self) -> Any:
        """The luma device, opened if need be (raises DisplayError)."""
        with self._lock:
            return self._opened()

    def show(self, image: Image.Image) -> None:
        if image.size != self.size:
            raise ValueError(f"{self.name}: image is {image.size[0]}x{image.size[1]}, "
                             f"display is {self.size[0]}x{self.size[1]}")
        with self._lock:
            self.stats.shown += 1
            try:
                device = self._opened()
                frame = _to_mode(image, device.mode)
                raw = frame.tobytes()
                if raw == self._last:
                    self.stats.skipped += 1
                    return
                if self._page_layout and self._pages is not None:
                    self._send_changed_pages(device, frame)
                else:
                    device.display(frame)
                    if self._page_layout:
                        self._pages = pack_pages(device.preprocess(frame))
                self._last = raw
                self.stats.sent += 1
            except DisplayError:  # from opening: already says where
                raise
            except Exception as exc:
                if not _is_bus_error(exc):
                    raise
                self._drop_device()
                raise DisplayError(f"{self.where or 'display'}: {exc}") from exc

    def close(self) -> None:
        with self._lock:
            if self._device is None:
                return
            device, self._device = self._device, None
            try:
                device.persist = self._persist
                device.cleanup()
            except Exception as exc:
                if not _is_bus_error(exc):
                    raise
                log.warning("%s: closing: %s", self.name, exc)

    # -- internals (called with the lock held)

    def _opened(self) -> Any:
        if self._device is None:
            device = None
            try:
                device = self._open_device()
                device.persist = self._persist
                if self._contrast is not None:
                    device.contrast(self._contrast)
            except Exception as exc:
                if device is not None and self._release is not None:
                    self._release(device)
                if not _is_bus_error(exc):
                    raise
                raise DisplayError(f"{self.where or 'display'}: {exc}") from exc
            self._device = device
            self._last = None  # the init sequence cleared the panel
            self._pages = None
        return self._device

    def _drop_device(self) -> None:
        device, self._device = self._device, None
        self._last = self._pages = None
        if device is None:
            return
        if self._release is not None:
            self._release(device)
            return
        try:
            device.persist = True  # so cleanup() only closes the bus handle, draws nothing
            device.cleanup()
        except Exception:  # it is already broken; we only want the file closed
            pass

    def _send_changed_pages(self, device: Any, frame: Image.Image) -> None:
        new_pages = pack_pages(device.preprocess(frame))
        changed = [(p, *span) for p, (old, new) in enumerate(zip(self._pages, new_pages))
                   if (span := _changed_span(old, new))]
        for first_page, last_page, first_col, last_col in _merge_windows(changed, self._page_layout):
            if self._page_layout == "window":
                device.command(0x21, first_col, last_col, 0x22, first_page, last_page)
                device.data(b"".join(new_pages[p][first_col:last_col + 1]
                                     for p in range(first_page, last_page + 1)))
            else:
                column = first_col + SH1106_COLUMN_OFFSET
                device.command(0xB0 | first_page, column & 0x0F, 0x10 | (column >> 4))
                device.data(new_pages[first_page][first_col:last_col + 1])
        # Only what was sent is on the panel; keep our copy equal to the panel's RAM.
        self._pages = new_pages
        self.stats.partial += 1


def _to_mode(image: Image.Image, mode: str) -> Image.Image:
    if image.mode == mode:
        return image
    if mode == "1":  # threshold, don't dither: the renderer draws 1-bit art already
        return image.convert("L").point(lambda v: 255 if v >= 128 else 0).convert("1")
    return image.convert(mode)


def _changed_span(old: bytes, new: bytes) -> tuple[int, int] | None:
    if old == new:
        return None
    first = next(i for i, (a, b) in enumerate(zip(old, new)) if a != b)
    last = len(new) - 1 - next(i for i, (a, b) in enumerate(zip(reversed(old), reversed(new))) if a != b)
    return first, last


def _window_cost(first_page: int, last_page: int, first_col: int, last_col: int) -> int:
    # 6 command bytes + data, and two transfers of address + control byte.
    return 6 + (last_page - first_page + 1) * (last_col - first_col + 1) + 2 * I2C_BYTES_PER_TRANSFER


def _merge_windows(changed: list[tuple[int, int, int]], layout: str | None
                   ) -> list[tuple[int, int, int, int]]:
    """(page, first_col, last_col) per changed page -> write windows, merged where cheaper."""
    windows: list[tuple[int, int, int, int]] = []
    for page, first_col, last_col in changed:
        if layout == "window" and windows and windows[-1][1] == page - 1:
            p0, p1, c0, c1 = windows[-1]
            merged = (p0, page, min(c0, first_col), max(c1, last_col))
            if _window_cost(*merged) <= _window_cost(*windows[-1]) + _window_cost(page, page, first_col, last_col):
                windows[-1] = merged
                continue
        windows.append((page, page, first_col, last_col))
    return windows


def _is_bus_error(exc: BaseException) -> bool:
    """OSError, or luma's own errors (DeviceNotFoundError is not an OSError)."""
    if isinstance(exc, OSError):
        return True
    try:
        import luma.core.error
    except ImportError:
        return False
    return isinstance(exc, luma.core.error.Error)


# ---------------------------------------------------------------- building from config


def open_oled(config: DisplayConfig, serial_factory: Callable[[], Any] | None = None, *,
              sysfs_i2c: Path | None = None) -> LumaDisplay:
    """A luma.oled panel from its config; ``serial_factory`` replaces the real bus (tests),
    ``sysfs_i2c`` the /sys/bus/i2c/devices where mux channels are looked up (tests)."""
    if config.driver not in LUMA_DRIVERS:
        raise ValueError(f"{config.key}.driver: {config.driver!r} is not a luma.oled driver")
    counter = BusCounter()
    wire = PanelWire(counter)
    device: list[Any] = []  # built once, on the first open (luma is imported then)

    def open_device() -> Any:
        if not device:
            wire.record()  # luma's __init__ sends the init sequence: keep it for every open
            device.append(_build_luma_device(config, wire))
        wire.attach(serial_factory() if serial_factory else _real_serial(config, sysfs_i2c))
        framebuffer = getattr(device[0], "framebuffer", None)
        if hasattr(framebuffer, "prev_image"):
            framebuffer.prev_image = None  # the init cleared the panel: next frame in full
        return device[0]

    page_layout = None
    if config.page_diff and (config.width, config.height) == (128, 64):
        if config.driver in HORIZONTAL_WINDOW:
            page_layout = "window"
        elif config.driver in PAGE_ADDRESSED:
            page_layout = "pages"
    return LumaDisplay(config.name, config.size, config.mode, open_device,
                       where=_where(config), counter=counter, contrast=config.contrast,
                       persist=config.persist, page_layout=page_layout,
                       release=lambda _device: wire.detach())


def _build_luma_device(config: DisplayConfig, wire: PanelWire) -> Any:
    from luma.oled import device as luma_devices

    options: dict[str, Any] = {"width": config.width, "height": config.height,
                               "rotate": config.rotate}
    if config.mode != "1":
        options["mode"] = "RGB"  # greyscale/colour drivers: 4-bit grey from RGB
    if config.driver in PAGE_ADDRESSED:
        options["page_address_offset"] = SH1106_COLUMN_OFFSET
    return getattr(luma_devices, config.driver)(wire, **options)


# What luma needs to open a panel, by bus: (module, what provides it).
LUMA_NEEDS = {
    "any": [("luma.oled.device", "pip install 'golfbox[pi]'")],
    "i2c": [("smbus2", "pip install 'golfbox[pi]'")],
    # luma.core >= 2.5 moved these into its gpio/spi extras. RPi.GPIO must be the
    # rpi-lgpio drop-in: classic RPi.GPIO maps /dev/gpiomem, which the unit's
    # DevicePolicy=closed does not allow (rpi-lgpio uses /dev/gpiochip*).
    "spi": [("spidev", "pip install 'golfbox[pi]', or apt install python3-spidev"),
            ("RPi.GPIO", "pip install 'golfbox[pi]' (rpi-lgpio), or apt install python3-rpi-lgpio")],
}
# What the shared display's other luma drivers need (golfbox.hal.shared_display). The Pi's
# install has the pi extra only: a pygame window on an HDMI screen needs the window extra.
# From Python 3.14 that is pygame-ce, and luma.emulator, which asks for pygame (no wheel
# there), comes without its dependencies (pyproject.toml).
WINDOW_INSTALL = ("pip install 'golfbox[window]'" if sys.version_info < (3, 14) else
                  "pip install 'golfbox[window]' && pip install --no-deps 'luma.emulator>=1.5'")
_WINDOW_NEEDS = [(module, WINDOW_INSTALL) for module in ("luma.emulator.device", "pygame")]
EMULATOR_NEEDS = {
    "pygame": _WINDOW_NEEDS,
    "capture": _WINDOW_NEEDS,  # luma.emulator's capture device draws through pygame too
    "dummy": [("luma.core.device", "pip install 'golfbox[pi]'")],
}


def check_support(config: DisplayConfig) -> None:
    """Raise HardwareSetupError if this panel cannot be driven here at all.

    Checked when the hardware is built, so a missing package is a start-up
    error naming it, not an exception from the first frame that systemd would
    answer with restart after restart.
    """
    import importlib

    if config.driver in LUMA_DRIVERS:
        needs = LUMA_NEEDS["any"] + LUMA_NEEDS["i2c" if config.i2c else "spi"]
    else:  # sim needs nothing; a window, PNG files or luma's dummy need luma's emulator or core
        needs = EMULATOR_NEEDS.get(config.driver, [])
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # no pygame banner in the output
    for module, how in needs:
        try:
            importlib.import_module(module)
        except ImportError as exc:
            raise HardwareSetupError(f"{config.describe()}: needs the Python module {module} "
                                     f"({exc.name or module} is missing): {how}") from None
        except RuntimeError as exc:  # classic RPi.GPIO off a Pi: "can only be run on a Raspberry Pi"
            raise HardwareSetupError(f"{config.describe()}: {module} cannot run here ({exc}): "
                                     f"{how}") from None


def _where(config: DisplayConfig) -> str:
    if config.i2c:
        return f"I2C {config.i2c}"
    if config.spi:
        return f"SPI{config.spi.port}.{config.spi.device}"
    return config.driver


def _real_serial(config: DisplayConfig, sysfs_i2c: Path | None = None) -> Any:
    from luma.core.interface import serial

    if config.i2c:
        from golfbox.hal.i2cmux import SYSFS_I2C_DEVICES, resolve_bus

        # A mux channel's bus number is looked up at every open: the kernel picks it at boot.
        bus = resolve_bus(config.i2c, sysfs_i2c or SYSFS_I2C_DEVICES)
        return serial.i2c(port=bus, address=config.i2c.address)
    spi = config.spi
    assert spi is not None, "config validation guarantees a bus for a luma driver"
    try:
        return serial.spi(port=spi.port, device=spi.device, gpio_DC=spi.dc, gpio_RST=spi.rst,
                          bus_speed_hz=spi.speed_hz)
    except Exception as exc:
        if _is_bus_error(exc):  # no /dev/spidev…: a display failure, tried again
            raise
        # RPi.GPIO (rpi-lgpio) could not have D/C or RESET ("GPIO busy", no gpiochip): a
        # pin restarting will not free, named as a button's is. luma does not say which.
        from golfbox.hal.gpio import why_gpio_failed

        pins = f"dc GPIO {spi.dc}" if spi.rst is None else f"dc/rst GPIO {spi.dc}/{spi.rst}"
        raise HardwareSetupError(f"{config.bus_key} {pins}: {why_gpio_failed(exc)}") from exc
