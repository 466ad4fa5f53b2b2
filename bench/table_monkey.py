"""A monkey at the table: a café's table left running all evening, children mashing buttons.

Each seed builds a whole table on sim hardware (tests/conftest.py's SimTestTable:
a ManualClock, SimPad, SimDisplays, a real journal) with a random variant, house
rules, seat count (2..8), bots (random, easy, medium; hard in every 25th seed),
language, hints and shared display size, then takes random steps: presses and
holds of every button on random seats (a slow pad's HELD alone, several pads
mashed before the loop runs, a press through a cable said to be unplugged),
clock advances of 0-200 s (so bot delays, peek and hint timers, the unplug
takeover, the deserted result and the screen saver all fire), seats unplugged
and plugged back, displays failing and mending, and now and then a power cut
(the service dropped, the clock started again near zero as after a boot, a new
service built on the same journal) or a stop (close(), then the same). After
every step it checks:

  errors     no exception escapes; nothing is logged at WARNING or above but the
             expected fault messages (a part failed, a bot stands in, a retry);
  frames     every working display shows the frame of the state it is in (or of
             the screen saver), pixel for pixel, and no frame is all black;
  privacy    a seat's screen, and the shared one, are the same pixels when every
             card they may not see is dealt otherwise (tests/test_render.py's
             a_hidden_card_changes_no_pixel, on the live table);
  timers     no more than a few deadlines pending (nothing piles up all evening);
  resume     after a power cut or a stop: the same state, match, actions and every
             seat's view as before it, and during a round the same shared frame;
and at the end of each run:
  progress   with every seat plugged in and pressing ● (in a round after ▶ to a
             random choice) as time passes, a match ends and a new one starts.

    .venv/bin/python bench/table_monkey.py --seeds 300 --steps 300

prints one line per failing seed (the seed, the step, what broke) and a summary.
tests/test_table_monkey.py runs a handful of seeds of it.
"""

from __future__ import annotations

import argparse
import logging
import random
import re
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # SimTestTable lives in tests/conftest.py
sys.path.insert(0, str(ROOT))

from conftest import SimTestTable  # noqa: E402
from golfbox.engine import VARIANTS  # noqa: E402
from golfbox.hal.base import Button, LinkEvent  # noqa: E402
from golfbox.table import session as session_module  # noqa: E402
from golfbox.table.timers import ManualClock  # noqa: E402

# What a table logs at WARNING when a part fails as the monkey makes it fail.
EXPECTED_WARNINGS = re.compile(
    r"failed: .* \(the game goes on\)"  # a seat node or display went away
    r"|away for .* a bot plays for it"  # its stand-in starts
    r"|was away before the restart"  # a power cut with a seat unplugged (restore_away)
    r"|retrying in the background"  # a display failed (ResilientDisplay)
)
BUTTONS = list(Button)


class SeededSecrets:
    """Stands in for the secrets module the session deals each new match's seed from, so
    that a seed's run, rematches too, is the same run every time (a failure replays)."""

    def __init__(self, rng: random.Random):
        self.randbits = rng.getrandbits


class MonkeyFailure(AssertionError):
    pass


class Capture(logging.Handler):
    """Keeps what the table logs at WARNING and above that the monkey did not cause."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.unexpected: list[str] = []

    def emit(self, record):
        message = record.getMessage()
        if not EXPECTED_WARNINGS.search(message):
            self.unexpected.append(f"{record.levelname} {record.name}: {message}")


def random_settings(rng: random.Random, seed: int) -> tuple[dict, tuple[int, int]]:
    variant = rng.choice(list(VARIANTS.values()))
    rules = {}
    for spec in variant.rule_specs:
        if rng.random() < 0.5:
            value = rng.choice(spec.choices())
            rules[spec.name] = "off" if value is None else value  # as a config writes it
    seats = rng.randint(max(2, variant.min_players), min(8, variant.max_players))
    levels = ["random", "easy", "medium"] + (["hard"] if seed % 25 == 0 else [])
    bots = {seat: rng.choice(levels) for seat in range(seats) if rng.random() < 0.35}
    settings = dict(
        variant=variant.name, rules=rules, seats=seats, bots=bots,
        rounds=rng.choice([1, 1, 2, 3]), bot_delay=rng.choice([0.0, 0.5, 1.0, 3.0]),
        peek_timeout=rng.choice([0.5, 10.0, 60.0]),
        takeover_after=rng.choice([0.0, 5.0, 60.0, 120.0]),
        auto_start=rng.random() < 0.5, hints=rng.random() < 0.3,
        language=rng.choice(["en", "fr"]), seed=rng.randrange(2**32),
        screen_saver_minutes=rng.choice([0.0, 1.0, 10.0]))
    return settings, rng.choice([(256, 64), (128, 64)])


class Monkey:
    """One seeded run: ``run(steps)`` raises MonkeyFailure naming the step that broke."""

    def __init__(self, seed: int, path: Path, check_privacy_every: int = 1):
        self.seed, self.path = seed, path
        self.rng = random.Random(seed)
        self.settings, self.shared_size = random_settings(self.rng, seed)
        self.clock = ManualClock(1000.0)
        self.unplugged: set[int] = set()
        self.failed_displays: set[int | None] = set()
        self.privacy_every = check_privacy_every
        self.step_no = 0
        self.steps = 0
        self.log: list[str] = []  # what the monkey did, for the report of a failure
        self.counts: dict[str, int] = {}
        self.states_seen: set[str] = set()
        self.most_timers = 0
        self.table = self._build()

    # ------------------------------------------------------------------ the table

    def _build(self) -> SimTestTable:
        table = SimTestTable(self.path, clock=self.clock, shared_size=self.shared_size,
                             **{k: (dict(v) if isinstance(v, dict) else v)
                                for k, v in self.settings.items()})
        for seat in sorted(self.unplugged):  # the node's link reports it gone again
            table.service.post(LinkEvent(seat, False, f"seat {seat + 1}: node unplugged",
                                         buttons=True))
        for where in self.failed_displays:
            self._display(table, where).fail()
        table.service.run_until_idle()
        return table

    @staticmethod
    def _display(table, where):
        return table.shared if where is None else table.displays[where]

    # ------------------------------------------------------------------ steps

    def step(self) -> None:
        rng, table, seats = self.rng, self.table, self.settings["seats"]
        roll = rng.random()
        plugged = [s for s in range(seats) if s not in self.unplugged]
        if roll < 0.45 and plugged:
            seat, button = rng.choice(plugged), rng.choice(BUTTONS)
            self._did("press", seat, button.value)
            table.press(seat, button)
        elif roll < 0.52 and plugged:
            seat, button = rng.choice(plugged), rng.choice(BUTTONS)
            self._did("hold", seat, button.value)
            table.hold(seat, button)
        elif roll < 0.54 and plugged:
            # A hold whose PRESSED came earlier: its HELD alone, a hold time later, as a
            # slow pad sends it (the screens may have changed in between).
            seat, button = rng.choice(plugged), rng.choice(BUTTONS)
            self._did("slow hold", seat, button.value)
            table.pad.press(seat, button)
            table.service.run_until_idle()
            self._advance(self.settings.get("hold_time", 0.8))
            table.pad.held(seat, button)
            table.service.run_until_idle()
        elif roll < 0.57 and plugged:
            # Children mashing: presses on several pads land before the loop runs, and
            # the loop may be late (drawing eight screens) while timers fall due.
            presses = [(rng.choice(plugged), rng.choice(BUTTONS)) for _ in range(rng.randint(2, 6))]
            self._did("mash", *(f"{seat}:{button.value}" for seat, button in presses))
            for seat, button in presses:
                table.pad.press(seat, button)
                if rng.random() < 0.3:
                    self.clock.now += rng.choice([0.1, 0.5, 1.5])
            table.service.run_until_idle()
        elif roll < 0.80:
            self._advance(rng.choice([0.1, 0.5, 1.0, 2.0, 5.0]))
        elif roll < 0.90:
            self._advance(round(rng.uniform(0, 200), 1))
        elif roll < 0.905 and self.unplugged:
            # A loose cable: the node's link said it went, yet a press still gets through.
            seat, button = rng.choice(sorted(self.unplugged)), rng.choice(BUTTONS)
            self._did("press unplugged", seat, button.value)
            self.unplugged.discard(seat)  # the table takes the press as its pad back
            table.press(seat, button)
        elif roll < 0.94:
            seat = rng.randrange(seats)
            if rng.random() < 0.1:  # a link that flaps: the same news twice
                connected = seat not in self.unplugged
                self._did("link again", seat, connected)
                table.service.post(LinkEvent(seat, connected, "flap", buttons=True))
            elif seat in self.unplugged:
                self.unplugged.discard(seat)
                self._did("replug", seat)
                table.service.post(LinkEvent(seat, True, f"seat {seat + 1}: node back",
                                             buttons=True))
            else:
                self.unplugged.add(seat)
                self._did("unplug", seat)
                table.service.post(LinkEvent(seat, False, f"seat {seat + 1}: node unplugged",
                                             buttons=True))
            table.service.run_until_idle()
        elif roll < 0.97:
            where = rng.choice([None, *range(seats)])
            if where in self.failed_displays:
                self.failed_displays.discard(where)
                self._did("display mended", where)
                self._display(table, where).recover()
            else:
                self.failed_displays.add(where)
                self._did("display fails", where)
                self._display(table, where).fail()
            table.service.run_until_idle()
        else:
            self.power_cut()

    def _advance(self, seconds: float) -> None:
        """Time passes as on a real table: every timer fires when it falls due."""
        self._did("advance", seconds)
        end = self.clock.now + seconds
        svc = self.table.service
        while True:
            svc.run_until_idle()
            due = svc.timers.next_due()
            if due is None or due.when > end:
                break
            self.clock.now = max(self.clock.now, due.when)
        self.clock.now = end
        svc.run_until_idle()

    def _did(self, *what) -> None:
        if self.step_no > self.steps:  # the drain's: not the monkey's
            return
        self.log.append(" ".join(str(w) for w in what))
        self.counts[what[0]] = self.counts.get(what[0], 0) + 1

    def power_cut(self) -> None:
        before = self._snapshot()
        old = self.table
        if self.rng.random() < 0.3:
            self._did("stop")  # systemctl stop: every display says why, the journal closes
            old.service.close("stopped")
            if old.service.state != "paused":
                self.fail(f"a stopped table is {old.service.state}, not paused")
        else:
            self._did("power cut")
            old.journal.close()  # the file stays as the cut left it; only its handle goes
        # The Pi boots again: its monotonic clock starts again near zero.
        self.clock = ManualClock(round(self.rng.uniform(5.0, 60.0), 1))
        self.table = self._build()
        after = self._snapshot()
        if before["state"] == "match_over":
            # A shown result comes back as its last reveal, then the result (states.opening).
            # A table of bots deals on at once (nobody to press ●): the result again.
            if after["state"] not in ("round_over", "match_over") or \
                    after["match"] != before["match"]:
                self.fail(f"power cut at the result: came back as {after['state']}")
            return
        if before["state"] == "lobby" and self.settings["auto_start"]:
            return  # a table that starts at once (auto_start) starts a match after the cut
        for key in before:
            if key == "shared" and not (before["state"] == "playing" and before["plain"]):
                continue
            if key in ("plain",):
                continue
            if before[key] != after[key]:
                self.fail(f"power cut in {before['state']}: {key} differs after the resume")

    def _snapshot(self) -> dict:
        svc = self.table.service
        shot = {"state": svc.state, "match": None, "actions": None, "views": None,
                "shared": None}
        if svc.state != "lobby" and svc.match is not None:
            shot["match"] = svc.match_id
            shot["actions"] = svc.actions_played
            shot["views"] = tuple(svc.match.view(s) for s in range(len(svc.players)))
        shot["shared"] = self.table.shared.image.tobytes() if self.table.shared.image else None
        # The shared frame is comparable only with nothing transient on it: no fault line,
        # no screen saver, no pages a reader turned.
        shot["plain"] = (not svc.notices.faults and not svc.saver.asleep
                         and None not in self.failed_displays)
        return shot

    # ------------------------------------------------------------------ checks

    def fail(self, what: str) -> None:
        last = "; ".join(self.log[-8:])  # what led to it, to write the regression test
        raise MonkeyFailure(f"seed {self.seed} step {self.step_no}: {what}\n"
                            f"  {self.settings} shared {self.shared_size}\n  last steps: {last}")

    def check(self) -> None:
        svc = self.table.service
        self.states_seen.add(svc.state)
        current = svc.saver.frames(svc.current.lang) if svc.saver.asleep else svc.current
        shown = svc.painter._shown
        for key, display, frame in self._frames(current):
            where = None if key == "shared" else key[1]
            wrapper = svc.shared_display if where is None else svc.seat_displays[where]
            if where in self.failed_displays or not wrapper.healthy:
                continue  # mended: the next retry (ResilientDisplay) shows the newest frame
            if display.image is None:
                self.fail(f"{display.name} never got a frame ({svc.state})")
            if shown.get(key) != frame[0]:
                self.fail(f"{display.name} shows {shown.get(key)!r:.80}, not the {svc.state} "
                          f"frame {frame[0]!r:.80}")
            if display.image.getbbox() is None:
                self.fail(f"{display.name} is blank in {svc.state}")
            # The painter skips a frame whose source is unchanged: whatever the picture
            # depends on must be in its source, or the panel keeps an old picture.
            if self.step_no % self.privacy_every == 0 and \
                    frame[1]().convert(display.mode).tobytes() != display.image.tobytes():
                self.fail(f"{display.name} shows an old picture of the same source "
                          f"{frame[0]!r:.100} ({svc.state})")
        svc.status_words()  # systemd's STATUS= line, after every change
        # An evening of this must not pile up deadlines: a state's few, a hint's wait per
        # seat, the saver, the faults' turn and a retry per display.
        timers = len(svc.timers._pending)
        self.most_timers = max(self.most_timers, timers)
        if timers > 8 + 2 * (self.settings["seats"] + 1):
            self.fail(f"{timers} deadlines pending in {svc.state}")
        if not svc.saver.asleep and svc.state in ("playing", "round_over", "match_over") and \
                self.step_no % self.privacy_every == 0:
            self.check_privacy()

    def _frames(self, current):
        for seat, display in self.table.displays.items():
            yield ("seat", seat), display, current.seat_frame(seat, display.size)
        yield "shared", self.table.shared, current.shared_frame(self.table.shared.size)

    def check_privacy(self) -> None:
        """Deal every card a display may not show otherwise: its pixels must not change."""
        svc = self.table.service
        match, current = svc.match, svc.current
        real = match.round
        viewers = [(None, None)] + [(seat, svc.session.engine_seat.get(seat))
                                    for seat in self.table.displays]
        for seat, engine_seat in viewers:
            display = self.table.shared if seat is None else self.table.displays[seat]
            if seat is not None and (engine_seat is None or svc.session.is_bot(engine_seat)):
                continue
            frame = (current.shared_frame(display.size) if seat is None
                     else current.seat_frame(seat, display.size))
            before = frame[1]().convert(display.mode).tobytes()
            other = hidden_dealt_otherwise(real, engine_seat, self.rng)
            if other is None:
                continue
            match.round = other
            try:
                frame = (current.shared_frame(display.size) if seat is None
                         else current.seat_frame(seat, display.size))
                after = frame[1]().convert(display.mode).tobytes()
            finally:
                match.round = real
            if before != after:
                self.fail(f"{display.name} changes when cards it may not see are dealt "
                          f"otherwise ({svc.state})")

    # ------------------------------------------------------------------ the run

    def run(self, steps: int, drain: bool = True) -> None:
        self.steps = steps
        capture = Capture()
        logging.getLogger().addHandler(capture)
        old_level = logging.getLogger().level
        logging.getLogger().setLevel(logging.INFO)
        real_secrets = session_module.secrets
        session_module.secrets = SeededSecrets(random.Random(self.seed))
        try:
            self.check()
            for self.step_no in range(1, steps + 1):
                try:
                    self.step()
                except MonkeyFailure:
                    raise
                except Exception as exc:
                    self.fail(f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}")
                if capture.unexpected:
                    self.fail(f"logged {capture.unexpected[0]}")
                self.check()
            if drain:
                self.step_no = steps + 1
                self.drain()
                if capture.unexpected:
                    self.fail(f"logged {capture.unexpected[0]}")
        finally:
            session_module.secrets = real_secrets
            logging.getLogger().removeHandler(capture)
            logging.getLogger().setLevel(old_level)

    def drain(self, tries: int = 20_000) -> None:
        """Every seat plugged in, every display mended, and people who press ● (in a round
        after ▶ to a random choice, reading the rules ✕): from wherever the monkey left
        it, a match ends and the next one starts."""
        table, rng = self.table, self.rng
        for seat in sorted(self.unplugged):
            table.service.post(LinkEvent(seat, True, f"seat {seat + 1}: node back", buttons=True))
        self.unplugged.clear()
        for where in sorted(self.failed_displays, key=str):
            self._display(table, where).recover()
        self.failed_displays.clear()
        self._advance(31.0)  # the displays' retries
        ended = None  # the match whose result was shown
        for _ in range(tries):
            svc = table.service
            state = svc.state
            if state == "match_over" and ended is None:
                ended = svc.match_id
            elif ended is not None and state != "lobby" and svc.match_id != ended:
                return  # (a table of bots with no delay may be at its result again)
            seat = rng.randrange(self.settings["seats"])
            if seat in getattr(svc.current, "reading", {}):
                table.press(seat, Button.BACK)  # as its screen says: ✕ back to the game
            elif state == "lobby":
                if seat not in svc.lobby.joined:
                    table.press(seat, Button.OK)
                else:
                    table.hold(seat, Button.OK)
            elif state == "playing" and svc.inputs[seat].legal:
                # A person who may act picks a choice at random (● alone could place on
                # the same card all night in 9-card) and plays it.
                for _ in range(rng.randrange(len(svc.inputs[seat].legal))):
                    table.press(seat, Button.RIGHT)
                table.press(seat, Button.OK)
            else:
                table.press(seat, Button.OK)
            self._advance(rng.choice([0.2, 1.0, 3.0]))
            self.check()
        self.fail(f"no match ended and began again: stuck in {table.service.state}")


def hidden_dealt_otherwise(round_, seat, rng):
    """A copy of ``round_`` with the cards ``seat`` may not see (None: the shared display)
    shuffled among their places; None if there are fewer than two of them."""
    other = round_.copy()
    places = []  # (list, index)
    for owner, grid in enumerate(other.grids):
        known = other.known[owner] if owner == seat else 0
        for pos in range(len(grid)):
            if not (other.face_up[owner] >> pos & 1) and not (known >> pos & 1):
                places.append((grid, pos))
    places += [(other.stock, i) for i in range(len(other.stock))]
    cards = [where[i] for where, i in places]
    if len({c >> 2 for c in cards}) < 2:
        return None
    shuffled = cards[:]
    while [c >> 2 for c in shuffled] == [c >> 2 for c in cards]:
        rng.shuffle(shuffled)
    for (where, i), card in zip(places, shuffled):
        where[i] = card
    public_held = round_.view(None).held
    holder = round_.view(None).table.holder
    if other.held is not None and public_held is None and holder != seat:
        other.held = rng.choice(shuffled)  # the card drawn from the stock, unseen here
    return other


def run_seed(seed: int, steps: int, privacy_every: int = 1) -> Monkey:
    folder = Path(tempfile.mkdtemp(prefix="golfbox-monkey-",
                                   dir="/dev/shm" if Path("/dev/shm").is_dir() else None))
    try:
        monkey = Monkey(seed, folder, privacy_every)
        try:
            monkey.run(steps)
        finally:
            monkey.table.journal.close()
        return monkey
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=200, help="how many seeds (default 200)")
    parser.add_argument("--first", type=int, default=0, help="the first seed (default 0)")
    parser.add_argument("--steps", type=int, default=300, help="random steps per seed")
    parser.add_argument("--privacy-every", type=int, default=1,
                        help="check privacy every N steps (default every step)")
    parser.add_argument("-v", "--verbose", action="store_true", help="a line per seed")
    args = parser.parse_args(argv)
    failures, totals, states = [], {}, set()
    start = time.perf_counter()
    for seed in range(args.first, args.first + args.seeds):
        t0 = time.perf_counter()
        try:
            monkey = run_seed(seed, args.steps, args.privacy_every)
        except MonkeyFailure as exc:
            failures.append(seed)
            print(f"FAIL {exc}", flush=True)
            continue
        for key, n in monkey.counts.items():
            totals[key] = totals.get(key, 0) + n
        states |= monkey.states_seen
        if args.verbose:
            print(f"seed {seed}: ok in {time.perf_counter() - t0:.1f} s "
                  f"{monkey.settings['variant']} {monkey.settings['seats']} seats", flush=True)
    elapsed = time.perf_counter() - start
    print(f"{args.seeds} seeds x {args.steps} steps in {elapsed:.0f} s: "
          f"{len(failures)} failed {failures[:20]}")
    print("steps taken: " + ", ".join(f"{k} {v}" for k, v in sorted(totals.items())))
    print("states seen: " + ", ".join(sorted(states)))
    print("checked after every step: no exception, no unexpected warning, every working "
          "display on its state's frame (its pixels too) and not blank, privacy of seat and "
          "shared screens, at most a few deadlines pending; after each power cut or stop: "
          "the same state, match and views; at the end: a match ends and another begins")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
