"""The simulator's lobby chooses the level of its bots, as a Pi table's lobby does.

The seats past --humans have no keys: nobody can join there. They were configured
bots (as a Pi's ``[game] bots``), so the lobby's "empty seats" read "none" and a family
trying golfbox on a laptop could change their level only with --bot. Each test builds
the table ``golfbox sim`` (or ``make run``) builds, on the tests' clock and journal.
"""

from __future__ import annotations

import argparse
import dataclasses

from golfbox.commands import sim as sim_cli
from golfbox.hal.base import Button, EventKind
from golfbox.table.journal import Journal
from golfbox.table.sim import fit_to_journal


def sim_settings(*options: str, journal_path=None):
    """The TableSettings ``golfbox sim OPTIONS`` plays with (no --lobby: ``make run``),
    fitted to the match the journal resumes as ``sim_cli.run`` fits them, as keywords."""
    parser = argparse.ArgumentParser()
    sim_cli.add_arguments(parser)
    args = parser.parse_args(["--bot-delay", "0", *options])
    settings = sim_cli.table_settings(args, humans=args.humans, bot_delay=args.bot_delay,
                                      auto_start=not args.lobby)
    if journal_path is not None:
        journal = Journal(journal_path)
        try:
            fit_to_journal(settings, journal, list(range(args.humans)), 4)
        finally:
            journal.close()
    return dataclasses.asdict(settings)


def bots(table) -> list[tuple[int, str | None]]:
    return [(p.seat, p.bot) for p in table.service.players if p.bot is not None]


def to_line(table, key: str) -> str:
    """Seat 1 (joined) presses ● until the cursor is on ``key``; that line, as it reads."""
    lobby = table.service.lobby
    for _ in range(len(lobby.lines())):
        if lobby.selected.key == key:
            return str(lobby.selected)
        table.press(0, Button.OK)
    raise AssertionError(f"no line {key}")


def test_the_sims_lobby_changes_the_level_of_the_bots_past_humans(sim_table, tmp_path):
    table = sim_table(**sim_settings("--lobby", "--players", "3", "--rounds", "1", "--seed", "3"))
    lobby = table.service.lobby
    table.press(0, Button.OK)  # seat 1 joins
    assert to_line(table, "fill") == "2 empty seats: hard bots"  # --bot's level (its default)
    table.press(0, Button.RIGHT, Button.RIGHT)
    assert str(lobby.selected) == "2 empty seats: easy bots"
    assert lobby.name(2) == "P3 (EASY)"
    table.hold(0, Button.OK)  # deal
    assert table.service.state == "playing"
    assert bots(table) == [(1, "easy"), (2, "easy")]

    # q mid-match: the next start resumes it with its easy bots, and the lobby after it
    # offers easy bots again.
    again = sim_table(**sim_settings("--lobby", "--players", "3", "--rounds", "1",
                                     journal_path=tmp_path / "journal.sqlite3"))
    assert again.service.state == "playing" and bots(again) == [(1, "easy"), (2, "easy")]
    again.play_to_the_result()
    again.press(0, Button.BACK)  # the result's ✕: the lobby
    assert again.service.state == "lobby"
    assert to_line(again, "fill") == "2 empty seats: easy bots"


def test_bot_sets_the_level_the_sims_lobby_starts_from():
    from golfbox.table.lobby import Lobby
    from golfbox.table.settings import TableSettings

    lobby = Lobby(TableSettings(**sim_settings("--lobby", "--humans", "2", "--bot", "greedy")))
    lobby.joined = {0, 1}
    assert str(lobby.lines()[1]) == "2 empty seats: greedy bots"
    lobby.cursor = 1
    seen = []
    for _ in range(5):  # greedy is no level the lobby offers: it stays among its choices
        lobby.press(0, Button.RIGHT, EventKind.PRESSED)
        seen.append(lobby.selected.value)
    assert seen == ["stay empty", "hard bots", "medium bots", "easy bots", "greedy bots"]
    lobby.restore(lobby.to_json())  # kept in the journal: a restart takes it
    assert lobby.fill == "greedy"


def test_make_run_deals_at_once_with_the_level_the_lobby_kept(sim_table):
    """``make run`` deals at once, the seats past --humans bots of --bot's level; the level
    chosen in the lobby after a match, kept in the journal, is the next start's."""
    run = sim_settings("--players", "3", "--rounds", "1", "--seed", "3")
    table = sim_table(**run)
    assert table.service.state == "playing"
    assert bots(table) == [(1, "hard"), (2, "hard")]
    table.play_to_the_result()
    table.press(0, Button.BACK)  # the result's ✕: the lobby
    assert to_line(table, "fill") == "2 empty seats: hard bots"
    table.press(0, Button.LEFT)  # ◀ from hard: empty, then easy
    table.press(0, Button.LEFT)
    assert str(table.service.lobby.selected) == "2 empty seats: easy bots"

    again = sim_table(**run)  # q in the lobby, and make run again
    assert again.service.state == "playing"
    assert bots(again) == [(1, "easy"), (2, "easy")]

    # "stay empty" kept: make run still deals every seat, --bot's bots in those.
    again.play_to_the_result()
    again.press(0, Button.BACK)
    assert to_line(again, "fill") == "2 empty seats: easy bots"
    again.press(0, Button.RIGHT)
    assert str(again.service.lobby.selected) == "2 empty seats: stay empty"
    third = sim_table(**run)
    assert third.service.state == "playing"
    assert bots(third) == [(1, "hard"), (2, "hard")]


def test_the_terminal_names_the_level_that_plays_a_bots_seat(tmp_path):
    """A seat's label said the level --bot gave it ("seat 2 · bot (hard)") while the
    lobby dealt easy bots there."""
    from test_wording import sim_table as terminal_table, terminal_ui

    table = terminal_table(tmp_path, argv=["--lobby"])
    svc = table.service
    try:
        ui = terminal_ui(table, 70, 260)
        ui.draw()
        assert "seat 2 · bot (hard)" in ui.screen.all()
        for button in (Button.OK, Button.OK, Button.LEFT, Button.LEFT):  # join; easy bots
            table.press(0, button, EventKind.PRESSED)
            svc.run_until_idle()
        table.press(0, Button.OK, EventKind.HELD)  # deal
        svc.run_until_idle()
        assert svc.state == "playing"
        ui.draw()
        assert "seat 2 · bot (easy)" in ui.screen.all()
    finally:
        table.close()


def test_bots_alone_after_a_resumed_match_with_a_dropped_seat_deal_the_sims_seats_at_its_level(
        sim_table):
    """Where the sim's lobby level meets a bots' match resumed with a seat fewer: the next
    match, 30 s after the result, is the command line's seats, its bots at --bot's level."""
    table = sim_table(**sim_settings("--humans", "0", "--players", "3", "--rounds", "1",
                                     "--seed", "3", "--bot", "easy"))
    table.service.run_until_idle()
    assert len(table.service.session.players) == 3
    table.service.close("power cut")
    table = sim_table(**sim_settings("--humans", "0", "--players", "2", "--rounds", "1",
                                     "--bot", "easy"))
    service = table.service
    for _ in range(300):
        if service.state == "match_over":
            break
        table.clock.advance(5.0)
        service.run_until_idle()
    assert service.state == "match_over" and len(service.session.players) == 3
    table.clock.advance(31.0)
    service.run_until_idle()
    assert bots(table) == [(0, "easy"), (1, "easy")] and service.lobby.fill == "easy"
