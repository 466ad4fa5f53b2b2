"""Bad input of any kind is refused on one line with exit status 2, touching nothing.

Each case runs the real ``golfbox`` command (``python -m golfbox``) in a
temporary HOME, and checks the exit status, that stderr is one line naming
the file, and that the file is untouched with nothing created beside it.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def golfbox(tmp_path: Path, *args: str, timeout: float = 30) -> subprocess.CompletedProcess:
    env = dict(os.environ, HOME=str(tmp_path / "home"), XDG_STATE_HOME=str(tmp_path / "state"),
               PYTHONPATH=str(ROOT))
    env.pop("STATE_DIRECTORY", None)
    return subprocess.run([sys.executable, "-m", "golfbox", *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)


def one_line_exit_2(run: subprocess.CompletedProcess, *words: str) -> None:
    assert run.returncode == 2, (run.returncode, run.stderr)
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    for word in words:
        assert word in lines[0], lines[0]


def listing(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


# -- item 2: --journal never takes over a file that is not a golfbox journal


def foreign_files(tmp_path: Path) -> dict[str, bytes | None]:
    """name -> bytes to write (None: an SQLite database of another program)."""
    return {
        "README.md": (ROOT / "README.md").read_bytes(),
        "notes.txt": b"shopping: eggs, milk\n",
        "binary.bin": bytes(range(256)) * 8,
        "fake.sqlite3": b"SQLite format 3\x00" + b"\x00" * 84 + b"rest of a broken file",
        "photos.db": None,
    }


@pytest.mark.parametrize("name", list(foreign_files(Path("."))))
def test_journal_flag_refuses_a_file_that_is_not_a_golfbox_journal(tmp_path, name):
    folder = tmp_path / "files"
    folder.mkdir()
    content = foreign_files(tmp_path)[name]
    target = folder / name
    if content is None:
        with sqlite3.connect(target) as db:
            db.execute("CREATE TABLE photos (name TEXT)")
        db.close()
    else:
        target.write_bytes(content)
    before = listing(folder)
    run = golfbox(tmp_path, "run", "--headless", "--journal", str(target))
    one_line_exit_2(run, str(target), "not a golfbox journal")
    assert listing(folder) == before  # untouched, nothing renamed, nothing created beside it


def test_journal_flag_refuses_a_folder_and_a_device(tmp_path):
    run = golfbox(tmp_path, "run", "--headless", "--journal", str(tmp_path))
    one_line_exit_2(run, str(tmp_path))
    run = golfbox(tmp_path, "run", "--headless", "--journal", "/dev/null")
    one_line_exit_2(run, "/dev/null")


def test_a_damaged_golfbox_journal_is_still_set_aside(tmp_path):
    from golfbox.table.journal import Journal
    from golfbox.table.service_cli import open_journal

    path = tmp_path / "journal.sqlite3"
    with Journal(path) as journal:
        match = journal.start_match({"variant": "6-card"}, 1)
        for n in range(400):
            journal.record(match, n % 3, f"place {n % 6}")
    size = path.stat().st_size
    with open(path, "r+b") as file:
        file.seek(size // 2 // 4096 * 4096)
        file.write(b"\xa5" * 4096)
    fresh = open_journal(path)
    fresh.close()
    assert [p.name for p in tmp_path.iterdir() if ".corrupt-" in p.name]
