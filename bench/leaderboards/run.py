"""Time every leaderboard and player page on a large seeded history (PostgreSQL).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/rummy_ratings \
        .venv/bin/python manage.py seed_history --players 10000 --games 200000
    DATABASE_URL=... .venv/bin/python -m bench.leaderboards.run --reps 60 --explain

Each page is requested in-process through Django's test client (URL routing, the view, the
queries, the template; no network), first once to warm up, then ``--reps`` times. It reports
p50/p95 server time and the number of queries. JSON endpoints are measured with the cache
cleared before every request, so the figures are for a cache miss. ``--explain`` prints
EXPLAIN ANALYZE of each board's page query.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time


def setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.test.utils import setup_test_environment

    setup_test_environment()


def pages() -> list[tuple[str, str]]:
    from django.db.models import Count

    from games.models import GameResult, Rating

    heavy = (
        GameResult.objects.values("user__display_name")
        .annotate(n=Count("id"))
        .order_by("-n")
        .first()
    )
    typical = Rating.objects.filter(pool="humans").order_by("games", "user_id")
    middle = typical[typical.count() // 2].user.display_name
    bot = Rating.objects.filter(pool="bots", user__is_bot=True).first()
    found = [
        ("rating board, page 1", "/leaderboards/rating/"),
        ("rating board, page 100", "/leaderboards/rating/?page=100"),
        ("rating board, 100 per page", "/leaderboards/rating/?per_page=100"),
        ("rating board, jokers family", "/leaderboards/rating/?family=jokers"),
        ("rating board, name search", "/leaderboards/rating/?q=player 12"),
        ("bots board", "/leaderboards/bots/"),
        ("wins, all time", "/leaderboards/wins/"),
        ("wins, this month", "/leaderboards/wins/?window=month"),
        ("wins, this week", "/leaderboards/wins/?window=week"),
        ("average hand, all time", "/leaderboards/average/"),
        ("average hand, this week", "/leaderboards/average/?window=week"),
        ("rating JSON (cache miss)", "/leaderboards/rating.json?per_page=100"),
        ("wins JSON (cache miss)", "/leaderboards/wins.json?window=month"),
        (f"player page, most games ({heavy['n']})", f"/players/{heavy['user__display_name']}/"),
        ("player page, median player", f"/players/{middle}/"),
    ]
    if bot is not None:
        found.append(("player page, a bot level", f"/players/{bot.user.display_name}/"))
    return found


def measure(path: str, reps: int) -> tuple[float, float, int, int]:
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()
    client.get(path)
    times = []
    queries = 0
    status = 0
    for _ in range(reps):
        cache.clear()
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            response = client.get(path)
            times.append((time.perf_counter() - start) * 1000)
        queries, status = len(captured), response.status_code
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    return statistics.median(times), p95, queries, status


def explain() -> None:
    from games.ratings import leaderboards

    for board, params in [
        ("rating", {}),
        ("rating", {"page": "100"}),
        ("bots", {}),
        ("wins", {"window": "week"}),
        ("average", {}),
    ]:
        query = leaderboards.parse_query(board, params)
        page = leaderboards.board_page(query)
        qs = page.paginator.object_list[page.start_index() - 1 : page.end_index()]
        print(f"\n### {board} {params}\n\n```")
        print(qs.explain(analyze=True))
        print("```")
    from django.core.paginator import Paginator
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for board, params in [("rating", {}), ("wins", {"window": "month"})]:
        query = leaderboards.parse_query(board, params)
        with CaptureQueriesContext(connection) as captured:
            Paginator(leaderboards.board_queryset(query), 25).count  # noqa: B018
        with connection.cursor() as cursor:
            cursor.execute("EXPLAIN ANALYZE " + captured[0]["sql"])
            plan = "\n".join(row[0] for row in cursor.fetchall())
        print(f"\n### {board} {params}: the page count\n\n```\n{plan}\n```")
    from django.db.models import Count

    from games.models import GameResult, PlayerPeriodStats
    from games.ratings import ratings

    heavy = GameResult.objects.values("user_id").annotate(n=Count("id")).order_by("-n").first()
    user = heavy["user_id"]
    recent = GameResult.objects.filter(user_id=user).order_by("-finished_at", "-id")[:20]
    chart = (
        GameResult.objects.filter(
            user_id=user, family="standard", pool="humans", ordinal_after__isnull=False
        )
        .order_by("-finished_at", "-id")
        .values_list("ordinal_after", flat=True)[:200]
    )
    career = PlayerPeriodStats.objects.filter(
        user_id=user, period=ratings.CAREER, start=ratings.ALL_TIME_START
    )
    for title, qs in [
        (f"player page, {heavy['n']} games: recent games", recent),
        ("player page: the chart's last 200 ratings", chart),
        ("player page: career totals", career),
    ]:
        print(f"\n### {title}\n\n```")
        print(qs.explain(analyze=True))
        print("```")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=60)
    parser.add_argument("--explain", action="store_true")
    parser.add_argument("--cpu", type=int, default=1, help="Pin to this core (-1: do not pin).")
    args = parser.parse_args()
    if args.cpu >= 0 and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})
    setup()
    from django.db import connection

    from games.models import Game

    if connection.vendor != "postgresql":
        sys.exit("Set DATABASE_URL to the seeded PostgreSQL database.")
    print(f"{Game.objects.count()} games in {connection.settings_dict['NAME']}\n")
    print("| page | p50 ms | p95 ms | queries | status |")
    print("|---|---:|---:|---:|---:|")
    for label, path in pages():
        p50, p95, queries, status = measure(path, args.reps)
        print(f"| {label} | {p50:.1f} | {p95:.1f} | {queries} | {status} |", flush=True)
    if args.explain:
        explain()


if __name__ == "__main__":
    main()
