"""What the table writes to its disk (a Pi's SD card), by file and what for.

    python bench/sd_writes.py play [--matches 12] [--people 2] [--keep-matches 200]
    python bench/sd_writes.py idle [--minutes 10] [--saver-minutes 10]
    python bench/sd_writes.py wal --dir DIR --device DEVICE [--autocheckpoint 1000]

play: a café evening on a manual clock (bench/evening.py's table: sim hardware, a
journal on disk, two people pressing at random and pulling their cables, two bots),
from the table's start, its log at INFO on stderr as the service's. idle: the real
service, ``golfbox run --config FILE`` with 4 sim seats and the environment systemd
gives it, watched in its lobby for ``--minutes`` after READY=1 (nobody joins; the
screen saver comes on after ``--saver-minutes``).

Both run under ``strace -f -y``, which names the file of each write and fsync:
printed by file (the journal, its -wal and -shm, stderr: the log journald keeps, the
kept config, folders), with write_bytes from /proc/PID/io (the pages sent to the disk,
those of SQLite's mmapped -shm too), per hour of the table's clock, per match, per
round and per move. The folder is on the disk (``--dir``, default /var/tmp), not a
tmpfs: write_bytes counts nothing on a tmpfs. ``--device``: the block device --dir is
on, whose bytes written (/sys/block) are printed too, the file system's own journal
included: alone on it (ext4 on a loop device of its own), they are the table's.

wal: record() into a fresh journal on --dir, the bytes reaching --device a commit
while the -wal grows (as in the first commits after every start: SQLite deletes it at
close) and once it is overwritten in place (after its first checkpoint).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from procfs import children, io_counters  # noqa: E402  (beside this script)

ROOT = Path(__file__).resolve().parents[1]
TRACED = "write,pwrite64,writev,fsync,fdatasync,rename,renameat,renameat2,unlink,unlinkat"
SYNCS = ("fsync", "fdatasync")
COUNTS = "counts.json"  # what the traced evening tells this script

# A line of strace -f -y -ttt: "PID SECONDS call(args) = result", or split in two
# ("<unfinished ...>", then "<... call resumed>") when another thread came between.
WHOLE = re.compile(r"^(\d+)\s+([\d.]+)\s+(\w+)\((.*)\)\s+=\s+(-?\d+)")
UNFINISHED = re.compile(r"^(\d+)\s+([\d.]+)\s+(\w+)\((.*) <unfinished \.\.\.>$")
RESUMED = re.compile(r"^(\d+)\s+([\d.]+)\s+<\.\.\. (\w+) resumed>.*\)\s+=\s+(-?\d+)")
FD_PATH = re.compile(r"^-?\d+<(.*?)>")
QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')  # a path argument, as strace quotes it


def what_for(path: str) -> str:
    """The kind of file a write went to, by its name."""
    name = path.rsplit("/", 1)[-1]
    for suffix, kind in (("-wal", "journal -wal"), ("-shm", "journal -shm"),
                         ("-journal", "journal -journal (its creation)"),
                         (".sqlite3", "journal (main file)")):
        if name.endswith(suffix):
            return kind
    if path.startswith(("pipe:", "socket:")) or path.endswith("stderr.log"):
        return "stderr (the log journald keeps)"
    if "last-good" in path:
        return "the kept config (last-good)"
    if os.path.isdir(path):
        return "folders (fsync after a rename or a new file)"
    return f"other: {name}"


def read_strace(path: Path, since: float = 0.0,
                until: float = float("inf")) -> tuple[Counter, Counter, Counter]:
    """(bytes written, write calls, fsyncs) by what_for, and renames/unlinks, from a
    trace, counting the calls made from ``since`` until ``until`` (seconds since the
    epoch)."""
    written, writes, syncs = Counter(), Counter(), Counter()
    pending: dict[str, tuple[str, str, float]] = {}
    for line in path.read_text(errors="replace").splitlines():
        if match := WHOLE.match(line):
            pid, at, call, args, result = match.groups()
        elif match := UNFINISHED.match(line):
            pid, at, call, args = match.groups()
            pending[pid] = (call, args, at)
            continue
        elif (match := RESUMED.match(line)) and match[1] in pending:
            call, args, at = pending.pop(match[1])
            result = match[4]
        else:
            continue
        if not since <= float(at) < until or int(result) < 0:
            continue
        if call in ("rename", "renameat", "renameat2", "unlink", "unlinkat"):
            # The last path named: rename's new one. Not the last argument: unlinkat's
            # flags come after its path (a Pi's arm64 has no unlink, only unlinkat).
            paths = QUOTED.findall(args)
            syncs[f"{call}: {what_for(paths[-1] if paths else '')}"] += 1
            continue
        fd = FD_PATH.match(args)
        if fd and fd[1].endswith(COUNTS):
            continue  # this script's own
        kind = what_for(fd[1]) if fd else "other: unnamed"
        if call in SYNCS:
            syncs[kind] += 1
        else:
            written[kind] += int(result)
            writes[kind] += 1
    return written, writes, syncs


def traced(command: list[str], trace: Path, **popen) -> subprocess.Popen:
    if shutil.which("strace") is None:
        raise SystemExit("strace is needed (apt install strace)")
    return subprocess.Popen(["strace", "-f", "-y", "-ttt", "-e", f"trace={TRACED}",
                             "-o", str(trace), *command], **popen)


def device_bytes(device: str | None) -> int:
    """Bytes written to the block device so far (its whole, ext4's own journal too;
    other programs' too: alone on it, e.g. a loop device of its own), or 0."""
    if device is None:
        return 0
    os.sync()
    return int(Path(f"/sys/block/{device}/stat").read_text().split()[6]) * 512


def report(trace: Path, write_bytes: int, hours: float, per: dict[str, int],
           device: tuple[str, int] | None = None, between=(0.0, float("inf"))) -> None:
    written, writes, syncs = read_strace(trace, *between)
    width = max(map(len, [*written, *syncs]), default=10)
    print(f"\n{'file':<{width}} {'bytes':>12} {'writes':>7} {'fsyncs':>7}   per hour: bytes, fsyncs")
    for kind in sorted(set(written) | set(syncs), key=lambda k: -written.get(k, 0)):
        print(f"{kind:<{width}} {written[kind]:>12,d} {writes[kind]:>7,d} {syncs[kind]:>7,d}"
              f"   {written[kind] / hours:>12,.0f} {syncs[kind] / hours:>8,.1f}")
    total, fsyncs = sum(written.values()), sum(n for k, n in syncs.items() if ":" not in k)
    print(f"{'all':<{width}} {total:>12,d} {sum(writes.values()):>7,d} {fsyncs:>7,d}"
          f"   {total / hours:>12,.0f} {fsyncs / hours:>8,.1f}")
    print(f"\nwrite_bytes (/proc/PID/io, pages sent to the disk): {write_bytes:,d} B,"
          f" {write_bytes / hours / 2 ** 20:,.2f} MiB an hour of the table's clock")
    if device:
        print(f"written to {device[0]} (/sys/block, the file system's journal too):"
              f" {device[1]:,d} B, {device[1] / hours / 2 ** 20:,.2f} MiB an hour")
    for name, count in per.items():
        if count:
            print(f"per {name} ({count:,d}): {total / count:,.0f} B handed to writes,"
                  f" {write_bytes / count:,.0f} B write_bytes, {fsyncs / count:.2f} fsyncs"
                  + (f", {device[1] / count:,.0f} B to {device[0]}" if device else ""))


# ---------------------------------------------------------------- play: an evening


def play_child(args) -> None:
    """In the traced process: the evening, then its counts in COUNTS."""
    from evening import Evening, journal_bytes  # beside this script
    from golfbox.table.journal import Journal

    counts = Counter()

    class CountingJournal(Journal):  # what was played, pruned from the journal or not
        def record(self, match_id, seat, action):
            counts["deals" if seat is None else "moves"] += 1
            return super().record(match_id, seat, action)

        def finish_round(self, match_id, round_no, scores):
            counts["rounds"] += 1
            return super().finish_round(match_id, round_no, scores)

        def finish_match(self, match_id, totals, winners):
            counts["matches"] += 1
            return super().finish_match(match_id, totals, winners)

    logging.basicConfig(level=logging.INFO, stream=sys.stderr,  # as golfbox run logs
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    folder = Path(args.child)
    before = io_counters()
    evening = Evening(folder, 4, args.people, args.seed, False, args.keep_matches,
                      journal=CountingJournal)
    grown = []
    for _ in range(args.matches):
        evening.match()
        grown.append(journal_bytes(evening.path))
    hours = evening.clock.now / 3600
    evening.close()
    after = io_counters()
    (folder / COUNTS).write_text(json.dumps(dict(
        counts, hours=hours, grown=grown, write_bytes=after["write_bytes"] - before["write_bytes"])))


def play(args) -> None:
    folder = Path(tempfile.mkdtemp(prefix="sd-writes-", dir=args.dir))
    trace = Path(tempfile.mkdtemp(prefix="sd-writes-trace-")) / "strace.txt"  # off --dir's disk
    try:
        device = device_bytes(args.device)
        with open(folder / "stderr.log", "wb") as log_file:
            child = traced([sys.executable, "-W", "ignore", __file__, "play", "--child",
                            str(folder), "--matches", str(args.matches), "--people",
                            str(args.people), "--seed", str(args.seed), "--keep-matches",
                            str(args.keep_matches)],
                           trace, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log_file)
        if child.wait():
            raise SystemExit(f"the evening failed ({child.returncode}): see {folder}")
        device = device_bytes(args.device) - device  # (the trace, on it too, is small)
        got = json.loads((folder / COUNTS).read_text())
        print(f"play: {got['matches']} matches, {got['rounds']} rounds, {got['moves']:,d} moves"
              f" and {got['deals']} deals in {got['hours']:.1f} h of the table's clock"
              f" ({args.people} people, {4 - args.people} bots)")
        pages = " ".join(f"{g[0] // 1024}" for g in got["grown"])
        print(f"journal (keeps {args.keep_matches} matches): KiB in use after each match: {pages};"
              f" at the end the file {got['grown'][-1][1]:,d} B, its -wal {got['grown'][-1][2]:,d} B")
        report(trace, got["write_bytes"], got["hours"],
               {"match": got["matches"], "round": got["rounds"], "move": got["moves"]},
               (args.device, device) if args.device else None)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        shutil.rmtree(trace.parent, ignore_errors=True)


# ---------------------------------------------------------------- idle: the real service


CONFIG = '[[seats]]\nbackend = "sim"\n' * 4 + """
[shared_display]
driver = "sim"

[game]
variant = "6-card"
screen_saver_minutes = {saver}
"""


def idle(args) -> None:
    from soak import drain, wait_ready  # beside this script

    folder = Path(tempfile.mkdtemp(prefix="sd-writes-", dir=args.dir))
    config, state = folder / "config.toml", folder / "state"
    trace = Path(tempfile.mkdtemp(prefix="sd-writes-trace-")) / "strace.txt"  # off --dir's disk
    config.write_text(CONFIG.format(saver=args.saver_minutes))
    state.mkdir()
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(str(folder / "notify"))
    env = dict(os.environ, NOTIFY_SOCKET=str(folder / "notify"), WATCHDOG_USEC="10000000",
               STATE_DIRECTORY=str(state))
    env.pop("WATCHDOG_PID", None)
    with open(folder / "stderr.log", "wb") as log_file:
        service = traced([sys.executable, "-m", "golfbox", "run", "--config", str(config)],
                         trace, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=log_file,
                         stderr=log_file)
    try:
        if wait_ready(notify) is None:
            raise SystemExit(f"no READY=1 within 30 s: see {folder}")
        time.sleep(1.0)  # the config kept after READY (last_good)
        pid = children(service.pid)[0]  # strace's child: the service
        # Timed on the monotonic clock: NTP may step a Pi's wall clock by days meanwhile.
        # strace stamps its lines on the wall clock, so the window read from its trace is.
        ready, ready_wall = time.monotonic(), time.time()
        before, device = io_counters(pid)["write_bytes"], device_bytes(args.device)
        while time.monotonic() < ready + args.minutes * 60:
            time.sleep(5.0)
            drain(notify)  # as systemd reads it: a full socket would hold its sends up
        write_bytes = io_counters(pid)["write_bytes"] - before
        device = device_bytes(args.device) - device
        # What its stop writes (the closing checkpoint) is not idle.
        ended, ended_wall = time.monotonic(), time.time()
    finally:
        for pid in children(service.pid):  # the service, as systemd stops it; then strace ends
            os.kill(pid, signal.SIGTERM)
        service.wait(timeout=30)
        notify.close()
    print(f"idle: the real service in its lobby for {(ended - ready) / 60:.1f} min after READY=1"
          f" (screen saver after {args.saver_minutes} min)")
    report(trace, write_bytes, (ended - ready) / 3600, {},
           (args.device, device) if args.device else None, (ready_wall, ended_wall))
    shutil.rmtree(folder, ignore_errors=True)
    shutil.rmtree(trace.parent, ignore_errors=True)


# ---------------------------------------------------------------- wal: a growing -wal


def wal(args) -> None:
    """Bytes reaching the device a commit (record()) while the -wal grows (the first
    commits after each start: SQLite deletes it at close) and once it is overwritten
    in place (after its first checkpoint)."""
    from golfbox.table.journal import Journal

    if args.device is None:
        raise SystemExit("wal: give --device, the block device --dir is on")
    folder = Path(tempfile.mkdtemp(prefix="sd-writes-", dir=args.dir))

    def per_commit(journal: Journal, match: int, count: int) -> float:
        before = device_bytes(args.device)
        for n in range(count):
            journal.record(match, n % 4, f"place {n % 6}")
        return (device_bytes(args.device) - before) / count

    try:
        with Journal(folder / "journal.sqlite3") as journal:
            journal._db.execute(f"PRAGMA wal_autocheckpoint = {args.autocheckpoint}")
            match = journal.start_match({"variant": "6-card"}, 1)
            growing = per_commit(journal, match, args.autocheckpoint * 4 // 5)
            per_commit(journal, match, args.autocheckpoint // 2)  # past the first checkpoint
            in_place = per_commit(journal, match, 2 * args.autocheckpoint)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"wal_autocheckpoint {args.autocheckpoint}: {growing:,.0f} B a commit to"
          f" {args.device} while the -wal grows, {in_place:,.0f} B once it is overwritten")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("play", "idle", "wal"))
    parser.add_argument("--dir", default="/var/tmp", help="a folder on the disk")
    parser.add_argument("--device", help="the block device --dir is on (e.g. loop0, mmcblk0):"
                                         " its bytes written too")
    parser.add_argument("--matches", type=int, default=12)
    parser.add_argument("--people", type=int, default=2, help="play: seats pressed at random")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep-matches", type=int, default=200)
    parser.add_argument("--minutes", type=float, default=10.0, help="idle: how long")
    parser.add_argument("--saver-minutes", type=int, default=10, help="idle: the screen saver")
    parser.add_argument("--autocheckpoint", type=int, default=1000,
                        help="wal: SQLite's wal_autocheckpoint (its default: 1000 pages)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        play_child(args)
    elif args.mode == "play":
        play(args)
    elif args.mode == "idle":
        idle(args)
    else:
        wal(args)


if __name__ == "__main__":
    main()
