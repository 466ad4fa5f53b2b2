"""A pin-level stand-in for MicroPython's ``machine`` module, for the Unix port in tests.

Runs under MicroPython (put this directory first on MICROPYPATH). The test
drives it through files named by environment variables:

* FAKE_PINS: a file of ``gpio=level`` words, e.g. ``12=0``; pins not listed
  read 1 (the pull-up). Re-read at most once per millisecond.
* FAKE_OLED: where the fake SSD1306 on the I2C bus dumps its display RAM
  after every write: 1,024 bytes of GDDRAM, then contrast, then on/off.
* FAKE_UNIQUE_ID: the board's unique id, in hex.
* FAKE_OLED_ABSENT: while this file exists, the OLED does not answer (ENODEV).
"""

import os
import time

_pins_file = os.getenv("FAKE_PINS")
_pin_levels = {}
_pins_read_at = None


def _levels():
    global _pin_levels, _pins_read_at
    now = time.ticks_ms()
    if _pins_file and _pins_read_at != now:
        _pins_read_at = now
        try:
            with open(_pins_file) as f:
                words = f.read().split()
        except OSError:
            words = []
        levels = {}
        for word in words:
            gpio, level = word.split("=")
            levels[int(gpio)] = int(level)
        _pin_levels = levels
    return _pin_levels


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, gpio, mode=IN, pull=None):
        self.gpio = gpio
        self.mode = mode
        self.pull = pull

    def value(self):
        return _levels().get(self.gpio, 1 if self.pull == Pin.PULL_UP else 0)


def unique_id():
    return bytes.fromhex(os.getenv("FAKE_UNIQUE_ID") or "e6614103e7452d2f")


def reset():
    raise SystemExit(3)


# SSD1306 commands and how many argument bytes follow each
_ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0xA8: 1, 0xD3: 1, 0xDA: 1, 0xD5: 1, 0xD9: 1, 0xDB: 1, 0x8D: 1}
_SIMPLE = (0x40, 0xA0, 0xA1, 0xA4, 0xA5, 0xA6, 0xA7, 0xAE, 0xAF, 0xC0, 0xC8)


class _FakeSSD1306:
    """Just enough of the controller: horizontal addressing mode, windows, contrast, on/off."""

    def __init__(self, dump_path):
        self.dump_path = dump_path
        self.ram = bytearray(1024)
        self.col_start, self.col_end, self.page_start, self.page_end = 0, 127, 0, 7
        self.col, self.page = 0, 0
        self.contrast = 0x7F
        self.on = False

    def write(self, data):
        control = data[0]
        if control == 0x00:
            self._commands(data[1:])
        elif control == 0x40:
            self._data(data[1:])
        else:
            raise OSError("fake SSD1306: unknown control byte 0x%02x" % control)
        self._dump()

    def _commands(self, codes):
        index = 0
        while index < len(codes):
            code = codes[index]
            count = _ARGS.get(code, 0)
            if code not in _ARGS and code not in _SIMPLE:
                raise OSError("fake SSD1306: unknown command 0x%02x" % code)
            args = codes[index + 1 : index + 1 + count]
            if len(args) != count:
                raise OSError("fake SSD1306: command 0x%02x cut short" % code)
            index += 1 + count
            # As the chip takes them: 7 bits of a column, 3 of a page (a page 8 is page 0)
            if code == 0x21:
                self.col_start, self.col_end = args[0] & 0x7F, args[1] & 0x7F
                self.col = self.col_start
            elif code == 0x22:
                self.page_start, self.page_end = args[0] & 0x07, args[1] & 0x07
                self.page = self.page_start
            elif code == 0x20 and args[0] != 0:
                raise OSError("fake SSD1306 models horizontal addressing only")
            elif code == 0x81:
                self.contrast = args[0]
            elif code in (0xAE, 0xAF):
                self.on = code == 0xAF

    def _data(self, data):
        for byte in data:
            self.ram[self.page * 128 + self.col] = byte
            self.col += 1
            if self.col > self.col_end:
                self.col = self.col_start
                self.page = self.page + 1 if self.page < self.page_end else self.page_start

    def _dump(self):
        if not self.dump_path:
            return
        with open(self.dump_path + ".tmp", "wb") as f:
            f.write(self.ram)
            f.write(bytes((self.contrast, 1 if self.on else 0)))
        os.rename(self.dump_path + ".tmp", self.dump_path)  # the test never sees half a dump


class I2C:
    def __init__(self, bus_id, scl=None, sda=None, freq=400_000):
        self.devices = {0x3C: _FakeSSD1306(os.getenv("FAKE_OLED"))}

    def _device(self, address):
        absent = os.getenv("FAKE_OLED_ABSENT")
        if absent:
            try:
                os.stat(absent)
                raise OSError(19)  # unplugged: nothing answers at its address
            except OSError as error:
                if error.errno == 19:
                    raise
        if address not in self.devices:
            raise OSError(19)  # ENODEV, as a real bus reports a missing device
        return self.devices[address]

    def writeto(self, address, data):
        self._device(address).write(bytes(data))
        return len(data)

    def writevto(self, address, parts):
        data = bytearray()
        for part in parts:
            data.extend(part)
        self._device(address).write(data)
        return len(data)
