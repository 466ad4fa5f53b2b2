"""Does the table's loop wake for a timer due within microseconds, after an event?

    python bench/queue_deadline.py [--gets 200000]

CPython's SimpleQueue.get(timeout=…), called when the get before it took an
item, finds the queue's lock free; if its deadline passes before it first
waits, it waits for the next put instead (a negative wait is for ever). The
table's loop waits on such a queue until its next timer: a press or a panel's
failure taken, then a timer due within microseconds, and no timer fired until
the next press. Under systemd's watchdog that was a kill 10 s later.

Counts, of ``--gets`` such waits, those that lasted until a put made every
50 ms by another thread (over 10 ms): for a bare SimpleQueue, and for the
table's loop (TableService.step, a timer due 1 ns after the event).
"""

from __future__ import annotations

import argparse
import queue
import sys
import threading
import time

from golfbox.table.assemble import assemble_table
from golfbox.table.service import TableSettings
from golfbox.table.timers import ManualClock

STUCK = 0.010  # a wait of 1 ns that lasted longer waited for a put


def put_every(seconds: float, put) -> None:
    def run():
        while True:
            time.sleep(seconds)
            put()
    threading.Thread(target=run, daemon=True).start()


def bare_queue(gets: int) -> int:
    inbox = queue.SimpleQueue()
    put_every(0.05, lambda: inbox.put("unstick"))
    stuck = 0
    for _ in range(gets):
        inbox.put("event")
        while inbox.get() != "event":
            pass
        started = time.monotonic()
        try:
            inbox.get(timeout=1e-9)
        except queue.Empty:
            pass
        stuck += time.monotonic() - started > STUCK
    return stuck


def table_loop(gets: int) -> int:
    clock = ManualClock(1000.0)  # stands still: the timer stays 1 ns ahead
    service = assemble_table(TableSettings(variant="4-card", seats=2), [], {}, None, clock=clock)
    service.timers.call_at(clock.now + 1e-9, lambda: None)
    put_every(0.05, service.wake)
    stuck = 0
    for _ in range(gets):
        service.wake()
        service.step(None)  # the event taken
        started = time.monotonic()
        service.step(None)
        stuck += time.monotonic() - started > STUCK
    return stuck


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gets", type=int, default=200_000)
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}: of {args.gets:,} waits of 1 ns just after an event, "
          f"those that waited for the next put (> {STUCK * 1000:.0f} ms):")
    print(f"  bare SimpleQueue.get(timeout=1e-9): {bare_queue(args.gets)}")
    print(f"  the table's loop (TableService.step): {table_loop(args.gets)}")


if __name__ == "__main__":
    main()
