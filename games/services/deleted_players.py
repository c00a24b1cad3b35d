"""Forgetting a deleted account in what games stored by value (names in game rows, default table
names) and in its ratings and totals.
"""

from __future__ import annotations

from django.db import transaction

from games.models import Game, Table
from games.services.tables import default_table_name


def player_forget(*, user_id: int, old_name: str, anonymous: str) -> None:
    """Remove a deleted account's name from what games stored by value, in the deletion's
    transaction (accounts.services.account_delete).

    Game rows keep each seat's name as it was at the start (so that a renamed player's past
    games read as they were played); default table names ("Ivy's table") were made from the
    host's name. Both now read ``anonymous``. The account's ratings, results and period
    totals go too: the leaderboards never show a deleted account, and rating a game that
    finishes later writes none for it (games.ratings.ratings skips deleted accounts).
    """
    from games.models import GameResult, PlayerPeriodStats, Rating

    games = Game.objects.only("players")
    if transaction.get_connection().vendor == "postgresql":
        games = games.filter(players__contains=[{"user": user_id}])
    changed = []
    for game in games.iterator(chunk_size=2000):
        touched = False
        for player in game.players:
            if player.get("user") == user_id and not player.get("bot"):
                player["name"] = anonymous
                touched = True
        if touched:
            changed.append(game)
    Game.objects.bulk_update(changed, ["players"], batch_size=500)
    Table.objects.filter(host_id=user_id, name=default_table_name(old_name)).update(
        name=default_table_name(anonymous)
    )
    for model in (GameResult, PlayerPeriodStats, Rating):
        model.objects.filter(user_id=user_id).delete()
