"""The fake systemd the service tests start `golfbox run` under (tests/fake_systemd.py)."""

from __future__ import annotations

import sys

import pytest

from fake_systemd import NotifyingService

# A service that writes ``sys.argv[1]`` bytes, then says READY=1 (unless "never") and
# waits for SIGTERM (or, "deaf", ignores it). It closes its socket: left to the
# finalizer, that formats a ResourceWarning with socket.__repr__, Python code where a
# SIGTERM sent at READY ran its handler, and the finalizer dropped the SystemExit.
SERVICE = """
import os, signal, socket, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN if sys.argv[2] == "deaf" else lambda *_: sys.exit(0))
sys.stdout.write("x" * int(sys.argv[1]) + "\\nwritten\\n")
sys.stdout.flush()
if sys.argv[2] != "never":
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify:
        notify.sendto(b"READY=1\\nSTATUS=up", os.environ["NOTIFY_SOCKET"])
while True:
    time.sleep(0.05)
"""


def service(tmp_path, written: int, ready: str = "ready") -> NotifyingService:
    return NotifyingService([sys.executable, "-c", SERVICE, str(written), ready],
                            tmp_path / "notify.sock")


def test_a_service_that_writes_more_than_a_pipe_holds_before_ready_is_ready(tmp_path):
    """Its output was read only once it was READY: one that wrote more than the pipe's
    64 KiB first blocked in its write, and the test waited for READY until its deadline."""
    with service(tmp_path, 1 << 20) as started:
        assert started.wait_ready(30), started.output
        assert started.stop() == 0
    assert started.output.endswith("x\nwritten\n") and len(started.output) == (1 << 20) + 9


def test_a_service_never_ready_is_shown_stuck(tmp_path):
    """The assert said only which datagrams came: its output (what it logged), where each
    thread waited and its Python stacks say what kept it."""
    with service(tmp_path, 10, ready="never") as started:
        with pytest.raises(AssertionError) as stuck:
            started.wait_ready(1)
    message = str(stuck.value)
    assert message.startswith("nothing wanted in 1 s; datagrams: []\n"), message
    assert "xxxxxxxxxx\nwritten\n" in message
    assert "kernel wait" in message and "Fatal Python error: Aborted" in message
    assert 'File "<string>", line 10 in <module>' in message  # the sleep in its loop
    assert started.process.returncode == -6  # SIGABRT, and no core left


def test_a_service_that_exits_before_ready_is_not_waited_for(tmp_path):
    with NotifyingService([sys.executable, "-c", "print('bye')"], tmp_path / "n.sock") as started:
        assert not started.wait_ready(30)
        assert started.stop() == 0
    assert started.output == "bye\n" and started.seen == []


def test_a_service_that_does_not_stop_is_shown_stuck(tmp_path):
    with service(tmp_path, 0, ready="deaf") as started:
        assert started.wait_ready(30)
        with pytest.raises(AssertionError) as stuck:
            started.stop(1)
    message = str(stuck.value)
    assert message.startswith("no exit 1 s after SIGTERM; datagrams: ['READY=1\\nSTATUS=up']")
    assert 'File "<string>", line 10 in <module>' in message  # its sleep
