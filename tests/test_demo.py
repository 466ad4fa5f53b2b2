"""``golfbox demo``: a bots' match through the table service, written out as pictures."""

from __future__ import annotations

from PIL import Image, ImageSequence

from golfbox.cli import main
from golfbox.commands import demo as demo_cli


def play_demo(out, *extra: str) -> None:
    assert main(["demo", "--out", str(out), "--seed", "11", "--players", "2", "--rounds", "2",
                 *extra]) == 0


def test_demo_writes_a_gif_per_display_and_a_contact_sheet_of_round_ends(tmp_path, capsys):
    play_demo(tmp_path)
    printed = capsys.readouterr().out
    for name in ("shared.gif", "seat1.gif", "seat2.gif", "rounds.png"):
        assert str(tmp_path / name) in printed

    # The shared display and seat 1 (played through its pad) change all match long.
    for name, size in (("shared.gif", (512, 128)), ("seat1.gif", (256, 128))):
        with Image.open(tmp_path / name) as gif:
            assert gif.size == size  # scaled x2, nearest-neighbour
            assert gif.mode == "P" and gif.n_frames > 20
            durations = [frame.info["duration"] for frame in ImageSequence.Iterator(gif)]
        assert min(durations) >= demo_cli.MIN_FRAME_MS
        assert durations[-1] == demo_cli.LAST_FRAME_MS
    # Seat 2 is a bot's: its screen says so and does not change.
    with Image.open(tmp_path / "seat2.gif") as gif:
        assert gif.n_frames == 1

    # Both rounds' reveals (the last one too) and the match result, two to a row,
    # each captioned above.
    cell_height = 18 + 128 + 8
    with Image.open(tmp_path / "rounds.png") as sheet:
        assert sheet.size == (8 + 2 * (512 + 8), 8 + 2 * cell_height)
        for left, top in ((8, 8), (8 + 512 + 8, 8), (8, 8 + cell_height)):
            cell = sheet.crop((left, top + 18, left + 512, top + 18 + 128)).convert("L")
            darkest, brightest = cell.getextrema()
            assert darkest == 0 and brightest > 200  # a black panel with lit pixels on it


def test_a_seed_replays_the_same_match_picture_for_picture(tmp_path):
    play_demo(tmp_path / "a")
    play_demo(tmp_path / "b")
    for name in ("shared.gif", "seat1.gif", "rounds.png"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def test_demo_rejects_bad_input_by_name(tmp_path, capsys):
    assert main(["demo", "--out", str(tmp_path), "--variant", "9-card", "--rule", "lines=diagonal"]) == 2
    assert "rule lines" in capsys.readouterr().err
    (tmp_path / "file").write_text("")
    assert main(["demo", "--out", str(tmp_path / "file")]) == 2
    assert "--out" in capsys.readouterr().err


def test_a_picture_that_cannot_be_written_is_one_line(tmp_path, capsys):
    """A folder where a picture goes (or one golfbox may not write in) ended the demo in
    an IsADirectoryError (PermissionError …) traceback after the whole match."""
    (tmp_path / "seat1.gif").mkdir()
    assert main(["demo", "--out", str(tmp_path), "--seed", "11", "--players", "2", "--rounds", "1"]) == 2
    assert capsys.readouterr().err == (f"golfbox demo: --out {tmp_path}: cannot write "
                                       f"{tmp_path / 'seat1.gif'}: Is a directory\n")


def test_demo_refuses_more_players_than_seats(tmp_path, capsys):
    """4-card allows 10 players, the table 8 seats: one line and exit 2, not a traceback."""
    assert main(["demo", "--out", str(tmp_path), "--variant", "4-card", "--players", "10"]) == 2
    assert "--players 10: the table has at most 8 seats" in capsys.readouterr().err
    assert main(["demo", "--out", str(tmp_path), "--variant", "4-card", "--players", "9"]) == 2
    assert "--players 9: the table has at most 8 seats" in capsys.readouterr().err


def test_demo_plays_a_table_of_eight_seats(tmp_path, capsys):
    """8 seats, the most a table has, are played, not refused with the ninth."""
    assert main(["demo", "--out", str(tmp_path), "--variant", "4-card", "--players", "8",
                 "--rounds", "1", "--bot", "random", "--seed", "1"]) == 0
    assert "seat 1 on autopilot and 7 bots" in capsys.readouterr().out
    assert (tmp_path / "seat8.gif").is_file()


def test_the_summary_counts_what_it_played_and_drew(tmp_path, capsys):
    """'1 rounds' and 'rounds.png (2 round ends)' for a match of one round: the sheet
    holds that round's end and the match result."""
    assert main(["demo", "--out", str(tmp_path), "--seed", "11", "--players", "2",
                 "--rounds", "1"]) == 0
    printed = capsys.readouterr().out
    assert "seat 1 on autopilot and 1 bot, 1 round, seed 11; wrote:" in printed
    assert f"{tmp_path / 'rounds.png'} (1 round end and the match result)" in printed
    play_demo(tmp_path)  # 2 rounds
    printed = capsys.readouterr().out
    assert "2 rounds, seed 11" in printed and "(2 round ends and the match result)" in printed


def test_each_sheet_caption_names_the_seats_as_the_players_do():
    """rounds.png's captions: each round's scores signed, the result's totals, by
    seat as the players number them (P1, P2), read back from the sheet's pixels."""
    from types import SimpleNamespace

    from PIL import ImageDraw, ImageFont

    match = SimpleNamespace(history=[(5, -3), (0, 12)], totals=(5, 9))
    panel = Image.new("L", (256, 64))
    sheet = demo_cli.contact_sheet({"round 1": panel, "round 2": panel, "match over": panel},
                                   match, scale=1)
    font = ImageFont.load_default(size=13)
    for (left, top), caption in (((8, 8), "round 1: P1 +5  P2 -3"),
                                 ((8 + 256 + 8, 8), "round 2: P1 +0  P2 +12"),
                                 ((8, 8 + 18 + 64 + 8), "match over: P1 5  P2 9")):
        expected = Image.new("RGB", (256, 18), (40, 40, 46))
        ImageDraw.Draw(expected).text((0, 0), caption, fill=(210, 210, 210), font=font)
        shown = sheet.crop((left, top, left + 256, top + 18))
        assert shown.tobytes() == expected.tobytes(), caption
