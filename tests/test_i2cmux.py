"""TCA9548A channels found in a fake sysfs tree, and the RESET pulse on a stuck bus (gpiozero mock pins)."""

from __future__ import annotations

import errno
import os

import pytest
from PIL import Image

from golfbox.hal.base import LinkEvent
from golfbox.hal.build import build_hardware
from golfbox.hal.config import parse_config
from golfbox.hal.i2cmux import MuxChannelError, resolve_bus
from golfbox.hal.oled import open_oled
from golfbox.hal.resilient import ResilientDisplay

SEAT0 = {"left": 17, "right": 27, "ok": 22, "back": 4}
SEAT1 = {"left": 5, "right": 6, "ok": 13, "back": 19}


def mux_config(reset=None, channels=(0, 1)):
    mux = {"parent": 1, "address": 0x70, **({"reset": reset} if reset is not None else {})}
    return parse_config({"i2c_mux": [mux], "seats": [
        {"backend": "gpio", "buttons": buttons,
         "display": {"driver": "ssd1306", "i2c": {"mux": 0x70, "channel": channel, "address": 0x3C}}}
        for buttons, channel in zip((SEAT0, SEAT1), channels)]})


@pytest.fixture
def sysfs(tmp_path):
    """/sys/bus/i2c/devices as the kernel lays it out on a Pi 4 with the i2c-mux overlay:
    the mux's channels got adapters 22 and 23 — or anything else on another model."""
    devices = tmp_path / "devices"
    mux = devices / "1-0070"
    mux.mkdir(parents=True)

    def channels(*adapters):
        for link in mux.glob("channel-*"):
            link.unlink()
        for channel, adapter in enumerate(adapters):
            (devices / f"i2c-{adapter}").mkdir(exist_ok=True)
            os.symlink(f"../i2c-{adapter}", mux / f"channel-{channel}")

    channels(22, 23)
    return devices, channels


def test_a_channel_is_found_by_its_sysfs_link_whatever_number_the_kernel_gave_it(sysfs):
    sysfs, channels = sysfs
    config = mux_config()
    locations = [seat.display.i2c for seat in config.seats]
    assert [resolve_bus(loc, sysfs) for loc in locations] == [22, 23]
    channels(11, 12)  # another model, or another overlay enabled first
    assert [resolve_bus(loc, sysfs) for loc in locations] == [11, 12]


def test_a_missing_channel_is_an_error_naming_the_seat(sysfs):
    sysfs, _ = sysfs
    config = mux_config(channels=(0, 5))
    with pytest.raises(MuxChannelError, match=r"no .*/1-0070/channel-5 \(the mux has no such channel\)"):
        resolve_bus(config.seats[1].display.i2c, sysfs)
    events = []
    display = ResilientDisplay(open_oled(config.seats[1].display, sysfs_i2c=sysfs), 1, events.append)
    display.show(Image.new("1", (128, 64)))
    assert events[0].seat == 1 and not events[0].connected
    assert events[0].reason.startswith("seat 2 display: I2C mux 0x70 channel 5 address 0x3C: ")
    assert "channel-5 (the mux has no such channel)" in events[0].reason


def test_without_the_overlay_the_error_says_what_to_add(tmp_path):
    with pytest.raises(MuxChannelError, match=r"dtoverlay=i2c-mux,pca9548,addr=0x70"):
        resolve_bus(mux_config().seats[0].display.i2c, tmp_path)


def test_the_real_luma_interface_opens_the_resolved_bus(sysfs):
    pytest.importorskip("luma.core")
    sysfs, channels = sysfs
    channels(97, 98)
    if os.path.exists("/dev/i2c-98"):
        pytest.skip("this machine has an /dev/i2c-98")
    display = open_oled(mux_config().seats[1].display, sysfs_i2c=sysfs)
    with pytest.raises(OSError, match=r"/dev/i2c-98"):  # channel 1 -> adapter 98, opened by luma
        display.show(Image.new("1", (128, 64)))


class StuckBus:
    """A luma serial interface on a channel whose SDA a seat OLED holds low, until the mux is reset."""

    def __init__(self):
        self.stuck = True
        self.frames = 0

    def command(self, *cmd):
        if self.stuck:
            raise OSError(errno.ETIMEDOUT, "Connection timed out")

    def data(self, data):
        self.command()
        self.frames += 1

    def cleanup(self):
        pass


def test_a_stuck_channel_pulses_the_mux_reset_and_the_displays_come_back():
    gpiozero = pytest.importorskip("gpiozero")
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    now = [0.0]
    bus = StuckBus()
    events = []
    config = mux_config(reset=7)
    hardware = build_hardware(config, events.append, pin_factory=factory, clock=lambda: now[0])
    try:
        reset = hardware.mux_resets[(1, 0x70)]
        pin = factory.pin(7)
        assert pin.state == 1  # RESET released (high) at start
        # The panel on the stuck channel, through open_oled's serial seam, wired as build_hardware does.
        display = ResilientDisplay(open_oled(config.seats[0].display, lambda: bus), 0, events.append,
                                   clock=lambda: now[0], on_error=reset.on_error)
        display.show(Image.new("1", (128, 64)))
        assert [s.state for s in pin.states][-2:] == [0, 1]  # pulsed low, then released
        assert reset.pulses == 1
        display.show(Image.new("1", (128, 64)))  # within 5 s of the last pulse: no second one
        assert reset.pulses == 1
        bus.stuck = False  # the reset deselected the channel: the OLED let go of SDA
        now[0] += 0.5
        display.poll()
        assert display.healthy and events[-1] == LinkEvent(0, True, "seat 1 display: working again")
        # A panel that fails with a plain NAK (unplugged) does not reset the mux.
        reset.on_error(OSError(errno.EREMOTEIO, "Remote I/O error"))
        assert reset.pulses == 1
    finally:
        hardware.close()


# -- the driver's idle state: -2 (disconnect when idle), else a RESET pulse leaves it stale ----


@pytest.mark.parametrize("content, expected", [
    ("-2\n", None),
    ("-1\n", "is -1, not -2"),
    ("0\n", "is 0, not -2"),  # idles on channel 0: as stale after a pulse
    (None, "is missing (a kernel too old for it?), not -2"),
])
def test_the_mux_idle_state_is_read_from_sysfs(sysfs, content, expected):
    from golfbox.hal.i2cmux import idle_state_warning

    sysfs, _ = sysfs
    if content is not None:
        (sysfs / "1-0070" / "idle_state").write_text(content)
    warning = idle_state_warning(0, 1, 0x70, sysfs)
    if expected is None:
        assert warning is None
        return
    path = sysfs / "1-0070" / "idle_state"
    assert warning.startswith(f"i2c_mux[0] (TCA9548A 0x70 on I2C1): {path} {expected} (disconnect when idle)")
    assert "/etc/udev/rules.d/60-golfbox-i2c-mux.rules" in warning and f"echo -2 | sudo tee {path}" in warning
    assert "\n" not in warning


def test_an_unbound_mux_is_left_to_its_displays_error(tmp_path):
    from golfbox.hal.i2cmux import idle_state_warning

    assert idle_state_warning(0, 1, 0x70, tmp_path) is None
    # Declared by the overlay but not answering at boot: the folder without its driver's
    # files (channels, idle_state). Warned of as "idle_state is missing (a kernel too old
    # for it?) … run systemd/install.sh and reboot" before, beside the displays' true error.
    (tmp_path / "1-0070").mkdir()
    assert idle_state_warning(0, 1, 0x70, tmp_path) is None


def test_build_and_check_hardware_report_a_mux_that_keeps_its_channel(sysfs, monkeypatch, capsys):
    """The table starts all the same; run logs the warning (serve) and check-hardware prints it."""
    pytest.importorskip("gpiozero")
    from gpiozero.pins.mock import MockFactory

    from golfbox.hal import i2cmux

    sysfs, _ = sysfs
    (sysfs / "1-0070" / "idle_state").write_text("-1\n")
    monkeypatch.setattr(i2cmux, "SYSFS_I2C_DEVICES", sysfs)  # the fake tree stands for /sys
    hardware = build_hardware(mux_config(reset=7), lambda event: None, pin_factory=MockFactory())
    try:
        assert len(hardware.mux_warnings) == 1 and "is -1, not -2" in hardware.mux_warnings[0]
    finally:
        hardware.close()
    (sysfs / "1-0070" / "idle_state").write_text("-2\n")
    hardware = build_hardware(mux_config(reset=7), lambda event: None, pin_factory=MockFactory())
    hardware.close()
    assert hardware.mux_warnings == []

    (sysfs / "1-0070" / "idle_state").write_text("-1\n")
    config = sysfs.parent / "config.toml"
    config.write_text('[gpio]\npin_factory = "mock"\n[[i2c_mux]]\nparent = 1\naddress = 0x70\n' + "".join(
        f'[[seats]]\nbackend = "sim"\ndisplay = {{ driver = "ssd1306", i2c = {{ mux = 0x70, channel = {channel}, '
        'address = 0x3C } }\n' for channel in (0, 1)))
    from golfbox.cli import main

    assert main(["check-hardware", "--config", str(config), "--seconds", "0"]) == 1  # no /dev/i2c-22 here
    out = capsys.readouterr().out
    assert "WARNING: i2c_mux[0] (TCA9548A 0x70 on I2C1): " in out and "is -1, not -2" in out


def test_a_mux_that_did_not_answer_at_boot_is_told_from_a_missing_channel(tmp_path):
    """The overlay declares the mux, so the kernel makes 1-0070 whether it answers or not;
    a TCA9548A that did not answer when its driver probed it (a wire, VIN, A0-A2) has the
    folder and no channel at all. That was "the mux has no such channel", which sends the
    builder to the channel number in the config, not to the mux's wiring."""
    (tmp_path / "1-0070").mkdir()
    with pytest.raises(MuxChannelError) as raised:
        resolve_bus(mux_config().seats[0].display.i2c, tmp_path)
    assert str(raised.value).endswith(
        "/1-0070/channel-0 (the TCA9548A did not answer when the kernel probed it at boot: "
        "its VIN, GND, SDA, SCL, A0-A2 set for 0x70, RESET not held low; then reboot)"), raised.value


def test_a_bus_that_stays_stuck_is_reset_at_most_once_every_five_seconds():
    """Two seats behind one stuck mux keep failing: each retry must not pulse RESET again
    (every other channel would blink), but a bus still stuck 5 s later is pulsed again."""
    pytest.importorskip("gpiozero")
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    now = [0.0]
    config = mux_config(reset=7)
    hardware = build_hardware(config, [].append, pin_factory=factory, clock=lambda: now[0])
    try:
        reset = hardware.mux_resets[(1, 0x70)]
        pin = factory.pin(7)
        displays = [ResilientDisplay(open_oled(config.seats[seat].display, StuckBus), seat,
                                     clock=lambda: now[0], first_retry=0.5, max_retry=0.5,
                                     on_error=reset.on_error) for seat in (0, 1)]
        for display in displays:
            display.show(Image.new("1", (128, 64)))
        assert reset.pulses == 1  # the second seat failed on the same stuck bus
        lows = [s.state for s in pin.states].count(0)
        while now[0] < 4.5:  # retries every 0.5 s up to 4.5 s, all still stuck
            now[0] = round(now[0] + 0.5, 1)
            for display in displays:
                display.poll()
        assert reset.pulses == 1 and [s.state for s in pin.states].count(0) == lows
        now[0] = 5.0
        displays[0].poll()
        assert reset.pulses == 2 and pin.state == 1  # pulsed again, and released
        assert not reset.pulse()  # and not a third time at once
    finally:
        hardware.close()


def test_closing_the_hardware_frees_the_mux_reset_pin():
    """check-hardware then run, or a rebuild after a config change, take the pin again."""
    gpiozero = pytest.importorskip("gpiozero")
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    hardware = build_hardware(mux_config(reset=7), [].append, pin_factory=factory)
    hardware.close()  # kept referenced: gpiozero's __del__ must not be what frees the pin
    again = gpiozero.DigitalOutputDevice(7, pin_factory=factory)  # GPIOPinInUse if still held
    again.close()
    assert hardware.mux_resets[(1, 0x70)].output.closed


def test_gpio_pin_factory_drives_a_mux_reset_on_a_table_of_serial_or_sim_seats(monkeypatch):
    """The seats need no GPIO (nodes, the simulator), but the mux's RESET line does:
    `[gpio] pin_factory` still chooses its driver, not gpiozero's own guess (which,
    on a machine with no GPIO, is an error naming every driver it tried)."""
    gpiozero = pytest.importorskip("gpiozero")
    from gpiozero.pins.mock import MockFactory

    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(gpiozero.Device, "pin_factory", None)  # gpiozero would guess again
    config = parse_config({"gpio": {"pin_factory": "mock"},
                           "i2c_mux": [{"parent": 1, "address": 0x70, "reset": 7}],
                           "seats": [{"backend": "sim"}, {"backend": "sim"}]})
    hardware = build_hardware(config, [].append)
    try:
        assert isinstance(hardware.mux_resets[(1, 0x70)].output.pin_factory, MockFactory)
    finally:
        hardware.close()
