"""What players read: one name per seat on every display, scores next to their names,
every player listed in the lobby, the simulator's top line in words, a cursor that stays.

Text is looked for in the pictures themselves: the glyphs are drawn pixel-exact, so a
word on a screen is exactly the pixels glyphs.draw_text would draw for it.
"""

from __future__ import annotations

import argparse
import curses

import pytest
from PIL import Image, ImageDraw

from golfbox.engine import Action
from golfbox.hal.base import Button, EventKind
from golfbox.render import glyphs, render_lobby, render_seat, render_table
from golfbox.table import terminal
from golfbox.table.input import SeatInput
from golfbox.table.lobby import Lobby
from golfbox.table.settings import TableSettings

import goldens

BOT_NAMES = ["P1"] + [f"P{n} (HARD)" for n in range(2, 9)]


def shows(image: Image.Image, text: str, scale: int = 1) -> bool:
    """Is ``text`` drawn somewhere on ``image`` (lit on dark, or dark on a lit bar)?"""
    width = glyphs.text_width(text, scale)
    stamp = Image.new("1", (width, 5 * scale), 0)
    glyphs.draw_text(ImageDraw.Draw(stamp), 0, 0, text, 1, scale)
    want = ["".join("1" if stamp.getpixel((x, y)) else "0" for x in range(width))
            for y in range(stamp.height)]
    lit = image.convert("L").point(lambda v: 1 if v else 0)
    rows = ["".join(str(lit.getpixel((x, y))) for x in range(image.width)) for y in range(image.height)]
    for inverted in (False, True):
        pattern = want if not inverted else [r.translate(str.maketrans("01", "10")) for r in want]
        for y in range(image.height - len(pattern) + 1):
            x = rows[y].find(pattern[0])
            while x != -1:
                if all(rows[y + i][x:x + width] == pattern[i] for i in range(1, len(pattern))):
                    return True
                x = rows[y].find(pattern[0], x + 1)
    return False


def test_the_helper_finds_drawn_words_and_nothing_else():
    image = Image.new("1", (128, 64), 0)
    draw = ImageDraw.Draw(image)
    glyphs.draw_text(draw, 5, 5, "P2 (bot) 8", 1)
    draw.rectangle((0, 20, 127, 28), fill=1)
    glyphs.draw_text(draw, 7, 22, "Ann 12", 0)
    assert shows(image, "P2 (bot) 8") and shows(image, "(bot)") and shows(image, "Ann 12")
    assert not shows(image, "P3 (bot)") and not shows(image, "P2 (bot) 9")


# ----------------------------------------------------------------- item 5: scores


def mid_round(players: int):
    r = goldens.play_turns(goldens.deal("9-card", players=players), 7)
    r = goldens.until_my_turn(r, r.to_move)
    r.apply(r.to_move, Action("take"))
    return r.view(None)


@pytest.mark.parametrize("size", [(256, 64), (128, 64)])
@pytest.mark.parametrize("players", [2, 4, 6, 8])
def test_each_total_is_drawn_right_after_its_own_name(size, players):
    """'P1 … 31 P2 (bot) … 6' read as P2 = 31: now each seat reads 'P2 (bot) 6'."""
    view = mid_round(players)
    image = render_table(view, size, BOT_NAMES[:players])
    for seat in range(players):
        assert shows(image, f"{BOT_NAMES[seat]} {view.totals[seat]}"), (seat, size)


# ----------------------------------------------------------------- item 6: one name per seat


def test_a_seat_names_the_player_to_move_as_the_shared_display_does(sim_table):
    table = sim_table(variant="6-card", seats=2, bots={1: "hard"}, auto_start=True,
                  seed=4, bot_delay=5.0)
    svc = table.service
    table.press(0, Button.OK, Button.RIGHT, Button.OK)  # seat 1 turns up two cards
    while svc.match.round.to_move != 1:
        if svc.match.round.to_move == 0:
            table.press(0, Button.OK)  # play whatever is under the cursor
        else:  # the bot is still turning up its cards: give it its thinking time
            table.clock.now += 5.0
            svc.run_until_idle()
    assert svc.players[1].name == "P2 (HARD)"
    assert shows(table.shared.image, "P2 (HARD) to play", 2)
    seat = table.displays[0].image
    assert shows(seat, "wait: P2 (HARD) is playing")
    assert not shows(seat, "SEAT 2 PLAYS") and not shows(seat, "seat 2")


def test_a_bot_seat_and_the_lobby_use_the_same_name(sim_table):
    table = sim_table(variant="6-card", seats=3, bots={2: "medium"})
    table.press(0, Button.OK)  # seat 1 joins
    assert shows(table.displays[2].image, "P3 (MEDIUM)")  # the bot's own seat, in the lobby
    assert shows(table.shared.image, "P1, P3 (MEDIUM)")
    table.hold(0, Button.OK)  # deal
    assert shows(table.displays[2].image, "P3 (MEDIUM)", 2)  # its notice: "a bot plays this seat"


def test_the_empty_seats_line_never_contradicts_who_plays():
    lobby = Lobby(TableSettings(seats=4, bots={1: "greedy", 2: "greedy", 3: "greedy"}))
    lobby.press(0, Button.OK, EventKind.PRESSED)
    assert str(lobby.lines()[1]) == "empty seats: none"  # not "empty seats: empty" beside 3 bots
    two_free = Lobby(TableSettings(seats=4, bots={3: "greedy"}))
    two_free.press(0, Button.OK, EventKind.PRESSED)
    assert str(two_free.lines()[1]) == "2 empty seats: stay empty"
    two_free.press(0, Button.OK, EventKind.PRESSED)  # cursor on that line
    two_free.press(0, Button.RIGHT, EventKind.PRESSED)
    assert str(two_free.lines()[1]) == "2 empty seats: hard bots"
    assert [p.name for p in two_free.players()] == ["P1", "P2 (HARD)", "P3 (HARD)", "P4 (GREEDY)"]


@pytest.mark.parametrize("lang, stays, bot", [
    ("en", "1 empty seat: stays empty", "1 empty seat: hard bot"),
    ("fr", "1 place : reste vide", "1 place : robot fort")])
def test_one_empty_seat_is_said_in_the_singular(lang, stays, bot):
    """'1 place : restent vides', '1 empty seat: hard bots': one seat, one bot."""
    one_free = Lobby(TableSettings(seats=3, bots={2: "medium"}, language=lang))
    one_free.press(0, Button.OK, EventKind.PRESSED)
    assert str(one_free.lines()[1]) == stays
    one_free.press(0, Button.OK, EventKind.PRESSED)  # cursor on that line
    one_free.press(0, Button.RIGHT, EventKind.PRESSED)
    assert str(one_free.lines()[1]) == bot


@pytest.mark.parametrize("size", [(256, 64), (128, 64)])
def test_the_lobby_lists_eight_players_whole(size, sim_table):
    table = sim_table(variant="9-card", seats=8, shared_size=size,
                  bots={s: "hard" for s in range(1, 8)})
    table.press(0, Button.OK)  # seat 1 joins
    for image in (table.shared.image, table.displays[0].image, table.displays[7].image):
        for name in BOT_NAMES:
            assert shows(image, name), (name, size)


def test_the_lobby_keeps_its_menu_rows_inside_the_screen():
    """Eight players and a two-line footer leave the 128×64 menu fewer rows, but the cursor's."""
    lines = ["game: 9-card", "empty seats: none", "rounds: 9", "lines: rows"]
    players = ", ".join(BOT_NAMES)
    for cursor in range(len(lines)):
        image = render_lobby((128, 64), "P1: you play", lines, cursor, players,
                             "◀▶ change · ● next setting · hold ● start · ✕ leave")
        assert shows(image, "◀") and shows(image, "P8 (HARD)")


# ----------------------------------------------------------------- item 3: the simulator's top line


def sim_table(tmp_path, argv=(), humans=1):
    """golfbox sim's table for ``argv`` (2 players, seed 3, one round unless it says),
    ``humans`` of them people; no delay, dealt at once unless --lobby."""
    from golfbox.commands.sim import add_arguments, table_settings
    from golfbox.table.sim import SimTable

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["--players", "2", "--seed", "3", "--rounds", "1", *argv])
    settings = table_settings(args, humans=humans, bot_delay=0.0, auto_start=not args.lobby)
    return SimTable(settings)


def test_the_sim_top_line_follows_the_lobby_and_speaks_words(tmp_path):
    table = sim_table(tmp_path, argv=["--lobby"])
    svc = table.service
    try:
        table.press(0, Button.OK, EventKind.PRESSED)  # join
        svc.run_until_idle()
        table.press(0, Button.RIGHT, EventKind.PRESSED)  # game: 6-card → polish-poker
        svc.run_until_idle()
        assert svc.lobby.variant == "polish-poker"
        assert "polish-poker" in table.status() and "6-card" not in table.status()
        table.press(0, Button.OK, EventKind.HELD)  # deal
        svc.run_until_idle()
        assert table.status() == "polish-poker · round 1/1 · playing"
        while svc.state == "playing":
            seat_input = svc.inputs[0]
            action = seat_input.choice
            table.press(0, Button.OK, EventKind.PRESSED)
            if action is not None and action.kind == "knock":
                table.press(0, Button.OK, EventKind.PRESSED)  # yes, knock
            svc.run_until_idle()
        assert table.status() == "polish-poker · round 1/1 · round over"
        table.press(0, Button.OK, EventKind.PRESSED)
        svc.run_until_idle()
        assert table.status() == "polish-poker · match over"
        assert "_" not in table.status()
    finally:
        table.close()


# ----------------------------------------------------------------- item 4: Tab


@pytest.mark.parametrize("seats", [4, 5, 8])
def test_tab_shows_the_seats_the_top_line_names(seats):
    order = list(range(seats))
    first = 0
    seen = []
    for _ in range(seats):
        layout = terminal.plan_layout(260, 70, (256, 64), (128, 64), order, first)
        seen += layout.seats_shown
        hint = terminal.tab_hint(layout)
        named = tuple(int(n) - 1 for n in hint.split("seats ")[1].split(", "))
        first = layout.next_first  # what one Tab does
        after = terminal.plan_layout(260, 70, (256, 64), (128, 64), order, first)
        assert after.seats_shown == named, (hint, after.seats_shown)
    assert set(seen) == set(order)  # Tab reaches every seat


class FakeScreen:
    """Just enough of a curses window for TerminalUI.draw: the text it writes, by row."""

    def __init__(self, rows: int, cols: int):
        self.rows, self.cols = rows, cols
        self.text = [[" "] * cols for _ in range(rows)]

    def getmaxyx(self):
        return self.rows, self.cols

    def erase(self):
        self.text = [[" "] * self.cols for _ in range(self.rows)]

    def addstr(self, y, x, text, attr=0):
        for i, ch in enumerate(text[:self.cols - x]):
            self.text[y][x + i] = ch

    def refresh(self):
        pass

    def line(self, y: int) -> str:
        return "".join(self.text[y])

    def all(self) -> str:
        return "\n".join(self.line(y) for y in range(self.rows))


def terminal_ui(table, rows: int, cols: int):
    """The simulator's TerminalUI on a FakeScreen of rows × cols: no curses, no colours;
    seat 1 is the person at the keyboard, the others bots."""
    import threading

    from golfbox.table.sim_ui import TerminalUI

    ui = TerminalUI.__new__(TerminalUI)
    ui.screen, ui.cells, ui.table = FakeScreen(rows, cols), terminal.CELL_MODES["auto"], table
    ui.humans, ui.changed, ui.keys_of = [0], threading.Event(), {0: terminal.SEAT_KEYS[0]}
    ui.seat_order = list(range(table.settings.seats))
    ui.first_shown, ui.next_first, ui.show_help, ui.pairs = 0, 0, False, {}
    ui.seats_shown = ()
    ui.pressed, ui.too_small, ui.note = False, False, ""
    ui.curtain = terminal.Curtain(ui.humans)
    return ui


def test_one_tab_in_the_simulator_shows_the_seats_the_top_line_names(tmp_path):
    """A 260×70 terminal shows two seats of four; the top line says 'Tab: seats 3, 4',
    and one Tab must then show seats 3 and 4 (it showed 2 and 3)."""
    table = sim_table(tmp_path, argv=["--players", "4"])
    try:
        ui = terminal_ui(table, 70, 260)
        ui.draw()
        assert "Tab: seats 3, 4" in ui.screen.line(0)
        assert "seat 1 · you" in ui.screen.all() and "seat 2 · bot" in ui.screen.all()
        ui.handle("\t")
        ui.draw()
        shown = ui.screen.all()
        assert "seat 3 · bot" in shown and "seat 4 · bot" in shown and "seat 2 · bot" not in shown
    finally:
        table.close()


# ----------------------------------------------------------------- item 7: the cursor stays


def test_enter_right_enter_turns_up_the_first_two_cards(sim_table):
    """The issue's example: ●, ▶, ● at the start turns up cards 0 and 1 (on the old
    main the cursor jumped to card 1 after the first ●, so ▶ took it to card 2)."""
    table = sim_table(variant="6-card", seats=2, auto_start=True, seed=4)
    svc = table.service
    table.press(0, Button.OK)
    assert svc.match.round.face_up[0] == 1 << 0
    assert svc.inputs[0].cursor == 0  # it rests on the card just turned up
    assert shows(table.displays[0].image, "◀▶ move · ● nearest card")
    table.press(0, Button.RIGHT, Button.OK)
    assert svc.match.round.face_up[0] == 1 << 0 | 1 << 1


def test_turning_up_a_card_leaves_the_cursor_on_it_and_ok_moves_it_beside_it(sim_table):
    """6-card start, cursor moved to card 4 and ● turns it up: the cursor stays on card 4;
    ● then moves it to the nearest card still face down (5, beside it), not to card 0,
    without turning anything up: ● acts only on what the cursor shows."""
    table = sim_table(variant="6-card", seats=2, auto_start=True, seed=4)
    svc = table.service
    table.press(0, Button.RIGHT, Button.RIGHT, Button.RIGHT, Button.RIGHT, Button.OK)
    assert svc.match.round.face_up[0] == 1 << 4
    assert svc.inputs[0].cursor == 4
    table.press(0, Button.OK)
    assert svc.match.round.face_up[0] == 1 << 4 and svc.inputs[0].cursor == 5
    table.press(0, Button.OK)
    assert svc.match.round.face_up[0] == 1 << 4 | 1 << 5


def test_from_a_resting_cursor_left_and_right_step_in_grid_order_round_the_grid():
    seat = SeatInput()
    flips = tuple(Action("flip", p) for p in range(6))
    seat.update(flips, cols=3)
    seat.press(Button.LEFT, EventKind.PRESSED)  # round to card 5
    assert seat.press(Button.OK, EventKind.PRESSED) == Action("flip", 5)
    seat.update(flips[:5], cols=3)
    assert seat.cursor == 5 and seat.resting == 5
    seat.press(Button.RIGHT, EventKind.PRESSED)  # nothing after 5: round to the first card
    assert seat.cursor == 0 and seat.resting is None
    assert seat.press(Button.OK, EventKind.PRESSED) == Action("flip", 0)
    seat.update(flips[1:5], cols=3)
    seat.press(Button.LEFT, EventKind.PRESSED)  # nothing before 0: round to the last card
    assert seat.cursor == 4
    seat.press(Button.OK, EventKind.PRESSED)
    seat.update(flips[1:4], cols=3)
    seat.press(Button.BACK, EventKind.PRESSED)  # ✕: back to the first choice, as always
    assert seat.cursor == 1 and seat.resting is None


def test_the_cursor_stays_on_a_choice_that_is_still_legal():
    seat = SeatInput()
    seat.update((Action("flip", 0), Action("flip", 1), Action("flip", 2)), cols=3)
    seat.press(Button.RIGHT, EventKind.PRESSED)
    seat.press(Button.RIGHT, EventKind.PRESSED)
    assert seat.cursor == 2
    seat.update((Action("flip", 1), Action("flip", 2)), cols=3)  # card 0 went (another way)
    assert seat.cursor == 2
    seat.update((Action("flip", 1), Action("flip", 4)), cols=3)  # card 2 went: 1 is beside it
    assert seat.cursor == 1
    seat.update((Action("draw"), Action("take")), cols=3)  # no card to choose: the first choice
    assert seat.cursor == "stock"


def test_the_9card_first_turn_flips_move_to_the_nearest_face_down_card():
    seat = SeatInput()
    flips = tuple(Action("flip", p) for p in range(9))
    seat.update(flips, cols=3)
    for _ in range(4):
        seat.press(Button.RIGHT, EventKind.PRESSED)
    assert seat.press(Button.OK, EventKind.PRESSED) == Action("flip", 4)
    seat.update(tuple(a for a in flips if a.pos != 4), cols=3)
    assert seat.cursor == 4  # it rests on the card just turned up
    seat.press(Button.OK, EventKind.PRESSED)
    assert seat.cursor == 5  # ●: beside card 4 in its row, not card 0


def test_keys_play_nothing_while_the_terminal_is_too_small_to_show_the_table(tmp_path):
    """At 80×24 only "too small" shows, yet ● ▶ ● turned cards up and saved the moves."""
    table = sim_table(tmp_path)
    pressed = []
    table.press = lambda *press: pressed.append(press)  # what reaches the table's buttons
    try:
        ui = terminal_ui(table, 24, 80)
        ui.draw()
        assert "too small" in ui.screen.all().lower()
        enter = next(iter(terminal.SEAT_KEYS[0].bindings[-1].keys))
        assert ui.handle(enter) and pressed == []
        ui.screen = FakeScreen(70, 260)  # the window made bigger
        ui.draw()
        ui.handle(enter)
        assert len(pressed) == 1
    finally:
        table.close()


def test_the_top_line_keeps_help_and_quit_when_the_resumed_note_is_long(tmp_path):
    """At 128×36 the first screen's "resumed the unfinished match …" pushed "? help  q
    quit" off the top line until a key was pressed."""
    table = sim_table(tmp_path)
    table.resumed = object()  # the first screen after a resume
    try:
        ui = terminal_ui(table, 36, 128)
        ui.draw()
        top = ui.screen.line(0)
        assert top.rstrip().endswith("? help  q quit") and "resumed (" in top
    finally:
        table.close()


def test_the_resumed_note_says_how_to_start_afresh_on_a_laptop_sized_terminal(tmp_path):
    """At 128×36 the top line read "… resumed the unfinished match (golfbox sim …": the
    way to the match the options asked for (--new) was cut off, here after the longest
    game's words and a Tab hint."""
    table = sim_table(tmp_path, argv=["--players", "4", "--variant", "polish-poker",
                                      "--rounds", "18"])
    table.resumed = object()  # the first screen after a resume
    try:
        ui = terminal_ui(table, 36, 128)
        ui.draw()
        top = ui.screen.line(0)
        assert "polish-poker · round 1/18 · playing" in top and "Tab: seats" in top
        assert "resumed (--new starts afresh)" in top and "…" not in top
        assert top.rstrip().endswith("? help  q quit")
    finally:
        table.close()


def test_a_key_that_plays_no_seat_says_why(tmp_path):
    """README's key table gives seat 2 a d s x, but golfbox sim has one person at the
    keyboard: pressing d did nothing at all, and said nothing. So did any other key."""
    table = sim_table(tmp_path)
    pressed = []
    table.press = lambda *press: pressed.append(press)
    try:
        ui = terminal_ui(table, 36, 128)
        for key, words in (("d", "'d' plays no seat: this keyboard plays seat 1 (--humans)"),
                           ("z", "'z' does nothing here: ? lists the keys")):
            assert ui.handle(key)
            ui.draw()
            top = ui.screen.line(0)
            assert words in top and top.rstrip().endswith("? help  q quit")
        assert pressed == []
        ui.handle(curses.KEY_RIGHT)  # seat 1's ▶: played, and the note is gone
        ui.draw()
        assert len(pressed) == 1 and "nothing here" not in ui.screen.line(0)
        ui.humans, ui.keys_of = [], {}  # --humans 0
        ui.handle(curses.KEY_RIGHT)
        ui.draw()
        assert "that key plays no seat: bots play them all (--humans)" in ui.screen.line(0)
    finally:
        table.close()


def test_enter_and_backspace_that_play_no_seat_say_so_too(tmp_path):
    """With bots in every seat (--humans 0, or a bots' match resumed), seat 1's ↓ said
    "that key plays no seat: bots play them all", but its Enter and Backspace, README's
    other keys for ● and ✕, did nothing and said nothing."""
    table = sim_table(tmp_path)
    pressed = []
    table.press = lambda *press: pressed.append(press)
    try:
        ui = terminal_ui(table, 36, 128)
        ui.humans, ui.keys_of = [], {}  # --humans 0
        for key, name in (("\n", "Enter"), ("\r", "Enter"), ("\x7f", "Backspace"),
                          ("\b", "Backspace")):
            assert ui.handle(key)
            ui.draw()
            assert f"{name} plays no seat: bots play them all (--humans)" in ui.screen.line(0)
        assert pressed == []
    finally:
        table.close()


SHARED_WINS = [  # (names, totals): the lowest totals share the win
    (["P1", "P2 (HARD)", "P3 (HARD)"], (20, 12, 12)),
    (["P1", "P2 (MEDIUM)", "P3 (MEDIUM)", "P4 (MEDIUM)"], (5, 5, 5, 5)),
    (["Anne", "Benoît", "Cléo", "Dany"], (12, 12, 12, 30)),
]


@pytest.mark.parametrize("size", [(256, 64), (128, 64)])
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("names, totals", SHARED_WINS)
def test_the_result_of_a_shared_win_says_it_and_names_every_player_whole(names, totals, lang, size):
    """On the 128-px shared display a shared win lost its verb ('P2 (HARD) AND P3 (HARD)
    SHARE THE…') and the standings, a 64-px column beside an empty one, cut the names
    ('P2 (HA…')."""
    from golfbox.render import render_match_result
    from golfbox.render.words import say

    if lang == "fr":
        names = [name.replace("P", "J").replace("HARD", "FORT").replace("MEDIUM", "MOYEN")
                 for name in names]
    winners = tuple(s for s, total in enumerate(totals) if total == min(totals))
    shown = render_match_result(totals, winners, names, size, lang)
    whole = say(lang, "{some} and {last} share the win",
                some=", ".join(names[s] for s in winners[:-1]), last=names[winners[-1]])
    assert shows(shown, whole) or shows(shown, say(lang, "{n} players share the win", n=len(winners)))
    for name, total in zip(names, totals):
        assert shows(shown, name), name


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_result_keeps_the_verb_after_a_long_winners_name(lang):
    from golfbox.render import render_match_result
    from golfbox.render.words import say

    name = "Marie-Antoinette de Lorraine"
    shown = render_match_result((3, 9), (0,), [name, "Bob"], (128, 64), lang)
    verb = say(lang, "{who} wins", who="").strip()
    assert shows(shown, verb)


@pytest.mark.parametrize("lang, words", [("en", "KNOCK +5"), ("fr", "FRAPPÉ +5")])
def test_a_seat_whose_round_score_holds_a_penalty_says_so(lang, words):
    """A knocker's seat showed Q 2 / 8 J and 'SCORE 35': its cards make 30, and only the
    shared display ('30+5') said where the 5 came from. It said 'PENALTY +5', not for
    what: now 'KNOCK +5' (a finisher's, 'WENT OUT +5': test_render)."""
    from golfbox.render.words import say

    round_ = goldens.play_out(goldens.deal("4-card", players=3, rules={"knock_penalty": 5}),
                              knock_after=3)
    knocker = round_.view(None).knocker
    assert round_.scores[knocker] == round_.raw_scores[knocker] + 5
    shown = render_seat(round_.view(knocker), lang=lang)
    assert shows(shown, say(lang, "SCORE {n}", n=round_.scores[knocker])) and shows(shown, words)
    other = next(s for s in range(3) if s != knocker)
    assert not shows(render_seat(round_.view(other), lang=lang), words[:5])
    # At the match's result the seat shows its total: the last round's penalty is in it.
    assert not shows(render_seat(round_.view(knocker), lang=lang, match_over=True), words)


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("penalty", [100, 1000])
def test_a_large_knock_penalty_shows_its_whole_number(penalty, lang):
    """knock_penalty takes up to 1000 (MAX_RULE_NUMBER): 'PENALTY +100' is 47 px and the
    side column has 44 beside its indent, so a penalty of 100 read 'PENALTY +10' (and 1000
    too). Where the word and the number do not both fit, the number shows alone."""
    round_ = goldens.play_out(goldens.deal("4-card", players=3, rules={"knock_penalty": penalty}),
                              knock_after=3)
    knocker = round_.view(None).knocker
    assert round_.scores[knocker] == round_.raw_scores[knocker] + penalty  # the state tested
    shown = render_seat(round_.view(knocker), lang=lang).crop((82, 40, 128, 52))
    assert shows(shown, f"+{penalty}")


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("penalty", [5000, 123456])
def test_a_resumed_penalty_past_the_bound_shows_the_whole_score_and_total(penalty, lang):
    """A match an older golfbox dealt with a knock penalty past today's 1000 is finished
    under it (Session.resume). The knocker's side column read 'SCORE 12348' for 123483,
    its last digit off the screen ('SCORE 123483' is 46 px from x 84; French 'POINTS
    123483' 51), and 'TOTAL 12348' at the result. Where the word and the number do not
    both fit the side column, the number shows alone, as the penalty under it does."""
    import random

    from golfbox.engine import Round, get_variant, make_rules
    from golfbox.render import seat as seat_render

    variant = get_variant("4-card")
    rules = make_rules(variant, {"knock_penalty": penalty}, bounded=False)
    round_ = goldens.play_out(Round(variant, rules, 3, dealer=2, rng=random.Random(1), round_no=3,
                                    rounds=9, totals=(0, 10, 20)), knock_after=3)
    knocker = round_.view(None).knocker
    score = round_.scores[knocker]
    assert score == round_.raw_scores[knocker] + penalty  # the state tested
    for match_over, number in ((False, score), (True, score + (0, 10, 20)[knocker])):
        image = render_seat(round_.view(knocker), lang=lang, match_over=match_over)
        side = image.crop((seat_render.SIDE_X, 30, 128, 52))
        assert shows(side, str(number)), (match_over, number)
        assert not any(image.getpixel((127, y)) for y in range(30, 52))  # nothing runs off


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("totals, said", [
    ((12, 12, 30), ("SHARED WIN", "SHARED WIN", "PLACE 3/3")),
    ((5, 9, 9), ("YOU WIN", "PLACE 2/3", "PLACE 2/3")),
])
def test_each_seat_says_at_the_result_whether_it_won_or_shares_the_win(totals, said, lang):
    """At the match's result a seat said MATCH OVER and its total, and nothing of who won:
    equal lowest totals share the win (RULES.md), and each of those seats says so."""
    from golfbox.render.words import say

    round_ = goldens.play_out(goldens.deal("6-card", players=3, round_no=9))
    for seat, words in enumerate(said):
        view = round_.view(seat)
        view = view._replace(table=view.table._replace(totals=totals))
        shown = render_seat(view, lang=lang, match_over=True)
        words = say(lang, words) if "/" not in words else say(lang, "PLACE {n}/{of}",
                                                              n=words[6], of=3)
        assert shows(shown, words), (seat, words)
        assert shows(shown, say(lang, "TOTAL {n}", n=totals[seat]))


def test_a_hidden_seats_first_key_only_uncovers_it(tmp_path):
    """Two people at one terminal, in a round: a seat's panel is hidden until one of its
    keys, and that key played as well: seat 1's ● turned up a card its player never saw,
    seat 2's Shift+s (a hold: its press, then HELD) too. The first key only uncovers the
    seat, as a press that wakes a table's screen saver only wakes it; the next acts."""
    table = sim_table(tmp_path, humans=2)
    svc = table.service
    try:
        ui = terminal_ui(table, 70, 260)
        ui.humans, ui.keys_of = [0, 1], {0: terminal.SEAT_KEYS[0], 1: terminal.SEAT_KEYS[1]}
        ui.curtain = terminal.Curtain(ui.humans)  # nobody has pressed a key: all hidden
        assert svc.state == "playing"
        for seat, first, then in ((0, "\n", "\n"), (1, "S", "s"), (0, "\n", None)):
            ui.draw()
            assert f"seat {seat + 1} · you · hidden" in ui.screen.all()
            turned = svc.match.round.face_up[seat]
            assert ui.handle(first)
            svc.run_until_idle()
            assert svc.match.round.face_up[seat] == turned  # only uncovered
            ui.draw()
            assert f"seat {seat + 1} · you · hidden" not in ui.screen.all()
            if then is not None:
                assert ui.handle(then)
                svc.run_until_idle()
                assert svc.match.round.face_up[seat] == turned | 1 << 0  # seen: it plays
    finally:
        table.close()


def test_a_key_of_a_seat_on_another_page_of_the_terminal_turns_to_it_and_plays_nothing(
        tmp_path):
    """A seat whose panel is on another page of the terminal (Tab) was never drawn: its
    first key only uncovered it, on no screen, and its second acted on a cursor and
    cards its player could not see. Its first key now turns to its page and plays
    nothing; the next, on the screen now shown, plays."""
    table = sim_table(tmp_path, ["--players", "4"], humans=4)
    svc = table.service
    try:
        ui = terminal_ui(table, 70, 260)  # two seats of four on a page
        ui.humans, ui.seat_order = [0, 1, 2, 3], [0, 1, 2, 3]
        ui.keys_of = {seat: terminal.SEAT_KEYS[seat] for seat in ui.humans}
        ui.curtain = terminal.Curtain(ui.humans)
        ui.draw()
        assert "Tab: seats 3, 4" in ui.screen.line(0) and "seat 3 ·" not in ui.screen.all()
        turned = svc.match.round.face_up[2]
        assert ui.handle("g")  # seat 3's ●: turns to it, uncovered
        svc.run_until_idle()
        assert svc.match.round.face_up[2] == turned
        ui.draw()
        assert "seat 3 · you" in ui.screen.all() and "seat 3 · you · hidden" not in ui.screen.all()
        assert ui.handle("g")
        svc.run_until_idle()
        assert svc.match.round.face_up[2] == turned | 1 << 0
    finally:
        table.close()


def test_a_key_of_the_one_person_after_a_tab_to_the_bots_turns_back_to_their_seat(tmp_path):
    """One person, four seats: after a Tab to look at the bots' seats, the person's
    key acted on their own seat, not on screen. It now turns back to it first."""
    table = sim_table(tmp_path, ["--players", "4"])
    svc = table.service
    try:
        ui = terminal_ui(table, 70, 260)
        ui.draw()
        ui.handle("\t")
        ui.draw()
        assert "seat 1 ·" not in ui.screen.all()
        turned = svc.match.round.face_up[0]
        assert ui.handle("\n")  # seat 1's ●
        svc.run_until_idle()
        assert svc.match.round.face_up[0] == turned
        ui.draw()
        assert "seat 1 · you" in ui.screen.all()
        assert ui.handle("\n")
        svc.run_until_idle()
        assert svc.match.round.face_up[0] != turned
    finally:
        table.close()


def test_a_key_answers_the_curtain_its_player_saw():
    """A seat drawn hidden whose round ended before its key (round_over hides nothing)
    saw the curtain, not the result the key would act on: that key only uncovers it.
    So does one on a seat hidden since the last draw (the match was dealt meanwhile)."""
    curtain = terminal.Curtain([0, 1])
    assert curtain.draws(0, "playing")
    assert not curtain.key(0, "round_over")
    assert not curtain.key(0, "round_over")  # the result not drawn yet: not seen
    curtain.drawn()  # the front end drew it
    assert curtain.key(0, "round_over")  # seen now: it acts
    assert not curtain.draws(1, "lobby")
    assert not curtain.key(1, "playing")


def test_the_curtain_never_shows_a_frame_drawn_after_the_state_it_judged_by(tmp_path):
    """The terminal looked at the table's state, then read a seat's picture: if the table
    thread dealt in between, the first in-round picture of another person's seat was
    drawn with no curtain (the state read was the lobby's), until the next redraw. The
    picture is read first: one drawn in a round was drawn after the state said so."""
    table = sim_table(tmp_path, ["--lobby"], humans=2)
    svc = table.service
    try:
        for seat in (0, 1):
            table.press(seat, Button.OK, EventKind.PRESSED)  # both join
            svc.run_until_idle()
        ui = terminal_ui(table, 70, 260)
        ui.humans, ui.keys_of = [0, 1], {0: terminal.SEAT_KEYS[0], 1: terminal.SEAT_KEYS[1]}

        class DealtMeanwhile(terminal.Curtain):
            """The table thread runs right after the UI looked at the state for seat 2:
            seat 1 holds ● and the match is dealt."""

            def hides(self, seat, state):
                if svc.state == "lobby" and seat == 1:
                    table.press(0, Button.OK, EventKind.HELD)
                    svc.run_until_idle()
                return super().hides(seat, state)

        ui.curtain = DealtMeanwhile(ui.humans)  # nobody has pressed a key at it: all hidden
        ui.draw()
        assert svc.state == "playing"
        in_round = table.image("seat-1")
        drawn = ui.screen.all()
        if "seat 2 · you · hidden" not in drawn:
            rows = ["".join(run.text for run in runs).strip()
                    for cell in terminal.CELL_MODES["auto"]
                    for runs in terminal.cell_runs(in_round, cell)]
            assert not [row for row in rows if len(row) > 20 and row in drawn]
    finally:
        table.close()


def test_the_smallest_terminal_shows_every_display_pixel_for_pixel_from_its_edge(tmp_path):
    """At the smallest size that draws half-blocks (256×68 with the 256×64 shared display),
    the shared display and seat 1 are drawn whole from the terminal's first column: each
    label where its picture begins, each picture the very image its display was sent. A
    panel one column off lost the display's last column; a first column left undrawn cut
    every label to 'eat 1'."""
    table = sim_table(tmp_path)
    try:
        shared, seat = table.sim_display("shared"), table.sim_display("seat-0")
        cols, rows = terminal.minimum_size(shared.size, seat.size)
        assert (cols, rows) == (256, 68)
        ui = terminal_ui(table, rows, cols)
        ui.draw()
        screen = ui.screen
        for label, image in (("table · shared display 256×64", shared.image),
                             ("seat 1 · you", seat.image)):
            top = next(y for y in range(rows) if screen.line(y).startswith(label))
            picture = terminal.halfblock_text(image)
            shown = [screen.line(top + 1 + dy)[:len(text)] for dy, text in enumerate(picture)]
            assert shown == picture, f"{label}: not drawn pixel for pixel"
            assert any(text.strip() for text in picture)  # a real picture, not a blank one
    finally:
        table.close()


def test_a_hidden_seats_words_sit_inside_its_panel(tmp_path):
    """Two people at one terminal: the words on a hidden seat's panel ('hidden from the
    others: press a key of seat 2') are inside the panel, under its label and above its
    keys, not pushed onto the keys' line or the rows below."""
    table = sim_table(tmp_path, humans=2)
    try:
        ui = terminal_ui(table, 70, 260)
        ui.humans, ui.keys_of = [0, 1], {0: terminal.SEAT_KEYS[0], 1: terminal.SEAT_KEYS[1]}
        ui.curtain = terminal.Curtain(ui.humans)  # nobody has pressed a key: all hidden
        assert table.service.state == "playing"
        ui.draw()
        lines = [ui.screen.line(y) for y in range(70)]
        label = next(y for y, line in enumerate(lines) if "seat 2 · you · hidden" in line)
        left = lines[label].index("seat 2 · you · hidden")
        height = terminal.cells_for(table.sim_display("seat-1").size)[1]
        hint = terminal.SEAT_KEYS[1].hint
        assert lines[label + 1 + height][left:].startswith(hint[:40])  # the keys' line
        panel = [line[left:left + 128] for line in lines[label + 1:label + 1 + height]]
        words = [" ".join(line.split()) for line in panel if line.strip()]
        assert words == list(terminal.curtain_lines(1))
    finally:
        table.close()
