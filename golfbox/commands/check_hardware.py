"""``golfbox check-hardware``: bring-up of a freshly wired table.

Shows a test pattern with the seat number on every display, reports each
display that does not answer (by name and bus), then prints every button
event ("seat 2 ▶ pressed") and echoes it on that seat's display, until Ctrl-C
or ``--seconds``. At the end it lists the buttons never pressed (and which of them
were down all along: shorted, or held down). On a Raspberry Pi it also says
whether the supply held (the kernel's under-voltage alarm: at the start, at each
change, and at the end). Exit status: 0 when every display answered and the
supply held, 1 when not, 2 for a bad config.
The config is the table's own (/etc/golfbox/config.toml), as for ``golfbox run``;
where there is none (a laptop) everything is simulated, to see the output.

While the table runs on that config (its journal, as ``golfbox run`` finds it, is
held) it is refused, naming the process, exit status 2, before any part is touched;
while it checks, it holds that journal, so a table started meanwhile is refused.
"""

from __future__ import annotations

import argparse
import math
import os
import queue
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from golfbox.commands import output
from golfbox.commands.run import DEFAULT_CONFIG, journal_path
from golfbox.hal.base import Button, ButtonEvent, Display, HardwareSetupError, LinkEvent
from golfbox.hal.config import ConfigError, DisplayConfig, HardwareConfig, load_config, sim_config
from golfbox.hal.power import ADVICE, find_alarm, is_low, sysfs_root
from golfbox.hal.resilient import ResilientDisplay
from golfbox.table.journal import JournalError, taken
from golfbox.table.timers import Timers


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", default=DEFAULT_CONFIG, metavar="FILE",  # a str: not "."
                        help=f"hardware config (TOML); default {DEFAULT_CONFIG} as for run, "
                             "and without it every seat simulated")
    parser.add_argument("--seconds", type=float, metavar="N",
                        help="stop after N seconds (default: run until Ctrl-C)")


def run(args: argparse.Namespace) -> int:
    from golfbox.commands import UsageError, config_usage_error  # here: cli imports this lazily too

    if args.seconds is not None and not math.isfinite(args.seconds):  # float() takes "nan"
        raise UsageError(f"--seconds: {args.seconds:g} is not a number of seconds")
    if args.seconds is not None and args.seconds < 0:
        raise UsageError(f"--seconds: {args.seconds:g} is negative")
    # A laptop; not a dangling link (a partition not mounted), which run refuses too.
    if args.config == DEFAULT_CONFIG and not os.path.lexists(DEFAULT_CONFIG):
        config = sim_config()
        output(f"no config at {DEFAULT_CONFIG}: checking the simulated backend "
               "(4 seats, shared display)")
    else:
        try:
            config = load_config(args.config)
        except ConfigError as exc:
            raise config_usage_error(args.config, exc) from None

    if config.path is None:  # simulated: no hardware another program could hold
        return _check(config, args.seconds)
    # A table running on this config holds its journal, and drives these displays and
    # ports: nothing locks an I2C bus, so the two would draw over each other's frames.
    # Held while checking, so the service started meanwhile is refused, not let in.
    journal = journal_path(None, config, laptop=False)
    try:
        with taken(journal) as cannot:
            if cannot:
                output(f"cannot tell whether the table is running (journal {journal}: {cannot}; "
                       "sudo -u golfbox can tell): stop it first (sudo systemctl stop golfbox)")
            return _check(config, args.seconds)
    except JournalError as exc:
        raise UsageError(f"the table is running: {exc}") from None


def _check(config: HardwareConfig, seconds: float | None) -> int:
    from golfbox.commands import UsageError
    from golfbox.hal.build import build_hardware

    events: queue.Queue[ButtonEvent | LinkEvent] = queue.Queue()
    try:
        hardware = build_hardware(config, events.put)
    except HardwareSetupError as exc:  # a missing package, a pin it cannot have: one line, as run says it
        raise UsageError(str(exc)) from None
    except Exception as exc:  # anything else: say so and stop
        print(f"could not set up the hardware: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1

    try:
        _describe_wiring(config)
        for warning in hardware.mux_warnings:
            output(f"WARNING: {warning}")
        targets = _targets(hardware, config)
        for target in targets:
            target.show()
        _report_displays(targets)
        supply = _Supply(sysfs_root())
        _drain_link_events(events)
        seen: set[tuple[int, Button]] = set()
        try:
            output("press buttons (Ctrl-C to stop)" if seconds is None
                   else f"press buttons for {seconds:g} s")
            _watch(hardware, events, seconds, targets, seen, supply)
        except KeyboardInterrupt:  # the way to stop it: still print the summary
            output("")
        _report_buttons(config, seen, _down(hardware))
        supply.report()
        # Judged at the end: a display may have come back (or gone) while we watched.
        answered = all(getattr(t.display, "healthy", True) for t in targets)
    finally:
        hardware.close()
    return 0 if answered and not supply.rises else 1


@dataclass
class _Target:
    """A display under test, with what to call it."""

    display: Display
    config: DisplayConfig | None
    label: str  # drawn on it: "SEAT 2", "TABLE"
    seat: int | None = None

    @property
    def name(self) -> str:
        return self.config.describe() if self.config else self.display.name

    def show(self, status: str = "") -> None:
        self.display.show(test_pattern(self.display, self.label, self.config, status))


def _targets(hardware, config: HardwareConfig) -> list[_Target]:
    configs = {seat.index: seat.display for seat in config.seats}
    found = [_Target(hardware.seat_displays[i], configs.get(i), f"SEAT {i + 1}", i)
             for i in sorted(hardware.seat_displays)]
    if hardware.shared_display is not None:
        found.append(_Target(hardware.shared_display, config.shared_display, "TABLE"))
    return found


def _describe_wiring(config: HardwareConfig) -> None:
    for seat in config.seats:
        if seat.backend == "gpio":
            pins = "  ".join(f"{b.symbol} GPIO{pin}" for b, pin in seat.buttons.items())
            parts = [f"buttons {pins}"]
        elif seat.backend == "serial":
            parts = [f"seat node {seat.node} on USB"]
        else:
            parts = ["simulated buttons"]
        if seat.display is not None:
            parts.append(f"display {seat.display.location()}")
        output(f"seat {seat.index + 1}: " + ", ".join(parts))
    if config.shared_display is not None:
        output(f"table: {config.shared_display.describe()}")


def _report_displays(targets: list[_Target]) -> bool:
    all_ok = True
    for target in targets:
        if not getattr(target.display, "healthy", True):
            all_ok = False
            output(f"{target.name}: NOT ANSWERING: {target.display.last_error}")
        elif target.config is not None and target.config.spi is not None:
            # SPI has no acknowledge: a missing or miswired panel takes the bytes all the same.
            output(f"{target.name}: test pattern sent; SPI has no acknowledge, check it by eye")
        else:
            output(f"{target.name}: OK, test pattern shown")
    return all_ok


def _drain_link_events(events: queue.Queue) -> None:
    """The failures were just reported by name; keep only button events."""
    kept = []
    while True:
        try:
            event = events.get_nowait()
        except queue.Empty:
            break
        if isinstance(event, ButtonEvent):
            kept.append(event)
    for event in kept:
        events.put(event)


class _Supply:
    """The Pi's supply through the check: the kernel's under-voltage alarm, said at the
    start, at each change and at the end. Read once a second: the alarm stays up for a
    2 s poll of the driver at least, so no sag goes unseen."""

    EVERY = 1.0

    def __init__(self, sysfs: Path) -> None:
        self.alarm = find_alarm(sysfs)
        self.low = False
        self.rises = 0  # the alarm seen up, at the start or rising since
        self.next_read = time.monotonic() + self.EVERY
        if self.alarm is None:  # a laptop: nothing to read, and nothing wrong
            output("power: not checked (no rpi_volt under-voltage sensor: not a Raspberry Pi)")
        elif self._read():
            output(f"power: UNDER-VOLTAGE now: {ADVICE}")
        else:
            output("power: OK, no under-voltage now")

    def _read(self) -> bool:
        try:
            low = is_low(self.alarm.read_bytes())
        except (OSError, ValueError) as exc:
            output(f"power: cannot read {self.alarm}: {exc}; not checked from here on")
            self.alarm = None
            return False
        if low and not self.low:
            self.rises += 1
        self.low = low
        return low

    def poll(self) -> None:
        if self.alarm is None or time.monotonic() < self.next_read:
            return
        self.next_read = time.monotonic() + self.EVERY
        was_low = self.low
        if self._read() != was_low and self.alarm is not None:
            output(f"power: UNDER-VOLTAGE: seat nodes may drop off USB, displays fail; {ADVICE}"
                   if self.low else "power: voltage normal again")

    def report(self) -> None:
        if self.alarm is None:
            return
        if self.rises:
            output(f"power: under-voltage {self.rises} time{'s' if self.rises > 1 else ''} "
                   f"during the check: {ADVICE}")
        else:
            output("power: no under-voltage during the check")


def _watch(hardware, events: queue.Queue, seconds: float | None,
           targets: list[_Target], seen: set[tuple[int, Button]], supply: _Supply) -> None:
    """Print events until ``seconds`` pass (or forever); note each button seen."""
    by_seat = {t.seat: t for t in targets if t.seat is not None}
    timers = Timers()  # a panel that failed is tried again on these (ResilientDisplay)
    for display in hardware.displays():
        if isinstance(display, ResilientDisplay):
            display.call_at = timers.call_at
    deadline = None if seconds is None else time.monotonic() + seconds
    while deadline is None or time.monotonic() < deadline:
        supply.poll()
        wait = 0.1 if deadline is None else max(0.0, min(0.1, deadline - time.monotonic()))
        try:
            event = events.get(timeout=wait)
        except queue.Empty:
            while timers.fire_due(time.monotonic()):
                pass
            continue
        if isinstance(event, LinkEvent):
            output(event.reason or f"seat {event.seat}: link {'up' if event.connected else 'down'}")
            continue
        output(str(event))
        seen.add((event.seat, event.button))
        if event.seat in by_seat:
            by_seat[event.seat].show(f"{event.button.value} {event.kind.value}")


def _down(hardware) -> set[tuple[int, Button]]:
    """The buttons that read pressed now, of the pads that can tell (GPIO, seat nodes)."""
    return set().union(*(pad.down() for pad in hardware.pads if hasattr(pad, "down")))


def _report_buttons(config: HardwareConfig, seen: set[tuple[int, Button]],
                    down: set[tuple[int, Button]]) -> None:
    """Every seat's four buttons, whatever drives them: GPIO, a seat node, the simulator.
    One never pressed but down now was down all along: shorted, or something on it,
    not the open circuit "not pressed" would send the builder looking for."""
    missing = []
    for seat in config.seats:
        for button in Button:
            if (seat.index, button) in seen:
                continue
            where = f"GPIO{seat.buttons[button]}" if button in seat.buttons else f"{seat.backend} seat"
            if (seat.index, button) in down:
                where += ": down all along, held down or shorted"
            missing.append(f"seat {seat.index + 1} {button.symbol} ({button.value}, {where})")
    if missing:
        output("not pressed: " + ", ".join(missing))
    else:
        output("every button was pressed")


def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    try:
        return ImageFont.load_default(size=size)
    except (TypeError, OSError):  # Pillow without FreeType: the small bitmap font
        return ImageFont.load_default()


def test_pattern(display: Display, label: str, config: DisplayConfig | None = None,
                 status: str = "") -> Image.Image:
    """A frame that shows the edges are right, which seat this is, and (greyscale) the levels."""
    width, height = display.size
    image = Image.new("L", (width, height), 0)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width - 1, height - 1), outline=255)  # all four edges lit
    for x, y in ((2, 2), (width - 6, 2), (2, height - 6), (width - 6, height - 6)):
        draw.rectangle((x, y, x + 3, y + 3), fill=255)  # corners: catches column offsets
    draw.text((8, 4), label, fill=255, font=_font(20))
    detail = config.driver if config else display.name
    draw.text((8, height - 26), status or detail, fill=255, font=_font(10))
    if display.mode != "1" and width >= 64:
        step = (width - 16) // 16
        for level in range(16):  # the 16 grey levels of an SSD1322
            x = 8 + level * step
            draw.rectangle((x, height - 12, x + step - 2, height - 4), fill=level * 17)
    return image if display.mode == "L" else image.convert(display.mode)
