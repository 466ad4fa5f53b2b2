"""Boot entry of the seat node: wire up the board and run until power goes away."""

import sys
import time

import board
import machine
from buttons import Buttons
from node import SeatNode
from oled import SSD1306
from usbserial import UsbSerial


def main():
    i2c = machine.I2C(board.I2C_ID, sda=machine.Pin(board.I2C_SDA), scl=machine.Pin(board.I2C_SCL), freq=board.I2C_FREQ)
    panel = SSD1306(i2c, board.OLED_ADDRESS)
    pins = [machine.Pin(number, machine.Pin.IN, machine.Pin.PULL_UP) for number in board.BUTTON_PINS]
    if pins[3].value() == 0:  # ✕ held at power-up: stay in the REPL (for mpremote, updates)
        panel.show(bytearray(1024))
        return
    buttons = Buttons(pins, time.ticks_ms(), board.DEBOUNCE_MS, board.HOLD_MS)
    SeatNode(UsbSerial(), panel, buttons, machine.unique_id()).run()


try:
    main()
except Exception as error:  # a node must come back by itself: report, then reboot
    sys.print_exception(error, sys.stderr)
    time.sleep_ms(2000)
    machine.reset()
