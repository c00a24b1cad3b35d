"""Tables, seats, games, hands and the append-only move log.

The engine's state of the running hand lives in ``Hand.state`` (its JSON form); everything a
page shows is derived from it and from these rows, so a restarted process loses nothing.
``Table.version`` is the one counter clients keep: it grows with every move, seat change and
hand start, and a submission that names an older version is refused and resynced.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q


def new_invite_token() -> str:
    return secrets.token_urlsafe(24)


class Table(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for players"
        PLAYING = "playing", "In progress"
        FINISHED = "finished", "Finished"
        ABORTED = "aborted", "Aborted"
        EXPIRED = "expired", "Expired"

    OPEN_STATUSES = (Status.WAITING, Status.PLAYING)

    name = models.CharField(max_length=60)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="hosted_tables"
    )
    preset = models.CharField(max_length=32)
    rules = models.JSONField(help_text="The engine's Rules.to_json(): preset plus house rules.")
    num_seats = models.PositiveSmallIntegerField()
    turn_seconds = models.PositiveIntegerField(
        null=True, blank=True, help_text="Seconds per turn; empty for an untimed (private) table."
    )
    is_private = models.BooleanField(default=False)
    invite_token = models.CharField(max_length=64, unique=True, default=new_invite_token)
    spectators_allowed = models.BooleanField(default=True)
    chat_enabled = models.BooleanField(default=True)
    auto_start = models.BooleanField(
        default=False, help_text="Start by itself as soon as every seat is taken."
    )
    rated = models.BooleanField(
        default=True, help_text="Games here count for ratings (on the human board when all humans)."
    )
    bot_level = models.CharField(max_length=16, default="easy")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.WAITING)
    version = models.PositiveBigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    abort_reason = models.CharField(max_length=200, blank=True)
    # What the table waits for when no person has to act, and until when. Set by every write
    # that changes the game (games.services.clock); Celery tasks are armed for it and the sweeper
    # handles whatever is overdue, so a lost task never stalls a table.
    due_kind = models.CharField(max_length=12, blank=True, help_text="bot, clock or next_hand")
    due_at = models.DateTimeField(null=True, blank=True)
    clock_task_at = models.DateTimeField(
        null=True,
        blank=True,
        editable=False,
        help_text="The deadline the last armed turn-clock task waits for. A new turn whose "
        "deadline is no earlier leaves that task to re-arm itself (games.services.clock.arm_at).",
    )
    # Tables run by an outside manager (another app seats the players and starts each game;
    # nobody hosts them). ``hands_per_game`` ends a game after that many hands, highest total
    # winning; ``paused_at`` stops clocks and bots until the manager resumes the table.
    managed = models.BooleanField(
        default=False,
        help_text="Seated and started by an outside manager, not a host; the manager also "
        "deals each next hand or ends the game.",
    )
    hands_per_game = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="End each game after this many hands (empty: target)."
    )
    paused_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["status", "is_private", "-created_at"], name="table_lobby_idx"),
            models.Index(fields=["status", "due_at"], name="table_due_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.name} (#{self.pk})"

    @property
    def is_open(self) -> bool:
        return self.status in self.OPEN_STATUSES

    def group_name(self) -> str:
        return f"table-{self.pk}"


class Seat(models.Model):
    """A place at a table: a person, a bot, or empty (no user and no bot level)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="seats",
    )
    bot_level = models.CharField(
        max_length=16, blank=True, help_text="Set for a bot seat: easy, medium or hard."
    )
    autoplay = models.BooleanField(
        default=False,
        help_text="A bot plays for the seated person (timeouts, disconnect, or they left).",
    )
    left = models.BooleanField(default=False, help_text="The person left a running game.")
    timeouts = models.PositiveSmallIntegerField(default=0, help_text="Consecutive turn timeouts.")
    disconnected_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the seated person was known to be gone (their last socket closed, or "
        "its heartbeat lapsed); the disconnect grace period runs from here.",
    )
    present_until = models.DateTimeField(
        null=True,
        blank=True,
        help_text="The seated person counts as online until then: the latest heartbeat of "
        "their open sockets plus the presence expiry (presence, not game state).",
    )

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="seat_unique_index"),
            models.UniqueConstraint(
                fields=["table", "user"], condition=Q(user__isnull=False), name="seat_unique_user"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}:{self.index}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.bot_level

    @property
    def bot_plays(self) -> bool:
        """Whether the computer chooses this seat's moves now."""
        return self.is_bot or self.autoplay


class SeatSocket(models.Model):
    """One open table socket of a seated person, with the moment its heartbeat lapses.

    Presence must not depend on a socket's clean close (a killed or stopped web process
    never runs it): each socket refreshes its row when the page pings, a clean close deletes
    it, and a row whose ``expires_at`` has passed counts for nothing. Keyed by user, not
    seat index, so a seat change while the socket is open keeps counting for the right seat.
    """

    socket = models.CharField(max_length=200, unique=True, help_text="The channel name.")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="sockets")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="table_sockets"
    )
    expires_at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["table", "user"], name="seatsocket_table_user"),
            models.Index(fields=["expires_at"], name="seatsocket_expires"),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}:{self.user_id}:{self.socket}"


class Game(models.Model):
    """A series of hands to the target (one hand in single-hand presets)."""

    class Status(models.TextChoices):
        PLAYING = "playing", "In progress"
        FINISHED = "finished", "Finished"
        ABORTED = "aborted", "Aborted"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PLAYING)
    rules = models.JSONField()
    players = models.JSONField(
        help_text="Per seat at the start: user id, display name, bot level (kept when accounts go)."
    )
    first_dealer = models.PositiveSmallIntegerField()
    dealer_draw = models.JSONField(default=list, help_text="The shown draw for first dealer.")
    totals = models.JSONField(default=list)
    on_board = models.JSONField(default=list, help_text="Thirty-point rule: who has scored in.")
    winners = models.JSONField(default=list)
    hands_summary = models.JSONField(
        default=list, blank=True, help_text="Each hand's scores by seat, filled when rated."
    )
    rated_at = models.DateTimeField(
        null=True, blank=True, help_text="When games.ratings counted this game (once only)."
    )
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="game_unique_number")
        ]
        indexes = [models.Index(fields=["status", "-finished_at"], name="game_history_idx")]

    def __str__(self) -> str:
        return f"Game {self.number} at table {self.table_id}"


class Hand(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", "In progress"
        OVER = "over", "Over"
        ABORTED = "aborted", "Aborted"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    dealer = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PLAYING)
    state = models.JSONField(help_text="The engine's state_to_json(); holds the secret seed.")
    moves_count = models.PositiveIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="hand_unique_number")
        ]

    def __str__(self) -> str:
        return f"Hand {self.number} of game {self.game_id}"


class Move(models.Model):
    """One applied action. Never updated or deleted: the hand replays from these rows."""

    class Actor(models.TextChoices):
        HUMAN = "human", "Player"
        BOT = "bot", "Bot"
        CLOCK = "clock", "Turn clock"

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    seat = models.SmallIntegerField(help_text="-1 for the server clock (closing a claim window).")
    actor = models.CharField(max_length=8, choices=Actor.choices, default=Actor.HUMAN)
    client_id = models.CharField(max_length=64, blank=True)
    action = models.JSONField()
    table_version = models.PositiveBigIntegerField(help_text="The table's version after it.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["hand_id", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "seq"], name="move_unique_seq"),
            models.UniqueConstraint(
                fields=["hand", "seat", "client_id"],
                condition=~Q(client_id=""),
                name="move_unique_client_id",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.hand_id}#{self.seq}"

    def to_log(self) -> dict[str, Any]:
        return {"seq": self.seq, "seat": self.seat, "actor": self.actor, "action": self.action}


class ChatMessage(models.Model):
    """A line of table chat. Stored as typed; templates escape it on the way out."""

    MAX_LENGTH = 300

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat_messages")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages"
    )
    text = models.CharField(max_length=MAX_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True)
    hidden = models.BooleanField(default=False, help_text="Hidden by staff after a report.")

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["table", "-created_at"], name="chat_table_idx")]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.text[:40]}"


class ChatMute(models.Model):
    """``user`` no longer sees chat from ``muted``."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "muted"], name="chat_mute_unique")]

    def __str__(self) -> str:
        return f"{self.user_id} mutes {self.muted_id}"


class ChatReport(models.Model):
    """A player's report of a chat line, for staff to review in the admin."""

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    resolved = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_unique")
        ]

    def __str__(self) -> str:
        return f"Report of message {self.message_id} by {self.reporter_id}"


# --- ratings, results and leaderboard aggregates (issue 7) ----------------------------------
# Written only by games.ratings.ratings (the rate_game task and recompute_ratings); every page reads
# these rows instead of walking the game history, so leaderboards stay fast with a big one.


class Rating(models.Model):
    """A player's current openskill rating in one preset family and one pool.

    The "humans" pool holds games where every seat was a person; the "bots" pool holds games
    with a bot seat, so bot levels get a rating measured against people.
    """

    class Pool(models.TextChoices):
        HUMANS = "humans", "Humans"
        BOTS = "bots", "With bots"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    family = models.CharField(max_length=16)
    pool = models.CharField(max_length=8, choices=Pool.choices)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(help_text="mu - 3 sigma: the displayed, conservative rating.")
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "family", "pool"], name="rating_unique")
        ]
        indexes = [
            models.Index(fields=["family", "pool", "-ordinal", "user"], name="rating_board_idx")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.family}/{self.pool}: {self.ordinal:.1f}"


class GameResult(models.Model):
    """One account's result in one finished game, with its rating change when rated.

    ``pool`` is empty for an unrated game (the table opted out). Unique per (game, user), so
    rating a game twice cannot count it twice.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="results")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    preset = models.CharField(max_length=32)
    family = models.CharField(max_length=16)
    pool = models.CharField(max_length=8, blank=True)
    rank = models.PositiveSmallIntegerField(help_text="1 for the best total; ties share a rank.")
    won = models.BooleanField()
    total = models.IntegerField()
    hands = models.PositiveSmallIntegerField()
    hand_points = models.IntegerField(help_text="Sum of this seat's hand scores.")
    best_hand = models.IntegerField()
    ordinal_before = models.FloatField(null=True, blank=True)
    ordinal_after = models.FloatField(null=True, blank=True)
    finished_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="game_result_unique")]
        indexes = [
            models.Index(fields=["user", "-finished_at"], name="game_result_user_idx"),
            models.Index(fields=["user", "family", "finished_at"], name="game_result_history_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in game {self.game_id}: rank {self.rank}"


class PlayerPeriodStats(models.Model):
    """Totals of one player over one calendar period ("all", a week or a month) of games
    among people, and over every game ("career", for the player page).

    Weeks start on Monday and months on the 1st, in the site's time zone (TIME_ZONE); the
    all-time and career rows have ``start`` 2000-01-01. ``avg_hand`` is kept beside its parts so the
    "average hand score" board is an index scan.
    """

    class Period(models.TextChoices):
        CAREER = "career", "Every game (player page)"
        ALL = "all", "All time"
        WEEK = "week", "This week"
        MONTH = "month", "This month"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    period = models.CharField(max_length=8, choices=Period.choices)
    start = models.DateField()
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    hands = models.PositiveIntegerField(default=0)
    hand_points = models.IntegerField(default=0)
    avg_hand = models.FloatField(default=0)
    best_hand = models.IntegerField(default=0)
    best_total = models.IntegerField(default=0)
    presets = models.JSONField(default=dict, help_text="Games per preset.")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "period", "start"], name="period_stats_unique")
        ]
        indexes = [
            models.Index(fields=["period", "start", "-wins", "user"], name="period_stats_wins_idx"),
            models.Index(
                fields=["period", "start", "-avg_hand", "user"], name="period_stats_avg_idx"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.period} {self.start}"


class GameReview(models.Model):
    """The stored review of a finished game (games.review): computed once, by the review worker.

    ``result`` is games.review.review_game's JSON; ``progress`` is what the replay page shows
    while the worker is at it ("reviewing: hand 3 of 7").
    """

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for the review worker"
        RUNNING = "running", "Reviewing"
        DONE = "done", "Reviewed"
        FAILED = "failed", "Could not be reviewed"

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="review")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    seats = models.JSONField(default=list, help_text="The seats reviewed (the human ones).")
    seed = models.CharField(
        max_length=64, help_text="Seeds every sampled deal: same seed, same review."
    )
    deals = models.PositiveIntegerField(help_text="Sampled deals per decision (the budget).")
    hands_done = models.PositiveSmallIntegerField(default=0)
    hands_total = models.PositiveSmallIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)
    error = models.CharField(max_length=300, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+", help_text="Who asked for it from the replay page (its rate limit).",
    )  # fmt: skip
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Review of game {self.game_id} ({self.status})"

    @property
    def progress(self) -> str:
        if self.status == self.Status.RUNNING and self.hands_total:
            shown = min(self.hands_done + 1, self.hands_total)
            return f"reviewing: hand {shown} of {self.hands_total}"
        return self.get_status_display()
