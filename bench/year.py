"""A year of a café's evenings: does anything the table does grow with its history?

    python bench/year.py make DIR [--matches 11000] [--evening 30] [--seed 1]
    python bench/year.py measure OLD_DIR [--fresh DIR] [--runs 7]

``make`` writes a year of matches into DIR/journal.sqlite3 as the table writes
them: the table's own Session deals each match and journals every action
before playing it (bots choose for every seat, people's seats included), the
round's scores and the match's result; the result is left by a rematch or
for the lobby (close_result with the lobby's choices), seats go away and come
back (save_away), the lobby is kept as it changes (save_lobby). Each evening
of ``--evening`` matches every variant is dealt, 2 to 8 seats (4-card to 10),
and ends with a restart (the journal closed and opened again); now and then
the power goes in a match, which the next start resumes (Session.resume).
Only the fsyncs are left out, to write 11,000 matches in minutes: the journal
runs with ``synchronous = OFF`` while it is made (the same rows, the same
pages; only what reaches the disk when differs). The journal keeps what it
keeps (KEEP_MATCHES), as a café's would.

``measure`` compares copies of that folder and of a fresh one (an empty
journal, or ``--fresh DIR``), alternately, median of ``--runs``: a start of
the real ``golfbox run`` to its "table ready in N ms" line (and READY=1) in
the lobby, then the same with a match in play (6-card, 4 bots, 150 actions
in) and that match's resume alone (open, unfinished(), replay), one move's
record() with its fsync (and the statements it runs, with their query
plans), and the folder's files: the journal, its -wal, the last good
config's copy.
"""

from __future__ import annotations

import argparse
import compileall
import random
import re
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from golfbox.engine import VARIANTS, get_variant  # noqa: E402
from golfbox.table.journal import Journal  # noqa: E402
from golfbox.table.lobby import Lobby, Player  # noqa: E402
from golfbox.table.session import Notices, Session  # noqa: E402
from golfbox.table.settings import TableSettings  # noqa: E402
from golfbox.table.thinker import bot_choice  # noqa: E402
from table_startup import start_to_ready  # noqa: E402 (beside this script)

JOURNAL = "journal.sqlite3"
BOT_LEVELS = ("easy", "greedy", "medium")
PEOPLE_PLAY_AS = "greedy"  # what chooses a person's moves here


def open_fast(path: Path) -> Journal:
    """The real Journal, without the fsyncs (see the module's words)."""
    journal = Journal(path)
    journal._db.execute("PRAGMA synchronous = OFF")
    return journal


def new_session(journal: Journal, seats: int) -> Session:
    return Session(TableSettings(seats=seats), journal, Notices(), clock=time.monotonic)


def play(session: Session, cut_after: int | None) -> bool:
    """Play the session's match to its end, as the table does; False if the power went
    after ``cut_after`` more actions (the match left in play)."""
    match = session.match
    done = 0
    while not match.over:
        if cut_after is not None and done >= cut_after:
            return False
        if match.round.over:
            session.next_round()
        else:
            bots = session.bot_seats()
            if bots:
                session.bot_move()
            else:  # a person's move: chosen by a bot, played as a press plays it
                seat = match.round.acting_seats[0]
                view = match.view(seat)
                seed = session.move_seed(seat, session.actions_played)
                session.play(seat, bot_choice(PEOPLE_PLAY_AS, seed, view), legal=view.legal)
        done += 1
    return True


def players_for(rng: random.Random, variant: str) -> list[Player]:
    v = get_variant(variant)
    count = rng.randint(v.min_players, min(v.max_players, 8 if variant != "4-card" else 10))
    people = rng.randint(0, count)
    return [Player(seat, None if seat < people else rng.choice(BOT_LEVELS),
                   f"P{seat + 1}" if seat < people else f"P{seat + 1} (BOT)")
            for seat in range(count)]


def make(folder: Path, matches: int, evening: int, seed: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / JOURNAL
    rng = random.Random(seed)
    started = time.perf_counter()
    journal = open_fast(path)
    played = cuts = wal_most = 0
    wal = Path(f"{path}-wal")
    session = None
    while played < matches:
        if session is None or (played % evening == 0 and played):
            journal.close()  # the night's restart
            journal = open_fast(path)
            session = None
        saved = journal.unfinished()
        if saved is not None:  # the power went in a match: resume it
            session = new_session(journal, len(saved.players))
            assert session.resume(saved)
        else:
            variant = rng.choice(sorted(VARIANTS))
            players = players_for(rng, variant)
            session = new_session(journal, len(players))
            lobby = Lobby(TableSettings(seats=len(players)))
            journal.save_lobby(lobby.to_json())
            session.start_match(players, variant, {}, 9, leaving=None)
        if rng.random() < 0.05:  # a cable pulled, plugged back
            journal.save_away({0: rng.random() < 0.5})
            journal.save_away({})
        if not play(session, rng.randint(1, 300) if rng.random() < 0.02 else None):
            cuts += 1
            journal.close()  # the power cut
            journal = open_fast(path)
            continue
        played += 1
        wal_most = max(wal_most, wal.stat().st_size)
        if rng.random() < 0.5:  # back to the lobby, its choices kept with the close
            session.close_result(Lobby(TableSettings(seats=len(session.players))).to_json())
        else:
            session.rematch()  # (closes the result in the same transaction)
            if not play(session, None):
                raise AssertionError("unreachable")
            played += 1
            session.close_result(Lobby(TableSettings(seats=len(session.players))).to_json())
        if played % 1000 < 2:
            size = path.stat().st_size
            print(f"{played:6} matches, {time.perf_counter() - started:6.0f} s, "
                  f"journal {size / 1e6:.2f} MB", flush=True)
    journal.close()
    took = time.perf_counter() - started
    with closing(sqlite3.connect(path)) as db:
        kept = db.execute("SELECT count(*) FROM match").fetchone()[0]
        entries = db.execute("SELECT count(*) FROM entry").fetchone()[0]
        free = db.execute("PRAGMA freelist_count").fetchone()[0]
        pages = db.execute("PRAGMA page_count").fetchone()[0]
    print(f"made {played} matches ({cuts} power cuts resumed) in {took:.0f} s "
          f"({took / played * 1000:.1f} ms a match); the journal keeps {kept} matches, "
          f"{entries} entries, {pages} pages ({free} free), {path.stat().st_size / 1e6:.2f} MB; "
          f"its -wal was {wal_most / 1e6:.2f} MB at most")



def in_play(folder: Path, seats: int = 4, actions: int = 150) -> None:
    """Deal a match of 6-card at ``seats`` bot seats in ``folder``'s journal and stop
    in it after ``actions``: the match a start resumes."""
    journal = open_fast(folder / JOURNAL)
    try:
        session = new_session(journal, seats)
        players = [Player(seat, "greedy", f"P{seat + 1}") for seat in range(seats)]
        session.start_match(players, "6-card", {}, 9)
        play(session, actions)
    finally:
        journal.close()


def config_for(folder: Path, seats: int) -> Path:
    config = folder / "config.toml"
    config.write_text('[[seats]]\nbackend = "sim"\n' * seats
                      + '[shared_display]\ndriver = "sim"\n[game]\nbot_delay = 30\n')
    return config


def one_start(folder: Path, config: Path) -> tuple[float, float]:
    """The real ``golfbox run`` on ``folder``'s journal, as systemd starts it: its own
    "table ready in N ms" and process start to READY=1, in seconds."""
    to_ready, logged = start_to_ready(config, folder / JOURNAL)
    said = re.search(r"table ready in (\d+) ms", logged)
    if said is None:
        raise SystemExit(f"golfbox run never said 'table ready': {logged[-500:]}")
    return int(said.group(1)) / 1000, to_ready


def one_resume(folder: Path, seats: int) -> float:
    """Open the journal, find the match in play and replay it, as a start does."""
    started = time.perf_counter()
    with Journal(folder / JOURNAL) as journal:
        saved = journal.unfinished()
        assert new_session(journal, seats).resume(saved)
        return time.perf_counter() - started


def one_open(folder: Path) -> float:
    started = time.perf_counter()
    Journal(folder / JOURNAL).close()
    return time.perf_counter() - started


def moves(folder: Path, count: int) -> tuple[list[float], int, list[str]]:
    """Seconds of each of ``count`` record() calls (fsync included) into the match in
    play, the -wal's bytes after them, and the statements one record() ran."""
    statements: list[str] = []
    with Journal(folder / JOURNAL) as journal:
        match_id = journal.unfinished().id
        took = []
        for n in range(count):
            started = time.perf_counter()
            journal.record(match_id, n % 4, "draw")
            took.append(time.perf_counter() - started)
        journal._db.set_trace_callback(statements.append)
        journal.record(match_id, 0, "draw")
        journal._db.set_trace_callback(None)
        wal = Path(f"{folder / JOURNAL}-wal").stat().st_size
    return took, wal, statements


def size(paths) -> int:
    return sum(p.stat().st_size for p in paths if p.is_file())


def median_ms(values: list[float]) -> float:
    return statistics.median(values) * 1000


def p99_ms(values: list[float]) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(0.99 * len(values)))] * 1000


def measure(old: Path, fresh: Path | None, runs: int, seats: int) -> None:
    compileall.compile_dir(Path(__file__).resolve().parents[1] / "golfbox", quiet=1)
    with tempfile.TemporaryDirectory() as tmp:
        base = "fresh" if fresh is None else fresh.name
        folders = {base: Path(tmp) / "base", old.name: Path(tmp) / "old"}
        if fresh is not None:
            shutil.copytree(fresh, folders[base])
        else:
            folders[base].mkdir()
            Journal(folders[base] / JOURNAL).close()
        shutil.copytree(old, folders[old.name])
        journals = {}
        for name, folder in folders.items():
            with closing(sqlite3.connect(folder / JOURNAL)) as db:
                journals[name] = (db.execute("SELECT count(*) FROM match").fetchone()[0],
                                  size([folder / JOURNAL]))
        print("before: " + "; ".join(f"{name} {matches} matches, {size_ / 1e6:.2f} MB"
                                    for name, (matches, size_) in journals.items()))
        lobby = {name: ([], []) for name in folders}
        for _ in range(runs):  # the lobby: each journal's last match closed (or none)
            for name, folder in folders.items():
                ready, to_ready = one_start(folder, config_for(folder, seats))
                lobby[name][0].append(ready)
                lobby[name][1].append(to_ready)
        opens = {name: [] for name in folders}
        for _ in range(runs * 3):
            for name, folder in folders.items():
                opens[name].append(one_open(folder))
        for folder in folders.values():
            in_play(folder, seats)
        resumed = {name: ([], [], []) for name in folders}
        for _ in range(runs):
            for name, folder in folders.items():
                ready, to_ready = one_start(folder, config_for(folder, seats))
                resumed[name][0].append(ready)
                resumed[name][1].append(to_ready)
                resumed[name][2].append(one_resume(folder, seats))
        recorded = {name: ([], 0, []) for name in folders}
        for _ in range(4):
            for name, folder in folders.items():
                took, wal, statements = moves(folder, 250)
                recorded[name] = (recorded[name][0] + took, max(wal, recorded[name][1]),
                                  statements)
        for name in folders:
            start, to_ready = lobby[name]
            r_start, r_ready, r_resume = resumed[name]
            took, wal, statements = recorded[name]
            folder = folders[name]
            kept = [p for d in folder.glob("last-good.*") for p in d.iterdir()]
            print(f"{name}:\n  table ready in {median_ms(start):.0f} ms (READY=1 "
                  f"{median_ms(to_ready):.0f} ms) in the lobby, {median_ms(r_start):.0f} ms "
                  f"(READY=1 {median_ms(r_ready):.0f} ms) resuming a match\n"
                  f"  journal opened {median_ms(opens[name]):.1f} ms; resume (open, "
                  f"unfinished, replay) {median_ms(r_resume):.1f} ms\n"
                  f"  record() x{len(took)}: median {median_ms(took):.3f} ms, p99 "
                  f"{p99_ms(took):.3f} ms, {len(statements)} statements each; -wal "
                  f"{wal / 1e6:.2f} MB after 250 of them\n"
                  f"  journal {size([folder / JOURNAL]) / 1e6:.2f} MB; last good copy "
                  f"{size(kept)} B in {len(list(folder.glob('last-good.*')))} folder(s); "
                  f"files {', '.join(sorted(p.name for p in folder.iterdir()))}")
        print("one record()'s statements, and how SQLite finds their rows:")
        with closing(sqlite3.connect(folders[old.name] / JOURNAL)) as db:
            for statement in statements:
                plan = [row[3] for row in db.execute(f"EXPLAIN QUERY PLAN {statement}")]
                print(f"  {' '.join(statement.split())[:70]}: {'; '.join(plan) or '-'}")


def positive(text: str) -> int:
    number = int(text)
    if number < 1:
        raise argparse.ArgumentTypeError(f"{number}: at least 1")
    return number


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    maker = sub.add_parser("make", help="a year of matches into DIR")
    maker.add_argument("dir", type=Path)
    maker.add_argument("--matches", type=positive, default=11000)
    maker.add_argument("--evening", type=positive, default=30, help="matches between restarts")
    maker.add_argument("--seed", type=int, default=1)
    measurer = sub.add_parser("measure", help="OLD_DIR's journal against a fresh one")
    measurer.add_argument("old", type=Path)
    measurer.add_argument("--fresh", type=Path, help="a folder to copy as the fresh one "
                                                     "(default: an empty one)")
    measurer.add_argument("--runs", type=positive, default=7)
    measurer.add_argument("--seats", type=int, choices=range(2, 9), default=4)
    args = parser.parse_args()
    if args.command == "measure":
        for folder in (args.old, args.fresh):
            if folder is not None and not (folder / JOURNAL).is_file():
                parser.error(f"{folder}: no {JOURNAL} in it (make one with: year.py make DIR)")
    if args.command == "make":
        make(args.dir, args.matches, args.evening, args.seed)
    else:
        measure(args.old, args.fresh, args.runs, args.seats)


if __name__ == "__main__":
    main()
