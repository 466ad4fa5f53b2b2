"""The table service: button presses in, game actions through the engine, frames out.

One thread (the one calling ``run`` or ``step``) owns the engine, the lobby,
the cursors and the journal. Pads and displays only ``post`` events into a
queue, from their own threads. Timers (a bot's thinking time, the peek
timeout, the watchdog ping) are deadlines the loop waits for: it blocks on
the queue until the next one, so an idle table uses no CPU and a press is
handled the moment it arrives.

The service only dispatches: the current state (table/states.py) handles a
press and says what each display shows, the session (table/session.py) owns
the match, its journal and its bots, and screens.py draws.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import deque
from typing import Callable, Iterable, Protocol

from golfbox.hal.base import Button, ButtonEvent, ButtonPad, Display, EventKind, LinkEvent
from golfbox.render.words import say
from golfbox.table import screens, states
from golfbox.table.input import SeatInput
from golfbox.table.journal import Journal, JournalError
from golfbox.table.lobby import Lobby
from golfbox.table.saver import ScreenSaver
from golfbox.table.session import (JOURNAL_FAULT, NEXT_ROUND, SAVE_RETRY_SECONDS, STEADY_SECONDS,
                                   Notices, Session, part_key)
from golfbox.table.settings import TableSettings
from golfbox.table.thinker import Thinker, Thought
from golfbox.table.timers import Timers

__all__ = ["TableService", "TableSettings", "NEXT_ROUND"]

log = logging.getLogger(__name__)

FAULT_TURN_SECONDS = 4.0  # several faults take turns on the shared display's one bar
# A seat node that answers again after being away this long was plugged back in by
# someone, who is there to play: it wakes the screen saver even if its cable came and
# went before it fell out (a loose cable's flips are seconds apart at most).
PLUGGED_BACK_SECONDS = 30.0
_WAKE = object()  # posted to make a blocked loop look at its stop event
_WRITTEN = object()  # posted when an action's journal write is done (_write_moving_others)
# How long one journal write may wait for its disk (a worn SD card's stall) with
# systemd's watchdog kept meanwhile (TableService._ping_through_writes); past that the
# table is taken as hung.
DISK_WAIT_LIMIT = 60.0


class Stop(Protocol):
    """What run() stops on: a threading.Event, or golfbox run's SignalStop (a signal's
    handler may take no lock)."""

    def is_set(self) -> bool: ...


class KeptRow:
    """A row the service rewrites in the journal when its value changes (the lobby, the
    seats away): the value the journal holds, and one it refused (a full disk), which is
    not tried again, nor logged again, until the value changes."""

    def __init__(self, kept: object) -> None:
        self.kept, self.tried, self.failures = kept, None, 0

    def changed(self, value: object) -> bool:
        return value != self.kept and value != self.tried

    def refused(self, value: object) -> int:
        """The journal refused ``value``: how many changes it has refused in a row."""
        self.tried, self.failures = value, self.failures + 1
        return self.failures

    def saved(self, value: object) -> int:
        """The journal holds ``value`` now: how many changes it had refused before."""
        failures = self.failures
        self.kept, self.tried, self.failures = value, None, 0
        return failures


class TableService:
    def __init__(self, settings: TableSettings, pads: list[ButtonPad],
                 seat_displays: dict[int, Display], shared_display: Display | None,
                 journal: Journal | None = None, clock: Callable[[], float] = time.monotonic,
                 notifier=None, *, inbox: queue.SimpleQueue | None = None,
                 think_off_loop: bool = False, timers: Timers | None = None,
                 faults: Iterable[tuple[object, Callable[[str], str], str]] = ()):
        """Built by table.assemble.assemble_table (which makes every display resilient and
        lends it ``timers``). ``inbox``: the queue the pads already post into, if any.
        ``think_off_loop``: slow bots (hard) decide in a worker process (table.thinker).
        ``faults``: found before the table was built (its config refused), each its key,
        its words in a language and its detail: shown from the first frame on, in the
        table's language, until notices.mended(key); no press mends them."""
        self.settings, self.journal, self.notifier, self.clock = settings, journal, notifier, clock
        self.seat_displays = dict(seat_displays)
        self.shared_display = shared_display
        # SimpleQueue: put() is safe from a signal handler and from any thread.
        self._inbox: queue.SimpleQueue = inbox if inbox is not None else queue.SimpleQueue()
        self._taken: deque = deque()  # events taken from the inbox early (_steady), in order
        # Events taken from the inbox during an action's write that waited (all but other
        # seats' cursor moves): handled as if still at the head of the inbox.
        self._put_off: deque = deque()
        self.timers = timers if timers is not None else Timers()
        self.notices = Notices()
        self.lobby = Lobby(settings)
        self.inputs = {seat: SeatInput() for seat in range(settings.seats)}
        self._beyond: set[int] = set()  # wired seats beyond game.seats whose presses were said
        self._thinker = Thinker(self.post) if think_off_loop else None
        self.session = Session(settings, journal, self.notices, clock, self._thinker)
        # Notices says its words in the displays' language (speak, at each change), so a
        # seat is named in them as the displays name it then: after a match, the lobby's
        # name, not the match's (English 'P2' in a French lobby).
        self.session.shown_name = lambda seat: self.current.seat_name(seat)
        self.session.in_match = lambda: isinstance(self.current, states.InMatch)
        self.session.write = self._write_moving_others
        self.painter = screens.Painter(self.seat_displays, shared_display)
        self._status = ""  # the last STATUS= told systemd
        # status_words() as of the last change, worked out in the loop's thread: the
        # simulator's front end reads it from its own (SimTable.status), where working it
        # out from the lobby could meet a game changed half-way and raise.
        self.status_line = ""
        self._watchdog = None
        self._closing = False  # close() began: the thread pinging through writes ends
        self._fault_turn = None  # the timer that shows the next of several faults
        self._scores_retry = None  # the timer that tries refused scores again
        self._countdown = None  # the timer that redraws a takeover's countdown
        self._steadying: dict[tuple, object] = {}  # a part back -> its timer to count it back
        self._stirred: set[tuple] = set()  # nodes back, not yet steady, that woke the saver
        self._failed_at: dict[tuple, float] = {}  # a part away -> when it last failed
        self.saver = ScreenSaver(settings.screen_saver_minutes, self.timers, clock)
        self._waking: dict[int, Button] = {}  # seat -> the button that woke the table
        # seat -> (button, when) of its last press: a HELD is judged by when its press began
        self._last_press: dict[int, tuple[Button, float]] = {}
        self.current: states.State = states.Lobby(self)

        # What a restart into the lobby would show. Not the lobby opened: after a resumed
        # match (Lobby.resume) or auto_start they differ, and the lobby that follows the
        # match must be written even if it is the one opened.
        self._lobby_row = KeptRow(states.kept_lobby(journal))
        # A resumed match, an auto-started one, or the lobby:
        self.go(states.opening(self, self._lobby_row.kept))
        self.notices.speak(self.current.lang)  # the faults found from here on
        self._away_row = KeptRow(self._seats_away())  # as for the lobby: what the journal holds
        self.session.restore_away(self._away_row.kept)
        for key, words, detail in faults:
            self.notices.fault(key, words)
            self.notices.details[key] = detail
        for pad in pads:
            if pad.clock is not clock:  # its stamps could not be set against the screens' times
                raise ValueError(f"{type(pad).__name__} stamps its presses on another clock than "
                                 "the table's: build it with the table's clock")
            pad.start(self.post)
        self._after_change()

    # What tests, the simulator and the demo read of the match.
    match = property(lambda self: self.session.match)
    players = property(lambda self: self.session.players)
    actions_played = property(lambda self: self.session.actions_played)
    match_id = property(lambda self: self.session.match_id)
    match_config = property(lambda self: self.session.match_config)
    messages = property(lambda self: self.notices.seats)
    table_message = property(lambda self: self.notices.table)

    state = property(lambda self: self.current.name, doc='"lobby", "playing", "round_over", …')

    def go(self, state: states.State | None) -> None:
        """Enter ``state`` (None: stay where we are)."""
        if state is not None:
            self.current.exit()
            self.current = state
            # A seat's message answered a press on the screens just left ("wait: P2 is
            # playing" as the bot's move ends the round): on the new ones it is stale.
            self.notices.seats.clear()

    # ------------------------------------------------------------------ the loop

    def post(self, event: ButtonEvent | LinkEvent | Thought) -> None:
        """Hand an event to the table (any thread): a press, a part gone or back, a bot's
        choice thought off the loop."""
        self._inbox.put(event)

    def wake(self) -> None:
        """Make a blocked run() look at its stop event now (safe in a signal handler)."""
        self._inbox.put(_WAKE)

    def step(self, timeout: float | None = 0.0) -> bool:
        """Handle one queued event or one due timer, waiting up to ``timeout`` seconds
        (None: for ever), less if a timer falls due sooner. True if something was handled."""
        if self._taken:  # queued before the timer that took them fired: theirs is the turn
            event = self._taken.popleft()
            if event is not _WAKE:
                self._handle(event)
            return True
        if self._fire_due():
            return True
        if self._put_off:
            event = self._put_off.popleft()
            if event is not _WAKE:
                self._handle(event)
            return True
        due = self.timers.next_due()
        wait = timeout
        if due is not None:
            wait = due.when - self.clock() if timeout is None else min(timeout, due.when - self.clock())
        try:
            # Never a timed get() straight after one that took an event: CPython's
            # SimpleQueue then finds its lock free, and if its deadline passes before it
            # waits (a timer due within microseconds, a slow Pi) it waits for the next
            # put, not the deadline. With no press coming, no timer fired and systemd's
            # watchdog killed the table. A get_nowait() that finds it empty holds the lock.
            event = self._inbox.get_nowait()
        except queue.Empty:
            if wait is not None and wait <= 0:
                return self._fire_due()
            try:
                event = self._inbox.get(timeout=wait)
            except queue.Empty:
                return self._fire_due()
        if event is not _WAKE:
            self._handle(event)
        return True

    def _fire_due(self) -> bool:
        due = self.timers.next_due()
        if due is None or due.when > self.clock():
            return False
        # A watchdog ping changes nothing on the table. Asked before it fires: firing
        # sets the next ping, which the fired one is not.
        ping = due is self._watchdog
        self.timers.fire_due(due.when)
        if not ping:
            self._after_change()
        return True

    def run_until_idle(self) -> None:
        """Handle events and timers until nothing is due now (bots with no delay play on)."""
        while self.step(0.0):
            pass

    def run(self, stop: Stop | None = None) -> None:
        """Serve the table until ``stop.is_set()``; call wake() after setting it. Between
        events and timers it sleeps: it looked at ``stop`` once a second, which woke an
        idle table every second all night."""
        if stop is None:
            stop = threading.Event()
        if self.notifier is not None:
            if self.notifier.watchdog_interval:
                self._ping_watchdog(self.clock())
                if self.journal is not None:
                    threading.Thread(target=self._ping_through_writes, daemon=True,
                                     name="watchdog through writes").start()
            self.notifier.ready(self._status)
        while not stop.is_set():
            self.step(None)

    def _ping_watchdog(self, when: float) -> None:
        def ping():
            self.notifier.watchdog()
            self._ping_watchdog(self.clock() + self.notifier.watchdog_interval)
        self._watchdog = self.timers.call_at(when, ping)

    def _ping_through_writes(self) -> None:
        """The loop pings between events: a journal write it waits for cannot. An SD
        card stalls an fsync for seconds (its garbage collection, apt writing beside
        it), and systemd's kill would not help: SIGABRT waits out the fsync, and the
        restart writes to the same card (a press in the write is lost if the kill lands
        first). So this thread pings while a write waits, for up to DISK_WAIT_LIMIT s."""
        journal, every = self.journal, self.notifier.watchdog_interval / 2
        changed, said = journal.writing_changed, None
        while True:
            with changed:
                changed.wait_for(lambda: journal.writing_since is not None or self._closing)
                began = journal.writing_since
                if self._closing or changed.wait_for(
                        lambda: journal.writing_since != began or self._closing, every):
                    if self._closing:
                        return
                    continue
            # Pinged and logged outside the lock: the log may wait on the same card.
            waited = time.monotonic() - began
            if waited > DISK_WAIT_LIMIT:
                if said != (began, "hung"):
                    said = (began, "hung")
                    log.error("a journal write has waited %.0f s for the disk: the table is "
                              "hung, and systemd's watchdog no longer kept", waited)
                continue
            if said != (began, "slow"):
                said = (began, "slow")
                log.warning("a journal write has waited %.1f s for the disk (a slow or failing "
                            "SD card?): systemd's watchdog kept for up to %g s", waited,
                            DISK_WAIT_LIMIT)
            self.notifier.watchdog()

    def close(self, message: str = "paused") -> None:
        """Show ``message`` on every display and close the journal (the match resumes at start)."""
        if self.journal is not None:
            with self.journal.writing_changed:
                self._closing = True
                self.journal.writing_changed.notify_all()
        self.go(states.Paused(self, message))
        self.painter.draw(self.current)
        if self.journal is not None:
            self.journal.close()
        if self._thinker is not None:
            self._thinker.close()
        if self.notifier is not None:
            self.notifier.stopping(message)

    # ------------------------------------------------------------------ events

    def _handle(self, event: ButtonEvent | LinkEvent | Thought) -> None:
        if isinstance(event, Thought):
            self._thinker.pending.discard(event.key)
            self.go(self.current.on_thought(event))
        elif isinstance(event, LinkEvent):
            self._on_link(event)
        elif isinstance(event, ButtonEvent):
            if event.seat in self.session.away:
                # Its pad is there: a node plugged back in, or pads that never report a
                # link (GPIO, the simulator) after a restart restored the seat as away.
                self._on_link(LinkEvent(event.seat, True, f"seat {event.seat + 1}: pressed",
                                        buttons=True), pressed=True)
            if event.seat not in self.inputs:
                # The owner's choice (game.seats under the seats wired), not a fault: said
                # once a seat, or a child mashing it all evening is a line a press.
                if event.seat not in self._beyond:
                    self._beyond.add(event.seat)
                    log.info("ignored presses from seat %d: the table plays %d seats "
                             "(game.seats)", event.seat + 1, self.settings.seats)
            elif (self.saver.asleep or event.seat in self._waking) and self._only_wakes(event):
                pass
            elif not self.current.answers(event.seat, self._began_at(event)):
                # A press answers the screen its player saw. One made before this state was
                # drawn (it waited in the queue while a bot's move ended the round, say) was
                # meant for the state before: here a ● for a turn would deal the next round
                # over an unseen reveal. So in every state: a quick second ● would as well
                # start a rematch over an unseen result, or play blind in a new round; in a
                # round, a ● pressed out of turn would play the turn that came meanwhile,
                # and one pressed again while a stalling SD card wrote the first would
                # play twice (State.answers).
                log.info("ignored %s: pressed before seat %d's screen changed (%s)",
                         event, event.seat + 1, self.state)
            else:
                self.go(self._press_counts(event))
        self._after_change(first=getattr(event, "seat", None))

    def _press_counts(self, event: ButtonEvent):
        """A press made on what its seat shows: the current state's answer to it."""
        self.saver.stir()  # someone is here: the saver waits again from now
        self.notices.seats.pop(event.seat, None)  # a press clears the last message
        return self.current.on_button(event.seat, event.button, event.kind)

    def _write_moving_others(self, write: Callable[[], int], writer: int | None) -> int:
        """An action's journal write, on a thread of its own while another person has a
        cursor: an SD card takes 5-50 ms to sync it, and seconds when it stalls.
        Meanwhile the loop still moves those seats' cursors (their ◀ ▶, as everyone
        turns up their first cards); every other event waits, in order, until the
        action is played and drawn (_put_off). The loop waited in the write, and one
        seat's fsync froze every seat. With no other cursor (a turn, a bots-only
        match) nothing could be handled meanwhile: written here, without a thread."""
        if not any(seat != writer and self._has_a_cursor(seat) for seat in self.session.engine_seat):
            return write()
        outcome: list = []

        def writing() -> None:
            try:
                outcome.append(write())
            except BaseException as exc:  # raised again in the loop's thread
                outcome.append(exc)
            self._inbox.put(_WRITTEN)

        threading.Thread(target=writing, name="journal write", daemon=True).start()
        waiting: set[int] = set()  # seats with a press put off: their later ones wait too
        while (event := self._inbox.get()) is not _WRITTEN:
            if not self._moves_a_cursor(event, writer, waiting):
                self._put_off.append(event)
                waiting.add(getattr(event, "seat", None))
        if isinstance(outcome[0], BaseException):
            raise outcome[0]
        return outcome[0]

    def _has_a_cursor(self, seat: int) -> bool:
        """Has physical ``seat`` a person's cursor in a round now (choices to move over)?"""
        engine_seat = self.session.engine_seat.get(seat)
        return (isinstance(self.current, states.Playing) and engine_seat is not None
                and not self.session.is_bot(engine_seat) and seat not in self.session.away
                and bool(self.session.match.round.legal_actions(engine_seat)))

    def _moves_a_cursor(self, event: object, writer: int | None, waiting: set[int]) -> bool:
        """Handle ``event`` now, during another seat's write, if it only moves its seat's
        cursor (◀ ▶ with choices to move over), drawing that seat alone. The engine is
        as before the action being written, and so is what the seat shows."""
        if not (isinstance(event, ButtonEvent) and event.kind is EventKind.PRESSED
                and event.button in (Button.LEFT, Button.RIGHT) and event.seat != writer
                and event.seat not in waiting and self._has_a_cursor(event.seat)
                and not self.saver.asleep and event.seat not in self._waking
                and self.current.answers(event.seat, self._began_at(event))):
            return False
        self._press_counts(event)  # None: a cursor's move
        self.painter.draw_seat(self.current, event.seat)
        return True

    def _began_at(self, event: ButtonEvent) -> float:
        """When the press began: for a HELD, its own PRESSED's time (if that was this seat's
        last press). A hold begun on the screen before (the saver, a bot's turn) whose
        press was dropped must not act when its HELD comes after the screens changed."""
        if event.kind is EventKind.PRESSED:
            self._last_press[event.seat] = (event.button, event.at)
            return event.at
        button, at = self._last_press.get(event.seat, (None, event.at))
        return at if button is event.button else event.at

    def _only_wakes(self, event: ButtonEvent) -> bool:
        """A press while the screen saver is on, or the first of its seat since its press
        woke the table: True if it only wakes the table (and is dropped)."""
        if self.saver.asleep:
            # The press only wakes the table: its player saw the saver, not the screen the
            # press would act on (a ● would join the lobby, play a turn unseen or deal a
            # rematch). Every press made before now was made on the saver too.
            log.info("%s woke the table from its screen saver", event)
            self.saver.stir()
            self.current.shown_at = max(self.current.shown_at, self.clock())
            if event.kind is EventKind.PRESSED:
                self._waking[event.seat] = event.button
            return True
        # The hold that woke the table sends its HELD after: holding ● in the lobby would
        # start the match.
        woke_with = self._waking.pop(event.seat)
        return event.kind is EventKind.HELD and event.button is woke_with

    def _on_link(self, event: LinkEvent, pressed: bool = False) -> None:
        """A part failed, or answers again: counted back once it has answered for
        STEADY_SECONDS, so that one coming and going keeps its fault on show and its
        seat's takeover wait running. ``pressed``: learnt from a press, which counts
        its person back at once (a person, not a flip) and wakes the saver itself
        (_only_wakes)."""
        where = "shared display" if event.seat is None else self.current.seat_name(event.seat)
        key = part_key(event.seat, event.buttons)
        steadying = self._steadying.pop(key, None)
        if steadying is not None:  # failed again before it was steady, or a press
            steadying.cancel()
        self.session.link_changed(event, where)
        if not event.connected:
            self._failed_at[key] = self.clock() if event.at is None else event.at
            return
        away_for = self.clock() - self._failed_at.pop(key, self.clock())
        # A node or panel that was away may have lost its picture: it gets it now.
        self.painter.forget(event.seat)
        # Someone plugged a seat in: they are here to play, and their first press must
        # not only wake the table. Not a press: it was made on the saver if it is on. Only
        # its first return since it failed, or one after a long absence: a loose cable's
        # every flip would keep the table awake all night.
        if event.buttons and not pressed and (key not in self._stirred
                                              or away_for >= PLUGGED_BACK_SECONDS):
            self.saver.stir()
            self._stirred.add(key)
        if pressed or not self.session.part_down(event.seat, event.buttons):
            self._part_back(key)
        else:
            due = self.clock() + STEADY_SECONDS
            self._steadying[key] = self.timers.call_at(due, lambda: self._steady(key, due))

    def _steady(self, key: tuple, due: float) -> None:
        """The part's steady timer fell due: counted back, unless it failed before that
        and the failure waits in the inbox (the loop was busy as the timer fell due).
        Counted back, then failed, it blinked its fault off and on, its journal row
        written twice and its takeover wait begun again."""
        self._taken.extend(self._put_off)  # taken from the inbox before the rest
        self._put_off.clear()
        while True:
            try:
                self._taken.append(self._inbox.get_nowait())
            except queue.Empty:
                break
        for event in self._taken:
            if (isinstance(event, LinkEvent) and not event.connected
                    and part_key(event.seat, event.buttons) == key
                    and (event.at is None or event.at < due)):
                self._steadying.pop(key, None)  # the failure, handled next, says the rest
                return
        self._part_back(key)

    def _part_back(self, key: tuple) -> None:
        self._steadying.pop(key, None)
        self._stirred.discard(key)
        self.session.part_back(*key)

    # ------------------------------------------------------------------ frames

    def _after_change(self, first: int | None = None) -> None:
        self.current.sync_timers()
        self.notices.speak(self.current.lang)  # the lobby may have changed the language
        self._keep_faults_turning()
        self._keep_counting_down()
        self._keep_saving_scores()
        # The game moved (a bot's move, a timer's, a new round or match): the table is in
        # use. Not a reveal's page turning, nor the faults taking turns: they change on
        # their own and would keep a deserted table's screens lit all night. Nor a match
        # of bots only: nobody need be watching, and match after match would keep the
        # names and frames lit, the bots thinking and the journal writing until morning.
        bots_only = isinstance(self.current, states.InMatch) and self.session.bots_only()
        self.saver.seen("bots only" if bots_only else (self.current, self.session.actions_played))
        if self.saver.asleep:
            self.painter.draw(self.saver.frames(self.current.lang))
        else:
            if self.current.shown_at == states.NOT_SHOWN:
                # From the start of its first drawing: eight seats take a while to draw on a
                # Pi, and a player whose screen came first may press before the last is done.
                self.current.shown_at = self.clock()
            self.painter.draw(self.current, first)
        self._report_status()
        self._keep_lobby()
        self._keep_away()

    def _seats_away(self) -> dict[int, bool]:
        try:
            return self.journal.seats_away() if self.journal is not None else {}
        except (JournalError, ValueError) as exc:  # unreadable: as if none, written over at the next change
            log.warning("journal: the seats away before the restart are not known (%s)", exc)
            return {}

    def _keep_away(self) -> None:
        """Journal which seats' nodes are away and which a bot took over, when that changes
        (a node unplugged or back, a takeover due), so that a restart plays on as before it
        (Session.restore_away). Rare: a write only at such a change."""
        if self.journal is None:
            return
        away = self.session.away_kept()
        if not self._away_row.changed(away):
            return
        try:
            self.journal.save_away(away)
        except JournalError as exc:  # the table goes on; a restart would wait for them again
            if self._away_row.refused(away) == 1:
                log.error("journal: the seats away not kept: %s", exc)
            return
        self._away_row.saved(away)

    def back_to_lobby(self, joined: set[int]) -> states.State:
        """Leave a match's result for the lobby, ``joined`` in it. The result is closed and
        that lobby kept in one transaction: a power cut between two would restore the
        lobby kept before the match (the people who left it joined again)."""
        self.lobby.joined = joined
        kept = self.lobby.to_json()
        if self.session.close_result(kept):
            self._lobby_saved(kept)
        return states.Lobby(self)  # (if not: _keep_lobby tries the lobby alone)

    def _keep_lobby(self) -> None:
        """Journal the lobby's choices and who joined when they changed (not the cursor),
        after the screens show them, so a press is drawn as fast as ever: a power cut in
        the lobby then keeps them (states.restore_lobby)."""
        if self.journal is None or self.current.name is not states.TableState.LOBBY:
            return
        kept = self.lobby.to_json()
        # A change that failed is not tried again at each press or timer, nor logged
        # again (a line a press on the SD card the log shares): the next change is.
        if not self._lobby_row.changed(kept):
            return
        try:
            self.journal.save_lobby(kept)
        except (JournalError, ValueError) as exc:  # the lobby goes on; a restart may forget it
            if self._lobby_row.refused(kept) == 1:
                log.error("journal: the lobby not kept: %s (said once, tried at each change)", exc)
            # The café's owner must learn it (a full or read-only SD card): the shared
            # display says so, as for a game not saved, until a change is kept again.
            def unsaved(lang: str) -> str:
                return say(lang, "cannot save the lobby: see the log")
            if self.notices.faults.get(JOURNAL_FAULT) != unsaved(self.lobby.language):
                self.notices.fault(JOURNAL_FAULT, unsaved)
                self._redraw_faults()
            return
        had_fault = JOURNAL_FAULT in self.notices.faults
        self._lobby_saved(kept)
        if had_fault:
            self._redraw_faults()

    def _lobby_saved(self, kept: dict) -> None:
        failures = self._lobby_row.saved(kept)
        if failures:
            log.info("journal: the lobby kept again after %d failed tries", failures)
            self.notices.mended(JOURNAL_FAULT)  # the journal takes writes again

    def _redraw_faults(self) -> None:
        """A fault found or mended after the frames were drawn (the lobby's save comes
        after them): the shared display shows it now, not at the next change."""
        self._keep_faults_turning()
        if not self.saver.asleep:
            self.painter.draw(self.current)
        self._report_status()

    def _keep_faults_turning(self) -> None:
        """With several faults, the shared display shows the next one every few seconds."""
        several = len(self.notices.faults) > 1
        if several and (self._fault_turn is None or not self._fault_turn.active):
            def next_fault() -> None:
                self.notices.turn += 1
            self._fault_turn = self.timers.call_at(self.clock() + FAULT_TURN_SECONDS, next_fault)
        elif not several and self._fault_turn is not None:
            self._fault_turn.cancel()
            self._fault_turn = None

    def _keep_saving_scores(self) -> None:
        """A match's result the journal refused (a full disk) is tried again every
        SAVE_RETRY_SECONDS. Within a match the next move's write tries the scores again,
        but on a result nobody leaves none comes: room made, "cannot save the game"
        stayed on show and the match out of the history until the next press. The
        timer's firing is a change (_fire_due), which redraws the fault once mended."""
        if not self.session.result_unsaved:
            return
        if self._scores_retry is None or not self._scores_retry.active:
            self._scores_retry = self.timers.call_at(self.clock() + SAVE_RETRY_SECONDS,
                                                     self.session.save_unsaved_scores)

    def _keep_counting_down(self) -> None:
        """A seat's takeover countdown is said again when its number changes: the timer's
        firing is a change (_fire_due), which says the faults again and redraws them."""
        when = self.session.countdown_changes()
        if self._countdown is not None and self._countdown.active and self._countdown.when == when:
            return
        if self._countdown is not None:
            self._countdown.cancel()
        self._countdown = self.timers.call_at(when, lambda: None) if when is not None else None

    def status_words(self) -> str:
        """What the table is doing, in words (systemd's STATUS=, the simulator's top line):
        'lobby: 1 joined · polish-poker · 9 rounds', 'polish-poker · round 2/9 · playing',
        then '· screen saver' while the displays show it."""
        words = self.current.status_words()
        return f"{words} · screen saver" if self.saver.asleep else words

    def _report_status(self) -> None:
        self.status_line = status = self.status_words()
        if self.notifier is None:
            return
        if self.notices.status:  # a failed display, a journal problem: `systemctl status` shows it too
            status += f" · {self.notices.status}"
        if status != self._status:
            self._status = status
            self.notifier.status(status)
