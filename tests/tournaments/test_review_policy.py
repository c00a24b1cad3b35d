"""Which tournament games the game review waits to be asked for (tournaments.review_policy)."""

from __future__ import annotations

import pytest

from games import review_requests
from games.models import Table
from tests.games.test_game_reviews import finished_game
from tournaments import review_policy
from tournaments.models import Tournament, TournamentTable

from .conftest import make_tournament

pytestmark = pytest.mark.django_db


def _tournament_game(host, tournament, *, number=1, round_=1, settled=1):
    game = finished_game(host, hands=1)
    Table.objects.filter(pk=game.table_id).update(managed=True)
    TournamentTable.objects.create(
        tournament=tournament,
        number=number,
        table_id=game.table_id,
        round=round_,
        settled_round=settled,
    )
    return game


def test_a_multi_table_rounds_game_is_reviewed_on_request(alice):
    game = _tournament_game(alice, make_tournament(format=Tournament.Format.MTT))
    assert review_requests.policy(game) == review_requests.ON_REQUEST


@pytest.mark.parametrize("kind", [Tournament.Format.STT, Tournament.Format.QUICK])
def test_a_single_table_events_game_is_reviewed_by_itself(alice, kind):
    game = _tournament_game(alice, make_tournament(format=kind))
    assert review_requests.policy(game) == review_requests.AUTO


def test_a_duplicate_deal_waits_until_every_table_has_finished_it(alice, bob, monkeypatch):
    monkeypatch.setattr(review_policy, "is_duplicate", lambda tournament: True)
    event = make_tournament(format=Tournament.Format.MTT, status=Tournament.Status.RUNNING)
    game = _tournament_game(alice, event, round_=2, settled=2)
    behind = _tournament_game(bob, event, number=2, round_=2, settled=1)
    assert review_policy.local_review_allowed(game) is False
    assert review_requests.policy(game) == review_requests.NOT_YET
    TournamentTable.objects.filter(table_id=behind.table_id).update(settled_round=2)
    assert review_policy.local_review_allowed(game) is True
    assert review_requests.policy(game) == review_requests.ON_REQUEST


def test_a_finished_duplicate_event_releases_every_review(alice, bob, monkeypatch):
    monkeypatch.setattr(review_policy, "is_duplicate", lambda tournament: True)
    event = make_tournament(format=Tournament.Format.MTT, status=Tournament.Status.FINISHED)
    game = _tournament_game(alice, event, round_=2, settled=2)
    _tournament_game(bob, event, number=2, round_=2, settled=1)
    assert review_policy.local_review_allowed(game) is True


def test_the_duplicate_formats_own_predicate_is_asked_first(alice, monkeypatch):
    import sys
    import types

    asked = []
    module = types.ModuleType("tournaments.duplicate")
    module.review_allowed = lambda game: asked.append(game.pk) or False
    monkeypatch.setitem(sys.modules, "tournaments.duplicate", module)
    monkeypatch.setattr(review_policy, "is_duplicate", lambda tournament: True)
    game = _tournament_game(alice, make_tournament(format=Tournament.Format.MTT))
    assert review_requests.policy(game) == review_requests.NOT_YET
    assert asked == [game.pk]


def test_main_has_no_duplicate_format_so_nothing_is_held_back(alice):
    game = _tournament_game(alice, make_tournament(format=Tournament.Format.MTT))
    assert not review_policy.is_duplicate(Tournament.objects.get())
    assert review_policy.review_allowed(game) is True
