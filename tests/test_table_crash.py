"""A table killed with SIGKILL and restarted ends its match as if nothing had happened.

Each run of tests/table_driver.py is a whole service process (sim hardware, a
scripted person at seat 0, bots elsewhere) that kills itself at a chosen
journal write, just before or just after the commit. It is started again on
the same journal until it finishes; the result must equal an uninterrupted
run's with the same seed, in the same journal match (resumed, not restarted):
the same totals and the very same journal entries, in the same order.

tests/test_resume_exact.py kills (in-process) after every entry of every start
phase; here real SIGKILLs do the same for the first entries of each start mode,
and restarts with hash seeds (PYTHONHASHSEED) other than the uninterrupted run's.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

DRIVER = Path(__file__).with_name("table_driver.py")


def drive(journal: Path, seed: int, variant: str, kill_at: int | None = None,
          when: str = "after", rules: tuple[str, ...] = (), more: tuple[str, ...] = (),
          hash_seed: int | None = None) -> subprocess.CompletedProcess:
    """One run of the driver (``more``: its other options); ``hash_seed``: the process's
    PYTHONHASHSEED (None: as this one's environment says, random if it says nothing)."""
    command = [sys.executable, str(DRIVER), "--journal", str(journal), "--seed", str(seed),
               "--variant", variant, *more]
    for rule in rules:
        command += ["--rule", rule]
    if kill_at is not None:
        command += ["--kill-at", str(kill_at), "--kill-when", when]
    env = None if hash_seed is None else {**os.environ, "PYTHONHASHSEED": str(hash_seed)}
    return subprocess.run(command, capture_output=True, text=True, timeout=60, env=env)


# (variant, seed, largest kill point): 4-card has peeks and knocks, polish-poker the
# flip-after-discard, 6-card the start-phase flips by all seats at once and long rounds.
CASES = [("4-card", 11, 3), ("polish-poker", 5, 3), ("6-card", 7, 9)]


@pytest.mark.parametrize("variant,seed,largest", CASES)
def test_killed_and_restarted_table_ends_like_an_uninterrupted_one(tmp_path, variant, seed, largest):
    clean = drive(tmp_path / "clean.sqlite3", seed, variant)
    assert clean.returncode == 0, clean.stderr
    expected = json.loads(clean.stdout)

    journal = tmp_path / "crashing.sqlite3"
    rng = random.Random(f"kill points {variant} {seed}")
    kills = 0
    for _ in range(200):  # far more than needed: each run commits at least one action
        when = rng.choice(("before", "after"))
        kill_at = rng.randint(2 if when == "before" else 1, largest)
        run = drive(journal, seed, variant, kill_at, when)
        if run.returncode == 0:
            break
        assert run.returncode == -signal.SIGKILL, run.stderr
        kills += 1
    else:
        pytest.fail("the table never finished its match")
    assert json.loads(run.stdout) == expected
    assert kills >= 7  # 3 cases: at least 21 random kill points in all


# Every start mode: (variant, rules, seed, entries to kill after, one by one). 9-card's
# start is each seat's first turn (three flips, then a draw and a place or discard).
START_MODES = [("4-card", (), 11, 5), ("6-card", (), 7, 8), ("6-card", ("peek_row=true",), 3, 5),
               ("polish-poker", ("choose_start=true",), 9, 8), ("9-card", (), 2, 16)]


@pytest.mark.parametrize("variant,rules,seed,count", START_MODES,
                         ids=[f"{m[0]}{'-' + m[1][0].split('=')[0] if m[1] else ''}" for m in START_MODES])
def test_sigkill_after_each_start_entry_gives_the_same_journal(tmp_path, variant, rules, seed, count):
    """Killed right after each of the first ``count`` commits in turn (a process that commits
    one entry and dies, again and again), then left to finish: the whole journal matches."""
    clean = drive(tmp_path / "clean.sqlite3", seed, variant, rules=rules)
    assert clean.returncode == 0, clean.stderr
    expected = json.loads(clean.stdout)
    journal = tmp_path / "crashing.sqlite3"
    for k in range(1, count + 1):
        run = drive(journal, seed, variant, 1, "after", rules)
        assert run.returncode == -signal.SIGKILL, run.stderr
    run = drive(journal, seed, variant, rules=rules)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert result["entries"] == expected["entries"]
    assert result == expected


def test_a_restart_with_another_hash_seed_plays_on_as_if_never_stopped(tmp_path):
    """A power cut's restart is a new process: str hashes, set order and object addresses
    are its own (PYTHONHASHSEED). Easy, medium and hard bots choose after each restart
    what they would have chosen with none: a choice depends on the seed, the seat, the
    actions played and the view only. Killed in the start phase and then every 10 journal
    writes, each run with a hash seed of its own, none the uninterrupted run's."""
    more = ("--bots", "easy,hard,medium", "--rounds", "1")
    clean = drive(tmp_path / "clean.sqlite3", 11, "6-card", more=more, hash_seed=0)
    assert clean.returncode == 0, clean.stderr
    expected = json.loads(clean.stdout)
    journal = tmp_path / "restarted.sqlite3"
    kills = [2] + [10] * (len(expected["entries"]) // 10)  # journal writes in each run
    for hash_seed, kill_at in enumerate(kills, start=1):
        run = drive(journal, 11, "6-card", kill_at, more=more, hash_seed=hash_seed)
        if run.returncode == 0:
            break
        assert run.returncode == -signal.SIGKILL, run.stderr
    else:
        run = drive(journal, 11, "6-card", more=more, hash_seed=len(kills) + 1)
        assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == expected


def test_the_driver_refuses_a_seat_count_its_bots_do_not_fill(tmp_path):
    """--bots names every seat but the person's: --seats 4 with one bot was a 2-seat
    table played in silence; now it stops before playing, naming both counts."""
    run = drive(tmp_path / "j.sqlite3", 1, "4-card", more=("--seats", "4", "--bots", "greedy"))
    assert run.returncode == 2, run.stdout
    assert "--seats 4 but --bots names 1 bots" in run.stderr
    assert not (tmp_path / "j.sqlite3").exists()
