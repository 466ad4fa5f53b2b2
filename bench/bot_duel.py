"""A paired duel: is a change to a bot better, over the same deals?

    .venv/bin/python -W ignore bench/bot_duel.py --variant 4-card --deals 2000 \
        --b-set 'golfbox.bots.search.OWN_KNOCK_CAUTION={"4-card": 2.0}'

Plays 2-player rounds of HERO against VILLAIN, every deal twice with the seats
swapped, once as the code stands (A) and once with module settings changed
(B: ``--b-set module.NAME=python-expression``, any number). A and B play in two
processes at once. Reported: A's and B's points a round against the villain
(negative: ahead), and B minus A paired over the same deals, with 95 %
intervals: pairing removes most of the luck of the deal, so a change shows in
far fewer rounds than bot_strength's lines need.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot_strength import deal_margins, interval  # noqa: E402  (beside this script)
from golfbox.engine import get_variant, make_rules, parse_rule_args  # noqa: E402


def apply_settings(settings: list[str], check_only: bool = False) -> None:
    for setting in settings:
        name, _, expression = setting.partition("=")
        module_name, _, attribute = name.rpartition(".")
        if not expression or not module_name:
            raise SystemExit(f"--b-set {setting!r}: expected module.NAME=python-expression")
        try:
            module = importlib.import_module(module_name)
        except ImportError as error:
            raise SystemExit(f"--b-set {setting!r}: {error}") from None
        if not hasattr(module, attribute):
            raise SystemExit(f"--b-set {setting!r}: {module_name} has no {attribute}")
        value = eval(expression)
        if not check_only:
            setattr(module, attribute, value)


def side(variant_name, rule_args, hero, villain, deals, seed, settings) -> list[float]:
    """Per deal, the hero's mean margin over the two seatings."""
    apply_settings(settings)
    variant = get_variant(variant_name)
    rules = make_rules(variant, parse_rule_args(rule_args))
    return deal_margins(variant, rules, hero, villain, deals, 2, seed)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="4-card")
    parser.add_argument("--rule", action="append", default=[], help="house rule, e.g. assist=on")
    parser.add_argument("--hero", default="hard")
    parser.add_argument("--villain", default="medium")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--b-set", action="append", default=[], dest="b_set",
                        help="module.NAME=python-expression, set before B plays")
    args = parser.parse_args()
    apply_settings(args.b_set, check_only=True)  # a mistake shows here, not in a worker
    common = (args.variant, args.rule, args.hero, args.villain, args.deals, args.seed)
    with ProcessPoolExecutor(2) as pool:
        a, b = pool.submit(side, *common, []), pool.submit(side, *common, args.b_set)
        a, b = a.result(), b.result()
    for name, margins in (("A", a), ("B", b)):
        mean, half = interval(margins)
        print(f"{name}: {args.hero} vs {args.villain}, {args.variant}, {2 * args.deals} rounds: "
              f"{mean:+.3f} ± {half:.3f} points a round")
    mean, half = interval([y - x for x, y in zip(a, b)])
    print(f"B - A, paired over the same deals ({' '.join(args.b_set) or 'no change'}): "
          f"{mean:+.3f} ± {half:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
