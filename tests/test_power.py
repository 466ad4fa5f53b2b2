"""The Pi's supply: the kernel's under-voltage alarm (raspberrypi-hwmon's rpi_volt),
read from a fake sysfs tree laid out as /sys, in check-hardware and the running table."""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path

import pytest

from golfbox.cli import main
from golfbox.commands import run as service_cli
from golfbox.commands.run import DEFAULT_CONFIG
from golfbox.hal.config import parse_config
from golfbox.hal.power import SupplyWatch, find_alarm, watch_supply
from running_table import serve_beside

log = logging.getLogger("test_power")


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


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_flickering_supply_is_logged_once_as_it_sags_and_once_when_it_has_held(
        tmp_path, caplog):
    alarm = fake_sysfs(tmp_path)
    clock = Clock()
    watch = SupplyWatch(alarm, log, clock=clock, settle=60.0)
    caplog.set_level(logging.INFO, logger="test_power")
    assert watch.check() is None and not caplog.records  # held: nothing said
    for low, seconds in (("1", 2), ("0", 4), ("1", 2), ("0", 10)):  # the kernel's 2 s polls
        alarm.write_text(low + "\n")
        watch.check()
        clock.now += seconds
    [sagged] = caplog.records
    assert sagged.levelno == logging.WARNING
    assert "under-voltage" in sagged.message and "seat nodes dropping off USB" in sagged.message
    assert "official supply" in sagged.message
    assert watch.check() == pytest.approx(50.0)  # down 10 s of the 60: wait for the rest
    clock.now += 50.0
    assert watch.check() is None
    held = caplog.records[-1]
    assert len(caplog.records) == 2 and held.levelno == logging.INFO
    assert held.message == "power: the supply has held for 60 s; it was low 2 times in the 8 s before"
    alarm.write_text("1\n")  # a new sag after that: said again
    watch.check()
    assert len(caplog.records) == 3 and caplog.records[-1].levelno == logging.WARNING


def test_the_table_s_watch_says_a_sag_at_its_start_and_sleeps_until_the_kernel_wakes_it(
        tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="test_power")
    assert watch_supply(log, tmp_path) is None  # no rpi_volt: nothing started
    fake_sysfs(tmp_path, "1\n")
    watch = watch_supply(log, tmp_path)
    try:
        deadline = time.monotonic() + 5
        while not caplog.records and time.monotonic() < deadline:
            time.sleep(0.01)
        assert "the Pi's supply is low" in caplog.records[0].message
        # Asleep in poll(): a fake tree's file never wakes it, as a real one wakes it only
        # when the driver notifies a change. No timer, no wakeups while the supply holds.
        [thread] = [t for t in threading.enumerate() if t.name == "supply-watch"]
        status = Path(f"/proc/self/task/{thread.native_id}/status")
        switches = lambda: int(next(line.split()[1] for line in status.read_text().splitlines()  # noqa: E731
                                    if line.startswith("voluntary_ctxt_switches")))
        before = switches()
        time.sleep(1.0)
        assert switches() == before
    finally:
        watch.close()
    assert not thread.is_alive()


def test_golfbox_run_logs_a_sag_found_as_it_starts(tmp_path, pi_sysfs, caplog):
    fake_sysfs(pi_sysfs, "1\n")  # where GOLFBOX_SYSFS points (conftest)
    caplog.set_level(logging.INFO)
    config = parse_config({"seats": [{"backend": "sim"}, {"backend": "sim"}]})

    def meanwhile(_served):
        deadline = time.monotonic() + 10
        while "table ready" not in caplog.text and time.monotonic() < deadline:
            time.sleep(0.05)

    assert serve_beside(lambda: service_cli.serve(config, tmp_path / "journal.sqlite3"),
                        meanwhile) == 0
    sags = [r for r in caplog.records if "power:" in r.message]
    assert len(sags) == 1 and "seat nodes dropping off USB" in sags[0].message
    assert not any(t.name == "supply-watch" for t in threading.enumerate())  # closed with it


LAPTOP = pytest.mark.skipif(Path(DEFAULT_CONFIG).exists(), reason="this machine has a table's config")


@LAPTOP
@pytest.mark.parametrize("alarm, said, status", [
    (None, ["power: not checked (no rpi_volt under-voltage sensor: not a Raspberry Pi)"], 0),
    ("0\n", ["power: OK, no under-voltage now", "power: no under-voltage during the check"], 0),
    ("1\n", ["power: UNDER-VOLTAGE now: use the official supply",
             "power: under-voltage 1 time during the check: use the official supply"], 1),
])
def test_check_hardware_says_what_the_supply_does(pi_sysfs, capsys, alarm, said, status):
    fake_sysfs(pi_sysfs, alarm)
    assert main(["check-hardware", "--seconds", "0"]) == status
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("power")]
    assert len(lines) == len(said)
    for line, start in zip(lines, said):
        assert line.startswith(start)


@LAPTOP
def test_check_hardware_says_a_sag_while_the_buttons_are_pressed(pi_sysfs, capsys):
    """The panels lit and the buttons pressed: when a weak supply shows."""
    alarm = fake_sysfs(pi_sysfs)

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
