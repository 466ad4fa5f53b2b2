"""``hard``: determinized Monte-Carlo search from the seat's own view.

For each decision: deal rounds consistent with the view (the unseen cards
shuffled into the stock and the face-down cards nobody has shown, see
golfbox.engine.determinize), try every legal action in each of them and play
the round on with a fast rule-of-thumb player (bots.playout), and keep the
action whose futures end best for this seat: its round score minus the mean
of the others'. Knocking, going out, the knock and finisher penalties, pairs,
lines and the -10/-20/-30 combinations are simply what the scores of those
futures say: the play-out player's rules of thumb are only the default those
futures must beat.

The others' face-down cards that they have seen and kept are dealt low (the
lowest of KEPT_DRAWS unseen cards): people keep low cards, and dealt uniformly
they made the others look weak, so hard knocked early and was caught.

Every action is tried in the same dealt rounds (common random numbers), and
successive halving spends the budget on the actions still in the running. In
4-card the play-out player is seated for the search (OWN_KNOCK_CAUTION): it
counts cards, the seats remember what they saw each other place, and the
searching seat's own futures wait for a wider lead before they knock. The
play-out player's own choice stays in the running to the end and is the
default: another action must beat it by more than the noise of its play-outs.
Budgets are counts of play-outs, never seconds. The random numbers come from
one draw of the bot's generator (which the table reseeds from the match seed,
the seat and the actions played before every move) mixed with the view and
its public history, so a choice depends only on those: a resumed match plays
on exactly as an uninterrupted one.
"""

from __future__ import annotations

import hashlib
import math
import random
from fractions import Fraction

from golfbox.bots.greedy import GreedyBot
from golfbox.bots.levels import mean_value
from golfbox.bots.patience import hurry, past_patience
from golfbox.bots.playout import (PlayoutPolicy, PublicMemory, card_values, final_scores,
                                  playout)
from golfbox.engine import (Action, ActionKind as A, Determinizer, HOLDING, START, SeatView,
                            TURN)

# Play-outs per decision, shared by the actions by successive halving: as many as
# keep a decision's median near 15-35 ms here. 9-card gains most from more (against 3
# medium, the same 400 rounds, first flips in a row: 100 -0.58, 300 -1.50, 600 -2.21).
PLAYOUTS = {"4-card": 300, "6-card": 200, "polish-poker": 200, "9-card": 200}
# With fewer players a play-out is shorter, so the same time buys more of them; at 2
# players it is spent on looking further ahead instead (HORIZON_BY_PLAYERS).
PLAYOUTS_BY_PLAYERS = {"9-card": {2: 300, 3: 300}}
FIRST_ROUND = 8  # dealt rounds every action is tried in before the first halving
SHORTLIST = 3  # placements searched when holding a card (plus the best face-down one)
HORIZON_LAPS = 4  # a play-out stops after this many turns per player, and scores as it lies
# 9-card, 2-player matches against medium, the same 1,000 (deals): a horizon of 4 with
# 400 play-outs won 68.9 %, of 8 with 300 79.0 %. A 2-player round lasts about 12 turns
# a player, so a short play-out stops before going out and the finisher penalty.
HORIZON_BY_PLAYERS = {"9-card": {2: 8}}
CONFIDENCE = 1.0  # standard errors by which an action must beat the play-out player's choice
KEPT_DRAWS = 3  # a card another player has seen and kept is dealt as the lowest of this many
# Where named, the play-out player is seated for each search (PlayoutPolicy.seated): it
# counts cards, every seat remembers the cards the others placed in full view, and the
# searching seat waits for a lead this much wider before it knocks in its own futures.
# Measured in 4-card only: 2-player rounds against medium, 4,000 over the same deals,
# points a round (negative: hard ahead): as before -0.17; counting and remembering
# -0.27; with a wider lead of 2 -0.38, of 4 -0.44 (paired with before: -0.27 ± 0.15),
# of 7 no better than 4.
OWN_KNOCK_CAUTION = {"4-card": 4.0}


_POLICIES: dict = {}


def _policy(variant, rules) -> PlayoutPolicy:
    key = (variant.name, tuple(sorted(rules.items(), key=str)))
    if key not in _POLICIES:
        _POLICIES[key] = PlayoutPolicy(variant, rules)
    return _POLICIES[key]


def decision_seed(seed: int, view: SeatView) -> int:
    """A number from the bot's seed, its seat and everything public that happened:
    the same view in the same match gives the same number, on any machine."""
    table = view.table
    text = repr((seed, view.seat, table.round_no, table.dealer, table.totals, view.own_grid,
                 view.held, tuple((s, str(a), c) for s, a, c in table.history)))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def budget_for(variant: str, players: int) -> int:
    """Play-outs per decision: a count, the same on any machine."""
    return PLAYOUTS_BY_PLAYERS.get(variant, {}).get(players) or PLAYOUTS.get(variant, 100)


def horizon_for(variant: str, players: int) -> int:
    """Turns per player a play-out looks ahead before it scores the grids as they lie."""
    return HORIZON_BY_PLAYERS.get(variant, {}).get(players) or HORIZON_LAPS


class SearchBot:
    name = "hard"
    needs_view = True
    thinks_long = True  # the table runs it off the loop that serves the buttons

    def __init__(self, rng: random.Random, playouts: int | None = None,
                 horizon_laps: int | None = None):
        self._rng = rng  # the table reseeds it before each move (seed, seat, actions played)
        # None: budget_for and horizon_for the variant and players (read at each search)
        self.playouts, self.horizon_laps = playouts, horizon_laps
        self._flipper = GreedyBot(rng)  # start-of-round flips

    def choose(self, view: SeatView) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if view.phase == START or (view.phase == TURN and view.flips_due):
            # Which face-down cards to turn up first is a guess either way: spread them
            # over rows and columns, as medium does. In 9-card, against 3 medium, spread
            # scored -3.29 ± 0.80 points a round (800 rounds), a whole row -1.34 ± 0.55.
            return self._flipper.choose(view)
        if past_patience(view):  # only what ends the round; the search picks among it
            legal = hurry(view, legal)
        if view.phase == HOLDING:
            legal = self.shortlist(view, legal)
        return self.search(view, legal) if len(legal) > 1 else legal[0]

    @staticmethod
    def shortlist(view: SeatView, legal) -> tuple[Action, ...]:
        """The placements worth searching: the best few by the play-out player's own
        estimate, always including the best face-down one, and discarding. Fewer
        actions, more dealt rounds each: the budget is better spent."""
        policy = _policy(view.variant, view.rules)
        gains = policy.gains(list(view.own_grid), view.held)
        places = sorted((a for a in legal if a.kind == A.PLACE), key=lambda a: -gains[a.pos])
        up = view.face_up[view.seat]
        keep = places[:SHORTLIST]
        keep += [a for a in places if not up >> a.pos & 1 and a not in keep][:1]
        return tuple(a for a in legal if a in keep or a.kind != A.PLACE)

    @staticmethod
    def deal(dealer: Determinizer, kept, rng: random.Random):
        """A round consistent with the view, in which the face-down cards the others
        have seen and kept are likelier low: a player keeps a card because it is low.
        Each is swapped with the lower of other unseen cards from the stock (any
        arrangement of the unseen cards is consistent with the view)."""
        world = dealer.sample(rng)
        stock, grids, values = world.stock, world.grids, card_values(world.variant)
        for seat, pos in kept:
            for _ in range(KEPT_DRAWS - 1):
                if not stock:
                    break
                i = int(rng.random() * len(stock))
                if values[stock[i]] < values[grids[seat][pos]]:
                    stock[i], grids[seat][pos] = grids[seat][pos], stock[i]
        return world

    def search(self, view: SeatView, legal) -> Action:
        rng = random.Random(decision_seed(self._rng.getrandbits(64), view))
        seat = view.seat
        table = view.table
        policy = _policy(table.variant, table.rules)
        dealer = Determinizer(view)
        memory = None  # what the seats remember of each other's face-down cards, if seated
        caution = OWN_KNOCK_CAUTION.get(table.variant.name)
        if caution is not None:
            mean = mean_value(table.variant, dealer.unseen, policy.mean)
            policy = policy.seated(seat, mean, caution)
            memory = PublicMemory([sum(1 << pos for pos in shown) for shown in dealer.memory],
                                  table.holder if table.public_held is not None else None)
        laps_ahead = self.horizon_laps or horizon_for(table.variant.name, table.players)
        limit = self.turn_limit = table.turns + laps_ahead * table.players  # kept for tests
        others = table.players - 1
        kept = [(s, p) for s, p in dealer.holes if s != seat and view.owner_seen[s] >> p & 1]
        worlds = [self.deal(dealer, kept, rng)]
        # The play-out player's own choice is the default: another action must beat it
        # by more than the noise of the play-outs to be chosen (search with a budget
        # this small otherwise picks whichever action was lucky, and plays worse than
        # the play-out player it searches with).
        default = policy.choose(worlds[0].copy(rng), seat, memory)
        play_rng = random.Random(rng.getrandbits(64))  # a play-out's reshuffles draw from it
        outcomes: dict = {action: [] for action in legal}  # per dealt round, in order
        tried = 0  # dealt rounds every surviving action has been tried in
        alive = list(legal)
        laps = max(1, (len(alive) - 1).bit_length())  # halvings until one action is left
        self.laps_spent = []  # (actions in the running, dealt rounds each) per lap, for tests
        budget = self.playouts or budget_for(table.variant.name, table.players)
        for lap in range(laps):
            # Each lap spends an equal share of the budget on the actions still in the running.
            batch = max(FIRST_ROUND if lap == 0 else 1, budget // laps // len(alive))
            self.laps_spent.append((len(alive), batch))
            while len(worlds) < tried + batch:
                worlds.append(self.deal(dealer, kept, rng))
            for action in alive:
                out = outcomes[action]
                for world in worlds[tried:tried + batch]:
                    r = world.copy(play_rng)
                    r.apply(seat, action)
                    playout(r, policy, limit, memory and memory.after(seat, action))
                    scores = final_scores(r)
                    # Own score minus the others' mean, times the others: an integer, so the
                    # sums below are exact. Floats summed differently from Python 3.12 on
                    # (Pi OS bookworm has 3.11, trixie 3.13), so a seed played differently.
                    out.append(scores[seat] * others - (sum(scores) - scores[seat]))
            tried += batch
            alive.sort(key=lambda a: (sum(outcomes[a]), legal.index(a)))
            if lap < laps - 1:
                # Keep the better half rounded up (3 -> 2 -> 1), and the default.
                half = alive[:(len(alive) + 1) // 2]
                if default in alive and default not in half:
                    half[-1] = default
                alive = half
        best = self.best = alive[0]
        self.default, self.evidence = default, None  # for tests
        if default not in alive or best == default:
            return best
        # Paired over the same dealt rounds (the same unseen cards for both actions).
        diffs = [b - d for b, d in zip(outcomes[best], outcomes[default])]
        n, total = len(diffs), sum(diffs)
        # n(n-1) times the diffs' variance: the mean over its standard error, the evidence,
        # is total * sqrt(n-1) / sqrt(scatter); its comparison is made in integers.
        scatter = n * sum(x * x for x in diffs) - total * total
        if not scatter:
            self.evidence = float("-inf") if total < 0 else float("inf")
            return best if total < 0 else default
        # How many standard errors the best beats the default by (negative: better).
        self.evidence = total * math.sqrt(n - 1) / math.sqrt(scatter)
        clearly = total < 0 and total * total * (n - 1) > Fraction(CONFIDENCE) ** 2 * scatter
        return best if clearly else default
