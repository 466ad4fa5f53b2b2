"""How long record() takes with synchronous=FULL on this disk.

    python bench/journal_write.py [--count 2000] [--dir DIR]

Writes COUNT actions to a fresh journal in DIR (default: a temporary
directory; pass the Pi's /var/lib/golfbox filesystem to measure the SD card)
and prints the median, p99 and max latency of record(), which includes the
fsync of the WAL on every commit.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from golfbox.table.journal import Journal


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000, help="actions to record (default 2000)")
    parser.add_argument("--dir", type=Path, help="directory on the disk to measure (default: a temporary one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as directory:
        latencies = sorted(measure(Path(directory), args.count))
    p99 = latencies[min(len(latencies) - 1, round(0.99 * len(latencies)))]
    print(
        f"record() x{len(latencies)} in {args.dir or tempfile.gettempdir()}: "
        f"median {statistics.median(latencies) * 1e3:.3f} ms, p99 {p99 * 1e3:.3f} ms, "
        f"max {latencies[-1] * 1e3:.3f} ms"
    )


if __name__ == "__main__":
    main()
