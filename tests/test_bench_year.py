"""bench/year.py's maker: the year it writes must be a journal the table itself opens
and resumes, or README's year figures measure something else."""

import subprocess
import sys
from pathlib import Path

from golfbox.table.journal import Journal

YEAR = Path(__file__).resolve().parents[1] / "bench" / "year.py"


def test_a_short_year_is_a_journal_the_table_opens(tmp_path):
    made = subprocess.run([sys.executable, "-W", "ignore", str(YEAR), "make", str(tmp_path / "year"),
                           "--matches", "5", "--evening", "2"],
                          capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    assert made.stdout.splitlines()[-1].startswith("made "), made.stdout
    journal = Journal(tmp_path / "year" / "journal.sqlite3")
    try:
        assert len(journal.history()) >= 5
    finally:
        journal.close()


def test_no_matches_is_refused_with_one_line(tmp_path):
    ran = subprocess.run([sys.executable, str(YEAR), "make", str(tmp_path / "year"), "--matches", "0"],
                         capture_output=True, text=True, timeout=60)
    assert ran.returncode == 2
    assert "--matches" in ran.stderr.splitlines()[-1], ran.stderr
