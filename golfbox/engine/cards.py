"""Cards as small integers, so the engine can shuffle and compare them fast.

A card is ``rank * 4 + suit``. Ranks are indexed A, 2 … 10, J, Q, K (0–12) and
the joker (13); suits are C, D, H, S (0–3), and the two jokers of a deck are
suits 0 and 1. With two decks the same integer appears twice: two cards that
look alike are alike for every rule, so that is all the engine needs.
"""

from __future__ import annotations

RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK")
SUIT_NAMES = ("C", "D", "H", "S")
SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")
ACE, JACK, QUEEN, KING, JOKER = 0, 10, 11, 12, 13

Card = int


class CardError(ValueError):
    """A card written in a way the notation of RULES.md does not allow."""


def make_card(rank: int, suit: int = 0) -> Card:
    return rank * 4 + suit


def rank_of(card: Card) -> int:
    return card >> 2


def suit_of(card: Card) -> int:
    return card & 3


def card_name(card: Card) -> str:
    """'7H', '10S', 'QD', 'JK'."""
    rank = card >> 2
    if rank == JOKER:
        return "JK"
    return RANK_NAMES[rank] + SUIT_NAMES[card & 3]


def parse_card(text: str) -> Card:
    """Parse '7', '7H', '10s', 'Q', 'JK'. A card written without a suit gets clubs."""
    word = text.strip().upper()
    if word == "JK":
        return make_card(JOKER, 0)
    rank_part, suit_part = word, ""
    if word and word[-1] in SUIT_NAMES:
        rank_part, suit_part = word[:-1], word[-1]
    if rank_part not in RANK_NAMES or rank_part == "JK":
        raise CardError(f"unknown card {text!r} (ranks A 2-10 J Q K or JK, optional suit C D H S)")
    suit = SUIT_NAMES.index(suit_part) if suit_part else 0
    return make_card(RANK_NAMES.index(rank_part), suit)


def build_deck(decks: int, jokers_per_deck: int) -> list[Card]:
    """Every card of ``decks`` decks, unshuffled."""
    one = [make_card(rank, suit) for rank in range(13) for suit in range(4)]
    one += [make_card(JOKER, j) for j in range(jokers_per_deck)]
    return one * decks


def shuffle(cards: list[Card], rng) -> None:
    """Shuffle ``cards`` in place, every order equally likely.

    Fisher–Yates, each swap partner drawn uniformly by rejection from
    ``rng.getrandbits``: the very draws random.shuffle makes (checked by a test),
    so a seed deals what it always dealt, at half the cost, because no method
    is called per card. Works with random.Random and random.SystemRandom.
    """
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        bits = (i + 1).bit_length()
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]
