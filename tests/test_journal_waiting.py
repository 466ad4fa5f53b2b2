"""A journal that cannot be opened at start for a reason that may pass (the SD card
full): the table's displays say so while it waits, and it plays once there is room.

Before, the hardware was built only once the journal opened: every display stayed
dark (or showed what it last showed) and only journalctl said why.
"""

from __future__ import annotations

import os
import resource
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from goldens import golden_path
from golfbox.commands import run as service_cli
from golfbox.hal import build
from golfbox.hal.base import Button
from golfbox.hal.config import parse_config
from golfbox.render.table import render_notice
from golfbox.table.journal import Journal
from running_table import serve_beside

CONFIG = {"seats": [{"backend": "sim"}, {"backend": "sim"}],
          "shared_display": {"driver": "sim"}}
JOURNAL_RETRY_ON_A_PI = service_cli.JOURNAL_RETRY


@pytest.fixture
def full_sd_card(tmp_path):
    """A tmpfs of 256 KiB, filled: the journal's file can be made, its -wal cannot."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    card = tmp_path / "sd"
    card.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(card)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        filler = os.open(card / "filler", os.O_WRONLY | os.O_CREAT)
        try:
            while os.write(filler, b"\0" * 4096):
                pass
        except OSError:  # ENOSPC: full
            pass
        finally:
            os.close(filler)
        yield card
    finally:
        subprocess.run(["umount", "-l", str(card)], check=True)


def wait_for(condition, what: str, timeout: float = 15.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError(f"waited {timeout:g} s for {what}")


def same(image: Image.Image, golden: Path) -> bool:
    expected = Image.open(golden).convert(image.mode)
    return image.size == expected.size and ImageChops.difference(image, expected).getbbox() is None


def test_a_full_sd_card_at_start_is_shown_on_the_displays_until_there_is_room(
        full_sd_card, monkeypatch, tmp_path):
    monkeypatch.setattr(service_cli, "JOURNAL_RETRY", 0.2)  # 5 s between tries on a Pi
    built = []
    real_build = build.build_hardware

    def build_hardware(*args, **kwargs):  # the same hardware from the wait into the table
        built.append(real_build(*args, **kwargs))
        return built[-1]

    monkeypatch.setattr(build, "build_hardware", build_hardware)
    seen = {}

    def meanwhile(_served):
        hardware = wait_for(lambda: built and built[0], "the hardware")
        shared, seat = hardware.shared_display.inner, hardware.seat_displays[0].inner
        seen["waiting"] = wait_for(lambda: shared.image, "the shared display's message")
        seen["seat waiting"] = wait_for(lambda: seat.image, "seat 1's message")
        seen["waiting"].save(tmp_path / "waiting.png")
        time.sleep(0.5)  # a few tries more: still waiting, the message unchanged
        seen["still"] = shared.image
        hardware.sim_pad.press(1, Button.OK)  # at a screen that says "waiting": for nothing
        (full_sd_card / "filler").unlink()  # room made
        seen["lobby"] = wait_for(lambda: shared.image is not seen["waiting"] and shared.image,
                                 "the lobby")
        hardware.sim_pad.press(0, Button.OK)  # seat 1 joins the table that now plays
        seen["joined"] = wait_for(lambda: shared.image is not seen["lobby"] and shared.image,
                                  "seat 1's join")

    journal = full_sd_card / "journal.sqlite3"
    assert serve_beside(lambda: service_cli.serve(parse_config(CONFIG), journal), meanwhile) == 0
    assert same(seen["waiting"], golden_path("notice_disk_full")), tmp_path / "waiting.png"
    assert same(seen["seat waiting"].convert("L"), golden_path("notice_disk_full_seat"))
    assert seen["still"] is seen["waiting"]
    assert not same(seen["lobby"], golden_path("notice_disk_full"))
    assert seen["joined"].tobytes() != seen["lobby"].tobytes()
    assert len(built) == 1  # not built again for the table: no flicker to black
    with Journal(journal) as kept:  # seat 2's ● while it waited joined nobody
        assert kept.saved_lobby()["joined"] == [0]


def no_file_may_grow() -> None:
    """In the child: RLIMIT_FSIZE 0 stands for the full disk (SQLite's writes fail as
    they would there), SIGXFSZ ignored so that a write fails instead of killing it."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, resource.RLIM_INFINITY))


def test_golfbox_run_says_why_it_waits_in_its_status_and_starts_once_writes_pass(tmp_path):
    """The real command, as systemd starts it: STATUS= says why it waits, READY=1 comes
    once the journal opens (the limit lifted from outside, as room made on a disk)."""
    config = tmp_path / "config.toml"
    config.write_text('[[seats]]\nbackend = "sim"\n' * 2 + '[shared_display]\ndriver = "sim"\n')
    journal = tmp_path / "journal.sqlite3"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(tmp_path / "notify.sock"))
        sock.settimeout(30)
        process = subprocess.Popen(
            [sys.executable, "-m", "golfbox", "run", "--config", str(config),
             "--journal", str(journal)],
            env=dict(os.environ, NOTIFY_SOCKET=str(tmp_path / "notify.sock"),
                     PYTHONDONTWRITEBYTECODE="1"),
            preexec_fn=no_file_may_grow, stderr=subprocess.PIPE, text=True)
        try:
            waiting = sock.recv(4096).decode()
            resource.prlimit(process.pid, resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY,) * 2)
            said = []
            while "READY=1" not in said:  # the lobby's STATUS= comes first
                said += sock.recv(4096).decode().splitlines()
        finally:
            process.send_signal(signal.SIGTERM)
            _, stderr = process.communicate(timeout=30)
    assert waiting == f"STATUS=waiting: journal {journal}: cannot open (disk I/O error)", stderr
    assert process.returncode == 0, stderr
    assert "table ready in" in stderr


def test_a_stop_while_the_start_waits_for_room_leaves_paused_on_the_displays(
        full_sd_card, monkeypatch, tmp_path):
    """systemd's stop (SIGTERM) while the start waited for room ended the process at once
    (the table's handlers come later): "the disk is full: the table starts once there is
    room" stayed on the displays of a table that was stopped, a start promised that does
    not come. Now the wait ends as the table's stop does: "paused" on every display, exit
    0. (Here, serve_beside's handler stands in for the old default action: SIGTERM ignored
    until serve() takes it, the start went on waiting its 30 s.)"""
    built = []
    real_build = build.build_hardware

    def build_hardware(*args, **kwargs):
        built.append(real_build(*args, **kwargs))
        return built[-1]

    monkeypatch.setattr(build, "build_hardware", build_hardware)
    stopped_at = []

    def meanwhile(_served):
        hardware = wait_for(lambda: built and built[0], "the hardware")
        wait_for(lambda: hardware.seat_displays[1].inner.image, "seat 2's message")
        time.sleep(0.2)  # into the sleep between two tries (5 s)
        stopped_at.append(time.monotonic())  # SIGTERM comes as this returns

    journal = full_sd_card / "journal.sqlite3"
    assert serve_beside(lambda: service_cli.serve(parse_config(CONFIG), journal), meanwhile) == 0
    assert time.monotonic() - stopped_at[0] < JOURNAL_RETRY_ON_A_PI  # not at the next try
    hardware = built[0]
    shared = hardware.shared_display.inner
    shared.image.save(tmp_path / "stopped.png")
    assert same(shared.image, golden_path("notice_paused")), tmp_path / "stopped.png"
    for n in (0, 1):  # as on the waiting screen (notice_disk_full_seat), its name above
        seat = hardware.seat_displays[n].inner
        paused = render_notice(seat.size, f"P{n + 1}", "paused", ["P1", "P2"])
        assert seat.image.tobytes() == paused.convert(seat.mode).tobytes()
    assert shared.closed and len(built) == 1


def test_golfbox_run_stopped_while_it_waits_exits_0_and_says_it_stops(tmp_path):
    """The real command: it was killed by the SIGTERM (status -15, no STOPPING=1)."""
    config = tmp_path / "config.toml"
    config.write_text('[[seats]]\nbackend = "sim"\n' * 2 + '[shared_display]\ndriver = "sim"\n')
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(tmp_path / "notify.sock"))
        sock.settimeout(30)
        process = subprocess.Popen(
            [sys.executable, "-m", "golfbox", "run", "--config", str(config),
             "--journal", str(tmp_path / "journal.sqlite3")],
            env=dict(os.environ, NOTIFY_SOCKET=str(tmp_path / "notify.sock"),
                     PYTHONDONTWRITEBYTECODE="1"),
            preexec_fn=no_file_may_grow, stderr=subprocess.PIPE, text=True)
        try:
            assert sock.recv(4096).decode().startswith("STATUS=waiting: ")
            process.send_signal(signal.SIGTERM)
            sock.settimeout(10)
            try:
                stopping = sock.recv(4096).decode()
            except TimeoutError:  # killed by it: nothing sent
                stopping = ""
        finally:
            try:
                _, stderr = process.communicate(timeout=30)
            finally:
                process.kill()
    assert process.returncode == 0, stderr
    assert stopping.splitlines() == ["STOPPING=1", "STATUS=paused"]
    assert "SIGTERM: stopped while waiting for the journal" in stderr
