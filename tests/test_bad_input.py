"""Bad input of any kind is refused on one line with exit status 2, touching nothing.

Each case runs the real ``golfbox`` command (``python -m golfbox``) in a
temporary HOME, and checks the exit status, that stderr is one line naming
the file, and that the file is untouched with nothing created beside it.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from fake_systemd import stderr_until_ready

ROOT = Path(__file__).resolve().parents[1]


def golfbox(tmp_path: Path, *args: str, timeout: float = 30, stdin: int = subprocess.DEVNULL,
            **more_env: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, HOME=str(tmp_path / "home"), XDG_STATE_HOME=str(tmp_path / "state"),
               PYTHONPATH=str(ROOT), **more_env)
    env["STATE_DIRECTORY"] = str(tmp_path / "state-directory")  # not /var/lib/golfbox
    return subprocess.run([sys.executable, "-m", "golfbox", *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=timeout, stdin=stdin)


def one_line_exit_2(run: subprocess.CompletedProcess, *words: str) -> None:
    assert run.returncode == 2, (run.returncode, run.stderr)
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    for word in words:
        assert word in lines[0], lines[0]


def listing(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


# -- item 2: --journal never takes over a file that is not a golfbox journal


def foreign_files(tmp_path: Path) -> dict[str, bytes]:
    """name -> bytes to write."""
    return {
        "README.md": (ROOT / "README.md").read_bytes(),
        "notes.txt": b"shopping: eggs, milk\n",
        "binary.bin": bytes(range(256)) * 8,
        "fake.sqlite3": b"SQLite format 3\x00" + b"\x00" * 84 + b"rest of a broken file",
        "photos.db": another_programs_database("photos (name TEXT)"),
        "map.gpkg": another_programs_database("features (id INTEGER PRIMARY KEY)",
                                              application_id=0x47504B47),  # a GeoPackage ("GPKG")
    }


def another_programs_database(table: str, application_id: int = 0) -> bytes:
    """An SQLite database of another program: one table, and its PRAGMA application_id
    (0 for most programs, which set none)."""
    db = sqlite3.connect(":memory:")
    db.execute(f"PRAGMA application_id = {application_id}")
    db.execute(f"CREATE TABLE {table}")
    image = db.serialize()
    db.close()
    return image


@pytest.mark.parametrize("name", list(foreign_files(Path("."))))
def test_journal_flag_refuses_a_file_that_is_not_a_golfbox_journal(tmp_path, name):
    folder = tmp_path / "files"
    folder.mkdir()
    target = folder / name
    target.write_bytes(foreign_files(tmp_path)[name])
    before = listing(folder)
    run = golfbox(tmp_path, "run", "--headless", "--journal", str(target))
    one_line_exit_2(run, str(target), "not a golfbox journal")
    assert listing(folder) == before  # untouched, nothing renamed, nothing created beside it


@pytest.mark.parametrize("env, words", [
    ({"NOTIFY_SOCKET": "golfbox.sock"},
     "NOTIFY_SOCKET='golfbox.sock' is neither an absolute path nor an @abstract name"),
    ({"WATCHDOG_USEC": "30s"}, "WATCHDOG_USEC='30s' is not a positive number of microseconds"),
])
def test_a_malformed_systemd_environment_stops_run_in_one_line_before_the_journal(tmp_path, env,
                                                                                 words):
    """A unit's Environment= (or a shell) that sets these by hand, wrongly."""
    run = golfbox(tmp_path, "run", "--headless", "--journal", str(tmp_path / "j.sqlite3"), **env)
    one_line_exit_2(run, "golfbox run: " + words)
    assert not (tmp_path / "j.sqlite3").exists()


def test_journal_flag_refuses_a_folder_and_a_device(tmp_path):
    run = golfbox(tmp_path, "run", "--headless", "--journal", str(tmp_path))
    one_line_exit_2(run, str(tmp_path))
    run = golfbox(tmp_path, "run", "--headless", "--journal", "/dev/null")
    one_line_exit_2(run, "/dev/null")


def test_a_damaged_golfbox_journal_is_still_set_aside(tmp_path):
    from golfbox.table.journal import Journal
    from golfbox.commands.run import open_journal

    path = tmp_path / "journal.sqlite3"
    with Journal(path) as journal:
        match = journal.start_match({"variant": "6-card"}, 1)
        for n in range(400):
            journal.record(match, n % 3, f"place {n % 6}")
    size = path.stat().st_size
    with open(path, "r+b") as file:
        file.seek(size // 2 // 4096 * 4096)
        file.write(b"\xa5" * 4096)
    fresh = open_journal(path)
    fresh.close()
    assert [p.name for p in tmp_path.iterdir() if ".corrupt-" in p.name]


# -- item 3: a config or pin map that cannot be read is one line naming it, exit 2

SIM_SEATS = '[[seats]]\nbackend = "sim"\n[[seats]]\nbackend = "sim"\n'


def bad_config_files(tmp_path: Path) -> dict[str, tuple[str, str]]:
    """case -> (the --config argument, a word the message must hold)."""
    files = tmp_path / "files"
    files.mkdir(exist_ok=True)
    latin1 = files / "latin1.toml"
    latin1.write_bytes('[game]\nnames = { 1 = "Zoé" }\n'.encode("latin-1"))
    (files / "folder.toml").mkdir(exist_ok=True)
    binary_map = files / "binary_map.toml"
    (files / "map.bin").write_bytes(bytes(range(256)))
    binary_map.write_text('pinmap = "map.bin"\n' + SIM_SEATS)
    folder_map = files / "folder_map.toml"
    (files / "mapdir").mkdir(exist_ok=True)
    folder_map.write_text('pinmap = "mapdir"\n' + SIM_SEATS)
    return {
        "not UTF-8": (str(latin1), "latin1.toml"),
        "a folder": (str(files / "folder.toml"), "folder.toml"),
        "an empty path": ("", "--config"),
        "pin map binary": (str(binary_map), "map.bin"),
        "pin map a folder": (str(folder_map), "mapdir"),
    }


CONFIG_CASES = ["not UTF-8", "a folder", "an empty path", "pin map binary", "pin map a folder"]


@pytest.mark.parametrize("command", ["run", "check-hardware"])
@pytest.mark.parametrize("case", CONFIG_CASES)
def test_a_config_that_cannot_be_read_is_one_line_and_exit_2(tmp_path, command, case):
    argument, word = bad_config_files(tmp_path)[case]
    before = listing(tmp_path / "files")
    extra = ["--headless"] if command == "run" else ["--seconds", "0.1"]
    run = golfbox(tmp_path, command, "--config", argument, *extra)
    one_line_exit_2(run, word)
    assert "Traceback" not in run.stderr
    if case == "pin map a folder":
        assert "does not exist" not in run.stderr  # it does: it is a folder
    assert listing(tmp_path / "files") == before


def test_check_config_refuses_an_empty_path(tmp_path):
    """It said '.: is a folder', reading "" as the current folder."""
    one_line_exit_2(golfbox(tmp_path, "check-config", ""), "FILE: an empty path is not a config file")


# Two seats of the reference pin map, one value of seat 1's written as the builder might.
PIN_MAP_SEATS = ('[[seats]]\nbuttons = {{ left = 17, right = 27, ok = {ok}, back = 4 }}\n'
                 'display = {{ i2c = {{ bus = 1, address = {address} }} }}\n'
                 '[[seats]]\nbuttons = {{ left = 5, right = 6, ok = 13, back = 19 }}\n'
                 'display = {{ i2c = {{ bus = 1, address = 0x3D }} }}\n')


@pytest.mark.parametrize("pin_map, said", [
    (PIN_MAP_SEATS.format(ok='"22"', address="0x3C"),
     "seats[0].buttons.ok (from map.toml): expected an integer (GPIO (BCM) number), "
     "got a string '22'"),
    (PIN_MAP_SEATS.format(ok="22", address='"0x3C"'),
     "seats[0].display.i2c.address (from map.toml): expected an integer "
     "(7-bit I2C address), got a string '0x3C'"),
    ("seats = 2\n", "seats (in map.toml): expected a list of [[seats]] tables, got an integer"),
    ("seats = [17, 5]\n", "seats[0] (in map.toml): expected a [[seats]] table, got an integer 17"),
    ('seats = ["17"]\n', "seats[0] (in map.toml): expected a [[seats]] table, got a string '17'"),
])
def test_check_config_says_a_pin_maps_wrong_types_as_the_config_reader_does(tmp_path, pin_map, said):
    """A pin map's seats of the wrong type said 'found int' ('found 17'), in Python's
    words, where every other key of a config or pin map says 'got an integer': one way,
    the builder's line whole."""
    (tmp_path / "map.toml").write_text(pin_map)
    (tmp_path / "config.toml").write_text('pinmap = "map.toml"\n'
                                          + '[[seats]]\ndisplay = { driver = "ssd1306" }\n' * 2)
    run = golfbox(tmp_path, "check-config", "config.toml")
    assert (run.returncode, run.stdout, run.stderr) == (
        2, "", f"golfbox check-config: config.toml: {said}\n")


def test_run_refuses_an_empty_journal_path(tmp_path):
    """It used the default journal instead, as if --journal had not been given."""
    run = golfbox(tmp_path, "run", "--headless", "--journal", "")
    one_line_exit_2(run, "--journal: an empty path is not a journal file")
    assert not (tmp_path / "state").exists()


# -- item 4: golfbox score counts suited cards against the decks


@pytest.mark.parametrize("variant,grids,card,most", [
    ("4-card", ["AS AS / 3 4"], "AS", 1),
    ("9-card", ["AS AS AS / 2 3 4 / 5 6 7"], "AS", 2),  # two decks hold two A♠
    ("6-card", ["KH 2 3 / 4 5 6", "KH 7 8 / 9 10 J"], "KH", 1),
    ("polish-poker", ["10D 10d 3 / 4 5 6"], "10D", 1),  # a suit letter in either case
])
def test_score_refuses_more_copies_of_a_suited_card_than_the_decks_hold(tmp_path, variant, grids,
                                                                         card, most):
    run = golfbox(tmp_path, "score", "--variant", variant, *grids)
    one_line_exit_2(run, card, f"hold {most}")
    assert run.stdout == ""


@pytest.mark.parametrize("variant,grids,scores", [
    ("9-card", ["AS AS A / 2 3 4 / 5 6 7"], ["27"]),  # two A♠ and an ace of any suit: fine
    ("4-card", ["AS AH / AD AC"], ["4"]),
    ("6-card", ["KH 2 3 / 4 5 6", "K 7 8 / 9 10 J"], ["16", "44"]),  # an unsuited K is another king
])
def test_score_accepts_suited_cards_the_decks_can_hold(tmp_path, variant, grids, scores):
    run = golfbox(tmp_path, "score", "--variant", variant, *grids)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == scores


FULL_DISK = """
import resource, signal, sys
from golfbox.commands import NotNow
from golfbox.commands.run import open_journal

signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead
resource.setrlimit(resource.RLIMIT_FSIZE, (0, resource.RLIM_INFINITY))  # no file may grow
waits = []

def sleep(seconds):  # the disk gets room while the start waits, if asked to
    waits.append(seconds)
    if sys.argv[2] == "room":
        resource.setrlimit(resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY,) * 2)

try:
    journal = open_journal(__import__("pathlib").Path(sys.argv[1]), patience=10, sleep=sleep)
    print("opened after", waits, journal.unfinished())
except NotNow as exc:
    print("not now:", exc)
"""


@pytest.mark.parametrize("room", ["room", "none"])
def test_a_journal_on_a_full_disk_is_tried_again_and_the_start_fails_for_systemd_to_retry(tmp_path, room):
    """A full disk at start said "cannot open" with exit status 2, which systemd never
    restarts: the table stayed down after the disk had room again. Now the start tries
    again for a while, then exits 1 (restarted); the table comes up once there is room.
    A file size limit of 0 stands for the full disk: SQLite's writes fail as they would."""
    path = tmp_path / "journal.sqlite3"
    out = subprocess.run([sys.executable, "-c", FULL_DISK, str(path), room],
                         capture_output=True, text=True, timeout=60)
    assert out.stderr.count("trying again every 5 s") == 1, out.stderr
    if room == "room":
        assert out.stdout == "opened after [5.0] None\n"
    else:
        assert out.stdout == (f"not now: journal {path}: cannot open (disk I/O error) "
                              "(tried for 10 s)\n")


def test_a_journal_on_a_filesystem_with_no_disk_is_not_called_full(tmp_path):
    """/proc has no disk, so no free bytes: the refusal said "the disk is full (0 bytes free)"."""
    run = golfbox(tmp_path, "run", "--headless", "--journal", "/proc/version")
    one_line_exit_2(run, "/proc/version")
    assert "full" not in run.stderr


# -- a path quoted in a message is shown on one line, whatever it holds


@pytest.mark.parametrize("args", [
    ["run", "--config", "a\nb.toml"],  # no such file
    ["run", "--headless", "--journal", "a\nb"],  # a folder, not a journal
    ["check-config", "a\nb.toml"],
    ["check-hardware", "--config", "a\nb.toml"],
    ["sim", "--dump-frames", "/proc/a\nb"],
])
def test_a_path_with_a_newline_is_shown_escaped_on_one_line(tmp_path, args):
    """It was printed as it is: the message went over two lines."""
    (tmp_path / "a\nb").mkdir()
    run = golfbox(tmp_path, *args)
    one_line_exit_2(run, "a\\nb")


@pytest.mark.parametrize("command", [["check-config"], ["check-hardware", "--config"]])
@pytest.mark.parametrize("name", ["a\tb.toml", "a\nb.toml", "caf\udce9.toml"])  # a tab, a newline, a latin-1 byte
def test_a_config_path_with_a_control_character_or_a_stray_byte_is_named_once(tmp_path, command, name):
    """check-config and check-hardware add the path before a message that does not
    name it; they looked for it unescaped in the escaped message and named it twice:
    'golfbox check-config: a\\tb.toml: a\\tb.toml: no such config file'."""
    run = golfbox(tmp_path, *command, name)
    assert run.returncode == 2, run.stderr
    assert run.stderr.count("no such config file") == 1
    assert run.stderr.count(".toml") == 1, run.stderr


@pytest.mark.parametrize("args, words", [
    (["demo", "--out", ""], "--out: an empty path is not a folder"),  # it wrote into the current folder
    (["sim", "--dump-frames", ""], "--dump-frames: an empty path is not a folder"),  # it dumped nothing
    (["sim", "--bot", ""], "--bot : unknown bot"),  # it played the default bot
    (["demo", "--bot", " "], "--bot  : unknown bot"),
])
def test_an_empty_option_value_is_refused_not_taken_for_another(tmp_path, args, words):
    run = golfbox(tmp_path, *args)
    one_line_exit_2(run, words)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args, words", [
    # The config refuses these; the command line took them: -5 dealt as 5 (random's abs),
    # 1000 rounds made a match no table plays, and a lobby with nobody at the keys never dealt.
    (["sim", "--seed", "-5"], "--seed -5: a whole number from 0 to 18446744073709551615"),
    (["demo", "--seed", str(2**64)], "--seed 18446744073709551616: a whole number from 0"),
    (["sim", "--rounds", "100"], "--rounds 100: a match has 1 to 99 rounds"),
    (["sim", "--rounds", "0"], "--rounds 0: a match has 1 to 99 rounds"),
    (["sim", "--lobby", "--humans", "0"], "--lobby with --humans 0: nobody at this keyboard could deal"),
    # simulate's results from -5 were those from 5, as sim's deal was
    (["simulate", "--variant", "4-card", "--players", "2", "--matches", "1", "--bots", "random",
      "--seed", "-5"],
     "--seed -5: a whole number from 0 to 18446744073709551615"),
])
def test_the_command_line_takes_a_match_as_the_config_does(tmp_path, args, words):
    run = golfbox(tmp_path, *args)
    one_line_exit_2(run, words)
    assert not (tmp_path / "state").exists()  # no journal was opened


@pytest.mark.parametrize("args, words", [
    # argparse printed its whole usage (five lines for sim) above the error
    (["sim", "--players", "two"], ["golfbox sim: ", "--players", "'two'", "golfbox sim --help"]),
    (["sim", "--cells", "ascii"], ["golfbox sim: ", "--cells", "'ascii'", "braille"]),
    # and named "golfbox", with the top command's usage, for an option sim does not have
    (["sim", "--lobyy"], ["golfbox sim: ", "--lobyy", "golfbox sim --help"]),
    (["simm"], ["golfbox: ", "'simm'", "golfbox --help"]),
    (["score", "--variant"], ["golfbox score: ", "--variant", "expected one argument"]),
])
def test_an_option_argparse_refuses_is_one_line_naming_the_command(tmp_path, args, words):
    one_line_exit_2(golfbox(tmp_path, *args), *words)


def test_golfbox_with_no_command_lists_the_commands_and_exits_2(tmp_path):
    """A bare `golfbox` (or one with only -v) runs nothing: it shows what it could run,
    and its status is a usage error's, so a script that forgot the command stops."""
    from golfbox.cli import COMMANDS

    for args in ([], ["-v"]):
        run = golfbox(tmp_path, *args)
        assert run.returncode == 2, (args, run.returncode, run.stderr)
        assert run.stdout.startswith("usage: golfbox "), run.stdout
        listed = {line.split()[0] for line in run.stdout.splitlines() if line.startswith("    ")}
        assert set(COMMANDS) <= listed, run.stdout
    assert not (tmp_path / "state").exists()


@pytest.mark.parametrize("command", [
    ["sim", "--players", "2", "--variant", "4-card"], ["demo", "--variant", "4-card"],
    ["simulate", "--variant", "4-card", "--players", "2", "--matches", "1", "--bots", "random"],
    ["score", "--variant", "4-card", "A 2 / 3 4"],
])
def test_a_rule_given_twice_with_two_values_is_refused_not_the_last_taken(tmp_path, command):
    """--rule knock_penalty=10 --rule knock_penalty=0 played 0, silently: the config file
    refuses a key given twice (TOML), the command line took the last."""
    run = golfbox(tmp_path, *command, "--rule", "knock_penalty=10", "--rule", "knock_penalty = 0")
    one_line_exit_2(run, "--rule knock_penalty: given twice, as 10 and 0")
    assert not (tmp_path / "state").exists()


@pytest.mark.parametrize("args, words", [
    (["check-hardware", "--seconds", "0"], "not pressed: seat 1 "),  # its buttons are ◀ ▶ ● ✕
    (["demo", "--variant", "4-card", "--players", "2", "--rounds", "1", "--bot", "random",
      "--out", "demo\u2192"], "rounds.png"),  # → is in no Latin-1 terminal
])
@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_a_terminal_that_is_not_utf8_gets_every_line_not_a_traceback(tmp_path, args, words,
                                                                      encoding):
    """A Latin-1 or ASCII terminal (PYTHONIOENCODING, or LC_ALL=C with PYTHONUTF8=0):
    print() raised UnicodeEncodeError on the first ◀ or → and the rest was lost."""
    run = golfbox(tmp_path, *args, PYTHONIOENCODING=encoding)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr, run.stderr
    assert words in run.stdout, run.stdout


@pytest.mark.parametrize("option", [["demo", "--out"], ["sim", "--dump-frames"]])
def test_a_file_given_as_the_pictures_folder_is_named_as_a_file(tmp_path, option):
    """It was '--out notes.txt: File exists', as if the trouble were that it exists."""
    notes = tmp_path / "notes.txt"
    notes.write_text("shopping: eggs\n")
    run = golfbox(tmp_path, *option, str(notes))
    one_line_exit_2(run, f"{option[1]} {notes}: is a file, not a folder")
    assert notes.read_text() == "shopping: eggs\n"


@pytest.mark.parametrize("option", [["demo", "--out"], ["sim", "--dump-frames"]])
def test_a_pictures_folder_under_a_file_is_named_with_why_it_cannot_be_made(tmp_path, option):
    """notes.txt/pictures cannot be made: the line names the folder and the system's
    reason, as for any folder that cannot be made (one not ours, a read-only disk)."""
    notes = tmp_path / "notes.txt"
    notes.write_text("shopping: eggs\n")
    run = golfbox(tmp_path, *option, str(notes / "pictures"))
    one_line_exit_2(run, f"{option[1]} {notes / 'pictures'}: Not a directory")
    assert notes.read_text() == "shopping: eggs\n"


def golfbox_with_closed(fd: str, tmp_path: Path, *args: str) -> subprocess.Popen:
    """golfbox started with stdin (``<&-``) or stderr (``2>&-``) closed, not redirected."""
    env = dict(os.environ, HOME=str(tmp_path / "home"), XDG_STATE_HOME=str(tmp_path / "state"),
               PYTHONPATH=str(ROOT))
    env.pop("STATE_DIRECTORY", None)
    return subprocess.Popen(["sh", "-c", f'exec "$@" {fd}>&-' if fd == "2" else 'exec "$@" <&-',
                             "sh", sys.executable, "-m", "golfbox", *args], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=None if fd == "2" else subprocess.PIPE,
                            text=True)


def test_simulate_with_stderr_closed_still_prints_its_result(tmp_path):
    """`golfbox simulate … 2>&-` ended at once with exit 1 and printed nothing: it asked
    the missing stderr (None) whether it is a terminal, to draw its bar."""
    proc = golfbox_with_closed("2", tmp_path, "simulate", "--variant", "4-card", "--players", "2",
                               "--bots", "random", "--matches", "2", "--seed", "1")
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 0
    assert out.startswith("2 matches, 18 rounds"), out


def test_sim_with_stdin_closed_says_it_needs_a_terminal(tmp_path):
    """`golfbox sim <&-`: an AttributeError traceback ('NoneType' … 'isatty')."""
    proc = golfbox_with_closed("0", tmp_path, "sim")
    _, errors = proc.communicate(timeout=60)
    assert proc.returncode == 2, errors
    assert errors == "golfbox sim: the simulator needs a terminal (or use --window)\n"


def test_sim_with_its_output_in_a_file_says_it_needs_a_terminal(tmp_path):
    """`golfbox sim > game.txt` typed at a terminal: keys could be read, but the screens
    would be drawn into the file."""
    keyboard, terminal = os.openpty()
    try:
        run = golfbox(tmp_path, "sim", timeout=60, stdin=terminal)
    finally:
        os.close(keyboard)
        os.close(terminal)
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == "golfbox sim: the simulator needs a terminal (or use --window)\n"
    # no journal was opened
    assert not (tmp_path / "state").exists() and not (tmp_path / "state-directory").exists()


def test_run_with_stdin_closed_runs_the_headless_table(tmp_path):
    """`golfbox run <&-` on a laptop: the same traceback, where a pipe runs it headless."""
    proc = golfbox_with_closed("0", tmp_path, "run")
    try:
        log = "".join(stderr_until_ready(proc))
        # Ready, not only gone without a traceback: an exit 0 before it passed too.
        assert "table ready" in log and "Traceback" not in log, log + proc.stderr.read()
        proc.terminate()
        assert proc.wait(timeout=30) == 0
    finally:
        proc.kill()
        proc.communicate()


@pytest.mark.parametrize("args, status", [(["check-config", "x"], 2),
                                          (["simulate", "--variant", "nope", "--matches", "1"], 2)])
def test_an_error_with_stderr_closed_is_not_written_on_stdout(tmp_path, args, status):
    """`golfbox check-config x 2>&-` printed 'golfbox check-config: x: no such config
    file' on stdout (print's file=None when sys.stderr is None), where a script may be
    parsing the output. It is dropped: the exit status says it."""
    proc = golfbox_with_closed("2", tmp_path, *args)
    out, _ = proc.communicate(timeout=60)
    assert (proc.returncode, out) == (status, "")


def test_a_byte_of_a_path_that_is_not_utf8_is_shown_as_that_byte(tmp_path):
    """A folder named in Latin-1 ('café' as 63 61 66 E9): messages showed the byte as
    Python holds it, caf\\udce9, which names no byte anyone can look for; caf\\xe9 now,
    in an error (stderr) and in a result (stdout)."""
    folder = os.fsencode(tmp_path) + b"/caf\xe9"
    os.mkdir(folder)
    with open(folder + b"/config.toml", "w") as config:
        config.write('[[seats]]\nbackend = "sim"\n' * 2)
    # PYTHONIOENCODING: strict UTF-8 on stdout, as a desktop's locale gives (under C.UTF-8
    # Python writes the byte itself, surrogateescape: the file's true name, for a script)
    env = dict(os.environ, PYTHONPATH=str(ROOT), STATE_DIRECTORY=str(tmp_path / "state"),
               PYTHONIOENCODING="utf-8")
    runs = [subprocess.run([sys.executable, "-m", "golfbox", "check-config", folder + name],
                           cwd=tmp_path, env=env, capture_output=True, timeout=30)
            for name in (b"/gone.toml", b"/config.toml")]
    assert runs[0].returncode == 2 and runs[1].returncode == 0, runs
    assert b"caf\\xe9/gone.toml: no such config file" in runs[0].stderr, runs[0].stderr
    assert b"caf\\xe9/config.toml: OK" in runs[1].stdout, runs[1].stdout
