"""A power cut at the file level: a torn or scrambled -wal file never loses the journal.

The journal commits each action with an fsync of the WAL, so a power cut can
only tear the commit in flight: its frames are cut short, or hold garbage.
Cases (seeded, so a failure can be replayed): the -wal cut at random byte
offsets inside its last commit, random bytes flipped in its last frame, and
(harder than a power cut can do) the -wal cut anywhere. Each time the journal
must open without a "corrupt" verdict and resume from the last complete
action: no gaps, at most the action in flight lost (after a cut anywhere,
exactly the actions whose commits are whole).
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from golfbox.table.journal import Journal, JournalError
from golfbox.commands.run import open_journal

ACTIONS = 60
CASES = 150  # per family
WAL_HEADER, FRAME_HEADER = 32, 24


@pytest.fixture(scope="module")
def power_cut(tmp_path_factory) -> Path:
    """A journal's files as a power cut leaves them: every commit in the -wal, none checkpointed."""
    live = tmp_path_factory.mktemp("live") / "journal.sqlite3"
    journal = Journal(live)
    match = journal.start_match({"variant": "6-card"}, 7, [{"seat": 0}])
    for n in range(ACTIONS):
        journal.record(match, n % 4, f"place {n % 6}")
    snapshot = tmp_path_factory.mktemp("snapshot")
    for suffix in ("", "-wal", "-shm"):  # copied while open: nothing was checkpointed
        shutil.copy(f"{live}{suffix}", snapshot / f"journal.sqlite3{suffix}")
    journal.close()
    return snapshot / "journal.sqlite3"


def frames(wal: bytes) -> list[tuple[int, bool]]:
    """(offset, is a commit) of every frame of a WAL file."""
    page_size = int.from_bytes(wal[8:12], "big")
    found, offset = [], WAL_HEADER
    while offset + FRAME_HEADER + page_size <= len(wal):
        found.append((offset, int.from_bytes(wal[offset + 4:offset + 8], "big") != 0))
        offset += FRAME_HEADER + page_size
    return found


def commits_before_actions(wal: bytes) -> int:
    return sum(commit for _, commit in frames(wal)) - ACTIONS


def damaged_copy(power_cut: Path, folder: Path, wal: bytes) -> Path:
    folder.mkdir()
    path = folder / power_cut.name
    shutil.copy(power_cut, path)
    shutil.copy(f"{power_cut}-shm", f"{path}-shm")  # stale, as the cut left it
    Path(f"{path}-wal").write_bytes(wal)
    return path


def resumed_actions(path: Path) -> list[int]:
    try:
        with Journal(path) as journal:
            log = journal.unfinished()
    except JournalError as exc:
        pytest.fail(f"a recoverable journal was refused: {exc}")
    assert log is not None, "the match is gone"
    seqs = [seq for seq, _, _ in log.actions]
    assert seqs == list(range(1, len(seqs) + 1)), "a gap"
    return seqs


def test_the_snapshot_holds_every_action_in_the_wal(power_cut):
    wal = Path(f"{power_cut}-wal").read_bytes()
    assert sum(commit for _, commit in frames(wal)) >= ACTIONS
    assert len(resumed_actions(damaged_copy(power_cut, power_cut.parent / "whole", wal))) == ACTIONS


def test_a_wal_torn_inside_its_last_commit_loses_at_most_that_action(power_cut, ram_path):
    wal = Path(f"{power_cut}-wal").read_bytes()
    commits = [offset for offset, commit in frames(wal) if commit]
    page_size = int.from_bytes(wal[8:12], "big")
    last_start = commits[-2] + FRAME_HEADER + page_size  # the last commit's first frame
    rng = random.Random("torn wal")
    for case in range(CASES):
        cut = rng.randrange(last_start, len(wal) + 1)
        path = damaged_copy(power_cut, ram_path / f"cut{case}", wal[:cut])
        kept = resumed_actions(path)
        assert len(kept) >= ACTIONS - 1, f"cut at byte {cut}: {len(kept)} actions left"


def test_random_bytes_flipped_in_the_last_frame_lose_at_most_that_action(power_cut, ram_path):
    wal = Path(f"{power_cut}-wal").read_bytes()
    last = frames(wal)[-1][0]
    rng = random.Random("flipped wal")
    for case in range(CASES):
        damaged = bytearray(wal)
        for _ in range(rng.randint(1, 8)):
            damaged[rng.randrange(last, len(wal))] ^= rng.randint(1, 255)
        path = damaged_copy(power_cut, ram_path / f"flip{case}", bytes(damaged))
        assert len(resumed_actions(path)) >= ACTIONS - 1, f"case {case}"


def test_a_wal_cut_anywhere_keeps_every_whole_commit_and_is_never_called_corrupt(power_cut, ram_path):
    wal = Path(f"{power_cut}-wal").read_bytes()
    rng = random.Random("cut anywhere")
    for case in range(CASES):
        cut = rng.randrange(0, len(wal) + 1)
        path = damaged_copy(power_cut, ram_path / f"any{case}", wal[:cut])
        whole = sum(commit for offset, commit in frames(wal[:cut]))
        try:
            journal = open_journal(path)  # what the table does at start
        except Exception as exc:  # noqa: BLE001 - any refusal is the failure
            pytest.fail(f"cut at byte {cut}: {exc}")
        log = journal.unfinished()
        journal.close()
        assert not list(path.parent.glob("*.corrupt-*")), f"cut at byte {cut}: set aside"
        before = commits_before_actions(wal)  # the schema, the match
        if whole > before:
            assert log is not None and len(log.actions) == whole - before, f"cut at byte {cut}"
        elif log is not None:
            assert log.actions == []
