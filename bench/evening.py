"""A café evening, hours of play in seconds: what grows or wastes from match to match.

    python bench/evening.py [--matches 40] [--seats 4] [--people 2] [--seed 1]
                            [--keep-matches N] [--hard]

One table on sim hardware with a journal on disk and a manual clock, played
match after match: people press at random (◀ ▶ ● ✕, a second or a few between
presses), now and then one pulls the seat's cable and plugs it back (a bot
stands in after takeover_after meanwhile), after a match they play again (●)
or go back to the lobby (✕) and start another (hold ●); the other seats are
bots (``--hard``: hard bots thinking in the worker process, in real time).
Printed every ``--every`` matches, then as growth per match and per hour of
the clock the table saw, from the end of the first match: traced Python
memory and RSS, open files, threads, child processes, timers pending, journal
bytes (pages in use, the main file on disk and the -wal file), journal writes
(transactions, each one fsync of the WAL), bytes handed to write calls (the
journal's: nothing else writes) and log lines at the service's level (INFO).

fsyncs themselves happen in SQLite's C code; count them with strace:

    strace -f -c -e trace=fsync,fdatasync .venv/bin/python -W ignore bench/evening.py --matches 10
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import resource
import sqlite3
import sys
import tempfile
import threading
import time
import tracemalloc
from contextlib import closing
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from golfbox.hal.base import Button, LinkEvent  # noqa: E402
from golfbox.hal.sim import SimDisplay, SimPad  # noqa: E402
from golfbox.table.assemble import assemble_table  # noqa: E402
from golfbox.table.journal import KEEP_MATCHES, Journal  # noqa: E402
from golfbox.table.settings import TableSettings  # noqa: E402
from golfbox.table.timers import ManualClock  # noqa: E402

PRESS_BUTTONS = (Button.LEFT, Button.RIGHT, Button.OK, Button.OK, Button.OK, Button.BACK)


class CountingJournal(Journal):
    """A journal that counts its write transactions (one WAL fsync each)."""

    writes = 0

    def _writing(self):
        CountingJournal.writes += 1
        return super()._writing()


class LineCounter(logging.Handler):
    def __init__(self):
        super().__init__(logging.INFO)
        self.lines = 0
        self.by_message: dict[str, int] = {}

    def emit(self, record):
        self.lines += 1
        self.by_message[record.msg] = self.by_message.get(record.msg, 0) + 1


def open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


def children() -> int:
    """Processes whose parent is this one (the bots' worker, if any)."""
    me, count = str(os.getpid()), 0
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{pid}/stat") as stat:
                    if stat.read().rsplit(")", 1)[1].split()[1] == me:
                        count += 1
            except OSError:
                pass
    return count


def rss_kib() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def written_kib() -> float:
    """Bytes this process handed to write calls (the journal's pages, the WAL's frames)."""
    with open("/proc/self/io") as io:
        return next(int(line.split()[1]) for line in io if line.startswith("wchar")) / 1024


def journal_bytes(path: Path) -> tuple[int, int, int]:
    """Bytes of the journal's pages in use (through its WAL: what the file holds once
    checkpointed), of the main file on disk (the pages freed by pruning are in it, and
    reused), and of its -wal file."""
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        pages, free, size = (db.execute(f"PRAGMA {name}").fetchone()[0]
                             for name in ("page_count", "freelist_count", "page_size"))
    wal = Path(f"{path}-wal")
    return (pages - free) * size, path.stat().st_size, wal.stat().st_size if wal.exists() else 0


class Evening:
    def __init__(self, directory: Path, seats: int, people: int, seed: int, hard: bool,
                 keep_matches: int):
        self.rng = random.Random(seed)
        self.clock = ManualClock(0.0)
        self.people = list(range(people))
        bot_names = ("hard",) if hard else ("medium", "random", "easy", "greedy")
        bots = {seat: bot_names[seat % len(bot_names)] for seat in range(people, seats)}
        self.settings = TableSettings(variant="6-card", seats=seats, bots=bots, bot_delay=1.0,
                                      peek_timeout=10.0, takeover_after=120.0, auto_start=True)
        self.pad = SimPad(range(seats), self.clock)
        self.displays = {seat: SimDisplay(f"seat {seat + 1}") for seat in range(seats)}
        self.shared = SimDisplay("shared", (256, 64), "L")
        self.path = directory / "journal.sqlite3"
        self.journal = CountingJournal(self.path, keep_matches)
        self.service = assemble_table(self.settings, [self.pad], self.displays, self.shared,
                                      self.journal, clock=self.clock, think_off_loop=hard)
        self.unplugged: set[int] = set()

    def settle(self) -> None:
        """Let the table do what is due now, and wait for a thinking worker if any."""
        service = self.service
        while True:
            service.run_until_idle()
            if not service.session.thinking():
                return
            service.step(5.0)  # a real worker answers in real time

    def wait(self, seconds: float) -> None:
        """Let ``seconds`` of the table's clock pass, firing the timers due meanwhile."""
        end = self.clock.now + seconds
        while True:
            self.settle()
            due = self.service.timers.next_due()
            if due is None or due.when > end:
                break
            self.clock.now = max(self.clock.now, due.when)
        self.clock.now = end
        self.settle()

    def match(self) -> None:
        """Play until the current match is over, then leave its result as people do."""
        service, rng = self.service, self.rng
        while service.state != "match_over":
            if self.people and rng.random() < 0.9:
                seat = rng.choice(self.people)
                if seat in self.unplugged:
                    if rng.random() < 0.02:
                        self.unplugged.discard(seat)
                        service.post(LinkEvent(seat, True, "plugged back", buttons=True))
                elif rng.random() < 0.002:
                    self.unplugged.add(seat)
                    service.post(LinkEvent(seat, False, "seat node unplugged", buttons=True))
                else:
                    self.pad.press(seat, rng.choice(PRESS_BUTTONS))
            self.wait(rng.uniform(0.3, 3.0))
        for seat in sorted(self.unplugged):  # plugged back for the next match
            service.post(LinkEvent(seat, True, "plugged back", buttons=True))
        self.unplugged.clear()
        self.wait(rng.uniform(5.0, 60.0))  # people look at the result
        if service.state != "match_over":
            return  # a bots-only table dealt its rematch
        if not self.people:
            self.wait(60.0)
            return
        seat = rng.choice(self.people)
        if rng.random() < 0.7:
            self.pad.press(seat, Button.OK)  # once more
        else:
            self.pad.press(seat, Button.BACK)  # back to the lobby, then start again
            self.wait(rng.uniform(5.0, 120.0))
            self.pad.hold(seat, Button.OK)
        self.wait(1.0)

    def close(self) -> None:
        self.service.close()


def figures(evening: Evening, lines: LineCounter) -> dict[str, float]:
    traced, _ = tracemalloc.get_traced_memory()
    main, file, wal = journal_bytes(evening.path)
    return {"traced KiB": traced / 1024, "RSS KiB": rss_kib(), "fds": open_files(),
            "threads": threading.active_count(), "children": children(),
            "timers": len(evening.service.timers._pending), "journal B": main, "file B": file, "wal B": wal,
            "writes": CountingJournal.writes, "written KiB": written_kib(), "log lines": lines.lines,
            "hours": evening.clock.now / 3600}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--people", type=int, default=2, help="seats played by random presses")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep-matches", type=int, default=KEEP_MATCHES,
                        help="matches the journal keeps (fewer: see it stop growing sooner)")
    parser.add_argument("--every", type=int, default=10, help="print figures every N matches")
    parser.add_argument("--hard", action="store_true",
                        help="bots hard, thinking in the worker process (real time: slow)")
    args = parser.parse_args()
    lines = LineCounter()
    logging.getLogger().addHandler(lines)
    logging.getLogger().setLevel(logging.INFO)
    tracemalloc.start()
    with tempfile.TemporaryDirectory(dir=os.environ.get("EVENING_DIR")) as tmp:
        evening = Evening(Path(tmp), args.seats, args.people, args.seed, args.hard,
                          args.keep_matches)
        evening.match()
        first = figures(evening, lines)
        print(f"{'match':>5} " + " ".join(f"{k:>10}" for k in first))
        print(f"{1:>5} " + " ".join(f"{v:>10.1f}" for v in first.values()))
        started = time.perf_counter()
        for n in range(2, args.matches + 1):
            evening.match()
            if n % args.every == 0 or n == args.matches:
                now = figures(evening, lines)
                print(f"{n:>5} " + " ".join(f"{v:>10.1f}" for v in now.values()))
        last = figures(evening, lines)
        evening.close()
    played, hours = args.matches - 1, last["hours"] - first["hours"]
    print(f"\nover matches 2-{args.matches} ({hours:.1f} h of the table's clock, "
          f"{time.perf_counter() - started:.0f} s of wall time), growth per match:")
    for key in ("traced KiB", "RSS KiB", "fds", "threads", "children", "journal B", "file B", "writes",
                "written KiB", "log lines"):
        grown = (last[key] - first[key]) / played
        print(f"  {key:<11} {grown:+10.1f}  ({grown * played / hours:+.1f} an hour)")
    print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.1f} MiB")
    print("log lines by message:")
    for message, count in sorted(lines.by_message.items(), key=lambda kv: -kv[1]):
        print(f"  {count:6d}  {message}")


if __name__ == "__main__":
    main()
