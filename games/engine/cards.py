"""Card codes, their labels and the decks.

A card is a two-character code, rank then suit: ``"7H"`` is the seven of hearts, ``"TS"`` the
ten of spades, ``"AC"`` the ace of clubs, and ``"JK"`` a joker. Codes rather than objects keep
states small, hashable and trivially JSON-serialisable. With two packs the same code appears
twice; copies are interchangeable, so the engine never exposes deck positions.

A *reading* says which natural card a card stands for in a meld. Natural cards read as
themselves; a wild card in a run reads as a full code; a wild card in a group stands for the
rank only and reads as the rank followed by ``*`` (``"9*"``).
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS = "A23456789TJQK"
SUITS = "CDHS"
JOKER = "JK"
ANY_SUIT = "*"

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANK_NAMES = {
    "A": "ace",
    "2": "two",
    "3": "three",
    "4": "four",
    "5": "five",
    "6": "six",
    "7": "seven",
    "8": "eight",
    "9": "nine",
    "T": "ten",
    "J": "jack",
    "Q": "queen",
    "K": "king",
}
RANK_PLURALS = {rank: name + ("es" if name == "six" else "s") for rank, name in RANK_NAMES.items()}
RANK_LABELS = {rank: ("10" if rank == "T" else rank) for rank in RANKS}

NATURAL_CODES: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)
ALL_CODES: frozenset[str] = frozenset(NATURAL_CODES) | {JOKER}
GROUP_READINGS: frozenset[str] = frozenset(rank + ANY_SUIT for rank in RANKS)

RANK_INDEX = {rank: index + 1 for index, rank in enumerate(RANKS)}
"""A=1, 2=2 ... K=13: the ace's low position; its high position in a run is 14."""

SUIT_INDEX = {suit: index for index, suit in enumerate(SUITS)}

SORT_KEY = {code: (SUIT_INDEX[code[1]], RANK_INDEX[code[0]]) for code in NATURAL_CODES}
SORT_KEY[JOKER] = (len(SUITS), 0)


def is_card(code: object) -> bool:
    """True for a valid card code (natural or joker)."""
    return isinstance(code, str) and code in ALL_CODES


def is_reading(code: object) -> bool:
    """True for a valid reading: a natural code or a rank with any suit (``"9*"``)."""
    return isinstance(code, str) and (
        (code in ALL_CODES and code != JOKER) or code in GROUP_READINGS
    )


def card_label(code: str) -> str:
    """Label for players: ``"7♥"``, ``"10♠"``, ``"Joker"``; ``"any 9"`` for a group reading."""
    if code == JOKER:
        return "Joker"
    if code in GROUP_READINGS:
        return "any " + RANK_LABELS[code[0]]
    if code not in ALL_CODES:
        return repr(code)
    return RANK_LABELS[code[0]] + SUIT_SYMBOLS[code[1]]


def card_name(code: str) -> str:
    """Spoken name: ``"seven of hearts"``, ``"joker"``, ``"any nine"``."""
    if code == JOKER:
        return "joker"
    if code in GROUP_READINGS:
        return "any " + RANK_NAMES[code[0]]
    if code not in ALL_CODES:
        return repr(code)
    return f"{RANK_NAMES[code[0]]} of {SUIT_NAMES[code[1]]}"


def labels(cards: Iterable[str]) -> str:
    """ "7♥, 8♥ and 9♥": a list of cards for a sentence."""
    return _listed([card_label(code) for code in cards])


def labels_read(cards: Iterable[str], reading: Iterable[str]) -> str:
    """ "6♣, 7♣ and Joker as 8♣": a meld's cards for a sentence, each wild card with what it
    stands for. (The cards, then the whole reading, said most of them twice.)"""
    return _listed(
        [
            card_label(code) if code == read else f"{card_label(code)} as {card_label(read)}"
            for code, read in zip(cards, reading, strict=True)
        ]
    )


def _listed(names: list[str]) -> str:
    if not names:
        return "no cards"
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


def sort_cards(cards: Iterable[str]) -> list[str]:
    """Cards by suit then rank (aces low), jokers last: a stable order for display and tests."""
    return sorted(cards, key=SORT_KEY.__getitem__)


def build_deck(packs: int, jokers_per_pack: int) -> tuple[str, ...]:
    """The unshuffled deck: each pack's 52 naturals in suit/rank order, then its jokers."""
    one_pack = NATURAL_CODES + (JOKER,) * jokers_per_pack
    return one_pack * packs
