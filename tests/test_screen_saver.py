"""The screen saver: a table left alone goes dark but for a small moving line, so the
OLEDs do not burn in; any press wakes it, and only wakes it."""

from __future__ import annotations

import pytest

from golfbox.table import screens

HOUR = 60  # the saver's text moves once a minute


@pytest.mark.parametrize("size", [(128, 64), (256, 64)])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_savers_text_moves_so_that_no_pixel_stays_lit(size, lang):
    lit_minutes: dict[tuple[int, int], int] = {}
    for spot in range(HOUR):
        image = screens.saver(size, spot, lang)[1]()
        assert image.size == size
        lit = [xy for xy in ((x, y) for x in range(size[0]) for y in range(size[1]))
               if image.getpixel(xy)]
        assert 0 < len(lit) < size[0] * size[1] // 20  # black but for a small line
        for xy in lit:
            lit_minutes[xy] = lit_minutes.get(xy, 0) + 1
    # In an hour, no pixel is lit for more than a quarter of it.
    assert max(lit_minutes.values()) <= HOUR // 4


# ----------------------------------------------------------------- the table

from golfbox.hal.base import Button  # noqa: E402
from golfbox.table.saver import MOVE_SECONDS  # noqa: E402

MINUTES = 10


def pictures(table) -> list[bytes]:
    return [d.image.tobytes() for d in (*table.displays.values(), table.shared)]


def saver_pictures(table, spot: int, lang: str = "en") -> list[bytes]:
    """What every display shows once the saver has moved its text ``spot`` times."""
    shown = []
    for display in (*table.displays.values(), table.shared):
        image = screens.saver(display.size, spot, lang)[1]()
        shown.append(image.convert(display.mode).tobytes())
    return shown


def wait(table, seconds: float, step: float = 5.0) -> None:
    """Let ``seconds`` pass, the table handling its timers as they fall due."""
    clock, svc = table.clock, table.service
    end = clock.now + seconds
    while clock.now < end:
        clock.advance(min(step, end - clock.now))
        svc.run_until_idle()


def sleeps_after_the_minutes(table) -> list[bytes]:
    """Nothing happens for the saver's minutes: every display shows the saver. Returns
    what they showed before."""
    before = pictures(table)
    wait(table, MINUTES * 60 - 5)
    assert pictures(table) == before and not table.service.saver.asleep
    wait(table, 5)
    assert table.service.saver.asleep
    assert pictures(table) == saver_pictures(table, 0, table.service.current.lang)
    return before


def test_the_lobby_nobody_joined_sleeps_and_a_press_only_wakes_it(sim_table):
    table = sim_table(seats=3, screen_saver_minutes=MINUTES)
    svc = table.service
    before = sleeps_after_the_minutes(table)
    assert svc.status_words().endswith("· screen saver")  # systemctl status says why it is dark
    table.press(1, Button.OK)  # would join seat 2
    assert not svc.saver.asleep and pictures(table) == before
    assert not svc.status_words().endswith("· screen saver")
    assert svc.lobby.joined == set()
    table.press(1, Button.OK)  # now on the lobby it sees: joins
    assert svc.lobby.joined == {1}


def test_a_hold_that_wakes_the_table_does_not_start_the_match(sim_table):
    """A long press is PRESSED then HELD: the HELD of the waking press is the same press."""
    table = sim_table(seats=2, screen_saver_minutes=MINUTES)
    svc = table.service
    table.press(0, Button.OK)
    table.press(1, Button.OK)
    sleeps_after_the_minutes(table)
    table.hold(0, Button.OK)  # would deal
    assert svc.state == "lobby" and not svc.saver.asleep
    table.hold(0, Button.OK)
    assert svc.state == "playing"


def test_a_press_queued_on_the_saver_behind_the_waking_one_is_dropped_too(sim_table):
    table = sim_table(seats=3, screen_saver_minutes=MINUTES)
    svc = table.service
    sleeps_after_the_minutes(table)
    table.pad.press(0, Button.OK)
    table.pad.press(2, Button.OK)  # at the same moment, on the saver too
    table.clock.advance(0.01)
    svc.run_until_idle()
    assert svc.lobby.joined == set() and not svc.saver.asleep
    table.press(2, Button.OK)
    assert svc.lobby.joined == {2}


def test_a_hold_begun_on_the_saver_by_another_seat_does_not_start_the_match(sim_table):
    """Seat 1 woke the table with a press while seat 2 began holding ● on the saver: the
    hold's press was dropped, but its HELD, a second later and after the screens came
    back, was judged by its own time and dealt the match (review). A HELD counts from
    its press."""
    table = sim_table(seats=2, screen_saver_minutes=MINUTES)
    svc = table.service
    table.press(0, Button.OK)
    table.press(1, Button.OK)
    sleeps_after_the_minutes(table)
    table.pad.press(0, Button.OK)  # wakes
    table.pad.press(1, Button.OK)  # at the same moment, on the saver: a hold begins
    table.clock.advance(0.01)
    svc.run_until_idle()
    table.clock.advance(1.0)
    table.pad.held(1, Button.OK)
    svc.run_until_idle()
    assert svc.state == "lobby"
    table.hold(1, Button.OK)  # a hold begun on the lobby deals
    assert svc.state == "playing"


def test_the_saver_moves_its_text_once_a_minute_and_draws_nothing_between(sim_table):
    table = sim_table(seats=2, screen_saver_minutes=MINUTES)
    sleeps_after_the_minutes(table)
    drawn = [d.frames for d in (*table.displays.values(), table.shared)]
    for spot in range(1, 4):
        wait(table, MOVE_SECONDS - 1, step=1.0)
        assert pictures(table) == saver_pictures(table, spot - 1)
        wait(table, 1, step=1.0)
        assert pictures(table) == saver_pictures(table, spot)
    assert saver_pictures(table, 3) != saver_pictures(table, 0)
    # One frame a display each minute: the ticks between (a second each here) drew none.
    assert [d.frames for d in (*table.displays.values(), table.shared)] == [n + 3 for n in drawn]


def to_seat_1s_turn(table):
    """The bot at seat 2 turns up its cards, then whoever starts plays, seat 1 by ● presses,
    until it is seat 1's turn with the bot waiting."""
    svc = table.service
    for _ in range(100):
        if svc.match.round.legal_actions(0) and not svc.match.round.legal_actions(1):
            return
        if svc.match.round.legal_actions(0):
            table.press(0, Button.OK)
        wait(table, 1.0, step=1.0)
    raise AssertionError("never seat 1's turn")


def test_a_persons_turn_sleeps_and_the_waking_press_plays_nothing(sim_table):
    table = sim_table(variant="6-card", seats=2, bots={1: "medium"}, auto_start=True,
                      seed=5, bot_delay=1.0, screen_saver_minutes=MINUTES, language="fr")
    svc = table.service
    to_seat_1s_turn(table)
    played = svc.actions_played
    before = sleeps_after_the_minutes(table)  # (the French saver: the match speaks French)
    table.press(0, Button.OK)  # would draw from the stock, unseen
    assert svc.actions_played == played and pictures(table) == before
    table.press(0, Button.OK)
    assert svc.actions_played == played + 1


def test_a_result_left_on_the_table_sleeps_and_the_waking_ok_deals_no_rematch(sim_table):
    table = sim_table(variant="4-card", seats=2, bots={1: "medium"}, auto_start=True,
                      rounds=1, seed=3, bot_delay=1.0, screen_saver_minutes=MINUTES)
    svc = table.service
    table.play_to_the_result()
    match = svc.match_id
    before = sleeps_after_the_minutes(table)
    table.press(0, Button.OK)  # ● would deal a rematch
    assert svc.state == "match_over" and svc.match_id == match and pictures(table) == before


def test_a_table_of_bots_only_sleeps_finishes_its_match_and_deals_no_other(sim_table):
    """Nobody need be watching bots play: match after match all night kept the screens'
    names and frames lit, the bots thinking and the journal writing (bench/soak.py: a
    bots-only table never slept). Its moves do not keep it awake; the match in play ends
    under the saver and the next waits for a press."""
    table = sim_table(variant="4-card", seats=2, bots={0: "medium", 1: "medium"},
                      auto_start=True, rounds=1, seed=3, bot_delay=1.0, screen_saver_minutes=1)
    svc = table.service
    first = svc.match_id
    wait(table, 60.0, step=1.0)
    assert svc.saver.asleep  # a minute with no press, bots moving all the while
    wait(table, 12 * 3600, step=60.0)  # a night
    assert svc.saver.asleep and svc.state == "match_over"
    assert svc.match_id <= first + 1  # the match in play, and at most the one dealt before
    played = svc.actions_played
    assert pictures(table) == saver_pictures(table, svc.saver.spot)
    table.press(0, Button.OK)  # wakes: the result, and a rematch 30 s later as before
    assert not svc.saver.asleep and svc.state == "match_over"
    wait(table, 29.0, step=1.0)
    assert svc.state == "match_over" and svc.actions_played == played
    wait(table, 1.0, step=1.0)
    assert svc.state == "playing" and svc.match_id > first


def test_the_game_moving_wakes_the_displays(sim_table):
    """A bot slower than the saver's minutes (a long bot_delay here): its move shows at
    once to the person waiting for it."""
    table = sim_table(variant="6-card", seats=2, bots={1: "medium"}, auto_start=True,
                      seed=5, bot_delay=300.0, screen_saver_minutes=1)
    svc = table.service
    for _ in range(10):  # the person turns up their cards; the bot's come after 300 s
        if not svc.match.round.legal_actions(0):
            break
        table.press(0, Button.OK)
    assert not svc.match.round.legal_actions(0) and svc.saver.asleep is False
    played = svc.actions_played
    wait(table, 60.0, step=1.0)
    assert svc.saver.asleep
    wait(table, 239.0, step=1.0)
    assert svc.actions_played == played and svc.saver.asleep
    wait(table, 1.0, step=1.0)
    assert svc.actions_played == played + 1 and not svc.saver.asleep
    assert pictures(table) != saver_pictures(table, svc.saver.spot)


def test_a_reveal_turning_its_pages_still_sleeps(sim_table):
    """Six players on a 128×64 shared panel: the reveal turns its two pages every 5 s on
    its own, which would keep a round nobody came back to lit all night."""
    bots = {seat: "greedy" for seat in range(1, 6)}
    table = sim_table(variant="6-card", seats=6, rounds=2, bots=bots, auto_start=True,
                      shared_size=(128, 64), screen_saver_minutes=MINUTES)
    svc = table.service
    while svc.state == "playing":
        table.press(0, Button.OK)
    assert svc.state == "round_over"
    first = table.shared.image.tobytes()
    wait(table, 5.0)
    assert table.shared.image.tobytes() != first  # it turns its pages
    wait(table, MINUTES * 60 - 5.0)
    assert svc.saver.asleep and pictures(table) == saver_pictures(table, 0)
    wait(table, MOVE_SECONDS - 1, step=1.0)  # the pages turn on unseen: nothing drawn
    assert pictures(table) == saver_pictures(table, 0)
    table.press(0, Button.OK)  # wakes: the reveal again, not the next round
    assert svc.state == "round_over" and not svc.saver.asleep


def test_zero_minutes_never_sleeps(sim_table):
    table = sim_table(seats=2, screen_saver_minutes=0)
    before = pictures(table)
    wait(table, 24 * 3600, step=600.0)
    assert not table.service.saver.asleep and pictures(table) == before
    table.press(0, Button.OK)
    assert table.service.lobby.joined == {0}


def seat_2_node(table, connected: bool, reason: str) -> None:
    """Seat 2's node goes away or comes back, and the table takes it in."""
    from golfbox.hal.base import LinkEvent

    table.service.post(LinkEvent(1, connected, reason, buttons=True))
    table.service.run_until_idle()


def plugged_back_in_wakes_the_table(table) -> None:
    """Seat 2's node back after the table fell asleep: it wakes, and the first press of
    seat 2's person counts (it joins)."""
    seat_2_node(table, True, "seat 2: node back")
    assert not table.service.saver.asleep
    table.press(1, Button.OK)
    assert table.service.lobby.joined == {1}


def test_a_seat_plugged_back_in_wakes_the_table(sim_table):
    """Someone who plugs their seat back in is there to play: the table slept on, and
    their first press only woke it (review)."""
    table = sim_table(seats=2, screen_saver_minutes=MINUTES)
    seat_2_node(table, False, "seat 2: node unplugged")
    sleeps_after_the_minutes(table)
    plugged_back_in_wakes_the_table(table)


def test_a_loose_cable_does_not_keep_the_table_awake(sim_table):
    """A node plugged back in wakes the table, but each return of one whose cable comes
    and goes woke it too: the saver never came on, the screens lit all night."""
    table = sim_table(seats=2, screen_saver_minutes=MINUTES)
    connected = False
    for _ in range(MINUTES * 60 + 10):  # a flip a second, for the saver's minutes
        seat_2_node(table, connected, "seat 2: loose cable")
        connected = not connected
        table.clock.advance(1.0)
    assert table.service.saver.asleep
    assert table.service.table_message.startswith("P2's seat is unplugged")


def test_a_seat_plugged_in_after_its_cable_came_and_went_wakes_the_table(sim_table):
    """Only a node's first return since it failed wakes the table, so that a loose cable
    does not keep it awake; but a cable that came and went as it fell out counted as
    that return: the node plugged back in later, after the table had gone to sleep,
    did not wake it, and its person's first press only woke it."""
    table = sim_table(seats=2, screen_saver_minutes=MINUTES)
    for connected in (False, True, False):  # it comes and goes as it falls out
        seat_2_node(table, connected, "seat 2: loose cable")
        table.clock.advance(0.1)
    sleeps_after_the_minutes(table)
    plugged_back_in_wakes_the_table(table)


def test_a_seat_unplugged_and_plugged_back_in_a_moment_wakes_the_table_each_evening(sim_table):
    """A node back and steady is counted back: unplugged again later, while the table
    sleeps, and plugged back in a few seconds on, it is that failure's first return and
    wakes the table, as the first time did (not only after 30 s away, as a loose
    cable's flips would)."""
    table = sim_table(seats=2, screen_saver_minutes=MINUTES)
    seat_2_node(table, False, "seat 2: node unplugged")
    table.clock.advance(1.0)
    seat_2_node(table, True, "seat 2: node back")
    wait(table, 5.0)  # steady: counted back
    assert not table.service.table_message
    wait(table, MINUTES * 60.0)
    assert table.service.saver.asleep
    seat_2_node(table, False, "seat 2: node unplugged")
    table.clock.advance(5.0)
    plugged_back_in_wakes_the_table(table)


def test_a_person_choosing_a_card_keeps_the_table_awake(sim_table):
    """A person moving their cursor along their cards plays nothing and changes nothing in
    the game: the presses alone keep the displays lit, however long they think."""
    table = sim_table(variant="6-card", seats=2, bots={1: "medium"}, auto_start=True,
                      seed=5, bot_delay=1.0, screen_saver_minutes=1)
    svc = table.service
    to_seat_1s_turn(table)
    played = svc.actions_played
    for button in (Button.RIGHT, Button.LEFT) * 8:  # every 40 s for 10 min, never a minute idle
        table.press(0, button)
        wait(table, 40.0, step=1.0)
        assert not svc.saver.asleep, "the saver came on while seat 1 was choosing"
    assert svc.actions_played == played  # only the cursor moved
    wait(table, 20.0, step=1.0)  # a minute with no press after the last: dark
    assert svc.saver.asleep
