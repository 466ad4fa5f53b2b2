"""The host driver for seat nodes: frames to pages, config, hotplug, seat mapping by unique id."""

import logging
import queue
import signal
import subprocess
import sys
import time
from unittest.mock import ANY

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from fake_mpy.harness import MICROPYTHON, NODE_ID, SEAT, make_hub, make_node, ports_dir, waiting_screen  # noqa: F401 (fixtures)
from golfbox.hal import protocol
from golfbox.hal.base import Button, ButtonEvent, ButtonPad, Display, DisplayError, EventKind, LinkEvent
from golfbox.hal.serialnode import (
    SerialNodeConfig,
    SerialNodeConfigError,
    SerialNodeHub,
    changed_segments,
    image_to_pages,
    pack_frame_payload,
)

needs_micropython = pytest.mark.skipif(not MICROPYTHON.exists(), reason=f"no MicroPython Unix port at {MICROPYTHON}")
OTHER_ID = "0011223344556677"

frames = st.binary(min_size=1024, max_size=1024)


# -- frames -------------------------------------------------------------------


@given(st.binary(min_size=1024, max_size=1024))
@settings(max_examples=30)
def test_image_to_pages_is_the_panel_memory_layout(bits):
    image = Image.frombytes("1", (128, 64), bits)
    pages = image_to_pages(image)
    for y in range(0, 64, 7):
        for x in range(0, 128, 5):
            lit = (pages[(y // 8) * 128 + x] >> (y % 8)) & 1
            assert lit == (image.getpixel((x, y)) != 0)


def test_image_of_the_wrong_size_is_refused_with_a_clear_error():
    with pytest.raises(ValueError, match="128×64"):
        image_to_pages(Image.new("1", (64, 32)))


@given(old=frames, new=frames, budget=st.integers(protocol.MIN_PAYLOAD_BUDGET, protocol.MAX_PAYLOAD))
def test_changed_pages_applied_on_the_old_frame_give_the_new_one(old, new, budget):
    segments = changed_segments(old, new)
    node = bytearray(old)
    payloads = []
    while segments:
        payloads.append(pack_frame_payload(segments, budget))
    for payload in payloads:
        assert len(payload) <= budget
        for page, x0, data in protocol.frame_segments(payload):
            node[page * 128 + x0 : page * 128 + x0 + len(data)] = data
    assert bytes(node) == new
    assert [p[0] for p in payloads] == [0] * (len(payloads) - 1) + [protocol.FRAME_SHOW] * bool(payloads)


def test_a_small_change_sends_only_its_columns():
    old = bytes(1024)
    new = bytearray(old)
    new[3 * 128 + 40 : 3 * 128 + 50] = b"\xff" * 10
    assert changed_segments(old, bytes(new)) == [(3, 40, b"\xff" * 10)]


# -- config ---------------------------------------------------------------------


def test_config_from_toml_table_uses_seat_numbers_players_see():
    config = SerialNodeConfig.from_mapping({"seats": {"5": "E6614103E7452D2F"}, "ports": ["/dev/ttyACM*"]})
    assert config.seats == {4: "e6614103e7452d2f"}
    assert config.usb_ids == ((0x2E8A, 0x0005),)
    assert config.ports == ("/dev/ttyACM*",)


@pytest.mark.parametrize(
    "table, message",
    [
        ({"seats": {"five": "ab"}}, r"seat_nodes\.seats\.five: the key must be a seat number"),
        ({"seats": {"0": "ab"}}, r"seat_nodes\.seats\.0: seat numbers start at 1"),
        ({"seats": {"5": "not hex"}}, r"seat_nodes\.seats\.5: expected the node id in hex"),
        ({"seats": {"5": "ab", "6": "AB"}}, r"seat_nodes\.seats\.6: node AB is already given"),
        ({"usb_ids": ["2e8a"]}, r"seat_nodes\.usb_ids\[0\]: expected \"vid:pid\""),
        # int(x, 16) takes these; they were kept as ids no device has (vid -1, …)
        ({"usb_ids": ["-1:+5"]}, r"seat_nodes\.usb_ids\[0\]: expected \"vid:pid\" in hex, got '-1:\+5'"),
        ({"usb_ids": ["2e8a:0005", "0x2e:0_5"]}, r"seat_nodes\.usb_ids\[1\]: expected \"vid:pid\""),
        ({"usb_ids": ["2e8a: 5"]}, r"seat_nodes\.usb_ids\[0\]: expected \"vid:pid\""),
        ({"seats": {"5": "-ab"}}, r"seat_nodes\.seats\.5: expected the node id in hex"),
        ({"ports": "/dev/ttyACM0"}, r"seat_nodes\.ports: expected a list"),
        ({"seat": {}}, r"seat_nodes\.seat: unknown key"),
    ],
)
def test_config_errors_name_the_key(table, message):
    with pytest.raises(SerialNodeConfigError, match=message):
        SerialNodeConfig.from_mapping(table)


# -- hub without nodes ------------------------------------------------------------


def test_importing_the_backend_does_not_import_pyserial():
    code = "import sys, golfbox.hal.serialnode; print('serial' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == "False"


def test_hub_and_display_implement_the_hal_interfaces():
    hub = SerialNodeHub(SerialNodeConfig(seats={SEAT: NODE_ID}))
    assert isinstance(hub, ButtonPad)
    display = hub.display(SEAT)
    assert isinstance(display, Display)
    assert (display.size, display.mode, display.name) == ((128, 64), "1", "seat 5 node")
    with pytest.raises(KeyError, match="seat 2 has no seat node"):
        hub.display(1)


def test_a_port_that_is_not_a_node_is_left_alone(caplog):
    # pyserial's loop:// echoes our own SYNC back: an answer, but not a seat node's.
    hub = SerialNodeHub(SerialNodeConfig(seats={SEAT: NODE_ID}, usb_ids=(), ports=("loop://",), handshake_timeout=0.3, scan_interval=0.1))
    events = queue.Queue()
    with caplog.at_level(logging.WARNING, logger="golfbox.hal.serialnode"):
        hub.start(events.put)
        time.sleep(0.6)
        hub.close()
    assert events.empty()
    assert "no answer like a seat node's from loop://" in caplog.text
    assert caplog.text.count("no answer like") == 1  # not probed again at once


def test_show_while_the_node_is_absent_raises_but_keeps_the_frame():
    hub = SerialNodeHub(SerialNodeConfig(seats={SEAT: NODE_ID}))
    display = hub.display(SEAT)
    with pytest.raises(DisplayError, match="seat 5: node not connected"):
        display.show(Image.new("1", (128, 64), 1))
    assert not display.wait_shown(0.01)


def test_a_seat_whose_node_never_comes_is_reported_gone_once():
    # After a restart a node that is still unplugged sends no unplug: the hub says so itself.
    config = SerialNodeConfig(seats={SEAT: NODE_ID}, usb_ids=(), scan_interval=0.05, missing_after=0.2)
    hub = SerialNodeHub(config)
    events = queue.Queue()
    hub.start(events.put)
    try:
        assert events.get(timeout=3) == LinkEvent(SEAT, False, "seat 5: no seat node found", buttons=True)
        time.sleep(0.3)
        assert events.empty()
    finally:
        hub.close()


# -- hub with MicroPython nodes -----------------------------------------------------


@needs_micropython
def test_each_seat_keeps_its_node_by_unique_id(make_node, make_hub):
    seat_of = {NODE_ID: 5, OTHER_ID: 6}
    nodes = {node_id: make_node(node_id) for node_id in (OTHER_ID, NODE_ID)}
    hub, events = make_hub(seats={seat: node_id for node_id, seat in seat_of.items()})
    assert hub.wait_connected({5, 6}, 5)
    assert {events.get(timeout=1), events.get(timeout=1)} == {LinkEvent(5, True, buttons=True), LinkEvent(6, True, buttons=True)}
    nodes[OTHER_ID].press("left")
    nodes[NODE_ID].press("right")
    got = {events.get(timeout=2), events.get(timeout=2)}
    assert {str(event) for event in got} == {"seat 7 ◀ pressed", "seat 6 ▶ pressed"}
    assert nodes[OTHER_ID].wait_oled(waiting_screen(6, OTHER_ID), 2)  # told its seat before any frame


@needs_micropython
def test_a_node_not_in_the_config_is_told_so_and_its_buttons_ignored(make_node, make_hub, caplog):
    stranger = make_node(OTHER_ID)
    with caplog.at_level(logging.WARNING, logger="golfbox.hal.serialnode"):
        hub, events = make_hub()
        assert stranger.wait_oled(waiting_screen(protocol.UNASSIGNED_SEAT, OTHER_ID), 5)
    assert f"node {OTHER_ID} on" in caplog.text and "not given to any seat" in caplog.text
    stranger.press("ok")
    time.sleep(0.2)
    assert events.empty()


@needs_micropython
def test_unplug_pauses_the_seat_and_replug_resumes_it(make_node, make_hub):
    node = make_node()
    hub, events = make_hub()
    assert events.get(timeout=5) == LinkEvent(SEAT, True, buttons=True)
    display = hub.display(SEAT)
    node.unplug()
    assert events.get(timeout=3) == LinkEvent(SEAT, False, "seat 5: node unplugged", buttons=True)
    image = Image.new("1", (128, 64))
    image.paste(1, (10, 10, 60, 30))
    with pytest.raises(DisplayError):
        display.show(image)  # not visible now, but kept
    node.plug()
    assert events.get(timeout=5) == LinkEvent(SEAT, True, buttons=True)
    assert display.wait_shown(3)
    assert node.wait_oled(image_to_pages(image), 2)
    node.press("ok")
    assert events.get(timeout=2) == ButtonEvent(SEAT, Button.OK, at=ANY)


@needs_micropython
def test_a_press_is_stamped_on_the_hubs_clock_as_its_frame_arrives(make_node, make_hub):
    """The node's frames carry no time: the host stamps a press as it reads it, on the
    table's clock, so a press that then waits in the table's queue keeps when it came."""
    stamps = []

    def clock():
        stamps.append(time.monotonic())
        return stamps[-1]

    node = make_node()
    hub, events = make_hub(clock=clock)
    assert events.get(timeout=5) == LinkEvent(SEAT, True, buttons=True)
    before = time.monotonic()
    node.press("ok")
    event = events.get(timeout=2)
    assert event == ButtonEvent(SEAT, Button.OK, at=ANY)
    assert stamps == [event.at] and before <= event.at <= time.monotonic()


def message_type(block: bytes) -> int | None:
    """The message type of one encoded block (without its 0x00), None if it does not decode."""
    try:
        body = protocol.cobs_decode(block)
    except ValueError:
        return None
    return body[3] if len(body) >= 4 else None


def test_a_press_while_the_nodes_hello_is_lost_still_arrives_and_the_seat_goes_on(make_node, make_hub):
    """The node starts its session on SYNC and sends a press (BUTTON, seq 0) while its HELLO
    is lost. The host's handshake took that BUTTON, threw it away and acknowledged it; once a
    HELLO came through both sides disagreed on the sequence, and no press arrived ever again."""
    node = make_node()
    lost = []
    node.relay.drop_to_host = lambda block: message_type(block) == protocol.MSG_HELLO and (
        lost.append(block) or True)
    hub, events = make_hub()
    deadline = time.monotonic() + 5
    while not lost and time.monotonic() < deadline:
        time.sleep(0.01)
    assert lost, "the node never answered a SYNC"
    node.press("ok")
    time.sleep(0.3)
    node.relay.drop_to_host = None  # the line clears up
    assert events.get(timeout=5) == LinkEvent(SEAT, True, buttons=True)
    assert events.get(timeout=3) == ButtonEvent(SEAT, Button.OK, at=ANY)
    node.press("left")
    assert events.get(timeout=3) == ButtonEvent(SEAT, Button.LEFT, at=ANY)


def test_presses_made_while_unplugged_are_logged_as_lost(make_node, make_hub, caplog):
    """The node counts them and drops them with its session when the cable is back; the
    host had a new connection with no counter to compare, and logged nothing."""
    node = make_node()
    hub, events = make_hub()
    assert events.get(timeout=5) == LinkEvent(SEAT, True, buttons=True)
    node.press("ok")
    assert events.get(timeout=2) == ButtonEvent(SEAT, Button.OK, at=ANY)
    node.unplug()
    assert events.get(timeout=3).connected is False
    node.press("left")
    node.press("right")
    time.sleep(0.3)
    with caplog.at_level(logging.WARNING, logger="golfbox.hal.serialnode"):
        node.plug()
        assert events.get(timeout=5) == LinkEvent(SEAT, True, buttons=True)
        node.press("back")
        assert events.get(timeout=2) == ButtonEvent(SEAT, Button.BACK, at=ANY)
    assert "seat 5: 2 button events lost in the node" in caplog.text


def test_a_second_node_with_the_same_id_takes_the_seat_when_the_first_goes(tmp_path, caplog):
    """The second was refused (rightly), but its port stayed open without a seat and was
    never claimed again: after the first was unplugged the seat stayed paused for good."""
    from fake_mpy.harness import FakeNode

    ports_a, ports_b = tmp_path / "a", tmp_path / "b"
    for folder in (ports_a, ports_b, tmp_path / "node-a", tmp_path / "node-b"):
        folder.mkdir()
    first = FakeNode(tmp_path / "node-a", NODE_ID, ports_a)
    second = FakeNode(tmp_path / "node-b", NODE_ID, ports_b)
    config = SerialNodeConfig(seats={SEAT: NODE_ID}, ports=(str(ports_a / "*"), str(ports_b / "*")),
                              scan_interval=0.1)
    hub, events = SerialNodeHub(config), queue.Queue()
    try:
        first.plug()
        hub.start(events.put)
        assert events.get(timeout=5) == LinkEvent(SEAT, True, buttons=True)
        with caplog.at_level(logging.DEBUG, logger="golfbox.hal.serialnode"):
            second.plug()
            time.sleep(3.0)  # refused, then tried again: said once at ERROR
        errors = [r for r in caplog.records if "also answers" in r.message and r.levelno == logging.ERROR]
        assert len(errors) == 1
        first.unplug()
        assert events.get(timeout=3) == LinkEvent(SEAT, False, "seat 5: node unplugged", buttons=True)
        assert events.get(timeout=8) == LinkEvent(SEAT, True, buttons=True)
        second.press("ok")
        assert events.get(timeout=2) == ButtonEvent(SEAT, Button.OK, at=ANY)
    finally:
        hub.close()
        first.close()
        second.close()


@needs_micropython
def test_a_noisy_second_is_summed_up_once_it_is_over(make_node, make_hub, caplog):
    """Past 10 a second corrupt blocks are only counted; the count was logged only when a
    later block went bad, so the last noisy second's was late, or never said."""
    node = make_node()
    hub, events = make_hub()
    assert events.get(timeout=5) == LinkEvent(SEAT, True, buttons=True)
    with caplog.at_level(logging.WARNING, logger="golfbox.hal.serialnode"):
        time.sleep(1.0 - time.monotonic() % 1.0 + 0.05)  # the burst falls inside one second
        node.relay.inject_to_host(b"\x05garbage\x00" * 30)
        time.sleep(2.0)  # quiet from now on
    assert caplog.text.count("dropped corrupt block") == 10
    assert "seat 5: 20 more corrupt blocks not logged" in caplog.text


def test_a_quick_replug_leaves_no_pixel_of_the_old_frame(make_node, make_hub):
    """A new session cleared the node's frame but not its panel, and the host sent only what
    differs from a blank frame: where the new frame is dark, the old one stayed lit."""
    node = make_node()
    hub, events = make_hub()
    assert events.get(timeout=5) == LinkEvent(SEAT, True, buttons=True)
    display = hub.display(SEAT)
    lit = Image.new("1", (128, 64), 1)
    display.show(lit)
    assert display.wait_shown(3) and node.wait_oled(image_to_pages(lit), 2)
    node.unplug()
    assert events.get(timeout=3).connected is False
    dark = Image.new("1", (128, 64))
    dark.paste(1, (10, 10, 60, 30))
    with pytest.raises(DisplayError):
        display.show(dark)
    time.sleep(0.5)  # back well before the node's 3 s "waiting" screen would repaint it all
    node.plug()
    assert events.get(timeout=5) == LinkEvent(SEAT, True, buttons=True)
    assert display.wait_shown(3)
    assert node.wait_oled(image_to_pages(dark), 2)


@needs_micropython
def test_a_node_that_stops_answering_is_reported_and_taken_back(make_node, make_hub):
    node = make_node()
    hub, events = make_hub(silence_timeout=0.6)
    assert events.get(timeout=5) == LinkEvent(SEAT, True, buttons=True)
    node.process.send_signal(signal.SIGSTOP)  # a hung node: the port stays, the answers stop
    try:
        assert events.get(timeout=3) == LinkEvent(SEAT, False, "seat 5: node stopped answering", buttons=True)
    finally:
        node.process.send_signal(signal.SIGCONT)
    assert events.get(timeout=5) == LinkEvent(SEAT, True, buttons=True)


@needs_micropython
def test_a_corrupt_block_is_logged_with_seat_and_byte_offset_and_the_link_recovers(make_node, make_hub, caplog):
    node = make_node()
    hub, events = make_hub()
    assert events.get(timeout=5) == LinkEvent(SEAT, True, buttons=True)
    with caplog.at_level(logging.WARNING, logger="golfbox.hal.serialnode"):
        node.relay.inject_to_host(b"\x05garbage\x00")
        node.press("back")
        assert events.get(timeout=2) == ButtonEvent(SEAT, Button.BACK, at=ANY)
    assert "seat 5: dropped corrupt block at byte" in caplog.text


def test_link_stats_keep_only_the_newest_frame_times():
    """One entry per acknowledged frame, for a whole evening: the list grew without end."""
    from golfbox.hal.serialnode import FRAME_TIMES_KEPT, LinkStats

    stats = LinkStats()
    for i in range(FRAME_TIMES_KEPT + 500):
        stats.frame_times.append(i / 1000)
    assert len(stats.frame_times) == FRAME_TIMES_KEPT and stats.frame_times[-1] == (FRAME_TIMES_KEPT + 499) / 1000
