"""Fixtures shared by several test files."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

# The same examples on every run, so CI is never red by the luck of a draw; a new search
# for bugs: HYPOTHESIS_PROFILE=explore make test (what it finds becomes a test of its own).
settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

from golfbox.table.timers import ManualClock


@pytest.fixture
def clock() -> ManualClock:
    """Time that passes only when a test says so (``clock.advance(seconds)``)."""
    return ManualClock(1000.0)


@pytest.fixture
def ram_path(tmp_path) -> Path:
    """A temporary folder in memory (/dev/shm) when there is one, else tmp_path.

    For tests that open hundreds of journals whose durability is not the point
    (a simulated kill, a damaged copy): each commit's fsync costs nothing there,
    so they stay fast on a busy disk."""
    if not (os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK)):
        yield tmp_path
        return
    path = Path(tempfile.mkdtemp(prefix="golfbox-test-", dir="/dev/shm"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
