"""Reading a config file's tables, in the manner of Klipper's ``config.getint('x', 9, minval=1)``.

One ``Section`` per TOML table, with typed getters that name the key in every
error (``seats[0].display.width: 4 is out of range (8..1024)``), and one error
type. The hardware config (hal/config.py), the game settings
(table/settings.py), the seat nodes and the journal all read through it.

A key may carry a note on the file it came from (a ``NotedKey``), kept at the
end of every message: ``seats[3].buttons (from pinmap.toml)`` + ``back`` →
``seats[3].buttons.back (from pinmap.toml)``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

MISSING = object()  # a getter's default: the key must be there


class ConfigError(ValueError):
    """A config file that cannot be used as it is: ``key: reason``.

    Always one line: a key or value quoted from the file may hold a newline or
    another control character, which is shown escaped (``\\n``).

    What is at fault is kept apart from the words, for the table's display
    (golfbox.table.last_good), which must not read it back out of them (a
    folder's name may hold anything): ``key`` is the key (a NotedKey if it is
    another file's, until load_config moves that file to ``file``), 'line N' for a
    TOML syntax error, '' for the file as a whole, None for a file that does not
    exist; ``file`` is the file as the user names it, None for the config
    being read (the [game] checks are given no path). ``message`` replaces
    ``key: reason`` when the file's path leads it."""

    def __init__(self, key: str | None, reason: str = "", *, file: Path | None = None,
                 message: str = ""):
        super().__init__(one_line(message or f"{key}: {reason}"))
        self.key, self.file = key, file


def one_line(text: Any) -> str:
    """``text`` with every control character (a newline, a tab …) shown escaped (``\\n``),
    and a byte of a file's name that is not UTF-8 as that byte (``caf\\xe9``)."""
    return "".join(c if c.isprintable() else escaped(c) for c in str(text))


def escaped(char: str) -> str:
    """``char`` as Python writes it escaped, but a byte that is not UTF-8, which a file's
    name read from the system holds as U+DC80–U+DCFF, as the byte: ``\\xe9``, not the
    ``\\udce9`` that names no byte anyone can look for."""
    if 0xDC80 <= ord(char) <= 0xDCFF:
        return f"\\x{ord(char) - 0xDC00:02x}"
    return repr(char)[1:-1]


def type_name(value: Any) -> str:
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
            list: "an array", dict: "a table"}.get(type(value), type(value).__name__)


class NotedKey(str):
    """A key of another file than the config's, as messages show it: its name and a
    note on the file, 'seats[2].buttons.ok (from pinmap.toml)'. The two are kept apart
    too (``bare``, ``file``): whoever blames that file reads them, not the words, which
    a config's own quoted key ("ok (from pinmap.toml)" = 3) may end in as well."""

    def __new__(cls, bare: str, file: str, how: str = "from") -> "NotedKey":
        # how: "from" for a key taken into the config's tables, "in" for one of the
        # file's own tables.
        key = super().__new__(cls, f"{bare} ({how} {file})")
        key.bare, key.file, key.how = bare, file, how
        return key

    def __getnewargs__(self) -> tuple[str, str, str]:  # a copy or a pickle keeps the note
        return self.bare, self.file, self.how


def subkey(key: str, name: str) -> str:
    """'seats[0].buttons' + 'ok' -> 'seats[0].buttons.ok'; a NotedKey's note stays at the
    end: 'seats[0].buttons.ok (from pinmap.toml)'."""
    if isinstance(key, NotedKey):
        return NotedKey(subkey(key.bare, name), key.file, key.how)
    return f"{key}.{name}" if key else name


def check_int(value: Any, key: str, minval: int | None = None, maxval: int | None = None,
              what: str = "") -> int:
    """``value`` as an integer in range; ``what`` names its meaning ("GPIO (BCM) number")."""
    if isinstance(value, bool) or not isinstance(value, int):
        meaning = f" ({what})" if what else ""
        raise ConfigError(key, f"expected an integer{meaning}, got {type_name(value)} {value!r}")
    if (minval is not None and value < minval) or (maxval is not None and value > maxval):
        span = f"{minval}..{maxval}" if maxval is not None else f">= {minval}"
        meaning = f" for a {what}" if what else ""
        raise ConfigError(key, f"{value} is out of range{meaning} ({span})")
    return value


class Section:
    """One table of a config file, read by key."""

    def __init__(self, raw: Any, name: str):
        if not isinstance(raw, dict):
            raise ConfigError(name, f"expected a table, got {type_name(raw)}")
        self.raw, self.name = raw, name

    def __contains__(self, key: str) -> bool:
        return key in self.raw

    def key(self, name: str) -> str:
        """The full name of one of this table's keys, as errors show it."""
        return subkey(self.name, name)

    def check_known(self, allowed: Iterable[str]) -> None:
        """Every key of the table is one of ``allowed``."""
        # A set has no order of its own: name its keys sorted; a tuple keeps the file's order.
        shown = sorted(allowed) if isinstance(allowed, (set, frozenset)) else tuple(allowed)
        for name in self.raw:
            if name not in shown:
                raise ConfigError(self.key(name), f"unknown key (expected one of: "
                                                  f"{', '.join(shown)})")

    def get(self, name: str, default: Any = MISSING) -> Any:
        """The raw value (a getter below checks its type)."""
        if name in self.raw:
            return self.raw[name]
        if default is MISSING:
            raise ConfigError(self.key(name), "missing")
        return default

    def section(self, name: str, default: Any = MISSING) -> "Section":
        """A table inside this one."""
        return Section(self.get(name, default), self.key(name))

    def getint(self, name: str, default: Any = MISSING, *, minval: int | None = None,
               maxval: int | None = None, what: str = "") -> Any:
        if name not in self.raw and default is not MISSING:
            return default
        return check_int(self.get(name), self.key(name), minval, maxval, what)

    def getseconds(self, name: str, default: Any = MISSING, *, minval: float,
                   maxval: float) -> Any:
        return self.getamount(name, default, minval=minval, maxval=maxval, unit="seconds",
                              symbol="s")

    def getamount(self, name: str, default: Any = MISSING, *, minval: float, maxval: float,
                  unit: str, symbol: str) -> Any:
        """A number of ``unit`` ("minutes", written ``symbol``: "min") in range, as a float."""
        if name not in self.raw and default is not MISSING:
            return default
        value, key = self.get(name), self.key(name)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(key, f"expected a number of {unit}, got {type_name(value)} {value!r}")
        if not minval <= value <= maxval:  # nan too
            raise ConfigError(key, f"{value} is out of range ({minval}..{maxval} {symbol})")
        return float(value)

    def getstr(self, name: str, default: Any = MISSING, *, nonempty: bool = False) -> Any:
        if name not in self.raw and default is not MISSING:
            return default
        return check_str(self.get(name), self.key(name), nonempty=nonempty)

    def getbool(self, name: str, default: Any = MISSING) -> Any:
        if name not in self.raw and default is not MISSING:
            return default
        value = self.get(name)
        if not isinstance(value, bool):
            raise ConfigError(self.key(name), f"expected true or false, got "
                                              f"{type_name(value)} {value!r}")
        return value

    def getchoice(self, name: str, choices: Iterable[str], default: Any = MISSING) -> Any:
        value = self.getstr(name, default)
        choices = tuple(choices)
        if value not in choices and not (value is default and name not in self.raw):
            raise ConfigError(self.key(name), f"{value!r} is not one of {', '.join(choices)}")
        return value

    def getlist(self, name: str, default: Any = MISSING, *, of: type = str,
                example: str = "") -> Any:
        """A list whose items are all ``of`` (strings by default)."""
        if name not in self.raw and default is not MISSING:
            return default
        value = self.get(name)
        if not isinstance(value, list) or not all(isinstance(v, of) and not isinstance(v, bool)
                                                  for v in value):
            hint = f", e.g. {example}" if example else ""
            raise ConfigError(self.key(name), f"expected a list of {type_name(of())[2:]}s"
                                              f"{hint}, got {type_name(value)} {value!r}")
        return value


def check_str(value: Any, key: str, *, nonempty: bool = False) -> str:
    if not isinstance(value, str) or (nonempty and not value.strip()):
        what = "a non-empty string" if nonempty else "a string"
        raise ConfigError(key, f"expected {what}, got {type_name(value)} {value!r}")
    return value.strip() if nonempty else value
