"""The table as the service runs it: a real `golfbox run --headless` in its own process
(for what a second golfbox does beside it), or serve() in this one, stopped by SIGTERM."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from contextlib import contextmanager
from typing import Callable, Iterator


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


def serve_beside(serve: Callable[[], int], meanwhile: Callable[[threading.Event], None]) -> int:
    """``serve()`` (golfbox run's serve, in this process, as the service runs it) with
    ``meanwhile(served)`` on a thread, which is then ended by SIGTERM as systemd stops
    it. ``served`` is set once serve() returned: meanwhile may stop waiting for it."""
    served = threading.Event()

    def beside() -> None:
        try:
            meanwhile(served)
        finally:
            os.kill(os.getpid(), signal.SIGTERM)  # ignored after serve(): see below

    previous = signal.signal(signal.SIGTERM, lambda *_: None)  # until serve() takes it
    helper = threading.Thread(target=beside)
    try:
        helper.start()
        return serve()
    finally:
        served.set()
        helper.join()
        signal.signal(signal.SIGTERM, previous)
