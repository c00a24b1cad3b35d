"""Tournaments, their level schedule, entries, tables and the chip ledger.

Chips live in ``ChipLedger``: every chip a player holds came in through a row (the starting
stack is a row from the bank) and leaves through one, so balances are derived and the total is
conserved. ``Entry.chips`` is a cache of that sum, written in the same transaction as the rows,
so standings read one column; a test checks the two always agree.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse

DEFAULT_PRESET = "rummy-school"
"""Seed 004 describes its tournaments with the Rummy School rules (7 cards, two jokers)."""


def preset_choices() -> list[tuple[str, str]]:
    """The engine's playable presets: a tournament's preset is picked from these, never typed.

    A callable, so a preset the engine adds later needs no migration.
    """
    from games import engine

    return [(name, info.title) for name, info in engine.PRESETS.items()]


class Tournament(models.Model):
    class Format(models.TextChoices):
        QUICK = "quick", "Quick game"
        STT = "stt", "Single table tourney"
        MTT = "mtt", "Multi-table tourney"

    class Status(models.TextChoices):
        DRAFT = "draft", "Announced"
        REGISTRATION = "registration", "Registration open"
        CLOSED = "closed", "Registration closed"
        RUNNING = "running", "Running"
        PAUSED = "paused", "Paused"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    class LevelUnit(models.TextChoices):
        HANDS = "hands", "Hands"
        MINUTES = "minutes", "Minutes"

    UPCOMING = (Status.DRAFT, Status.REGISTRATION, Status.CLOSED)
    IN_PLAY = (Status.RUNNING, Status.PAUSED)
    OVER = (Status.FINISHED, Status.CANCELLED)

    name = models.CharField(max_length=80)
    format = models.CharField(max_length=8, choices=Format.choices, default=Format.MTT)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT)
    preset = models.CharField(max_length=32, choices=preset_choices, default=DEFAULT_PRESET)
    options = models.JSONField(default=dict, blank=True, help_text="House rules of the preset.")
    seats_per_table = models.PositiveSmallIntegerField(default=4, help_text="2 to 4.")
    starting_chips = models.PositiveIntegerField(default=10_000, help_text="Multi-table only.")
    level_unit = models.CharField(
        max_length=8, choices=LevelUnit.choices, default=LevelUnit.HANDS,
        help_text="Levels last a number of hands (rounds) or of minutes.",
    )  # fmt: skip
    target = models.PositiveIntegerField(
        null=True, blank=True,
        help_text="Single table tourney: the target (empty: the preset's own, e.g. 500 or 5000).",
    )  # fmt: skip
    hands = models.PositiveSmallIntegerField(default=3, help_text="Quick game: number of hands.")
    registration_opens_at = models.DateTimeField(null=True, blank=True)
    registration_closes_at = models.DateTimeField(null=True, blank=True)
    scheduled_start = models.DateTimeField(
        null=True, blank=True,
        help_text="Cancelled with a notice if fewer than the minimum have entered by then.",
    )  # fmt: skip
    min_entrants = models.PositiveIntegerField(default=2)
    max_entrants = models.PositiveIntegerField(default=1000)
    turn_seconds = models.PositiveIntegerField(default=60)
    bots_allowed = models.BooleanField(
        default=True, help_text="Bots fill empty seats (quick game and single table tourney)."
    )
    spectators_allowed = models.BooleanField(default=True)
    sit_and_go = models.BooleanField(
        default=False,
        help_text="Starts by itself once every seat is taken (multi-table: the maximum entrants).",
    )
    sit_and_go_seconds = models.PositiveSmallIntegerField(
        default=15, help_text="Sit-and-go: the countdown once full; a withdrawal cancels it."
    )
    prizes = models.JSONField(
        default=list, blank=True,
        help_text="Trophies by place, first place first (empty: the default table).",
    )  # fmt: skip
    # How a multi-table event flows (docs/tournaments.md, "Independent tables").
    hand_for_hand = models.BooleanField(
        default=False,
        help_text="Multi-table: every table waits for the slowest before dealing, from the start.",
    )
    hand_for_hand_tables = models.PositiveSmallIntegerField(
        default=0, help_text="Multi-table: hand-for-hand once this many tables or fewer are left "
        "(0: never).",
    )  # fmt: skip
    hand_for_hand_bubble = models.BooleanField(
        default=False,
        help_text="Multi-table: hand-for-hand from the prize bubble (one more player than places "
        "paid).",
    )
    break_every = models.PositiveSmallIntegerField(
        default=0, help_text="Multi-table: a break after every this many levels (0: no breaks)."
    )
    break_minutes = models.PositiveSmallIntegerField(default=5, help_text="Length of a break.")
    late_registration_level = models.PositiveSmallIntegerField(
        default=0, help_text="Multi-table: players may still enter until this level ends "
        "(0: not after the start).",
    )  # fmt: skip
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )  # fmt: skip
    created_at = models.DateTimeField(auto_now_add=True)
    # Running state, written only by tournaments.services.
    round = models.PositiveIntegerField(default=0, help_text="Rounds started (multi-table).")
    level = models.PositiveSmallIntegerField(default=0)
    pcr = models.PositiveIntegerField(default=0, help_text="Point-chip ratio in force.")
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    paused_seconds = models.PositiveIntegerField(default=0)
    notice = models.CharField(max_length=300, blank=True, help_text="Shown on the public page.")
    bot_results = models.JSONField(
        default=list, blank=True,
        help_text="Places of the filler bots' seats (quick game, single table): not entrants.",
    )  # fmt: skip
    # When advancing fails (see services.advance_safely): retried with backoff, then held.
    last_error = models.TextField(blank=True, help_text="The last failure while advancing.")
    error_at = models.DateTimeField(null=True, blank=True)
    error_count = models.PositiveSmallIntegerField(default=0, help_text="Failures in a row.")
    retry_at = models.DateTimeField(null=True, blank=True)
    needs_attention = models.BooleanField(
        default=False, help_text="Failed too often: held until an organizer resumes it."
    )
    sit_and_go_at = models.DateTimeField(
        null=True, blank=True, help_text="Sit-and-go: when the countdown of a full event ends."
    )
    duplicate = models.BooleanField(
        default=False,
        help_text="Multi-table: every table of a size plays the same deal each round "
        "(hand-for-hand), and players are also ranked by a duplicate score.",
    )
    duplicate_key = models.CharField(
        max_length=64, blank=True, editable=False,
        help_text="Secret the round's deals are derived from (tournaments.duplicate).",
    )  # fmt: skip
    lock_step = models.BooleanField(
        default=False, help_text="Running: the tables have switched to hand-for-hand."
    )
    break_until = models.DateTimeField(
        null=True, blank=True, help_text="Running: the event's break (levels by minutes) ends."
    )
    break_seconds = models.PositiveIntegerField(
        default=0, help_text="Break time so far: the level clock does not run during breaks."
    )
    breaks_taken = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "scheduled_start"], name="tourney_status_idx")]
        permissions = [("manage_tournament", "Can run tournaments (start, pause, disqualify)")]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:detail", args=[self.pk])

    @property
    def is_mtt(self) -> bool:
        return self.format == self.Format.MTT

    @property
    def target_score(self) -> int:
        """A single table tourney's target: the organizer's, else the preset's own (500,
        1000 for oklahoma, 5000 for five-thousand), as the table is played to."""
        from games import engine

        return self.target or engine.OPTIONS["target"].default_for(self.preset)


class Level(models.Model):
    """One step of the schedule: the PCR in force for ``duration`` hands or minutes."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="levels")
    number = models.PositiveSmallIntegerField()
    pcr = models.IntegerField(help_text="Point-chip ratio; must be positive.")
    duration = models.IntegerField(help_text="Hands or minutes (the tournament's unit).")

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="level_unique_number")
        ]

    def __str__(self) -> str:
        return f"Level {self.number}: PCR {self.pcr}"


class TournamentTable(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Playing"
        BROKEN = "broken", "Broken up"
        DONE = "done", "Done"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveIntegerField()
    table = models.OneToOneField(
        "games.Table", on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        help_text="The live table (empty in a headless simulation).",
    )  # fmt: skip
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    round = models.PositiveIntegerField(default=0, help_text="The round it is playing.")
    settled_round = models.PositiveIntegerField(default=0, help_text="The last round settled.")
    dealer = models.ForeignKey(
        "Entry", on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        help_text="Who dealt its last settled hand: the deal passes to their left.",
    )  # fmt: skip
    # Independent tables: each table's own count of hands (``round``), level and break.
    level = models.PositiveSmallIntegerField(default=0, help_text="The level of its hand.")
    pcr = models.PositiveIntegerField(default=0, help_text="The PCR of its hand (0: the event's).")
    settled_at = models.DateTimeField(null=True, blank=True, help_text="Its last hand's end.")
    break_until = models.DateTimeField(null=True, blank=True, help_text="Its break ends.")
    breaks_taken = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="ttable_unique_number")
        ]

    def __str__(self) -> str:
        return f"Table {self.number}"


class Entry(models.Model):
    class Status(models.TextChoices):
        REGISTERED = "registered", "Registered"
        PLAYING = "playing", "Playing"
        OUT = "out", "Eliminated"
        WINNER = "winner", "Winner"
        DISQUALIFIED = "disqualified", "Disqualified"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.REGISTERED)
    chips = models.BigIntegerField(default=0, help_text="Cache of the ledger balance.")
    score = models.IntegerField(default=0, help_text="Game total (quick game, single table).")
    place = models.PositiveIntegerField(null=True, blank=True)
    table = models.ForeignKey(
        TournamentTable, on_delete=models.SET_NULL, null=True, blank=True, related_name="entries"
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    out_round = models.PositiveIntegerField(null=True, blank=True)
    chips_before_out = models.BigIntegerField(default=0)
    registered_at = models.DateTimeField(auto_now_add=True)
    out_at = models.DateTimeField(null=True, blank=True)
    trophies = models.PositiveIntegerField(default=0, help_text="Prize won (site points).")
    duplicate_score = models.FloatField(
        default=0, help_text="Duplicate events: the sum over deals of score minus the average."
    )
    late = models.BooleanField(default=False, help_text="Entered after the start.")

    class Meta:
        verbose_name_plural = "entries"
        ordering = ["tournament", "place", "-chips", "registered_at"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="entry_unique_user")
        ]
        indexes = [models.Index(fields=["tournament", "status"], name="entry_status_idx")]

    def __str__(self) -> str:
        return str(self.user)  # the admin's ledger and standings name the player, nothing else

    @property
    def is_in(self) -> bool:
        return self.status in (self.Status.REGISTERED, self.Status.PLAYING)


class ChipLedger(models.Model):
    """One movement of chips. ``payer`` empty: from the bank (starting stacks); ``payee``
    empty: back to the bank (a disqualified player's chips)."""

    class Kind(models.TextChoices):
        STACK = "stack", "Starting stack"
        HAND = "hand", "Hand settlement"
        DISQUALIFICATION = "dq", "Disqualification"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="ledger")
    table = models.ForeignKey(
        TournamentTable, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    hand = models.ForeignKey(
        "games.Hand", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    round = models.PositiveIntegerField(default=0)
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.HAND)
    payer = models.ForeignKey(
        Entry, on_delete=models.CASCADE, null=True, blank=True, related_name="paid"
    )
    payee = models.ForeignKey(
        Entry, on_delete=models.CASCADE, null=True, blank=True, related_name="received"
    )
    amount = models.PositiveBigIntegerField()
    pcr = models.PositiveIntegerField(default=0)
    level = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "id"]
        indexes = [models.Index(fields=["tournament", "round"], name="ledger_round_idx")]

    def __str__(self) -> str:  # the admin's title for a row: who paid whom, never an id
        payer, payee = self.payer or "the bank", self.payee or "the bank"
        return f"{self.amount} chips from {payer} to {payee}"


class DuplicateDeal(models.Model):
    """One table's play of a round's deal in a duplicate event (tournaments.duplicate).

    Every table of one size in one round plays the same deal: the rows sharing
    (tournament, round, size) are that deal's plays, compared seat position by seat position.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="deals")
    round = models.PositiveIntegerField()
    size = models.PositiveSmallIntegerField(help_text="Seats at the table: the deal it got.")
    table = models.ForeignKey(TournamentTable, on_delete=models.CASCADE, related_name="deals")
    game = models.OneToOneField(
        "games.Game", on_delete=models.SET_NULL, null=True, blank=True,
        related_name="duplicate_deal", help_text="The live game (empty when headless).",
    )  # fmt: skip
    scores = models.JSONField(
        default=list, blank=True,
        help_text="[[seat, entry id, hand score], ...] once the table's hand is settled.",
    )  # fmt: skip
    played = models.BooleanField(default=False, help_text="Its hand is settled.")
    scored = models.BooleanField(
        default=False, help_text="Counted in the entrants' duplicate scores (round end)."
    )

    class Meta:
        ordering = ["tournament", "round", "size", "table"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "round", "table"], name="dupdeal_unique_table"
            )
        ]
        indexes = [models.Index(fields=["tournament", "round", "size"], name="dupdeal_board_idx")]

    def __str__(self) -> str:
        return f"Round {self.round} deal for {self.size} at table {self.table_id}"
