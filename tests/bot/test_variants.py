"""Variants of the catalogue played end to end through the bot, with DMs, public messages,
bankrolls and the leaderboard checked at the end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.modifiers import MODIFIER_KEYS
from tests.bot.driver import (
    create_table,
    deal,
    forged_press,
    last_result,
    live_table,
    opener,
    passive,
    play_hand,
    table_message,
)
from tests.bot.look import Look
from tests.emulator import Emulator, World


async def _check_money(emu: Emulator, world: World, bot: Any, players: list[Any]) -> None:
    """Bankrolls plus stacks add up, and the leaderboard shows every player's total."""
    guild = world.guild.id
    assert (await bot.db.chip_audit(guild)).ok
    live = live_table(bot, world)
    board = await emu.run_command(players[0], world.channel, "leaderboard", {})
    text = board.embeds[0].get("description", "") + str(board.embeds[0].get("fields", ""))
    for player in players:
        total = await bot.db.balance(guild, player.id)
        if live.seated(player.id):
            total += live.engine.stack(str(player.id))
        assert f"{total:,}" in text, (player.name, total, text)


async def test_jacks_or_better_passed_out_then_opened(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    players = world.players[:4]
    await create_table(emu, world, players, variant="jacks-or-better", auto_deal=0)
    # Everyone checks: nobody opens, the deal is passed out and the antes stay in the pot.
    await deal(emu, world, players[0])
    await emu.wait_for(lambda: all(emu.dms(p) for p in players))
    assert "jacks" in table_message(emu, world).text.lower()
    first = await play_hand(emu, world, bot, policy=passive)
    assert first.passed_out and first.carried > 0 and not first.pots
    await emu.idle()
    assert "passed out" in (await last_result(emu, world)).text.lower()
    # Deal until someone with openers opens (only they are offered a bet) and a pot is won.
    for _ in range(15):
        await deal(emu, world, players[0])
        result = await play_hand(emu, world, bot, policy=opener)
        if result.pots:
            break
    else:
        raise AssertionError("nobody opened in fifteen deals")
    won = sum(share.amount for pot in result.pots for share in pot.shares)
    assert won >= first.carried, "the carried antes are part of the pot that is won"
    if result.uncontested is not None or result.openers:
        assert result.openers, "the opener's qualifying cards are shown"
    await _check_money(emu, world, bot, players)
    emu.assert_clean()


async def test_california_lowball(poker_bot, emu: Emulator, world: World) -> None:
    bot = await poker_bot()
    players = world.players[:3]
    await create_table(emu, world, players, variant="california-lowball", auto_deal=0)
    await deal(emu, world, players[0])
    table = table_message(emu, world)
    # Blinds and no checking before the draw: the first player to act cannot check.
    assert "Check" not in table.button_labels
    result = await play_hand(emu, world, bot, policy=passive)
    assert result.pots and result.shown
    assert all(shown.low for shown in result.shown), "lowball hands are named as lows"
    await emu.idle()
    showdown = emu.latest(world.channel).text
    assert "low" in showdown.lower()
    await _check_money(emu, world, bot, players)
    emu.assert_clean()


async def test_high_low_declare(poker_bot, emu: Emulator, world: World) -> None:
    bot = await poker_bot()
    players = world.players[:3]
    await create_table(emu, world, players, variant="high-low-declare", auto_deal=0)
    await deal(emu, world, players[0])
    declares = {players[0].id: "High", players[1].id: "Low", players[2].id: "Low"}
    result = await play_hand(emu, world, bot, policy=opener, declares=declares)
    assert {s.declared for s in result.shown} == {"high", "low"}
    halves = {share.half for pot in result.pots for share in pot.shares}
    assert halves == {"high", "low"}, "one player declared high, two low: the pot splits"
    high = [s for pot in result.pots for s in pot.shares if s.half == "high"]
    assert {s.player_id for s in high} == {str(players[0].id)}
    await emu.idle()
    assert "declared" in (await last_result(emu, world)).text
    await _check_money(emu, world, bot, players)
    emu.assert_clean()


async def test_spit_in_the_ocean(poker_bot, emu: Emulator, world: World) -> None:
    bot = await poker_bot()
    players = world.players[:3]
    await create_table(emu, world, players, variant="spit-in-the-ocean", auto_deal=0)
    await deal(emu, world, players[0])
    live = live_table(bot, world)
    view = live.engine.public_view()
    assert len(view.board) == 1 and view.wild
    table = table_message(emu, world)
    assert view.board[0].display in table.text, "the shared card is on the table"
    await emu.wait_for(lambda: all(emu.dms(p) for p in players))
    for player in players:
        held = live.engine.private_view(str(player.id)).cards
        assert len(held) == 4
        assert all(card.display in emu.dms(player)[-1].text for card in held)
    result = await play_hand(emu, world, bot, policy=opener)
    assert result.shown
    for shown in result.shown:
        assert shown.high_value is not None
        assert view.board[0] in {played.card for played in shown.high_value.cards}, (
            "the shared card is the fifth card of every hand"
        )
    await _check_money(emu, world, bot, players)
    emu.assert_clean()


async def test_anaconda_passes_are_simultaneous_and_conserve_cards(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    players = world.players[:3]
    await create_table(emu, world, players, variant="anaconda", auto_deal=0)
    await deal(emu, world, players[0])
    live = live_table(bot, world)
    dealt = {p.id: set(live.engine.private_view(str(p.id)).cards) for p in players}
    everything = set().union(*dealt.values())
    assert len(everything) == 21
    # Betting until the first pass: then every player is asked at once, and nobody has
    # received anything until all have chosen.
    from tests.bot.driver import act_once

    for _ in range(10):
        await emu.idle()
        pending = live.engine.pending
        if pending[0].kind.value == "pass":
            break
        await act_once(emu, world, bot, pending[0], policy=opener)
    assert len(pending) == 3 and {d.kind.value for d in pending} == {"pass"}
    hands = {p.id: live.engine.private_view(str(p.id)).cards for p in players}
    await act_once(emu, world, bot, pending[0])
    await emu.idle()
    assert len(live.engine.pending) == 2, "the others are still choosing"
    assert {p.id: live.engine.private_view(str(p.id)).cards for p in players} == hands, (
        "no cards move until every player has chosen what to pass"
    )
    result = await play_hand(emu, world, bot, policy=passive)
    held = {card for s in result.shown for card in s.cards}
    assert held <= everything, "only the dealt cards were ever passed around"
    assert all(len(s.cards) == 7 for s in result.shown)
    await _check_money(emu, world, bot, players)
    emu.assert_clean()


async def test_dealers_choice_composes_a_game(
    poker_bot, emu: Emulator, world: World, tmp_path: Path
) -> None:
    bot = await poker_bot()
    players = world.players[:3]
    await create_table(emu, world, players, dealers_choice=True, auto_deal=0)
    await deal(emu, world, players[0])
    live = live_table(bot, world)
    decision = live.engine.pending[0]
    assert decision.kind.value == "choose-game"
    dealer = next(p for p in players if str(p.id) == decision.player_id)
    other = next(p for p in players if p is not dealer)
    table = table_message(emu, world)
    # Only the dealer may choose.
    r = await emu.click(other, table, label="Choose the game…")
    assert r.ephemeral and "not your turn" in r.content
    opened = await emu.click(dealer, table, label="Choose the game…")
    panel = (await emu.wait_for(lambda: opened.followups))[-1]
    game = next(s for s in panel.selects if ":cg:" in s["custom_id"])
    panel = (await emu.select(dealer, panel, game["custom_id"], ["california-lowball"])).message
    wild = next(s for s in panel.selects if ":cw:" in s["custom_id"])
    panel = (await emu.select(dealer, panel, wild["custom_id"], ["wild=13"])).message
    rules = next(s for s in panel.selects if ":cr:" in s["custom_id"])
    panel = (await emu.select(dealer, panel, rules["custom_id"], ["draws=3"])).message
    assert "Triple-draw California lowball" in panel.text and "kings wild" in panel.text
    # Every modifier is offered, in one menu each (a single house-rules menu was cut at
    # Discord's 25 options: "rollout" was never offered); a pick in one keeps the others'.
    menus = [s for s in panel.selects if s["custom_id"].split(":")[3] in ("cw", "cr", "ch")]
    offered = [o["value"].replace("=", ":") for s in menus for o in s["options"]]
    assert sorted(offered) == sorted(MODIFIER_KEYS) and all(len(s["options"]) <= 25 for s in menus)
    house = next(s for s in menus if ":ch:" in s["custom_id"])
    panel = (await emu.select(dealer, panel, house["custom_id"], ["no-check-raise"])).message
    assert "Triple-draw California lowball" in panel.text and "kings wild" in panel.text
    picked = {o["value"] for s in panel.selects for o in s["options"] if o.get("default")}
    assert {"california-lowball", "wild=13", "draws=3", "no-check-raise"} <= picked, picked
    look = Look("dealer's choice: the dealer's panel, a game composed")
    look.add("only you", panel, ephemeral=True)
    look.write(tmp_path, name="dealers-choice")
    r = await emu.click(dealer, panel, label="Deal it")
    assert r.type == 7, r.content
    await emu.idle()
    view = live.engine.public_view()
    assert view.game.startswith("Triple-draw California lowball")
    assert view.game in table_message(emu, world).text
    result = await play_hand(emu, world, bot, policy=passive)
    assert result.game == view.game
    await _check_money(emu, world, bot, players)
    emu.assert_clean()


async def test_a_dealers_choice_too_long_to_carry_is_refused(
    poker_bot, emu: Emulator, world: World
) -> None:
    """The choice so far travels in the panel's custom ids: ticking many house rules made
    them longer than Discord takes, and the panel's edit failed (no answer, a traceback).
    Such a choice is refused with a reason; a forged menu's repeated or foreign values are
    refused as no longer valid; the dealer goes on choosing."""
    bot = await poker_bot()
    players = world.players[:3]
    await create_table(emu, world, players, dealers_choice=True, auto_deal=0)
    await deal(emu, world, players[0])
    live = live_table(bot, world)
    dealer = next(p for p in players if str(p.id) == live.engine.pending[0].player_id)
    opened = await emu.click(dealer, table_message(emu, world), label="Choose the game…")
    panel = (await emu.wait_for(lambda: opened.followups))[-1]
    rules = next(s for s in panel.selects if ":cr:" in s["custom_id"])
    values = [o["value"] for o in rules["options"]]
    r = await emu.select(dealer, panel, rules["custom_id"], values[:12])
    assert r.type == 4 and r.ephemeral and "more rules" in (r.content or ""), r.content
    wild = next(s for s in panel.selects if ":cw:" in s["custom_id"])
    for forged in (["wild=13", "wild=13"], ["draws=3"]):
        r = await forged_press(emu, dealer, panel, wild["custom_id"], values=forged)
        assert r.ephemeral and "no longer valid" in (r.content or ""), r.content
    panel = (await emu.select(dealer, panel, rules["custom_id"], ["draws=3"])).message
    assert "Triple-draw" in panel.text
    r = await emu.click(dealer, panel, label="Deal it")
    assert r.type == 7, r.content
    result = await play_hand(emu, world, bot, policy=passive)
    assert result.game.startswith("Triple-draw")
    emu.assert_clean()
