"""A GPIO golfbox cannot have stops `golfbox run` and `check-hardware` with one line naming
the part and pin, exit status 2 (the unit's RestartPreventExitStatus=2: no restart loop).

The pins come from gpiozero pin factories registered the way real ones are (an entry point
in gpiozero_pin_factories, here from a throwaway dist-info): ``held`` is gpiozero's
MockFactory with the pins of $HELD_PINS already claimed, as a kernel driver claims GPIO 7
when dtoverlay=spi0-1cs is forgotten; ``broken`` names a module that is not installed.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("gpiozero")

ROOT = Path(__file__).resolve().parents[1]
LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ (DEBUG|INFO) ")

FACTORIES = '''
from gpiozero import DigitalOutputDevice
from gpiozero.pins.mock import MockFactory


class HeldPins(MockFactory):
    """Mock pins, those of $HELD_PINS taken by someone else before golfbox asks."""

    def __init__(self):
        super().__init__()
        import os
        self.holders = [DigitalOutputDevice(int(pin), pin_factory=self)
                        for pin in os.environ.get("HELD_PINS", "").split()]
'''

MUX = """
[[i2c_mux]]
parent = 1
address = 0x70
reset = 7

[[seats]]
backend = "gpio"
buttons = { left = 17, right = 27, ok = 22, back = 4 }
display = { driver = "ssd1306", i2c = { mux = 0x70, channel = 0, address = 0x3C } }

[[seats]]
backend = "sim"
"""


@pytest.fixture
def site(tmp_path):
    site = tmp_path / "site"
    info = site / "golfbox_test_factories-0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: golfbox-test-factories\nVersion: 0\n")
    (info / "entry_points.txt").write_text(
        "[gpiozero_pin_factories]\nheld = golfbox_test_factories:HeldPins\n"
        "broken = no_such_gpio_module:Factory\n")
    (site / "golfbox_test_factories.py").write_text(FACTORIES)
    return site


def golfbox(tmp_path: Path, site: Path | None, config: str, *args: str, held: str = "",
            factory_env: str | None = None) -> subprocess.CompletedProcess:
    path = tmp_path / "config.toml"
    path.write_text(config)
    env = dict(os.environ, HOME=str(tmp_path), HELD_PINS=held,
               PYTHONPATH=os.pathsep.join(str(p) for p in (ROOT, site) if p))
    env.pop("GPIOZERO_PIN_FACTORY", None)
    if factory_env:
        env["GPIOZERO_PIN_FACTORY"] = factory_env
    command = [sys.executable, "-m", "golfbox", *args[:1], "--config", str(path), *args[1:]]
    return subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL)


def the_one_line(result: subprocess.CompletedProcess) -> str:
    """Exit 2, no traceback, no warning: besides log lines, stderr is one line, the last."""
    assert result.returncode == 2, result.stderr
    lines = [line for line in result.stderr.strip().splitlines() if not LOG_LINE.match(line)]
    assert len(lines) == 1, result.stderr
    assert result.stderr.strip().splitlines()[-1] == lines[0]
    return lines[0]


RUN = ("run", "--journal", "journal.sqlite3")
CHECK = ("check-hardware", "--seconds", "0")


@pytest.mark.parametrize("command", [RUN, CHECK], ids=["run", "check-hardware"])
def test_the_mux_reset_pin_held_elsewhere_is_named_by_its_key(tmp_path, site, command):
    result = golfbox(tmp_path, site, '[gpio]\npin_factory = "held"\n' + MUX, *command, held="7")
    line = the_one_line(result)
    assert line.startswith(f"golfbox {command[0]}: i2c_mux[0].reset GPIO 7: in use ("), line


@pytest.mark.parametrize("command", [RUN, CHECK], ids=["run", "check-hardware"])
def test_a_button_pin_held_elsewhere_is_named_by_its_seat_and_button(tmp_path, site, command):
    result = golfbox(tmp_path, site, '[gpio]\npin_factory = "held"\n' + MUX, *command, held="22")
    line = the_one_line(result)
    assert line.startswith(f"golfbox {command[0]}: seats[0].buttons.ok GPIO 22: in use ("), line


@pytest.mark.parametrize("command", [RUN, CHECK], ids=["run", "check-hardware"])
def test_a_pin_factory_that_cannot_be_imported_is_named(tmp_path, site, command):
    result = golfbox(tmp_path, site, '[gpio]\npin_factory = "broken"\n' + MUX, *command)
    assert the_one_line(result) == (
        f"golfbox {command[0]}: gpio.pin_factory 'broken': needs the Python module "
        "no_such_gpio_module, which is not installed (hardware/SETUP.md, step 4)")


@pytest.mark.parametrize("command", [RUN, CHECK], ids=["run", "check-hardware"])
def test_the_units_pin_factory_without_lgpio_names_the_package_to_install(tmp_path, command):
    """The unit sets GPIOZERO_PIN_FACTORY=lgpio; lgpio comes from apt (the venv sees the
    system's packages), so an apt remove or autoremove of python3-lgpio takes it away: the
    line named the module only, not the package that brings it back."""
    try:
        import lgpio  # noqa: F401
        pytest.skip("lgpio is installed here")
    except ImportError:
        pass
    result = golfbox(tmp_path, None, MUX, *command, factory_env="lgpio")
    assert the_one_line(result) == (
        f"golfbox {command[0]}: i2c_mux[0].reset GPIO 7: needs the Python module lgpio, which is "
        "not installed (apt install python3-lgpio: hardware/SETUP.md, step 4)")


def test_off_a_pi_the_first_pin_says_there_is_no_pin_driver(tmp_path):
    if Path("/proc/device-tree/model").exists():
        pytest.skip("this machine may have GPIO")
    try:
        import lgpio  # noqa: F401
        pytest.skip("lgpio is installed here")
    except ImportError:
        pass
    result = golfbox(tmp_path, None, MUX, *RUN)
    line = the_one_line(result)
    assert line.startswith("golfbox run: i2c_mux[0].reset GPIO 7: gpiozero could load no pin "
                           "driver (lgpio: No module named 'lgpio'; "), line
    assert "native: " in line and line.endswith("GPIOZERO_PIN_FACTORY=mock"), line


def test_with_free_pins_it_gets_past_the_gpio(tmp_path, site):
    """The fake factory itself is sound: with nothing held, check-hardware runs to the end."""
    result = golfbox(tmp_path, site, '[gpio]\npin_factory = "held"\n' + MUX, *CHECK)
    assert "every button" in result.stdout or "not pressed" in result.stdout, result.stderr


def reference_config(tmp_path: Path, shared_display: str | None = None) -> str:
    """hardware/config.example.toml on the "held" pin factory, its pinmap.toml beside it."""
    (tmp_path / "pinmap.toml").write_text((ROOT / "hardware" / "pinmap.toml").read_text())
    text = (ROOT / "hardware" / "config.example.toml").read_text()
    text = re.sub(r'^# pin_factory = .*$', 'pin_factory = "held"', text, flags=re.M)
    if shared_display:  # off a Pi the SSD1322 stops the start (no spidev) before the buttons
        text = re.sub(r'^driver = "ssd1322"$', f'driver = "{shared_display}"', text, flags=re.M)
    return text


@pytest.mark.parametrize("held, shared, key", [
    ("7", None, "i2c_mux[0].reset (from pinmap.toml) GPIO 7"),
    ("15", "sim", "seats[3].buttons.back (from pinmap.toml) GPIO 15")])
def test_a_pin_the_pin_map_gives_is_named_with_the_pin_map(tmp_path, site, held, shared, key):
    """The reference config takes every pin from pinmap.toml; check-config names such a key
    'seats[3].buttons.back (from pinmap.toml)', but a pin it could not have was named
    'seats[3].buttons.back GPIO 15' alone, and the builder looked for it in config.toml,
    which has no buttons and no [[i2c_mux]]."""
    result = golfbox(tmp_path, site, reference_config(tmp_path, shared), *CHECK, held=held)
    line = the_one_line(result)
    assert line.startswith(f"golfbox check-hardware: {key}: in use ("), line
    if held == "7":  # BRINGUP step 5 and README quote it for the builder to recognise
        for page in (ROOT / "hardware" / "BRINGUP.md", ROOT / "README.md"):
            quotes = re.findall(r"`(i2c_mux\[0\]\.reset [^`]*GPIO 7: in use \()…\)`",
                                " ".join(page.read_text().split()))
            assert quotes and all(line.startswith(f"golfbox check-hardware: {q}") for q in quotes), (
                page.name, quotes, line)


# luma's SPI interface drives the panel's D/C and RESET through the RPi.GPIO API (rpi-lgpio
# on the Pi), when it opens the bus. Stand-ins for the two modules, as rpi-lgpio and spidev
# answer on a Pi: a pin of $HELD_PINS is "GPIO busy" (rpi-lgpio's RuntimeError).
FAKE_RPI_GPIO = '''
import os
BCM, OUT, IN, LOW, HIGH = 11, 0, 1, 0, 1
def setwarnings(flag): pass
def setmode(mode): pass
def setup(pin, direction, **kwargs):
    if str(pin) in os.environ.get("HELD_PINS", "").split():
        raise RuntimeError("GPIO busy")
def output(pin, value): pass
def cleanup(*pins): pass
'''
FAKE_SPIDEV = '''
class SpiDev:
    max_speed_hz = 0
    mode = 0
    def open(self, port, device): pass
    def writebytes(self, data): pass
    def close(self): pass
'''


@pytest.mark.parametrize("command", [RUN, CHECK], ids=["run", "check-hardware"])
def test_an_spi_panels_pin_held_elsewhere_is_one_line_not_a_traceback(tmp_path, site, command):
    """The SSD1322's D/C and RESET are claimed when luma opens the bus, at the first frame,
    after the start: a pin held there (a kernel driver, another program) was a traceback
    and exit 1 (run: restarted by systemd until its start limit), where a button's or the
    mux RESET's is one line naming it, exit 2."""
    (site / "RPi").mkdir()
    (site / "RPi" / "__init__.py").write_text("")
    (site / "RPi" / "GPIO.py").write_text(FAKE_RPI_GPIO)
    (site / "spidev.py").write_text(FAKE_SPIDEV)
    result = golfbox(tmp_path, site, reference_config(tmp_path), *command, held="25")
    line = the_one_line(result)
    assert line == (f"golfbox {command[0]}: shared_display.spi (from pinmap.toml) dc/rst GPIO "
                    "24/25: in use (GPIO busy); `gpioinfo` names what holds it"), line


def test_lgpio_that_cannot_write_its_working_directory_is_said_so(tmp_path, site):
    """lgpio makes its notify pipe, .lgd-nfy*, in the working directory when it is imported
    (gpiozero issue 1106): run from a folder the user may not write (the builder's home,
    with sudo -u golfbox), gpiozero falls back from it with "No such file or directory:
    '.lgd-nfy-3'", and golfbox sent the builder to the gpio group and python3-lgpio. The
    stand-in lgpio fails as the real one does there."""
    if Path("/proc/device-tree/model").exists():
        pytest.skip("this machine may have GPIO")
    (site / "lgpio.py").write_text(
        'raise FileNotFoundError(2, "No such file or directory", ".lgd-nfy-3")\n')
    result = golfbox(tmp_path, site, MUX, *CHECK)
    line = the_one_line(result)
    assert "(lgpio: [Errno 2] No such file or directory: '.lgd-nfy-3'; " in line, line
    assert line.endswith(f"): lgpio could not make its .lgd-nfy* file in {tmp_path}: run "
                         "golfbox from a folder its user may write (cd /tmp), or set LG_WD "
                         "to one"), line
    bringup = " ".join((ROOT / "hardware" / "BRINGUP.md").read_text().split())
    assert "`lgpio could not make its .lgd-nfy* file in …`" in bringup
