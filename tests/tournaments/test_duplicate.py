"""Duplicate events: the same deal at every table of a size, held back until all have played it."""

from __future__ import annotations

import random

import pytest
from django.test import Client

from games import engine, secrecy, selectors
from games.game_reviews import replay_context
from games.models import Game, Hand, Seat, Table
from games.services import bot_turns
from games.table import presenters
from tests.conftest import make_player
from tests.tournaments.conftest import bot_players, drive, enter, make_tournament
from tournaments import duplicate, services
from tournaments.models import ChipLedger, DuplicateDeal, Entry, Tournament, TournamentTable
from tournaments.services import TournamentError


def _duplicate_event(people=(), bots=8, **fields):
    fields.setdefault("seats_per_table", 4)
    t = make_tournament(duplicate=True, **fields)
    enter(t, [*people, *bot_players(bots)])
    services.start(tournament_id=t.pk, rng=random.Random(3))
    Seat.objects.filter(user__in=list(people)).update(autoplay=True)  # bots play for them
    t.refresh_from_db()
    return t


def _hands(t: Tournament) -> list[Hand]:
    return list(
        Hand.objects.filter(game__duplicate_deal__tournament=t, game__duplicate_deal__round=t.round)
    )


def _play_out(table_id: int) -> None:
    rng = random.Random(4)
    for _ in range(3000):
        hand = Hand.objects.filter(game__table_id=table_id).order_by("-game__number").first()
        if hand.status == Hand.Status.OVER:
            selectors.clear_cache()
            return
        version = Table.objects.values_list("version", flat=True).get(pk=table_id)
        bot_turns.play_one(table_id, version, rng=rng)
    raise AssertionError("the hand did not end")


def _table_of(user) -> int:
    return Entry.objects.get(user=user).table.table_id


def test_every_table_of_a_size_is_dealt_the_same_cards_from_the_same_secret_seed(db):
    t = _duplicate_event()
    hands = _hands(t)
    assert len(hands) == 2
    states = [engine.state_from_json(h.state) for h in hands]
    assert states[0].seed == states[1].seed == duplicate.seed_for(t, 1, 4)
    assert states[0].hands == states[1].hands and states[0].stock == states[1].stock
    assert {h.dealer for h in hands} == {services.DEALER_SEAT}
    assert duplicate.seed_for(t, 2, 4) != duplicate.seed_for(t, 1, 4)
    assert duplicate.seed_for(t, 1, 3) != duplicate.seed_for(t, 1, 4)
    other = make_tournament(duplicate=True, name="Other cup")
    assert duplicate.seed_for(other, 1, 4) != duplicate.seed_for(t, 1, 4)  # a key per event


def test_each_round_every_player_moves_one_seat_position_on(db):
    t = _duplicate_event(starting_chips=100_000)
    before = dict(Entry.objects.filter(tournament=t).values_list("pk", "seat"))
    tables = dict(Entry.objects.filter(tournament=t).values_list("pk", "table"))
    for table_id in TournamentTable.objects.filter(tournament=t).values_list("table_id", flat=True):
        _play_out(table_id)
    assert services.advance(tournament_id=t.pk)
    t.refresh_from_db()
    assert t.round == 2
    after = dict(Entry.objects.filter(tournament=t).values_list("pk", "seat"))
    assert dict(Entry.objects.filter(tournament=t).values_list("pk", "table")) == tables
    assert all(after[pk] == (before[pk] - 1) % 4 for pk in before)


def test_a_finished_table_sees_no_seed_nor_other_hands_until_every_table_finished(db):
    alice = make_player("alice", "Alice")
    t = _duplicate_event(people=[alice], bots=7)
    mine = _table_of(alice)
    tables = TournamentTable.objects.filter(tournament=t).values_list("table_id", flat=True)
    (theirs,) = set(tables) - {mine}
    _play_out(mine)
    game = Game.objects.filter(table_id=mine).latest("number")
    hand = game.hands.get()
    assert not duplicate.deal_finished_everywhere(hand)
    assert not duplicate.review_allowed(game) and secrecy.held_back(game.pk)
    snap = selectors.load_snapshot(mine)
    seat = snap.seat_of(alice.pk)
    state = snap.state
    for who in (seat, None):
        view = presenters.seat_view(snap, who)
        assert view["phase"] == "hand_over"
        assert "seed" not in view and "hands" not in view
        others = [line for line in view["result"]["seats"] if line["seat"] != who]
        assert others and all(line["lines"] == [] for line in others)
        assert str(state.seed) not in presenters.state_json(snap, who)
    assert presenters.seat_view(snap, seat)["hand"] == list(state.hands[seat])
    summary = presenters.table_context(snap, seat, alice)["summary"]
    assert all(row["minus"] == [] for row in summary if row["seat"] != seat)

    # settlement waits too: chips moved now would tell the other table how the deal went
    assert not services.advance(tournament_id=t.pk)
    assert not ChipLedger.objects.filter(tournament=t, kind=ChipLedger.Kind.HAND).exists()

    client = Client()
    client.force_login(alice)
    replay = client.get(f"/games/{game.pk}/")
    assert replay.status_code == 403 and b"still being played" in replay.content
    assert client.get(f"/tables/{theirs}/").status_code == 403
    assert client.get(f"/tables/{mine}/").status_code == 200
    review = client.post(f"/games/{game.pk}/review/")
    assert review.status_code == 302 and not hasattr(game, "review")
    assert not replay_context(game, 1, [], alice.pk)["may_request_review"]

    _play_out(theirs)
    assert duplicate.deal_finished_everywhere(hand) and duplicate.review_allowed(game)
    view = presenters.seat_view(selectors.load_snapshot(mine), seat)
    assert view["seed"] == state.seed and len(view["hands"]) == 4
    assert client.get(f"/games/{game.pk}/").status_code == 200
    assert replay_context(game, 1, [], alice.pk)["may_request_review"]
    assert services.advance(tournament_id=t.pk)
    assert ChipLedger.objects.filter(tournament=t, kind=ChipLedger.Kind.HAND).exists()


def test_an_entrant_out_of_the_event_still_cannot_watch_a_live_deal(db):
    carol = make_player("carol", "Carol")
    t = _duplicate_event(bots=8)
    # carol was knocked out earlier: an entrant, seated nowhere
    Entry.objects.create(tournament=t, user=carol, status=Entry.Status.OUT, place=9)
    table_id = TournamentTable.objects.filter(tournament=t).first().table_id
    assert duplicate.watch_refused(table_id, carol)
    stranger = make_player("dave", "Dave")
    assert duplicate.watch_refused(table_id, stranger) is None  # not an entrant
    client = Client()
    client.force_login(carol)
    response = client.get(f"/tables/{table_id}/")
    assert response.status_code == 403 and b"other tables" in response.content


def test_the_round_end_writes_each_players_duplicate_score(db):
    t = _duplicate_event(starting_chips=100_000)
    for table_id in TournamentTable.objects.filter(tournament=t).values_list("table_id", flat=True):
        _play_out(table_id)
    assert services.advance(tournament_id=t.pk)
    deals = list(DuplicateDeal.objects.filter(tournament=t, round=1))
    assert len(deals) == 2 and all(d.played for d in deals)
    by_seat: dict[int, list[tuple[int, int]]] = {}
    for deal in deals:
        for seat, entry_id, score in deal.scores:
            by_seat.setdefault(seat, []).append((entry_id, score))
    scores = dict(Entry.objects.filter(tournament=t).values_list("pk", "duplicate_score"))
    for lines in by_seat.values():
        (a, sa), (b, sb) = lines
        assert scores[a] == pytest.approx((sa - sb) / 2) and scores[b] == -scores[a]
    # written again (round_finish is safe to repeat): nothing is counted twice
    services.round_finish(tournament=Tournament.objects.get(pk=t.pk))
    assert dict(Entry.objects.filter(tournament=t).values_list("pk", "duplicate_score")) == scores


def test_a_duplicate_event_plays_to_one_winner_with_chips_conserved(db):
    t = _duplicate_event(bots=12, starting_chips=300)
    t = drive(t)
    assert t.status == Tournament.Status.FINISHED
    entries = list(Entry.objects.filter(tournament=t))
    assert sum(e.chips for e in entries) == 12 * 300
    assert [e.place for e in entries].count(1) == 1
    assert abs(sum(e.duplicate_score for e in entries)) < 0.05 * t.round
    rounds = set(DuplicateDeal.objects.filter(tournament=t).values_list("round", flat=True))
    assert rounds == set(range(1, t.round + 1))


def test_duplicate_deals_are_refused_outside_multi_table_tourneys(db):
    t = make_tournament(duplicate=True, format=Tournament.Format.STT, seats_per_table=2)
    enter(t, bot_players(2))
    with pytest.raises(TournamentError) as refused:
        services.start(tournament_id=t.pk)
    assert refused.value.code == "invalid_duplicate"
    t.refresh_from_db()
    assert t.status == Tournament.Status.REGISTRATION and not t.tables.exists()


def test_a_game_ending_while_its_deal_is_live_is_rated_only_once_the_round_is_scored(
    db, monkeypatch, django_capture_on_commit_callbacks
):
    """Its result rows (the public player page's recent games, totals and best hand) would
    tell the tables still playing how the deal went: the rating waits for the deal."""
    from games import tasks
    from games.models import GameResult
    from games.ratings import ratings

    rated: list[int] = []
    monkeypatch.setattr(tasks.rate_game, "delay", lambda game_id: rated.append(game_id))
    alice = make_player("alice", "Alice")
    t = _duplicate_event(people=[alice], bots=7)
    mine = _table_of(alice)
    (theirs,) = set(
        TournamentTable.objects.filter(tournament=t).values_list("table_id", flat=True)
    ) - {mine}
    _play_out(theirs)
    game = Game.objects.filter(table_id=theirs).latest("number")
    assert game.status == Game.Status.FINISHED
    assert ratings.rate_game(game.pk) is False  # the game_finished task's call
    assert not GameResult.objects.filter(game=game).exists()
    player = Seat.objects.filter(table_id=theirs).select_related("user").first().user
    client = Client()
    client.force_login(alice)
    page = client.get(f"/players/{player.display_name}/").content.decode()
    assert "No finished games yet" in page

    _play_out(mine)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.advance(tournament_id=t.pk)
    games = set(
        DuplicateDeal.objects.filter(tournament=t, round=1).values_list("game_id", flat=True)
    )
    assert set(rated) == games and game.pk in games
    for game_id in rated:
        ratings.rate_game(game_id)
    assert GameResult.objects.filter(game=game).count() == 4
    assert "No finished games yet" not in client.get(f"/players/{player.display_name}/").text
