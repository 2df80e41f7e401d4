"""Differential test against pokerkit: no-limit five-card draw with blinds, antes and all-ins.

Each hand is played in our engine with random legal actions; the same cards (dealt, burned,
drawn) and the same actions are then fed to pokerkit's draw state with ``StandardHighHand``.
The pots (amounts and eligible players) and the final stacks must be identical.
"""

from __future__ import annotations

import random
import warnings

from pokerkit import (
    Automation,
    BettingStructure,
    Deck,
    Mode,
    Opening,
    StandardHighHand,
    State,
    Street,
)
from pokerkit import (
    Card as PkCard,
)

from engine import ForcedBets, NoLimit, Table, TableOptions
from engine import events as ev
from engine.rules import DRAW_THREE
from tests.engine.engine_helpers import make_table, random_action

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
)
HANDS = 1200


def pk_card(card) -> PkCard:
    (converted,) = PkCard.parse(str(card))
    return converted


def pokerkit_state(ante: int, stacks: list[int]) -> State:
    streets = (
        Street(False, (False,) * 5, 0, False, Opening.POSITION, 2, None),
        Street(True, (), 0, True, Opening.POSITION, 2, None),
    )
    return State(
        AUTOMATIONS,
        Deck.STANDARD,
        (StandardHighHand,),
        streets,
        BettingStructure.NO_LIMIT,
        True,
        ante,
        (1, 2),
        0,
        stacks,
        len(stacks),
        mode=Mode.CASH_GAME,
    )


def play_ours(rng: random.Random, n: int, ante: int, stacks: list[int]) -> Table:
    table = make_table(
        [f"p{i}" for i in range(n)],
        structure=NoLimit(2),
        forced=ForcedBets.with_blinds(1, 2, ante=ante),
        stacks=stacks,
        options=TableOptions(draw_limit=DRAW_THREE),
    )
    table.start_hand(rng)
    while table.in_hand:
        decision = table.pending[0]
        seat, action = random_action(rng, table)
        assert seat == decision.seat
        table.act(seat, action)
    return table


def replay_in_pokerkit(table: Table, ante: int, stacks: list[int]) -> tuple[list, list[int]]:
    hand = table.hand
    assert hand is not None
    index = {p.seat: p.index for p in hand.players}
    state = pokerkit_state(ante, stacks)
    dealt: dict[int, list] = {i: [] for i in range(len(stacks))}
    for event in hand.events:
        if isinstance(event, ev.Dealt):
            dealt[index[event.seat]].extend(event.cards)
    while state.can_deal_hole():
        i = state.hole_dealee_index
        state.deal_hole((pk_card(dealt[i].pop(0)),))
    burn = next((e.card for e in hand.events if isinstance(e, ev.Burned)), None)
    replacements: dict[int, list] = {}
    for event in hand.events:
        if isinstance(event, ev.Folded):
            assert state.actor_index == index[event.seat]
            state.fold()
        elif isinstance(event, ev.Checked | ev.Called):
            assert state.actor_index == index[event.seat]
            state.check_or_call()
        elif isinstance(event, ev.BetPlaced | ev.Raised):
            assert state.actor_index == index[event.seat]
            state.complete_bet_or_raise_to(event.to)
        elif isinstance(event, ev.Drew):
            i = index[event.seat]
            assert state.stand_patter_or_discarder_index == i
            state.stand_pat_or_discard(tuple(pk_card(c) for c in event.discarded))
            replacements[i] = list(event.received)
            if state.stand_patter_or_discarder_index is None:
                if state.can_burn_card():
                    # pokerkit burns even when nobody draws; we burn only before a
                    # replacement. Any unused card will do then.
                    state.burn_card((pk_card(burn if burn is not None else hand.stub[-1]),))
                while state.can_deal_hole():
                    j = state.hole_dealee_index
                    state.deal_hole((pk_card(replacements[j].pop(0)),))
    pots = [(pot.amount, tuple(pot.player_indices)) for pot in state.pots]
    while state.can_show_or_muck_hole_cards():
        state.show_or_muck_hole_cards(True)
    while state.can_kill_hand():
        state.kill_hand()
    while state.can_push_chips():
        state.push_chips()
    while state.can_pull_chips():
        state.pull_chips()
    assert not state.status
    return pots, list(state.stacks)


def odd_chip_convention_differs(table: Table) -> bool:
    """pokerkit gives every odd chip of a split to one winner; we give them one each, starting
    left of the dealer."""
    result = table.result
    assert result is not None
    return any(len(pot.shares) >= 3 and pot.amount % len(pot.shares) >= 2 for pot in result.pots)


def test_same_pots_and_stacks_as_pokerkit():
    rng = random.Random(2024)
    compared = 0
    skipped = 0
    showdowns = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(HANDS):
            n = rng.randint(2, 6)
            ante = rng.choice([0, 1, 2])
            stacks = [rng.choice([rng.randint(4, 30), rng.randint(30, 400)]) for _ in range(n)]
            table = play_ours(rng, n, ante, stacks)
            if odd_chip_convention_differs(table):
                skipped += 1
                continue
            pots, final = replay_in_pokerkit(table, ante, stacks)
            result = table.result
            assert result is not None
            if result.shown:
                # pokerkit leaves the last bets of a hand won by a fold outside its pots, so
                # pots are compared at showdowns; the stacks are compared for every hand.
                ours = [(p.amount, p.eligible) for p in result.pots]
                assert ours == pots, (ours, pots, [e.to_dict() for e in table.events])
                showdowns += 1
            expected = [result.final_stacks[f"p{i}"] for i in range(n)]
            assert final == expected, (final, expected, [e.to_dict() for e in table.events])
            compared += 1
    assert compared >= 1000
    assert showdowns >= 300
    assert skipped <= 10
