"""Bots that think long (``hard``'s search) think off the loop that serves the buttons.

The loop hands a worker process what the bot's choice depends on — the bot's
name, the seed the table derives for this move (move_seed: a digest of the
match seed, the seat and the actions played) and the seat's view — and goes on
serving presses; the choice comes back as an event in the table's queue and is
played there, if the table is still where it was when it asked. So the result
is the one the loop would have computed itself, only later; a process rather
than a thread, because a thread computing in Python would hold the interpreter
lock against the loop.
"""

from __future__ import annotations

import hashlib
import logging
import os
import multiprocessing
import multiprocessing.resource_tracker
import random
import signal
import threading
from concurrent.futures import Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Callable, NamedTuple

from golfbox.engine import Action, SeatView, bounded_rules

log = logging.getLogger(__name__)


class Thought(NamedTuple):
    key: tuple  # (match id, actions played, engine seat) when it was asked
    action: Action | None  # None: the worker failed (logged); the loop asks again
    timed_out: bool = False  # no answer within the deadline: its worker was killed


def move_seed(match_seed: int, *where: object) -> str:
    """The seed of one bot's move or one hint: a digest of the match seed and ``where``
    (the seat, the actions played …). One way only: the match seed deals every card,
    and a bot, in the worker or in the loop, gets its view to choose from and nothing
    that would tell it a face-down card."""
    text = ":".join(str(part) for part in (match_seed, *where))
    return hashlib.sha256(text.encode()).hexdigest()


def bot_choice(name: str, seed: str, view: SeatView) -> Action:
    """What the bot ``name``, made for this move and seeded as the table seeds it, chooses
    from ``view``: in the worker, or in the loop (bots keep nothing between moves)."""
    from golfbox.bots import make_bot

    rules = bounded_rules(view.table.rules)  # a resumed match's 10**400 overflowed them
    if rules is not view.table.rules:
        view = view._replace(table=view.table._replace(rules=rules))
    return make_bot(name, random.Random(seed)).choose(view)


WORKER_NICENESS = 10  # added to the table's own: the loop's presses come first
# A thought not answered in this long never will be (a bot stuck in a loop, a worker
# stopped): it fails, and its worker is killed. Far above any real decision: hard's p99
# is 67 ms on a laptop, about 170 ms on a Pi 4, and a fresh worker's start (Python and
# golfbox imported from the SD card) a few seconds; short enough that a stuck bot holds
# its seat half a minute, not for ever. The deadline is a fault path only: a bot's choice
# never depends on time.
THOUGHT_DEADLINE = 30.0
CLOSE_WAIT = 2.0  # close() waits this long for the thoughts asked, then kills the worker


def _start_worker() -> None:
    """In the worker, once: yield the CPU to the loop, and leave with the table. Ctrl-C
    in a terminal reaches the whole process group: the table handles it, the worker
    ignores it (it printed a KeyboardInterrupt traceback over the user's shell). So
    does SIGTERM: systemd stops a unit by sending it to every process of the unit, and
    the worker killed by it mid-thought made each stop log "a bot's thinking failed"
    with a traceback (and the loop, still running, asked a new worker). The table's
    close() ends the worker; a table killed outright, the orphan watch."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _lower_priority()
    threading.Thread(target=_exit_when_orphaned, daemon=True, name="orphan-watch").start()


def _lower_priority() -> None:
    """The worker yields the CPU to the loop: a press is served first, even on one core.
    The unit's system call filter must allow setpriority (glibc's nice() calls it)."""
    try:
        os.nice(WORKER_NICENESS)
    except OSError as exc:
        log.warning("the bots' worker runs at the table's priority: nice() failed: %s", exc)


def _exit_when_orphaned() -> None:
    """A table killed outright (SIGKILL, a crash) never shuts its pool down, and the
    worker, which holds both ends of its own queue, would wait for work for ever, with
    multiprocessing's resource tracker beside it. (systemd kills the whole group; on a
    laptop they piled up.) The table holds the other end of the pipe the worker was
    started through: it ends when the table does, and the worker leaves. Waiting on it
    wakes nobody (looking at getppid() once a second woke the worker all night)."""
    multiprocessing.parent_process().join()
    os._exit(0)


class Thinker:
    """Thinks in one worker process. Each think() gets exactly one Thought posted back:
    the worker's answer, a failure, or a timed-out one after ``deadline`` seconds."""

    def __init__(self, post: Callable[[Thought], None], deadline: float = THOUGHT_DEADLINE):
        self._post = post
        self.deadline = deadline
        self._pool: ProcessPoolExecutor | None = None
        self.pending: set[tuple] = set()  # asked, and its Thought not yet received
        # Asked and not yet answered (the worker's answer and the deadline race for it,
        # on two threads other than the loop's): key -> its future and pool, under the lock.
        self._unanswered: dict[tuple, tuple[Future, ProcessPoolExecutor]] = {}  # in order asked
        self._lock = threading.Lock()
        self._killed_pool: ProcessPoolExecutor | None = None  # its worker, stuck, was killed

    def think(self, key: tuple, name: str, seed: str, view: SeatView) -> None:
        if key in self.pending:
            return
        self.pending.add(key)

        def done(future: Future) -> None:
            claimed = self._answer(key)
            if claimed is None:  # closing, or given up on at the deadline
                return
            if future.cancelled():  # dropped with a broken or killed worker's pool, unasked
                log.warning("a bot's thought was dropped with its worker's pool: a failed try")
                self._post(Thought(key, None))
                return
            try:
                action = future.result()
            except Exception as exc:  # noqa: BLE001 - a broken worker must not stop the table
                if isinstance(exc, BrokenProcessPool) and claimed[1] is self._killed_pool:
                    # Queued behind a thought that timed out: the worker was killed for it.
                    log.warning("a bot's thought was lost with a worker killed for another "
                                "(%s): a failed try", exc)
                else:
                    log.error("a bot's thinking failed: %s", exc, exc_info=exc)
                action = None
            self._post(Thought(key, action))

        if self._pool is not None and self._pool is self._killed_pool:
            self._drop_pool()  # the next thought after one timed out starts a new worker
        for attempt in range(2):
            try:
                if self._pool is None:
                    self._pool = self._new_pool()
                future = self._pool.submit(bot_choice, name, seed, view)
            except (RuntimeError, OSError) as exc:  # BrokenProcessPool; no process could start
                # A worker killed while it thought fails that move's future (one failed try)
                # and leaves its pool broken: the move asked again must go to a new worker,
                # or that try failed too and a fallback played the move in hard's place.
                log.error("a bot's worker is gone (%s): starting another" if attempt == 0
                          else "a bot's new worker failed too (%s)", exc)
                self._drop_pool()
                continue
            with self._lock:
                self._unanswered[key] = future, self._pool
            self._watch(key, self._pool, future)
            future.add_done_callback(done)
            return
        self._post(Thought(key, None))  # a failed try, as if the worker had failed

    def _answer(self, key: tuple) -> tuple[Future, ProcessPoolExecutor] | None:
        """Claim the one answer of a thought: its future and pool, None if already given."""
        with self._lock:
            return self._unanswered.pop(key, None)

    def _watch(self, key: tuple, pool: ProcessPoolExecutor, future: Future) -> None:
        """After ``deadline`` seconds, a thought still unanswered fails and its worker is
        killed (it ignores SIGTERM). A thread's timer: the loop never waits for it."""
        def overdue() -> None:
            with self._lock:
                if pool is self._killed_pool or key not in self._unanswered:
                    return  # answered, or already failing with the worker killed
                # To blame: the oldest thought still unanswered on this pool, the one its
                # one worker holds (those behind it only waited, and fail once with it),
                # whichever of their timers woke first.
                stuck = next(k for k, (_, p) in self._unanswered.items() if p is pool)
                del self._unanswered[stuck]
                self._killed_pool = pool
            _kill_workers(pool)
            self._post(Thought(stuck, None, timed_out=True))

        timer = threading.Timer(self.deadline, overdue)
        timer.daemon = True
        timer.name = "thought-deadline"
        future.add_done_callback(lambda _: timer.cancel())
        timer.start()

    def _drop_pool(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            try:
                pool.shutdown(wait=False, cancel_futures=True)
            except Exception:  # noqa: BLE001 - a pool that broke half-way: let it go
                pass

    @staticmethod
    def _new_pool() -> ProcessPoolExecutor:
        _start_resource_tracker()
        # spawn: the table has threads (pads, displays), which fork would copy half-way.
        return ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_start_worker)

    def close(self) -> None:
        with self._lock:  # nobody waits for these answers now
            asked = [future for future, _ in self._unanswered.values()]
            self._unanswered = {}
        if self._pool is not None:
            # Waits for the choices asked (a fraction of a second): without waiting,
            # Python 3.11's exit hook raced the pool's closed wake-up pipe (gh-125451).
            # One stuck would hold the service's stop for ever: its worker is killed.
            # (Not cancelled here: 3.11's pool then fails on a cancelled future.)
            if wait(asked, CLOSE_WAIT).not_done:
                _kill_workers(self._pool)
            self._pool.shutdown(wait=True, cancel_futures=True)


def _start_resource_tracker() -> None:
    """multiprocessing's resource tracker unlinks the pool's semaphores (/dev/shm/sem.mp-…)
    once the table is gone, killed or not; started here with SIGHUP blocked, as Python
    blocks SIGINT and SIGTERM for it. In a terminal the table leads the session, and its
    death (a crash, SIGKILL) or a closed window sends SIGHUP to the whole process group:
    the tracker died of it before cleaning up, and five semaphores were left each time.
    (Already running, it is left as it is.)"""
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGHUP})
    try:
        multiprocessing.resource_tracker.ensure_running()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def _kill_workers(pool: ProcessPoolExecutor) -> None:
    """SIGKILL the pool's worker (Python 3.14 has pool.kill_workers() for this); the pool
    sees it die, fails its futures and is broken."""
    for process in list((pool._processes or {}).values()):
        process.kill()
