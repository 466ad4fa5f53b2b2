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
