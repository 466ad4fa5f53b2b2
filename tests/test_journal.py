"""The journal: what is recorded comes back, bad files are refused by path, nothing committed is lost."""

from __future__ import annotations

import errno
import os
import re
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import textwrap
import threading
import time
from contextlib import closing
from pathlib import Path

import pytest

from golfbox.table.journal import (MAX_ACTION_LENGTH, SCHEMA_VERSION, Journal, JournalError, check_file,
                                   set_aside)
from running_table import running_table

CONFIG = {"variant": {"name": "six-card", "rounds": 9}, "seats": 3}


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "journal.sqlite3"


@pytest.fixture
def journal(path: Path):
    with Journal(path) as journal:
        yield journal


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


# -- recording and replay -------------------------------------------------


def test_unfinished_match_comes_back_in_order_after_reopening(path):
    big_seed = 2**64 + 12345  # beyond SQLite's 63-bit integers
    with Journal(path) as journal:
        match = journal.start_match(CONFIG, big_seed, players=[{"name": "Ann"}, {"bot": "greedy"}])
        assert journal.record(match, None, "deal") == 1
        assert journal.record(match, 0, "draw") == 2
        assert journal.record_event(match, "round started", {"round": 1}) == 3
        assert journal.record(match, 0, "place 4") == 4
        journal.finish_round(match, 1, [5, -2])
    with Journal(path) as journal:
        log = journal.unfinished()
    assert log.id == match
    assert log.config == CONFIG
    assert log.seed == big_seed
    assert log.players == [{"name": "Ann"}, {"bot": "greedy"}]
    assert log.actions == [(1, None, "deal"), (2, 0, "draw"), (4, 0, "place 4")]
    assert log.events == [(3, "round started", {"round": 1})]
    assert log.round_scores == {1: [5, -2]}
    assert log.started_at.tzinfo is not None


def test_negative_seed_is_kept(journal):
    match = journal.start_match({}, -(2**70))
    assert journal.unfinished().seed == -(2**70)
    assert journal.unfinished().id == match


def test_unfinished_is_the_newest_match_in_play(journal):
    assert journal.unfinished() is None
    first = journal.start_match(CONFIG, 1)
    second = journal.start_match(CONFIG, 2)
    assert journal.unfinished().id == second
    journal.abandon(second)
    assert journal.unfinished().id == first
    journal.finish_match(first, [10, 20, 30], winners=[0])
    assert journal.unfinished() is None


def test_sequence_numbers_are_per_match(journal):
    a = journal.start_match(CONFIG, 1)
    b = journal.start_match(CONFIG, 2)
    assert [journal.record(a, 0, "draw"), journal.record(b, 1, "draw"), journal.record(a, 0, "discard")] == [1, 1, 2]


def test_threads_share_a_journal_without_gaps(journal):
    match = journal.start_match(CONFIG, 1)

    def play(seat: int) -> None:
        for _ in range(25):
            journal.record(match, seat, "draw")

    threads = [threading.Thread(target=play, args=(seat,)) for seat in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [seq for seq, _, _ in journal.unfinished().actions] == list(range(1, 101))


# -- finishing and history ------------------------------------------------


def test_history_lists_finished_matches_newest_first_with_round_scores(journal):
    old = journal.start_match(CONFIG, 1, players=["Ann", "Bo", "Cy"])
    journal.finish_round(old, 1, [3, 4, 5])
    journal.finish_round(old, 2, [0, 9, 1])
    journal.finish_match(old, [3, 13, 6], winners=[0])
    journal.abandon(journal.start_match(CONFIG, 2))
    new = journal.start_match({"variant": "four-card"}, 3)
    journal.finish_match(new, [7, 7], winners=[0, 1])
    journal.start_match(CONFIG, 4)  # still in play: not history

    newest, oldest = journal.history()
    assert (newest.id, newest.variant, newest.totals, newest.winners) == (new, "four-card", [7, 7], [0, 1])
    assert (oldest.id, oldest.variant, oldest.players) == (old, "six-card", ["Ann", "Bo", "Cy"])
    assert oldest.round_scores == {1: [3, 4, 5], 2: [0, 9, 1]}
    assert oldest.started_at <= oldest.ended_at
    assert [m.id for m in journal.history(limit=1)] == [new]


def test_finishing_a_round_again_is_harmless_but_other_scores_are_refused(journal):
    match = journal.start_match(CONFIG, 1)
    journal.finish_round(match, 1, [1, 2, 3])
    journal.finish_round(match, 1, [1, 2, 3])  # a replay after restart does this
    with pytest.raises(ValueError, match="already scored"):
        journal.finish_round(match, 1, [1, 2, 4])
    assert journal.unfinished().round_scores == {1: [1, 2, 3]}


def test_a_closed_match_takes_no_more_entries(journal):
    done = journal.start_match(CONFIG, 1)
    journal.finish_match(done, [1, 2, 3], winners=[0])
    with pytest.raises(ValueError, match=f"match {done} is finished"):
        journal.record(done, 0, "draw")
    with pytest.raises(ValueError, match="is finished"):
        journal.abandon(done)
    dropped = journal.start_match(CONFIG, 2)
    journal.abandon(dropped)
    journal.abandon(dropped)  # twice is harmless
    with pytest.raises(ValueError, match="is abandoned"):
        journal.finish_round(dropped, 1, [0, 0, 0])
    with pytest.raises(ValueError, match="no match 99"):
        journal.record(99, 0, "draw")


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda j, m: j.record(m, 0, ""), ValueError),
        (lambda j, m: j.record(m, 0, "x" * 201), ValueError),
        (lambda j, m: j.record(m, -1, "draw"), ValueError),
        (lambda j, m: j.record(m, True, "draw"), TypeError),
        (lambda j, m: j.record(m, 0, 7), ValueError),
        (lambda j, m: j.record_event(m, "", None), ValueError),
        (lambda j, m: j.record_event(m, "odd", {1, 2}), ValueError),
        (lambda j, m: j.start_match({"x": float("nan")}, 1), ValueError),
        (lambda j, m: j.start_match([("variant", "x")], 1), TypeError),
        (lambda j, m: j.start_match({}, "42"), TypeError),
        (lambda j, m: j.finish_round(m, 1, [1, "2"]), TypeError),
        (lambda j, m: j.finish_match(m, [1, 2], winners=[2]), ValueError),
        (lambda j, m: j.finish_match(m, [1, 2], winners=[]), ValueError),
        (lambda j, m: j.history(limit=0), ValueError),
    ],
)
def test_bad_arguments_are_refused_and_write_nothing(journal, call, error):
    match = journal.start_match(CONFIG, 1)
    with pytest.raises(error):
        call(journal, match)
    log = journal.unfinished()
    assert (log.id, log.actions, log.events, log.round_scores) == (match, [], [], {})


def test_a_closed_journal_says_so(path):
    journal = Journal(path)
    journal.close()
    journal.close()  # twice is harmless
    with pytest.raises(JournalError, match="closed"):
        journal.unfinished()


# -- the file -------------------------------------------------------------


def test_files_are_private_whatever_the_umask(tmp_path, caplog):
    path = tmp_path / "state" / "journal.sqlite3"  # the directory is created too
    previous = os.umask(0o002)
    try:
        with caplog.at_level("WARNING", logger="golfbox.table.journal"):
            journal = Journal(path)
        assert "made private" not in caplog.text  # private from its first byte, not after
        journal.record(journal.start_match(CONFIG, 1), 0, "draw")
        assert os.umask(0o002) == 0o002  # our umask is restored after opening
        files = sorted(p.name for p in path.parent.iterdir())
        assert files == ["journal.sqlite3", "journal.sqlite3-shm", "journal.sqlite3-wal"]
        assert {name: mode(path.parent / name) for name in files} == dict.fromkeys(files, 0o600)
        assert mode(path.parent) == 0o700
        journal.close()
    finally:
        os.umask(previous)


def umask_now() -> int:
    """The process's umask, read without setting it (os.umask can only swap)."""
    line = next(l for l in Path("/proc/self/status").read_text().splitlines()
                if l.startswith("Umask:"))
    return int(line.split()[1], 8)


def test_opening_a_journal_leaves_the_process_umask_to_the_other_threads(tmp_path):
    """_open set umask 077 for the whole process while it waited (up to busy_timeout's
    5 s on a lock, a quick_check of a large journal): a file another thread made
    meanwhile was 0600 whatever it asked for, and two journals opened at once could
    restore each other's 077 for good. The journal's own files have explicit modes."""
    path = tmp_path / "journal.sqlite3"
    sqlite3.connect(path).close()  # an empty SQLite file: no mark yet, opened as new
    previous = os.umask(0o022)
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("BEGIN EXCLUSIVE")  # the sqlite3 shell, a backup: the journal waits
        opened = []
        opener = threading.Thread(target=lambda: opened.append(Journal(path)))
        opener.start()
        seen = set()
        deadline = time.monotonic() + 1.0  # the opener waits on the lock meanwhile
        while time.monotonic() < deadline:
            seen.add(umask_now())
            time.sleep(0.005)
        other = tmp_path / "other.txt"
        other.write_text("another thread's file\n")
        holder.execute("COMMIT")
        opener.join(10)
        assert opened and opened[0].unfinished() is None
        opened[0].close()
        assert seen == {0o022}
        assert mode(other) == 0o644
    finally:
        holder.close()
        os.umask(previous)


@pytest.mark.skipif(shutil.which("strace") is None, reason="no strace here")
def test_the_folders_a_first_journal_makes_reach_the_disk(tmp_path):
    """SQLite fsyncs the journal's folder as it creates its files, never that folder's
    own entry in its parent: a power cut soon after a first start in a new folder (a
    laptop's ~/.local/state/golfbox, a --journal on a fresh stick) lost it, and the
    journal with it. Each folder made is fsynced into its parent."""
    path = tmp_path / "state" / "golfbox" / "journal.sqlite3"
    trace = tmp_path / "strace.txt"
    opening = "import sys; from golfbox.table.journal import Journal; Journal(sys.argv[1]).close()"
    subprocess.run(["strace", "-f", "-y", "-e", "trace=mkdir,mkdirat,fsync,fdatasync", "-o",
                    str(trace), sys.executable, "-c", opening, str(path)], check=True)
    lines = trace.read_text().splitlines()
    made = [i for i, line in enumerate(lines) if "mkdir" in line and line.endswith("= 0")]
    assert len(made) == 2, lines  # state and state/golfbox
    for i in made:
        folder = Path(lines[i].split('"')[1])
        synced = re.compile(rf"sync\(\d+<{re.escape(str(folder.parent))}>\)")
        assert any(synced.search(line) for line in lines[i + 1:]), \
            f"{folder} is not fsynced into {folder.parent}"


def test_a_journal_others_could_read_is_made_private_when_opened(tmp_path, caplog):
    """The journal holds the match seed, which deals every card. One copied in with cp
    (a restored backup) or made before was 0644, and its -wal and -shm, which SQLite
    makes with the main file's mode, were too: anyone on the machine could deal the
    match in play. Opened, they are the owner's only, and the log says so."""
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    journal.record(journal.start_match(CONFIG, 1), 0, "draw")
    for name in ("journal.sqlite3", "journal.sqlite3-wal", "journal.sqlite3-shm"):
        os.chmod(tmp_path / name, 0o644)
    journal.close()
    assert mode(path) == 0o644
    with caplog.at_level("WARNING", logger="golfbox.table.journal"):
        again = Journal(path)
    files = sorted(p.name for p in tmp_path.iterdir())
    assert {name: mode(tmp_path / name) for name in files} == dict.fromkeys(files, 0o600)
    assert f"{path} could be read by others (0644): made private (0600)" in caplog.text
    assert again.unfinished() is not None  # and it opens as before
    again.close()


def test_a_journal_its_group_could_read_is_made_private(tmp_path):
    """Not only one others could read: a group's members (a shared Pi user) could deal it too."""
    path = tmp_path / "journal.sqlite3"
    Journal(path).close()
    os.chmod(path, 0o640)
    Journal(path).close()
    assert mode(path) == 0o600


def test_a_journal_whose_file_system_keeps_its_mode_is_not_said_private(tmp_path, monkeypatch, caplog):
    """A FAT stick mounted with quiet (and some network file systems) take a chmod and
    change nothing: the log said the journal was made private, and it stayed 0644."""
    path = tmp_path / "journal.sqlite3"
    Journal(path).close()
    os.chmod(path, 0o644)
    monkeypatch.setattr(os, "chmod", lambda *args, **kwargs: None)  # as such a mount does
    with caplog.at_level("WARNING", logger="golfbox.table.journal"):
        Journal(path).close()
    assert mode(path) == 0o644
    assert ": made private" not in caplog.text
    assert (f"journal {path} can be read by others and cannot be made private: its file "
            "system keeps its mode (0644)") in caplog.text


def test_a_file_that_is_no_journal_keeps_its_mode(tmp_path):
    """Only a journal is made private: another program's file, refused, is not touched."""
    path = tmp_path / "fake.sqlite3"
    path.write_bytes(b"SQLite format 3\x00" + b"\x00" * 84 + b"rest of a broken file")
    os.chmod(path, 0o644)
    with pytest.raises(JournalError):
        Journal(path)
    assert mode(path) == 0o644


def test_the_file_says_what_it_is(journal, path):
    journal.close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.close()


def test_a_file_that_is_not_sqlite_is_refused_by_path_and_left_alone(path):
    path.write_bytes(b"[table]\nseats = 4\n" * 100)
    before = path.read_bytes()
    with pytest.raises(JournalError, match=f"journal {path}: is not a golfbox journal") as refused:
        Journal(path)
    assert "corrupt" not in refused.value.problem  # so the table never sets it aside
    assert path.read_bytes() == before


def test_another_sqlite_database_is_refused_and_left_alone(path):
    other = sqlite3.connect(path)
    other.execute("CREATE TABLE photos (name TEXT)")
    other.commit()
    other.close()
    before = path.read_bytes()
    with pytest.raises(JournalError, match="not a golfbox journal"):
        Journal(path)
    assert path.read_bytes() == before


def test_a_version_1_journal_is_migrated_and_its_finished_match_result_is_still_shown(path):
    """Version 2 keeps when a finished match's result was left; a version 1 journal's
    finished match was never marked so, and is shown once more after the upgrade."""
    from golfbox.table.journal import MIGRATIONS, APPLICATION_ID

    db = sqlite3.connect(path)
    db.executescript(MIGRATIONS[0])
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute("PRAGMA user_version = 1")
    db.execute("INSERT INTO match (id, started_at, config, seed, players, variant, status, ended_at, "
               "totals, winners) VALUES (1, '2026-11-20T20:00:00+00:00', '{\"variant\": \"4-card\"}', "
               "'7', '[]', '4-card', 'finished', '2026-11-20T20:30:00+00:00', '[3, 9]', '[0]')")
    db.commit()
    db.close()
    with Journal(path) as journal:
        assert journal.result_shown().id == 1
        journal.close_result(1)
        journal.close_result(1)  # harmless twice
        assert journal.result_shown() is None
        assert [m.id for m in journal.history()] == [1]
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_version_2_journal_is_migrated_and_keeps_no_lobby_until_one_is_saved(path):
    """Version 3 keeps the lobby's choices; a version 2 journal kept none: the config's."""
    from golfbox.table.journal import MIGRATIONS, APPLICATION_ID

    db = sqlite3.connect(path)
    for migration in MIGRATIONS[:2]:
        db.executescript(migration)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute("PRAGMA user_version = 2")
    db.execute("INSERT INTO match (id, started_at, config, seed, players, variant, status, ended_at, "
               "totals, winners, result_closed_at) VALUES (1, '2026-11-20T20:00:00+00:00', "
               "'{\"variant\": \"4-card\"}', '7', '[]', '4-card', 'finished', "
               "'2026-11-20T20:30:00+00:00', '[3, 9]', '[0]', '2026-11-20T20:31:00+00:00')")
    db.commit()
    db.close()
    with Journal(path) as journal:
        assert journal.saved_lobby() is None
        assert journal.result_shown() is None and [m.id for m in journal.history()] == [1]
        journal.save_lobby({"variant": "4-card", "joined": [0]})
        journal.save_lobby({"variant": "9-card", "joined": [0, 2]})  # replaces it
        assert journal.saved_lobby() == {"variant": "9-card", "joined": [0, 2]}
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert db.execute("SELECT count(*) FROM lobby").fetchone()[0] == 1
    db.close()


def test_a_version_3_journal_is_migrated_with_no_seat_away_and_keeps_its_lobby_and_match(path):
    """Version 4 keeps the seats whose node is away (a bot plays on for them after a
    restart); a version 3 journal kept none, and its lobby and match in play stay."""
    from golfbox.table.journal import MIGRATIONS, APPLICATION_ID

    db = sqlite3.connect(path)
    for migration in MIGRATIONS[:3]:
        db.executescript(migration)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute("PRAGMA user_version = 3")
    db.execute("INSERT INTO match (id, started_at, config, seed, players, variant) VALUES "
               "(1, '2026-11-20T20:00:00+00:00', '{\"variant\": \"4-card\"}', '7', '[]', '4-card')")
    db.execute("INSERT INTO lobby (id, at, data) VALUES (1, '2026-11-20T19:59:00+00:00', "
               "'{\"joined\": [0]}')")
    db.commit()
    db.close()
    with Journal(path) as journal:
        assert journal.seats_away() == {}
        assert journal.unfinished().id == 1 and journal.saved_lobby() == {"joined": [0]}
        journal.save_away({2: True, 0: False})
        assert journal.seats_away() == {0: False, 2: True}
        journal.save_away({2: True})  # seat 1's node is back: replaces them
    with Journal(path) as journal:
        assert journal.seats_away() == {2: True}
        journal.save_away({})
        assert journal.seats_away() == {}
        with pytest.raises(ValueError, match="seat must be at least 0"):
            journal.save_away({-1: True})
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4


def test_a_lobby_that_is_no_json_is_refused_by_value(journal):
    with pytest.raises(ValueError, match="lobby cannot be stored as JSON"):
        journal.save_lobby({"rounds": float("nan")})
    assert journal.saved_lobby() is None


def test_only_the_newest_match_finished_and_not_left_is_shown_again(journal):
    first = journal.start_match({"variant": "4-card"}, seed=1)
    assert journal.result_shown() is None  # in play: unfinished() resumes it
    journal.finish_match(first, [3, 9], winners=[0])
    assert journal.result_shown().id == first
    second = journal.start_match({"variant": "4-card"}, seed=2)
    assert journal.result_shown() is None  # a newer match began
    journal.abandon(second)
    assert journal.result_shown() is None
    with pytest.raises(ValueError, match="not finished"):
        journal.close_result(second)


def test_a_result_left_for_the_lobby_is_closed_with_that_lobby_in_one_write(journal):
    match = journal.start_match({"variant": "4-card"}, seed=1)
    journal.finish_match(match, [3, 9], winners=[0])
    journal.save_lobby({"joined": [0, 1]})
    with pytest.raises(ValueError, match="lobby cannot be stored as JSON"):
        journal.close_result(match, {"joined": float("nan")})
    # Nothing written: the result is still shown, the lobby kept before is still kept.
    assert journal.result_shown().id == match and journal.saved_lobby() == {"joined": [0, 1]}
    journal.close_result(match, {"joined": []})
    assert journal.result_shown() is None and journal.saved_lobby() == {"joined": []}


def test_a_journal_from_a_newer_golfbox_is_refused(journal, path):
    journal.close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    with pytest.raises(JournalError, match="newer than this golfbox"):
        Journal(path)


def test_a_directory_is_refused(tmp_path):
    with pytest.raises(JournalError, match="is a directory"):
        Journal(tmp_path)


def test_check_file_refuses_a_folder_while_its_caller_handles_a_permission_error(tmp_path):
    """check_file took "this user may not look" from the exception a JournalError was
    raised in (its __context__): checked inside a caller's handler of a PermissionError,
    a folder at the path had that one as its context and passed as no refusal."""
    try:
        raise PermissionError(errno.EACCES, "Permission denied", "elsewhere")
    except PermissionError:
        with pytest.raises(JournalError, match="is a directory"):
            check_file(tmp_path)
        (tmp_path / "notes.txt").write_text("not a journal")
        with pytest.raises(JournalError, match="is not a golfbox journal"):
            check_file(tmp_path / "notes.txt")


def test_corruption_is_reported_and_set_aside_keeps_everything(path):
    with Journal(path) as journal:
        match = journal.start_match(CONFIG, 1)
        for n in range(400):  # several pages of entries
            journal.record(match, n % 3, f"place {n % 6}")
    size = path.stat().st_size
    assert size > 5 * 4096
    with open(path, "r+b") as file:  # scribble over a page in the middle
        file.seek(size // 2 // 4096 * 4096)
        file.write(b"\xa5" * 4096)
    damaged = path.read_bytes()
    with pytest.raises(JournalError, match=f"journal {path}: .*corrupt"):
        Journal(path)
    assert path.read_bytes() == damaged  # never recreated over

    moved = set_aside(path)
    assert moved.name.startswith("journal.sqlite3.corrupt-")
    assert moved.read_bytes() == damaged
    assert not path.exists()
    with Journal(path) as fresh:  # a clean start is now the caller's explicit choice
        assert fresh.unfinished() is None


# -- crashes --------------------------------------------------------------

WRITER = textwrap.dedent(
    """
    import sys
    from golfbox.table.journal import Journal
    journal = Journal(sys.argv[1])
    match = journal.start_match({"variant": "six-card"}, 7)
    n = 0
    while True:
        n += 1
        seq = journal.record(match, n % 4, f"place {n % 6}")
        print(seq, flush=True)
    """
)


def test_sigkill_mid_stream_loses_no_returned_action_and_a_torn_wal_tail_only_the_last(path, tmp_path):
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True)
    returned = []
    try:
        for line in writer.stdout:
            returned.append(int(line))
            if len(returned) == 300:
                writer.send_signal(signal.SIGKILL)  # the writer is most likely inside a commit
                break
        returned += [int(line) for line in writer.stdout]  # printed before it died
    finally:
        writer.kill()
        writer.wait()
    assert writer.returncode == -signal.SIGKILL
    assert Path(f"{path}-wal").stat().st_size > 0  # the kill left an unmerged WAL behind

    # A copy of the files as the kill left them, the last bytes of the WAL torn off.
    torn = tmp_path / "torn" / path.name
    torn.parent.mkdir()
    shutil.copy(path, torn)
    wal = Path(f"{path}-wal").read_bytes()
    Path(f"{torn}-wal").write_bytes(wal[:-1])

    with Journal(path) as journal:
        kept = [seq for seq, _, _ in journal.unfinished().actions]
    assert kept == list(range(1, len(kept) + 1))  # no gaps
    assert set(returned) <= set(kept)

    with Journal(torn) as journal:
        survived = [seq for seq, _, _ in journal.unfinished().actions]
    assert survived == list(range(1, len(survived) + 1))
    assert len(survived) >= len(kept) - 1  # at most the torn commit is gone


def test_a_journal_in_use_by_another_golfbox_is_refused(path):
    """A second `golfbox run` on the same journal wrote moves into the same match as
    the first (WAL lets any number of writers in); the replay then failed and the
    next start set the match aside: the game was lost. Now the second is refused."""
    child = textwrap.dedent(f"""
        import sys, time
        from golfbox.table.journal import Journal
        journal = Journal({str(path)!r})
        print("open", flush=True)
        sys.stdin.read()
    """)
    first = subprocess.Popen([sys.executable, "-c", child], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert first.stdout.readline() == "open\n"
        with pytest.raises(JournalError) as refused:
            Journal(path)
        said = str(refused.value)
        assert said.startswith(f"journal {path}: is in use by another golfbox, PID {first.pid} (")
        assert said.endswith(": stop it first (is it the golfbox service? "
                             "sudo systemctl stop golfbox)")
    finally:
        first.communicate("")
    with Journal(path) as again:  # the first has exited: its lock went with it
        assert again.unfinished() is None


def test_a_second_golfbox_run_names_the_process_that_holds_the_journal(path):
    """'in use by another golfbox' left the builder guessing which to stop: the
    service, a `golfbox run` in another terminal, a check-hardware left running."""
    with running_table("--journal", str(path)) as first:
        second = subprocess.run([sys.executable, "-m", "golfbox", "run", "--headless",
                                 "--journal", str(path)], stdin=subprocess.DEVNULL,
                                capture_output=True, text=True, timeout=60)
    assert second.returncode == 2
    assert second.stderr == (
        f"golfbox run: journal {path}: is in use by another golfbox, PID {first.pid} "
        f"(golfbox run --headless --journal {path}): stop it first "
        "(is it the golfbox service? sudo systemctl stop golfbox)\n")


def test_two_journals_set_aside_in_one_second_are_both_kept(tmp_path):
    """The name carried the time to the second: a second damaged journal set aside in the
    same second (a Pi with no clock restores the same time at every boot) replaced the first."""
    path = tmp_path / "journal.sqlite3"
    kept = []
    for evening in (b"first evening", b"second evening"):
        path.write_bytes(evening)
        kept.append(set_aside(path))
    assert [p.read_bytes() for p in kept] == [b"first evening", b"second evening"]


def test_a_journal_cut_shorter_than_its_header_says_so(path):
    """A file of SQLite's first bytes cut below the 72 that hold the mark was called "an
    SQLite database of another program"."""
    path.write_bytes(b"SQLite format 3\x00" + b"\x10\x00\x02\x02" + b"\x00" * 20)
    with pytest.raises(JournalError) as refused:
        Journal(path)
    assert str(refused.value) == (f"journal {path}: is cut short (40 bytes, less than the 100 of "
                                  "an SQLite header): not a golfbox journal; refusing to touch it "
                                  "(move it away to begin a new journal)")


def test_pruning_old_matches_leaves_the_lobby(path):
    """KEEP_MATCHES deletes old matches, never the lobby's row (it is no match)."""
    with Journal(path, keep_matches=1) as journal:
        journal.save_lobby({"variant": "9-card", "joined": [1]})
        for seed in range(3):
            match_id = journal.start_match({"variant": "4-card"}, seed, [])
            journal.finish_match(match_id, [3, 9], winners=[0])
        assert [m.id for m in journal.history()] == [3]  # (pruned)
        assert journal.saved_lobby() == {"variant": "9-card", "joined": [1]}


def test_a_new_journal_is_logged_once_as_new_and_an_old_one_once_as_brought_up_to_date(tmp_path, caplog):
    """A new journal logged "journal …: schema version 1", 2, 3 and 4: four lines, as if
    an old one had been upgraded three times. One line, saying which happened."""
    import logging

    caplog.set_level(logging.INFO, logger="golfbox.table.journal")
    Journal(tmp_path / "new.sqlite3").close()
    assert [r.getMessage() for r in caplog.records] == [
        f"journal {tmp_path / 'new.sqlite3'}: new (schema version {SCHEMA_VERSION})"]
    caplog.clear()
    old = tmp_path / "old.sqlite3"
    shutil.copy(Path(__file__).parent / "journals" / "v2_5141693.sqlite", old)
    old.chmod(0o600)  # private as the table keeps it: no line about its mode
    Journal(old).close()
    assert [r.getMessage() for r in caplog.records] == [
        f"journal {old}: schema version 2 brought up to {SCHEMA_VERSION}"]
    caplog.clear()
    Journal(old).close()  # up to date: nothing to say
    assert caplog.records == []


def test_the_connection_syncs_every_commit_before_record_returns(journal):
    """record() returns once the action is on disk: in WAL mode that takes synchronous
    FULL. NORMAL (SQLite's usual choice with WAL) syncs the WAL at checkpoints only, so a
    power cut loses the last commits: moves the table had already played. The setting
    is the connection's, not the file's: only the journal's own connection can say."""
    assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert journal._db.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_a_write_waits_for_another_connection_holding_the_file_a_moment(journal, path):
    """Another connection (`golfbox score`, the sqlite3 shell) may hold the write lock for
    a moment: a move waits for it, and is not refused as "database is locked"."""
    match = journal.start_match(CONFIG, 1)
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    letting_go = threading.Timer(0.3, other.execute, ("COMMIT",))
    letting_go.start()
    try:
        assert journal.record(match, 0, "draw") == 1
    finally:
        letting_go.join()
        other.close()


def test_a_journal_whose_rows_break_its_own_rules_is_called_corrupt_at_opening(path):
    """Damage SQLite reads through (here an entry neither action nor event) is found by
    the check at opening, and called corrupt, so the caller can set it aside; unchecked,
    unfinished() raised a TypeError at the start of the table."""
    with Journal(path) as journal:
        journal.record(journal.start_match(CONFIG, 1), 0, "draw")
    with closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA ignore_check_constraints = 1")
        db.execute("UPDATE entry SET action = NULL WHERE seq = 1")
        db.commit()
    with pytest.raises(JournalError, match="is corrupt: CHECK constraint failed in entry") as refused:
        Journal(path)
    assert refused.value.corrupt


def test_an_action_of_the_longest_length_is_kept(journal):
    match = journal.start_match(CONFIG, 1)
    journal.record(match, 0, "x" * MAX_ACTION_LENGTH)
    assert journal.unfinished().actions == [(1, 0, "x" * MAX_ACTION_LENGTH)]


def test_a_rematch_closes_the_result_it_leaves_and_only_a_finished_one(journal, path):
    """start_match(leaving=) closes the result in the same write as the deal; a match
    not finished is no result to leave, and nothing is dealt then."""
    first = journal.start_match(CONFIG, 1)
    journal.finish_match(first, [3, 5, 9], winners=[0])
    second = journal.start_match(CONFIG, 2, leaving=first)
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        closed = dict(db.execute("SELECT id, result_closed_at FROM match"))
    assert closed[first] is not None and closed[second] is None
    with pytest.raises(ValueError, match=f"match {second} is playing, not finished"):
        journal.start_match(CONFIG, 3, leaving=second)
    assert journal.unfinished().id == second


def test_a_match_is_finished_once_and_never_after_it_was_abandoned(journal):
    match = journal.start_match(CONFIG, 1)
    journal.finish_match(match, [3, 5, 9], winners=[0])
    with pytest.raises(ValueError, match="is finished, not in play"):
        journal.finish_match(match, [9, 9, 9], winners=[1])
    dropped = journal.start_match(CONFIG, 2)
    journal.abandon(dropped)
    with pytest.raises(ValueError, match="is abandoned, not in play"):
        journal.finish_match(dropped, [1, 1, 1], winners=[2])
    assert [(m.id, m.totals, m.winners) for m in journal.history()] == [(match, [3, 5, 9], [0])]


def test_an_empty_file_a_cut_short_creation_left_begins_the_journal(path):
    path.write_bytes(b"")
    with Journal(path) as journal:
        assert journal.unfinished() is None
        journal.record(journal.start_match(CONFIG, 1), 0, "draw")
    with Journal(path) as journal:
        assert journal.unfinished().actions == [(1, 0, "draw")]


def test_journals_set_aside_in_one_second_keep_each_its_wal_and_shm(tmp_path, monkeypatch):
    """The -wal holds the last moves not yet checkpointed: it goes with its file, under
    the same name, and a third journal set aside in the same second keeps its own too."""
    monkeypatch.setattr(time, "strftime", lambda *args: "20260101-000000")  # one second
    path = tmp_path / "journal.sqlite3"
    kept = []
    for evening in ("first", "second", "third"):
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").write_text(f"{evening}{suffix}")
        kept.append(set_aside(path))
    assert [[Path(f"{p}{suffix}").read_text() for suffix in ("", "-wal", "-shm")] for p in kept] == [
        [f"{evening}{suffix}" for suffix in ("", "-wal", "-shm")]
        for evening in ("first", "second", "third")]
    assert not any(Path(f"{path}{suffix}").exists() for suffix in ("", "-wal", "-shm"))


def test_the_file_stays_taken_while_any_journal_of_this_process_has_it(path):
    """Tests and the service reopen a journal to play a restart: closing one of two left
    the other writing a file a second golfbox could then take too."""
    first, second = Journal(path), Journal(path)
    first.close()
    child = subprocess.run([sys.executable, "-c", "import sys\nfrom golfbox.table.journal import "
                            "Journal\nJournal(sys.argv[1])", str(path)],
                           capture_output=True, text=True, timeout=60)
    assert "is in use by another golfbox" in child.stderr
    second.close()
