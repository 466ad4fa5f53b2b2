"""Write a journal fixture with an OLD golfbox: a match played part way, stopped mid-round.

    git worktree add /tmp/old <commit>
    cd /tmp/old && PYTHONPATH=/tmp/old python <this repo>/tests/journals/make_journal.py \\
        --commit <commit> --name v4_<commit> --variant 4-card --rule assist=true \\
        --seats 4 --bots medium,easy --takeover --stop-round 1 --stop-turns 9

It writes <name>.sqlite (the journal, as that golfbox left it on a clean stop) and
<name>.json (what its table held then: scores, turn, the cards, what each seat saw,
and the config it ran with) here, for tests/test_old_journals.py. It uses only what
every golfbox since the first table (725f9e8) has: TableSettings, TableService (or
assemble_table), SimPad, and the engine's Round attributes. Seat 0 is a person
pressing tests/table_driver.py's script, joined in the lobby; with --takeover seat 1
is a person whose node is unplugged (a stand-in bot plays it); the others are bots.
"""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import json
import random
import sys
from pathlib import Path

from golfbox.hal.base import Button, LinkEvent
from golfbox.hal.sim import SimDisplay, SimPad
from golfbox.table.journal import Journal
from golfbox.table.settings import TableSettings

HERE = Path(__file__).resolve().parent
SCRIPT_BUTTONS = (Button.LEFT, Button.RIGHT, Button.RIGHT, Button.BACK)


def scripted_presses(seed: int, moves: int, attempt: int) -> list[tuple[Button, bool]]:
    """tests/table_driver.py's, written out: older commits have none, or another."""
    rng = random.Random(f"{seed}:{moves}:{attempt}")
    presses = [(Button.BACK, False)]
    presses += [(rng.choice(SCRIPT_BUTTONS), False) for _ in range(rng.randrange(4))]
    if rng.random() < 0.1:
        presses.append((Button.BACK, True))
    presses.append((Button.OK, False))
    return presses


class Clock:
    def __init__(self) -> None:
        self.now = 5000.0

    def __call__(self) -> float:
        return self.now


def rule_value(text: str):
    if text in ("true", "false"):
        return text == "true"
    return int(text) if text.lstrip("-").isdigit() else text


def table(args, rules: dict, clock: Clock):
    fields = {f.name for f in dataclasses.fields(TableSettings)}
    people = 2 if args.takeover else 1
    bots = dict(zip(range(people, args.seats), args.bots.split(",")))
    settings = TableSettings(variant=args.variant, rules=rules, rounds=args.rounds,
                             seats=args.seats, bots=bots, bot_delay=0.0, seed=args.seed)
    if "takeover_after" in fields:
        settings.takeover_after = 1.0
    pad = (SimPad(range(args.seats), clock) if "clock" in inspect.signature(SimPad).parameters
           else SimPad(range(args.seats)))
    displays = {seat: SimDisplay(f"seat {seat + 1}") for seat in range(args.seats)}
    journal = Journal(args.out.with_suffix(".sqlite"))
    try:
        from golfbox.table.assemble import assemble_table
    except ImportError:  # before assemble.py
        from golfbox.table.service import TableService
        service = TableService(settings, [pad], displays, None, journal, clock)
    else:
        service = assemble_table(settings, [pad], displays, None, journal, clock=clock)
    return service, pad, bots


def visible(grid, bits: int) -> list:
    return [int(card) if bits >> i & 1 else None for i, card in enumerate(grid)]


def held_now(service) -> dict:
    match, rnd = service.match, service.match.round
    acting = rnd.acting_seats() if callable(rnd.acting_seats) else rnd.acting_seats
    view = match.view(0)
    to_move = getattr(view, "table", view).to_move
    return {
        "match_id": service.match_id, "actions": service.actions_played,
        "round_no": match.round_no, "totals": list(match.totals),
        "round_scores": [list(s) for s in match.history],
        "phase": str(getattr(rnd.phase, "value", rnd.phase)), "acting": list(acting),
        "to_move": to_move, "held": None if rnd.held is None else int(rnd.held),
        "discard": [int(c) for c in rnd.discard], "stock_size": len(rnd.stock),
        "public_grids": [visible(g, f) for g, f in zip(rnd.grids, rnd.face_up)],
        "own_grids": [visible(g, f | k) for g, f, k in zip(rnd.grids, rnd.face_up, rnd.known)],
        "legal": {str(s): sorted(str(a) for a in rnd.legal_actions(s)) for s in acting},
        "table": str(getattr(service.state, "value", service.state)),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--name", required=True, help="v<schema version>_<commit>[_what]")
    parser.add_argument("--commit", required=True, help="the golfbox on PYTHONPATH")
    parser.add_argument("--variant", default="6-card")
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--config-rule", action="append", metavar="NAME=VALUE",
                        help="the config's house rules after the update, if not --rule's")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--bots", default="greedy,random")
    parser.add_argument("--takeover", action="store_true")
    parser.add_argument("--stop-round", type=int, default=2)
    parser.add_argument("--stop-turns", type=int, default=3)
    args = parser.parse_args()
    args.out = HERE / args.name
    if args.out.with_suffix(".sqlite").exists():
        raise SystemExit(f"{args.out.with_suffix('.sqlite')} exists")
    rules = {n: rule_value(v) for n, v in (r.split("=", 1) for r in args.rule)}
    clock = Clock()
    service, pad, bots = table(args, rules, clock)
    service.run_until_idle()
    for seat in ([0, 1] if args.takeover else [0]):  # the lobby: join, seat 0 starts
        pad.press(seat, Button.OK)
        service.run_until_idle()
    pad.hold(0, Button.OK)
    clock.now += 2.0
    service.run_until_idle()
    if args.takeover:
        extra = {"buttons": True} if "buttons" in inspect.signature(LinkEvent).parameters else {}
        service.post(LinkEvent(1, False, "seat 2: node unplugged", **extra))
        service.run_until_idle()
        clock.now += 1.5
    attempt, last = 0, -1
    for _ in range(20_000):
        service.run_until_idle()
        match = service.match
        if match.over:
            raise SystemExit("the match ended before the stop: another --seed or --stop-round")
        if (match.round_no >= args.stop_round and match.round.turns >= args.stop_turns
                and not match.round.over):
            break
        moves = service.actions_played
        attempt, last = (attempt + 1 if moves == last else 0), moves
        for button, held in scripted_presses(args.seed, moves, attempt):
            (pad.hold if held else pad.press)(0, button)
            service.run_until_idle()
        clock.now += 0.25
    else:
        raise SystemExit("never reached the stop")
    made_by = f"golfbox {args.commit}: tests/journals/make_journal.py {' '.join(sys.argv[1:])}"
    expected = {"made_by": made_by, **held_now(service)}
    config_rules = rules if args.config_rule is None else {
        n: rule_value(v) for n, v in (r.split("=", 1) for r in args.config_rule)}
    expected["config"] = {"variant": args.variant, "rules": config_rules, "rounds": args.rounds,
                          "seats": args.seats, "bots": {str(s): b for s, b in bots.items()}}
    service.close()  # a clean stop (systemctl stop before the update): one file, no -wal
    args.out.with_suffix(".json").write_text(json.dumps(expected, separators=(",", ":")) + "\n")
    print(f"{args.name}: round {match.round_no}, {service.actions_played} actions")


if __name__ == "__main__":
    main()
