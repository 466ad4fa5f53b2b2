"""A whole table on simulated hardware: the same TableService the Pi runs, built from a
config in which every seat and the shared display are simulated (``golfbox sim``,
``golfbox demo``, the tests and the benchmarks use it).

A front end (table/sim_ui.py: the terminal or a window) only draws the images the
sim displays were sent and turns key presses into the button events a pad would post.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from pathlib import Path
from typing import Callable

from PIL import Image

from golfbox.hal.base import Button, EventKind

log = logging.getLogger(__name__)

SHARED = "shared"


def seat_key(seat: int) -> str:
    return f"seat-{seat}"


def dump_name(key: str) -> str:
    """File name of a display's picture: shared.png, seat1.png … (seats 1-based, as shown)."""
    return "shared.png" if key == SHARED else f"seat{int(key.split('-')[1]) + 1}.png"


# ---------------------------------------------------------------- the simulated table


class SimTable:
    """Simulated hardware from a sim config, and the same TableService the Pi runs."""

    def __init__(self, settings, *, clock: Callable[[], float] = time.monotonic,
                 on_change: Callable[[str, Image.Image], None] | None = None, journal=None):
        from golfbox.hal.build import build_hardware
        from golfbox.hal.config import sim_config
        from golfbox.table.assemble import assemble_table

        self.settings = settings
        self.on_change = on_change
        self.journal = journal
        # The match found unfinished in the journal, which the service resumes (None: a new one).
        self.resumed = journal.unfinished() if journal is not None else None
        self.service = None
        self.error: BaseException | None = None
        # The signal that asked the front end to quit (set by a signal handler: a plain
        # attribute, no lock, see commands.sim.QuitOnSignals).
        self.quit_requested: int | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.stop_wait = 5.0  # close() waits this long for the table's thread to stop
        self._paused = False
        # Pads and failing displays post into the service, which exists a line later.
        self.hardware = build_hardware(sim_config(settings.seats), self._post, clock=clock)
        self.keys: dict[int, str] = {}  # id(SimDisplay) -> "shared" / "seat-N"
        for seat, display in self.hardware.seat_displays.items():
            self._watch(display, seat_key(seat))
        if self.hardware.shared_display is not None:
            self._watch(self.hardware.shared_display, SHARED)
        # In real time, hard bots think off the loop; on a virtual clock (demo) they think inline.
        try:
            self.service = assemble_table(settings, self.hardware.pads, self.hardware.seat_displays,
                                        self.hardware.shared_display, journal, clock=clock,
                                        think_off_loop=clock is time.monotonic)
        except BaseException:
            self.hardware.close()
            if journal is not None:
                journal.close()
            raise

    def _watch(self, display, key: str) -> None:
        sim = getattr(display, "inner", display)  # ResilientDisplay wraps the SimDisplay
        self.keys[id(sim)] = key
        sim.on_change = self._changed

    def _changed(self, sim) -> None:
        if self.on_change is not None:
            self.on_change(self.keys[id(sim)], sim.image)

    def _post(self, event) -> None:
        if self.service is not None:
            self.service.post(event)

    def sim_display(self, key: str):
        display = self.hardware.shared_display if key == SHARED else \
            self.hardware.seat_displays[int(key.split("-")[1])]
        return getattr(display, "inner", display)

    def image(self, key: str) -> Image.Image | None:
        return self.sim_display(key).image

    @property
    def display_keys(self) -> list[str]:
        keys = [seat_key(s) for s in sorted(self.hardware.seat_displays)]
        return keys + ([SHARED] if self.hardware.shared_display is not None else [])

    def press(self, seat: int, button: Button, kind: EventKind) -> None:
        pad = self.hardware.sim_pad
        if kind is EventKind.HELD:
            pad.hold(seat, button)  # PRESSED then HELD, as a GPIO pad sends a long press
        else:
            pad.press(seat, button)

    def start(self) -> None:
        def serve() -> None:
            try:
                self.service.run(self._stop)
                self._pause()  # in the loop's own thread: see close()
            except BaseException as exc:  # shown to the user by the front end
                self.error = exc
                log.exception("table service stopped")

        self._thread = threading.Thread(target=serve, name="table", daemon=True)
        self._thread.start()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @property
    def front_end_should_quit(self) -> bool:
        """A signal asked to quit, or the table stopped (by an error, or never ran)."""
        return self.quit_requested is not None or self.error is not None or not self.running

    def close(self) -> None:
        """Pause the table and close its hardware. A started table's thread does it when
        its loop stops: closed from here while the loop was still in a step (a journal
        write waiting on a slow disk or another connection's lock), the journal was
        closed under it and that step's write lost. A loop that does not stop within
        ``stop_wait`` seconds is left to end its step and pause the table itself (unless
        the program has ended by then): what it journals is kept."""
        self._stop.set()
        self.service.wake()  # the loop sleeps until its next timer: it must look now
        if self._thread is not None:
            self._thread.join(timeout=self.stop_wait)
            if self._thread.is_alive():
                log.error("the table did not stop within %g s: left without pausing it",
                          self.stop_wait)
                return
        self._pause()  # not started, or stopped by an error: nobody else is in the service

    def _pause(self) -> None:
        if self._paused:
            return
        self._paused = True
        try:
            self.service.close("paused")
        finally:
            self.hardware.close()

    def status(self) -> str:
        """'polish-poker · round 2/9 · playing': the game being played or chosen, in words,
        as the table's thread last worked them out (the front end's thread calls this)."""
        return self.service.status_line


class FrameDump:
    """--dump-frames: the latest picture of each display, written atomically as PNG."""

    def __init__(self, directory: str | os.PathLike):
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)

    def write(self, key: str, image: Image.Image | None) -> None:
        if image is None:
            return
        path = self.directory / dump_name(key)
        partial = path.with_suffix(".tmp")
        image.save(partial, format="PNG")
        os.replace(partial, path)


def fit_to_journal(settings, journal, humans: list[int], max_humans: int) -> list[int]:
    """A match to resume keeps its own table: as many seats, people where people sat
    (whatever --players/--humans say now). Returns the seats played from the keyboard."""
    from golfbox.table.lobby import Player

    resumed = journal.unfinished() or journal.result_shown()  # a result still showing too
    if resumed is None:
        return humans
    try:
        players = [Player.from_json(p) for p in resumed.players]
    except (KeyError, TypeError, ValueError):
        return humans  # the service sets an unreadable match aside and deals a new one
    if not players:
        return humans
    settings.seats = max(2, max(p.seat for p in players) + 1)
    settings.bots = {p.seat: p.bot for p in players if p.bot is not None}
    return sorted(p.seat for p in players if p.bot is None)[:max_humans]


