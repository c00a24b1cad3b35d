"""Headless bot-only games: many complete games, the results per bot level.

Why here and pure: strength runs, tests and the ``simulate`` management command all play the
same games, and a game is a pure function of (rules, levels, seed): every hand's seed and every
bot's random generator derive from the game's seed, so a run is repeatable and can be split
over processes without changing a single card.

Seats can be rotated: game ``g`` seats level ``levels[(s + g) % n]`` at seat ``s``, so with an
even number of games each level sits in each seat (and deals first) equally often.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

from games import engine

from . import LEVELS, choose_action

MAX_HANDS = 200
"""A game that has not ended after this many hands is recorded without a winner."""


class IllegalBotMove(RuntimeError):
    """A bot chose an action that was not in its legal list (a bug, never expected)."""


@dataclass(frozen=True)
class SimConfig:
    """What to play."""

    preset: str = "standard"
    options: tuple[tuple[str, Any], ...] = ()
    levels: tuple[str, ...] = ("easy", "easy")
    games: int = 10
    seed: int = 0
    rotate: bool = True
    hard_playouts: int | None = None
    """The hard bot's playout budget (None: its default)."""

    def rules(self) -> engine.Rules:
        return engine.make_rules(self.preset, **dict(self.options))

    def check(self) -> None:
        """Raise ValueError (RulesError for rules) before any game is played."""
        rules = self.rules()
        rules.validate_players(len(self.levels))
        for level in self.levels:
            if level not in LEVELS:
                raise ValueError(f"Unknown bot level {level!r}; choose from {', '.join(LEVELS)}.")
        if self.games < 1:
            raise ValueError("Play at least one game.")


@dataclass(frozen=True)
class GameResult:
    """One finished game, by seat."""

    index: int
    levels: tuple[str, ...]
    winners: tuple[int, ...]
    totals: tuple[int, ...]
    hand_scores: tuple[tuple[int, ...], ...]
    moves: int
    decisions: tuple[int, ...]
    think_s: tuple[float, ...]
    cpu_s: float = 0.0
    """Processor time the game took in its worker process."""


@dataclass
class LevelStats:
    """Totals for one bot level over a run."""

    level: str
    seat_games: int = 0
    wins: float = 0.0
    hand_scores: list[int] = field(default_factory=list)
    decisions: int = 0
    think_s: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.seat_games if self.seat_games else 0.0

    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of the win rate."""
        return wilson(self.wins, self.seat_games)

    @property
    def mean_hand_score(self) -> float:
        return sum(self.hand_scores) / len(self.hand_scores) if self.hand_scores else 0.0


@dataclass
class SimReport:
    """A run's results."""

    config: SimConfig
    games: list[GameResult]
    seconds: float

    @property
    def hands(self) -> int:
        return sum(len(game.hand_scores) for game in self.games)

    @property
    def cpu_seconds(self) -> float:
        """Processor time of all games, whichever process played them."""
        return sum(game.cpu_s for game in self.games)

    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else 0.0

    def by_level(self) -> list[LevelStats]:
        stats: dict[str, LevelStats] = {}
        for level in self.config.levels:
            stats.setdefault(level, LevelStats(level))
        for game in self.games:
            share = 1.0 / len(game.winners) if game.winners else 0.0
            for seat, level in enumerate(game.levels):
                item = stats[level]
                item.seat_games += 1
                if seat in game.winners:
                    item.wins += share
                item.hand_scores.extend(scores[seat] for scores in game.hand_scores)
                item.decisions += game.decisions[seat]
                item.think_s += game.think_s[seat]
        return list(stats.values())


def wilson(successes: float, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval: sound near 0 and 1 and for small samples."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def seat_levels(config: SimConfig, index: int) -> tuple[str, ...]:
    levels = config.levels
    if not config.rotate:
        return levels
    n = len(levels)
    return tuple(levels[(seat + index) % n] for seat in range(n))


def play_game(config: SimConfig, index: int) -> GameResult:
    """Play game ``index`` of ``config`` to its end."""
    cpu_began = time.process_time()
    rules = config.rules()
    levels = seat_levels(config, index)
    n = len(levels)
    game_seed = random.Random(f"{config.seed}/game/{index}").getrandbits(64)
    deals = random.Random(game_seed)
    rngs = [random.Random(f"{game_seed}/seat/{seat}") for seat in range(n)]
    dealer = engine.first_dealer_draw(rules, n, deals.getrandbits(64)).dealer
    game = engine.new_game(rules, n, dealer)
    moves = 0
    decisions = [0] * n
    think = [0.0] * n
    hand_scores: list[tuple[int, ...]] = []
    options = {} if config.hard_playouts is None else {"playouts": config.hard_playouts}
    while not game.outcome.over and len(hand_scores) < MAX_HANDS:
        state = engine.start_hand(game, seed=deals.getrandbits(64))
        while state.phase is not engine.Phase.HAND_OVER:
            seat = state.to_act[0]
            legal = engine.legal_actions(state, seat)
            began = time.perf_counter()
            action = _decide(levels[seat], state, seat, legal, rngs[seat], options)
            think[seat] += time.perf_counter() - began
            decisions[seat] += 1
            if action not in legal:
                raise IllegalBotMove(
                    f"{levels[seat]} bot at seat {seat} chose {action!r}, not in {legal!r}"
                )
            state, _events = engine.apply(state, action)
            moves += 1
        result = engine.hand_result(state)
        hand_scores.append(tuple(seat.score for seat in result.seats))
        game = engine.finish_hand(game, state)
    outcome = game.outcome
    return GameResult(
        index=index,
        levels=levels,
        winners=outcome.winners if outcome.over else (),
        totals=game.totals,
        hand_scores=tuple(hand_scores),
        moves=moves,
        decisions=tuple(decisions),
        think_s=tuple(think),
        cpu_s=time.process_time() - cpu_began,
    )


def _decide(
    level: str,
    state: engine.HandState,
    seat: int,
    legal: list[engine.Action],
    rng: random.Random,
    options: dict[str, Any],
) -> engine.Action:
    view = engine.view(state, seat)
    if level == "hard" and options:
        from . import hard

        return hard.choose_with_budget(view, legal, rng, **options)
    return choose_action(level, view, legal, rng)


def _play_indexed(args: tuple[SimConfig, int]) -> GameResult:
    return play_game(*args)


def iter_games(config: SimConfig, processes: int = 1) -> Iterator[GameResult]:
    """Play every game of ``config``, yielding results in game order."""
    jobs = [(config, index) for index in range(config.games)]
    if processes <= 1:
        for job in jobs:
            yield _play_indexed(job)
        return
    with get_context("spawn" if _needs_spawn() else "fork").Pool(processes) as pool:
        yield from pool.imap(_play_indexed, jobs, chunksize=1)


def _needs_spawn() -> bool:
    import sys

    return sys.platform == "darwin" or sys.platform.startswith("win")


def simulate(
    config: SimConfig,
    processes: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> SimReport:
    """Play ``config``'s games (over ``processes`` processes) and gather the results."""
    config.check()
    began = time.perf_counter()
    results: list[GameResult] = []
    for result in iter_games(config, processes):
        results.append(result)
        if progress is not None:
            progress(len(results), config.games)
    return SimReport(config, results, time.perf_counter() - began)


def format_table(report: SimReport) -> str:
    """The results as a plain-text table: wins per level with 95% CI, mean hand score, speed."""
    lines = [
        f"{'level':<8} {'seats':>6} {'wins':>7} {'win rate':>9} {'95% CI':>15} "
        f"{'mean hand':>10} {'ms/decision':>12}"
    ]
    for stats in report.by_level():
        low, high = stats.interval()
        per_decision = 1000 * stats.think_s / stats.decisions if stats.decisions else 0.0
        lines.append(
            f"{stats.level:<8} {stats.seat_games:>6} {stats.wins:>7.1f} {stats.win_rate:>8.1%} "
            f"{f'{low:.1%}-{high:.1%}':>15} {stats.mean_hand_score:>10.1f} {per_decision:>12.2f}"
        )
    unfinished = sum(1 for game in report.games if not game.winners)
    lines.append(
        f"{len(report.games)} games, {report.hands} hands in {report.seconds:.1f} s: "
        f"{report.hands_per_second():.1f} hands/s"
        + (f"; {unfinished} games stopped after {MAX_HANDS} hands" if unfinished else "")
    )
    return "\n".join(lines)


def describe(config: SimConfig) -> str:
    options = ", ".join(f"{name}={value}" for name, value in config.options) or "no options"
    return (
        f"{config.games} games of {config.preset} ({options}), seats: {', '.join(config.levels)}"
        f"{' (rotated)' if config.rotate else ''}, seed {config.seed}"
    )


def parse_levels(text: str) -> tuple[str, ...]:
    """ "hard,medium" -> ("hard", "medium"); a ValueError names a bad level."""
    levels = tuple(part.strip() for part in text.split(",") if part.strip())
    for level in levels:
        if level not in LEVELS:
            raise ValueError(f"Unknown bot level {level!r}; choose from {', '.join(LEVELS)}.")
    return levels


def parse_options(pairs: Sequence[str]) -> tuple[tuple[str, Any], ...]:
    """["rummy_call=true", "target=300"] -> typed option pairs (checked by make_rules)."""
    parsed: list[tuple[str, Any]] = []
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep or not name:
            raise ValueError(f"Options look like name=value, not {pair!r}.")
        info = engine.OPTIONS.get(name)
        if info is None:
            raise ValueError(f"Unknown option {name!r}.")
        value: Any
        if info.type == "bool":
            if raw.lower() not in ("true", "false", "on", "off", "1", "0", "yes", "no"):
                raise ValueError(f"Option {name} is true or false, not {raw!r}.")
            value = raw.lower() in ("true", "on", "1", "yes")
        else:
            try:
                value = int(raw)
            except ValueError:
                raise ValueError(f"Option {name} is a whole number, not {raw!r}.") from None
        parsed.append((name, value))
    return tuple(parsed)
