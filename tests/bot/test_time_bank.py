"""Issue 29, point 4: the time bank, pre-actions, and sitting out from the player's panel.

Time is the table service's own clock (``bot.tables.now``), set by hand here: the action
timer is long enough never to fire by itself, and the test runs the timeout the clock would
run (``bot.tables.expire``) at the moments it chooses. Nothing waits on the wall clock.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

import engine
from tests.bot.driver import (
    create_table,
    fold,
    forged_press,
    live_table,
    opener,
    table_message,
)
from tests.emulator import Emulator, World

TIMER = 600


class Clock:
    """The table service's clock, moved by the test."""

    def __init__(self) -> None:
        self.t = float(int(time.time()))

    def __call__(self) -> float:
        return self.t


def user_of(world: World, pid: str) -> Any:
    return next(p for p in world.players if str(p.id) == pid)


def table_text(emu: Emulator, world: World) -> str:
    message = table_message(emu, world)
    return " ".join([message.text, *(e.get("description") or "" for e in message.embeds)])


async def start(poker_bot: Any, emu: Emulator, world: World, players: int, **options: Any) -> Any:
    bot = await poker_bot()
    clock = Clock()
    bot.tables.now = clock
    lobby = await create_table(
        emu, world, world.players[:players], stake=2, ante=1, auto_deal=0, **options
    )
    live = live_table(bot, world)
    live.settings.action_seconds = TIMER
    await emu.click(world.players[0], lobby, label="Deal")
    await emu.idle()
    return bot, clock, live


async def test_the_bank_keeps_the_hand_and_the_timeout_acts_only_when_it_is_spent(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot, clock, live = await start(poker_bot, emu, world, 2)
    first = live.engine.pending[0].player_id
    assert live.meta.banks[first] == 30  # a full bank (the refill does not go past it)
    t0 = clock.t
    assert live.deadline == t0 + TIMER
    # The turn timer runs out: the bank starts by itself, the hand waits for the player.
    clock.t = t0 + TIMER
    await bot.tables.expire(live)
    await emu.idle()
    assert live.engine.in_hand and live.engine.pending[0].player_id == first
    assert live.meta.bank_ends == {first: t0 + TIMER + 30}
    assert live.deadline == t0 + TIMER + 30
    shown = table_text(emu, world)
    assert "using time bank" in shown and f"<t:{int(t0 + TIMER + 30)}:R>" in shown
    assert "ran out of time" not in " ".join(m.text for m in emu.channel_messages(world.channel))
    assert live.meta.misses == {}
    # Part-way through the bank nothing happens.
    clock.t = t0 + TIMER + 29
    await bot.tables.expire(live)
    assert live.engine.pending[0].player_id == first and first in live.meta.bank_ends
    # Spent: now the timeout acts (a check with antes only) and counts toward sitting out.
    clock.t = t0 + TIMER + 30
    await bot.tables.expire(live)
    await emu.idle()
    assert live.engine.pending[0].player_id != first
    assert live.meta.misses == {first: 1} and live.meta.banks[first] == 0
    assert live.meta.bank_ends == {}
    assert live.deadline == clock.t + TIMER  # the next player has a whole timer
    assert "ran out of time" in " ".join(m.text for m in emu.channel_messages(world.channel))
    emu.assert_clean()


async def test_acting_in_the_bank_keeps_what_is_left_and_a_deal_refills_it(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot, clock, live = await start(poker_bot, emu, world, 2)
    first = live.engine.pending[0].player_id
    clock.t += TIMER
    await bot.tables.expire(live)
    await emu.idle()
    clock.t += 12  # 12 s of the bank used, then the player checks
    r = await emu.click(user_of(world, first), table_message(emu, world), label="Check")
    assert r.type == 7, r.content
    assert live.meta.banks[first] == 18 and first not in live.meta.bank_ends
    assert live.meta.misses == {}
    # The other player folds (a bet would do too): the next deal gives 5 s back.
    other = live.engine.pending[0].player_id
    while live.engine.in_hand:
        pid = live.engine.pending[0].player_id
        message = table_message(emu, world)
        label = "Check" if "Check" in message.button_labels else "Fold"
        if live.engine.pending[0].kind is not engine.DecisionKind.BET:
            label = "Stand pat"
        await emu.click(user_of(world, pid), message, label=label)
        await emu.idle()
    assert other != first
    await emu.run_command(world.players[0], world.channel, "poker start", {})
    await emu.idle()
    assert live.meta.banks[first] == 23 and live.meta.banks[other] == 30


async def test_a_bank_mid_run_survives_a_restart(poker_bot, emu: Emulator, world: World) -> None:
    bot, clock, live = await start(poker_bot, emu, world, 2)
    first = live.engine.pending[0].player_id
    ends = clock.t + TIMER + 30
    clock.t += TIMER
    await bot.tables.expire(live)
    await emu.idle()
    await bot.close()
    bot2 = await poker_bot()
    await emu.idle()
    live2 = live_table(bot2, world)
    # Restored with the bank running: the deadline is the bank's end, not a fresh timer.
    assert live2.meta.bank_ends == {first: ends} and live2.deadline == ends
    clock2 = Clock()
    clock2.t = ends
    bot2.tables.now = clock2
    await bot2.tables.expire(live2)
    await emu.idle()
    assert live2.meta.misses == {first: 1} and live2.engine.pending[0].player_id != first


async def test_a_table_without_a_bank_times_out_at_once(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot, clock, live = await start(poker_bot, emu, world, 2, time_bank=0)
    first = live.engine.pending[0].player_id
    clock.t += TIMER
    await bot.tables.expire(live)
    await emu.idle()
    assert live.meta.misses == {first: 1} and live.meta.bank_ends == {}


async def open_my_hand(emu: Emulator, world: World, user: Any) -> Any:
    r = await emu.click(user, table_message(emu, world), label="My hand")
    assert r.type == 4 and r.ephemeral, r.content
    return r.message


async def test_pre_actions_act_at_once_when_the_turn_comes(
    poker_bot, emu: Emulator, world: World
) -> None:
    _, _, live = await start(poker_bot, emu, world, 3)
    seats = {s.player_id: i for i, s in enumerate(live.engine.seats) if s is not None}
    first = live.engine.pending[0].player_id
    # The two others, in the order they act after the first.
    later = sorted(
        (p for p in seats if p != first), key=lambda p: (seats[p] - seats[first]) % len(seats)
    )
    second, third = (user_of(world, p) for p in later)
    panel = await open_my_hand(emu, world, second)
    assert {"Check/fold", "Call any", "Sit out next hand"} <= set(panel.button_labels)
    r = await emu.click(second, panel, label="Check/fold")
    assert r.type == 7 and "ticked" in (r.content or ""), r.content
    assert "✓ Check/fold" in r.message.button_labels
    panel3 = await open_my_hand(emu, world, third)
    assert (await emu.click(third, panel3, label="Call any")).type == 7
    assert live.meta.pre_actions == {later[0]: "checkfold", later[1]: "callany"}
    # The first player bets: check/fold folds, call any calls, both at once.
    message = table_message(emu, world)
    bet = opener(live.engine.pending[0], message.button_labels)
    assert bet.startswith(("Bet", "Raise")), message.button_labels
    before = len(live.engine.events)
    r = await emu.click(user_of(world, first), message, label=bet)
    assert r.type == 7, r.content
    await emu.idle()
    new = live.engine.events[before:]
    folds = [e for e in new if isinstance(e, engine.events.Folded)]
    calls = [e for e in new if isinstance(e, engine.events.Called)]
    assert [live.engine.seats[e.seat].player_id for e in folds] == [later[0]]
    assert [live.engine.seats[e.seat].player_id for e in calls] == [later[1]]
    assert live.meta.pre_actions == {}  # each was used once


async def test_pre_actions_are_refused_when_they_cannot_apply(
    poker_bot, emu: Emulator, world: World
) -> None:
    _, _, live = await start(poker_bot, emu, world, 2)
    first = user_of(world, live.engine.pending[0].player_id)
    carol = world.players[2]  # not seated
    hand = live.engine.hand_number
    # The player to act is told to act, not to tick.
    panel = await open_my_hand(emu, world, first)
    assert "Check/fold" not in panel.button_labels
    r = await forged_press(emu, first, panel, f"pk:s:{live.id}:{hand}:checkfold")
    assert r.ephemeral and "your turn" in (r.content or ""), r.content
    # Someone not seated, another hand's number, a public message: all refused.
    told = await emu.click(carol, table_message(emu, world), label="My hand")
    assert told.ephemeral and "not seated" in (told.content or ""), told.content
    r = await forged_press(emu, carol, told.message, f"pk:s:{live.id}:{hand}:callany")
    assert r.ephemeral and "not seated" in (r.content or ""), r.content
    other = next(p for p in world.players[:2] if p is not first)
    panel2 = await open_my_hand(emu, world, other)
    r = await forged_press(emu, other, panel2, f"pk:s:{live.id}:{hand + 1}:callany")
    assert r.ephemeral and "hand is over" in (r.content or ""), r.content
    r = await forged_press(emu, other, table_message(emu, world), f"pk:s:{live.id}:{hand}:callany")
    assert r.ephemeral and "private panel" in (r.content or ""), r.content
    r = await forged_press(emu, other, panel2, f"pk:s:{live.id}:{hand}:foldnow")
    assert r.ephemeral and "no longer valid" in (r.content or ""), r.content
    assert live.meta.pre_actions == {}
    emu.assert_clean()


async def test_sit_out_next_hand_and_back_from_the_panel(
    poker_bot, emu: Emulator, world: World
) -> None:
    _, _, live = await start(poker_bot, emu, world, 3)
    carol = world.players[2]
    panel = await open_my_hand(emu, world, carol)
    r = await emu.click(carol, panel, label="Sit out next hand")
    assert r.type == 7 and "sit out" in (r.content or ""), r.content
    assert "Back" in r.message.button_labels
    seat = next(s for s in live.engine.seats if s is not None and s.player_id == str(carol.id))
    assert seat.sitting_out
    # The hand in play goes on with her; the next one is dealt without her.
    while live.engine.in_hand:
        pid = live.engine.pending[0].player_id
        message = table_message(emu, world)
        await fold(emu, user_of(world, pid), message)
        await emu.idle()
    await emu.run_command(world.players[0], world.channel, "poker start", {})
    await emu.idle()
    assert live.engine.in_hand
    dealt = {s.player_id for s in live.engine.public_view().seats if s.in_hand}
    assert str(carol.id) not in dealt and len(dealt) == 2
    r = await emu.click(carol, await open_my_hand(emu, world, carol), label="Back")
    assert r.type == 7 and "back" in (r.content or "").lower(), r.content
    assert not seat.sitting_out


@pytest.mark.parametrize("bank", [0, 45])
async def test_a_tournament_sizes_or_turns_off_its_tables_banks(
    poker_bot, emu: Emulator, world: World, bank: int
) -> None:
    bot = await poker_bot()
    options = {"buy_in": 10, "starting_stack": 200, "seats": 2, "auto_deal": 0, "time_bank": bank}
    created = await emu.run_command(world.host, world.channel, "poker tournament create", options)
    assert created.type == 4 and not created.ephemeral, created.content
    for player in world.players[:2]:
        r = await emu.click(player, created.message, label="Register")
        assert r.type == 7, r.content
    # The tournament starts once its seats are full, in a task of its own: wait for its table.
    live = await emu.wait_for(lambda: live_table(bot, world), timeout=10)
    assert live.meta.tournament is not None
    assert live.settings.time_bank == bank


async def test_the_time_bank_option_is_checked(poker_bot, emu: Emulator, world: World) -> None:
    await poker_bot()
    for value in (-1, 301, True, "30"):
        r = await emu.run_forged_command(
            world.host, world.channel, "poker create", {"time_bank": value}
        )
        assert r.ephemeral and "time bank" in (r.content or "").lower(), (value, r.content)


async def test_the_creator_resizes_the_bank_and_a_deal_cuts_banks_to_it(
    poker_bot, emu: Emulator, world: World
) -> None:
    _, _, live = await start(poker_bot, emu, world, 2)
    alice, bob = world.players[:2]
    refused = await emu.run_command(bob, world.channel, "poker settings", {"time_bank": 10})
    assert refused.ephemeral and live.settings.time_bank == 30, refused.content
    r = await emu.run_command(alice, world.channel, "poker settings", {"time_bank": 10})
    assert not r.ephemeral and "time bank 10s" in (r.content or ""), r.content
    assert live.settings.time_bank == 10
    while live.engine.in_hand:
        pid = live.engine.pending[0].player_id
        message = table_message(emu, world)
        await fold(emu, user_of(world, pid), message)
        await emu.idle()
    await emu.run_command(alice, world.channel, "poker start", {})
    await emu.idle()
    assert live.meta.banks == {str(alice.id): 10, str(bob.id): 10}


async def test_a_ticked_pre_action_is_replaced_or_cleared(
    poker_bot, emu: Emulator, world: World
) -> None:
    _, _, live = await start(poker_bot, emu, world, 2)
    waiting = next(p for p in world.players[:2] if str(p.id) != live.engine.pending[0].player_id)
    panel = await open_my_hand(emu, world, waiting)
    panel = (await emu.click(waiting, panel, label="Check/fold")).message
    panel = (await emu.click(waiting, panel, label="Call any")).message
    assert live.meta.pre_actions == {str(waiting.id): "callany"}
    assert "✓ Call any" in panel.button_labels and "Check/fold" in panel.button_labels
    r = await emu.click(waiting, panel, label="Clear pre-action")
    assert r.type == 7 and "No pre-action" in (r.content or ""), r.content
    assert live.meta.pre_actions == {}
    assert "Clear pre-action" not in r.message.button_labels
