"""Tournament notices: ``notify`` stores and sends; the events that call it; the lobby list."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts import sockets
from accounts.models import Notice
from tests.tournaments.conftest import bot_players, drive, enter, make_tournament
from tournaments import announce, notices, services
from tournaments.models import Entry, Tournament, TournamentTable


def away(user) -> None:
    """A bot covers ``user``'s seat (they are not online), so the bot driver plays it."""
    from games.models import Seat

    Seat.objects.filter(user=user).update(autoplay=True)


@pytest.fixture
def sent(monkeypatch):
    """The live sends (group, event), as the channel layer would get them after commit."""
    out: list[tuple[str, dict]] = []
    monkeypatch.setattr(sockets, "_send", lambda group, event: out.append((group, event)))
    return out


def test_a_notice_is_stored_and_sent_to_the_players_group_after_commit(
    db, alice, sent, django_capture_on_commit_callbacks
):
    t = make_tournament()
    with django_capture_on_commit_callbacks(execute=True):
        notice = notices.notify(
            alice.pk, "break", "Break for 5 minutes.", f"/tournaments/{t.pk}/lobby/"
        )
        assert sent == []  # nothing leaves before the transaction commits
    assert notice is not None and notice.topic == f"tournament-{t.pk}"
    [(group, event)] = sent
    assert group == sockets.user_group(alice.pk)
    assert event["type"] == "account.notice"
    assert event["notice"] | {"at": None} == {
        "id": notice.pk, "kind": "break", "text": "Break for 5 minutes.",
        "url": f"/tournaments/{t.pk}/lobby/", "topic": f"tournament-{t.pk}",
        "title": "Break", "follow": False, "tournament": t.pk, "at": None,
    }  # fmt: skip


def test_a_rolled_back_change_sends_and_keeps_no_notice(db, alice, sent):
    with pytest.raises(RuntimeError), transaction.atomic():
        notices.notify(alice.pk, "moved", "You were moved to table 5.")
        raise RuntimeError("the rebalance failed")
    assert sent == [] and not Notice.objects.exists()


@pytest.mark.parametrize(
    ("kind", "text", "url", "message"),
    [
        ("party", "Hello", None, "Unknown notice kind"),
        ("break", "   ", None, "needs a text"),
        ("break", "x" * 201, None, "at most 200"),
        ("break", "Go", "https://elsewhere.example/", "page of this site"),
        ("break", "Go", "//elsewhere.example/", "page of this site"),
        ("break", "Go", "javascript:alert(1)", "page of this site"),
    ],
)
def test_bad_notices_are_refused_with_a_reason_and_nothing_is_kept(
    db, alice, sent, kind, text, url, message
):
    with pytest.raises(notices.NoticeError, match=message):
        notices.notify(alice.pk, kind, text, url)
    assert not Notice.objects.exists() and sent == []


def test_a_keyed_notice_goes_out_once(db, alice):
    first = notices.notify(alice.pk, "starting", "Soon.", key="t1-starting")
    again = notices.notify(alice.pk, "starting", "Soon.", key="t1-starting")
    assert first is not None and again is None
    assert Notice.objects.filter(user=alice).count() == 1


def test_the_tournament_is_found_from_a_table_link(db, alice):
    t = make_tournament(seats_per_table=2)
    enter(t, bot_players(4))
    services.start(tournament_id=t.pk, rng=random.Random(1))
    table = TournamentTable.objects.filter(tournament=t).first()
    notice = notices.notify(alice.pk, "break", "Break.", f"/tables/{table.table_id}/")
    assert notice.topic == notices.topic(t.pk)
    assert notices.notify(alice.pk, "break", "Break.", "/rules/").topic == ""


def test_the_start_tells_each_player_their_table_and_bots_nothing(db, alice, bob):
    t = make_tournament(name="Winter cup", seats_per_table=2)
    services.register(tournament_id=t.pk, user=alice)
    services.register(tournament_id=t.pk, user=bob)
    enter(t, bot_players(2))
    services.start(tournament_id=t.pk, rng=random.Random(3))
    for user in (alice, bob):
        entry = Entry.objects.select_related("table").get(tournament=t, user=user)
        [notice] = Notice.objects.filter(user=user)
        assert notice.kind == "seated"
        assert notice.text == f"Winter cup: you are seated at table {entry.table.number}."
        assert notice.url == reverse("table_detail", args=[entry.table.table_id])
    assert Notice.objects.count() == 2


def test_a_single_table_start_seats_the_player_at_table_1(db, alice):
    t = make_tournament(format=Tournament.Format.STT, seats_per_table=3, min_entrants=1)
    services.register(tournament_id=t.pk, user=alice)
    services.start(tournament_id=t.pk)
    [notice] = Notice.objects.filter(user=alice)
    assert notice.kind == "seated" and "table 1" in notice.text
    assert notice.url.startswith("/tables/")


def test_a_player_moved_by_a_rebalance_is_told_their_new_table(db, alice):
    t = make_tournament(seats_per_table=2, starting_chips=300)
    services.register(tournament_id=t.pk, user=alice)
    enter(t, bot_players(3))
    services.start(tournament_id=t.pk, rng=random.Random(3))
    mine = Entry.objects.get(tournament=t, user=alice)
    other = TournamentTable.objects.filter(tournament=t).exclude(pk=mine.table_id).get()
    mine.table = other
    announce.moved(t, [mine])
    notice = Notice.objects.filter(user=alice, kind="moved").get()
    assert notice.text == f"{t.name}: you were moved to table {other.number}."
    assert notice.url == reverse("table_detail", args=[other.table_id])


def test_a_table_broken_mid_event_tells_its_players_where_they_went(db, alice):
    from games.services import tables as tables_service

    t = make_tournament(seats_per_table=2, starting_chips=300)
    services.register(tournament_id=t.pk, user=alice)
    enter(t, bot_players(3))
    services.start(tournament_id=t.pk, rng=random.Random(3))
    away(alice)
    mine = Entry.objects.get(tournament=t, user=alice).table
    tables_service.table_abort(table_id=mine.table_id, reason="Staff test")
    drive(t)
    moved = Notice.objects.filter(user=alice, kind="moved").first()
    assert moved is not None and "you were moved to table" in moved.text


def test_the_end_tells_each_player_their_place_and_trophies(db, alice):
    t = make_tournament(name="Spring open", seats_per_table=2, prizes=[50, 30, 20, 10])
    services.register(tournament_id=t.pk, user=alice)
    enter(t, bot_players(3))
    services.start(tournament_id=t.pk, rng=random.Random(2))
    away(alice)
    drive(t)
    entry = Entry.objects.get(tournament=t, user=alice)
    [notice] = Notice.objects.filter(user=alice, kind="finished")
    assert notice.text == announce.result_text(t, entry)
    assert str(entry.trophies) in notice.text
    assert notice.url == reverse("tournaments:detail", args=[t.pk])


@pytest.mark.parametrize(
    ("place", "trophies", "text"),
    [
        (4, 30, "You finished 4th in Cup and won 30 trophies."),
        (1, 50, "You won Cup and won 50 trophies!"),
        (2, 1, "You finished 2nd in Cup and won 1 trophy."),
        (11, 0, "You finished 11th in Cup."),
        (23, 0, "You finished 23rd in Cup."),
    ],
)
def test_the_result_says_the_place_and_the_trophies(place, trophies, text):
    t = Tournament(name="Cup")
    e = Entry(place=place, trophies=trophies, status=Entry.Status.OUT)
    assert announce.result_text(t, e) == text


def test_the_sweep_reminds_entrants_two_minutes_before_the_start_once(db, alice):
    now = timezone.now()
    t = make_tournament(name="Night cup", scheduled_start=now + timedelta(minutes=5))
    services.register(tournament_id=t.pk, user=alice)
    enter(t, bot_players(3))
    assert services.sweep(now=now)["reminded"] == 0  # five minutes ahead: not yet
    assert services.sweep(now=now + timedelta(minutes=3))["reminded"] == 1
    assert services.sweep(now=now + timedelta(minutes=4))["reminded"] == 0
    [notice] = Notice.objects.filter(user=alice)
    assert notice.kind == "starting" and notice.text == "Night cup starts in 2 minutes."
    assert notice.url == reverse("tournaments:lobby", args=[t.pk])


def test_the_lobby_lists_the_tournaments_notices_and_marks_them_read(db, alice, alice_client):
    t = make_tournament(name="Winter cup", seats_per_table=2)
    services.register(tournament_id=t.pk, user=alice)
    enter(t, bot_players(3))
    services.start(tournament_id=t.pk, rng=random.Random(3))
    notices.notify(alice.pk, "break", "Break for 5 minutes.", tournament_id=t.pk)
    notices.notify(alice.pk, "break", "Another event's break.", tournament_id=t.pk + 99)
    page = alice_client.get(reverse("tournaments:lobby", args=[t.pk])).content.decode()
    assert 'id="my-notices"' in page
    assert "Break for 5 minutes." in page and "you are seated at table" in page
    assert "Another event" not in page
    assert page.count('class="visually-hidden">(new)') == 2
    assert not Notice.objects.filter(user=alice, topic=notices.topic(t.pk), read_at=None).exists()
    assert Notice.objects.filter(user=alice, read_at=None).count() == 1  # the other event's
    again = alice_client.get(reverse("tournaments:lobby", args=[t.pk])).content.decode()
    assert "Break for 5 minutes." in again and "(new)" not in again


def test_a_whole_field_is_told_in_one_batch_after_commit(
    db, alice, bob, monkeypatch, django_capture_on_commit_callbacks
):
    from games import broadcast as games_broadcast

    batches: list[list] = []

    async def flush(messages):
        batches.append(list(messages))

    monkeypatch.setattr(games_broadcast, "flush", flush)
    t = make_tournament()
    with django_capture_on_commit_callbacks(execute=True):
        made = notices.notify_many(
            [(alice.pk, "You won.", None), (bob.pk, "You finished 2nd.", None)],
            "finished",
            tournament_id=t.pk,
            key="t-end",
        )
        assert batches == []
    assert len(made) == 2
    [batch] = batches
    assert [group for group, _e in batch] == [
        sockets.user_group(alice.pk),
        sockets.user_group(bob.pk),
    ]
    assert batch[1][1]["notice"]["text"] == "You finished 2nd."
    # once per player: a second run tells nobody again
    assert (
        notices.notify_many(
            [(alice.pk, "You won.", None)], "finished", tournament_id=t.pk, key="t-end"
        )
        == []
    )


def test_one_bad_notice_in_a_batch_refuses_the_batch(db, alice, bob):
    with pytest.raises(notices.NoticeError):
        notices.notify_many(
            [(alice.pk, "Fine.", None), (bob.pk, "Bad link.", "https://elsewhere.example/")],
            "moved",
            tournament_id=1,
        )
    assert not Notice.objects.exists()


def test_a_late_entrant_is_told_the_table_they_will_sit_at(db, alice):
    t = make_tournament(name="Winter cup", seats_per_table=3, late_registration_level=2)
    enter(t, bot_players(4))  # two tables of two: room at both
    services.start(tournament_id=t.pk, rng=random.Random(3))
    services.register(tournament_id=t.pk, user=alice)
    entry = Entry.objects.select_related("table").get(tournament=t, user=alice)
    [notice] = Notice.objects.filter(user=alice)
    assert notice.kind == "seated"
    assert notice.text == f"Winter cup: you are seated at table {entry.table.number}."
    assert notice.url == reverse("table_detail", args=[entry.table.table_id])


def test_a_late_entrant_who_waited_is_seated_not_moved_when_a_seat_frees(db, alice, bob):
    t = make_tournament(name="Winter cup", seats_per_table=2, late_registration_level=2)
    enter(t, bot_players(4))  # two full tables of two
    services.start(tournament_id=t.pk, rng=random.Random(3))
    services.register(tournament_id=t.pk, user=alice)
    waited = Entry.objects.get(tournament=t, user=alice)
    assert waited.table is None and not Notice.objects.filter(user=alice).exists()
    table = TournamentTable.objects.filter(tournament=t).first()
    Entry.objects.filter(pk=waited.pk).update(table=table)  # a seat freed at a boundary
    moved_player = Entry.objects.filter(tournament=t, user__is_bot=True).first()
    Entry.objects.filter(pk=moved_player.pk).update(user=bob)  # a person already seated
    announce.moved_at_boundary(t, [waited.pk, moved_player.pk], live=True)
    assert (
        Notice.objects.get(user=alice).text
        == f"Winter cup: you are seated at table {table.number}."
    )
    assert "you were moved to" in Notice.objects.get(user=bob).text


def test_registered_players_are_told_when_the_organizer_cancels(db, alice):
    t = make_tournament(name="Winter cup")
    services.register(tournament_id=t.pk, user=alice)
    enter(t, bot_players(1))
    services.cancel(tournament_id=t.pk, notice="Cancelled by the organizer.")
    [notice] = Notice.objects.all()  # the bot is told nothing
    assert (notice.user, notice.kind) == (alice, "cancelled")
    assert notice.text == "Winter cup is cancelled. Cancelled by the organizer."
    assert notice.url == reverse("tournaments:detail", args=[t.pk])


def test_a_single_tables_players_are_told_when_its_stopped_table_cancels_it(db, alice):
    t = make_tournament(format=Tournament.Format.STT, seats_per_table=2, min_entrants=1)
    services.register(tournament_id=t.pk, user=alice)
    services.start(tournament_id=t.pk)
    only = TournamentTable.objects.get(tournament=t)
    services.table_stop(tournament_id=t.pk, table_id=only.pk)
    services.advance(tournament_id=t.pk)
    notice = Notice.objects.get(user=alice, kind="cancelled")
    assert notice.text.startswith(f"{t.name} is cancelled. The table was stopped")
