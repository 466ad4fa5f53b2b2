"""A service started as systemd starts a Type=notify unit, for the tests that run the
real `golfbox run`: NOTIFY_SOCKET is a socket bound here, and the test waits for the
datagrams it wants (READY=1, WATCHDOG=1) before it stops the service with SIGTERM.

Its output is read all along, on a thread: read only once it was READY, a service
that wrote more than a pipe holds (64 KiB) before READY would block in its write and
never be. A wait that runs out says what the service was doing: the datagrams, its
output, each thread's kernel wait and (faulthandler) its Python stacks."""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable, Iterator

# A socket's address holds 107 bytes of path (sun_path): in a deep tmp_path (a long
# TMPDIR, as macOS's /var/folders/…/T/) bind() fails with "AF_UNIX path too long".
SUN_PATH_MAX = 107


@contextlib.contextmanager
def bindable(path: Path | str) -> Iterator[Path]:
    """``path``, or if it is too long to bind a socket at, the same name in a short
    folder of its own under /tmp, removed afterwards."""
    path = Path(path)
    if len(os.fsencode(path)) <= SUN_PATH_MAX:
        yield path
        return
    folder = tempfile.mkdtemp(prefix="golfbox-sock-", dir="/tmp")
    try:
        yield Path(folder) / path.name
    finally:
        shutil.rmtree(folder, ignore_errors=True)


class NotifyingService:
    """``argv`` run with NOTIFY_SOCKET=``sock_path`` (bound here); ``env`` as os.environ's."""

    def __init__(self, argv: list[str], sock_path: Path | str, *, env: dict[str, str] | None = None,
                 cwd: Path | None = None):
        self.seen: list[str] = []  # the datagrams received, oldest first
        self._chunks: list[bytes] = []
        self._cleanup = contextlib.ExitStack()
        sock_path = self._cleanup.enter_context(bindable(sock_path))
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        try:
            self._sock.bind(str(sock_path))
            env = dict(os.environ if env is None else env, NOTIFY_SOCKET=str(sock_path),
                       PYTHONFAULTHANDLER="1")  # SIGABRT prints every thread's stack
            self.process = subprocess.Popen(
                argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT)
        except BaseException:
            self._sock.close()
            self._cleanup.close()
            raise
        self._reader = threading.Thread(target=self._read, daemon=True, name="service-output")
        self._reader.start()

    def _read(self) -> None:
        while chunk := os.read(self.process.stdout.fileno(), 65536):
            self._chunks.append(chunk)

    @property
    def output(self) -> str:
        """What it wrote (stdout and stderr) so far."""
        return b"".join(self._chunks).decode(errors="replace")

    def wait_for(self, wanted: Callable[[list[str]], bool], seconds: float) -> bool:
        """Receive datagrams until ``wanted(self.seen)``: True, or False if the service
        exited first. AssertionError, saying what it was doing, if ``seconds`` pass."""
        deadline = time.monotonic() + seconds
        while not wanted(self.seen):
            if self.process.poll() is not None:
                return False
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(self._stuck(f"nothing wanted in {seconds:g} s"))
            self._sock.settimeout(min(0.2, left))
            try:
                self.seen.append(self._sock.recv(65536).decode())
            except TimeoutError:
                pass
        return True

    def wait_ready(self, seconds: float = 30) -> bool:
        return self.wait_for(lambda seen: any("READY=1" in m.splitlines() for m in seen), seconds)

    def stop(self, seconds: float = 60) -> int:
        """SIGTERM if it runs, then wait(seconds)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.wait(seconds, "after SIGTERM")

    def wait(self, seconds: float, after: str = "") -> int:
        """Its exit status once it exited and its output ended; the datagrams it sent
        meanwhile (STOPPING=1) are in ``seen``. AssertionError if it runs ``seconds`` on."""
        try:
            self.process.wait(seconds)
        except subprocess.TimeoutExpired:  # say what it did rather than only that it hung
            raise AssertionError(self._stuck(f"no exit {seconds:g} s {after}".strip())) from None
        # The output ends with the last process holding the pipe (a bots' worker after it).
        self._reader.join(seconds)
        self._sock.setblocking(False)
        while True:
            try:
                self.seen.append(self._sock.recv(65536).decode())
            except BlockingIOError:
                break
        return self.process.returncode

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self._reader.join(10)
        if not self._reader.is_alive():  # else a process it started holds the pipe still
            self.process.stdout.close()
        self._sock.close()
        self._cleanup.close()

    def __enter__(self) -> NotifyingService:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _stuck(self, why: str) -> str:
        """``why`` the test gave up on the service, and what it was doing; it is ended."""
        pid = self.process.pid
        waits = []
        for task in sorted(Path(f"/proc/{pid}/task").glob("*")):
            try:  # the kernel function each thread sleeps in: pipe_write, a futex …
                state = (task / "stat").read_text().rsplit(")", 1)[1].split()[0]
                waits.append(f"{task.name} {state} {(task / 'wchan').read_text() or '-'}")
            except OSError:
                pass
        if self.process.poll() is None:
            try:
                resource.prlimit(pid, resource.RLIMIT_CORE, (0, 0))  # the stacks, not a core
            except OSError:
                pass
            self.process.send_signal(signal.SIGABRT)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._reader.join(10)
        return (f"{why}; datagrams: {self.seen}\n"
                f"threads (id, state, kernel wait): {waits}\n"
                f"output (with the Python stacks at SIGABRT):\n{self.output}")


def golfbox(*args: str) -> list[str]:
    """The argv of `golfbox ARGS` in this interpreter."""
    return [sys.executable, "-m", "golfbox", *args]


def stderr_until_ready(proc: subprocess.Popen, seconds: float = 60) -> list[str]:
    """The lines ``proc`` (a `golfbox run` with stderr piped, as text) writes up to its
    log's "table ready", or all of them if it ends first. One stuck before it is killed
    after ``seconds``: its stderr then closes, and the read ends."""
    hung = threading.Timer(seconds, proc.kill)
    hung.start()
    try:
        lines = []
        for line in proc.stderr:
            lines.append(line)
            if "table ready" in line:
                break
        return lines
    finally:
        hung.cancel()
