"""The public player page's data: a fixed handful of queries whatever the history's length.

Everything comes from ``GameResult`` (one row per account and finished game, indexed by
user and time) and ``Rating``; no game or hand rows are read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Max, Q, Sum
from django.db.models.functions import Lower
from django.http import Http404

from accounts.models import User
from games import charts, ratings
from games.models import GameResult, Rating

RECENT_GAMES = 20
CHART_POINTS = 200


def public_player(name: str) -> User:
    """The account shown at /players/<name>/ (any letter case). Deleted accounts are gone."""
    user = (
        User.objects.annotate(name_lower=Lower("display_name"))
        .filter(name_lower=name.lower(), deleted_at__isnull=True, is_active=True)
        .only("id", "display_name", "is_bot", "date_joined")
        .first()
    )
    if user is None:
        raise Http404("There is no player with that name.")
    return user


@dataclass(frozen=True)
class Profile:
    user: User
    ratings: list[dict[str, Any]]
    chart_family: str
    chart: Any
    stats: dict[str, Any]
    recent: list[Any]


def profile(user: User, *, family: str | None = None) -> Profile:
    """Five queries: ratings, totals, favourite preset, recent games, the chart's history."""
    pool = ratings.BOTS if user.is_bot else ratings.HUMANS
    rows = list(Rating.objects.filter(user=user).order_by("family", "pool"))
    shown = [
        {
            "family": r.family,
            "title": ratings.FAMILY_TITLES.get(r.family, r.family),
            "pool": r.pool,
            "rating": round(r.ordinal, 1),
            "games": r.games,
            "provisional": ratings.is_provisional(r.games),
        }
        for r in rows
        if r.pool == pool or not user.is_bot
    ]
    if family is not None and family not in ratings.FAMILIES:
        raise Http404("There is no such preset family.")
    own = [r for r in rows if r.pool == pool]
    if family is None:
        family = max(own, key=lambda r: (r.games, r.family)).family if own else "standard"
    results = GameResult.objects.filter(user=user)
    totals = results.aggregate(
        games=Count("id"),
        wins=Count("id", filter=Q(won=True)),
        hands=Sum("hands"),
        hand_points=Sum("hand_points"),
        best_hand=Max("best_hand"),
        best_total=Max("total"),
    )
    favourite = results.values("preset").annotate(n=Count("id")).order_by("-n", "preset").first()
    games = totals["games"] or 0
    stats = {
        "games": games,
        "wins": totals["wins"] or 0,
        "win_rate": round(100 * (totals["wins"] or 0) / games) if games else None,
        "average_hand": (
            round(ratings.average(totals["hand_points"] or 0, totals["hands"] or 0), 1)
            if totals["hands"]
            else None
        ),
        "best_hand": totals["best_hand"] if games else None,
        "best_total": totals["best_total"] if games else None,
        "favourite_preset": favourite["preset"] if favourite else None,
    }
    recent = list(
        results.select_related("game__table")
        .only(
            "id",
            "game_id",
            "preset",
            "pool",
            "rank",
            "won",
            "total",
            "ordinal_before",
            "ordinal_after",
            "finished_at",
            "game__id",
            "game__players",
            "game__table__id",
            "game__table__is_private",
        )
        .order_by("-finished_at", "-id")[:RECENT_GAMES]
    )
    history = list(
        results.filter(family=family, pool=pool, ordinal_after__isnull=False)
        .order_by("-finished_at", "-id")
        .values_list("ordinal_after", flat=True)[:CHART_POINTS]
    )
    history.reverse()
    title = ratings.FAMILY_TITLES.get(family, family)
    chart = charts.rating_chart(
        history, label=f"Rating of {user.display_name} in {title} over the last games"
    )
    return Profile(user, shown, family, chart, stats, recent)
