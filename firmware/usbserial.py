"""The node's end of the link: MicroPython's USB CDC serial port (the REPL's stdin/stdout).

Polls, then reads one byte at a time: stdin's read(n) blocks until n bytes came.
Ctrl-C (0x03) is an ordinary data byte here, not a KeyboardInterrupt.
"""

import select
import sys
import time

import micropython


class UsbSerial:
    def __init__(self, stdin=None, stdout=None):
        micropython.kbd_intr(-1)
        self.stdin = stdin or sys.stdin.buffer
        self.stdout = stdout or sys.stdout.buffer
        self.poller = select.poll()
        self.poller.register(self.stdin, select.POLLIN)

    def read(self, limit, timeout_ms):
        """Up to ``limit`` bytes, waiting at most ``timeout_ms`` for the first one."""
        data = bytearray()
        if not self.poller.poll(timeout_ms):
            return data
        while len(data) < limit:
            byte = self.stdin.read(1)
            if not byte:  # end of file (only off the board): do not spin
                time.sleep_ms(timeout_ms)
                break
            data.extend(byte)
            if not self.poller.poll(0):
                break
        return data

    def write(self, data):
        self.stdout.write(data)
