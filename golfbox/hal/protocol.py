"""The seat-node link protocol: one module for the host (CPython) and the node (MicroPython).

The same file runs in both places (the firmware flash step copies it onto the
board as ``protocol.py``), so it keeps to what MicroPython has: no dataclasses,
no typing imports, no ``__future__``; time comes in as integer milliseconds.

Wire format (ideas from Klipper's host/MCU protocol, not its code)::

    COBS( len | seq | ack | type | payload | crc16 ) 0x00

* 0x00 only ever appears as the end-of-block sync byte, so a receiver that
  starts mid-stream, or meets garbage, resynchronises at the next 0x00.
* len counts every byte from len to crc16: a lost or doubled byte never passes.
* crc16 is CRC-16/CCITT-FALSE over len..payload, big-endian.
* ``type`` with the RELIABLE bit set is numbered by ``seq`` and retransmitted
  until acknowledged (window of 16, selective repeat); other types are fire-and-forget.
* every block carries ``ack``, the next sequence number its sender expects, so
  acknowledgements ride along with traffic; a NAK asks for an early resend.
"""

try:  # MicroPython: millisecond ticks wrap, compare them with ticks_diff
    from time import ticks_diff
except ImportError:

    def ticks_diff(a, b):
        return a - b


# 2: BUTTON and STATE carry the node's tick (firmware 1.2.0); 3: HOLD (firmware 1.3.0)
PROTOCOL_VERSION = 3
OLDEST_PROTOCOL_VERSION = 1  # the host still takes nodes that send no tick
SYNC_BYTE = 0x00

RELIABLE = 0x80
# fire-and-forget
MSG_SYNC = 0x01  # host -> node: token(2); start a fresh session, answer HELLO
MSG_HELLO = 0x02  # node -> host: token(2) protocol(1) id_len(1) id firmware-version(utf-8)
MSG_ACK = 0x03  # either way: nothing but the ack field
MSG_NAK = 0x04  # either way: "I lost something, resend from ack"
MSG_PING = 0x05  # host -> node: token(4)
MSG_PONG = 0x06  # node -> host: token(4) echoed
MSG_STATE = 0x07  # node -> host: event counter(2) buttons down bitmap(1) rx errors(2) flags(1) tick(2)
# numbered, acknowledged, retransmitted
MSG_ASSIGN = RELIABLE | 0x01  # host -> node: seat(1), 0xFF = not assigned
MSG_FRAME = RELIABLE | 0x02  # host -> node: flags(1) then segments page(1) x0(1) n(1) bytes(n)
MSG_CONTRAST = RELIABLE | 0x03  # host -> node: contrast(1)
MSG_BUTTON = RELIABLE | 0x04  # node -> host: event counter(2) button(1) kind(1) tick(2)
MSG_HOLD = RELIABLE | 0x05  # host -> node: hold time in ms(2), sent to protocol 3 and later

FRAME_SHOW = 0x01  # FRAME flag: last part of a frame, push it to the panel
UNASSIGNED_SEAT = 0xFF

BUTTON_CODES = ("left", "right", "ok", "back")  # index = wire code, names = base.Button values
KIND_CODES = ("pressed", "held")  # index = wire code, names = base.EventKind values

HEADER_SIZE = 4
CRC_SIZE = 2
MAX_PAYLOAD = 240
MIN_PAYLOAD_BUDGET = 12
START_PAYLOAD_BUDGET = 24  # slow start: grow while blocks get through, halve when they do not
MAX_BLOCK = HEADER_SIZE + MAX_PAYLOAD + CRC_SIZE
MAX_ENCODED = MAX_BLOCK + MAX_BLOCK // 254 + 2

PANEL_WIDTH = 128
PANEL_PAGES = 8  # 64 rows in 8-row pages, SSD1306 GDDRAM layout (MONO_VLSB)


def _crc_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _crc_table()


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): crc16(b"123456789") == 0x29B1."""
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ byte]
    return crc


def cobs_encode(data):
    """Consistent Overhead Byte Stuffing: the result holds no 0x00 byte."""
    out = bytearray(b"\x00")
    code_at = 0
    code = 1
    for byte in data:
        if byte:
            out.append(byte)
            code += 1
            if code == 0xFF:
                out[code_at] = code
                code_at = len(out)
                out.append(0)
                code = 1
        else:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(data):
    """Inverse of cobs_encode; raises ValueError on a malformed block."""
    out = bytearray()
    index = 0
    end = len(data)
    while index < end:
        code = data[index]
        if code == 0:
            raise ValueError("zero byte inside block")
        stop = index + code
        if stop > end:
            raise ValueError("COBS run past end of block")
        out.extend(data[index + 1 : stop])
        index = stop
        if code != 0xFF and index < end:
            out.append(0)
    return bytes(out)


def encode_block(seq, ack, msg_type, payload=b""):
    body = bytearray((HEADER_SIZE + len(payload) + CRC_SIZE, seq & 0xFF, ack & 0xFF, msg_type))
    body.extend(payload)
    crc = crc16(body)
    body.append(crc >> 8)
    body.append(crc & 0xFF)
    return cobs_encode(body) + b"\x00"


class BlockDecoder:
    """Splits a byte stream at sync bytes and checks each block.

    ``feed`` never raises: a bad block goes to ``on_error(offset, reason)``,
    where offset is the stream position (bytes since start) of its first byte.
    """

    def __init__(self, on_error=None):
        self.on_error = on_error
        self.offset = 0  # stream position of the next byte fed
        self._buf = bytearray()
        self._start = 0
        self._overflow = False

    def feed(self, data):
        """Returns a list of (seq, ack, type, payload) for every good block in ``data``."""
        blocks = []
        for byte in data:
            if byte != SYNC_BYTE:
                if not self._buf and not self._overflow:
                    self._start = self.offset
                if len(self._buf) < MAX_ENCODED:
                    self._buf.append(byte)
                else:
                    self._overflow = True
            else:
                if self._overflow:
                    self._error("block longer than %d bytes" % MAX_ENCODED)
                elif self._buf:
                    block = self._check(bytes(self._buf))
                    if block is not None:
                        blocks.append(block)
                self._buf = bytearray()
                self._overflow = False
            self.offset += 1
        return blocks

    def _check(self, encoded):
        try:
            body = cobs_decode(encoded)
        except ValueError as err:
            self._error("bad framing: %s" % err)
            return None
        if len(body) < HEADER_SIZE + CRC_SIZE:
            self._error("block of %d bytes is too short" % len(body))
            return None
        if body[0] != len(body):
            self._error("length %d, block of %d bytes" % (body[0], len(body)))
            return None
        if len(body) > MAX_BLOCK:  # its encoding may still fit MAX_ENCODED
            self._error("payload of %d bytes, at most %d" % (len(body) - HEADER_SIZE - CRC_SIZE,
                                                             MAX_PAYLOAD))
            return None
        crc = crc16(body[:-CRC_SIZE])
        if crc != (body[-2] << 8) | body[-1]:
            self._error("crc mismatch")
            return None
        return body[1], body[2], body[3], body[HEADER_SIZE:-CRC_SIZE]

    def _error(self, reason):
        if self.on_error is not None:
            self.on_error(self._start, reason)


class _Pending:
    __slots__ = ("seq", "msg_type", "payload", "sent_at", "resent")  # resent: how many times

    def __init__(self, seq, msg_type, payload, sent_at):
        self.seq = seq
        self.msg_type = msg_type
        self.payload = payload
        self.sent_at = sent_at
        self.resent = 0


class Link:
    """Reliable, ordered, duplicate-free messages over a lossy byte stream.

    Not thread-safe and does no I/O: ``receive`` takes bytes read, ``poll``
    returns bytes to write (new messages, retransmissions, acks). Both sides
    of the link use this same class.

    The receiver keeps messages that arrive after a gap and answers NAK (ack =
    the first missing one) while the gap lasts; the sender then resends just
    that message. When the retransmit timeout strikes, everything unacknowledged
    goes again. The timeout follows the measured round trip (Jacobson/Karels).
    """

    WINDOW = 16

    def __init__(self, on_error=None, min_rto_ms=10, max_rto_ms=250, max_queue=64):
        self.min_rto_ms = min_rto_ms
        self.max_rto_ms = max_rto_ms
        self.max_queue = max_queue
        self.on_error = on_error
        self.queued_total = 0  # reliable messages ever accepted by send()
        self.acked_total = 0  # ... of which acknowledged (or abandoned by reset)
        self.retransmits = 0
        self.rx_errors = 0
        self.rx_blocks = 0  # good blocks of any type: the other side is alive
        self.payload_budget = START_PAYLOAD_BUDGET  # a hint for senders that can split their data
        self.srtt_ms = 0
        self.rttvar_ms = 0
        self.rto_ms = 30  # until measured; a USB round trip is a few ms
        self.decoder = BlockDecoder(self._decode_error)
        self.reset()

    def reset(self):
        """Start a new session: sequence numbers back to 0, undelivered messages dropped."""
        self.tx_next = 0
        self.unacked = []
        self.queue = []
        self.rx_expected = 0
        self.rx_early = {}  # seq -> (type, payload) that arrived after a gap
        self.ack_due = False
        self.nak_due = False
        self.out = bytearray()
        self.acked_total = self.queued_total

    # -- sending -------------------------------------------------------------

    def send(self, msg_type, payload=b""):
        """Queue a reliable message; returns its running number, or None if the queue is full."""
        if len(self.queue) >= self.max_queue:
            return None
        self.queue.append((msg_type, bytes(payload)))
        self.queued_total += 1
        return self.queued_total

    def send_unreliable(self, msg_type, payload=b""):
        self.out.extend(encode_block(0, self.rx_expected, msg_type, payload))
        self.ack_due = False

    def window_free(self):
        """How many more reliable messages would go out on the next poll."""
        return self.WINDOW - len(self.unacked) - len(self.queue)

    def idle(self):
        return not self.unacked and not self.queue

    def oldest_resends(self):
        """How often the oldest unacknowledged message was resent: a big one on a noisy line may never pass."""
        return self.unacked[0].resent if self.unacked else 0

    def poll(self, now):
        """Bytes to write now: retransmissions, queued messages that fit the window, an ack."""
        # NAK when a block was lost (corrupt, or a gap): the sender resends the first missing one.
        nak = self.nak_due or (self.ack_due and self.rx_early)
        self.nak_due = False
        # No exponential backoff: on a USB cable loss is noise, not congestion. The timeout
        # follows measured round trips (clean acks, and the host's PING/PONG).
        if self.unacked and ticks_diff(now, self.unacked[0].sent_at) >= self.rto_ms:
            for pending in self.unacked:
                self._resend(pending, now)
        while self.queue and len(self.unacked) < self.WINDOW:
            msg_type, payload = self.queue.pop(0)
            pending = _Pending(self.tx_next, msg_type, payload, now)
            self.tx_next = (self.tx_next + 1) & 0xFF
            self.unacked.append(pending)
            self._emit(pending)
        if nak:
            self.send_unreliable(MSG_NAK)
        elif self.ack_due:
            self.send_unreliable(MSG_ACK)
        out = bytes(self.out)
        self.out = bytearray()
        return out

    def _emit(self, pending):
        self.out.extend(encode_block(pending.seq, self.rx_expected, pending.msg_type, pending.payload))
        self.ack_due = False

    def _resend(self, pending, now):
        pending.sent_at = now
        pending.resent += 1
        self._emit(pending)
        self.retransmits += 1
        # Long blocks are the ones a noisy line kills: send smaller ones for a while.
        self.payload_budget = max(MIN_PAYLOAD_BUDGET, self.payload_budget // 2)

    # -- receiving -----------------------------------------------------------

    def receive(self, data, now):
        """Feed bytes read; returns the messages now deliverable as (type, payload), in order."""
        delivered = []
        for seq, ack, msg_type, payload in self.decoder.feed(data):
            self.rx_blocks += 1
            self._take_ack(ack, now, msg_type == MSG_NAK)
            if msg_type & RELIABLE:
                self.ack_due = True
                distance = (seq - self.rx_expected) & 0xFF
                if distance == 0:
                    delivered.append((msg_type, payload))
                    self.rx_expected = (self.rx_expected + 1) & 0xFF
                    while self.rx_expected in self.rx_early:  # the gap is filled: hand over what waited
                        delivered.append(self.rx_early.pop(self.rx_expected))
                        self.rx_expected = (self.rx_expected + 1) & 0xFF
                elif distance < self.WINDOW:  # after a gap: keep it, ask for the missing one
                    self.rx_early[seq] = (msg_type, payload)
                    self.nak_due = True
                # else an old one again (our ack was lost): the ack above answers it
            elif msg_type != MSG_ACK and msg_type != MSG_NAK:
                delivered.append((msg_type, payload))
        return delivered

    def _take_ack(self, ack, now, is_nak):
        if not self.unacked:
            return
        count = (ack - self.unacked[0].seq) & 0xFF
        if 0 < count <= len(self.unacked):
            newest = self.unacked[count - 1]
            if not newest.resent:  # Karn: only unambiguous round trips
                self.sample_rtt(ticks_diff(now, newest.sent_at))
                self.payload_budget = min(MAX_PAYLOAD, self.payload_budget + 8)
            del self.unacked[:count]
            self.acked_total += count
        if is_nak and self.unacked:
            oldest = self.unacked[0]  # the one the receiver is missing
            if ticks_diff(now, oldest.sent_at) >= max(2, self.srtt_ms):  # not while it may be on its way
                self._resend(oldest, now)

    def sample_rtt(self, rtt):
        """Feed a measured round trip in ms: from clean acks here, and from PING/PONG by the host,
        which keeps the timeout honest while every data message needs resending (Karn)."""
        if rtt < 0:
            return
        if self.srtt_ms == 0:
            self.srtt_ms = rtt
            self.rttvar_ms = rtt // 2
        else:
            self.rttvar_ms = (3 * self.rttvar_ms + abs(self.srtt_ms - rtt)) // 4
            self.srtt_ms = (7 * self.srtt_ms + rtt) // 8
        rto = self.srtt_ms + max(4 * self.rttvar_ms, 5)
        self.rto_ms = max(self.min_rto_ms, min(rto, self.max_rto_ms))

    def _decode_error(self, offset, reason):
        self.rx_errors += 1
        self.nak_due = True
        if self.on_error is not None:
            self.on_error(offset, reason)


# -- payloads shared by both ends --------------------------------------------


def pack_hello(token, unique_id, firmware_version):
    version = firmware_version.encode()
    return bytes((token >> 8, token & 0xFF, PROTOCOL_VERSION, len(unique_id))) + bytes(unique_id) + version


def unpack_hello(payload):
    """Returns (token, protocol, unique_id bytes, firmware version); ValueError if malformed."""
    if len(payload) < 4 or len(payload) < 4 + payload[3]:
        raise ValueError("HELLO of %d bytes is too short" % len(payload))
    id_end = 4 + payload[3]
    return (payload[0] << 8) | payload[1], payload[2], bytes(payload[4:id_end]), bytes(payload[id_end:]).decode()


def _tick_bytes(tick):
    return b"" if tick is None else bytes((tick >> 8 & 0xFF, tick & 0xFF))


def _tick(payload, at):
    """The 16-bit tick at ``payload[at:]``, or None for a node that sends none (protocol 1)."""
    return (payload[at] << 8) | payload[at + 1] if len(payload) == at + 2 else None


def pack_button(counter, button_code, kind_code, tick=None):
    """``tick``: the node's ticks_ms when the button went down (PRESSED) or became HELD,
    its low 16 bits; None only to speak as a protocol-1 node does."""
    return bytes((counter >> 8 & 0xFF, counter & 0xFF, button_code, kind_code)) + _tick_bytes(tick)


def unpack_button(payload):
    """Returns (counter, button code, kind code, tick or None); ValueError if malformed.

    A protocol-1 node (firmware 1.1.1 and before) sends no tick: 4 bytes."""
    if len(payload) not in (4, 6) or payload[2] >= len(BUTTON_CODES) or payload[3] >= len(KIND_CODES):
        raise ValueError("bad BUTTON payload %r" % bytes(payload))
    return (payload[0] << 8) | payload[1], payload[2], payload[3], _tick(payload, 4)


# HOLD's range, and so gpio.hold_time's (the config reads these), timed from the press
# (longer than the node's 20 ms debounce)
MIN_HOLD_MS = 100
MAX_HOLD_MS = 10000


def pack_hold(hold_ms):
    """HOLD: a press this long (ms) also sends HELD, as gpio.hold_time on the Pi's own pads."""
    return bytes((hold_ms >> 8 & 0xFF, hold_ms & 0xFF))


def unpack_hold(payload):
    """Returns the hold time in ms; ValueError if malformed or out of range."""
    if len(payload) != 2:
        raise ValueError("bad HOLD payload %r" % bytes(payload))
    hold_ms = (payload[0] << 8) | payload[1]
    if not MIN_HOLD_MS <= hold_ms <= MAX_HOLD_MS:
        raise ValueError("HOLD of %d ms, expected %d to %d" % (hold_ms, MIN_HOLD_MS, MAX_HOLD_MS))
    return hold_ms


STATE_PANEL_FAILING = 0x01  # STATE flags: the node's OLED does not answer (its buttons still work)


def pack_state(counter, down_bits, rx_errors, flags=0, tick=None):
    """``tick``: the node's ticks_ms as it sends this STATE, its low 16 bits (None: protocol 1)."""
    return bytes((counter >> 8 & 0xFF, counter & 0xFF, down_bits, rx_errors >> 8 & 0xFF, rx_errors & 0xFF,
                  flags)) + _tick_bytes(tick)


def unpack_state(payload):
    """Returns (event counter, buttons-down bitmap, receive errors, flags, tick or None);
    ValueError if malformed.

    Fields came later: a 5-byte STATE (firmware 1.0.0) has no flags, a 6-byte one
    (firmware 1.1.x) no tick."""
    if len(payload) not in (5, 6, 8):
        raise ValueError("bad STATE payload %r" % bytes(payload))
    flags = payload[5] if len(payload) >= 6 else 0
    return (payload[0] << 8) | payload[1], payload[2], (payload[3] << 8) | payload[4], flags, _tick(payload, 6)


def frame_segments(payload):
    """Returns [(page, x0, data)] from a FRAME payload after its flags byte; ValueError if malformed.

    The whole payload is checked before anything is returned, so a bad message changes no pixel.
    """
    if not payload:
        raise ValueError("FRAME without its flags byte")
    segments = []
    index = 1
    end = len(payload)
    while index < end:
        if index + 3 > end:
            raise ValueError("FRAME segment header cut short at byte %d" % index)
        page, x0, count = payload[index], payload[index + 1], payload[index + 2]
        start = index + 3
        if page >= PANEL_PAGES or x0 + count > PANEL_WIDTH or start + count > end:
            raise ValueError("FRAME segment out of range at byte %d" % index)
        segments.append((page, x0, payload[start : start + count]))
        index = start + count
    return segments
