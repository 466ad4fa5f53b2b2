"""golfbox simulate on a long run: a bar that moves by time, Ctrl-C keeps what was played."""

from __future__ import annotations

import argparse
import io
import json
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from golfbox.cli import COMMANDS, build_parser, main
from golfbox.commands.simulate import ProgressBar

ROOT = Path(__file__).resolve().parents[1]


def test_the_bar_is_redrawn_by_time_whatever_the_total(clock):
    stream = io.StringIO()
    bar = ProgressBar(10**9, stream=stream, clock=clock)  # 1 % would be 10 million rounds
    bar(1)
    drawn = stream.getvalue().count("\r")
    assert drawn == 1  # at once
    for done in range(2, 50):
        bar(done)  # no time passes: no redraw
    assert stream.getvalue().count("\r") == drawn
    clock.now += ProgressBar.INTERVAL
    bar(50)
    assert stream.getvalue().count("\r") == drawn + 1
    assert "50/1,000,000,000 rounds" in stream.getvalue()


def read_and_close(controller: int) -> bytes:
    """What a pty's program wrote, until it has said nothing for half a second."""
    shown = b""
    while select.select([controller], [], [], 0.5)[0]:
        try:
            shown += os.read(controller, 4096)
        except OSError:
            break
    os.close(controller)
    return shown


@pytest.mark.parametrize("columns", [40, 52, 80, 0])  # 0: a terminal that does not say
def test_the_bar_fits_the_terminal_it_is_drawn_on(clock, columns):
    """In a 40-column terminal (a split pane) '[30 cells] 2,700/2,700 rounds' (52
    characters) wrapped: each redraw went back to the start of its last line only,
    and the pane filled with pieces of bars. The bar is narrowed to fit."""
    import fcntl
    import struct
    import termios

    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    with open(terminal, "w", encoding="utf-8") as stream:
        bar = ProgressBar(2700, stream=stream, clock=clock)
        for done in (1, 1350, 2700):
            bar(done)
            clock.now += ProgressBar.INTERVAL
        bar.end()
    shown = read_and_close(controller)
    # ESC [ K (erase the line's rest) takes no column.
    shown = shown.decode().replace("\x1b[K", "")
    drawn = [line for line in shown.replace("\n", "\r").split("\r") if line]
    assert drawn[-1] == "[" + "#" * len(drawn[-1].split("]")[0][1:]) + "] 2,700/2,700 rounds"
    assert all(len(line) < (columns or 80) for line in drawn), drawn  # the last column wraps
    assert drawn[-1].count("#") == (min(30, columns - 22) if columns else 30)


def last_line_shown(written: str) -> str:
    """The bar's line as a terminal shows it after ``written``: \\r goes back to its
    start, a character overwrites the cell under the cursor, ESC [ K erases to the end."""
    cells, x = [], 0
    for part in re.split(r"(\r|\x1b\[K)", written.rsplit("\n", 1)[-1]):
        if part == "\r":
            x = 0
        elif part == "\x1b[K":
            del cells[x:]
        else:
            cells[x:x + len(part)] = part
            x += len(part)
    return "".join(cells)


def test_the_bar_leaves_no_tail_when_the_terminal_narrows_mid_run(clock):
    """The bar narrows when its terminal does, but each redraw only overwrote the
    start of the line: the wider bar drawn before left its tail ('…rounds]… rounds')."""
    import fcntl
    import struct
    import termios

    controller, terminal = pty.openpty()
    with open(terminal, "w", encoding="utf-8") as stream:
        bar = ProgressBar(2700, stream=stream, clock=clock)
        for done, columns in ((1, 80), (1350, 40)):  # the window made narrower mid-run
            fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
            bar(done)
            clock.now += ProgressBar.INTERVAL
    shown = read_and_close(controller)
    assert last_line_shown(shown.decode()) == "[#########.........] 1,350/2,700 rounds"


def test_every_option_of_every_command_has_a_help_line():
    for command in COMMANDS:
        parser, _ = build_parser([command])
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        for action in sub.choices[command]._actions:
            assert action.help, f"golfbox {command} {'/'.join(action.option_strings) or action.dest}"


def test_every_option_with_a_default_says_what_it_is():
    """golfbox simulate --help said only 'rounds per match' of --rounds: its 9 was not
    told, where every other option with a default says it (sim's --rounds: default 9)."""
    for command in COMMANDS:
        parser, _ = build_parser([command])
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        for action in sub.choices[command]._actions:
            if action.default in (None, False, [], argparse.SUPPRESS) or not action.option_strings:
                continue
            assert "default" in action.help and str(action.default) in action.help, \
                f"golfbox {command} {'/'.join(action.option_strings)}: {action.help!r}"


def cpu_seconds(pid: int) -> float:
    """The CPU time a process has used so far (user + system), from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def simulate_in_a_terminal(*args: str, draws: int) -> tuple[int, str, str, float | None]:
    """Run golfbox simulate with stderr on a pseudo-terminal (so it draws its bar), send it
    Ctrl-C's SIGINT once the bar has been drawn ``draws`` times (or after a minute without);
    exit status, stdout, what the terminal showed, and how much CPU time the program had
    used when the bar first appeared."""
    controller, terminal = pty.openpty()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    # SIGINT's default given back: pytest started as a background job (`cmd &` in a script)
    # inherits it ignored, and so would the run, rightly deaf to Ctrl-C (30 s, then failed).
    proc = subprocess.Popen([sys.executable, "-m", "golfbox", "simulate", *args],
                            stdout=subprocess.PIPE, stderr=terminal, stdin=subprocess.DEVNULL,
                            env=env, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    os.close(terminal)
    shown, first_bar = b"", None
    # Until the bar is drawn, not for a fixed time: a start-up of more than 3 s on a loaded
    # machine got the SIGINT before the bar (exit -2), or between its first two draws.
    give_up = time.monotonic() + 60
    try:
        while shown.count(b"\r") < draws and time.monotonic() < give_up:
            ready, _, _ = select.select([controller], [], [], 0.05)
            if ready:
                try:
                    shown += os.read(controller, 4096)
                except OSError:
                    break
                if first_bar is None and b"rounds" in shown:
                    first_bar = cpu_seconds(proc.pid)
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=30)
    finally:
        proc.kill()
        os.close(controller)
    return proc.returncode, out, shown.decode(errors="replace"), first_bar


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_ctrl_c_prints_what_was_played_and_exits_130(as_json):
    args = ["--variant", "9-card", "--players", "4", "--matches", "1000000", "--bots", "greedy",
            "--seed", "1"] + (["--json"] if as_json else [])
    status, out, shown, first_bar = simulate_in_a_terminal(*args, draws=2)
    assert status == 130, (out, shown)
    # Python's start-up and the first round, in the program's own CPU time (0.1 s here):
    # its wall time on a loaded machine measures the machine (2.6 s with a load of 8).
    assert first_bar is not None and first_bar < 2.5, shown
    assert shown.count("\r") >= 2  # it moved
    if as_json:
        result = json.loads(out)
        assert result["interrupted"] is True and result["rounds"] > 0
        assert result["matches_asked"] == 1000000
    else:
        assert "interrupted" in out and "rounds/s" in out


def test_an_interrupted_summary_says_what_its_columns_count():
    """After Ctrl-C in a match's first round, total 0 stood beside mean/round 20.0 unexplained,
    and a rate of 0.2 rounds/s read '0 rounds/s'."""
    from golfbox.commands.simulate import summary_text

    result = {"variant": "9-card", "players": 2, "bots": ["hard", "medium"], "matches": 0,
              "matches_asked": 5, "interrupted": True, "rounds": 1, "turns": 30,
              "totals": [0, 0], "wins": [0.0, 0.0], "mean_round_score": [1.0, 20.0],
              "elapsed_s": 5.0, "rounds_per_s": 0.2}
    lines = summary_text(result, 5).splitlines()
    assert lines[0] == "interrupted (Ctrl-C) after 0 of 5 matches; what was played so far:"
    assert lines[-2] == "total and wins: the 0 finished matches; mean/round: all 1 rounds played"
    assert lines[-1] == "elapsed 5.00 s, 0.2 rounds/s"
    whole = dict(result, interrupted=False, matches=1, rounds=9, rounds_per_s=11300.4)
    assert summary_text(whole, 1).splitlines()[-1] == "elapsed 5.00 s, 11300 rounds/s"
    assert "finished matches" not in summary_text(whole, 1)


def test_a_reader_that_stops_early_ends_it_quietly():
    """`golfbox simulate … --json | head -c 5`: the pipe closed before the result was
    written, and Python's BrokenPipeError traceback followed the short output."""
    read_end, write_end = os.pipe()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "golfbox", "simulate", "--variant", "4-card",
                             "--players", "2", "--bots", "random", "--matches", "20", "--json",
                             "--no-progress"],
                            stdout=write_end, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                            env=env, text=True)
    os.close(write_end)
    os.close(read_end)  # the reader has gone before anything was written
    _, errors = proc.communicate(timeout=120)
    assert "Traceback" not in errors and "BrokenPipeError" not in errors, errors
    assert proc.returncode == 141  # as a tool killed by SIGPIPE ends (128 + 13)


def test_golfbox_help_says_what_golfbox_is(capsys):
    """`golfbox --help` began "Command-line entry points.", its module's docstring, which
    tells a newcomer nothing; it says what the program is, and where to start."""
    with pytest.raises(SystemExit):
        main(["--help"])
    help_text = capsys.readouterr().out
    assert "entry points" not in help_text
    assert "card game Golf" in help_text and "golfbox sim" in help_text


def test_a_slow_rate_is_not_rounded_to_zero():
    """Four hard bots at 9-card on a busy laptop: one round in 20 s, which read
    "0 rounds/s" (and 0.0 in --json): the rate was rounded to one decimal first."""
    from golfbox.bots.simulate import SimulationResult
    from golfbox.commands.simulate import summary_text

    result = SimulationResult("9-card", 4, ["hard"] * 4, rounds=1, turns=38, totals=[0] * 4,
                              wins=[0.0] * 4, round_score_sum=[29, 5, 6, 17], elapsed_s=20.45,
                              matches_asked=20, interrupted=True).as_dict()
    assert result["rounds_per_s"] == 0.0489
    assert summary_text(result, 20).splitlines()[-1] == "elapsed 20.45 s, 0.049 rounds/s"


def test_a_broken_pipe_that_is_not_stdout_is_not_hidden(monkeypatch):
    """Only a closed stdout ends quietly: a BrokenPipeError from anywhere else (a socket,
    the bots' worker) in golfbox run was also turned into a silent exit 141."""
    import golfbox.commands.score as score

    def broken(args):
        raise BrokenPipeError("a socket's reader went away")

    monkeypatch.setattr(score, "run", broken)
    with pytest.raises(BrokenPipeError):
        main(["score", "--variant", "4-card", "0 0 / 0 0"])


def test_the_summary_names_seats_as_the_players_see_them(capsys):
    """The summary numbered its seats 0, 1, 2 where every display, the sim and README say
    P1 … Pn (seat 1 first): it says P1, P2, P3."""
    assert main(["simulate", "--variant", "4-card", "--bots", "random,greedy,random", "--matches", "1",
                 "--rounds", "1", "--seed", "1", "--no-progress"]) == 0
    rows = capsys.readouterr().out.splitlines()[2:5]
    assert [row.split()[:2] for row in rows] == [["P1", "random"], ["P2", "greedy"], ["P3", "random"]]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs Linux's /dev/full")
@pytest.mark.parametrize("args", [
    ["simulate", "--variant", "4-card", "--players", "2", "--bots", "random", "--matches", "2",
     "--no-progress"],
    ["simulate", "--variant", "4-card", "--players", "2", "--bots", "random", "--matches", "2",
     "--json"],
    ["score", "--variant", "9-card", "K K JK / 4 J 3 / 7 7 7"],
    ["demo", "--variant", "4-card", "--players", "2", "--rounds", "1", "--bot", "random",
     "--out", "pictures"],
    ["check-hardware", "--seconds", "0"],  # the simulated backend, with no /etc/golfbox
])
def test_a_full_disk_under_the_output_is_one_line_and_exit_1(tmp_path, args):
    """`golfbox simulate … > results.txt` on a full disk: an OSError traceback (No space
    left on device) once the run was over; it is one line, and exit 1 (it may pass)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with open("/dev/full", "w") as full:
        run = subprocess.run([sys.executable, "-m", "golfbox", *args], stdout=full, cwd=tmp_path,
                             stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env, text=True,
                             timeout=120)
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr, run.stderr
    assert run.stderr.splitlines()[-1] == (  # after demo's INFO line
        f"golfbox {args[0]}: cannot write the output: No space left on device"), run.stderr


@pytest.mark.parametrize("args", [
    ["simulate", "--variant", "4-card", "--players", "2", "--bots", "random", "--matches", "2",
     "--no-progress"],
    ["score", "--variant", "9-card", "K K JK / 4 J 3 / 7 7 7"],
    ["check-hardware", "--seconds", "0"],
])
def test_a_closed_stdout_is_one_line_and_exit_1(tmp_path, args):
    """`golfbox simulate … >&-`: Python has no sys.stdout then, and print() wrote the
    result nowhere: exit 0 and nothing said. It is one line, and exit 1."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    run = subprocess.run([sys.executable, "-m", "golfbox", *args], stdout=None, cwd=tmp_path,
                         stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env, text=True,
                         timeout=120, preexec_fn=lambda: os.close(1))
    assert run.returncode == 1, run.stderr
    assert run.stderr.splitlines()[-1] == (
        f"golfbox {args[0]}: cannot write the output: stdout is closed"), run.stderr


# Not sooner than 5 ms: a SIGINT before main() is entered (1 ms, on a loaded machine:
# 2 runs of 600) is a traceback no main() can catch. The import takes 60-70 ms here.
@pytest.mark.parametrize("after", [0.005, 0.02, 0.05])
def test_ctrl_c_while_a_command_starts_is_exit_130_not_a_traceback(after):
    """Ctrl-C in the first tenth of a second (longer on a Pi), while golfbox.cli imported
    the command's module, was a KeyboardInterrupt traceback through importlib."""
    code = ("import os, signal, sys\n"
            "from golfbox.cli import main\n"
            "signal.signal(signal.SIGALRM, lambda *_: os.kill(os.getpid(), signal.SIGINT))  # Ctrl-C\n"
            f"signal.setitimer(signal.ITIMER_REAL, {after})\n"
            "sys.exit(main(['simulate', '--variant', '4-card', '--players', '2', '--bots', "
            "'random', '--matches', '100000', '--no-progress']))\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         stdin=subprocess.DEVNULL, timeout=120)
    assert "Traceback" not in run.stderr, run.stderr
    assert run.returncode == 130, run.stderr


# A command module whose import frees an object with a weakref callback, as importlib's
# module locks are freed, and a Ctrl-C lands in that callback.
CTRL_C_IN_A_WEAKREF_CALLBACK = """
import os, signal, weakref

class Lock:
    pass

def freed(_ref):
    os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C, handled before this callback returns
    sum(range(1000))

lock = Lock()
ref = weakref.ref(lock, freed)
del lock

def add_arguments(parser):
    pass

def run(args):
    print("ran as if Ctrl-C had not been pressed")
    return 0
"""


def test_ctrl_c_in_a_weakref_callback_while_a_command_is_imported_is_not_lost(tmp_path):
    """CPython drops an exception raised in a weakref callback ("Exception ignored in"),
    and importlib frees its module locks in one: a Ctrl-C landing there (1 start in
    about 60, 10 ms into `golfbox simulate`) was lost, and the command ran to its end."""
    (tmp_path / "ctrl_c_command.py").write_text(CTRL_C_IN_A_WEAKREF_CALLBACK)
    code = ("import sys\n"
            "from golfbox import cli\n"
            "cli.COMMANDS['ctrl-c'] = ('ctrl_c_command', 'a command Ctrl-C lands in')\n"
            "sys.exit(cli.main(['ctrl-c']))\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(tmp_path)]))
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         stdin=subprocess.DEVNULL, timeout=60)
    assert (run.returncode, run.stdout, run.stderr) == (130, "", "")


class FullStreamWithoutFile(io.StringIO):
    """A stdout with no file descriptor behind it (an embedding program's stream, a
    capture) that cannot take the output: the disk under it is full."""

    def write(self, text: str) -> int:
        raise OSError(28, "No space left on device")


def test_a_full_stdout_without_a_file_descriptor_is_still_one_line(monkeypatch, capsys):
    """Since b5e88f5 a stdout that cannot take the output is pointed at /dev/null: a
    stream with no descriptor (fileno() raises) then raised io.UnsupportedOperation
    from inside that error's handler, a traceback instead of the line."""
    monkeypatch.setattr(sys, "stdout", FullStreamWithoutFile())
    assert main(["score", "--variant", "9-card", "K K JK / 4 J 3 / 7 7 7"]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        "golfbox score: cannot write the output: No space left on device")


def test_the_bar_is_drawn_only_on_a_terminal_and_not_with_no_progress():
    """`golfbox simulate … 2> log` keeps its log free of carriage returns and escapes,
    and --no-progress on a terminal means no bar there either."""
    args = [sys.executable, "-m", "golfbox", "simulate", "--variant", "4-card", "--players", "2",
            "--bots", "random", "--matches", "3", "--seed", "1"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    to_a_file = subprocess.run(args, capture_output=True, text=True, env=env, timeout=60,
                               stdin=subprocess.DEVNULL)
    assert (to_a_file.returncode, to_a_file.stderr) == (0, "")
    assert to_a_file.stdout.startswith("3 matches, ")

    controller, terminal = pty.openpty()
    try:
        on_a_terminal = subprocess.run([*args, "--no-progress"], stdout=subprocess.PIPE,
                                       stderr=terminal, stdin=subprocess.DEVNULL, env=env,
                                       text=True, timeout=60)
        os.set_blocking(controller, False)
        try:
            shown = os.read(controller, 4096)
        except (BlockingIOError, OSError):  # nothing was written to the terminal
            shown = b""
    finally:
        os.close(terminal)
        os.close(controller)
    assert on_a_terminal.returncode == 0
    assert on_a_terminal.stdout.startswith("3 matches, ")
    assert shown == b""
