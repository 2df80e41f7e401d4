"""Property tests: thousands of random legal hands under every betting structure and forced
bet, with random stacks and all-ins. After every action chips are conserved and every card is
in exactly one place; the hand never stalls; at the end every shown hand holds five cards and
every pot goes only to players eligible for it."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import FixedLimit, ForcedBets, NoLimit, PotLimit, SpreadLimit, TableOptions
from engine.rules import DRAW_FIVE, DRAW_FOUR_WITH_ACE, DRAW_THREE
from tests.engine.engine_helpers import check_result, make_table, play_random_hand

STRUCTURES = st.sampled_from(
    [
        FixedLimit(2),
        FixedLimit(2, max_raises=None),
        SpreadLimit(1, 4, 2, 8),
        PotLimit(2),
        NoLimit(2),
    ]
)
FORCED = st.sampled_from(
    [
        ForcedBets.antes(1),
        ForcedBets.dealers_edge(2),
        ForcedBets.with_blinds(1, 2),
        ForcedBets.with_blinds(1, 2, straddle=4),
        ForcedBets.with_blinds(1, 2, ante=1),
    ]
)
OPTIONS = st.builds(
    TableOptions,
    pass_out_reante=st.booleans(),
    pass_out_deal_passes=st.booleans(),
    second_round_from_opener=st.booleans(),
    draw_limit=st.sampled_from([None, DRAW_THREE, DRAW_FOUR_WITH_ACE, DRAW_FIVE]),
)


@settings(max_examples=800, deadline=None, derandomize=True)
@given(
    players=st.integers(2, 10),
    structure=STRUCTURES,
    forced=FORCED,
    options=OPTIONS,
    stacks=st.lists(st.integers(1, 400), min_size=10, max_size=10),
    seed=st.integers(0, 2**32),
)
def test_random_hands_keep_every_invariant(players, structure, forced, options, stacks, seed):
    rng = random.Random(seed)
    names = [f"p{i}" for i in range(players)]
    table = make_table(
        names, structure=structure, forced=forced, stacks=stacks[:players], options=options
    )
    total = table.chips()
    for _ in range(4):
        if table.can_start() is not None:
            break
        table.start_hand(rng)
        assert table.chips() == total
        play_random_hand(rng, table, total)
        check_result(table)
        assert table.chips() == total
        assert sum(table.result.final_stacks.values()) + table.carried <= total
