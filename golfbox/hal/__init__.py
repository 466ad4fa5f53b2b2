"""Hardware abstraction: button pads yield events, displays take images.

Backends (gpio, oled, serial seat nodes, sim) live in their own modules and
import their hardware packages lazily, so the laptop path never needs them.
"""

from golfbox.hal.base import (
    Button,
    ButtonEvent,
    ButtonPad,
    Display,
    DisplayError,
    EventKind,
    LinkEvent,
)

__all__ = ["Button", "ButtonEvent", "ButtonPad", "Display", "DisplayError", "EventKind", "LinkEvent"]
