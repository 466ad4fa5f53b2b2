"""Journals written by older golfboxes resume under this one, card for card.

A café updates golfbox in the middle of an evening: the match in its journal must
go on. Each tests/journals/<name>.sqlite was written by the real golfbox of the
commit in its name (one per schema version, by the oldest golfbox of that
version, and those that found a defect), stopped mid-round part way into a
match: people, bots, house rules, a seat a bot had taken over. Its <name>.json
says what that golfbox's table held when it stopped, and the config it ran with;
tests/journals/make_journal.py made both (its docstring says how).
"""

from __future__ import annotations

import json
import logging
import shutil
import sqlite3
from pathlib import Path

import pytest

from golfbox.hal.base import Button
from golfbox.hal.sim import SimPad
from golfbox.table.assemble import assemble_table
from golfbox.table.journal import SCHEMA_VERSION, Journal
from golfbox.table.service import TableService, TableSettings
from golfbox.table.timers import ManualClock

JOURNALS = Path(__file__).parent / "journals"
NAMES = sorted(path.stem for path in JOURNALS.glob("*.sqlite"))


def expected(name: str) -> dict:
    return json.loads((JOURNALS / f"{name}.json").read_text())


def restart(name: str, tmp_path: Path, match: dict | None = None
            ) -> tuple[TableService, SimPad, ManualClock, Path]:
    """Today's table started on a copy of the old journal (the fixture is never written),
    with the config the old table ran with; ``match``: columns of its match row changed
    in the copy first (a value only an older golfbox could have written, as JSON)."""
    path = tmp_path / "journal.sqlite3"
    shutil.copy(JOURNALS / f"{name}.sqlite", path)
    with sqlite3.connect(path) as db:
        for column, value in (match or {}).items():
            db.execute(f"UPDATE match SET {column} = ?", (json.dumps(value),))
    db.close()
    config = expected(name)["config"]
    settings = TableSettings(variant=config["variant"], rules=config["rules"],
                             rounds=config["rounds"], seats=config["seats"],
                             bots={int(seat): bot for seat, bot in config["bots"].items()},
                             bot_delay=0.0)
    clock = ManualClock(5000.0)
    pad = SimPad(range(config["seats"]), clock)
    service = assemble_table(settings, [pad], {}, None, Journal(path), clock=clock)
    service.run_until_idle()
    return service, pad, clock, path


def test_there_is_a_journal_of_every_schema_version():
    """A new schema version brings its own, written by its first golfbox (make_journal.py
    in a worktree of that commit): the update after it is tested from it too."""
    versions = {int(name[1:].split("_")[0]) for name in NAMES}
    assert versions == set(range(1, SCHEMA_VERSION + 1))


@pytest.mark.parametrize("name", NAMES)
def test_an_old_journal_resumes_card_for_card(name, tmp_path):
    want = expected(name)
    service, _, _, path = restart(name, tmp_path)
    assert service.match is not None, f"{name}: not resumed, the table is in {service.state}"
    match, rnd = service.match, service.match.round
    assert service.state == want["table"] and service.match_id == want["match_id"]
    assert service.actions_played == want["actions"]
    assert (match.round_no, list(match.totals), [list(s) for s in match.history]) == (
        want["round_no"], want["totals"], want["round_scores"])
    assert (rnd.phase, list(rnd.acting_seats), rnd.held) == (want["phase"], want["acting"], want["held"])
    assert (list(rnd.discard), len(rnd.stock)) == (want["discard"], want["stock_size"])
    for seat in range(rnd.players):  # what each seat sees
        view = match.view(seat)
        assert view.table.to_move == want["to_move"]
        others = [g for other, g in enumerate(view.table.grids) if other != seat]
        assert [list(g) for g in others] == [g for other, g in enumerate(want["public_grids"])
                                             if other != seat], f"seat {seat}"
        assert list(view.own_grid) == want["own_grids"][seat], f"seat {seat}"
    for seat, legal in want["legal"].items():
        assert sorted(map(str, rnd.legal_actions(int(seat)))) == legal
    service.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def play_to_the_end(service: TableService, pad: SimPad, clock: ManualClock) -> None:
    """Seat 0's person presses as tests/table_driver.py's script; bots play the rest."""
    from table_driver import scripted_presses

    attempt, last = 0, -1
    for _ in range(5000):
        service.run_until_idle()
        if service.match.over:
            return
        moves = service.actions_played
        attempt, last = (attempt + 1 if moves == last else 0), moves
        for button, held in scripted_presses(7, moves, attempt):
            (pad.hold if held else pad.press)(0, button)
            service.run_until_idle()
        clock.advance(0.5)
    pytest.fail("the resumed match never ended")


@pytest.mark.parametrize("name", NAMES)
def test_an_old_journal_plays_on_to_the_match_result(name, tmp_path):
    want = expected(name)
    service, pad, clock, path = restart(name, tmp_path)
    play_to_the_end(service, pad, clock)
    totals = list(service.match.totals)
    service.close()
    with sqlite3.connect(path) as db:
        status, saved_totals = db.execute("SELECT status, totals FROM match WHERE id = ?",
                                          (want["match_id"],)).fetchone()
        scores = [json.loads(s) for (s,) in db.execute(
            "SELECT scores FROM round_score WHERE match_id = ? ORDER BY round_no", (want["match_id"],))]
    assert (status, json.loads(saved_totals)) == ("finished", totals)
    assert scores[:len(want["round_scores"])] == want["round_scores"]  # the rounds played before


def test_a_seat_a_bot_had_taken_over_before_the_update_is_the_bots_at_once(tmp_path):
    """Schema 4 keeps the seats away: the stand-in plays on without the takeover wait."""
    service, _, _, _ = restart("v4_2e63ff5", tmp_path)
    assert service.session.stands_in(service.session.engine_seat[1])
    service.close()


def test_a_match_dealt_with_a_house_rule_number_now_refused_is_finished_under_it(tmp_path):
    """Before 37af35d a house rule's number had no bound: a config's knock_penalty = 5000
    dealt matches. Today's takes 0..1000, so its first start after the update said
    'match 1 cannot be replayed (rule knock_penalty: 5000 is out of range (0..1000)); it
    is set aside': the game in play was lost. It is finished under the rules it was
    dealt with; ● on its result then opens the lobby, whose next match is today's (a
    rematch would deal 5000 again)."""
    service, pad, clock, path = restart("v1_4cdf7a6_knock_penalty_5000", tmp_path)
    assert service.match.rules["knock_penalty"] == 5000
    play_to_the_end(service, pad, clock)
    assert any(score >= 5000 for scores in service.match.history for score in scores)  # paid
    for _ in range(10):  # the last reveal, then the result: ● leaves each
        if service.state == "lobby":
            break
        assert service.state in ("round_over", "match_over")
        pad.press(0, Button.OK)
        clock.advance(1.0)
        service.run_until_idle()
    assert service.state == "lobby"
    assert service.lobby.variant == "4-card" and service.lobby.rules() == {}
    service.close()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT status FROM match").fetchall() == [("finished",)]


def test_a_resumed_rule_number_past_what_a_float_holds_leaves_the_bots_playing(tmp_path, caplog):
    """Before 37af35d a config's knock_penalty could have 400 digits; people alone could
    play a match under it. Resumed unbounded, it reached the bots' sums, which are
    floats: every move of hard, medium and easy ended in an OverflowError, logged with
    its traceback, and random played it instead. The bots read such a number as 1000
    (MAX_RULE_NUMBER: far past any round's points too); the engine scores the real one."""
    penalty = 10 ** 400
    players = [{"bot": None, "name": "P1", "seat": 0}, {"bot": "hard", "name": "P2", "seat": 1},
               {"bot": "medium", "name": "P3", "seat": 2}]
    service, pad, clock, _ = restart("v1_4cdf7a6_knock_penalty_5000", tmp_path, match={
        "config": {"rounds": 2, "rules": {"knock_penalty": penalty}, "variant": "4-card"},
        "players": players})
    assert service.match.rules["knock_penalty"] == penalty
    with caplog.at_level(logging.WARNING, logger="golfbox.table"):
        play_to_the_end(service, pad, clock)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR
            or "plays this move for" in r.getMessage()] == []
    assert any(total >= penalty for total in service.match.totals)  # a knocker paid it
    service.close()
