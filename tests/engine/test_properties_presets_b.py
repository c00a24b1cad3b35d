"""The random-play invariants of test_properties, with more examples for the presets with wild
ranks and their own turn structure: oklahoma, oklahoma-jokers and five-thousand.

Every example plays a whole hand with random legal moves (cards conserved, one seat to act,
the legal list exact, refusals change nothing, views hide what they must, replay and storage
identical, scores card by card); the second test stops part way and checks storage and views.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import OPTIONS, PRESETS, Rules, make_rules
from tests.engine import test_properties as base

PRESETS_B = ("oklahoma", "oklahoma-jokers", "five-thousand")
FREE = ("deepest_card_new_meld", "thirty_point_rule", "discards_displayed", "group_suits_distinct")


@st.composite
def tables_b(draw: st.DrawFn) -> tuple[Rules, int, int]:
    preset = draw(st.sampled_from(PRESETS_B))
    info = PRESETS[preset]
    players = draw(st.integers(info.min_players, info.max_players))
    options: dict[str, object] = {name: draw(st.booleans()) for name in FREE}
    options["top_discard_free"] = preset == "five-thousand" and draw(st.booleans())
    options["boathouse"] = OPTIONS["boathouse"].default_for(preset) or draw(st.booleans())
    if preset == "oklahoma-jokers":
        options["jokers"] = draw(st.integers(1, 4))
    seed = draw(st.integers(0, 2**64 - 1))
    return make_rules(preset, **options), players, seed


@settings(deadline=None, max_examples=45)
@given(tables_b())
def test_random_legal_play_keeps_every_invariant_with_wild_ranks(
    table: tuple[Rules, int, int],
) -> None:
    base.test_random_legal_play_keeps_every_invariant.hypothesis.inner_test(table)


@settings(deadline=None, max_examples=30)
@given(tables_b(), st.integers(0, 300))
def test_a_state_part_way_through_stores_replays_and_views_identically_with_wild_ranks(
    table: tuple[Rules, int, int], stop: int
) -> None:
    base.test_a_state_part_way_through_stores_replays_and_views_identically.hypothesis.inner_test(
        table, stop
    )
