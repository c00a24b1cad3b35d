"""Public pages: leaderboards (HTML and JSON) and player profiles. No login needed.

Bad parameters answer 404 with the reason, never a 500. The JSON is cached for a minute,
in the shared cache and by clients, since a board changes only when a game is rated.
"""

from __future__ import annotations

import hashlib

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.views.decorators.http import require_GET

from games import game_reviews
from games.ratings import leaderboards, ratings, stats

JSON_CACHE_SECONDS = 60


def not_found(request: HttpRequest, reason: str) -> HttpResponse:
    """A 404 that says what was wrong (the site's generic 404 page cannot)."""
    return render(request, "games/leaderboards/not_found.html", {"reason": reason}, status=404)


@require_GET
def leaderboard_index(request: HttpRequest) -> HttpResponse:
    return redirect("leaderboard", board="rating")


@require_GET
def leaderboard(request: HttpRequest, board: str) -> HttpResponse:
    try:
        query = leaderboards.parse_query(board, request.GET)
        page = leaderboards.board_page(query)
    except leaderboards.BadRequest as exc:
        return not_found(request, str(exc))
    me = request.user.pk if request.user.is_authenticated else None
    params = request.GET.copy()
    params.pop("page", None)
    return render(
        request,
        "games/leaderboards/board.html",
        {
            "query": query,
            "page": page,
            "rows": leaderboards.rows(query, page),
            "me": me,
            "page_params": params.urlencode(),
            "boards": leaderboards.BOARDS,
            "board_title": leaderboards.BOARDS[query.board],
            "families": [(f, ratings.FAMILY_TITLES[f]) for f in ratings.FAMILIES],
            "windows": leaderboards.WINDOWS,
            "min_games": leaderboards.MIN_GAMES_FOR_AVERAGE,
            "provisional_games": ratings.PROVISIONAL_GAMES,
        },
    )


@require_GET
def leaderboard_json(request: HttpRequest, board: str) -> JsonResponse:
    try:
        query = leaderboards.parse_query(board, request.GET)
    except leaderboards.BadRequest as exc:
        return JsonResponse({"error": str(exc)}, status=404)
    key = ":".join(
        [
            "leaderboard",
            query.board,
            query.family,
            query.window,
            str(query.page),
            str(query.per_page),
            hashlib.sha1(query.search.lower().encode()).hexdigest(),
        ]
    )
    data = cache.get(key)
    if data is None:
        try:
            page = leaderboards.board_page(query)
        except leaderboards.BadRequest as exc:
            return JsonResponse({"error": str(exc)}, status=404)
        data = {
            "board": query.board,
            "family": query.family if query.uses_family else None,
            "window": query.window if query.uses_window else None,
            "search": query.search,
            "page": page.number,
            "pages": page.paginator.num_pages,
            "count": page.paginator.count,
            "per_page": query.per_page,
            "rows": [
                {k: v for k, v in row.items() if k != "user_id"}
                for row in leaderboards.rows(query, page)
            ],
        }
        cache.set(key, data, JSON_CACHE_SECONDS)
    response = JsonResponse(data)
    response["Cache-Control"] = f"public, max-age={JSON_CACHE_SECONDS}"
    return response


def tournaments_fragment_url(name: str) -> str | None:
    """The tournaments app's results fragment for a player, when that app provides one."""
    try:
        return reverse("tournaments:player-results", kwargs={"name": name})
    except NoReverseMatch:
        return None


@require_GET
def player_detail(request: HttpRequest, name: str) -> HttpResponse:
    try:
        user = stats.public_player(name)
        profile = stats.profile(user, family=request.GET.get("family") or None)
    except Http404 as exc:
        return not_found(request, str(exc))
    return render(
        request,
        "games/players/detail.html",
        {
            "player": user,
            "profile": profile,
            "chart_title": ratings.FAMILY_TITLES.get(profile.chart_family, profile.chart_family),
            "families": [(f, ratings.FAMILY_TITLES[f]) for f in ratings.FAMILIES],
            "tournaments_url": tournaments_fragment_url(user.display_name),
            "provisional_games": ratings.PROVISIONAL_GAMES,
            "accuracy_charts": game_reviews.accuracy_charts(user.pk, user.display_name),
        },
    )
