"""Time from starting `golfbox run` to systemd's READY=1.

    python bench/table_startup.py [--runs 5] [--seats 8]

Starts the real command (python -m golfbox run) on a sim config with a
notify socket, as systemd would, and times process start to READY=1 (the
lobby is on every display by then), then stops it with SIGTERM.

golfbox's modules are compiled first, as pip installs them on a Pi: with
PYTHONDONTWRITEBYTECODE set (as in some containers) and an editable install,
every start compiled all of them again, 2-3 times as slow as a Pi's start.
"""

from __future__ import annotations

import argparse
import compileall
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def one_start(directory: Path, seats: int) -> float:
    config = directory / "config.toml"
    config.write_text('[[seats]]\nbackend = "sim"\n' * seats + '[shared_display]\ndriver = "sim"\n')
    return start_to_ready(config, directory / "j.sqlite3")[0]


def start_to_ready(config: Path, journal: Path) -> tuple[float, str]:
    """The real `golfbox run` on ``config`` and ``journal``, with a notify socket beside
    the journal, as systemd starts it, stopped by SIGTERM once it said READY=1: the
    seconds from its start to READY=1, and what it logged (bench/year.py reads it)."""
    sock_path = journal.parent / "notify.sock"
    sock_path.unlink(missing_ok=True)
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(sock_path))
        sock.settimeout(60)
        env = dict(os.environ, NOTIFY_SOCKET=str(sock_path))
        started = time.perf_counter()
        process = subprocess.Popen([sys.executable, "-m", "golfbox", "run", "--config", str(config),
                                    "--journal", str(journal)],
                                   env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            while "READY=1" not in sock.recv(4096).decode():
                pass
            took = time.perf_counter() - started
            process.send_signal(signal.SIGTERM)
            _, logged = process.communicate(timeout=30)
        finally:
            if process.poll() is None:
                process.kill()
    if process.returncode != 0:
        raise SystemExit(f"golfbox run exited {process.returncode} after SIGTERM: {logged[-500:]}")
    return took, logged


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seats", type=int, default=8)
    args = parser.parse_args()
    compileall.compile_dir(Path(__file__).resolve().parents[1] / "golfbox", quiet=1)
    with tempfile.TemporaryDirectory() as tmp:
        times = [one_start(Path(tmp), args.seats) for _ in range(args.runs)]
    print(f"start to READY=1 ({args.seats} sim seats, {args.runs} runs): "
          f"median {statistics.median(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
