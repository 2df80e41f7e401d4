"""A table in a channel some members cannot see: its hands, replays, proofs and ledger are for
the members who can (or who played there), through the emulator with the real bot."""

from __future__ import annotations

from typing import Any

from tests.bot.driver import create_table, deal, live_table, opener, play_hand
from tests.emulator import Emulator, World
from tests.emulator.models import READ_MESSAGE_HISTORY, SEND_MESSAGES, VIEW_CHANNEL

REFUSED = "a channel you can't see"


def _text(result: Any) -> str:
    return "\n".join(
        [result.content or ""]
        + [f"{e.get('description', '')} {e.get('fields', '')}" for e in result.embeds]
    )


async def test_a_hidden_tables_hands_and_ledger_are_for_who_can_see_its_channel(
    poker_bot: Any, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    alice, bob, carol, dave = world.players
    staff = emu.add_text_channel(world.guild, "staff")
    emu.set_overwrite(staff, world.guild.everyone, deny=VIEW_CHANNEL)
    for user in (emu.bot_user, alice, bob, dave):
        emu.set_overwrite(staff, user, allow=VIEW_CHANNEL | SEND_MESSAGES | READ_MESSAGE_HISTORY)
    await emu.idle()
    hidden = World(world.guild, staff, world.host, world.players)
    await create_table(emu, hidden, [alice, bob], stake=2, ante=1, auto_deal=0)
    table = live_table(bot, hidden)
    await deal(emu, hidden, alice)
    hand_id = int(table.meta.hand.hand_id)
    await play_hand(emu, hidden, bot, policy=opener)
    # The same night, Bob plays on at a table everyone sees.
    await create_table(emu, world, [carol, dave, bob], stake=2, ante=1, auto_deal=0)
    await deal(emu, world, carol)
    await play_hand(emu, world, bot, policy=opener)

    # Carol cannot see #staff and did not play there: nothing of it, even by its ids.
    asks = [
        ("poker history", {"table": table.id}),
        ("poker hand", {"hand": hand_id}),
        ("poker verify", {"hand": hand_id}),
        ("poker ledger", {"table": table.id, "share": True}),
    ]
    for command, options in asks:
        r = await emu.run_command(carol, world.channel, command, options)
        assert r.ephemeral and REFUSED in r.content, (command, r.content)
        assert not r.embeds and not r.attachments, command
    assert not [m for m in emu.channel_messages(world.channel) if "Ledger" in str(m.embeds)]
    # Her own night's ledger leaves the hidden table out (its players settle among themselves).
    r = await emu.run_command(carol, world.channel, "poker ledger", {})
    assert "Carol" in _text(r) and "Bob" in _text(r) and "Alice" not in _text(r)

    # Dave sees #staff (he did not play there), Alice played there: both read it from #poker.
    for user in (dave, alice):
        r = await emu.run_command(user, world.channel, "poker history", {"table": table.id})
        assert r.ephemeral and f"#{hand_id}" in _text(r), r.content
        r = await emu.run_command(user, world.channel, "poker hand", {"hand": hand_id})
        assert r.ephemeral and r.embeds, r.content
        r = await emu.run_command(user, world.channel, "poker ledger", {})
        assert "Alice" in _text(r) and "Carol" in _text(r), _text(r)

    # Shared in #poker, a night's ledger leaves the hidden table out, and the hidden table's
    # own ledger is not shared there at all (Alice may read it; #poker's readers may not).
    r = await emu.run_command(
        alice, world.channel, "poker ledger", {"table": table.id, "share": True}
    )
    assert r.ephemeral and "not everyone here can see" in r.content and not r.embeds, r.content
    r = await emu.run_command(dave, world.channel, "poker ledger", {"share": True})
    assert not r.ephemeral and "Carol" in _text(r) and "Alice" not in _text(r), _text(r)

    # Once Alice is shut out of #staff she still reads the hands she played; Bob's overwrite
    # gone, he still played there too. Dave, shut out, does not.
    emu.set_overwrite(staff, dave, deny=VIEW_CHANNEL)
    emu.set_overwrite(staff, alice, deny=VIEW_CHANNEL)
    await emu.idle()
    r = await emu.run_command(alice, world.channel, "poker hand", {"hand": hand_id})
    assert r.embeds, r.content
    r = await emu.run_command(dave, world.channel, "poker history", {"table": table.id})
    assert REFUSED in r.content and not r.embeds, r.content

    # The public table closes: the ledger it posts in #poker leaves the hidden table out; the
    # hidden one's, posted in #staff, has both tables (#poker is open to every member).
    for user, channel, both in ((carol, world.channel, False), (world.host, staff, True)):
        ended = await emu.run_command(user, channel, "poker end", {})
        posted = (await emu.wait_for(lambda: ended.followups))[-1]  # noqa: B023 (awaited here)
        assert posted.attachments[0].filename.startswith("ledger-"), posted.attachments
        assert "Carol" in _text(posted) and ("Alice" in _text(posted)) == both, _text(posted)
    emu.assert_clean()
