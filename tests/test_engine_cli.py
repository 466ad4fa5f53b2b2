"""golfbox score and golfbox simulate, as a user runs them."""

import json
import subprocess
import sys

import pytest

from golfbox.cli import main
from golfbox.engine import make_rules


def golfbox(*args):
    """Run the real console entry point in a subprocess: exit status, stdout, stderr."""
    proc = subprocess.run([sys.executable, "-m", "golfbox", *args], capture_output=True,
                          text=True, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def test_score_worked_example():
    assert golfbox("score", "--variant", "9-card", "K K JK / 4 J 3 / 7 7 7") == (0, "15\n", "")


def test_score_one_line_per_grid_with_ender_penalty(capsys):
    assert main(["score", "--variant", "polish-poker", "--ender", "0",
                 "5 6 7 / 8 9 10", "K K A / K K 2"]) == 0
    assert capsys.readouterr().out == "55\n3\n"


def test_a_knock_penalty_said_off_is_no_penalty(capsys):
    """docs/RULES.md calls 4-card's knock_penalty "off by default", as four_of_a_kind,
    but 'off' was refused for it: only 0 meant no penalty."""
    assert main(["score", "--variant", "4-card", "--ender", "0", "--rule", "knock_penalty=off",
                 "7 K / Q 3", "A 2 / 5 4"]) == 0
    assert capsys.readouterr().out == "20\n12\n"
    assert make_rules("polish-poker", {"knock_penalty": "off"})["knock_penalty"] == 0


@pytest.mark.parametrize("said, meant", [
    ("off", False), ("false", False), ("no", False), ("0", False), (" No ", False), (False, False),
    ("on", True), ("TRUE", True), ("yes", True), ("1", True), (True, True),
])
def test_an_on_off_rule_takes_each_of_its_words(said, meant):
    assert make_rules("6-card", {"final_turn": said})["final_turn"] is meant


def test_score_house_rules(capsys):
    assert main(["score", "--variant", "9-card", "--rule", "lines=rows+columns",
                 "K 5 7 / K 5 7 / K 5 7"]) == 0
    assert main(["score", "--variant", "6-card", "--rule", "four_of_a_kind=-10", "J J 5 / J J 6"]) == 0
    assert capsys.readouterr().out == "-10\n1\n"


@pytest.mark.parametrize("args,message", [
    (["--variant", "6-card", "A 2 3 / 4 5 Z"], "unknown card 'Z'"),
    (["--variant", "6-card", "A 2 JK / 4 5 6"], "without jokers"),
    (["--variant", "6-card", "A 2 / 4 5"], "needs 2 rows of 3"),
    (["--variant", "9-card", "A 2 3 / 4 5 6"], "needs 3 rows of 3"),
    (["--variant", "6-card", "--rule", "jokers=on", "A 2 3 / 4 5 6"], "unknown rule 'jokers'"),
    (["--variant", "6-card", "--rule", "final_turn=maybe", "A 2 3 / 4 5 6"], "final_turn: 'maybe'"),
    (["--variant", "6-card", "--rule", "final_turn", "A 2 3 / 4 5 6"], "NAME=VALUE"),
    (["--variant", "9-card", "--rule", "lines=diagonals", "A 2 3 / 4 5 6 / 7 8 9"], "rows+columns"),
    (["--variant", "polish-poker", "--rule", "knock_penalty=-3", "A 2 3 / 4 5 6"], "negative"),
    (["--variant", "polish-poker", "--rule", "knock_penalty=lots", "A 2 3 / 4 5 6"],
     "rule knock_penalty: 'lots' is not a whole number >= 0, 'double' or 'off'"),
    (["--variant", "6-card", "--rule", "four_of_a_kind=-1.5", "A 2 3 / 4 5 6"],
     "rule four_of_a_kind: '-1.5' is not a whole number (the score) or 'off'"),
    # A 400-digit penalty overflowed the hard bot's float play-outs (a traceback, a table whose
    # bots failed in a loop); any number past what a round can score is refused.
    (["--variant", "4-card", "--rule", "knock_penalty=" + "9" * 400, "A 2 / 3 4"], "out of range (0..1000)"),
    (["--variant", "6-card", "--rule", "four_of_a_kind=-1001", "A 2 3 / 4 5 6"], "out of range (-1000..1000)"),
    (["--variant", "6-card", "--ender", "2", "A 2 3 / 4 5 6", "A 2 3 / 4 5 6"],
     "--ender 2: seat out of range (0 to 1: the first grid is seat 0)"),
    # It said "(seats 0-0)" of one grid.
    (["--variant", "6-card", "--ender", "1", "A 2 3 / 4 5 6"],
     "--ender 1: seat out of range (one grid: seat 0)"),
    (["--variant", "6-card", "--ender", "-1", "A 2 3 / 4 5 6", "A 2 3 / 4 5 6", "A 2 3 / 4 5 6"],
     "--ender -1: seat out of range (0 to 2: the first grid is seat 0)"),
    (["--variant", "7-card", "A 2 3 / 4 5 6"], "unknown variant '7-card'"),
    (["--variant", "6-card", "A A A / 4 5 6", "A A 3 / 4 5 6"], "rank A"),
])
def test_score_bad_input_exits_2_with_one_line(args, message):
    status, out, err = golfbox("score", *args)
    assert status == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_score_takes_as_many_grids_as_the_variant_has_players_and_not_one_more(capsys):
    grid = "A 2 3 / 4 5 6 / 7 8 9"  # the two decks of 9-card hold 8 of each rank
    assert main(["score", "--variant", "9-card", *[grid] * 8]) == 0
    assert capsys.readouterr().out.splitlines() == ["45"] * 8
    assert main(["score", "--variant", "9-card", *[grid] * 9]) == 2
    assert capsys.readouterr() == ("", "golfbox score: 9 grids, but 9-card is for at most 8 "
                                       "players\n")


def test_simulate_json_is_deterministic_for_a_seed():
    args = ["simulate", "--variant", "6-card", "--players", "4", "--matches", "3", "--rounds", "2",
            "--seed", "42", "--bots", "greedy,random,greedy,random", "--json"]
    first, second = golfbox(*args), golfbox(*args)
    assert first[0] == 0 and second[0] == 0
    a, b = json.loads(first[1]), json.loads(second[1])
    for result in (a, b):
        assert {"matches", "rounds", "turns", "totals", "wins", "mean_round_score",
                "elapsed_s", "rounds_per_s"} <= set(result)
        del result["elapsed_s"], result["rounds_per_s"]
    assert a == b and a["matches"] == 3 and a["rounds"] == 6
    assert sum(a["wins"]) == pytest.approx(3)


def test_simulate_summary_text(capsys):
    assert main(["simulate", "--variant", "polish-poker", "--players", "3", "--matches", "2",
                 "--seed", "1", "--bots", "random", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "2 matches, 18 rounds" in out and "rounds/s" in out


@pytest.mark.parametrize("args,message", [
    (["--variant", "6-card", "--players", "9", "--matches", "1"], "2-8 players, not 9"),
    (["--variant", "6-card", "--players", "2", "--matches", "1", "--bots", "a,b,c"], "3 bots for 2"),
    (["--variant", "6-card", "--players", "2", "--matches", "1", "--bots", "clever"], "unknown bot"),
    (["--variant", "6-card", "--players", "2", "--matches", "0"], "at least 1"),
    (["--variant", "6-card", "--matches", "1", "--bots", "hard"], "--players is needed"),
    (["--variant", "6-card", "--matches", "1"], "--players is needed"),
    (["--variant", "4-card", "--matches", "1", "--bots", ",".join(["random"] * 11)],
     "2-10 players, not 11"),
])
def test_simulate_bad_input(args, message):
    status, _, err = golfbox("simulate", *args)
    assert status == 2 and message in err


def test_simulate_counts_the_players_from_the_bots(capsys):
    assert main(["simulate", "--variant", "9-card", "--matches", "1", "--rounds", "1",
                 "--seed", "2", "--bots", "random,greedy,random", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "of 9-card with 3 players" in out
    assert [line.split()[1] for line in out.splitlines()[2:5]] == ["random", "greedy", "random"]


def test_greedy_beats_random_in_every_variant():
    from golfbox.engine import get_variant, make_rules
    from golfbox.bots.simulate import simulate

    for name in ("4-card", "6-card", "polish-poker", "9-card"):
        variant = get_variant(name)
        result = simulate(variant, 2, make_rules(variant, {}), matches=4, rounds=9,
                          bots=["greedy", "random"], seed=7)
        greedy, rand = result.round_score_sum
        assert greedy < rand, name


def test_simulate_accepts_the_levels():
    status, out, err = golfbox("simulate", "--variant", "6-card", "--players", "3", "--matches", "1",
                               "--rounds", "1", "--seed", "3", "--bots", "easy,medium,hard", "--json")
    assert status == 0, err
    assert json.loads(out)["bots"] == ["easy", "medium", "hard"]


def test_simulate_reports_one_round_and_the_time_it_took():
    """The summary's means over a single round are that round's scores, and the time
    is measured: a run of one round must not read as half its scores or 0 s."""
    from golfbox.engine import get_variant, make_rules
    from golfbox.bots.simulate import simulate

    variant = get_variant("6-card")
    result = simulate(variant, 2, make_rules(variant, {}), matches=1, rounds=1,
                      bots=["greedy", "random"], seed=3).as_dict()
    assert result["rounds"] == 1 and result["mean_round_score"] == result["totals"]
    assert result["elapsed_s"] > 0 and result["rounds_per_s"] > 0
