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

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from golfbox.hal.base import Button


class ConfigError(ValueError):
    """A config file that cannot drive the hardware; the message names the key.

    Always one line: a key or value quoted from the file may hold a newline or
    another control character, which is shown escaped (``\\n``)."""

    def __init__(self, message: str):
        super().__init__("".join(c if c.isprintable() else repr(c)[1:-1] for c in str(message)))


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
SPI_DEFAULT_HZ = 8_000_000  # luma's own default, within every limit above but the SH1106's

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


@dataclass(frozen=True)
class GpioSettings:
    pin_factory: str | None = None  # None: GPIOZERO_PIN_FACTORY or gpiozero's choice
    bounce_time: float = 0.02
    hold_time: float = 0.8


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


# ---------------------------------------------------------------- entry points


def load_config(path: str | Path) -> HardwareConfig:
    """Read and validate a config file; ConfigError names the key (or line) at fault."""
    if not str(path):  # Path("") would be the current folder
        raise ConfigError("--config: an empty path is not a config file")
    path = Path(path)
    data = _read_toml(path, "config")
    pinmap: dict[str, Any] = {}
    pinmap_name = ""
    if "pinmap" in data:
        pinmap_file = _str(data, "pinmap", "pinmap")
        try:
            pinmap_path = (path.parent / pinmap_file).resolve()
        except (OSError, ValueError) as exc:  # a NUL byte, a symlink loop
            raise ConfigError(f"pinmap: {pinmap_file!r} is not a usable path ({exc})") from None
        pinmap = _read_toml(pinmap_path, "pin map", key="pinmap: ")
        pinmap_name = pinmap_path.name
    return parse_config(data, pinmap=pinmap, pinmap_name=pinmap_name, path=path)


def sim_config(seats: int = 4) -> HardwareConfig:
    """What runs with no config file: every seat and the shared display simulated."""
    return parse_config({
        "seats": [{"backend": "sim"} for _ in range(seats)],
        "shared_display": {"driver": "sim"},
    })


def load_pinmap(path: str | Path) -> dict[str, Any]:
    return _read_toml(Path(path), "pin map")


def _read_toml(path: Path, what: str, key: str = "") -> dict[str, Any]:
    """A TOML file's document; ConfigError names the file (after ``key``) whatever goes wrong."""
    where = f"{key}{path}"
    try:
        with path.open("rb") as f:
            raw = f.read()
    except FileNotFoundError:
        raise ConfigError(f"{where} does not exist" if key else f"{where}: no such {what} file") from None
    except IsADirectoryError:
        raise ConfigError(f"{where}: is a folder, not a {what} file") from None
    except OSError as exc:  # permissions, an I/O error
        raise ConfigError(f"{where}: cannot read the {what} file: {exc.strerror or exc}") from None
    except ValueError as exc:  # a NUL byte in the path
        raise ConfigError(f"{where}: not a usable path ({exc})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise ConfigError(f"{where}: not UTF-8 text: byte 0x{raw[exc.start]:02X} at offset "
                          f"{exc.start} (line {line}); save the {what} as UTF-8") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:  # its message carries "(at line N, column M)"
        raise ConfigError(f"{where}: TOML syntax error: {exc}") from None


TOP_KEYS = {"pinmap", "gpio", "buses", "i2c_mux", "seats", "seat_nodes", "shared_display", "game",
            "journal"}


def parse_config(data: dict[str, Any], *, pinmap: dict[str, Any] | None = None,
                 pinmap_name: str = "pin map", path: Path | None = None) -> HardwareConfig:
    """Validate an already-parsed TOML document (``pinmap`` fills in left-out pins)."""
    pinmap = pinmap or {}
    _known_keys(data, "", TOP_KEYS)
    gpio = _parse_gpio(_table(data.get("gpio", {}), "gpio"))
    muxes = _parse_muxes(data.get("i2c_mux", pinmap.get("i2c_mux", [])))
    defaults = _PinmapDefaults(pinmap, pinmap_name, muxes)

    raw_seats = data.get("seats")
    if raw_seats is None:
        raise ConfigError("seats: missing (add one [[seats]] table per seat)")
    if not isinstance(raw_seats, list) or not raw_seats:
        raise ConfigError("seats: expected a non-empty array of tables ([[seats]])")
    if len(raw_seats) > MAX_SEATS:
        raise ConfigError(f"seats: {len(raw_seats)} seats, at most {MAX_SEATS} are supported")
    seats = tuple(_parse_seat(raw, i, defaults) for i, raw in enumerate(raw_seats))

    shared = None
    if "shared_display" in data:
        raw_shared = _table(data["shared_display"], "shared_display")
        shared = _parse_display(raw_shared, "shared_display", "shared display",
                                defaults.shared_display(), seat=False, muxes=muxes)

    config = HardwareConfig(
        seats=seats,
        shared_display=shared,
        gpio=gpio,
        i2c_muxes=muxes,
        reserved_pins=_reserved_pins(_table(data.get("buses", {}), "buses"), seats, shared, muxes),
        seat_nodes=_parse_seat_nodes(data.get("seat_nodes", {}), seats),
        game=_table(data.get("game", {}), "game"),
        journal=_table(data.get("journal", {}), "journal"),
        path=path,
    )
    _check_pins(config)
    _check_i2c(config)
    _check_spi(config)
    return config


# ---------------------------------------------------------------- sections


def _parse_gpio(raw: dict[str, Any]) -> GpioSettings:
    _known_keys(raw, "gpio", {"pin_factory", "bounce_time", "hold_time"})
    factory = _str(raw, "pin_factory", "gpio.pin_factory", None)
    if factory is not None:
        # The names gpiozero registers (package metadata: gpiozero itself is not imported).
        from importlib.metadata import entry_points

        known = sorted({ep.name for ep in entry_points(group="gpiozero_pin_factories")})
        if factory.lower() not in known:
            raise ConfigError(f"gpio.pin_factory: {factory!r} is not an installed gpiozero pin "
                              f"factory (installed: {', '.join(known) or 'none, is gpiozero installed?'})")
    bounce = _number(raw, "bounce_time", "gpio.bounce_time", 0.02, lo=0.0, hi=0.5)
    hold = _number(raw, "hold_time", "gpio.hold_time", 0.8, lo=0.1, hi=10.0)
    if bounce >= hold:
        raise ConfigError(f"gpio.bounce_time: {bounce} s must be shorter than gpio.hold_time ({hold} s)")
    return GpioSettings(pin_factory=factory, bounce_time=bounce, hold_time=hold)


def _parse_muxes(raw: Any) -> tuple[I2CMux, ...]:
    if not isinstance(raw, list):
        raise ConfigError("i2c_mux: expected an array of tables ([[i2c_mux]])")
    muxes = []
    for i, entry in enumerate(raw):
        key = f"i2c_mux[{i}]"
        entry = _table(entry, key)
        _known_keys(entry, key, {"parent", "address", "buses", "reset"})
        buses = entry.get("buses", [])
        if not isinstance(buses, list) or len(buses) > 8:
            raise ConfigError(f"{key}.buses: expected a list of 1 to 8 bus numbers (channel 0 first)")
        for j, bus in enumerate(buses):
            _check_int(bus, f"{key}.buses[{j}]", lo=0, hi=255)
        mux = I2CMux(
            key=key,
            parent=_int(entry, "parent", f"{key}.parent", 1, lo=0, hi=255),
            address=_int(entry, "address", f"{key}.address", 0x70, lo=0x70, hi=0x77),
            buses=tuple(buses),
            reset=_int(entry, "reset", f"{key}.reset", None, lo=0, hi=HIGHEST_GPIO,
                       what="GPIO (BCM) number"),
        )
        for other in muxes:
            if (other.parent, other.address) == (mux.parent, mux.address):
                raise ConfigError(f"{key}.address: bus {mux.parent} address 0x{mux.address:02X} "
                                  f"is already {other.key}")
        muxes.append(mux)
    return tuple(muxes)


SEAT_KEYS = {"backend", "buttons", "display", "node"}


def _parse_seat(raw: Any, index: int, defaults: _PinmapDefaults) -> SeatConfig:
    key = f"seats[{index}]"
    raw = _table(raw, key)
    _known_keys(raw, key, SEAT_KEYS)
    backend = _choice(raw, "backend", f"{key}.backend", SEAT_BACKENDS, "gpio")
    name = f"seat {index + 1} display"

    if backend == "serial":
        for extra in ("buttons", "display"):
            if extra in raw:
                raise ConfigError(f"{key}.{extra}: a serial seat's node drives its own {extra}; remove it")
        if "node" not in raw:
            raise ConfigError(f"{key}.node: missing: the seat node's id in hex, as its waiting "
                              "screen shows it (e.g. node = \"e6614103e7452d2f\")")
        node = _str(raw, "node", f"{key}.node")
        if not node or len(node) > 32 or any(c not in "0123456789abcdefABCDEF" for c in node):
            raise ConfigError(f"{key}.node: expected the node id in hex, like \"e6614103e7452d2f\", "
                              f"got {node!r}")
        return SeatConfig(index=index, backend=backend, node=node.lower())
    if "node" in raw:
        raise ConfigError(f"{key}.node: only for backend = \"serial\" (this seat is {backend!r})")

    if backend == "sim":
        if "buttons" in raw:
            raise ConfigError(f"{key}.buttons: a sim seat has no pins; remove it or use backend = \"gpio\"")
        display_raw = _table(raw.get("display", {"driver": "sim"}), f"{key}.display")
        display = _parse_display(display_raw, f"{key}.display", name, {}, seat=True,
                                 muxes=defaults.muxes)
        return SeatConfig(index=index, backend=backend, display=display)

    buttons_raw, buttons_key = defaults.buttons(raw, index)
    buttons_raw = _table(buttons_raw, buttons_key)
    _known_keys(buttons_raw, buttons_key, {b.value for b in Button})
    buttons, button_keys = {}, {}
    for button in Button:
        button_keys[button] = key_of_button = _subkey(buttons_key, button.value)
        if button.value not in buttons_raw:
            raise ConfigError(f"{key_of_button}: missing (a seat has the four buttons "
                              "left, right, ok, back)")
        buttons[button] = _int(buttons_raw, button.value, key_of_button,
                               lo=0, hi=HIGHEST_GPIO, what="GPIO (BCM) number")
    if "display" not in raw:
        raise ConfigError(f"{key}.display: missing (e.g. display = {{ driver = \"ssd1306\" }})")
    display_raw = _table(raw["display"], f"{key}.display")
    display = _parse_display(display_raw, f"{key}.display", name,
                             defaults.seat_display(index), seat=True, muxes=defaults.muxes)
    return SeatConfig(index=index, backend=backend, buttons=buttons, button_keys=button_keys,
                      display=display)


DISPLAY_KEYS = {"driver", "i2c", "spi", "width", "height", "rotate", "contrast", "persist",
                "page_diff", "scale"}


def _parse_display(raw: dict[str, Any], key: str, name: str, bus_defaults: dict[str, Any],
                   *, seat: bool, muxes: tuple[I2CMux, ...] = ()) -> DisplayConfig:
    _known_keys(raw, key, DISPLAY_KEYS)
    if "driver" not in raw:
        raise ConfigError(f"{key}.driver: missing (one of {', '.join(_driver_names())})")
    driver = _str(raw, "driver", f"{key}.driver")
    if driver not in LUMA_DRIVERS and driver not in VIRTUAL_DRIVERS:
        raise ConfigError(f"{key}.driver: unknown driver {driver!r} (known: {', '.join(_driver_names())})")

    if driver in LUMA_DRIVERS:
        (default_w, default_h), mode = LUMA_DRIVERS[driver]
    else:
        (default_w, default_h), mode = (SEAT_SIZE, "1") if seat else (SHARED_SIZE, "L")
    width = _int(raw, "width", f"{key}.width", default_w, lo=8, hi=1024)
    height = _int(raw, "height", f"{key}.height", default_h, lo=8, hi=1024)
    rotate = _int(raw, "rotate", f"{key}.rotate", 0, lo=0, hi=3, what="number of quarter turns")
    logical = (width, height) if rotate % 2 == 0 else (height, width)
    if seat and logical != SEAT_SIZE:
        raise ConfigError(f"{key}: a seat view is {SEAT_SIZE[0]}x{SEAT_SIZE[1]}, "
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
            raise ConfigError(f"{key}: give exactly one of i2c = {{ bus, address }} or "
                              "spi = { port, device, dc, rst }")
        bus_raw = _table(bus_raw, bus_key)
        if bus_kind == "i2c":
            i2c = _parse_i2c(bus_raw, bus_key, muxes)
        else:
            spi = _parse_spi(bus_raw, bus_key, driver)
    else:
        for k in ("i2c", "spi"):
            if k in raw:
                raise ConfigError(f"{key}.{k}: driver {driver!r} is not on a bus; remove it")

    return DisplayConfig(
        key=key, name=name, driver=driver, width=width, height=height, mode=mode,
        rotate=rotate,
        contrast=_int(raw, "contrast", f"{key}.contrast", None, lo=0, hi=255),
        persist=_bool(raw, "persist", f"{key}.persist", True),
        page_diff=_bool(raw, "page_diff", f"{key}.page_diff", True),
        i2c=i2c, spi=spi, bus_key=bus_key,
        scale=_int(raw, "scale", f"{key}.scale", 2, lo=1, hi=8),
    )


def _parse_i2c(raw: dict[str, Any], key: str, muxes: tuple[I2CMux, ...] = ()) -> I2CLocation:
    _known_keys(raw, key, {"bus", "address", "mux", "channel"})
    address = _int(raw, "address", _subkey(key, "address"), lo=0x03, hi=0x77,
                   what="7-bit I2C address")
    if "bus" in raw:
        for extra in ("mux", "channel"):
            if extra in raw:
                raise ConfigError(f"{_subkey(key, extra)}: give either bus = N or "
                                  "mux = 0x70, channel = N, not both")
        return I2CLocation(bus=_int(raw, "bus", _subkey(key, "bus"), lo=0, hi=255,
                                    what="/dev/i2c-N bus number"), address=address)
    if "mux" not in raw or "channel" not in raw:
        raise ConfigError(f"{key}: give bus = N, or mux = 0x70 and channel = N (a TCA9548A "
                          "channel, whose bus number the kernel picks at boot)")
    mux_address = _int(raw, "mux", _subkey(key, "mux"), lo=0x70, hi=0x77, what="TCA9548A address")
    channel = _int(raw, "channel", _subkey(key, "channel"), lo=0, hi=7, what="mux channel")
    found = [m for m in muxes if m.address == mux_address]
    if not found:
        raise ConfigError(f"{_subkey(key, 'mux')}: no [[i2c_mux]] has address 0x{mux_address:02X} "
                          "(add one: parent = 1, address = 0x70)")
    if len(found) > 1:
        raise ConfigError(f"{_subkey(key, 'mux')}: muxes at 0x{mux_address:02X} on buses "
                          f"{', '.join(str(m.parent) for m in found)}: name the bus by number instead")
    return I2CLocation(bus=None, address=address, mux=mux_address, channel=channel,
                       parent=found[0].parent)


def _parse_spi(raw: dict[str, Any], key: str, driver: str = "") -> SpiLocation:
    _known_keys(raw, key, {"port", "device", "dc", "rst", "speed_hz"})
    speed = _int(raw, "speed_hz", _subkey(key, "speed_hz"), SPI_DEFAULT_HZ, lo=1)
    if speed not in SPI_SPEEDS_HZ:
        allowed = ", ".join(f"{s / 1e6:g} MHz" for s in SPI_SPEEDS_HZ)
        raise ConfigError(f"{_subkey(key, 'speed_hz')}: {speed} is not a speed luma allows ({allowed})")
    if speed > SPI_MAX_HZ.get(driver, speed):
        fastest = max(s for s in SPI_SPEEDS_HZ if s <= SPI_MAX_HZ[driver])
        raise ConfigError(f"{_subkey(key, 'speed_hz')}: {speed / 1e6:g} MHz is faster than the "
                          f"{driver}'s serial interface takes ({SPI_MAX_HZ[driver] / 1e6:g} MHz); "
                          f"use {fastest}")
    if "dc" not in raw:
        raise ConfigError(f"{_subkey(key, 'dc')}: missing (the GPIO wired to the display's D/C pin)")
    return SpiLocation(
        port=_int(raw, "port", _subkey(key, "port"), 0, lo=0, hi=1),
        device=_int(raw, "device", _subkey(key, "device"), 0, lo=0, hi=2),
        dc=_int(raw, "dc", _subkey(key, "dc"), lo=0, hi=HIGHEST_GPIO, what="GPIO (BCM) number"),
        rst=_int(raw, "rst", _subkey(key, "rst"), None, lo=0, hi=HIGHEST_GPIO, what="GPIO (BCM) number"),
        speed_hz=speed,
    )


class _PinmapDefaults:
    """Fills pins and buses a config leaves out from the pin map (hardware/pinmap.toml)."""

    def __init__(self, pinmap: dict[str, Any], name: str, muxes: tuple[I2CMux, ...] = ()):
        self.muxes = muxes
        for key in pinmap:
            if key not in ("seats", "i2c_mux", "shared_display"):
                raise ConfigError(f"{key} (in {name}): unknown key (a pin map has seats, i2c_mux, "
                                  "shared_display)")
        self.pinmap = pinmap
        self.name = name
        seats = pinmap.get("seats", [])
        if not isinstance(seats, list):
            raise ConfigError(f"seats (in {name}): expected a list of [[seats]] tables, "
                              f"found {type(seats).__name__}")
        for index, seat in enumerate(seats):
            if not isinstance(seat, dict):
                raise ConfigError(f"seats[{index}] (in {name}): expected a [[seats]] table, "
                                  f"found {seat!r}")
        self.seats = seats

    def buttons(self, seat_raw: dict[str, Any], index: int) -> tuple[Any, str]:
        if "buttons" in seat_raw:
            return seat_raw["buttons"], f"seats[{index}].buttons"
        if index < len(self.seats) and "buttons" in self.seats[index]:
            return self.seats[index]["buttons"], f"seats[{index}].buttons (from {self.name})"
        hint = f"the pin map has {len(self.seats)} seats" if self.pinmap else "no pinmap is set"
        raise ConfigError(f"seats[{index}].buttons: missing ({hint}); "
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
        return {kind: table[kind], "_key": f"{key}.{kind} (from {self.name})"}


def _parse_seat_nodes(raw: Any, seats: tuple[SeatConfig, ...]) -> dict[str, Any]:
    """[seat_nodes] is golfbox.hal.serialnode's; its own parser checks it (no pyserial needed)."""
    table = _table(raw, "seat_nodes")
    if "seats" in table:
        raise ConfigError("seat_nodes.seats: give each serial seat its node in its [[seats]] "
                          "table instead (backend = \"serial\", node = \"…\")")
    owner: dict[str, str] = {}
    for seat in seats:
        if seat.node is not None:
            if seat.node in owner:
                raise ConfigError(f"seats[{seat.index}].node: node {seat.node} is already "
                                  f"{owner[seat.node]}'s")
            owner[seat.node] = f"seats[{seat.index}]"
    if table or owner:
        from golfbox.hal.serialnode import SerialNodeConfig

        try:
            SerialNodeConfig.from_mapping(table, where="seat_nodes")
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
    return dict(table)


# ---------------------------------------------------------------- cross-checks


def _reserved_pins(buses_raw: dict[str, Any], seats: tuple[SeatConfig, ...],
                   shared: DisplayConfig | None, muxes: tuple[I2CMux, ...]) -> dict[int, str]:
    """Pins owned by an enabled bus: named in [buses], or used by a display or mux."""
    _known_keys(buses_raw, "buses", set(BUS_PINS))
    enabled = {name for name in BUS_PINS if _bool(buses_raw, name, f"buses.{name}", False)}
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
            raise ConfigError(f"{key}: GPIO {pin} belongs to {config.reserved_pins[pin]}, "
                              "which is enabled; pick a free GPIO (see hardware/WIRING.md)")
        if pin in users:
            raise ConfigError(f"{key}: GPIO {pin} is already used by {users[pin]}")
        users[pin] = key

    # Displays first, so a button clashing with DC/RST names the button as the culprit.
    displays = [s.display for s in config.seats if s.display] + (
        [config.shared_display] if config.shared_display else [])
    for d in displays:
        if d.spi:
            claim(d.spi.dc, _subkey(d.bus_key, "dc"))
            if d.spi.rst is not None:
                claim(d.spi.rst, _subkey(d.bus_key, "rst"))
    for mux in config.i2c_muxes:
        if mux.reset is not None:
            claim(mux.reset, f"{mux.key}.reset")
    for seat in config.seats:
        for button, pin in seat.buttons.items():
            claim(pin, seat.button_keys[button])


def _check_i2c(config: HardwareConfig) -> None:
    parent_of: dict[int, I2CMux] = {}
    for mux in config.i2c_muxes:
        for bus in mux.buses:
            if bus in parent_of or bus == mux.parent or any(bus == m.parent for m in config.i2c_muxes):
                raise ConfigError(f"{mux.key}.buses: bus {bus} is listed twice or is a mux's parent")
            parent_of[bus] = mux

    used: dict[tuple[int, ...], str] = {(m.parent, m.address): f"{m.key} (the TCA9548A)"
                                        for m in config.i2c_muxes}
    displays = [s.display for s in config.seats if s.display] + (
        [config.shared_display] if config.shared_display else [])
    for d in displays:
        if not d.i2c:
            continue
        spot = d.i2c.spot()
        if spot in used:
            raise ConfigError(f"{d.bus_key}: {d.i2c} is already used by {used[spot]}")
        used[spot] = d.bus_key
    # A mux channel is wired through to its parent bus: a device on the parent answers
    # at its address on every channel too, so the same address below it would collide.
    for spot, key in list(used.items()):
        if len(spot) == 4:  # (parent, mux, channel, address)
            parent, address, where = spot[0], spot[3], f"mux 0x{spot[1]:02X} channel {spot[2]}"
        elif spot[0] in parent_of:
            parent, address, where = parent_of[spot[0]].parent, spot[1], f"mux bus {spot[0]}"
        else:
            continue
        if (parent, address) in used:
            raise ConfigError(f"{key}: address 0x{address:02X} on {where} collides with "
                              f"{used[(parent, address)]} on its parent bus {parent} "
                              "(devices on the parent answer on every channel)")


def _check_spi(config: HardwareConfig) -> None:
    used: dict[tuple[int, int], str] = {}
    displays = [s.display for s in config.seats if s.display] + (
        [config.shared_display] if config.shared_display else [])
    for d in displays:
        if d.spi:
            spot = (d.spi.port, d.spi.device)
            if spot in used:
                raise ConfigError(f"{d.bus_key}: SPI{spot[0]} device {spot[1]} (chip select) "
                                  f"is already used by {used[spot]}")
            used[spot] = d.bus_key


# ---------------------------------------------------------------- typed getters

_MISSING: Any = object()


def _driver_names() -> list[str]:
    return [*LUMA_DRIVERS, *VIRTUAL_DRIVERS]


def _table(value: Any, key: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ConfigError(f"{key}: expected a table, got {_type_name(value)}")
    return value


def _subkey(key: str, name: str) -> str:
    """'seats[0].buttons (from pinmap.toml)' + 'ok' -> 'seats[0].buttons.ok (from pinmap.toml)'."""
    base, sep, note = key.partition(" (")
    return f"{base}.{name}{sep}{note}"


def _known_keys(table: dict[str, Any], key: str, allowed: set[str]) -> None:
    for name in table:
        if name not in allowed:
            where = _subkey(key, name) if key else name
            raise ConfigError(f"{where}: unknown key (expected one of: {', '.join(sorted(allowed))})")


def _type_name(value: Any) -> str:
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
            list: "an array", dict: "a table"}.get(type(value), type(value).__name__)


def _get(table: dict[str, Any], name: str, key: str, default: Any) -> Any:
    if name in table:
        return table[name]
    if default is _MISSING:
        raise ConfigError(f"{key}: missing")
    return default


def _check_int(value: Any, key: str, lo: int | None = None, hi: int | None = None,
               what: str = "integer") -> int:
    # A plain integer is named once ("expected an integer"), a GPIO number gets its meaning.
    plain = what == "integer"
    if isinstance(value, bool) or not isinstance(value, int):
        meaning = "" if plain else f" ({what})"
        raise ConfigError(f"{key}: expected an integer{meaning}, got {_type_name(value)} {value!r}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        span = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        meaning = "" if plain else f" for a {what}"
        raise ConfigError(f"{key}: {value} is out of range{meaning} ({span})")
    return value


def _int(table: dict[str, Any], name: str, key: str, default: Any = _MISSING, *,
         lo: int | None = None, hi: int | None = None, what: str = "integer") -> Any:
    value = _get(table, name, key, default)
    if value is default and name not in table:
        return value
    return _check_int(value, key, lo, hi, what)


def _number(table: dict[str, Any], name: str, key: str, default: Any = _MISSING, *,
            lo: float, hi: float) -> float:
    value = _get(table, name, key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ConfigError(f"{key}: expected a number of seconds, got {_type_name(value)} {value!r}")
    if not lo <= value <= hi:
        raise ConfigError(f"{key}: {value} is out of range ({lo}..{hi} s)")
    return float(value)


def _str(table: dict[str, Any], name: str, key: str, default: Any = _MISSING) -> Any:
    value = _get(table, name, key, default)
    if value is default and name not in table:
        return value
    if not isinstance(value, str):
        raise ConfigError(f"{key}: expected a string, got {_type_name(value)} {value!r}")
    return value


def _bool(table: dict[str, Any], name: str, key: str, default: Any = _MISSING) -> bool:
    value = _get(table, name, key, default)
    if not isinstance(value, bool):
        raise ConfigError(f"{key}: expected true or false, got {_type_name(value)} {value!r}")
    return value


def _choice(table: dict[str, Any], name: str, key: str, choices: tuple[str, ...], default: str) -> str:
    value = _str(table, name, key, default)
    if value not in choices:
        raise ConfigError(f"{key}: {value!r} is not one of {', '.join(choices)}")
    return value
