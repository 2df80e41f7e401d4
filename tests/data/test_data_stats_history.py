"""A member's game over time (``Database.stats_history``): the bankroll series from the ledger
and the net per game from the hands they were dealt in."""

from __future__ import annotations

import json

import pytest

from data import (
    BankrollPoint,
    Database,
    GameNet,
    InvalidArgument,
    PlayerHandResult,
    Table,
    TableSave,
)

from .helpers import ADMIN, CHANNEL, GUILD, OTHER_GUILD, commitment, seat_players, state


async def play(
    db: Database,
    table: Table,
    stacks: dict[int, int],
    variant: tuple[str, str],
    nets: dict[int, int],
    *,
    now: float,
) -> dict[int, int]:
    """One hand of ``variant`` dealing in the players of ``nets``, stored as the bot stores it:
    a hand-started event with the stacks as dealt, a result with the stacks after."""
    deck = f"deck {now}"
    started = {
        "type": "hand-started",
        "hand_number": 1,
        "game": variant[0],
        "button": 0,
        "seats": [[seat, str(user), stacks[user]] for seat, user in enumerate(nets)],
    }
    chips = (await db.get_table(table.table_id)).chips_on_table
    hand = await db.start_hand(
        table.table_id,
        variant=variant[0],
        variant_name=variant[1],
        commitment=commitment("salt", deck),
        salt="salt",
        deck=deck,
        save=TableSave(state(stacks=stacks, hand=True), chips, stacks, [(0, json.dumps(started))]),
        now=now,
    )
    after = {user: stack + nets.get(user, 0) for user, stack in stacks.items()}
    result = {"hand_number": 1, "final_stacks": {str(u): after[u] for u in nets}}
    await db.record_hand_result(
        GUILD,
        table.table_id,
        hand.hand_id,
        [PlayerHandResult(u, net, net > 0, max(net, 0), None, None) for u, net in nets.items()],
        result_json=json.dumps(result),
        pot=sum(-n for n in nets.values() if n < 0),
        save=TableSave(state(stacks=after), chips, after, [(1, json.dumps({"type": "showdown"}))]),
        now=now + 1,
    )
    return after


async def void_one(
    db: Database, table: Table, stacks: dict[int, int], variant: tuple[str, str], *, now: float
) -> None:
    """A hand dealt to everyone seated, then voided with every stack back to the deal."""
    started = {
        "type": "hand-started",
        "seats": [[seat, str(user), stack] for seat, (user, stack) in enumerate(stacks.items())],
    }
    chips = (await db.get_table(table.table_id)).chips_on_table
    hand = await db.start_hand(
        table.table_id,
        variant=variant[0],
        variant_name=variant[1],
        commitment=commitment("salt", "void"),
        salt="salt",
        deck="void",
        save=TableSave(state(stacks=stacks, hand=True), chips, stacks, [(0, json.dumps(started))]),
        now=now,
    )
    await db.void_hand(
        GUILD,
        table.table_id,
        hand.hand_id,
        reason_json=json.dumps({"void": "refused"}),
        save=TableSave(state(stacks=stacks), chips, stacks),
        now=now + 1,
    )


DRAW = ("five_card_draw", "Five-card draw")
HOLDEM = ("texas_holdem", "Texas hold'em")


async def test_net_per_game_from_the_hands_dealt_in(db: Database) -> None:
    table = await db.create_table(GUILD, CHANNEL, 5, "{}")
    stacks = await seat_players(db, table, {5: 100, 6: 100, 7: 100}, now=10)
    stacks = await play(db, table, stacks, DRAW, {5: 20, 6: -20}, now=20)
    stacks = await play(db, table, stacks, HOLDEM, {5: -10, 6: 5, 7: 5}, now=30)
    stacks = await play(db, table, stacks, DRAW, {5: 4, 6: -4}, now=40)

    five = await db.stats_history(GUILD, 5)
    assert five.games == (GameNet(*DRAW, 2, 24), GameNet(*HOLDEM, 1, -10))
    assert (five.hands, five.capped) == (3, False)
    six = await db.stats_history(GUILD, 6)
    assert six.games == (GameNet(*HOLDEM, 1, 5), GameNet(*DRAW, 2, -24))
    # 7 sat out the draw hands: only the hand they were dealt counts
    seven = await db.stats_history(GUILD, 7)
    assert seven.games == (GameNet(*HOLDEM, 1, 5),)

    # a voided hand (the safety valve) has no result figures: it counts for nobody
    await void_one(db, table, stacks, HOLDEM, now=50)
    assert (await db.stats_history(GUILD, 5)).games == five.games

    # the newest hands only, and it says so
    newest = await db.stats_history(GUILD, 5, max_hands=2)
    assert newest.games == (GameNet(*DRAW, 1, 4), GameNet(*HOLDEM, 1, -10))
    assert (newest.hands, newest.capped) == (2, True)

    # a dealer's choice hand (the table's variant, the chosen game's name) is its own game
    chosen = (DRAW[0], "California lowball")
    stacks = await play(db, table, stacks, chosen, {5: 7, 6: -7}, now=60)
    five = await db.stats_history(GUILD, 5)
    assert five.games == (
        GameNet(*DRAW, 2, 24),
        GameNet(*chosen, 1, 7),
        GameNet(*HOLDEM, 1, -10),
    )

    # another server's member with the same id has no history here
    other = await db.stats_history(OTHER_GUILD, 5)
    assert other.games == () and other.bankroll == () and other.hands == 0


async def test_bankroll_series_follows_the_ledger(db: Database) -> None:
    table = await db.create_table(GUILD, CHANNEL, 5, "{}")
    await seat_players(db, table, {5: 300}, now=10)  # account issued (1,000), then 300 bought in
    assert (await db.stats_history(GUILD, 5)).bankroll == (
        BankrollPoint(10.0, 1000),
        BankrollPoint(10.0, 700),
    )
    for i in range(40):
        await db.admin_grant(GUILD, ADMIN, 5, 10, now=100.0 + i)
    full = await db.stats_history(GUILD, 5)
    assert len(full.bankroll) == 42
    assert [p.balance for p in full.bankroll[2:]] == [700 + 10 * (i + 1) for i in range(40)]

    thinned = await db.stats_history(GUILD, 5, max_points=10)
    assert 2 <= len(thinned.bankroll) <= 10
    assert thinned.bankroll[0] == full.bankroll[0]
    assert thinned.bankroll[-1] == full.bankroll[-1] == BankrollPoint(139.0, 1100)
    assert set(thinned.bankroll) <= set(full.bankroll)
    times = [p.at for p in thinned.bankroll]
    assert times == sorted(times)
    # nobody's hands played: the games stay empty
    assert thinned.games == () and thinned.hands == 0


async def test_a_member_without_history(db: Database) -> None:
    empty = await db.stats_history(GUILD, 42)
    assert (empty.bankroll, empty.games, empty.hands, empty.capped) == ((), (), 0, False)


async def test_stats_history_checks_its_arguments(db: Database) -> None:
    with pytest.raises(InvalidArgument, match="max_points"):
        await db.stats_history(GUILD, 5, max_points=1)
    with pytest.raises(InvalidArgument, match="max_hands"):
        await db.stats_history(GUILD, 5, max_hands=0)
    with pytest.raises(InvalidArgument, match="user_id"):
        await db.stats_history(GUILD, "5")  # type: ignore[arg-type]
