"""Seat buttons wired straight to the Pi's GPIO, through gpiozero.

Each button is a gpiozero ``Button`` (internal pull-up, pressed = pin low).
What the players get, decided here once:

* PRESSED is sent the moment a press is accepted (instant feedback, no
  waiting to learn whether it will become a long press);
* HELD is sent once more when the same press has lasted ``hold_time``;
* releasing sends nothing. So a long press is PRESSED then HELD, never a
  PRESSED on release; the table gives HELD its own meaning on top.

Contact bounce: gpiozero passes ``bounce_time`` to the pin driver (lgpio
filters in the kernel), but its MockPin, and some drivers, do not filter at
all, so every press also goes through ``Debouncer``: an edge closer than
``bounce_time`` to the last accepted edge of that button is ignored.

gpiozero calls back on its own threads: the callbacks here only build an
event, stamped with the pad's clock at that moment, and hand it to the sink
(a queue's ``put``); no game logic runs there.
gpiozero itself is imported when a pad is built, not before.
"""

from __future__ import annotations

import logging
import threading
import time
import warnings
from typing import Any, Callable, Mapping

from golfbox.hal.base import Button, ButtonEvent, EventKind, EventSink, HardwareSetupError

log = logging.getLogger(__name__)


class Debouncer:
    """Accepts an edge only if ``bounce_time`` has passed since the last accepted one."""

    def __init__(self, bounce_time: float, clock: Callable[[], float] = time.monotonic):
        self.bounce_time = bounce_time
        self._clock = clock
        self._last: float | None = None

    def accept(self) -> bool:
        now = self._clock()
        if self._last is not None and now - self._last < self.bounce_time:
            return False
        self._last = now
        return True


class _SeatButton:
    """One physical button: debounced edges in, ButtonEvents out."""

    def __init__(self, seat: int, button: Button, debouncer: Debouncer,
                 post: Callable[[ButtonEvent], None], clock: Callable[[], float]):
        self.seat = seat
        self.button = button
        self._debouncer = debouncer
        self._clock = clock
        self._post = post
        self._down = False
        self._held_sent = False
        self._lock = threading.Lock()  # press/release and hold come from different threads

    def pressed(self) -> None:
        with self._lock:
            if not self._debouncer.accept():
                return
            # A press edge outside the bounce window is a new press even if we never
            # saw the release (a tap shorter than bounce_time).
            self._down = True
            self._held_sent = False
        self._post(ButtonEvent(self.seat, self.button, EventKind.PRESSED, at=self._clock()))

    def released(self) -> None:
        with self._lock:
            if self._debouncer.accept():
                self._down = False

    def held(self) -> None:
        with self._lock:
            if not self._down or self._held_sent:
                return
            self._held_sent = True
        self._post(ButtonEvent(self.seat, self.button, EventKind.HELD, at=self._clock()))


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

    if isinstance(exc, BadPinFactory) and tried:
        return (f"gpiozero could load no pin driver ({'; '.join(tried)}): on a Pi, lgpio needs "
                "python3-lgpio and a user in the gpio group (hardware/SETUP.md, steps 3-4); off "
                "a Pi, try it with mock pins: GPIOZERO_PIN_FACTORY=mock")
    if isinstance(exc, BadPinFactory):
        return ("gpiozero found no pin driver here (this needs a Raspberry Pi; to try it with "
                "mock pins: GPIOZERO_PIN_FACTORY=mock)")
    if isinstance(exc, ImportError) and exc.name:
        return f"needs the Python module {exc.name}, which is not installed (hardware/SETUP.md, step 4)"
    # lgpio says "GPIO busy" when a kernel driver (an overlay in config.txt) holds the line.
    if isinstance(exc, GPIOPinInUse) or "busy" in str(exc).lower():
        return f"in use ({exc}); `gpioinfo` names what holds it"
    return f"{type(exc).__name__}: {exc}"


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
                 bounce_time: float = 0.02, hold_time: float = 0.8,
                 pin_factory: Any = None, clock: Callable[[], float] = time.monotonic):
        from gpiozero import Button as GpioButton  # lazily: the laptop path never needs it

        self.clock = clock
        self._sink: EventSink | None = None
        self._devices: list[Any] = []
        self.buttons: dict[tuple[int, Button], _SeatButton] = {}
        try:
            for seat, pins in seats.items():
                for button, pin in pins.items():
                    logic = _SeatButton(seat, button, Debouncer(bounce_time, clock), self._post, clock)
                    try:
                        device = GpioButton(
                            f"GPIO{pin}", pull_up=True, bounce_time=bounce_time or None,
                            hold_time=hold_time, hold_repeat=False, pin_factory=pin_factory)
                    except Exception as exc:
                        raise GpioSetupError(f"seats[{seat}].buttons.{button.value}", pin, exc) from exc
                    device.when_pressed = logic.pressed
                    device.when_released = logic.released
                    device.when_held = logic.held
                    self._devices.append(device)
                    self.buttons[(seat, button)] = logic
        except Exception:
            self.close()
            raise

    def start(self, sink: EventSink) -> None:
        self._sink = sink

    def close(self) -> None:
        self._sink = None
        for device in self._devices:
            device.close()
        self._devices.clear()

    def _post(self, event: ButtonEvent) -> None:
        sink = self._sink
        if sink is not None:  # presses before start() or after close() go nowhere
            sink(event)
        log.debug("%s", event)
