"""Duplicate deals: every table of one size plays the same deal in a round, and each player
is also ranked by how they did against everyone who held the same cards.

Why: in an ordinary event a player dealt poor cards loses chips whatever they do. When the
same deal is played at many tables, comparing a seat's score with the average of every seat
that held those cards cancels the luck of the deal and leaves the play (docs/tournaments.md,
"Duplicate deals", with a worked example that tests/tournaments/test_duplicate_score.py
checks).

The deal. A duplicate event always plays in rounds, hand-for-hand (services.round_start /
hand_settle / round_finish). Round ``r``'s deal for tables of ``n`` seats is the hand seed
``seed_for(t, r, n)``, derived from the event's secret key, and seat ``services.DEALER_SEAT``
deals at every table, so seat position ``p`` (counted from the dealer) holds the same cards
at every table of that size. The rotation is round_start's: each round a table's players
are seated from the left of the last dealer, so everyone moves one seat position on per
round and at a table of ``n`` a player holds every seat position once in ``n`` rounds.

Hidden information. A deal is live while any table of its board (same event, round and
size) still plays it. Until then the seed and the other seats' cards are held back from the
hand-end view (``held_back``), entrants may not watch the event's other tables
(``watch_refused``), and the game's replay, results and review wait (``review_allowed``).
The engine is not changed: the holding back is done where its views are turned into pages.
Rating waits as well (a game's result rows show on the public player pages): a game that
ends while its deal is live is rated when the round is scored.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from games.models import Game, Hand
from tournaments.models import DuplicateDeal, Entry, Tournament, TournamentTable

HELD_BACK = "This deal is still being played at other tables of the tournament."
"""What a page says instead of a duplicate deal's cards, replay or results while it is live."""


# --- the deal --------------------------------------------------------------------------------


def ensure_key(t: Tournament) -> str:
    """The event's secret (made once, at the start): nobody can work a deal out in advance."""
    if not t.duplicate_key:
        t.duplicate_key = secrets.token_hex(32)
        Tournament.objects.filter(pk=t.pk).update(duplicate_key=t.duplicate_key)
    return t.duplicate_key


def seed_for(t: Tournament, round_number: int, size: int) -> int:
    """Round ``round_number``'s hand seed for tables of ``size`` seats (64 bits, secret).

    HMAC of the event's key: the same for every table of that size, different per round and
    size, and not guessable from earlier rounds' seeds once those are shown.
    """
    key = ensure_key(t).encode()
    digest = hmac.new(key, f"round {round_number}/seats {size}".encode(), hashlib.sha256)
    return int.from_bytes(digest.digest()[:8], "big")


def record_deals(t: Tournament, tables: Iterable[tuple[TournamentTable, int, Game | None]]) -> None:
    """Round start: note which tables play the round's deal for their size (one row each)."""
    DuplicateDeal.objects.bulk_create(
        DuplicateDeal(tournament=t, round=t.round, size=size, table=table, game=game)
        for table, size, game in tables
    )


def record_hand(t: Tournament, table: TournamentTable, played: Sequence[Any]) -> None:
    """Hand settled at ``table``: keep each seat's hand score for the comparison.

    ``played`` are services.Played rows (seat, entry id, score).
    """
    DuplicateDeal.objects.filter(tournament=t, round=t.round, table=table).update(
        scores=[[p.seat, p.entry_id, p.score] for p in played], played=True
    )


# --- the comparison --------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatScore:
    """One seat's result of one table's play of a deal."""

    seat: int
    entry_id: int
    score: int


def compare(plays: Sequence[Sequence[SeatScore]]) -> dict[int, float]:
    """Duplicate score of each entrant for one deal, played at each table of ``plays``.

    For every seat position, the average hand score of everyone who held it (those cards);
    a player's duplicate score is their hand score minus that average, rounded to hundredths.
    Alone at a seat position (one table of that size) that is 0: nothing to compare with.
    """
    by_seat: dict[int, list[SeatScore]] = defaultdict(list)
    for table in plays:
        for line in table:
            by_seat[line.seat].append(line)
    found: dict[int, float] = {}
    for lines in by_seat.values():
        average = sum(line.score for line in lines) / len(lines)
        for line in lines:
            found[line.entry_id] = round(line.score - average, 2)
    return found


def score_round(t: Tournament) -> None:
    """Round end: compare the round's deals and add each entrant's result to their total.

    Safe to repeat (round_finish is): a round's deals are marked scored in the same
    transaction, and a scored round is not counted again. Only the round's rows are read,
    so the cost does not grow with the rounds played.
    """
    if not t.duplicate:
        return
    deals = DuplicateDeal.objects.filter(tournament=t, round=t.round, played=True)
    if deals.filter(scored=True).exists():
        return
    boards: dict[int, list[list[SeatScore]]] = defaultdict(list)
    for size, scores in deals.values_list("size", "scores"):
        boards[size].append([SeatScore(*line) for line in scores])
    found: dict[int, float] = {}
    for plays in boards.values():
        found.update(compare(plays))
    entries = list(Entry.objects.filter(pk__in=list(found)))
    for e in entries:
        e.duplicate_score = round(e.duplicate_score + found[e.pk], 2)
    Entry.objects.bulk_update(entries, ["duplicate_score"], batch_size=500)
    deals.update(scored=True)
    rate_after_commit(deals.filter(game__isnull=False).values_list("game_id", flat=True))


def rate_after_commit(game_ids: Iterable[int]) -> None:
    """Rate the round's games once the round is scored (every table has finished its deal).

    The rating of a game that ended while its deal was still live was skipped (its result
    rows would have shown on the player pages): games.ratings.ratings.rate_game waits for
    the deal. Rating twice changes nothing, so the games rated already are simply skipped.
    """
    from django.db import transaction

    from games import tasks

    for game_id in list(game_ids):
        transaction.on_commit(partial(tasks.rate_game.delay, game_id))


# --- hidden information ------------------------------------------------------------------------


def _board_of(game_id: int) -> DuplicateDeal | None:
    return DuplicateDeal.objects.filter(game_id=game_id).first()


def _board_live(deal: DuplicateDeal) -> bool:
    """Some table of the deal's board still plays it (a hand in play at a game in play)."""
    games = DuplicateDeal.objects.filter(
        tournament_id=deal.tournament_id, round=deal.round, size=deal.size, game__isnull=False
    ).values("game_id")
    return Hand.objects.filter(
        game_id__in=games, status=Hand.Status.PLAYING, game__status=Game.Status.PLAYING
    ).exists()


def round_live(t: Tournament) -> bool:
    """Some table still plays one of the round's deals. Settlement waits for it: moved chips
    (standings, ledger) would tell the tables still playing how the deal went elsewhere."""
    games = DuplicateDeal.objects.filter(tournament=t, round=t.round, game__isnull=False)
    return Hand.objects.filter(
        game_id__in=games.values("game_id"),
        status=Hand.Status.PLAYING,
        game__status=Game.Status.PLAYING,
    ).exists()


def deal_finished_everywhere(hand: Hand) -> bool:
    """True unless ``hand`` is a duplicate deal some table of the event still plays."""
    deal = _board_of(hand.game_id)
    return deal is None or not _board_live(deal)


def review_allowed(game: Game) -> bool:
    """The game may be replayed, shown in results and reviewed: not a live duplicate deal.

    games.game_reviews and the replay page call this one predicate.
    """
    deal = _board_of(game.pk)
    return deal is None or not _board_live(deal)


def held_back(game_id: int | None) -> bool:
    """A live duplicate deal: hold back its seed and the other seats' cards everywhere."""
    if game_id is None:
        return False
    deal = _board_of(game_id)
    return deal is not None and _board_live(deal)


def watch_refused(table_id: int, user: Any) -> str | None:
    """Why ``user`` may not watch this table now, or None.

    An entrant of a duplicate event may not watch its other tables while the deal played
    there is live: they could carry what they see to their own table, or to a friend's.
    """
    if not getattr(user, "is_authenticated", False):
        return None
    link = (
        TournamentTable.objects.filter(table_id=table_id, tournament__duplicate=True)
        .select_related("tournament")
        .first()
    )
    if link is None:
        return None
    if not Entry.objects.filter(tournament=link.tournament, user_id=user.pk).exists():
        return None
    game = Game.objects.filter(table_id=table_id).order_by("-number").first()
    if game is None:
        return None
    if user.pk in {p.get("user") for p in game.players or []}:
        return None  # their own table
    if held_back(game.pk):
        return HELD_BACK + " Entrants can watch other tables once every table has finished it."
    return None
