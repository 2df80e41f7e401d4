"""``/poker ledger`` and the ledger posted when a table closes, through the emulator: a night
with rebuys and a player who left early, read back from the embed and the CSV attachment."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

from cogs.ui.ledger import CSV_COLUMNS
from tests.bot.driver import create_table, deal, live_table, opener, play_hand
from tests.emulator import Emulator, World

TRANSFER = re.compile(r"^(.+) → (.+): ([\d,]+) chips$")


def read_csv(attachment: Any) -> list[dict[str, str]]:
    rows = list(csv.DictReader(io.StringIO(attachment.data.decode())))
    assert rows and tuple(rows[0]) == CSV_COLUMNS
    return rows


def settle_field(embed: dict[str, Any]) -> str:
    return next(f["value"] for f in embed["fields"] if f["name"] == "Settle-up")


def assert_settles(transfers_text: str, nets: dict[str, int]) -> None:
    """The settle-up lines pay every net exactly, in at most players - 1 transfers."""
    left = dict(nets)
    lines = transfers_text.splitlines()
    for line in lines:
        match = TRANSFER.match(line)
        assert match, line
        payer, payee, amount = match[1], match[2], int(match[3].replace(",", ""))
        left[payer] += amount
        left[payee] -= amount
    assert all(v == 0 for v in left.values()), (transfers_text, nets)
    assert 1 <= len(lines) <= len(nets) - 1


async def test_a_night_with_rebuys_and_an_early_leaver(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    guild = world.guild.id
    alice, bob, carol = world.players[:3]
    nobody = await emu.run_command(alice, world.channel, "poker ledger", {})
    assert nobody.ephemeral and "no table yet" in nobody.content, nobody.content
    start = {p.id: await bot.db.balance(guild, p.id) for p in (alice, bob, carol)}
    await create_table(
        emu,
        world,
        [alice, bob, carol],
        stake=2,
        ante=1,
        auto_deal=0,
        min_buy_in=40,
        max_buy_in=200,
    )
    live = live_table(bot, world)
    names = {p.id: live.meta.names[str(p.id)] for p in (alice, bob, carol)}
    bought = {p.id: live.engine.stack(str(p.id)) for p in (alice, bob, carol)}

    await deal(emu, world, alice)
    await play_hand(emu, world, bot, policy=opener)
    rebuy = await emu.run_command(bob, world.channel, "poker rebuy", {"amount": 30})
    assert rebuy.ephemeral and "You add 30" in rebuy.content, rebuy.content
    await deal(emu, world, alice)
    await play_hand(emu, world, bot, policy=opener)
    rebuy = await emu.run_command(bob, world.channel, "poker rebuy", {"amount": 20})
    assert rebuy.ephemeral and "You add 20" in rebuy.content, rebuy.content
    carol_stack = live.engine.stack(str(carol.id))
    left = await emu.run_command(carol, world.channel, "poker leave", {})
    assert f"{carol_stack:,} chips" in left.content, left.content
    await deal(emu, world, alice)
    await play_hand(emu, world, bot, policy=opener)
    await emu.idle()

    # On demand: only the asker sees it; the CSV has every session.
    shown = await emu.run_command(bob, world.channel, "poker ledger", {})
    assert shown.type == 4 and shown.ephemeral, shown.content
    embed = shown.embeds[0]
    assert embed["title"] == f"Ledger · table {live.id}"
    description = embed["description"].splitlines()
    bob_line = next(line for line in description if line.startswith(f"**{names[bob.id]}**"))
    assert "+ 2 rebuys (50)" in bob_line, bob_line
    carol_line = next(line for line in description if line.startswith(f"**{names[carol.id]}**"))
    assert f"cashed out {carol_stack:,}" in carol_line, carol_line
    (attachment,) = shown.attachments
    assert attachment.filename == f"ledger-table-{live.id}.csv"
    rows = {int(row["player_id"]): row for row in read_csv(attachment)}
    assert set(rows) == {alice.id, bob.id, carol.id}
    for p in (alice, bob, carol):
        row = rows[p.id]
        assert row["player_nickname"] == names[p.id]
        brought = bought[p.id] + (50 if p is bob else 0)
        assert int(row["buy_in"]) == brought
        stack = live.engine.stack(str(p.id)) if p is not carol else 0
        assert int(row["stack"]) == stack
        assert int(row["net"]) == int(row["buy_out"]) + stack - brought
        assert row["session_start_at"].endswith("Z")
        assert (row["session_end_at"] != "") == (p is carol)
    assert int(rows[carol.id]["buy_out"]) == carol_stack
    assert_settles(settle_field(embed), {names[p]: int(row["net"]) for p, row in rows.items()})

    # Closing the table posts the ledger for everyone, nets now in the bankrolls.
    ended = await emu.run_command(alice, world.channel, "poker end", {})
    assert ended.type == 4 and not ended.ephemeral
    closing = await emu.wait_for(lambda: ended.followups, timeout=5)
    posted = closing[-1]
    assert not posted.ephemeral
    assert posted.embeds[0]["title"] == f"Ledger · table {live.id} (closed)"
    (attachment,) = posted.attachments
    rows = {int(row["player_id"]): row for row in read_csv(attachment)}
    for p in (alice, bob, carol):
        won = await bot.db.balance(guild, p.id) - start[p.id]
        assert int(rows[p.id]["net"]) == won, (p.id, rows[p.id], won)
        assert rows[p.id]["stack"] == "0" and rows[p.id]["session_end_at"]
    assert_settles(
        settle_field(posted.embeds[0]), {names[p]: int(row["net"]) for p, row in rows.items()}
    )
    assert (await bot.db.chip_audit(guild)).ok
    emu.assert_clean()


async def test_the_ledger_of_an_unknown_table_is_refused(
    poker_bot, emu: Emulator, world: World
) -> None:
    await poker_bot()
    alice = world.players[0]
    r = await emu.run_command(alice, world.channel, "poker ledger", {"table": 999})
    assert r.ephemeral and "There is no table #999" in r.content, r.content
    assert not r.attachments
    emu.assert_clean()
