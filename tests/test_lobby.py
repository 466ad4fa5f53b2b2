"""The lobby: joining, and choosing the game, empty seats, rounds and house rules on the pads."""

from __future__ import annotations

import logging

import pytest

from golfbox.engine import VARIANTS, make_rules
from golfbox.hal.base import Button, EventKind
from golfbox.table.journal import Journal
from golfbox.table.lobby import Lobby
from golfbox.table.settings import TableSettings


PRESSED, HELD = EventKind.PRESSED, EventKind.HELD


def lobby(**settings) -> Lobby:
    lobby = Lobby(TableSettings(**settings))
    lobby.press(0, Button.OK, PRESSED)  # seat 1 joins
    return lobby


def go_to(lobby: Lobby, key: str) -> None:
    """Press ● on seat 1 until the cursor is on ``key``."""
    for _ in range(len(lobby.lines())):
        if lobby.selected.key == key:
            return
        lobby.press(0, Button.OK, PRESSED)
    raise AssertionError(f"no line {key}")


def test_the_menu_starts_from_the_config():
    menu = lobby(variant="6-card", rounds=18, rules={"final_turn": True, "four_of_a_kind": -10})
    assert [str(line) for line in menu.lines()] == [
        "game: 6-card", "3 empty seats: stay empty", "rounds: 18",
        "final turn: on", "peek row: off", "four of a kind: -10", "hints: off", "language: english",
        "rules: ◀▶ read",
    ]
    assert menu.rules() == {"final_turn": True, "four_of_a_kind": -10}
    assert menu.describe() == "6-card · 18 rounds · final turn on · four of a kind -10"


def test_every_variant_lists_all_its_house_rules():
    menu = lobby()
    for name, variant in VARIANTS.items():
        menu.variant = name
        assert [line.key for line in menu.lines()[3:]] == [spec.name for spec in variant.rule_specs] + ["hints", "language", "rules"]


def test_ok_walks_the_lines_and_the_arrows_change_the_one_under_the_cursor():
    menu = lobby(variant="polish-poker")
    go_to(menu, "knock_penalty")
    assert menu.selected.value == "10"
    menu.press(0, Button.RIGHT, PRESSED)
    assert menu.selected.value == "15"
    for _ in range(2):
        menu.press(0, Button.RIGHT, PRESSED)
    assert menu.selected.value == "double"
    menu.press(0, Button.RIGHT, PRESSED)  # round the end: back to the first value
    assert menu.selected.value == "off"
    go_to(menu, "choose_start")
    menu.press(0, Button.LEFT, PRESSED)
    assert menu.rules() == {"knock_penalty": 0, "choose_start": True}
    go_to(menu, "variant")
    menu.press(0, Button.OK, PRESSED)
    assert menu.selected.key == "fill"  # ● goes on to the next line


@pytest.mark.parametrize("lang, off", [("en", "off"), ("fr", "non")])
def test_no_knock_penalty_reads_off_as_the_rules_call_it(lang, off):
    """A knock penalty of 0 read '0' in the lobby where docs/RULES.md and README call it
    "off" (and the config takes "off"): it says off, as every on/off rule does."""
    menu = lobby(variant="4-card")
    go_to(menu, "knock_penalty")
    assert [line.value for line in menu.lines(lang) if line.key == "knock_penalty"] == [off]
    menu.press(0, Button.RIGHT, PRESSED)
    assert menu.selected.value == "5"


def test_rounds_step_through_common_lengths_and_the_configured_one():
    menu = lobby(rounds=7)
    go_to(menu, "rounds")
    seen = []
    for _ in range(6):
        menu.press(0, Button.RIGHT, PRESSED)
        seen.append(menu.rounds)
    assert seen == [9, 18, 1, 3, 5, 7]


def test_each_variant_keeps_its_own_rules_while_the_games_go_by():
    menu = lobby(variant="6-card", rules={"peek_row": True})
    go_to(menu, "variant")
    menu.press(0, Button.RIGHT, PRESSED)  # → polish-poker: its defaults
    assert menu.variant == "polish-poker" and menu.rules() == {}
    go_to(menu, "negative_pairs_keep")
    menu.press(0, Button.RIGHT, PRESSED)
    go_to(menu, "variant")
    menu.press(0, Button.LEFT, PRESSED)  # back to 6-card: the config's rule is still there
    assert menu.variant == "6-card" and menu.rules() == {"peek_row": True}
    menu.press(0, Button.RIGHT, PRESSED)
    assert menu.rules() == {"negative_pairs_keep": True}


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_value_the_menu_offers_is_a_valid_rule(variant):
    """What the lobby hands the engine (and the journal) parses back to the same rules."""
    menu = lobby(variant=variant)
    for spec in VARIANTS[variant].rule_specs:
        go_to(menu, spec.name)
        for _ in spec.choices():
            menu.press(0, Button.RIGHT, PRESSED)
            rules = make_rules(variant, menu.rules())
            assert spec.describe(rules[spec.name]) == menu.selected.value


def test_a_hold_starts_without_moving_the_cursor():
    menu = lobby()
    menu.press(1, Button.OK, PRESSED)  # seat 2 joins
    # A hold is a press at once and HELD after hold_time.
    menu.press(0, Button.OK, PRESSED)
    assert menu.press(0, Button.OK, HELD) == (True, "")
    assert menu.cursor == 0


def test_a_hold_that_joins_does_not_move_the_cursor_either():
    menu = Lobby(TableSettings(bots={1: "random"}))
    menu.press(0, Button.OK, PRESSED)  # the press of the hold joins
    assert menu.press(0, Button.OK, HELD) == (True, "")
    assert menu.cursor == 0


def test_only_a_joined_seat_changes_settings():
    menu = lobby()
    assert menu.press(2, Button.RIGHT, PRESSED) == (False, "press ● to join first")
    assert menu.variant == "6-card"
    menu.press(0, Button.BACK, PRESSED)  # seat 1 leaves
    assert menu.press(0, Button.RIGHT, PRESSED) == (False, "press ● to join first")


def test_the_match_gets_the_chosen_rules_and_rounds_and_a_restart_keeps_them(sim_table):
    table = sim_table(variant="6-card", seats=2, seed=3)
    svc = table.service
    table.press(0, Button.OK)
    table.press(1, Button.OK)
    table.press(0, Button.OK, Button.OK, Button.LEFT)  # rounds: 9 → 5
    table.press(1, Button.OK, Button.RIGHT)  # final turn: on
    table.press(1, Button.OK, Button.OK, Button.RIGHT)  # four of a kind: -5
    shared = table.shared.image
    table.hold(0, Button.OK)
    assert svc.state == "playing"
    assert svc.match.rounds == 5
    assert dict(svc.match.rules) == {"final_turn": True, "peek_row": False, "four_of_a_kind": -5}
    assert svc.match_config == {"variant": "6-card", "rounds": 5,
                                "rules": {"final_turn": True, "four_of_a_kind": -5}}
    assert shared.tobytes() != table.shared.image.tobytes()
    # A power cut: the journal's config brings the same rules back.
    again = sim_table(variant="6-card", seats=2)
    assert again.service.match.rounds == 5 and again.service.match.rules == svc.match.rules


def test_the_lobby_is_drawn_on_every_display(sim_table):
    from golfbox.render import render_lobby

    table = sim_table(seats=3)
    table.press(0, Button.OK)
    table.press(0, Button.OK, Button.RIGHT)  # empty seats: hard bots
    svc = table.service
    lines = [str(line) for line in svc.lobby.lines()]
    players = "P1, P2 (HARD), P3 (HARD)"
    assert table.shared.image.tobytes() == render_lobby(
        (256, 64), "golfbox: press ● to join", lines, 1, players, "hold ● on your pad to start"
    ).tobytes()
    assert table.displays[0].image.tobytes() == render_lobby(
        (128, 64), "P1: you play", lines, 1, players, svc.lobby.prompt(0)).tobytes()
    assert table.displays[1].image.tobytes() == render_lobby(
        (128, 64), "P2 (HARD): press ● to join", lines, 1, players, "● join · ◀▶ rules").tobytes()


def test_the_lobby_chooses_the_level_of_the_bots_and_names_them_by_it(tmp_path):
    from golfbox.bots import DEFAULT_BOT
    from golfbox.table.lobby import Lobby
    from golfbox.table.settings import TableSettings

    lobby = Lobby(TableSettings(variant="6-card", seats=3, names={0: "P1", 1: "P2", 2: "P3"}))
    lobby.press(0, Button.OK, EventKind.PRESSED)  # join
    lobby.press(0, Button.OK, EventKind.PRESSED)  # cursor on "empty seats"
    seen = []
    for _ in range(4):
        lobby.press(0, Button.RIGHT, EventKind.PRESSED)
        seen.append(lobby.selected.value)
    assert seen == ["hard bots", "medium bots", "easy bots", "stay empty"]
    assert DEFAULT_BOT == "hard"
    lobby.press(0, Button.RIGHT, EventKind.PRESSED)
    assert [(p.bot, p.name) for p in lobby.players()] == [
        (None, "P1"), ("hard", "P2 (HARD)"), ("hard", "P3 (HARD)")]
    lobby.press(0, Button.RIGHT, EventKind.PRESSED)  # medium
    assert lobby.players()[2].name == "P3 (MEDIUM)"


def test_after_a_restart_the_lobby_is_the_one_the_resumed_match_was_chosen_in(sim_table):
    # An evening's settings, a power cut mid-match, the match resumed and played out:
    # ✕ opens the lobby the family had chosen (as without the power cut), not the config's.
    table = sim_table(variant="6-card", seats=3)
    lobby = table.service.lobby
    chosen = choose_an_evening(table, joins=(0,), fill=Button.LEFT, fewer_rounds=3)
    assert chosen == ["jeu : 9 cartes", "2 places : robots faciles", "manches : 1",
                      "lignes : rangées+colonnes", "conseils : oui (garde ●)", "langue : français",
                      "règles : ◀▶ lire"]
    players = lobby.players()
    table.hold(0, Button.OK)
    assert table.service.state == "playing"

    again = sim_table(variant="6-card", seats=3)  # the power cut: a new table, the same journal
    assert again.service.state == "playing" and again.service.match_config["rounds"] == 1
    again.play_to_the_result()
    # Another restart at the result: it shows again (its last reveal, then the result).
    third = sim_table(variant="6-card", seats=3)
    assert third.service.state == "round_over"
    third.press(0, Button.OK)
    for table in (again, third):
        table.press(0, Button.BACK)
        assert table.service.state == "lobby"
        assert [str(line) for line in table.service.lobby.lines()] == chosen
        assert table.service.lobby.players() == players


def test_a_rematch_is_dealt_with_every_setting_the_match_had(sim_table):
    """● on the result deals the same match again: Session.rematch passes each of the
    match's settings on to start_match by hand, so one added to the lobby and the
    journal but not there would be dropped from the second match on."""
    table = sim_table(variant="6-card", seats=3)
    choose_an_evening(table, joins=(0,), fill=Button.LEFT, fewer_rounds=3)  # 1 round
    table.hold(0, Button.OK)
    svc = table.service
    first, chosen = svc.session.match_id, dict(svc.match_config)
    table.play_to_the_result()
    table.press(0, Button.OK)  # the result's ●: the same match again
    assert svc.state == "playing" and svc.session.match_id != first
    assert svc.match_config == chosen


def choose_an_evening(table, joins=(0, 2), fill=Button.RIGHT, fewer_rounds=2) -> list[str]:
    """Seats 1 and 3 join (``joins``); seat 1 picks 9-card, hard bots (◀: easy), 3 rounds
    (2 steps down from 9), then ▶ on every other setting of the menu: its house rule,
    hints, French, and a setting added since, so that the tests of a restart fail when
    the journal loses it. Returns the menu as it then reads."""
    lobby = table.service.lobby
    steps = {"variant": [Button.RIGHT] * 2, "fill": [fill], "rounds": [Button.LEFT] * fewer_rounds}

    def change(key: str) -> None:
        while lobby.selected.key != key:
            table.press(0, Button.OK)
        table.press(0, *steps.get(key, [Button.RIGHT]))

    for seat in joins:
        table.press(seat, Button.OK)
    change("variant")  # first: the menu's house rules are then 9-card's
    for key in [line.key for line in lobby.lines()]:
        if key not in ("variant", "rules"):  # "rules" opens the pages: not a setting
            change(key)
    return [str(line) for line in lobby.lines()]


def test_a_power_cut_in_the_lobby_keeps_its_choices_and_who_joined(sim_table):
    table = sim_table(variant="6-card", seats=4)
    chosen = choose_an_evening(table)
    assert chosen == ["jeu : 9 cartes", "2 places : robots forts", "manches : 3",
                      "lignes : rangées+colonnes", "conseils : oui (garde ●)", "langue : français",
                      "règles : ◀▶ lire"]
    players = table.service.lobby.players()
    shared = table.shared.image.tobytes()

    again = sim_table(variant="6-card", seats=4)  # the power cut: a new table, the same journal
    lobby = again.service.lobby
    assert again.service.state == "lobby"
    assert [str(line) for line in lobby.lines()] == chosen
    assert lobby.joined == {0, 2} and lobby.players() == players
    assert lobby.cursor == 0  # (where the cursor was is not kept)
    assert again.shared.image.tobytes() != shared  # (the cursor drawn on the first line)
    again.hold(0, Button.OK)
    assert again.service.state == "playing"
    assert again.service.match_config == {"variant": "9-card", "rounds": 3, "hints": True,
                                          "language": "fr", "rules": {"lines": "rows+columns"}}


def test_a_lobby_kept_before_the_config_changed_gives_way_to_the_config(sim_table, caplog):
    """The café edits [game] in its config (another game, more seats) and restarts: the
    lobby opens on the config's new game, not on what the lobby kept before the edit."""
    table = sim_table(variant="6-card", seats=4)
    choose_an_evening(table)
    caplog.set_level(logging.INFO)
    edited = sim_table(variant="4-card", seats=4)  # the same journal, another config
    lobby = edited.service.lobby
    assert lobby.variant == "4-card" and lobby.joined == set() and lobby.language == "en"
    assert "the config changed since" in caplog.text
    again = sim_table(variant="4-card", seats=4)  # that config's own lobby is kept again
    assert again.service.lobby.variant == "4-card"


@pytest.mark.parametrize("spoil, why", [
    (lambda kept: kept.update(variant="snap-golf"), "unknown variant 'snap-golf'"),
    (lambda kept: kept.update(rounds=0), "rounds: 0"),
    (lambda kept: kept.update(fill="wizard"), "fill: 'wizard'"),
    (lambda kept: kept.update(joined=[0, 7]), "joined: [0, 7]"),  # a seat the config dropped
    (lambda kept: kept["rules"]["9-card"].update(lines="diagonals"), "rules: "),
    (lambda kept: kept["rules"].update({"snap-golf": {}}), "unknown variant 'snap-golf'"),
    (lambda kept: kept.update(rules=["lines"]), "rules: ['lines']"),
    (lambda kept: kept["rules"].update({"6-card": "off"}), "rules: {"),
    (lambda kept: kept.pop("language"), "language: 'missing'"),
    (lambda kept: kept.clear() or kept.update(a=1), "variant: 'missing'"),
], ids=["unknown game", "no rounds", "unknown level", "dropped seat", "bad rule value",
        "rules of an unknown game", "rules not a table", "a game's rules not a table",
        "no language", "not a lobby"])
def test_a_lobby_kept_wrong_is_not_used_the_config_is_and_the_log_says_why(
        sim_table, caplog, spoil, why):
    table = sim_table(variant="6-card", seats=4)
    choose_an_evening(table)
    kept = table.service.lobby.to_json()
    spoil(kept)
    table.journal.save_lobby(kept)  # as a newer or older golfbox might have kept it

    again = sim_table(variant="6-card", seats=4)
    assert again.service.state == "lobby"
    fresh = sim_table(variant="6-card", seats=4, journal=False).service.lobby
    assert again.service.lobby.to_json() == fresh.to_json()
    assert [str(line) for line in again.service.lobby.lines()][0] == "game: 6-card"
    assert any("the lobby kept in the journal is not used" in r.getMessage() and why in r.getMessage()
               for r in caplog.records), [r.getMessage() for r in caplog.records]


def test_a_lobby_kept_as_no_json_is_not_used(sim_table, caplog):
    import sqlite3

    table = sim_table(variant="6-card", seats=4)
    choose_an_evening(table)
    db = sqlite3.connect(table.journal.path)
    db.execute("UPDATE lobby SET data = '{\"variant\": \"9-ca'")
    db.commit()
    db.close()
    again = sim_table(variant="6-card", seats=4)
    assert again.service.state == "lobby" and again.service.lobby.variant == "6-card"
    assert "the saved lobby is not JSON" in caplog.text


def test_the_lobby_is_written_at_a_change_and_not_for_the_cursor(sim_table):
    import sqlite3

    table = sim_table(variant="6-card", seats=4)
    reader = sqlite3.connect(table.journal.path)  # data_version: changes if others commit

    def writes(button) -> bool:
        before = reader.execute("PRAGMA data_version").fetchone()[0]
        table.press(0, button)
        return reader.execute("PRAGMA data_version").fetchone()[0] != before

    assert writes(Button.OK)  # join
    assert not writes(Button.OK) and not writes(Button.OK)  # the cursor moves
    assert writes(Button.LEFT)  # rounds: 5
    kept = reader.execute("SELECT count(*), data FROM lobby").fetchone()
    assert kept[0] == 1 and '"rounds":5' in kept[1]  # one row, replaced
    reader.close()


def both_people_leave(svc, clock):
    """Seats 1 and 2 unplug: bots stand in to the match's result, and the deserted result's
    time passes (the next step goes to the lobby)."""
    from golfbox.hal.base import LinkEvent
    from golfbox.table.states import BOTS_ONLY_RESULT_SECONDS

    for seat in (0, 1):
        svc.post(LinkEvent(seat, False, f"seat {seat + 1}: node unplugged", buttons=True))
    for _ in range(500):
        if svc.state == "match_over":
            break
        clock.advance(1.0)
        svc.run_until_idle()
    clock.advance(BOTS_ONLY_RESULT_SECONDS)


def test_a_power_cut_after_a_resumed_match_keeps_the_lobby_that_followed_it(sim_table, clock):
    """A restart mid-match, then the people left and the result went back to the lobby
    with nobody joined. The service took the resumed match's lobby for the one kept in
    the journal, so that lobby was never written: a power cut then showed the lobby kept
    before the match, with the two who had left joined again."""
    settings = dict(variant="4-card", seats=3, bots={2: "medium"}, rounds=1, seed=3,
                    takeover_after=10.0, bot_delay=1.0)
    table = sim_table(**settings)
    table.deal(0, 1)
    assert table.service.state == "playing"

    again = sim_table(**settings)  # a power cut mid-match: it resumes
    svc = again.service
    assert svc.state == "playing"
    both_people_leave(svc, clock)  # bots stand in, the result goes to the lobby
    svc.run_until_idle()
    assert svc.state == "lobby" and svc.lobby.joined == set()

    third = sim_table(**settings)  # a power cut in that lobby
    assert third.service.state == "lobby"
    assert third.service.lobby.joined == set()


def test_a_power_cut_mid_match_keeps_the_house_rules_chosen_for_the_other_games(sim_table):
    """Each game keeps the house rules chosen for it (README). After a power cut mid-match
    the lobby that followed had only the match's game's: the journal kept the others
    (the lobby saved before the deal), but a resumed match did not read them."""
    # One round: the cut comes mid-match all the same, and the match after it is played
    # out in a ninth of the time (a 9-round match of bots' moves took 3.7 s).
    table = sim_table(variant="6-card", seats=3, rounds=1)
    lobby = table.service.lobby
    table.press(0, Button.OK)  # join
    for key, buttons in (("variant", [Button.RIGHT] * 2), ("lines", [Button.RIGHT]),
                         ("fill", [Button.RIGHT]),
                         ("variant", [Button.LEFT] * 2)):  # 9-card's rule, then 6-card
        while lobby.selected.key != key:
            table.press(0, Button.OK)
        table.press(0, *buttons)
    assert lobby.variant == "6-card" and lobby.rules("9-card") == {"lines": "rows+columns"}
    table.hold(0, Button.OK)
    assert table.service.state == "playing"

    again = sim_table(variant="6-card", seats=3, rounds=1)  # the power cut
    assert again.service.state == "playing"
    again.play_to_the_result()
    again.press(0, Button.BACK)
    lobby = again.service.lobby
    assert again.service.state == "lobby" and lobby.variant == "6-card"
    assert lobby.rules("9-card") == {"lines": "rows+columns"}


@pytest.mark.parametrize("lang, off, on", [("en", "off", "on"), ("fr", "non", "oui")])
def test_the_menu_says_each_house_rule_value_as_the_rules_pages_do(lang, off, on):
    """No penalty is 'off' (the pages: 'none'), whether the config wrote 0 or "off"; a
    number stays a number; four of a kind off or its score; the rest on or off."""
    def shown(variant, **rules):
        menu = Lobby(TableSettings(variant=variant, rules=rules))
        return {line.key: line.value for line in menu.lines(lang)}
    assert shown("4-card")["knock_penalty"] == off and shown("4-card")["assist"] == off
    assert shown("4-card", knock_penalty=0)["knock_penalty"] == off
    assert shown("4-card", knock_penalty="off")["knock_penalty"] == off
    assert shown("4-card", knock_penalty=5, assist=True) == {**shown("4-card", knock_penalty=5),
                                                             "assist": on}
    assert shown("4-card", knock_penalty=5)["knock_penalty"] == "5"
    assert shown("polish-poker")["knock_penalty"] == "10"
    assert shown("polish-poker", knock_penalty="double")["knock_penalty"] == "double"
    assert shown("polish-poker", knock_penalty=0)["knock_penalty"] == off
    assert shown("6-card")["four_of_a_kind"] == off
    assert shown("6-card", four_of_a_kind=-20)["four_of_a_kind"] == "-20"
    assert shown("6-card", final_turn=True, peek_row=True)["final_turn"] == on
    assert shown("9-card", lines="rows+columns")["lines"] == ("rows+columns" if lang == "en"
                                                              else "rangées+colonnes")


def test_hints_on_says_how_to_ask_for_one():
    """The lobby's "hints: on" was all a table ever said of them: nothing told a learner
    that holding ● on their turn asks (the prompt at the table has no room for it)."""
    menu = lobby()
    go_to(menu, "hints")
    assert str(menu.selected) == "hints: off"
    menu.press(0, Button.RIGHT, PRESSED)
    assert str(menu.selected) == "hints: on (hold ●)"
    menu.language = "fr"
    assert str(menu.selected) == "conseils : oui (garde ●)"

class PowerCut(BaseException):
    """The power goes: nothing after it runs (not an error the table could catch)."""


class CutAfterTheResultCloses(Journal):
    """The real journal, whose power goes at the first write after a result was left."""

    result_closed = False

    def close_result(self, *args, **kwargs):
        super().close_result(*args, **kwargs)
        self.result_closed = True

    def save_lobby(self, *args, **kwargs):
        if self.result_closed:
            raise PowerCut
        super().save_lobby(*args, **kwargs)


@pytest.mark.parametrize("leave", ["deserted", "✕"])
def test_a_power_cut_as_the_result_goes_to_the_lobby_keeps_that_lobby(sim_table, tmp_path,
                                                                       clock, leave):
    """Leaving a result for the lobby closed the result, then wrote the lobby: two
    transactions. A power cut between them restored the lobby kept before the match:
    after the people had left (bots stood in, the result went back to the lobby with
    nobody joined), it showed them joined again. Now one transaction writes both."""
    from golfbox.hal.base import LinkEvent

    settings = dict(variant="4-card", seats=3, bots={2: "medium"}, rounds=1, seed=3,
                    takeover_after=10.0, bot_delay=1.0)
    table = sim_table(journal=CutAfterTheResultCloses(tmp_path / "journal.sqlite3"), **settings)
    table.deal(0, 1)
    svc = table.service
    if leave == "deserted":
        both_people_leave(svc, clock)  # bots stand in, the result goes to the lobby
        shown = set()
    else:  # one person leaves (a bot stands in), the other plays to the result and ✕
        svc.post(LinkEvent(1, False, "seat 2: node unplugged", buttons=True))
        table.play_to_the_result()
        table.pad.press(0, Button.BACK)
        shown = {0, 1}
    try:
        svc.run_until_idle()
        assert svc.state == "lobby" and svc.lobby.joined == shown
    except PowerCut:  # between the result closed and the lobby written
        pass

    again = sim_table(**settings)  # the table that starts after the power cut
    assert again.service.state == "lobby"
    assert again.service.lobby.joined == shown


class CountingReads(Journal):
    """The real journal, counting how often the table reads the lobby it kept."""

    reads = 0

    def saved_lobby(self):
        self.reads += 1
        return super().saved_lobby()


@pytest.mark.parametrize("stopped_in", ["lobby", "playing", "round_over", "auto_start"])
def test_a_start_reads_the_lobby_kept_once(sim_table, tmp_path, stopped_in):
    """It was read twice: to open the lobby (restore_lobby), and as what the journal
    holds (TableService._lobby_row)."""
    settings = dict(variant="6-card", seats=2, seed=3)
    table = sim_table(**settings)
    choose_an_evening(table, joins=(0,), fill=Button.LEFT, fewer_rounds=3)  # (easy bots)
    if stopped_in in ("playing", "round_over"):
        table.hold(0, Button.OK)
    if stopped_in == "round_over":  # at the result: a restart shows the last reveal first
        table.play_to_the_result()
    journal = CountingReads(tmp_path / "journal.sqlite3")
    if stopped_in == "auto_start":
        settings.update(auto_start=True)
    again = sim_table(journal=journal, **settings)
    assert again.service.state == {"auto_start": "playing"}.get(stopped_in, stopped_in)
    assert journal.reads == 1
