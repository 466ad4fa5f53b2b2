"""The seat node as a checked receiver: random good, unusable and corrupt blocks under
the MicroPython Unix port, read in the node's 512-byte chunks, a byte at a time and
in random pieces. Whatever comes, the node's loop must go on (its button still
sampled, every PING answered), take every good message once and in order, drop
exactly the bad ones and count each in STATE (PROTOCOL.md).

The stream is made here from a fixed seed; ``fuzz_stream`` also says what the node
must end with, from the host's side (golfbox.hal.protocol). A longer run:
    .venv/bin/python -c "import sys; sys.path[:0] = ['tests']; import test_node_fuzz as f; f.long_run(seeds=range(50))"
"""

import random
import tempfile
import time

from fake_mpy.harness import needs_micropython, run_micropython
from golfbox.hal import protocol

pytestmark = needs_micropython

TOKEN = 0x1234
PRESS = (20, 60)  # ms on the node's clock: its button is down meanwhile
BOARD_HOLD_MS = 800


def _block(seq, msg_type, payload, length=None, crc_flip=0):
    """A block as encode_block makes it, with its length or CRC made wrong if asked."""
    length = protocol.HEADER_SIZE + len(payload) + protocol.CRC_SIZE if length is None else length
    body = bytearray((length & 0xFF, seq & 0xFF, 0, msg_type))
    body += payload
    crc = protocol.crc16(body) ^ crc_flip
    body += bytes((crc >> 8, crc & 0xFF))
    return protocol.cobs_encode(body) + b"\x00"


class Model:
    """What the node must hold after the stream: the host's frame and settings, its counts."""

    def __init__(self):
        self.frame = bytearray(1024)
        self.contrast = None
        self.seat = None
        self.hold_ms = BOARD_HOLD_MS
        self.bad_blocks = 0
        self.bad_messages = 0
        self.pings = []
        self.hellos = 1  # the handshake's


def _good_frame(rng):
    payload = bytearray((protocol.FRAME_SHOW if rng.random() < 0.3 else 0,))
    for _ in range(rng.randrange(5)):
        count = rng.choice((0, 1, 2, rng.randrange(128), 128))
        count = min(count, protocol.MAX_PAYLOAD - len(payload) - 3)
        if count < 0:
            break
        x0 = rng.choice((0, 128 - count, rng.randrange(129 - count)))
        payload += bytes((rng.randrange(8), x0, count)) + bytes(rng.randrange(256) for _ in range(count))
    return bytes(payload)


def _unusable(rng):
    """A well-framed reliable message the node cannot use: dropped, counted."""
    frame = bytes((protocol.FRAME_SHOW,))
    return rng.choice((
        (protocol.MSG_FRAME, frame + bytes((rng.randrange(8, 256), 0, 1, 0xFF))),  # no such page
        (protocol.MSG_FRAME, frame + bytes((0, 100, 29)) + bytes(29)),  # past column 127
        (protocol.MSG_FRAME, frame + bytes((0, 0, 1, 7, 0))),  # a header cut short
        (protocol.MSG_FRAME, frame + bytes((1, 0, 9, 1, 2))),  # fewer bytes than n
        (protocol.MSG_FRAME, b""),  # not even its flags byte
        (protocol.MSG_CONTRAST, b""), (protocol.MSG_CONTRAST, b"\x10\x10"),
        (protocol.MSG_ASSIGN, b""), (protocol.MSG_ASSIGN, b"\x01\x02"),
        (protocol.MSG_HOLD, b"\x00\x63"), (protocol.MSG_HOLD, b"\x27\x11"), (protocol.MSG_HOLD, b"\x03"),
        (protocol.MSG_BUTTON, protocol.pack_button(1, 0, 0, 5)),  # the node's own message
        (rng.randrange(0x86, 0x100), bytes(rng.randrange(256) for _ in range(rng.randrange(8)))),
    ))


def _segments(payload):
    """FRAME's segments read as PROTOCOL.md words them, not by the code under test: flags(1),
    then page(1) x0(1) n(1) bytes(n) to the end, on the panel (page < 8, x0 + n <= 128)."""
    if not payload:
        raise ValueError("no flags byte")
    segments, rest = [], payload[1:]
    while rest:
        if len(rest) < 3:
            raise ValueError("a segment header cut short")
        (page, x0, count), data = rest[:3], rest[3:3 + rest[2]]
        if page >= 8 or x0 + count > 128 or len(data) < count:
            raise ValueError("a segment off the panel or cut short")
        segments.append((page, x0, data))
        rest = rest[3 + count:]
    return segments


def _apply(model, msg_type, payload):
    """Take a message as the node must; ValueError for one it cannot use (counted)."""
    if msg_type == protocol.MSG_FRAME:
        for page, x0, data in _segments(payload):
            model.frame[page * 128 + x0: page * 128 + x0 + len(data)] = data
    elif msg_type in (protocol.MSG_CONTRAST, protocol.MSG_ASSIGN) and len(payload) == 1:
        if msg_type == protocol.MSG_CONTRAST:
            model.contrast = payload[0]
        else:
            model.seat = payload[0]
    elif msg_type == protocol.MSG_HOLD and len(payload) == 2 and 100 <= int.from_bytes(payload, "big") <= 10000:
        model.hold_ms = int.from_bytes(payload, "big")
    else:
        raise ValueError("0x%02x of %d bytes" % (msg_type, len(payload)))


def _corrupt(rng, seq, msg_type, payload):
    """One bad block (the decoder reports it once), made from a message or from nothing."""
    kind = rng.randrange(7)
    if kind == 0:
        return _block(seq, msg_type, payload, crc_flip=rng.randrange(1, 0x10000))
    if kind == 1:  # a lost or doubled byte: the length says so
        return _block(seq, msg_type, payload, length=len(payload) + 6 + rng.choice((-1, 1, 2, 100)))
    if kind == 2:  # cut short: the rest never came
        encoded = _block(seq, msg_type, payload)
        return encoded[:rng.randrange(1, len(encoded) - 1)] + b"\x00"
    if kind == 3:  # a payload over 240 bytes, its length and CRC right, or a block too long to hold
        return _block(seq, msg_type, bytes(rng.randrange(1, 256) for _ in range(rng.randrange(241, 400))))
    if kind == 4:  # too short for a header and a CRC
        return bytes(rng.randrange(1, 256) for _ in range(rng.randrange(1, 6))) + b"\x00"
    if kind == 5:  # a run that points past the end of its block
        return bytes((200,)) + bytes(rng.randrange(1, 256) for _ in range(rng.randrange(1, 150))) + b"\x00"
    return bytes(rng.randrange(1, 256) for _ in range(rng.randrange(6, 600))) + b"\x00"  # noise


def fuzz_stream(seed, messages):
    """``messages`` random blocks of every sort after the handshake, and what the node must end with."""
    rng = random.Random(seed)
    model, out, seq = Model(), bytearray(), 0
    plan = [(protocol.MSG_ASSIGN, b"\x04")]  # reliable messages, None for anything else
    for _ in range(messages):
        roll = rng.random()
        if roll < 0.35:
            plan.append((protocol.MSG_FRAME, _good_frame(rng)))
        elif roll < 0.45:
            plan.append(rng.choice(((protocol.MSG_CONTRAST, bytes((rng.randrange(256),))),
                                        (protocol.MSG_ASSIGN, bytes((rng.randrange(256),))),
                                        (protocol.MSG_HOLD, protocol.pack_hold(rng.randrange(100, 10001))))))
        elif roll < 0.55:
            plan.append(_unusable(rng))
        else:
            plan.append(None)  # an unreliable block or a bad one, below
    plan.append((protocol.MSG_FRAME, bytes((protocol.FRAME_SHOW, 7, 127, 1, 0x5A))))  # shows what is left
    held_back = None  # a message sent after the next one: kept by the node until the gap fills
    for message in plan:
        if message is None:
            roll = rng.random()
            if roll < 0.3:
                token = bytes(rng.randrange(256) for _ in range(4))
                model.pings.append(token)
                out += _block(0, protocol.MSG_PING, token)
            elif roll < 0.4:
                model.bad_messages += 1
                out += _block(0, rng.choice((protocol.MSG_HELLO, protocol.MSG_PONG, protocol.MSG_STATE,
                                             rng.randrange(0x08, 0x80))), bytes(rng.randrange(12)))
            elif roll < 0.45:
                model.bad_messages += 1
                out += _block(0, protocol.MSG_SYNC, bytes(rng.choice((0, 1, 3))))
            elif roll < 0.5:
                model.hellos += 1  # the same token again (its HELLO lost): answered, no reset
                out += _block(0, protocol.MSG_SYNC, bytes((TOKEN >> 8, TOKEN & 0xFF)))
            elif roll < 0.55:
                out += _block(0, rng.choice((protocol.MSG_ACK, protocol.MSG_NAK)), b"")
            elif roll < 0.6:
                out += b"\x00" * rng.randrange(1, 4)  # empty blocks: nothing at all
            else:
                model.bad_blocks += 1
                out += _corrupt(rng, 0, protocol.MSG_PING, b"")
            continue
        msg_type, payload = message
        try:
            _apply(model, msg_type, payload)
        except ValueError:
            model.bad_messages += 1
        good = _block(seq, msg_type, payload)
        seq += 1
        if rng.random() < 0.1:  # first a corrupt copy, then the resend
            model.bad_blocks += 1
            out += _corrupt(rng, seq - 1, msg_type, payload)
        if held_back is not None:
            out += good + held_back  # the later one first
            held_back = None
        elif rng.random() < 0.05 and message is not plan[-1]:
            held_back = good
            continue
        else:
            out += good
        if rng.random() < 0.05:
            out += good  # a resend of one that had come: old, dropped
    assert held_back is None
    return bytes(out), model


# Runs under MicroPython: the node on a HostLine whose reads are cut to ``pieces``
# (cycled; None: as the USB port hands them, up to READ_CHUNK), its panel the real
# SSD1306 driver on the fake I2C bus, its one button down during PRESS.
NODE_RUN = """
import machine, node, oled, protocol
from buttons import Buttons
from hostline import HostLine

class Cut(HostLine):
    def __init__(self, pieces):
        HostLine.__init__(self)
        self.pieces, self.reads, self.longest = pieces, 0, 0
    def read(self, limit, timeout_ms):
        if self.pieces:
            limit = min(limit, self.pieces[self.reads % len(self.pieces)])
        data = HostLine.read(self, limit, timeout_ms)
        self.reads += 1
        self.longest = max(self.longest, len(data))
        return data

class Pin:
    def value(self):
        return 0 if PRESS[0] <= line.now < PRESS[1] else 1

for pieces in PIECES:
    line = Cut(pieces)
    i2c = machine.I2C(0)
    seat = node.SeatNode(line, lambda: (oled.SSD1306(i2c), None), Buttons([Pin()], 0, 20, 800), bytes(8), line.clock)
    line.sync(TOKEN)
    line.run(seat, 4, step_ms=2, ping=False)  # its HELLO, and the host hears it
    line.write_bytes(STREAM)
    steps = 0
    while line.to_node or line.before_hello is not None:
        line.run(seat, 2, step_ms=2, ping=False)
        steps += 1
    line.run(seat, max(0, 2 * PRESS[1] - line.now), step_ms=2, ping=False)  # the press, every 2 ms
    line.run(seat, 300, step_ms=50, ping=False)  # a STATE after the last block
    panel = i2c.devices[0x3C]
    print(repr({
        "frame": bytes(seat.frame).hex(), "panel": bytes(panel.ram).hex(), "waiting": seat.waiting,
        "contrast": seat.contrast, "panel_contrast": panel.contrast, "seat": seat.seat,
        "hold_ms": seat.buttons.hold_ms, "rx_errors": seat.link.rx_errors, "bad_messages": seat.bad_messages,
        "state_errors": protocol.unpack_state(line.received(protocol.MSG_STATE)[-1])[2],
        "pongs": [bytes(p).hex() for p in line.received(protocol.MSG_PONG)],
        "hellos": len(line.received(protocol.MSG_HELLO)),
        "buttons": sorted(set(protocol.unpack_button(p) for p in line.received(protocol.MSG_BUTTON))),
        "steps": steps, "longest_read": line.longest}))  # one line a run: the heap is small
"""


def run_node(stream, pieces):
    """Each run's end state, the node fed ``stream`` once per entry of ``pieces``."""
    with tempfile.NamedTemporaryFile(suffix=".bin") as file:
        file.write(stream)
        file.flush()
        prelude = (f"TOKEN = {TOKEN}\nPRESS = {PRESS!r}\nPIECES = {pieces!r}\n"
                   f"STREAM = open({file.name!r}, 'rb').read()\n")
        return [eval(line) for line in run_micropython(prelude + NODE_RUN, timeout=600).decode().splitlines()]


def check(result, model, stream_length, pieces):
    """The node ended as the model says, and its loop went round all the while."""
    frame = bytes(model.frame).hex()
    assert (result["frame"], result["panel"], result["waiting"]) == (frame, frame, False)
    assert (result["contrast"], result["seat"], result["hold_ms"]) == (model.contrast, model.seat, model.hold_ms)
    if model.contrast is not None:
        assert result["panel_contrast"] == model.contrast
    assert (result["rx_errors"], result["bad_messages"]) == (model.bad_blocks, model.bad_messages)
    assert result["state_errors"] == (model.bad_blocks + model.bad_messages) & 0xFFFF
    assert result["pongs"] == [token.hex() for token in model.pings]  # every PING, once, in order
    assert result["hellos"] == model.hellos
    # Its button, down 40 ms in the middle of it all, sampled every pass: one PRESSED,
    # stamped when the pin went down
    assert result["buttons"] == [(1, 0, 0, PRESS[0])]
    assert result["longest_read"] <= 512  # READ_CHUNK: the pins are read between the chunks
    if pieces is None:  # as the port hands them: 512 bytes a pass, none left waiting
        assert (result["longest_read"], result["steps"]) == (min(512, stream_length), -(-stream_length // 512))


def test_the_node_takes_random_good_bad_and_corrupt_blocks_as_the_protocol_says():
    """About 21 KB of 400 random messages: good and unusable ones, bad CRCs and lengths,
    cut-short and oversized blocks, noise, repeated and reordered messages. Read as
    the USB port hands them (512 bytes a pass), and in pieces of 1 to 700 bytes."""
    stream, model = fuzz_stream(seed=48, messages=400)
    pieces = [None, [7, 1, 300, 64, 511, 2, 700, 13]]
    for cut, result in zip(pieces, run_node(stream, pieces)):
        check(result, model, len(stream), cut)


def test_every_split_of_a_short_stream_between_two_reads_ends_the_same():
    """A block split across reads at any byte (a frame, a corrupt block, noise): the
    node ends as if it had come in one read. A read a byte at a time, too."""
    stream, model = fuzz_stream(seed=19, messages=10)  # 509 bytes: 3 bad blocks, 2 bad messages, 3 PINGs
    pieces = [[1]] + [[cut, len(stream)] for cut in range(1, len(stream))]
    results = run_node(stream, pieces)
    for cut, result in zip(pieces, results):
        check(result, model, len(stream), cut)


def long_run(seeds, messages=2000):
    """Not part of the suite: many streams, each as the USB port hands it. Prints the totals."""
    started, frames, total = time.monotonic(), 0, 0
    for seed in seeds:
        stream, model = fuzz_stream(seed, messages)
        pieces = [None, [1, 97, 512]]
        for cut, result in zip(pieces, run_node(stream, pieces)):
            check(result, model, len(stream), cut)
        frames += messages
        total += len(stream)
    print(f"{frames} messages, {total} bytes, {time.monotonic() - started:.1f} s")
