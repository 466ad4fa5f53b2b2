"""``golfbox run``: the table service, as systemd starts it at boot.

    golfbox run [--config /etc/golfbox/config.toml] [--journal PATH] [--headless] [--new]

With no config file at the default path (a laptop), the simulated table runs
instead: golfbox.commands.sim (the terminal simulator) when it is there and
this is a terminal, else a headless sim table that logs what happens.

The journal is ``--journal``, else the config's ``[journal] path``, else
``$STATE_DIRECTORY/journal.sqlite3`` (systemd's StateDirectory=, i.e.
/var/lib/golfbox), else /var/lib/golfbox/journal.sqlite3 when a config file
is used, else ``$XDG_STATE_HOME/golfbox/journal.sqlite3``
(~/.local/state/golfbox/journal.sqlite3) on a laptop.

SIGTERM and SIGINT show "paused" on every display, close the journal and
exit 0; the match resumes at the next start.

After each start it keeps a copy of the config it started with, and a start
whose config is refused (a hand edit) runs on that copy, the refusal shown on
the shared display: see golfbox.table.last_good.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import logging
import os
import queue
import signal
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from golfbox.commands import NotNow, UsageError, config_usage_error, is_terminal
from golfbox.hal.config import ConfigError, HardwareConfig, sim_config
from golfbox.render.words import say
from golfbox.table import last_good
from golfbox.table.journal import Journal, JournalError, set_aside, taken
from golfbox.table.notify import Notifier, NotifyError
from golfbox.table.settings import settings_from_config

if TYPE_CHECKING:
    from golfbox.hal.build import Hardware
    from golfbox.table.settings import TableSettings

log = logging.getLogger(__name__)

DEFAULT_CONFIG = "/etc/golfbox/config.toml"
PI_JOURNAL = Path("/var/lib/golfbox/journal.sqlite3")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", default=DEFAULT_CONFIG, metavar="FILE",
                        help=f"the table's config file (default {DEFAULT_CONFIG}; "
                             "without it a simulated table runs)")
    parser.add_argument("--journal", metavar="PATH",
                        help="the journal file (default: [journal] path, else the state directory)")
    parser.add_argument("--headless", action="store_true",
                        help="with no config file: run the sim table without the terminal simulator")
    parser.add_argument("--new", action="store_true",
                        help="abandon the unfinished match in the journal and start afresh "
                             "(by default it resumes)")


def run(args: argparse.Namespace) -> int:
    if not args.config:
        raise UsageError("--config: an empty path is not a config file")
    config_path = Path(args.config)
    there = config_path.exists() or config_path.is_symlink()  # a folder, a dangling link: say so
    # Only a service (a state directory, or --journal) keeps and runs on a copy: None
    # for a run by hand (a laptop, `sudo golfbox run --config try.toml` on the Pi),
    # refused as before and keeping nothing: /var/lib/golfbox's copy is the service's own.
    copy = last_good.last_good_path(args.journal)
    # A config gone (moved aside to edit it, deleted) from a service that has started
    # with one runs on that, as a refused one does: not a simulated table with blank
    # displays. (A laptop has no state directory: its `golfbox run` is the simulator.)
    loaded = _load_or_last_good(config_path, copy, there=there) if there or copy else None
    if loaded is not None:
        config, refused = loaded
        return serve(config, journal_path(args.journal, config, laptop=False),
                     new=getattr(args, "new", False), config_file=config_path, keep_as=copy,
                     refused=refused)
    if args.config != DEFAULT_CONFIG:
        raise UsageError(f"--config {args.config}: no such file")
    # The terminal simulator needs a terminal; under a pipe or a service manager run headless.
    if not getattr(args, "headless", False) and is_terminal(sys.stdin) and is_terminal(sys.stdout):
        try:
            sim_cli = importlib.import_module("golfbox.commands.sim")
        except ModuleNotFoundError as exc:
            if exc.name != "golfbox.commands.sim":
                raise
        else:
            return int(sim_cli.run(args) or 0)
    config = sim_config()
    return serve(config, journal_path(args.journal, config, laptop=True),
                 note=f"no config at {DEFAULT_CONFIG}: running a headless simulated table",
                 new=getattr(args, "new", False))


def _load_or_last_good(path: Path, copy: Path | None, *,
                       there: bool = True) -> tuple[HardwareConfig, ConfigError | None] | None:
    """The config at ``path``, or (when it is refused) the copy of the last one a start
    ran on, with the refusal (its message one line naming ``path``); with no copy that
    loads, UsageError (exit 2), or None if nothing is ``there`` (no file, no link) to refuse."""
    gone = not path.exists()  # a link whose file was moved aside to edit is gone too
    try:
        return last_good.load_checked(path), None
    except ConfigError as exc:
        refusal = exc
    config = last_good.load_last_good(copy, path) if copy else None
    if config is None:  # a first boot: nothing to run on, as before
        if not there:
            return None
        raise UsageError(str(refusal)) from None
    refused = (ConfigError(None, message=f"{path}: {last_good.MISSING}") if gone else
               ConfigError(refusal.key, file=refusal.file,
                           message=str(config_usage_error(path, refusal))))
    # Nobody at the table reads the log: it runs on what last started, and says why.
    # If the edit changed the wiring too, the copy's pins may be wrong now: a part that
    # does not answer is shown as a fault of its own, as at any start.
    log.error("config refused: %s", refused)
    log.error("running on %s, the config the table last started with, until %s is mended "
              "and the service restarted (golfbox check-config %s)",
              last_good.running_on(config), path, path)
    return config, refused


def journal_path(override: str | None, config: HardwareConfig, *, laptop: bool) -> Path:
    if override is not None:
        if not override.strip():  # an empty --journal "" must not fall back on the default
            raise UsageError("--journal: an empty path is not a journal file")
        return Path(override)
    configured = config.journal.get("path")  # checked with the config (hal/config.py)
    if configured is not None:
        return Path(configured.strip())
    if os.environ.get("STATE_DIRECTORY"):  # systemd's StateDirectory= (the first one)
        return Path(os.environ["STATE_DIRECTORY"].split(":")[0]) / "journal.sqlite3"
    if not laptop:
        return PI_JOURNAL
    state_home = os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state"
    return Path(state_home) / "golfbox" / "journal.sqlite3"


def start_afresh(journal: Journal) -> None:
    """--new: the unfinished match (if any) is abandoned (kept in the journal), not
    resumed; a finished match's result still showing is left, not shown again."""
    unfinished = journal.unfinished()
    if unfinished is not None:
        journal.abandon(unfinished.id)
        log.info("journal: match %d abandoned (--new)", unfinished.id)
    shown = journal.result_shown()
    if shown is not None:
        journal.close_result(shown.id)
        log.info("journal: match %d's result left (--new)", shown.id)


# A journal that cannot be opened for a reason that may pass (a full disk, a lock) is
# tried again for this long before the start fails with exit status 1. systemd then
# starts it again; as each start lasts this long, its limit of 5 starts in 120 s is
# never reached, so the table comes back by itself once the disk has room. The wait
# stays well inside the unit's TimeoutStartSec (60 s).
JOURNAL_PATIENCE = 30.0
JOURNAL_RETRY = 5.0


def open_journal(path: Path, *, patience: float = JOURNAL_PATIENCE,
                 sleep: Callable[[float], None] = time.sleep) -> Journal:
    """Open the journal; a corrupt one is moved aside (kept for repair) and a fresh one
    begun; one that fails for a passing reason is tried again (JOURNAL_PATIENCE)."""
    waited = 0.0
    while True:
        try:
            return _open_or_set_aside(path)
        except JournalError as exc:
            if not exc.passing:
                raise UsageError(str(exc)) from None
            if waited >= patience:
                raise NotNow(f"{exc} (tried for {waited:g} s)") from None
            if waited == 0:
                log.warning("%s: trying again every %g s", exc, JOURNAL_RETRY)
            sleep(JOURNAL_RETRY)
            waited += JOURNAL_RETRY


def _open_showing_why(refused: JournalError, config: HardwareConfig, path: Path,
                      sink: Callable[[object], None], settings: TableSettings,
                      notifier: Notifier,
                      ) -> tuple[Journal, Hardware | None]:
    """The journal, opened once ``refused`` (a reason that may pass: a full SD card) has
    passed, and the hardware, built meanwhile to say why on its displays: nobody at the
    table reads the log. Holding the journal's file (as check-hardware does) keeps a
    second golfbox off the displays; if one holds it, its hardware is left alone and the
    start waits as it always did. Past JOURNAL_PATIENCE, NotNow (exit 1) as before."""
    from golfbox.hal.base import HardwareSetupError
    from golfbox.hal.build import build_hardware

    with contextlib.ExitStack() as held:
        try:
            held.enter_context(taken(path))
        except JournalError:  # another golfbox holds it: its displays are its own
            return open_journal(path), None
        try:
            hardware = build_hardware(config, sink)
        except HardwareSetupError as exc:
            raise UsageError(str(exc)) from None
        try:
            try:
                # From before the displays say it waits: a stop may come once they do.
                with SignalsEndTheWait() as wait:
                    show_journal_waiting(hardware, refused, settings)
                    notifier.status(f"waiting: {refused}")
                    journal = open_journal(path, sleep=wait.sleep)
                    if wait.stop.is_set():  # it came as the open that passed was under way
                        journal.close()
                        wait.check()
                return journal, hardware
            except StoppedWaiting:
                # As a stop of the table leaves them: "disk full: waiting" left on them
                # after a stop would promise a start that does not come.
                paused = say(settings.language, "paused")
                show_notice(hardware, settings, paused, paused)
                notifier.stopping("paused")
                raise
        except BaseException:
            hardware.close()
            raise


class StoppedWaiting(Exception):
    """A SIGTERM or SIGINT came while the start waited for the journal."""


class SignalsEndTheWait:
    """While it is entered, SIGTERM and SIGINT end open_journal's wait: its ``sleep``
    raises StoppedWaiting. Before, their default action ended the process in the middle
    of it, and the displays kept saying the table waits for room: systemd's stop, or
    Ctrl-C, left them so. The handler as serve()'s: no log, no lock (see SignalStop)."""

    def __init__(self) -> None:
        self.stop = SignalStop()
        self._woken = threading.Event()
        self._previous: dict[int, object] = {}
        self._unwatch: Callable[[], None] | None = None

    def __enter__(self) -> SignalsEndTheWait:
        if threading.current_thread() is threading.main_thread():  # no signal comes elsewhere
            for signum in (signal.SIGTERM, signal.SIGINT):
                self._previous[signum] = signal.signal(signum, self._on_signal)
            self._unwatch = wake_on_signals(self._woken.set)
        return self

    def __exit__(self, *_exc) -> None:
        if self._unwatch is not None:
            self._unwatch()
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)

    def _on_signal(self, signum: int, _frame) -> None:
        self.stop.signals.append(signum)

    def sleep(self, seconds: float) -> None:
        """time.sleep(seconds), cut short by a signal: then StoppedWaiting."""
        self._woken.wait(seconds)
        self._woken.clear()
        self.check()

    def check(self) -> None:
        """StoppedWaiting, naming the signal, if one came."""
        if self.stop.is_set():
            raise StoppedWaiting(signal.Signals(self.stop.signals[0]).name)


def show_journal_waiting(hardware: Hardware, refused: JournalError,
                         settings: TableSettings) -> None:
    """Say on every display, in the table's language, why the table does not start."""
    lang = settings.language
    if refused.full:
        shared = say(lang, "the disk is full: the table starts once there is room")
        seat = say(lang, "disk full: waiting")
    else:
        shared = say(lang, "the journal cannot be opened: trying again (see the log)")
        seat = say(lang, "cannot start: waiting")
    show_notice(hardware, settings, shared, seat)


def show_notice(hardware: Hardware, settings: TableSettings, shared: str, seat: str) -> None:
    """``shared`` on the shared display, ``seat`` under each seat's name on its own."""
    from golfbox.render.table import render_notice

    lang = settings.language
    names = [settings.name(n, lang) for n in sorted(hardware.seat_displays)]
    shown = [(display, render_notice(display.size, "golfbox", shared))
             for display in filter(None, [hardware.shared_display])]
    shown += [(display, render_notice(display.size, settings.name(n, lang), seat, names))
              for n, display in hardware.seat_displays.items()]
    for display, image in shown:
        display.show(image if image.mode == display.mode else image.convert(display.mode))


def _open_or_set_aside(path: Path) -> Journal:
    try:
        return Journal(path)
    except JournalError as exc:
        if not exc.corrupt:
            raise
        log.error("%s", exc)
        set_aside(path)
        return Journal(path)


def refused_words(lang: str, config_file: Path, refused: ConfigError) -> str:
    """The shared display's words for a refused config: its file (or its pin map's),
    the key at fault."""
    file, key = last_good.refused_at(refused, config_file)
    if key is None:
        return say(lang, "{file} missing · running on the last good one", file=file)
    if key:
        return say(lang, "{file} refused: {key} · running on the last good one", file=file, key=key)
    return say(lang, "{file} refused · running on the last good one", file=file)


def serve(config: HardwareConfig, journal_file: Path, *,
          started: float | None = None, note: str = "", new: bool = False,
          config_file: Path | None = None, keep_as: Path | None = None,
          refused: ConfigError | None = None) -> int:
    """Build the hardware, run the table until SIGTERM/SIGINT, pause it.
    ``note`` is logged once the journal is open (a refused journal is the only line).
    ``config_file`` started it: kept as ``keep_as`` once the table is up. Unless
    ``refused`` (why config_file was): then ``config`` is keep_as's, and the shared
    display and STATUS= say so for as long as it runs."""
    from golfbox.hal.base import HardwareSetupError
    from golfbox.hal.build import build_hardware
    from golfbox.hal.power import sysfs_root, watch_supply
    from golfbox.table.assemble import assemble_table

    started = time.monotonic() if started is None else started
    try:
        settings = settings_from_config(config.game, len(config.seats))
        settings.hold_time = config.gpio.hold_time  # ● waits this long (hints)
        notifier = Notifier.from_environment()
    except (ConfigError, NotifyError) as exc:
        raise UsageError(str(exc)) from None
    inbox: queue.SimpleQueue = queue.SimpleQueue()
    hardware = None
    try:
        journal = _open_or_set_aside(journal_file)
    except JournalError as exc:
        if not exc.passing:
            raise UsageError(str(exc)) from None
        try:
            journal, hardware = _open_showing_why(exc, config, journal_file, inbox.put,
                                                  settings, notifier)
        except StoppedWaiting as stopped:
            log.info("%s: stopped while waiting for the journal", stopped)
            notifier.close()
            return 0
    try:
        if new:
            start_afresh(journal)
        if note:
            log.info("%s", note)
        if hardware is None:
            hardware = build_hardware(config, inbox.put)
    except BaseException as exc:
        journal.close()
        if hardware is not None:
            hardware.close()
        if isinstance(exc, HardwareSetupError):  # a missing package, a pin in use: restarting will not help
            raise UsageError(str(exc)) from None
        raise
    # A node seat's, as its node says its protocol (the hub's dict: read at each ●).
    settings.hold_times = hardware.hold_times
    for warning in hardware.mux_warnings:  # it runs, but a RESET pulse may leave displays dark
        log.warning("%s", warning)
    # Logged when the Pi's supply sags: what a seat node dropping off USB comes from.
    supply = watch_supply(log, sysfs_root())
    stop = SignalStop()  # set only with service.wake(): the loop sleeps until woken
    # Not mended by any button: by the next start on a config that loads. In the table's
    # language, which the journal's lobby or match decides: the service words it.
    faults = [(last_good.CONFIG_FAULT, lambda lang: refused_words(lang, config_file, refused),
               f"config refused: {refused}; running on {last_good.running_on(config)}")
              ] if refused is not None else []
    service = None
    unwatch = None
    try:
        service = assemble_table(settings, hardware.pads, hardware.seat_displays,
                               hardware.shared_display, journal, notifier=notifier, inbox=inbox,
                               think_off_loop=True, faults=faults)

        def on_signal(signum: int, _frame) -> None:
            # Nothing logged here: Python runs this between the main thread's bytecodes,
            # maybe inside its write of a log line, and writing stderr again there raises
            # RuntimeError (reentrant call), which that line's logging swallowed with
            # the rest of this handler: the stop was lost. No lock taken either (see
            # SignalStop): a second signal runs this in the middle of the first.
            stop.signals.append(signum)
            service.wake()

        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, on_signal)
            signal.signal(signal.SIGINT, on_signal)
            unwatch = wake_on_signals(service.wake)
        log.info("table ready in %.0f ms (journal %s)", (time.monotonic() - started) * 1000, journal_file)
        if config_file is not None and keep_as is not None and refused is None:
            last_good.keep(config, config_file, keep_as)
        service.run(stop)
        log.info("%s: pausing the table", signal.Signals(stop.signals[0]).name)  # the only setter of stop
        service.close("paused")
    except BaseException:
        if service is not None:
            service.close("stopped by an error: restarting")
        else:
            journal.close()
        raise
    finally:
        if unwatch is not None:
            unwatch()
        if supply is not None:
            supply.close()
        hardware.close()
        notifier.close()
    return 0


class SignalStop:
    """The loop's stop, set by a signal's handler: a list's append, which takes no lock.
    A handler runs between the main thread's bytecodes, a second signal's in the middle
    of the first's; a threading.Event's set() holds a lock while it notifies, and Ctrl-C
    twice (or SIGTERM and Ctrl-C) landing there waited for that lock for ever: the table
    never stopped."""

    def __init__(self) -> None:
        self.signals: list[int] = []  # the signals that asked, first first

    def is_set(self) -> bool:
        return bool(self.signals)


def wake_on_signals(wake: Callable[[], None]) -> Callable[[], None]:
    """Call ``wake`` (the loop's wake()) from a thread whenever a signal comes; returns
    the call that undoes it. Python runs a signal's handler on the main thread, between
    bytecodes: a SIGTERM that came as the loop went to sleep in its queue's get(), or
    one another thread took, waited there for the next timer (the screen saver's, 10
    minutes on in the lobby), and systemd's stop timed out: 2 stops in about 160 beside
    busy processes. The C handler writes to the wakeup fd at once, on any thread: this
    thread's put ends the get, and the handler runs."""
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    before = signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)

    def watch() -> None:
        while os.read(read_end, 64):
            wake()

    watcher = threading.Thread(target=watch, daemon=True, name="signal-wake")
    watcher.start()

    def unwatch() -> None:
        signal.set_wakeup_fd(before)
        os.close(write_end)  # the watcher reads the end of the pipe, and ends
        watcher.join()
        os.close(read_end)
    return unwatch
