"""The table's states, as pibooth's: each handles buttons, keeps its own timers and says
what every display shows; a handler returns the next state, or None to stay.

    Lobby ──hold ●──▶ Playing ⇄ RoundOver (each round's reveal, the last one too)
                         ▲            │ after the last round
                         └──● ── MatchOver ──✕──▶ Lobby
    any state ──close()──▶ Paused

In the lobby, after a round and after the match, ◀ ▶ on a seat open the rules
(ReadsRules). A state's timers are its own: leaving it cancels them. No state
sees a press made before its screens were drawn (``shown_at``): the service
drops it, as meant for the state before.
"""

from __future__ import annotations

import logging
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Callable

from golfbox.engine import START, get_variant, make_rules
from golfbox.hal.base import Button, EventKind
from golfbox.render.names import name_words
from golfbox.render.words import say, say_or_keep
from golfbox.table import screens
from golfbox.table.input import VERB_OF_KIND, SeatInput
from golfbox.table.journal import JournalError
from golfbox.table.thinker import Thought, bot_choice
from golfbox.table.timers import Timer

if TYPE_CHECKING:
    from golfbox.table.journal import Journal
    from golfbox.table.service import TableService

log = logging.getLogger(__name__)

REVEAL_PAGE_SECONDS = 5.0  # a reveal too big for the shared display turns its pages this often
# A table of bots only (golfbox sim --humans 0, a window display): nobody can press ● for
# a new match, so one is dealt after the result has shown this long. A result whose
# people all went away (bots stood in for them) goes back to the lobby after as long.
BOTS_ONLY_RESULT_SECONDS = 30.0


class TableState(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    ROUND_OVER = "round_over"
    MATCH_OVER = "match_over"
    PAUSED = "paused"


def opening(table: "TableService", kept: Any) -> "State":
    """The first state: an unfinished match resumed from the journal, else the result of
    a finished one that was still shown (its last reveal, then who won), else a match
    started at once (``auto_start``), else the lobby as the journal ``kept`` it
    (kept_lobby)."""
    session, settings = table.session, table.settings
    unfinished = table.journal.unfinished() if table.journal is not None else None
    if unfinished is not None and session.resume(unfinished):
        # The lobby after it: the match's game and choices, over the lobby kept before the
        # deal (each game keeps the house rules chosen for it).
        restore_lobby(table, kept)
        table.lobby.resume(session.match_config, session.players)
        if not session.match.round.over:
            return Playing(table)
        # A crash came between the last action and the reveal: resume() wrote the round's
        # scores (and the match's result). Writing them again failed after the last round.
        return RoundOver(table)
    shown = table.journal.result_shown() if table.journal is not None else None
    if shown is not None and session.resume(shown, finished=True):
        restore_lobby(table, kept)
        table.lobby.resume(session.match_config, session.players)
        return RoundOver(table)
    if settings.auto_start:
        started = auto_started(table, kept)
        if started is not None:
            return started
    else:
        restore_lobby(table, kept)
    return Lobby(table)  # (with auto_start: the journal failed, shown; holding ● tries again)


def auto_started(table: "TableService", kept: Any = None) -> "State | None":
    """``auto_start``'s match: every seat plays, the configured bots and people in all the
    others; in the sim, its bots at the level its lobby ``kept`` (None: the journal could
    not take the match)."""
    settings, lobby, session = table.settings, table.lobby, table.session
    if settings.lobby_fills_bots:  # the sim: its bots at the level its lobby kept
        restore_lobby(table, kept)
        lobby.fill = lobby.fill or lobby.first_fill()  # bots, even if it kept "empty"
    lobby.joined = set(range(settings.seats)) - set(settings.bots)
    if session.start_match(lobby.players(), settings.variant, dict(settings.rules),
                           settings.rounds, settings.hints, settings.language):
        if settings.lobby_fills_bots:  # the lobby after it is the one it was dealt from
            lobby.resume(session.match_config, session.players)
        return Playing(table)
    return None


def kept_lobby(journal: "Journal | None") -> Any:
    """What the journal kept of the lobby (see restore_lobby), read once at start; None if
    nothing, or nothing readable (a log line says why: the config's lobby then)."""
    if journal is None:
        return None
    try:
        return journal.saved_lobby()
    except (JournalError, ValueError) as exc:
        log.warning("the lobby kept in the journal is not used (%s): the config's instead", exc)
        return None


def restore_lobby(table: "TableService", saved: Any) -> None:
    """The lobby's choices and who joined, as the journal kept them before the restart
    (``saved``: the service saves them as they change), unless the config they came from
    was edited since; before a resumed match, the lobby it was dealt from (Lobby.resume
    then sets its game). Anything wrong in them: the config's, and a log line saying what."""
    if saved is None:
        return
    config = table.lobby.config_key()
    if isinstance(saved, dict) and saved.get("config", config) != config:
        log.info("the lobby kept in the journal is not used: the config changed since")
        return
    try:
        table.lobby.restore(saved)
    except ValueError as exc:
        log.warning("the lobby kept in the journal is not used (%s): the config's instead", exc)


# A state not yet drawn: every press is older than its screens (none reaches it then).
NOT_SHOWN = float("inf")
# Seconds after a press before its person can see the table did not answer it (a
# stalling SD card keeps its move from the screen): a press of theirs after that, with
# still nothing shown, is a repeat of it (Playing.answers).
SEEN_UNANSWERED = 0.15


class State:
    name: TableState

    def __init__(self, table: "TableService"):
        self.table = table
        self.session = table.session
        self._timers: dict[str, Timer] = {}
        self.shown_at = NOT_SHOWN  # when the service first drew this state, on table.clock

    # ------------------------------------------------------------------ to override

    def on_button(self, seat: int, button: Button, kind: EventKind) -> "State | None":
        return None

    def answers_since(self, seat: int) -> float:
        """A press from ``seat`` made before this time was meant for screens it no longer
        shows (the service drops it): by default, those of the state before."""
        return self.shown_at

    def answers(self, seat: int, at: float) -> bool:
        """Was a press from ``seat`` made at ``at`` made on what this state shows? If not,
        the service drops it."""
        return at >= self.answers_since(seat)

    def on_thought(self, thought: Thought) -> "State | None":
        return None  # a bot's late answer after its round or match ended

    def sync_timers(self) -> None:
        """Set or drop this state's deadlines to match the game as it is now."""

    def seat_frame(self, seat: int, size: tuple[int, int]) -> screens.Frame:
        raise NotImplementedError

    def shared_frame(self, size: tuple[int, int]) -> screens.Frame:
        raise NotImplementedError

    def status_words(self) -> str:
        return str(self.name)

    def seat_name(self, seat: int) -> str:
        return self.session.name(seat)

    def table_names(self) -> list[str]:
        """Every name at the table: a cut name is told apart from them (render.fit_name)."""
        return self.session.names()

    @property
    def lang(self) -> str:
        """What the displays say now: the lobby's language (a match keeps its own)."""
        return self.table.lobby.language

    # ------------------------------------------------------------------ timers

    def keep_timer(self, name: str, wanted: bool, when: Callable[[], float],
                   due: Callable[[], "State | None"]) -> None:
        """A deadline called ``name``: set at ``when()`` if wanted and not yet set (a set one
        keeps its time), dropped if not wanted. ``due`` runs then and may change the state."""
        timer = self._timers.get(name)
        if timer is not None and not timer.active:
            timer = None
        if wanted and timer is None:
            self._timers[name] = self.table.timers.call_at(
                when(), lambda: self.table.go(due()))
        elif not wanted and timer is not None:
            timer.cancel()
            del self._timers[name]

    def set_timer(self, name: str, when: float | None, due: Callable[[], "State | None"]) -> None:
        """A deadline that moves: set to ``when`` (None drops it)."""
        timer = self._timers.get(name)
        if when is None:
            if timer is not None:
                timer.cancel()
                del self._timers[name]
        elif timer is not None and timer.active:
            timer.reschedule(when)
        else:
            self._timers[name] = self.table.timers.call_at(when, lambda: self.table.go(due()))

    def exit(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()


class ReadsRules(State):
    """A state in which any seat may page through the rules: ◀ ▶ turn the pages on the
    seat's own display and on the shared one, ✕ goes back."""

    def __init__(self, table):
        super().__init__(table)
        self.reading: dict[int, int] = {}  # seat -> the page it shows
        self.shared_reader: int | None = None  # whose page the shared display shows

    def game_rules(self):
        """(variant, rules) of the game the pages describe."""
        return self.session.match.variant, self.session.match.rules

    def pages(self):
        return screens.rules_pages(*self.game_rules(), self.lang)

    def open_rules(self, seat: int) -> None:
        self.reading[seat] = 0
        self.shared_reader = seat

    def read(self, seat: int, button: Button, kind: EventKind) -> bool:
        """A press of a seat that is reading the rules; False if it is not reading."""
        if seat not in self.reading:
            return False
        if kind is not EventKind.PRESSED:
            return True
        if button is Button.BACK:
            del self.reading[seat]
            if self.shared_reader == seat:
                self.shared_reader = next(iter(self.reading), None)
        elif button in (Button.LEFT, Button.RIGHT):
            step = 1 if button is Button.RIGHT else -1
            self.reading[seat] = (self.reading[seat] + step) % len(self.pages())
            self.shared_reader = seat
        else:
            self.table.notices.say(seat, say(self.lang, "✕ back to the lobby")
                                   if self.name is TableState.LOBBY
                                   else say(self.lang, "✕ back to the game"))
        return True

    def press_or_read(self, seat: int, button: Button, kind: EventKind) -> bool:
        """A press the rules take: a reader's, or ◀ ▶ that open them. False: the state's."""
        if self.read(seat, button, kind):
            return True
        if kind is EventKind.PRESSED and button in (Button.LEFT, Button.RIGHT):
            self.open_rules(seat)
            return True
        return False

    def rules_seat_frame(self, seat: int, size) -> screens.Frame | None:
        if seat not in self.reading:
            return None
        message = self.table.notices.seats.get(seat, "")
        return screens.rules(size, self.pages(), self.reading[seat], "", message, self.lang)

    def rules_shared_frame(self, size) -> screens.Frame | None:
        seat = self.shared_reader
        if seat is None:
            return None
        return screens.rules(size, self.pages(), self.reading[seat], self.seat_name(seat), "",
                             self.lang, self.table_names())


class Lobby(ReadsRules):
    name = TableState.LOBBY

    def game_rules(self):
        lobby = self.table.lobby
        variant = get_variant(lobby.variant)
        return variant, make_rules(variant, lobby.rules())

    def on_button(self, seat, button, kind):
        lobby = self.table.lobby
        if (seat not in lobby.joined or lobby.selected.key == "rules") and \
                self.press_or_read(seat, button, kind):
            return None
        if self.read(seat, button, kind):
            return None
        game = lobby.variant
        start, message = lobby.press(seat, button, kind)
        self.table.notices.say(seat, message)
        if lobby.variant != game:  # readers start again on the page that names the new game
            self.reading = dict.fromkeys(self.reading, 0)
        if not start:
            return None
        if not self.session.start_match(lobby.players(), lobby.variant, lobby.rules(),
                                        lobby.rounds, lobby.hints, lobby.language, physical=seat):
            return None  # not saved, not dealt: the lobby stays as it was, holding ● tries again
        return Playing(self.table)

    def seat_frame(self, seat, size):
        frame = self.rules_seat_frame(seat, size)
        if frame is not None:
            return frame
        lobby = self.table.lobby
        # A long name is cut to leave what to press whole, told apart from the others.
        who, table = self.seat_name(seat), self.table_names()
        title = (name_words(self.lang, "{who}: you play", who, size[0], table) if seat in lobby.joined
                 else name_words(self.lang, "{who}: press ● to join", who, size[0], table))
        message = self.table.notices.seats.get(seat, "")
        return screens.lobby(size, lobby, title, message or lobby.prompt(seat))

    def shared_frame(self, size):
        frame = self.rules_shared_frame(size)
        if frame is not None:
            return frame
        message = self.table.notices.shared_line()
        footer = self.table.lobby.problem() or say(self.lang, "hold ● on your pad to start")
        return screens.lobby(size, self.table.lobby, say(self.lang, "golfbox: press ● to join"),
                             f"{message} · {footer}" if message else footer)

    def seat_name(self, seat):
        return self.table.lobby.name(seat)

    def table_names(self):
        lobby = self.table.lobby
        return [lobby.name(seat) for seat in range(lobby.settings.seats)]

    def status_words(self):
        lobby = self.table.lobby
        return f"lobby: {len(lobby.joined)} joined · {lobby.describe()}"


class InMatch(State):
    """What every state of a match shares: only the seat's own person plays its buttons."""
    doing = ""  # the status line's last words
    match_over = False  # the seats show the match's result, not only its last round's end

    def __init__(self, table):
        super().__init__(table)
        for player in self.session.players:  # a resumed match may name a seat the config dropped
            table.inputs.setdefault(player.seat, SeatInput())

    def on_button(self, seat, button, kind):
        session = self.session
        engine_seat = session.engine_seat.get(seat)
        if engine_seat is None or session.is_bot(engine_seat):
            if kind is EventKind.PRESSED:
                self.table.notices.say(seat, say(self.lang, "a bot plays this seat")
                                       if engine_seat is not None
                                       else say(self.lang, "not in this match: join when it ends"))
            return None
        if kind is EventKind.HELD and button is not Button.BACK and not (
                button is Button.OK and session.hints):
            return None  # a held ●, ◀ or ▶ was already handled as its press
        return self.on_player_button(seat, engine_seat, button, kind)

    def on_player_button(self, seat: int, engine_seat: int, button: Button,
                         kind: EventKind) -> State | None:
        return None

    @property
    def lang(self) -> str:
        return self.session.language if self.session.match is not None else self.table.lobby.language

    def idle_prompt(self) -> str:
        """A seat's bottom line when it has nothing to choose."""
        return screens.wait_words(self.session)

    def seat_frame(self, seat, size):
        notices = self.table.notices
        frame, changed = screens.seat_in_match(size, self.session, seat, self.table.inputs[seat],
                                               notices.seats.get(seat, ""), self.idle_prompt(),
                                               self.match_over)
        if changed:
            notices.seats.pop(seat, None)  # "wait: …" is stale once the seat may act
        return frame

    def status_words(self):
        match = self.session.match
        return f"{match.variant.name} · round {match.round_no}/{match.rounds} · {self.doing}"


class Playing(InMatch):
    name = TableState.PLAYING
    doing = "playing"

    def __init__(self, table):
        super().__init__(table)
        self._ok_legal: dict[int, tuple] = {}  # seat -> its choices when its ● was pressed
        # seat -> its choices, and since when, if someone else's move (or a timer) gave
        # them: a press made before was made on the screen before, as a ● pressed out of
        # turn that waited in the queue while the bot before it moved.
        self._choices: dict[int, tuple] = {}
        self._choices_since: dict[int, float] = {}
        # seat -> when the journal write of its own last action began and ended: its
        # screen did not change meanwhile (seconds, on a stalling SD card), and a press
        # made then, once the person could see nothing changed, repeats the one being
        # written (● again). Not one made sooner: keys typed ahead (● ▶ ●).
        self._writing: dict[int, tuple[float, float]] = {}

    def answers_since(self, seat):
        return max(self.shown_at, self._choices_since.get(seat, self.shown_at))

    def answers(self, seat, at):
        began, ended = self._writing.get(seat, (0.0, 0.0))
        return super().answers(seat, at) and not began + SEEN_UNANSWERED <= at < ended

    def _note_choices(self, own_seat: int | None = None) -> None:
        """Record each seat's choices; those changed by anything but ``own_seat``'s own
        press are new to their seat from now."""
        now, rnd = self.table.clock(), self.session.match.round
        for seat, engine_seat in self.session.engine_seat.items():
            legal = rnd.legal_actions(engine_seat)
            if legal != self._choices.get(seat):
                self._choices[seat] = legal
                if seat != own_seat:
                    self._choices_since[seat] = now

    def _follow_engine(self, seat: int) -> SeatInput:
        """The seat's cursor, its choices brought up to the engine's now."""
        seat_input = self.table.inputs[seat]
        seat_input.update(self.session.match.round.legal_actions(self.session.engine_seat[seat]),
                          self.session.match.variant.cols)
        return seat_input

    def on_player_button(self, seat, engine_seat, button, kind):
        seat_input = self._follow_engine(seat)
        if not seat_input.legal:
            if kind is EventKind.PRESSED:
                self.table.notices.say(seat, screens.wait_words(self.session))
            return None
        if self.session.hints:
            if button is Button.OK and kind is EventKind.PRESSED and seat in self._ok_legal:
                # A second ● before the first's hold time: the first was a press, not a
                # hold. It acts now; the second waits for its own hold time, as any ●.
                self.set_timer(f"ok {seat}", None, lambda: None)
                after = self._delayed_ok(seat)
                return after or self.on_player_button(seat, engine_seat, button, kind)
            if button is Button.OK and self._hint_gesture(seat, kind):
                return None
            self._drop_waiting_ok(seat)  # another button: ● changed its mind
        return self._press(seat, button, kind)

    def _press(self, seat: int, button: Button, kind: EventKind) -> State | None:
        action = self.table.inputs[seat].press(button, kind)
        if action is not None:
            began = self.table.clock()
            self.session.play(self.session.engine_seat[seat], action, seat)
            self._writing[seat] = (began, self.table.clock())
            self._note_choices(own_seat=seat)  # a quick ● ▶ of one's own still counts
        return self._after_play()

    # With hints on, ● waits for the pad's hold time before it acts: a hold asks for a
    # hint instead (a pad sends PRESSED at once, HELD only after its hold time).
    HINT_MARGIN = 0.25  # seconds beyond the hold time, for the HELD event to arrive

    def _hint_gesture(self, seat: int, kind: EventKind) -> bool:
        """● with hints on: a press waits, a hold asks for a hint. True if handled here."""
        seat_input = self.table.inputs[seat]
        if seat_input.resting is not None or seat_input.confirming_knock:
            return False  # ● only moves the cursor, or answers the question: at once
        if kind is EventKind.PRESSED:
            when = self.table.clock() + self.table.settings.hold_time_of(seat) + self.HINT_MARGIN
            self._ok_legal[seat] = seat_input.legal  # the choices this ● was pressed on
            self.set_timer(f"ok {seat}", when, lambda: self._delayed_ok(seat))
            return True
        # Held: the press does not act. If it already did (it moved a resting cursor off the
        # card just turned up), the hold still asks for the hint.
        self._drop_waiting_ok(seat)
        self._ask_hint(seat)
        return True

    def _drop_waiting_ok(self, seat: int) -> None:
        """A waiting ● will not act: its timer goes, and the choices it was pressed on."""
        self.set_timer(f"ok {seat}", None, lambda: None)
        self._ok_legal.pop(seat, None)

    def _delayed_ok(self, seat: int) -> State | None:
        """● pressed a hold time ago and not held: it acts now, on the choices it was pressed
        on. If they went meanwhile (a peek timeout said "done looking" for the seat, and the
        seat is first to play), it does nothing: it would have drawn in the player's place."""
        if self._follow_engine(seat).legal != self._ok_legal.pop(seat, None):
            return None
        return self._press(seat, Button.OK, EventKind.PRESSED)

    def _ask_hint(self, seat: int) -> None:
        session = self.session
        key = ("hint", seat, session.actions_played)
        engine_seat = session.engine_seat[seat]
        # Seeded as a hard bot in this seat would be for this move: the hint is its choice.
        seed = session.move_seed(engine_seat, session.actions_played)
        view = session.match.view(engine_seat)
        self.table.notices.say(seat, say(self.lang, "hint: thinking…"))
        if session.thinker is not None:  # hard thinks off the loop, as a bot does
            session.thinker.think(key, "hard", seed, view)
        else:
            self._show_hint(key, bot_choice("hard", seed, view))

    def _show_hint(self, key: tuple, action) -> None:
        _, seat, played = key
        seat_input = self.table.inputs[seat]
        if played != self.session.actions_played or action not in seat_input.legal:
            self.table.notices.seats.pop(seat, None)
            return  # the table moved on, or the worker failed: no hint to show
        seat_input.index, seat_input.resting = seat_input.legal.index(action), None
        self.table.notices.say(seat, say(self.lang, "hint: {verb}",
                                         verb=say(self.lang, VERB_OF_KIND[action.kind])))

    def on_thought(self, thought):
        if thought.key[0] == "hint":
            if thought.timed_out:
                log.error("seat %d's hint (hard) did not answer in %g s: its worker was killed",
                          thought.key[1] + 1, self.session.thinker.deadline)
            self._show_hint(thought.key, thought.action)
            return None
        self.session.play_thought(thought)
        return self._after_play()

    def _after_play(self) -> State | None:
        return RoundOver(self.table) if self.session.match.round.over else None

    def _bot_due(self):
        self.session.bot_move()
        return self._after_play()

    def _peek_due(self):
        self.session.end_peeks()
        return self._after_play()

    def sync_timers(self):
        self._note_choices()  # after every change: a bot's move, a timer, a thought
        session, settings, now = self.session, self.table.settings, self.table.clock()
        bot_seats = session.bot_seats()
        # One bot acts per deadline (Session picks which). Bots starting together share
        # bot_delay, so each still turns a card about every bot_delay seconds. While a bot
        # thinks off the loop, its answer (on_thought) is the next move.
        self.keep_timer("bot", bool(bot_seats) and not session.thinking(),
                        lambda: now + max(settings.bot_delay / len(bot_seats), session.save_pause()),
                        self._bot_due)
        # Wake up when a seat that went away has been away long enough for a bot to stand in.
        self.set_timer("takeover", session.takeover_due(), lambda: None)
        peeking = session.match.round.phase == START and bool(session.people_peeking())
        self.keep_timer("peek", peeking, lambda: now + settings.peek_timeout, self._peek_due)

    def shared_frame(self, size):
        return screens.table(size, self.session, self.table.notices.shared_line())


class RoundOver(ReadsRules, InMatch):
    """Every round, the last too, ends with its reveal: ● goes on, ◀ ▶ show the rules."""
    name = TableState.ROUND_OVER
    doing = "round over"

    def __init__(self, table):
        super().__init__(table)
        self.page = 0  # which page of the reveal the shared display shows

    def on_button(self, seat, button, kind):
        return None if self.press_or_read(seat, button, kind) else super().on_button(seat, button, kind)

    def seat_frame(self, seat, size):
        return self.rules_seat_frame(seat, size) or super().seat_frame(seat, size)

    def on_player_button(self, seat, engine_seat, button, kind):
        if kind is not EventKind.PRESSED:
            return None
        if button is Button.OK:
            return self._go_on()
        self.table.notices.say(seat, say(self.lang, "● shows the result") if self.session.match.over
                               else say(self.lang, "● deals the next round"))
        return None

    def _go_on(self) -> State | None:
        """The next round, or after the last one the match result."""
        if self.session.match.over:
            return MatchOver(self.table)
        return Playing(self.table) if self.session.next_round() else None

    def _turn_page(self):
        self.page += 1
        return None

    def sync_timers(self):
        now, table = self.table.clock(), self.table
        all_bots = self.session.all_bots()
        self.keep_timer("next", all_bots,  # nobody to press ●
                        lambda: now + max(table.settings.bot_delay, self.session.save_pause()),
                        self._go_on)
        # Wake up when the last person away has been away long enough: then nobody is.
        self.set_timer("takeover", None if all_bots else self.session.all_bots_due(), lambda: None)
        size = table.shared_display.size if table.shared_display is not None else None
        self.keep_timer("page", screens.reveal_pages(self.session, size) > 1,
                        lambda: now + REVEAL_PAGE_SECONDS, self._turn_page)

    def idle_prompt(self):
        if self.session.match.over:
            return say(self.lang, "● result · ◀▶ rules")
        return say(self.lang, "● next round · ◀▶ rules")

    def shared_frame(self, size):
        return self.rules_shared_frame(size) or screens.reveal(size, self.session, self.page)


class MatchOver(ReadsRules, InMatch):
    name = TableState.MATCH_OVER
    match_over = True

    def on_button(self, seat, button, kind):
        if self.press_or_read(seat, button, kind):
            return None
        session = self.session
        engine_seat = session.engine_seat.get(seat)
        # (with bots only there is no player's pad to press ✕ on)
        bot_seat = engine_seat is not None and session.is_bot(engine_seat) and not session.bots_only()
        if (engine_seat is None or bot_seat) and kind is EventKind.PRESSED:
            # Not "join when it ends": it has ended, and the way in is the lobby (where
            # joining a seat a bot played replaces the bot).
            self.table.notices.say(seat, say(self.lang, "the match is over: ✕ on a player's pad "
                                                        "opens the lobby"))
            return None
        return super().on_button(seat, button, kind)

    def seat_frame(self, seat, size):
        return self.rules_seat_frame(seat, size) or super().seat_frame(seat, size)

    def on_player_button(self, seat, engine_seat, button, kind):
        if kind is not EventKind.PRESSED:
            return None
        # A resumed match with a seat the config dropped (a rematch would have a bot play
        # it all evening) or a house rule this golfbox refuses (it cannot be dealt): ●
        # opens the lobby then, as ✕ does, with the config's seats.
        if button is Button.OK and not self.session.no_rematch():
            return Playing(self.table) if self.session.rematch(seat) else None
        if button in (Button.BACK, Button.OK):
            seats = self.table.settings.seats
            return self.table.back_to_lobby({p.seat for p in self.session.players
                                             if p.bot is None and p.seat < seats})
        return None

    def sync_timers(self):
        now, session = self.table.clock(), self.session
        bots_only = session.bots_only()
        # Not under the screen saver: a bots-only table asleep rests on its result (its
        # next match is dealt 30 s after a press wakes it).
        self.keep_timer("rematch", bots_only and not self.table.saver.asleep,
                        lambda: now + BOTS_ONLY_RESULT_SECONDS, self._next_bots_match)
        # Everybody who played pulled their seat's cable and bots stood in: nobody will
        # press ● or ✕ on those pads, and a newcomer's pad cannot leave the result. The
        # lobby takes newcomers (a rematch would play for people who left, all night).
        deserted = not bots_only and session.all_bots()
        self.keep_timer("deserted", deserted, lambda: now + BOTS_ONLY_RESULT_SECONDS,
                        self._deserted)
        # Wake up when the last person away has been away long enough: then nobody is.
        self.set_timer("takeover", None if bots_only or deserted else session.all_bots_due(),
                       lambda: None)

    def _next_bots_match(self) -> State | None:
        """Bots alone deal themselves the next match: the same players and game, unless
        the match was resumed after the config was edited (a seat dropped or added,
        another game, other bots: that match would come back every time, all night and
        across restarts) or cannot be dealt again (a house rule this golfbox refuses).
        Then the config's table, as a start deals it (auto_start), or the lobby."""
        table, session = self.table, self.session
        if not session.not_the_configs():
            return Playing(table) if session.rematch() else None
        lobby = table.back_to_lobby(set())
        started = auto_started(table) if table.settings.auto_start else None
        return started or lobby

    def _deserted(self) -> State:
        return self.table.back_to_lobby(set())  # who played has gone

    def idle_prompt(self):
        if self.session.no_rematch():  # ● opens the lobby (on_player_button)
            return say(self.lang, "● lobby · ◀▶ rules")
        return say(self.lang, "● new match · ✕ lobby · ◀▶ rules")

    def shared_frame(self, size):
        return self.rules_shared_frame(size) or screens.result(size, self.session)

    def status_words(self):
        return f"{self.session.match.variant.name} · match over"


class Paused(InMatch):
    """After close(): every display says why, until the service starts again."""
    name = TableState.PAUSED

    def __init__(self, table, message: str):
        super().__init__(table)
        self.message = message

    def seat_frame(self, seat, size):
        title, text = self.seat_name(seat), say_or_keep(self.lang, self.message)
        table = self.table_names()
        return ("paused", title, text), lambda: screens.notice(size, title, text, table)

    def shared_frame(self, size):
        text = say_or_keep(self.lang, self.message)
        return ("paused", "golfbox", text), lambda: screens.notice(size, "golfbox", text)

    def status_words(self):
        return "paused"
