"""Which tournament games the game review waits to be asked for (tournaments.review_policy)."""

from __future__ import annotations

import pytest

from games import review_requests
from games.models import Table
from tests.games.test_game_reviews import finished_game
from tournaments import duplicate
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


@pytest.mark.parametrize(
    ("finished_everywhere", "policy"), [(False, "not_yet"), (True, "on_request")]
)
def test_a_duplicate_deal_is_reviewed_on_request_once_every_table_has_finished_it(
    alice, monkeypatch, finished_everywhere, policy
):
    """The duplicate format's own predicate decides (how it works: test_duplicate.py)."""
    asked = []
    monkeypatch.setattr(
        duplicate, "review_allowed", lambda game: asked.append(game.pk) or finished_everywhere
    )
    event = make_tournament(format=Tournament.Format.MTT, duplicate=True)
    game = _tournament_game(alice, event)
    assert review_requests.policy(game) == policy
    assert asked == [game.pk]


def test_a_game_at_no_tournament_table_is_reviewed_by_itself(alice):
    from tests.games.test_game_reviews import finished_game

    assert review_requests.policy(finished_game(alice, hands=1)) == review_requests.AUTO
