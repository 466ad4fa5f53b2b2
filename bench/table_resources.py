"""CPU used by an idle table, and peak memory of an 8-seat table.

    python bench/table_resources.py [--idle 30]

* idle: the service runs (run(), its own thread, as in production) in the
  middle of a round, waiting for a person to press; the process's CPU time
  over ``--idle`` seconds is reported as a share of one core;
* memory: then a whole 9-round 6-card match for 8 seats (bots, no thinking
  time, a journal, sim displays for every seat and the shared display) is
  played in the same process, and the peak RSS reported.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from golfbox.table.journal import Journal  # noqa: E402
from golfbox.table.settings import TableSettings  # noqa: E402
from golfbox.table.sim import SimTable  # noqa: E402


def table(directory: Path, seats: int, bots: dict[int, str], name: str) -> SimTable:
    """The simulated table golfbox sim runs: sim pads, sim displays, a journal."""
    settings = TableSettings(variant="6-card", seats=seats, bots=bots, auto_start=True,
                             bot_delay=0.0, peek_timeout=600.0)
    return SimTable(settings, journal=Journal(directory / name))


def idle_cpu(directory: Path, seconds: float) -> float:
    """Share of one core used while the table waits for seat 1 to turn up its cards."""
    sim = table(directory, 4, {s: "random" for s in range(1, 4)}, "idle.sqlite3")
    sim.service.run_until_idle()
    sim.start()  # the service's loop in its own thread, as in production
    time.sleep(0.5)
    cpu, wall = time.process_time(), time.monotonic()
    time.sleep(seconds)
    cpu, wall = time.process_time() - cpu, time.monotonic() - wall
    sim.close()
    return cpu / wall


def eight_seat_match(directory: Path) -> int:
    sim = table(directory, 8, {s: "random" for s in range(8)}, "eight.sqlite3")
    sim.service.run_until_idle()
    assert sim.service.state == "match_over", sim.service.state
    sim.close()
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle", type=float, default=30.0, help="seconds of idle to measure")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        share = idle_cpu(Path(tmp), args.idle)
        print(f"idle for {args.idle:.0f} s: {share * 100:.3f} % of one core")
        peak = eight_seat_match(Path(tmp))
        print(f"peak RSS after a 9-round match at 8 seats: {peak / 1024:.1f} MiB")


if __name__ == "__main__":
    main()
