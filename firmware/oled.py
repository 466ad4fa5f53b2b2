"""A small SSD1306 128x64 I2C driver that can update parts of the panel.

MicroPython's framebuf MONO_VLSB layout is the panel's own memory layout
(one byte = 8 rows of one column, 128 bytes per 8-row page), so a region of
the buffer goes to the panel as it is. Sending only the changed columns of
the changed pages keeps the I2C bus time of a typical move to a few ms.
"""

import framebuf

WIDTH = 128
HEIGHT = 64
PAGES = HEIGHT // 8

_INIT = (
    0xAE,  # display off while configuring
    0x20, 0x00,  # horizontal addressing: data wraps column, then page
    0x40,  # start line 0
    0xA1,  # column 127 is SEG0 (panel mounted the usual way round)
    0xA8, HEIGHT - 1,  # multiplex ratio
    0xC8,  # scan COM from the bottom
    0xD3, 0x00,  # no vertical offset
    0xDA, 0x12,  # COM pins: alternative, for 64-row panels
    0xD5, 0x80,  # clock divider
    0xD9, 0xF1,  # pre-charge period (internal charge pump)
    0xDB, 0x30,  # VCOMH deselect level
    0x81, 0x7F,  # contrast
    0xA4,  # show RAM contents
    0xA6,  # not inverted
    0x8D, 0x14,  # charge pump on
    0xAF,  # display on
)


def new_buffer():
    """A blank frame and a framebuf drawing onto it."""
    buffer = bytearray(WIDTH * PAGES)
    return buffer, framebuf.FrameBuffer(buffer, WIDTH, HEIGHT, framebuf.MONO_VLSB)


class SSD1306:
    def __init__(self, i2c, address=0x3C):
        self.i2c = i2c
        self.address = address
        self._command(*_INIT)

    def _command(self, *codes):
        # control byte 0x00: a stream of command bytes follows
        self.i2c.writeto(self.address, bytes((0x00,) + codes))

    def contrast(self, value):
        self._command(0x81, value & 0xFF)

    def power(self, on):
        self._command(0xAF if on else 0xAE)

    def show(self, buffer):
        """Send the whole 1,024-byte frame in one transfer."""
        self._command(0x21, 0, WIDTH - 1, 0x22, 0, PAGES - 1)
        self.i2c.writevto(self.address, (b"\x40", buffer))

    def show_region(self, buffer, page, x0, x1):
        """Send columns x0..x1 (inclusive) of one page."""
        self._command(0x21, x0, x1, 0x22, page, page)
        start = page * WIDTH
        self.i2c.writevto(self.address, (b"\x40", memoryview(buffer)[start + x0 : start + x1 + 1]))
