"""The systemd notify protocol (sd_notify), with nothing but the standard library.

Under ``Type=notify`` systemd passes ``NOTIFY_SOCKET``, an AF_UNIX datagram
socket (a path, or ``@name`` for the abstract namespace); each datagram is
newline-separated ``KEY=value`` lines. With ``WatchdogSec=`` it also passes
``WATCHDOG_USEC`` (and ``WATCHDOG_PID``: the watchdog is ours only if it is
our pid), and expects ``WATCHDOG=1`` more often than that: we ping at half.

Outside systemd (a laptop, tests) NOTIFY_SOCKET is unset and every call is a
no-op, so the table service can call these unconditionally::

    notifier = Notifier.from_environment()
    notifier.ready("table of 4")
    while running:
        ...                       # every notifier.watchdog_interval seconds:
        notifier.watchdog()
    notifier.stopping()

A failed send is logged and reported as False, never raised: losing systemd
must not stop a game (systemd will act on the missing pings itself).
"""

from __future__ import annotations

import logging
import os
import socket
from typing import Mapping

log = logging.getLogger(__name__)


class NotifyError(ValueError):
    """The environment systemd gave us is malformed."""


class Notifier:
    """Sends state changes to the service manager."""

    def __init__(self, address: str | None, watchdog_usec: int | None = None):
        """``address``: NOTIFY_SOCKET's value (None: do nothing).
        ``watchdog_usec``: the watchdog timeout in microseconds, if ours."""
        self.address = address
        self.watchdog_usec = watchdog_usec
        self._socket: socket.socket | None = None
        self._failed = 0  # sends failed since the last that worked

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> Notifier:
        """Read NOTIFY_SOCKET, WATCHDOG_USEC and WATCHDOG_PID (from os.environ by default)."""
        environ = os.environ if environ is None else environ
        address = environ.get("NOTIFY_SOCKET") or None
        if address is not None and not address.startswith(("/", "@")):
            raise NotifyError(f"NOTIFY_SOCKET={address!r} is neither an absolute path nor an @abstract name")
        return cls(address, _watchdog_usec(environ))

    @property
    def enabled(self) -> bool:
        return self.address is not None

    @property
    def watchdog_interval(self) -> float | None:
        """Seconds between watchdog() calls: half the timeout, or None without a watchdog."""
        if self.watchdog_usec is None:
            return None
        return self.watchdog_usec / 2 / 1_000_000

    def ready(self, status: str | None = None) -> bool:
        """Start-up is complete (Type=notify units count as started only now)."""
        return self.send(READY="1", STATUS=status)

    def status(self, text: str) -> bool:
        """A one-line status, shown by `systemctl status`."""
        return self.send(STATUS=text)

    def watchdog(self) -> bool:
        """Still alive: call every watchdog_interval seconds from the main loop."""
        return self.send(WATCHDOG="1")

    def stopping(self, status: str | None = None) -> bool:
        """Shutdown has begun."""
        return self.send(STOPPING="1", STATUS=status)

    def send(self, **fields: str | None) -> bool:
        """Send KEY=value fields (None values are left out) in one datagram.

        Returns True if sent, False when disabled or the send failed.
        """
        if self.address is None:
            return False
        message = "\n".join(f"{key}={_one_line(value)}" for key, value in fields.items() if value is not None)
        try:
            if self._socket is None:
                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._socket.sendto(message.encode(), _socket_address(self.address))
        except OSError as exc:
            # Said once: the watchdog pings every few seconds and each turn sets the
            # status, a line each all evening. Counted, and said when a send works.
            self._failed += 1
            log.log(logging.WARNING if self._failed == 1 else logging.DEBUG,
                    "cannot notify systemd at %s: %s", self.address, exc)
            return False
        if self._failed:
            log.info("notifying systemd at %s again, after %d failed sends", self.address,
                     self._failed)
            self._failed = 0
        return True

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None

    def __enter__(self) -> Notifier:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _watchdog_usec(environ: Mapping[str, str]) -> int | None:
    usec = environ.get("WATCHDOG_USEC")
    if not usec:
        return None
    pid = environ.get("WATCHDOG_PID")
    if pid:
        if not pid.isdigit():
            raise NotifyError(f"WATCHDOG_PID={pid!r} is not a process id")
        if int(pid) != os.getpid():
            return None  # meant for another process (we were started by the watched one)
    if not usec.isdigit() or int(usec) == 0:
        raise NotifyError(f"WATCHDOG_USEC={usec!r} is not a positive number of microseconds")
    return int(usec)


def _socket_address(address: str) -> str:
    # "@name" is Linux's abstract namespace, spelled with a leading NUL byte.
    return "\0" + address[1:] if address.startswith("@") else address


def _one_line(value: str) -> str:
    # A newline would start a new KEY=value field: keep status texts to one line.
    return " ".join(str(value).splitlines())
