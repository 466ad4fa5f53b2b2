"""The hardware config file: TOML in, plain dataclasses out, every mistake named.

Validation happens once, at start, so a wrong pin is a one-line message
(``seats[2].buttons.ok: GPIO 17 is already used by seats[0].buttons.left``)
and not a dead button in the middle of a game. Nothing here imports gpiozero
or luma: the laptop path never needs them.

Layout (see hardware/config.example.toml)::

    pinmap = "pinmap.toml"      # optional: default pins/buses, relative to this file
    [gpio]                      # pin_factory, bounce_time, hold_time
    [buses]                     # i2c1, spi0, spi0_1cs, spi1, uart: reserve their pins
    [[i2c_mux]]                 # parent bus, address, RESET pin; displays name its channels
    [[seats]]                   # backend = gpio | sim | serial; buttons; display; node
    [seat_nodes]                # usb_ids, ports: how golfbox.hal.serialnode finds the nodes
    [shared_display]            # driver + i2c/spi, or pygame/capture/dummy/sim
    [game] [journal]            # passed through untouched (engine/table validate them)
"""

from __future__ import annotations

import os
import re
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from golfbox.configfile import ConfigError, NotedKey, Section, check_int, subkey, type_name
from golfbox.hal.base import DEFAULT_HOLD_TIME, Button
from golfbox.hal.protocol import MAX_HOLD_MS, MIN_HOLD_MS

# A config is checked on a laptop and read on a Pi. From Python 3.15 tomllib reads TOML
# 1.1 (an inline table over lines, "\e"), which the Pi's Python (3.11, 3.13) refuses
# at start: there tomli before 2.4, TOML 1.0 as tomllib was, reads it as the Pi will.
if sys.version_info >= (3, 15):
    import tomli as tomllib
else:
    import tomllib


# luma.oled drivers: name -> (default size, image mode our Display takes).
# Mirrors luma.oled.device so validation needs no luma import.
LUMA_DRIVERS: dict[str, tuple[tuple[int, int], str]] = {
    "ssd1306": ((128, 64), "1"),
    "ssd1309": ((128, 64), "1"),
    "ssd1305": ((128, 32), "1"),
    "ssd1315": ((128, 64), "1"),
    "ssd1316": ((128, 32), "1"),
    "sh1106": ((128, 64), "1"),
    "sh1107": ((64, 128), "1"),
    "ch1115": ((128, 64), "1"),
    "ssd1322": ((256, 64), "L"),
    "ssd1322_nhd": ((128, 64), "L"),
    "ssd1325": ((128, 64), "L"),
    "ssd1327": ((128, 128), "L"),
    "ssd1362": ((256, 64), "L"),
    "ssd1363": ((256, 128), "L"),
    "ssd1331": ((96, 64), "RGB"),
    "ssd1351": ((128, 128), "RGB"),
}
# Not a panel on a bus: a window (pygame), PNG files (capture), luma's dummy, our sim.
VIRTUAL_DRIVERS = ("pygame", "capture", "dummy", "sim")
SEAT_SIZE = (128, 64)
SHARED_SIZE = (256, 64)
SHARED_SIZES = (SHARED_SIZE, SEAT_SIZE)  # the shared display: wide, or a seat-sized panel
SEAT_BACKENDS = ("gpio", "sim", "serial")
MAX_SEATS = 8
# luma.core.interface.serial.spi refuses any other bus speed.
SPI_SPEEDS_HZ = tuple(int(mhz * 1_000_000) for mhz in (
    0.5, 1, 2, 4, 8, 16, 20, 24, 28, 32, 36, 40, 44, 48, 50, 52))
# The fastest serial clock a controller's data sheet allows (minimum SCLK cycle
# time): 100 ns for the SSD1306/SSD1309/SSD1322 family, 250 ns for the SH1106.
# Drivers not listed are held to luma's list only.
SPI_MAX_HZ: dict[str, int] = {
    "ssd1306": 10_000_000, "ssd1309": 10_000_000, "ssd1322": 10_000_000,
    "ssd1322_nhd": 10_000_000, "sh1106": 4_000_000,
}
SPI_DEFAULT_HZ = 8_000_000  # luma's own default; an SH1106 left without speed_hz gets its 4 MHz

# Pins a bus takes over when it is enabled (BCM numbers).
BUS_PINS: dict[str, tuple[int, ...]] = {
    "i2c1": (2, 3),
    "spi0": (7, 8, 9, 10, 11),
    "spi0_1cs": (8, 9, 10, 11),  # dtoverlay=spi0-1cs: CE1 (GPIO 7) is left free
    "spi1": (16, 17, 18, 19, 20, 21),
    "uart": (14, 15),
}
ID_EEPROM_PINS = (0, 1)  # the HAT ID EEPROM bus; the firmware probes it at boot
HIGHEST_GPIO = 27
GPIO = "GPIO (BCM) number"  # what a pin number means, in errors


@dataclass(frozen=True)
class I2CLocation:
    bus: int | None  # /dev/i2c-N; None: a mux channel, found at run time (golfbox.hal.i2cmux)
    address: int
    mux: int | None = None  # the TCA9548A's address, for { mux, channel }
    channel: int | None = None
    parent: int | None = None  # the mux's parent bus

    def __str__(self) -> str:
        if self.bus is None:
            return f"mux 0x{self.mux:02X} channel {self.channel} address 0x{self.address:02X}"
        return f"bus {self.bus} address 0x{self.address:02X}"

    def spot(self) -> tuple[int, ...]:
        """What two devices must not share: (bus, address) or (parent, mux, channel, address)."""
        if self.bus is None:
            return (self.parent, self.mux, self.channel, self.address)
        return (self.bus, self.address)


@dataclass(frozen=True)
class SpiLocation:
    port: int
    device: int
    dc: int
    rst: int | None
    speed_hz: int


@dataclass(frozen=True)
class DisplayConfig:
    key: str  # where it came from in the file, e.g. "seats[1].display"
    name: str  # shown to people: "seat 2 display", "shared display"
    driver: str
    width: int
    height: int
    mode: str  # what Display.show() takes: "1", "L" or "RGB"
    rotate: int = 0
    contrast: int | None = None
    persist: bool = True
    page_diff: bool = True
    i2c: I2CLocation | None = None
    spi: SpiLocation | None = None
    scale: int = 2  # pygame/capture windows
    bus_key: str = ""  # where i2c/spi came from: "seats[0].display.i2c (from pinmap.toml)"

    @property
    def size(self) -> tuple[int, int]:
        """The size of the images it takes: the panel's, turned by ``rotate``."""
        return (self.width, self.height) if self.rotate % 2 == 0 else (self.height, self.width)

    def location(self) -> str:
        """'ssd1306, /dev/i2c-22 0x3C': the driver and where it is wired."""
        if self.i2c and self.i2c.bus is None:
            return f"{self.driver}, I2C{self.i2c.parent} mux 0x{self.i2c.mux:02X} channel {self.i2c.channel} 0x{self.i2c.address:02X}"
        if self.i2c:
            return f"{self.driver}, /dev/i2c-{self.i2c.bus} 0x{self.i2c.address:02X}"
        if self.spi:
            return f"{self.driver}, SPI{self.spi.port}.{self.spi.device} DC=GPIO{self.spi.dc}"
        return self.driver

    def describe(self) -> str:
        """'seat 2 display (ssd1306, /dev/i2c-22 0x3C)' for messages."""
        return f"{self.name} ({self.location()})"


@dataclass(frozen=True)
class SeatConfig:
    index: int  # 0-based, as in ButtonEvent.seat
    backend: str
    buttons: dict[Button, int] = field(default_factory=dict)  # gpio seats: BCM pins
    button_keys: dict[Button, str] = field(default_factory=dict)  # for messages, pin map noted
    display: DisplayConfig | None = None  # gpio and sim seats
    node: str | None = None  # serial seats: the node's unique id in hex (found by it on USB)
    contrast: int | None = None  # serial seats: their node's panel's (display = { contrast })


@dataclass(frozen=True)
class GpioSettings:
    pin_factory: str | None = None  # None: GPIOZERO_PIN_FACTORY or gpiozero's choice
    bounce_time: float = 0.02
    hold_time: float = DEFAULT_HOLD_TIME


@dataclass(frozen=True)
class I2CMux:
    key: str
    parent: int
    address: int
    buses: tuple[int, ...] = ()  # fixed /dev/i2c-N of channel 0, 1, … (old style; prefer channels)
    reset: int | None = None  # GPIO wired to its RESET (active low): pulsed to free a stuck channel


@dataclass(frozen=True)
class HardwareConfig:
    seats: tuple[SeatConfig, ...]
    shared_display: DisplayConfig | None
    gpio: GpioSettings = GpioSettings()
    i2c_muxes: tuple[I2CMux, ...] = ()
    reserved_pins: dict[int, str] = field(default_factory=dict)  # pin -> bus that owns it
    seat_nodes: dict[str, Any] = field(default_factory=dict)  # [seat_nodes], for serialnode
    game: dict[str, Any] = field(default_factory=dict)
    journal: dict[str, Any] = field(default_factory=dict)
    path: Path | None = None
    # The pin map file it was read with (its link followed), None without one. Not
    # compared: the same pins read from another file are the same config.
    pinmap_path: Path | None = field(default=None, compare=False)

    @property
    def displays(self) -> list[DisplayConfig]:
        """Every display it names: the seats' (serial seats have none here), then the shared one."""
        return [s.display for s in self.seats if s.display] + (
            [self.shared_display] if self.shared_display else [])


# ---------------------------------------------------------------- entry points


def load_config(path: str | Path, *, pinmap_folder: Path | None = None,
                pinmap_file: Path | None = None) -> HardwareConfig:
    """Read and validate a config file; ConfigError names the key (or line) at fault.
    A relative ``pinmap`` is read from ``pinmap_folder``, by default the file's own;
    ``pinmap_file`` is read instead of the file ``pinmap`` names (the table's kept copy
    of its config keeps the pin map it started with: golfbox.table.last_good)."""
    if not str(path):  # Path("") would be the current folder
        raise ConfigError("--config", "an empty path is not a config file")
    path = Path(path)
    data = _read_toml(path, "config")
    pinmap: dict[str, Any] = {}
    pinmap_name = ""
    pinmap_path: Path | None = None
    pinmap_named: Path | None = None  # as the config names it: a link not followed
    if "pinmap" in data:
        named = Section(data, "").getstr("pinmap")
        try:
            # Its faults name a link, not its target, whatever the fault: the file the
            # config names is the one the user edits, as its keys' faults name it (below).
            pinmap_named = pinmap_file or _named_path((pinmap_folder or path.parent) / named)
            pinmap_path = pinmap_file or pinmap_named.resolve()
        # A NUL byte, a symlink loop: RuntimeError from Python 3.11 and 3.12, OSError after.
        except (OSError, ValueError, RuntimeError) as exc:
            raise ConfigError("pinmap", f"{named!r} is not a usable path ({exc})") from None
        pinmap = _read_toml(pinmap_named, "pin map", key="pinmap: ")
        # Its keys are named as the config names it, wherever it was read (through a
        # link, from the kept copy): the file to mend, and the same config either way.
        pinmap_name = Path(named).name
    try:
        return parse_config(data, pinmap=pinmap, pinmap_name=pinmap_name, path=path,
                            pinmap_path=pinmap_path)
    except ConfigError as exc:
        # A key of the pin map's is a NotedKey, 'seats[2].buttons.ok (from pinmap.toml)',
        # 'seats (in pinmap.toml)': the fault is in the pin map. Told by its type, not
        # its words: a config's own quoted key may end in the same words.
        if isinstance(exc.key, NotedKey):
            exc.key, exc.file = exc.key.bare, pinmap_named
        raise


def _named_path(path: Path) -> Path:
    """``path`` in full, its folders' links followed (as resolve() does) but not the
    file's own: a relative pin map is named in full, as before, and a link by its name."""
    return path.parent.resolve() / path.name


def sim_config(seats: int = 4) -> HardwareConfig:
    """What runs with no config file: every seat and the shared display simulated."""
    return parse_config({
        "seats": [{"backend": "sim"} for _ in range(seats)],
        "shared_display": {"driver": "sim"},
    })


def load_pinmap(path: str | Path) -> dict[str, Any]:
    return _read_toml(Path(path), "pin map")


MAX_FILE_BYTES = 1024 * 1024  # a config or pin map is a few KiB


class _NotAFile(Exception):
    """The path is no file to read: ``str()`` says what it is ("is a named pipe")."""


def _refuse_unless_a_file(info: os.stat_result) -> None:
    """_NotAFile for what ``info`` tells is no file to read, nor an anonymous pipe."""
    # A named pipe read at once, before whoever writes it has opened it, is an empty
    # config; one waited on could wait for ever: it is refused, as a socket or a device is.
    mode = info.st_mode
    for kind, test in (("is a folder", stat.S_ISDIR), ("is a socket", stat.S_ISSOCK),
                       ("is a device", stat.S_ISCHR), ("is a device", stat.S_ISBLK)):
        if test(mode):
            raise _NotAFile(kind)
    if stat.S_ISFIFO(mode) and not _anonymous_pipe(info):
        raise _NotAFile("is a named pipe")


def _anonymous_pipe(info: os.stat_result) -> bool:
    """A pipe with no name in a folder, as a shell's <(…) is: it lives where a new
    os.pipe() does (Linux's pipefs); a named pipe lives on the disk of its folder."""
    read, write = os.pipe()
    try:
        return info.st_dev == os.fstat(read).st_dev
    finally:
        os.close(read)
        os.close(write)


def _open_to_read(path: Path):
    """``path`` opened for reading if it is a file or an anonymous pipe (a shell's <(…)),
    looked at before it is opened; anything else (a terminal, a seat node's /dev/ttyACM0
    given by mistake, a named pipe) is refused before a read waits on it for ever."""
    info = os.stat(path)
    if not stat.S_ISCHR(info.st_mode):  # a terminal is told from another device once open
        _refuse_unless_a_file(info)
    # O_NONBLOCK: a port waiting for its carrier opens at once, as does a named pipe
    # put in the path's place since it was looked at.
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        if os.isatty(fd):
            raise _NotAFile("a terminal or a serial port")
        _refuse_unless_a_file(os.fstat(fd))
        os.set_blocking(fd, True)  # a pipe is read to its end
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _read_toml(path: Path, what: str, key: str = "") -> dict[str, Any]:
    """A TOML file's document; ConfigError names the file (after ``key``) whatever goes wrong."""
    where = f"{key}{path}"

    def refused(reason: str, at: str = "") -> ConfigError:  # a fault of the file as a whole
        return ConfigError(at, file=path, message=f"{where}: {reason}")

    try:
        with _open_to_read(path) as f:
            raw = f.read(MAX_FILE_BYTES + 1)  # /dev/zero or a log file given by mistake: not all of it
    except _NotAFile as exc:
        raise refused(f"{exc}, not a {what} file") from None
    except FileNotFoundError:
        message = f"{where} does not exist" if key else f"{where}: no such {what} file"
        raise ConfigError(None, file=path, message=message) from None
    except OSError as exc:  # permissions, an I/O error
        raise refused(f"cannot read the {what} file: {exc.strerror or exc}") from None
    except ValueError as exc:  # a NUL byte in the path
        raise refused(f"not a usable path ({exc})") from None
    if len(raw) > MAX_FILE_BYTES:
        raise refused(f"more than 1 MiB, too big for a {what} file (a device, a log?)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise refused(f"not UTF-8 text: byte 0x{raw[exc.start]:02X} at offset {exc.start} "
                      f"(line {line}); save the {what} as UTF-8") from None
    # Windows' Notepad starts a UTF-8 file with a byte order mark; tomllib calls it an
    # "invalid statement" at line 1. It is only a mark: read what follows it.
    text = text.removeprefix("\ufeff")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise refused(f"TOML syntax error: {exc}", _syntax_error_line(exc)) from None
    except RecursionError:  # tomllib reads each nested array or inline table by recursion
        raise refused("TOML nested too deeply to read (arrays or inline tables within each "
                      "other, hundreds deep)") from None


def _syntax_error_line(exc: tomllib.TOMLDecodeError) -> str:
    """'line N' of a TOML syntax error; '' at the end of the document, whose words name
    no line (3.14's lineno there is past the last line of a file ending in a newline)."""
    if hasattr(exc, "lineno"):  # Python 3.14's tomllib on; tomli's from 2.1 (3.15's reader)
        return f"line {exc.lineno}" if exc.pos < len(exc.doc) else ""
    # Before, it keeps no line of its own: its words end "(at line N, column M)".
    at = re.search(r"\(at line (\d+), column \d+\)$", str(exc))
    return f"line {at[1]}" if at else ""


TOP_KEYS = {"pinmap", "gpio", "buses", "i2c_mux", "seats", "seat_nodes", "shared_display", "game",
            "journal"}


def parse_config(data: dict[str, Any], *, pinmap: dict[str, Any] | None = None,
                 pinmap_name: str = "pin map", path: Path | None = None,
                 pinmap_path: Path | None = None) -> HardwareConfig:
    """Validate an already-parsed TOML document (``pinmap`` fills in left-out pins;
    ``path`` and ``pinmap_path`` say where they were read)."""
    pinmap = pinmap or {}
    top = Section(data, "")
    top.check_known(TOP_KEYS)
    gpio = _parse_gpio(top.section("gpio", {}))
    if "i2c_mux" in data or "i2c_mux" not in pinmap:
        muxes = _parse_muxes(data.get("i2c_mux", []))
    else:  # the pin map's: its errors say so, as its buttons' do
        muxes = _parse_muxes(pinmap["i2c_mux"], pinmap_name)
    defaults = _PinmapDefaults(pinmap, pinmap_name, muxes)

    raw_seats = data.get("seats")
    if raw_seats is None:
        raise ConfigError("seats", "missing (add one [[seats]] table per seat)")
    if not isinstance(raw_seats, list) or not raw_seats:
        raise ConfigError("seats", "expected a non-empty array of tables ([[seats]])")
    if len(raw_seats) > MAX_SEATS:
        raise ConfigError("seats", f"{len(raw_seats)} seats, at most {MAX_SEATS} are supported")
    seats = tuple(_parse_seat(raw, i, defaults) for i, raw in enumerate(raw_seats))

    shared = None
    if "shared_display" in data:
        shared = _parse_display(top.section("shared_display"), "shared display",
                                defaults.shared_display(), seat=False, muxes=muxes)

    buses = top.section("buses", {})  # after the seats: their errors are reported first
    config = HardwareConfig(
        seats=seats,
        shared_display=shared,
        gpio=gpio,
        i2c_muxes=muxes,
        reserved_pins=_reserved_pins(buses, seats, shared, muxes),
        seat_nodes=_parse_seat_nodes(top.section("seat_nodes", {}), seats),
        game=top.section("game", {}).raw,
        journal=_parse_journal(top.section("journal", {})),
        path=path,
        pinmap_path=pinmap_path,
    )
    _check_pins(config)
    _check_i2c(config)
    _check_spi(config, one_cs=buses.getbool("spi0_1cs", False))
    return config


# ---------------------------------------------------------------- sections


def _parse_gpio(gpio: Section) -> GpioSettings:
    gpio.check_known({"pin_factory", "bounce_time", "hold_time"})
    factory = gpio.getstr("pin_factory", None)
    if factory is not None:
        # The names gpiozero registers (package metadata: gpiozero itself is not imported).
        from importlib.metadata import entry_points

        known = sorted({ep.name for ep in entry_points(group="gpiozero_pin_factories")})
        if factory.lower() not in known:
            raise ConfigError("gpio.pin_factory",
                              f"{factory!r} is not an installed gpiozero pin "
                              f"factory (installed: {', '.join(known) or 'none, is gpiozero installed?'})")
    bounce = gpio.getseconds("bounce_time", 0.02, minval=0.0, maxval=0.5)
    hold = gpio.getseconds("hold_time", DEFAULT_HOLD_TIME,  # what a node's HOLD can carry
                           minval=MIN_HOLD_MS / 1000, maxval=MAX_HOLD_MS / 1000)
    if bounce >= hold:
        raise ConfigError("gpio.bounce_time",
                          f"{bounce} s must be shorter than gpio.hold_time ({hold} s)")
    return GpioSettings(pin_factory=factory, bounce_time=bounce, hold_time=hold)


def _parse_muxes(raw: Any, pinmap_name: str | None = None) -> tuple[I2CMux, ...]:
    """The [[i2c_mux]] tables: the config's, or the pin map's named ``pinmap_name``."""
    def noted(key: str) -> str:
        return key if pinmap_name is None else NotedKey(key, pinmap_name)

    if not isinstance(raw, list):
        raise ConfigError(noted("i2c_mux"), "expected an array of tables ([[i2c_mux]])")
    muxes = []
    for i, entry in enumerate(raw):
        key = noted(f"i2c_mux[{i}]")
        entry = Section(entry, key)
        entry.check_known({"parent", "address", "buses", "reset"})
        buses = entry.get("buses", [])
        if not isinstance(buses, list) or len(buses) > 8:
            raise ConfigError(subkey(key, "buses"), "expected a list of 1 to 8 bus numbers "
                                                    "(channel 0 first)")
        for j, bus in enumerate(buses):
            check_int(bus, subkey(key, f"buses[{j}]"), 0, 255)
        mux = I2CMux(
            key=key,
            parent=entry.getint("parent", 1, minval=0, maxval=255),
            address=entry.getint("address", 0x70, minval=0x70, maxval=0x77),
            buses=tuple(buses),
            reset=entry.getint("reset", None, minval=0, maxval=HIGHEST_GPIO, what=GPIO),
        )
        for other in muxes:
            if (other.parent, other.address) == (mux.parent, mux.address):
                raise ConfigError(subkey(key, "address"),
                                  f"bus {mux.parent} address 0x{mux.address:02X} "
                                  f"is already {other.key}")
        muxes.append(mux)
    return tuple(muxes)


SEAT_KEYS = {"backend", "buttons", "display", "node"}


def _parse_seat(raw: Any, index: int, defaults: _PinmapDefaults) -> SeatConfig:
    key = f"seats[{index}]"
    seat = Section(raw, key)
    seat.check_known(SEAT_KEYS)
    raw = seat.raw
    backend = seat.getchoice("backend", SEAT_BACKENDS, "gpio")
    name = f"seat {index + 1} display"

    if backend == "serial":
        if "buttons" in raw:
            raise ConfigError(f"{key}.buttons",
                              "a serial seat's node drives its own buttons; remove it")
        # The node's panel takes the host's contrast (CONTRAST), and nothing else of a display.
        display = seat.section("display", {})
        for extra in display.raw:
            if extra != "contrast":
                raise ConfigError(display.key(extra), "a serial seat's node drives its own "
                                                      "display; only its contrast can be set here")
        contrast = display.getint("contrast", None, minval=0, maxval=255)
        if "node" not in raw:
            raise ConfigError(f"{key}.node", "missing: the seat node's id in hex, as its waiting "
                                             "screen shows it (e.g. node = \"e6614103e7452d2f\")")
        node = seat.getstr("node")
        if not node or len(node) > 32 or any(c not in "0123456789abcdefABCDEF" for c in node):
            raise ConfigError(f"{key}.node",
                              f"expected the node id in hex, like \"e6614103e7452d2f\", "
                              f"got {node!r}")
        return SeatConfig(index=index, backend=backend, node=node.lower(), contrast=contrast)
    if "node" in raw:
        raise ConfigError(f"{key}.node", f"only for backend = \"serial\" (this seat is {backend!r})")

    if backend == "sim":
        if "buttons" in raw:
            raise ConfigError(f"{key}.buttons",
                              "a sim seat has no pins; remove it or use backend = \"gpio\"")
        display = _parse_display(seat.section("display", {"driver": "sim"}), name, {},
                                 seat=True, muxes=defaults.muxes)
        return SeatConfig(index=index, backend=backend, display=display)

    buttons_raw, buttons_key = defaults.buttons(raw, index)
    pins = Section(buttons_raw, buttons_key)
    pins.check_known({b.value for b in Button})
    buttons, button_keys = {}, {}
    for button in Button:
        button_keys[button] = key_of_button = pins.key(button.value)
        if button.value not in pins:
            raise ConfigError(key_of_button, "missing (a seat has the four buttons "
                                             "left, right, ok, back)")
        buttons[button] = pins.getint(button.value, minval=0, maxval=HIGHEST_GPIO, what=GPIO)
    if "display" not in raw:
        raise ConfigError(f"{key}.display", "missing (e.g. display = { driver = \"ssd1306\" })")
    display = _parse_display(seat.section("display"), name, defaults.seat_display(index),
                             seat=True, muxes=defaults.muxes)
    return SeatConfig(index=index, backend=backend, buttons=buttons, button_keys=button_keys,
                      display=display)


DISPLAY_KEYS = {"driver", "i2c", "spi", "width", "height", "rotate", "contrast", "persist",
                "page_diff", "scale"}


def _parse_display(display: Section, name: str, bus_defaults: dict[str, Any],
                   *, seat: bool, muxes: tuple[I2CMux, ...] = ()) -> DisplayConfig:
    display.check_known(DISPLAY_KEYS)
    raw, key = display.raw, display.name
    if "driver" not in raw:
        raise ConfigError(f"{key}.driver", f"missing (one of {', '.join(_driver_names())})")
    driver = display.getstr("driver")
    if driver not in LUMA_DRIVERS and driver not in VIRTUAL_DRIVERS:
        raise ConfigError(f"{key}.driver",
                          f"unknown driver {driver!r} (known: {', '.join(_driver_names())})")

    if driver in LUMA_DRIVERS:
        (default_w, default_h), mode = LUMA_DRIVERS[driver]
    else:
        (default_w, default_h), mode = (SEAT_SIZE, "1") if seat else (SHARED_SIZE, "L")
    width = display.getint("width", default_w, minval=8, maxval=1024)
    height = display.getint("height", default_h, minval=8, maxval=1024)
    rotate = display.getint("rotate", 0, minval=0, maxval=3, what="number of quarter turns")
    logical = (width, height) if rotate % 2 == 0 else (height, width)
    if seat and logical != SEAT_SIZE:
        raise ConfigError(key, f"a seat view is {SEAT_SIZE[0]}x{SEAT_SIZE[1]}, "
                               f"this {driver} shows {logical[0]}x{logical[1]} (rotate = {rotate})")
    if not seat and logical not in SHARED_SIZES:
        # The table view is drawn for these two sizes only (render.table).
        raise ConfigError(key, f"the table view is 256x64 (greyscale) or 128x64, "
                               f"this {driver} shows {logical[0]}x{logical[1]} (rotate = {rotate})")

    i2c = spi = None
    bus_key = ""
    if driver in LUMA_DRIVERS:
        explicit = {k: raw[k] for k in ("i2c", "spi") if k in raw}
        if len(explicit) == 1:
            (bus_kind, bus_raw), = explicit.items()
            bus_key = f"{key}.{bus_kind}"
        elif not explicit and bus_defaults:
            bus_kind = "i2c" if "i2c" in bus_defaults else "spi"
            bus_raw, bus_key = bus_defaults[bus_kind], bus_defaults["_key"]
        else:
            raise ConfigError(key, "give exactly one of i2c = { bus, address } or "
                                   "spi = { port, device, dc, rst }")
        bus = Section(bus_raw, bus_key)
        if bus_kind == "i2c":
            i2c = _parse_i2c(bus, muxes)
        else:
            spi = _parse_spi(bus, driver)
    else:
        for k in ("i2c", "spi"):
            if k in raw:
                raise ConfigError(f"{key}.{k}", f"driver {driver!r} is not on a bus; remove it")

    return DisplayConfig(
        key=key, name=name, driver=driver, width=width, height=height, mode=mode,
        rotate=rotate,
        contrast=display.getint("contrast", None, minval=0, maxval=255),
        persist=display.getbool("persist", True),
        page_diff=display.getbool("page_diff", True),
        i2c=i2c, spi=spi, bus_key=bus_key,
        scale=display.getint("scale", 2, minval=1, maxval=8),
    )


def _parse_i2c(i2c: Section, muxes: tuple[I2CMux, ...] = ()) -> I2CLocation:
    i2c.check_known({"bus", "address", "mux", "channel"})
    key = i2c.name
    address = i2c.getint("address", minval=0x03, maxval=0x77, what="7-bit I2C address")
    if "bus" in i2c:
        for extra in ("mux", "channel"):
            if extra in i2c:
                raise ConfigError(i2c.key(extra), "give either bus = N or "
                                                  "mux = 0x70, channel = N, not both")
        return I2CLocation(bus=i2c.getint("bus", minval=0, maxval=255,
                                          what="/dev/i2c-N bus number"), address=address)
    if "mux" not in i2c or "channel" not in i2c:
        raise ConfigError(key, "give bus = N, or mux = 0x70 and channel = N (a TCA9548A "
                               "channel, whose bus number the kernel picks at boot)")
    mux_address = i2c.getint("mux", minval=0x70, maxval=0x77, what="TCA9548A address")
    channel = i2c.getint("channel", minval=0, maxval=7, what="mux channel")
    found = [m for m in muxes if m.address == mux_address]
    if not found:
        raise ConfigError(i2c.key("mux"), f"no [[i2c_mux]] has address 0x{mux_address:02X} "
                                          "(add one: parent = 1, address = 0x70)")
    if len(found) > 1:
        raise ConfigError(i2c.key("mux"),
                          f"muxes at 0x{mux_address:02X} on buses "
                          f"{', '.join(str(m.parent) for m in found)}: name the bus by number instead")
    return I2CLocation(bus=None, address=address, mux=mux_address, channel=channel,
                       parent=found[0].parent)


def _fastest_speed(limit_hz: int) -> int:
    """The fastest bus speed luma allows at or below ``limit_hz``."""
    return max(s for s in SPI_SPEEDS_HZ if s <= limit_hz)


def _parse_spi(spi: Section, driver: str = "") -> SpiLocation:
    spi.check_known({"port", "device", "dc", "rst", "speed_hz"})
    # Left out: luma's default, or the fastest speed the controller takes if that is slower.
    default = _fastest_speed(min(SPI_DEFAULT_HZ, SPI_MAX_HZ.get(driver, SPI_DEFAULT_HZ)))
    speed = spi.getint("speed_hz", default, minval=1)
    if speed not in SPI_SPEEDS_HZ:
        allowed = ", ".join(f"{s / 1e6:g} MHz" for s in SPI_SPEEDS_HZ)
        raise ConfigError(spi.key("speed_hz"), f"{speed} is not a speed luma allows ({allowed})")
    if speed > SPI_MAX_HZ.get(driver, speed):
        fastest = _fastest_speed(SPI_MAX_HZ[driver])
        raise ConfigError(spi.key("speed_hz"),
                          f"{speed / 1e6:g} MHz is faster than the "
                          f"{driver}'s serial interface takes ({SPI_MAX_HZ[driver] / 1e6:g} MHz); "
                          f"use {fastest}")
    if "dc" not in spi:
        raise ConfigError(spi.key("dc"), "missing (the GPIO wired to the display's D/C pin)")
    port = spi.getint("port", 0, minval=0, maxval=1)
    device = spi.getint("device", 0, minval=0, maxval=2)
    if port == 0 and device == 2:  # SPI1 has CE0-CE2 (spi1-3cs); SPI0 only CE0 and CE1
        raise ConfigError(spi.key("device"), "SPI0 has devices 0 and 1 (CE0, CE1), not 2")
    return SpiLocation(
        port=port,
        device=device,
        dc=spi.getint("dc", minval=0, maxval=HIGHEST_GPIO, what=GPIO),
        rst=spi.getint("rst", None, minval=0, maxval=HIGHEST_GPIO, what=GPIO),
        speed_hz=speed,
    )


class _PinmapDefaults:
    """Fills pins and buses a config leaves out from the pin map (hardware/pinmap.toml)."""

    def __init__(self, pinmap: dict[str, Any], name: str, muxes: tuple[I2CMux, ...] = ()):
        self.muxes = muxes

        def own(key: str) -> NotedKey:  # a key of the pin map's own tables
            return NotedKey(key, name, "in")

        for key in pinmap:
            if key not in ("seats", "i2c_mux", "shared_display"):
                raise ConfigError(own(key), "unknown key (a pin map has seats, i2c_mux, "
                                            "shared_display)")
        self.pinmap = pinmap
        self.name = name
        seats = pinmap.get("seats", [])
        if not isinstance(seats, list):
            raise ConfigError(own("seats"), f"expected a list of [[seats]] tables, "
                                            f"got {type_name(seats)}")
        for index, seat in enumerate(seats):
            if not isinstance(seat, dict):
                raise ConfigError(own(f"seats[{index}]"), f"expected a [[seats]] table, "
                                                          f"got {type_name(seat)} {seat!r}")
            # A pin map gives pins and buses only; a misspelt key would be passed over unseen.
            table = Section(seat, own(f"seats[{index}]"))
            table.check_known(("buttons", "display"))
            if "display" in seat:
                table.section("display").check_known(("i2c", "spi"))
        if "shared_display" in pinmap:
            Section(pinmap["shared_display"], own("shared_display")).check_known(("i2c", "spi"))
        self.seats = seats

    def buttons(self, seat_raw: dict[str, Any], index: int) -> tuple[Any, str]:
        if "buttons" in seat_raw:
            return seat_raw["buttons"], f"seats[{index}].buttons"
        if index < len(self.seats) and "buttons" in self.seats[index]:
            return self.seats[index]["buttons"], NotedKey(f"seats[{index}].buttons", self.name)
        hint = f"the pin map has {len(self.seats)} seats" if self.pinmap else "no pinmap is set"
        raise ConfigError(f"seats[{index}].buttons",
                          f"missing ({hint}); "
                          "e.g. buttons = { left = 17, right = 27, ok = 22, back = 4 }")

    def seat_display(self, index: int) -> dict[str, Any]:
        if index < len(self.seats):
            return self._bus_of(self.seats[index].get("display", {}), f"seats[{index}].display")
        return {}

    def shared_display(self) -> dict[str, Any]:
        return self._bus_of(self.pinmap.get("shared_display", {}), "shared_display")

    def _bus_of(self, table: Any, key: str) -> dict[str, Any]:
        if not isinstance(table, dict):
            return {}
        found = [k for k in ("i2c", "spi") if k in table]
        if len(found) != 1:
            return {}
        kind = found[0]
        return {kind: table[kind], "_key": NotedKey(f"{key}.{kind}", self.name)}


def _parse_seat_nodes(section: Section, seats: tuple[SeatConfig, ...]) -> dict[str, Any]:
    """[seat_nodes] is golfbox.hal.serialnode's; its own parser checks it (no pyserial needed)."""
    table = section.raw
    if "seats" in table:
        raise ConfigError("seat_nodes.seats", "give each serial seat its node in its [[seats]] "
                                              "table instead (backend = \"serial\", node = \"…\")")
    owner: dict[str, str] = {}
    for seat in seats:
        if seat.node is not None:
            if seat.node in owner:
                raise ConfigError(f"seats[{seat.index}].node", f"node {seat.node} is already "
                                                               f"{owner[seat.node]}'s")
            owner[seat.node] = f"seats[{seat.index}]"
    if table or owner:
        from golfbox.hal.serialnode import SerialNodeConfig

        SerialNodeConfig.from_section(section)
    return dict(table)


JOURNAL_KEYS = ("path",)


def _parse_journal(journal: Section) -> dict[str, Any]:
    """[journal] path = "…": where the matches are kept (the run command picks a default)."""
    journal.check_known(JOURNAL_KEYS)
    path = journal.getstr("path", None, nonempty=True)
    # A relative path would be taken from the working directory, which is the service's
    # RuntimeDirectory (/run/golfbox), emptied at every boot: every match would be lost.
    if path is not None and not Path(path).is_absolute():
        raise ConfigError(journal.key("path"), f"{path!r} is a relative path; give the full path, "
                                               "e.g. path = \"/var/lib/golfbox/journal.sqlite3\"")
    return dict(journal.raw)


# ---------------------------------------------------------------- cross-checks


def _reserved_pins(buses: Section, seats: tuple[SeatConfig, ...],
                   shared: DisplayConfig | None, muxes: tuple[I2CMux, ...]) -> dict[int, str]:
    """Pins owned by an enabled bus: named in [buses], or used by a display or mux."""
    buses.check_known(set(BUS_PINS))
    enabled = {name for name in BUS_PINS if buses.getbool(name, False)}
    one_cs = "spi0_1cs" in enabled  # SPI0 with one chip select: GPIO 7 stays free
    displays = [s.display for s in seats if s.display] + ([shared] if shared else [])
    mux_parents = {m.parent for m in muxes}
    for d in displays:
        if d.i2c and d.i2c.bus == 1:
            enabled.add("i2c1")
        if d.spi:
            enabled.add("spi0_1cs" if d.spi.port == 0 and one_cs else f"spi{d.spi.port}")
    if one_cs:
        enabled.discard("spi0")
    if 1 in mux_parents:  # the channels below a mux on I2C1 are I2C1's wires too
        enabled.add("i2c1")
    labels = {"i2c1": "I2C1 (SDA/SCL)", "spi0": "SPI0", "spi0_1cs": "SPI0", "spi1": "SPI1",
              "uart": "the UART (TXD/RXD)"}
    reserved = {pin: "the HAT ID EEPROM (ID_SD/ID_SC)" for pin in ID_EEPROM_PINS}
    for name in sorted(enabled):
        for pin in BUS_PINS[name]:
            reserved[pin] = labels[name]
    return reserved


def _check_pins(config: HardwareConfig) -> None:
    users: dict[int, str] = {}

    def claim(pin: int, key: str) -> None:
        if pin in config.reserved_pins:
            raise ConfigError(key, f"GPIO {pin} belongs to {config.reserved_pins[pin]}, "
                                   "which is enabled; pick a free GPIO (see hardware/WIRING.md)")
        if pin in users:
            raise ConfigError(key, f"GPIO {pin} is already used by {users[pin]}")
        users[pin] = key

    # Displays first, so a button clashing with DC/RST names the button as the culprit.
    for d in config.displays:
        if d.spi:
            claim(d.spi.dc, subkey(d.bus_key, "dc"))
            if d.spi.rst is not None:
                claim(d.spi.rst, subkey(d.bus_key, "rst"))
    for mux in config.i2c_muxes:
        if mux.reset is not None:
            claim(mux.reset, subkey(mux.key, "reset"))
    for seat in config.seats:
        for button, pin in seat.buttons.items():
            claim(pin, seat.button_keys[button])


def _check_i2c(config: HardwareConfig) -> None:
    parent_of: dict[int, I2CMux] = {}
    for mux in config.i2c_muxes:
        for bus in mux.buses:
            if bus in parent_of or bus == mux.parent or any(bus == m.parent for m in config.i2c_muxes):
                raise ConfigError(subkey(mux.key, "buses"), f"bus {bus} is listed twice "
                                                            "or is a mux's parent")
            parent_of[bus] = mux

    used: dict[tuple[int, ...], str] = {(m.parent, m.address): f"{m.key} (the TCA9548A)"
                                        for m in config.i2c_muxes}
    # A channel may be named by its fixed bus (a mux's old-style buses list) or by
    # { mux, channel }: both name one spot, (parent, mux, channel, address).
    channel_of = {bus: (m.parent, m.address, i) for m in config.i2c_muxes
                  for i, bus in enumerate(m.buses)}
    named_by_bus: dict[tuple[int, ...], int] = {}
    for d in config.displays:
        if not d.i2c:
            continue
        spot = d.i2c.spot()
        if d.i2c.bus in channel_of:
            spot = (*channel_of[d.i2c.bus], d.i2c.address)
            named_by_bus[spot] = d.i2c.bus
        if spot in used:
            via = f" (bus {named_by_bus[spot]} is that channel)" if spot in named_by_bus else ""
            raise ConfigError(d.bus_key, f"{d.i2c} is already used by {used[spot]}{via}")
        used[spot] = d.bus_key
    # A mux channel is wired through to its parent bus: a device on the parent answers
    # at its address on every channel too, so the same address below it would collide.
    for spot, key in list(used.items()):
        if len(spot) != 4:  # (parent, mux, channel, address)
            continue
        parent, address = spot[0], spot[3]
        where = (f"mux bus {named_by_bus[spot]}" if spot in named_by_bus
                 else f"mux 0x{spot[1]:02X} channel {spot[2]}")
        if (parent, address) in used:
            raise ConfigError(key, f"address 0x{address:02X} on {where} collides with "
                                   f"{used[(parent, address)]} on its parent bus {parent} "
                                   "(devices on the parent answer on every channel)")


def _check_spi(config: HardwareConfig, *, one_cs: bool) -> None:
    """``one_cs``: [buses] spi0_1cs, the overlay that frees GPIO 7 by dropping SPI0's CE1."""
    used: dict[tuple[int, int], str] = {}
    for d in config.displays:
        if d.spi:
            spot = (d.spi.port, d.spi.device)
            if one_cs and spot == (0, 1):
                raise ConfigError(subkey(d.bus_key, "device"),
                                  "SPI0 has no device 1 with [buses] "
                                  "spi0_1cs = true (dtoverlay=spi0-1cs removes CE1, GPIO 7); "
                                  "use device = 0, or set spi0_1cs = false")
            if spot in used:
                raise ConfigError(d.bus_key, f"SPI{spot[0]} device {spot[1]} (chip select) "
                                             f"is already used by {used[spot]}")
            used[spot] = d.bus_key


def _driver_names() -> list[str]:
    return [*LUMA_DRIVERS, *VIRTUAL_DRIVERS]
