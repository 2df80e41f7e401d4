"""``/poker ledger`` and the ledger posted when a table closes, through the emulator: a night
with rebuys and a player who left early, read back from the embed and the CSV attachment."""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

from cogs.translator import _ as cogs_
from cogs.ui.ledger import CSV_COLUMNS
from data import TableSave
from i18n import resolve
from tests.bot.driver import (
    act_once,
    create_table,
    custom_ids,
    deal,
    live_table,
    opener,
    passive,
    play_hand,
    table_message,
)
from tests.emulator import Emulator, World

TRANSFER = re.compile(r"^(.+) → (.+): ([\d,]+) chips?$")


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
        min_buy_in=100,
        max_buy_in=400,
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
    bot = await poker_bot()
    alice = world.players[0]
    r = await emu.run_command(alice, world.channel, "poker ledger", {"table": 999})
    assert r.ephemeral and "There is no table\u00a0#999" in r.content, r.content
    assert not r.attachments
    elsewhere = await bot.db.create_table(world.guild.id + 1, world.channel.id + 1, 5, "{}")
    r = await emu.run_command(alice, world.channel, "poker ledger", {"table": elsewhere.table_id})
    assert r.ephemeral and f"no table\u00a0#{elsewhere.table_id} in this server" in r.content, (
        r.content
    )
    assert not r.attachments
    r = await emu.run_forged_command(alice, world.channel, "poker ledger", {"table": -4})
    assert r.ephemeral and "positive whole number" in r.content, r.content
    emu.assert_clean()


async def test_a_table_closed_as_its_hand_ends_posts_its_ledger(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    bot.tables.clock.house_pause = 0.05
    alice, bob = world.players[:2]
    await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    live = live_table(bot, world)
    added = await emu.run_command(alice, world.channel, "poker addbot", {"level": "easy"})
    assert "House easy 1" in added.content, added.content
    await deal(emu, world, alice)
    ending = await emu.run_command(alice, world.channel, "poker end", {})
    assert "as soon as it is over" in ending.content, ending.content
    for _ in range(200):  # the people act through the UI; the house player on its own
        await emu.idle()
        if not live.engine.in_hand:
            break
        decision = live.engine.pending[0]
        if decision.player_id.startswith("-"):
            await emu.wait_for(
                lambda d=decision: not live.engine.in_hand or live.engine.pending[0] != d
            )
        else:
            # the house player may have just acted: wait for the table message of this moment
            version = f":{live.version()}:"
            await emu.wait_for(
                lambda v=version: any(v in cid for cid in custom_ids(table_message(emu, world))),
                timeout=10,
            )
            await act_once(emu, world, bot, decision, policy=opener)
    title = f"Ledger · table {live.id} (closed)"

    def ledgers() -> list[Any]:
        return [
            m
            for m in emu.channel_messages(world.channel)
            if m.embeds and m.embeds[0].get("title") == title
        ]

    # The house player may act last: the table closes, then posts, as its move is handled.
    await emu.wait_for(ledgers, timeout=10)
    await emu.idle()
    assert live_table(bot, world) is None
    posted = ledgers()
    assert len(posted) == 1, [m.text for m in emu.channel_messages(world.channel)]
    rows = read_csv(posted[0].attachments[0])
    assert [row["player_nickname"] for row in rows] == [
        live.meta.names[str(alice.id)],
        live.meta.names[str(bob.id)],
        live.meta.names[rows[2]["player_id"]],
    ]
    assert "House easy 1" in rows[2]["player_nickname"]
    assert int(rows[2]["player_id"]) < 0, "a house seat keeps its own id"
    nets = {row["player_nickname"]: int(row["net"]) for row in rows}
    assert sum(nets.values()) == 0
    assert all(row["stack"] == "0" for row in rows)
    if any(nets.values()):
        assert_settles(settle_field(posted[0].embeds[0]), nets)
    else:
        assert "Everyone is even" in settle_field(posted[0].embeds[0])
    emu.assert_clean()


async def test_names_with_markdown_read_as_typed_in_the_embed_and_the_csv(
    poker_bot, emu: Emulator, world: World
) -> None:
    """A nickname with markdown characters was pasted raw between the line's ``**``: the
    embed showed ``****A** _b_**``, bold and italics in the wrong places. The embed escapes
    the name; the CSV keeps it as typed."""
    await poker_bot()
    alice, bob = world.players[:2]
    alice.global_name = "**A** _b_"
    bob.global_name = "~~Bo~~ `b|"
    await create_table(emu, world, [alice, bob], auto_deal=0)
    shown = await emu.run_command(alice, world.channel, "poker ledger", {})
    lines = shown.embeds[0]["description"].splitlines()
    assert lines[0].startswith("**\\*\\*A\\*\\* \\_b\\_** · in "), lines
    assert lines[1].startswith("**\\~\\~Bo\\~\\~ \\`b\\|** · in "), lines
    rows = read_csv(shown.attachments[0])
    assert [row["player_nickname"] for row in rows] == ["**A** _b_", "~~Bo~~ `b|"]
    emu.assert_clean()


async def test_a_nickname_written_as_a_mention_does_not_show_as_that_member(
    poker_bot, emu: Emulator, world: World
) -> None:
    """A member nicknamed ``<@alice's id>`` read as Alice in the ledger's lines and
    settle-up: the embed shows the text they typed, not a mention."""
    await poker_bot()
    alice, bob = world.players[:2]
    bob.global_name = f"<@{alice.id}>"
    await create_table(emu, world, [alice, bob], auto_deal=0)
    shown = await emu.run_command(alice, world.channel, "poker ledger", {})
    assert f"<@{alice.id}>" not in shown.embeds[0]["description"], shown.embeds[0]
    assert f"<@\u200b{alice.id}>" in shown.embeds[0]["description"]
    emu.assert_clean()


async def test_a_forged_option_is_refused_in_the_members_language(
    poker_bot, emu: Emulator, world: World
) -> None:
    """A modified client's ``share:"yes"`` or ``table:"1"`` was refused with the option's
    English name in a French sentence ("The share option est ..."): the name is translated."""
    await poker_bot()
    alice = world.players[0]
    alice.locale = "fr"
    french = resolve("fr")
    for options, what in [
        ({"share": "yes"}, "The share option"),
        ({"table": "1"}, "A table id"),
    ]:
        r = await emu.run_forged_command(alice, world.channel, "poker ledger", options)
        assert r.ephemeral
        template = (
            "{what} is either true or false."
            if "share" in options
            else "{what} is a positive whole number."
        )
        assert what not in (r.content or ""), r.content
        name = cogs_(what, language=french)
        assert r.content == cogs_(template, language=french, what=name), r.content
    emu.assert_clean()


async def test_a_night_of_tables_nobody_bought_into_has_a_ledger(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Two tables tonight, nobody sat at either: the night's field was empty, Discord refused
    the embed, and the member was told something went wrong."""
    bot = await poker_bot()
    alice = world.players[0]
    other = emu.add_text_channel(world.guild, "poker-2")
    earlier = await bot.db.create_table(world.guild.id, other.id, alice.id, "{}")
    await bot.db.close_table(earlier.table_id, {})
    await bot.db.create_table(world.guild.id, world.channel.id, alice.id, "{}")
    shown = await emu.run_command(alice, world.channel, "poker ledger", {})
    assert shown.type == 4 and shown.ephemeral, shown.content
    embed = shown.embeds[0]
    assert embed["description"] == "Nobody bought in at this table."
    assert all(field["value"] for field in embed["fields"]), embed["fields"]
    emu.assert_clean()


async def test_a_table_id_reads_as_typed_not_as_an_amount(
    poker_bot, emu: Emulator, world: World
) -> None:
    """The title wrote a table's id as a number of chips ("table 1,000", "Tisch 1.000"), which
    ``/poker ledger table:`` does not take back; refusals already wrote "#1000"."""
    bot = await poker_bot()
    alice = world.players[0]
    for n in range(999):  # the server's tables are numbered from 1: the next is #1000
        table = await bot.db.create_table(world.guild.id, 10 + n, alice.id, "{}")
        await bot.db.close_table(table.table_id, {})
    table = await bot.db.create_table(world.guild.id, world.channel.id, alice.id, "{}")
    assert table.table_id == 1000
    for locale in ("en-US", "de"):
        alice.locale = locale
        shown = await emu.run_command(alice, world.channel, "poker ledger", {})
        assert shown.embeds[0]["title"].endswith(" 1000"), shown.embeds[0]["title"]
    emu.assert_clean()


async def test_a_night_too_long_for_its_fields_says_how_many_lines_it_left_out(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Forty players at an earlier table tonight: the night's nets and the settle-up were cut
    at Discord's 1,024 characters in the middle of a line, the rest unsaid."""
    bot = await poker_bot()
    alice = world.players[0]
    players = {9_000 + n: f"Player with a long nickname {n:02}" for n in range(40)}
    state = json.dumps({"meta": {"names": {str(p): name for p, name in players.items()}}})
    other = emu.add_text_channel(world.guild, "poker-2")  # one Alice may read
    earlier = await bot.db.create_table(world.guild.id, other.id, alice.id, state)
    seats: dict[int, int] = {}
    for seat, player in enumerate(players):
        seats[player] = 100
        save = TableSave(state, 100 * len(seats), dict(seats))
        await bot.db.buy_in(world.guild.id, player, earlier.table_id, 100, save, seat=seat)
    # Every other player doubles up: twenty transfers to settle.
    payouts = {player: 200 if n % 2 else 0 for n, player in enumerate(players)}
    await bot.db.close_table(earlier.table_id, payouts, state_json=state)
    # One of them sits down here: the same game goes on, the same night.
    here = await bot.db.create_table(world.guild.id, world.channel.id, alice.id, state)
    save = TableSave(state, 100, {9_000: 100})
    await bot.db.buy_in(world.guild.id, 9_000, here.table_id, 100, save, seat=0)

    shown = await emu.run_command(alice, world.channel, "poker ledger", {})
    assert shown.type == 4 and shown.ephemeral, shown.content
    fields = {f["name"]: f["value"] for f in shown.embeds[0]["fields"]}
    for name, total in (("The night: 2 tables", 40), ("Settle-up", 20)):
        value = fields[name]
        assert len(value) <= 1024, name
        *kept, last = value.splitlines()
        match = re.fullmatch(r"… and (\d+) more", last)
        assert match, (name, last)
        assert len(kept) + int(match[1]) == total, (name, value)
        # Every line shown is whole: a player's name and a number of chips end each one.
        assert all(re.search(r"(net \*\*[−+]\d+\*\*|: \d+ chips)$", ln) for ln in kept), value
    emu.assert_clean()


async def test_a_pot_carried_to_the_next_deal_is_not_called_a_hand_being_played(
    poker_bot, emu: Emulator, world: World
) -> None:
    """A passed-out deal leaves its antes in the middle for the next one: between hands the
    ledger said "A hand is being played"; it says what the chips wait for."""
    bot = await poker_bot()
    players = world.players[:3]
    await create_table(emu, world, players, variant="jacks-or-better", ante=1, auto_deal=0)
    await deal(emu, world, players[0])
    first = await play_hand(emu, world, bot, policy=passive)
    assert first.passed_out and first.carried == 3
    r = await emu.run_command(players[0], world.channel, "poker ledger", {})
    said = settle_field(r.embeds[0])
    assert said == "3 chips wait in the middle for the next deal: settle up once a hand wins them."
