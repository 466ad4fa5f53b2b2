"""Which process holds an flock on a file: the journal, a seat node's port.

A refusal that says only "in use" leaves the builder guessing which program to
stop (the service, a second `golfbox run`, a terminal program on the port).
Linux lists every lock in /proc/locks with the PID that took it; the PID's
command line is added when /proc lets this user read it (the service's
ProtectProc=invisible hides other users' processes from it).
"""

from __future__ import annotations

import os
from pathlib import Path

PROC_LOCKS = Path("/proc/locks")
LONGEST = 200  # characters of a command line said


def flock_holder(path: os.PathLike | str) -> str | None:
    """'PID 1234 (golfbox run --config …)', or 'PID 1234' when its command line cannot
    be read, of a process holding an flock on ``path``; None when none can be found
    (no /proc, a PID outside this namespace, a file gone)."""
    pid = _flock_pid(path)
    if pid is None:
        return None
    command = _command_line(pid)
    return f"PID {pid} ({command})" if command else f"PID {pid}"


def _flock_pid(path: os.PathLike | str) -> int | None:
    try:
        info = os.stat(path)
        lines = PROC_LOCKS.read_text().splitlines()
    except OSError:
        return None
    # "3: FLOCK  ADVISORY  WRITE 22889 fe:00:2285734 0 EOF"; a waiter's has "->" after
    # the number: it holds nothing.
    file = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    for line in lines:
        fields = line.split()
        if len(fields) >= 6 and fields[1] == "FLOCK" and fields[5] == file:
            pid = int(fields[4]) if fields[4].isdigit() else 0
            if pid > 0:  # -1 or 0: a holder in another PID namespace
                return pid
    return None


def _command_line(pid: int) -> str:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return ""
    words = [os.fsdecode(word) for word in raw.split(b"\0") if word]
    # The program, not the interpreter: the console script and `python -m golfbox` are
    # both "golfbox run …", and /opt/golfbox/venv/bin/golfbox is "golfbox".
    if words and Path(words[0]).name.startswith("python"):
        words = words[2:] if words[1:2] == ["-m"] else words[1:]
    if words:
        words[0] = Path(words[0]).name
    text = " ".join(" ".join(words).split())  # one line, whatever the arguments hold
    text = "".join(c if c.isprintable() else "?" for c in text)
    return text if len(text) <= LONGEST else text[:LONGEST - 1] + "…"
