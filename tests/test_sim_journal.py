"""The laptop table journals like the Pi: q, a crash or a closed terminal lose nothing.

Each test starts ``golfbox sim`` (or ``golfbox run`` with no config, as ``make
run`` does) in a pseudo-terminal with HOME and XDG_STATE_HOME in a temporary
folder, so the default journal is ``<tmp>/.local/state/golfbox/journal.sqlite3``.
"""

from __future__ import annotations

import signal
import sqlite3
from pathlib import Path

import pytest

from test_sim import ENTER, RIGHT, open_terminal  # noqa: F401  (a fixture)

START = ["--players", "2", "--humans", "1", "--seed", "5", "--bot-delay", "0"]


def journal_of(tmp_path: Path) -> Path:
    return tmp_path / ".local" / "state" / "golfbox" / "journal.sqlite3"


def matches(journal: Path) -> list[tuple]:
    """(id, status, seat 0's actions) of every match in the journal."""
    with sqlite3.connect(f"file:{journal}?mode=ro", uri=True) as db:
        rows = db.execute("SELECT id, status FROM match ORDER BY id").fetchall()
        return [(match_id, status, db.execute(
            "SELECT count(*) FROM entry WHERE match_id = ? AND seat = 0", (match_id,)).fetchone()[0])
            for match_id, status in rows]


def wait_for(condition, term, seconds: float = 20):
    """The condition's first true value; the journal may not be created yet."""
    def journal_condition():
        try:
            return condition()
        except sqlite3.Error:  # not created yet
            return None
    return term.until(journal_condition, seconds,
                      lambda: f"timed out; the screen ended with:\n{term.text()[-2000:]}")


def flip_two(term, journal: Path) -> None:
    """Seat 1 (the person) turns up two start cards with ● ▶ ●."""
    term.wait_for_text("seat 1 · you")
    term.send(ENTER)
    term.send(RIGHT)
    term.send(ENTER)
    wait_for(lambda: matches(journal) and matches(journal)[-1][2] >= 2, term)


@pytest.mark.parametrize("how", ["q", "SIGKILL", "SIGHUP"])
def test_the_next_start_resumes_the_match_after_q_a_crash_or_a_closed_terminal(
        open_terminal, tmp_path, how):
    journal = journal_of(tmp_path)
    term = open_terminal(["sim", *START])
    flip_two(term, journal)
    if how == "q":
        assert term.quit() == 0
    elif how == "SIGKILL":
        term.process.kill()
        term.process.wait()
    else:  # the terminal window closed
        term.process.send_signal(signal.SIGHUP)
        assert term.wait() == 0
    [(match_id, status, played)] = matches(journal)
    assert status == "playing" and played >= 2

    # Other options now: the unfinished match still comes back, with its own table.
    again = open_terminal(["sim", "--variant", "9-card", "--players", "3"])
    again.wait_for_text("resumed (--new starts afresh)")
    again.wait_for_text("6-card")
    assert again.quit() == 0
    [(same_id, status, still)] = matches(journal)
    assert same_id == match_id and status == "playing" and still >= played


def semaphores_of(pid: int) -> set[Path]:
    """The POSIX semaphores a process has open (multiprocessing's /dev/shm/sem.mp-…).
    /proc's maps names the file glibc made each in and renamed by a link: its inode
    finds the name it has now."""
    lines = Path(f"/proc/{pid}/maps").read_text().splitlines()
    inodes = {int(line.split()[4]) for line in lines if " /dev/shm/sem." in line}
    found = set()
    for path in Path("/dev/shm").glob("sem.*"):
        try:
            if path.stat().st_ino in inodes:
                found.add(path)
        except FileNotFoundError:  # another program's, gone meanwhile
            pass
    return found


def test_a_killed_table_leaves_no_semaphore_behind(open_terminal, tmp_path):
    """The bots' worker pool's semaphores are unlinked by multiprocessing's resource
    tracker once the table is gone. The table is the terminal's session leader: its
    death sent SIGHUP to its process group, which killed the tracker first, and five
    files were left in /dev/shm at each crash or closed terminal window."""
    term = open_terminal(["sim", *START])
    flip_two(term, journal_of(tmp_path))
    semaphores = term.until(lambda: semaphores_of(term.process.pid), 10,
                            lambda: "the table opened no semaphore: its bots' worker never started")
    term.process.kill()
    term.process.wait()
    term.until(lambda: not any(path.exists() for path in semaphores), 10,
               lambda: f"left in /dev/shm: {sorted(p.name for p in semaphores if p.exists())}")


def test_new_abandons_the_unfinished_match_and_deals_another(open_terminal, tmp_path):
    journal = journal_of(tmp_path)
    term = open_terminal(["sim", *START])
    flip_two(term, journal)
    assert term.quit() == 0
    fresh = open_terminal(["sim", *START, "--new"])
    fresh.wait_for_text("seat 1 · you")
    fresh.read(0.5)
    assert "resumed" not in fresh.text()
    assert fresh.quit() == 0
    first, second = matches(journal)
    assert first[1] == "abandoned" and second[1] == "playing" and second[2] == 0


def test_make_run_on_a_laptop_journals_too(open_terminal, tmp_path):
    journal = journal_of(tmp_path)
    term = open_terminal(["run"])
    flip_two(term, journal)
    assert term.quit() == 0
    term = open_terminal(["run"])
    term.wait_for_text("resumed (--new starts afresh)")
    term.send(b"?")
    term.wait_for_text("--new")  # the help says how to start afresh
    assert term.quit() == 0
    assert len(matches(journal)) == 1


def test_journal_flag_is_honoured_or_refused(open_terminal, tmp_path):
    mine = tmp_path / "games" / "mine.sqlite3"
    term = open_terminal(["sim", *START, "--journal", str(mine)])
    flip_two(term, mine)
    assert term.quit() == 0
    assert not journal_of(tmp_path).exists()

    notes = tmp_path / "notes.txt"
    notes.write_text("not a journal\n")
    term = open_terminal(["sim", "--journal", str(notes)])
    status = term.wait(20)
    term.read(0.3)
    assert status == 2
    assert "not a golfbox journal" in term.text() and str(notes) in term.text()
    assert notes.read_text() == "not a journal\n"
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == ["notes.txt"]


def test_a_resume_leaves_no_log_line_in_the_terminal(open_terminal, tmp_path):
    """"resumed match 1 at round 1 after 4 actions" was printed before the curses screen
    opened, and stayed in the terminal's scrollback after q: the top line says it."""
    journal = journal_of(tmp_path)
    term = open_terminal(["sim", *START])
    flip_two(term, journal)
    assert term.quit() == 0
    again = open_terminal(["sim", *START])
    again.wait_for_text("resumed (--new starts afresh)")
    assert again.quit() == 0
    before_screen = again.output[:again.output.find(b"\x1b[?1049h")]
    assert b"resumed match" not in before_screen and b"INFO" not in before_screen
