"""``hung://``: pyserial's loop:// whose close() waits, as closing the tty of a hung
USB CDC device does (the kernel waits up to 30 s for output the device never takes).
It waits until ``released`` is set, at most ``MOST`` s (a test that fails ends anyway).
"""

import threading

from serial.urlhandler import protocol_loop

MOST = 30.0
closing = threading.Event()  # a close() has begun
released = threading.Event()


class Serial(protocol_loop.Serial):
    def from_url(self, url):
        return super().from_url(url.replace("hung://", "loop://", 1))

    def close(self):
        if self.is_open:
            closing.set()
            released.wait(MOST)
        super().close()
