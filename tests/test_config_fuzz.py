"""The config and pin map loaders on arbitrary bytes and arbitrary TOML (hypothesis).

Whatever the file holds, loading it either gives a config or raises ConfigError
(one line naming the file or the key): no other exception may escape.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from golfbox.hal.config import (DISPLAY_KEYS, SEAT_KEYS, TOP_KEYS, ConfigError, load_config,
                                load_pinmap)
from golfbox.table.settings import GAME_KEYS

# Real key names, so that generated documents reach deep into validation, plus any text.
WORDS = sorted(TOP_KEYS | SEAT_KEYS | DISPLAY_KEYS | set(GAME_KEYS) | {
    "left", "right", "ok", "back", "bus", "address", "port", "device", "dc", "rst", "speed_hz",
    "parent", "buses", "pin_factory", "bounce_time", "hold_time", "i2c1", "spi0", "spi1", "uart",
    "path", "1", "2", "5", "sim", "gpio", "serial", "ssd1306", "sh1106", "ssd1322"})
keys = st.one_of(st.sampled_from(WORDS), st.text(max_size=8))
scalars = st.one_of(
    st.integers(min_value=-2**63, max_value=2**63 - 1), st.sampled_from([0, 1, 2, 17, 60, 0x3C, 0x70]),
    st.booleans(), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12), st.sampled_from(WORDS), st.dates(), st.datetimes(), st.times())
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=5)), max_leaves=25)
documents = st.dictionaries(keys, values, max_size=6)


def toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string is a TOML basic string
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    return value.isoformat()  # dates and times are TOML literals


def toml_document(document: dict) -> str:
    return "".join(f"{json.dumps(k)} = {toml_value(v)}\n" for k, v in document.items())


def load(path: Path) -> None:
    try:
        load_config(path)
    except ConfigError as exc:
        assert "\n" not in str(exc)


FUZZ = settings(max_examples=300, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])
FUZZ_TOML = settings(FUZZ, max_examples=150)  # each is a bigger document


@FUZZ
@given(raw=st.binary(max_size=400))
def test_arbitrary_bytes_as_a_config_or_a_pin_map(tmp_path, raw):
    config = tmp_path / "config.toml"
    config.write_bytes(raw)
    load(config)
    try:
        load_pinmap(config)
    except ConfigError:
        pass
    (tmp_path / "map.toml").write_bytes(raw)
    config.write_text('pinmap = "map.toml"\n[[seats]]\nbackend = "sim"\n[[seats]]\nbackend = "sim"\n')
    load(config)


@FUZZ_TOML
@given(document=documents)
def test_arbitrary_toml_as_a_config(tmp_path, document):
    config = tmp_path / "config.toml"
    config.write_text(toml_document(document), encoding="utf-8")
    load(config)


@FUZZ_TOML
@given(seats=st.lists(st.dictionaries(keys, values, max_size=4), min_size=1, max_size=3),
       top=st.dictionaries(st.sampled_from(sorted(TOP_KEYS - {"seats", "pinmap"})), values, max_size=3))
def test_arbitrary_seats_and_sections(tmp_path, seats, top):
    config = tmp_path / "config.toml"
    config.write_text(toml_document({"seats": seats, **top}), encoding="utf-8")
    load(config)


@FUZZ_TOML
@given(pinmap=documents)
def test_arbitrary_toml_as_a_pin_map(tmp_path, pinmap):
    (tmp_path / "map.toml").write_text(toml_document(pinmap), encoding="utf-8")
    config = tmp_path / "config.toml"
    config.write_text('pinmap = "map.toml"\n[[seats]]\nbackend = "gpio"\n[[seats]]\nbackend = "gpio"\n')
    load(config)


@pytest.mark.parametrize("seats, words", [
    ([0], "seats[0] (in map.toml): expected a [[seats]] table, got an integer 0"),
    ("left", "seats (in map.toml): expected a list")])
def test_a_pin_map_whose_seats_are_not_tables_is_named(tmp_path, seats, words):
    """Found by the fuzz test above: seats = [0] in a pin map crashed with a TypeError."""
    (tmp_path / "map.toml").write_text(toml_document({"seats": seats}), encoding="utf-8")
    config = tmp_path / "config.toml"
    config.write_text('pinmap = "map.toml"\n[[seats]]\nbackend = "gpio"\n')
    with pytest.raises(ConfigError) as caught:
        load_config(config)
    assert words in str(caught.value)
