"""The link protocol on its own: framing, CRC, the decoder under garbage, the reliable Link."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from golfbox.hal import protocol


def decode_all(data):
    return protocol.BlockDecoder().feed(data)


def test_crc16_is_ccitt_false():
    assert protocol.crc16(b"123456789") == 0x29B1


@given(st.binary(max_size=600))
def test_cobs_round_trip_and_never_emits_the_sync_byte(data):
    encoded = protocol.cobs_encode(data)
    assert 0 not in encoded
    assert protocol.cobs_decode(encoded) == data


@given(st.binary(max_size=2000))
@settings(max_examples=300)
def test_decoder_never_raises_on_any_input(data):
    errors = []
    decoder = protocol.BlockDecoder(lambda offset, reason: errors.append((offset, reason)))
    decoder.feed(data)
    assert all(0 <= offset < len(data) for offset, _ in errors)


@given(garbage=st.binary(max_size=300), payload=st.binary(max_size=protocol.MAX_PAYLOAD), seq=st.integers(0, 255))
def test_a_good_block_after_garbage_is_recovered_at_the_next_sync_byte(garbage, payload, seq):
    decoder = protocol.BlockDecoder()
    blocks = decoder.feed(garbage + b"\x00" + protocol.encode_block(seq, 7, protocol.MSG_FRAME, payload))
    assert blocks[-1] == (seq, 7, protocol.MSG_FRAME, payload)


def test_a_corrupt_block_is_reported_with_its_byte_offset_and_dropped():
    good = protocol.encode_block(1, 0, protocol.MSG_BUTTON, b"\x00\x01\x02\x00")
    bad = bytearray(protocol.encode_block(2, 1, protocol.MSG_BUTTON, b"\x11\x12\x13\x14"))
    assert bad.index(0) == len(bad) - 1  # one COBS run: byte 5 is the first payload byte
    bad[5] ^= 0x40  # same length, wrong CRC
    errors = []
    decoder = protocol.BlockDecoder(lambda offset, reason: errors.append((offset, reason)))
    blocks = decoder.feed(good + bytes(bad) + good)
    assert [b[0] for b in blocks] == [1, 1]
    assert errors == [(len(good), "crc mismatch")]


def test_a_lost_byte_is_caught_by_the_length_even_when_the_crc_would_not():
    block = protocol.encode_block(0, 0, protocol.MSG_FRAME, b"\x10" * 8)
    errors = []
    decoder = protocol.BlockDecoder(lambda offset, reason: errors.append(reason))
    assert decoder.feed(block[:3] + block[4:]) == []
    assert len(errors) == 1


def test_an_overlong_block_is_dropped_and_the_decoder_resyncs():
    errors = []
    decoder = protocol.BlockDecoder(lambda offset, reason: errors.append(reason))
    good = protocol.encode_block(0, 0, protocol.MSG_PING, b"abcd")
    assert decoder.feed(b"\x01" * 5000 + b"\x00" + good) == [(0, 0, protocol.MSG_PING, b"abcd")]
    assert errors == [f"block longer than {protocol.MAX_ENCODED} bytes"]


def test_a_payload_one_byte_over_the_limit_is_dropped():
    """241 bytes passed: its encoding still fits the decoder's buffer. PROTOCOL.md says 240."""
    errors = []
    decoder = protocol.BlockDecoder(lambda offset, reason: errors.append((offset, reason)))
    at_limit = protocol.encode_block(1, 0, protocol.MSG_FRAME, bytes(protocol.MAX_PAYLOAD))
    over = protocol.encode_block(2, 0, protocol.MSG_FRAME, bytes(protocol.MAX_PAYLOAD + 1))
    blocks = decoder.feed(at_limit + over)
    assert [seq for seq, _, _, _ in blocks] == [1]
    assert errors == [(len(at_limit), f"payload of {protocol.MAX_PAYLOAD + 1} bytes, at most 240")]


class Wire:
    """Carries bytes between two Links with a simulated clock, mangling a fraction of them."""

    def __init__(self, loss, seed):
        self.loss = loss
        self.rng = random.Random(seed)

    def carry(self, data):
        out = bytearray()
        for byte in data:
            roll = self.rng.random()
            if roll < self.loss / 3:
                continue
            if roll < 2 * self.loss / 3:
                out.append(byte ^ self.rng.randrange(1, 256))
            elif roll < self.loss:
                out += bytes((byte, byte))
            else:
                out.append(byte)
        return bytes(out)


def run_links(host, node, to_node, to_host, loss, seed, limit_ms=120_000):
    """Send both lists of payloads reliably; returns what each side received, in order."""
    wire = Wire(loss, seed)
    got_node, got_host = [], []
    pending_node, pending_host = list(to_node), list(to_host)
    for now in range(0, limit_ms, 2):
        while pending_node and host.window_free() > 0:
            host.send(protocol.MSG_FRAME, pending_node.pop(0))
        while pending_host and node.window_free() > 0:
            node.send(protocol.MSG_BUTTON, pending_host.pop(0))
        got_node += [p for t, p in node.receive(wire.carry(host.poll(now)), now + 1) if t == protocol.MSG_FRAME]
        got_host += [p for t, p in host.receive(wire.carry(node.poll(now + 1)), now + 2) if t == protocol.MSG_BUTTON]
        if len(got_node) == len(to_node) and len(got_host) == len(to_host) and host.idle() and node.idle():
            break
    return got_node, got_host


@pytest.mark.parametrize("loss", [0.0, 0.05, 0.10])
def test_link_delivers_everything_once_and_in_order_over_a_lossy_wire(loss):
    to_node = [bytes([i % 256]) * (1 + i % 20) for i in range(300)]  # > 256: sequence numbers wrap
    to_host = [i.to_bytes(2, "big") + b"\x01\x00" for i in range(300)]
    got_node, got_host = run_links(protocol.Link(), protocol.Link(), to_node, to_host, loss, seed=int(loss * 100))
    assert got_node == to_node
    assert got_host == to_host


@given(seed=st.integers(0, 2**32), loss=st.floats(0, 0.2))
@settings(max_examples=15, deadline=None, derandomize=True)  # CRC-16 lets 1 in 65,536 corrupt blocks through
def test_link_exactly_once_in_order_for_any_loss_pattern(seed, loss):
    to_node = [bytes([i]) * 8 for i in range(40)]
    to_host = [bytes([i, 0, 1, 0]) for i in range(40)]
    assert run_links(protocol.Link(), protocol.Link(), to_node, to_host, loss, seed) == (to_node, to_host)


def test_replayed_blocks_are_not_delivered_twice():
    host, node = protocol.Link(), protocol.Link()
    host.send(protocol.MSG_FRAME, b"\x01")
    wire_bytes = host.poll(0)
    assert node.receive(wire_bytes, 1) == [(protocol.MSG_FRAME, b"\x01")]
    assert node.receive(wire_bytes + wire_bytes, 2) == []
    assert decode_all(node.poll(3)) == [(0, 1, protocol.MSG_ACK, b"")]  # re-acknowledged


def test_a_gap_is_answered_with_a_nak_and_only_the_missing_message_is_resent():
    host, node = protocol.Link(), protocol.Link()
    for text in (b"a", b"b", b"c"):
        host.send(protocol.MSG_FRAME, text)
    blocks = decode_all(host.poll(0))
    lost_first = b"".join(protocol.encode_block(seq, ack, t, p) for seq, ack, t, p in blocks[1:])
    assert node.receive(lost_first, 1) == []  # b and c wait for a
    nak = node.poll(1)
    assert decode_all(nak) == [(0, 0, protocol.MSG_NAK, b"")]
    host.sample_rtt(1)
    assert host.receive(nak, 5) == []
    resent = decode_all(host.poll(5))
    assert [(seq, p) for seq, _, _, p in resent] == [(0, b"a")]
    assert node.receive(protocol.encode_block(*resent[0]), 6) == [(protocol.MSG_FRAME, p) for p in (b"a", b"b", b"c")]


def test_retransmit_timeout_follows_the_measured_round_trip():
    link = protocol.Link()
    for _ in range(20):
        link.sample_rtt(40)
    assert 40 <= link.rto_ms <= 60
    for rtt in (5, 120, 5, 120):
        link.sample_rtt(rtt)
    assert link.rto_ms > 120  # jittery round trips widen the margin
    link.send(protocol.MSG_FRAME, b"x")
    link.poll(0)
    assert link.poll(link.rto_ms - 1) == b""
    assert link.poll(link.rto_ms) != b""  # resent after the timeout
    assert link.oldest_resends() == 1


def test_payload_budget_shrinks_on_loss_and_grows_back():
    host, node = protocol.Link(), protocol.Link()
    start = host.payload_budget
    host.send(protocol.MSG_FRAME, b"x")
    host.poll(0)
    host.poll(1000)  # timed out
    assert host.payload_budget == max(protocol.MIN_PAYLOAD_BUDGET, start // 2)
    for now in range(1001, 1100):
        host.send(protocol.MSG_FRAME, b"y")
        host.receive(node.poll(now), now)
        node.receive(host.poll(now), now)
    assert host.payload_budget > start


def test_full_queue_refuses_instead_of_growing():
    link = protocol.Link(max_queue=2)
    assert link.send(protocol.MSG_BUTTON, b"1") == 1
    assert link.send(protocol.MSG_BUTTON, b"2") == 2
    assert link.send(protocol.MSG_BUTTON, b"3") is None


def test_payload_helpers_round_trip_and_reject_bad_input():
    assert protocol.unpack_hello(protocol.pack_hello(0xBEEF, b"\x01\x02", "1.0.0")) == (0xBEEF, protocol.PROTOCOL_VERSION, b"\x01\x02", "1.0.0")
    # The node's tick goes as its low 16 bits (MicroPython's ticks_ms wraps at 2**30 on the board)
    assert protocol.unpack_button(protocol.pack_button(70000 & 0xFFFF, 3, 1, 2**30 - 1)) == (70000 & 0xFFFF, 3, 1, 0xFFFF)
    assert protocol.unpack_button(b"\x11\x70\x03\x01") == (0x1170, 3, 1, None)  # firmware 1.1.1: no tick
    assert protocol.unpack_state(protocol.pack_state(5, 0b1010, 300, 0, 0x12345)) == (5, 0b1010, 300, 0, 0x2345)
    assert protocol.unpack_state(protocol.pack_state(5, 0, 0, protocol.STATE_PANEL_FAILING, 0))[3] == 1
    assert protocol.unpack_state(bytes((0, 5, 0, 0, 1, 1))) == (5, 0, 1, 1, None)  # firmware 1.1.1: no tick
    assert protocol.unpack_state(bytes((0, 5, 0, 0, 1))) == (5, 0, 1, 0, None)  # firmware 1.0.0: no flags
    with pytest.raises(ValueError):
        protocol.unpack_state(bytes(7))  # a tick cut short
    with pytest.raises(ValueError):
        protocol.unpack_button(bytes(5))
    with pytest.raises(ValueError):
        protocol.unpack_button(b"\x00\x01\x09\x00")  # no button 9
    with pytest.raises(ValueError):
        protocol.unpack_hello(b"\x00\x01\x01\x08abc")  # id cut short
    assert protocol.frame_segments(bytes((1, 7, 120, 2, 0xAA, 0xBB))) == [(7, 120, b"\xaa\xbb")]
    with pytest.raises(ValueError, match="out of range"):
        protocol.frame_segments(bytes((1, 7, 127, 2, 0xAA, 0xBB)))  # past column 127
    with pytest.raises(ValueError, match="out of range"):
        protocol.frame_segments(bytes((1, 8, 0, 1, 0xAA)))  # no page 8
    with pytest.raises(ValueError, match="flags"):
        protocol.frame_segments(b"")  # not even the flags byte
    assert protocol.frame_segments(bytes((1,))) == []  # a frame with nothing new: valid


def test_hold_carries_the_hold_time_in_ms_and_refuses_what_no_config_gives():
    """HOLD (protocol 3): the host tells the node gpio.hold_time, 0.1 to 10 s."""
    assert protocol.unpack_hold(protocol.pack_hold(1200)) == 1200
    assert protocol.pack_hold(1200) == b"\x04\xb0"
    assert protocol.MSG_HOLD & protocol.RELIABLE  # resent until the node has it
    assert protocol.PROTOCOL_VERSION == 3
    for bad in (b"\x04", b"\x04\xb0\x00", protocol.pack_hold(99), protocol.pack_hold(10001)):
        with pytest.raises(ValueError):
            protocol.unpack_hold(bad)


def test_every_pad_holds_as_long_by_default_and_the_config_takes_only_what_hold_can_carry():
    """The 0.8 s default was written in five places and the node's 800 ms in a sixth;
    gpio.hold_time's 0.1 to 10 s beside HOLD's 100 to 10000 ms. The firmware cannot
    import the host's constant: its board.HOLD_MS is read here."""
    import re
    from pathlib import Path

    from golfbox.hal.base import DEFAULT_HOLD_TIME
    from golfbox.hal.config import ConfigError, parse_config

    board = (Path(__file__).resolve().parents[1] / "firmware" / "board.py").read_text()
    assert int(re.search(r"^HOLD_MS = (\d+)", board, re.M).group(1)) == round(DEFAULT_HOLD_TIME * 1000)
    sim = {"seats": [{"backend": "sim"}] * 2}
    assert parse_config(sim).gpio.hold_time == DEFAULT_HOLD_TIME
    for seconds in (protocol.MIN_HOLD_MS / 1000, protocol.MAX_HOLD_MS / 1000):
        protocol.unpack_hold(protocol.pack_hold(round(parse_config(
            {**sim, "gpio": {"hold_time": seconds}}).gpio.hold_time * 1000)))
    for seconds in (0.099, 10.001):
        with pytest.raises(ConfigError, match="gpio.hold_time"):
            parse_config({**sim, "gpio": {"hold_time": seconds}})
