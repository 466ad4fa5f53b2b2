"""The table loop's deadlines: call_at, cancel, reschedule, and the order of equal ones."""

from __future__ import annotations

from golfbox.table.timers import ManualClock, Timers


def test_deadlines_fire_in_time_order_and_equal_ones_in_the_order_they_were_set():
    timers, fired = Timers(), []
    for name, when in [("c", 3.0), ("a", 1.0), ("b1", 2.0), ("b2", 2.0)]:
        timers.call_at(when, lambda name=name: fired.append(name))
    assert timers.next_due().when == 1.0
    assert not timers.fire_due(0.5) and fired == []
    while timers.fire_due(10.0):
        pass
    assert fired == ["a", "b1", "b2", "c"]
    assert timers.next_due() is None


def test_a_cancelled_deadline_never_fires_and_a_moved_one_keeps_its_place_among_equals():
    timers, fired = Timers(), []
    first = timers.call_at(5.0, lambda: fired.append("first"))
    timers.call_at(2.0, lambda: fired.append("second"))
    gone = timers.call_at(1.0, lambda: fired.append("gone"))
    gone.cancel()
    assert not gone.active and first.active
    first.reschedule(2.0)  # set before "second": it still goes first at the same moment
    while timers.fire_due(2.0):
        pass
    assert fired == ["first", "second"]
    assert not first.active


def test_a_callback_may_set_the_next_deadline():
    clock, timers, pings = ManualClock(100.0), Timers(), []

    def ping():
        pings.append(clock())
        timers.call_at(clock() + 10, ping)

    timers.call_at(clock(), ping)
    for _ in range(3):
        assert timers.fire_due(clock())
        assert not timers.fire_due(clock())  # the next one is 10 s away
        clock.advance(10)
    assert pings == [100.0, 110.0, 120.0]
