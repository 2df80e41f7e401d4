"""Issue 29, point 1: one message per hand. The message a hand was played on becomes its
result (the showdown picture, no buttons but Replay); the next hand is a new message, so the
live table is always the newest message of the channel; no stubs, and no turn ping stays."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

import engine
from cogs.presenter import Shown, TablePresenter
from tests.bot.driver import (
    act_once,
    create_table,
    custom_ids,
    fold,
    live_table,
    opener,
    play_hand,
    table_message,
)
from tests.emulator import Emulator, World

PING = "🔔"
HANDS = 3


def results(emu: Emulator, world: World) -> list[Any]:
    """The public messages that offer only a Replay button (a hand's result)."""
    return [
        m
        for m in emu.channel_messages(world.channel)
        if (ids := [cid for cid in custom_ids(m) if cid])
        and all(cid.startswith("pk:r:") for cid in ids)
    ]


async def play_watching_pings(emu: Emulator, world: World, bot: Any, live: Any) -> tuple[Any, int]:
    """Play the hand out; after every action, a ping left in the channel mentions only
    players still to act (an answered ping is gone). The result, and how many pings stood."""
    pinged = 0
    for _ in range(200):
        await emu.idle()
        if not live.engine.in_hand:
            return live.engine.result, pinged
        waiting = {d.player_id for d in live.engine.pending}
        for message in emu.channel_messages(world.channel):
            mentioned = set(re.findall(r"<@(\d+)>", message.content or ""))
            assert mentioned <= waiting, (message.content, waiting)
            pinged += bool(mentioned)
        await act_once(emu, world, bot, live.engine.pending[0], policy=opener)
    raise AssertionError("the hand did not finish")


async def test_three_hands_leave_one_message_each(poker_bot, emu: Emulator, world: World) -> None:
    bot = await poker_bot()
    bot.presenter.ping_after = 0  # every turn is pinged: each ping must still go
    players = world.players[:4]
    # Every player bets or raises when they can, else calls: each hand ends at a showdown.
    lobby = await create_table(
        emu,
        world,
        players,
        betting="fixed-limit",
        stake=2,
        ante=1,
        auto_deal=0,
        min_buy_in=200,  # nobody goes broke in three hands
        max_buy_in=400,
    )
    live = live_table(bot, world)
    deal_on = lobby
    for hand in range(1, HANDS + 1):
        dealt = await emu.click(players[hand % 4], deal_on, label="Deal")
        assert dealt.type == 7, dealt.content  # the lobby message became the hand: no stub
        await emu.idle()
        assert Shown.of(live).message_id == deal_on.id
        result, pinged = await play_watching_pings(emu, world, bot, live)
        assert result.hand_number == hand and pinged, "nobody was pinged: nothing was tested"
        await emu.idle()
        channel = emu.channel_messages(world.channel)
        # One message per hand played, and the live table (between hands) below them.
        assert len(channel) == hand + 1, [m.text[:50] for m in channel]
        assert channel[-1].id == Shown.of(live).message_id
        assert "Deal" in channel[-1].button_labels
        assert not [m for m in channel if PING in (m.content or "")], "a ping stayed"
        finished = results(emu, world)
        assert [m.id for m in finished] == [m.id for m in channel[:-1]]
        for message in finished:
            assert [a.filename for a in message.attachments] == ["showdown.png"], message.text[:400]
            assert message.embeds[0]["image"]["url"].endswith("showdown.png")
        assert finished[-1].id == deal_on.id, "the hand's own message became its result"
        assert f"hand\u00a0#{hand} result" in finished[-1].text
        deal_on = channel[-1]
    # The replay is one click away, for the presser alone.
    first = results(emu, world)[0]
    replay = await emu.click(players[1], first, label="Replay")
    assert replay.ephemeral
    assert "hand\u00a0#1 · dealt" in replay.message.text, replay.message.text[:200]
    assert "Your own cards are shown" in replay.message.text
    assert len(emu.channel_messages(world.channel)) == HANDS + 1
    emu.assert_clean()


async def test_a_closed_table_offers_no_seat_or_deal(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    alice, bob = world.players[:2]
    lobby = await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    await emu.click(alice, lobby, label="Deal")
    await emu.idle()
    ending = await emu.run_command(alice, world.channel, "poker end", {})
    assert "as soon as it is over" in ending.content, ending.content
    await play_hand(emu, world, bot)
    await emu.idle()
    assert live_table(bot, world) is None
    labels = {label for m in emu.channel_messages(world.channel) for label in m.button_labels}
    assert labels <= {"Replay"}, labels
    emu.assert_clean()


async def stop_before_the_result(poker_bot: Any, emu: Emulator, world: World) -> Any:
    """Play a hand to its end with a bot that stops after the end is saved but before Discord
    shows it, and stop it; returns the hand's message (the lobby it was dealt on)."""
    bot = await poker_bot()
    alice, bob = world.players[:2]
    lobby = await create_table(
        emu, world, [alice, bob], betting="fixed-limit", stake=2, ante=1, auto_deal=0
    )
    await emu.click(alice, lobby, label="Deal")
    await emu.idle()
    live = live_table(bot, world)
    real = bot.presenter._present

    async def stopped(live: Any, outcome: Any, interaction: Any) -> None:
        if outcome.result is None:
            await real(live, outcome, interaction)
        elif interaction is not None:  # the process dies here: Discord sees nothing
            await interaction.response.defer()

    bot.presenter._present = stopped
    for _ in range(100):
        await emu.idle()
        if not live.engine.in_hand:
            break
        decision = live.engine.pending[0]
        if decision.kind is not engine.DecisionKind.BET:
            await act_once(emu, world, bot, decision, policy=opener)
            continue
        user = next(p for p in world.players if str(p.id) == decision.player_id)
        message = table_message(emu, world)
        await emu.click(user, message, label=opener(decision, message.button_labels))
    assert not live.engine.in_hand and live.engine.result is not None
    assert results(emu, world) == [], "nothing was shown before the stop"
    saved = Shown.of(live).saved()
    assert saved["message_id"] == lobby.id and saved["hand"][0] == 1
    await bot.close()
    return lobby


async def test_a_restart_between_the_end_and_the_result_finishes_the_move(
    poker_bot, emu: Emulator, world: World
) -> None:
    """The bot stops after a hand's end is saved but before Discord shows it: the restarted
    bot turns the hand's message into its result and posts the table below it."""
    lobby = await stop_before_the_result(poker_bot, emu, world)
    bot2 = await poker_bot()
    await emu.idle()
    channel = await emu.wait_for(
        lambda: (m := emu.channel_messages(world.channel)) and len(m) == 2 and m,
        timeout=10,
    )
    (result,) = results(emu, world)
    assert result.id == lobby.id and "hand\u00a0#1 result" in result.text
    assert [a.filename for a in result.attachments] == ["showdown.png"]
    assert "Deal" in channel[-1].button_labels
    assert Shown.of(live_table(bot2, world)).message_id == channel[-1].id
    emu.assert_clean()


async def test_a_deal_while_the_move_is_finished_survives_another_restart(
    poker_bot: Any, emu: Emulator, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The restarted bot is still turning the hand's message into its result when the next
    hand is dealt, and the process dies before the table has its new message. The deal's
    snapshot must still say where the table is shown: after the next restart the newest
    table buttons are the hand in progress, and they work."""
    await stop_before_the_result(poker_bot, emu, world)
    drawing = asyncio.Event()
    never = asyncio.Event()  # the process dies before the result is drawn
    holding = [True]
    real = TablePresenter.showdown_message

    async def slow(self: TablePresenter, *args: Any, **kwargs: Any) -> Any:
        if holding[0]:
            drawing.set()
            await never.wait()
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(TablePresenter, "showdown_message", slow)
    bot2 = await poker_bot()
    await asyncio.wait_for(drawing.wait(), 10)  # the restart is moving the table
    dealt = await emu.run_command(world.players[0], world.channel, "poker start", {})
    assert dealt.ephemeral and "Dealing" in (dealt.content or ""), dealt.content
    # The process dies: what it was doing stops where it is (nothing more is saved or sent).
    for task in [*bot2._in_flight, *bot2.presenter._tasks]:
        task.cancel()
    await bot2.close()
    holding[0] = False
    bot3 = await poker_bot()
    await emu.idle()
    live = live_table(bot3, world)
    assert live.engine.in_hand and live.engine.hand_number == 2
    message = table_message(emu, world)
    version = f":{live.version()}:"
    assert all(version in cid for cid in custom_ids(message) if cid.startswith("pk:t:")), (
        "the newest table buttons are not the hand in progress",
        custom_ids(message),
        live.version(),
    )
    await act_once(emu, world, bot3, live.engine.pending[0], policy=opener)


async def test_ending_between_hands_leaves_no_table_message(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    alice, bob = world.players[:2]
    lobby = await create_table(
        emu, world, [alice, bob], betting="fixed-limit", stake=2, ante=1, auto_deal=0
    )
    await emu.click(alice, lobby, label="Deal")
    await emu.idle()
    await play_hand(emu, world, bot, policy=opener)
    await emu.idle()
    between = emu.channel_messages(world.channel)[-1]
    assert "Deal" in between.button_labels
    ended = await emu.run_command(alice, world.channel, "poker end", {})
    assert not ended.ephemeral and "Table closed" in ended.message.text, ended.content
    await emu.idle()
    channel = emu.channel_messages(world.channel)
    assert between.id not in [m.id for m in channel], "the table message between hands went"
    labels = {label for m in channel for label in m.button_labels}
    assert labels <= {"Replay"}, labels
    assert results(emu, world)[0].id == lobby.id
    emu.assert_clean()


async def test_a_hand_dealt_with_no_table_message_is_remembered_by_the_one_posted(
    poker_bot, emu: Emulator, world: World
) -> None:
    """The new table message could not be posted after a hand (Discord refused it): the next
    deal posts one, and what is saved names the hand it shows, so that a restart after that
    hand's end still turns the message into its result."""
    bot = await poker_bot()
    alice, bob = world.players[:2]
    lobby = await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    await emu.click(alice, lobby, label="Deal")
    await emu.idle()
    live = live_table(bot, world)
    table_posts = 0

    def posts_the_table(call: Any) -> bool:
        # The move to a new message: a followup of the last press, then a channel post.
        nonlocal table_posts
        refused = call.method == "POST" and (
            call.kind == "interaction_webhook"
            or call.path.endswith(f"/channels/{world.channel.id}/messages")
        )
        table_posts += refused
        return refused

    emu.faults.error(
        posts_the_table, status=403, code=50013, message="Missing Permissions", count=10
    )
    decision = live.engine.pending[0]
    user = next(p for p in world.players if str(p.id) == decision.player_id)
    await fold(emu, user, table_message(emu, world))
    await emu.idle()
    assert table_posts >= 1, "the move to a new message was not refused: nothing was tested"
    emu.faults.clear()
    assert not live.engine.in_hand and Shown.of(live).message_id is None
    dealt = await emu.run_command(alice, world.channel, "poker start", {})
    assert dealt.ephemeral and "Dealing" in dealt.content, dealt.content
    await emu.idle()
    shown = Shown.of(live)
    assert live.engine.in_hand and shown.message_id is not None
    assert shown.saved()["hand"] == [live.engine.hand_number, live.meta.hand.hand_id]
