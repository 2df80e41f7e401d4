"""Whole hands played through the emulator with the real bot, engine and database."""

from __future__ import annotations

from tests.bot.driver import create_table, current_table_message, live_table
from tests.emulator import Emulator, World


async def test_heads_up_five_card_draw_to_showdown(poker_bot, emu: Emulator, world: World) -> None:
    bot = await poker_bot()
    alice, bob = world.players[:2]
    lobby = await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
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
        live = live_table(bot, world)
        if not live.engine.in_hand:
            break
        table = await current_table_message(emu, world)
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
    live = live_table(bot, world)
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
    lobby = await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    await emu.click(alice, lobby, label="Deal")
    live = live_table(bot, world)
    for _ in range(10):  # bet and call to the draw (checking around would pass the deal out)
        table = await current_table_message(emu, world)
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
