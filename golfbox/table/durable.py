"""A rename, a new file or a new folder is on the disk only once the folder that names
it is: fsync'd as a file is."""

from __future__ import annotations

import os
from pathlib import Path


def fsync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    except OSError as exc:  # fsync names no file: the log says which folder
        exc.filename = os.fspath(folder)
        raise
    finally:
        os.close(fd)
