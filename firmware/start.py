"""Wires up the board and runs the seat node until power goes away.

✕ is read before the panel is touched: a node whose OLED is missing or broken
must still leave the REPL to mpremote when ✕ is held, and must still be a
working button pad otherwise (the host shows the failing panel like any other).
"""

import sys
import time

import board
import machine
from buttons import Buttons
from node import SeatNode
from oled import SSD1306
from usbserial import UsbSerial


def open_panel():
    """The OLED, or None and the reason it did not answer."""
    try:
        i2c = machine.I2C(board.I2C_ID, sda=machine.Pin(board.I2C_SDA), scl=machine.Pin(board.I2C_SCL), freq=board.I2C_FREQ)
        return SSD1306(i2c, board.OLED_ADDRESS), None
    except OSError as error:
        return None, error


def main():
    pins = [machine.Pin(number, machine.Pin.IN, machine.Pin.PULL_UP) for number in board.BUTTON_PINS]
    if pins[3].value() == 0:  # ✕ held at power-up: stay in the REPL (for mpremote, updates)
        import micropython

        micropython.kbd_intr(3)
        panel, _ = open_panel()
        if panel is not None:
            panel.show(bytearray(1024))
        return
    buttons = Buttons(pins, time.ticks_ms(), board.DEBOUNCE_MS, board.HOLD_MS)
    SeatNode(UsbSerial(), open_panel, buttons, machine.unique_id()).run()


def boot():
    try:
        main()
    except BaseException as error:  # a node must come back by itself: report, then reboot
        sys.print_exception(error, sys.stderr)
        time.sleep_ms(2000)
        machine.reset()
