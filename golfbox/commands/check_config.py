"""``golfbox check-config [FILE]``: is this config one the table service will start with?

Loads the file as ``golfbox run`` does (the pin map it names, every section,
the [game] and [journal] tables; of the journal file only its header, to refuse
a folder or another program's file as run does) and touches no hardware, so it
runs anywhere: install.sh runs it before enabling the service. Exit 0 and one
summary line (then a WARNING line for each thing that works but should not be
on a table), or exit 2 and the one-line error naming the key.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from golfbox.commands import UsageError, config_usage_error, output
from golfbox.hal.config import ConfigError, HardwareConfig, load_config
from golfbox.commands.run import DEFAULT_CONFIG, journal_path
from golfbox.table.journal import JournalError, check_file
from golfbox.table.settings import settings_from_config


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", default=DEFAULT_CONFIG, metavar="FILE",
                        help=f"the config file (default {DEFAULT_CONFIG})")


def run(args: argparse.Namespace) -> int:
    if not args.file.strip():  # Path("") would be the current folder
        raise UsageError("FILE: an empty path is not a config file")
    path = Path(args.file)
    try:
        config = load_config(path)
        settings = settings_from_config(config.game, len(config.seats))
    except ConfigError as exc:
        raise config_usage_error(path, exc) from None
    journal = journal_path(None, config, laptop=False)
    try:  # a folder (path = "/var/lib/golfbox"), a file of another program: run refuses it
        check_file(journal)
    except JournalError as exc:
        key = "journal.path: " if config.journal.get("path") is not None else ""
        raise config_usage_error(path, ConfigError("", message=f"{key}{exc}")) from None
    output("\n".join([f"{path}: OK: {summary(config)}; {settings.variant}; journal {journal}",
                       *(f"WARNING: {warning}" for warning in warnings(config))]))
    return 0


def warnings(config: HardwareConfig) -> list[str]:
    """What runs but should not be on a table: a capture display (a development driver)."""
    return [f'{display.key}: driver "capture" is for development: it writes a PNG file per '
            "frame, and never deletes one, into the service's working folder /run/golfbox, "
            "which is in RAM"
            for display in config.displays if display.driver == "capture"]


def summary(config: HardwareConfig) -> str:
    """'4 seats (4 gpio), shared display ssd1322, SPI0.0 DC=GPIO24'."""
    backends: dict[str, int] = {}
    for seat in config.seats:
        backends[seat.backend] = backends.get(seat.backend, 0) + 1
    kinds = ", ".join(f"{count} {backend}" for backend, count in backends.items())
    shared = (f"shared display {config.shared_display.location()}" if config.shared_display
              else "no shared display")
    return f"{len(config.seats)} seats ({kinds}), {shared}"
