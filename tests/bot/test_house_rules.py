"""House rules at a running table through the bot: shown by Settings and the rules page,
changed by the creator with /poker settings (at once between hands, from the next deal during
one, kept across a restart), and refused with a reason where they mean nothing."""

from __future__ import annotations

from typing import Any

from tests.bot.driver import (
    create_table,
    deal,
    find_table_message,
    forged_press,
    live_table,
    play_hand,
)
from tests.emulator import Emulator, World


def _field(embed: dict[str, Any], name: str) -> str:
    return next((f["value"] for f in embed["fields"] if f["name"] == name), "")


async def test_house_rules_are_shown_and_changed_between_hands(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    alice, bob, carol = world.players[:3]
    lobby = await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    live = live_table(bot, world)

    shown = await emu.click(bob, lobby, label="Settings")
    house = _field(shown.embeds[0], "House rules")
    assert "Newcomers are dealt in at the next hand" in house, house
    assert "After the draw, the opener bets first" in house, house
    assert "Progressive" not in house and "Diablo" not in house, "rules of other games"

    refused = await emu.run_command(bob, world.channel, "poker settings", {"newcomers": "wait"})
    assert refused.ephemeral and "creator" in refused.content
    assert live.engine.config.options.newcomers is None

    await deal(emu, world, alice)
    await play_hand(emu, world, bot)
    r = await emu.run_command(
        alice,
        world.channel,
        "poker settings",
        {"newcomers": "wait", "second_round_from_opener": False},
    )
    assert not r.ephemeral and "Newcomers wait for the deal to reach their seat" in r.content
    assert "first player left of the dealer bets first" in r.content, r.content
    assert live.engine.config.options.newcomers == "wait"
    # A newcomer now waits for the deal to reach their seat, and the table says so.
    joined = await emu.run_command(carol, world.channel, "poker join", {})
    assert not joined.ephemeral, joined.content
    await emu.idle()
    (seat,) = [s for s in live.engine.public_view().seats if s.player_id == str(carol.id)]
    assert seat.waiting
    # The rules page of the table's game says which way this table plays.
    rules = await emu.run_command(bob, world.channel, "poker rules", {})
    at_table = _field(rules.embeds[0], "At this table")
    assert "dealer's left bets first" in at_table and "second_round_from_opener" in at_table


async def test_a_change_during_a_hand_waits_for_the_next_deal_and_survives_a_restart(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    alice, bob = world.players[:2]
    await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    await deal(emu, world, alice)
    live = live_table(bot, world)
    r = await emu.run_command(alice, world.channel, "poker settings", {"muck": True})
    assert not r.ephemeral and "From the next hand: A beaten hand may be mucked" in r.content
    assert not live.engine.config.options.muck_losers and live.engine.pending_options
    shown = await emu.run_command(bob, world.channel, "poker settings", {})
    assert "mucked unseen" in _field(shown.embeds[0], "From the next hand")
    assert "Every hand still in is shown" in _field(shown.embeds[0], "House rules")

    await bot.close()
    bot = await poker_bot()
    live = live_table(bot, world)
    assert live.engine.in_hand and live.engine.pending_options.muck_losers
    await play_hand(emu, world, bot)
    assert not live.engine.config.options.muck_losers
    await deal(emu, world, alice)
    assert live.engine.config.options.muck_losers and live.engine.pending_options is None


async def test_a_house_rule_that_does_not_fit_is_refused_and_changes_nothing(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    alice, bob = world.players[:2]
    await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    live = live_table(bot, world)
    before = (live.state_json(), live.settings)
    for options, reason in (
        ({"progressive_back_down": False}, "progressive_back_down changes nothing in Five-card"),
        ({"diablo_cap": 50}, "diablo_cap changes nothing"),
        ({"no_five_in_a_row": True, "timer": 30}, "no_five_in_a_row changes nothing"),
    ):
        r = await emu.run_command(alice, world.channel, "poker settings", options)
        assert r.ephemeral and reason in r.content, r.content
    for options, reason in (
        ({"newcomers": "sometimes"}, "Newcomers is one of play, wait, post"),
        ({"draw_limit": "9"}, "The draw limit is one of"),
        ({"diablo_cap": -1}, "The Diablo cap must be a whole number"),
        ({"muck": "yes"}, "is either true or false"),
    ):
        r = await emu.run_forged_command(alice, world.channel, "poker settings", options)
        assert r.ephemeral and reason in r.content, r.content
    assert (live.state_json(), live.settings) == before
    # Drawing five makes the casino rule mean something: both at once are accepted.
    r = await emu.run_command(
        alice, world.channel, "poker settings", {"draw_limit": "5", "no_five_in_a_row": True}
    )
    assert not r.ephemeral and "Nobody draws five cards in a row" in r.content, r.content
    emu.assert_clean()


def _selects(message: Any) -> dict[str, dict[str, Any]]:
    return {
        c["custom_id"]: c
        for c in message.all_components()
        if c.get("type") == 3 and c["custom_id"].startswith("pks:r:")
    }


async def test_the_creator_changes_house_rules_with_the_settings_menus(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    alice, bob = world.players[:2]
    lobby = await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    live = live_table(bot, world)
    flags, newcomers, draw = (f"pks:r:{live.id}:{f}" for f in ("flags", "newcomers", "draw"))

    # Anyone sees the settings; only the creator gets the menus.
    seen = await emu.click(bob, lobby, label="Settings")
    assert seen.ephemeral and not _selects(seen.message)
    panel = await emu.click(alice, lobby, label="Settings")
    menus = _selects(panel.message)
    assert set(menus) == {flags, newcomers, draw}
    on = {o["value"] for o in menus[flags]["options"] if o.get("default")}
    assert on == {"pass_out_reante", "pass_out_deal_passes", "second_round_from_opener"}

    # Switching one rule off between hands: in force at once, and the channel is told.
    r = await emu.select(alice, panel.message, flags, ["pass_out_reante", "pass_out_deal_passes"])
    assert r.type == 7, r.content
    await emu.idle()
    assert not live.engine.config.options.second_round_from_opener
    assert live.engine.config.options.pass_out_reante
    (told,) = r.followups
    assert not told.ephemeral and "first player left of the dealer bets first" in told.content
    assert "House rules now" in told.content
    shown = _selects(r.message)[flags]["options"]
    assert {o["value"] for o in shown if o.get("default")} == {
        "pass_out_reante",
        "pass_out_deal_passes",
    }

    # During a hand the change waits for the next deal.
    await deal(emu, world, alice)
    r = await emu.select(alice, panel.message, newcomers, ["post"])
    assert r.type == 7, r.content
    await emu.idle()
    assert live.engine.config.options.newcomers is None
    assert live.engine.pending_options.newcomers == "post"
    assert "From the next hand: Newcomers post a blind" in r.followups[0].content
    assert "Newcomers post a blind" in _field(r.embeds[0], "From the next hand")

    # Bob's forged menu on his own Settings panel is refused, and values never offered too.
    state = live.state_json()
    r = await forged_press(emu, bob, seen.message, draw, values=["4"])
    assert r.ephemeral and "Only the table's creator" in r.content, r.content
    for custom_id, values in (
        (flags, ["muck_losers", "muck_losers"]),
        (flags, ["diablo_cap"]),
        (newcomers, ["post", "wait"]),
        (draw, ["6"]),
        (f"pks:r:{live.id}:colour", ["red"]),
    ):
        r = await forged_press(emu, alice, panel.message, custom_id, values=values)
        assert r.ephemeral and "no longer valid" in r.content, (custom_id, values, r.content)
    # A menu forged onto the public table message leaves that message alone.
    table = find_table_message(emu, world)
    components = list(table.all_components())
    r = await forged_press(emu, alice, table, draw, values=["4"])
    assert r.ephemeral and "private panel" in r.content, r.content
    assert list(emu.messages[table.id].all_components()) == components
    assert live.state_json() == state
    emu.assert_clean()
