"""Sim backends, the resilient display wrapper, and build_hardware for sim seats."""

from __future__ import annotations

import errno

import pytest
from PIL import Image, ImageDraw

from golfbox.hal.base import Button, ButtonEvent, ButtonPad, Display, DisplayError, EventKind, LinkEvent
from golfbox.hal.build import build_hardware
from golfbox.hal.config import sim_config
from golfbox.hal.resilient import ResilientDisplay
from golfbox.hal.sim import SimDisplay, SimPad
from golfbox.table.timers import ManualClock


def frame(text: str = "", size=(128, 64)) -> Image.Image:
    image = Image.new("1", size)
    ImageDraw.Draw(image).text((4, 4), text, fill=1)
    return image


# ---------------------------------------------------------------- SimDisplay


def test_sim_display_keeps_the_last_image_and_counts_frames_and_changes():
    changed = []
    display = SimDisplay("seat 1 display", on_change=changed.append)
    assert isinstance(display, Display)
    display.show(frame("a"))
    display.show(frame("a"))
    display.show(frame("b"))
    assert (display.frames, display.changes) == (3, 2)
    assert changed == [display, display]
    assert display.image.tobytes() == frame("b").tobytes()


def test_sim_display_converts_to_its_mode_and_refuses_a_wrong_size():
    display = SimDisplay("shared display", (256, 64), "L")
    display.show(Image.new("1", (256, 64), 1))
    assert display.image.mode == "L" and display.image.getpixel((0, 0)) == 255
    with pytest.raises(ValueError, match="image is 128x64, display is 256x64"):
        display.show(frame())


def test_sim_display_can_fail_like_a_pulled_cable():
    display = SimDisplay("seat 2 display")
    display.fail()
    with pytest.raises(DisplayError, match="I2C error"):
        display.show(frame())
    display.recover()
    display.show(frame())
    assert display.frames == 1


# ---------------------------------------------------------------- SimPad


def test_sim_pad_press_and_hold_post_like_gpio(clock):
    events = []
    pad = SimPad([0, 1], clock)
    assert isinstance(pad, ButtonPad)
    pad.start(events.append)
    pad.press(1, Button.RIGHT)
    clock.advance(2.5)
    pad.hold(0, "back")
    assert events == [  # each stamped on the pad's clock when it was made
        ButtonEvent(1, Button.RIGHT, EventKind.PRESSED, at=1000.0),
        ButtonEvent(0, Button.BACK, EventKind.PRESSED, at=1002.5),
        ButtonEvent(0, Button.BACK, EventKind.HELD, at=1002.5),
    ]
    assert str(events[0]) == "seat 2 ▶ pressed"


def test_sim_pad_refuses_unknown_seats_and_presses_before_start():
    pad = SimPad([0])
    with pytest.raises(RuntimeError, match="start"):
        pad.press(0, Button.OK)
    pad.start(lambda event: None)
    with pytest.raises(ValueError, match="seat 3 is not on this pad"):
        pad.press(3, Button.OK)
    with pytest.raises(ValueError):
        pad.press(0, "up")
    pad.close()
    with pytest.raises(RuntimeError):
        pad.press(0, Button.OK)


# ---------------------------------------------------------------- ResilientDisplay


def test_failing_display_is_marked_degraded_once_and_show_never_raises(clock):
    events = []
    panel = SimDisplay("seat 2 display")
    display = ResilientDisplay(panel, 1, events.append, clock=clock)
    panel.fail(OSError(errno.EREMOTEIO, "Remote I/O error"))
    failed_at = clock()
    display.show(frame("1"))
    display.show(frame("2"))
    clock.now += 10
    display.show(frame("3"))
    assert not display.healthy
    assert events == [LinkEvent(1, False, "seat 2 display: [Errno 121] Remote I/O error")]
    assert events[0].at == failed_at  # stamped when it failed (the table's steady timer)


def test_degraded_display_is_retried_with_exponential_backoff():
    clock, events = ManualClock(100.0), []
    attempts = []

    class CountingPanel(SimDisplay):
        def show(self, image):
            attempts.append(clock.now)
            super().show(image)

    panel = CountingPanel("seat 1 display")
    display = ResilientDisplay(panel, 0, events.append, clock=clock, first_retry=0.5, max_retry=4)
    panel.fail()
    display.show(frame())  # fails at t=100
    for _ in range(40):  # the table loop ticks every 250 ms for 10 s
        clock.now += 0.25
        display.poll()
    tries = [round(t - 100, 2) for t in attempts]
    assert tries == [0, 0.5, 1.5, 3.5, 7.5]  # waits of 0.5, 1, 2, 4, then capped at 4
    display.show(frame("new"))  # a frame in between is kept, not tried early
    assert len(attempts) == 5


def test_recovered_display_is_healthy_again_and_gets_the_newest_frame(clock):
    events = []
    panel = SimDisplay("shared display", (256, 64), "L")
    display = ResilientDisplay(panel, None, events.append, clock=clock)
    panel.fail()
    display.show(frame("old", (256, 64)))
    display.show(frame("newest", (256, 64)))
    panel.recover()
    display.poll()  # backoff not over yet: nothing happens
    assert panel.frames == 0
    clock.now += 0.5
    display.poll()
    assert display.healthy
    assert panel.image.tobytes() == frame("newest", (256, 64)).convert("L").tobytes()
    assert events == [LinkEvent(None, False, "shared display: I2C error (simulated)"),
                      LinkEvent(None, True, "shared display: working again")]
    assert events[1].at == clock()  # stamped when it answered
    # A second failure is reported again, and backoff starts from the first delay.
    panel.fail()
    display.show(frame("x", (256, 64)))
    assert events[-1].connected is False and len(events) == 3


def test_resilient_display_lets_programming_errors_through():
    display = ResilientDisplay(SimDisplay("seat 1 display"), 0)
    with pytest.raises(ValueError):
        display.show(frame(size=(10, 10)))


# ---------------------------------------------------------------- build_hardware, sim seats


def test_build_hardware_for_the_sim_backend(clock):
    events = []
    hardware = build_hardware(sim_config(2), events.append, clock=clock)
    hardware.sim_pad.press(1, Button.OK)
    assert events == [ButtonEvent(1, Button.OK, at=clock.now)]
    assert [d.name for d in hardware.displays()] == ["seat 1 display", "seat 2 display", "shared display"]
    hardware.seat_displays[0].show(frame("hi"))
    assert hardware.seat_displays[0].inner.image is not None
    hardware.seat_displays[1].inner.fail()
    hardware.seat_displays[1].show(frame())
    assert events[-1] == LinkEvent(1, False, "seat 2 display: I2C error (simulated)")
    hardware.close()
    assert all(d.inner.closed for d in hardware.displays())


def test_serial_seats_get_a_seat_node_hub_whose_displays_never_raise(clock):
    from golfbox.hal.config import parse_config
    from golfbox.hal.serialnode import SerialNodeHub

    pytest.importorskip("serial")
    config = parse_config({"seats": [{"backend": "sim"}, {"backend": "serial", "node": "e661"}],
                           "seat_nodes": {"usb_ids": ["ffff:fffe"]}})  # matches no real port
    events = []
    hardware = build_hardware(config, events.append, clock=clock)
    try:
        assert [type(pad) for pad in hardware.pads] == [SimPad, SerialNodeHub]
        assert all(pad.clock is clock for pad in hardware.pads)  # both stamp on the table's clock
        node_display = hardware.seat_displays[1]
        assert node_display.size == (128, 64)
        node_display.show(frame("hello"))  # the node is not plugged in: kept, not raised
        assert not node_display.healthy
        assert events == []  # the hub reports nodes coming and going, not the wrapper
    finally:
        hardware.close()


def test_seat_nodes_are_given_gpio_hold_time(clock):
    """One setting for every seat's long press: the hub tells each node gpio.hold_time
    (a node held for its own 700 ms whatever the config said)."""
    from golfbox.hal.config import parse_config

    pytest.importorskip("serial")
    config = parse_config({"gpio": {"hold_time": 1.2},
                           "seats": [{"backend": "sim"}, {"backend": "serial", "node": "e661"}],
                           "seat_nodes": {"usb_ids": ["ffff:fffe"]}})  # matches no real port
    hardware = build_hardware(config, lambda event: None, clock=clock)
    try:
        assert hardware.pads[1].config.hold_time == 1.2
    finally:
        hardware.close()


def test_a_table_with_a_seat_node_away_goes_on_and_says_so_once(clock):
    """The node display's wrapper retries at once (no backoff), and assemble_table lent
    it the table's timers and inbox: with a node away, its retry fell due at once for
    ever, so the loop fired it again and again and never read a press (a core spun and
    the table froze); and its failure would have been a second fault beside the hub's.
    It is tried again at each frame, and the hub alone reports the node."""
    from golfbox.hal.config import parse_config
    from golfbox.table.assemble import assemble_table
    from golfbox.table.settings import TableSettings

    pytest.importorskip("serial")
    config = parse_config({"seats": [{"backend": "sim"}, {"backend": "serial", "node": "e661"}],
                           "seat_nodes": {"usb_ids": ["ffff:fffe"]}})  # matches no real port
    hardware = build_hardware(config, lambda event: None, clock=clock)
    try:
        svc = assemble_table(TableSettings(variant="6-card", seats=2, auto_start=True),
                             hardware.pads, hardware.seat_displays, hardware.shared_display,
                             clock=clock)
        svc.post(ButtonEvent(0, Button.OK, at=clock()))  # seat 1 turns up a card
        steps = 0
        while svc.step(0.0) and steps < 100:
            steps += 1
        assert steps < 100 and svc.match.round.face_up[0] == 1
        assert not hardware.seat_displays[1].healthy  # its frame waits in the hub
        assert svc.table_message == ""  # the hub says so, once it has looked for the node
        svc.post(LinkEvent(1, False, "seat 2: no seat node found", buttons=True))
        svc.run_until_idle()
        assert svc.table_message == "P2's seat is unplugged · a bot plays in 120 s"  # once
    finally:
        hardware.close()
