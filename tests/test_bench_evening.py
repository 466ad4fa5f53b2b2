"""bench/evening.py's own bad input: an evening too short to measure growth over."""

import subprocess
import sys
from pathlib import Path

EVENING = Path(__file__).resolve().parents[1] / "bench" / "evening.py"


def test_an_evening_of_one_match_is_refused_before_it_is_played():
    """Growth is measured from the end of the first match on: --matches 1 played a match
    and then stopped in a ZeroDivisionError traceback."""
    ran = subprocess.run([sys.executable, str(EVENING), "--matches", "1"],
                         capture_output=True, text=True, timeout=60)
    assert ran.returncode == 2, ran.stderr
    assert ran.stderr.splitlines()[-1].endswith(
        "--matches 1: at least 2 (growth is measured from the second on)"), ran.stderr
