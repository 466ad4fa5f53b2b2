"""The bots' worker process: it thinks off the table's loop, and leaves with the table."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

TABLE = textwrap.dedent("""
    import os, queue, random, sys
    from golfbox.engine import Round, get_variant, make_rules
    from golfbox.table.thinker import Thinker

    answers = queue.SimpleQueue()
    thinker = Thinker(answers.put)
    variant = get_variant("4-card")
    round_ = Round(variant, make_rules(variant, {}), 2, dealer=0, rng=random.Random(1))
    seat = round_.acting_seats[0]
    thinker.think(("m", 0, seat), "medium", "seed", round_.view(seat))
    answers.get(timeout=60)  # the worker is up and has answered
    print(*[p.pid for p in thinker._pool._processes.values()], flush=True)
    sys.stdin.read()  # until killed
""")


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie waiting for init counts as gone
        return stat.read().rsplit(")", 1)[1].split()[0] != "Z"


def test_the_worker_leaves_when_the_table_is_killed():
    """A SIGKILLed table left its worker (and multiprocessing's resource tracker) running
    for ever, 36 MB each pair: a laptop's kill loop left 182 of them."""
    table = subprocess.Popen([sys.executable, "-c", TABLE], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        worker = int(table.stdout.readline())
        assert alive(worker)
        table.send_signal(signal.SIGKILL)
        table.wait(timeout=10)
        deadline = time.monotonic() + 10
        while alive(worker) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not alive(worker), "the worker outlived its table"
    finally:
        table.kill()


def test_ctrl_c_in_the_terminal_is_the_tables_not_the_workers():
    """Ctrl-C reaches the whole process group: the worker died with a KeyboardInterrupt
    traceback printed over the user's shell."""
    table = subprocess.Popen([sys.executable, "-c", TABLE], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        worker = int(table.stdout.readline())
        os.kill(worker, signal.SIGINT)
        time.sleep(1.0)
        assert alive(worker), "the worker died of Ctrl-C"
    finally:
        table.kill()


def test_closing_while_a_bot_thinks_logs_no_error(caplog):
    """close() cancels what was asked and not begun; each cancelled move was logged as
    "a bot's thinking failed" (with a CancelledError traceback) at every shutdown."""
    import queue
    import random as random_

    from golfbox.engine import Round, get_variant, make_rules
    from golfbox.table.thinker import Thinker

    variant = get_variant("4-card")
    round_ = Round(variant, make_rules(variant, {}), 2, dealer=0, rng=random_.Random(1))
    seat = round_.acting_seats[0]
    answers = queue.SimpleQueue()
    thinker = Thinker(answers.put)
    for n in range(3):  # one is begun, the others wait in the queue and are cancelled
        thinker.think(("m", n, seat), "hard", f"seed{n}", round_.view(seat))
    thinker.close()
    assert "thinking failed" not in caplog.text


def test_sigterm_to_every_process_of_the_unit_leaves_the_worker_to_the_table():
    """systemd stops the unit with SIGTERM to each of its processes, the worker too: it
    died mid-thought, and every stop while a bot thought logged "a bot's thinking failed"
    with a traceback. The worker now leaves when the table closes its pool."""
    import queue
    import random as random_

    from golfbox.engine import Round, get_variant, make_rules
    from golfbox.table.thinker import Thinker

    variant = get_variant("4-card")
    round_ = Round(variant, make_rules(variant, {}), 2, dealer=0, rng=random_.Random(1))
    seat = round_.acting_seats[0]
    answers = queue.SimpleQueue()
    thinker = Thinker(answers.put)
    try:
        thinker.think(("m", 0, seat), "medium", "seed", round_.view(seat))
        assert answers.get(timeout=60).action is not None  # the worker is up
        (worker,) = thinker._pool._processes
        os.kill(worker, signal.SIGTERM)
        thinker.think(("m", 1, seat), "medium", "seed", round_.view(seat))
        # Signalled before it could read this move, a worker that died of it cannot answer.
        assert answers.get(timeout=60).action is not None
        assert list(thinker._pool._processes) == [worker] and alive(worker)
    finally:
        thinker.close()
    assert not alive(worker)  # gone with the table's pool


def test_a_worker_that_cannot_start_is_a_failed_try_not_an_exception():
    """Starting the worker raised (an OSError: here the interpreter is gone, as when the
    venv is replaced under a running table) out of think(): a hint asked then stopped the
    service, and a bot's move stayed pending for good."""
    import multiprocessing.spawn
    import queue
    import random as random_

    from golfbox.engine import Round, get_variant, make_rules
    from golfbox.table.thinker import Thinker

    variant = get_variant("4-card")
    round_ = Round(variant, make_rules(variant, {}), 2, dealer=0, rng=random_.Random(1))
    seat = round_.acting_seats[0]
    answers = queue.SimpleQueue()
    thinker = Thinker(answers.put)
    spawn = multiprocessing.get_context("spawn")
    python = multiprocessing.spawn.get_executable()
    spawn.set_executable("/nonexistent/python3")
    try:
        thinker.think(("hint", 1, 0), "hard", "seed", round_.view(seat))
        thought = answers.get(timeout=10)
        assert thought.key == ("hint", 1, 0) and thought.action is None
    finally:
        spawn.set_executable(python)
    thinker.pending.discard(thought.key)  # as the table does with every answer
    try:
        thinker.think(("m", 2, seat), "medium", "seed", round_.view(seat))
        assert answers.get(timeout=60).action is not None  # a worker starts again
    finally:
        thinker.close()



def test_thoughts_queued_behind_a_stuck_one_are_answered_when_the_next_is_asked_at_once(
        stuck_bot_site):
    """Three thoughts waited behind one stuck in the worker. Its deadline killed the worker
    and the loop asked its next thought at once, before the pool had seen the worker die:
    starting the new worker cancelled the thought still waiting in the old pool's queue,
    and a cancelled thought got no answer at all. Its key stayed pending for good: a bot's
    seat waited for ever (what the deadline is there to end), a hint was never shown."""
    import queue
    import random as random_

    from golfbox.engine import Round, get_variant, make_rules
    from golfbox.table.thinker import THOUGHT_DEADLINE, Thinker

    variant = get_variant("4-card")
    round_ = Round(variant, make_rules(variant, {}), 2, dealer=0, rng=random_.Random(1))
    view = round_.view(round_.acting_seats[0])
    answers: queue.SimpleQueue = queue.SimpleQueue()

    def post(thought) -> None:
        answers.put(thought)
        if thought.timed_out:  # the loop, at once: the next bot's thought
            # ... with the product's deadline, not the stuck one's 2 s: it starts a new
            # worker, which at nice 10 on a loaded machine can take longer than that.
            thinker.deadline = THOUGHT_DEADLINE
            thinker.think(("next",), "medium", "seed", view)

    thinker = Thinker(post, deadline=2.0)
    try:
        thinker.think(("warm",), "medium", "seed", view)
        assert answers.get(timeout=60).action is not None  # the worker is up
        thinker.think(("stuck",), "stuck", "seed", view)
        time.sleep(0.5)  # the deadlines of those behind it come after the stuck one's
        for key in ("a", "b", "c"):
            thinker.think((key,), "medium", "seed", view)
        answered: dict[tuple, list] = {}
        give_up = time.monotonic() + 60
        while len(answered) < 5 and time.monotonic() < give_up:
            try:
                thought = answers.get(timeout=0.5)
            except queue.Empty:
                continue
            answered.setdefault(thought.key, []).append(thought)
        assert set(answered) == {("stuck",), ("a",), ("b",), ("c",), ("next",)}
        assert all(len(thoughts) == 1 for thoughts in answered.values()), answered
        assert answered[("stuck",)][0].timed_out
        assert answered[("next",)][0].action is not None  # from a new worker
    finally:
        thinker.close()


def test_only_the_stuck_thought_is_blamed_not_those_asked_just_after_it(stuck_bot_site, caplog):
    """Thoughts asked just after a stuck one reach their deadlines with it: each was told
    it had timed out (and its bot's move handed to medium, logged as "did not answer in
    30 s") though it only waited in the queue. Only the stuck one is; the others fail once,
    without a traceback, and are asked again."""
    import queue
    import random as random_

    from golfbox.engine import Round, get_variant, make_rules
    from golfbox.table.thinker import Thinker

    variant = get_variant("4-card")
    round_ = Round(variant, make_rules(variant, {}), 2, dealer=0, rng=random_.Random(1))
    view = round_.view(round_.acting_seats[0])
    answers: queue.SimpleQueue = queue.SimpleQueue()
    thinker = Thinker(answers.put, deadline=2.0)
    try:
        thinker.think(("warm",), "medium", "seed", view)
        assert answers.get(timeout=60).action is not None  # the worker is up
        thinker.think(("stuck",), "stuck", "seed", view)
        queued = [(key,) for key in "abcdef"]
        for key in queued:  # deadlines a hair after the stuck one's
            thinker.think(key, "medium", "seed", view)
        answered = {}
        give_up = time.monotonic() + 20
        while len(answered) < 1 + len(queued) and time.monotonic() < give_up:
            try:
                thought = answers.get(timeout=0.5)
            except queue.Empty:
                continue
            answered[thought.key] = thought
        assert set(answered) == {("stuck",), *queued}
        assert [key for key, thought in answered.items() if thought.timed_out] == [("stuck",)]
        # ... and the others failed once, a warning each, with no traceback of a fault
        assert "a bot's thinking failed" not in caplog.text
    finally:
        thinker.close()


def test_a_stop_while_a_bot_is_stuck_kills_its_worker_and_does_not_wait_for_it(
        stuck_bot_site):
    """systemctl stop while a bot's thought never comes (its deadline not yet reached):
    close() must not wait on the stuck worker, or the stop hangs until systemd's
    TimeoutStopSec kills the table. It waits CLOSE_WAIT, kills the worker and returns."""
    import queue
    import random as random_
    import threading

    from golfbox.engine import Round, get_variant, make_rules
    from golfbox.table.thinker import CLOSE_WAIT, Thinker

    variant = get_variant("4-card")
    round_ = Round(variant, make_rules(variant, {}), 2, dealer=0, rng=random_.Random(1))
    view = round_.view(round_.acting_seats[0])
    answers: queue.SimpleQueue = queue.SimpleQueue()
    thinker = Thinker(answers.put)  # the table's own deadline: the stop comes long before it
    thinker.think(("warm",), "medium", "seed", view)
    assert answers.get(timeout=60).action is not None  # the worker is up
    (worker,) = thinker._pool._processes
    thinker.think(("stuck",), "stuck", "seed", view)
    time.sleep(0.5)  # the worker has taken it
    closing = threading.Thread(target=thinker.close, daemon=True, name="closing")
    closing.start()
    closing.join(CLOSE_WAIT + 20)  # a loaded machine's margin, well inside the deadline
    try:
        assert not closing.is_alive(), "the stop waited for the stuck bot"
        assert not alive(worker)
    finally:
        if alive(worker):  # let a close() that waited for it end
            os.kill(worker, signal.SIGKILL)
        closing.join(30)


def workers_of(pid: int) -> list[int]:
    """The multiprocessing workers ``pid`` started (its resource tracker is none)."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                spawned = b"spawn_main" in cmdline.read()
        except (OSError, ValueError):  # not a process, or gone meanwhile
            continue
        if parent == pid and spawned:
            found.append(int(entry))
    return found


def test_thoughts_asked_at_once_are_thought_in_one_worker():
    """A hint asked while two hard bots wait for their moves: one worker thinks them one
    after the other. A worker is a Python with golfbox (about 36 MB: a Pi 3 has 1 GB),
    and the deadline blames the oldest thought unanswered as the one the worker holds."""
    import queue
    import random as random_

    from golfbox.engine import Round, get_variant, make_rules
    from golfbox.table.thinker import Thinker

    variant = get_variant("4-card")
    round_ = Round(variant, make_rules(variant, {}), 3, dealer=0, rng=random_.Random(1))
    view = round_.view(round_.acting_seats[0])
    answers: queue.SimpleQueue = queue.SimpleQueue()
    others = set(workers_of(os.getpid()))  # left by tests before, if any
    thinker = Thinker(answers.put)
    try:
        keys = [("hint", 1, 0), ("m", 0, 1), ("m", 0, 2)]
        for n, key in enumerate(keys):
            thinker.think(key, "hard", f"seed{n}", view)
        thoughts = [answers.get(timeout=60) for _ in keys]
        assert sorted(t.key for t in thoughts) == sorted(keys)
        assert all(t.action is not None for t in thoughts)
        assert len(set(workers_of(os.getpid())) - others) == 1
    finally:
        thinker.close()


def wakeups(pid: int) -> int:
    """How often the process's threads slept and were woken (voluntary context switches)."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/status") as status:
            total += sum(int(line.split()[1]) for line in status
                         if line.startswith("voluntary_ctxt_switches:"))
    return total


def test_the_idle_worker_sleeps_until_asked():
    """It stays all night beside an idle table: it looked whether the table was still
    there once a second (bench/soak.py: a wakeup a second with nothing to do). It waits
    on its parent's end of the pipe instead, and wakes only when asked or orphaned."""
    table = subprocess.Popen([sys.executable, "-c", TABLE], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        worker = int(table.stdout.readline())
        time.sleep(0.5)  # its answer sent, it is back to waiting
        before = wakeups(worker)
        time.sleep(3.0)
        assert wakeups(worker) - before <= 1
    finally:
        table.kill()
