"""A café evening, hours of play in seconds: what grows or wastes from match to match.

    python bench/evening.py [--matches 40] [--seats 4] [--people 2] [--seed 1]
                            [--keep-matches N] [--hard]
    python bench/evening.py --cafe MINUTES [--life 20] [--keep-matches N] [--seed 1]

One table on sim hardware with a journal on disk and a manual clock, played
match after match: people press at random (◀ ▶ ● ✕, a second or a few between
presses), now and then one pulls the seat's cable and plugs it back (a bot
stands in after takeover_after meanwhile), after a match they play again (●)
or go back to the lobby (✕) and start another (hold ●); the other seats are
bots (``--hard``: hard bots thinking in the worker process, in real time).
Printed every ``--every`` matches, then as growth per match and per hour of
the clock the table saw, from the end of the first match: traced Python
memory and RSS, open files, threads, child processes, timers pending, journal
bytes (pages in use, the main file on disk and the -wal file), journal writes
(transactions, each one fsync of the WAL), bytes handed to write calls (the
journal's: nothing else writes) and log lines at the service's level (INFO).

``--cafe MINUTES``: the evening's faults, for MINUTES of wall time. The table
runs in a process of its own, started on a config file (sim seats, 2 to 8,
each of the four variants in turn, bots and 0 to 2 people who press, pull
their cable and mash their buttons), and is SIGKILLed at a random moment (a
power cut: up to ``--life`` seconds, every 8th life 9 times that) and started
again on the same journal; between two lives the config is rewritten, one
time in five with a mistake, which must be refused naming its key while the
table runs on the last good config and shows so. Every resume is checked: the
resumed match's state (each card where it lies and who has seen it, whose
turn, the scores, the shuffles to come) must equal the state the killed table
had with as many journal entries, and no entry it had said may be missing.
Printed: the resumes, exact or not; the time to resume; RSS, open files and
threads of the table process and the journal's size after each match.

fsyncs themselves happen in SQLite's C code; count them with strace:

    strace -f -c -e trace=fsync,fdatasync .venv/bin/python -W ignore bench/evening.py --matches 10
"""

from __future__ import annotations

import argparse
import hashlib
import logging
import os
import random
import resource
import sqlite3
import sys
import tempfile
import time
import tracemalloc
from contextlib import closing
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from golfbox.hal.base import Button, LinkEvent  # noqa: E402
from golfbox.hal.sim import SimDisplay, SimPad  # noqa: E402
from golfbox.table.assemble import assemble_table  # noqa: E402
from golfbox.table.journal import KEEP_MATCHES, Journal  # noqa: E402
from golfbox.table.settings import TableSettings  # noqa: E402
from golfbox.table.timers import ManualClock  # noqa: E402
from procfs import io_counters  # noqa: E402  (beside this script)
from procfs import status  # noqa: E402  (beside this script)

PRESS_BUTTONS = (Button.LEFT, Button.RIGHT, Button.OK, Button.OK, Button.OK, Button.BACK)


class CountingJournal(Journal):
    """A journal that counts its write transactions (one WAL fsync each)."""

    writes = 0

    def _writing(self):
        CountingJournal.writes += 1
        return super()._writing()


class LineCounter(logging.Handler):
    def __init__(self):
        super().__init__(logging.INFO)
        self.lines = 0
        self.by_message: dict[str, int] = {}

    def emit(self, record):
        self.lines += 1
        self.by_message[record.msg] = self.by_message.get(record.msg, 0) + 1


def written_kib() -> float:
    """KiB this process handed to write calls (the journal's pages, the WAL's frames)."""
    return io_counters()["wchar"] / 1024


def journal_bytes(path: Path) -> tuple[int, int, int]:
    """Bytes of the journal's pages in use (through its WAL: what the file holds once
    checkpointed), of the main file on disk (the pages freed by pruning are in it, and
    reused), and of its -wal file."""
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        pages, free, size = (db.execute(f"PRAGMA {name}").fetchone()[0]
                             for name in ("page_count", "freelist_count", "page_size"))
    wal = Path(f"{path}-wal")
    return (pages - free) * size, path.stat().st_size, wal.stat().st_size if wal.exists() else 0


class Evening:
    def __init__(self, directory: Path, seats: int, people: int, seed: int, hard: bool,
                 keep_matches: int, settings: TableSettings | None = None,
                 clock: float = 0.0, journal: type[Journal] = None, faults=()):
        self.rng = random.Random(seed)
        self.clock = ManualClock(clock)
        if settings is None:
            bot_names = ("hard",) if hard else ("medium", "random", "easy", "greedy")
            bots = {seat: bot_names[seat % len(bot_names)] for seat in range(people, seats)}
            settings = TableSettings(variant="6-card", seats=seats, bots=bots, bot_delay=1.0,
                                     peek_timeout=10.0, takeover_after=120.0, auto_start=True)
        self.settings = settings
        seats = settings.seats
        self.people = [seat for seat in range(seats) if seat not in settings.bots]
        self.pad = SimPad(range(seats), self.clock)
        self.displays = {seat: SimDisplay(f"seat {seat + 1}") for seat in range(seats)}
        self.shared = SimDisplay("shared", (256, 64), "L")
        self.path = directory / "journal.sqlite3"
        self.journal = (journal or CountingJournal)(self.path, keep_matches)
        self.service = assemble_table(self.settings, [self.pad], self.displays, self.shared,
                                      self.journal, clock=self.clock, think_off_loop=hard,
                                      faults=list(faults))
        self.unplugged: set[int] = set()
        self.mashes = self.unplugs = 0

    def settle(self) -> None:
        """Let the table do what is due now, and wait for a thinking worker if any."""
        service = self.service
        while True:
            service.run_until_idle()
            if not service.session.thinking():
                if self.settled is not None:
                    self.settled()
                return
            service.step(5.0)  # a real worker answers in real time

    def wait(self, seconds: float) -> None:
        """Let ``seconds`` of the table's clock pass, firing the timers due meanwhile."""
        end = self.clock.now + seconds
        while True:
            self.settle()
            due = self.service.timers.next_due()
            if due is None or due.when > end:
                break
            self.clock.now = max(self.clock.now, due.when)
        self.clock.now = end
        self.settle()

    def match(self) -> None:
        """Play until the current match is over, then leave its result as people do."""
        service, rng = self.service, self.rng
        while service.state != "match_over":
            if self.people and rng.random() < 0.9:
                seat = rng.choice(self.people)
                if seat in self.unplugged:
                    if rng.random() < 0.02:
                        self.unplugged.discard(seat)
                        service.post(LinkEvent(seat, True, "plugged back", buttons=True))
                elif rng.random() < 0.002:
                    self.unplugged.add(seat)
                    self.unplugs += 1
                    service.post(LinkEvent(seat, False, "seat node unplugged", buttons=True))
                elif self.mash and rng.random() < 0.01:
                    self.mash_buttons(seat)
                else:
                    self.pad.press(seat, rng.choice(PRESS_BUTTONS))
            self.wait(rng.uniform(0.3, 3.0))
        for seat in sorted(self.unplugged):  # plugged back for the next match
            service.post(LinkEvent(seat, True, "plugged back", buttons=True))
        self.unplugged.clear()
        self.wait(rng.uniform(5.0, 60.0))  # people look at the result
        if service.state != "match_over":
            return  # a bots-only table dealt its rematch
        if not self.people:
            self.wait(60.0)
            if self.passers_by and self.service.saver.asleep:  # it rests on its result
                self.pad.press(rng.randrange(self.settings.seats), Button.OK)
            return
        seat = rng.choice(self.people)
        if rng.random() < 0.7:
            self.pad.press(seat, Button.OK)  # once more
        else:
            self.pad.press(seat, Button.BACK)  # back to the lobby, then start again
            self.wait(rng.uniform(5.0, 120.0))
            self.pad.hold(seat, Button.OK)
        self.wait(1.0)

    mash = False  # --cafe: now and then a child mashes a seat's buttons
    settled = None  # --cafe: called each time the table has done what is due
    passers_by = False  # --cafe: someone wakes a table of bots asleep on its result

    def mash_buttons(self, seat: int) -> None:
        """Every button of the seat, 10 to 40 times, 20 to 150 ms apart, some held."""
        self.mashes += 1
        for _ in range(self.rng.randint(10, 40)):
            button = self.rng.choice(list(Button))
            if self.rng.random() < 0.1:
                self.pad.hold(seat, button)
            else:
                self.pad.press(seat, button)
            self.wait(self.rng.uniform(0.02, 0.15))

    def close(self) -> None:
        self.service.close()


def figures(evening: Evening, lines: LineCounter) -> dict[str, float]:
    traced, _ = tracemalloc.get_traced_memory()
    main, file, wal = journal_bytes(evening.path)
    proc = status()
    return {"traced KiB": traced / 1024, "RSS KiB": proc["VmRSS"], "fds": proc["fds"],
            "threads": proc["Threads"], "children": proc["children"],
            "timers": len(evening.service.timers._pending), "journal B": main, "file B": file, "wal B": wal,
            "writes": CountingJournal.writes, "written KiB": written_kib(), "log lines": lines.lines,
            "hours": evening.clock.now / 3600}


# ---------------------------------------------------------------- --cafe: the evening's faults
#
# The table runs in a child process (the table process), which the parent SIGKILLs at a
# random moment (a power cut) and starts again on the same journal and config, the
# config sometimes rewritten in between: another variant and number of seats (2 to 8),
# or a mistake in it. The child says on a pipe, as it plays, the state of its match before
# each journal write; a resumed child says the state it resumed to, which must equal the
# state the killed one had with as many entries in the journal (the same hand, turn,
# scores and the dealer's shuffle to come).

VARIANTS = ("4-card", "6-card", "9-card", "polish-poker")
BOT_NAMES = ("medium", "random", "easy", "greedy")
# A café's mistakes in the config, each with the key the table must name.
MISTAKES = [
    ('variant = "7-card"', "game.variant"),
    ('bot_delay = "fast"', "game.bot_delay"),
    ("bot_delay = -1", "game.bot_delay"),
    ("takeover_after = 1e9", "game.takeover_after"),
    ("rounds = 0", "game.rounds"),
    ("varient = \"6-card\"", "game.varient"),
    ('language = "klingon"', "game.language"),
    ("seats = 12", "game.seats"),
    ('names = { 1 = "Ana", 2 = "ana" }', "game.names.2"),
    ("bot_delay = ", "line"),  # a TOML syntax error: its line is named
]


def cafe_config(seats: int, variant: str, people: int, mistake: str = "") -> str:
    bots = ", ".join(f'{seat + 1} = "{BOT_NAMES[seat % len(BOT_NAMES)]}"'
                     for seat in range(people, seats))
    text = '[[seats]]\nbackend = "sim"\n' * seats + '[shared_display]\ndriver = "sim"\n\n'
    text += (f'[game]\nvariant = "{variant}"\nbots = {{ {bots} }}\nauto_start = true\n'
             "bot_delay = 1.0\npeek_timeout = 10.0\ntakeover_after = 120.0\n")
    if mistake.startswith("variant"):
        text = text.replace(f'variant = "{variant}"\n', "")
    elif mistake.startswith("bot_delay"):
        text = text.replace("bot_delay = 1.0\n", "")
    elif mistake.startswith("takeover_after"):
        text = text.replace("takeover_after = 120.0\n", "")
    return text + (mistake + "\n" if mistake else "")


def match_state(service) -> dict:
    """What a power cut must not change: the match, its entries, every card where it
    lies and who knows it, whose turn, the scores, and the shuffles to come."""
    match = service.match
    if match is None:
        return {"m": service.match_id, "n": service.actions_played}
    rnd = match.round
    cards = {k: repr(getattr(rnd, k)) for k in (
        "grids", "stock", "discard", "face_up", "known", "held", "start_pending",
        "first_flips", "turns", "acting_seats", "_history")}
    whole = repr((cards, match.round_no, match.totals, match.history, match.rng.getstate()))
    return {"m": service.match_id, "n": service.actions_played, "round": match.round_no,
            "turn": rnd.acting_seats, "totals": match.totals,
            "hash": hashlib.sha1(whole.encode()).hexdigest()}


def table_process(args) -> None:
    """One life of the table (--table-process): resume, say so, play until killed."""
    import json
    from golfbox.commands.run import _load_or_last_good, refused_words
    from golfbox.table import last_good
    from golfbox.table.settings import settings_from_config

    out = sys.stdout
    say_line = lambda **kw: (out.write(json.dumps(kw) + "\n"), out.flush())  # noqa: E731
    folder = Path(args.table_process)
    config_path, copy = folder / "config.toml", folder / last_good.LAST_GOOD
    begun = time.perf_counter()
    config, refused = _load_or_last_good(config_path, copy)
    settings = settings_from_config(config.game, len(config.seats))
    faults = [(last_good.CONFIG_FAULT, lambda lang: refused_words(lang, config_path, refused),
               str(refused))] if refused is not None else []

    holder = {}

    class TellingJournal(CountingJournal):
        """Says the match's state before each entry is written (it is the state that
        many entries give: the one a cut just after the last commit resumes to)."""

        def record(self, match_id, seat, action):
            if "evening" in holder:
                say_line(state=match_state(holder["evening"].service))
            return super().record(match_id, seat, action)

    evening = Evening(folder, 0, 0, args.seed, False, args.keep_matches, settings=settings,
                      clock=args.clock, journal=TellingJournal, faults=faults)
    holder["evening"] = evening
    evening.mash = evening.passers_by = True
    said, done = [None], set()

    def settled():  # the state the last commit gave, once applied
        service = evening.service
        state = match_state(service)
        if (state["m"], state["n"]) != said[0]:
            said[0] = (state["m"], state["n"])
            say_line(state=state)
        if service.state == "match_over" and service.match_id not in done:
            done.add(service.match_id)
            # Its RSS, files and threads the parent reads from outside (proc_figures).
            say_line(match_done=len(done), variant=service.match_config.get("variant"),
                     players=len(service.players), figures={
                         "clock": evening.clock.now, "mashes": evening.mashes,
                         "unplugs": evening.unplugs})
    evening.settled = settled
    ready = time.perf_counter() - begun
    service = evening.service
    say_line(resumed=match_state(service), ready=ready, state=service.state,
             refused=refused.key if refused is not None else None,
             shown=service.notices.table if refused is not None else "",
             variant=settings.variant, seats=settings.seats)
    if refused is None:
        last_good.keep(config, config_path, copy)
    # The nodes come back with the power: the seats the journal had away are plugged in.
    for seat in sorted(service.session.away):
        service.post(LinkEvent(seat, True, "plugged back", buttons=True))
    while True:
        evening.match()


def proc_figures(pid: int) -> dict:
    """The table process's RSS, threads and open files."""
    got = status(pid)
    return {"RSS KiB": got["VmRSS"], "threads": got["Threads"], "fds": got["fds"]}


def cafe(args) -> None:
    """The parent: lives of the table process, each ended by SIGKILL; checks every resume."""
    import json
    import selectors
    import signal
    import subprocess

    rng = random.Random(args.seed)
    folder = Path(tempfile.mkdtemp(prefix="cafe-", dir=os.environ.get("EVENING_DIR")))
    seen: dict[tuple, str] = {}  # (match, entries) -> the state's hash, from any life
    counts = dict(lives=0, exact=0, unseen=0, wrong=0, lost=0, refused=0, refused_right=0,
                  mashes=0, unplugs=0, matches=0)
    resumes, readies, spawn_to_ready, problems, samples = [], [], [], [], []
    variants_played: dict[str, int] = {}
    sizes_played: dict[int, int] = {}
    previous_last = None
    good = None  # the (variant, seats) of the last config that loaded
    clock = 0.0
    deadline = time.monotonic() + args.cafe * 60
    while time.monotonic() < deadline:
        counts["lives"] += 1
        variant = VARIANTS[counts["lives"] % len(VARIANTS)]
        seats = rng.randint(2, 8)
        mistake, key = ("", None)
        if good is not None and rng.random() < 0.2:
            mistake, key = rng.choice(MISTAKES)
        people = rng.choice((0, 0, 1, 2)) if seats > 2 else rng.choice((0, 0, 1))
        text = cafe_config(seats, variant, people, mistake)
        (folder / "config.toml").write_text(text)
        if key == "line":  # the mistake is the last line
            key = f"line {len(text.splitlines())}"
        spawned = time.perf_counter()
        child = subprocess.Popen(
            [sys.executable, "-W", "ignore", __file__, "--table-process", str(folder),
             "--seed", str(rng.randrange(1 << 30)), "--keep-matches", str(args.keep_matches),
             "--clock", str(clock)],
            stdout=subprocess.PIPE, stderr=open(folder / "stderr.log", "ab"))
        # Every 8th life a long one: growth from match to match within one process.
        life = args.life * 9 if counts["lives"] % 8 == 0 else rng.uniform(1.0, args.life)
        life = min(life, max(1.0, deadline - time.monotonic()))
        chooser = selectors.DefaultSelector()
        chooser.register(child.stdout, selectors.EVENT_READ)
        buffer, first, last_state = b"", None, None
        life_faults = {"mashes": 0, "unplugs": 0}  # as of its last match's end

        def take(said: dict) -> None:
            nonlocal first, last_state, clock
            if "resumed" in said and first is None:
                first = said
                spawn_to_ready.append(time.perf_counter() - spawned)
            if isinstance(said.get("state"), dict):
                st = said["state"]
                if "hash" in st:
                    seen[(st["m"], st["n"])] = st["hash"]
                last_state = st
            if "match_done" in said:
                counts["matches"] += 1
                variants_played[said["variant"]] = variants_played.get(said["variant"], 0) + 1
                sizes_played[said["players"]] = sizes_played.get(said["players"], 0) + 1
                clock = max(clock, said["figures"]["clock"])
                life_faults.update(mashes=said["figures"]["mashes"],
                                   unplugs=said["figures"]["unplugs"])
                try:
                    samples.append(dict(proc_figures(child.pid), t=time.monotonic(),
                                        life=counts["lives"], n=said["match_done"],
                                        journal=sum(f.stat().st_size
                                                    for f in folder.glob("journal.sqlite3*"))))
                except (OSError, KeyError):
                    pass
        end = time.monotonic() + life
        try:
            while time.monotonic() < end and child.poll() is None:
                if not chooser.select(timeout=max(0.0, end - time.monotonic())):
                    continue
                chunk = os.read(child.stdout.fileno(), 1 << 16)
                if not chunk:
                    break
                buffer += chunk
                *lines, buffer = buffer.split(b"\n")
                for line in lines:
                    take(json.loads(line))
        except BaseException:
            child.kill()
            raise
        if child.poll() is not None:
            problems.append(f"life {counts['lives']}: the table exited by itself "
                            f"({child.returncode}): see {folder}/stderr.log")
            break
        os.kill(child.pid, signal.SIGKILL)  # the power cut
        child.wait()
        rest = buffer + child.stdout.read()  # what it said before the cut
        for line in rest.split(b"\n")[:-1]:
            take(json.loads(line))
        chooser.close()
        child.stdout.close()
        for name, count in life_faults.items():
            counts[name] += count
        clock += rng.uniform(5.0, 300.0)  # the table's clock goes on while the power is off
        if first is None:
            problems.append(f"life {counts['lives']}: killed before it said it was ready")
            continue
        readies.append(first["ready"])
        if key is not None:
            counts["refused"] += 1
            right = (first["refused"] == key and good == (first["variant"], first["seats"])
                     and key.split(".")[-1] in first["shown"])
            counts["refused_right"] += right
            if not right:
                problems.append(f"life {counts['lives']}: {mistake!r}: refused {first['refused']!r} "
                                f"(shown {first['shown']!r}), ran on {first['variant']} x "
                                f"{first['seats']}, last good {good}")
        else:
            good = (variant, seats)
        resumed = first["resumed"]
        if counts["lives"] > 1 and resumed.get("hash") is not None:
            want = seen.get((resumed["m"], resumed["n"]))
            resumes.append(resumed)
            if want is None:
                counts["unseen"] += 1
            elif want == resumed["hash"]:
                counts["exact"] += 1
            else:
                counts["wrong"] += 1
                problems.append(f"life {counts['lives']}: resumed match {resumed['m']} after "
                                f"{resumed['n']} entries to another state")
        if previous_last is not None and previous_last.get("m") == resumed.get("m") and \
                resumed.get("n", 0) < previous_last.get("n", 0):
            counts["lost"] += 1
            problems.append(f"life {counts['lives']}: entries lost: {previous_last} -> {resumed}")
        previous_last = last_state
        if counts["lives"] % 10 == 0:
            print(f"{time.monotonic() - deadline + args.cafe * 60:7.0f} s  {counts}", flush=True)
    print(json.dumps(dict(counts=counts, problems=problems, readies=readies,
                          spawn_to_ready=spawn_to_ready, variants=variants_played,
                          players=sizes_played, samples=samples, folder=str(folder))),
          file=open(folder / "cafe.json", "w"))
    report_cafe(counts, problems, readies, spawn_to_ready, variants_played, sizes_played,
                samples, folder)


def report_cafe(counts, problems, readies, spawn_to_ready, variants, players, samples, folder):
    import statistics
    print(f"\n{counts['lives']} lives of the table, {counts['matches']} matches finished "
          f"(variants {variants}, players {dict(sorted(players.items()))})")
    print(f"resumes: {counts['exact']} exact, {counts['wrong']} to another state, "
          f"{counts['unseen']} to a state the killed table had not said (cut between a commit "
          f"and the next), entries lost {counts['lost']}")
    print(f"power cuts (SIGKILL) {counts['lives']}; seats' cables pulled {counts['unplugs']}, "
          f"buttons mashed {counts['mashes']} times (counted to each life's last match end)")
    print(f"config mistakes: {counts['refused']}, refused by the right key and run on the last "
          f"good config: {counts['refused_right']}")
    if readies:
        print(f"time to resume (journal open, match replayed, screens drawn): median "
              f"{statistics.median(readies) * 1000:.0f} ms, max {max(readies) * 1000:.0f} ms; "
              f"from the process's start: median {statistics.median(spawn_to_ready) * 1000:.0f} ms,"
              f" max {max(spawn_to_ready) * 1000:.0f} ms")
    for name in ("RSS KiB", "fds", "threads", "journal"):
        values = [s[name] for s in samples]
        if values:
            print(f"{name}: {min(values)}–{max(values)} over {len(values)} matches")
    # growth within a life: the last sample of each life against its first
    lives: dict[int, list] = {}
    for s in samples:
        lives.setdefault(s["life"], []).append(s)
    grows = [(v[-1]["RSS KiB"] - v[0]["RSS KiB"]) / (v[-1]["n"] - v[0]["n"])
             for v in lives.values() if len(v) >= 3]
    if grows:
        print(f"RSS growth per match within a life (lives of 3+ matches: {len(grows)}): median "
              f"{statistics.median(grows):+.1f} KiB, max {max(grows):+.1f} KiB")
    for problem in problems:
        print("PROBLEM:", problem)
    print(f"files in {folder}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--people", type=int, default=2, help="seats played by random presses")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep-matches", type=int, default=KEEP_MATCHES,
                        help="matches the journal keeps (fewer: see it stop growing sooner)")
    parser.add_argument("--every", type=int, default=10, help="print figures every N matches")
    parser.add_argument("--hard", action="store_true",
                        help="bots hard, thinking in the worker process (real time: slow)")
    parser.add_argument("--cafe", type=float, metavar="MINUTES",
                        help="lives of a table process killed at random moments and resumed, "
                             "the config rewritten between them, for MINUTES of wall time")
    parser.add_argument("--life", type=float, default=20.0,
                        help="--cafe: the longest life of a table process, in seconds")
    parser.add_argument("--table-process", metavar="DIR", help=argparse.SUPPRESS)
    parser.add_argument("--clock", type=float, default=0.0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.table_process:
        return table_process(args)
    if args.cafe:
        return cafe(args)
    if args.matches < 2:  # what grows is measured from the end of the first match on
        parser.error(f"--matches {args.matches}: at least 2 (growth is measured from the second on)")
    lines = LineCounter()
    logging.getLogger().addHandler(lines)
    logging.getLogger().setLevel(logging.INFO)
    tracemalloc.start()
    with tempfile.TemporaryDirectory(dir=os.environ.get("EVENING_DIR")) as tmp:
        evening = Evening(Path(tmp), args.seats, args.people, args.seed, args.hard,
                          args.keep_matches)
        evening.match()
        first = figures(evening, lines)
        print(f"{'match':>5} " + " ".join(f"{k:>10}" for k in first))
        print(f"{1:>5} " + " ".join(f"{v:>10.1f}" for v in first.values()))
        started = time.perf_counter()
        for n in range(2, args.matches + 1):
            evening.match()
            if n % args.every == 0 or n == args.matches:
                now = figures(evening, lines)
                print(f"{n:>5} " + " ".join(f"{v:>10.1f}" for v in now.values()))
        last = figures(evening, lines)
        evening.close()
    played, hours = args.matches - 1, last["hours"] - first["hours"]
    print(f"\nover matches 2-{args.matches} ({hours:.1f} h of the table's clock, "
          f"{time.perf_counter() - started:.0f} s of wall time), growth per match:")
    for key in ("traced KiB", "RSS KiB", "fds", "threads", "children", "journal B", "file B", "writes",
                "written KiB", "log lines"):
        grown = (last[key] - first[key]) / played
        print(f"  {key:<11} {grown:+10.1f}  ({grown * played / hours:+.1f} an hour)")
    print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.1f} MiB")
    print("log lines by message:")
    for message, count in sorted(lines.by_message.items(), key=lambda kv: -kv[1]):
        print(f"  {count:6d}  {message}")


if __name__ == "__main__":
    main()
