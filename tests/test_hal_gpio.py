"""GPIO buttons through gpiozero's MockFactory; debouncing with a fake clock."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from unittest.mock import ANY

import pytest

from golfbox.hal.base import Button, ButtonEvent, ButtonPad, EventKind
from golfbox.hal.gpio import Debouncer, GpioPad, pin_factory_by_name
from golfbox.table.timers import ManualClock

gpiozero = pytest.importorskip("gpiozero")
from gpiozero.pins.mock import MockFactory  # noqa: E402

SEAT0 = {Button.LEFT: 17, Button.RIGHT: 27, Button.OK: 22, Button.BACK: 4}


class Recorder:
    """A sink that remembers events and the thread each came from."""

    def __init__(self):
        self.events: list[ButtonEvent] = []
        self.threads: list[str] = []
        self.arrived = threading.Event()

    def __call__(self, event):
        self.events.append(event)
        self.threads.append(threading.current_thread().name)
        self.arrived.set()

    def wait_for(self, count: int, timeout: float = 2.0) -> None:
        deadline = time.monotonic() + timeout
        while len(self.events) < count and time.monotonic() < deadline:
            time.sleep(0.005)


def release_and_close(pad, factory, pins=(17, 27, 22, 4, 5, 6, 13, 19)):
    """Let go of every button, then close (closing with one down works too: see
    test_close_while_a_button_is_down_leaves_no_thread_and_no_held)."""
    for pin in pins:
        factory.pin(pin).drive_high()
    pad.close()


def make_pad(factory, clock=None, hold_time=0.8, bounce_time=0.02, seats=None, **options):
    pad = GpioPad(seats or {0: SEAT0}, bounce_time=bounce_time, hold_time=hold_time,
                  pin_factory=factory, clock=clock or time.monotonic, **options)
    sink = Recorder()
    pad.start(sink)
    return pad, sink


# ---------------------------------------------------------------- presses and holds


def test_buttons_are_pulled_up_and_a_press_is_sent_at_once(mock_pins):
    pad, sink = make_pad(mock_pins)
    assert isinstance(pad, ButtonPad)
    pin = mock_pins.pin(27)
    assert pin.pull == "up" and pin.state == 1  # idle high: pressed means wired to GND
    pin.drive_low()
    assert sink.events == [ButtonEvent(0, Button.RIGHT, EventKind.PRESSED, at=ANY)]
    pin.drive_high()
    time.sleep(0.05)
    assert sink.events == [ButtonEvent(0, Button.RIGHT, EventKind.PRESSED, at=ANY)]  # release: nothing
    pad.close()


def test_long_press_is_pressed_then_held_once_and_nothing_on_release(mock_pins):
    pad, sink = make_pad(mock_pins, hold_time=0.05)
    pin = mock_pins.pin(4)
    pin.drive_low()
    sink.wait_for(2)
    time.sleep(0.15)  # three more hold_times: still one HELD (no repeat)
    pin.drive_high()
    time.sleep(0.05)
    assert sink.events == [ButtonEvent(0, Button.BACK, EventKind.PRESSED, at=ANY),
                           ButtonEvent(0, Button.BACK, EventKind.HELD, at=ANY)]
    # HELD comes from the press's timer thread: the sink must be thread-safe (a queue).
    assert sink.threads[1] != threading.main_thread().name
    pad.close()


def tap(pin, down: float, then: float) -> None:
    """Press ``pin``'s button for ``down`` seconds, let go, and wait ``then``."""
    pin.drive_low()
    time.sleep(down)
    pin.drive_high()
    time.sleep(then)


def test_short_press_is_not_held(mock_pins):
    pad, sink = make_pad(mock_pins, hold_time=0.1)
    pin = mock_pins.pin(22)
    tap(pin, 0.03, then=0.2)
    assert sink.events == [ButtonEvent(0, Button.OK, EventKind.PRESSED, at=ANY)]
    pad.close()


def test_several_seats_on_one_pad(mock_pins):
    seat1 = {Button.LEFT: 5, Button.RIGHT: 6, Button.OK: 13, Button.BACK: 19}
    pad, sink = make_pad(mock_pins, seats={0: SEAT0, 1: seat1})
    mock_pins.pin(13).drive_low()
    mock_pins.pin(17).drive_low()
    assert [str(e) for e in sink.events] == ["seat 2 ● pressed", "seat 1 ◀ pressed"]
    release_and_close(pad, mock_pins)


def test_a_press_is_stamped_when_it_is_made_and_a_hold_when_it_is_held(mock_pins):
    """The table sets the stamps against what its screens showed: a press that waited in
    its queue keeps the time it was made."""
    pad, sink = make_pad(mock_pins, hold_time=0.2)
    before = time.monotonic()
    mock_pins.pin(22).drive_low()
    after = time.monotonic()
    sink.wait_for(2)
    mock_pins.pin(22).drive_high()
    pressed, held = sink.events
    assert before <= pressed.at <= after  # on the table's clock (time.monotonic here)
    assert held.kind is EventKind.HELD and held.at - pressed.at >= 0.1  # not the press's time
    pad.close()


def test_a_pad_stamps_on_the_clock_it_is_given(clock, mock_pins):
    pad, sink = make_pad(mock_pins, clock=clock)
    mock_pins.pin(27).drive_low()
    assert sink.events == [ButtonEvent(0, Button.RIGHT, at=1000.0)]
    release_and_close(pad, mock_pins)


def task_switches() -> dict[int, int]:
    """voluntary_ctxt_switches (wakeups) of each thread of this process, by thread id."""
    counts = {}
    for task in Path("/proc/self/task").iterdir():
        try:
            status = (task / "status").read_text()
        except FileNotFoundError:  # it ended meanwhile
            continue
        for line in status.splitlines():
            if line.startswith("voluntary_ctxt_switches:"):
                counts[int(task.name)] = int(line.split()[1])
    return counts


FOUR_SEATS = {seat: dict(zip(Button, pins)) for seat, pins in enumerate(
    [(4, 5, 6, 12), (13, 16, 17, 18), (19, 20, 21, 22), (23, 24, 25, 26)])}


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads Linux's /proc")
def test_an_idle_pad_does_not_wake(mock_pins):
    """A café table waits all night: gpiozero's Button woke every 0.1 s per button to see
    whether it was pressed (16 threads, ~200 wakeups a second for 4 seats)."""
    before = set(task_switches())
    pad, sink = make_pad(mock_pins, seats=FOUR_SEATS)
    pin = mock_pins.pin(22)
    tap(pin, 0.03, then=0.2)  # a quick press and release: nothing of it may stay awake
    start = task_switches()
    time.sleep(1.0)
    end = task_switches()
    woke = {tid: end[tid] - start.get(tid, 0) for tid in end.keys() - before}
    assert sum(woke.values()) <= 2, f"the pad's threads woke: {woke}"
    assert sink.events == [ButtonEvent(2, Button.BACK, EventKind.PRESSED, at=ANY)]
    pad.close()


def test_a_release_before_hold_time_cancels_that_hold(mock_pins):
    pad, sink = make_pad(mock_pins, hold_time=0.3)
    pin = mock_pins.pin(17)
    tap(pin, 0.1, then=0.1)
    second = time.monotonic()
    pin.drive_low()  # the first press's 0.3 s end about 0.1 s from now: no HELD for it
    sink.wait_for(3)
    time.sleep(0.1)
    pin.drive_high()
    assert [e.kind for e in sink.events] == [EventKind.PRESSED] * 2 + [EventKind.HELD]
    assert sink.events[2].at - second >= 0.29  # the second press's, not the first's
    pad.close()


def test_a_press_too_short_for_the_debouncer_is_not_held(clock, mock_pins):
    """Its release is ignored as bounce (the pad thinks it still down), but the pin is up
    when hold_time comes, as gpiozero's Button saw too."""
    pad, sink = make_pad(mock_pins, clock=clock, hold_time=0.1)
    pin = mock_pins.pin(22)
    pin.drive_low()
    clock.now += 0.01
    pin.drive_high()
    time.sleep(0.25)
    assert sink.events == [ButtonEvent(0, Button.OK, at=ANY)]
    pad.close()


def test_close_while_a_button_is_down_leaves_no_thread_and_no_held(mock_pins):
    before = set(threading.enumerate())
    pad, sink = make_pad(mock_pins, hold_time=0.2, seats=FOUR_SEATS)
    for pin in (4, 13, 26):
        mock_pins.pin(pin).drive_low()
    pad.close()  # the buttons are still down
    assert set(threading.enumerate()) <= before  # at once: nothing lingers until hold_time
    time.sleep(0.3)
    assert [e.kind for e in sink.events] == [EventKind.PRESSED] * 3


# ---------------------------------------------------------------- debouncing


def test_debouncer_takes_an_edge_only_after_bounce_time_of_quiet():
    clock = ManualClock(50.0)  # 50 + 0.005 + 0.014 + 0.001 is exactly 50.02 in floats
    debouncer = Debouncer(0.02, clock)
    assert debouncer.accept()
    clock.now += 0.005
    assert not debouncer.accept()
    clock.now += 0.014
    assert not debouncer.accept()  # 19 ms after the accepted edge
    clock.now += 0.001
    assert not debouncer.accept()  # 20 ms after it, but 1 ms after a bounce: still bouncing
    clock.now += 0.02
    assert debouncer.accept()  # 20 ms of quiet: a real edge
    assert not debouncer.accept()


def test_a_worn_contact_chattering_for_50_ms_is_one_press(clock, mock_pins):
    # Edges 1-5 ms apart for 50 ms as it goes down and as it comes up: a contact whose
    # bounce outlasts bounce_time. gpiozero's mock pins, as its rpigpio and native
    # drivers, pass every edge on (lgpio filters in the kernel).
    pad, sink = make_pad(mock_pins, clock=clock, hold_time=5.0)
    pin = mock_pins.pin(17)
    gaps = [0.001, 0.003, 0.005, 0.002, 0.004] * 4  # 60 ms of chatter

    def chatter_to(settle, away):
        for gap in gaps:
            settle()
            clock.now += gap
            away()
            clock.now += gap
        settle()
        clock.now += 0.3

    first = clock.now
    for _ in range(3):
        chatter_to(pin.drive_low, pin.drive_high)  # down
        chatter_to(pin.drive_high, pin.drive_low)  # up
    assert [e.kind for e in sink.events] == [EventKind.PRESSED] * 3
    assert sink.events[0].at == first  # stamped at its first edge
    pad.close()


def test_contact_bounce_on_press_gives_one_press(clock, mock_pins):
    pad, sink = make_pad(mock_pins, clock=clock)
    pin = mock_pins.pin(17)
    first = clock.now
    for _ in range(4):  # the contacts chatter for a few ms
        pin.drive_low()
        clock.now += 0.002
        pin.drive_high()
        clock.now += 0.002
    pin.drive_low()  # settled, still inside 20 ms of the first edge
    assert sink.events == [ButtonEvent(0, Button.LEFT, at=first)]  # stamped at the first edge
    clock.now += 0.2
    pin.drive_high()
    clock.now += 0.2
    pin.drive_low()  # a second, real press
    assert sink.events == [ButtonEvent(0, Button.LEFT, at=first), ButtonEvent(0, Button.LEFT, at=clock.now)]
    release_and_close(pad, mock_pins)


def test_contact_bounce_on_release_is_not_a_press(clock, mock_pins):
    pad, sink = make_pad(mock_pins, clock=clock)
    pin = mock_pins.pin(27)
    pin.drive_low()
    clock.now += 0.3
    pin.drive_high()  # release accepted
    clock.now += 0.003
    pin.drive_low()  # bounce 3 ms after the release: ignored
    clock.now += 0.003
    pin.drive_high()
    assert sink.events == [ButtonEvent(0, Button.RIGHT, at=ANY)]
    pad.close()


def test_tap_shorter_than_the_bounce_window_still_counts_the_next_press(clock, mock_pins):
    pad, sink = make_pad(mock_pins, clock=clock)
    pin = mock_pins.pin(22)
    pin.drive_low()
    clock.now += 0.01
    pin.drive_high()  # release inside the window: ignored, we think it is still down
    clock.now += 0.5
    pin.drive_low()
    assert sink.events == [ButtonEvent(0, Button.OK, at=ANY)] * 2
    release_and_close(pad, mock_pins)


# ---------------------------------------------------------------- lifecycle and factories


def test_close_releases_the_pins_and_stops_events(mock_pins):
    pad, sink = make_pad(mock_pins)
    pad.close()
    mock_pins.pin(17).drive_low()
    assert sink.events == []
    again, sink2 = make_pad(mock_pins)  # the pins are free again
    mock_pins.pin(17).drive_high()
    mock_pins.pin(17).drive_low()
    assert sink2.events == [ButtonEvent(0, Button.LEFT, at=ANY)]
    release_and_close(again, mock_pins)


def test_pin_already_in_use_fails_and_frees_what_was_built(mock_pins):
    from gpiozero.exc import GPIOPinInUse

    from golfbox.hal.base import HardwareSetupError

    other = gpiozero.Button("GPIO22", pin_factory=mock_pins)
    with pytest.raises(HardwareSetupError, match=r"^seats\[0\]\.buttons\.ok GPIO 22: in use \(") as info:
        GpioPad({0: SEAT0}, pin_factory=mock_pins)
    assert isinstance(info.value.__cause__, GPIOPinInUse)
    other.close()
    pad, _ = make_pad(mock_pins)  # GPIO17 and 27, built before the failure, were released
    pad.close()


def test_pin_factory_by_name():
    assert isinstance(pin_factory_by_name("mock"), MockFactory)
    from gpiozero.exc import BadPinFactory

    with pytest.raises(BadPinFactory, match="'nonsense'"):
        pin_factory_by_name("nonsense")


def test_build_hardware_with_gpio_seats_uses_the_environments_factory(mock_pins):
    from golfbox.hal.build import build_hardware
    from golfbox.hal.config import parse_config

    config = parse_config({"gpio": {"hold_time": 0.1}, "seats": [
        {"backend": "gpio", "buttons": {"left": 17, "right": 27, "ok": 22, "back": 4},
         "display": {"driver": "sim"}}]})
    sink = Recorder()
    hardware = build_hardware(config, sink, clock=ManualClock(7.0))
    mock_pins.pin(4).drive_low()
    sink.wait_for(2)
    assert [str(e) for e in sink.events] == ["seat 1 ✕ pressed", "seat 1 ✕ held"]
    assert [e.at for e in sink.events] == [7.0, 7.0]  # stamped on the clock it was built with
    mock_pins.pin(4).drive_high()
    hardware.close()


def test_a_pin_in_use_is_said_so_even_after_gpiozero_fell_back_to_another_driver():
    """A Pi without lgpio falls back to RPi.GPIO: a pin held by an overlay is still "in
    use", not "could load no pin driver", and no driver at all says it needs a Pi."""
    from gpiozero.exc import BadPinFactory, GPIOPinInUse

    from golfbox.hal.gpio import GpioSetupError, why_gpio_failed

    fell_back = ("lgpio: No module named 'lgpio'",)
    error = GpioSetupError("seats[0].buttons.ok", 22, GPIOPinInUse("pin GPIO22 is already in use"),
                           fell_back)
    assert str(error) == ("seats[0].buttons.ok GPIO 22: in use (pin GPIO22 is already in use); "
                          "`gpioinfo` names what holds it")
    assert why_gpio_failed(BadPinFactory("Unable to load any default pin factory!")).startswith(
        "gpiozero found no pin driver here (this needs a Raspberry Pi")


def test_a_hold_sent_late_still_comes_before_the_next_press(mock_pins):
    """HELD was built and posted after the hold's timer let go of the button's lock: its
    thread held up there (a busy Pi, the interpreter lock) let the button be let go and
    pressed again first, and the table got PRESSED, PRESSED, HELD: a long press taken
    for the second, short one (✕: "knock?"). The hold's thread is held up here by the
    pad's clock, which that thread calls to stamp the HELD."""
    now = ManualClock(1000.0)
    stamping, go_on = threading.Event(), threading.Event()

    def clock():
        if threading.current_thread().name.startswith("hold seat"):
            stamping.set()
            go_on.wait(5)
        return now()

    pad, sink = make_pad(mock_pins, clock=clock, hold_time=0.05)
    pin = mock_pins.pin(4)
    pin.drive_low()
    assert stamping.wait(2)  # held long enough: its HELD is being made

    def let_go_and_press_again():  # gpiozero's thread, as the finger comes back
        now.advance(0.1)
        pin.drive_high()
        now.advance(0.1)
        pin.drive_low()

    finger = threading.Thread(target=let_go_and_press_again)
    finger.start()
    finger.join(0.5)  # the second press, if nothing makes it wait for the HELD
    go_on.set()
    finger.join(2)
    sink.wait_for(4)
    pin.drive_high()
    assert [e.kind for e in sink.events[:3]] == [EventKind.PRESSED, EventKind.HELD, EventKind.PRESSED]
    pad.close()


# ---------------------------------------------------------------- faulty buttons


def pad_said(caplog) -> list[str]:
    """What the pad logged, but its DEBUG lines (a line a button event)."""
    return [r.getMessage() for r in caplog.records if r.name == "golfbox.hal.gpio"
            and r.levelname != "DEBUG"]


def test_a_button_down_from_power_on_is_said_once_and_works_once_let_go(mock_pins, closed_switch,
                                                                      caplog):
    """A cup on ●, or a shorted switch: no edge ever comes, so nothing else would tell
    staff why that button does nothing. The table goes on; the rest of the pad plays."""
    closed_switch(22)  # down before the pad is set up
    with caplog.at_level("INFO", logger="golfbox.hal.gpio"):
        pad, sink = make_pad(mock_pins, hold_time=0.05)
        time.sleep(0.15)  # three hold_times: no HELD for a press nobody saw begin
        mock_pins.pin(27).drive_low()  # the same seat's ▶ still plays
        mock_pins.pin(27).drive_high()
        time.sleep(0.05)
        mock_pins.pin(22).drive_high()  # the cup is lifted
        time.sleep(0.05)
        mock_pins.pin(22).drive_low()
    assert pad_said(caplog) == ["seat 1 ● (GPIO22) is down before any press: held down (something on it?) "
                    "or shorted; it does nothing until it is let go",
                    "seat 1 ● (GPIO22) let go: it works again"]
    assert [str(e) for e in sink.events] == ["seat 1 ▶ pressed", "seat 1 ● pressed"]
    assert pad.down() == {(0, Button.OK)}  # what check-hardware asks
    release_and_close(pad, mock_pins)


def test_a_button_stuck_mid_match_acts_once_and_is_said_once_then_let_go(mock_pins, caplog):
    """Stuck for 5 minutes (here 0.3 s, stuck_after 0.1 s): one PRESSED and one HELD, no
    repeat; the other buttons play; the log names it once, and its letting go."""
    seat1 = {Button.LEFT: 5, Button.RIGHT: 6, Button.OK: 13, Button.BACK: 19}
    with caplog.at_level("INFO", logger="golfbox.hal.gpio"):
        pad, sink = make_pad(mock_pins, hold_time=0.03, stuck_after=0.1, seats={0: SEAT0, 1: seat1})
        mock_pins.pin(4).drive_low()  # seat 1's ✕ sticks
        time.sleep(0.3)
        for other in (17, 6):  # seat 1's ◀ and seat 2's ▶ still play
            mock_pins.pin(other).drive_low()
            mock_pins.pin(other).drive_high()
        mock_pins.pin(4).drive_high()  # freed
        time.sleep(0.05)
        mock_pins.pin(4).drive_low()
    assert pad_said(caplog) == ["seat 1 ✕ (GPIO4) has been down for 0.1 s: stuck, or something on it? "
                    "It does nothing more until let go; the rest of the table plays on",
                    "seat 1 ✕ (GPIO4) let go: it works again"]
    assert [str(e) for e in sink.events] == ["seat 1 ✕ pressed", "seat 1 ✕ held", "seat 1 ◀ pressed",
                                             "seat 2 ▶ pressed", "seat 1 ✕ pressed"]
    release_and_close(pad, mock_pins)


def test_a_press_let_go_before_stuck_after_is_not_said(mock_pins, caplog):
    with caplog.at_level("INFO", logger="golfbox.hal.gpio"):
        pad, sink = make_pad(mock_pins, hold_time=0.03, stuck_after=0.2)
        tap(mock_pins.pin(22), 0.1, then=0.3)  # held, let go before 0.2 s: a long press
    assert [r for r in caplog.records if r.levelname != "DEBUG"] == []
    assert [str(e) for e in sink.events] == ["seat 1 ● pressed", "seat 1 ● held"]
    pad.close()
