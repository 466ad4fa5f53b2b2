"""``golfbox check-hardware``: through the real CLI, with gpiozero mock pins and luma devices."""

from __future__ import annotations

import contextlib
import io
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from fake_mpy.harness import NODE_ID, make_node, ports_dir  # noqa: F401 (fixtures)
from golfbox.cli import main
from golfbox.commands.run import DEFAULT_CONFIG
from golfbox.table.journal import Journal
from running_table import running_table

ROOT = Path(__file__).resolve().parents[1]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def one_node_seat(tmp_path: Path, ports_dir: Path) -> Path:
    """A config of one seat, the fake node's, found among the ports in ``ports_dir``."""
    return write(tmp_path, f"""
[[seats]]
backend = "serial"
node = "{NODE_ID}"
[seat_nodes]
usb_ids = []
ports = ["{ports_dir}/*"]
""")


@pytest.mark.skipif(Path(DEFAULT_CONFIG).exists(), reason="this machine has a table's config")
def test_without_config_every_simulated_display_gets_its_pattern(capsys):
    assert main(["check-hardware", "--seconds", "0.1"]) == 0
    out = capsys.readouterr().out
    assert f"no config at {DEFAULT_CONFIG}: checking the simulated backend" in out
    for name in ("seat 1 display (sim)", "seat 4 display (sim)", "shared display (sim)"):
        assert f"{name}: OK, test pattern shown" in out
    assert "press buttons for 0.1 s" in out


def test_the_tables_own_config_is_checked_by_default_as_run_uses_it():
    """WIRING's bare `golfbox check-hardware` on a wired Pi checked simulated displays and
    said 'OK, test pattern shown' while the real panels stayed dark."""
    from golfbox.cli import build_parser

    parser, _ = build_parser(["check-hardware"])
    assert parser.parse_args(["check-hardware"]).config == DEFAULT_CONFIG


class WatchedOutput(io.StringIO):
    """stdout that tells another thread when a line starting with ``marker`` was printed."""

    def __init__(self, marker: str):
        super().__init__()
        self.marker = marker
        self.ready = threading.Event()

    def write(self, text: str) -> int:
        written = super().write(text)
        if any(line.startswith(self.marker) for line in self.getvalue().splitlines()):
            self.ready.set()
        return written


def test_presses_are_printed_and_a_missing_display_is_named(mock_pins, tmp_path):
    if Path("/dev/i2c-99").exists():
        pytest.skip("this machine has an /dev/i2c-99")
    config = write(tmp_path, """
[gpio]
hold_time = 0.1
[[seats]]
backend = "gpio"
buttons = { left = 17, right = 27, ok = 22, back = 4 }
display = { driver = "dummy" }
[[seats]]
backend = "sim"
display = { driver = "ssd1306", i2c = { bus = 99, address = 0x3D } }
[shared_display]
driver = "dummy"
""")

    output = WatchedOutput("press buttons")

    def player():  # presses like a person would: once the tool says so
        assert output.ready.wait(10)
        right, ok = mock_pins.pin(27), mock_pins.pin(22)
        right.drive_low()
        right.drive_high()
        ok.drive_low()
        time.sleep(0.3)  # a long press
        ok.drive_high()

    presser = threading.Thread(target=player)
    presser.start()
    with contextlib.redirect_stdout(output):
        status = main(["check-hardware", "--config", str(config), "--seconds", "1.2"])
    presser.join()
    out = output.getvalue()
    assert status == 1  # a display did not answer
    assert "seat 1: buttons ◀ GPIO17  ▶ GPIO27  ● GPIO22  ✕ GPIO4, display dummy" in out
    assert "seat 1 display (dummy): OK, test pattern shown" in out
    assert ("seat 2 display (ssd1306, /dev/i2c-99 0x3D): NOT ANSWERING: I2C bus 99 address 0x3D: "
            "I2C device not found: /dev/i2c-99") in out
    lines = out.splitlines()
    assert lines.index("seat 1 ▶ pressed") < lines.index("seat 1 ● pressed") < lines.index("seat 1 ● held")
    assert "not pressed: seat 1 ◀ (left, GPIO17), seat 1 ✕ (back, GPIO4)" in out


@pytest.mark.parametrize(("text", "expected"), [
    ('[[seats]]\nbuttons = { left = 17, right = 27, ok = 17, back = 4 }\ndisplay = { driver = "sim" }\n',
     "seats[0].buttons.ok: GPIO 17 is already used by seats[0].buttons.left"),
    ('[[seats]]\nbackend = "sim"\ndisplay = { driver = "ssd1306", i2c = { bus = 1 } }\n',
     "seats[0].display.i2c.address: missing"),
    ('[[seats]\nbackend = "sim"\n', "TOML syntax error"),
])
def test_bad_config_exits_2_naming_the_key(tmp_path, capsys, text, expected):
    assert main(["check-hardware", "--config", str(write(tmp_path, text))]) == 2
    err = capsys.readouterr().err
    assert err.startswith("golfbox check-hardware: ") and expected in err
    if "syntax" in expected:
        assert "line 1" in err


def test_bad_arguments_exit_2(tmp_path, capsys):
    assert main(["check-hardware", "--config", str(tmp_path / "none.toml")]) == 2
    assert "no such config file" in capsys.readouterr().err
    assert main(["check-hardware", "--seconds", "-1"]) == 2
    assert "--seconds: -1 is negative" in capsys.readouterr().err
    for word in ("nan", "inf"):  # nan ran for no time at all and said all was well
        assert main(["check-hardware", "--seconds", word]) == 2
        assert f"--seconds: {word} is not a number of seconds" in capsys.readouterr().err


def test_ctrl_c_ends_it_cleanly():
    # PYTHONFAULTHANDLER: a run that does not end is sent SIGABRT, and the failure shows
    # where each thread was. SIGINT is given back its default in the child: pytest started
    # as a background job (`cmd &` in a script) inherits SIGINT ignored, Python then sets no
    # KeyboardInterrupt handler, and the run rightly ignores Ctrl-C: it "hung" 20 s.
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1", "PYTHONFAULTHANDLER": "1"}
    process = subprocess.Popen([sys.executable, "-m", "golfbox", "check-hardware"], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        for line in process.stdout:
            if line.startswith("press buttons (Ctrl-C to stop)"):
                break
        process.send_signal(signal.SIGINT)
        try:
            out, err = process.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGABRT)
            out, err = process.communicate(timeout=20)
            pytest.fail(f"still running 20 s after Ctrl-C; where it was:\n{err[-6000:]}")
    finally:
        process.kill()
    assert process.returncode == 0, err  # every simulated display answered
    assert "Traceback" not in err and "KeyboardInterrupt" not in err


def test_every_seat_s_buttons_are_listed_when_never_pressed_whatever_drives_them(capsys):
    assert main(["check-hardware", "--seconds", "0"]) == 0
    out = capsys.readouterr().out
    assert "not pressed: seat 1 ◀ (left, sim seat), seat 1 ▶ (right, sim seat)" in out
    assert "seat 4 ✕ (back, sim seat)" in out


def test_an_spi_panel_is_not_called_ok_since_spi_has_no_acknowledge(capsys):
    from golfbox.commands import check_hardware as check
    from golfbox.hal.config import parse_config
    from golfbox.hal.sim import SimDisplay

    config = parse_config({"seats": [{"backend": "sim"}], "shared_display": {
        "driver": "ssd1322", "spi": {"port": 0, "device": 0, "dc": 24, "rst": 25}}}).shared_display
    panel = SimDisplay("shared display", (256, 64), "L")  # takes every byte, as a dark SPI panel does
    assert check._report_displays([check._Target(panel, config, "TABLE")])
    assert capsys.readouterr().out == ("shared display (ssd1322, SPI0.0 DC=GPIO24): test pattern sent; "
                                       "SPI has no acknowledge, check it by eye\n")


def test_a_gpio_config_off_a_pi_is_one_line_and_exit_2(tmp_path):
    import os
    import subprocess
    import sys

    if Path("/proc/device-tree/model").exists() or "GPIOZERO_PIN_FACTORY" in os.environ:
        pytest.skip("this machine may have GPIO")
    try:
        import lgpio  # noqa: F401
        pytest.skip("lgpio is installed here")
    except ImportError:
        pass
    config = write(tmp_path, '[[seats]]\nbackend = "gpio"\nbuttons = { left = 17, right = 27, ok = 22, back = 4 }\n'
                             'display = { driver = "ssd1306", i2c = { bus = 1, address = 0x3C } }\n')
    result = subprocess.run([sys.executable, "-m", "golfbox", "check-hardware", "--config", str(config),
                             "--seconds", "0"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    [line] = result.stderr.splitlines()  # as golfbox run says it (hal/gpio.py)
    # gpiozero's own reason for each driver it tried: on a Pi, lgpio's is the answer
    # ("can not open gpiochip": a user not in the gpio group), not "this needs a Pi".
    assert line.startswith("golfbox check-hardware: seats[0].buttons.left GPIO 17: gpiozero could "
                           "load no pin driver (lgpio: No module named 'lgpio'; rpigpio: "), line
    assert line.endswith("): on a Pi, lgpio needs python3-lgpio and a user in the gpio group "
                         "(hardware/SETUP.md, steps 3-4); off a Pi, try it with mock pins: "
                         "GPIOZERO_PIN_FACTORY=mock"), line


def test_a_dangling_link_at_the_tables_config_is_an_error_as_for_run(tmp_path, monkeypatch, capsys):
    """/etc/golfbox/config.toml a link to a file that is not there (a partition not
    mounted): run says so, but check-hardware took it for a laptop's missing config and
    said 'OK, test pattern shown' of simulated displays, the real panels dark."""
    from golfbox.commands import check_hardware

    link = tmp_path / "config.toml"
    link.symlink_to(tmp_path / "gone.toml")
    monkeypatch.setattr(check_hardware, "DEFAULT_CONFIG", str(link))
    assert main(["check-hardware", "--config", str(link), "--seconds", "0.1"]) == 2
    captured = capsys.readouterr()
    assert "simulated" not in captured.out and "config.toml" in captured.err


def test_a_seat_node_and_a_missing_panel_are_each_reported_once_by_name(tmp_path, capsys):
    """A seat node is described by its id, and one not plugged in is not answering (exit 1),
    as a panel on a missing bus is; each failure is said once, in the report, not again
    among the presses printed after it."""
    if Path("/dev/i2c-99").exists():
        pytest.skip("this machine has an /dev/i2c-99")
    config = write(tmp_path, """
[[seats]]
backend = "sim"
display = { driver = "ssd1306", i2c = { bus = 99, address = 0x3D } }
[[seats]]
backend = "serial"
node = "e6614103e7452d2f"
[seat_nodes]
ports = ["/nonexistent/tty*"]
""")
    assert main(["check-hardware", "--config", str(config), "--seconds", "0.3"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[:6] == [
        "seat 1: simulated buttons, display ssd1306, /dev/i2c-99 0x3D",
        "seat 2: seat node e6614103e7452d2f on USB",
        "seat 1 display (ssd1306, /dev/i2c-99 0x3D): NOT ANSWERING: I2C bus 99 address 0x3D: "
        "I2C device not found: /dev/i2c-99",
        "seat 2 node: NOT ANSWERING: seat 2: node not connected (the frame is shown when it is)",
        "power: not checked (no rpi_volt under-voltage sensor: not a Raspberry Pi)",
        "press buttons for 0.3 s",
    ]
    [summary] = lines[6:]
    assert summary.startswith("not pressed: seat 1 ◀ (left, sim seat), ")
    assert summary.endswith(", seat 2 ✕ (back, serial seat)")


def test_a_button_down_all_along_is_told_from_one_never_pressed(mock_pins, closed_switch,
                                                                tmp_path, capsys):
    """A shorted ● (or one with a cup on it) gives no edge: "not pressed" alone would send
    the builder looking for a broken wire, the fault the other way round."""
    closed_switch(22)
    config = write(tmp_path, """
[[seats]]
backend = "gpio"
buttons = { left = 17, right = 27, ok = 22, back = 4 }
display = { driver = "dummy" }
""")
    assert main(["check-hardware", "--config", str(config), "--seconds", "0.2"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "not pressed: seat 1 ◀ (left, GPIO17), seat 1 ▶ (right, GPIO27), "
        "seat 1 ● (ok, GPIO22: down all along, held down or shorted), seat 1 ✕ (back, GPIO4)")


def test_each_press_is_echoed_on_its_seats_display_and_all_four_are_counted(mock_pins, tmp_path,
                                                                            monkeypatch):
    """Bring-up checks that a seat's buttons and its display are the same seat's: each press
    is shown on that seat's test pattern, below its label (a capture display writes each
    frame it is sent as a PNG in the working folder); once every button was pressed the
    summary says so, not a list of none."""
    pytest.importorskip("pygame")
    from PIL import Image, ImageChops

    monkeypatch.chdir(tmp_path)
    config = write(tmp_path, """
[[seats]]
backend = "gpio"
buttons = { left = 17, right = 27, ok = 22, back = 4 }
display = { driver = "capture", scale = 1 }
""")
    output = WatchedOutput("press buttons")

    def player():
        assert output.ready.wait(10)
        for gpio in (17, 27, 22, 4):
            mock_pins.pin(gpio).drive_low()
            mock_pins.pin(gpio).drive_high()

    presser = threading.Thread(target=player)
    presser.start()
    with contextlib.redirect_stdout(output):
        assert main(["check-hardware", "--config", str(config), "--seconds", "2"]) == 0
    presser.join()
    assert output.getvalue().splitlines()[-5:] == [
        "seat 1 ◀ pressed", "seat 1 ▶ pressed", "seat 1 ● pressed", "seat 1 ✕ pressed",
        "every button was pressed"]
    pattern, *echoes = (Image.open(png).convert("L") for png in sorted(tmp_path.glob("*.png")))
    assert len(echoes) == 4, "a press was not shown"
    for echoed in echoes:
        changed = ImageChops.difference(pattern, echoed).getbbox()
        assert changed is not None and changed[1] >= pattern.height // 2, changed  # label kept


def test_a_greyscale_panels_pattern_shows_its_sixteen_levels(tmp_path, monkeypatch):
    """The shared display (an SSD1322: 16 grey levels) shows a strip of each level, so a
    panel wired or set up as black and white is seen at bring-up."""
    pytest.importorskip("pygame")
    from PIL import Image

    monkeypatch.chdir(tmp_path)
    config = write(tmp_path, """
[[seats]]
backend = "sim"
display = { driver = "dummy" }
[shared_display]
driver = "capture"
scale = 1
""")
    assert main(["check-hardware", "--config", str(config), "--seconds", "0"]) == 0
    [png] = tmp_path.glob("*.png")
    pattern = Image.open(png).convert("L")
    strip = pattern.crop((8, pattern.height - 8, pattern.width - 8, pattern.height - 7))
    assert sorted(set(strip.tobytes())) == [level * 17 for level in range(16)]


def test_a_seat_node_s_button_down_all_along_is_told_from_one_never_pressed(make_node, ports_dir,
                                                                           tmp_path, capsys):
    """Its press went before the session (nobody to tell), so only its STATEs say it is down."""
    node = make_node(plug=False)
    node.set_button("ok", True)  # from power-on
    config = one_node_seat(tmp_path, ports_dir)
    node.plug()
    main(["check-hardware", "--config", str(config), "--seconds", "4"])
    assert capsys.readouterr().out.splitlines()[-1] == (
        "not pressed: seat 1 ◀ (left, serial seat), seat 1 ▶ (right, serial seat), "
        "seat 1 ● (ok, serial seat: down all along, held down or shorted), "
        "seat 1 ✕ (back, serial seat)")


def test_a_seat_node_plugged_in_during_the_check_is_said_back_and_its_presses_printed(
        make_node, ports_dir, tmp_path):
    """Bring-up plugs nodes in one by one while the tool waits for presses: the node is
    said to be back by its seat, and its presses count like a wired seat's."""
    node = make_node(plug=False)
    config = one_node_seat(tmp_path, ports_dir)
    output = WatchedOutput("press buttons")

    def builder():
        assert output.ready.wait(10)
        node.plug()
        deadline = time.monotonic() + 10
        while "seat 1: node back" not in output.getvalue() and time.monotonic() < deadline:
            time.sleep(0.01)
        node.press("ok")

    plugger = threading.Thread(target=builder)
    plugger.start()
    with contextlib.redirect_stdout(output):
        status = main(["check-hardware", "--config", str(config), "--seconds", "8"])
    plugger.join()
    lines = output.getvalue().splitlines()
    assert status == 0  # judged at the end: it answers now
    assert "seat 1 node: NOT ANSWERING: seat 1: node not connected (the frame is shown when it is)" in lines
    after = lines[lines.index("press buttons for 8 s"):]
    assert after[1:3] == ["seat 1: node back", "seat 1 ● pressed"], after
    assert after[-1] == ("not pressed: seat 1 ◀ (left, serial seat), seat 1 ▶ (right, serial seat), "
                         "seat 1 ✕ (back, serial seat)")


SIM_TABLE = """
[[seats]]
backend = "sim"
display = {{ driver = "dummy" }}
[[seats]]
backend = "sim"
display = {{ driver = "dummy" }}
[journal]
path = "{journal}"
"""


def test_while_the_table_runs_it_is_refused_naming_the_table_and_touches_no_display(tmp_path):
    """README's bring-up says to stop the service first, as it holds the pins; a builder
    who did not was shown test patterns over the table's frames on its I2C panels
    (nothing locks a bus), blanked at exit, and a seat node's port refused in a warning.
    The table is found by its journal, as a second `golfbox run` finds it."""
    journal = tmp_path / "journal.sqlite3"
    config = write(tmp_path, SIM_TABLE.format(journal=journal))
    with running_table("--config", str(config)) as table:
        check = subprocess.run([sys.executable, "-m", "golfbox", "check-hardware", "--config",
                                str(config), "--seconds", "0"], capture_output=True, text=True,
                               timeout=60)
    assert (check.returncode, check.stdout) == (2, "")  # nothing described, nothing shown
    assert check.stderr == (
        f"golfbox check-hardware: the table is running: journal {journal}: is in use by "
        f"another golfbox, PID {table.pid} (golfbox run --headless --config {config}): "
        "stop it first (is it the golfbox service? sudo systemctl stop golfbox)\n")


def test_while_it_checks_the_table_cannot_start_on_the_same_hardware(tmp_path):
    """The service started (a restart, systemctl start) during a bring-up would drive the
    panels and ports under test: it is refused, naming check-hardware."""
    journal = tmp_path / "journal.sqlite3"
    config = write(tmp_path, SIM_TABLE.format(journal=journal))
    with Journal(journal):  # a table ran here before: the journal is there
        pass
    check = subprocess.Popen([sys.executable, "-m", "golfbox", "check-hardware", "--config",
                              str(config), "--seconds", "30"], stdout=subprocess.PIPE, text=True)
    try:
        for line in check.stdout:
            if line.startswith("press buttons"):
                break
        table = subprocess.run([sys.executable, "-m", "golfbox", "run", "--headless",
                                "--config", str(config)], capture_output=True, text=True,
                               timeout=20)  # running beside the check, it never ends
    finally:
        check.send_signal(signal.SIGINT)
        check.communicate(timeout=30)
    assert table.returncode == 2
    assert f"PID {check.pid} (golfbox check-hardware --config {config} --seconds 30)" in table.stderr


def test_with_no_journal_yet_it_checks_and_makes_none(tmp_path, capsys):
    """A first bring-up, before the service ever ran: nothing holds the hardware, and the
    check leaves no journal behind it (the service makes its own, with its owner)."""
    journal = tmp_path / "journal.sqlite3"
    config = write(tmp_path, SIM_TABLE.format(journal=journal))
    assert main(["check-hardware", "--config", str(config), "--seconds", "0"]) == 0
    assert "OK, test pattern shown" in capsys.readouterr().out
    assert not journal.exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root enters every folder")
def test_a_journal_this_user_cannot_look_at_is_said_and_the_check_goes_on(tmp_path, capsys):
    """On the Pi the journal is in the service's 0700 state directory: the pi user's
    check cannot tell whether the table runs. It says so, with how to stop it, and checks."""
    state = tmp_path / "state"
    journal = state / "journal.sqlite3"
    with Journal(journal):
        pass
    config = write(tmp_path, SIM_TABLE.format(journal=journal))
    state.chmod(0)
    try:
        assert main(["check-hardware", "--config", str(config), "--seconds", "0"]) == 0
    finally:
        state.chmod(0o700)
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (f"cannot tell whether the table is running (journal {journal}: Permission "
                      "denied; sudo -u golfbox can tell): stop it first (sudo systemctl stop golfbox)")
    assert "seat 1 display (dummy): OK, test pattern shown" in out


def test_a_named_pipe_at_the_journals_path_is_no_table_and_is_not_waited_on(tmp_path, capsys):
    """Only a file is looked at for a table's lock: opening a pipe would wait for a writer
    for ever. (golfbox run refuses it as no journal.)"""
    journal = tmp_path / "journal.sqlite3"
    os.mkfifo(journal)
    config = write(tmp_path, SIM_TABLE.format(journal=journal))
    assert main(["check-hardware", "--config", str(config), "--seconds", "0"]) == 0
    assert "seat 1 display (dummy): OK, test pattern shown" in capsys.readouterr().out
