"""The table on a slow or stalling SD card: fsync and fdatasync made slow for real by
bench/slow_fsync.c (an LD_PRELOAD shim, built here with cc), around the real table
(the service's run() on sim pads and displays, or the real `golfbox run`)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))

import slow_fsync  # noqa: E402


@pytest.fixture
def shim(tmp_path) -> Path:
    built = slow_fsync.build_shim(tmp_path)
    if built is None:
        pytest.skip("no C compiler (cc or gcc) to build the slow fsync shim")
    return built


def stalled(shim: Path, tmp_path: Path, stall_ms: int) -> dict:
    """bench/slow_fsync.py's stall: one sync stalls at a ● turning up a seat's first
    card, pressed ● twice more meanwhile; another seat presses ▶."""
    ran = subprocess.run([sys.executable, "-W", "ignore", str(BENCH / "slow_fsync.py"),
                          "--child", "stall", str(stall_ms)],
                         env=slow_fsync.slowed(shim, tmp_path / "delay"),
                         capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    return json.loads(ran.stdout.splitlines()[-1])


def test_presses_made_while_the_table_writes_ones_move_are_not_played_after(shim, tmp_path):
    """A person's ● stalled in the SD card's fsync for a second: nothing on their screen
    changed, so they pressed ● again, twice. Once the write was done those presses were
    played too, on a screen nobody had seen: here the seat's second card turned up (in a
    turn, the drawn card placed blind)."""
    found = stalled(shim, tmp_path, 1000)
    assert found["act"] >= 0.9  # the stall was there: the move's frame waited for it
    assert found["actions of the seat"] == 1


def test_other_seats_cursors_move_while_the_table_writes_a_move(shim, tmp_path):
    """Each action waits for its fsync before anything changes. The loop waited in it, so
    a second's stall froze every seat: another player turning up their own first cards
    saw their ▶ answered only when the write was done."""
    found = stalled(shim, tmp_path, 1000)
    assert found["act"] >= 0.9
    assert found["other"] < 0.2, f"the other seat's ▶ waited {found['other']:.2f} s"


SIM_TABLE = "".join('[[seats]]\nbackend = "sim"\n' for _ in range(3)) + \
    '[shared_display]\ndriver = "sim"\n'


def test_the_watchdog_is_kept_while_the_sd_card_stalls_a_write(shim, tmp_path):
    """The loop pinged systemd's watchdog between events only: a journal write stalled
    in fsync (a worn SD card's garbage collection, apt writing beside it) for longer than
    WatchdogSec had systemd kill the table, whose restart found the same stalled card
    (and a press in flight in the write was lost). Here the watchdog is 1 s, the stall 3 s."""
    import time

    from fake_systemd import NotifyingService, golfbox

    config = tmp_path / "config.toml"
    config.write_text(SIM_TABLE + "[game]\nbots = 3\nbot_delay = 0.1\nauto_start = true\n")
    control = tmp_path / "delay"
    env = slow_fsync.slowed(shim, control)
    env["WATCHDOG_USEC"] = "1000000"
    env.pop("WATCHDOG_PID", None)
    argv = golfbox("run", "--config", str(config), "--journal", str(tmp_path / "j.sqlite3"))
    pings: list[float] = []

    def pinged(seen: list[str]) -> bool:
        while len(pings) < sum("WATCHDOG=1" in m.splitlines() for m in seen):
            pings.append(time.monotonic())
        return bool(pings) and time.monotonic() > stalled_at + 4.0

    with NotifyingService(argv, tmp_path / "notify.sock", env=env) as service:
        assert service.wait_ready(30), service.output
        stalled_at = time.monotonic()
        control.write_text("3000!")  # the bots' next move
        assert service.wait_for(pinged, 20), service.output
        assert control.read_text() == "", "no write stalled"
        gaps = [b - a for a, b in zip(pings, pings[1:]) if b > stalled_at]
        assert max(gaps) < 1.0, f"no ping for {max(gaps):.1f} s: systemd would kill the table"
        assert service.stop(20) == 0, service.output
    assert "waited" in service.output and "the disk" in service.output  # the log says why
