"""luma.oled displays: real luma drivers over a fake serial interface that models the panel.

``PanelBus`` is what luma calls through its ``serial_interface=`` seam: it
records every byte and applies it to a model of the SSD1306/SH1106 display
RAM. The check is always against luma itself: the RAM our partial updates
leave must equal the RAM luma's own full-frame ``display()`` writes.
"""

from __future__ import annotations

import errno
import gc
import os
import sys
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from golfbox.hal.base import DisplayError, LinkEvent
from golfbox.hal.config import parse_config
from golfbox.hal.oled import WINDOW_INSTALL, open_oled
from golfbox.hal.resilient import ResilientDisplay
from golfbox.hal.shared_display import open_display

luma_oled = pytest.importorskip("luma.oled.device")

BUTTONS = {"left": 17, "right": 27, "ok": 22, "back": 4}
# SSD1306/SH1106 commands that take argument bytes, and how many.
ARGUMENTS = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1,
             0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}


class PanelBus:
    """A luma serial interface with an SSD1306 (horizontal window) or SH1106 (page) RAM behind it."""

    def __init__(self, kind: str = "ssd1306"):
        self.kind = kind
        self.ram = [bytearray(132) for _ in range(8)]
        self.columns, self.pages = (0, 127), (0, 7)
        self.column = self.page = 0
        self.commands: list[tuple[int, ...]] = []
        self.data_bytes = 0
        self.error: BaseException | None = None
        self.cleaned_up = False

    def command(self, *cmd: int) -> None:
        if self.error:
            raise self.error
        self.commands.append(cmd)
        i = 0
        while i < len(cmd):
            code, args = cmd[i], cmd[i + 1:i + 1 + ARGUMENTS.get(cmd[i], 0)]
            i += 1 + len(args)
            if self.kind == "ssd1306" and code == 0x21:
                self.columns, self.column = tuple(args), args[0]
            elif self.kind == "ssd1306" and code == 0x22:
                self.pages, self.page = tuple(args), args[0]
            elif self.kind == "sh1106" and 0xB0 <= code <= 0xB7:
                self.page = code & 0x07
            elif self.kind == "sh1106" and code <= 0x0F:
                self.column = (self.column & 0xF0) | code
            elif self.kind == "sh1106" and 0x10 <= code <= 0x1F:
                self.column = (self.column & 0x0F) | (code & 0x0F) << 4

    def data(self, data) -> None:
        if self.error:
            raise self.error
        for byte in data:
            self.ram[self.page][self.column] = byte
            self.column += 1
            if self.kind == "ssd1306" and self.column > self.columns[1]:
                self.column = self.columns[0]
                self.page = self.pages[0] if self.page >= self.pages[1] else self.page + 1
        self.data_bytes += len(data)

    def cleanup(self) -> None:
        self.cleaned_up = True

    def visible(self) -> list[bytes]:
        first = 0 if self.kind == "ssd1306" else 2  # luma's SH1106 column offset
        return [bytes(page[first:first + 128]) for page in self.ram]


def seat_display_config(driver: str = "ssd1306", **extra):
    return parse_config({"seats": [{"backend": "gpio", "buttons": BUTTONS, "display": {
        "driver": driver, "i2c": {"bus": 1, "address": 0x3C}, **extra}}]}).seats[0].display


def luma_reference(image: Image.Image, driver: str = "ssd1306", rotate: int = 0) -> list[bytes]:
    """The RAM luma's own display() leaves for ``image``."""
    bus = PanelBus(driver)
    device = getattr(luma_oled, driver)(serial_interface=bus, rotate=rotate)
    device.display(image)
    return bus.visible()


def scene(boxes=(), text: str = "", size=(128, 64)) -> Image.Image:
    image = Image.new("1", size)
    draw = ImageDraw.Draw(image)
    for x, y, w, h in boxes:
        draw.rectangle((x, y, x + w, y + h), outline=1)
    draw.text((2, 2), text, fill=1)
    return image


# ---------------------------------------------------------------- only changes are sent


def test_first_frame_whole_then_only_changed_pages_then_nothing():
    bus = PanelBus()
    display = open_oled(seat_display_config(), lambda: bus)
    assert bus.commands == []  # nothing is opened before the first frame

    before = scene([(10, 10, 30, 20)], "K 5")
    display.show(before)
    assert bus.visible() == luma_reference(before)
    sent = bus.data_bytes

    after = scene([(10, 10, 30, 20), (70, 30, 8, 8)], "K 5")  # one card moved in
    display.show(after)
    assert bus.visible() == luma_reference(after)
    assert 0 < bus.data_bytes - sent <= 2 * 9  # 9 columns on two pages, not 1,024 bytes
    assert display.stats.partial == 1

    sent = bus.data_bytes
    commands = len(bus.commands)
    display.show(after)
    assert (bus.data_bytes, len(bus.commands)) == (sent, commands)
    assert display.stats.skipped == 1
    assert display.counter.data_bytes == bus.data_bytes  # what we count is what luma sent


frames = st.lists(st.tuples(st.integers(0, 120), st.integers(0, 56), st.integers(0, 40),
                            st.integers(0, 30)), max_size=4)


@settings(max_examples=15, deadline=None)
@given(st.sampled_from([("ssd1306", 0), ("ssd1306", 2), ("sh1106", 0)]),
       st.lists(st.tuples(frames, st.text("AKQJ0123456789", max_size=6)), min_size=2, max_size=5))
def test_panel_ram_always_equals_what_luma_would_have_written(driver_rotate, sequence):
    driver, rotate = driver_rotate
    bus = PanelBus(driver)
    display = open_oled(seat_display_config(driver, rotate=rotate), lambda: bus)
    for boxes, text in sequence:
        image = scene(boxes, text)
        display.show(image)
        assert bus.visible() == luma_reference(image, driver, rotate)


def test_greyscale_input_is_thresholded_for_a_mono_panel():
    bus = PanelBus()
    display = open_oled(seat_display_config(), lambda: bus)
    grey = Image.new("L", (128, 64), 0)
    ImageDraw.Draw(grey).rectangle((0, 0, 63, 63), fill=200)  # light grey: lit
    ImageDraw.Draw(grey).rectangle((64, 0, 127, 63), fill=60)  # dark grey: off, not dithered
    display.show(grey)
    left_half = Image.new("1", (128, 64))
    ImageDraw.Draw(left_half).rectangle((0, 0, 63, 63), fill=1)
    assert bus.visible() == luma_reference(left_half)


def test_contrast_is_set_and_the_panel_persists_after_close():
    bus = PanelBus()
    display = open_oled(seat_display_config(contrast=0x40), lambda: bus)
    display.show(scene(text="paused"))
    assert (0x81, 0x40) in bus.commands
    commands = len(bus.commands)
    display.close()
    assert bus.cleaned_up
    assert bus.commands[commands:] == []  # no display-off, no clear: "paused" stays lit


def test_without_persist_close_switches_the_panel_off():
    bus = PanelBus()
    display = open_oled(seat_display_config(persist=False), lambda: bus)
    display.show(scene(text="bye"))
    display.close()
    assert (0xAE,) in bus.commands[-3:]  # luma's hide() on cleanup
    assert bus.cleaned_up


def test_a_program_ending_without_close_leaves_the_last_picture_lit():
    """luma registers device.cleanup() with atexit: a crash or an uncaught exit runs it
    without our close(), and with persist unset it would blank every seat's panel."""
    bus = PanelBus()
    display = open_oled(seat_display_config(), lambda: bus)
    display.show(scene(text="last words"))
    commands = len(bus.commands)
    display.device.cleanup()  # what luma's atexit hook calls
    assert bus.commands[commands:] == []  # no display-off, no clear
    assert bus.cleaned_up


def test_a_panel_unplugged_before_the_table_stops_is_a_warning_not_a_crash(caplog):
    """persist = false switches the panel off as the table stops: a panel pulled off
    its bus meanwhile cannot be, and the stop goes on, the log naming the panel."""
    import logging

    bus = PanelBus()
    display = open_oled(seat_display_config(persist=False), lambda: bus)
    display.show(scene(text="bye"))
    bus.error = OSError(errno.EREMOTEIO, "Remote I/O error")
    with caplog.at_level(logging.WARNING, logger="golfbox.hal.oled"):
        display.close()
    assert [r.getMessage() for r in caplog.records] == [
        "seat 1 display: closing: [Errno 121] Remote I/O error"]


# ---------------------------------------------------------------- failures


def test_bus_error_becomes_a_display_error_naming_the_bus_and_the_panel_is_reinitialised():
    buses = []

    def new_bus():
        buses.append(PanelBus())
        return buses[-1]

    display = open_oled(seat_display_config(), new_bus)
    display.show(scene(text="1"))
    buses[0].error = OSError(errno.EREMOTEIO, "Remote I/O error")
    with pytest.raises(DisplayError, match=r"^I2C bus 1 address 0x3C: \[Errno 121\] Remote I/O error"):
        display.show(scene(text="2"))
    assert buses[0].cleaned_up  # the broken handle is closed
    display.show(scene(text="2"))  # a new bus handle, the init sequence again, a whole frame
    assert len(buses) == 2 and buses[1].commands[0][0] == 0xAE
    assert buses[1].visible() == luma_reference(scene(text="2"))


def test_lumas_own_errors_count_as_bus_errors():
    from luma.core.error import DeviceNotFoundError

    bus = PanelBus()
    display = open_oled(seat_display_config(), lambda: bus)
    bus.error = DeviceNotFoundError("I2C device not found on address: 0x3C")
    with pytest.raises(DisplayError, match="I2C device not found"):
        display.show(scene())


def test_an_spi_panel_that_fails_is_named_by_its_spi_port_and_device():
    bus = PanelBus()
    bus.error = OSError(errno.EIO, "Input/output error")
    config = parse_config({"seats": [{"backend": "sim"}], "shared_display": {
        "driver": "ssd1322", "spi": {"port": 1, "device": 2, "dc": 24}}}).shared_display
    with pytest.raises(DisplayError, match=r"^SPI1\.2: \[Errno 5\] Input/output error"):
        open_oled(config, lambda: bus).show(Image.new("L", (256, 64)))


def test_a_shared_display_on_a_luma_oled_driver_is_the_panel_on_its_bus():
    """Not a luma emulator: the SSD1306 named in the config, on I2C bus 99 (absent here)."""
    from pathlib import Path

    if Path("/dev/i2c-99").exists():
        pytest.skip("this machine has an /dev/i2c-99")
    config = parse_config({"seats": [{"backend": "sim"}], "shared_display": {
        "driver": "ssd1306", "i2c": {"bus": 99, "address": 0x3C}}}).shared_display
    display = open_display(config)
    with pytest.raises(DisplayError, match=r"^I2C bus 99 address 0x3C: .*/dev/i2c-99"):
        display.show(Image.new("1", (128, 64)))


def test_missing_i2c_bus_is_reported_by_number():
    from pathlib import Path

    if Path("/dev/i2c-99").exists():
        pytest.skip("this machine has an /dev/i2c-99")
    display = open_oled(parse_config({"seats": [{"backend": "gpio", "buttons": BUTTONS, "display": {
        "driver": "ssd1306", "i2c": {"bus": 99, "address": 0x3D}}}]}).seats[0].display)
    with pytest.raises(DisplayError, match=r"I2C bus 99 address 0x3D: .*/dev/i2c-99"):
        display.show(scene())


def test_failing_oled_is_degraded_retried_and_gets_the_newest_frame():
    now = [0.0]
    events = []
    bus = PanelBus()
    display = ResilientDisplay(open_oled(seat_display_config(), lambda: bus), 0, events.append,
                               clock=lambda: now[0])
    display.show(scene(text="a"))
    bus.error = OSError(errno.EIO, "Input/output error")
    display.show(scene(text="b"))
    display.show(scene(text="c"))
    assert events == [LinkEvent(0, False, "seat 1 display: I2C bus 1 address 0x3C: "
                                          "[Errno 5] Input/output error")]
    bus.error = None  # the cable is pushed back in
    now[0] += 0.5
    display.poll()
    assert display.healthy and events[-1] == LinkEvent(0, True, "seat 1 display: working again")
    assert bus.visible() == luma_reference(scene(text="c"))


# ---------------------------------------------------------------- other drivers and devices


class RecordingSpi:
    """A luma serial interface that only counts: for drivers we do not model."""

    def __init__(self):
        self.data_bytes = 0

    def command(self, *cmd):
        pass

    def data(self, data):
        self.data_bytes += len(data)

    def cleanup(self):
        pass


def test_ssd1322_greyscale_frames_go_through_lumas_own_diff():
    spi = RecordingSpi()
    config = parse_config({"seats": [{"backend": "sim"}], "shared_display": {
        "driver": "ssd1322", "spi": {"port": 0, "device": 0, "dc": 24, "rst": 25}}}).shared_display
    display = open_oled(config, lambda: spi)
    assert (display.size, display.mode) == ((256, 64), "L")
    table = Image.new("L", (256, 64))
    ImageDraw.Draw(table).text((10, 10), "STOCK 31", fill=255)
    display.show(table)
    full = spi.data_bytes
    ImageDraw.Draw(table).rectangle((200, 40, 207, 47), fill=128)
    display.show(table)
    display.show(table)
    assert 0 < spi.data_bytes - full < 256 * 64 // 2 // 10  # a small box, not the 8 KB frame
    assert display.stats.skipped == 1


def test_luma_dummy_device_keeps_the_image():
    config = parse_config({"seats": [{"backend": "sim"}],
                           "shared_display": {"driver": "dummy"}}).shared_display
    display = open_display(config)
    image = Image.new("L", (256, 64))
    ImageDraw.Draw(image).text((5, 5), "TABLE", fill=255)
    display.show(image)
    assert display.device.image.convert("L").tobytes() == image.tobytes()


def test_pygame_window_headless(monkeypatch):
    pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    config = parse_config({"seats": [{"backend": "sim"}],
                           "shared_display": {"driver": "pygame", "scale": 2}}).shared_display
    display = open_display(config)
    image = Image.new("L", (256, 64), 80)
    display.show(image)
    display.show(image)
    assert (display.stats.sent, display.stats.skipped) == (1, 1)
    assert display.device.size == (256, 64)
    display.close()


def test_a_pygame_window_nobody_can_see_is_a_failing_display(monkeypatch):
    """With no screen (no DISPLAY or WAYLAND_DISPLAY, no /dev/dri it may open: golfbox.service's
    sandbox allows none), SDL falls back on its offscreen driver: the shared display
    'worked', frames counted as sent, while the HDMI screen stayed black and nothing
    said why. It is a failing display now, saying so (as sim --window refuses)."""
    pygame = pytest.importorskip("pygame")
    for name in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    pygame.display.quit()  # as an earlier test's dummy window may have left it
    pygame.display.init()
    fell_back = pygame.display.get_driver()
    pygame.display.quit()
    if fell_back not in ("offscreen", "dummy"):
        pytest.skip(f"SDL found a screen here ({fell_back})")
    config = parse_config({"seats": [{"backend": "sim"}],
                           "shared_display": {"driver": "pygame", "scale": 2}}).shared_display
    display = open_display(config)
    with pytest.raises(DisplayError, match=f"no screen to draw on: SDL chose its {fell_back} driver"):
        display.show(Image.new("L", (256, 64), 80))
    assert display.stats.sent == 0


def test_a_pygame_window_sdl_cannot_open_is_a_failing_display(monkeypatch):
    """SDL_VIDEODRIVER naming a driver this SDL lacks (a typo in a unit's Environment=,
    a kmsdrm build without it): pygame's own error came out of the first frame as a
    traceback, from check-hardware and, at every restart, from the service. It is a
    failing display, saying what SDL said, as golfbox sim --window says it."""
    pygame = pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "nonexistentdrv")
    pygame.display.quit()
    config = parse_config({"seats": [{"backend": "sim"}],
                           "shared_display": {"driver": "pygame"}}).shared_display
    display = open_display(config)
    with pytest.raises(DisplayError, match=r"cannot open a window: .+ \(SDL_VIDEODRIVER=nonexistentdrv\)$"):
        display.show(Image.new("L", (256, 64), 80))
    assert display.stats.sent == 0


def test_open_oled_only_takes_luma_drivers():
    config = parse_config({"seats": [{"backend": "sim"}]}).seats[0].display
    with pytest.raises(ValueError, match="not a luma.oled driver"):
        open_oled(config)


# ---------------------------------------------------------------- a panel that never answers


class NackBus:
    """An smbus-like bus whose every write is NAKed (errno 121), as with an unplugged OLED.

    It holds a file descriptor, as smbus2 does for /dev/i2c-N, which is closed only
    when the bus object goes away: whatever keeps a failed luma device alive leaks it."""

    def __init__(self):
        self.fd = os.open(os.devnull, os.O_RDONLY)

    def write_i2c_block_data(self, address, register, data):
        raise OSError(errno.EREMOTEIO, "Remote I/O error")

    def i2c_rdwr(self, *messages):
        raise OSError(errno.EREMOTEIO, "Remote I/O error")

    def close(self):
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def __del__(self):
        self.close()


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


# As many as bench/failed_opens.py: ~8 hours of 30 s retries would be 960.
FAILED_OPENS = 5000


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc/self/fd")
def test_a_panel_that_never_answers_leaks_neither_files_nor_memory():
    from luma.core.interface.serial import i2c

    display = open_oled(seat_display_config(), lambda: i2c(bus=NackBus(), address=0x3C))
    image = scene(text="x")

    def fail(times):
        for _ in range(times):
            with pytest.raises(DisplayError, match="I2C bus 1 address 0x3C: I2C device not found"):
                display.show(image)

    fail(20)  # warm-up: caches, the one luma device this panel keeps
    gc.collect()
    tracemalloc.start()
    try:
        fds, (memory, _) = open_fds(), tracemalloc.get_traced_memory()
        fail(FAILED_OPENS)
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - memory
    finally:
        tracemalloc.stop()
    assert open_fds() == fds
    assert grown < 64 * 1024, f"{grown} bytes more after {FAILED_OPENS} failed opens"


class SMBusOnlyWire:
    """A luma serial interface on an SMBus-only adapter (the kernel's i2c-stub, a cheap
    USB bridge): commands go through as SMBus block writes, frames need plain I2C
    transfers and fail (EOPNOTSUPP). It holds a file descriptor, as smbus2's SMBus does,
    closed only by cleanup(): smbus2 closes nothing when it is garbage collected."""

    open_now = 0

    def __init__(self):
        self.fd = os.open(os.devnull, os.O_RDONLY)
        SMBusOnlyWire.open_now += 1

    def command(self, *cmd):
        pass

    def data(self, data):
        raise OSError(errno.EOPNOTSUPP, "Operation not supported")

    def cleanup(self):
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
            SMBusOnlyWire.open_now -= 1


def test_a_panel_that_takes_commands_but_no_frames_closes_every_bus_it_opens():
    """Found by the system test (i2c-stub in a VM: 140 → 645 open files over 500 retries).
    luma's init sequence ends with a blank frame, so reopening the bus failed while it
    replayed that sequence, and the bus just opened was never closed."""
    SMBusOnlyWire.open_now = 0
    display = ResilientDisplay(open_oled(seat_display_config(), SMBusOnlyWire), 0, None,
                               first_retry=0.0, max_retry=0.0)
    display.show(scene(text="x"))
    assert not display.healthy
    for _ in range(100):
        display.poll()
    assert display.failed_tries == 101
    assert SMBusOnlyWire.open_now == 0, f"{SMBusOnlyWire.open_now} buses left open"


# ---------------------------------------------------------------- what luma needs


def test_every_driver_the_config_accepts_exists_in_the_luma_that_pyproject_asks_for():
    import tomllib
    from importlib.metadata import version
    from pathlib import Path

    from luma.core.device import device as luma_device

    from golfbox.hal.config import LUMA_DRIVERS

    for name in LUMA_DRIVERS:
        driver = getattr(luma_oled, name, None)
        assert isinstance(driver, type) and issubclass(driver, luma_device), name
    pyproject = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())
    wanted = [req for req in pyproject["project"]["optional-dependencies"]["pi"] if req.startswith("luma.oled")]
    minimum = tuple(int(x) for x in wanted[0].split(">=")[1].split("."))
    installed = tuple(int(x) for x in version("luma.oled").split(".")[:2])
    assert minimum >= (3, 16), "ssd1363 and the other drivers the config accepts came in luma.oled 3.15/3.16"
    assert installed >= minimum


def test_spi_panel_without_its_python_modules_is_a_start_up_error_naming_them(tmp_path):
    import importlib.util

    from golfbox.hal.base import HardwareSetupError
    from golfbox.hal.build import build_hardware

    if importlib.util.find_spec("spidev"):
        pytest.skip("spidev is installed here")
    config = parse_config({"seats": [{"backend": "sim"}], "shared_display": {
        "driver": "ssd1322", "spi": {"port": 0, "device": 0, "dc": 24, "rst": 25}}})
    with pytest.raises(HardwareSetupError) as info:
        build_hardware(config, lambda event: None)
    assert str(info.value) == (
        "shared display (ssd1322, SPI0.0 DC=GPIO24): needs the Python module spidev (spidev is "
        "missing): pip install 'golfbox[pi]', or apt install python3-spidev")


def test_the_service_stops_with_exit_2_and_one_line_when_an_spi_panel_has_no_driver(tmp_path):
    import importlib.util
    import subprocess
    import sys

    if importlib.util.find_spec("spidev"):
        pytest.skip("spidev is installed here")
    config = tmp_path / "config.toml"
    config.write_text('[[seats]]\nbackend = "sim"\n' * 2 + '[shared_display]\ndriver = "ssd1322"\n'
                      'spi = { port = 0, device = 0, dc = 24, rst = 25 }\n')
    result = subprocess.run([sys.executable, "-m", "golfbox", "run", "--config", str(config),
                             "--journal", str(tmp_path / "j.sqlite3")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2  # the unit's RestartPreventExitStatus=2: no restart loop
    assert result.stderr.strip().splitlines()[-1] == (
        "golfbox run: shared display (ssd1322, SPI0.0 DC=GPIO24): needs the Python module spidev "
        "(spidev is missing): pip install 'golfbox[pi]', or apt install python3-spidev")


@pytest.mark.parametrize("driver, missing", [("pygame", "luma.emulator"), ("pygame", "pygame"),
                                             ("capture", "luma.emulator")])
def test_a_window_shared_display_without_its_python_modules_is_a_start_up_error(
        monkeypatch, driver, missing):
    """config.example.toml offers driver = "pygame" for an HDMI screen, but the Pi's
    install has only the pi extra: no luma.emulator. That must stop the start with one
    line naming the module, as a panel's does, not raise from the first frame."""
    from golfbox.hal.base import HardwareSetupError
    from golfbox.hal.build import build_hardware

    for name in [m for m in sys.modules if m == missing or m.startswith(missing + ".")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, missing, None)  # import raises ModuleNotFoundError
    config = parse_config({"seats": [{"backend": "sim"}] * 2,
                           "shared_display": {"driver": driver, "scale": 4}})
    with pytest.raises(HardwareSetupError) as info:
        build_hardware(config, lambda event: None)
    assert str(info.value).startswith(f"shared display ({driver}): needs the Python module {missing}")
    assert str(info.value).endswith(WINDOW_INSTALL)


def test_backoff_can_be_shortened_by_the_environment_and_long_failures_are_logged(monkeypatch, caplog):
    from golfbox.hal import resilient

    assert resilient.retry_limits({}) == (0.5, 30.0)
    assert resilient.retry_limits({"GOLFBOX_DISPLAY_RETRY": "0.02"}) == (0.02, 0.02)
    assert resilient.retry_limits({"GOLFBOX_DISPLAY_RETRY": "soon"}) == (0.5, 30.0)
    assert resilient.retry_limits({"GOLFBOX_DISPLAY_RETRY": "0"}) == (0.5, 30.0)
    monkeypatch.setenv("GOLFBOX_DISPLAY_RETRY", "0.01")
    now = [0.0]
    bus = PanelBus()
    display = ResilientDisplay(open_oled(seat_display_config(), lambda: bus), 0, None, clock=lambda: now[0])
    bus.error = OSError(errno.EIO, "Input/output error")
    caplog.set_level("INFO", logger="golfbox.hal.resilient")
    display.show(scene(text="a"))
    for _ in range(249):
        now[0] += 0.01  # never more than the shortened backoff
        display.poll()
    assert display.failed_tries == 250
    still = [r.getMessage() for r in caplog.records if "still failing" in r.getMessage()]
    assert [m.split(" after ")[1].split(":")[0] for m in still] == ["100 tries", "200 tries"]
