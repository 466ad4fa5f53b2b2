"""A table left running: the real service (`golfbox run`) watched from outside.

    python bench/soak.py --mode idle --minutes 20 [--every 10]
    python bench/soak.py --mode bots --minutes 20 [--cut-every 30]

It writes a config of simulated seats (as on a laptop) into a temporary
folder, starts ``golfbox run --config FILE`` (under ``nice``, beside other
work) with the environment systemd gives it (a NOTIFY_SOCKET this script
reads, WATCHDOG_USEC of 10 s), and every ``--every`` seconds reads /proc:
resident memory, open files, threads, the CPU time of the service and of its
children (the hard bot's worker and multiprocessing's resource tracker), how
often its threads were woken (voluntary context switches), the bytes it wrote
to stderr (what journald keeps), its sd_notify messages, and the size of the
journal (its file and WAL).

* idle: 4 seats, nobody joins the lobby; the screen saver comes on after
  ``--saver-minutes`` (1 by default, to reach it quickly);
* bots: 4 bots (easy, medium, hard, random; ``bot_delay`` 0.2 s,
  ``auto_start``) play; the table sleeps after ``--saver-minutes`` with no
  press, finishes its match and rests. ``--saver-minutes 0`` (never) makes it
  play match after match, a rematch 30 s after each result.

``--cut-every SECONDS`` (bots): power cuts. The service is SIGKILLed at a
random moment about that often and started again on the same journal; each
cut reads the journal's entries just before, and checks after the restart
that the same match resumed with every one of them (nothing lost) and how
long the start took to READY=1 (imports, the journal opened and the match
replayed, every display drawn).

The service runs on the wall clock (it has no clock to drive from outside),
so a soak is as long as it says. CPU is given per phase, from the table's
status line (its STATUS=): lobby, playing, screen saver.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from procfs import TICK, cpu_ticks, status, wakeups  # beside this script

ROOT = Path(__file__).resolve().parents[1]

CONFIG = """\
[[seats]]
backend = "sim"
[[seats]]
backend = "sim"
[[seats]]
backend = "sim"
[[seats]]
backend = "sim"

[shared_display]
driver = "sim"

[game]
variant = "6-card"
screen_saver_minutes = {saver}
{extra}
"""
BOTS = 'bots = { 1 = "easy", 2 = "medium", 3 = "hard", 4 = "random" }\n' \
       "auto_start = true\nbot_delay = 0.2"


def journal_entries(journal: Path) -> list[tuple]:
    """The journal's committed entries, (match, seq, seat, action), read-only."""
    if not journal.exists():
        return []
    with sqlite3.connect(f"file:{journal}?mode=ro", uri=True) as db:
        return db.execute("SELECT match_id, seq, seat, action FROM entry "
                          "ORDER BY match_id, seq").fetchall()


def wait_ready(notify: socket.socket, timeout: float = 30.0) -> float | None:
    """Seconds until the service says READY=1, or None."""
    started = time.monotonic()
    notify.settimeout(timeout)
    try:
        while True:
            if "READY=1" in notify.recv(4096).decode().splitlines():
                return time.monotonic() - started
    except (socket.timeout, BlockingIOError):
        return None
    finally:
        notify.setblocking(False)


def drain(notify: socket.socket) -> None:
    """Read what the service has sent, as systemd does: a full socket holds its sends up
    (and what a killed service said is not the next one's READY)."""
    while True:
        try:
            notify.recv(4096)
        except BlockingIOError:
            return


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=("idle", "bots"), default="idle")
    parser.add_argument("--minutes", type=float, default=20.0)
    parser.add_argument("--every", type=float, default=10.0, help="seconds between samples")
    parser.add_argument("--saver-minutes", type=int, default=1)
    parser.add_argument("--keep", metavar="DIR", help="use DIR (kept) instead of a temporary folder")
    parser.add_argument("--cut-every", type=float, metavar="SECONDS",
                        help="SIGKILL the service about this often and start it again")
    args = parser.parse_args()
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="soak-"))
    folder.mkdir(parents=True, exist_ok=True)
    config = folder / "config.toml"
    config.write_text(CONFIG.format(saver=args.saver_minutes,
                                    extra=BOTS if args.mode == "bots" else ""))
    journal = folder / "journal.sqlite3"
    notify_path = folder / "notify"
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(str(notify_path))
    notify.setblocking(False)
    env = dict(os.environ, NOTIFY_SOCKET=str(notify_path), WATCHDOG_USEC="10000000",
               PYTHONFAULTHANDLER="1")
    env.pop("WATCHDOG_PID", None)
    stderr = (folder / "stderr.log").open("wb")

    def start() -> subprocess.Popen:
        return subprocess.Popen(
            ["nice", sys.executable, "-m", "golfbox", "run", "--config", str(config),
             "--journal", str(journal)],
            cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=stderr, stderr=stderr)
    service = start()
    pid = service.pid
    rng = random.Random(1)
    next_cut = None
    fresh = True  # the first interval of a process is its start (imports, the journal)
    if args.cut_every:
        next_cut = time.monotonic() + rng.uniform(0.5, 1.5) * args.cut_every
    cuts: list[dict] = []
    started = time.monotonic()
    messages: dict[str, int] = {}
    last_status = ""
    phases: dict[str, list[float]] = {}  # status kind -> [seconds, cpu ticks, wakeups]
    rows = []
    try:
        before = (time.monotonic(), *cpu_ticks(pid), wakeups(pid))
        while time.monotonic() - started < args.minutes * 60:
            time.sleep(args.every if next_cut is None else
                       max(0.0, min(args.every, next_cut - time.monotonic())))
            if next_cut is not None and time.monotonic() >= next_cut:
                before_cut = journal_entries(journal)
                service.kill()  # SIGKILL: a power cut
                service.wait()
                taken = journal_entries(journal)  # what the cut left (a commit may end it)
                drain(notify)  # what the killed one said is not this one's READY
                service = start()
                pid = service.pid
                ready = wait_ready(notify)
                after = journal_entries(journal)
                lost = [e for e in before_cut if e not in after]
                cuts.append(dict(ready=ready, entries=len(before_cut), lost=len(lost),
                                 left=len(taken)))
                print(f"cut {len(cuts)}: {len(before_cut)} entries before, {len(lost)} lost; "
                      f"READY after {ready if ready is None else round(ready, 3)} s", flush=True)
                next_cut = time.monotonic() + rng.uniform(0.5, 1.5) * args.cut_every
                before = (time.monotonic(), *cpu_ticks(pid), wakeups(pid))
                fresh = True
                continue
            if service.poll() is not None:
                raise SystemExit(f"the service exited with {service.returncode}: see {folder}")
            while True:
                try:
                    datagram = notify.recv(4096).decode()
                except BlockingIOError:
                    break
                for line in datagram.splitlines():
                    key, _, value = line.partition("=")
                    messages[key] = messages.get(key, 0) + 1
                    if key == "STATUS":
                        last_status = value
            now, own, kids, woken = time.monotonic(), *cpu_ticks(pid), wakeups(pid)
            kind = "screen saver" if "screen saver" in last_status else \
                   "lobby" if last_status.startswith("lobby") else "playing"
            if not fresh:  # the first interval is the start (imports, the journal's creation)
                seconds, ticks, woke = phases.setdefault(kind, [0.0, 0, 0])
                phases[kind] = [seconds + now - before[0], ticks + own - before[1],
                                woke + woken - before[3]]
            before = (now, own, kids, woken)
            fresh = False
            sizes = {p.name: p.stat().st_size for p in folder.glob("journal.sqlite3*")}
            row = dict(t=now - started, **status(pid), cpu=own / TICK, kids_cpu=kids / TICK,
                       log=(folder / "stderr.log").stat().st_size,
                       journal=sum(sizes.values()), kind=kind)
            rows.append(row)
            print(f"{row['t']:7.0f} s  RSS {row['VmRSS'] / 1024:5.1f} MiB  fds {row['fds']:3d}  "
                  f"threads {row['Threads']:2d}  children {row['children']} "
                  f"({row['kids_rss'] / 1024:.1f} MiB)  "
                  f"cpu {row['cpu']:7.2f} s (+{row['kids_cpu']:.2f} s children)  "
                  f"log {row['log']:8,d} B  journal {row['journal']:10,d} B  {kind}", flush=True)
    finally:
        service.send_signal(signal.SIGTERM)
        service.wait(timeout=30)
        notify.close()
    if cuts:
        readies = sorted(c["ready"] for c in cuts if c["ready"] is not None)
        print(f"\n{len(cuts)} power cuts: entries lost {sum(c['lost'] for c in cuts)}; "
              f"READY again after median {readies[len(readies) // 2]:.2f} s, max {readies[-1]:.2f} s"
              f" ({len(cuts) - len(readies)} never READY within 30 s)" if readies else "no READY")
    first, last = rows[0], rows[-1]
    hours = (last["t"] - first["t"]) / 3600
    print(f"\n{args.mode}: {rows[-1]['t'] / 60:.1f} min of the real service (pid {pid}, niced)")
    print(f"RSS {min(r['VmRSS'] for r in rows) / 1024:.1f}–{max(r['VmRSS'] for r in rows) / 1024:.1f} MiB"
          f" (first sample {first['VmRSS'] / 1024:.1f}, last {last['VmRSS'] / 1024:.1f});"
          f" open files {sorted({r['fds'] for r in rows})}; threads {sorted({r['Threads'] for r in rows})};"
          f" children {sorted({r['children'] for r in rows})}"
          f" ({min(r['kids_rss'] for r in rows) / 1024:.1f}–{max(r['kids_rss'] for r in rows) / 1024:.1f}"
          " MiB together)")
    for kind, (seconds, ticks, woke) in phases.items():
        print(f"CPU {kind}: {ticks / TICK:.2f} s in {seconds:.0f} s = {100 * ticks / TICK / seconds:.3f} %"
              f" of one core; woken {woke / seconds:.2f} times a second")
    print(f"stderr: {first['log']:,d} B at the first sample (the start), then"
          f" {last['log'] - first['log']:,d} B in {hours * 60:.1f} min ="
          f" {(last['log'] - first['log']) / hours:,.0f} B an hour; sd_notify messages: {messages}")
    print(f"journal: {first['journal']:,d} B at the first sample, {last['journal']:,d} B at the last"
          f" ({(last['journal'] - first['journal']) / max(hours, 1e-9):,.0f} B an hour)")
    if args.keep:
        print(f"files kept in {folder}")
    else:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
