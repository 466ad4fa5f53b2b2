"""How long record() and save_lobby() take with synchronous=FULL on this disk.

    python bench/journal_write.py [--count 2000] [--dir DIR]

Writes COUNT actions to a fresh journal in DIR (default: a temporary
directory; pass the Pi's /var/lib/golfbox filesystem to measure the SD card)
and prints the median, p99 and max latency of record(), which includes the
fsync of the WAL on every commit; then as many save_lobby() of a lobby's
choices (the one row replaced at each change in the lobby), and the file's size.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from golfbox.table.journal import Journal
from golfbox.table.lobby import Lobby
from golfbox.table.settings import TableSettings


def measure(directory: Path, count: int) -> list[float]:
    """Seconds taken by each of `count` record() calls."""
    with Journal(directory / "bench.sqlite3") as journal:
        match = journal.start_match({"variant": "six-card"}, 1)
        latencies = []
        for n in range(count):
            started = time.perf_counter()
            journal.record(match, n % 4, f"place {n % 6}")
            latencies.append(time.perf_counter() - started)
    return latencies


def measure_lobby(directory: Path, count: int) -> tuple[list[float], int]:
    """Seconds taken by each of `count` save_lobby() calls, and the file's bytes after."""
    lobby = Lobby(TableSettings(variant="6-card", seats=8, rules={"final_turn": True}))
    lobby.joined = {0, 2, 5}
    path = directory / "lobby.sqlite3"
    with Journal(path) as journal:
        latencies = []
        for n in range(count):
            lobby.rounds = (1, 3, 5, 9, 18)[n % 5]  # a change, as a press makes
            kept = lobby.to_json()
            started = time.perf_counter()
            journal.save_lobby(kept)
            latencies.append(time.perf_counter() - started)
    return latencies, sum(p.stat().st_size for p in directory.glob("lobby.sqlite3*"))


def report(name: str, where: str, latencies: list[float]) -> None:
    latencies = sorted(latencies)
    p99 = latencies[min(len(latencies) - 1, round(0.99 * len(latencies)))]
    print(
        f"{name} x{len(latencies)} in {where}: "
        f"median {statistics.median(latencies) * 1e3:.3f} ms, p99 {p99 * 1e3:.3f} ms, "
        f"max {latencies[-1] * 1e3:.3f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000, help="actions to record (default 2000)")
    parser.add_argument("--dir", type=Path, help="directory on the disk to measure (default: a temporary one)")
    args = parser.parse_args()
    where = str(args.dir or tempfile.gettempdir())
    with tempfile.TemporaryDirectory(dir=args.dir) as directory:
        report("record()", where, measure(Path(directory), args.count))
        saves, size = measure_lobby(Path(directory), args.count)
        report("save_lobby()", where, saves)
    print(f"the journal after {len(saves)} save_lobby(): {size} bytes (with its -wal)")


if __name__ == "__main__":
    main()
