"""What Linux's /proc says of a running process, for the benches that watch one:
soak.py (the service, from outside), evening.py (itself, and its table process),
gpio_idle.py (the threads of a pad).

A process is its pid, or "self".
"""

from __future__ import annotations

import os
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")


def children(pid: int | str = "self") -> list[int]:
    """The processes this one started that still run (the hard bot's worker,
    multiprocessing's resource tracker), whichever of its threads started them."""
    kids = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            kids += [int(c) for c in (task / "children").read_text().split()]
        except FileNotFoundError:
            pass
    return kids


def cpu_ticks(pid: int | str = "self") -> tuple[int, int]:
    """(utime + stime of the process, of its children still running), in clock ticks."""
    return _ticks(pid), sum(_ticks(child) for child in children(pid))


def _ticks(pid: int | str) -> int:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0
    return int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)


def _status(pid: int | str) -> dict[str, int]:
    """VmRSS (KiB) and Threads (the OS's count: threads Python did not start too)."""
    fields = {}
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except FileNotFoundError:
        return {}
    for line in lines:
        key, _, value = line.partition(":")
        if key in ("VmRSS", "Threads"):
            fields[key] = int(value.split()[0])
    return fields


def switches(pid: int | str = "self") -> dict[int, int]:
    """Voluntary context switches of each of the process's threads, by thread id: how
    often it slept and was woken (a loop polling every second adds one a second)."""
    counts = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            for line in (task / "status").read_text().splitlines():
                if line.startswith("voluntary_ctxt_switches:"):
                    counts[int(task.name)] = int(line.split()[1])
        except FileNotFoundError:  # a thread that ended meanwhile
            pass
    return counts


def wakeups(pid: int | str = "self") -> int:
    """The voluntary context switches of all the process's threads together."""
    return sum(switches(pid).values())


def status(pid: int | str = "self") -> dict[str, int]:
    """VmRSS (KiB), Threads, fds (open files), children and kids_rss (their VmRSS
    together, KiB)."""
    fields = _status(pid)
    fields["fds"] = len(os.listdir(f"/proc/{pid}/fd"))
    kids = children(pid)
    fields["children"] = len(kids)
    fields["kids_rss"] = sum(_status(child).get("VmRSS", 0) for child in kids)
    return fields


def io_counters(pid: int | str = "self") -> dict[str, int]:
    """/proc/PID/io: wchar (bytes handed to write calls) and write_bytes (bytes the
    process sent, or caused to be sent, to the disk: the pages it dirtied, an mmap's
    such as SQLite's -shm too), among others."""
    counters = {}
    for line in Path(f"/proc/{pid}/io").read_text().splitlines():
        key, _, value = line.partition(":")
        counters[key] = int(value)
    return counters
