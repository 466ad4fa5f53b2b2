"""Turn a validated HardwareConfig into running pads and displays.

    hardware = build_hardware(load_config(path), events.put)
    hardware.seat_displays[0].show(frame)   # never raises: see resilient.py
    hardware.close()

Pads are started at once and post ButtonEvents into the sink; displays post
LinkEvents into the same sink when they fail or come back. Every gpio and sim
seat display, and the shared one, is wrapped in a ResilientDisplay (whose owner
lends it timers to retry on: table/assemble.py). Serial seats come from
golfbox.hal.serialnode's SerialNodeHub, which owns its links and reports
unplugged nodes itself (their ResilientDisplay only keeps a node's absence from
the table: see _serial_seats).
"""

from __future__ import annotations

import dataclasses
import time
import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from golfbox.configfile import subkey
from golfbox.hal.base import ButtonPad, Display, DisplayError, EventSink
from golfbox.hal.config import DisplayConfig, HardwareConfig, SeatConfig
from golfbox.hal.resilient import ResilientDisplay
from golfbox.hal.shared_display import open_display
from golfbox.hal.sim import SimPad

if TYPE_CHECKING:  # imported when a seat uses a node
    from golfbox.hal.serialnode import SerialNodeHub


@dataclass
class Hardware:
    config: HardwareConfig
    pads: list[ButtonPad] = field(default_factory=list)
    seat_displays: dict[int, Display] = field(default_factory=dict)  # by 0-based seat
    shared_display: Display | None = None
    sim_pad: SimPad | None = None  # the sim seats' pad, to inject presses
    mux_resets: dict[tuple[int, int], Any] = field(default_factory=dict)  # (parent, address) -> MuxReset
    mux_warnings: list[str] = field(default_factory=list)  # a mux whose driver keeps a channel selected
    # How long after PRESSED a seat's pad says HELD, where not gpio.hold_time: node seats',
    # the hub's own dict, kept as each node says its protocol (TableSettings.hold_times).
    hold_times: dict[int, float] = field(default_factory=dict)

    def displays(self) -> list[Display]:
        """Seat displays in seat order, then the shared one."""
        found = [self.seat_displays[i] for i in sorted(self.seat_displays)]
        return found + ([self.shared_display] if self.shared_display else [])

    def close(self) -> None:
        for pad in self.pads:
            pad.close()
        for display in self.displays():
            display.close()
        for reset in self.mux_resets.values():
            reset.close()


def build_hardware(config: HardwareConfig, sink: EventSink, *,
                   pin_factory: Any = None,
                   clock: Callable[[], float] = time.monotonic) -> Hardware:
    """Open every pad and display of ``config``; pads start posting into ``sink``,
    their presses stamped on ``clock`` (the table's: assemble_table's).

    ``pin_factory`` (a gpiozero factory) wins over ``[gpio] pin_factory``, which
    wins over $GPIOZERO_PIN_FACTORY and gpiozero's own choice.
    """
    hardware = Hardware(config=config)
    with warnings.catch_warnings(record=True) as notes:  # gpiozero's, one per pin driver it tried
        warnings.simplefilter("always")
        try:
            _build(hardware, config, sink, pin_factory, clock)
        except BaseException as exc:
            hardware.close()
            from golfbox.hal.gpio import GpioSetupError

            if isinstance(exc, GpioSetupError):  # no pin driver: why each one failed is the answer
                raise exc.with_fallbacks(notes) from exc.cause
            raise  # its one line says what failed: the notes would only bury it
    for note in notes:  # it worked: gpiozero's notes on the drivers it skipped still count
        warnings.warn_explicit(note.message, note.category, note.filename, note.lineno)
    for pad in hardware.pads:
        pad.start(sink)
    return hardware


def _build(hardware: Hardware, config: HardwareConfig, sink: EventSink,
           pin_factory: Any, clock: Callable[[], float]) -> None:
    needs_gpio = any(s.backend == "gpio" for s in config.seats) or any(
        m.reset is not None for m in config.i2c_muxes)
    if needs_gpio and pin_factory is None and config.gpio.pin_factory:
        from golfbox.hal.gpio import pin_factory_by_name

        pin_factory = pin_factory_by_name(config.gpio.pin_factory)
    for index, mux in enumerate(config.i2c_muxes):
        from golfbox.hal.i2cmux import idle_state_warning

        warning = idle_state_warning(index, mux.parent, mux.address)
        if warning:  # the commands say it: run logs it, check-hardware prints it
            hardware.mux_warnings.append(warning)
        if mux.reset is not None:
            from golfbox.hal.gpio import GpioSetupError
            from golfbox.hal.i2cmux import MuxReset

            try:
                reset = MuxReset(mux.reset, pin_factory=pin_factory, clock=clock,
                                 name=f"TCA9548A 0x{mux.address:02X} on I2C{mux.parent}")
            except Exception as exc:  # no pin driver, the pin held by the kernel …
                raise GpioSetupError(subkey(mux.key, "reset"), mux.reset, exc) from exc
            hardware.mux_resets[(mux.parent, mux.address)] = reset

    def resilient(display: Display, seat: int | None, where: DisplayConfig) -> ResilientDisplay:
        reset = None
        if where.i2c is not None and where.i2c.mux is not None:
            reset = hardware.mux_resets.get((where.i2c.parent, where.i2c.mux))
        return ResilientDisplay(display, seat, sink, clock=clock,
                                on_error=reset.on_error if reset else None)

    from golfbox.hal.oled import check_support

    for display_config in config.displays:
        check_support(display_config)  # a missing package stops the start, naming it

    by_backend: dict[str, list[SeatConfig]] = {"gpio": [], "sim": [], "serial": []}
    for seat in config.seats:
        by_backend[seat.backend].append(seat)
        if seat.display is not None:  # serial seats have none here: the hub gives theirs
            display = open_display(seat.display)
            _claim_spi_pins(display, seat.display)
            hardware.seat_displays[seat.index] = resilient(display, seat.index, seat.display)

    if by_backend["gpio"]:
        from golfbox.hal.gpio import GpioPad

        hardware.pads.append(GpioPad(
            {seat.index: seat.buttons for seat in by_backend["gpio"]},
            bounce_time=config.gpio.bounce_time, hold_time=config.gpio.hold_time,
            pin_factory=pin_factory, clock=clock,
            keys={seat.index: seat.button_keys for seat in by_backend["gpio"]}))

    if by_backend["sim"]:
        hardware.sim_pad = SimPad((seat.index for seat in by_backend["sim"]), clock)
        hardware.pads.append(hardware.sim_pad)

    if by_backend["serial"]:
        hub, displays = _serial_seats(config, by_backend["serial"], clock)
        hardware.pads.append(hub)
        hardware.seat_displays.update(displays)
        hardware.hold_times = hub.hold_times

    if config.shared_display is not None:
        shared = open_display(config.shared_display)
        _claim_spi_pins(shared, config.shared_display)
        hardware.shared_display = resilient(shared, None, config.shared_display)


def _claim_spi_pins(display: Display, where: DisplayConfig) -> None:
    """An SPI panel's D/C and RESET are GPIOs luma claims as it opens the bus, which is
    otherwise done by the first frame, once the table runs: opened here, a pin it cannot
    have stops the start with one line, as a button's does (HardwareSetupError)."""
    if where.spi is None:
        return
    try:
        display.device  # LumaDisplay: opened now
    except DisplayError:  # no /dev/spidev…: reported as any failing display, tried again
        pass


def _hub_reports(event) -> None:
    """A node display's wrapper reports nothing: the hub posts the node's comings and
    goings, and its panel's (assemble_table lends a wrapper without a sink the table's)."""


def _serial_seats(config: HardwareConfig, seats: list[SeatConfig],
                  clock: Callable[[], float]) -> tuple[SerialNodeHub, dict[int, Display]]:
    """Seat nodes through golfbox.hal.serialnode (imported only when a seat uses one).

    One SerialNodeHub is the pad of every node seat and gives each its display.
    The hub posts its own LinkEvents (node unplugged / back) and keeps the latest
    frame for a node that is away, raising DisplayError meanwhile; the wrapper
    only keeps that from reaching the table, with no backoff (show() is cheap)
    and no second LinkEvent.
    """
    from golfbox.hal.serialnode import SerialNodeConfig, SerialNodeHub

    table = {**config.seat_nodes, "seats": {str(seat.index + 1): seat.node for seat in seats}}
    nodes = SerialNodeConfig.from_mapping(table, where="seat_nodes")
    # One long press for every seat: the hub tells each node gpio.hold_time.
    hub = SerialNodeHub(dataclasses.replace(nodes, hold_time=config.gpio.hold_time), clock)
    for seat in seats:
        if seat.contrast is not None:  # sent as each session with its node starts
            hub.display(seat.index).set_contrast(seat.contrast)
    displays: dict[int, Display] = {
        seat.index: ResilientDisplay(hub.display(seat.index), seat.index, _hub_reports,
                                     clock=clock, first_retry=0.0, max_retry=0.0)
        for seat in seats}
    return hub, displays
