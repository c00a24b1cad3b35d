"""No seat ever receives a card its engine view does not show: not in JSON, not in HTML.

Complete games are played through the move service; after every move the frame each seat
and a spectator would get (JSON mode and the browser's HTML fragments) is scanned for hidden
cards as codes, labels and spoken names, including attributes and comments.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter

from games import engine, selectors
from games.models import Hand, Table
from games.services import tables
from games.table import presenters, table_frames
from tests.games.conftest import play_one, start_table

NAMES = {code: engine.card_name(code) for code in engine.make_rules("standard").deck(4)}
LABELS = {code: engine.card_label(code) for code in NAMES}


def hidden_from(state, seat: int | None) -> set[str]:
    """Cards the seat may not see: other hands (less what everyone saw taken) and the stock."""
    if state.phase == engine.Phase.HAND_OVER:
        return set()
    seen = engine.view(state, seat)
    public = Counter()
    for cards in seen["public_cards"]["known"]:
        public.update(cards)
    for cards in seen["public_cards"]["displayed"]:
        public.update(cards)
    hidden = Counter(state.stock)
    for other, hand in enumerate(state.hands):
        if other != seat:
            hidden.update(hand)
    hidden -= public
    return set(hidden)


def leaks_in_json(payload: dict, hidden: set[str]) -> set[str]:
    found: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, str):
            if value in hidden:
                found.add(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(payload)
    return found


def leaks_in_text(text: str, hidden: set[str]) -> set[str]:
    lowered = text.lower()
    return {
        code
        for code in hidden
        if re.search(rf"(?<![A-Za-z0-9]){code}(?![A-Za-z0-9])", text)
        or LABELS[code] in text
        or NAMES[code] in lowered
    }


DEALER_DRAW = re.compile(r'<(\w+)[^>]*data-public="dealer-draw".*?</\1>', re.S)


def without_dealer_draw(payload: dict, html: str) -> tuple[dict, str]:
    """The first-dealer draw is a separate, public deck: its cards are not this hand's.

    It is taken out before scanning, and only where it equals the game's stored draw.
    """
    game = payload.get("game")
    if game is not None:
        stored = selectors.load_snapshot(payload["table"]["id"]).game.dealer_draw
        assert game["dealer_draw"] == stored
        payload = {**payload, "game": {**game, "dealer_draw": None}}
    if 'data-public="dealer-draw"' not in html:  # most frames: skip the pattern's pass
        return payload, html
    return payload, DEALER_DRAW.sub("", html)


def _scan(table: Table) -> int:
    snap = selectors.load_snapshot(table.pk)
    if snap.state is None:
        return 0
    checked = 0
    for seat in [*range(table.num_seats), None]:
        hidden = hidden_from(snap.state, seat)
        # The page's whole fragment, and the socket's regions as games.table.table_frames sends
        # them: the shared ones (rendered once per version from the spectator's context),
        # the per-seat strings of games.table.seat_frames, and the variants they pick from. (Its
        # partial frames, a player's entry or a meld alone, are pieces of these regions.)
        regions = table_frames.seat_regions(snap, seat, None)
        payload, html = without_dealer_draw(
            json.loads(presenters.state_json(snap, seat)),
            presenters.state_html(snap, seat, None) + "\n" + "\n".join(regions.values()),
        )
        assert not leaks_in_json(payload, hidden), (seat, snap.version)
        assert not leaks_in_text(json.dumps(payload, ensure_ascii=False), hidden)
        assert not leaks_in_text(html, hidden), (seat, snap.version, leaks_in_text(html, hidden))
        checked += 1
    return checked


def test_no_frame_for_any_seat_or_spectator_leaks_a_hidden_card(alice):
    """Two whole hands and the start of a third, so past hands sit on the score sheet too
    (bench/ and the security suite play many more games)."""
    table = start_table(alice, seats=4, target=5000)
    rng = random.Random(1)
    frames = 0
    for _ in range(3000):
        frames += _scan(table)
        hand = Hand.objects.filter(game__table=table).order_by("-game__number", "-number").first()
        if hand.status == Hand.Status.OVER:
            if hand.number == 2:
                break
            tables.hand_next(table_id=table.pk)
        else:
            play_one(table, rng)
    assert Hand.objects.filter(game__table=table, status=Hand.Status.OVER).count() == 2
    tables.hand_next(table_id=table.pk)
    frames += _scan(table)
    assert frames > 100


def test_the_scanner_finds_a_planted_card(alice):
    """The check above could not pass by accident: a hidden card in a frame is caught."""
    table = start_table(alice, seats=4)
    snap = selectors.load_snapshot(table.pk)
    hidden = hidden_from(snap.state, 0)
    planted = sorted(hidden)[0]
    assert leaks_in_json({"x": [planted]}, hidden) == {planted}
    assert leaks_in_text(f'<div data-card="{planted}"></div>', hidden) == {planted}
    assert leaks_in_text(f"<!-- {NAMES[planted]} -->", hidden) == {planted}
    assert leaks_in_text(f"<span>{LABELS[planted]}</span>", hidden) == {planted}
