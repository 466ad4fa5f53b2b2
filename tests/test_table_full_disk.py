"""A journal that stops taking writes (a full disk) while the table runs: nothing is
lost, the table says so and carries on once there is room, and it never crashes.

The journal here is the real one, over a disk that can be filled at will: while
``full`` is set every write fails as SQLite's does on a full disk (JournalError).
"""

from __future__ import annotations

import os
import logging
import random
import resource
import shutil
import signal
import subprocess
from contextlib import contextmanager
from pathlib import Path

import pytest

from golfbox.hal.base import Button
from golfbox.hal.sim import SimDisplay, SimPad
from golfbox.table.assemble import assemble_table
from golfbox.table.journal import Journal, JournalError
from golfbox.table.session import SAVE_RETRY_SECONDS
from golfbox.table.settings import TableSettings
from golfbox.table.timers import ManualClock


class FillingDisk(Journal):
    """The real journal on a disk that fills up when a test says so."""

    full = False
    fill_before: str | None = None  # fill the disk just before this write, once
    writes_tried = 0

    def _full(self, write: str) -> None:
        if write == self.fill_before:
            self.full, self.fill_before = True, None
        if self.full:
            self.writes_tried += 1
            raise JournalError(self.path, "database or disk is full")

    def start_match(self, *args, **kwargs):
        self._full("start_match")
        return super().start_match(*args, **kwargs)

    def record(self, *args):
        self._full("record")
        return super().record(*args)

    def finish_round(self, *args):
        self._full("finish_round")
        return super().finish_round(*args)

    def finish_match(self, *args):
        self._full("finish_match")
        return super().finish_match(*args)

    def save_lobby(self, *args):
        self._full("save_lobby")
        return super().save_lobby(*args)


def table(path, clock, full=False, disk=FillingDisk, **settings):
    settings = TableSettings(**{"variant": "4-card", "seats": 2, "rounds": 2, "bot_delay": 0.0,
                                "seed": 5, **settings})
    pad = SimPad(range(settings.seats), clock)
    displays = {seat: SimDisplay(f"seat {seat + 1}") for seat in range(settings.seats)}
    shared = SimDisplay("shared", (256, 64), "L")
    journal = disk(path)
    journal.full = full
    service = assemble_table(settings, [pad], displays, shared, journal, clock=clock)
    return service, pad


def run_for(service, clock, seconds):
    for _ in range(int(seconds * 10)):
        service.run_until_idle()
        clock.advance(0.1)


@pytest.fixture
def clock():
    return ManualClock(1000.0)


def test_a_disk_that_fills_as_a_round_is_scored_does_not_stop_the_table(tmp_path, clock):
    """The scores' write raised out of the loop: the service crashed, and crashed again
    at every start while the disk stayed full. Now the table shows the fault, waits,
    and saves the scores once the disk has room."""
    path = tmp_path / "journal.sqlite3"
    service, _ = table(path, clock, bots={0: "medium", 1: "medium"}, auto_start=True)
    service.journal.fill_before = "finish_round"
    run_for(service, clock, 30)
    assert service.state == "round_over" and service.journal.full
    assert "cannot save the game" in service.notices.shared_line()
    # With bot_delay 0 the bots' "next round" was tried as fast as the loop turns.
    assert service.journal.writes_tried <= 30 / 2 + 2
    assert service.journal.history() == []  # no round saved yet …
    service.journal.full = False  # … until the disk has room
    run_for(service, clock, 60)
    assert service.session.match.over and service.session.match.round_no == 2
    assert "cannot save" not in service.notices.shared_line()
    finished = service.journal.history()[0]
    assert finished.round_scores == dict(enumerate(map(list, service.session.match.history), 1))
    # The bots may have played more matches since: the one the full disk hit keeps round 1.
    assert all(set(match.round_scores) == {1, 2} for match in service.journal.history())


def test_a_move_the_journal_refused_is_not_on_the_table_either(tmp_path, clock):
    """Each move is journaled before it is played: one the disk refused is not played
    either, or the table would go on from moves a power cut loses, and the restart
    would deal back another table than the one the players saw."""
    path = tmp_path / "journal.sqlite3"
    bots = {0: "medium", 1: "medium"}
    service, _ = table(path, clock, bots=bots, bot_delay=1.0, auto_start=True)
    run_for(service, clock, 4)
    assert service.state == "playing" and service.session.actions_played > 3
    shown = [service.session.match.view(seat) for seat in (0, 1)]
    service.journal.full = True
    run_for(service, clock, 10)
    assert service.journal.writes_tried > 1  # the bots tried to play on …
    assert [service.session.match.view(seat) for seat in (0, 1)] == shown  # … and did not
    service.close("power cut")
    again, _ = table(path, clock, bots=bots, bot_delay=1.0, auto_start=True)
    assert [again.session.match.view(seat) for seat in (0, 1)] == shown


def test_a_restart_on_a_full_disk_resumes_the_match(tmp_path, clock):
    """resume() wrote the scores it found missing and raised on a full disk: every
    start crashed until the disk had room. Now the match comes back, the fault shown."""
    path = tmp_path / "journal.sqlite3"
    service, _ = table(path, clock, bots={0: "medium", 1: "medium"}, auto_start=True)
    service.journal.fill_before = "finish_round"
    run_for(service, clock, 30)
    actions = service.session.actions_played
    service.close("power cut")
    again, _ = table(path, clock, full=True, bots={0: "medium", 1: "medium"}, auto_start=True)
    assert again.state == "round_over"  # the reveal the power cut interrupted
    run_for(again, clock, 10)
    assert again.session.actions_played == actions and "cannot save" in again.notices.shared_line()


class ScoresRefused(FillingDisk):
    """A disk with room for moves and none for a round's scores (as a power cut between
    the two leaves the journal)."""

    def finish_round(self, *args):
        raise JournalError(self.path, "database or disk is full")


def test_a_restart_writes_the_scores_the_journal_missed_in_a_round_since(tmp_path, clock):
    """A round's last move was saved, its scores not, and the next round was dealt and
    played on: the restart writes them, or the match's history would miss that round."""
    path = tmp_path / "journal.sqlite3"
    bots = {0: "medium", 1: "medium"}
    service, _ = table(path, clock, disk=ScoresRefused, bots=bots, bot_delay=1.0, auto_start=True)
    while service.session.match.round_no < 2:  # round 1 over, its scores refused, round 2 dealt
        run_for(service, clock, 1)
    run_for(service, clock, 3)  # and played on a little
    assert not service.session.match.round.over and service.session.actions_played > 0
    assert service.journal.unfinished().round_scores == {}
    service.close("power cut")
    again, _ = table(path, clock, bots=bots, bot_delay=1.0, auto_start=True)
    assert again.journal.unfinished().round_scores == {1: list(again.session.match.history[0])}


def test_a_full_disk_when_a_match_is_dealt_keeps_the_lobby(tmp_path, clock):
    """Holding ● to deal raised out of the loop and lost every choice made in the lobby."""
    service, pad = table(tmp_path / "journal.sqlite3", clock)
    for seat in (0, 1):
        pad.press(seat, Button.OK)  # both join
        service.run_until_idle()
    pad.press(0, Button.OK)
    pad.press(0, Button.LEFT)  # rounds: 2 -> 1
    service.run_until_idle()
    rounds = service.lobby.rounds
    service.journal.full = True
    pad.hold(0, Button.OK)
    service.run_until_idle()
    assert service.state == "lobby" and service.lobby.rounds == rounds
    assert service.notices.seats[0] == "not saved, not played: try again"
    service.journal.full = False
    pad.hold(0, Button.OK)
    service.run_until_idle()
    assert service.state == "playing" and service.session.match.rounds == rounds


def played_to_the_result(path, clock):
    """A one-round match against a bot, seat 0 (a person) pressing about until the
    match is over: the table at its result, everything saved."""
    service, pad = table(path, clock, bots={1: "medium"}, rounds=1, auto_start=True)
    presses = random.Random(1)
    for _ in range(2000):
        if service.state == "match_over":
            break
        pad.press(0, Button.OK if service.state == "round_over" else
                  presses.choice([Button.LEFT, Button.RIGHT, Button.OK, Button.OK]))
        run_for(service, clock, 0.2)
    assert service.state == "match_over"
    return service, pad


def test_a_new_match_from_the_result_is_one_write(tmp_path, clock):
    """"● new match" left the result and dealt the new match in two transactions: a
    power cut between them (or a full disk at the second) left neither, and the next
    start showed an empty lobby. Now it is one: the result stays until the deal is saved."""
    path = tmp_path / "journal.sqlite3"
    service, pad = played_to_the_result(path, clock)
    service.journal.fill_before = "start_match"
    pad.press(0, Button.OK)  # ● new match: the disk is full
    service.run_until_idle()
    assert service.state == "match_over"
    service.close("power cut")
    again, _ = table(path, clock, bots={1: "medium"}, rounds=1, auto_start=True)
    assert again.state == "round_over" and again.session.match.over  # its result, again


def last_round_scored_on_a_full_disk(path, clock):
    """A one-round match against a bot, played by seat 0's random presses until its
    result, the disk filling as the round is scored: the result is not saved."""
    service, pad = table(path, clock, bots={1: "medium"}, rounds=1, auto_start=True)
    service.journal.fill_before = "finish_round"
    presses = random.Random(1)
    for _ in range(2000):
        if service.state == "round_over" and service.session.match.over:
            break
        pad.press(0, presses.choice([Button.LEFT, Button.RIGHT, Button.OK, Button.OK]))
        run_for(service, clock, 0.2)
    return service, pad


def test_a_match_whose_result_could_not_be_saved_is_saved_before_the_next_is_dealt(tmp_path, clock):
    """The disk filled as the last round was scored and had room again before "● new
    match": the new match was dealt and the old one stayed "in play" in the journal for
    good, missing from the history."""
    service, pad = last_round_scored_on_a_full_disk(tmp_path / "journal.sqlite3", clock)
    assert service.journal.full and "cannot save" in service.notices.shared_line()
    service.journal.full = False
    pad.press(0, Button.OK)  # the result
    run_for(service, clock, 1)
    pad.press(0, Button.OK)  # ● new match
    run_for(service, clock, 1)
    assert service.state == "playing"
    history = service.journal.history()
    assert len(history) == 1 and set(history[0].round_scores) == {1}  # finished, scored
    assert service.journal.unfinished().id == history[0].id + 1


def test_room_made_while_an_unsaved_result_is_on_show_saves_it_and_mends_the_fault(tmp_path, clock):
    """The disk filled as the last round was scored. Room made, "cannot save the game"
    stayed on the shared display of the result nobody pressed on, and the match stayed
    "in play" in the journal (out of the history), until the next press wrote something:
    the café that made room saw the table still failing. Now the scores are tried again
    every SAVE_RETRY_SECONDS while the journal refuses them."""
    service, pad = last_round_scored_on_a_full_disk(tmp_path / "journal.sqlite3", clock)
    journal, state = service.journal, service.state
    assert service.table_message == "cannot save the game: see the log"
    tried = journal.writes_tried
    run_for(service, clock, 10 * SAVE_RETRY_SECONDS)  # still full: said, nothing else changed
    assert service.table_message == "cannot save the game: see the log"
    assert 5 <= journal.writes_tried - tried <= 11 and journal.history() == []
    journal.full = False  # room made
    run_for(service, clock, SAVE_RETRY_SECONDS + 0.2)
    assert service.notices.faults == {} and service.table_message == ""
    history = journal.history()
    assert len(history) == 1 and set(history[0].round_scores) == {1}  # finished, scored
    assert journal.unfinished() is None and service.state == state  # the result, on show
    tried = journal.writes_tried
    journal.full = True  # saved: nothing tries again, full or not
    run_for(service, clock, 60)
    assert journal.writes_tried == tried and service.notices.faults == {}


def test_a_full_disk_is_logged_once_not_at_every_try(tmp_path, clock, caplog):
    """Bots try to save every 2 s: each try logged an ERROR, 1,727 lines in an hour of a
    full disk, on the SD card the log shares with the journal."""
    service, _ = table(tmp_path / "journal.sqlite3", clock, seats=4, rounds=9, bot_delay=1.0,
                       bots={s: "medium" for s in range(4)}, auto_start=True)
    run_for(service, clock, 5)
    service.journal.full = True
    with caplog.at_level("INFO", logger="golfbox.table.session"):
        run_for(service, clock, 3600)
        failing = service.journal.writes_tried
        service.journal.full = False
        run_for(service, clock, 5)
    lines = [r.getMessage() for r in caplog.records if r.name == "golfbox.table.session"]
    assert failing > 1000  # tried all along …
    assert len([line for line in lines if line.startswith("journal:")]) <= 1 + failing // 100 + 1
    assert any(line.startswith("journal: saving again after") for line in lines)


def seat_2_joins_once_there_is_room(service, pad, caplog) -> list[str]:
    """Room again, seat 2 joins: the lobby is kept, and its loss was logged once. The
    service's log lines, for the caller's own checks."""
    service.journal.full = False
    pad.press(1, Button.OK)
    service.run_until_idle()
    assert service.journal.saved_lobby() == service.lobby.to_json()
    lines = [r.getMessage() for r in caplog.records if r.name == "golfbox.table.service"]
    assert len([line for line in lines if "the lobby not kept" in line]) == 1, lines
    return lines


def test_a_full_disk_in_the_lobby_is_logged_once_and_not_tried_at_every_press(
        tmp_path, clock, caplog):
    """The lobby's choices could not be kept: every press after (the cursor's too) and
    every timer tried again and logged an ERROR, a line a press on the SD card the log
    shares with the journal. Now a change is tried once, the failure said once; the
    lobby works on, and is kept at the next change once there is room."""
    service, pad = table(tmp_path / "journal.sqlite3", clock)
    service.journal.full = True
    with caplog.at_level("INFO", logger="golfbox.table.service"):
        pad.press(0, Button.OK)  # join: a change, not kept
        service.run_until_idle()
        for _ in range(20):  # the cursor goes round the menu: no change
            pad.press(0, Button.OK)
            service.run_until_idle()
        run_for(service, clock, 60)
        assert service.journal.writes_tried == 1
        while service.lobby.selected.key != "rounds":
            pad.press(0, Button.OK)
            service.run_until_idle()
        for button in (Button.LEFT, Button.RIGHT, Button.LEFT):  # three changes, each tried
            pad.press(0, button)
            service.run_until_idle()
        assert service.journal.writes_tried == 4 and service.lobby.joined == {0}
        lines = seat_2_joins_once_there_is_room(service, pad, caplog)
    assert any("the lobby kept again after 4 failed tries" in line for line in lines), lines


def test_a_disk_full_from_the_start_is_logged_at_its_first_refusal(tmp_path, clock, caplog):
    """The SD card was full before the table started: the first lobby it could not keep
    is logged (once), as one that fills up later is, and once there is room the log
    says how many changes were lost, counting from the start."""
    with caplog.at_level("INFO", logger="golfbox.table.service"):
        service, pad = table(tmp_path / "journal.sqlite3", clock, full=True)
        pad.press(0, Button.OK)  # join: a change, not kept
        service.run_until_idle()
        assert service.lobby.joined == {0}
        lines = seat_2_joins_once_there_is_room(service, pad, caplog)
    # The lobby the table opened on, and the join.
    assert [line for line in lines if "kept again" in line] == [
        "journal: the lobby kept again after 2 failed tries"], lines


@contextmanager
def journal_cannot_grow(path):
    """A real write failure, as on a full disk: while inside, no file of this process may
    grow past the journal's -wal as it is now (RLIMIT_FSIZE), so SQLite's next commit
    fails in write() (EFBIG; SIGXFSZ ignored, or it would end the process)."""
    wal = os.path.getsize(f"{path}-wal")
    limit = resource.getrlimit(resource.RLIMIT_FSIZE)
    signal_was = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (wal, limit[1]))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, limit)
        signal.signal(signal.SIGXFSZ, signal_was)


def test_a_lobby_the_journal_refuses_says_so_on_the_shared_display_until_it_is_kept(
        sim_table, caplog, tmp_path):
    """The lobby's choices could not be kept: a log line, and nothing on the displays,
    so the café's owner never learned that a power cut would lose them (and that the
    SD card is full or read-only). Now the shared display says so, in the lobby's
    language, until a change is kept again."""
    table = sim_table(variant="6-card", seats=4)
    svc, path = table.service, table.journal.path
    table.press(0, Button.OK)  # join: kept
    assert svc.notices.faults == {}
    with caplog.at_level("INFO", logger="golfbox.table.service"):
        with journal_cannot_grow(path):
            table.press(0, Button.RIGHT)  # the game: 9-card, not kept
            assert svc.table_message == "cannot save the lobby: see the log"
            table.press(0, Button.RIGHT)  # another change, not kept either
            while svc.lobby.selected.key != "language":
                table.press(0, Button.OK)
            table.press(0, Button.RIGHT)  # français
            assert svc.table_message == "impossible d'enregistrer l'accueil : voir le journal"
            table.shared.image.save(tmp_path / "lobby_not_kept.png")
            assert svc.journal.saved_lobby()["variant"] == "6-card"
        assert [r.getMessage()[:35] for r in caplog.records if r.levelname == "ERROR"] == [
            "journal: the lobby not kept: journa"]  # once
        table.press(0, Button.LEFT)  # english: there is room again, so it is kept
    assert svc.notices.faults == {} and svc.table_message == ""
    assert svc.journal.saved_lobby()["language"] == "en"
    assert "journal: the lobby kept again after 3 failed tries" in caplog.text


def test_a_new_match_asked_for_while_the_last_ones_scores_still_cannot_be_saved_is_not_dealt(
        tmp_path, clock):
    """The disk is still full at "● new match": the finished match's scores come first, so
    the new one is not dealt (the seat is told), and nothing of the old one is lost."""
    service, pad = last_round_scored_on_a_full_disk(tmp_path / "journal.sqlite3", clock)
    scores = list(service.session.match.history[0])
    pad.press(0, Button.OK)  # the result
    run_for(service, clock, 1)
    pad.press(0, Button.OK)  # ● new match: the disk is still full
    run_for(service, clock, 1)
    assert service.state == "match_over" and service.session.match.over
    assert service.notices.seats[0] == "not saved, not played: try again"
    assert service.journal.history() == []
    service.journal.full = False
    pad.press(0, Button.OK)  # ● new match again, with room
    run_for(service, clock, 1)
    assert service.state == "playing"
    [finished] = service.journal.history()
    assert finished.round_scores == {1: scores}


class AwayRefused(FillingDisk):
    def save_away(self, *args):
        self._full("save_away")
        return super().save_away(*args)


def test_a_seat_away_the_full_disk_cannot_keep_is_logged_once_and_kept_at_the_next_change(
        tmp_path, clock, caplog):
    """A node unplugged on a full disk: the table pauses the seat as ever, the log says
    once that the journal does not know it, and the next change is kept once there is room."""
    from golfbox.hal.base import LinkEvent

    service, _ = table(tmp_path / "journal.sqlite3", clock, disk=AwayRefused, bots={1: "medium"},
                       auto_start=True, takeover_after=10.0, bot_delay=1.0)
    run_for(service, clock, 1)
    assert service.state == "playing"
    service.journal.full = True
    with caplog.at_level(logging.ERROR, logger="golfbox.table.service"):
        service.post(LinkEvent(0, False, "seat 1: node unplugged", buttons=True))
        run_for(service, clock, 5)
        service.post(LinkEvent(1, False, "seat 2: node unplugged", buttons=True))  # another change
        run_for(service, clock, 1)
    assert "P1's seat is unplugged" in service.table_message
    refusals = [r.getMessage() for r in caplog.records if "seats away" in r.getMessage()]
    assert refusals == [f"journal: the seats away not kept: journal {service.journal.path}: "
                        "database or disk is full"]
    service.journal.full = False
    run_for(service, clock, 5)  # seat 1 is taken over by a bot: a change, kept
    assert service.session.stands_in(0)
    assert service.journal.seats_away() == {0: True, 1: False}


def test_leaving_a_result_on_a_full_disk_opens_the_lobby_says_so_once_and_loses_no_match(
        tmp_path, clock, caplog):
    """✕ on the result as the disk is full (a real write failure): the result cannot be
    closed nor the lobby kept in the same transaction. The lobby opens all the same, the
    log and the shared display say so, and the finished match stays in the history."""
    path = tmp_path / "journal.sqlite3"
    service, pad = played_to_the_result(path, clock)
    finished = service.journal.history()
    with caplog.at_level("INFO", logger="golfbox.table"), journal_cannot_grow(path):
        pad.press(0, Button.BACK)  # ✕: to the lobby
        run_for(service, clock, 5)
        assert service.state == "lobby" and service.lobby.joined == {0}
        shown = service.notices.shared_line()
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    # what was not saved, and what that means, as the lobby's line says of its own
    assert errors == [
        f"journal: match {finished[0].id}'s result not closed (a restart shows it again): journal "
        f"{path}: disk I/O error (OperationalError)",
        f"journal: the lobby not kept: journal {path}: disk I/O error (OperationalError) (said "
        f"once, tried at each change)"], errors
    assert "cannot save" in shown, shown
    assert service.journal.history() == finished
    service.close("power cut")
    again, _ = table(path, clock, bots={1: "medium"}, rounds=1, auto_start=True)
    assert again.state == "round_over" and again.session.match.over  # its result, again


def test_a_restart_after_the_matchs_result_was_refused_shows_no_fault_and_deals_again(
        tmp_path, clock):
    """The disk filled as the match's result was written, every action saved, and the
    table restarted with room: resume() wrote the result, then the opening wrote the
    last round's scores again, with the result again, into a match now finished. That
    failed ("match 1 is finished, not in play"): "cannot save the game" on show, and
    every new match refused with "not saved, not played" until another restart."""
    path = tmp_path / "journal.sqlite3"
    bots = {0: "medium", 1: "medium"}
    service, _ = table(path, clock, bots=bots, auto_start=True)
    service.journal.fill_before = "finish_match"
    run_for(service, clock, 60)
    assert service.session.match.over and service.journal.full
    assert service.journal.unfinished().id == service.session.match_id  # all but its result
    service.close("power cut")
    again, _ = table(path, clock, bots=bots, auto_start=True)
    assert again.session.match.over and again.journal.history()[0].id == 1  # result written
    assert "cannot save" not in again.notices.shared_line()
    run_for(again, clock, 60)  # the bots' result, then their next match
    assert again.session.match_id >= 2  # dealt
    assert set(again.journal.history()[-1].round_scores) == {1, 2}  # match 1, whole


@pytest.fixture
def sd_card(tmp_path):
    """A real ext4 file system (a loop-mounted image, errors=remount-ro as on a Pi's SD
    card) and a way to make it fail: ext4 then goes read-only under the open journal,
    which `mount -o remount,ro` refuses to do while files are open for writing. Root
    only (mount), and ext4's trigger_fs_error."""
    if os.geteuid() != 0 or shutil.which("mkfs.ext4") is None:
        pytest.skip("mounts an ext4 image: root and mkfs.ext4 only")
    image, folder = tmp_path / "sd.img", tmp_path / "sd"
    image.write_bytes(b"")
    os.truncate(image, 8 << 20)
    folder.mkdir()
    subprocess.run(["mkfs.ext4", "-q", "-F", "-b", "4096", str(image)], check=True)
    if subprocess.run(["mount", "-o", "loop,errors=remount-ro", str(image), str(folder)]).returncode:
        pytest.skip("cannot loop-mount an image here")
    try:
        device = next(line.split()[0] for line in open("/proc/mounts")
                      if line.split()[1] == str(folder))
        trigger = Path("/sys/fs/ext4") / Path(device).name / "trigger_fs_error"
        if not trigger.exists():
            pytest.skip("this kernel's ext4 has no trigger_fs_error")
        yield folder, lambda: trigger.write_text("golfbox test: an SD card fault\n")
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=True)


def test_a_write_the_read_only_sd_card_refuses_says_read_only(sd_card):
    """ext4 remounts the SD card read-only after a fault: the log said only "disk I/O
    error", nothing that sends the café's owner to the card."""
    folder, fault = sd_card
    journal = Journal(folder / "journal.sqlite3")
    match_id = journal.start_match({"variant": "4-card", "rounds": 1}, 5)
    journal.record(match_id, 0, "draw")
    fault()
    with pytest.raises(JournalError) as refused:
        journal.record(match_id, 1, "draw")
    assert str(refused.value).endswith("; its file system is read-only")
    assert str(folder / "journal.sqlite3") in str(refused.value)
    journal.close()
