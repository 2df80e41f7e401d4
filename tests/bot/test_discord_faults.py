"""Discord misbehaving around a running table, as a real server does: a moderator deleting
the table's message or its channel, the bot removed from its server, answers failing with
5xx. Each time the table must stay playable or pay its players out, chips adding up."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable
from typing import Any

import engine
from tests.bot.driver import (
    act_once,
    create_table,
    deal,
    find_table_message,
    live_table,
    open_panel,
    opener,
    play_hand,
    shows_now,
    table_message,
)
from tests.emulator import Emulator, World


async def _table_shown(emu: Emulator, world: World) -> Any:
    try:
        return await emu.wait_for(lambda: find_table_message(emu, world), timeout=3)
    except TimeoutError:
        raise AssertionError("the table has no message with its buttons") from None


async def _to_the_draw(emu: Emulator, world: World, bot: Any) -> tuple[Any, Any]:
    """Deal the channel's table and play (calling, checking) up to the first draw; the table
    and the player to draw."""
    await deal(emu, world, world.players[0])
    live = live_table(bot, world)
    while live.engine.pending[0].kind is not engine.DecisionKind.DRAW:
        await act_once(emu, world, bot, live.engine.pending[0])
        await emu.idle()
    pid = live.engine.pending[0].player_id
    return live, next(u for u in world.players if str(u.id) == pid)


async def _all_accounted_for_and_closed(bot: Any, world: World) -> None:
    """Every chip accounted for by the chip audit, and no table left open."""
    assert (await bot.db.chip_audit(world.guild.id)).ok
    assert await bot.db.open_tables() == []


async def test_a_table_message_deleted_mid_hand_comes_back_with_the_next_change(
    poker_bot, emu: Emulator, world: World
) -> None:
    """The bot reads no message events: it learns of the deletion when it next shows the
    table (here the player to act running out of time), and posts the table again instead
    of leaving its players with no buttons until someone thinks of /poker table."""
    bot = await poker_bot()
    alice, bob, carol = world.players[:3]
    await create_table(emu, world, [alice, bob, carol], stake=2, ante=1, auto_deal=0, time_bank=0)
    await deal(emu, world, alice)
    live = live_table(bot, world)
    await act_once(emu, world, bot, live.engine.pending[0])
    await emu.idle()
    events = len(live.engine.events)
    live.settings.action_seconds = 0.3
    bot.tables.clock.schedule(live)
    emu.delete_message(table_message(emu, world))  # a moderator tidies the channel
    await emu.wait_for(lambda: len(live.engine.events) > events, timeout=3)
    await _table_shown(emu, world)
    live.settings.action_seconds = 60
    bot.tables.clock.schedule(live)
    await play_hand(emu, world, bot)
    # (The emulator's 404s are the deleted message's, as Discord answers them.)
    assert not emu.failures, emu.failures


async def test_a_table_message_deleted_while_the_bot_was_away_is_posted_again(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    alice, bob, carol = world.players[:3]
    await create_table(emu, world, [alice, bob, carol], stake=2, ante=1, auto_deal=0)
    await deal(emu, world, alice)
    await emu.idle()
    await bot.close()
    emu.delete_message(table_message(emu, world))  # nobody hears of it
    bot2 = await poker_bot()
    await _table_shown(emu, world)
    await play_hand(emu, world, bot2)
    # (The emulator's 404s are the deleted message's, as Discord answers them.)
    assert not emu.failures, emu.failures


async def _bankrolls(bot: Any, world: World, users: list[Any]) -> dict[int, int]:
    return {u.id: await bot.db.balance(world.guild.id, u.id) for u in users}


async def test_a_table_whose_channel_is_deleted_mid_hand_pays_everyone_out(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Nobody can see or act at a table in a deleted channel, nor /poker leave it: its chips
    would stay on it for good. It closes at once; the hand in progress is void (every chip
    back where it was at the deal) and every stack goes back to its bankroll."""
    bot = await poker_bot()
    players = world.players[:3]
    before = await _bankrolls(bot, world, players)
    await create_table(emu, world, players, stake=2, ante=1, auto_deal=0)
    await deal(emu, world, players[0])
    live = live_table(bot, world)
    for _ in range(2):
        await act_once(emu, world, bot, live.engine.pending[0], policy=opener)
    await emu.idle()
    assert live.engine.in_hand and live.engine.public_view().current_bet > 0
    hand_id = live.meta.hand.hand_id
    world.channel.deleted = True  # a moderator deletes #poker
    emu.dispatch("CHANNEL_DELETE", world.channel.to_dict())
    await emu.wait_for(lambda: live.closed, timeout=3)
    await emu.idle()
    assert await _bankrolls(bot, world, players) == before
    await _all_accounted_for_and_closed(bot, world)
    hand = await bot.db.get_hand(hand_id)
    assert hand.ended_at is not None and hand.pot == 0
    assert not emu.failures, emu.failures


async def test_a_table_whose_channel_was_deleted_while_the_bot_was_away_pays_out(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    players = world.players[:3]
    before = await _bankrolls(bot, world, players)
    await create_table(emu, world, players, stake=2, ante=1, auto_deal=0)
    await deal(emu, world, players[0])
    live = live_table(bot, world)
    await act_once(emu, world, bot, live.engine.pending[0], policy=opener)
    await emu.idle()
    await bot.close()
    world.channel.deleted = True  # nobody hears of it
    bot2 = await poker_bot()
    await emu.wait_for(lambda: bot2.tables.in_channel(world.channel.id) is None, timeout=3)
    await emu.idle()
    assert await _bankrolls(bot2, world, players) == before
    await _all_accounted_for_and_closed(bot2, world)


async def test_tables_close_and_pay_out_when_the_bot_is_removed_from_the_server(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    players = world.players[:2]
    before = await _bankrolls(bot, world, players)
    await create_table(emu, world, players, stake=2, ante=1, auto_deal=0)
    live = live_table(bot, world)
    bought = live.seat_stacks()
    await deal(emu, world, players[0])
    await play_hand(emu, world, bot, policy=opener)
    stacks = live.seat_stacks()
    assert stacks != bought and not live.engine.carried  # the hand moved chips to a winner
    # Kicked: Discord sends GUILD_DELETE without "unavailable" (an outage sets it).
    del world.guild.members[emu.bot_user.id]
    emu.dispatch("GUILD_DELETE", {"id": str(world.guild.id)})
    await emu.wait_for(lambda: live.closed, timeout=3)
    await emu.idle()
    after = await _bankrolls(bot, world, players)
    assert after == {u.id: before[u.id] - bought[u.id] + stacks[u.id] for u in players}
    assert sum(after.values()) == sum(before.values())
    await _all_accounted_for_and_closed(bot, world)


async def test_an_outage_of_the_server_leaves_its_tables_open(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    players = world.players[:2]
    await create_table(emu, world, players, stake=2, ante=1, auto_deal=0)
    live = live_table(bot, world)
    emu.dispatch("GUILD_DELETE", {"id": str(world.guild.id), "unavailable": True})
    await emu.idle()
    assert not live.closed and len(await bot.db.open_tables()) == 1


async def test_a_table_edit_refused_by_discord_is_drawn_again_without_a_press(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Discord answers the edit of the table message with a 503 (which discord.py does not
    retry): the table is drawn again a moment later from the table of the moment, so the
    next player sees their turn without anyone pressing a stale button first."""
    bot = await poker_bot()
    bot.presenter.redraw_after = (0.05, 0.05)
    alice, bob = world.players[:2]
    await create_table(
        emu, world, [alice, bob], variant="ace-to-six-lowball", time_bank=0, timer=30
    )
    await deal(emu, world, alice)
    live = live_table(bot, world)
    while live.engine.pending[0].kind is not engine.DecisionKind.DRAW:
        await act_once(emu, world, bot, live.engine.pending[0])
        await emu.idle()
    # Long after the last press on the table message, its edits go by REST.
    bot.presenter.shown(live).editor = None
    message = table_message(emu, world)
    refused = emu.faults.server_error(
        lambda call: call.method == "PATCH" and call.path.endswith(f"/messages/{message.id}"),
        count=1,
        status=503,
    )
    drawer = live.engine.pending[0].player_id
    later = time.time() + 100
    bot.tables.now = lambda: later
    live.deadline = later - 1
    await bot.tables.expire(live)  # the drawer's time runs out: they stand pat
    (nxt,) = live.engine.pending
    assert nxt.player_id != drawer and len(refused.hits) == 1
    waiting = f"Waiting for {live.names[nxt.player_id]}"
    await emu.wait_for(lambda: waiting in table_message(emu, world).text, timeout=3)
    assert table_message(emu, world).id == message.id
    emu.assert_clean()


async def test_a_table_message_discord_would_not_post_is_posted_a_moment_later(
    poker_bot, emu: Emulator, world: World
) -> None:
    """At the end of a hand its message becomes the result and the table goes on in a new
    message. Discord refuses that new message (the followup, then the channel's 503): it is
    posted a moment later, with its Deal button, though the table deals only when asked."""
    bot = await poker_bot()
    bot.presenter.redraw_after = (0.05, 0.05)
    alice, bob = world.players[:2]
    await create_table(emu, world, [alice, bob], variant="ace-to-six-lowball", auto_deal=0)
    await deal(emu, world, alice)

    def new_table_message(call: Any) -> bool:
        return call.method == "POST" and "pk:l:" in json.dumps(call.body)

    followup = emu.faults.error(
        lambda call: call.kind == "interaction_webhook" and new_table_message(call),
        status=404,
        code=10015,
        message="Unknown Webhook",
    )
    channel = emu.faults.server_error(
        lambda call: call.kind == "rest" and new_table_message(call), status=503
    )
    result = await play_hand(emu, world, bot)
    assert result is not None
    lobby = await emu.wait_for(
        lambda: next(
            (m for m in emu.channel_messages(world.channel) if "Deal" in m.button_labels), None
        ),
        timeout=3,
    )
    assert len(followup.hits) == 1 and len(channel.hits) == 1
    assert bot.presenter.shown(live_table(bot, world)).message_id == lobby.id
    r = await emu.click(bob, lobby, label="Deal")
    assert r.type == 7, r.content
    emu.assert_clean()


async def test_a_press_is_shown_at_once_while_discord_holds_up_the_last_turn_ping(
    poker_bot, emu: Emulator, world: World
) -> None:
    """A press's answer is its edit of the table, and the table's changes are shown one at a
    time; turn pings are not part of them. Discord holds up the end of the last change (a
    429 of 4 s on its turn ping): the next press is answered by its own edit of the table,
    while that ping still waits."""
    bot = await poker_bot()
    bot.presenter.ping_after = 0  # a ping at every turn, each rewording the last
    alice, bob, carol = world.players[:3]
    await create_table(emu, world, [alice, bob, carol], variant="ace-to-six-lowball")
    await deal(emu, world, alice)
    live = live_table(bot, world)
    shown = bot.presenter.shown(live)
    for _ in range(10):
        if shown.ping is not None:
            break
        await act_once(emu, world, bot, live.engine.pending[0])
        await emu.idle()
    assert shown.ping is not None
    ping = shown.ping.message_id
    slow = emu.faults.rate_limit(
        lambda call: call.path.endswith(f"/messages/{ping}"), count=1, retry_after=4.0
    )
    await act_once(emu, world, bot, live.engine.pending[0])  # its turn ping changes: slow
    await emu.wait_for(lambda: slow.hits, timeout=3)
    (turn,) = live.engine.pending
    user = next(u for u in world.players if str(u.id) == turn.player_id)
    message = table_message(emu, world)
    label = next(b for b in message.button_labels if b and b.startswith(("Check", "Call")))
    r = await emu.click(user, message, label=label)  # fails if not answered within 3 s
    assert r.type == 7, r.content  # the press's edit of the table, not a deferral
    assert live.engine.pending[0].player_id != turn.player_id
    assert shows_now(message, live)

    def ping_calls() -> int:
        return len([c for c in emu.calls if c.path.endswith(f"/messages/{ping}")])

    # The ping's change is still held up: Discord has seen it once, not yet its retry.
    assert ping_calls() == 1
    await emu.wait_for(lambda: ping_calls() == 2, timeout=8)  # the retry, 4 s later
    await emu.idle()
    emu.assert_clean()


async def test_a_ping_being_replaced_is_deleted_once_when_the_table_is_redrawn_meanwhile(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Discord is slow to delete the last turn ping (a 429) while the table is redrawn (a
    stale press, a refused edit): the redraw leaves that ping to the change deleting it,
    rather than delete it too (the second delete finds nothing: a 404)."""
    bot = await poker_bot()
    bot.presenter.ping_after = 0  # a ping at every turn
    alice, bob, carol = world.players[:3]
    await create_table(emu, world, [alice, bob, carol], variant="ace-to-six-lowball")
    await deal(emu, world, alice)
    live = live_table(bot, world)
    shown = bot.presenter.shown(live)
    for _ in range(10):  # until a ping stands for the player to act
        if shown.ping is not None and shown.ping.players == {live.engine.pending[0].player_id}:
            break
        await act_once(emu, world, bot, live.engine.pending[0])
        await emu.idle()
    old = shown.ping
    assert old is not None and old.players == {live.engine.pending[0].player_id}

    def deletes(call: Any) -> bool:
        return call.method == "DELETE" and call.path.endswith(f"/messages/{old.message_id}")

    slow = emu.faults.rate_limit(deletes, count=1, retry_after=1.0)
    acting = asyncio.ensure_future(act_once(emu, world, bot, live.engine.pending[0]))
    await emu.wait_for(lambda: slow.hits, timeout=3)
    await bot.presenter.refresh(live)  # meanwhile, the table is drawn again
    await acting
    await emu.idle()
    await emu.wait_for(lambda: shown.ping is not None and shown.ping != old, timeout=5)
    assert old.message_id not in {m.id for m in emu.channel_messages(world.channel)}
    emu.assert_clean()  # no delete answered 404


async def test_a_dm_of_the_hand_discord_refused_is_sent_a_moment_later(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Discord answers the DM of a player's cards with a 503 at the deal (which discord.py
    does not retry): the DM is sent again a moment later, with the cards the player holds,
    without anyone pressing anything; the other players' DMs are sent once."""
    bot = await poker_bot()
    bot.presenter.redraw_after = (0.05, 0.05)
    alice, bob, carol = world.players[:3]
    dm = emu.dm_channel(alice)
    refused = emu.faults.server_error(
        lambda call: call.method == "POST" and call.path.endswith(f"/channels/{dm.id}/messages"),
        count=1,
        status=503,
    )
    await create_table(emu, world, [alice, bob, carol], variant="ace-to-six-lowball")
    await deal(emu, world, alice)
    live = live_table(bot, world)
    (sent,) = await emu.wait_for(lambda: emu.dms(alice), timeout=3)
    assert len(refused.hits) == 1
    held = live.engine.private_view(str(alice.id)).cards
    assert all(card.display in sent.embeds[0]["description"] for card in held)
    await emu.idle()
    assert [len(emu.dms(p)) for p in (alice, bob, carol)] == [1, 1, 1]
    assert not bot.presenter.shown(live).dms_behind
    emu.assert_clean()


async def test_a_press_whose_answer_discord_keeps_failing_is_shown_on_the_table_at_once(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Discord answers a press's own answer (its edit of the table) with 500s. discord.py
    retries them for 16 seconds, long past the 3 seconds an answer has: the press is lost
    to Discord, but the table shows it once those 3 seconds are over, by an edit of its
    own, and the next player acts on time."""
    bot = await poker_bot()
    alice, bob, carol = world.players[:3]
    await create_table(emu, world, [alice, bob, carol], variant="ace-to-six-lowball")
    await deal(emu, world, alice)
    live = live_table(bot, world)
    (turn,) = live.engine.pending
    user = next(u for u in world.players if str(u.id) == turn.player_id)
    message = table_message(emu, world)
    pressed: list[str] = []

    def answer_to_this_press(call: Any) -> bool:
        if call.kind != "interaction_callback":
            return False
        if not pressed:
            pressed.append(call.path)
        return call.path == pressed[0]

    failing = emu.faults.server_error(answer_to_this_press, count=5, status=500)
    label = next(b for b in message.button_labels if b and b.startswith(("Check", "Call")))
    lost = await emu.click(user, message, label=label, raise_on_failure=False)
    assert lost.failure is not None and failing.hits
    await emu.wait_for(lambda: shows_now(message, live), timeout=1)
    (nxt,) = live.engine.pending
    follower = next(u for u in world.players if str(u.id) == nxt.player_id)
    label = next(b for b in message.button_labels if b and b.startswith(("Check", "Call")))
    r = await emu.click(follower, message, label=label)
    assert r.type == 7, r.content
    assert [f.interaction_id for f in emu.failures] == [lost.interaction.id]
    assert not emu.errors


async def test_leaving_during_a_hand_is_answered_while_discord_holds_up_the_table(
    poker_bot, emu: Emulator, world: World
) -> None:
    """A player stands up during a hand (/poker leave, /poker removebot) while Discord holds
    up the table's edit (a 429 of 4 s): the command is answered within Discord's 3 seconds,
    and the table shows the fold once Discord takes the edit."""
    bot = await poker_bot()
    alice, bob, carol = world.players[:3]
    await create_table(emu, world, [alice, bob, carol], variant="ace-to-six-lowball")
    r = await emu.run_command(alice, world.channel, "poker addbot", {})
    assert r.type == 4 and not r.ephemeral, r.content
    await deal(emu, world, alice)
    live = live_table(bot, world)
    message = table_message(emu, world)
    bot.presenter.shown(live).editor = None  # long after the last press: edits go by REST
    edits = emu.faults.rate_limit(
        lambda call: call.path.endswith(f"/messages/{message.id}"), count=2, retry_after=4.0
    )
    waiting = live.engine.pending[0].player_id
    leaver = next(u for u in (alice, bob, carol) if str(u.id) != waiting)
    r = await emu.run_command(leaver, world.channel, "poker leave", {})  # fails after 3 s
    assert r.ephemeral and "stand up when this hand ends" in r.content, r.content
    r = await emu.run_command(alice, world.channel, "poker removebot", {})
    assert "stands up when this hand ends" in r.content, r.content
    await emu.wait_for(lambda: edits.hits, timeout=3)
    name = live.names[str(leaver.id)]

    def leaver_shown_leaving() -> bool:
        lines = table_message(emu, world).text.splitlines()
        return any(name in line and "folded" in line and "leaving" in line for line in lines)

    await emu.wait_for(leaver_shown_leaving, timeout=12)
    emu.assert_clean()


async def test_a_press_on_a_message_the_table_left_while_the_press_waited_is_answered(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Deal is pressed on the lobby while the table is being posted again below it (/poker
    table, Discord slow to take the new message: a 429 of 1 s). The press waits for that, and
    by then the table is on the new message (the lobby is deleted): the press's answer
    cannot be an edit of its message, so it says where the table is, and the hand is dealt on
    the new message."""
    bot = await poker_bot()
    alice, bob = world.players[:2]
    lobby = await create_table(emu, world, [alice, bob], auto_deal=0)

    def new_table_message(call: Any) -> bool:
        return call.method == "POST" and "pk:l:" in json.dumps(call.body)

    slow = emu.faults.rate_limit(new_table_message, count=1, retry_after=1.0)
    reposting = asyncio.ensure_future(emu.run_command(alice, world.channel, "poker table", {}))
    await emu.wait_for(lambda: slow.hits, timeout=3)
    r = await emu.click(bob, lobby, label="Deal")  # fails unless answered within 3 s
    assert r.ephemeral and r.content == "The table is below.", r.content
    await reposting
    live = live_table(bot, world)
    assert live.engine.in_hand
    dealt_on = await emu.wait_for(lambda: find_table_message(emu, world), timeout=3)
    assert dealt_on.id not in (lobby.id, None)
    assert dealt_on.id == bot.presenter.shown(live).message_id
    emu.assert_clean()


async def test_a_panel_opened_while_its_player_stands_up_is_refused_with_a_reason(
    poker_bot, emu: Emulator, world: World
) -> None:
    """A player opens their draw panel while Discord is slow to take its answer (a 429 of
    half a second) and meanwhile stands up (/poker leave): the fold ends the hand, and the
    panel that was being opened has nothing left to offer. The player is told so; the panel
    was drawn for a player no longer seated and its press answered "something went
    wrong"."""
    bot = await poker_bot()
    alice, bob = world.players[:2]
    await create_table(emu, world, [alice, bob], variant="ace-to-six-lowball", auto_deal=0)
    live, drawer = await _to_the_draw(emu, world, bot)
    message = table_message(emu, world)
    await _stand_up_while_answered(
        emu, world, drawer, emu.click(drawer, message, label="Draw / stand pat…")
    )
    assert not live.engine.in_hand and not live.seated(drawer.id)
    emu.assert_clean()


async def test_a_coached_pick_made_while_its_player_stands_up_is_refused_with_a_reason(
    poker_bot, emu: Emulator, world: World
) -> None:
    """At a coached table a card picked in the draw panel is answered at once and the panel
    follows with the odds. Discord is slow to take that answer (a 429 of half a second), and
    meanwhile the player stands up, which ends the hand: the panel is not drawn again for a
    player no longer seated ("something went wrong"); they are told nothing waits for them."""
    bot = await poker_bot()
    alice, bob = world.players[:2]
    await create_table(
        emu, world, [alice, bob], variant="ace-to-six-lowball", auto_deal=0, coach=True
    )
    live, drawer = await _to_the_draw(emu, world, bot)
    panel = await open_panel(emu, drawer, table_message(emu, world), "Draw / stand pat…")
    pick = emu.select(drawer, panel, panel.selects[0]["custom_id"], ["0"])
    await _stand_up_while_answered(emu, world, drawer, pick)
    assert not live.engine.in_hand and not live.seated(drawer.id)
    emu.assert_clean()


async def _stand_up_while_answered(
    emu: Emulator, world: World, player: Any, press: Awaitable[Any]
) -> None:
    """``player`` makes ``press`` (one the bot answers at once, its panel to follow), Discord
    holds that answer up for half a second (a 429), and meanwhile they stand up: the press
    is then told that nothing waits for them any more."""
    slow = emu.faults.rate_limit("interaction_callback", count=1, retry_after=0.5)
    pressing = asyncio.ensure_future(press)
    await emu.wait_for(lambda: slow.hits, timeout=3)  # the press's answer is held up
    left = await emu.run_command(player, world.channel, "poker leave", {})
    assert left.ephemeral and "stand up when this hand ends" in left.content, left.content
    pressed = await pressing
    assert pressed.type == 6, pressed.content
    (told,) = await emu.wait_for(lambda: pressed.followups, timeout=3)
    assert told.ephemeral and "nothing is waiting for you" in told.text, told.text


async def test_a_panel_opened_from_an_old_copy_of_the_table_edits_the_table_without_a_refusal(
    poker_bot, emu: Emulator, world: World
) -> None:
    """/poker table posts the table again during the draw, and Discord keeps failing the old
    copy's deletion (503s, which discord.py retries for 16 s): the old copy keeps its buttons.
    The player to draw opens the panel there and stands pat. The table waited for the old
    copy's deletion (it held the table's lock), and then edited the new message through the
    panel press's webhook, which may edit only the old copy: Discord refused it (404; a
    random run of a tournament found it). The new message shows the draw at once, and Discord
    refuses nothing else."""
    bot = await poker_bot()
    alice, bob = world.players[:2]
    await create_table(emu, world, [alice, bob], variant="ace-to-six-lowball", auto_deal=0)
    live, drawer = await _to_the_draw(emu, world, bot)
    assert drawer is alice
    await emu.idle()
    old = table_message(emu, world)

    def on_the_old_copy(call: Any) -> bool:
        return call.method in ("PATCH", "DELETE") and call.path.endswith(f"/messages/{old.id}")

    emu.faults.server_error(on_the_old_copy, count=4, status=503)
    await emu.run_command(alice, world.channel, "poker table", {})
    await emu.idle()
    new = table_message(emu, world)
    assert new.id != old.id and not emu.get_message(old.id).deleted
    assert "Draw / stand pat…" in emu.get_message(old.id).button_labels
    panel = await open_panel(emu, drawer, emu.get_message(old.id), "Draw / stand pat…")
    r = await emu.click(drawer, panel, label="Stand pat")
    assert r.type == 7, r.content
    await emu.idle()
    assert live.engine.pending[0].player_id != str(drawer.id)
    shown = json.dumps(emu.get_message(new.id).embeds)
    assert "Alice stands pat" in shown and "Waiting for Bob" in shown, shown
    refused = [f"{c.status} {c.key}" for c in emu.errors if not on_the_old_copy(c)]
    assert not refused, refused
