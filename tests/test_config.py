"""The hardware config: the reference build validates, every mistake is named."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from golfbox.hal.base import Button
from golfbox.hal.config import LUMA_DRIVERS, ConfigError, load_config, parse_config, sim_config
from golfbox.hal.config import tomllib  # the config's reader: tomli's TOML 1.0 from 3.15

from fake_systemd import bindable

HARDWARE = Path(__file__).resolve().parents[1] / "hardware"
SIM_SEATS = '[[seats]]\nbackend = "sim"\n[[seats]]\nbackend = "sim"\n'

SEAT0 = {"left": 17, "right": 27, "ok": 22, "back": 4}
SEAT1 = {"left": 5, "right": 6, "ok": 13, "back": 19}
SEAT2 = {"left": 12, "right": 16, "ok": 20, "back": 21}


def gpio_seat(buttons, **display):
    return {"backend": "gpio", "buttons": dict(buttons),
            "display": {"driver": "ssd1306", "i2c": {"bus": 1, "address": 0x3C}, **display}}


def config_with(*seats, **top):
    return {"seats": list(seats), **top}


def refused(data, **kwargs) -> str:
    with pytest.raises(ConfigError) as info:
        parse_config(data, **kwargs)
    return str(info.value)


# ---------------------------------------------------------------- the reference build


def test_example_config_validates_with_the_reference_pins():
    config = load_config(HARDWARE / "config.example.toml")
    assert [s.backend for s in config.seats] == ["gpio"] * 4
    assert config.seats[0].buttons == {Button.LEFT: 17, Button.RIGHT: 27, Button.OK: 22, Button.BACK: 4}
    # Seats name mux channels, not bus numbers: the kernel numbers the channels at boot.
    assert [(s.display.i2c.bus, s.display.i2c.mux, s.display.i2c.channel, s.display.i2c.address)
            for s in config.seats] == [
        (None, 0x70, 0, 0x3C), (None, 0x70, 0, 0x3D), (None, 0x70, 1, 0x3C), (None, 0x70, 1, 0x3D)]
    shared = config.shared_display
    assert (shared.driver, shared.size, shared.mode) == ("ssd1322", (256, 64), "L")
    # The SSD1322's serial interface is specified to about 10 MHz: luma's 8 MHz, not 16.
    assert (shared.spi.dc, shared.spi.rst, shared.spi.speed_hz) == (24, 25, 8_000_000)
    assert config.game["variant"] == "6-card"
    assert config.journal == {"path": "/var/lib/golfbox/journal.sqlite3"}
    mux = config.i2c_muxes[0]
    assert (mux.parent, mux.address, mux.buses, mux.reset) == (1, 0x70, (), 7)
    assert config.reserved_pins.get(7) is None  # spi0-1cs: CE1 is the mux's RESET


def test_the_journal_file_has_one_name_everywhere():
    """config.example.toml, README and the service's default all say journal.sqlite3."""
    from golfbox.commands.run import PI_JOURNAL

    config = load_config(HARDWARE / "config.example.toml")
    assert Path(config.journal["path"]).name == PI_JOURNAL.name == "journal.sqlite3"
    for path in (HARDWARE.parent / "README.md", HARDWARE / "config.example.toml"):
        names = set(re.findall(r"journal\.sqlite\w*", path.read_text()))
        assert names <= {"journal.sqlite3"}, (path.name, names)


def test_example_game_table_is_one_the_table_service_accepts():
    settings = pytest.importorskip("golfbox.table.settings")
    config = load_config(HARDWARE / "config.example.toml")
    assert settings.settings_from_config(config.game, len(config.seats)).variant == "6-card"


def test_reference_pins_keep_clear_of_buses_and_the_display_control_pins():
    config = load_config(HARDWARE / "config.example.toml")
    buttons = {pin for seat in config.seats for pin in seat.buttons.values()}
    assert len(buttons) == 16
    assert not buttons & {0, 1, 2, 3, 7, 8, 9, 10, 11, 14, 24, 25}
    assert config.i2c_muxes[0].reset not in buttons
    # GPIO 15 (UART RXD) is the one compromise: refused as soon as the UART is on.
    text = (HARDWARE / "config.example.toml").read_text().replace("uart = false", "uart = true")
    example = HARDWARE / "uart_on.toml"
    try:
        example.write_text(text)
        with pytest.raises(ConfigError, match=r"seats\[3\]\.buttons\.back \(from pinmap\.toml\): "
                                              r"GPIO 15 belongs to the UART"):
            load_config(example)
    finally:
        example.unlink()


def test_wiring_table_matches_the_pin_map_and_the_header():
    """WIRING.md's button table = pinmap.toml, and its pin numbers = gpiozero's header map."""
    from gpiozero.pins.mock import MockFactory

    header = MockFactory().board_info
    config = load_config(HARDWARE / "config.example.toml")
    rows = re.findall(r"^\| (\d) +\| \S+ (\w+) +\| GPIO (\d+) +\| (\d+) +\|$",
                      (HARDWARE / "WIRING.md").read_text(), re.MULTILINE)
    assert len(rows) == 16
    for seat, button, gpio, pin in rows:
        assert config.seats[int(seat) - 1].buttons[Button(button)] == int(gpio)
        [(connector, pin_info)] = header.find_pin(f"GPIO{gpio}")
        assert (connector.name, pin_info.number) == ("J8", int(pin))


def test_sim_config_needs_no_file():
    config = sim_config(3)
    assert [s.backend for s in config.seats] == ["sim"] * 3
    assert config.seats[2].display.size == (128, 64)
    assert config.shared_display.driver == "sim"


def test_config_and_sim_do_not_import_hardware_packages():
    code = ("import sys, golfbox.hal.config, golfbox.hal.sim, golfbox.hal.build, golfbox.commands.check_hardware;"
            "golfbox.hal.config.load_config('hardware/config.example.toml');"
            "bad = [m for m in sys.modules if m.split('.')[0] in ('gpiozero', 'luma', 'serial')];"
            "print(bad); raise SystemExit(bool(bad))")
    result = subprocess.run([sys.executable, "-c", code], cwd=HARDWARE.parent,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


# ---------------------------------------------------------------- every mistake, by name


def test_pin_used_twice_names_both_keys():
    message = refused(config_with(
        gpio_seat(SEAT0),
        gpio_seat(SEAT1, i2c={"bus": 1, "address": 0x3D}),
        gpio_seat({**SEAT2, "ok": 17}, driver="sim", i2c=None) | {"display": {"driver": "sim"}}))
    assert message == "seats[2].buttons.ok: GPIO 17 is already used by seats[0].buttons.left"


def test_pin_on_an_enabled_bus_is_refused():
    assert refused(config_with(gpio_seat({**SEAT0, "back": 3}))) == (
        "seats[0].buttons.back: GPIO 3 belongs to I2C1 (SDA/SCL), which is enabled; "
        "pick a free GPIO (see hardware/WIRING.md)")
    spi_shared = {"driver": "ssd1322", "spi": {"port": 0, "device": 0, "dc": 24, "rst": 25}}
    message = refused(config_with(gpio_seat({**SEAT0, "ok": 10}), shared_display=spi_shared))
    assert message.startswith("seats[0].buttons.ok: GPIO 10 belongs to SPI0")


def test_bus_enabled_in_buses_reserves_its_pins_without_a_display():
    seat = {"backend": "gpio", "buttons": {**SEAT0, "left": 16}, "display": {"driver": "sim"}}
    assert parse_config(config_with(seat)).seats[0].buttons[Button.LEFT] == 16
    message = refused(config_with(seat, buses={"spi1": True}))
    assert message.startswith("seats[0].buttons.left: GPIO 16 belongs to SPI1")


def test_id_eeprom_pins_are_refused():
    seat = {"backend": "gpio", "buttons": {**SEAT0, "right": 0}, "display": {"driver": "sim"}}
    assert refused(config_with(seat)).startswith(
        "seats[0].buttons.right: GPIO 0 belongs to the HAT ID EEPROM")


def test_button_on_the_shared_displays_dc_pin_is_refused():
    spi_shared = {"driver": "ssd1322", "spi": {"port": 0, "device": 0, "dc": 24, "rst": 25}}
    message = refused(config_with(gpio_seat({**SEAT0, "back": 25}), shared_display=spi_shared))
    assert message == "seats[0].buttons.back: GPIO 25 is already used by shared_display.spi.rst"


def test_two_displays_at_one_address_on_one_bus():
    message = refused(config_with(gpio_seat(SEAT0), gpio_seat(SEAT1)))
    assert message == ("seats[1].display.i2c: bus 1 address 0x3C is already used by "
                       "seats[0].display.i2c")


def test_same_address_on_two_mux_channels_is_fine_but_not_on_the_parent_too():
    mux = [{"parent": 1, "address": 0x70, "buses": [22, 23]}]
    ok = config_with(gpio_seat(SEAT0, i2c={"bus": 22, "address": 0x3C}),
                     gpio_seat(SEAT1, i2c={"bus": 23, "address": 0x3C}), i2c_mux=mux)
    assert len(parse_config(ok).seats) == 2
    clash = config_with(gpio_seat(SEAT0, i2c={"bus": 1, "address": 0x3C}),
                        gpio_seat(SEAT1, i2c={"bus": 23, "address": 0x3C}), i2c_mux=mux)
    assert refused(clash) == (
        "seats[1].display.i2c: address 0x3C on mux bus 23 collides with seats[0].display.i2c on "
        "its parent bus 1 (devices on the parent answer on every channel)")


def test_display_at_the_mux_address_is_refused():
    mux = [{"parent": 1, "address": 0x70, "buses": [22]}]
    message = refused(config_with(gpio_seat(SEAT0, i2c={"bus": 1, "address": 0x70}), i2c_mux=mux))
    assert message == ("seats[0].display.i2c: bus 1 address 0x70 is already used by "
                       "i2c_mux[0] (the TCA9548A)")


def test_two_spi_displays_on_one_chip_select():
    seat = gpio_seat(SEAT0)
    seat["display"] = {"driver": "ssd1306", "spi": {"port": 0, "device": 0, "dc": 23}}
    shared = {"driver": "ssd1322", "spi": {"port": 0, "device": 0, "dc": 24, "rst": 25}}
    assert refused(config_with(seat, shared_display=shared)) == (
        "shared_display.spi: SPI0 device 0 (chip select) is already used by seats[0].display.spi")


def test_unknown_driver():
    message = refused(config_with(gpio_seat(SEAT0, driver="ssd9999")))
    assert message.startswith("seats[0].display.driver: unknown driver 'ssd9999' (known: ssd1306,")


@pytest.mark.parametrize(("data", "expected"), [
    (config_with(gpio_seat(SEAT0), colour="red"), "colour: unknown key"),
    (config_with(gpio_seat(SEAT0) | {"buton": {}}), "seats[0].buton: unknown key"),
    (config_with(gpio_seat({**SEAT0, "up": 5})), "seats[0].buttons.up: unknown key"),
    (config_with(gpio_seat(SEAT0, brightness=3)), "seats[0].display.brightness: unknown key"),
    (config_with(gpio_seat(SEAT0), gpio={"bounce": 0.1}), "gpio.bounce: unknown key"),
])
def test_unknown_keys(data, expected):
    assert refused(data).startswith(expected + " (expected one of: ")


@pytest.mark.parametrize(("data", "expected"), [
    (config_with(gpio_seat({**SEAT0, "ok": "17"})),
     "seats[0].buttons.ok: expected an integer (GPIO (BCM) number), got a string '17'"),
    (config_with(gpio_seat({**SEAT0, "ok": True})),
     "seats[0].buttons.ok: expected an integer (GPIO (BCM) number), got a boolean True"),
    (config_with(gpio_seat({**SEAT0, "ok": 40})),
     "seats[0].buttons.ok: 40 is out of range for a GPIO (BCM) number (0..27)"),
    (config_with(gpio_seat(SEAT0, i2c={"bus": 1, "address": 0x80})),
     "seats[0].display.i2c.address: 128 is out of range for a 7-bit I2C address (3..119)"),
    (config_with(gpio_seat(SEAT0, rotate=4)),
     "seats[0].display.rotate: 4 is out of range for a number of quarter turns (0..3)"),
    # a plain integer says so once, not "expected an integer (integer)"
    (config_with(gpio_seat(SEAT0, width="128")),
     "seats[0].display.width: expected an integer, got a string '128'"),
    (config_with(gpio_seat(SEAT0, width=4)),
     "seats[0].display.width: 4 is out of range (8..1024)"),
    (config_with(gpio_seat(SEAT0, persist="yes")),
     "seats[0].display.persist: expected true or false, got a string 'yes'"),
    (config_with(gpio_seat(SEAT0), gpio={"hold_time": "long"}),
     "gpio.hold_time: expected a number of seconds, got a string 'long'"),
    (config_with(gpio_seat(SEAT0), gpio={"bounce_time": 0.5, "hold_time": 0.3}),
     "gpio.bounce_time: 0.5 s must be shorter than gpio.hold_time (0.3 s)"),
    (config_with(gpio_seat(SEAT0) | {"backend": "usb"}),
     "seats[0].backend: 'usb' is not one of gpio, sim, serial"),
    ({"seats": {"backend": "sim"}}, "seats: expected a non-empty array of tables ([[seats]])"),
    ({}, "seats: missing (add one [[seats]] table per seat)"),
    (config_with(gpio_seat(SEAT0), game=3), "game: expected a table, got an integer"),
])
def test_wrong_types_and_ranges(data, expected):
    assert refused(data) == expected


def test_pin_factory_must_be_one_gpiozero_has():
    pytest.importorskip("gpiozero")
    assert parse_config(config_with(gpio_seat(SEAT0), gpio={"pin_factory": "LGPIO"})).gpio.pin_factory
    message = refused(config_with(gpio_seat(SEAT0), gpio={"pin_factory": "pigpiod"}))
    assert message.startswith("gpio.pin_factory: 'pigpiod' is not an installed gpiozero pin factory "
                              "(installed: ") and "lgpio" in message


def test_missing_pieces_are_named():
    seat = gpio_seat(SEAT0)
    del seat["buttons"]["back"]
    assert refused(config_with(seat)).startswith("seats[0].buttons.back: missing")
    no_buttons = {"backend": "gpio", "display": {"driver": "sim"}}
    assert refused(config_with(no_buttons)).startswith("seats[0].buttons: missing (no pinmap is set)")
    no_bus = {"backend": "gpio", "buttons": SEAT0, "display": {"driver": "ssd1306"}}
    assert refused(config_with(no_bus)).startswith("seats[0].display: give exactly one of i2c")
    no_dc = {"driver": "ssd1322", "spi": {"port": 0}}
    assert refused(config_with(gpio_seat(SEAT0), shared_display=no_dc)).startswith(
        "shared_display.spi.dc: missing")
    assert refused(config_with({"backend": "serial"})).startswith("seats[0].node: missing")


def test_spi_speed_must_be_one_luma_allows():
    shared = {"driver": "ssd1322", "spi": {"dc": 24, "speed_hz": 10_000_000}}
    message = refused(config_with(gpio_seat(SEAT0), shared_display=shared))
    assert message.startswith("shared_display.spi.speed_hz: 10000000 is not a speed luma allows "
                              "(0.5 MHz, 1 MHz, 2 MHz, 4 MHz, 8 MHz, 16 MHz")


def test_spi_speed_left_out_is_one_the_controller_takes():
    """An SH1106 on SPI with no speed_hz was refused: the default, 8 MHz, is over its 4 MHz."""
    sh1106 = {"driver": "sh1106", "spi": {"dc": 24}, "rotate": 0}
    assert parse_config(config_with(gpio_seat(SEAT0), shared_display=sh1106)).shared_display.spi.speed_hz == (
        4_000_000)
    ssd1322 = {"driver": "ssd1322", "spi": {"dc": 24}}
    assert parse_config(config_with(gpio_seat(SEAT0), shared_display=ssd1322)).shared_display.spi.speed_hz == (
        8_000_000)


def test_seat_display_must_show_a_seat_view():
    assert refused(config_with(gpio_seat(SEAT0, driver="ssd1327"))) == (
        "seats[0].display: a seat view is 128x64, this ssd1327 shows 128x128 (rotate = 0)")
    portrait = gpio_seat(SEAT0, driver="sh1107", rotate=1)  # 64x128 panel turned a quarter
    assert parse_config(config_with(portrait)).seats[0].display.size == (128, 64)


@pytest.mark.parametrize("shared,shows", [
    ({"driver": "ssd1327", "spi": {"dc": 24}}, "ssd1327 shows 128x128"),
    ({"driver": "ssd1305", "spi": {"dc": 24}}, "ssd1305 shows 128x32"),
    ({"driver": "dummy", "width": 128, "height": 128}, "dummy shows 128x128"),
    ({"driver": "ssd1322", "spi": {"dc": 24}, "rotate": 1}, "ssd1322 shows 64x256 (rotate = 1)"),
])
def test_shared_display_must_show_a_table_view(shared, shows):
    """check-config said OK to these, and run then crashed at its first frame."""
    message = refused(config_with(gpio_seat(SEAT0), shared_display=shared))
    assert message == ("shared_display: the table view is 256x64 (greyscale) or 128x64, "
                       f"this {shows}" + ("" if "rotate" in shows else " (rotate = 0)"))
    small = {"driver": "sh1107", "spi": {"dc": 24}, "rotate": 3}  # 64x128 turned: 128x64
    assert parse_config(config_with(gpio_seat(SEAT0), shared_display=small)).shared_display.size == (
        128, 64)


def test_serial_seats_name_their_node_and_seat_nodes_is_checked_by_serialnode():
    config = parse_config(config_with(gpio_seat(SEAT0), {"backend": "serial", "node": "E6614103E7452D2F"},
                                      seat_nodes={"ports": ["/dev/serial/by-id/usb-MicroPython*"]}))
    assert config.seats[1].node == "e6614103e7452d2f"
    assert config.seats[1].display is None and config.seats[1].buttons == {}
    assert config.seat_nodes == {"ports": ["/dev/serial/by-id/usb-MicroPython*"]}
    with_buttons = {"backend": "serial", "node": "ab12", "buttons": SEAT1}
    assert refused(config_with(with_buttons)).startswith("seats[0].buttons: a serial seat's node")
    assert refused(config_with({"backend": "serial", "node": "COM3"})).startswith(
        "seats[0].node: expected the node id in hex")
    twice = config_with({"backend": "serial", "node": "ab12"}, {"backend": "serial", "node": "AB12"})
    assert refused(twice) == "seats[1].node: node ab12 is already seats[0]'s"
    assert refused(config_with({"backend": "sim", "node": "ab12"})).startswith(
        "seats[0].node: only for backend = \"serial\"")
    bad_ids = config_with({"backend": "serial", "node": "ab12"}, seat_nodes={"usb_ids": ["pico"]})
    assert refused(bad_ids).startswith("seat_nodes.usb_ids[0]: expected \"vid:pid\" in hex")


def test_a_serial_seats_display_takes_contrast_only():
    """A wired seat's panel takes display.contrast; a node seat's display said "remove
    it" to a contrast too, though the node's panel takes one (CONTRAST, PROTOCOL.md)."""
    seat = {"backend": "serial", "node": "ab12", "display": {"contrast": 0xCF}}
    config = parse_config(config_with(seat))
    assert config.seats[0].contrast == 0xCF and config.seats[0].display is None
    assert parse_config(config_with({"backend": "serial", "node": "ab12"})).seats[0].contrast is None
    with_driver = {"backend": "serial", "node": "ab12", "display": {"driver": "ssd1306", "contrast": 1}}
    assert refused(config_with(with_driver)) == (
        "seats[0].display.driver: a serial seat's node drives its own display; "
        "only its contrast can be set here")
    too_bright = {"backend": "serial", "node": "ab12", "display": {"contrast": 256}}
    assert refused(config_with(too_bright)).startswith("seats[0].display.contrast: ")


def test_pinmap_values_are_named_as_coming_from_it(tmp_path):
    (tmp_path / "pins.toml").write_text(
        "[[seats]]\nbuttons = { left = 17, right = 27, ok = 22, back = 4 }\n"
        "[[seats]]\nbuttons = { left = 5, right = 6, ok = 17, back = 19 }\n")
    (tmp_path / "config.toml").write_text(
        'pinmap = "pins.toml"\n'
        '[[seats]]\ndisplay = { driver = "sim" }\n'
        '[[seats]]\ndisplay = { driver = "sim" }\n')
    with pytest.raises(ConfigError) as info:
        load_config(tmp_path / "config.toml")
    assert str(info.value) == ("seats[1].buttons.ok (from pins.toml): GPIO 17 is already used by "
                               "seats[0].buttons.left (from pins.toml)")
    assert (info.value.key, info.value.file) == ("seats[1].buttons.ok", tmp_path / "pins.toml")


def test_a_pin_map_key_keeps_its_file_when_copied():
    """The file a key is of is kept as data beside its words (configfile.NotedKey): a
    copy or a pickle of a config (its button_keys, its displays' bus_key) keeps it too."""
    import copy
    import pickle

    config = parse_config({"seats": [{"display": {"driver": "sim"}}] * 2}, pinmap_name="pins.toml",
                          pinmap={"seats": [{"buttons": SEAT0}, {"buttons": SEAT1}]})
    key = config.seats[1].button_keys[Button.OK]
    for kept in (copy.deepcopy(key), pickle.loads(pickle.dumps(key))):
        assert (kept, kept.bare, kept.file) == (key, "seats[1].buttons.ok", "pins.toml")
        assert kept == "seats[1].buttons.ok (from pins.toml)"


@pytest.mark.parametrize("pinmap, words", [
    ("[[seats]]\nbuttns = { left = 17, right = 27, ok = 22, back = 4 }\n",
     "seats[0].buttns (in map.toml): unknown key (expected one of: buttons, display)"),
    ("[[seats]]\nbuttons = { left = 17, right = 27, ok = 22, back = 4 }\n"
     "dispaly = { i2c = { bus = 1, address = 0x3C } }\n",
     "seats[0].dispaly (in map.toml): unknown key"),
    ("[[seats]]\nbuttons = { left = 17, right = 27, ok = 22, back = 4 }\n"
     "display = { ic2 = { bus = 1, address = 0x3C } }\n",
     "seats[0].display.ic2 (in map.toml): unknown key (expected one of: i2c, spi)"),
    ("[[seats]]\nbuttons = { left = 17, right = 27, ok = 22, back = 4 }\n"
     "display = { i2c = { bus = 1, address = 0x3C } }\n"
     "[shared_display]\nspi = { port = 0, device = 0, dc = 24 }\nsped = 3\n",
     "shared_display.sped (in map.toml): unknown key (expected one of: i2c, spi)"),
    ("[[seats]]\nbuttons = { left = 17, right = 27, ok = 22, back = 4 }\ndisplay = 3\n",
     "seats[0].display (in map.toml): expected a table, got an integer"),
    ("[[seat]]\nbuttons = { left = 17, right = 27, ok = 22, back = 4 }\n",
     "seat (in map.toml): unknown key (a pin map has seats, i2c_mux, shared_display)"),
    ("seats = 3\n", "seats (in map.toml): expected a list of [[seats]] tables"),
])
def test_a_misspelt_key_in_a_pin_map_is_named(tmp_path, pinmap, words):
    """Keys a pin map's seat or shared display does not have were passed over unseen:
    a misspelt 'dispaly' left the seat without its bus, and the error (if any) blamed
    the config's seats[0].display instead."""
    (tmp_path / "map.toml").write_text(pinmap, encoding="utf-8")
    config = tmp_path / "config.toml"
    config.write_text('pinmap = "map.toml"\n[[seats]]\ndisplay = { driver = "ssd1306" }\n'
                      '[[seats]]\nbackend = "sim"\n')
    with pytest.raises(ConfigError) as caught:
        load_config(config)
    assert words in str(caught.value)


READ_UNDER_A_MEMORY_LIMIT = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, resource.RLIM_INFINITY))
from golfbox.hal.config import ConfigError, load_config
try:
    load_config(sys.argv[1])
except ConfigError as exc:
    print(exc)
"""


@pytest.mark.parametrize("name", ["config", "pin map"])
@pytest.mark.parametrize("nesting", ["[" * 2000 + "]" * 2000, "{a=" * 2000 + "1" + "}" * 2000])
def test_a_config_nested_too_deeply_is_one_error_naming_the_file(tmp_path, name, nesting):
    """tomllib reads nested arrays and inline tables by recursion: 2 000 of them, well
    under 1 MiB, were a RecursionError traceback from check-config, run and check-hardware."""
    deep = tmp_path / "deep.toml"
    deep.write_text(f"x = {nesting}\n")
    config = tmp_path / "config.toml"
    config.write_text(f'pinmap = "deep.toml"\n{SIM_SEATS}' if name == "pin map" else "")
    target = config if name == "pin map" else deep
    with pytest.raises(ConfigError, match=rf"^(pinmap: )?{re.escape(str(deep))}: TOML nested too deeply "
                                          rf"to read \(arrays or inline tables"):
        load_config(target)


@pytest.mark.parametrize("name", ["config", "pin map"])
def test_a_device_given_as_the_config_or_the_pin_map_is_refused_without_reading_it_all(tmp_path, name):
    """/dev/zero was read to the end of memory: a MemoryError traceback (under a limit;
    on a Pi without one, the kernel's OOM killer). A big file is refused as well."""
    config = tmp_path / "config.toml"
    config.write_text('pinmap = "/dev/zero"\n[[seats]]\nbackend = "sim"\n')
    target = "/dev/zero" if name == "config" else str(config)
    out = subprocess.run([sys.executable, "-c", READ_UNDER_A_MEMORY_LIMIT, target],
                         capture_output=True, text=True, timeout=60)
    assert out.stderr == ""
    assert out.stdout.strip().endswith(f"/dev/zero: is a device, not a {name} file")
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * (1 << 20) + "\n" + SIM_SEATS)
    with pytest.raises(ConfigError, match=r"big\.toml: more than 1 MiB"):
        load_config(big)


@pytest.mark.parametrize("name", ["config", "pin map"])
def test_a_serial_port_given_as_the_config_or_the_pin_map_is_refused_without_waiting(tmp_path, name):
    """A seat node's /dev/ttyACM0 given as --config (the config is full of such paths), or a
    terminal: check-config, run and check-hardware waited for it to send a file, for ever."""
    import os
    import pty

    master, slave = pty.openpty()  # a terminal that never sends a byte, as a node outside a session
    try:
        port = os.ttyname(slave)
        config = tmp_path / "config.toml"
        config.write_text(f'pinmap = "{port}"\n{SIM_SEATS}')
        target = port if name == "config" else str(config)
        out = subprocess.run([sys.executable, "-c", READ_UNDER_A_MEMORY_LIMIT, target],
                             capture_output=True, text=True, timeout=10)
    finally:
        os.close(master)
        os.close(slave)
    assert out.stderr == ""
    assert out.stdout.strip().endswith(f"{port}: a terminal or a serial port, not a {name} file")


def a_named_pipe(path):
    os.mkfifo(path)
    return str(path)


def a_socket(path):
    import socket

    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(path))
    listener.close()  # its name stays in the folder, as a dead service's does
    return str(path)


@pytest.mark.parametrize("name", ["config", "pin map"])
@pytest.mark.parametrize("kind, make", [("a named pipe", a_named_pipe), ("a socket", a_socket),
                                        ("a device", lambda path: "/dev/null")])
def test_a_named_pipe_socket_or_device_given_as_the_config_or_pin_map_is_refused(tmp_path, name,
                                                                                kind, make):
    """A named pipe nobody writes to was read as an empty config ('seats: missing'), as was
    /dev/null; a socket was 'cannot read the config file: No such device or address'.
    Each is refused by what it is, without waiting for a writer."""
    with bindable(tmp_path / "thing") as thing:  # a socket needs a short path
        target = make(thing)
        config = tmp_path / "config.toml"
        config.write_text(f'pinmap = "{target}"\n{SIM_SEATS}')
        out = subprocess.run([sys.executable, "-c", READ_UNDER_A_MEMORY_LIMIT,
                              target if name == "config" else str(config)],
                             capture_output=True, text=True, timeout=10)
    assert out.stderr == ""
    assert out.stdout.strip().endswith(f"{target}: is {kind}, not a {name} file")


def test_a_named_pipe_is_refused_even_with_a_writer_waiting_on_it(tmp_path):
    """Whether a writer opened it first or not (a race), a named pipe is refused the same."""
    fifo = a_named_pipe(tmp_path / "config.toml")
    writer = subprocess.Popen(["sh", "-c", f'printf "%s" "$1" > "{fifo}"', "sh", SIM_SEATS])
    try:
        out = subprocess.run([sys.executable, "-c", READ_UNDER_A_MEMORY_LIMIT, fifo],
                             capture_output=True, text=True, timeout=10)
    finally:
        writer.kill()
        writer.wait()
    assert out.stdout.strip() == f"{fifo}: is a named pipe, not a config file"


def test_a_config_read_through_a_pipe_is_still_read(tmp_path):
    """As from a shell's <(…): a pipe opens and is read to its end."""
    import os

    (tmp_path / "config.toml").write_text(SIM_SEATS)
    read, write = os.pipe()
    os.write(write, SIM_SEATS.encode())
    os.close(write)
    try:
        assert len(load_config(f"/dev/fd/{read}").seats) == 2
    finally:
        os.close(read)


def test_toml_syntax_error_names_the_line(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[[seats]]\nbackend = "sim"\nrotate = 1 2\n')
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert "TOML syntax error" in str(info.value) and "line 3" in str(info.value)
    assert info.value.key == "line 3"


# Two values on one line. (Not an inline table left open: TOML 1.1, Python 3.15's,
# lets one run over lines, and it is found open only at the end of the document.)
TWO_VALUES = '[[seats]]\nbackend = "sim"\nrotate = 1 2\n[[seats]]\n'
UNTERMINATED = '[[seats]]\nbackend = "sim"\nname = """Ann\n'  # a string never closed


def decode_error(words: str, **attributes) -> Exception:
    """A TOMLDecodeError as Python 3.11 to 3.13 raise it, its words only; given its
    ``attributes`` (msg, doc, pos, lineno, colno), as 3.14 raises it."""
    with warnings.catch_warnings():  # 3.14 deprecates an error made of words only
        warnings.simplefilter("ignore", DeprecationWarning)
        error = tomllib.TOMLDecodeError(words)
    for name, value in attributes.items():
        setattr(error, name, value)
    return error


def attributes_of(error: Exception) -> dict:
    """What a TOMLDecodeError keeps of where it is (none before 3.14, nor in tomli before
    2.1). Not vars(): tomli's compiled error, 3.15's config reader, has no __dict__."""
    return {name: getattr(error, name) for name in ("msg", "doc", "pos", "lineno", "colno")
            if hasattr(error, name)}


TWO_VALUES_AT = {"msg": "Expected newline or end of document after a statement",
                 "doc": TWO_VALUES, "pos": 37, "lineno": 3, "colno": 12}
# At the end of the document 3.14's lineno is past the last line; the words name none.
UNTERMINATED_AT = {"msg": "Unterminated string", "doc": UNTERMINATED, "pos": 40, "lineno": 4,
                   "colno": 1}


@pytest.mark.parametrize("doc, error, line", [
    (TWO_VALUES, decode_error(f"{TWO_VALUES_AT['msg']} (at line 3, column 12)"), "line 3"),
    (UNTERMINATED, decode_error("Unterminated string (at end of document)"), ""),
    (TWO_VALUES, decode_error(f"{TWO_VALUES_AT['msg']} (at line 3, column 12)", **TWO_VALUES_AT),
     "line 3"),
    (UNTERMINATED, decode_error("Unterminated string (at end of document)", **UNTERMINATED_AT),
     ""),
    (TWO_VALUES, decode_error(TWO_VALUES_AT["msg"], **TWO_VALUES_AT), "line 3"),
], ids=["3.11", "3.11-end", "3.14", "3.14-end", "3.14-other-words"])
def test_a_toml_syntax_errors_line_is_tomllibs_own_where_it_has_one(tmp_path, monkeypatch, doc,
                                                                    error, line):
    """Python 3.14's TOMLDecodeError keeps its line (lineno); before, only its words name
    it. It was read from the words alone: words without '(at line N, column M)' lost
    it. It is the error's own where it has one now, and the words' where it has none."""
    with pytest.raises(tomllib.TOMLDecodeError) as real:  # as this Python words it
        tomllib.loads(doc)
    if "(at " in str(error):
        assert str(real.value) == str(error)
    if attributes_of(error) and attributes_of(real.value):  # run by Python 3.14 or later
        assert attributes_of(error) == attributes_of(real.value)

    def loads(text: str) -> dict:
        raise error
    monkeypatch.setattr(tomllib, "loads", loads)
    path = tmp_path / "config.toml"
    path.write_text(doc)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert str(info.value) == f"{path}: TOML syntax error: {error}"
    assert (info.value.key, info.value.file) == (line, path)


@pytest.mark.parametrize("doc, line", [
    ('[game]\nnames = { 1 = "Ann",\n          2 = "Bob" }\n', "line 2"),  # over lines
    ('[game]\nnames = { 1 = "\\e[1mAnn" }\n', "line 2"),  # TOML 1.1's escape for ESC
], ids=["inline-table-over-lines", "escape-e"])
def test_a_config_only_toml_1_1_reads_is_refused_on_every_python_as_on_a_pi(tmp_path, doc, line):
    """Python 3.15's tomllib reads TOML 1.1; a Pi's Python (3.11, 3.13) does not. A
    config that check-config passed on a 3.15 laptop stopped the Pi's table at start."""
    path = tmp_path / "config.toml"
    path.write_text(doc)
    with pytest.raises(ConfigError, match="TOML syntax error") as info:
        load_config(path)
    assert (info.value.key, info.value.file) == (line, path)


@pytest.mark.parametrize("python", ["3.11", "3.13", "3.14", "3.15", "3.16"])
def test_from_python_3_15_the_config_reader_is_a_tomli_of_toml_1_0(python):
    """tomli reads TOML 1.1 from 2.4: the one asked for from 3.15 must be older."""
    from packaging.requirements import Requirement

    pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
    dependencies = map(Requirement, tomllib.loads(pyproject.read_text())["project"]["dependencies"])
    [tomli] = [r for r in dependencies if r.name == "tomli"]
    wanted = tomli.marker.evaluate({"python_version": python, "extra": ""})
    assert wanted == (tuple(map(int, python.split("."))) >= (3, 15))
    assert "2.3.2" in tomli.specifier and "2.4.0" not in tomli.specifier


def test_a_byte_order_mark_before_the_config_or_the_pin_map_is_read_past(tmp_path):
    """Notepad saves UTF-8 with a BOM; it was refused as 'TOML syntax error: Invalid
    statement (at line 1, column 1)', which names nothing a person could see."""
    bom = "\ufeff"
    (tmp_path / "pins.toml").write_text(bom + (HARDWARE / "pinmap.toml").read_text(), encoding="utf-8")
    config = (HARDWARE / "config.example.toml").read_text().replace('"pinmap.toml"', '"pins.toml"')
    (tmp_path / "config.toml").write_text(bom + config, encoding="utf-8")
    (tmp_path / "plain.toml").write_text(config, encoding="utf-8")
    with_bom, plain = load_config(tmp_path / "config.toml"), load_config(tmp_path / "plain.toml")
    assert with_bom.seats == plain.seats and with_bom.shared_display == plain.shared_display


def test_missing_files_are_named(tmp_path):
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(tmp_path / "nope.toml")
    (tmp_path / "config.toml").write_text('pinmap = "gone.toml"\n[[seats]]\nbackend = "sim"\n')
    with pytest.raises(ConfigError, match=r"^pinmap: .*gone\.toml does not exist"):
        load_config(tmp_path / "config.toml")


def test_config_error_is_a_value_error():
    assert issubclass(ConfigError, ValueError)


# ---------------------------------------------------------------- SPI speeds, mux channels, mux RESET


def spi_shared(driver="ssd1322", **spi):
    return {"seats": [{"backend": "sim"}], "shared_display": {
        "driver": driver, "spi": {"port": 0, "device": 0, "dc": 24, "rst": 25, **spi}}}


def test_spi_speed_defaults_to_8_mhz_and_a_speed_the_panel_cannot_take_is_refused():
    assert parse_config(spi_shared()).shared_display.spi.speed_hz == 8_000_000
    assert refused(spi_shared(speed_hz=16_000_000)) == (
        "shared_display.spi.speed_hz: 16 MHz is faster than the ssd1322's serial interface "
        "takes (10 MHz); use 8000000")
    assert "4 MHz" in refused(spi_shared("sh1106", speed_hz=8_000_000, ))


MUX = [{"parent": 1, "address": 0x70, "reset": 7}]


def mux_seat(seat, channel, address, **extra):
    return gpio_seat(seat, i2c={"mux": 0x70, "channel": channel, "address": address, **extra})


def test_a_display_names_a_mux_channel_and_two_on_one_channel_and_address_collide():
    config = parse_config(config_with(mux_seat(SEAT0, 0, 0x3C), mux_seat(SEAT1, 1, 0x3C), i2c_mux=MUX))
    assert [str(s.display.i2c) for s in config.seats] == [
        "mux 0x70 channel 0 address 0x3C", "mux 0x70 channel 1 address 0x3C"]
    assert config.seats[0].display.describe() == "seat 1 display (ssd1306, I2C1 mux 0x70 channel 0 0x3C)"
    assert refused(config_with(mux_seat(SEAT0, 0, 0x3C), mux_seat(SEAT1, 0, 0x3C), i2c_mux=MUX)) == (
        "seats[1].display.i2c: mux 0x70 channel 0 address 0x3C is already used by seats[0].display.i2c")
    assert refused(config_with(mux_seat(SEAT0, 0, 0x3C), i2c_mux=[])) == (
        "seats[0].display.i2c.mux: no [[i2c_mux]] has address 0x70 (add one: parent = 1, address = 0x70)")
    assert "give either bus = N or mux" in refused(config_with(mux_seat(SEAT0, 0, 0x3C, bus=3), i2c_mux=MUX))
    # A device on the parent bus answers on every channel.
    message = refused(config_with(mux_seat(SEAT0, 0, 0x3C), gpio_seat(SEAT1, i2c={"bus": 1, "address": 0x3C}),
                                  i2c_mux=MUX))
    assert "collides with seats[1].display.i2c on its parent bus 1" in message


TWO_MUXES_AT_0X70 = [{"parent": 1, "address": 0x70}, {"parent": 3, "address": 0x70}]


@pytest.mark.parametrize("data, expected", [
    (config_with({"backend": "sim", "buttons": SEAT0}),
     'seats[0].buttons: a sim seat has no pins; remove it or use backend = "gpio"'),
    (config_with({"backend": "gpio", "buttons": SEAT0}),
     'seats[0].display: missing (e.g. display = { driver = "ssd1306" })'),
    (config_with(gpio_seat(SEAT0) | {"display": {"i2c": {"bus": 1, "address": 0x3C}}}),
     "seats[0].display.driver: missing (one of ssd1306, "),
    (config_with(gpio_seat(SEAT0) | {"display": {"driver": "sim", "i2c": {"bus": 1, "address": 0x3C}}}),
     "seats[0].display.i2c: driver 'sim' is not on a bus; remove it"),
    (config_with(gpio_seat(SEAT0, i2c={"mux": 0x70, "address": 0x3C}), i2c_mux=MUX),
     "seats[0].display.i2c: give bus = N, or mux = 0x70 and channel = N (a TCA9548A "
     "channel, whose bus number the kernel picks at boot)"),
    (config_with(mux_seat(SEAT0, 0, 0x3C), i2c_mux=TWO_MUXES_AT_0X70),
     "seats[0].display.i2c.mux: muxes at 0x70 on buses 1, 3: name the bus by number instead"),
    (config_with(gpio_seat(SEAT0), i2c_mux=[{"parent": 1, "address": 0x70}] * 2),
     "i2c_mux[1].address: bus 1 address 0x70 is already i2c_mux[0]"),
    (config_with(gpio_seat(SEAT0), i2c_mux=[{"parent": 1, "address": 0x70, "buses": [3, 3]}]),
     "i2c_mux[0].buses: bus 3 is listed twice or is a mux's parent"),
    (config_with(gpio_seat(SEAT0), i2c_mux=[{"parent": 1, "address": 0x70, "buses": [1]}]),
     "i2c_mux[0].buses: bus 1 is listed twice or is a mux's parent"),
    (config_with({"backend": "serial", "node": "ab12"}, seat_nodes={"seats": {}}),
     'seat_nodes.seats: give each serial seat its node in its [[seats]] table instead '
     '(backend = "serial", node = "…")'),
])
def test_each_seat_display_and_mux_mistake_names_its_key(data, expected):
    """Refusals no test had reached (branch coverage): each names the key to mend."""
    message = refused(data)
    assert message == expected or (expected.endswith(" ") and message.startswith(expected)), message


def test_the_mux_reset_pin_needs_spi0_with_one_chip_select():
    spi = {"driver": "ssd1322", "spi": {"port": 0, "device": 0, "dc": 24, "rst": 25}}
    data = config_with(mux_seat(SEAT0, 0, 0x3C), i2c_mux=MUX, shared_display=spi)
    assert refused(data) == ("i2c_mux[0].reset: GPIO 7 belongs to SPI0, which is enabled; "
                             "pick a free GPIO (see hardware/WIRING.md)")
    config = parse_config({**data, "buses": {"spi0_1cs": True}})
    assert config.i2c_muxes[0].reset == 7 and config.reserved_pins[8] == "SPI0"
    assert "already used by i2c_mux[0].reset" in refused(config_with(
        gpio_seat({**SEAT0, "left": 7}, i2c={"mux": 0x70, "channel": 0, "address": 0x3C}), i2c_mux=MUX))


def test_spi0_with_one_chip_select_has_no_device_1():
    """check-config said OK, but dtoverlay=spi0-1cs leaves no /dev/spidev0.1 (its CE1, GPIO 7,
    is the reference build's mux reset)."""
    shared = {"driver": "ssd1322", "spi": {"port": 0, "device": 1, "dc": 24}}
    data = config_with(gpio_seat(SEAT0), shared_display=shared, buses={"spi0_1cs": True})
    assert refused(data) == ("shared_display.spi.device: SPI0 has no device 1 with [buses] "
                             "spi0_1cs = true (dtoverlay=spi0-1cs removes CE1, GPIO 7); "
                             "use device = 0, or set spi0_1cs = false")
    assert parse_config({**data, "buses": {}}).shared_display.spi.device == 1


def test_a_mux_from_the_pin_map_says_so_in_its_errors(tmp_path):
    """Its reset pin clashing with SPI0 named i2c_mux[0].reset, a key not in config.toml."""
    (tmp_path / "pinmap.toml").write_text((HARDWARE / "pinmap.toml").read_text())
    config = tmp_path / "config.toml"
    config.write_text((HARDWARE / "config.example.toml").read_text().replace(
        "spi0_1cs = true", "spi0_1cs = false"))
    with pytest.raises(ConfigError) as error:
        load_config(config)
    assert str(error.value).endswith("i2c_mux[0].reset (from pinmap.toml): GPIO 7 belongs to SPI0, "
                                     "which is enabled; pick a free GPIO (see hardware/WIRING.md)")


def test_an_unknown_key_names_the_known_ones_in_a_stable_order():
    from golfbox.configfile import ConfigError, Section

    for _ in range(3):
        with pytest.raises(ConfigError) as caught:
            Section({"colour": 1}, "gpio").check_known({"pin_factory", "hold_time", "bounce_time"})
        assert str(caught.value) == ("gpio.colour: unknown key (expected one of: bounce_time, "
                                     "hold_time, pin_factory)")


def test_spi0_has_no_device_2():
    """check-config said OK to /dev/spidev0.2: SPI0 has two chip selects, CE0 and CE1
    (SPI1 has three, with dtoverlay=spi1-3cs)."""
    shared = {"driver": "ssd1322", "spi": {"port": 0, "device": 2, "dc": 24}}
    assert refused(config_with(gpio_seat(SEAT0), shared_display=shared)) == (
        "shared_display.spi.device: SPI0 has devices 0 and 1 (CE0, CE1), not 2")
    shared["spi"]["port"] = 1  # buttons clear of SPI1's GPIO 16-21
    seat = gpio_seat({"left": 5, "right": 6, "ok": 13, "back": 26})
    config = parse_config(config_with(seat, shared_display=shared))
    assert config.shared_display.spi.device == 2


def test_a_mux_channel_named_by_its_bus_and_by_its_channel_is_one_spot():
    """A display on bus 22 (channel 0 of a mux listing buses = [22, 23]) and another on
    { mux, channel = 0 } at the same address were both accepted: the same OLED twice."""
    mux = [{"parent": 1, "address": 0x70, "buses": [22, 23]}]
    data = config_with(gpio_seat(SEAT0, i2c={"bus": 22, "address": 0x3C}),
                       gpio_seat(SEAT1, i2c={"mux": 0x70, "channel": 0, "address": 0x3C}),
                       i2c_mux=mux)
    assert refused(data) == ("seats[1].display.i2c: mux 0x70 channel 0 address 0x3C is already "
                             "used by seats[0].display.i2c (bus 22 is that channel)")
    data["seats"][1]["display"]["i2c"]["channel"] = 1
    assert len(parse_config(data).seats) == 2


@pytest.mark.parametrize("name", ["config", "pin map"])
def test_a_symlink_loop_given_as_the_config_or_pin_map_is_one_error_naming_it(tmp_path, name):
    """A relative pin map is resolved to its full path: on Python 3.11 and 3.12 (the Pi's is
    3.11) pathlib's resolve() raises RuntimeError on a symlink loop, a traceback from
    check-config, run and check-hardware instead of their one line."""
    loop = tmp_path / "loop.toml"
    loop.symlink_to(loop.name)
    config = tmp_path / "config.toml"
    config.write_text(f'pinmap = "{loop.name}"\n{SIM_SEATS}')
    with pytest.raises(ConfigError, match="loop.toml") as caught:
        load_config(loop if name == "config" else config)
    assert "\n" not in str(caught.value)


# ---------------------------------------------------------------- what mutation testing found unpinned


@pytest.mark.parametrize("driver", sorted(LUMA_DRIVERS))
def test_a_drivers_size_left_out_is_luma_own_default(driver):
    """LUMA_DRIVERS mirrors luma.oled.device so a check needs no luma: a panel whose
    width and height are left out is checked at the size luma will drive it at."""
    import inspect

    device = pytest.importorskip("luma.oled.device")
    params = inspect.signature(getattr(device, driver).__init__).parameters
    assert LUMA_DRIVERS[driver][0] == (params["width"].default, params["height"].default)


def test_a_builders_seat_panel_needs_no_size_when_it_is_128x64():
    for driver in ("ssd1306", "ssd1309", "ssd1315", "sh1106", "ch1115"):
        display = parse_config(config_with(gpio_seat(SEAT0, driver=driver))).seats[0].display
        assert (display.width, display.height) == (128, 64), driver


def test_button_on_an_spi_displays_dc_pin_is_refused():
    spi_shared = {"driver": "ssd1322", "spi": {"port": 0, "device": 0, "dc": 24, "rst": 25}}
    message = refused(config_with(gpio_seat({**SEAT0, "back": 24}), shared_display=spi_shared))
    assert message == "seats[0].buttons.back: GPIO 24 is already used by shared_display.spi.dc"


def test_a_mux_on_i2c1_reserves_its_pins_when_every_display_is_below_it():
    """No display names bus 1, yet the mux's own SDA/SCL are GPIO 2 and 3."""
    message = refused(config_with(mux_seat({**SEAT0, "left": 2}, 0, 0x3C),
                                  i2c_mux=[{"parent": 1, "address": 0x70}]))
    assert message.startswith("seats[0].buttons.left: GPIO 2 belongs to I2C1 (SDA/SCL)")


def test_a_mux_address_left_out_is_0x70_and_two_muxes_at_one_spot_are_refused():
    config = parse_config(config_with(mux_seat(SEAT0, 0, 0x3C), i2c_mux=[{"parent": 1}]))
    assert config.i2c_muxes[0].address == 0x70 and config.seats[0].display.i2c.mux == 0x70
    twice = config_with(gpio_seat(SEAT0), i2c_mux=[{"parent": 1}, {"parent": 1, "address": 0x70}])
    assert refused(twice) == "i2c_mux[1].address: bus 1 address 0x70 is already i2c_mux[0]"


def test_a_mux_lists_at_most_its_eight_channels():
    eight = list(range(20, 28))
    config = parse_config(config_with(gpio_seat(SEAT0), i2c_mux=[{"buses": eight}]))
    assert config.i2c_muxes[0].buses == tuple(eight)
    assert refused(config_with(gpio_seat(SEAT0), i2c_mux=[{"buses": [*eight, 28]}])) == (
        "i2c_mux[0].buses: expected a list of 1 to 8 bus numbers (channel 0 first)")


def test_spi1_has_devices_0_to_2():
    seat = {"backend": "sim"}  # SPI1 takes GPIO 16-21, the reference seats' pins
    shared = {"driver": "ssd1322", "spi": {"port": 1, "device": 2, "dc": 24}}
    config = parse_config(config_with(seat, shared_display=shared))
    assert config.shared_display.spi.device == 2
    shared["spi"]["device"] = 3
    assert refused(config_with(seat, shared_display=shared)) == (
        "shared_display.spi.device: 3 is out of range (0..2)")


def test_an_spi_display_names_only_its_dc_pin_and_is_on_spi0_ce0():
    """spi = { dc = 24 }: /dev/spidev0.0, the one chip select spi0-1cs leaves."""
    shared = {"driver": "ssd1322", "spi": {"dc": 24}}
    spi = parse_config(config_with(gpio_seat(SEAT0), shared_display=shared,
                                   buses={"spi0_1cs": True})).shared_display.spi
    assert (spi.port, spi.device, spi.rst) == (0, 0, None)


def test_eight_seats_are_the_most():
    sims = [{"backend": "sim"}] * 8
    assert len(parse_config(config_with(*sims)).seats) == 8
    assert refused(config_with(*sims, {"backend": "sim"})) == (
        "seats: 9 seats, at most 8 are supported")


def test_seat_nodes_is_checked_before_any_seat_is_serial():
    """A builder fills in [seat_nodes] before the nodes come: its typo is named now."""
    assert refused(config_with({"backend": "sim"}, {"backend": "sim"},
                               seat_nodes={"usb_ids": ["pico"]})).startswith(
        "seat_nodes.usb_ids[0]: expected \"vid:pid\" in hex")
