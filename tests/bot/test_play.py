"""Whole hands played through the emulator with the real bot, engine and database."""

from __future__ import annotations

from typing import Any

from tests.emulator import Emulator, World


async def _table(emu: Emulator, world: World, players: list[Any], **options: Any) -> Any:
    creator = players[0]
    created = await emu.run_command(creator, world.channel, "poker create", options)
    assert created.type == 4 and not created.ephemeral, created.content
    for player in players:
        r = await emu.click(player, created.message, label="Sit down")
        assert r.type == 7, (r.content, [m.text for m in r.followups])
    return created.message


async def _table_message(emu: Emulator, world: World) -> Any:
    """The current hand's public table message (the newest message with action buttons)."""
    await emu.idle()
    for message in reversed(emu.channel_messages(world.channel)):
        if any(cid.startswith("pk:t:") for cid in _ids(message)):
            return message
    raise AssertionError("no table message with action buttons")


def _ids(message: Any) -> list[str]:
    return [c.get("custom_id", "") for c in message.all_components()]


async def test_heads_up_five_card_draw_to_showdown(poker_bot, emu: Emulator, world: World) -> None:
    bot = await poker_bot()
    alice, bob = world.players[:2]
    lobby = await _table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    before_alice = await bot.db.balance(world.guild.id, alice.id)

    dealt = await emu.click(alice, lobby, label="Deal")
    assert dealt.type == 7
    # Everyone gets their five cards by DM.
    await emu.wait_for(lambda: emu.dms(alice) and emu.dms(bob))
    assert "Your hand" in emu.dms(alice)[-1].text
    assert emu.dms(alice)[-1].attachments, "the DM carries a picture of the cards"

    # Play: whoever is to act checks or calls until the draw, stands pat, checks to showdown.
    for _ in range(20):
        await emu.idle()
        live = bot.get_cog("Poker").service.in_channel(world.channel.id)
        if not live.engine.in_hand:
            break
        table = await _table_message(emu, world)
        decision = live.engine.pending[0]
        actor = alice if decision.player_id == str(alice.id) else bob
        labels = table.button_labels
        opening = [label for label in labels if label.startswith("Bet ")]
        if opening and live.engine.public_view().street == "First betting round":
            r = await emu.click(actor, table, label=opening[0])
            assert r.type == 7, (r.content, r.embeds)
        elif "Check" in labels:
            r = await emu.click(actor, table, label="Check")
            assert r.type == 7, (r.content, r.embeds)
        elif any(label.startswith("Call") for label in labels):
            call = next(label for label in labels if label.startswith("Call"))
            await emu.click(actor, table, label=call)
        elif "Draw / stand pat…" in labels:
            opened = await emu.click(actor, table, label="Draw / stand pat…")
            assert opened.type == 6
            panel = (await emu.wait_for(lambda o=opened: o.followups))[-1]
            assert panel.ephemeral
            r = await emu.click(actor, panel, label="Stand pat")
            assert r.type == 7, (r.content, r.embeds)
        else:
            raise AssertionError(f"unexpected buttons {labels}")
    live = bot.get_cog("Poker").service.in_channel(world.channel.id)
    assert not live.engine.in_hand
    result = live.engine.result
    assert result is not None and result.pots
    await emu.idle()
    showdown = [m for m in emu.channel_messages(world.channel) if "result" in m.text]
    assert showdown, "a public showdown message"
    # Chips: stacks changed by the pot, and the audit holds.
    audit = await bot.db.chip_audit(world.guild.id)
    assert audit.ok
    assert await bot.db.balance(world.guild.id, alice.id) == before_alice
    emu.assert_clean()


async def test_a_private_choice_updates_the_table_through_the_interaction_webhook(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Standing pat is answered in the ephemeral panel; the public table is then edited
    through the webhook of the press that opened the panel, not by a counted REST edit."""
    bot = await poker_bot()
    alice, bob = world.players[:2]
    lobby = await _table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    await emu.click(alice, lobby, label="Deal")
    live = bot.get_cog("Poker").service.in_channel(world.channel.id)
    for _ in range(10):  # bet and call to the draw (checking around would pass the deal out)
        table = await _table_message(emu, world)
        labels = table.button_labels
        if "Draw / stand pat…" in labels:
            break
        actor = alice if live.engine.pending[0].player_id == str(alice.id) else bob
        label = next(x for x in labels if x.startswith(("Bet ", "Call")))
        assert (await emu.click(actor, table, label=label)).type == 7
    else:
        raise AssertionError("the draw never came")
    actor = alice if live.engine.pending[0].player_id == str(alice.id) else bob
    opened = await emu.click(actor, table, label="Draw / stand pat…")
    panel = (await emu.wait_for(lambda: opened.followups))[-1]
    before = table.text
    mark = emu.mark()
    assert (await emu.click(actor, panel, label="Stand pat")).type == 7
    await emu.idle()
    edits = [c for c in emu.calls_since(mark) if c.method == "PATCH"]
    assert [(c.kind, c.path.rsplit("/", 1)[-1]) for c in edits] == [
        ("interaction_webhook", str(table.id))
    ]
    assert table.text != before and "stands pat" in table.text, table.text
