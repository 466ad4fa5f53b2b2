"""The journal keeps the newest matches only: a table that plays every evening for a year
must neither fill its SD card nor check a year of moves at each start."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from golfbox.table.journal import KEEP_MATCHES, PRUNE_BATCH, Journal

CONFIG = {"variant": "6-card", "rounds": 1}


def play_match(journal: Journal, moves: int = 3, finish: bool = True) -> int:
    match = journal.start_match(CONFIG, 7, players=["Ann", "Bo"])
    for move in range(moves):
        journal.record(match, move % 2, f"place {move % 6}")
    if finish:
        journal.finish_round(match, 1, [4, 9])
        journal.finish_match(match, [4, 9], winners=[0])
    return match


def stored(path: Path, table: str, column: str) -> set[int]:
    """The match ids a table of the file holds (a second, read-only connection)."""
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        return {row[0] for row in db.execute(f"SELECT DISTINCT {column} FROM {table}")}


def test_the_journal_file_stops_growing_after_its_newest_matches(ram_path):
    path = ram_path / "journal.sqlite3"
    with Journal(path) as journal:
        for _ in range(KEEP_MATCHES):
            play_match(journal, moves=40)
    full = path.stat().st_size  # closing checkpointed the WAL into it
    with Journal(path) as journal:
        newest = [play_match(journal, moves=40) for _ in range(KEEP_MATCHES)]
    assert path.stat().st_size < full * 1.1
    assert stored(path, "match", "id") == set(newest)


def test_older_matches_go_whole_entries_and_scores_too(tmp_path):
    path = tmp_path / "journal.sqlite3"
    with Journal(path, keep_matches=3) as journal:
        played = [play_match(journal) for _ in range(8)]
        abandoned = journal.start_match(CONFIG, 8)
        journal.abandon(abandoned)
        assert [m.id for m in journal.history()] == played[-2:][::-1]
    kept = {played[-2], played[-1], abandoned}
    assert stored(path, "match", "id") == kept
    assert stored(path, "entry", "match_id") == kept - {abandoned}  # it recorded nothing
    assert stored(path, "round_score", "match_id") == kept - {abandoned}


def test_a_match_in_play_and_a_result_shown_are_never_deleted(tmp_path):
    path = tmp_path / "journal.sqlite3"
    with Journal(path, keep_matches=1) as journal:
        in_play = play_match(journal, finish=False)  # (left so by a bug, say)
        for _ in range(4):
            last = play_match(journal)
        assert journal.unfinished().id == in_play
        assert [action for _, _, action in journal.unfinished().actions] == \
            ["place 0", "place 1", "place 2"]
        assert journal.result_shown().id == last
    assert stored(path, "match", "id") == {in_play, last}


def test_a_journal_grown_large_comes_down_a_batch_a_match(tmp_path):
    path = tmp_path / "journal.sqlite3"
    with Journal(path, keep_matches=100) as journal:
        for _ in range(3 * PRUNE_BATCH):
            play_match(journal)
    with Journal(path, keep_matches=2) as journal:
        play_match(journal)
        # The oldest go first: the history keeps its newest matches while it comes down.
        assert stored(path, "match", "id") == set(range(PRUNE_BATCH + 1, 3 * PRUNE_BATCH + 2))
        for _ in range(3):
            play_match(journal)
        assert len(stored(path, "match", "id")) == 2


@pytest.mark.parametrize("keep", [0, -1, "200", True])
def test_keep_matches_must_be_a_positive_number(tmp_path, keep):
    with pytest.raises((TypeError, ValueError), match="keep_matches"):
        Journal(tmp_path / "journal.sqlite3", keep_matches=keep)
