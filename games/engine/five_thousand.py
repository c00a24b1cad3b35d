"""5000 Rummy's own rules (seed 000), kept out of the shared modules, which call in with hooks.

* The first card of each player's deal is face up and says how many more they get (2-9: that
  many, 10-K: 10, ace: 11); the dealer's face-up rank is wild for the hand (``state.wild``,
  dealt in ``state.new_hand``; wild cards go through the joker machinery of ``wilds``).
* The natural card a melded wild card stands for may be played in front of its holder
  (``PlayNatural``): it scores for them and the wild card stays where it is.
* Melds score 5 (2-9), 10 (10-K), 100 (ace), 100 for any card of the wild rank, 200 when aces
  are wild. Cards left in hand cost nothing: whoever goes out scores them. When the stock runs
  out the hand ends and only melds count.
* Only a player with a meld of their own on the table may call Rummy.
"""

from __future__ import annotations

from .cards import ANY_SUIT, JOKER, card_label
from .melds import TableMeld
from .state import HandState


def _open_slots(meld: TableMeld, wild: str | None) -> list[str]:
    """The readings of the wild cards in ``meld`` (cards of the wild rank read as another)."""
    return [
        read
        for card, read in zip(meld.cards, meld.reading, strict=True)
        if card != read and (card[0] == wild or card == JOKER)
    ]


def _covers(read: str, card: str) -> bool:
    if read[1] == ANY_SUIT:
        return read[0] == card[0]
    return read == card


def natural_melds(state: HandState, card: str) -> list[int]:
    """Meld ids where ``card`` is the natural card of a wild card not yet matched in front."""
    if card == JOKER or card[0] == state.wild:
        return []
    found = []
    for meld in state.melds:
        slots = [read for read in _open_slots(meld, state.wild) if _covers(read, card)]
        if not slots:
            continue
        played = [front for front in state.fronts if front[2] == meld.id]
        for _seat, natural, _meld in played:
            for read in slots:
                if _covers(read, natural):
                    slots.remove(read)
                    break
        if slots:
            found.append(meld.id)
    return found


def natural_refusal(state: HandState, card: str, meld: TableMeld) -> str:
    if card[0] == state.wild:
        return f"The {card_label(card)} is wild this hand, so it is no natural card."
    return (
        f"Meld {meld.id} holds no wild card standing for the {card_label(card)} that is still "
        "waiting for its natural card."
    )


def has_melded(state: HandState, seat: int) -> bool:
    """True when ``seat`` has laid down a meld of its own this hand.

    Who laid a meld down comes from the hand's "meld" events, not from the meld's cards: a
    card laid off at a run's low end becomes the run's first card and is credited to the
    player who laid it off, so ``owners[0]`` would let a player who only laid off call Rummy.
    A meld the history does not account for (a constructed position) falls back to its
    first card's owner.
    """
    laid = {event.get("meld"): event.seat for event in state.history if event.kind == "meld"}
    return any(laid.get(meld.id, meld.owners[0]) == seat for meld in state.melds)
