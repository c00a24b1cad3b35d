"""Hidden information at scale: bot games played in-process, every frame scanned for leaks.

    .venv/bin/python -m bench.leaks.scan                       # 1,000 games to 500
    .venv/bin/python -m bench.leaks.scan --games 50 --target 200 --processes 2

Each game runs through the real move service (on an in-memory SQLite database) with easy
bots in every seat, rotating presets (standard, jokers, classic, rummy-school) and table
sizes (2 to 4 seats). After every move, and at every hand's end, the frame each seat and a
spectator would receive is rendered as a socket would render it, JSON and HTML (so data-
attributes and comments too), and scanned for any card the engine's view of that seat does
not show: other hands and the stock, as codes, labels and spoken names. At every hand's end
before the game's last, the finished game's replay page is asked for as each player and as a
stranger: it must not exist until the game is over. Prints the counts and leaks (must be 0).
The scanner is the CI test's (tests/games/test_hidden_information.py): one definition.

    .venv/bin/python -m bench.leaks.scan --duplicate --games 6 --rounds 3

``--duplicate``: duplicate tournament rounds instead (tournaments.duplicate). Each "game" is
a duplicate event of two tables (2 to 4 seats, live, through the real tournament services).
Every round one table plays its hand to the end while the other is still in the middle of
the same deal; then every frame of the finished table, for each seat and a spectator, is
scanned as if the hand were still being played (the other hands, the stock and the seed are
hidden until every table has finished), its replay page must answer 403 to its players and to
a stranger, and its players may not open the other table's page. Once the other table is
done, the replay page must open (200). Frames during play are the default mode's business
(a tournament table renders like any other); ``--scan-play`` scans them here too (slower).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PRESETS = [("standard", 2, 4), ("jokers", 2, 4), ("classic", 3, 4), ("rummy-school", 2, 4)]


def readings(payload: Any) -> set[str]:
    """Cards a wild card stands for (in melds, and in the seat's own meld choices): the
    frame names them as readings, which says nothing about where the real card is."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            if value.get("card") != value.get("as") and isinstance(value.get("as"), str):
                found.add(value["as"])
            if isinstance(value.get("reading"), list):
                found.update(r for r in value["reading"] if isinstance(r, str))
            elif isinstance(value.get("reading"), str):
                found.add(value["reading"])
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(payload)
    return found


def _setup_django() -> None:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["RUMMY_TESTING"] = "1"  # no bot delays, no hand pauses
    os.environ["FAST_PASSWORD_HASHING"] = "1"
    os.environ["LOG_LEVEL"] = "ERROR"  # the replay pages' expected 404s are not news
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection

    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]  # the test client's host


def play_games(
    first: int, count: int, target: int, seed: int, log_path: str | None = None
) -> dict[str, Any]:
    """Play games ``first`` .. ``first + count - 1``; return counts and any leaks found.

    With ``log_path``, a line per finished game is appended there (its counts and leaks), so
    a run cut short still counts and another can resume with ``--first``."""
    _setup_django()
    from unittest import mock

    from django.test import Client

    from accounts.models import User
    from games import bots, engine, selectors
    from games.models import Game, Hand, Seat, Table
    from games.services import moves, tables
    from games.table import presenters, table_frames
    from tests.games import test_hidden_information as scanner
    from tests.games.test_hidden_information import leaks_in_json

    # Jokers are not scanned for: all of them share one code, so a joker in the stock cannot
    # be told apart from one in a meld or in the seat's own hand, and "joker" is also a word
    # of the rules shown on every page. The 52 other cards are scanned in every preset.
    joker = engine.JOKER

    # Every card a text mentions, found by three precompiled patterns broad enough for any
    # card (then looked up); the caller keeps those that are hidden. Building a pattern from
    # each frame's hidden set, as the CI scanner does, cost more than rendering the frame, and
    # an alternation of the 52 cards was twice as slow again as these.
    code_re = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][CDHS])(?![A-Za-z0-9])")
    label_of = {label: code for code, label in scanner.LABELS.items()}
    name_of = {name: code for code, name in scanner.NAMES.items()}
    suits = "".join(sorted({label[-1] for label in label_of}))
    label_re = re.compile(rf"(?:10|[2-9JQKA])[{suits}]")
    name_re = re.compile(
        "(?:{}) of (?:{})".format(
            "|".join(sorted({n.split(" of ")[0] for n in name_of})),
            "|".join(sorted({n.split(" of ")[1] for n in name_of})),
        )
    )
    codes = set(scanner.NAMES)

    def leaks_in_text(text: str, hidden: set[str]) -> set[str]:
        """scanner.leaks_in_text by another road (the same answer, checked against it on
        every 50th frame)."""
        if not hidden:
            return set()
        mentioned = set(code_re.findall(text)) & codes
        mentioned.update(label_of[m] for m in label_re.findall(text) if m in label_of)
        mentioned.update(name_of[m] for m in name_re.findall(text.lower()))
        found = mentioned & hidden
        totals["text_scans"] += 1
        if totals["text_scans"] % 50 == 0:
            assert found == scanner.leaks_in_text(text, hidden)
        return found

    def hidden_from(state: Any, seat: int | None) -> set[str]:
        return scanner.hidden_from(state, seat) - {joker}

    totals = {"games": 0, "hands": 0, "moves": 0, "frames": 0, "replay_checks": 0}
    totals["text_scans"] = 0
    leaks: list[dict[str, Any]] = []
    stranger = User.objects.create_user(username="stranger", password="x", display_name="S")
    strangers = Client()
    strangers.force_login(stranger, backend="django.contrib.auth.backends.ModelBackend")

    sent: dict[tuple[int, int | None], dict[str, Any]] = {}

    def scan(snap: Any) -> None:
        table_id = snap.table.pk
        if snap.state is None:
            return
        for seat in [*range(snap.table.num_seats), None]:
            # The socket's frame (shared regions from the per-process cache included) as well
            # as the page's whole fragment.
            # And the partial frame the socket sends after this move (a player's entry, a
            # meld, new cards appended to a list: games/table_frames.py).
            regions = table_frames.seat_regions(snap, seat, None)
            key = (table_id, seat)
            partial, sent[key] = table_frames.frame(snap, seat, None, sent.get(key, {}))
            payload, html = scanner.without_dealer_draw(
                json.loads(presenters.state_json(snap, seat)),
                presenters.state_html(snap, seat, None)
                + "\n"
                + "\n".join(regions.values())
                + "\n"
                + partial,
            )
            hidden = hidden_from(snap.state, seat) - readings(payload)
            found = (
                leaks_in_json(payload, hidden)
                | leaks_in_text(json.dumps(payload, ensure_ascii=False), hidden)
                | leaks_in_text(html, hidden)
            )
            totals["frames"] += 2
            if found:
                text = json.dumps(payload, ensure_ascii=False) + "\n" + html
                where = min((text.find(c) for c in found if c in text), default=0)
                leaks.append({"table": table_id, "version": snap.version, "seat": seat,
                              "preset": snap.table.preset, "cards": sorted(found),
                              "context": text[max(0, where - 150) : where + 50]})  # fmt: skip

    def replay_page_hidden(game: Game, players: list[Client]) -> None:
        for client in [*players, strangers]:
            totals["replay_checks"] += 1
            response = client.get(f"/games/{game.pk}/")
            if response.status_code != 404:
                leaks.append({"game": game.pk, "replay_page": response.status_code})

    # Tasks are not needed: this loop plays every bot turn and deals every hand itself.
    with mock.patch("games.tasks.schedule_table_work"):
        for number in range(first, first + count):
            at_start, leaks_before = dict(totals), len(leaks)
            rng = random.Random(seed * 100_003 + number)
            preset, low, high = PRESETS[number % len(PRESETS)]
            seats = low + number % (high - low + 1)
            host = User.objects.create_user(
                username=f"host{number}", password="x", display_name=f"Host {number}"
            )
            host_client = Client()
            host_client.force_login(host, backend="django.contrib.auth.backends.ModelBackend")
            table = tables.table_create(
                host=host, name=f"Leaks {number}", preset=preset,
                options={"target": target}, num_seats=seats, turn_seconds=60,
                fill_with_bots=True, bot_level="easy",
            )  # fmt: skip
            tables.table_start(table_id=table.pk, by=host)
            Seat.objects.filter(table=table, index=0).update(autoplay=True)
            for _ in range(100_000):
                snap = selectors.load_snapshot(table.pk)
                scan(snap)
                if snap.table.status != Table.Status.PLAYING:
                    break
                if snap.hand.status == Hand.Status.OVER:
                    totals["hands"] += 1
                    replay_page_hidden(snap.game, [host_client])
                    tables.hand_next(table_id=table.pk)
                    continue
                seat = snap.state.to_act[0]
                legal = engine.legal_actions(snap.state, seat)
                action = bots.choose_action("easy", engine.view(snap.state, seat), legal, rng)
                moves.move_submit(
                    table_id=table.pk, seat=seat, action=engine.action_to_json(action),
                    expected_version=snap.version,
                )  # fmt: skip
                totals["moves"] += 1
            totals["hands"] += 1
            totals["games"] += 1
            selectors.clear_cache()
            over = Game.objects.get(table=table)
            if (
                over.status != Game.Status.FINISHED
                or host_client.get(f"/games/{over.pk}/").status_code != 200
            ):
                leaks.append({"game": over.pk, "unfinished_or_no_replay": over.status})
            if log_path:
                counts = {key: totals[key] - at_start[key] for key in totals}
                line = {"game": number, "seed": seed, "target": target, "preset": preset,
                        "seats": seats, **counts, "leaks": leaks[leaks_before:]}  # fmt: skip
                with open(log_path, "a") as log:
                    log.write(json.dumps(line) + "\n")
    return {**totals, "leaks": leaks}


def play_duplicate(
    first: int, count: int, rounds: int, seed: int, scan_play: bool = False
) -> dict[str, Any]:
    """Duplicate events ``first`` .. ``first + count - 1`` (see the module's docstring)."""
    _setup_django()
    from collections import Counter
    from unittest import mock

    from django.test import Client

    from accounts.models import User
    from games import bots, engine, selectors
    from games.models import Game, Hand
    from games.services import moves
    from games.table import presenters, table_frames
    from tests.games import test_hidden_information as scanner
    from tournaments import services as tournaments
    from tournaments.models import Level, Tournament, TournamentTable

    totals = {"games": 0, "hands": 0, "moves": 0, "frames": 0, "replay_checks": 0}
    totals["held_back_frames"] = 0
    leaks: list[dict[str, Any]] = []
    stranger = User.objects.create_user(username="dup-stranger", password="x", display_name="S")
    strangers = Client()
    strangers.force_login(stranger, backend="django.contrib.auth.backends.ModelBackend")

    def secret_from(state: Any, seat: int | None) -> set[str]:
        """Cards a seat may not see while the deal is live anywhere: as during play."""
        seen = engine.view(state, seat)
        public: Counter[str] = Counter()
        for cards in seen["public_cards"]["known"]:
            public.update(cards)
        for cards in seen["public_cards"]["displayed"]:
            public.update(cards)
        hidden = Counter(state.stock)
        for other, hand in enumerate(state.hands):
            if other != seat:
                hidden.update(hand)
        hidden -= public
        return set(hidden) - {engine.JOKER}

    def scan(snap: Any, *, held: bool) -> None:
        for seat in [*range(snap.table.num_seats), None]:
            regions = table_frames.seat_regions(snap, seat, None)
            payload, html = scanner.without_dealer_draw(
                json.loads(presenters.state_json(snap, seat)),
                presenters.state_html(snap, seat, None) + "\n" + "\n".join(regions.values()),
            )
            if held:
                hidden = secret_from(snap.state, seat) - readings(payload)
                totals["held_back_frames"] += 2
            else:
                hidden = scanner.hidden_from(snap.state, seat) - {engine.JOKER} - readings(payload)
            text = json.dumps(payload, ensure_ascii=False)
            found = (
                scanner.leaks_in_json(payload, hidden)
                | scanner.leaks_in_text(text, hidden)
                | scanner.leaks_in_text(html, hidden)
            )
            if held and str(snap.state.seed) in text + html:
                found.add("seed")
            totals["frames"] += 2
            if found:
                both = text + "\n" + html
                where = min((both.find(c) for c in found if c in both), default=0)
                leaks.append({"table": snap.table.pk, "version": snap.version, "seat": seat,
                              "held_back": held, "cards": sorted(found),
                              "context": both[max(0, where - 150) : where + 50]})  # fmt: skip

    def move_once(table_id: int, rng: random.Random) -> bool:
        """One bot move at the table, frames scanned first; False once its hand is over."""
        snap = selectors.load_snapshot(table_id)
        if snap.hand is None or snap.hand.status != Hand.Status.PLAYING:
            return False
        if scan_play:
            scan(snap, held=False)
        seat = snap.state.to_act[0]
        legal = engine.legal_actions(snap.state, seat)
        action = bots.choose_action("easy", engine.view(snap.state, seat), legal, rng)
        moves.move_submit(
            table_id=table_id, seat=seat, action=engine.action_to_json(action),
            expected_version=snap.version,
        )  # fmt: skip
        totals["moves"] += 1
        return True

    def refused(client: Client, path: str, expected: int) -> None:
        totals["replay_checks"] += 1
        status = client.get(path).status_code
        if status != expected:
            leaks.append({"page": path, "status": status, "expected": expected})

    with mock.patch("games.tasks.schedule_table_work"), mock.patch("tournaments.tasks.advance"):
        for number in range(first, first + count):
            rng = random.Random(seed * 100_003 + number)
            preset, low, high = PRESETS[number % len(PRESETS)]
            seats = low + number % (high - low + 1)
            t = Tournament.objects.create(
                name=f"Duplicate {number}", format=Tournament.Format.MTT, preset=preset,
                status=Tournament.Status.REGISTRATION, seats_per_table=seats,
                starting_chips=100_000, duplicate=True,
            )  # fmt: skip
            Level.objects.create(tournament=t, number=1, pcr=1, duration=1)
            clients: dict[int, Client] = {}
            for i in range(2 * seats):
                user = User.objects.create_user(
                    username=f"d{number}x{i}", password="x", display_name=f"D {number}-{i}"
                )
                tournaments.entrant_add(tournament_id=t.pk, user=user)
                client = Client()
                client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
                clients[user.pk] = client
            tournaments.start(tournament_id=t.pk, rng=rng)
            for _round in range(rounds):
                t.refresh_from_db()
                if t.status != Tournament.Status.RUNNING:
                    break
                first_table, second = sorted(
                    TournamentTable.objects.filter(tournament=t, round=t.round)
                    .exclude(table=None)
                    .values_list("table_id", flat=True)
                )
                for _ in range(rng.randrange(1, 4)):  # the other table is mid-deal
                    move_once(second, rng)
                while move_once(first_table, rng):
                    pass
                totals["hands"] += 1
                selectors.clear_cache()
                snap = selectors.load_snapshot(first_table)
                scan(snap, held=True)
                game = Game.objects.filter(table_id=first_table).latest("number")
                players = [clients[p["user"]] for p in game.players if p.get("user") in clients]
                for client in [*players, strangers]:
                    refused(client, f"/games/{game.pk}/", 403)
                for client in players:
                    refused(client, f"/tables/{second}/", 403)
                while move_once(second, rng):
                    pass
                totals["hands"] += 1
                selectors.clear_cache()
                for client in players[:1]:
                    refused(client, f"/games/{game.pk}/", 200)
                tournaments.advance(tournament_id=t.pk)
                selectors.clear_cache()
            totals["games"] += 1
    return {**totals, "leaks": leaks}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--target", type=int, default=500, help="points a game is played to")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--first", type=int, default=0, help="number of the first game")
    parser.add_argument(
        "--log", default=None, help="append a JSON line per finished game (its own counts)"
    )
    parser.add_argument("--duplicate", action="store_true", help="duplicate tournament rounds")
    parser.add_argument("--rounds", type=int, default=3, help="--duplicate: rounds per event")
    parser.add_argument("--scan-play", action="store_true", help="--duplicate: every move too")
    args = parser.parse_args()
    began = time.perf_counter()
    if args.duplicate:
        result = play_duplicate(args.first, args.games, args.rounds, args.seed, args.scan_play)
        leaks = result.pop("leaks")
        print(
            f"{result['games']} duplicate events ({result['hands']} table hands, "
            f"{result['moves']} moves), {result['frames']} frames scanned for every seat and a "
            f"spectator ({result['held_back_frames']} while the deal was still live elsewhere), "
            f"{result['replay_checks']} replay and table page requests: {len(leaks)} leaks. "
            f"{time.perf_counter() - began:.0f} s, Python {platform.python_version()}."
        )
        for leak in leaks[:20]:
            print("LEAK", leak)
        raise SystemExit(1 if leaks else 0)
    share = -(-args.games // args.processes)
    parts = [(args.first + i, min(share, args.games - i)) for i in range(0, args.games, share)]
    with ProcessPoolExecutor(args.processes) as pool:
        results = list(
            pool.map(play_games, *zip(*parts, strict=True), [args.target] * len(parts),
                     [args.seed] * len(parts), [args.log] * len(parts))
        )  # fmt: skip
    summary = {key: sum(r[key] for r in results) for key in results[0] if key != "leaks"}
    leaks = [leak for r in results for leak in r["leaks"]]
    seconds = time.perf_counter() - began
    print(
        f"{summary['games']} games to {args.target} ({summary['hands']} hands, "
        f"{summary['moves']} moves), {summary['frames']} frames scanned for every seat and a "
        f"spectator, {summary['replay_checks']} replay-page requests before the game's end: "
        f"{len(leaks)} leaks. {seconds:.0f} s on {args.processes} processes, "
        f"Python {platform.python_version()}."
    )
    for leak in leaks[:20]:
        print("LEAK", leak)
    raise SystemExit(1 if leaks else 0)


if __name__ == "__main__":
    main()
