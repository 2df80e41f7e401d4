"""The remaining /poker commands: autocomplete, rules, help, end; card pictures; races."""

from __future__ import annotations

import asyncio
import io
from typing import Any

from PIL import Image

import engine
from cogs.ui import card_images
from tests.bot.driver import (
    create_table,
    deal,
    forged_press,
    live_table,
    passive,
    play_hand,
    table_message,
)
from tests.emulator import Emulator, World


async def test_variant_autocomplete_and_rules(poker_bot, emu: Emulator, world: World) -> None:
    await poker_bot()
    alice = world.players[0]
    r = await emu.autocomplete(alice, world.channel, "poker create", focused="variant", value="low")
    values = {choice["value"] for choice in r.choices}
    assert {"california-lowball", "kansas-city-lowball", "ace-to-six-lowball"} <= values
    assert "five-card-draw" not in values
    r = await emu.autocomplete(alice, world.channel, "poker create", focused="variant", value="")
    assert len(r.choices) == min(25, len(engine.list_variants()))
    r = await emu.run_command(alice, world.channel, "poker rules", {"variant": "anaconda"})
    assert r.ephemeral and r.embeds[0]["title"] == engine.get_variant("anaconda").name
    assert engine.get_variant("anaconda").description[:60] in r.embeds[0]["description"]
    r = await emu.run_command(alice, world.channel, "poker rules", {"variant": "go-fish"})
    assert r.ephemeral and "don't know" in r.content
    r = await emu.run_command(alice, world.channel, "poker rules", {})
    assert all(v.name in r.embeds[0]["description"] for v in engine.list_variants())
    r = await emu.run_command(alice, world.channel, "poker help", {})
    assert r.ephemeral and "/poker create" in r.embeds[0]["description"]


async def test_end_pays_everyone_and_frees_the_channel(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    alice, bob = world.players[:2]
    guild = world.guild.id
    start = (await bot.db.get_settings(guild)).starting_bankroll
    await create_table(emu, world, [alice, bob], auto_deal=0)
    assert await bot.db.balance(guild, alice.id) == start - 40
    r = await emu.run_command(bob, world.channel, "poker end", {})
    assert r.ephemeral and "creator" in r.content
    r = await emu.run_command(alice, world.channel, "poker end", {})
    assert not r.ephemeral and "Table closed" in r.embeds[0]["title"]
    assert await bot.db.balance(guild, alice.id) == start
    assert await bot.db.balance(guild, bob.id) == start
    assert live_table(bot, world) is None
    r = await emu.run_command(bob, world.channel, "poker create", {})
    assert r.type == 4 and not r.ephemeral
    assert (await bot.db.chip_audit(guild)).ok


async def test_no_one_sits_down_at_a_table_closing_when_its_hand_ends(
    poker_bot, emu: Emulator, world: World
) -> None:
    """After /poker end during a hand, joining, the Sit down button and /poker addbot are
    refused in the member's language (they would only have been paid back at once)."""
    bot = await poker_bot()
    alice, bob, carol = world.players[:3]
    guild = world.guild.id
    lobby = await create_table(emu, world, [alice, bob], ante=1, auto_deal=0)
    sit = next(c["custom_id"] for c in lobby.buttons if c["custom_id"].endswith(":sit"))
    await deal(emu, world, alice)
    live = live_table(bot, world)
    r = await emu.run_command(alice, world.channel, "poker end", {})
    assert not r.ephemeral and "close as soon as it is over" in r.content, r.content
    before = await bot.db.balance(guild, carol.id)
    refused = "This table closes as soon as the hand in play is over (`/poker end`)"
    r = await emu.run_command(carol, world.channel, "poker join", {})
    assert r.ephemeral and r.content.startswith(refused), r.content
    r = await forged_press(emu, carol, table_message(emu, world), sit)
    assert r.type == 4 and r.ephemeral and r.content.startswith(refused), r.content
    r = await emu.run_command(alice, world.channel, "poker addbot", {"level": "easy"})
    assert r.ephemeral and r.content.startswith(refused), r.content
    carol.locale = "fr"
    r = await emu.run_command(carol, world.channel, "poker join", {})
    assert r.ephemeral and r.content.startswith("Cette table ferme dès que"), r.content
    assert [s.player_id for s in live.engine.public_view().seats] == [str(alice.id), str(bob.id)]
    assert await bot.db.balance(guild, carol.id) == before
    await play_hand(emu, world, bot, policy=passive)
    assert live_table(bot, world) is None
    assert (await bot.db.chip_audit(guild)).ok
    emu.assert_clean()


async def test_card_pictures_are_small_pngs_with_text(
    poker_bot, emu: Emulator, world: World
) -> None:
    await poker_bot()
    players = world.players[:2]
    await create_table(emu, world, players, variant="seven-card-draw", auto_deal=0)
    await deal(emu, world, players[0])
    await emu.wait_for(lambda: all(emu.dms(p) for p in players))
    for player in players:
        dm = emu.dms(player)[-1]
        picture = dm.attachments[0]
        assert picture.data[:8] == b"\x89PNG\r\n\x1a\n"
        assert len(picture.data) < 100_000, len(picture.data)
        image = Image.open(io.BytesIO(picture.data))
        image.load()  # decodes every row: a broken PNG raises here
        # Seven cards, the two that do not play set apart after the five that do.
        assert image.size == (
            card_images.MARGIN * 2
            + 7 * card_images.CARD_W
            + 6 * card_images.GAP
            + card_images.IDLE_GAP,
            card_images.MARGIN * 2 + card_images.CARD_H,
        )
        # The same cards are written out for screen readers.
        assert dm.embeds[0]["description"].count(" ") >= 6


async def test_two_players_press_at_the_same_instant(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    players = world.players[:3]
    await create_table(emu, world, players, stake=2, ante=1, auto_deal=0)
    await deal(emu, world, players[0])
    live = live_table(bot, world)
    table = table_message(emu, world)
    to_act = live.engine.pending[0].player_id
    actor = next(p for p in players if str(p.id) == to_act)
    others = [p for p in players if p is not actor]
    before = len(live.engine.events)
    results = await asyncio.gather(
        emu.click(actor, table, label="Check"),
        *(emu.click(p, table, label="Fold") for p in others),
    )
    assert results[0].type == 7
    assert all(r.ephemeral for r in results[1:])
    assert len(live.engine.events) == before + 1
    assert not any(s.folded for s in live.engine.public_view().seats)


async def test_end_shares_a_carried_pot_by_the_engines_rule(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Closing a table pays the carried pot through ``engine.Table.close``: the odd chip goes
    to the first player on the dealer's left (not, as the bot once did, to the smallest id)."""
    bot = await poker_bot()
    alice, bob, carol = world.players[:3]
    # Seated out of id order, so that wherever the button is, one player can leave and leave
    # the two rules disagreeing (ids ascending round the table from the dealer's left is the
    # only case where they agree for every pair).
    players = [alice, carol, bob]
    guild = world.guild.id
    await create_table(emu, world, players, variant="jacks-or-better", ante=1, auto_deal=0)
    await deal(emu, world, players[0])
    first = await play_hand(emu, world, bot, policy=passive)
    assert first.passed_out and first.carried == 3
    live = live_table(bot, world)
    button = live.engine.button
    seat_of = {p.id: live.engine.seat_of(str(p.id)) for p in players}
    size = len(live.engine.seats)

    def left_of_dealer(stay: list[Any]) -> Any:
        return min(stay, key=lambda p: (seat_of[p.id] - button - 1) % size)

    # Make the two rules disagree: the one left on the dealer's left has the larger id.
    leaver = next(
        p
        for p in players
        if (stay := [q for q in players if q is not p])
        and left_of_dealer(stay).id == max(q.id for q in stay)
    )
    stay = [p for p in players if p is not leaver]
    r = await emu.run_command(leaver, world.channel, "poker leave", {})
    assert not r.ephemeral, r.content
    stacks = {p.id: live.engine.stack(str(p.id)) for p in stay}
    before = {p.id: await bot.db.balance(guild, p.id) for p in stay}
    creator = players[0]
    r = await emu.run_command(creator, world.channel, "poker end", {})
    assert not r.ephemeral and "Table closed" in r.embeds[0]["title"], r.content
    odd = left_of_dealer(stay)
    for p in stay:
        expected = stacks[p.id] + 1 + (1 if p is odd else 0)
        assert await bot.db.balance(guild, p.id) - before[p.id] == expected, p.username
    assert (await bot.db.chip_audit(guild)).ok
    emu.assert_clean()
