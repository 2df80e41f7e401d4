"""Abuse that costs nothing: a member pressing faster than anyone plays, and a member holding
seats at more tables than the server allows. Both are refused at once, ephemerally, and change
nothing.

The press limit counts presses over a two-second window; the router's clock is frozen here, so
"at once" does not depend on how fast the emulator runs (no timed test).
"""

from __future__ import annotations

from typing import Any

from cogs.routing import SLOW_DOWN, PressLimiter, router_of
from tests.bot.driver import create_table, deal, fold, live_table, table_message
from tests.emulator import Emulator, World


class FrozenClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def frozen_limiter(bot: Any) -> FrozenClock:
    clock = FrozenClock()
    router_of(bot).presses = PressLimiter(presses=8, seconds=2.0, clock=clock)
    return clock


async def test_pressing_faster_than_anyone_plays_is_told_once_and_changes_nothing(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot(press_limit=8)
    alice, bob = world.players[:2]
    await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    await deal(emu, world, alice)
    clock = frozen_limiter(bot)  # from here, every press is at the same moment
    live = live_table(bot, world)
    actor = next(p for p in (alice, bob) if str(p.id) == live.engine.pending[0].player_id)
    other = bob if actor is alice else alice
    message = table_message(emu, world)
    mine = f"pk:l:{live.id}:hand"  # shows the presser's cards, changes nothing
    for _ in range(8):
        r = await emu.click(actor, message, custom_id=mine)
        assert r.type == 4 and r.ephemeral and r.embeds, r.content
    state, version = live.state_json(), live.version()
    fold_id = f"pk:t:{live.id}:{version}:fold"
    r = await emu.click(actor, message, custom_id=fold_id)
    assert r.type == 4 and r.ephemeral and r.content == str(SLOW_DOWN)
    r = await emu.click(actor, message, custom_id=fold_id)
    assert r.type == 6  # told once: the next extra presses are only acknowledged
    await emu.idle()
    assert live.state_json() == state and live.version() == version, "the extra presses acted"
    # Another member of the table is not slowed down by it.
    r = await emu.click(other, message, custom_id=mine)
    assert r.type == 4 and r.embeds
    # Two seconds later the member plays again.
    clock.now += 2.0
    r = await fold(emu, actor, message)
    assert r.type in (6, 7), r.content
    await emu.idle()
    assert live.version() != version
    emu.assert_clean()


async def test_a_member_cannot_hold_seats_at_more_tables_than_the_server_allows(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    alice, bob = world.players[:2]
    changed = await emu.run_command(
        world.host, world.channel, "server settings", {"max_tables_per_player": 2}
    )
    assert changed.type == 4 and "Tables per member" in str(changed.embeds), changed.content
    assert (await bot.db.get_settings(world.guild.id)).max_tables_per_player == 2
    tables = []
    for n in range(3):
        channel = emu.add_text_channel(world.guild, f"tables-{n}")
        created = await emu.run_command(bob, channel, "poker create", {"stake": 2})
        assert created.type == 4 and not created.ephemeral, created.content
        tables.append(created.message)
    for message in tables[:2]:
        r = await emu.click(alice, message, label="Sit down")
        r = await emu.submit_modal(alice, r, {})
        assert r.type == 7, r.content
    balance = await bot.db.balance(world.guild.id, alice.id)
    r = await emu.click(alice, tables[2], label="Sit down")
    r = await emu.submit_modal(alice, r, {})
    assert r.type == 4 and r.ephemeral, r.content
    assert "seated at 2 tables" in r.content and "Leave one" in r.content, r.content
    third = bot.tables.in_channel(tables[2].channel_id)
    assert not third.seated(alice.id)
    assert await bot.db.balance(world.guild.id, alice.id) == balance
    # The same through /poker join; Bob, seated nowhere, sits down there all the same.
    channel = emu.channels[tables[2].channel_id]
    r = await emu.run_command(alice, channel, "poker join", {})
    assert r.ephemeral and "seated at 2 tables" in r.content, r.content
    r = await emu.click(bob, tables[2], label="Sit down")
    assert (await emu.submit_modal(bob, r, {})).type == 7
    # Standing up at one table frees a place for another.
    r = await emu.click(alice, tables[0], label="Stand up")
    assert r.type == 7, r.content
    r = await emu.click(alice, tables[2], label="Sit down")
    r = await emu.submit_modal(alice, r, {})
    assert r.type == 7, r.content
    assert third.seated(alice.id)
    emu.assert_clean()


async def test_the_table_limit_is_four_by_default(poker_bot, emu: Emulator, world: World) -> None:
    bot = await poker_bot()
    alice, bob = world.players[:2]
    for n in range(5):
        channel = emu.add_text_channel(world.guild, f"tables-{n}")
        created = await emu.run_command(bob, channel, "poker create", {"stake": 2})
        r = await emu.click(alice, created.message, label="Sit down")
        r = await emu.submit_modal(alice, r, {})
        if n < 4:
            assert r.type == 7, r.content
        else:
            assert r.ephemeral and "seated at 4 tables" in r.content, r.content
    assert sum(live.seated(alice.id) for live in bot.tables.tables.values()) == 4
    emu.assert_clean()


async def test_a_draw_panel_left_open_cannot_draw_in_a_later_round(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Triple draw: a player opens their draw panel twice, picks two cards in the first,
    and stands pat with the second. In the next draw the first panel's Discard 2 named
    positions of the cards held then, and threw away whatever is there now: it is refused,
    and the cards and the decision stay as they were."""
    import engine
    from tests.bot.driver import act_once, member_to_act, open_panel

    bot = await poker_bot()
    alice, bob = world.players[:2]
    await create_table(emu, world, [alice, bob], variant="triple-draw-27", auto_deal=0)
    await deal(emu, world, alice)
    live = live_table(bot, world)

    def draw_waits(pid: str | None = None) -> engine.Decision | None:
        pending = live.engine.pending
        drawing = pending and pending[0].kind is engine.DecisionKind.DRAW
        return pending[0] if drawing and pid in (None, pending[0].player_id) else None

    for _ in range(20):
        if draw_waits() is not None:
            break
        await act_once(emu, world, bot, live.engine.pending[0])
        await emu.idle()
    decision = draw_waits()
    assert decision is not None
    pid, street = decision.player_id, live.street()
    user = member_to_act(emu, decision)
    message = table_message(emu, world)
    old = await open_panel(emu, user, message, "Draw / stand pat…")
    old = (await emu.select(user, old, old.selects[0]["custom_id"], ["0", "4"])).message
    assert "Discard 2" in old.button_labels
    fresh = await open_panel(emu, user, message, "Draw / stand pat…")
    r = await emu.click(user, fresh, label="Stand pat")
    assert r.type == 7, r.content
    for _ in range(20):  # on to this player's next draw
        await emu.idle()
        if draw_waits(pid) is not None and live.street() > street:
            break
        await act_once(emu, world, bot, live.engine.pending[0])
    assert draw_waits(pid) is not None and live.street() > street
    held = live.engine.private_view(pid).cards
    version = live.version()
    r = await emu.click(user, old, label="Discard 2")
    assert r.ephemeral and "no longer valid" in (r.content or ""), r.content
    assert live.engine.private_view(pid).cards == held and live.version() == version
    emu.assert_clean()
