"""A match at the table: the engine's match, its journal, its players and its bots.

Every action is written to the journal before it is applied, including the
table's own ("next": deal the next round). At start an unfinished match is
replayed from its seed and actions, and play goes on where it stopped.

What a bot chooses is a pure function of the journal: a bot keeps nothing
between its moves (what it knows of the round is its view, the public history
too), so each move is chosen by a bot made for it, its random generator seeded
from (seed, seat, actions so far). A resumed match plays on as it would have.
"""

from __future__ import annotations

import logging
import math
import secrets
from dataclasses import dataclass, field
from typing import Callable

from golfbox.bots import BOTS, DEFAULT_BOT
from golfbox.engine import Action, Match, READY, RuleError, make_rules
from golfbox.hal.base import LinkEvent
from golfbox.render.words import say
from golfbox.table.journal import Journal, JournalError, MatchLog
from golfbox.table.lobby import Player
from golfbox.table.settings import TableSettings
from golfbox.table.thinker import Thinker, Thought, bot_choice, move_seed

log = logging.getLogger(__name__)

NEXT_ROUND = "next"  # the journal's action (seat None) for "deal the next round"
STAND_IN_BOT = DEFAULT_BOT  # plays for a person whose seat went away: as well as it can
# A bot that fails to choose (a bug, a worker killed twice over the same move) must not
# stand the game still: the first of these that can plays that one move for it.
FALLBACK_BOTS = ("medium", "random")
THINK_TRIES = 2  # a move thought off the loop is asked this often before a fallback plays it
LINK_LINES_A_MINUTE = 6  # a part's comings and goings logged a minute (Session._log_link)
# A part that answers again is counted back (its fault off the shared display, a seat
# its person's again) only once it has answered this long. A loose cable or an I2C link
# that comes and goes ten times a second fails again within a few tenths: each flip
# blinked the fault on the shared display and handed the seat between its bot and its
# person (the takeover wait starting again at each). A part really back is back 1.5 s
# later; its frames are sent the moment it answers (TableService._on_link).
STEADY_SECONDS = 1.5
# The shared display counts a takeover's wait down by this many seconds, then by the
# second in the last of them (TableService redraws it as the number changes).
COUNTDOWN_STEP = 10


def _counted_down(left: float) -> tuple[int, int]:
    """A takeover's wait of ``left`` seconds as the shared display says it, rounded up
    to its step, and that step: (40, 10) for 31.5 s, (7, 1) for 6.2 s."""
    step = 1 if left <= COUNTDOWN_STEP else COUNTDOWN_STEP
    return math.ceil(left / step) * step, step


@dataclass
class Notices:
    """Words for people: one message per seat until its next press, and on the shared
    display every fault still standing (a part that failed, a seat away, the journal),
    each until it is mended: a second fault or one part coming back clears no other."""
    seats: dict[int, str] = field(default_factory=dict)  # physical seat -> message
    faults: dict[object, str] = field(default_factory=dict)  # what failed -> its words
    # What failed -> the technical reason (a device, an errno), for whoever mends it
    # (systemd's STATUS=); a fault without one says its words there too.
    details: dict[object, str] = field(default_factory=dict)
    turn: int = 0  # which fault the shared display shows, when there are several
    # What failed -> its words in a language: the lobby may change it while the fault
    # stands, and the words follow (speak).
    sayers: dict[object, Callable[[str], str]] = field(default_factory=dict)
    lang: str = "en"

    def fault(self, key: object, words: Callable[[str], str]) -> None:
        self.sayers[key] = words
        self.faults[key] = words(self.lang)

    def speak(self, lang: str) -> None:
        """The faults in ``lang``, the table's language now."""
        self.lang = lang
        for key, words in self.sayers.items():
            self.faults[key] = words(lang)

    def say(self, seat: int | None, message: str) -> None:
        if seat is not None and message:
            self.seats[seat] = message

    @property
    def table(self) -> str:
        """Every fault in the players' words, oldest first (the simulator, the tests)."""
        return " · ".join(self.faults.values())

    @property
    def status(self) -> str:
        """Every fault with its technical reason, oldest first (systemd's STATUS=)."""
        return " · ".join(self.details.get(key, words) for key, words in self.faults.items())

    def mended(self, key: object) -> None:
        self.faults.pop(key, None)
        self.sayers.pop(key, None)
        self.details.pop(key, None)

    def shared_line(self) -> str:
        """The shared display's bar holds one fault whole: several take turns ("1/2 …"),
        the table moving on every FAULT_TURN_SECONDS (TableService)."""
        faults = list(self.faults.values())
        if len(faults) <= 1:
            return self.table
        return f"{self.turn % len(faults) + 1}/{len(faults)} {faults[self.turn % len(faults)]}"


JOURNAL_FAULT = "journal"  # the key of Notices.faults for a game that could not be saved
SAVE_RETRY_SECONDS = 2.0  # while the journal fails, timers that save wait at least this long
SAVE_FAILURES_LOGGED_EVERY = 100  # a failing journal is logged at its first try, then every 100th


def part_key(seat: int | None, buttons: bool) -> tuple:
    """Notices.faults' key for a part of the table: a seat's node (its buttons), a seat's
    display, or the shared display (seat None), as a LinkEvent names it."""
    return (seat, buttons)


class Session:
    def __init__(self, settings: TableSettings, journal: Journal | None, notices: Notices,
                 clock: Callable[[], float], thinker: Thinker | None = None):
        self.settings, self.journal, self.notices, self._clock = settings, journal, notices, clock
        self._link_log: dict[tuple, tuple[float, int, int]] = {}  # part -> (since, logged, not)
        self.thinker = thinker
        self.match: Match | None = None
        self.match_id: int | None = None
        # What the journal keeps: variant, rules (as configured), rounds; hints and language
        # when they are not the defaults.
        self.match_config: dict = {}
        self.players: list[Player] = []  # by engine seat
        # A seat's name as the displays show it now, in their language: the table's state
        # knows (the lobby's names, or the match's). Set by TableService.
        self.shown_name: Callable[[int], str] = self.name
        # Is a match on the table now (its round, reveal or result), not the lobby? Set
        # by TableService: only then may a bot stand in for a seat that went away.
        self.in_match: Callable[[], bool] = lambda: self.match is not None
        # Runs an action's journal write (a call), for the physical seat whose action it
        # is (None: a bot's, the table's): by default here. Set by TableService, which
        # moves other seats' cursors meanwhile (an SD card may take seconds).
        self.write: Callable[[Callable[[], int], int | None], int] = lambda write, seat: write()
        self.actions_played = 0  # journal entries of this match; seeds the bots' choices
        self.engine_seat: dict[int, int] = {}  # physical seat -> engine seat
        self._bots: dict[int, str] = {}  # engine seat -> the bot that plays it
        # Seats whose node went away (physical seat -> when it first failed): after
        # takeover_after a bot plays for a person there, until the node is back steadily
        # (part_back) or its person presses.
        self.away: dict[int, float] = {}
        self._stand_ins: set[int] = set()  # engine seats a bot plays for now
        # Physical seats of a resumed match that the config no longer has (no pad, no
        # screen): a bot plays for them from the resume on (when), whatever takeover_after.
        self.missing: dict[int, float] = {}
        self._failed_thoughts: dict[tuple, int] = {}  # thought key -> the worker's failures
        self._seed_used = False
        self._scores_unsaved = False  # a round's scores the journal could not take (_save_scores)
        self._failed_saves = 0  # journal writes failed in a row (logged once, then every 100th)

    # ------------------------------------------------------------------ the match

    def start_match(self, players: list[Player], variant: str, rules: dict, rounds: int,
                    hints: bool = False, language: str = "en", *,
                    leaving: int | None = None, physical: int | None = None) -> bool:
        """Deal a new match; False (and the fault shown, to ``physical`` too, the seat
        that asked) if the journal cannot take it. ``leaving``: the finished match whose
        result it leaves (see Journal.start_match)."""
        if self._scores_unsaved:  # the last match's scores first: it would stay "in play"
            self.save_unsaved_scores()
            if self._scores_unsaved:
                self.notices.say(physical, say(self.language, "not saved, not played: try again"))
                return False
        if self.settings.seed is not None and not self._seed_used:
            seed = self.settings.seed
        else:
            seed = secrets.randbits(64)  # recorded, so the match can be replayed
        match = Match(variant, len(players), rules, rounds=rounds, seed=seed)
        config = {"variant": variant, "rules": rules, "rounds": rounds}
        if hints:  # the house option for learners (not a rule: the game is the same)
            config["hints"] = True
        if language != "en":  # what the displays say: a resumed match says it too
            config["language"] = language
        if self.journal is not None:
            try:
                match_id = self.journal.start_match(config, seed, [p.to_json() for p in players],
                                                    leaving=leaving)
            except (JournalError, ValueError) as exc:
                self._save_failed(exc, physical)  # nothing dealt: the table stays where it is
                return False
            self._saved()
            self.match_id = match_id
        self._seed_used = True
        self.match_config = config
        # Never the seed: it deals every card, and a log may be on show. The journal keeps it.
        log.info("match of %s for %s (%s)", variant, ", ".join(p.name for p in players),
                 f"journal match {match_id}" if self.journal is not None else "no journal")
        self._use(match, players)
        self.actions_played = 0
        return True

    def close_result(self, lobby: dict | None = None) -> bool:
        """The finished match's result is left (for ``lobby``, kept with it): a restart
        starts afresh, not on it. True if the journal took it."""
        self._forget_missing()
        if self.journal is None or self.match_id is None:
            return False
        try:
            self.journal.close_result(self.match_id, lobby)
        except (JournalError, ValueError) as exc:  # at worst a restart shows it once more
            log.error("journal: match %d's result not closed (a restart shows it again): %s",
                      self.match_id, exc)
            return False
        return True

    def rematch(self, physical: int | None = None) -> bool:
        """A new match with the same players and settings; False if it could not be saved."""
        config = self.match_config
        return self.start_match(self.players, config["variant"], config["rules"], config["rounds"],
                                config.get("hints", False), self.language,
                                leaving=self.match_id if self.journal is not None else None,
                                physical=physical)

    def resume(self, saved: MatchLog, finished: bool = False) -> bool:
        """Replay an unfinished match: the same seed and the same actions give the same table.
        ``finished``: a finished match whose result the table was showing, to show it again."""
        try:
            players = [Player.from_json(p) for p in saved.players]
            config = saved.config
            # Unbounded: an older golfbox dealt it with a number today's refuses (5000).
            rules = make_rules(config["variant"], config.get("rules", {}), bounded=False)
            match = Match(config["variant"], len(players), rules, rounds=config["rounds"],
                          seed=saved.seed)
            self.match = match
            for _, seat, text in saved.actions:
                if seat is None:
                    match.next_round()
                else:
                    match.apply(seat, Action.parse(text))
        except (KeyError, TypeError, ValueError) as exc:  # IllegalAction and RuleError are ValueErrors
            log.error("journal: match %d cannot be replayed (%s); it is set aside", saved.id, exc)
            if finished:
                self.journal.close_result(saved.id)
            else:
                self.journal.abandon(saved.id)
            self.match = None
            return False
        self.match_id = saved.id
        self._seed_used = True  # the configured seed dealt the first match, not the next one
        self.match_config = {"variant": config["variant"], "rules": config.get("rules", {}),
                             "rounds": config["rounds"]}
        for option in ("hints", "language"):
            if config.get(option):
                self.match_config[option] = config[option]
        self._use(match, players)
        self.actions_played = len(saved.actions)
        if not finished:  # (a finished match has all its rounds)
            self._save_scores(enumerate(match.history, start=1))  # a crash may have come between
        log.info("resumed match %d at round %d after %d actions", saved.id, match.round_no,
                 len(saved.actions))
        return True

    def _use(self, match: Match, players: list[Player]) -> None:
        self.match = match
        self.players = players
        self.engine_seat = {p.seat: i for i, p in enumerate(players)}
        self._bots = {i: p.bot for i, p in enumerate(players) if p.bot is not None}
        self._stand_ins = set()
        self._forget_missing()
        self.missing = {p.seat: self._clock() for p in players
                        if p.bot is None and p.seat >= self.settings.seats}
        self._failed_thoughts = {}  # keys carry the match id, which is None with no journal

    def play(self, engine_seat: int, action: Action, physical: int | None = None,
             legal: tuple[Action, ...] | None = None) -> bool:
        """Journal, then apply, one seat's action. False (and a message) if it cannot be.
        ``legal``: the seat's legal actions now, if the caller has them (a bot's view)."""
        rnd = self.match.round
        if action not in (rnd.legal_actions(engine_seat) if legal is None else legal):
            # Never journaled. The engine's reason is English (and names engine seats):
            # other languages say it shortly.
            why = rnd.why_illegal(engine_seat, action)
            self.notices.say(physical, why if self.language == "en"
                             else say(self.language, "not allowed now"))
            return False
        if not self._record(engine_seat, str(action), physical):
            return False
        self.match.apply(engine_seat, action)
        self.actions_played += 1
        if self.match.round.over:
            self.finish_round()
        return True

    def next_round(self) -> bool:
        if not self._record(None, NEXT_ROUND, None):
            return False
        self.match.next_round()
        self.actions_played += 1
        return True

    def finish_round(self) -> None:
        """Write a round's scores (and, after the last, the match's) to the journal."""
        self._save_scores([(self.match.round_no, self.match.round.scores)])

    def _save_scores(self, rounds) -> None:
        """Write the scores of ``rounds`` ((round number, scores) pairs) and, if it is
        over, the match's result. A failure is shown and the play goes on: the actions
        are saved, so the next start writes the scores (resume, opening); until then
        each later save tries again. Writing scores twice is harmless."""
        match = self.match
        self._scores_unsaved = False
        if self.journal is None:
            return
        try:
            for round_no, scores in rounds:
                self.journal.finish_round(self.match_id, round_no, scores)
            if match.over:
                self.journal.finish_match(self.match_id, match.totals, match.winners)
        except (JournalError, ValueError) as exc:
            self._save_failed(exc, None)
            self._scores_unsaved = True
            return
        self._saved()

    def _record(self, engine_seat: int | None, text: str, physical: int | None) -> bool:
        if self.journal is None:
            return True
        try:
            self.write(lambda: self.journal.record(self.match_id, engine_seat, text), physical)
        except (JournalError, ValueError) as exc:
            # Not saved, so not played: the table stays as it was and says why.
            self._save_failed(exc, physical)
            return False
        self._saved()
        self.save_unsaved_scores()  # the journal takes writes again: the scores it missed
        return True

    @property
    def result_unsaved(self) -> bool:
        """Is the match over with scores the journal refused (save_unsaved_scores)?"""
        return self._scores_unsaved and self.match.over

    def save_unsaved_scores(self) -> None:
        """Try again the scores the journal refused (_save_scores), if any."""
        if self._scores_unsaved:
            self._save_scores(enumerate(self.match.history, start=1))

    def _save_failed(self, exc: Exception, physical: int | None) -> None:
        # Said once, then every SAVE_FAILURES_LOGGED_EVERY tries: bots try every 2 s, and
        # a line each time filled the log (on the same SD card) with 1,700 lines an hour.
        self._failed_saves += 1
        if self._failed_saves == 1:
            log.error("journal: %s", exc)
        elif self._failed_saves % SAVE_FAILURES_LOGGED_EVERY == 0:
            log.error("journal: still failing after %d tries: %s", self._failed_saves, exc)
        self.notices.fault(JOURNAL_FAULT, lambda lang: say(lang, "cannot save the game: see the log"))
        self.notices.say(physical, say(self.language, "not saved, not played: try again"))

    def _saved(self) -> None:
        if self._failed_saves:
            log.info("journal: saving again after %d failed tries", self._failed_saves)
            self._failed_saves = 0
        self.notices.mended(JOURNAL_FAULT)  # saved again

    def save_pause(self) -> float:
        """Seconds a timer that saves (a bot's move, the next round) waits while the
        journal fails: a bot_delay of 0 otherwise retried it as fast as the loop turns."""
        return SAVE_RETRY_SECONDS if JOURNAL_FAULT in self.notices.faults else 0.0

    def peeking(self, engine_seat: int) -> bool:
        """Is this seat looking at its peeked cards (its only move: "done looking")?"""
        return any(a.kind == READY for a in self.match.round.legal_actions(engine_seat))

    def people_peeking(self) -> list[int]:
        """Engine seats whose person is looking at its peeked cards. Not bots: they say
        ready on their own timer, in _next_bot's order, which the clock must not choose."""
        bots = set(self.bot_seats())
        return [s for s in self.match.round.acting_seats if s not in bots and self.peeking(s)]

    def end_peeks(self) -> None:
        """The peek timeout: every person still looking is done."""
        for engine_seat in self.people_peeking():
            self.play(engine_seat, Action(READY))

    # ------------------------------------------------------------------ seats and names

    @property
    def hints(self) -> bool:
        """Does holding ● show a seat what ``hard`` would do (the house option ``hints``)?"""
        return bool(self.match_config.get("hints"))

    @property
    def language(self) -> str:
        """What the displays say during this match (golfbox.render.words)."""
        return self.match_config.get("language", "en")

    def name(self, seat: int, lang: str | None = None) -> str:
        """A physical seat's name: its player's in this match, else the configured one
        (in ``lang``, the table's language if None)."""
        engine_seat = self.engine_seat.get(seat)
        if engine_seat is not None:
            return self.players[engine_seat].name
        return self.settings.name(seat, lang or self.language)

    def names(self) -> list[str]:
        """Each engine seat's one name, for every display."""
        return [p.name for p in self.players]

    def is_bot(self, engine_seat: int) -> bool:
        return engine_seat in self._bots

    def bots_only(self) -> bool:
        """Every seat of the match is a bot's: no person played it (not people away)."""
        return all(p.bot is not None for p in self.players)

    def dropped(self) -> bool:
        """Has the match a seat the config no longer has (resumed after an edit)? A
        person's is missing; a bot's needs no pad, but the next match is the config's."""
        return any(p.seat >= self.settings.seats for p in self.players)

    def no_rematch(self) -> bool:
        """Does ● on the result open the lobby instead of dealing this match again? It has a
        seat the config dropped (see dropped), or a house rule's number an older golfbox
        dealt and this one refuses (resumed after an update): it cannot be dealt."""
        config = self.match_config
        try:
            make_rules(config["variant"], config["rules"])
        except RuleError:
            return True
        return self.dropped()

    def not_the_configs(self) -> bool:
        """Is the match other than the one a start deals now (auto_start)? Resumed after
        the config was edited: a seat dropped or added, another game, other bots; or one
        that cannot be dealt again (no_rematch), whatever the config. Bots alone rematch
        by themselves: the same match again, they would never reach the edit. (The sim's
        bots play at its lobby's level, not the config's.)"""
        s, game = self.settings, self.match_config
        if self.no_rematch():
            return True
        if not s.auto_start:
            return False
        if (game["variant"], game["rules"], game["rounds"], game.get("hints", False),
                game.get("language", "en")) != (s.variant, s.rules, s.rounds, s.hints, s.language):
            return True
        bots = {p.seat: p.bot for p in self.players}
        if s.lobby_fills_bots:
            return set(bots) != set(range(s.seats))
        return bots != {seat: s.bots.get(seat) for seat in range(s.seats)}

    def all_bots(self) -> bool:
        """Nobody at the table to press ● (every seat a bot or a stand-in)."""
        return all(p.bot is not None or self.stands_in(i) for i, p in enumerate(self.players))

    def all_bots_due(self) -> float | None:
        """When every person's seat will have been away long enough for a bot to stand in
        (None: somebody is at the table, or nobody stands in)."""
        due = [self._stand_in_from(p.seat) for p in self.players if p.bot is None]
        return None if not due or None in due else max(due)

    def _log_link(self, key: tuple, level: int, message: str, *args) -> None:
        """A part's change, logged LINK_LINES_A_MINUTE a minute: a loose cable flips a
        panel ten times a second, a line each on the SD card the journal shares. The next
        line logged says how many were not."""
        now = self._clock()
        start, logged, unlogged = self._link_log.get(key, (now, 0, 0))
        if now - start >= 60.0:
            start, logged = now, 0
        if logged >= LINK_LINES_A_MINUTE:
            self._link_log[key] = (start, logged, unlogged + 1)
            return
        if unlogged:
            message += f" ({unlogged} changes not logged before it: it comes and goes)"
        log.log(level, message, *args)
        self._link_log[key] = (start, logged + 1, 0)

    def link_changed(self, event: LinkEvent, where: str) -> None:
        """A seat node or a display went away or came back (``where`` names it). A part
        that fails is shown at once; one that comes back is only logged here: it is
        counted back by part_back, once steady (TableService._on_link). A failure while
        it was not yet counted back is the same failure going on: its words and its
        seat's takeover wait stand."""
        key = part_key(event.seat, event.buttons)
        if event.connected:
            self._log_link(key, logging.INFO, "%s is back: %s", where, event.reason)
            return
        self._log_link(key, logging.WARNING, "%s failed: %s (the game goes on)", where,
                       event.reason)
        # The players read which part of whose seat, in their language, named as the
        # displays name it then; the log has the technical reason (a device path, an
        # errno) for whoever mends it.

        def words(lang: str) -> str:
            if event.seat is None:
                return say(lang, "the table's screen is not answering")
            who = self.shown_name(event.seat)
            if event.buttons:  # a seat node: its buttons and its screen
                return self._unplugged_words(lang, event.seat)
            return say(lang, "{who}'s screen is not answering", who=who)
        if (event.buttons and event.seat in self.away) or key in self.notices.faults:
            # Known away or failed already: the node a restart did not find (restore_away),
            # or a part that came back but not for long. Its wait and its words stand
            # ("… is away: a bot plays for it" once taken over).
            self.notices.details[key] = event.reason or f"{where}: failed"
            return
        if event.buttons:  # a seat node: its person can no longer play
            # Waited on from when it failed: the failure may have waited in the queue.
            self.away[event.seat] = self._clock() if event.at is None else event.at
        self.notices.fault(key, words)
        self.notices.details[key] = event.reason or f"{where}: failed"

    def _unplugged_words(self, lang: str, seat: int) -> str:
        """A seat node gone, in ``lang``: and in how long a bot plays for it, if one will.
        Said again at each change, so the time left is now's (it said the setting, 120 s,
        until the bot took over; and in the lobby, where no bot would)."""
        who = self.shown_name(seat)
        said = say(lang, "{who}'s seat is unplugged", who=who)
        due = self.takeover_at(seat)
        if due is None:
            return said
        left = due - self._clock()
        if left <= 0:
            return say(lang, "{who} is away: a bot plays for it until it is back", who=who)
        shown, _ = _counted_down(left)
        return said + " · " + say(lang, "a bot plays in {n} s", n=shown)

    def takeover_at(self, seat: int) -> float | None:
        """When a bot starts playing for the person at physical ``seat``, whose node went
        away, if one will: a match is on the table with them in it (None: the lobby, a
        seat not in the match or a bot's, takeover_after 0)."""
        engine_seat = self.engine_seat.get(seat)
        if not self.in_match() or engine_seat is None or self.players[engine_seat].bot is not None:
            return None
        return self._stand_in_from(seat)

    def countdown_changes(self) -> float | None:
        """When the next takeover countdown on the shared display changes its number."""
        now, changes = self._clock(), []
        for seat in self.away:
            due = self.takeover_at(seat)
            if due is None or due <= now:
                continue
            shown, step = _counted_down(due - now)
            changes.append(due - (shown - step))  # when it says shown - step
        return min(changes) if changes else None

    def part_down(self, seat: int | None, buttons: bool) -> bool:
        """Is this part counted failed (its fault shown, or its seat away)?"""
        return part_key(seat, buttons) in self.notices.faults or (buttons and seat in self.away)

    def part_back(self, seat: int | None, buttons: bool) -> None:
        """The part has answered for STEADY_SECONDS (or its seat's person pressed): its
        fault is mended, and a seat node's person plays again (the bot for it stops)."""
        self.notices.mended(part_key(seat, buttons))
        if buttons and self.away.pop(seat, None) is not None:
            self._stand_ins.discard(self.engine_seat.get(seat))

    def _forget_missing(self) -> None:
        """The match with seats the config dropped is left: so are their faults."""
        for seat in self.missing:
            self.notices.mended(part_key(seat, buttons=True))
        self.missing = {}

    def away_kept(self) -> dict[int, bool]:
        """The seats whose node is away, and whether a bot has taken each over, as the
        journal keeps them (Journal.save_away)."""
        return {seat: self._stand_in_from(seat) is not None and
                self._clock() >= self._stand_in_from(seat) for seat in self.away}

    def restore_away(self, kept: dict[int, bool]) -> None:
        """The seats away before a restart, as the journal ``kept`` them. The clock they
        were waited on is lost with the restart: a seat a bot had taken over is the bot's
        at once, the others are waited for from now. Each is the person's again when its
        node is back steadily (part_back), as before; the hub's report that it did not
        find the node changes nothing."""
        now, after = self._clock(), self.settings.takeover_after
        for seat, taken_over in sorted(kept.items()):
            if seat >= self.settings.seats:
                # A seat the config dropped since: no node of it can come back. A resumed
                # match's is missing (a bot plays it at once, and it goes with the match).
                continue
            key = part_key(seat, True)
            if taken_over and after:
                self.away[seat] = now - after
                def words(lang: str, seat: int = seat) -> str:
                    return say(lang, "{who} is away: a bot plays for it until it is back",
                               who=self.shown_name(seat))
                if seat in self.engine_seat:
                    self._stand_ins.add(self.engine_seat[seat])
            else:
                self.away[seat] = now
                def words(lang: str, seat: int = seat) -> str:
                    return self._unplugged_words(lang, seat)
            self.notices.fault(key, words)
            self.notices.details[key] = f"seat {seat + 1}: away before the restart"
            log.warning("seat %d was away before the restart: %s", seat + 1,
                        "a bot plays for it" if taken_over and after else "waited for from now")

    def _stand_in_from(self, seat: int) -> float | None:
        """When a bot starts playing for the person at physical ``seat``: takeover_after
        after its node went away (None: it is here, or takeover_after is 0); at once for a
        seat the config dropped."""
        if seat in self.missing:
            return self.missing[seat]
        since, after = self.away.get(seat), self.settings.takeover_after
        return since + after if since is not None and after else None

    def stands_in(self, engine_seat: int) -> bool:
        """Does a bot play now for the person at ``engine_seat``, whose node went away?"""
        due = self._stand_in_from(self.players[engine_seat].seat)
        return due is not None and self._clock() >= due

    def bot_seats(self) -> list[int]:
        """Engine seats to act now that a bot plays (its own or a stand-in)."""
        return [s for s in self.match.round.acting_seats if s in self._bots or self.stands_in(s)]

    def takeover_due(self) -> float | None:
        """When the first acting seat that went away is handed to a bot."""
        bots = set(self.bot_seats())
        due = [self._stand_in_from(self.players[s].seat) for s in self.match.round.acting_seats
               if s not in bots]
        due = [when for when in due if when is not None]
        return min(due) if due else None

    # ------------------------------------------------------------------ bots

    def move_seed(self, engine_seat: int, entries_before: int) -> str:
        """A bot's random numbers for a move: the match, the seat and the move's place
        (a hint asks hard with the same: it is what a hard bot there would choose)."""
        return move_seed(self.match.seed, engine_seat, entries_before)

    def _next_bot(self) -> int | None:
        """The bot seat to act next: a pure function of the game, never of timers or the clock.

        Only a start phase lets several seats act at once. Their bots then take turns:
        the one with the most start actions still due first, ties clockwise from the
        player after the dealer (so all turn up one card, then all a second)."""
        rnd = self.match.round
        seats = self.bot_seats()
        if len(seats) > 1:
            first, n = (rnd.dealer + 1) % rnd.players, rnd.players
            seats.sort(key=lambda s: (-rnd.start_pending[s], (s - first) % n))
        return seats[0] if seats else None

    def bot_move(self) -> None:
        engine_seat = self._next_bot()
        if engine_seat is None:
            return
        if engine_seat in self._bots:
            name = self._bots[engine_seat]
        else:  # a person's seat that went away
            name = STAND_IN_BOT
            if engine_seat not in self._stand_ins:
                self._stand_ins.add(engine_seat)
                seat = self.players[engine_seat].seat
                missing = seat in self.missing

                def words(lang: str) -> str:
                    who = self.shown_name(seat)
                    # A seat the config dropped has no pad to come back on.
                    return (say(lang, "{who} is not in the config: a bot plays for it", who=who)
                            if missing else
                            say(lang, "{who} is away: a bot plays for it until it is back",
                                who=who))
                self.notices.fault(part_key(seat, buttons=True), words)
                if seat in self.missing:
                    log.warning("seat %d of the resumed match is not in the config (%d seats): "
                                "a bot plays for it", seat + 1, self.settings.seats)
                else:  # as configured (takeover_after): the unplug was the warning
                    log.info("seat %d away for %g s: a bot plays for it", seat + 1,
                             self._clock() - self.away[seat])
        # Seeded by the match and the move number, so a resumed match plays on as it would have.
        seed = self.move_seed(engine_seat, self.actions_played)
        view = self.match.view(engine_seat)
        try:
            if self.thinker is not None and getattr(BOTS[name], "thinks_long", False):
                # The same choice, computed off the loop: play_thought plays it.
                self.thinker.think(self._thought_key(engine_seat), name, seed, view)
                return
            action = bot_choice(name, seed, view)
        except Exception:  # noqa: BLE001 - a broken bot must not stop the table
            log.exception("seat %d's %s bot failed to choose",
                          self.players[engine_seat].seat + 1, name)
            action = self._fallback_choice(engine_seat, name, seed)
        self._play_bot(engine_seat, action, name, seed, view.legal)

    def _play_bot(self, engine_seat: int, action, name: str, seed: str,
                  legal: tuple[Action, ...]) -> bool:
        """Play a bot's ``action`` if the seat may (``legal``: asked of the engine once
        for the move); else (a bot's bug) the fallback's choice: the same illegal
        choice, asked again, would stand the game still for ever."""
        if action not in legal:
            log.error("seat %d's %s bot chose %r, which is not allowed now",
                      self.players[engine_seat].seat + 1, name, action)
            action = self._fallback_choice(engine_seat, name, seed)
        return self.play(engine_seat, action, legal=legal)

    def _fallback_choice(self, engine_seat: int, failed: str, seed: str) -> Action:
        """This one move, chosen by the first of FALLBACK_BOTS that can (seeded as the
        failed bot was: a journaled move replays as played, whatever the bot was)."""
        view = self.match.view(engine_seat)
        for name in FALLBACK_BOTS:
            if name == failed:
                continue
            try:
                action = bot_choice(name, seed, view)
            except Exception:  # noqa: BLE001
                log.exception("the fallback %s bot failed too", name)
                continue
            log.warning("seat %d: %s plays this move for its %s bot",
                        self.players[engine_seat].seat + 1, name, failed)
            return action
        return view.legal[0]

    def _thought_key(self, engine_seat: int) -> tuple:
        return (self.match_id, self.actions_played, engine_seat)

    def thinking(self) -> bool:
        """Is a bot to act now thinking off the loop (its answer will be the next move)?"""
        return self.thinker is not None and any(
            self._thought_key(s) in self.thinker.pending for s in self.bot_seats())

    def play_thought(self, thought: Thought) -> None:
        """Play a choice computed off the loop, if the table is still where it asked."""
        engine_seat = thought.key[2]
        if thought.key != self._thought_key(engine_seat) or engine_seat not in self.bot_seats():
            return  # a late answer: the table has moved on
        name = self._bots.get(engine_seat, STAND_IN_BOT)
        seed = self.move_seed(engine_seat, self.actions_played)
        action = thought.action
        if thought.timed_out:  # asked again, the same bot in the same place would hang again
            log.error("seat %d's %s bot did not answer in %g s: its worker was killed",
                      self.players[engine_seat].seat + 1, name, self.thinker.deadline)
            action = self._fallback_choice(engine_seat, name, seed)
        elif action is None:  # the worker failed (logged): ask again, or let a fallback play
            tries = self._failed_thoughts[thought.key] = self._failed_thoughts.get(thought.key, 0) + 1
            if tries < THINK_TRIES:
                return
            action = self._fallback_choice(engine_seat, name, seed)
        legal = self.match.round.legal_actions(engine_seat)
        if self._play_bot(engine_seat, action, name, seed, legal):
            self._failed_thoughts.clear()
