"""A hand-edited config refused at boot: the table runs on the config it last started
with and says why on the shared display and in STATUS= (golfbox.table.last_good).

Before, `golfbox run` exited 2, which systemd does not restart: every display stayed
blank, at a table in a café where nobody reads the log."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import errno
import logging
import os
import shutil
import stat
import sys
from pathlib import Path
from typing import Callable, Iterator

import pytest
from PIL import Image, ImageChops

from golfbox.commands import UsageError
from golfbox.commands import run as service_cli
from golfbox.configfile import ConfigError
from golfbox.hal.base import Button
from golfbox.hal.config import load_config
from golfbox.table import last_good

from fake_systemd import NotifyingService, golfbox

# Three sim seats and a shared display that writes each frame to a PNG file in the
# working folder (luma.emulator's capture device), so a test sees what it showed.
TABLE = """
[[seats]]
backend = "sim"
[[seats]]
backend = "sim"
[[seats]]
backend = "sim"
[shared_display]
driver = "capture"
width = 128
height = 64
scale = 1
[game]
names = { 1 = "Ann", 2 = "Bob", 3 = "Cleo" }
"""
EMOJI_EDIT = TABLE.replace('3 = "Cleo"', '3 = "Ann 🎲"')
REFUSAL = ("game.names.3: 'Ann 🎲' holds '🎲' (U+1F3B2), which the displays cannot draw; "
           "they draw Latin, Cyrillic and Greek letters")
REFUSED = ConfigError("game.names.3", REFUSAL.removeprefix("game.names.3: "))  # as it is raised


def refusal(config: Path, text: str) -> ConfigError:
    """What a start on ``text``, written to ``config``, is refused with."""
    config.write_text(text)
    with pytest.raises(ConfigError) as caught:
        last_good.load_checked(config)
    return caught.value


def kept(copy: Path, name: str = "config.toml") -> Path:
    """A file of the pair kept: ``copy`` links to its config, the pin map beside it."""
    return (copy.parent / os.readlink(copy)).with_name(name)


class Started:
    """What one `golfbox run` under a fake systemd did: its exit status, its log, the
    STATUS= lines it sent and the shared display's frames (oldest first)."""

    def __init__(self, returncode: int, output: str, statuses: list[str], frames: list[Path]):
        self.returncode, self.output, self.statuses, self.frames = returncode, output, statuses, frames


def start(tmp_path: Path, config_text: str | None, run: str, *,
          journal: bool = True) -> Started:
    """Write the config (None: remove it) and run the service as systemd does until it
    is READY (then SIGTERM), or until it exits by itself. The copy goes beside --journal
    (``journal=False``: no --journal, as a builder's own run by hand)."""
    config = tmp_path / "config.toml"
    if config_text is None:
        config.unlink(missing_ok=True)
    else:
        config.write_text(config_text)
    folder = tmp_path / run  # the working folder: the capture display's frames
    folder.mkdir()
    env = dict(os.environ, SDL_VIDEODRIVER="dummy")
    env.pop("WATCHDOG_USEC", None)
    env.pop("STATE_DIRECTORY", None)
    argv = golfbox("run", "--config", str(config),
                   *(["--journal", str(tmp_path / "journal.sqlite3")] if journal else []))
    with NotifyingService(argv, tmp_path / f"{run}.sock", env=env, cwd=folder) as service:
        service.wait_ready(30)  # or it exited by itself
        returncode = service.stop(60)
    statuses = [line.removeprefix("STATUS=") for m in service.seen for line in m.splitlines()
                if line.startswith("STATUS=")]
    return Started(returncode, service.output, statuses, sorted(folder.glob("golfbox_*.png")))


def lobby_frame(started: Started) -> Image.Image:
    """The lobby as the shared display last showed it before "paused"."""
    assert len(started.frames) >= 2, started.output
    return Image.open(started.frames[-2]).convert("L")


def test_a_refused_edit_runs_on_the_last_good_config_and_says_why(tmp_path):
    good = start(tmp_path, TABLE, "good")
    assert good.returncode == 0, good.output
    copy = tmp_path / last_good.LAST_GOOD
    assert copy.read_text() == TABLE
    assert stat.S_IMODE(copy.stat().st_mode) == 0o600
    assert not any("refused" in s for s in good.statuses)

    edited = start(tmp_path, EMOJI_EDIT, "edited")  # exited 2: nothing on any display
    assert edited.returncode == 0, edited.output
    config = tmp_path / "config.toml"
    # The log, at error level: which file, which key, which seat; then what it runs on.
    assert f"ERROR golfbox.commands.run: config refused: {config}: {REFUSAL}" in edited.output
    assert f"running on {kept(copy)}, the config the table last started with" in edited.output
    # systemctl status: the whole refusal, beside what the table is doing.
    assert any(f"config refused: {config}: {REFUSAL}" in s and f"running on {kept(copy)}" in s
               for s in edited.statuses), edited.statuses
    # The shared display: the same lobby (the last good config's) with the fault in it.
    assert ImageChops.difference(lobby_frame(good), lobby_frame(edited)).getbbox() is not None
    assert copy.read_text() == TABLE  # the copy is kept, not the refused edit

    mended = start(tmp_path, TABLE.replace('3 = "Cleo"', '3 = "Ann 2"'), "mended")
    assert mended.returncode == 0, mended.output
    assert "config refused" not in mended.output
    assert not any("refused" in s for s in mended.statuses)
    assert 'Ann 2' in copy.read_text()  # the next refusal runs on this one


def test_the_first_frame_on_the_copy_shows_the_fault(tmp_path):
    """The fault was added after the first lobby frame was drawn (its words need the
    table's language): the shared display showed the lobby without it, then with it."""
    good = start(tmp_path, TABLE, "good")
    assert good.returncode == 0, good.output
    edited = start(tmp_path, EMOJI_EDIT, "edited")
    assert edited.returncode == 0, edited.output
    first, lobby = Image.open(edited.frames[0]).convert("L"), lobby_frame(edited)
    assert ImageChops.difference(first, lobby).getbbox() is None  # the fault in it
    assert ImageChops.difference(first, Image.open(good.frames[0]).convert("L")).getbbox()


def test_a_config_gone_runs_on_the_last_good_config_and_says_so(tmp_path):
    """Moved aside to edit it, deleted: the service ran a headless simulated table (the
    default path) or exited 2 (another), and every real display stayed blank."""
    good = start(tmp_path, TABLE, "good")
    assert good.returncode == 0, good.output
    gone = start(tmp_path, None, "gone")
    assert gone.returncode == 0, gone.output
    config, copy = tmp_path / "config.toml", tmp_path / last_good.LAST_GOOD
    assert f"ERROR golfbox.commands.run: config refused: {config}: no such file" in gone.output
    assert any(f"running on {kept(copy)}" in s for s in gone.statuses), gone.statuses
    assert ImageChops.difference(lobby_frame(good), lobby_frame(gone)).getbbox() is not None
    assert copy.read_text() == TABLE
    _, refused = service_cli._load_or_last_good(config, copy)
    assert (service_cli.refused_words("en", config, refused)
            == "config.toml missing · running on the last good one")


def test_a_config_gone_with_no_copy_is_refused_as_before(tmp_path):
    with pytest.raises(UsageError, match=r"--config .*config.toml: no such file"):
        service_cli.run(argparse.Namespace(config=str(tmp_path / "config.toml"), headless=True,
                                           new=False, journal=str(tmp_path / "journal.sqlite3")))


def test_the_fault_is_in_the_table_language_and_names_the_key(tmp_path):
    path = tmp_path / "config.toml"
    refused = refusal(path, EMOJI_EDIT)
    assert (service_cli.refused_words("en", path, refused)
            == "config.toml refused: game.names.3 · running on the last good one")
    assert (service_cli.refused_words("fr", path, refused)
            == "config.toml refusé : game.names.3 · on garde le dernier bon")
    syntax = refusal(path, "\n" * 11 + "x y\n")
    assert str(syntax).endswith("(at line 12, column 3)")
    assert last_good.refused_at(syntax, path) == ("config.toml", "line 12")
    one_seat = TABLE.replace('[[seats]]\nbackend = "sim"\n', "", 2)
    assert (last_good.refused_at(refusal(path, one_seat), path)
            == ("config.toml", "seats"))
    path.unlink()
    path.mkdir()  # not a file: the config as a whole
    with pytest.raises(ConfigError) as caught:
        last_good.load_checked(path)
    assert (service_cli.refused_words("en", path, caught.value)
            == "config.toml refused · running on the last good one")


def run_cli(tmp_path: Path, config_text: str) -> int:
    config = tmp_path / "config.toml"
    config.write_text(config_text)
    return service_cli.run(argparse.Namespace(config=str(config), headless=True, new=False,
                                              journal=str(tmp_path / "journal.sqlite3")))


def test_a_first_boot_with_a_refused_config_still_exits_2(tmp_path):
    with pytest.raises(UsageError) as error:
        run_cli(tmp_path, EMOJI_EDIT)
    assert str(error.value).startswith(REFUSAL)  # the one line, as before
    assert not (tmp_path / last_good.LAST_GOOD).exists()


@pytest.mark.parametrize("copy_text", [
    EMOJI_EDIT,  # refused too (kept by an older version that took it)
    "[[seats]]\nbackend = ",  # torn
])
def test_a_refused_last_good_copy_exits_2_as_before(tmp_path, copy_text, caplog):
    """Exit 2 names the config; the log says why its copy was not run on either (it
    said so at debug level only: journalctl showed nothing of the copy)."""
    copy = tmp_path / last_good.LAST_GOOD
    copy.write_text(copy_text)
    with pytest.raises(UsageError) as error, caplog.at_level(logging.WARNING):
        run_cli(tmp_path, TABLE.replace('names =', 'nmaes ='))
    assert str(error.value).startswith("game.nmaes: unknown key (expected one of: variant,")
    assert copy.read_text() == copy_text
    [warning] = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert warning.levelname == "WARNING"
    message = warning.getMessage()
    assert message.startswith(f"{copy} is refused too, so the table does not run on it: ")
    assert ("game.names.3: 'Ann 🎲'" if copy_text == EMOJI_EDIT else "TOML syntax error") in message


def test_a_refused_game_setting_runs_on_the_copy_too(tmp_path):
    """settings_from_config's refusals (a bot level, a seat number) count as the file's."""
    config = tmp_path / "config.toml"
    config.write_text(TABLE)
    copy = tmp_path / "state" / last_good.LAST_GOOD
    copy.parent.mkdir()
    copy.write_text(TABLE)
    config.write_text(TABLE + 'bots = { 2 = "genius" }\n')
    loaded, refused = service_cli._load_or_last_good(config, copy)
    assert loaded.game["names"]["3"] == "Cleo" and loaded.path == copy
    assert str(refused).startswith(f"{config}: game.bots.2: unknown bot 'genius'")


def test_the_copy_is_kept_when_it_differs_only(tmp_path, caplog):
    config = tmp_path / "config.toml"
    config.write_text(TABLE)
    copy = tmp_path / "state" / last_good.LAST_GOOD
    copy.parent.mkdir()
    with caplog.at_level(logging.INFO):
        last_good.keep(load_config(config), config, copy)
    assert copy.read_text() == TABLE and stat.S_IMODE(copy.stat().st_mode) == 0o600
    before = copy.stat()
    caplog.clear()
    with caplog.at_level(logging.INFO):
        last_good.keep(load_config(config), config, copy)  # the same: not written again
    after = copy.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert not caplog.records
    # The link and the pair's folder, 0700: no temp file left.
    assert sorted(os.listdir(copy.parent)) == [last_good.LAST_GOOD, "last-good.1"]
    assert stat.S_IMODE(kept(copy).parent.stat().st_mode) == 0o700


def test_an_edit_saved_after_the_start_is_not_kept(tmp_path):
    """The copy is the config the table started with, not one saved since (not checked)."""
    config = tmp_path / "config.toml"
    config.write_text(TABLE)
    started_with = load_config(config)
    config.write_text(EMOJI_EDIT)
    copy = tmp_path / last_good.LAST_GOOD
    last_good.keep(started_with, config, copy)
    assert not copy.exists() and not list(tmp_path.glob(".*tmp"))


def test_a_state_folder_that_cannot_take_the_copy_is_a_warning(tmp_path, caplog):
    config = tmp_path / "config.toml"
    config.write_text(TABLE)
    (tmp_path / "not-a-folder").write_text("")
    copy = tmp_path / "not-a-folder" / last_good.LAST_GOOD
    with caplog.at_level(logging.WARNING):
        last_good.keep(load_config(config), config, copy)  # the table runs on
    assert [r.levelname for r in caplog.records] == ["WARNING"]
    assert caplog.records[0].getMessage().startswith(f"cannot keep the config that started in {copy}")


def test_the_copy_keeps_its_pin_map(tmp_path):
    """The Pi's config names pinmap = "pinmap.toml", beside it in /etc/golfbox: the copy,
    in /var/lib/golfbox, keeps that one beside it and needs nothing in /etc/golfbox."""
    etc, state = tmp_path / "etc", tmp_path / "state"
    etc.mkdir()
    state.mkdir()
    repo = Path(__file__).resolve().parents[1]
    (etc / "pinmap.toml").write_text((repo / "hardware/pinmap.toml").read_text())
    config = etc / "config.toml"
    config.write_text((repo / "hardware/config.example.toml").read_text())
    copy = state / last_good.LAST_GOOD
    last_good.keep(last_good.load_checked(config), config, copy)
    assert copy.read_text() == config.read_text()
    assert kept(copy, "pinmap.toml").read_text() == (etc / "pinmap.toml").read_text()
    ran_on = last_good.load_last_good(copy, config)
    assert ran_on is not None and ran_on == dataclasses.replace(load_config(config), path=kept(copy))
    (etc / "pinmap.toml").unlink()
    assert last_good.load_last_good(copy, config) == ran_on


def test_the_copy_lives_in_the_state_folder(monkeypatch):
    monkeypatch.setenv("STATE_DIRECTORY", "/var/lib/golfbox:/other")
    assert last_good.last_good_path(None) == Path("/var/lib/golfbox/config.last-good.toml")
    assert last_good.last_good_path("/tmp/x/j.sqlite3") == Path("/tmp/x/config.last-good.toml")
    monkeypatch.delenv("STATE_DIRECTORY")
    assert last_good.last_good_path("/tmp/x/j.sqlite3") == Path("/tmp/x/config.last-good.toml")
    # Neither: a run by hand, which keeps no copy and runs on none (not /var/lib/golfbox's).
    assert last_good.last_good_path(None) is None
    assert last_good.last_good_path("") is None


def test_no_press_clears_the_refused_config_fault(sim_table):
    """The fault stays through the lobby, a match and its presses: only a start on a
    config that loads goes without it."""
    from golfbox.hal.base import Button

    path = Path("/etc/golfbox/config.toml")
    words = service_cli.refused_words("en", path, REFUSED)
    lobby_alone = sim_table(variant="6-card", seats=3, journal=False).shared.image.tobytes()
    table = sim_table(variant="6-card", seats=3, faults=[(
        last_good.CONFIG_FAULT, lambda lang: service_cli.refused_words(lang, path, REFUSED),
        f"config refused: {path}: {REFUSAL}")])
    # In its first frame: it was added after that, a lobby without it first.
    assert table.shared.changes == 1 and table.shared.image.tobytes() != lobby_alone
    assert table.service.notices.shared_line() == words
    table.deal(0, 1)
    for button in (Button.OK, Button.BACK, Button.LEFT, Button.RIGHT, Button.OK):
        table.press(0, button)
        table.press(1, button)
    table.clock.advance(60)
    table.service.run_until_idle()
    assert table.service.state != "lobby"
    assert table.service.notices.faults[last_good.CONFIG_FAULT] == words
    assert words in table.service.notices.table


def test_a_file_name_that_is_not_utf8_is_drawn_with_its_backslash(sim_table, tmp_path):
    """A config named with a byte that is not UTF-8 is written caf\\xe9.toml (one_line):
    the shared display drew its backslash as '?', the font's mark for a character it
    lacks, and the owner read caf?xe9.toml, a name no file has."""
    path = tmp_path / os.fsdecode(b"caf\xe9.toml")
    refused = refusal(path, EMOJI_EDIT)
    words = service_cli.refused_words("en", path, refused)
    assert words == "caf\\xe9.toml refused: game.names.3 · running on the last good one"

    def shared_frame(fault: str) -> bytes:
        table = sim_table(variant="6-card", seats=3, journal=False, faults=[(
            last_good.CONFIG_FAULT, lambda lang: fault, f"config refused: {refused}")])
        assert table.service.notices.shared_line() == fault
        return table.shared.image.tobytes()

    assert shared_frame(words) != shared_frame(words.replace("\\", "?"))


def test_a_copy_that_cannot_be_looked_at_is_as_no_copy(tmp_path, caplog):
    """/var/lib/golfbox is 0700, the service's own: a builder running `golfbox run
    --config F` as themself on the Pi got PermissionError's traceback from the look at
    the copy, not the config's one line. (Root reads any folder: a name too long for the
    file system fails the same look, with ENAMETOOLONG.) The log says why the copy was
    not run on."""
    journal = tmp_path / ("x" * 300) / "journal.sqlite3"
    for config in (tmp_path / "config.toml", tmp_path / "gone.toml"):
        caplog.clear()
        with pytest.raises(UsageError) as error, caplog.at_level(logging.WARNING):
            service_cli.run(argparse.Namespace(config=str(config), headless=True, new=False,
                                               journal=str(journal)))
        assert "Traceback" not in str(error.value)
        assert [r.getMessage() for r in caplog.records] == [
            f"{journal.parent / last_good.LAST_GOOD} cannot be looked at, so the table does "
            "not run on it: File name too long"]
    (tmp_path / "config.toml").write_text(EMOJI_EDIT)
    with pytest.raises(UsageError, match="game.names.3"):
        service_cli.run(argparse.Namespace(config=str(tmp_path / "config.toml"), headless=True,
                                           new=False, journal=str(journal)))


def test_a_pair_folder_that_cannot_be_looked_at_is_named(tmp_path, caplog):
    """The copy is a link into its pair's folder: when that folder is what cannot be
    looked at (owned by root after a `sudo golfbox run --journal …`; here, a name too
    long), the warning named only the link, whose own look had worked."""
    copy = tmp_path / last_good.LAST_GOOD
    folder = tmp_path / ("last-good." + "9" * 300)
    copy.symlink_to(f"{folder.name}/config.toml")
    with caplog.at_level(logging.WARNING):
        assert last_good.load_last_good(copy, tmp_path / "config.toml") is None
    assert [r.getMessage() for r in caplog.records] == [
        f"{copy} cannot be looked at, so the table does not run on it: "
        f"{folder / 'config.toml'}: File name too long"]


def test_a_laptop_without_a_config_never_runs_on_a_copy(tmp_path, monkeypatch):
    """No state directory and no --journal (a laptop's `golfbox run`, `make run`): no
    config is the simulator, whatever a run as root once left in /var/lib/golfbox."""
    monkeypatch.delenv("STATE_DIRECTORY")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    looked: list[Path] = []
    monkeypatch.setattr(last_good, "load_last_good", lambda copy, path: looked.append(copy))
    with pytest.raises(UsageError, match="no such file"):
        service_cli.run(argparse.Namespace(config=str(tmp_path / "gone.toml"), headless=True,
                                           new=False, journal=None))
    assert looked == []


def test_a_run_by_hand_neither_keeps_nor_runs_on_a_copy(tmp_path, monkeypatch):
    """No state directory and no --journal: a builder's own `golfbox run --config F`
    (on a laptop, or `sudo` on the Pi with the service stopped, to try an edit). A
    refused F is its one line and exit 2, not the table run on whatever config the
    service last kept in /var/lib/golfbox; and a good F is not kept there (it became
    the café's copy, root's own 0600, or a warning at every run on a laptop)."""
    monkeypatch.delenv("STATE_DIRECTORY")
    config = tmp_path / "try.toml"
    config.write_text(EMOJI_EDIT)
    looked: list[Path] = []
    monkeypatch.setattr(last_good, "load_last_good", lambda copy, path: looked.append(copy))
    with pytest.raises(UsageError, match="game.names.3"):
        service_cli.run(argparse.Namespace(config=str(config), headless=True, new=False,
                                           journal=None))
    assert looked == []

    journal = f'[journal]\npath = "{tmp_path / "journal.sqlite3"}"\n'
    by_hand = start(tmp_path, TABLE + journal, "by_hand", journal=False)
    assert by_hand.returncode == 0, by_hand.output
    assert "cannot keep" not in by_hand.output and "kept " not in by_hand.output


def test_a_config_link_whose_file_is_gone_is_missing(tmp_path):
    """/etc/golfbox/config.toml a link to the table's file, that file moved aside to
    edit: the shared display said 'config.toml refused' with no key, as for a typo;
    it is missing, as the link's own file moved aside is."""
    target = tmp_path / "tables" / "cafe.toml"
    target.parent.mkdir()
    target.write_text(TABLE)
    config = tmp_path / "config.toml"
    config.symlink_to(target)
    copy = tmp_path / last_good.LAST_GOOD
    last_good.keep(last_good.load_checked(config), config, copy)
    target.rename(tmp_path / "cafe.toml.editing")
    ran_on, refused = service_cli._load_or_last_good(config, copy)
    assert ran_on == last_good.load_checked(kept(copy), pinmap_folder=tmp_path)
    assert (service_cli.refused_words("en", config, refused)
            == "config.toml missing · running on the last good one")


# Three seats whose buttons come from a pin map beside the config (the Pi's
# /etc/golfbox/pinmap.toml), on gpiozero's mock pins; the shared display as TABLE's.
PINNED = """pinmap = "pinmap.toml"
[gpio]
pin_factory = "mock"
""" + "".join('[[seats]]\nbackend = "gpio"\ndisplay = { driver = "dummy" }\n' for _ in range(3)) + \
    TABLE[TABLE.index("[shared_display]"):]
PINMAP = """[[seats]]
buttons = { left = 17, right = 27, ok = 22, back = 4 }
[[seats]]
buttons = { left = 5, right = 6, ok = 13, back = 19 }
[[seats]]
buttons = { left = 12, right = 16, ok = 20, back = 21 }
"""
PINMAP_CLASH = PINMAP.replace("ok = 20", "ok = 17")
OLD_PINMAP = "pinmap.last-good.toml"  # kept beside config.last-good.toml by a version before
PIN_REFUSAL = ("seats[2].buttons.ok (from pinmap.toml): GPIO 17 is already used by "
               "seats[0].buttons.left (from pinmap.toml)")


def test_a_refused_pin_map_runs_on_the_pin_map_kept_with_the_copy(tmp_path):
    """The copy's pinmap was read beside the live config: a pin map broken by a hand
    edit was read for the copy too, refused as well, and the service exited 2 (blank
    displays all evening). The pin map that started is kept with the copy now."""
    (tmp_path / "pinmap.toml").write_text(PINMAP)
    good = start(tmp_path, PINNED, "good")
    assert good.returncode == 0, good.output
    copy = tmp_path / last_good.LAST_GOOD
    pinmap_copy = kept(copy, "pinmap.toml")
    assert pinmap_copy.read_text() == PINMAP
    assert stat.S_IMODE(pinmap_copy.stat().st_mode) == 0o600

    (tmp_path / "pinmap.toml").write_text(PINMAP_CLASH)
    edited = start(tmp_path, PINNED, "edited")
    assert edited.returncode == 0, edited.output
    config = tmp_path / "config.toml"
    assert f"ERROR golfbox.commands.run: config refused: {config}: {PIN_REFUSAL}" in edited.output
    assert f"running on {kept(copy)} with {pinmap_copy}, the config the table last" in edited.output
    assert any(f"config refused: {config}: {PIN_REFUSAL}" in s
               and f"running on {kept(copy)} with {pinmap_copy}" in s
               for s in edited.statuses), edited.statuses
    assert ImageChops.difference(lobby_frame(good), lobby_frame(edited)).getbbox() is not None
    assert pinmap_copy.read_text() == PINMAP and copy.read_text() == PINNED

    (tmp_path / "pinmap.toml").write_text(PINMAP.replace("ok = 20", "ok = 24"))
    mended = start(tmp_path, PINNED, "mended")
    assert mended.returncode == 0 and "config refused" not in mended.output, mended.output
    assert "ok = 24" in kept(copy, "pinmap.toml").read_text()


def test_a_pin_map_fault_names_the_pin_map(tmp_path):
    """The key as check-config names it, seats[2]: while the displays drew no [ ] it was
    written seats(2), a key no file holds."""
    path = pinned(tmp_path / "etc")
    pinmap = path.with_name("pinmap.toml")
    pinmap.write_text(PINMAP_CLASH)
    refused = refusal(path, PINNED)
    assert str(refused) == PIN_REFUSAL
    words = {lang: service_cli.refused_words(lang, path, refused) for lang in ("en", "fr")}
    assert words == {"en": "pinmap.toml refused: seats[2].buttons.ok · running on the last good one",
                     "fr": "pinmap.toml refusé : seats[2].buttons.ok · on garde le dernier bon"}
    pinmap.write_text(PINMAP.replace("buttons = { left = 12", "buttons = 5 # { left = 12"))
    assert (service_cli.refused_words("en", path, refusal(path, PINNED))
            == "pinmap.toml refused: seats[2].buttons · running on the last good one")
    pinmap.write_text(PINMAP + "[shared_display]\nspi0 = 1\n")
    assert (service_cli.refused_words("en", path, refusal(path, PINNED))
            == "pinmap.toml refused: shared_display.spi0 · running on the last good one")
    pinmap.unlink()
    pinmap.mkdir()
    assert (service_cli.refused_words("en", path, refusal(path, PINNED))
            == "pinmap.toml refused · running on the last good one")
    # The config's own value or key is the config's fault, whatever it names.
    assert (service_cli.refused_words("en", path, refusal(path, PINNED.replace(
                '"pinmap.toml"', '"a\\u0000b"')))
            == "config.toml refused: pinmap · running on the last good one")
    pinmap.rmdir()
    pinmap.write_text(PINMAP)
    seats = PINNED.split("[[seats]]")  # the second seat's buttons its own, one clashing
    seats[2] = seats[2].replace("display =", "buttons = { left = 23, right = 24, ok = 17, "
                                "back = 25 }\ndisplay =")
    refused = refusal(path, "[[seats]]".join(seats))
    assert str(refused) == ("seats[1].buttons.ok: GPIO 17 is already used by "
                            "seats[0].buttons.left (from pinmap.toml)")
    assert (service_cli.refused_words("en", path, refused)
            == "config.toml refused: seats[1].buttons.ok · running on the last good one")


@pytest.mark.parametrize("note", ["from", "in"])
def test_a_config_key_that_reads_like_the_pin_maps_is_the_configs_fault(tmp_path, note):
    """A key of the pin map's was told by the words its name ends in, ' (from
    pinmap.toml)' or ' (in pinmap.toml)': a config's own key quoted with those words
    was blamed on the pin map, whose file holds no such key."""
    path = pinned(tmp_path / "etc")
    literal = f'"x ({note} pinmap.toml)"'
    seat = PINNED.replace('backend = "gpio"', f'backend = "gpio"\n{literal} = 1', 1)
    refused = refusal(path, seat)
    assert str(refused).startswith(f"seats[0].x ({note} pinmap.toml): unknown key")
    assert (refused.key, refused.file) == (f"seats[0].x ({note} pinmap.toml)", None)
    assert (service_cli.refused_words("en", path, refused)
            == f"config.toml refused: seats[0].x ({note} pinmap.toml) · running on the last "
               "good one")
    buttons = PINNED.replace('backend = "gpio"', 'backend = "gpio"\nbuttons = { left = 17, '
                             f'right = 27, {literal.replace("x", "ok")} = 22, back = 4 }}', 1)
    refused = refusal(path, buttons)
    assert (refused.key, refused.file) == (f"seats[0].buttons.ok ({note} pinmap.toml)", None)
    assert (service_cli.refused_words("en", path, refused)
            == "config.toml refused · running on the last good one")  # a key too long to show


def pinned(folder: Path) -> Path:
    """PINNED and its PINMAP in ``folder`` (as in /etc/golfbox): the config."""
    folder.mkdir()
    (folder / "pinmap.toml").write_text(PINMAP)
    config = folder / "config.toml"
    config.write_text(PINNED)
    return config


def test_a_config_without_a_pin_map_keeps_none(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text(TABLE)
    state = tmp_path / "state"
    state.mkdir()
    copy = state / last_good.LAST_GOOD
    (state / OLD_PINMAP).write_text(PINMAP)  # kept for an earlier config
    last_good.keep(load_config(config), config, copy)
    assert sorted(os.listdir(state)) == [last_good.LAST_GOOD, "last-good.1"]
    assert os.listdir(kept(copy).parent) == ["config.toml"]


def pinned_through_a_link(tmp_path: Path) -> tuple[Path, Path]:
    """A config in tmp_path/etc whose pinmap.toml links to pins/cafe.toml, started on
    once: the config and its kept copy."""
    config = pinned(tmp_path / "etc")
    etc = config.parent
    (etc / "pins").mkdir()
    (etc / "pinmap.toml").rename(etc / "pins/cafe.toml")
    (etc / "pinmap.toml").symlink_to("pins/cafe.toml")
    copy = tmp_path / last_good.LAST_GOOD
    last_good.keep(last_good.load_checked(config), config, copy)
    return config, copy


def test_a_pin_map_that_is_a_link_is_kept_as_a_file(tmp_path):
    """pinmap.toml a link to the table's own: its bytes are kept, not the link (which
    the edit it stands for would break too). Its faults name it as the config does."""
    config, copy = pinned_through_a_link(tmp_path)
    etc = config.parent
    pinmap_copy = kept(copy, "pinmap.toml")
    assert not pinmap_copy.is_symlink() and pinmap_copy.read_text() == PINMAP

    (etc / "pins/cafe.toml").write_text(PINMAP_CLASH)
    ran_on, refused = service_cli._load_or_last_good(config, copy)
    assert str(refused) == f"{config}: {PIN_REFUSAL}"
    assert ran_on.path == kept(copy) and ran_on.pinmap_path == pinmap_copy
    assert ran_on.seats[2].buttons[Button.OK] == 20


def test_a_pin_map_link_is_named_as_the_link_whatever_its_fault(tmp_path):
    """pinmap.toml a link to pins/cafe.toml: a key at fault named the link (pinmap.toml,
    as the config names it), a syntax error or a file gone named its target (cafe.toml),
    in the log and on the shared display. Each names the link now."""
    config, copy = pinned_through_a_link(tmp_path)
    etc = config.parent
    refusals = {}
    for fault, text in (("key", PINMAP_CLASH), ("syntax", "[[seats]\n"), ("gone", None)):
        if text is None:
            (etc / "pins/cafe.toml").unlink()
        else:
            (etc / "pins/cafe.toml").write_text(text)
        _, refused = service_cli._load_or_last_good(config, copy)
        refusals[fault] = (str(refused), service_cli.refused_words("en", config, refused))
    assert {fault: words for fault, (_, words) in refusals.items()} == {
        "key": "pinmap.toml refused: seats[2].buttons.ok · running on the last good one",
        "syntax": "pinmap.toml refused: line 1 · running on the last good one",
        "gone": "pinmap.toml missing · running on the last good one"}
    link = etc / "pinmap.toml"  # in the log too
    assert refusals["key"][0] == f"{config}: {PIN_REFUSAL}"
    assert refusals["syntax"][0].startswith(f"{config}: pinmap: {link}: TOML syntax error: ")
    assert refusals["gone"][0] == f"{config}: pinmap: {link} does not exist"


def test_a_pin_map_edited_since_the_start_is_not_kept(tmp_path):
    config = pinned(tmp_path / "etc")
    started_with = load_config(config)
    (tmp_path / "etc/pinmap.toml").write_text(PINMAP.replace("ok = 20", "ok = 24"))
    copy = tmp_path / last_good.LAST_GOOD
    last_good.keep(started_with, config, copy)
    assert os.listdir(tmp_path) == ["etc"]


def test_a_copy_kept_without_its_pin_map_reads_the_one_beside_the_config(tmp_path):
    """A copy kept by the version before (no pinmap.last-good.toml) is run on as then:
    with the pin map beside the config, if that one loads."""
    config = pinned(tmp_path / "etc")
    copy = tmp_path / last_good.LAST_GOOD
    copy.write_text(PINNED)
    config.write_text(PINNED.replace("[game]", "[gmae]"))
    ran_on, _ = service_cli._load_or_last_good(config, copy)
    assert ran_on.pinmap_path == config.with_name("pinmap.toml")
    # The first start on a config that loads keeps its pin map beside the copy.
    config.write_text(PINNED)
    last_good.keep(last_good.load_checked(config), config, copy)
    assert kept(copy, "pinmap.toml").read_text() == PINMAP


def test_an_edit_not_kept_leaves_the_copys_pin_map(tmp_path):
    """The pin map copy was removed as soon as a table started on a config naming none,
    even when that config was then not kept (edited since the start): the copy kept
    before, which names a pin map, was left without its own and read the live one,
    which a later hand edit breaks for both. It goes only with the copy it stood for."""
    config = pinned(tmp_path / "etc")
    copy = tmp_path / last_good.LAST_GOOD
    last_good.keep(last_good.load_checked(config), config, copy)
    config.write_text(TABLE)
    started_with = load_config(config)
    config.write_text(EMOJI_EDIT)  # saved after the start: not kept
    last_good.keep(started_with, config, copy)
    assert copy.read_text() == PINNED
    (tmp_path / "etc/pinmap.toml").write_text(PINMAP_CLASH)
    ran_on = last_good.load_last_good(copy, config)
    assert ran_on is not None and ran_on.pinmap_path == kept(copy, "pinmap.toml")


@pytest.mark.parametrize("folder", ["etc", "golf:2", "golf: TOML syntax error"])
def test_a_pin_map_files_fault_names_the_pin_map(tmp_path, folder):
    """A folder named with ':' (a date, a host:port) made the pin map's own fault the
    config's ('config.toml refused: pinmap'): its path was read up to the first ':'.
    Then up to a ': ' before a reason's first words, so a folder 'golf: TOML syntax
    error' was taken for the file ('golf refused'), a pin map gone as much as a typo
    in it. The file and key were read back out of the message; the refusal carries
    them now (ConfigError.file, .key)."""
    config = pinned(tmp_path / folder)
    pinmap = config.with_name("pinmap.toml")
    copy = tmp_path / last_good.LAST_GOOD
    last_good.keep(last_good.load_checked(config), config, copy)
    words = {}
    for fault, text in (("syntax", b"\n\n[[seats]\n"), ("not UTF-8", b"\xff"), ("gone", None)):
        if text is None:
            pinmap.unlink()
        else:
            pinmap.write_bytes(text)
        ran_on, refused = service_cli._load_or_last_good(config, copy)
        assert ran_on.path == kept(copy)
        words[fault] = service_cli.refused_words("en", config, refused)
    assert words == {"syntax": "pinmap.toml refused: line 3 · running on the last good one",
                     "not UTF-8": "pinmap.toml refused · running on the last good one",
                     "gone": "pinmap.toml missing · running on the last good one"}


def test_a_pin_map_named_with_a_colon_is_named_for_its_keys(tmp_path):
    """A key of a pin map named 'pins: cafe.toml' was the config's fault, with no key:
    the key was the message's words up to the first ': '."""
    config = pinned(tmp_path / "etc")
    copy = tmp_path / last_good.LAST_GOOD
    last_good.keep(last_good.load_checked(config), config, copy)
    config.with_name("pins: cafe.toml").write_text(PINMAP_CLASH)
    config.write_text(PINNED.replace('"pinmap.toml"', '"pins: cafe.toml"'))
    _, refused = service_cli._load_or_last_good(config, copy)
    assert (service_cli.refused_words("en", config, refused)
            == "pins: cafe.toml refused: seats[2].buttons.ok · running on the last good one")
    assert str(refused) == f"{config}: {PIN_REFUSAL.replace('pinmap.toml', 'pins: cafe.toml')}"


def test_the_refused_config_fault_follows_the_lobbys_language(sim_table):
    """Said at the start in the language of the lobby the journal kept (French here), it
    stayed French after the lobby switched to English."""
    def switch_language(table) -> None:
        while table.service.lobby.selected.key != "language":
            table.press(0, Button.OK)
        table.press(0, Button.RIGHT)

    path = Path("/etc/golfbox/config.toml")
    words = {lang: service_cli.refused_words(lang, path, REFUSED) for lang in ("en", "fr")}
    switch_language(sim_table(variant="6-card", seats=3))  # the journal keeps a French lobby
    table = sim_table(variant="6-card", seats=3, faults=[(
        last_good.CONFIG_FAULT, lambda lang: service_cli.refused_words(lang, path, REFUSED),
        f"config refused: {path}: {REFUSAL}")])
    assert table.service.lobby.language == "fr"
    assert table.service.notices.shared_line() == words["fr"]
    switch_language(table)
    assert table.service.lobby.language == "en"
    assert table.service.notices.shared_line() == words["en"]


# Faults of the OS (a power cut, a full disk, a file system without links, a dying
# card), made through Python's audit hooks (sys.addaudithook, documented events; no
# golfbox code patched): while one is in, the hook calls it on every event, and it
# raises as the OS would.
_faults: list[Callable[[str, tuple], None]] = []
_hooked: list[bool] = []


def _audit(event: str, args: tuple) -> None:
    for fault in _faults:
        fault(event, args)


@contextlib.contextmanager
def os_fault(fault: Callable[[str, tuple], None]) -> Iterator[None]:
    if not _hooked:  # once, when first needed: a hook cannot be removed
        sys.addaudithook(_audit)
        _hooked.append(True)
    _faults.append(fault)
    try:
        yield
    finally:
        _faults.remove(fault)


def _opens_to_write(event: str, args: tuple) -> bool:
    return event == "open" and isinstance(args[2], int) and bool(args[2] & (os.O_WRONLY | os.O_RDWR))


# A power cut: every step that changes a file fails from the chosen one on, as nothing
# happens after a cut, and the earlier ones stand.
class PowerCut(OSError):
    pass


CHANGES = {"os.rename", "os.remove", "os.rmdir", "os.mkdir", "os.symlink", "os.chmod"}


def keep_cut(config: Path, copy: Path, at: int) -> list[str]:
    """keep() with a power cut before its ``at``-th step (from 0): the steps it took."""
    started_with = last_good.load_checked(config)
    steps: list[str] = []

    def power_cut(event: str, args: tuple) -> None:
        if event in CHANGES or _opens_to_write(event, args):
            steps.append(f"{event} {args[0]}")
            if len(steps) > at:
                raise PowerCut(f"power cut at {steps[-1]}")
    try:
        with os_fault(power_cut):
            last_good.keep(started_with, config, copy)
    except PowerCut:  # the process is gone: what it had left to do is not done
        pass
    return steps


def kept_pair(config: Path, copy: Path) -> tuple[str, int | None] | None:
    """The kept config's third name and its third seat's OK pin (None: no pin map)."""
    ran_on = last_good.load_last_good(copy, config)
    if ran_on is None:
        return None
    pins = ran_on.seats[2].buttons.get(Button.OK) if ran_on.pinmap_path else None
    return ran_on.game["names"]["3"], pins


@pytest.mark.parametrize("before", ["kept", "flat"])
@pytest.mark.parametrize("second", ["pinned", "unpinned"])
def test_a_power_cut_at_any_step_of_a_keep_leaves_a_pair_that_started_together(
        tmp_path, before, second):
    """keep() renamed the pin map copy, then the config copy: a power cut between the
    two, at a start where both were edited, left the new pin map beside the old config,
    a pair that never started together, to run on at the next refusal. Cut before
    each step in turn: the kept pair is the old one or the new one, and the next good
    start keeps the new one and leaves nothing else behind. ``flat``: the pair as the
    version before kept it (config.last-good.toml, pinmap.last-good.toml), to move."""
    config = pinned(tmp_path / "etc")
    pinmap = config.with_name("pinmap.toml")
    state = tmp_path / "state"
    copy = state / last_good.LAST_GOOD
    if second == "pinned":
        edit = (PINNED.replace('3 = "Cleo"', '3 = "Cleo 2"'), PINMAP.replace("ok = 20", "ok = 24"))
        old, new = ("Cleo", 20), ("Cleo 2", 24)
    else:
        edit = (TABLE.replace('3 = "Cleo"', '3 = "Cleo 2"'), PINMAP)
        old, new = ("Cleo", 20), ("Cleo 2", None)

    def started_on_both() -> None:
        """The old pair kept, then both files edited."""
        shutil.rmtree(state, ignore_errors=True)
        state.mkdir()
        config.write_text(PINNED)
        pinmap.write_text(PINMAP)
        if before == "flat":
            copy.write_text(PINNED)
            (state / OLD_PINMAP).write_text(PINMAP)
        else:
            last_good.keep(last_good.load_checked(config), config, copy)
        assert kept_pair(config, copy) == old
        config.write_text(edit[0])
        pinmap.write_text(edit[1])

    started_on_both()
    steps = keep_cut(config, copy, at=1000)  # no cut: the steps a keep takes
    assert kept_pair(config, copy) == new
    seen, left = [], []
    for at in range(len(steps)):
        started_on_both()
        keep_cut(config, copy, at)
        seen.append(kept_pair(config, copy))
        last_good.keep(last_good.load_checked(config), config, copy)  # the next good start
        assert kept_pair(config, copy) == new
        folder = copy.resolve().parent
        listed = sorted("<pair>" if name == folder.name else name for name in os.listdir(state))
        left.append((listed, sorted(os.listdir(folder)),
                     {oct(stat.S_IMODE(p.stat().st_mode)) for p in [folder, *folder.iterdir()]}))
    assert {step: pair for step, pair in zip(steps, seen) if pair not in (old, new)} == {}
    assert seen[0] == old and seen[-1] == new  # the old pair until one step, the new after
    assert seen == sorted(seen, key=lambda pair: pair == new)
    pair_files = ["config.toml", "pinmap.toml"] if second == "pinned" else ["config.toml"]
    assert left == [(["<pair>", last_good.LAST_GOOD], pair_files, {"0o700", "0o600"})] * len(steps)


def test_a_pair_kept_by_the_version_before_is_run_on_then_moved(tmp_path):
    """After an update, the flat copies the version before kept (config.last-good.toml,
    pinmap.last-good.toml) are run on when the config is refused; the first good start
    keeps the pair its own way and removes the flat pin map copy."""
    config = pinned(tmp_path / "etc")
    state = tmp_path / "state"
    state.mkdir()
    copy = state / last_good.LAST_GOOD
    copy.write_text(PINNED)
    (state / OLD_PINMAP).write_text(PINMAP)
    config.with_name("pinmap.toml").write_text(PINMAP_CLASH)
    ran_on, refused = service_cli._load_or_last_good(config, copy)
    assert (ran_on.path, ran_on.pinmap_path) == (copy, state / OLD_PINMAP)
    assert ran_on.seats[2].buttons[Button.OK] == 20 and refused is not None

    config.with_name("pinmap.toml").write_text(PINMAP.replace("ok = 20", "ok = 24"))
    last_good.keep(last_good.load_checked(config), config, copy)
    assert copy.is_symlink() and sorted(os.listdir(state)) == ["config.last-good.toml", "last-good.1"]
    ran_on = last_good.load_last_good(copy, config)
    assert ran_on.path == state / "last-good.1/config.toml"
    assert ran_on.pinmap_path == state / "last-good.1/pinmap.toml"
    assert ran_on.seats[2].buttons[Button.OK] == 24


def test_a_config_copy_kept_by_an_older_version_after_a_downgrade_is_not_given_our_pin_map(
        tmp_path):
    """A version that keeps only the config copy, run after this one (a downgrade),
    writes config.last-good.toml and leaves the pin map kept with the config before: a
    start on this version again paired that config with a pin map it never started
    with. It is run on with the pin map beside the config, as that version ran."""
    config = pinned(tmp_path / "etc")
    state = tmp_path / "state"
    state.mkdir()
    copy = state / last_good.LAST_GOOD
    last_good.keep(last_good.load_checked(config), config, copy)  # this version
    # The older version starts on an edit of both and keeps the config as it did: a
    # temp file renamed over the copy.
    config.write_text(PINNED.replace('3 = "Cleo"', '3 = "Cleo 2"'))
    config.with_name("pinmap.toml").write_text(PINMAP.replace("ok = 20", "ok = 24"))
    (state / ".config.last-good.toml.tmp").write_text(config.read_text())
    os.replace(state / ".config.last-good.toml.tmp", copy)
    # This version again, on a config refused.
    config.write_text(PINNED.replace("[game]", "[gmae]"))
    ran_on, _ = service_cli._load_or_last_good(config, copy)
    assert ran_on.game["names"]["3"] == "Cleo 2"
    assert ran_on.pinmap_path == config.with_name("pinmap.toml")
    assert ran_on.seats[2].buttons[Button.OK] == 24


def test_a_keep_beside_a_journal_removes_no_folder_of_the_users(tmp_path):
    """`golfbox run --journal ~/golf.sqlite3` keeps its copy in ~: a keep removed every
    folder named last-good.* there (a player's ~/last-good.photos, and all in it), not
    only the pair folders it had made."""
    config = tmp_path / "config.toml"
    config.write_text(TABLE)
    copy = tmp_path / last_good.LAST_GOOD  # beside --journal tmp_path/golf.sqlite3
    for name in ("last-good.photos", "last-good.2"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "holiday.jpg").write_bytes(b"\xff\xd8")
    last_good.keep(load_config(config), config, copy)
    config.write_text(TABLE.replace('3 = "Cleo"', '3 = "Cleo 2"'))
    last_good.keep(load_config(config), config, copy)  # the next good start, an edit kept
    assert kept(copy).read_text() == config.read_text()
    for name in ("last-good.photos", "last-good.2"):
        assert (tmp_path / name / "holiday.jpg").read_bytes() == b"\xff\xd8"


def test_a_name_of_digits_python_cannot_count_beside_the_copy_stops_no_keep(tmp_path):
    """str.isdigit() holds for '²', which int() refuses: a last-good.² beside the copy
    made keep() raise ValueError, out of `golfbox run`: the table stopped at each start."""
    config = tmp_path / "config.toml"
    config.write_text(TABLE)
    copy = tmp_path / last_good.LAST_GOOD
    (tmp_path / "last-good.²").mkdir()
    last_good.keep(load_config(config), config, copy)
    assert kept(copy).read_text() == TABLE and (tmp_path / "last-good.²").is_dir()


def _refuse_links(event: str, args: tuple) -> None:
    """os.symlink fails as on a FAT file system."""
    if event == "os.symlink":
        raise PermissionError(errno.EPERM, os.strerror(errno.EPERM), args[1])


def keep_without_links(config: Path, copy: Path) -> None:
    """keep() in a folder whose file system takes no links (FAT: EPERM, as Linux answers)."""
    with os_fault(_refuse_links):
        last_good.keep(last_good.load_checked(config), config, copy)


def test_a_state_folder_without_links_still_keeps_the_last_good_pair(tmp_path, caplog):
    """--journal on a FAT USB stick: a keep could not make its link, so none kept any
    copy (a warning at each start), and a refused edit ran on a copy as old as the
    update, or exited 2. There the pair is kept as the version before kept it, the
    flat copies that load_last_good reads."""
    config = pinned(tmp_path / "etc")
    state = tmp_path / "stick"
    state.mkdir()
    copy = state / last_good.LAST_GOOD
    with caplog.at_level(logging.WARNING):
        keep_without_links(config, copy)
        assert kept_pair(config, copy) == ("Cleo", 20)
        config.write_text(PINNED.replace('3 = "Cleo"', '3 = "Cleo 2"'))
        config.with_name("pinmap.toml").write_text(PINMAP.replace("ok = 20", "ok = 24"))
        keep_without_links(config, copy)
    assert kept_pair(config, copy) == ("Cleo 2", 24)
    assert sorted(os.listdir(state)) == [last_good.LAST_GOOD, OLD_PINMAP]
    assert {stat.S_IMODE((state / name).stat().st_mode) for name in os.listdir(state)} == {0o600}
    assert not caplog.records
    with caplog.at_level(logging.INFO):
        keep_without_links(config, copy)  # the same: nothing kept again, nothing said
    assert not caplog.records
    config.write_text(TABLE)  # no pin map now: none kept
    keep_without_links(config, copy)
    assert os.listdir(state) == [last_good.LAST_GOOD] and copy.read_text() == TABLE


def _fill_disk(event: str, args: tuple) -> None:
    """A file opened to write fails as on a full disk."""
    if _opens_to_write(event, args):
        # As write() and fsync() fail on a full disk: on a file descriptor, no file named.
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("fault", ["temp link is a folder", "copy is a folder", "disk full"])
def test_a_keep_that_fails_names_the_path_the_os_refused_and_why(tmp_path, caplog, fault):
    """A keep that failed logged 'cannot keep the config that started in
    …/config.last-good.toml: Is a directory', whatever path the OS refused: a builder
    reading journalctl could not tell which file or folder in /var/lib/golfbox to mend
    (a temp file left by a run as root, a full disk). The warning names that path (both,
    for a rename) and the OS's words. Made with what root cannot write through either:
    a folder where the temp link or the link goes, and a full disk (an audit hook)."""
    config = tmp_path / "config.toml"
    config.write_text(TABLE)
    state = tmp_path / "state"
    state.mkdir()
    copy = state / last_good.LAST_GOOD
    temp = state / f".{last_good.LAST_GOOD}.tmp"
    if fault == "temp link is a folder":
        temp.mkdir()
        refused = f"{temp}: Is a directory"
    elif fault == "copy is a folder":
        copy.mkdir()
        (copy / "notes.txt").write_text("")
        refused = f"{temp} -> {copy}: Is a directory"
    else:
        refused = f"{state / 'last-good.1' / 'config.toml'}: No space left on device"
    started_with = load_config(config)
    with caplog.at_level(logging.WARNING), \
            (os_fault(_fill_disk) if fault == "disk full" else contextlib.nullcontext()):
        last_good.keep(started_with, config, copy)  # the table runs on
    assert [r.getMessage() for r in caplog.records] == [
        f"cannot keep the config that started in {copy}: {refused} (the table runs on; a "
        "refused config at a later start will not run on it)"]
    assert not (state / "last-good.1").exists()  # the half-made pair is not left behind


def _unflushable(folder: Path) -> Callable[[str, tuple], None]:
    """Opening ``folder`` (to flush it) fails as a dying card's would."""
    def fault(event: str, args: tuple) -> None:
        if (event == "open" and isinstance(args[2], int) and args[2] & os.O_DIRECTORY
                and Path(os.fsdecode(args[0])) == folder):
            raise OSError(errno.EIO, os.strerror(errno.EIO), os.fsdecode(args[0]))
    return fault


def test_a_keep_whose_folder_cannot_be_flushed_after_the_commit_says_it_kept(tmp_path, caplog):
    """After the rename that commits a new pair, flushing the state folder failed and
    the log said 'cannot keep the config …' though the new pair was kept and is what
    the next refused start runs on. It now says the pair was kept, and that a power
    cut before the folder reaches the disk may bring the pair before back: so that
    pair's folder stays (the next keep removes it), or the link could point at a folder
    gone. Made with an audit hook failing the state folder's open, as a dying card."""
    config = tmp_path / "config.toml"
    config.write_text(TABLE)
    state = tmp_path / "state"
    state.mkdir()
    copy = state / last_good.LAST_GOOD
    last_good.keep(load_config(config), config, copy)
    config.write_text(TABLE.replace('3 = "Cleo"', '3 = "Cleo 2"'))
    started_with = load_config(config)
    with caplog.at_level(logging.WARNING), os_fault(_unflushable(state)):
        last_good.keep(started_with, config, copy)
    assert [r.getMessage() for r in caplog.records] == [
        f"kept {config} in {state / 'last-good.2'}, to run on if a later edit is refused, "
        f"but {state}: Input/output error: a power cut before it reaches the disk may "
        "run on the pair kept before"]
    assert kept_pair(config, copy) == ("Cleo 2", None)
    assert sorted(os.listdir(state)) == [last_good.LAST_GOOD, "last-good.1", "last-good.2"]
    last_good.keep(load_config(config), config, copy)  # the next start: the old pair goes
    assert sorted(os.listdir(state)) == [last_good.LAST_GOOD, "last-good.2"]


def test_a_config_read_through_a_pipe_is_not_kept_nor_a_fault(tmp_path, caplog):
    """A shell's <(…) is a pipe that load_config read to its end: there is nothing left
    to keep. No copy, no half-made pair folder, nothing logged; a file kept before stays."""
    config = tmp_path / "config.toml"
    config.write_text(TABLE)
    copy = tmp_path / "state" / last_good.LAST_GOOD
    copy.parent.mkdir()
    last_good.keep(load_config(config), config, copy)
    kept_before = os.listdir(copy.parent)
    read_end, write_end = os.pipe()
    os.write(write_end, EMOJI_EDIT.replace("Ann 🎲", "Dee").encode())
    os.close(write_end)
    try:
        piped = Path(f"/dev/fd/{read_end}")
        started_with = load_config(piped)
        with caplog.at_level(logging.DEBUG):
            last_good.keep(started_with, piped, copy)
    finally:
        os.close(read_end)
    assert not caplog.records
    assert os.listdir(copy.parent) == kept_before and copy.read_text() == TABLE
