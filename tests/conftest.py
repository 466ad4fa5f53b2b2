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

from golfbox.hal.base import Button
from golfbox.hal.sim import SimDisplay, SimPad
from golfbox.table.assemble import assemble_table
from golfbox.table.journal import Journal
from golfbox.table.settings import TableSettings
from golfbox.table.timers import ManualClock


@pytest.fixture(autouse=True)
def service_state_directory(tmp_path, monkeypatch) -> Path:
    """systemd's StateDirectory= for every test: `golfbox run --config F` keeps its
    journal and its last good config there, which is otherwise /var/lib/golfbox. A
    test never writes the machine's, nor runs on a copy another run left there."""
    state = tmp_path / "state-directory"
    monkeypatch.setenv("STATE_DIRECTORY", str(state))
    return state


@pytest.fixture(autouse=True)
def no_pi_supply(tmp_path_factory, monkeypatch) -> None:
    """No sysfs for golfbox.hal.power (a folder never made): on a Pi whose supply sags,
    check-hardware exits 1 and the table logs it; the tests' results must not hang on
    the machine's supply. Not a tmp_path: that is a folder made for every test."""
    monkeypatch.setenv("GOLFBOX_SYSFS", str(tmp_path_factory.getbasetemp() / "no-sysfs"))


@pytest.fixture
def pi_sysfs(tmp_path, monkeypatch) -> Path:
    """Where GOLFBOX_SYSFS points for this test: a test lays out its own tree there
    (tests/test_power.py)."""
    sysfs = tmp_path / "sysfs"
    monkeypatch.setenv("GOLFBOX_SYSFS", str(sysfs))
    return sysfs


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


class RecordingJournal(Journal):
    """A real journal that also keeps what was recorded, to replay it in the engine."""

    def __init__(self, path):
        super().__init__(path)
        self.recorded: list[tuple[int | None, str]] = []

    def record(self, match_id, seat, action):
        seq = super().record(match_id, seat, action)
        self.recorded.append((seat, action))
        return seq


class SimTestTable:
    """A whole table on sim hardware, driven from the test's thread: press, hold, then look."""

    def __init__(self, tmp_path, clock=None, journal=True, shared_size=(256, 64), faults=(),
                 **settings):
        settings.setdefault("bot_delay", 0.0)
        self.settings = TableSettings(**settings)
        seats = range(self.settings.seats)
        self.clock = clock or ManualClock(1000.0)
        self.pad = SimPad(seats, self.clock)
        self.displays = {seat: SimDisplay(f"seat {seat + 1}") for seat in seats}
        self.shared = SimDisplay("shared", shared_size, "L" if shared_size[0] > 128 else "1")
        if journal is True:
            journal = RecordingJournal(tmp_path / "journal.sqlite3")
        self.journal = journal or None  # or a journal the test made (on tmp_path)
        self.service = assemble_table(self.settings, [self.pad], self.displays, self.shared,
                                    self.journal, clock=self.clock, faults=faults)

    def press(self, seat, *buttons):
        for button in buttons:
            self.pad.press(seat, button)
            self.service.run_until_idle()

    def hold(self, seat, button):
        self.pad.hold(seat, button)
        self.service.run_until_idle()

    def deal(self, *seats):
        """The people at ``seats`` join the lobby (●) and the first deals (hold ●)."""
        for seat in seats:
            self.press(seat, Button.OK)
        self.hold(seats[0], Button.OK)

    def play_to_the_result(self, *seats, step=1.0, tries=2000):
        """The people at ``seats`` (seat 0 if none) press ● whenever they may act and on
        each reveal (the choice under the cursor), ``step`` seconds passing between; bots
        play on their timers. Returns the service, at the match's result."""
        svc = self.service
        for _ in range(tries):
            if svc.state == "match_over":
                return svc
            for seat in seats or (0,):
                if svc.state == "round_over" or svc.match.round.legal_actions(seat):
                    self.press(seat, Button.OK)
            self.clock.advance(step)
            svc.run_until_idle()
        raise AssertionError(f"no result: {svc.state}")


@pytest.fixture
def sim_table(tmp_path, clock):
    """sim_table(variant="6-card", seats=3, …): a SimTestTable with its journal in tmp_path
    (a second one there resumes the first's match) and the test's clock."""
    def make(clock=clock, **settings) -> SimTestTable:
        return SimTestTable(tmp_path, clock=clock, **settings)
    return make


@pytest.fixture
def mock_pins(monkeypatch):
    """gpiozero's mock pins, chosen the way production chooses lgpio: by the environment."""
    gpiozero = pytest.importorskip("gpiozero")
    from gpiozero.pins.mock import MockFactory

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    previous = gpiozero.Device.pin_factory
    gpiozero.Device.pin_factory = None  # gpiozero builds the factory named in the environment
    gpiozero.Device.ensure_pin_factory()
    assert isinstance(gpiozero.Device.pin_factory, MockFactory)
    yield gpiozero.Device.pin_factory
    gpiozero.Device.pin_factory.reset()
    gpiozero.Device.pin_factory = previous


@pytest.fixture
def closed_switch(mock_pins):
    """``closed_switch(22)``: GPIO22's button is down before anything sets its pin up (a
    cup on it, a short). A MockPin driven low first is pulled high by the pull-up, as a
    floating pin would be; a closed switch holds it low. drive_high() lets it go."""
    from gpiozero.pins.mock import MockPin

    class ClosedSwitchPin(MockPin):
        def _set_pull(self, value):
            self._pull = value  # the switch wins over the pull-up

    return lambda gpio: mock_pins.pin(gpio, pin_class=ClosedSwitchPin)


STUCK_BOT = '''
import threading


class StuckBot:
    """A bot with a bug that raises nothing: its choice never comes."""
    name = "stuck"
    thinks_long = True  # the table asks it in the worker

    def __init__(self, rng):
        pass

    def choose(self, view):
        threading.Event().wait()
'''


@pytest.fixture
def stuck_bot_site(tmp_path, monkeypatch) -> Path:
    """A folder on PYTHONPATH whose sitecustomize gives every new interpreter (the bots'
    worker) a bot named "stuck" that hangs; the folder, for this process to import too."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "stuck_bot.py").write_text(STUCK_BOT)
    (site / "sitecustomize.py").write_text(
        "import stuck_bot\nfrom golfbox import bots\nbots.BOTS['stuck'] = stuck_bot.StuckBot\n")
    monkeypatch.setenv("PYTHONPATH", str(site))
    return site
