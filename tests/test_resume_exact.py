"""A resumed table plays on exactly as an uninterrupted one: the whole journal is the same.

A kill right after the journal's k-th commit leaves exactly the match's first k
entries on disk. So "kill after entry k" is simulated in-process by cutting a
finished match's journal back to k entries and starting a new service on it;
the match it then plays to the end must write the very same entries, in the
same order, as the uninterrupted run. tests/test_table_crash.py does the same
with real SIGKILLs through tests/table_driver.py.

Kill points: after every entry of every round's start phase (every start
mode: turning two up, peek_row, choose_start, 9-card's first-turn flips, and
polish-poker's random start, which has none), plus every 9th entry of the rest
(a greedy bot's patience counts its turns in a round).
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from golfbox.engine import Action, Match, START
from golfbox.table.journal import Journal
from golfbox.table.assemble import assemble_table
from golfbox.table.service import TableService, TableSettings
from golfbox.table.timers import ManualClock

# (variant, rules, seed): every start mode.
MODES = [
    ("4-card", {}, 11),  # everyone peeks at the nearest row at once, then says ready
    ("6-card", {}, 7),  # everyone turns two up at once
    ("6-card", {"peek_row": True}, 3),  # peek_row
    ("polish-poker", {}, 3),  # two random cards up: no start phase
    ("polish-poker", {"choose_start": True}, 9),  # choose_start
    ("9-card", {}, 2),  # three flips at the start of each seat's first turn
]
BOTS = {0: "greedy", 1: "random", 2: "greedy", 3: "random"}
EVERY = 9  # outside the start phases, a kill point every EVERY entries


@pytest.fixture
def tmp_path(ram_path):
    """Journals in memory (tests/conftest.py): a simulated kill needs no fsync to disk."""
    return ram_path


def play(journal_path: Path, variant: str, rules: dict, seed: int, bot_delay: float,
         rounds: int = 2, bots: dict | None = None, peek_timeout: float = 10.0) -> TableService:
    """A table of bots (no displays: only the journal matters) played to the match's end.
    A fresh service on an unfinished journal resumes it."""
    settings = TableSettings(variant=variant, rules=dict(rules), rounds=rounds, seats=4,
                             bots=dict(bots or BOTS), bot_delay=bot_delay, auto_start=True,
                             seed=seed, peek_timeout=peek_timeout)
    clock = ManualClock(5000.0)
    journal = Journal(journal_path)
    service = assemble_table(settings, [], {}, None, journal, clock=clock)
    for _ in range(100_000):
        service.run_until_idle()
        if service.state == "match_over":
            break
        clock.now += 0.25  # a human pace: bots think bot_delay seconds
    else:
        pytest.fail("the match never ended")
    service.close()
    return service


def entries(journal_path: Path) -> list[tuple]:
    with sqlite3.connect(journal_path) as db:
        return db.execute("SELECT match_id, seq, seat, action FROM entry ORDER BY match_id, seq").fetchall()


def cut_after(source: Path, target: Path, k: int) -> None:
    """What a kill right after the k-th commit leaves: the match's first k entries, in play."""
    shutil.copy(source, target)
    with sqlite3.connect(target) as db:
        db.execute("DELETE FROM entry WHERE seq > ?", (k,))
        db.execute("DELETE FROM round_score")  # written after entries; a resume writes them again
        db.execute("UPDATE match SET status = 'playing', ended_at = NULL, totals = NULL, winners = NULL")


def start_phase_points(variant: str, rules: dict, seed: int, actions: list[tuple]) -> set[int]:
    """k such that entry k was played during a round's start (including the round's deal,
    the entry that ends the start, and 9-card's first-turn flips)."""
    match = Match(variant, 4, rules, rounds=2, seed=seed)
    points = {0}
    for k, (_, _, seat, text) in enumerate(actions, start=1):
        rnd = match.round
        starting = rnd.phase == START or any(rnd.first_flips)
        if seat is None:
            match.next_round()
            starting = True
        else:
            match.apply(seat, Action.parse(text))
        if starting:
            points.update((k, k + 1))
    return {k for k in points if k < len(actions)}


@pytest.mark.parametrize("bot_delay", [0.0, 1.0], ids=["no-delay", "human-pace"])
@pytest.mark.parametrize("variant,rules,seed", MODES,
                         ids=[f"{v}{'-' + '-'.join(r) if r else ''}" for v, r, _ in MODES])
def test_a_kill_after_any_start_entry_resumes_to_the_same_journal(tmp_path, variant, rules, seed,
                                                                  bot_delay):
    clean_path = tmp_path / "clean.sqlite3"
    clean = play(clean_path, variant, rules, seed, bot_delay)
    expected = entries(clean_path)
    assert clean.match.over and len(expected) > 20
    points = start_phase_points(variant, rules, seed, expected)
    points |= set(range(0, len(expected), EVERY))
    for k in sorted(points):
        cut = tmp_path / f"cut{k}.sqlite3"
        cut_after(clean_path, cut, k)
        resumed = play(cut, variant, rules, seed, bot_delay)
        assert resumed.match_id == clean.match_id, f"after {k} entries: not resumed"
        got = entries(cut)
        first = next((i for i, (a, b) in enumerate(zip(got, expected)) if a != b), None)
        assert got == expected, (f"{variant} {rules}: killed after entry {k}, the resumed table "
                                 f"wrote {got[first] if first is not None else len(got)} where the "
                                 f"uninterrupted one wrote {expected[first] if first is not None else len(expected)}")
        assert list(resumed.match.totals) == list(clean.match.totals)


def test_six_card_seed_7_cut_after_two_entries_lets_the_right_seat_act(tmp_path):
    """The issue's repro: a 1-round 6-card match, 4 bots, seed 7, cut back to 2 entries."""
    bots = {s: "random" for s in range(4)}
    clean_path = tmp_path / "clean.sqlite3"
    play(clean_path, "6-card", {}, 7, 0.0, rounds=1, bots=bots)
    expected = entries(clean_path)
    cut = tmp_path / "cut.sqlite3"
    cut_after(clean_path, cut, 2)
    play(cut, "6-card", {}, 7, 0.0, rounds=1, bots=bots)
    got = entries(cut)
    assert got[2] == expected[2], f"seat {got[2][2]} acted where seat {expected[2][2]} should"
    assert got == expected


def test_who_acts_next_in_a_start_phase_depends_only_on_the_game(tmp_path):
    """Bots starting together take turns by the state alone: most start actions still due
    first, then clockwise from the player after the dealer; never by timer history."""
    bots = {s: "random" for s in range(4)}
    clean_path = tmp_path / "clean.sqlite3"
    play(clean_path, "6-card", {}, 7, 1.0, rounds=1, bots=bots)
    seats = [seat for _, _, seat, _ in entries(clean_path)[:8]]
    assert seats == [1, 2, 3, 0, 1, 2, 3, 0]  # round 1: the dealer is seat 0


def test_a_greedy_bot_remembers_its_round_after_a_resume(tmp_path):
    """A greedy bot counts its turns in a round (after 25 it pushes the round to its end).
    A resumed bot must count the turns its seat played before the kill, from the journal."""
    greedy = {s: "greedy" for s in range(4)}
    clean_path = tmp_path / "clean.sqlite3"
    play(clean_path, "6-card", {}, 3, 0.0, rounds=1, bots=greedy)
    expected = entries(clean_path)
    assert len(expected) > 4 * 2 * 26  # long enough for the patience to run out
    for k in range(100, len(expected), 10):
        cut = tmp_path / f"cut{k}.sqlite3"
        cut_after(clean_path, cut, k)
        play(cut, "6-card", {}, 3, 0.0, rounds=1, bots=greedy)
        assert entries(cut) == expected, f"killed after entry {k}"


def play_with_a_stand_in(journal_path: Path, seed: int) -> None:
    """Seat 0 a person (scripted presses, as tests/table_driver.py makes them), seat 1 a
    person whose node is unplugged from the start: a stand-in bot plays it."""
    from golfbox.hal.base import LinkEvent
    from golfbox.hal.sim import SimPad
    from table_driver import scripted_presses

    settings = TableSettings(variant="6-card", rounds=1, seats=2, bot_delay=0.0, auto_start=True,
                             seed=seed, takeover_after=1.0)
    clock = ManualClock(5000.0)
    pad = SimPad(range(2), clock)
    service = assemble_table(settings, [pad], {}, None, Journal(journal_path), clock=clock)
    service.post(LinkEvent(1, False, "seat 2: node unplugged", buttons=True))
    service.run_until_idle()
    clock.now += 1.0  # away long enough: the stand-in plays
    attempt, last = 0, -1
    for _ in range(20_000):
        service.run_until_idle()
        if service.state != "playing":
            break
        moves = service.actions_played
        attempt, last = (attempt + 1 if moves == last else 0), moves
        for button, held in scripted_presses(seed, moves, attempt):
            (pad.hold if held else pad.press)(0, button)
            service.run_until_idle()
    else:
        pytest.fail("the round never ended")
    service.close()


def test_a_stand_in_bot_resumes_exactly_too(tmp_path):
    """A bot playing for a seat whose node went away chooses from the journal alone: after
    a kill at any point, with the node still away, it plays on as it would have."""
    clean = tmp_path / "clean.sqlite3"
    play_with_a_stand_in(clean, 21)
    expected = entries(clean)
    assert {seat for _, _, seat, _ in expected} == {0, 1} and len(expected) > 20
    for k in range(0, len(expected), 3):
        cut = tmp_path / f"cut{k}.sqlite3"
        cut_after(clean, cut, k)
        play_with_a_stand_in(cut, 21)
        assert entries(cut) == expected, f"killed after entry {k}"


def play_two_easy(journal_path: Path, seed: int) -> TableService:
    settings = TableSettings(variant="4-card", rounds=3, seats=2, bots={0: "easy", 1: "easy"},
                             bot_delay=0.0, auto_start=True, seed=seed)
    service = assemble_table(settings, [], {}, None, Journal(journal_path), clock=ManualClock(0.0))
    for _ in range(100_000):
        if service.state == "match_over":
            break
        service.step(0.0) or service.clock.advance(1.0)
    service.close()
    return service


def test_an_easy_bot_resumed_in_a_long_round_plays_as_it_would_have(tmp_path):
    """easy's memory of a round (its own turns, which past 25 make it end the round) was
    rebuilt after a restart by replaying its views with its generator unseeded, and a
    slip drawn from it skips the count: in this match a restart in its long round
    made it knock where it drew (found by a soak of restarts)."""
    clean_path = tmp_path / "clean.sqlite3"
    play_two_easy(clean_path, seed=1)
    expected = entries(clean_path)
    for k in range(100, 125, 4):  # in the round where an easy bot passes 20 own turns
        cut = tmp_path / f"cut{k}.sqlite3"
        cut_after(clean_path, cut, k)
        play_two_easy(cut, seed=1)
        assert entries(cut) == expected, f"killed after entry {k}: a different match"


def test_bots_slower_than_the_peek_timeout_say_ready_in_their_own_order_after_a_resume(tmp_path):
    """4-card, four bots slower than the peek timeout (bot_delay 3 s, peek_timeout 2 s). The
    timeout said "ready" for every seat still looking, bots too, in seat order (0 before 3);
    a table resumed after the second entry set its timers anew, the bots said it first, in
    their own order (3 before 0), and the rest of the journal differed."""
    slow = {s: "medium" for s in range(4)}
    clean_path = tmp_path / "clean.sqlite3"
    play(clean_path, "4-card", {}, 5, 3.0, rounds=1, bots=slow, peek_timeout=2.0)
    expected = entries(clean_path)
    for k in range(1, 5):
        cut = tmp_path / f"cut{k}.sqlite3"
        cut_after(clean_path, cut, k)
        play(cut, "4-card", {}, 5, 3.0, rounds=1, bots=slow, peek_timeout=2.0)
        assert entries(cut) == expected, f"killed after entry {k}"
