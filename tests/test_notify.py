"""sd_notify over a real AF_UNIX datagram socket standing in for systemd."""

from __future__ import annotations

import os
import socket
import uuid

import pytest

from golfbox.table.notify import Notifier, NotifyError

from fake_systemd import bindable


@pytest.fixture
def manager(tmp_path):
    """A bound datagram socket playing systemd; yields (its NOTIFY_SOCKET value, the socket)."""
    with bindable(tmp_path / "notify") as path, socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(path))
        sock.settimeout(2)
        yield str(path), sock


def received(sock: socket.socket) -> str:
    return sock.recv(4096).decode()


def test_each_call_sends_its_datagram(manager):
    address, sock = manager
    with Notifier.from_environment({"NOTIFY_SOCKET": address}) as notifier:
        assert notifier.enabled
        assert notifier.ready()
        assert received(sock) == "READY=1"
        assert notifier.ready("table of 4")
        assert received(sock) == "READY=1\nSTATUS=table of 4"
        assert notifier.status("round 3\nseat 2 to play")
        assert received(sock) == "STATUS=round 3 seat 2 to play"  # kept to one field
        assert notifier.watchdog()
        assert received(sock) == "WATCHDOG=1"
        assert notifier.stopping("saving")
        assert received(sock) == "STOPPING=1\nSTATUS=saving"


def test_abstract_socket_names_are_understood():
    name = f"golfbox-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(2)
        notifier = Notifier.from_environment({"NOTIFY_SOCKET": "@" + name})
        assert notifier.ready()
        assert received(sock) == "READY=1"
        notifier.close()


def test_without_notify_socket_everything_is_a_quiet_no_op():
    notifier = Notifier.from_environment({})
    assert not notifier.enabled
    assert notifier.watchdog_interval is None
    assert [notifier.ready(), notifier.status("x"), notifier.watchdog(), notifier.stopping()] == [False] * 4


def test_reads_os_environ_by_default(manager, monkeypatch):
    address, sock = manager
    monkeypatch.setenv("NOTIFY_SOCKET", address)
    monkeypatch.setenv("WATCHDOG_USEC", "10000000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    notifier = Notifier.from_environment()
    assert notifier.watchdog_interval == 5.0
    assert notifier.watchdog()
    assert received(sock) == "WATCHDOG=1"


@pytest.mark.parametrize(
    "environ, interval",
    [
        ({"WATCHDOG_USEC": "10000000"}, 5.0),
        ({"WATCHDOG_USEC": "3000000", "WATCHDOG_PID": str(os.getpid())}, 1.5),
        ({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": str(os.getpid() + 1)}, None),  # someone else's
        ({"WATCHDOG_PID": str(os.getpid())}, None),
        ({}, None),
    ],
)
def test_watchdog_interval_is_half_the_timeout_when_it_is_ours(environ, interval):
    assert Notifier.from_environment({"NOTIFY_SOCKET": "/run/x", **environ}).watchdog_interval == interval


@pytest.mark.parametrize(
    "environ, message",
    [
        ({"NOTIFY_SOCKET": "relative/path"}, "NOTIFY_SOCKET='relative/path'"),
        ({"WATCHDOG_USEC": "ten"}, "WATCHDOG_USEC='ten'"),
        ({"WATCHDOG_USEC": "0"}, "WATCHDOG_USEC='0'"),
        ({"WATCHDOG_USEC": "10", "WATCHDOG_PID": "me"}, "WATCHDOG_PID='me'"),
    ],
)
def test_a_malformed_environment_is_named(environ, message):
    with pytest.raises(NotifyError, match=message):
        Notifier.from_environment(environ)


def test_a_vanished_manager_is_logged_not_raised(tmp_path, caplog):
    notifier = Notifier.from_environment({"NOTIFY_SOCKET": str(tmp_path / "gone")})
    assert notifier.watchdog() is False
    assert "cannot notify systemd" in caplog.text


def test_a_manager_gone_for_the_evening_is_logged_once_and_its_return_once(tmp_path, caplog):
    """The watchdog pings every few seconds and the status changes at every turn: with
    the socket gone each send logged a warning, 720 an hour and more. The first failure
    is said, the others counted, and said when a send works again."""
    import logging

    caplog.set_level(logging.INFO, logger="golfbox.table.notify")
    with bindable(tmp_path / "notify") as path:
        notifier = Notifier.from_environment({"NOTIFY_SOCKET": str(path)})
        for _ in range(500):
            assert notifier.watchdog() is False
        assert [r.levelname for r in caplog.records] == ["WARNING"]
        assert "cannot notify systemd at " + str(path) in caplog.text
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.bind(str(path))  # it is back
            assert notifier.watchdog() and notifier.status("playing")
            assert received(sock) == "WATCHDOG=1"
        assert [r.levelname for r in caplog.records] == ["WARNING", "INFO"]
        assert "after 500 failed sends" in caplog.records[-1].getMessage()
        notifier.close()
