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

A config that names a pin map (/etc/golfbox/pinmap.toml) started with that pin
map too: it is kept beside the copy (``pinmap.last-good.toml``, by the same
rules), and the copy runs on it, so a pin map broken by a hand edit runs on the
kept pair as a refused config does. A copy kept by a version before, with no
pin map of its own, reads the one beside the config it stands for, as then.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import stat
from pathlib import Path

from golfbox.configfile import ConfigError, one_line
from golfbox.hal.config import MAX_FILE_BYTES, HardwareConfig, load_config
from golfbox.table.settings import settings_from_config

log = logging.getLogger(__name__)

LAST_GOOD = "config.last-good.toml"
LAST_GOOD_PINMAP = "pinmap.last-good.toml"  # the pin map the copy started with, beside it
MISSING = "no such file"  # a config gone, in the log and STATUS=
CONFIG_FAULT = "config"  # the key of Notices.faults while the table runs on the copy
LONGEST_KEY = 30  # a key longer than this is left out of the displays' words (the log has it)


def last_good_path(journal_override: str | None) -> Path | None:
    """Where a service keeps the copy: beside ``--journal`` when given, else in systemd's
    StateDirectory= ($STATE_DIRECTORY, /var/lib/golfbox). None with neither: a run by
    hand, which keeps none and runs on none. Never the config's own ``[journal] path``:
    a refused config cannot say it."""
    if journal_override:
        return Path(journal_override).parent / LAST_GOOD
    if os.environ.get("STATE_DIRECTORY"):
        return Path(os.environ["STATE_DIRECTORY"].split(":")[0]) / LAST_GOOD
    return None


def load_checked(path: Path, *, pinmap_folder: Path | None = None,
                 pinmap_file: Path | None = None) -> HardwareConfig:
    """``path`` loaded and its [game] checked, as a start checks them (ConfigError if not)."""
    config = load_config(path, pinmap_folder=pinmap_folder, pinmap_file=pinmap_file)
    settings_from_config(config.game, len(config.seats))
    return config


def load_last_good(copy: Path, config_path: Path) -> HardwareConfig | None:
    """The copy kept for ``config_path``, if there is one and it loads; else None."""
    pinmap = copy.with_name(LAST_GOOD_PINMAP)
    try:
        if not copy.is_file():
            return None
        kept_pinmap = pinmap.is_file()
    except OSError as exc:  # a name too long, a folder the service may not look in
        log.warning("%s cannot be looked at, so the table does not run on it: %s", copy,
                    exc.strerror or exc)
        return None
    try:
        if kept_pinmap:
            return load_checked(copy, pinmap_file=pinmap)
        # Kept by the version before, which kept no pin map: the one beside the config.
        return load_checked(copy, pinmap_folder=config_path.parent)
    except ConfigError as exc:  # an older version's copy, a damaged card: as a first boot
        # Beside the exit 2's line, whoever reads the log learns why the copy was not used.
        log.warning("%s is refused too, so the table does not run on it: %s", copy, exc)
        return None


def running_on(config: HardwareConfig) -> str:
    """What a refused start runs on, for the log and STATUS=: the copy and its pin map."""
    return f"{config.path} with {config.pinmap_path}" if config.pinmap_path else f"{config.path}"


def refused_at(refusal: ConfigError, config_path: Path) -> tuple[str, str | None]:
    """The name of the file a refusal is of (the config, or its pin map) and the key or
    line at fault, short enough for the displays: '' if none, None if the file is gone."""
    key = refusal.key
    if key:  # the displays draw no [ ]: 'seats(2).buttons.ok'
        key = "" if len(key) > LONGEST_KEY else one_line(key).replace("[", "(").replace("]", ")")
    return one_line(Path(refusal.file or config_path).name), key


def keep(config: HardwareConfig, config_path: Path, copy: Path) -> None:
    """Keep ``config_path`` as the copy to run on when a later edit is refused, and the
    pin map it names (if any) beside it: each written atomically (a temp file, fsync,
    rename) and 0600, only when it differs, and only if the two still load as ``config``
    (the config the table started with: an edit saved since it was read is not it). A
    folder that cannot take them is logged, not fatal."""
    pinmap_copy = copy.with_name(LAST_GOOD_PINMAP)
    pairs = [(config_path, copy)]
    if config.pinmap_path is not None:  # the file it read its pins from (a link followed)
        pairs.append((config.pinmap_path, pinmap_copy))
    new: list[tuple[Path, Path, Path]] = []  # (source, temp, kept) of each that differs
    try:
        read_from = []  # the pair as it will be kept
        for source, kept in pairs:
            text = _read_file(source)
            if text is None:
                return
            if kept.is_file() and kept.read_bytes() == text:
                read_from.append(kept)
            else:
                new.append((source, _write_temp(kept, text), kept))
                read_from.append(new[-1][1])
        if not new:
            _drop_pinmap_copy(config, pinmap_copy)
            return
        pinmap_read = read_from[1] if len(read_from) > 1 else None
        try:
            same = _same(load_checked(read_from[0], pinmap_file=pinmap_read), config)
        except ConfigError:
            same = False
        if not same:
            log.info("%s changed since the table started with it: no copy kept",
                     " or ".join(str(source) for source, _ in pairs))
            return
        # Most edits change one of the two, one rename. (A power cut between the two
        # renames of an edit of both would leave the new pin map with the old copy.)
        while new:  # the pin map first
            source, temp, kept = new[-1]
            os.replace(temp, kept)
            new.pop()
            log.info("kept %s as %s, to run on if a later edit is refused", source, kept)
        _drop_pinmap_copy(config, pinmap_copy)  # after the rename: until then the old pair stands
        _fsync_folder(copy.parent)
    except OSError as exc:
        log.warning("cannot keep the config that started in %s: %s (the table runs on; a "
                    "refused config at a later start will not run on it)", copy,
                    exc.strerror or exc)
    finally:
        for _, temp, _ in new:  # not renamed
            temp.unlink(missing_ok=True)


def _drop_pinmap_copy(config: HardwareConfig, pinmap_copy: Path) -> None:
    """A config naming no pin map keeps none: one kept for an earlier config would
    mislead. Only once this config is (or is already) the copy: an earlier copy left
    in place still needs its own."""
    if config.pinmap_path is None:
        pinmap_copy.unlink(missing_ok=True)


def _write_temp(kept: Path, text: bytes) -> Path:
    """``text`` in a temp file beside ``kept``, 0600 and on the disk, to rename over it."""
    temp = kept.with_name(f".{kept.name}.tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    try:
        os.fchmod(fd, 0o600)  # an older temp file of wider mode
        with os.fdopen(fd, "wb", closefd=False) as out:
            out.write(text)
            out.flush()
            os.fsync(fd)
    finally:
        os.close(fd)
    return temp


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
