"""The crash-safe journal: every match, and every action in order, in SQLite.

The table service records an action *before* it applies it; ``record()``
returns only once the action is committed (WAL, ``synchronous=FULL``), so a
crash or a power cut loses nothing that was acted on. At start the service
asks ``unfinished()`` and replays the actions into a fresh engine state.

Actions are opaque short strings here ("draw", "place 4"); the engine gives
them meaning. A seat of ``None`` means the table itself (its "next": a deal).

Files: the database and its ``-wal``/``-shm`` companions are created mode
0600. A file that is not a golfbox journal, is corrupt, or was written by a
newer golfbox raises ``JournalError`` naming the path; nothing is ever
recreated over it. A golfbox journal carries SQLite's ``application_id``
"GOLF"; a file without it (any other file, another program's database) is
refused by its header before SQLite opens it, and only a marked file is ever
called "corrupt". ``set_aside(path)`` moves such a file out of the way
(``<name>.corrupt-<timestamp>``) when the caller decides to start afresh.

Typical use::

    with Journal(path) as journal:
        log = journal.unfinished()
        match_id = log.id if log else journal.start_match(config, seed, players)
        journal.record(match_id, 2, "draw")      # then apply it
        journal.finish_round(match_id, 1, [12, 30, 7])
        journal.finish_match(match_id, [12, 30, 7], winners=[2])

Beside the matches, one row keeps the lobby's choices (``save_lobby``, replaced
at each change), so a power cut in the lobby loses nothing chosen there, and one
row a seat whose node is away (``save_away``), so a bot that had taken a seat
over plays on after a restart.

The journal keeps the newest ``keep_matches`` matches (KEEP_MATCHES): a table
that plays every evening for a year must not fill its SD card, nor open a
journal of a year's moves at each start (its check reads the whole file).
Older finished or abandoned matches are deleted as new ones start (see
_prune); SQLite reuses their pages, so the file stops growing.

A Journal may be shared between threads: calls are serialised by a lock. One
process holds a journal file at a time (an flock, see _own): a second golfbox is
refused with ``JournalError`` saying it is in use.
"""

from __future__ import annotations

import errno
import fcntl
import json
import logging
import os
import shutil
import sqlite3
import stat
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from golfbox.lockholder import flock_holder
from golfbox.table.durable import fsync_folder

log = logging.getLogger(__name__)

# "GOLF" in ASCII: tells a golfbox journal from any other SQLite file.
APPLICATION_ID = 0x474F4C46
SCHEMA_VERSION = 4
MAX_ACTION_LENGTH = 200
# About 35 kB a 4-player 6-card match with people (bench/evening.py): some 7 MB in all,
# a few weeks of a café's evenings.
KEEP_MATCHES = 200
# Matches deleted at most with each new one: a journal that grew large before (or a
# smaller keep_matches) is brought down over a few matches, each in a short transaction.
PRUNE_BATCH = 10

_SCHEMA_V1 = """
CREATE TABLE match (
    id          INTEGER PRIMARY KEY,
    started_at  TEXT NOT NULL,              -- ISO 8601, UTC
    config      TEXT NOT NULL,              -- JSON object
    seed        TEXT NOT NULL,              -- decimal: seeds may exceed 63 bits
    players     TEXT NOT NULL,              -- JSON list, opaque to the journal
    variant     TEXT NOT NULL,
    status      TEXT NOT NULL DEFAULT 'playing'
                CHECK (status IN ('playing', 'finished', 'abandoned')),
    ended_at    TEXT,
    totals      TEXT,                       -- JSON list of ints
    winners     TEXT                        -- JSON list of seats
);
-- Actions and events share one sequence per match, so their order is kept.
CREATE TABLE entry (
    match_id    INTEGER NOT NULL REFERENCES match(id),
    seq         INTEGER NOT NULL,
    at          TEXT NOT NULL,
    seat        INTEGER,
    action      TEXT,                       -- set for actions
    event       TEXT,                       -- set for events ...
    data        TEXT,                       -- ... with their JSON data
    CHECK ((action IS NULL) <> (event IS NULL)),
    PRIMARY KEY (match_id, seq)
) WITHOUT ROWID;
CREATE TABLE round_score (
    match_id    INTEGER NOT NULL REFERENCES match(id),
    round_no    INTEGER NOT NULL,
    at          TEXT NOT NULL,
    scores      TEXT NOT NULL,              -- JSON list of ints, by seat
    PRIMARY KEY (match_id, round_no)
) WITHOUT ROWID;
CREATE INDEX match_by_status ON match(status, id);
"""

# Version 2: when a finished match's result was left (a new match, or the lobby). Until
# then a restart shows that result again, as a power cut on it would otherwise skip it.
_SCHEMA_V2 = """
ALTER TABLE match ADD COLUMN result_closed_at TEXT;  -- ISO 8601, UTC; NULL: still shown
"""

# Version 3: the lobby's choices (save_lobby), so a power cut in the lobby keeps them. One
# row, replaced at each change: the file does not grow with an evening of presses.
_SCHEMA_V3 = """
CREATE TABLE lobby (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    at          TEXT NOT NULL,              -- ISO 8601, UTC
    data        TEXT NOT NULL               -- JSON object, opaque to the journal
);
"""

# Version 4: the seats whose node is away (save_away), and whether a bot had taken each
# over, so a restart (a power cut) goes on playing them with the bot at once. No time:
# the clock the wait was counted on does not survive a restart.
_SCHEMA_V4 = """
CREATE TABLE seat_away (
    seat        INTEGER PRIMARY KEY,        -- the physical seat, 0-based
    taken_over  INTEGER NOT NULL CHECK (taken_over IN (0, 1))
);
"""

# MIGRATIONS[n] takes a journal from schema version n to n + 1. A new version brings a
# journal its first golfbox wrote to tests/journals/ (make_journal.py): an update from
# each version is tested on a journal the real golfbox wrote (test_old_journals.py).
MIGRATIONS: list[str] = [_SCHEMA_V1, _SCHEMA_V2, _SCHEMA_V3, _SCHEMA_V4]
assert len(MIGRATIONS) == SCHEMA_VERSION


class JournalError(Exception):
    """The journal file cannot be used, or a write to it failed."""

    def __init__(self, path: os.PathLike | str, problem: str, *, passing: bool = False,
                 corrupt: bool = False, no_access: bool = False):
        self.path = Path(path)
        self.problem = problem
        self.full = FULL_SAYS in problem  # its disk is full (_if_full): the displays say so
        self.passing = passing  # it may heal by itself (a full disk, a lock): worth another try
        self.corrupt = corrupt  # a golfbox journal that is damaged: the caller may set it aside
        # This user may not look at it (a folder it may not enter): said here, not left to
        # the exception it was raised in, which a caller's own handler could be too.
        self.no_access = no_access
        super().__init__(f"journal {self.path}: {problem}")


@dataclass(frozen=True)
class MatchLog:
    """A match with everything needed to replay it: one in play (``unfinished()``), or a
    finished one whose result was still shown (``result_shown()``)."""

    id: int
    started_at: datetime
    config: dict[str, Any]
    seed: int
    players: list[Any]
    actions: list[tuple[int, int | None, str]]  # (seq, seat, action), in order
    events: list[tuple[int, str, Any]]  # (seq, kind, data), in order
    round_scores: dict[int, list[int]]  # rounds already finished


@dataclass(frozen=True)
class MatchSummary:
    """A finished match, as ``history()`` lists it."""

    id: int
    started_at: datetime
    ended_at: datetime
    variant: str
    players: list[Any]
    totals: list[int]
    winners: list[int]
    round_scores: dict[int, list[int]]  # round number -> scores by seat


class Journal:
    """One journal file. Open it once at start; ``close()`` (or ``with``) at exit."""

    def __init__(self, path: os.PathLike | str, keep_matches: int = KEEP_MATCHES):
        _check_int("keep_matches", keep_matches, minimum=1)
        self.path = Path(path)
        self.keep_matches = keep_matches
        self._lock = threading.Lock()
        # When the write under way began (time.monotonic()), else None; each change is
        # notified, for whoever must know the table is waiting for its disk (the
        # service keeps systemd's watchdog through an SD card's stall).
        self.writing_since: float | None = None
        self.writing_changed = threading.Condition()
        self._db, self._owner = _open(self.path)

    # -- lifetime ---------------------------------------------------------

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()  # checkpoints the WAL into the main file
                self._db = None
                _let_go(self._owner)  # only after SQLite let go of the file: see _own

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- writing ----------------------------------------------------------

    def start_match(self, config: Mapping[str, Any], seed: int, players: Sequence[Any] = (),
                    *, leaving: int | None = None) -> int:
        """Begin a match; returns its id.

        ``config`` must be JSON-serialisable; its ``variant`` (a name, or a
        table with a ``name``) is what ``history()`` shows. ``players`` is the
        seat setup (e.g. names, human or bot), JSON-serialisable, kept as is.
        ``leaving``: the finished match whose result this one leaves (a rematch),
        closed in the same transaction: a power cut leaves one or the other.
        """
        if not isinstance(config, Mapping):
            raise TypeError(f"config must be a mapping, not {type(config).__name__}")
        _check_int("seed", seed)
        config_json = _to_json("config", dict(config))
        players_json = _to_json("players", list(players))
        with self._writing() as db:
            if leaving is not None:
                self._close_result(db, leaving)
            cursor = db.execute(
                "INSERT INTO match (started_at, config, seed, players, variant) VALUES (?, ?, ?, ?, ?)",
                (_now(), config_json, str(seed), players_json, _variant_name(config)),
            )
            self._prune(db)  # in the same commit: no fsync of its own
        return int(cursor.lastrowid)

    def record(self, match_id: int, seat: int | None, action: str) -> int:
        """Append an action to a match in play; returns its sequence number.

        When this returns the action is on disk: only then apply it.
        """
        if seat is not None:
            _check_int("seat", seat, minimum=0)
        if not isinstance(action, str) or not action or len(action) > MAX_ACTION_LENGTH:
            raise ValueError(f"action must be a non-empty string of at most {MAX_ACTION_LENGTH} characters: {action!r}")
        return self._append(match_id, seat, action=action)

    def record_event(self, match_id: int, kind: str, data: Any = None) -> int:
        """Append a non-action event (e.g. "round started") with JSON data; returns its sequence number."""
        if not isinstance(kind, str) or not kind:
            raise ValueError(f"event kind must be a non-empty string: {kind!r}")
        return self._append(match_id, None, event=kind, data=_to_json("event data", data))

    def finish_round(self, match_id: int, round_no: int, scores: Sequence[int]) -> None:
        """Keep a round's scores by seat. Recording the same round again with
        the same scores is harmless (a replay does that); different scores are an error."""
        _check_int("round_no", round_no, minimum=0)
        scores_json = _to_json("scores", _int_list("scores", scores))
        with self._writing() as db:
            self._require_playing(db, match_id)
            row = db.execute(
                "SELECT scores FROM round_score WHERE match_id = ? AND round_no = ?", (match_id, round_no)
            ).fetchone()
            if row is None:
                db.execute(
                    "INSERT INTO round_score (match_id, round_no, at, scores) VALUES (?, ?, ?, ?)",
                    (match_id, round_no, _now(), scores_json),
                )
            elif row[0] != scores_json:
                raise ValueError(f"match {match_id} round {round_no} already scored {row[0]}, not {scores_json}")

    def finish_match(self, match_id: int, totals: Sequence[int], winners: Sequence[int]) -> None:
        """Close a match with its final totals by seat and the winning seats."""
        totals = _int_list("totals", totals)
        winners = _int_list("winners", winners)
        if not winners or any(not 0 <= seat < len(totals) for seat in winners):
            raise ValueError(f"winners {winners} must be seats among the {len(totals)} totals")
        with self._writing() as db:
            self._require_playing(db, match_id)
            db.execute(
                "UPDATE match SET status = 'finished', ended_at = ?, totals = ?, winners = ? WHERE id = ?",
                (_now(), json.dumps(totals), json.dumps(winners), match_id),
            )

    def close_result(self, match_id: int, lobby: Mapping[str, Any] | None = None) -> None:
        """The finished match's result was left: a restart no longer shows it. Harmless twice.
        ``lobby``: the lobby it was left for (see save_lobby), in the same transaction: a
        power cut between the two would restore the lobby kept before the match."""
        data = None if lobby is None else _to_json("lobby", dict(lobby))
        with self._writing() as db:
            self._close_result(db, match_id)
            if data is not None:
                self._save_lobby(db, data)

    def _close_result(self, db: sqlite3.Connection, match_id: int) -> None:
        status = self._status(db, match_id)
        if status != "finished":
            raise ValueError(f"match {match_id} is {status}, not finished")
        db.execute("UPDATE match SET result_closed_at = ? WHERE id = ? AND result_closed_at IS NULL",
                   (_now(), match_id))

    def abandon(self, match_id: int) -> None:
        """Give up a match in play (it will not be resumed). Abandoning twice is harmless."""
        with self._writing() as db:
            if self._status(db, match_id) == "abandoned":
                return
            self._require_playing(db, match_id)
            db.execute("UPDATE match SET status = 'abandoned', ended_at = ? WHERE id = ?", (_now(), match_id))

    def save_lobby(self, lobby: Mapping[str, Any]) -> None:
        """Keep the lobby's choices (JSON-serialisable), replacing those kept before."""
        data = _to_json("lobby", dict(lobby))
        with self._writing() as db:
            self._save_lobby(db, data)

    def _save_lobby(self, db: sqlite3.Connection, data: str) -> None:
        db.execute("INSERT OR REPLACE INTO lobby (id, at, data) VALUES (1, ?, ?)", (_now(), data))

    def save_away(self, seats: Mapping[int, bool]) -> None:
        """The seats whose node is away (seat -> a bot had taken it over), replacing those
        kept before."""
        rows = []
        for seat, taken_over in sorted(dict(seats).items()):
            _check_int("seat", seat, minimum=0)
            rows.append((seat, int(bool(taken_over))))
        with self._writing() as db:
            db.execute("DELETE FROM seat_away")
            db.executemany("INSERT INTO seat_away (seat, taken_over) VALUES (?, ?)", rows)

    # -- reading ----------------------------------------------------------

    def seats_away(self) -> dict[int, bool]:
        """What save_away kept last: seat -> a bot had taken it over. ValueError if a row
        has a seat below 0 (save_away writes none: the journal was edited)."""
        with self._reading() as db:
            away = {seat: bool(taken_over) for seat, taken_over in
                    db.execute("SELECT seat, taken_over FROM seat_away ORDER BY seat")}
        for seat in away:
            if seat < 0:  # (an INTEGER PRIMARY KEY: an integer, whatever the edit)
                raise ValueError(f"seat_away has a row of seat {seat}, which is no seat")
        return away

    def saved_lobby(self) -> Any:
        """What save_lobby kept last, or None; ValueError if it is not JSON."""
        with self._reading() as db:
            row = db.execute("SELECT data FROM lobby WHERE id = 1").fetchone()
        if row is None:
            return None
        try:
            return json.loads(row[0])
        except (TypeError, ValueError) as exc:
            raise ValueError(f"the saved lobby is not JSON ({exc}): {row[0]!r:.80}") from None

    def unfinished(self) -> MatchLog | None:
        """The newest match still in play, with all its entries, or None."""
        with self._reading() as db:
            row = db.execute(
                "SELECT id, started_at, config, seed, players FROM match"
                " WHERE status = 'playing' ORDER BY id DESC LIMIT 1"
            ).fetchone()
            return None if row is None else self._match_log(db, row)

    def result_shown(self) -> MatchLog | None:
        """The newest match, if it is finished and its result was never left (close_result),
        with all its entries: the table was on its last reveal or its result when it stopped."""
        with self._reading() as db:
            row = db.execute(
                "SELECT id, started_at, config, seed, players, status, result_closed_at FROM match"
                " ORDER BY id DESC LIMIT 1"
            ).fetchone()
            if row is None or row[5] != "finished" or row[6] is not None:
                return None
            return self._match_log(db, row[:5])

    def _match_log(self, db: sqlite3.Connection, row: tuple) -> MatchLog:
        """A match row (id, started_at, config, seed, players) with all its entries."""
        match_id, started_at, config, seed, players = row
        actions, events = [], []
        for seq, seat, action, event, data in db.execute(
            "SELECT seq, seat, action, event, data FROM entry WHERE match_id = ? ORDER BY seq", (match_id,)
        ):
            if action is not None:
                actions.append((seq, seat, action))
            else:
                events.append((seq, event, json.loads(data)))
        return MatchLog(
            id=match_id,
            started_at=datetime.fromisoformat(started_at),
            config=json.loads(config),
            seed=int(seed),
            players=json.loads(players),
            actions=actions,
            events=events,
            round_scores=self._round_scores(db, match_id),
        )

    def history(self, limit: int = 20) -> list[MatchSummary]:
        """Finished matches, newest first."""
        _check_int("limit", limit, minimum=1)
        with self._reading() as db:
            rows = db.execute(
                "SELECT id, started_at, ended_at, variant, players, totals, winners FROM match"
                " WHERE status = 'finished' ORDER BY id DESC LIMIT ?",
                (limit,),
            ).fetchall()
            return [
                MatchSummary(
                    id=match_id,
                    started_at=datetime.fromisoformat(started_at),
                    ended_at=datetime.fromisoformat(ended_at),
                    variant=variant,
                    players=json.loads(players),
                    totals=json.loads(totals),
                    winners=json.loads(winners),
                    round_scores=self._round_scores(db, match_id),
                )
                for match_id, started_at, ended_at, variant, players, totals, winners in rows
            ]

    # -- internals --------------------------------------------------------

    def _append(self, match_id: int, seat: int | None, *, action=None, event=None, data=None) -> int:
        with self._writing() as db:
            self._require_playing(db, match_id)
            (seq,) = db.execute(
                "SELECT coalesce(max(seq), 0) + 1 FROM entry WHERE match_id = ?", (match_id,)
            ).fetchone()
            db.execute(
                "INSERT INTO entry (match_id, seq, at, seat, action, event, data) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (match_id, seq, _now(), seat, action, event, data),
            )
        return seq

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, committed (and synced) on leaving the block."""
        with self._using() as db:
            self._now_writing(time.monotonic())
            try:
                db.execute("BEGIN IMMEDIATE")
                try:
                    yield db
                    db.execute("COMMIT")
                finally:
                    if db.in_transaction:  # the body or the commit failed
                        db.execute("ROLLBACK")
            finally:
                self._now_writing(None)

    def _now_writing(self, since: float | None) -> None:
        with self.writing_changed:
            self.writing_since = since
            self.writing_changed.notify_all()

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        with self._using() as db:
            db.execute("BEGIN")  # one consistent snapshot for multi-query reads
            try:
                yield db
            finally:
                db.execute("COMMIT")

    @contextmanager
    def _using(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            if self._db is None:
                raise JournalError(self.path, "journal is closed")
            try:
                yield self._db
            except sqlite3.Error as exc:
                raise JournalError(self.path, f"{exc} ({exc.__class__.__name__})"
                                              f"{_if_full_or_read_only(self.path)}") from exc

    def _prune(self, db: sqlite3.Connection) -> None:
        """Delete the oldest matches beyond the newest ``keep_matches``, PRUNE_BATCH at
        most. Never one in play: the newest is resumed, and an older one is left as it is."""
        old = [row[0] for row in db.execute(
            "SELECT id FROM match WHERE status != 'playing'"
            " AND id <= (SELECT id FROM match ORDER BY id DESC LIMIT 1 OFFSET ?)"
            " ORDER BY id LIMIT ?", (self.keep_matches, PRUNE_BATCH))]
        for table, column in (("entry", "match_id"), ("round_score", "match_id"), ("match", "id")):
            db.executemany(f"DELETE FROM {table} WHERE {column} = ?", [(i,) for i in old])

    def _status(self, db: sqlite3.Connection, match_id: int) -> str | None:
        row = db.execute("SELECT status FROM match WHERE id = ?", (match_id,)).fetchone()
        return None if row is None else row[0]

    def _require_playing(self, db: sqlite3.Connection, match_id: int) -> None:
        status = self._status(db, match_id)
        if status is None:
            raise ValueError(f"no match {match_id} in the journal")
        if status != "playing":
            raise ValueError(f"match {match_id} is {status}, not in play")

    def _round_scores(self, db: sqlite3.Connection, match_id: int) -> dict[int, list[int]]:
        return {
            round_no: json.loads(scores)
            for round_no, scores in db.execute(
                "SELECT round_no, scores FROM round_score WHERE match_id = ? ORDER BY round_no", (match_id,)
            )
        }


JOURNAL_FILES = ("", "-wal", "-shm")  # the database's name and its companions' suffixes


def set_aside(path: os.PathLike | str) -> Path:
    """Rename an unusable journal (and its -wal/-shm) to ``<name>.corrupt-<timestamp>``.

    Nothing is deleted, so the file can still be examined or repaired.
    Returns the new path of the main file.
    """
    path = Path(path)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    again = 1
    while any(Path(f"{target}{suffix}").exists() for suffix in JOURNAL_FILES):
        again += 1  # one set aside in the same second (or a clock set back): keep both
        target = path.with_name(f"{path.name}.corrupt-{stamp}.{again}")
    for suffix in JOURNAL_FILES:
        source = Path(f"{path}{suffix}")
        if source.exists():
            os.replace(source, f"{target}{suffix}")
    log.warning("journal %s set aside as %s", path, target)
    return target


# -- opening --------------------------------------------------------------


SQLITE_MAGIC = b"SQLite format 3\x00"
NOT_OURS = "is not a golfbox journal"


def _check_ours(path: Path) -> bool:
    """Look at an existing file's header before SQLite touches it.

    Raises JournalError (never a ``corrupt`` one) for anything that is
    not, or cannot be shown to be, a golfbox journal: such a file is never opened,
    written or set aside. Returns True when the header carries golfbox's
    application_id, False for a file with no mark yet (empty, or an SQLite file
    still being created: its mark may still be in the WAL).
    """
    try:
        info = path.stat()
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise JournalError(path, f"cannot open: {exc.strerror or exc}",
                           no_access=isinstance(exc, PermissionError)) from None
    if stat.S_ISDIR(info.st_mode):
        raise JournalError(path, "is a directory, not a golfbox journal")
    if not stat.S_ISREG(info.st_mode):
        raise JournalError(path, f"{NOT_OURS} (not a regular file); refusing to touch it")
    if info.st_size == 0:
        return False  # nothing to lose: a journal whose creation was cut short
    try:
        with open(path, "rb") as file:
            header = file.read(100)
    except OSError as exc:
        raise JournalError(path, f"cannot open: {exc.strerror or exc}",
                           no_access=isinstance(exc, PermissionError)) from None
    if not header.startswith(SQLITE_MAGIC):
        raise JournalError(path, f"{NOT_OURS} (not an SQLite database); refusing to touch it")
    if len(header) < 100:  # the mark (application_id) is at byte 68: whose it was is lost
        raise JournalError(path, f"is cut short ({len(header)} bytes, less than the 100 of an "
                                 "SQLite header): not a golfbox journal; refusing to touch it "
                                 "(move it away to begin a new journal)")
    app_id = int.from_bytes(header[68:72], "big")
    if app_id not in (0, APPLICATION_ID):
        raise JournalError(path, f"{NOT_OURS} (an SQLite database of another program); "
                                 "refusing to touch it")
    return app_id == APPLICATION_ID


def check_file(path: os.PathLike | str) -> None:
    """JournalError if what is at ``path`` is no golfbox journal (a folder, a text
    file, another program's database, a path under a file), found by reading its
    header only. Nothing there yet, or a file this user may not look at (the
    service's own, read by another user), is no refusal: its opening will tell."""
    try:
        _check_ours(Path(path))
    except JournalError as exc:
        if not exc.no_access:
            raise


IN_USE = "is in use by another golfbox"
STOP_IT = "stop it first (is it the golfbox service? sudo systemctl stop golfbox)"


def in_use(path: Path) -> str:
    """Why a journal another process holds is refused, naming that process when
    /proc/locks can (see golfbox.lockholder)."""
    holder = flock_holder(path)
    return f"{IN_USE}, {holder}: {STOP_IT}" if holder else f"{IN_USE}: {STOP_IT}"

# Journal files this process holds: (device, inode) -> [the locked descriptor, Journals open].
_HELD: dict[tuple[int, int], list[int]] = {}
_HELD_LOCK = threading.Lock()


def _own(path: Path) -> tuple[int, int]:
    """Take the journal for this process: an exclusive flock on the file, kept until
    the last Journal of this process on it closes (tests reopen one to play a
    restart). SQLite's locks guard single transactions; two tables writing moves into
    one match would make it unplayable. flock and SQLite's fcntl locks do not
    interact on Linux, but closing any descriptor of the file drops this process's
    fcntl locks: so a file already held is not opened again, and the descriptor is
    closed only once SQLite has closed it everywhere in the process (_let_go)."""
    with _HELD_LOCK:
        info = path.stat()
        key = (info.st_dev, info.st_ino)
        if key in _HELD:
            _HELD[key][1] += 1
            return key
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise JournalError(path, in_use(path)) from None
        except BaseException:
            os.close(fd)
            raise
        _HELD[key] = [fd, 1]
        return key


@contextmanager
def taken(path: os.PathLike | str) -> Iterator[str | None]:
    """Take the journal's file as a table does (see _own), without opening it as a
    database: the table's hardware is its journal holder's (check-hardware).
    JournalError if another process holds it. Yields None when it holds the file, or
    when there is none (no table ran with it yet: none is made; nor anything that is
    no file, which no table holds); else why this user cannot look at it (the
    service's 0700 state directory: ``sudo -u golfbox`` can)."""
    key, cannot = None, None
    try:
        if stat.S_ISREG(os.stat(path).st_mode):  # a named pipe's open would wait
            key = _own(Path(path))
    except (FileNotFoundError, NotADirectoryError):
        pass
    except PermissionError as exc:
        cannot = exc.strerror or str(exc)
    try:
        yield cannot
    finally:
        if key is not None:
            _let_go(key)


def _let_go(key: tuple[int, int]) -> None:
    with _HELD_LOCK:
        held = _HELD[key]
        held[1] -= 1
        if held[1] == 0:
            os.close(held[0])
            del _HELD[key]


def _open(path: Path) -> tuple[sqlite3.Connection, tuple[int, int]]:
    """Open (creating if absent), take and check a journal; raise JournalError if
    unusable. Returns the connection and the file's key in _HELD (see _own).

    Only a file marked as a golfbox journal (application_id) is ever called
    corrupt, the verdict that lets the caller set it aside."""
    marked = _check_ours(path)
    owner = None
    # Explicit modes, never the umask: it is the whole process's, and other threads
    # write files meanwhile. SQLite makes the -wal and -shm with the main file's mode.
    try:
        _make_folders(path.parent)
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except FileExistsError:
            pass
        owner = _own(path)
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        try:
            _prepare(db, path)
        except BaseException:
            db.close()
            raise
        _make_private(path)  # now known to be a journal: another program's file is left as it is
    except BaseException as exc:
        if owner is not None:
            _let_go(owner)
        why = _why_not(path, marked, exc)
        if why is None:
            raise
        raise why from exc
    return db, owner


def _make_folders(folder: Path) -> None:
    """``folder`` and any missing above it, the owner's only (0700, as XDG asks of a
    state home): the journals set aside beside it deal their matches too."""
    missing = []
    while not folder.is_dir():
        missing.append(folder)
        folder = folder.parent
    for one in reversed(missing):
        try:
            one.mkdir(0o700)
        except FileExistsError:  # made meanwhile (another journal), or a file: opening says
            continue
        try:  # SQLite fsyncs the journal's folder, never the folder's own entry
            fsync_folder(one.parent)
        except OSError as exc:  # it works on: a cut soon may lose the folder, not a match
            log.warning("journal folder %s may not survive a power cut: %s", one,
                        exc.strerror or exc)


def _make_private(path: Path) -> None:
    """The journal holds the match seed, which deals every card: one others may read
    (copied in with cp, a restored backup) is made the owner's only, and so are its
    -wal and -shm, which SQLite makes with the main file's mode."""
    for file in (Path(f"{path}{suffix}") for suffix in JOURNAL_FILES):
        try:
            old = stat.S_IMODE(file.stat().st_mode)
            if not old & 0o077:
                continue
            os.chmod(file, old & 0o700)
            # A FAT stick mounted with quiet takes the chmod and changes nothing.
            if stat.S_IMODE(file.stat().st_mode) & 0o077:
                log.warning("journal %s can be read by others and cannot be made private: "
                            "its file system keeps its mode (%04o)", file, old)
            else:
                log.warning("journal %s could be read by others (%04o): made private (%04o)",
                            file, old, old & 0o700)
        except FileNotFoundError:
            continue
        except OSError as exc:  # another user's file: its opening says what it can
            log.warning("journal %s can be read by others and cannot be made private: %s",
                        file, exc.strerror or exc)


def _why_not(path: Path, marked: bool, exc: BaseException) -> JournalError | None:
    """The JournalError that says why opening ``path`` failed with ``exc``; None to let
    ``exc`` itself through (a JournalError already, or not about the file)."""
    if isinstance(exc, sqlite3.OperationalError):  # permissions, a full or read-only disk, a lock
        passing = getattr(exc, "sqlite_errorcode", 0) & 0xFF in PASSING_SQLITE_ERRORS
        return JournalError(path, f"cannot open ({exc}{_if_full(path)})", passing=passing)
    if isinstance(exc, sqlite3.DatabaseError):
        if not marked:  # it may be anybody's file: leave it as it is
            return JournalError(path, f"{NOT_OURS} (an unreadable SQLite file: {exc}); "
                                      "refusing to touch it")
        return JournalError(path, f"unreadable or corrupt ({exc}); move it aside or restore a backup",
                            corrupt=True)
    if isinstance(exc, OSError):
        return JournalError(path, f"cannot open: {exc.strerror or exc}{_if_full(path)}",
                            passing=exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EIO),
                            no_access=isinstance(exc, PermissionError))
    return None


# SQLite's primary result codes for a failure that can pass: SQLITE_BUSY, SQLITE_LOCKED,
# SQLITE_IOERR (a write into a full disk, as often as SQLITE_FULL), SQLITE_FULL.
PASSING_SQLITE_ERRORS = (5, 6, 10, 13)
FULL_SAYS = "; the disk is full"
FULL_BELOW = 1 << 20  # free bytes under which a failed write is put down to a full disk


def _if_full(path: Path) -> str:
    """'; the disk is full' when the journal's disk has (next to) no room left."""
    try:
        usage = shutil.disk_usage(path.parent)
    except OSError:
        return ""
    if usage.total == 0:  # /proc, /sys: no disk at all, so not a full one
        return ""
    return f"{FULL_SAYS} ({usage.free} bytes free)" if usage.free < FULL_BELOW else ""


def _if_full_or_read_only(path: Path) -> str:
    """Why a write may have failed, when the disk says. SQLite calls a file system that
    ext4 made read-only after an SD card fault a "disk I/O error", and statvfs() does
    not tell (Linux 6.18's emergency_ro): setting the journal's times to what they are
    is refused there (EROFS), and writes nothing but its ctime elsewhere."""
    try:
        times = os.stat(path)
        os.utime(path, ns=(times.st_atime_ns, times.st_mtime_ns))
    except OSError as exc:
        if exc.errno == errno.EROFS:
            return "; its file system is read-only"
    return _if_full(path)


def _prepare(db: sqlite3.Connection, path: Path) -> None:
    # Another connection may hold a lock briefly: a second Journal of this process on the
    # file (a test's restart), the sqlite3 shell, a backup. Never a second golfbox: _own.
    db.execute("PRAGMA busy_timeout = 5000")
    app_id = db.execute("PRAGMA application_id").fetchone()[0]
    version = db.execute("PRAGMA user_version").fetchone()[0]
    has_tables = db.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0] > 0
    if app_id != APPLICATION_ID and (app_id != 0 or has_tables):
        raise JournalError(path, "is an SQLite database but not a golfbox journal; refusing to touch it")
    if version > SCHEMA_VERSION:
        raise JournalError(path, f"schema version {version} is newer than this golfbox knows ({SCHEMA_VERSION}); upgrade golfbox")
    if db.execute("PRAGMA journal_mode = WAL").fetchone()[0].lower() != "wal":
        raise JournalError(path, "cannot switch to WAL mode")
    db.execute("PRAGMA synchronous = FULL")  # fsync the WAL on every commit: survives power cuts
    db.execute("PRAGMA foreign_keys = ON")
    check = [row[0] for row in db.execute("PRAGMA quick_check")]
    if check != ["ok"]:
        raise JournalError(path, "is corrupt: " + "; ".join(check[:3]), corrupt=True)
    for from_version in range(version, SCHEMA_VERSION):
        db.execute("BEGIN IMMEDIATE")
        for statement in _statements(MIGRATIONS[from_version]):
            db.execute(statement)
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute(f"PRAGMA user_version = {from_version + 1}")
        db.execute("COMMIT")
    # One line: a new journal is built by every migration in turn (four lines said it
    # as if an old one had been upgraded three times).
    if version == 0 and not has_tables:
        log.info("journal %s: new (schema version %d)", path, SCHEMA_VERSION)
    elif version < SCHEMA_VERSION:
        log.info("journal %s: schema version %d brought up to %d", path, version, SCHEMA_VERSION)


def _statements(script: str) -> list[str]:
    """Split a migration into statements, so it runs inside our own transaction
    (executescript would commit first)."""
    statements, pending = [], ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    if pending.strip():
        raise AssertionError(f"incomplete SQL in migration: {pending!r}")
    return statements


# -- small helpers --------------------------------------------------------


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def _check_int(name: str, value: Any, minimum: int | None = None) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{name} must be an integer, not {type(value).__name__}")
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be at least {minimum}: {value}")


def _int_list(name: str, values: Sequence[int]) -> list[int]:
    values = list(values)
    for value in values:
        _check_int(f"each of {name}", value)
    return values


def _to_json(name: str, value: Any) -> str:
    try:
        return json.dumps(value, sort_keys=True, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} cannot be stored as JSON: {exc}") from exc


def _variant_name(config: Mapping[str, Any]) -> str:
    variant = config.get("variant", "")
    if isinstance(variant, Mapping):
        variant = variant.get("name", "")
    return str(variant)
