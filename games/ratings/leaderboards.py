"""Leaderboard selectors: one board, one family or window, one page, a fixed number of queries.

Every board reads a denormalised table (``Rating`` or ``PlayerPeriodStats``) through an
index whose order is the board's order, so a page costs one COUNT (cached for a minute) and
one index-ordered LIMIT query whatever its size. The JSON endpoint and the HTML page share
these functions.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.core.cache import cache
from django.core.paginator import EmptyPage, Page, PageNotAnInteger, Paginator
from django.db.models import QuerySet
from django.utils import timezone

from games.models import PlayerPeriodStats, Rating
from games.ratings import ratings

BOARDS: dict[str, str] = {
    "rating": "Rating",
    "wins": "Games won",
    "average": "Average hand score",
    "bots": "Bots",
}
WINDOWS: dict[str, str] = {"all": "All time", "month": "This month", "week": "This week"}
MIN_GAMES_FOR_AVERAGE = 5
PAGE_SIZE = 25
MAX_PAGE_SIZE = 100
MAX_QUERY = 40
COUNT_CACHE_SECONDS = 60


class BadRequest(ValueError):
    """A board, family, window or page that does not exist; the message says why."""


@dataclass(frozen=True)
class BoardQuery:
    board: str
    family: str = "standard"
    window: str = "all"
    search: str = ""
    page: int = 1
    per_page: int = PAGE_SIZE

    @property
    def uses_family(self) -> bool:
        return self.board in {"rating", "bots"}

    @property
    def uses_window(self) -> bool:
        return self.board in {"wins", "average"}


def parse_query(board: str, params: Any) -> BoardQuery:
    """Validate a board's parameters (a QueryDict or dict); raise BadRequest with a reason."""
    if board not in BOARDS:
        raise BadRequest(f"There is no {board!r} leaderboard; choose one of: {', '.join(BOARDS)}.")
    family = params.get("family") or "standard"
    if family not in ratings.FAMILIES:
        raise BadRequest(
            f"There is no preset family {family!r}; choose one of: {', '.join(ratings.FAMILIES)}."
        )
    window = params.get("window") or "all"
    if window not in WINDOWS:
        raise BadRequest(f"There is no window {window!r}; choose one of: {', '.join(WINDOWS)}.")
    search = (params.get("q") or "").strip()[:MAX_QUERY]
    page = _positive_int(params.get("page"), 1, "page")
    per_page = min(_positive_int(params.get("per_page"), PAGE_SIZE, "per_page"), MAX_PAGE_SIZE)
    return BoardQuery(board, family, window, search, page, per_page)


def _positive_int(raw: Any, default: int, name: str) -> int:
    if raw in (None, ""):
        return default
    try:
        value = int(raw)
    except (TypeError, ValueError):
        raise BadRequest(f"The {name} must be a whole number.") from None
    if value < 1:
        raise BadRequest(f"The {name} must be 1 or more.")
    return value


def window_start(window: str, now: dt.datetime | None = None) -> dt.date:
    """The first day of the current calendar week or month in the site's time zone."""
    periods = dict(ratings.period_starts(now or timezone.now()))
    return periods[window]


def board_queryset(query: BoardQuery, now: dt.datetime | None = None) -> QuerySet[Any]:
    if query.uses_family:
        pool = ratings.BOTS if query.board == "bots" else ratings.HUMANS
        qs: QuerySet[Any] = Rating.objects.filter(
            family=query.family,
            pool=pool,
            user__is_bot=query.board == "bots",
            user__deleted_at__isnull=True,
        ).order_by("-ordinal", "user_id")
    else:
        qs = PlayerPeriodStats.objects.filter(
            period=query.window,
            start=window_start(query.window, now),
            user__is_bot=False,
            user__deleted_at__isnull=True,
        )
        if query.board == "wins":
            qs = qs.filter(wins__gt=0).order_by("-wins", "user_id")
        else:
            qs = qs.filter(games__gte=MIN_GAMES_FOR_AVERAGE).order_by("-avg_hand", "user_id")
    if query.search:
        qs = qs.filter(user__display_name__icontains=query.search)
    return qs.select_related("user").only(
        *_fields(query), "user__id", "user__display_name", "user__is_bot", "user__deleted_at"
    )


def _fields(query: BoardQuery) -> tuple[str, ...]:
    if query.uses_family:
        return ("id", "user_id", "ordinal", "mu", "sigma", "games")
    return ("id", "user_id", "games", "wins", "hands", "avg_hand", "best_hand")


class CachedCountPaginator(Paginator):  # type: ignore[type-arg]
    """The COUNT is the dearest query of a board page (it joins every row of the board), and
    the number of rows changes only when a game is rated: keep it for a minute."""

    def __init__(self, object_list: Any, per_page: int, *, count_key: str) -> None:
        super().__init__(object_list, per_page)
        self.count_key = count_key

    @cached_property
    def count(self) -> int:
        found = cache.get(self.count_key)
        if found is None:
            found = self.object_list.count()
            cache.set(self.count_key, found, COUNT_CACHE_SECONDS)
        return int(found)


def board_page(query: BoardQuery, now: dt.datetime | None = None) -> Page[Any]:
    """One page of a board (two queries: the count, cached for a minute, and the rows).
    Raises BadRequest when the page is past the end."""
    start = window_start(query.window, now) if query.uses_window else None
    key = (
        "leaderboard-count:"
        + hashlib.sha1(
            repr((query.board, query.family, query.window, start, query.search.lower())).encode()
        ).hexdigest()
    )
    paginator = CachedCountPaginator(board_queryset(query, now), query.per_page, count_key=key)
    try:
        return paginator.page(query.page)
    except (EmptyPage, PageNotAnInteger):
        raise BadRequest(
            f"Page {query.page} is past the end: this board has {paginator.num_pages} page(s)."
        ) from None


def rows(query: BoardQuery, page: Page[Any]) -> list[dict[str, Any]]:
    """The page's rows as plain data (the JSON endpoint's and the template's)."""
    out = []
    for offset, item in enumerate(page.object_list):
        row: dict[str, Any] = {
            "rank": page.start_index() + offset,
            "player": item.user.display_name,
            "user_id": item.user_id,
            "games": item.games,
        }
        if query.uses_family:
            row["rating"] = round(item.ordinal, 1)
            row["display_rating"] = ratings.display_rating(item.ordinal)
            row["mu"] = round(item.mu, 3)
            row["sigma"] = round(item.sigma, 3)
            row["provisional"] = ratings.is_provisional(item.games)
        elif query.board == "wins":
            row["wins"] = item.wins
            row["win_rate"] = round(item.wins / item.games, 3) if item.games else 0.0
        else:
            row["average_hand"] = round(item.avg_hand, 1)
            row["hands"] = item.hands
            row["best_hand"] = item.best_hand
        out.append(row)
    return out
