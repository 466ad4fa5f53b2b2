"""Seat buttons wired straight to the Pi's GPIO, through gpiozero.

Each button is a gpiozero ``DigitalInputDevice`` (internal pull-up, pressed =
pin low). What the players get, decided here once:

* PRESSED is sent the moment a press is accepted (instant feedback, no
  waiting to learn whether it will become a long press);
* HELD is sent once more when the same press has lasted ``hold_time``;
* releasing sends nothing. So a long press is PRESSED then HELD, never a
  PRESSED on release; the table gives HELD its own meaning on top.
* a button still down after ``STUCK_AFTER`` (60 s), or down before any press,
  sends nothing more but is logged once by seat, button and pin (stuck, or a
  cup on it), and its letting go too.

HELD is timed here, by a ``threading.Timer`` started by each press and
cancelled by its release, not by gpiozero's ``Button``: its hold thread, one
per button, wakes every 0.1 s for ever whether or not anything is pressed
(an idle 4-seat table: 16 threads, 160-390 wakeups a second, all night). So
no thread of ours lives while nothing is pressed (bench/gpio_idle.py).

Contact bounce: gpiozero passes ``bounce_time`` to the pin driver (lgpio
filters in the kernel), but its MockPin, and some drivers, do not filter at
all, so every press also goes through ``Debouncer``: an edge closer than
``bounce_time`` to any edge before it of that button is ignored. A hold
is sent only if the pin is still low when ``hold_time`` comes (a tap shorter
than ``bounce_time`` had its release ignored).

gpiozero calls back on its own threads, and a hold on its timer's: the
callbacks here only build an event, stamped with the pad's clock at that
moment, and hand it to the sink (a queue's ``put``); no game logic runs there.
gpiozero itself is imported when a pad is built, not before.
"""

from __future__ import annotations

import logging
import os
import threading
import time
import warnings
from typing import Any, Callable, Mapping

from golfbox.hal.base import (DEFAULT_HOLD_TIME, LET_GO, STUCK, STUCK_AFTER, Button, ButtonEvent,
                              EventKind, EventSink, HardwareSetupError)

log = logging.getLogger(__name__)


class Debouncer:
    """Accepts an edge only after ``bounce_time`` with no edge at all before it.

    Every edge, taken or not, starts the wait again: a worn contact chattering for
    50 ms is one press, where a window counted from the last accepted edge took a
    new one every ``bounce_time`` (3 to 6 presses from one), and a wet one at 200 Hz
    only gets through in its rare quiet gaps."""

    def __init__(self, bounce_time: float, clock: Callable[[], float] = time.monotonic):
        self.bounce_time = bounce_time
        self._clock = clock
        self._last: float | None = None  # the last edge seen, accepted or not

    def accept(self) -> bool:
        now = self._clock()
        quiet = self._last is None or now - self._last >= self.bounce_time
        self._last = now
        return quiet


class _SeatButton:
    """One physical button: debounced edges in, ButtonEvents out."""

    def __init__(self, seat: int, button: Button, pin: int, device: Any, debouncer: Debouncer,
                 hold_time: float, post: Callable[[ButtonEvent], None],
                 clock: Callable[[], float], stuck_after: float = STUCK_AFTER):
        self.seat = seat
        self.button = button
        self.name = f"seat {seat + 1} {button.symbol} (GPIO{pin})"
        self._device = device
        self._debouncer = debouncer
        self._hold_time = hold_time
        self._stuck_after = max(stuck_after, hold_time)
        self._clock = clock
        self._post = post
        # This press's timer, until it is let go: its hold, then its being stuck.
        self._hold: threading.Timer | None = None
        self._presses = 0  # which press a firing timer belongs to
        self._closed = False
        self._lock = threading.Lock()  # press/release and hold come from different threads
        # Down before anyone pressed it: a cup on it, or a short. No edge will come until
        # it is let go, so nothing else would tell staff why this button does nothing.
        self._stuck = device.is_active  # said so; its letting go is said too
        if self._stuck:
            log.warning("%s is down before any press: held down (something on it?) or "
                        "shorted; it does nothing until it is let go", self.name)
        device.when_activated = self.pressed
        device.when_deactivated = self.released

    @property
    def is_down(self) -> bool:
        return bool(self._device.is_active)

    def pressed(self) -> None:
        with self._lock:
            if self._closed or not self._debouncer.accept():
                return
            # A press edge outside the bounce window is a new press even if we never
            # saw the release (a tap shorter than bounce_time).
            self._stop_hold()
            self._presses += 1
            hold = self._timer(self._hold_time, self.held)
        self._post(ButtonEvent(self.seat, self.button, EventKind.PRESSED, at=self._clock()))
        # Started after the press is posted: a thread takes ~0.1 ms to start. One cancelled
        # meanwhile (a release) ends at once.
        hold.start()

    def released(self) -> None:
        with self._lock:
            if self._debouncer.accept():
                self._stop_hold()
                if self._stuck:
                    self._stuck = False
                    log.info("%s " + LET_GO, self.name)

    def held(self, press: int) -> None:
        with self._lock:
            if self._hold is None or press != self._presses:  # let go or pressed again as it fired
                return
            self._hold = None
            if not self._device.is_active:  # its release was taken for bounce
                return
            # Posted under the lock (a queue's put: it never waits): posted after it, a
            # hold's thread held up there let the next press's PRESSED go first, and the
            # table took this long press for that short one.
            self._post(ButtonEvent(self.seat, self.button, EventKind.HELD, at=self._clock()))
            # Still down long after: one thread, asleep until then, while it stays down.
            self._timer(self._stuck_after - self._hold_time, self.stuck).start()

    def stuck(self, press: int) -> None:
        """A press that has lasted ``stuck_after``: it acted once (PRESSED, HELD) and acts
        no more until let go, but staff should hear which button it is."""
        with self._lock:
            if self._hold is None or press != self._presses:
                return
            self._hold = None
            if self._device.is_active and not self._stuck:
                self._stuck = True
                log.warning("%s " + STUCK, self.name, self._stuck_after)

    def close(self) -> None:
        """Cancels a pending hold and waits for its thread: none is left behind."""
        with self._lock:
            self._closed = True
            hold, self._hold = self._hold, None
        if hold is not None:
            hold.cancel()
            if hold.is_alive() and hold is not threading.current_thread():
                hold.join()

    def _timer(self, delay: float, then: Callable[[int], None]) -> threading.Timer:
        """This press's next timer (not started): ``then(press)`` after ``delay``."""
        timer = threading.Timer(delay, then, args=(self._presses,))
        timer.name = f"hold seat {self.seat + 1} {self.button.value}"
        timer.daemon = True  # as gpiozero's threads: a pad never closed does not block exit
        self._hold = timer
        return timer

    def _stop_hold(self) -> None:
        if self._hold is not None:
            self._hold.cancel()  # its thread ends at once; held() ignores it if it fired
            self._hold = None


def pin_factory_by_name(name: str) -> Any:
    """A gpiozero pin factory from its registered name ("lgpio", "rpigpio", "mock" …)."""
    from importlib.metadata import entry_points

    from gpiozero.exc import BadPinFactory

    for ep in entry_points(group="gpiozero_pin_factories"):
        if ep.name == name.lower():
            try:
                return ep.load()()
            except Exception as exc:  # its module is missing, or it finds no GPIO chip
                raise HardwareSetupError(f"gpio.pin_factory {name!r}: {why_gpio_failed(exc)}") from exc
    raise BadPinFactory(f"unknown gpiozero pin factory {name!r}")


def why_gpio_failed(exc: Exception, tried: tuple[str, ...] = ()) -> str:
    """What went wrong setting up a pin, in words, for the one line run and check-hardware print.

    ``tried``: gpiozero's reason for each pin driver it fell back from ("lgpio: can not
    open gpiochip"). On a Pi that is the answer (a user not in the gpio group), and
    "this needs a Raspberry Pi" alone would send the builder the wrong way.
    """
    from gpiozero.exc import BadPinFactory, GPIOPinInUse

    if isinstance(exc, BadPinFactory) and tried and any(".lgd-nfy" in why for why in tried):
        # lgpio makes its notify pipe in the working directory as it is imported.
        return (f"gpiozero could load no pin driver ({'; '.join(tried)}): lgpio could not make "
                f"its .lgd-nfy* file in {_working_directory()}: run golfbox from a folder its "
                "user may write (cd /tmp), or set LG_WD to one")
    if isinstance(exc, BadPinFactory) and tried:
        return (f"gpiozero could load no pin driver ({'; '.join(tried)}): on a Pi, lgpio needs "
                "python3-lgpio and a user in the gpio group (hardware/SETUP.md, steps 3-4); off "
                "a Pi, try it with mock pins: GPIOZERO_PIN_FACTORY=mock")
    if isinstance(exc, BadPinFactory):
        return ("gpiozero found no pin driver here (this needs a Raspberry Pi; to try it with "
                "mock pins: GPIOZERO_PIN_FACTORY=mock)")
    if isinstance(exc, ImportError) and exc.name:
        # lgpio is apt's python3-lgpio, which the venv sees (README): name the package to reinstall.
        how = "apt install python3-lgpio: " if exc.name == "lgpio" else ""
        return f"needs the Python module {exc.name}, which is not installed ({how}hardware/SETUP.md, step 4)"
    # lgpio says "GPIO busy" when a kernel driver (an overlay in config.txt) holds the line.
    if isinstance(exc, GPIOPinInUse) or "busy" in str(exc).lower():
        return f"in use ({exc}); `gpioinfo` names what holds it"
    return f"{type(exc).__name__}: {exc}"


def _working_directory() -> str:
    try:
        return os.getcwd()
    except OSError:  # removed since, or not readable
        return "the working directory"


class GpioSetupError(HardwareSetupError):
    """``seats[0].buttons.left GPIO 17: why``: restarting will not free a pin, so exit 2."""

    def __init__(self, key: str, pin: int, cause: Exception, tried: tuple[str, ...] = ()):
        super().__init__(f"{key} GPIO {pin}: {why_gpio_failed(cause, tried)}")
        self.key, self.pin, self.cause = key, pin, cause

    def with_fallbacks(self, notes: list[warnings.WarningMessage]) -> GpioSetupError:
        """The same error, with gpiozero's PinFactoryFallback notes said (if any)."""
        from gpiozero.exc import PinFactoryFallback

        tried = tuple(str(n.message).removeprefix("Falling back from ") for n in notes
                      if isinstance(n.message, PinFactoryFallback))
        return GpioSetupError(self.key, self.pin, self.cause, tried) if tried else self


class GpioPad:
    """The buttons of one or more seats on GPIO: ``{seat: {Button: bcm_pin}}``."""

    def __init__(self, seats: Mapping[int, Mapping[Button, int]], *,
                 bounce_time: float = 0.02, hold_time: float = DEFAULT_HOLD_TIME,
                 pin_factory: Any = None, clock: Callable[[], float] = time.monotonic,
                 keys: Mapping[int, Mapping[Button, str]] | None = None,
                 stuck_after: float = STUCK_AFTER):
        """``keys``: each button's config key for errors, as the config names it
        ('seats[0].buttons.ok (from pinmap.toml)'); by default 'seats[0].buttons.ok'."""
        # lazily: the laptop path never needs it. Not gpiozero's Button: see the docstring.
        from gpiozero import DigitalInputDevice

        self.clock = clock
        self._sink: EventSink | None = None
        self._devices: list[Any] = []
        self.buttons: dict[tuple[int, Button], _SeatButton] = {}
        try:
            for seat, pins in seats.items():
                for button, pin in pins.items():
                    try:
                        device = DigitalInputDevice(
                            f"GPIO{pin}", pull_up=True, bounce_time=bounce_time or None,
                            pin_factory=pin_factory)
                    except Exception as exc:
                        key = (keys or {}).get(seat, {}).get(button, f"seats[{seat}].buttons.{button.value}")
                        raise GpioSetupError(key, pin, exc) from exc
                    self._devices.append(device)
                    self.buttons[(seat, button)] = _SeatButton(
                        seat, button, pin, device, Debouncer(bounce_time, clock), hold_time,
                        self._post, clock, stuck_after)
        except Exception:
            self.close()
            raise

    def start(self, sink: EventSink) -> None:
        self._sink = sink

    def down(self) -> set[tuple[int, Button]]:
        """The buttons whose pin reads pressed now (check-hardware: stuck or shorted)."""
        return {key for key, button in self.buttons.items() if button.is_down}

    def close(self) -> None:
        self._sink = None
        for logic in self.buttons.values():
            logic.close()  # no hold left to read a closed pin
        for device in self._devices:
            device.close()
        self._devices.clear()

    def _post(self, event: ButtonEvent) -> None:
        sink = self._sink
        if sink is not None:  # presses before start() or after close() go nowhere
            sink(event)
        log.debug("%s", event)
