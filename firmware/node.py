"""The seat node: shows the frames the host sends, reports its buttons, and nothing more.

All the game lives on the host. The node keeps the host's last frame, so when
the host falls silent it can show "waiting for the table" and put the frame
back when the host is heard again.
"""

import protocol
from oled import PAGES, WIDTH, new_buffer

from time import ticks_diff, ticks_ms

FIRMWARE_VERSION = "1.3.3"
HOST_SILENT_MS = 3000  # the host pings every 250 ms (PROTOCOL.md): 3 s of silence, it is gone
STATE_EVERY_MS = 250  # often enough that a lossy line still shows the host a live node
READ_CHUNK = 512  # bytes read per loop, so buttons are sampled even during a big frame
LOOP_WAIT_MS = 2
PANEL_RETRY_MS = 2000  # a panel that did not answer is opened again this often


def draw_waiting_screen(fb, seat, id_hex, version):
    fb.fill(0)
    fb.text("golfbox", 0, 0, 1)
    fb.text("waiting for", 0, 12, 1)
    fb.text("the table...", 0, 22, 1)
    if seat is None:
        fb.text("no seat yet", 0, 34, 1)
    elif seat == protocol.UNASSIGNED_SEAT:
        fb.text("not in config", 0, 34, 1)
    else:
        fb.text("seat %d" % (seat + 1), 0, 34, 1)
    fb.text(id_hex[:16], 0, 46, 1)
    fb.text("fw " + version, 0, 56, 1)


class SeatNode:
    """``open_panel()`` returns (panel, None) or (None, error): a node whose OLED does
    not answer keeps its buttons, tells the host in STATE and tries the panel again."""

    def __init__(self, serial, open_panel, buttons, unique_id, clock=ticks_ms):
        self.serial = serial
        self.open_panel = open_panel
        self.panel = None
        self.panel_tried = None
        self.contrast = None  # the host's last contrast, set again on a reopened panel
        self.buttons = buttons
        self.board_hold_ms = buttons.hold_ms  # until the host says (HOLD): each session starts from it
        self.unique_id = bytes(unique_id)
        self.id_hex = self.unique_id.hex()
        self.clock = clock
        self.link = protocol.Link(max_queue=32)
        self.frame, _ = new_buffer()  # what the host drew, in panel memory layout
        self.screen, self.screen_fb = new_buffer()  # the node's own waiting screen
        self.dirty = [None] * PAGES  # per page: [x0, x1] not yet sent to the panel
        self.show_due = False
        self.frame_valid = False  # the host has drawn a whole frame in this session
        self.session = None  # the host's SYNC token
        self.seat = None
        self.events = 0  # button events sent, wraps at 16 bits
        self.bad_messages = 0
        now = clock()
        self.last_heard = None
        self.last_state = now
        self.waiting = False
        self._try_panel(now)
        self._wait(now)

    def run(self):
        while True:
            try:
                self.step()
            except BaseException as error:  # nothing may end the node (KeyboardInterrupt is no Exception)
                self.bad_messages += 1
                import sys

                sys.print_exception(error, sys.stderr)

    def step(self):
        data = self.serial.read(READ_CHUNK, LOOP_WAIT_MS)
        now = self.clock()
        if data:
            heard = self.link.rx_blocks
            for msg_type, payload in self.link.receive(data, now):
                self._handle(msg_type, payload)
            if self.link.rx_blocks != heard:
                self.last_heard = now
            # Handling them took a while (a frame, a contrast write to the panel): a pin that
            # went down meanwhile is read below, and must not be stamped before it went down.
            now = self.clock()
        for button, kind, tick in self.buttons.sample(now):
            self._button(button, kind, tick)
        if self.session is not None and ticks_diff(now, self.last_state) >= STATE_EVERY_MS:
            self.last_state = now
            errors = (self.link.rx_errors + self.bad_messages) & 0xFFFF
            flags = protocol.STATE_PANEL_FAILING if self.panel is None else 0
            # ``now`` as it goes out (the write is below, before the slow panel): the host
            # sets it against its read time to place our presses on the table's clock.
            self.link.send_unreliable(protocol.MSG_STATE, protocol.pack_state(self.events, self.buttons.down_bits(), errors, flags, now))
        out = self.link.poll(now)  # acks go out before the slow I2C transfer below
        if out:
            self.serial.write(out)
        self._update_panel(now)

    def _button(self, button, kind, tick):
        if self.session is None:
            return  # nobody to tell: a press before the table is up means nothing
        # Counted even when the queue is full and it is dropped: the host sees the gap.
        self.events = (self.events + 1) & 0xFFFF
        # When it was pressed goes with it: a resend after line noise still says so.
        self.link.send(protocol.MSG_BUTTON, protocol.pack_button(self.events, button, kind, tick))

    def _handle(self, msg_type, payload):
        if msg_type == protocol.MSG_SYNC:
            if len(payload) != 2:
                self.bad_messages += 1
                return
            token = (payload[0] << 8) | payload[1]
            if token != self.session:  # a repeated SYNC (our HELLO got lost) must not reset twice
                self.link.reset()
                self.session = token
                self.buttons.hold_ms = self.board_hold_ms
                self.frame_valid = False
                self.frame[:] = bytes(len(self.frame))  # the host starts from a blank frame too
                # The host sends only what differs from blank, but the panel may still show
                # the last session's frame: its first frame repaints every page.
                self.dirty = [[0, WIDTH - 1] for _ in range(PAGES)]
            self.link.send_unreliable(protocol.MSG_HELLO, protocol.pack_hello(token, self.unique_id, FIRMWARE_VERSION))
        elif msg_type == protocol.MSG_PING and len(payload) == 4:
            self.link.send_unreliable(protocol.MSG_PONG, payload)
        elif msg_type == protocol.MSG_FRAME:
            self._frame(payload)
        elif msg_type == protocol.MSG_ASSIGN and len(payload) == 1:
            self.seat = payload[0]
            if self.waiting:
                self._draw_waiting()
        elif msg_type == protocol.MSG_CONTRAST and len(payload) == 1:
            self.contrast = payload[0]
            self._panel("contrast", payload[0])
        elif msg_type == protocol.MSG_HOLD:
            self._hold(payload)
        else:
            self.bad_messages += 1

    def _hold(self, payload):
        """The host's hold time (gpio.hold_time): a long press is the same on every seat."""
        try:
            self.buttons.hold_ms = protocol.unpack_hold(payload)
        except ValueError:
            self.bad_messages += 1

    def _frame(self, payload):
        try:
            segments = protocol.frame_segments(payload)
        except ValueError:
            self.bad_messages += 1
            return
        for page, x0, data in segments:
            if not data:
                continue  # n = 0 draws nothing: it must not widen a page's range to x0..x0-1
            start = page * WIDTH + x0
            self.frame[start : start + len(data)] = data
            region = self.dirty[page]
            x1 = x0 + len(data) - 1
            if region is None:
                self.dirty[page] = [x0, x1]
            else:
                region[0] = min(region[0], x0)
                region[1] = max(region[1], x1)
        if payload[0] & protocol.FRAME_SHOW:
            self.show_due = True
            self.frame_valid = True

    def _update_panel(self, now):
        if self.panel is None:
            if ticks_diff(now, self.panel_tried) < PANEL_RETRY_MS or not self._try_panel(now):
                return
            self.dirty = [None] * PAGES
            if self.waiting:
                self._draw_waiting()
            elif self.frame_valid:
                self._panel("show", self.frame)
        silent = self.last_heard is None or ticks_diff(now, self.last_heard) >= HOST_SILENT_MS
        if silent:
            if not self.waiting:
                self._wait(now)
            return
        if self.waiting:
            if not self.frame_valid:
                return
            self.waiting = False
            self.show_due = False
            self.dirty = [None] * PAGES
            self._panel("show", self.frame)
        elif self.show_due:
            self.show_due = False
            for page in range(PAGES):
                region = self.dirty[page]
                if region is not None:
                    self.dirty[page] = None
                    self._panel("show_region", self.frame, page, region[0], region[1])

    def _wait(self, now):
        self.waiting = True
        self._draw_waiting()

    def _draw_waiting(self):
        draw_waiting_screen(self.screen_fb, self.seat, self.id_hex, FIRMWARE_VERSION)
        self._panel("show", self.screen)

    def _try_panel(self, now):
        self.panel_tried = now
        self.panel, _error = self.open_panel()
        if self.panel is not None and self.contrast is not None:
            self._panel("contrast", self.contrast)
        return self.panel is not None

    def _panel(self, method, *args):
        """Call the panel; a bus error drops it (retried later) instead of ending the node."""
        if self.panel is None:
            return
        try:
            getattr(self.panel, method)(*args)
        except OSError:
            self.panel = None
