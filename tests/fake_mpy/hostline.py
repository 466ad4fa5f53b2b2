"""The host's end of the line to a SeatNode run in-process under MicroPython, on a
clock the test moves (runs under MicroPython, from MICROPYPATH like machine.py).

For tests that step the node's loop by hand: a panel that fails at a given moment,
how often the node says something. The end-to-end tests run firmware/main.py
behind a pty instead (harness.FakeNode).
"""

import protocol

PING_EVERY_MS = 250  # as the host does (PROTOCOL.md)


class HostLine:
    def __init__(self):
        self.now = 0
        self.link = protocol.Link()
        self.to_node = bytearray()  # written by the host, not yet read by the node
        self.from_node = bytearray()
        # After a SYNC the host sends nothing more until the node's HELLO (PROTOCOL.md,
        # Handshake): what the test sends meanwhile waits here, as on the host.
        self.before_hello = None
        self.hellos = 0

    # the node's side: its serial port and its clock
    def read(self, limit, timeout_ms):
        """As usbserial.UsbSerial.read: all that is waiting, but never more than ``limit``."""
        if self.before_hello is not None and len(self.received(protocol.MSG_HELLO)) > self.hellos:
            self.to_node.extend(self.before_hello)
            self.before_hello = None
        data, self.to_node = bytes(self.to_node[:limit]), self.to_node[limit:]  # no del of a slice here
        return data

    def write(self, data):
        self.from_node.extend(data)

    def clock(self):
        return self.now

    # the host's side
    def sync(self, token=1):
        self.to_node.extend(protocol.encode_block(0, 0, protocol.MSG_SYNC, bytes((token >> 8, token & 0xFF))))
        self.hellos = len(self.received(protocol.MSG_HELLO))
        self.before_hello = bytearray()

    def write_bytes(self, data):
        """Bytes for the node as they come off the line: blocks made by hand, noise."""
        self._write(data)

    def _write(self, data):
        (self.to_node if self.before_hello is None else self.before_hello).extend(data)

    def send(self, msg_type, payload):
        self.link.send(msg_type, payload)
        self._write(self.link.poll(self.now))

    def run(self, node, ms, step_ms=10, ping=True):
        """Step the node for ``ms``, pinging as the host does unless told it has gone."""
        end = self.now + ms
        while self.now < end:
            if ping and self.now % PING_EVERY_MS == 0:
                self.link.send_unreliable(protocol.MSG_PING, self.now.to_bytes(4, "big"))  # its time, as the host's
                self._write(self.link.poll(self.now))
            node.step()
            self.now += step_ms

    def received(self, msg_type):
        """The payloads of ``msg_type`` the node has sent, oldest first (a resend once)."""
        return [payload for kind, payload in protocol.Link().receive(bytes(self.from_node), 0) if kind == msg_type]
