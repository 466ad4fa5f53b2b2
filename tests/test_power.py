"""The Pi's supply: the kernel's under-voltage alarm (raspberrypi-hwmon's rpi_volt),
read from a fake sysfs tree laid out as /sys, in check-hardware."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from golfbox.cli import main
from golfbox.commands.run import DEFAULT_CONFIG
from golfbox.hal.power import find_alarm


def fake_sysfs(root: Path, alarm: str | None = "0\n") -> Path:
    """/sys/class/hwmon as on a Pi 4: the CPU's thermal sensor, then rpi_volt (None: no
    rpi_volt, a laptop). Returns the alarm file."""
    for number, name in enumerate(("cpu_thermal", "rpi_volt" if alarm is not None else "acpitz")):
        device = root / "class" / "hwmon" / f"hwmon{number}"
        device.mkdir(parents=True)
        (device / "name").write_text(name + "\n")
    path = root / "class" / "hwmon" / "hwmon1" / "in0_lcrit_alarm"
    if alarm is not None:
        path.write_text(alarm)
    return path


def test_the_alarm_is_found_by_its_devices_name_not_its_number(tmp_path):
    alarm = fake_sysfs(tmp_path)
    assert find_alarm(tmp_path) == alarm
    assert find_alarm(tmp_path / "nothing") is None
    laptop = tmp_path / "laptop"
    fake_sysfs(laptop, alarm=None)
    assert find_alarm(laptop) is None


LAPTOP = pytest.mark.skipif(Path(DEFAULT_CONFIG).exists(), reason="this machine has a table's config")


@LAPTOP
@pytest.mark.parametrize("alarm, said, status", [
    (None, ["power: not checked (no rpi_volt under-voltage sensor: not a Raspberry Pi)"], 0),
    ("0\n", ["power: OK, no under-voltage now", "power: no under-voltage during the check"], 0),
    ("1\n", ["power: UNDER-VOLTAGE now: use the official supply",
             "power: under-voltage 1 time during the check: use the official supply"], 1),
])
def test_check_hardware_says_what_the_supply_does(no_pi_supply, capsys, alarm, said, status):
    fake_sysfs(no_pi_supply, alarm)
    assert main(["check-hardware", "--seconds", "0"]) == status
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("power")]
    assert len(lines) == len(said)
    for line, start in zip(lines, said):
        assert line.startswith(start)


@LAPTOP
def test_check_hardware_says_a_sag_while_the_buttons_are_pressed(no_pi_supply, capsys):
    """The panels lit and the buttons pressed: when a weak supply shows."""
    alarm = fake_sysfs(no_pi_supply)

    def sag() -> None:  # as the driver sets it: up for one 2 s poll at least
        time.sleep(0.3)
        alarm.write_text("1\n")
        time.sleep(2.0)
        alarm.write_text("0\n")

    sagging = threading.Thread(target=sag)
    sagging.start()
    try:
        assert main(["check-hardware", "--seconds", "4"]) == 1
    finally:
        sagging.join()
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("power")]
    assert lines[0] == "power: OK, no under-voltage now"
    assert lines[1].startswith("power: UNDER-VOLTAGE: seat nodes may drop off USB")
    assert lines[2] == "power: voltage normal again"
    assert lines[3].startswith("power: under-voltage 1 time during the check")
    assert len(lines) == 4
