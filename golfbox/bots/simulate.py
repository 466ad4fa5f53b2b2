"""Headless play: whole matches between bots that see only their seat's view."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

from golfbox.bots import Bot, make_bot
from golfbox.engine import Match, Round, Rules, Variant


def play_round(round_: Round, bots: Sequence[Bot], full_views: bool = False) -> None:
    """Let the bots play ``round_`` to its end. Each bot decides from its seat's view;
    a bot that reads only the legal actions (needs_view False) gets just those,
    unless ``full_views`` asks for the whole view anyway."""
    view, legal_actions, apply = round_.view, round_.legal_actions, round_.apply
    if full_views or any(getattr(bot, "needs_view", True) for bot in bots):
        choose = [bot.choose for bot in bots]
        while seats := round_.acting_seats:
            for seat in seats:
                apply(seat, choose[seat](view(seat)))
    else:
        choose = [bot.choose_legal for bot in bots]
        while seats := round_.acting_seats:
            for seat in seats:
                apply(seat, choose[seat](legal_actions(seat)))


@dataclass
class SimulationResult:
    variant: str
    players: int
    bots: list[str]
    matches: int = 0
    rounds: int = 0
    turns: int = 0
    totals: list[int] = field(default_factory=list)  # per seat, over all matches
    wins: list[float] = field(default_factory=list)  # shared wins count as a fraction
    round_score_sum: list[int] = field(default_factory=list)
    elapsed_s: float = 0.0
    matches_asked: int = 0
    interrupted: bool = False  # Ctrl-C: what was played so far

    def as_dict(self) -> dict:
        rounds = max(self.rounds, 1)
        return {
            "variant": self.variant, "players": self.players, "bots": self.bots,
            "matches": self.matches, "matches_asked": self.matches_asked,
            "interrupted": self.interrupted, "rounds": self.rounds, "turns": self.turns,
            "totals": self.totals, "wins": self.wins,
            "mean_round_score": [round(s / rounds, 3) for s in self.round_score_sum],
            "elapsed_s": round(self.elapsed_s, 4),
            # Four decimals: hard bots may play under 0.1 rounds/s, which one decimal made 0.0.
            "rounds_per_s": round(self.rounds / self.elapsed_s, 4) if self.elapsed_s else None,
        }


def simulate(variant: Variant, players: int, rules: Rules, *, matches: int, rounds: int,
             bots: Sequence[str], seed: int | None = None, full_views: bool = False,
             progress: Callable[[int], None] | None = None) -> SimulationResult:
    """Play ``matches`` matches of ``rounds`` rounds; the same seed gives the same results.
    ``full_views``: hand every bot its whole view, even one that reads only the legal actions.
    ``progress(rounds_done)`` is called after every round.

    Ctrl-C (KeyboardInterrupt) stops it and returns what was played so far, marked
    ``interrupted``: totals and wins of the finished matches; rounds, turns and
    round scores of every finished round, the unfinished match's too."""
    if len(bots) != players:
        raise ValueError(f"{len(bots)} bots for {players} players")
    master = random.Random(seed) if seed is not None else random.SystemRandom()
    players_bots = [make_bot(name, random.Random(master.getrandbits(64))) for name in bots]
    result = SimulationResult(variant.name, players, list(bots), totals=[0] * players,
                              wins=[0.0] * players, round_score_sum=[0] * players,
                              matches_asked=matches)
    started = time.perf_counter()
    try:
        for _ in range(matches):
            _play_match(Match(variant, players, rules, rounds=rounds, seed=master.getrandbits(64)),
                        players_bots, full_views, result, progress)
    except KeyboardInterrupt:
        result.interrupted = True
    result.elapsed_s = time.perf_counter() - started
    return result


def _play_match(match: Match, bots: Sequence[Bot], full_views: bool, result: SimulationResult,
                progress: Callable[[int], None] | None) -> None:
    """Play one match into ``result``, booking each round as it ends."""
    while True:
        play_round(match.round, bots, full_views)
        match.apply_round_end()
        scores, turns = match.history[-1], match.round.turns
        result.rounds += 1
        result.turns += turns
        sums = result.round_score_sum
        result.round_score_sum = [total + score for total, score in zip(sums, scores)]
        if progress:
            progress(result.rounds)
        if match.over:
            break
        match.next_round()
    winners = match.winners
    result.totals = [total + mine for total, mine in zip(result.totals, match.totals)]
    result.wins = [w + (1 / len(winners) if seat in winners else 0) for seat, w in enumerate(result.wins)]
    result.matches += 1
