"""Ratings: each finished game is rated once, with openskill's Plackett-Luce model.

Two layers. ``RatingBook`` is pure: it holds ratings in memory and turns one ``GameRecord``
into per-seat outcomes. The database functions around it (``rate_game`` for one game after it
finishes, ``replay_all`` for ``recompute_ratings`` and ``seed_history``) only load and store,
so the incremental path and the full rebuild run the very same arithmetic in the same order
(games by finish time, then id) and must agree to the last bit.

Which games count where:
- the table opted out (``Table.rated`` false): a result row for the history, no rating;
- every seat held a person when the game started: the "humans" pool, the public boards. A
  person who leaves is played out by a bot but keeps the result, so leaving cannot dodge a
  rating (``Game.players[i]["bot_finished"]`` records it);
- any bot seat: the "bots" pool. Each bot level plays as one bot account, so the "bots"
  board publishes bot strength in rating terms, measured against the people they met.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from openskill.models import PlackettLuce

from games.engine.presets import PLANNED_PRESETS, PRESETS

# The one place that says which presets share a rating.
FAMILY_PRESETS: dict[str, tuple[str, ...]] = {
    "standard": ("standard", "classic", "throw-down", "michigan"),
    "jokers": ("jokers", "rummy-school"),
    "partnership": ("persian",),
    "oklahoma": ("oklahoma", "oklahoma-jokers"),
    "five-thousand": ("five-thousand",),
}
FAMILY_TITLES: dict[str, str] = {
    "standard": "Standard family",
    "jokers": "Jokers family",
    "partnership": "Partnership",
    "oklahoma": "Oklahoma",
    "five-thousand": "5000",
}
FAMILY_OF_PRESET: dict[str, str] = {
    preset: family for family, presets in FAMILY_PRESETS.items() for preset in presets
}
FAMILIES: tuple[str, ...] = tuple(FAMILY_PRESETS)
PROVISIONAL_GAMES = 10
HUMANS, BOTS = "humans", "bots"
CAREER = "career"
ALL_TIME_START = dt.date(2000, 1, 1)

MODEL = PlackettLuce()


def family_of(preset: str) -> str:
    """The rating family of ``preset``; unknown presets rate with the standard family."""
    return FAMILY_OF_PRESET.get(preset, "standard")


def partnerships_of(preset: str) -> tuple[tuple[int, ...], ...]:
    info = PRESETS.get(preset) or PLANNED_PRESETS.get(preset)
    return info.partnerships if info is not None else ()


def is_provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES


DISPLAY_BASE, DISPLAY_SCALE = 1500, 60


def display_rating(ordinal: float | None) -> int:
    """The rating people see: ``round(1500 + 60 x ordinal)``, the scale chess sites use.

    Bare openskill ordinals (3.4, -1.8) read as nothing to a player; on this scale a new
    player (no games, ordinal taken as 0) shows 1500. The stored ``ordinal`` stays the
    source of truth: this is presentation only, the one place its formula lives.
    """
    return round(DISPLAY_BASE + DISPLAY_SCALE * (ordinal or 0.0))


def display_label(ordinal: float | None, games: int) -> str:
    """The shown rating with a "?" while provisional (fewer than ``PROVISIONAL_GAMES``)."""
    return f"{display_rating(ordinal)}{'?' if is_provisional(games) else ''}"


def period_starts(when: dt.datetime) -> list[tuple[str, dt.date]]:
    """The all-time, calendar-week (Monday) and calendar-month periods ``when`` falls in,
    in the site's time zone (the TIME_ZONE setting)."""
    day = timezone.localtime(when, timezone.get_default_timezone()).date()
    return [
        ("all", ALL_TIME_START),
        ("week", day - dt.timedelta(days=day.weekday())),
        ("month", day.replace(day=1)),
    ]


# --- the pure part ---------------------------------------------------------------------------


@dataclass(frozen=True)
class GameRecord:
    """What rating needs to know of a finished game. ``users[i]`` is the account rated for
    seat i (a bot level's account for a bot seat; None when the account is gone)."""

    game_id: int
    preset: str
    finished_at: dt.datetime
    users: tuple[int | None, ...]
    bot_seats: tuple[bool, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    table_rated: bool = True

    @property
    def family(self) -> str:
        return family_of(self.preset)

    @property
    def pool(self) -> str:
        if not self.table_rated:
            return ""
        return BOTS if any(self.bot_seats) else HUMANS


@dataclass
class RatingState:
    mu: float
    sigma: float
    games: int = 0
    updated_at: dt.datetime | None = None

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class SeatOutcome:
    user: int
    seat: int
    rank: int
    won: bool
    total: int
    hands: int
    hand_points: int
    best_hand: int
    ordinal_before: float | None
    ordinal_after: float | None


def seat_ranks(record: GameRecord) -> tuple[list[list[int]], list[int]]:
    """Teams of seats (one seat each, or the preset's partnerships) and their ranks.

    Rank 1 is best; equal totals share a rank. The winners the engine named always rank first,
    so a preset's own tie-break decides over the bare totals.
    """
    teams = [list(team) for team in partnerships_of(record.preset)] or [
        [seat] for seat in range(len(record.totals))
    ]
    winners = set(record.winners)
    keys = [
        (any(seat in winners for seat in team), sum(record.totals[seat] for seat in team))
        for team in teams
    ]
    ranks = [1 + sum(other > key for other in keys) for key in keys]
    return teams, ranks


@dataclass
class RatingBook:
    """Ratings in memory, keyed by (user, family, pool). Missing entries start at the default."""

    ratings: dict[tuple[int, str, str], RatingState] = field(default_factory=dict)

    def get(self, key: tuple[int, str, str]) -> RatingState:
        state = self.ratings.get(key)
        if state is None:
            state = self.ratings[key] = RatingState(mu=MODEL.mu, sigma=MODEL.sigma)
        return state

    def rate(self, record: GameRecord) -> list[SeatOutcome]:
        """Rate one game into the book; return each known account's outcome.

        A bot level can hold several seats of one game (one account plays them all): each
        seat is rated as its own player from the account's rating, and the account takes the
        mean of its seats' new ratings and counts one game. Its outcome is its best seat's.
        """
        teams, ranks = seat_ranks(record)
        rank_of_seat = {
            seat: rank for team, rank in zip(teams, ranks, strict=True) for seat in team
        }
        family, pool = record.family, record.pool
        before: dict[int, float] = {}
        after: dict[int, float] = {}
        if pool:
            priors = [
                [
                    self.get((user, family, pool))
                    if (user := record.users[seat]) is not None
                    else RatingState(mu=MODEL.mu, sigma=MODEL.sigma)
                    for seat in team
                ]
                for team in teams
            ]
            rated = MODEL.rate(
                [[MODEL.rating(mu=p.mu, sigma=p.sigma) for p in team] for team in priors],
                ranks=[float(rank) for rank in ranks],
            )
            new_by_user: dict[int, list[tuple[float, float]]] = {}
            for team, new_team in zip(teams, rated, strict=True):
                for seat, new in zip(team, new_team, strict=True):
                    user = record.users[seat]
                    if user is not None:
                        new_by_user.setdefault(user, []).append((new.mu, new.sigma))
            for user, news in new_by_user.items():
                state = self.get((user, family, pool))
                before[user] = state.ordinal
                state.mu = sum(mu for mu, _ in news) / len(news)
                state.sigma = sum(sigma for _, sigma in news) / len(news)
                state.games += 1
                state.updated_at = record.finished_at
                after[user] = state.ordinal
        best_seat: dict[int, int] = {}
        for seat, user in enumerate(record.users):
            if user is not None and (
                user not in best_seat or rank_of_seat[seat] < rank_of_seat[best_seat[user]]
            ):
                best_seat[user] = seat
        outcomes = []
        for user, seat in sorted(best_seat.items(), key=lambda item: item[1]):
            scores = [hand[seat] for hand in record.hands if seat < len(hand)]
            outcomes.append(
                SeatOutcome(
                    user=user,
                    seat=seat,
                    rank=rank_of_seat[seat],
                    won=seat in record.winners,
                    total=record.totals[seat],
                    hands=len(scores),
                    hand_points=sum(scores),
                    best_hand=max(scores, default=0),
                    ordinal_before=before.get(user),
                    ordinal_after=after.get(user),
                )
            )
        return outcomes


@dataclass
class StatsBook:
    """Period totals in memory, keyed by (user, period, start).

    The "career" row counts every finished game (the player page's statistics). The all-time,
    week and month rows count humans-pool games only, so the public "games won" and "average
    hand" boards cannot be farmed against bots.
    """

    rows: dict[tuple[int, str, dt.date], dict[str, Any]] = field(default_factory=dict)

    def add(self, record: GameRecord, outcomes: Iterable[SeatOutcome]) -> None:
        periods = [(CAREER, ALL_TIME_START)]
        if record.pool == HUMANS:
            periods += period_starts(record.finished_at)
        for outcome in outcomes:
            for period, start in periods:
                row = self.rows.setdefault((outcome.user, period, start), empty_stats())
                add_outcome(row, outcome, record.preset)


def empty_stats() -> dict[str, Any]:
    return {
        "games": 0,
        "wins": 0,
        "hands": 0,
        "hand_points": 0,
        "best_hand": 0,
        "best_total": 0,
        "presets": {},
    }


def add_outcome(row: dict[str, Any], outcome: SeatOutcome, preset: str) -> None:
    first = row["games"] == 0
    row["games"] += 1
    row["wins"] += int(outcome.won)
    row["hands"] += outcome.hands
    row["hand_points"] += outcome.hand_points
    row["best_hand"] = outcome.best_hand if first else max(row["best_hand"], outcome.best_hand)
    row["best_total"] = outcome.total if first else max(row["best_total"], outcome.total)
    row["presets"][preset] = row["presets"].get(preset, 0) + 1


def average(hand_points: int, hands: int) -> float:
    return hand_points / hands if hands else 0.0


# --- the database part -----------------------------------------------------------------------


def bot_account_ids(levels: Iterable[str]) -> dict[str, int]:
    """The account that carries each bot level's rating, created on first use."""
    from accounts.models import User

    ids = {}
    for level in sorted(set(levels)):
        username = f"bot-level-{level}"
        user = User.objects.filter(username=username).first()
        if user is None:
            # A person may already call themselves "Easy bot": then the bot takes its username.
            for name in (f"{level.title()} bot", username):
                try:
                    with transaction.atomic():
                        user = User.objects.create_user(username, display_name=name, is_bot=True)
                    break
                except IntegrityError:
                    continue
            if user is None:
                raise RuntimeError(f"Cannot create the {level} bot's account.")
        ids[level] = user.pk
    return ids


def hands_summary_of(game: Any) -> list[list[int]]:
    """Each hand's scores by seat: stored on the game, or read from its hands once."""
    if game.hands_summary:
        return list(game.hands_summary)
    summary = []
    for result in (
        game.hands.filter(result__isnull=False).order_by("number").values_list("result", flat=True)
    ):
        summary.append([seat["score"] for seat in result["seats"]])
    return summary


def record_of(
    game: Any,
    *,
    table_rated: bool,
    bots: dict[str, int],
    existing_users: set[int] | None = None,
) -> GameRecord:
    return record_from(
        game_id=game.pk,
        preset=game.rules.get("preset", "standard"),
        players=game.players,
        totals=game.totals,
        winners=game.winners,
        hands=game.hands_summary,
        finished_at=game.finished_at,
        table_rated=table_rated,
        bots=bots,
        existing_users=existing_users,
    )


def record_from(
    *,
    game_id: int,
    preset: str | None,
    players: list[dict[str, Any]],
    totals: list[int],
    winners: list[int],
    hands: list[list[int]],
    finished_at: dt.datetime,
    table_rated: bool,
    bots: dict[str, int],
    existing_users: set[int] | None = None,
) -> GameRecord:
    users: list[int | None] = []
    bot_seats = []
    for player in players:
        if player.get("bot"):
            users.append(bots[player["bot"]])
            bot_seats.append(True)
        else:
            user = player.get("user")
            known = existing_users is None or user in existing_users
            users.append(user if known else None)
            bot_seats.append(False)
    return GameRecord(
        game_id=game_id,
        preset=preset or "standard",
        finished_at=finished_at,
        users=tuple(users),
        bot_seats=tuple(bot_seats),
        totals=tuple(totals),
        winners=tuple(winners),
        hands=tuple(tuple(hand) for hand in hands),
        table_rated=table_rated,
    )


RESULT_FIELDS = (
    "game_id",
    "user_id",
    "seat",
    "preset",
    "family",
    "pool",
    "rank",
    "won",
    "total",
    "hands",
    "hand_points",
    "best_hand",
    "ordinal_before",
    "ordinal_after",
    "finished_at",
)


def _result_values(record: GameRecord, o: SeatOutcome) -> tuple[Any, ...]:
    return (
        record.game_id,
        o.user,
        o.seat,
        record.preset,
        record.family,
        record.pool,
        o.rank,
        o.won,
        o.total,
        o.hands,
        o.hand_points,
        o.best_hand,
        o.ordinal_before,
        o.ordinal_after,
        record.finished_at,
    )


def _result_row(record: GameRecord, outcome: SeatOutcome) -> Any:
    from games.models import GameResult

    return GameResult(**dict(zip(RESULT_FIELDS, _result_values(record, outcome), strict=True)))


def rate_game(game_id: int) -> bool:
    """Rate one finished game, once. Returns False when there was nothing (more) to do.

    The game row is locked and ``rated_at`` set in the same transaction as the ratings, the
    results and the period totals, so a repeated or concurrent call changes nothing.

    A game whose deal its manager holds back (games.secrecy: a duplicate deal other tables
    still play) waits: its result row, the player pages' recent games and totals would tell
    those tables how the deal went. It stays unrated (False) and the manager rates it once
    the deal is over (tournaments.duplicate.score_round).
    """
    from accounts.models import User
    from games import secrecy
    from games.models import Game, GameResult, PlayerPeriodStats, Rating

    with transaction.atomic():
        game = (
            Game.objects.select_for_update(of=("self",))
            .select_related("table")
            .filter(pk=game_id)
            .first()
        )
        if game is None or game.status != Game.Status.FINISHED or game.rated_at is not None:
            return False
        if secrecy.held_back(game.pk):
            return False
        game.hands_summary = hands_summary_of(game)
        bots = bot_account_ids(p["bot"] for p in game.players if p.get("bot"))
        human_ids = [p["user"] for p in game.players if not p.get("bot") and p.get("user")]
        existing = set(  # a deleted account gets no rating or result, ever
            User.objects.filter(pk__in=human_ids, deleted_at__isnull=True).values_list(
                "pk", flat=True
            )
        )
        record = record_of(game, table_rated=game.table.rated, bots=bots, existing_users=existing)
        book = RatingBook()
        family, pool = record.family, record.pool
        users = sorted({u for u in record.users if u is not None})
        stored: dict[int, Any] = {}
        if pool:
            # Locked in id order, so two games sharing players cannot deadlock.
            for rating in (
                Rating.objects.select_for_update()
                .filter(user_id__in=users, family=family, pool=pool)
                .order_by("user_id")
            ):
                stored[rating.user_id] = rating
                book.ratings[(rating.user_id, family, pool)] = RatingState(
                    mu=rating.mu, sigma=rating.sigma, games=rating.games
                )
        outcomes = book.rate(record)
        if pool:
            for user in users:
                state = book.ratings[(user, family, pool)]
                rating = stored.get(user) or Rating(user_id=user, family=family, pool=pool)
                rating.mu, rating.sigma, rating.ordinal = state.mu, state.sigma, state.ordinal
                rating.games, rating.updated_at = state.games, record.finished_at
                rating.save()
        GameResult.objects.bulk_create([_result_row(record, o) for o in outcomes])
        stats = StatsBook()
        stats.add(record, outcomes)
        for (user, period, start), delta in sorted(stats.rows.items()):
            row, _ = PlayerPeriodStats.objects.select_for_update().get_or_create(
                user_id=user, period=period, start=start
            )
            merged = {name: getattr(row, name) for name in empty_stats()}
            _merge(merged, delta)
            for name, value in merged.items():
                setattr(row, name, value)
            row.avg_hand = average(row.hand_points, row.hands)
            row.save()
        game.rated_at = timezone.now()
        game.save(update_fields=["hands_summary", "rated_at"])
    return True


def rate_missing() -> int:
    """Rate the finished games no task has rated yet (a lost task), oldest first."""
    from games.models import Game

    ids = Game.objects.filter(status=Game.Status.FINISHED, rated_at__isnull=True).order_by(
        "finished_at", "id"
    )
    return sum(rate_game(game_id) for game_id in ids.values_list("id", flat=True))


def _merge(row: dict[str, Any], delta: dict[str, Any]) -> None:
    if not delta["games"]:
        return
    first = row["games"] == 0
    for name in ("games", "wins", "hands", "hand_points"):
        row[name] += delta[name]
    for name in ("best_hand", "best_total"):
        row[name] = delta[name] if first else max(row[name], delta[name])
    presets = dict(row["presets"])
    for preset, count in delta["presets"].items():
        presets[preset] = presets.get(preset, 0) + count
    row["presets"] = dict(sorted(presets.items()))


def _sorted_presets(rows: dict[Any, dict[str, Any]]) -> dict[Any, dict[str, Any]]:
    """Preset counts in name order, as ``_merge`` stores them, so both paths store equal JSON."""
    for row in rows.values():
        row["presets"] = dict(sorted(row["presets"].items()))
    return rows


def finished_games(chunk: int = 5000) -> Iterator[tuple[Any, ...]]:
    """Finished games in the order they are rated (finish time, then id), as plain values:
    model instances would cost more than the rating itself on a long history."""
    from games.models import Game

    return (
        Game.objects.filter(status=Game.Status.FINISHED)
        .order_by("finished_at", "id")
        .values_list(
            "id",
            "rules__preset",
            "players",
            "totals",
            "winners",
            "hands_summary",
            "finished_at",
            "table__rated",
        )
        .iterator(chunk_size=chunk)
    )


def replay_all(
    *, batch: int = 50_000, progress: Callable[[int], None] | None = None
) -> dict[str, int]:
    """Rebuild every rating, result and period total from the finished games.

    Everything derived is deleted and recomputed in one transaction, in memory, with the
    same ``RatingBook`` the incremental task uses, and written with bulk inserts.
    """
    from accounts.models import User
    from games.bulk import insert_rows
    from games.models import Game, GameResult, PlayerPeriodStats, Rating

    with transaction.atomic():
        GameResult.objects.all().delete()
        Rating.objects.all().delete()
        PlayerPeriodStats.objects.all().delete()
        _fill_missing_summaries()
        levels: set[str] = set()
        for players in Game.objects.filter(status=Game.Status.FINISHED).values_list(
            "players", flat=True
        ):
            levels.update(p["bot"] for p in players if p.get("bot"))
        bots = bot_account_ids(levels)
        existing = set(User.objects.filter(deleted_at__isnull=True).values_list("pk", flat=True))
        book, stats = RatingBook(), StatsBook()
        pending: list[tuple[Any, ...]] = []
        done = 0
        for (
            game_id,
            preset,
            players,
            totals,
            winners,
            hands,
            finished_at,
            rated,
        ) in finished_games():
            record = record_from(
                game_id=game_id,
                preset=preset,
                players=players,
                totals=totals,
                winners=winners,
                hands=hands,
                finished_at=finished_at,
                table_rated=rated,
                bots=bots,
                existing_users=existing,
            )
            outcomes = book.rate(record)
            stats.add(record, outcomes)
            pending.extend(_result_values(record, o) for o in outcomes)
            done += 1
            if len(pending) >= batch:
                insert_rows(GameResult, RESULT_FIELDS, pending)
                pending.clear()
            if progress is not None:
                progress(done)
        insert_rows(GameResult, RESULT_FIELDS, pending)
        insert_rows(
            Rating,
            ("user_id", "family", "pool", "mu", "sigma", "ordinal", "games", "updated_at"),
            [
                (user, family, pool, s.mu, s.sigma, s.ordinal, s.games, s.updated_at)
                for (user, family, pool), s in book.ratings.items()
            ],
        )
        insert_rows(
            PlayerPeriodStats,
            ("user_id", "period", "start", "avg_hand", *empty_stats()),
            [
                (user, period, start, average(row["hand_points"], row["hands"]), *row.values())
                for (user, period, start), row in _sorted_presets(stats.rows).items()
            ],
        )
        Game.objects.filter(status=Game.Status.FINISHED).update(rated_at=timezone.now())
    return {"games": done, "ratings": len(book.ratings), "periods": len(stats.rows)}


def _fill_missing_summaries() -> None:
    """Games finished before hands_summary existed: read their hands once."""
    from games.models import Game

    for game in Game.objects.filter(status=Game.Status.FINISHED, hands_summary=[]).iterator():
        summary = hands_summary_of(game)
        if summary:
            game.hands_summary = summary
            game.save(update_fields=["hands_summary"])
