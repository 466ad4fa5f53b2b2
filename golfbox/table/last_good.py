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
map too: the two are kept as a pair, and the copy runs on that pair, so a pin
map broken by a hand edit runs on the kept pair as a refused config does.

The pair is kept in a folder of its own, ``last-good.<n>/config.toml`` and
``pinmap.toml``, and ``config.last-good.toml`` is a link to its config: the one
rename of that link over the last is the commit, so a power cut leaves the old
pair or the new one, never one file of each (two renames, one per file, could).
A ``config.last-good.toml`` that is a file was kept by a version before this
one (with ``pinmap.last-good.toml`` beside it, or an older one with none: it
reads the one beside the config, as then); the first good start keeps the pair
its own way. A folder whose file system takes no links (FAT) keeps the flat pair.
"""

from __future__ import annotations

import dataclasses
import errno
import logging
import os
import shutil
import stat
from pathlib import Path

from golfbox.configfile import ConfigError, one_line
from golfbox.hal.config import MAX_FILE_BYTES, HardwareConfig, load_config
from golfbox.table.durable import fsync_folder
from golfbox.table.settings import settings_from_config

log = logging.getLogger(__name__)

LAST_GOOD = "config.last-good.toml"  # a link to the kept pair's config (a file: kept before)
PAIR = "last-good."  # the pair's folder: last-good.<n>, beside the link
CONFIG, PINMAP = "config.toml", "pinmap.toml"  # in the pair's folder
OLD_PINMAP = "pinmap.last-good.toml"  # kept beside a copy that is a file, by the version before
MISSING = "no such file"  # a config gone, in the log and STATUS=
CONFIG_FAULT = "config"  # the key of Notices.faults while the table runs on the copy
NO_LINKS = (errno.EPERM, errno.EOPNOTSUPP)  # os.symlink on FAT, exFAT
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
    try:
        folder = _pair_folder(copy)
        kept, pinmap = ((folder / CONFIG, folder / PINMAP) if folder else
                        (copy, copy.with_name(OLD_PINMAP)))
        if not _is_file(kept):
            return None
        kept_pinmap = _is_file(pinmap)
    except OSError as exc:  # a name too long, a folder the service may not look in
        log.warning("%s cannot be looked at, so the table does not run on it: %s", copy,
                    _refused(exc, named=copy))
        return None
    try:
        if kept_pinmap:
            return load_checked(kept, pinmap_file=pinmap)
        # Kept by a version that kept no pin map, or naming none: the one beside the config.
        return load_checked(kept, pinmap_folder=config_path.parent)
    except ConfigError as exc:  # an older version's copy, a damaged card: as a first boot
        # Beside the exit 2's line, whoever reads the log learns why the copy was not used.
        log.warning("%s is refused too, so the table does not run on it: %s", kept, exc)
        return None


def _is_file(path: Path) -> bool:
    """Whether ``path`` is a file; a look that fails for another reason than there being
    none (a folder the service may not search, a name too long) raises OSError. From
    Python 3.14 Path.is_file says False to those too, and a copy the table cannot
    read would be taken for none, in silence."""
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except (FileNotFoundError, NotADirectoryError):
        return False


def _pair_folder(copy: Path) -> Path | None:
    """The folder of the pair ``copy`` links to; None if it is no link (none kept, or
    a file: kept by a version before this one).

    A version before this one keeps the config by renaming a file over ``copy``,
    the link included (a downgrade, then an update again): so whatever ``copy``
    holds is the newest copy, and a file there is read as that version kept it,
    never with the pin map of the pair its link stood for."""
    if not copy.is_symlink():
        return None
    return copy.parent / Path(os.readlink(copy)).parent


def running_on(config: HardwareConfig) -> str:
    """What a refused start runs on, for the log and STATUS=: the copy and its pin map."""
    return f"{config.path} with {config.pinmap_path}" if config.pinmap_path else f"{config.path}"


def refused_at(refusal: ConfigError, config_path: Path) -> tuple[str, str | None]:
    """The name of the file a refusal is of (the config, or its pin map) and the key or
    line at fault, short enough for the displays: '' if none, None if the file is gone."""
    key = refusal.key
    if key:  # as check-config names it: 'seats[2].buttons.ok'
        key = "" if len(key) > LONGEST_KEY else one_line(key)
    return one_line(Path(refusal.file or config_path).name), key


def keep(config: HardwareConfig, config_path: Path, copy: Path) -> None:
    """Keep ``config_path`` and the pin map it names (if any) as the pair to run on when
    a later edit is refused: only when they differ from the pair kept, and only if they
    still load as ``config`` (the config the table started with: an edit saved since it
    was read is not it). In a new folder (0700, files 0600, on the disk), committed by
    renaming a link to it over ``copy``; the old folder goes after. A folder that
    cannot take them is logged, not fatal."""
    sources = {CONFIG: config_path}
    if config.pinmap_path is not None:  # the file it read its pins from (a link followed)
        sources[PINMAP] = config.pinmap_path
    files = " and ".join(map(str, sources.values()))  # for the log
    state, new = copy.parent, None
    try:
        texts = {name: _read_file(source) for name, source in sources.items()}
        if None in texts.values():
            return
        _clean(copy)  # what a power cut left: folders not linked, an old temp file
        if _holds(_pair_folder(copy), texts):
            return
        new = state / f"{PAIR}{1 + max(map(_number, state.glob(PAIR + '*')), default=0)}"
        os.mkdir(new, 0o700)
        for name, text in texts.items():
            _write(new / name, text)
        fsync_folder(new)
        pinmap = new / PINMAP if PINMAP in texts else None
        try:
            same = _same(load_checked(new / CONFIG, pinmap_file=pinmap), config)
        except ConfigError:
            same = False
        if not same:
            log.info("%s changed since the table started with it: no copy kept",
                     " or ".join(map(str, sources.values())))
            return
        link = state / f".{copy.name}.tmp"
        link.unlink(missing_ok=True)
        try:
            os.symlink(f"{new.name}/{CONFIG}", link)
        except OSError as exc:
            if exc.errno not in NO_LINKS:
                raise
            if _keep_flat(texts, copy):  # its folder is removed below, never linked
                log.info("kept %s as %s (its file system takes no links), to run on if a "
                         "later edit is refused", files, copy)
            return
        os.replace(link, copy)  # the commit: the old pair stands until here, the new after
        committed, new = new, None
        kept = f"kept {files} in {committed}, to run on if a later edit is refused"
        try:
            fsync_folder(state)
        except OSError as exc:  # kept, but a cut may undo the rename: the old pair must stay
            log.warning("%s, but %s: a power cut before it reaches the disk may run on the "
                        "pair kept before", kept, _refused(exc))
            return
        log.info("%s", kept)
        _clean(copy)
    except OSError as exc:
        log.warning("cannot keep the config that started in %s: %s (the table runs on; a "
                    "refused config at a later start will not run on it)", copy, _refused(exc))
    finally:
        if new is not None:  # not committed
            shutil.rmtree(new, ignore_errors=True)


def _refused(exc: OSError, named: Path | None = None) -> str:
    """The path the OS refused (both, for a rename) and why, for the log: the builder
    reading it mends that file or folder, not ``config.last-good.toml`` (``named``: a
    path the line names already, not said twice)."""
    paths = " -> ".join(os.fsdecode(p) for p in (exc.filename, exc.filename2)
                        if p is not None and os.fsdecode(p) != str(named))
    why = exc.strerror or str(exc)
    return f"{paths}: {why}" if paths else why


def _keep_flat(texts: dict[str, bytes], copy: Path) -> bool:
    """The pair as the version before kept it, in a folder whose file system takes no
    links (--journal on a FAT stick): ``copy`` a file, its pin map beside it. Two
    renames, the pin map's first: a cut between them leaves the new pin map with the
    old config (FAT, with no journal of its own, promises less still). True if either
    differed."""
    pinmap = copy.with_name(OLD_PINMAP)
    flat = [(pinmap, texts[PINMAP])] if PINMAP in texts else []
    changed = False
    for kept, text in flat + [(copy, texts[CONFIG])]:
        if kept.is_file() and kept.read_bytes() == text:
            continue
        temp = kept.with_name(f".{kept.name}.tmp")
        temp.unlink(missing_ok=True)
        _write(temp, text)
        os.replace(temp, kept)
        changed = True
    if PINMAP not in texts:  # one kept for an earlier config would mislead
        pinmap.unlink(missing_ok=True)
    fsync_folder(copy.parent)
    return changed


def _clean(copy: Path) -> None:
    """Remove the pair folders ``copy`` does not link to (the one it linked to before,
    or one a power cut left half written), the version before's temp files, and, once
    ``copy`` is a link, its flat pin map copy. A file that will not go stays: it is
    tried again at the next start."""
    kept = _pair_folder(copy)
    for path in copy.parent.glob(f"{PAIR}*"):
        if path != kept and _ours(path):
            shutil.rmtree(path, ignore_errors=True)
    leftovers = [f".{copy.name}.tmp", f".{OLD_PINMAP}.tmp"] + ([OLD_PINMAP] if kept else [])
    for name in leftovers:
        try:
            (copy.parent / name).unlink(missing_ok=True)
        except OSError:
            pass


def _ours(path: Path) -> bool:
    """Whether ``path`` is a pair folder a keep made: last-good.<n>, holding nothing but
    the pair. Beside a --journal in a home folder, a last-good.photos is the user's."""
    try:
        return (_number(path) > 0 and path.is_dir() and not path.is_symlink()
                and set(os.listdir(path)) <= {CONFIG, PINMAP})
    except OSError:
        return False


def _holds(folder: Path | None, texts: dict[str, bytes]) -> bool:
    """Whether ``folder`` holds these files and no other."""
    return (folder is not None and folder.is_dir() and sorted(os.listdir(folder)) == sorted(texts)
            and all((folder / name).read_bytes() == text for name, text in texts.items()))


def _number(folder: Path) -> int:
    """n of a pair folder last-good.<n>; 0 for another name."""
    suffix = folder.name.removeprefix(PAIR)
    return int(suffix) if suffix.isascii() and suffix.isdigit() else 0  # not ²


def _write(path: Path, text: bytes) -> None:
    """``text`` in a new file at ``path``, 0600 and on the disk."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        try:
            with os.fdopen(fd, "wb", closefd=False) as out:
                out.write(text)
                out.flush()
                os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        if exc.filename is None:  # write() and fsync() (a full disk) name no file
            exc.filename = os.fspath(path)
        raise


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
