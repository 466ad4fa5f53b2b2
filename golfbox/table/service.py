"""The table service: button presses in, game actions through the engine, frames out.

One thread (the one calling ``run`` or ``step``) owns the engine, the lobby,
the cursors and the journal. Pads and displays only ``post`` events into a
queue, from their own threads. Timers (a bot's thinking time, the peek
timeout, the watchdog ping, retrying a failed display) are deadlines the
loop waits for: it blocks on the queue until the next one, so an idle table
uses no CPU and a press is handled the moment it arrives.

Every action is written to the journal before it is applied, including the
table's own ("next": deal the next round). At start an unfinished match is
replayed from its seed and actions, and play goes on where it stopped.

States: "lobby" → "playing" ⇄ "round_over" (each round's reveal, the last one
too) → "match_over" → "playing" (● a new match with the same players) or
"lobby" (✕); "paused" after close().
"""

from __future__ import annotations

import logging
import queue
import random
import secrets
import threading
import time
from typing import Callable

from PIL import Image

from golfbox.bots import DEFAULT_BOT, make_bot
from golfbox.table.thinker import Thinker, Thought
from golfbox.engine import START, Action, IllegalAction, Match
from golfbox.engine.actions import READY
from golfbox.hal.base import Button, ButtonEvent, ButtonPad, Display, EventKind, LinkEvent
from golfbox import render as frames  # the drawing functions
from golfbox.hal.resilient import retry_limits
from golfbox.table.input import SeatInput
from golfbox.table.journal import Journal, JournalError, MatchLog
from golfbox.table.lobby import Lobby, Player
from golfbox.table.settings import TableSettings

__all__ = ["TableService", "TableSettings", "NEXT_ROUND"]

log = logging.getLogger(__name__)

NEXT_ROUND = "next"  # the journal's action (seat None) for "deal the next round"
STAND_IN_BOT = DEFAULT_BOT  # plays for a person whose seat went away: as well as it can
RETRY_INTERVAL = min(1.0, retry_limits()[0])  # seconds between tries of a display that failed
REVEAL_PAGE_SECONDS = 5.0  # a reveal too big for the shared display turns its pages this often
IDLE_WAKE = 1.0  # run() looks at its stop event at least this often
SEAT_SIZE = (128, 64)
_WAKE = object()  # posted to make a blocked loop look at its stop event


class TableService:
    def __init__(self, settings: TableSettings, pads: list[ButtonPad],
                 seat_displays: dict[int, Display], shared_display: Display | None,
                 journal: Journal | None = None, clock: Callable[[], float] = time.monotonic,
                 notifier=None, *, inbox: queue.SimpleQueue | None = None,
                 think_off_loop: bool = False):
        """``inbox``: the queue the pads were built to post into, if they already post.
        ``think_off_loop``: slow bots (hard) decide in a worker process (table.thinker)."""
        self.settings = settings
        self.journal = journal
        self.notifier = notifier
        self.seat_displays = dict(seat_displays)
        self.shared_display = shared_display
        self._clock = clock
        # SimpleQueue: put() is safe from a signal handler and from any thread.
        self._inbox: queue.SimpleQueue = inbox if inbox is not None else queue.SimpleQueue()
        self.lobby = Lobby(settings)
        self.state = "lobby"
        self.match: Match | None = None
        self.match_id: int | None = None
        self.match_config: dict = {}  # variant, rules (as configured), rounds: what the journal keeps
        self.players: list[Player] = []  # by engine seat
        self.actions_played = 0  # journal entries of this match; seeds the bots' choices
        self.inputs = {seat: SeatInput() for seat in range(settings.seats)}
        self.messages: dict[int, str] = {}  # physical seat -> a message until its next press
        self.table_message = ""  # on the shared display (a failed display, a journal problem)
        self._engine_seat: dict[int, int] = {}  # physical seat -> engine seat
        self._bots: dict[int, str] = {}  # engine seat -> the bot that plays it
        # What a bot chooses is a pure function of the journal: its random generator is
        # seeded from (seed, seat, actions so far) before each choice, and its memory of
        # the round (a greedy bot counts its turns) is rebuilt by showing it every view
        # its seat decided from this round, in order. So each seat's decision views of
        # the round are kept (rebuilt by a resume), and a bot object is only a cache.
        self._decisions: dict[int, list] = {}  # engine seat -> its views this round, in order
        self._bot_cache: dict[int, tuple] = {}  # engine seat -> (name, bot, rng, views, how many seen)
        # Seats whose node went away (physical seat -> when): after takeover_after a bot
        # plays for a person there, until the node is back.
        self._away: dict[int, float] = {}
        self._stand_ins: set[int] = set()  # engine seats a bot plays for now
        self._timers: dict[tuple, float] = {}  # insertion order breaks ties between equal deadlines
        self._shown: dict[object, tuple] = {}  # display key -> what its last frame was drawn from
        self._unsent: dict[object, tuple[Display, Image.Image]] = {}  # frames a failed display still owes
        self._status = ""
        self._seed_used = False
        self._reveal_page = 0  # which page of a round's reveal the shared display shows
        self._thinker = Thinker(self.post) if think_off_loop else None

        if journal is not None:
            unfinished = journal.unfinished()
            if unfinished is not None:
                self._resume(unfinished)
        if self.match is None and settings.auto_start:
            # Every seat plays: the configured bots, and people in all the others.
            self.lobby.joined = set(range(settings.seats)) - set(settings.bots)
            self._start_match(self.lobby.players(), settings.variant, dict(settings.rules),
                              settings.rounds)
        for pad in pads:
            pad.start(self.post)
        self._after_change()

    # ------------------------------------------------------------------ the loop

    def post(self, event: ButtonEvent | LinkEvent) -> None:
        """Hand an event to the table (any thread)."""
        self._inbox.put(event)

    def wake(self) -> None:
        """Make a blocked run() look at its stop event now (safe in a signal handler)."""
        self._inbox.put(_WAKE)

    def step(self, timeout: float = 0.0) -> bool:
        """Handle one queued event or one due timer, waiting up to ``timeout`` seconds
        (less if a timer falls due sooner). True if something was handled."""
        due = self._next_timer()
        now = self._clock()
        if due is not None and due[1] <= now:
            self._fire(due[0])
            return True
        wait = timeout if due is None else min(timeout, due[1] - now)
        try:
            event = self._inbox.get(timeout=wait) if wait > 0 else self._inbox.get_nowait()
        except queue.Empty:
            if due is not None and self._clock() >= due[1]:
                self._fire(due[0])
                return True
            return False
        if event is not _WAKE:
            self._handle(event)
        return True

    def run_until_idle(self) -> None:
        """Handle events and timers until nothing is due now (bots with no delay play on)."""
        while self.step(0.0):
            pass

    def run(self, stop: threading.Event | None = None) -> None:
        """Serve the table until ``stop`` is set (call wake() after setting it to be quick)."""
        stop = stop or threading.Event()
        interval = self.notifier.watchdog_interval if self.notifier is not None else None
        if interval:
            self._timers[("watchdog",)] = self._clock()
        if self.notifier is not None:
            self.notifier.ready(self._status)
        while not stop.is_set():
            self.step(IDLE_WAKE)

    def close(self, message: str = "paused") -> None:
        """Show ``message`` on every display and close the journal (the match resumes at start)."""
        self.state = "paused"
        for key, display in self._displays():
            title = "golfbox" if key == "shared" else self._seat_name(key[1])
            self._show(key, display, None, frames.render_notice(display.size, title, message))
        if self.journal is not None:
            self.journal.close()
        if self._thinker is not None:
            self._thinker.close()
        if self.notifier is not None:
            self.notifier.stopping(message)

    # ------------------------------------------------------------------ events

    def _handle(self, event: ButtonEvent | LinkEvent) -> None:
        if isinstance(event, Thought):
            self._on_thought(event)
        elif isinstance(event, LinkEvent):
            self._on_link(event)
        elif isinstance(event, ButtonEvent):
            if event.seat in self.inputs:
                self._on_button(event.seat, event.button, event.kind)
            else:
                log.warning("ignored a press from seat %d: the table has %d seats",
                            event.seat + 1, self.settings.seats)
        self._after_change(first=getattr(event, "seat", None))

    def _on_button(self, seat: int, button: Button, kind: EventKind) -> None:
        self.messages.pop(seat, None)  # a press clears the last message
        if self.state == "lobby":
            start, message = self.lobby.press(seat, button, kind)
            self._say(seat, message)
            if start:
                lobby = self.lobby
                self._start_match(lobby.players(), lobby.variant, lobby.rules(), lobby.rounds)
            return
        engine_seat = self._engine_seat.get(seat)
        if engine_seat is None or self.players[engine_seat].bot is not None:
            if kind is EventKind.PRESSED:
                self._say(seat, "a bot plays this seat" if engine_seat is not None
                          else "not in this match: join when it ends")
            return
        if kind is EventKind.HELD and button is not Button.BACK:
            return  # a held ●, ◀ or ▶ was already handled as its press
        if self.state == "playing":
            self._on_play_button(seat, engine_seat, button, kind)
        elif self.state == "round_over" and kind is EventKind.PRESSED:
            if button is Button.OK:
                self._after_reveal()
            else:
                self._say(seat, "● shows the result" if self.match.over else "● deals the next round")
        elif self.state == "match_over" and kind is EventKind.PRESSED:
            if button is Button.OK:
                config = self.match_config
                self._start_match(self.players, config["variant"], config["rules"], config["rounds"])
            elif button is Button.BACK:
                self.lobby.joined = {p.seat for p in self.players if p.bot is None}
                self.state = "lobby"
            else:
                self._say(seat, "● new match · ✕ back to the lobby")

    def _on_play_button(self, seat: int, engine_seat: int, button: Button, kind: EventKind) -> None:
        seat_input = self.inputs[seat]
        seat_input.update(self.match.round.legal_actions(engine_seat), self.match.variant.cols)
        if not seat_input.legal:
            if kind is EventKind.PRESSED:
                self._say(seat, self._wait_text())
            return
        action = seat_input.press(button, kind)
        if action is not None:
            self._play(engine_seat, action, seat)

    def _on_link(self, event: LinkEvent) -> None:
        where = "shared display" if event.seat is None else self._seat_name(event.seat)
        if event.connected:
            log.info("%s is back: %s", where, event.reason)
            self.table_message = ""
            # A node or panel that was away may have lost its picture: draw it again.
            self._shown.pop("shared" if event.seat is None else ("seat", event.seat), None)
            if event.buttons and self._away.pop(event.seat, None) is not None:
                self._stand_ins.discard(self._engine_seat.get(event.seat))
        else:
            log.warning("%s failed: %s (the game goes on)", where, event.reason)
            self.table_message = event.reason or f"{where}: failed"  # the reason names the part
            if event.buttons:  # a seat node: its person can no longer play
                self._away.setdefault(event.seat, self._clock())
                if self.settings.takeover_after:
                    self.table_message += (f" · a bot plays for it after "
                                           f"{self.settings.takeover_after:g} s away")

    # ------------------------------------------------------------------ game

    def _play(self, engine_seat: int, action: Action, physical: int | None = None) -> bool:
        """Journal, then apply, one seat's action. False (and a message) if it cannot be."""
        rnd = self.match.round
        if action not in rnd.legal_actions(engine_seat):
            self._say(physical, rnd.why_illegal(engine_seat, action))  # never journal an illegal action
            return False
        if not self._record(engine_seat, str(action), physical):
            return False
        self._note_decision(engine_seat)
        self.match.apply(engine_seat, action)
        self.actions_played += 1
        if self.match.round.over:
            self._round_ended()
        return True

    def _after_reveal(self) -> None:
        """● on a round's reveal: the next round, or after the last one the match result."""
        if self.match.over:
            self.state = "match_over"
        else:
            self._next_round()

    def _next_round(self) -> None:
        if self._record(None, NEXT_ROUND, None):
            self.match.next_round()
            self._decisions = {}
            self.actions_played += 1
            self.state = "playing"

    def _record(self, engine_seat: int | None, text: str, physical: int | None) -> bool:
        if self.journal is None:
            return True
        try:
            self.journal.record(self.match_id, engine_seat, text)
        except (JournalError, ValueError) as exc:
            # Not saved, so not played: the table stays as it was and says why.
            log.error("journal: %s", exc)
            self.table_message = "cannot save the game: see the log"
            self._say(physical, "not saved, not played: try again")
            return False
        return True

    def _round_ended(self) -> None:
        match = self.match
        if self.journal is not None:
            self.journal.finish_round(self.match_id, match.round_no, match.round.scores)
        if match.over and self.journal is not None:
            self.journal.finish_match(self.match_id, match.totals, match.winners)
        self.state = "round_over"  # every round, the last too, ends with its reveal

    def _start_match(self, players: list[Player], variant: str, rules: dict, rounds: int) -> None:
        if self.settings.seed is not None and not self._seed_used:
            seed = self.settings.seed
        else:
            seed = secrets.randbits(64)  # recorded, so the match can be replayed
        self._seed_used = True
        match = Match(variant, len(players), rules, rounds=rounds, seed=seed)
        self.match_config = {"variant": variant, "rules": rules, "rounds": rounds}
        if self.journal is not None:
            self.match_id = self.journal.start_match(self.match_config, seed,
                                                     [p.to_json() for p in players])
        log.info("match of %s for %s (seed %d)", variant, ", ".join(p.name for p in players), seed)
        self._use(match, players)
        self._decisions = {}
        self.actions_played = 0
        self.state = "playing"

    def _resume(self, saved: MatchLog) -> None:
        """Replay an unfinished match: the same seed and the same actions give the same table."""
        try:
            players = [Player.from_json(p) for p in saved.players]
            config = saved.config
            match = Match(config["variant"], len(players), config.get("rules", {}),
                          rounds=config["rounds"], seed=saved.seed)
            self.match, self._decisions = match, {}
            for _, seat, text in saved.actions:
                if seat is None:
                    match.next_round()
                    self._decisions = {}
                else:
                    action = Action.parse(text)
                    self._note_decision(seat)
                    match.apply(seat, action)
        except (KeyError, TypeError, ValueError) as exc:  # IllegalAction and RuleError are ValueErrors
            log.error("journal: match %d cannot be replayed (%s); it is set aside", saved.id, exc)
            self.journal.abandon(saved.id)
            self.match, self._decisions = None, {}
            return
        self.match_id = saved.id
        self.match_config = {"variant": config["variant"], "rules": config.get("rules", {}),
                             "rounds": config["rounds"]}
        self._use(match, players)
        self.actions_played = len(saved.actions)
        for round_no, scores in enumerate(match.history, start=1):
            self.journal.finish_round(saved.id, round_no, scores)  # a crash may have come between
        self.state = "playing"
        if match.round.over:
            self._round_ended()
        log.info("resumed match %d at round %d after %d actions", saved.id, match.round_no,
                 len(saved.actions))

    def _use(self, match: Match, players: list[Player]) -> None:
        self.match = match
        self.players = players
        self._engine_seat = {p.seat: i for i, p in enumerate(players)}
        for p in players:
            self.inputs.setdefault(p.seat, SeatInput())
        self._bots = {i: p.bot for i, p in enumerate(players) if p.bot is not None}
        self._stand_ins = set()
        self._bot_cache = {}

    def _stands_in(self, engine_seat: int) -> bool:
        """Does a bot play now for the person at ``engine_seat``, whose node went away?"""
        seat = self.players[engine_seat].seat
        since = self._away.get(seat)
        after = self.settings.takeover_after
        return bool(after) and since is not None and self._clock() - since >= after

    def _note_decision(self, engine_seat: int) -> None:
        """Keep the view ``engine_seat`` decides from now (before its action is applied)."""
        self._decisions.setdefault(engine_seat, []).append(self.match.view(engine_seat))

    def _next_bot(self) -> int | None:
        """The bot seat to act next: a pure function of the game, never of timers or the clock.

        Only a start phase lets several seats act at once. Their bots then take turns:
        the one with the most start actions still due first, ties clockwise from the
        player after the dealer (so all turn up one card, then all a second)."""
        rnd = self.match.round
        seats = [s for s in rnd.acting_seats if s in self._bots or self._stands_in(s)]
        if len(seats) > 1:
            first, n = (rnd.dealer + 1) % rnd.players, rnd.players
            seats.sort(key=lambda s: (-rnd.start_pending[s], (s - first) % n))
        return seats[0] if seats else None

    def _bot_move(self) -> None:
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
                self.table_message = f"{self._seat_name(seat)} is away: a bot plays for it until it is back"
                log.warning("seat %d away for %g s: a bot plays for it", seat + 1,
                            self._clock() - self._away[seat])
        bot, rng = self._bot_for(engine_seat, name)
        # Seeded by the match and the move number, so a resumed match plays on as it would have.
        seed = f"{self.match.seed}:{engine_seat}:{self.actions_played}"
        rng.seed(seed)
        if self._thinker is not None and getattr(bot, "thinks_long", False):
            # The same choice, computed off the loop: _on_thought plays it.
            self._thinker.think(self._thought_key(engine_seat), bot.name, seed,
                                self.match.view(engine_seat))
            return
        if not self._play(engine_seat, bot.choose(self.match.view(engine_seat))):
            self._bot_cache.pop(engine_seat, None)  # it saw a view that was not played

    def _bot_for(self, engine_seat: int, name: str) -> tuple[object, random.Random]:
        """The bot for a seat, having seen every view the seat decided from this round."""
        seen = self._decisions.setdefault(engine_seat, [])  # a new list each round
        cached = self._bot_cache.get(engine_seat)
        if cached is None or cached[0] != name or cached[3] is not seen or cached[4] > len(seen):
            rng = random.Random(0)
            cached = (name, make_bot(name, rng), rng, seen, 0)
        _, bot, rng, _, fed = cached
        if not getattr(bot, "thinks_long", False):  # a search bot keeps no memory to rebuild
            for view in seen[fed:]:  # what it would have decided then: only its memory matters
                bot.choose(view)
        # The view it decides from now is added to ``seen`` when its action is played.
        self._bot_cache[engine_seat] = (name, bot, rng, seen, len(seen) + 1)
        return bot, rng

    def _thought_key(self, engine_seat: int) -> tuple:
        return (self.match_id, self.actions_played, engine_seat)

    def _on_thought(self, thought: Thought) -> None:
        self._thinker.pending.discard(thought.key)
        engine_seat = thought.key[2]
        if (self.state == "playing" and thought.action is not None
                and thought.key == self._thought_key(engine_seat)
                and engine_seat in self.match.round.acting_seats
                and (engine_seat in self._bots or self._stands_in(engine_seat))):
            self._play(engine_seat, thought.action)

    # ------------------------------------------------------------------ timers

    def _next_timer(self) -> tuple[tuple, float] | None:
        if not self._timers:
            return None
        return min(self._timers.items(), key=lambda item: item[1])

    def _fire(self, key: tuple) -> None:
        del self._timers[key]
        kind = key[0]
        if kind == "bot":
            self._bot_move()
        elif kind == "peek":
            for engine_seat in self.match.round.acting_seats:
                if self._peeking(engine_seat):
                    self._play(engine_seat, Action(READY))
        elif kind == "next":
            self._after_reveal()
        elif kind == "watchdog":
            self.notifier.watchdog()
            self._timers[key] = self._clock() + self.notifier.watchdog_interval
            return  # nothing on the table changed
        elif kind == "retry":
            self._retry_displays()
        elif kind == "reveal_page":
            self._reveal_page += 1
        elif kind == "takeover":
            pass  # _after_change() below hands the seat that went away to a bot
        self._after_change()

    def _peeking(self, engine_seat: int) -> bool:
        return any(a.kind == READY for a in self.match.round.legal_actions(engine_seat))

    def _sync_timers(self) -> None:
        """Set or drop the game's deadlines to match the state just reached."""
        now, timers = self._clock(), self._timers
        playing = self.state == "playing"
        acting = self.match.round.acting_seats if playing else []
        bot_seats = [s for s in acting if s in self._bots or self._stands_in(s)]
        thinking = self._thinker is not None and any(
            self._thought_key(s) in self._thinker.pending for s in bot_seats)
        if bot_seats and not thinking:
            # One bot acts per deadline (_next_bot says which). Bots starting together
            # share bot_delay, so each still turns a card about every bot_delay seconds.
            # While a bot thinks off the loop, its answer (_on_thought) is the next move.
            timers.setdefault(("bot",), now + self.settings.bot_delay / len(bot_seats))
        else:
            timers.pop(("bot",), None)
        # Wake up when a seat that went away has been away long enough for a bot to stand in.
        waiting = [self._away[self.players[s].seat] for s in acting
                   if s not in bot_seats and self.players[s].seat in self._away]
        if waiting and self.settings.takeover_after:
            timers[("takeover",)] = min(waiting) + self.settings.takeover_after
        else:
            timers.pop(("takeover",), None)
        if playing and self.match.round.phase == START and any(map(self._peeking, acting)):
            timers.setdefault(("peek",), now + self.settings.peek_timeout)
        else:
            timers.pop(("peek",), None)
        if self.state == "round_over" and all(
                p.bot is not None or self._stands_in(i) for i, p in enumerate(self.players)):
            timers.setdefault(("next",), now + self.settings.bot_delay)  # nobody to press ●
        else:
            timers.pop(("next",), None)
        if self.state == "round_over" and self._reveal_page_count() > 1:
            timers.setdefault(("reveal_page",), now + REVEAL_PAGE_SECONDS)
        else:
            timers.pop(("reveal_page",), None)
            self._reveal_page = 0
        if self._unsent or any(not getattr(d, "healthy", True) for _, d in self._displays()):
            timers.setdefault(("retry",), now + RETRY_INTERVAL)

    # ------------------------------------------------------------------ frames

    def _after_change(self, first: int | None = None) -> None:
        self._sync_timers()
        self._draw(first)
        self._report_status()

    def _displays(self) -> list[tuple[object, Display]]:
        found: list[tuple[object, Display]] = [(("seat", s), d) for s, d in sorted(self.seat_displays.items())]
        if self.shared_display is not None:
            found.append(("shared", self.shared_display))
        return found

    def _draw(self, first: int | None = None) -> None:
        """Draw every display whose inputs changed; the seat that pressed goes first."""
        order = sorted(self.seat_displays, key=lambda s: s != first)
        for seat in order:
            display = self.seat_displays[seat]
            source, render = self._seat_frame(seat, display.size)
            self._show(("seat", seat), display, source, render)
        if self.shared_display is not None:
            source, render = self._shared_frame(self.shared_display.size)
            self._show("shared", self.shared_display, source, render)

    def _show(self, key: object, display: Display, source: tuple | None, render) -> None:
        """Show a frame if what it is drawn from changed (``source`` None: always)."""
        if source is not None and self._shown.get(key) == source:
            return
        image = render() if callable(render) else render
        if image.mode != display.mode:
            image = image.convert(display.mode)
        self._shown[key] = source
        try:
            display.show(image)
        except OSError as exc:
            if key not in self._unsent:
                log.warning("%s: %s (the game goes on; retrying)", display.name, exc)
                self.table_message = f"{display.name}: {exc}"
            self._unsent[key] = (display, image)
        else:
            if self._unsent.pop(key, None) is not None:
                log.info("%s: working again", display.name)
                self.table_message = ""

    def _retry_displays(self) -> None:
        for key, (display, image) in list(self._unsent.items()):
            self._show(key, display, None, image)
        for _, display in self._displays():
            poll = getattr(display, "poll", None)  # a ResilientDisplay retries on poll()
            if poll is not None:
                poll()

    def _seat_frame(self, seat: int, size: tuple[int, int]) -> tuple[tuple, object]:
        message = self.messages.get(seat, "")
        name = self._seat_name(seat)
        if self.state == "lobby":
            title = f"{name}: {'you play' if seat in self.lobby.joined else 'press ● to join'}"
            return self._lobby_frame(size, title, message or self.lobby.prompt(seat))
        engine_seat = self._engine_seat.get(seat)
        if engine_seat is None or self.players[engine_seat].bot is not None:
            text = "a bot plays this seat" if engine_seat is not None else "not in this match"
            text = f"{text}\n{message}" if message else text
            return ("notice", text), lambda: frames.render_notice(size, name, text)
        view = self.match.view(engine_seat)
        seat_input = self.inputs[seat]
        if seat_input.update(view.legal, view.variant.cols):
            self.messages.pop(seat, None)  # "wait: …" is stale once the seat may act
            message = ""
        prompt = seat_input.prompt or self._idle_prompt()
        cursor = seat_input.cursor
        source = ("seat", view.table, view.legal, view.own_grid, view.known, view.held,
                  view.flips_due, cursor, prompt, message)
        names = self._names()
        return source, lambda: frames.render_seat(view, cursor=cursor, prompt=prompt,
                                                  message=message, label=name, names=names)

    def _shared_frame(self, size: tuple[int, int]) -> tuple[tuple, object]:
        message = self.table_message
        if self.state == "lobby":
            footer = self.lobby.problem() or "hold ● on your pad to start"
            return self._lobby_frame(size, "golfbox: press ● to join",
                                     f"{message} · {footer}" if message else footer)
        names = self._names()
        if self.state == "playing":
            view = self.match.view(None)
            return (("table", view.table, message),
                    lambda: frames.render_table(view, size, names, message))
        if self.state == "round_over":
            view = self.match.view(None)
            page = self._reveal_page % frames.reveal_pages(view.players, size)
            return (("reveal", view.table, page),
                    lambda: frames.render_reveal(view, size, names, page=page))
        totals, winners = tuple(self.match.totals), tuple(self.match.winners)
        return (("result", totals, winners, self.match_id),
                lambda: frames.render_match_result(totals, winners, names, size))

    def _lobby_frame(self, size: tuple[int, int], title: str, footer: str) -> tuple[tuple, object]:
        """The lobby's menu as a seat or the shared display shows it."""
        lobby = self.lobby
        lines = tuple(str(line) for line in lobby.lines())
        players = ", ".join(p.name for p in lobby.players()) or "nobody yet"
        cursor = lobby.cursor
        source = ("lobby", title, lines, cursor, players, footer)
        return source, lambda: frames.render_lobby(size, title, lines, cursor, players, footer)

    def _reveal_page_count(self) -> int:
        if self.shared_display is None:
            return 1
        return frames.reveal_pages(len(self.players) or 1, self.shared_display.size)

    def _idle_prompt(self) -> str:
        if self.state == "round_over":
            return "● result" if self.match.over else "● next round"
        if self.state == "match_over":
            return "● new match · ✕ lobby"
        return self._wait_text()

    def _wait_text(self) -> str:
        return frames.wait_words(self.match.view(None), self._names())

    def _say(self, seat: int | None, message: str) -> None:
        if seat is not None and message:
            self.messages[seat] = message

    def _names(self) -> list[str]:
        """Each engine seat's one name, for every display."""
        return [p.name for p in self.players]

    def _seat_name(self, seat: int) -> str:
        """A physical seat's name: its player's in a match, else as the lobby stands."""
        engine_seat = self._engine_seat.get(seat)
        if self.state != "lobby" and engine_seat is not None:
            return self.players[engine_seat].name
        return self.lobby.name(seat) if self.state == "lobby" else self.settings.name(seat)

    def status_words(self) -> str:
        """What the table is doing, in words (systemd's STATUS=, the simulator's top line):
        'lobby: 1 joined · polish-poker · 9 rounds', 'polish-poker · round 2/9 · playing'."""
        if self.state == "lobby":
            return f"lobby: {len(self.lobby.joined)} joined · {self.lobby.describe()}"
        if self.state == "paused" or self.match is None:
            return self.state
        m = self.match
        doing = {"playing": "playing", "round_over": "round over"}.get(self.state)
        if doing is None:  # match_over
            return f"{m.variant.name} · match over"
        return f"{m.variant.name} · round {m.round_no}/{m.rounds} · {doing}"

    def _report_status(self) -> None:
        if self.notifier is None:
            return
        status = self.status_words()
        if self.table_message:  # a failed display, a journal problem: `systemctl status` shows it too
            status += f" · {self.table_message}"
        if status != self._status:
            self._status = status
            self.notifier.status(status)
