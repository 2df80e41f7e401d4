"""Showing tables in Discord: the public table message, the showdown, private cards by DM.

The table service hands every change to :meth:`TablePresenter.present` (it is the service's
:class:`~cogs.table_service.Presenter`); commands and the component router call it too,
with the interaction that made the change, so the table message is edited in the answer to
that interaction when it can be. What the messages contain comes from the pure builders in
:mod:`cogs.ui.render` and :mod:`cogs.ui.panels`; this module only decides where they go and
survives Discord's failures (an expired interaction, a closed DM, a deleted message).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

import discord

import engine
from cogs.live_table import LiveTable, Outcome
from cogs.ui import panels, render
from cogs.ui.card_images import render_cards
from cogs.ui.components import Components, MessageEditor
from cogs.ui.custom_ids import Version

if TYPE_CHECKING:
    from cogs.app import PokerBot

log = logging.getLogger("poker.presenter")

__all__ = ["TablePresenter"]


class TablePresenter:
    """Keeps every table's message, showdowns and DMs in step with the service's changes."""

    def __init__(self, bot: PokerBot) -> None:
        self.bot = bot
        self.dm_channels: dict[int, int] = {}
        self._tasks: set[asyncio.Task[Any]] = set()

    def spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()

    # -- what a table shows -----------------------------------------------------------------

    def table_message(self, live: LiveTable) -> tuple[discord.Embed, Components]:
        view = live.engine.public_view()
        embed = render.table_embed(
            view,
            live.meta.names,
            deadline=live.deadline,
            commitment=live.meta.hand.commitment if live.meta.hand else None,
            notes=live.meta.notes,
        )
        if view.phase == "waiting" or not live.engine.in_hand:
            return embed, panels.lobby_components(live.id)
        version = Version.parse(live.version())
        return embed, panels.table_components(live.id, version, live.engine.pending)

    def lobby_message(self, live: LiveTable) -> tuple[discord.Embed, Components]:
        """The table message between hands, with the table's settings in the footer."""
        embed, view = self.table_message(live)
        embed.set_footer(text=f"{embed.footer.text} · {live.settings.describe()}")
        return embed, view

    def private_message(
        self, live: LiveTable, user_id: int
    ) -> tuple[discord.Embed, discord.File | None]:
        """A player's cards: the text, and a picture when there are cards to draw."""
        view = live.engine.public_view()
        private = live.engine.private_view(str(user_id))
        embed = render.private_embed(private, view)
        file = None
        if private.cards:
            png = render_cards(private.cards)
            file = discord.File(fp=io.BytesIO(png), filename="hand.png", description="Your cards")
            embed.set_image(url="attachment://hand.png")
        return embed, file

    # -- presenting ---------------------------------------------------------------------------

    async def present(
        self,
        live: LiveTable,
        outcome: Outcome,
        interaction: discord.Interaction[PokerBot] | None = None,
    ) -> None:
        """Show what changed: the table message, the showdown, fresh private cards by DM."""
        embed, view = self.table_message(live)
        if outcome.new_hand:
            await self._post_table_message(live, embed, view, interaction)
        else:
            await self.edit_table_message(live, embed, view, interaction)
        if outcome.result is not None:
            await self._post_showdown(live, outcome.result, interaction)
        if outcome.private_changed:
            self.spawn(self._send_private(live, outcome.private_changed))

    async def refresh(self, live: LiveTable) -> None:
        """Redraw the table message from the current state (after a restart or a stale press)."""
        if live.meta.message_id is None or live.closed:
            return
        embed, view = self.table_message(live)
        await self.edit_table_message(live, embed, view, None)

    async def _post_table_message(
        self,
        live: LiveTable,
        embed: discord.Embed,
        view: discord.ui.View,
        interaction: discord.Interaction[PokerBot] | None,
    ) -> None:
        message: discord.Message | None = None
        if interaction is not None:
            try:
                message = await interaction.followup.send(embed=embed, view=view, wait=True)
            except discord.HTTPException as exc:
                # E.g. the interaction was answered too late (a busy bot): the hand is dealt
                # and saved all the same, so post its table message in the channel instead.
                log.warning("table %s: followup failed (%s); posting in the channel", live.id, exc)
        try:
            if message is None:
                channel = self.bot.get_partial_messageable(live.channel_id)
                message = await channel.send(embed=embed, view=view)
            live.editor = None
        except discord.HTTPException as exc:
            log.warning("table %s: could not post the table message: %s", live.id, exc)
            return
        await self.bot.tables.set_message(live, message.id)

    async def edit_table_message(
        self,
        live: LiveTable,
        embed: discord.Embed,
        view: discord.ui.View,
        interaction: discord.Interaction[PokerBot] | None,
    ) -> None:
        """Edit the table message: in the answer to ``interaction`` when it was pressed on
        it, else through a recent interaction's webhook, else by REST."""
        on_table = (
            interaction is not None
            and interaction.message is not None
            and interaction.message.id == live.meta.message_id
        )
        try:
            if interaction is not None and on_table and not interaction.response.is_done():
                try:
                    await interaction.response.edit_message(embed=embed, view=view)
                    live.editor = MessageEditor.of(interaction)
                    return
                except discord.NotFound:
                    # Answered after Discord's 3 s (a busy bot): the change is saved, so show it
                    # through the webhook or REST below rather than leave the table stale.
                    log.warning("table %s: interaction expired; editing the message", live.id)
            editor = live.editor
            if editor is not None and not editor.is_expired() and live.meta.message_id:
                with contextlib.suppress(discord.NotFound):
                    await editor.edit(self.bot, live.meta.message_id, embed=embed, view=view)
                    return
            if live.meta.message_id is not None:
                channel = self.bot.get_partial_messageable(live.channel_id)
                await channel.get_partial_message(live.meta.message_id).edit(embed=embed, view=view)
        except discord.HTTPException as exc:
            log.warning("table %s: could not update the table message: %s", live.id, exc)

    async def _post_showdown(
        self,
        live: LiveTable,
        result: engine.HandResult,
        interaction: discord.Interaction[PokerBot] | None,
    ) -> None:
        embed = render.showdown_embed(result, live.meta.names)
        files: list[discord.File] = []
        rows = [shown.cards for shown in result.shown][:4]
        if rows:
            png = render_cards([card for row in rows[:1] for card in row])
            files.append(
                discord.File(io.BytesIO(png), filename="showdown.png", description="Winning cards")
            )
            embed.set_image(url="attachment://showdown.png")
        try:
            if interaction is not None:
                await interaction.followup.send(embed=embed, files=files)
            else:
                channel = self.bot.get_partial_messageable(live.channel_id)
                await channel.send(embed=embed, files=files)
        except discord.HTTPException as exc:
            log.warning("table %s: could not post the showdown: %s", live.id, exc)

    async def _send_private(self, live: LiveTable, player_ids: tuple[str, ...]) -> None:
        """DM each player whose cards changed. A closed DM is noted on the table once."""
        for pid in player_ids:
            user_id = int(pid)
            try:
                embed, file = self.private_message(live, user_id)
            except engine.TableError:
                continue  # no longer seated (left during the hand)
            try:
                channel_id = self.dm_channels.get(user_id)
                if channel_id is None:
                    data = await self.bot.http.start_private_message(user_id)
                    channel_id = int(data["id"])
                    self.dm_channels[user_id] = channel_id
                dm = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
                if file is not None:
                    await dm.send(embed=embed, file=file)
                else:
                    await dm.send(embed=embed)
            except discord.Forbidden:
                if await self.bot.tables.note_dm_closed(live, pid):
                    await self.refresh(live)
            except discord.HTTPException as exc:
                log.warning("DM to %s failed: %s", user_id, exc)
