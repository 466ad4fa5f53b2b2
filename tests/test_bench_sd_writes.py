"""bench/sd_writes.py reads strace's trace: each call is put to the file it wrote,
synced, renamed or removed, as strace prints it on the machine it runs on."""

import argparse
import re
import shutil
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from sd_writes import idle, read_strace, traced  # noqa: E402

# The *at calls are what a Pi's 64-bit Raspberry Pi OS makes of unlink() and rename()
# (arm64 has neither): the path is not their last argument, unlinkat's flags are.
REMOVE_AND_RENAME = """
import os
folder = os.open(".", os.O_RDONLY)
for name in ("journal.sqlite3-wal", "journal.sqlite3-shm", "last-good.new"):
    open(name, "w").close()
os.unlink("journal.sqlite3-wal", dir_fd=folder)
os.unlink("journal.sqlite3-shm")
os.rename("last-good.new", "last-good.toml", src_dir_fd=folder, dst_dir_fd=folder)
"""


@pytest.mark.skipif(shutil.which("strace") is None, reason="no strace here")
def test_a_file_removed_or_renamed_by_an_at_call_is_named_by_its_path(tmp_path):
    trace = tmp_path / "strace.txt"
    assert traced([sys.executable, "-c", REMOVE_AND_RENAME], trace, cwd=tmp_path).wait() == 0
    _, _, syncs = read_strace(trace)
    named = {kind.split(": ", 1)[1] for kind in syncs if kind.startswith(("unlink", "rename"))}
    assert named == {"journal -wal", "journal -shm", "the kept config (last-good)"}, syncs


def test_a_pi_s_unlinkat_and_renameat_lines_are_named_by_their_path(tmp_path):
    """The same calls as strace prints them (on a machine with no strace, as a fresh CI's,
    the test above skips): unlinkat's last argument is its flags, "0"."""
    trace = tmp_path / "strace.txt"
    trace.write_text(
        '20797 1795827907.523052 unlinkat(3</srv/golfbox>, "journal.sqlite3-wal", 0) = 0\n'
        '20797 1795827907.523403 unlinkat(AT_FDCWD</srv/golfbox>, "journal.sqlite3-shm", 0) = 0\n'
        '20797 1795827907.523540 renameat(3</srv/golfbox>, "last-good.new", 3</srv/golfbox>, '
        '"last-good.toml") = 0\n')
    _, _, syncs = read_strace(trace)
    assert syncs == {"unlinkat: journal -wal": 1, "unlinkat: journal -shm": 1,
                     "renameat: the kept config (last-good)": 1}, syncs


@pytest.mark.skipif(shutil.which("strace") is None, reason="no strace here")
def test_idle_lasts_its_minutes_when_the_wall_clock_is_stepped(tmp_path, monkeypatch, capsys):
    """A Pi has no battery clock: NTP steps its wall clock, often by days, minutes
    after the boot, when the bench may be running. The idle minutes, and the rates an
    hour drawn from them, are timed on the monotonic clock."""
    real_time, readings = time.time, []

    def stepped_a_day_forward_after_the_first_reading() -> float:
        readings.append(None)
        return real_time() + (0 if len(readings) == 1 else 86400)

    monkeypatch.setattr(time, "time", stepped_a_day_forward_after_the_first_reading)
    idle(argparse.Namespace(dir=str(tmp_path), minutes=0.1, saver_minutes=10, device=None))
    lasted = float(re.search(r"lobby for ([\d.]+) min", capsys.readouterr().out).group(1))
    assert 0.1 <= lasted <= 0.2  # the loop looks every 5 s
