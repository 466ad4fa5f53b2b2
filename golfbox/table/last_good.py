"""The config the table last started with, kept to run on when a hand edit is refused.

Unattended in a café, a refused config (a seat's name the displays cannot
draw, a typo in a key) made ``golfbox run`` exit 2, which systemd does not
restart: every display stayed blank until someone read the log. Now, after
each start the service keeps a copy of the config it started with in its
state directory (``config.last-good.toml`` beside the journal, 0600, only
rewritten when it differs), and a start whose config is refused runs on that
copy instead, the refusal shown on the shared display and in systemd's
STATUS= until a start on a mended config. With no copy (a first boot) or a
copy refused too, the start fails as before: exit 2, one line. Only a service
keeps and runs on a copy (a state directory or --journal, golfbox.commands.run):
a run by hand is refused as before and leaves the service's copy alone.

A relative ``pinmap`` in the copy is read beside the config it stands for
(/etc/golfbox/pinmap.toml), as when that config started.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import re
import stat
from pathlib import Path

from golfbox.configfile import ConfigError, one_line
from golfbox.hal.config import MAX_FILE_BYTES, HardwareConfig, load_config
from golfbox.table.settings import settings_from_config

log = logging.getLogger(__name__)

LAST_GOOD = "config.last-good.toml"
CONFIG_FAULT = "config"  # the key of Notices.faults while the table runs on the copy
LONGEST_KEY = 30  # a key longer than this is left out of the displays' words (the log has it)


def last_good_path(journal_override: str | None) -> Path:
    """Where the copy is kept: beside ``--journal`` when given, else in systemd's
    StateDirectory= ($STATE_DIRECTORY, /var/lib/golfbox), else /var/lib/golfbox.
    Never the config's own ``[journal] path``: a refused config cannot say it."""
    if journal_override:
        return Path(journal_override).parent / LAST_GOOD
    if os.environ.get("STATE_DIRECTORY"):
        return Path(os.environ["STATE_DIRECTORY"].split(":")[0]) / LAST_GOOD
    return Path("/var/lib/golfbox") / LAST_GOOD


def load_checked(path: Path, *, pinmap_folder: Path | None = None) -> HardwareConfig:
    """``path`` loaded and its [game] checked, as a start checks them (ConfigError if not)."""
    config = load_config(path, pinmap_folder=pinmap_folder)
    settings_from_config(config.game, len(config.seats))
    return config


def load_last_good(copy: Path, config_path: Path) -> HardwareConfig | None:
    """The copy kept for ``config_path``, if there is one and it loads; else None."""
    try:
        if not copy.is_file():
            return None
    except OSError as exc:  # /var/lib/golfbox is 0700: a builder's own run may not look in
        log.debug("%s cannot be looked at: %s", copy, exc.strerror or exc)
        return None
    try:
        return load_checked(copy, pinmap_folder=config_path.parent)
    except ConfigError as exc:  # an older version's copy, a damaged card: as a first boot
        log.debug("%s refused too: %s", copy, exc)
        return None


def refused_key(message: str, config_path: Path) -> str:
    """The key (or the line) a refusal names, short enough for the displays, or ''.
    'game.names.3: 'Ann 🎲' holds …' -> 'game.names.3', 'seats[2].display: …' ->
    'seats(2).display'; a TOML syntax error -> 'line 5'."""
    message = message.removeprefix(f"{one_line(config_path)}: ")
    if message.startswith("TOML syntax error"):
        line = re.search(r"\(at line (\d+)", message)
        return f"line {line[1]}" if line else ""
    key = message.split(": ", 1)[0].split(" (from ", 1)[0]
    if ": " not in message or " " in key or len(key) > LONGEST_KEY:
        return ""
    return key.replace("[", "(").replace("]", ")")  # the displays draw no [ ]: 'seats?2?


def keep(config: HardwareConfig, config_path: Path, copy: Path) -> None:
    """Keep ``config_path`` as the copy to run on when a later edit is refused: written
    atomically (a temp file, fsync, rename) and 0600, only when it differs, and only if
    it still loads as ``config`` (the config the table started with: an edit saved since
    it was read is not it). A folder that cannot take it is logged, not fatal."""
    try:
        text = _read_file(config_path)
        if text is None or (copy.is_file() and copy.read_bytes() == text):
            return
        temp = copy.with_name(f".{copy.name}.tmp")
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
        try:
            os.fchmod(fd, 0o600)  # an older temp file of wider mode
            with os.fdopen(fd, "wb", closefd=False) as out:
                out.write(text)
                out.flush()
                os.fsync(fd)
        finally:
            os.close(fd)
        try:
            same = _same(load_checked(temp, pinmap_folder=config_path.parent), config)
        except ConfigError:
            same = False
        if not same:
            os.unlink(temp)
            log.info("%s changed since the table started with it: no copy kept", config_path)
            return
        os.replace(temp, copy)
        _fsync_folder(copy.parent)
    except OSError as exc:
        log.warning("cannot keep the config that started in %s: %s (the table runs on; a "
                    "refused config at a later start will not run on it)", copy,
                    exc.strerror or exc)
        return
    log.info("kept %s as %s, to run on if a later edit is refused", config_path, copy)


def _read_file(path: Path) -> bytes | None:
    """A regular file's bytes; None for anything else (a shell's <(…), read once already)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a pipe must not wait for a writer
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        text = f.read(MAX_FILE_BYTES + 1)
    return text if len(text) <= MAX_FILE_BYTES else None


def _same(a: HardwareConfig, b: HardwareConfig) -> bool:
    return dataclasses.replace(a, path=None) == dataclasses.replace(b, path=None)


def _fsync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
