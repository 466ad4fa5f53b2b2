"""Grids written as in RULES.md: rows separated by '/', cards by spaces."""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from golfbox.engine.cards import (JOKER, SUIT_NAMES, Card, CardError, card_name, parse_card,
                                  rank_of)
from golfbox.engine.variants import Variant


class NotationError(ValueError):
    """A grid that cannot be read, or cannot be dealt in this variant."""


def parse_grid(text: str, variant: Variant) -> list[Card]:
    """'K K JK / 4 J 3 / 7 7 7' -> flat list of cards, row by row."""
    rows = [row.split() for row in text.split("/")]
    if len(rows) != variant.rows or any(len(r) != variant.cols for r in rows):
        shape = " / ".join(str(len(r)) for r in rows)
        raise NotationError(
            f"grid {text.strip()!r} has rows of {shape} cards; {variant.name} needs "
            f"{variant.rows} rows of {variant.cols}")
    cards = []
    for word in (w for row in rows for w in row):
        try:
            card = parse_card(word)
        except CardError as exc:
            raise NotationError(str(exc)) from None
        if rank_of(card) == JOKER and not variant.has_jokers:
            raise NotationError(f"{variant.name} is played without jokers, but a grid holds {word!r}")
        cards.append(card)
    return cards


def suited_cards(text: str) -> list[Card]:
    """The cards of a grid written with a suit letter ('7H', not '7' nor 'JK')."""
    words = [w.strip().upper() for w in text.replace("/", " ").split()]
    return [parse_card(w) for w in words if w != "JK" and w[-1:] in SUIT_NAMES]


def check_cards_exist(grids: Sequence[Sequence[Card]], variant: Variant, players: int,
                      suited: Sequence[Card] = ()) -> None:
    """Refuse more copies of a card than the decks for this many players hold.

    Every rank is counted; ``suited`` (the cards written with a suit, see
    suited_cards) are also counted by suit: each deck holds one of each. A card
    written without a suit may be any suit, so it only counts for its rank."""
    decks = variant.decks(players)
    for card, count in Counter(suited).items():
        if count > decks:
            raise NotationError(f"{count} cards {card_name(card)}, but {decks} deck(s) of "
                                f"{variant.name} hold {decks}")
    ranks = Counter(rank_of(c) for g in grids for c in g)
    for rank, count in ranks.items():
        most = decks * (variant.jokers_per_deck if rank == JOKER else 4)
        if count > most:
            name = "JK" if rank == JOKER else card_name(rank * 4)[:-1]
            raise NotationError(
                f"{count} cards of rank {name}, but {decks} deck(s) of {variant.name} hold {most}")
