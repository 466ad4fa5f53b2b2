"""Debounced buttons: a level counts once it has held for DEBOUNCE_MS; a long press also sends HELD.

A hold is timed from the press's tick (the pin going down to stay), not from the
debounce's acceptance 20 ms later: a wired seat's hold starts at the press's edge
(golfbox/hal/gpio.py), so the same hold_time is the same long press on both."""

try:
    from time import ticks_diff
except ImportError:  # CPython, for reading the code side by side with the host

    def ticks_diff(a, b):
        return a - b


PRESSED = 0  # protocol.KIND_CODES
HELD = 1


class _Button:
    __slots__ = ("pin", "raw", "changed_at", "down", "pressed_at", "held_sent")

    def __init__(self, pin, now):
        self.pin = pin
        self.raw = False
        self.changed_at = now
        self.down = False
        self.pressed_at = now
        self.held_sent = False


class Buttons:
    """Samples active-low pins (pressed = pulled to GND); call sample() every few ms."""

    def __init__(self, pins, now, debounce_ms=20, hold_ms=800):
        self.buttons = [_Button(pin, now) for pin in pins]
        self.debounce_ms = debounce_ms
        self.hold_ms = hold_ms  # the host may set it (HOLD): read at every sample

    def sample(self, now):
        """Returns [(button index, PRESSED or HELD, tick)] that happened since the last call.

        A press's tick is when the level went down to stay (the last bounce), not when
        the debounce accepted it: the moment the player pressed, for the host's table."""
        events = []
        for index, button in enumerate(self.buttons):
            raw = button.pin.value() == 0
            if raw != button.raw:  # bouncing or a real change: start timing again
                button.raw = raw
                button.changed_at = now
            elif raw != button.down and ticks_diff(now, button.changed_at) >= self.debounce_ms:
                button.down = raw
                if raw:
                    button.pressed_at = button.changed_at  # HELD at the press + hold_ms
                    button.held_sent = False
                    events.append((index, PRESSED, button.changed_at))
            if button.down and not button.held_sent and ticks_diff(now, button.pressed_at) >= self.hold_ms:
                button.held_sent = True
                events.append((index, HELD, now))
        return events

    def down_bits(self):
        bits = 0
        for index, button in enumerate(self.buttons):
            if button.down:
                bits |= 1 << index
        return bits
