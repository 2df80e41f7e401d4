"""A small bot for the emulator's own tests (the real bot lives in bot.py and cogs/).

It exercises what the poker bot will: a ``/poker`` group with options and autocomplete, a
DynamicItem button whose custom_id carries a table id (and so survives a restart), a persistent
view, a select (0..5 values), a modal, ephemeral answers, deferrals and followups, DMs with an
embed and a PNG file, and an admin-only command.  Run as a script it reads the same settings as
bot.py::

    DISCORD_TOKEN, DISCORD_API_BASE, DISCORD_GATEWAY_URL, DATABASE_PATH

and keeps its tables in SQLite at DATABASE_PATH, so a restarted process still knows them.
Self-contained on purpose (stdlib + discord.py), so it runs as
``python tests/emulator/example_bot.py``.
"""

from __future__ import annotations

import asyncio
import io
import os
import re
import sqlite3
import struct
import zlib
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

VARIANTS = ["five-card draw", "deuce-to-seven", "jacks or better", "lowball", "badugi"]


def tiny_png(width: int = 2, height: int = 1) -> bytes:
    """A valid PNG (grey pixels), standing in for a rendered hand of cards."""

    def chunk(tag: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + tag
            + data
            + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)
        )

    raw = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


class Store:
    def __init__(self, path: str) -> None:
        self.db = sqlite3.connect(path)
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS tables (id INTEGER PRIMARY KEY, variant TEXT, seats INT)"
        )
        self.db.execute("CREATE TABLE IF NOT EXISTS players (table_id INT, user_id INT)")
        self.db.commit()

    def create(self, variant: str, seats: int) -> int:
        cur = self.db.execute("INSERT INTO tables (variant, seats) VALUES (?, ?)", (variant, seats))
        self.db.commit()
        return int(cur.lastrowid or 0)

    def join(self, table_id: int, user_id: int) -> int:
        self.db.execute("INSERT INTO players VALUES (?, ?)", (table_id, user_id))
        self.db.commit()
        row = self.db.execute("SELECT COUNT(*) FROM players WHERE table_id = ?", (table_id,))
        return int(row.fetchone()[0])

    def exists(self, table_id: int) -> bool:
        row = self.db.execute("SELECT 1 FROM tables WHERE id = ?", (table_id,)).fetchone()
        return row is not None


class JoinButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"table:(?P<id>\d+):join"
):
    def __init__(self, table_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Join", style=discord.ButtonStyle.success, custom_id=f"table:{table_id}:join"
            )
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> JoinButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: ExampleBot = interaction.client  # type: ignore[assignment]
        if not bot.store.exists(self.table_id):
            await interaction.response.send_message("No such table.", ephemeral=True)
            return
        count = bot.store.join(self.table_id, interaction.user.id)
        await interaction.response.edit_message(content=f"Table {self.table_id}: {count} seated")


class DiscardSelect(discord.ui.Select[Any]):
    def __init__(self) -> None:
        options = [discord.SelectOption(label=f"Card {i + 1}", value=str(i)) for i in range(5)]
        super().__init__(
            custom_id="discard",
            min_values=0,
            max_values=5,
            options=options,
            placeholder="Cards to discard",
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        chosen = ",".join(self.values) or "none"
        await interaction.response.edit_message(content=f"Discarding: {chosen}", view=None)


class BetModal(discord.ui.Modal, title="Place a bet"):
    amount: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="Amount", custom_id="amount", max_length=6
    )
    note: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="Table talk", custom_id="note", required=False, style=discord.TextStyle.paragraph
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        if not self.amount.value.isdigit():
            await interaction.response.send_message("Amount must be a number.", ephemeral=True)
            return
        text = f"{interaction.user.name} bets {int(self.amount.value)}"
        if interaction.message is not None:
            await interaction.response.edit_message(content=text)
        else:
            await interaction.response.send_message(text)


class RaiseModal(discord.ui.Modal, title="Raise"):
    amount: discord.ui.Label[Any] = discord.ui.Label(
        text="Amount",
        description="Chips to add",
        component=discord.ui.TextInput(custom_id="raise_amount", max_length=6),
    )
    speed: discord.ui.Label[Any] = discord.ui.Label(
        text="Speed",
        component=discord.ui.Select(
            custom_id="speed",
            options=[discord.SelectOption(label=x, value=x) for x in ("slow", "fast")],
        ),
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        assert isinstance(self.amount.component, discord.ui.TextInput)
        assert isinstance(self.speed.component, discord.ui.Select)
        await interaction.response.send_message(
            f"raise {self.amount.component.value} {self.speed.component.values[0]}"
        )


class TableView(discord.ui.View):
    """Persistent: fixed custom_ids, no timeout, registered with add_view at start-up."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Discard", custom_id="table:discard")
    async def discard(
        self, interaction: discord.Interaction, button: discord.ui.Button[Any]
    ) -> None:
        view = discord.ui.View()
        view.add_item(DiscardSelect())
        await interaction.response.send_message("Pick cards to discard", view=view, ephemeral=True)

    @discord.ui.button(label="Bet", custom_id="table:bet", style=discord.ButtonStyle.primary)
    async def bet(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.send_modal(BetModal())

    @discord.ui.button(label="Deal", custom_id="table:deal")
    async def deal(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.defer()
        await interaction.followup.send("Your cards are in your DMs", ephemeral=True)
        await interaction.user.send(
            embed=discord.Embed(title="Your hand", description="A♠ K♠ Q♠ J♠ T♠"),
            file=discord.File(io.BytesIO(tiny_png()), filename="hand.png"),
        )


poker = app_commands.Group(name="poker", description="Draw poker")


@poker.command(name="create", description="Open a table")
@app_commands.describe(variant="Game to play", seats="Seats at the table")
async def create(
    interaction: discord.Interaction, variant: str, seats: app_commands.Range[int, 2, 6] = 6
) -> None:
    bot: ExampleBot = interaction.client  # type: ignore[assignment]
    table_id = bot.store.create(variant, seats)
    view = TableView()
    view.add_item(JoinButton(table_id))
    await interaction.response.send_message(
        f"Table {table_id}: {variant}, {seats} seats", view=view
    )


@create.autocomplete("variant")
async def variant_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=v, value=v) for v in VARIANTS if current.lower() in v]


@poker.command(name="hand", description="DM me my hand")
async def hand(interaction: discord.Interaction) -> None:
    bot: ExampleBot = interaction.client  # type: ignore[assignment]
    await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        await interaction.user.send(
            embed=discord.Embed(title="Your hand", description="A♠ K♠ Q♠ J♠ T♠"),
            file=discord.File(io.BytesIO(tiny_png()), filename="hand.png"),
        )
    except discord.Forbidden as exc:
        bot.dm_errors.append(exc)
        await interaction.followup.send(f"I can't DM you (code {exc.code}).", ephemeral=True)
        return
    await interaction.followup.send("Check your DMs.", ephemeral=True)


@poker.command(name="slow", description="Answers when the test lets it")
async def slow(interaction: discord.Interaction) -> None:
    bot: ExampleBot = interaction.client  # type: ignore[assignment]
    await bot.slow_gate.wait()
    try:
        await interaction.response.send_message("finally")
    except discord.HTTPException as exc:
        bot.late_errors.append(exc)


@poker.command(name="say", description="Posts a channel message and edits it")
async def say(interaction: discord.Interaction, text: str) -> None:
    await interaction.response.send_message("posting", ephemeral=True)
    assert interaction.channel is not None
    msg = await interaction.channel.send(text)  # type: ignore[union-attr]
    await msg.edit(content=text + " (edited)")


@poker.command(name="card", description="Shows a card image")
async def card(interaction: discord.Interaction) -> None:
    png = discord.File(io.BytesIO(tiny_png(3, 2)), filename="card.png")
    embed = discord.Embed(title="Your card").set_image(url="attachment://card.png")
    await interaction.response.send_message(embed=embed, file=png)
    await interaction.followup.send(
        "and another",
        file=discord.File(io.BytesIO(tiny_png()), filename="other.png"),
        ephemeral=True,
    )


@poker.command(name="thread", description="Opens a thread for a hand")
async def thread(interaction: discord.Interaction, name: str) -> None:
    channel = interaction.channel
    assert isinstance(channel, discord.TextChannel)
    await interaction.response.defer(ephemeral=True)
    created = await channel.create_thread(name=name, type=discord.ChannelType.public_thread)
    await created.send(f"Hand {name} starts")
    await interaction.edit_original_response(content=f"Opened {created.mention}")


@poker.command(name="raise", description="Opens a modal built from labels")
async def raise_(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(RaiseModal())


class Board(discord.ui.LayoutView):
    def __init__(self) -> None:
        super().__init__(timeout=None)
        row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
        row.add_item(discord.ui.Button(label="Fold", custom_id="board:fold"))
        self.add_item(discord.ui.Container(discord.ui.TextDisplay("Pot: 40"), row))


@poker.command(name="board", description="Components V2 table")
async def board(interaction: discord.Interaction) -> None:
    await interaction.response.send_message(view=Board())


admin = app_commands.Group(
    name="pokeradmin",
    description="Admin tools",
    default_permissions=discord.Permissions(manage_guild=True),
    guild_only=True,
)


@admin.command(name="reset", description="Reset the club")
async def reset(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("reset done", ephemeral=True)


class ExampleBot(commands.Bot):
    def __init__(self, database_path: str = ":memory:") -> None:
        intents = discord.Intents.default()
        intents.members = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            chunk_guilds_at_startup=False,
            guild_ready_timeout=0.1,
        )
        self.store = Store(database_path)
        self.dm_errors: list[discord.Forbidden] = []
        self.late_errors: list[discord.HTTPException] = []
        self.slow_gate = asyncio.Event()
        self.seen_messages: list[int] = []
        self.tree.add_command(poker)
        self.tree.add_command(admin)

    async def setup_hook(self) -> None:
        self.add_view(TableView())
        self.add_dynamic_items(JoinButton)
        await self.tree.sync()

    async def on_message(self, message: discord.Message) -> None:
        self.seen_messages.append(message.id)


def create_bot(database_path: str = ":memory:") -> ExampleBot:
    return ExampleBot(database_path)


def main() -> None:
    token = os.environ["DISCORD_TOKEN"]
    api_base = os.environ.get("DISCORD_API_BASE")
    gateway_url = os.environ.get("DISCORD_GATEWAY_URL")
    # What bot.py must do too: after any _set_api_version() call, before login.
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    bot = create_bot(os.environ.get("DATABASE_PATH", ":memory:"))
    bot.run(token)


if __name__ == "__main__":
    main()
