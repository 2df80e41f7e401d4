"""Poker tables on Discord: ``/poker`` commands, table buttons, private choices and DMs.

Thin by design: every rule is the engine's and every write is the data layer's (through
:class:`cogs.tables.TableService`); this cog turns interactions into service calls and engine
views into embeds, views and DMs.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import engine
from cogs.tables import (
    LiveTable,
    Outcome,
    TableProblem,
    TableService,
    TableSettings,
    verify_hand,
)
from cogs.ui import render
from cogs.ui.card_images import render_cards
from cogs.ui.components import (
    PREFIXES,
    AmountModal,
    Components,
    MessageEditor,
    PokerButton,
    PokerSelect,
)
from data import DataError, HandInProgress, NotFound
from engine.modifiers import describe_modifier, game_name

log = logging.getLogger("poker.cog")

STRUCTURES = {
    "fixed-limit": "Fixed limit",
    "spread-limit": "Spread limit",
    "pot-limit": "Pot limit",
    "no-limit": "No limit",
}


def build_stakes(
    variant: engine.Variant,
    betting: str | None,
    stake: int | None,
    ante: int | None,
    blinds: str | None,
) -> tuple[engine.Structure, engine.ForcedBets]:
    """Translate the /poker create options into the engine's stakes (its defaults otherwise)."""
    structure: engine.Structure = variant.structure
    if betting is not None or stake is not None:
        kind = betting or _structure_kind(variant.structure)
        unit = stake or _structure_unit(variant.structure)
        if kind == "fixed-limit":
            structure = engine.FixedLimit(small_bet=unit)
        elif kind == "spread-limit":
            structure = engine.SpreadLimit(
                min_bet=unit, max_bet=unit * 5, min_bet_after=unit, max_bet_after=unit * 10
            )
        elif kind == "pot-limit":
            structure = engine.PotLimit(min_bet=unit)
        else:
            structure = engine.NoLimit(min_bet=unit)
    forced = variant.forced_bets
    if blinds is not None:
        parts = blinds.replace(",", "/").split("/")
        if not 2 <= len(parts) <= 3 or not all(p.strip().isdigit() for p in parts):
            raise TableProblem("Blinds look like `1/2`, or `1/2/4` with a straddle.")
        small, big, *straddle = (int(p) for p in parts)
        forced = engine.ForcedBets.with_blinds(
            small, big, straddle=straddle[0] if straddle else None, ante=ante or 0
        )
    elif ante is not None:
        forced = engine.ForcedBets.antes(ante)
    return structure, forced


def _structure_kind(structure: engine.Structure) -> str:
    return {
        engine.FixedLimit: "fixed-limit",
        engine.SpreadLimit: "spread-limit",
        engine.PotLimit: "pot-limit",
        engine.NoLimit: "no-limit",
    }[type(structure)]


def _structure_unit(structure: engine.Structure) -> int:
    if isinstance(structure, engine.FixedLimit):
        return structure.small_bet
    return int(structure.min_bet)


def _unit(structure: engine.Structure, forced: engine.ForcedBets) -> int:
    blinds = max(forced.blinds, default=0)
    return max(_structure_unit(structure), blinds, forced.ante, 1)


def _split(custom_id: str) -> list[str]:
    return custom_id.split(":")


class Poker(commands.Cog):
    """The /poker command group and everything a table shows."""

    poker = app_commands.Group(
        name="poker", description="Play draw poker at this channel's table.", guild_only=True
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.service = TableService(bot.db, self)  # type: ignore[attr-defined]
        self._dm_channels: dict[int, int] = {}
        self._tasks: set[asyncio.Task[Any]] = set()

    async def cog_load(self) -> None:
        restored = await self.service.restore()
        # The process may have died after saving a change but before showing it: bring every
        # table message up to date (REST works here: setup_hook runs after login).
        for live in restored:
            self._spawn(self._refresh(live))

    async def _refresh(self, live: LiveTable) -> None:
        """Re-render the table message from the current state (after a restart or a stale
        press)."""
        if live.meta.message_id is None or live.closed:
            return
        embed, view = self.table_message(live)
        await self._edit_table_message(live, embed, view, None)

    async def cog_unload(self) -> None:
        await self.service.shutdown()
        for task in list(self._tasks):
            task.cancel()

    # -- helpers --------------------------------------------------------------------------------

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _reply(interaction: discord.Interaction[Any], text: str) -> None:
        """An ephemeral answer, whether or not the interaction was answered already."""
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException as exc:
            log.warning("could not answer an interaction: %s", exc)

    def _table_here(self, interaction: discord.Interaction[Any]) -> LiveTable:
        live = self.service.in_channel(interaction.channel_id or 0)
        if live is None:
            raise TableProblem("There is no table in this channel. Start one with `/poker create`.")
        return live

    # -- rendering ------------------------------------------------------------------------------

    def table_message(self, live: LiveTable) -> tuple[discord.Embed, discord.ui.View]:
        view = live.engine.public_view()
        embed = render.table_embed(
            view,
            live.meta.names,
            deadline=live.deadline,
            commitment=live.meta.hand.commitment if live.meta.hand else None,
            notes=live.meta.notes,
        )
        return embed, self._table_view(live, view)

    def _table_view(self, live: LiveTable, view: engine.PublicView) -> discord.ui.View:
        ui = Components()
        tid = live.id
        if view.phase == "waiting" or not live.engine.in_hand:
            for verb, label, style, row in (
                ("sit", "Sit down", discord.ButtonStyle.success, 0),
                ("stand", "Stand up", discord.ButtonStyle.secondary, 0),
                ("deal", "Deal", discord.ButtonStyle.primary, 0),
                ("settings", "Settings", discord.ButtonStyle.secondary, 0),
                ("hand", "My hand", discord.ButtonStyle.secondary, 1),
                ("rules", "Rules", discord.ButtonStyle.secondary, 1),
            ):
                ui.add_item(PokerButton(f"pk:l:{tid}:{verb}", label, style, row=row))
            return ui
        version = live.version()
        base = f"pk:t:{tid}:{version}"
        pending = live.engine.pending
        bet = next((d for d in pending if d.kind is engine.DecisionKind.BET), None)
        if bet is not None and isinstance(bet.legal, engine.BetOptions):
            legal = bet.legal
            ui.add_item(PokerButton(f"{base}:fold", "Fold", discord.ButtonStyle.danger, row=0))
            if legal.can_check:
                ui.add_item(PokerButton(f"{base}:check", "Check", row=0))
            elif legal.to_call:
                label = f"Call {legal.to_call:,}" + (" (all-in)" if legal.call_all_in else "")
                ui.add_item(PokerButton(f"{base}:call", label, discord.ButtonStyle.primary, row=0))
            if legal.can_raise:
                word = "Bet" if legal.is_bet else "Raise to"
                if legal.fixed_limit and legal.min_to is not None:
                    ui.add_item(
                        PokerButton(
                            f"{base}:to{legal.min_to}",
                            f"{word} {legal.min_to:,}",
                            discord.ButtonStyle.success,
                            row=0,
                        )
                    )
                else:
                    ui.add_item(
                        PokerButton(
                            f"{base}:amount", f"{word}…", discord.ButtonStyle.success, row=0
                        )
                    )
                    for label, amount in legal.quick_amounts()[:4]:
                        ui.add_item(PokerButton(f"{base}:to{amount}", f"{label} {amount:,}", row=1))
            if legal.can_all_in and not legal.fixed_limit:
                ui.add_item(
                    PokerButton(
                        f"{base}:allin",
                        f"All-in {legal.all_in_to:,}",
                        discord.ButtonStyle.danger,
                        row=0,
                    )
                )
        else:
            kinds = {d.kind for d in pending}
            labels = {
                engine.DecisionKind.DRAW: "Draw / stand pat…",
                engine.DecisionKind.KEEP: "Choose your card…",
                engine.DecisionKind.PASS: "Pass cards…",
                engine.DecisionKind.ARRANGE: "Arrange your cards…",
                engine.DecisionKind.DECLARE: "Declare…",
                engine.DecisionKind.CHOOSE_GAME: "Choose the game…",
            }
            for kind in kinds:
                if kind in labels:
                    ui.add_item(
                        PokerButton(
                            f"{base}:private", labels[kind], discord.ButtonStyle.primary, row=0
                        )
                    )
        ui.add_item(PokerButton(f"pk:l:{tid}:hand", "My hand", row=2))
        return ui

    def _private_message(
        self, live: LiveTable, user_id: int
    ) -> tuple[discord.Embed, discord.File | None]:
        view = live.engine.public_view()
        private = live.engine.private_view(str(user_id))
        embed = render.private_embed(private, view)
        file = None
        if private.cards:
            png = render_cards(private.cards)
            file = discord.File(fp=io.BytesIO(png), filename="hand.png", description="Your cards")
            embed.set_image(url="attachment://hand.png")
        return embed, file

    # -- presenting (called by the table service, and after our own interactions) -----------

    async def present(
        self,
        live: LiveTable,
        outcome: Outcome,
        interaction: discord.Interaction[Any] | None = None,
    ) -> None:
        """Show what changed: the table message, the showdown, fresh private cards by DM."""
        embed, view = self.table_message(live)
        if outcome.new_hand:
            await self._post_table_message(live, embed, view, interaction)
        else:
            await self._edit_table_message(live, embed, view, interaction)
        if outcome.result is not None:
            await self._post_showdown(live, outcome.result, interaction)
        if outcome.private_changed:
            self._spawn(self._send_private(live, outcome.private_changed))

    async def _post_table_message(
        self,
        live: LiveTable,
        embed: discord.Embed,
        view: discord.ui.View,
        interaction: discord.Interaction[Any] | None,
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
        await self.service.set_message(live, message.id)

    async def _edit_table_message(
        self,
        live: LiveTable,
        embed: discord.Embed,
        view: discord.ui.View,
        interaction: discord.Interaction[Any] | None,
    ) -> None:
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
        interaction: discord.Interaction[Any] | None,
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
                embed, file = self._private_message(live, user_id)
            except ValueError:
                continue
            try:
                channel_id = self._dm_channels.get(user_id)
                if channel_id is None:
                    data = await self.bot.http.start_private_message(user_id)
                    channel_id = int(data["id"])
                    self._dm_channels[user_id] = channel_id
                dm = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
                if file is not None:
                    await dm.send(embed=embed, file=file)
                else:
                    await dm.send(embed=embed)
            except discord.Forbidden:
                if pid not in live.meta.dm_closed:
                    live.meta.dm_closed.append(pid)
                    name = live.meta.names.get(pid, pid)
                    live.meta.notes.append(
                        f"📪 I can't DM {name}: use **My hand** to see your cards."
                    )
                    embed, view = self.table_message(live)
                    await self._edit_table_message(live, embed, view, None)
            except discord.HTTPException as exc:
                log.warning("DM to %s failed: %s", user_id, exc)

    # -- component dispatch ---------------------------------------------------------------------

    async def on_component(
        self, interaction: discord.Interaction[Any], custom_id: str, values: list[str]
    ) -> None:
        parts = _split(custom_id)
        try:
            if parts[0] == "pk" and parts[1] == "l":
                await self._lobby(interaction, int(parts[2]), parts[3])
            elif parts[0] == "pk" and parts[1] == "t":
                await self._table_button(interaction, int(parts[2]), parts[3], parts[4])
            elif parts[0] == "pk" and parts[1] == "p":
                await self._private_button(
                    interaction, int(parts[2]), int(parts[3]), parts[4], parts[5]
                )
            elif parts[0] == "pks":
                await self._private_select(
                    interaction, int(parts[1]), int(parts[2]), parts[3], parts[4], values
                )
        except TableProblem as exc:
            await self._reply(interaction, str(exc))
        except (IndexError, ValueError):
            log.debug("malformed or stale custom id %r", custom_id, exc_info=True)
            await self._reply(interaction, "That button is no longer valid.")

    def _live(self, table_id: int) -> LiveTable:
        live = self.service.get(table_id)
        if live is None:
            raise TableProblem("This table has been closed.")
        return live

    async def _lobby(self, interaction: discord.Interaction[Any], table_id: int, verb: str) -> None:
        live = self._live(table_id)
        user = interaction.user
        if verb == "sit":
            await self.service.join(live, user.id, user.display_name, None)
            await self._refresh_lobby(live, interaction)
        elif verb == "stand":
            paid = await self.service.leave(live, user.id)
            if paid is not None:
                await self._refresh_lobby(live, interaction)
            else:
                await self._reply(interaction, "You'll stand up when this hand ends.")
        elif verb == "deal":
            if not live.seated(user.id):
                raise TableProblem("Only seated players can deal.")
            outcome = await self.service.start_hand(live)
            embed, view = self._lobby_closed(live)
            # Answered too late (a busy bot): the hand is dealt; present() posts it anyway.
            with contextlib.suppress(discord.NotFound):
                await interaction.response.edit_message(embed=embed, view=view)
            await self.present(live, outcome, interaction)
        elif verb == "hand":
            await self._show_hand(interaction, live)
        elif verb == "settings":
            await interaction.response.send_message(
                embed=self._settings_embed(live), ephemeral=True
            )
        elif verb == "rules":
            variant = engine.get_variant(live.engine.config.variant)
            await interaction.response.send_message(
                embed=render.variant_embed(variant), ephemeral=True
            )

    def _lobby_closed(self, live: LiveTable) -> tuple[discord.Embed, discord.ui.View]:
        embed = discord.Embed(
            title=f"{live.engine.public_view().game}: hand #{live.engine.hand_number} dealt",
            description="The hand is being played in the message below.",
            colour=render.GREY,
        )
        return embed, Components()

    async def _refresh_lobby(self, live: LiveTable, interaction: discord.Interaction[Any]) -> None:
        embed, view = self.table_message(live)
        embed.set_footer(text=f"{embed.footer.text} · {live.settings.describe()}")
        on_table = (
            interaction.message is not None and interaction.message.id == live.meta.message_id
        )
        if on_table and not live.engine.in_hand:
            await interaction.response.edit_message(embed=embed, view=view)
            live.editor = MessageEditor.of(interaction)
        else:
            await interaction.response.send_message("Done.", ephemeral=True)
            await self._edit_table_message(live, embed, view, None)

    async def _show_hand(self, interaction: discord.Interaction[Any], live: LiveTable) -> None:
        if not live.seated(interaction.user.id):
            raise TableProblem("You are not seated at this table.")
        if live.engine.hand is None:
            raise TableProblem("No cards yet: wait for the deal.")
        embed, file = self._private_message(live, interaction.user.id)
        if file is not None:
            await interaction.response.send_message(embed=embed, file=file, ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, ephemeral=True)

    async def _table_button(
        self, interaction: discord.Interaction[Any], table_id: int, version: str, verb: str
    ) -> None:
        live = self._live(table_id)
        user_id = interaction.user.id
        if not live.seated(user_id):
            raise TableProblem("You are not seated at this table.")
        if version != live.version():
            self._spawn(self._refresh(live))
            raise TableProblem("That button is no longer valid: the table has moved on.")
        decision = next((d for d in live.engine.pending if d.player_id == str(user_id)), None)
        if decision is None:
            raise TableProblem("It's not your turn.")
        if verb == "private":
            await self._open_private(interaction, live, decision)
            return
        action: engine.Action
        legal = decision.legal
        if not isinstance(legal, engine.BetOptions):
            raise TableProblem("That button is no longer valid.")
        if verb == "fold":
            action = engine.Fold()
        elif verb == "check":
            action = engine.Check()
        elif verb == "call":
            action = engine.Call()
        elif verb == "allin":
            action = engine.AllIn()
        elif verb.startswith("to"):
            to = int(verb[2:])
            action = engine.Bet(to) if legal.is_bet else engine.Raise(to)
        elif verb == "amount":
            word = "Bet" if legal.is_bet else "Raise to"
            low, high = legal.min_to or 0, legal.max_to or 0
            await interaction.response.send_modal(
                AmountModal(
                    f"pkm:{table_id}:{version}",
                    f"{word} ({low:,}–{high:,})",
                    f"{word}: {low:,} to {high:,}",
                    low,
                    high,
                )
            )
            return
        else:
            raise TableProblem("That button is no longer valid.")
        outcome = await self.service.act(live, user_id, action, version=version)
        await self.present(live, outcome, interaction)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Every poker component and the amount modal, routed by custom id (see
        :mod:`cogs.ui.components`)."""
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        if interaction.type is discord.InteractionType.component:
            if custom_id.startswith(PREFIXES):
                values = [str(v) for v in data.get("values", ())]
                await self.on_component(interaction, custom_id, values)
            return
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        if not custom_id.startswith("pkm:"):
            return
        try:
            _, table_id, version = custom_id.split(":")
            live = self._live(int(table_id))
            raw = _modal_value(interaction.data, "amount").replace(",", "").strip()
            if not raw.isdigit():
                raise TableProblem(f"“{raw}” is not a number of chips.")
            decision = next(
                (d for d in live.engine.pending if d.player_id == str(interaction.user.id)), None
            )
            if decision is None or not isinstance(decision.legal, engine.BetOptions):
                raise TableProblem("It's not your turn.")
            legal = decision.legal
            to = int(raw)
            if legal.min_to is None or legal.max_to is None or not legal.is_legal_to(to):
                raise TableProblem(
                    f"{to:,} is outside the legal range {legal.min_to or 0:,} to "
                    f"{legal.max_to or 0:,}."
                )
            action = engine.Bet(to) if legal.is_bet else engine.Raise(to)
            outcome = await self.service.act(live, interaction.user.id, action, version=version)
            await self.present(live, outcome, interaction)
        except TableProblem as exc:
            await self._reply(interaction, str(exc))

    # -- private choices (ephemeral) ------------------------------------------------------------

    async def _open_private(
        self,
        interaction: discord.Interaction[Any],
        live: LiveTable,
        decision: engine.Decision,
    ) -> None:
        # Deferring as an update keeps this interaction's original message = the table
        # message, so the table can be refreshed through its webhook when the choice is made.
        await interaction.response.defer()
        live.editor = MessageEditor.of(interaction)
        embed, view = self._private_panel(live, decision, ())
        await interaction.followup.send(embed=embed, view=view, ephemeral=True)

    def _private_panel(
        self,
        live: LiveTable,
        decision: engine.Decision,
        chosen: tuple[int, ...],
        state: str = "",
    ) -> tuple[discord.Embed, discord.ui.View]:
        hand_no = live.engine.hand_number
        base = f"{live.id}:{hand_no}"
        legal = decision.legal
        ui = Components()
        embed = discord.Embed(colour=render.GOLD)
        if isinstance(legal, engine.ChooseOptions):
            return self._choose_panel(base, legal, state)
        private = live.engine.private_view(decision.player_id)
        cards = private.cards

        def options(selected: tuple[int, ...]) -> list[discord.SelectOption]:
            return [
                discord.SelectOption(label=card.display, value=str(i), default=i in selected)
                for i, card in enumerate(cards)
            ]

        chosen_text = render.cards_text(cards[i] for i in chosen if i < len(cards))
        payload = ".".join(str(i) for i in chosen)
        if isinstance(legal, engine.DrawOptions):
            most = max(legal.counts)
            embed.title = "Draw: choose the cards to throw away"
            embed.description = (
                f"Your hand: **{render.cards_text(cards)}**\n"
                f"You may discard {', '.join(str(c) for c in legal.counts)} cards."
                + (f"\n{legal.condition}" if legal.condition else "")
                + f"\nChosen: {chosen_text}"
            )
            if most:
                ui.add_item(
                    PokerSelect(
                        f"pks:{base}:draw:",
                        options(chosen),
                        placeholder="Cards to discard",
                        min_values=0,
                        max_values=min(most, len(cards)),
                    )
                )
            ui.add_item(
                PokerButton(
                    f"pk:p:{base}:draw:{payload}",
                    f"Discard {len(chosen)}" if chosen else "Stand pat",
                    discord.ButtonStyle.success,
                )
            )
        elif isinstance(legal, engine.PassOptions):
            embed.title = f"Pass {legal.count} cards {legal.direction}"
            embed.description = f"Your hand: **{render.cards_text(cards)}**\nChosen: {chosen_text}"
            ui.add_item(
                PokerSelect(
                    f"pks:{base}:pass:",
                    options(chosen),
                    placeholder=f"Choose {legal.count}",
                    min_values=legal.count,
                    max_values=legal.count,
                )
            )
            if len(chosen) == legal.count:
                ui.add_item(
                    PokerButton(
                        f"pk:p:{base}:pass:{payload}", "Confirm", discord.ButtonStyle.success
                    )
                )
        elif isinstance(legal, engine.ArrangeOptions):
            embed.title = "Arrange the order your cards will be turned up"
            embed.description = (
                f"Your hand: **{render.cards_text(cards)}**\nOrder so far: {chosen_text}"
            )
            remaining = [i for i in range(len(cards)) if i not in chosen]
            if len(chosen) < legal.size and remaining:
                ui.add_item(
                    PokerSelect(
                        f"pks:{base}:arrange:{payload}",
                        [
                            discord.SelectOption(label=cards[i].display, value=str(i))
                            for i in remaining
                        ],
                        placeholder=f"Card number {len(chosen) + 1}",
                    )
                )
            else:
                ui.add_item(
                    PokerButton(
                        f"pk:p:{base}:arrange:{payload}", "Confirm", discord.ButtonStyle.success
                    )
                )
        elif isinstance(legal, engine.DeclareOptions):
            embed.title = "Declare (in secret)"
            embed.description = f"Your hand: **{render.cards_text(cards)}**"
            for direction in legal.directions:
                ui.add_item(
                    PokerButton(
                        f"pk:p:{base}:declare:{direction.value}",
                        direction.value.capitalize(),
                        discord.ButtonStyle.primary,
                    )
                )
        elif isinstance(legal, engine.KeepOptions):
            embed.title = "Take the face-up card or the face-down one"
            embed.description = f"Face up: **{legal.face_up.display}**"
            ui.add_item(
                PokerButton(
                    f"pk:p:{base}:keep:up",
                    f"Take {legal.face_up.display}",
                    discord.ButtonStyle.primary,
                )
            )
            ui.add_item(PokerButton(f"pk:p:{base}:keep:down", "Take the face-down card"))
        else:
            embed.title = "Nothing to choose right now"
        return embed, ui

    def _choose_panel(
        self, base: str, legal: engine.ChooseOptions, state: str
    ) -> tuple[discord.Embed, discord.ui.View]:
        """Dealer's choice: a game, wild cards and house rules, then Deal. The choice so far
        travels in the custom ids (``slug~mod,mod``) so the panel needs no memory."""
        slug, mods = _decode_choice(state, legal.default)
        variant = engine.get_variant(slug)
        embed = discord.Embed(title="Dealer's choice: pick the game", colour=render.GOLD)
        embed.description = f"**{game_name(variant.name, mods)}**\n{variant.description[:1500]}"
        ui = Components()
        games = [
            discord.SelectOption(label=engine.get_variant(s).name[:100], value=s, default=s == slug)
            for s in legal.slugs[:25]
        ]
        ui.add_item(PokerSelect(f"pks:{base}:cg:{_encode_choice(slug, mods)}", games, row=0))
        wild = [m for m in legal.modifiers if m.startswith(WILD_PREFIXES)]
        rules = [m for m in legal.modifiers if not m.startswith(WILD_PREFIXES)]
        for kind, keys, row, placeholder in (
            ("cw", wild, 1, "Wild cards and the joker"),
            ("cr", rules, 2, "Draws, lows, high-low and house rules"),
        ):
            options = [
                discord.SelectOption(
                    label=describe_modifier(m)[:100], value=_safe(m), default=m in mods
                )
                for m in keys[:25]
            ]
            if options:
                ui.add_item(
                    PokerSelect(
                        f"pks:{base}:{kind}:{_encode_choice(slug, mods)}",
                        options,
                        placeholder=placeholder,
                        min_values=0,
                        max_values=len(options),
                        row=row,
                    )
                )
        ui.add_item(
            PokerButton(
                f"pk:p:{base}:choose:{_encode_choice(slug, mods)}",
                "Deal it",
                discord.ButtonStyle.success,
                row=3,
            )
        )
        return embed, ui

    def _pending_for(self, live: LiveTable, user_id: int, hand_no: int) -> engine.Decision:
        if live.engine.hand_number != hand_no or not live.engine.in_hand:
            raise TableProblem("That choice is no longer valid: the hand is over.")
        decision = next((d for d in live.engine.pending if d.player_id == str(user_id)), None)
        if decision is None:
            raise TableProblem("That choice is no longer valid: nothing is waiting for you.")
        return decision

    async def _private_select(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        hand_no: int,
        kind: str,
        payload: str,
        values: list[str],
    ) -> None:
        live = self._live(table_id)
        decision = self._pending_for(live, interaction.user.id, hand_no)
        if kind in ("cg", "cw", "cr"):
            slug, mods = _decode_choice(payload, "")
            if kind == "cg":
                slug = values[0] if values else slug
            else:
                keep = [m for m in mods if m.startswith(WILD_PREFIXES) != (kind == "cw")]
                mods = tuple(keep + [_unsafe(v) for v in values])
            embed, view = self._private_panel(live, decision, (), _encode_choice(slug, mods))
            await interaction.response.edit_message(embed=embed, view=view)
            return
        picked = tuple(sorted(int(v) for v in values))
        if kind == "arrange":
            before = tuple(int(p) for p in payload.split(".") if p)
            picked = before + tuple(int(v) for v in values)
        embed, view = self._private_panel(live, decision, picked)
        await interaction.response.edit_message(embed=embed, view=view)

    async def _private_button(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        hand_no: int,
        kind: str,
        payload: str,
    ) -> None:
        live = self._live(table_id)
        decision = self._pending_for(live, interaction.user.id, hand_no)
        action: engine.Action
        if kind == "choose":
            slug, mods = _decode_choice(payload, "")
            outcome = await self.service.act(
                live, interaction.user.id, engine.ChooseGame(slug, mods)
            )
            await interaction.response.edit_message(
                embed=discord.Embed(
                    description=f"You chose {game_name(engine.get_variant(slug).name, mods)}.",
                    colour=render.GOLD,
                ),
                view=None,
            )
            await self.present(live, outcome, None)
            return
        picked: tuple[engine.Card, ...] = ()
        if kind in ("draw", "pass", "arrange"):
            cards = live.engine.private_view(decision.player_id).cards
            picked = tuple(cards[int(p)] for p in payload.split(".") if p)
        if kind == "draw":
            action = engine.Discard(picked)
            done = f"You discarded {len(picked)}." if picked else "You stand pat."
        elif kind == "pass":
            action = engine.PassCards(picked)
            done = f"You passed {render.cards_text(picked)}."
        elif kind == "arrange":
            action = engine.Arrange(picked)
            done = f"Your order: {render.cards_text(picked)}."
        elif kind == "declare":
            action = engine.Declare(engine.Direction(payload))
            done = f"You declared {payload}."
        elif kind == "keep":
            legal = decision.legal
            if not isinstance(legal, engine.KeepOptions):
                raise TableProblem("That choice is no longer valid.")
            action = engine.Keep(legal.face_up if payload == "up" else None)
            done = "Card chosen."
        else:
            raise TableProblem("That choice is no longer valid.")
        outcome = await self.service.act(live, interaction.user.id, action)
        # Answered too late (a busy bot): the choice is made all the same; show the table.
        with contextlib.suppress(discord.NotFound):
            await interaction.response.edit_message(
                embed=discord.Embed(description=done, colour=render.GOLD), view=None
            )
        await self.present(live, outcome, None)

    # -- slash commands -------------------------------------------------------------------------

    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, TableProblem | DataError):
            await self._reply(interaction, str(original))
            return
        log.exception("command failed", exc_info=original)
        await self._reply(interaction, "Something went wrong; nothing was changed.")

    async def variant_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        needle = current.lower()
        return [
            app_commands.Choice(name=v.name[:100], value=v.slug)
            for v in engine.list_variants()
            if needle in v.slug or needle in v.name.lower()
        ][:25]

    @poker.command(name="create", description="Open a poker table in this channel.")
    @app_commands.describe(
        variant="The game to play (start typing to search the catalogue)",
        betting="Betting structure (default: the game's usual one)",
        stake="Small bet (fixed limit) or minimum bet, in chips",
        ante="Ante per player, in chips",
        blinds="Blinds as small/big, e.g. 1/2 (or 1/2/4 with a straddle)",
        seats="Number of seats",
        min_buy_in="Smallest buy-in, in chips",
        max_buy_in="Largest buy-in, in chips",
        timer="Seconds each player has to act",
        auto_deal="Seconds between hands before the next deal (0 = press Deal)",
        dealers_choice="Each dealer picks the game (the variant above is the default)",
    )
    @app_commands.choices(
        betting=[app_commands.Choice(name=v, value=k) for k, v in STRUCTURES.items()]
    )
    @app_commands.autocomplete(variant=variant_autocomplete)
    async def create(
        self,
        interaction: discord.Interaction[Any],
        variant: str = "five-card-draw",
        betting: str | None = None,
        stake: app_commands.Range[int, 1, 1_000_000] | None = None,
        ante: app_commands.Range[int, 0, 1_000_000] | None = None,
        blinds: str | None = None,
        seats: app_commands.Range[int, 2, 10] | None = None,
        min_buy_in: app_commands.Range[int, 1, 100_000_000] | None = None,
        max_buy_in: app_commands.Range[int, 1, 100_000_000] | None = None,
        timer: app_commands.Range[int, 10, 600] = 60,
        auto_deal: app_commands.Range[int, 0, 120] = 8,
        dealers_choice: bool = False,
    ) -> None:
        if interaction.guild_id is None or interaction.channel_id is None:
            raise TableProblem("Tables live in server channels.")
        try:
            chosen = engine.get_variant(variant)
        except (KeyError, ValueError) as exc:
            raise TableProblem(f"I don't know the game “{variant}”. Try `/poker rules`.") from exc
        structure, forced = build_stakes(chosen, betting, stake, ante, blinds)
        try:
            config = engine.TableConfig(
                variant=chosen.slug,
                structure=structure,
                forced_bets=forced,
                max_seats=seats,
                dealers_choice=dealers_choice,
            )
        except ValueError as exc:
            raise TableProblem(str(exc)) from exc
        unit = _unit(structure, forced)
        low = min_buy_in if min_buy_in is not None else unit * 20
        high = max_buy_in if max_buy_in is not None else max(low, unit * 100)
        if low > high:
            raise TableProblem("The smallest buy-in can't be larger than the largest.")
        settings = TableSettings(low, high, action_seconds=timer, auto_deal_seconds=auto_deal)
        live = await self.service.create(
            interaction.guild_id, interaction.channel_id, interaction.user.id, config, settings
        )
        embed, view = self.table_message(live)
        embed.title = f"New table: {embed.title}"
        embed.set_footer(text=f"{embed.footer.text} · {settings.describe()}")
        response = await interaction.response.send_message(embed=embed, view=view)
        message_id = getattr(response, "message_id", None)
        if message_id is not None:
            await self.service.set_message(live, int(message_id))
        live.editor = None

    @poker.command(name="join", description="Sit down at this channel's table.")
    @app_commands.describe(buy_in="Chips to bring from your bankroll (default: the minimum)")
    async def join(
        self,
        interaction: discord.Interaction[Any],
        buy_in: app_commands.Range[int, 1, 100_000_000] | None = None,
    ) -> None:
        live = self._table_here(interaction)
        seat = await self.service.join(
            live, interaction.user.id, interaction.user.display_name, buy_in
        )
        await interaction.response.send_message(
            f"{interaction.user.mention} sits down in seat {seat + 1} with "
            f"{live.engine.stack(str(interaction.user.id)):,} chips.",
            allowed_mentions=discord.AllowedMentions.none(),
        )
        if not live.engine.in_hand:
            await self._refresh(live)

    @poker.command(name="leave", description="Stand up; your chips go back to your bankroll.")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        live = self._table_here(interaction)
        paid = await self.service.leave(live, interaction.user.id)
        if paid is None:
            await interaction.response.send_message(
                "You fold and will stand up when this hand ends.", ephemeral=True
            )
            return
        await interaction.response.send_message(
            f"{interaction.user.mention} stands up with {paid:,} chips.",
            allowed_mentions=discord.AllowedMentions.none(),
        )
        if not live.engine.in_hand:
            await self._refresh(live)

    @poker.command(name="start", description="Deal the next hand.")
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        live = self._table_here(interaction)
        if not live.seated(interaction.user.id):
            raise TableProblem("Only seated players can deal.")
        outcome = await self.service.start_hand(live)
        await interaction.response.send_message(
            f"Dealing hand #{live.engine.hand_number}.", ephemeral=True
        )
        await self.present(live, outcome, interaction)

    @poker.command(name="end", description="Close this channel's table and pay everyone out.")
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        live = self._table_here(interaction)
        perms = interaction.permissions
        if interaction.user.id != live.creator_id and not perms.manage_guild:
            raise TableProblem("Only the table's creator or a server manager can end it.")
        payouts = await self.service.end(live)
        lines = [
            f"{live.meta.names.get(str(uid), str(uid))}: {amount:,}"
            for uid, amount in payouts.items()
        ]
        embed = discord.Embed(
            title="Table closed",
            description="\n".join(lines) or "Nobody was seated.",
            colour=render.GREY,
        )
        await interaction.response.send_message(embed=embed)

    @poker.command(name="sitout", description="Sit out from the next hand (keep your seat).")
    async def sitout(self, interaction: discord.Interaction[Any]) -> None:
        live = self._table_here(interaction)
        await self.service.sit_out(live, interaction.user.id, True)
        await interaction.response.send_message(
            "You'll sit out until `/poker back`.", ephemeral=True
        )

    @poker.command(name="back", description="Come back in after sitting out.")
    async def back(self, interaction: discord.Interaction[Any]) -> None:
        live = self._table_here(interaction)
        await self.service.sit_out(live, interaction.user.id, False)
        await interaction.response.send_message(
            "Welcome back: you're in the next hand.", ephemeral=True
        )

    def _settings_embed(self, live: LiveTable) -> discord.Embed:
        view = live.engine.public_view()
        embed = discord.Embed(title=f"Table settings: {view.game}", colour=render.GREEN)
        embed.add_field(name="Stakes", value=f"{view.structure}\n{view.forced_bets}", inline=False)
        embed.add_field(name="Table", value=live.settings.describe(), inline=False)
        embed.add_field(name="Seats", value=str(len(live.engine.seats)))
        embed.set_footer(text="The creator or a server manager can change these: /poker settings")
        return embed

    @poker.command(name="settings", description="Show or change this table's settings.")
    @app_commands.describe(
        timer="Seconds each player has to act",
        auto_deal="Seconds between hands before the next deal (0 = press Deal)",
        min_buy_in="Smallest buy-in, in chips",
        max_buy_in="Largest buy-in, in chips",
    )
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        timer: app_commands.Range[int, 10, 600] | None = None,
        auto_deal: app_commands.Range[int, 0, 120] | None = None,
        min_buy_in: app_commands.Range[int, 1, 100_000_000] | None = None,
        max_buy_in: app_commands.Range[int, 1, 100_000_000] | None = None,
    ) -> None:
        live = self._table_here(interaction)
        changes = (timer, auto_deal, min_buy_in, max_buy_in)
        if all(value is None for value in changes):
            await interaction.response.send_message(
                embed=self._settings_embed(live), ephemeral=True
            )
            return
        if interaction.user.id != live.creator_id and not interaction.permissions.manage_guild:
            raise TableProblem("Only the table's creator or a server manager can change settings.")
        new = await self.service.update_settings(
            live,
            action_seconds=timer,
            auto_deal_seconds=auto_deal,
            min_buy_in=min_buy_in,
            max_buy_in=max_buy_in,
        )
        await interaction.response.send_message(f"Table settings: {new.describe()}.")

    @poker.command(name="rules", description="How a game is played.")
    @app_commands.describe(variant="The game (default: this channel's game, or the list)")
    @app_commands.autocomplete(variant=variant_autocomplete)
    async def rules(
        self, interaction: discord.Interaction[Any], variant: str | None = None
    ) -> None:
        if variant is None:
            live = self.service.in_channel(interaction.channel_id or 0)
            if live is not None:
                variant = live.engine.config.variant
        if variant is None:
            lines = [f"**{v.name}** (`{v.slug}`)" for v in engine.list_variants()]
            embed = discord.Embed(
                title="Games I deal", description="\n".join(lines)[:4000], colour=render.GREEN
            )
            await interaction.response.send_message(embed=embed, ephemeral=True)
            return
        try:
            chosen = engine.get_variant(variant)
        except (KeyError, ValueError) as exc:
            raise TableProblem(f"I don't know the game “{variant}”.") from exc
        await interaction.response.send_message(embed=render.variant_embed(chosen), ephemeral=True)

    @poker.command(name="help", description="How to play poker with this bot.")
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        embed = discord.Embed(title="Draw poker: how it works here", colour=render.GREEN)
        embed.description = (
            "**/poker create** opens a table in this channel; **Sit down** or **/poker join** "
            "buys in from your bankroll. **Deal** (or /poker start) deals a hand.\n"
            "Your cards arrive by DM, and **My hand** shows them any time. Act with the "
            "buttons on the table message; discards and other private choices open a panel "
            "only you can see.\n**/poker leave** stands you up with your chips; "
            "**/balance**, **/daily**, **/leaderboard** and **/stats** track your bankroll."
        )
        embed.add_field(
            name="Fair deals",
            value="Every hand shows a commitment to its shuffled deck before the first action; "
            "**/poker verify** checks it once the hand is over.",
            inline=False,
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @poker.command(name="history", description="The last hands played at this channel's table.")
    @app_commands.describe(table="A table id (default: this channel's table)")
    async def history(
        self, interaction: discord.Interaction[Any], table: int | None = None
    ) -> None:
        from cogs import history

        if table is None:
            live = self.service.in_channel(interaction.channel_id or 0)
            if live is None:
                raise TableProblem("There is no table in this channel; give a table id.")
            table = live.id
        await history.send_history(interaction, table)

    @poker.command(name="hand", description="Replay a hand from the history.")
    @app_commands.describe(hand="The hand id (from /poker history)", phh="Attach a .phh file")
    async def hand(
        self, interaction: discord.Interaction[Any], hand: int, phh: bool = False
    ) -> None:
        from cogs import history

        await history.send_hand(interaction, hand, with_phh=phh)

    @poker.command(name="verify", description="Check a finished hand's deck commitment.")
    @app_commands.describe(hand="The hand id (from /poker history)")
    async def verify(self, interaction: discord.Interaction[Any], hand: int) -> None:
        try:
            record = await self.bot.db.get_hand(hand)  # type: ignore[attr-defined]
            secrets_ = await self.bot.db.hand_secrets(hand)  # type: ignore[attr-defined]
        except HandInProgress as exc:
            raise TableProblem(
                "That hand is still being played: verify it when it's over."
            ) from exc
        except NotFound as exc:
            raise TableProblem(f"There is no hand #{hand}.") from exc
        if record.guild_id != interaction.guild_id:
            raise TableProblem(f"There is no hand #{hand} in this server.")
        ok = verify_hand(secrets_.commitment, secrets_.deck, secrets_.salt)
        deck_text = secrets_.deck.rpartition("|")[0]
        embed = discord.Embed(
            title=f"Hand {hand}: {'✅ verified' if ok else '❌ does not match'}",
            colour=render.GREEN if ok else discord.Colour.red(),
            description=(
                f"Commitment: `{secrets_.commitment}`\nSalt: `{secrets_.salt}`\n"
                f"Deck (top first): {deck_text}"
            )[:4000],
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)


WILD_PREFIXES = ("wild:", "one-eyed", "joker-wild", "bug", "no-joker")


def _safe(modifier: str) -> str:
    """Modifier keys contain ':', the custom-id separator."""
    return modifier.replace(":", "=")


def _unsafe(value: str) -> str:
    return value.replace("=", ":")


def _encode_choice(slug: str, mods: tuple[str, ...]) -> str:
    return f"{slug}~{','.join(_safe(m) for m in mods)}"


def _decode_choice(state: str, default: str) -> tuple[str, tuple[str, ...]]:
    if not state:
        return default, ()
    slug, _, rest = state.partition("~")
    return slug or default, tuple(_unsafe(m) for m in rest.split(",") if m)


def _modal_value(data: Any, custom_id: str) -> str:
    for row in (data or {}).get("components", []):
        children = row.get("components") or ([row["component"]] if "component" in row else [])
        for child in children:
            if child.get("custom_id") == custom_id:
                return str(child.get("value", ""))
    return ""


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Poker(bot))


__all__ = ["Poker", "build_stakes"]
