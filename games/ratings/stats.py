"""The public player page's data: a fixed handful of queries whatever the history's length.

Everything comes from denormalised rows kept by ``games.ratings.ratings``: ``Rating``, the "career"
``PlayerPeriodStats`` row and ``GameResult`` (one row per account and finished game, indexed by
user and time); no game or hand rows are read, and nothing is aggregated at request time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models.functions import Lower
from django.http import Http404

from accounts.models import User
from games.engine.presets import PLANNED_PRESETS, PRESETS
from games.models import GameResult, PlayerPeriodStats, Rating
from games.ratings import charts, ratings

RECENT_GAMES = 20
CHART_POINTS = 200


def preset_title(name: str) -> str:
    info = PRESETS.get(name) or PLANNED_PRESETS.get(name)
    return info.title if info is not None else name


def public_player(name: str) -> User:
    """The account shown at /players/<name>/ (any letter case). Deleted accounts are gone."""
    shown = User.objects.filter(deleted_at__isnull=True, is_active=True).only(
        "id", "display_name", "is_bot", "date_joined"
    )
    # The name as written first: SQLite's LOWER() folds ASCII letters only, so "Ωμέγα" never
    # equalled "ωμέγα" there and the page the site links to was a 404.
    user = shown.filter(display_name=name).first() or (
        shown.annotate(name_lower=Lower("display_name")).filter(name_lower=name.lower()).first()
    )
    if user is None:
        raise Http404(f"There is no player called {name!r}.")
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
    """Four queries: ratings, career totals, recent games, the chart's history."""
    pool = ratings.BOTS if user.is_bot else ratings.HUMANS
    rows = list(Rating.objects.filter(user=user).order_by("family", "pool"))
    shown = [
        {
            "family": r.family,
            "title": ratings.FAMILY_TITLES.get(r.family, r.family),
            "pool": r.pool,
            "rating": round(r.ordinal, 1),
            "display_rating": ratings.display_rating(r.ordinal),
            "games": r.games,
            "provisional": ratings.is_provisional(r.games),
        }
        for r in rows
        if r.pool == pool or not user.is_bot
    ]
    if family is not None and family not in ratings.FAMILIES:
        raise Http404(
            f"There is no preset family {family!r}; choose one of: {', '.join(ratings.FAMILIES)}."
        )
    own = [r for r in rows if r.pool == pool] or [r for r in rows if not user.is_bot]
    if family is None:
        family = max(own, key=lambda r: (r.games, r.family)).family if own else "standard"
    # A person whose only games had a bot seat is rated in the "bots" pool: chart that
    # rating rather than an empty "humans" one under a rating the page shows.
    pools = {r.pool for r in own if r.family == family}
    if pool not in pools and pools:
        pool = pools.pop()
    results = GameResult.objects.filter(user=user)
    career = (
        PlayerPeriodStats.objects.filter(
            user=user, period=ratings.CAREER, start=ratings.ALL_TIME_START
        ).first()
        or PlayerPeriodStats()
    )
    games = career.games
    favourite = max(career.presets.items(), key=lambda item: (item[1], item[0]), default=None)
    stats = {
        "games": games,
        "wins": career.wins,
        "win_rate": round(100 * career.wins / games) if games else None,
        "average_hand": (
            round(ratings.average(career.hand_points, career.hands), 1) if career.hands else None
        ),
        "best_hand": career.best_hand if games else None,
        "best_total": career.best_total if games else None,
        "favourite_preset": preset_title(favourite[0]) if favourite else None,
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
    history = [ratings.display_rating(value) for value in history]
    title = ratings.FAMILY_TITLES.get(family, family)
    chart = charts.rating_chart(
        history, label=f"Rating of {user.display_name} in {title} over the last games"
    )
    for result in recent:
        result.preset_title = preset_title(result.preset)
        result.display_rating = (
            ratings.display_rating(result.ordinal_after)
            if result.ordinal_after is not None
            else None
        )
    return Profile(user, shown, family, chart, stats, recent)
