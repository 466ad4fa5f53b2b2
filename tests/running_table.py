"""A real `golfbox run --headless` in its own process, for the tests of what a second
golfbox (run, check-hardware) does while a table holds its journal."""

from __future__ import annotations

import signal
import subprocess
import sys
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def running_table(*args: str) -> Iterator[subprocess.Popen]:
    """`golfbox run --headless ARGS`, once it logged "table ready"; stopped by SIGTERM,
    as systemd stops it, when the block ends."""
    table = subprocess.Popen([sys.executable, "-m", "golfbox", "run", "--headless", *args],
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
    try:
        for line in table.stderr:
            if "table ready" in line:
                break
        yield table
    finally:
        table.send_signal(signal.SIGTERM)
        table.communicate(timeout=30)
