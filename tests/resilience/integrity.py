"""What a table's records must satisfy after any fault: a gap-free move log per hand, each
move on its own version, and the stored state equal to replaying the log from the deal."""

from __future__ import annotations

from games import engine
from games.models import Hand, Move, Table


def check_table(table_id: int) -> int:
    """Assert the records of every hand played at the table hold together; return moves."""
    table = Table.objects.get(pk=table_id)
    total = 0
    for hand in Hand.objects.filter(game__table=table).select_related("game"):
        moves = list(Move.objects.filter(hand=hand).order_by("seq"))
        seqs = [m.seq for m in moves]
        assert seqs == list(range(1, len(moves) + 1)), f"hand {hand.pk}: gaps or repeats {seqs}"
        assert hand.moves_count == len(moves), f"hand {hand.pk}: count {hand.moves_count}"
        versions = [m.table_version for m in moves]
        assert versions == sorted(set(versions)), f"hand {hand.pk}: versions {versions}"
        assert all(v <= table.version for v in versions)
        stored = engine.state_from_json(hand.state)
        replayed = engine.replay(
            [{"seat": m.seat, **m.action} for m in moves],
            rules=stored.rules,
            num_seats=len(stored.hands),
            dealer=stored.dealer,
            totals=stored.totals,
            on_board=stored.on_board,
            seed=stored.seed,
            deck=stored.deck,
        )
        assert engine.state_to_json(replayed) == hand.state, f"hand {hand.pk} differs on replay"
        total += len(moves)
    return total
