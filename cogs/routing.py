"""Presses on a table's components, routed by custom id.

Every component and modal whose custom id has a poker prefix arrives in
:meth:`TableControls.on_interaction`; its codec (:mod:`cogs.ui.custom_ids`) parses the id and
one handler per kind answers it. Routing by custom id, rather than views kept in memory or
``DynamicItem`` s, keeps buttons of messages posted before a restart working and costs one
dictionary look-up (discord.py rebuilt the whole pressed view for each ``DynamicItem``).

Each handler turns the press into one table-service call and shows the result through the
presenter. It never judges a poker action itself: the engine does, and its refusal comes back
as a :class:`~tables.errors.TableProblem` that is told to the player. A malformed id is refused
by its codec; anything else that goes wrong is a bug, logged as one.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

import engine
from cogs import kit, validation
from cogs.coach import coach_text
from cogs.metrics import Metrics
from cogs.ui import house_rules, panels, render
from cogs.ui.components import MessageEditor
from cogs.ui.custom_ids import (
    PREFIXES,
    AmountModalId,
    CustomIdError,
    GameChoice,
    LobbyButton,
    PanelButton,
    PanelSelect,
    PokerId,
    RulesSelect,
    SitModalId,
    TableButton,
    parse_custom_id,
)
from engine.modifiers import game_name
from tables.errors import Refusal, TableProblem
from tables.live import LiveTable
from tables.service import StalePress

if TYPE_CHECKING:
    from cogs.app import PokerBot

log = logging.getLogger("poker.routing")

Interaction = discord.Interaction["PokerBot"]

NO_LONGER_VALID = "That button is no longer valid."


class TableControls(commands.Cog):
    """Table buttons, private panels and the bet-amount modal."""

    def __init__(self, bot: PokerBot) -> None:
        self.bot = bot
        self.tables = bot.tables
        self.presenter = bot.presenter
        self._handlers: dict[type[PokerId], Callable[[Interaction, Any], Awaitable[None]]] = {
            LobbyButton: self.lobby,
            TableButton: self.table_button,
            PanelButton: self.panel_button,
            PanelSelect: self.panel_select,
            RulesSelect: self.rules_select,
            AmountModalId: self.amount,
            SitModalId: self.sit,
        }

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        kind = interaction.type
        if kind not in (discord.InteractionType.component, discord.InteractionType.modal_submit):
            return
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        if not custom_id.startswith(PREFIXES):
            # Whatever nobody else answers (an id of no known shape, a view long gone) still
            # gets an answer: silence reads as "This interaction failed" to the user.
            if not _claimed_elsewhere(self.bot, interaction, custom_id):
                log.info("refused unknown custom id %r", custom_id[:100])
                await kit.reply(interaction, NO_LONGER_VALID)
            return
        if not self.bot.owns(interaction.guild_id):
            from cogs.app import NOT_OURS  # here: cogs.app is the module that loads this one

            log.info("refused %r: server %s is another process's", custom_id, interaction.guild_id)
            await kit.reply(interaction, NOT_OURS)
            return
        try:
            parsed = parse_custom_id(custom_id)
        except CustomIdError as exc:
            log.info("refused a malformed custom id: %s", exc)
            await kit.reply(interaction, NO_LONGER_VALID)
            return
        is_modal = kind is discord.InteractionType.modal_submit
        if parsed is None or isinstance(parsed, AmountModalId | SitModalId) != is_modal:
            log.info("refused custom id %r on a %s", custom_id, kind.name)
            await kit.reply(interaction, NO_LONGER_VALID)
            return
        private = PanelButton | PanelSelect | RulesSelect
        if isinstance(parsed, private) and _on_public_message(interaction):
            # A private panel's component forged onto a public message: answering it with
            # edit_message would replace that message (the table) with a private panel.
            log.info("refused private component %r on a public message", custom_id)
            await kit.reply(interaction, f"{NO_LONGER_VALID[:-1]}: it belongs to a private panel.")
            return
        try:
            await self._handlers[type(parsed)](interaction, parsed)
        except StalePress as exc:
            Metrics.refused(interaction)
            live = self.tables.get(parsed.table)
            if live is not None:
                self.presenter.spawn(self.presenter.refresh(live))
            await kit.reply(interaction, str(exc))
        except Refusal as exc:
            Metrics.refused(interaction)
            await kit.reply(interaction, str(exc))
        except Exception:
            log.exception("handling %r failed", custom_id)
            await kit.reply(interaction, "Something went wrong; nothing was changed.")

    # -- helpers ------------------------------------------------------------------------------

    def _live(self, table_id: int) -> LiveTable:
        live = self.tables.get(table_id)
        if live is None:
            self.tables.check_not_elsewhere(table_id=table_id)
            raise TableProblem("This table has been closed.")
        return live

    @staticmethod
    def _decision(live: LiveTable, user_id: int) -> engine.Decision | None:
        return next((d for d in live.engine.pending if d.player_id == str(user_id)), None)

    def _panel_decision(self, live: LiveTable, user_id: int, hand: int) -> engine.Decision:
        """The choice a private panel of hand ``hand`` was opened for, if it still waits."""
        if live.engine.hand_number != hand or not live.engine.in_hand:
            raise TableProblem("That choice is no longer valid: the hand is over.")
        decision = self._decision(live, user_id)
        if decision is None:
            raise TableProblem("That choice is no longer valid: nothing is waiting for you.")
        return decision

    # -- lobby --------------------------------------------------------------------------------

    async def lobby(self, interaction: Interaction, button: LobbyButton) -> None:
        live = self._live(button.table)
        user = interaction.user
        verb = button.verb
        if verb == "sit":
            if live.seated(user.id):
                raise TableProblem("You are already seated at this table.")
            free = [i for i, seat in enumerate(live.engine.seats) if seat is None]
            if not free:
                raise TableProblem("Every seat is taken.")
            settings = live.settings
            modal = panels.sit_modal(live.id, settings.min_buy_in, settings.max_buy_in, free)
            await interaction.response.send_modal(modal)
        elif verb == "stand":
            paid = await self.tables.leave(live, user.id)
            if paid is not None:
                await self._refresh_lobby(live, interaction)
            else:
                await kit.reply(interaction, "You'll stand up when this hand ends.")
        elif verb == "deal":
            if not live.seated(user.id):
                raise TableProblem("Only seated players can deal.")
            outcome = await self.tables.start_hand(live)
            game = live.engine.public_view().game
            embed, view = panels.dealt_notice(game, live.engine.hand_number)
            # Answered too late (a busy bot): the hand is dealt; present() posts it anyway.
            with contextlib.suppress(discord.NotFound):
                await interaction.response.edit_message(embed=embed, view=view)
            await self.presenter.present(live, outcome, interaction)
        elif verb == "rebuy":
            await self.tables.rebuy(live, user.id, None)
            await self._refresh_lobby(live, interaction)
        elif verb == "hand":
            await self.show_hand(interaction, live)
        elif verb == "settings":
            await self.presenter.show_settings(interaction, live)
        else:
            await interaction.response.send_message(
                embed=self.presenter.rules_embed(live), ephemeral=True
            )

    async def _refresh_lobby(self, live: LiveTable, interaction: Interaction) -> None:
        embed, view = self.presenter.lobby_message(live)
        on_table = (
            interaction.message is not None and interaction.message.id == live.meta.message_id
        )
        if on_table and not live.engine.in_hand:
            await interaction.response.edit_message(embed=embed, view=view)
            live.editor = MessageEditor.of(interaction)
        else:
            await interaction.response.send_message("Done.", ephemeral=True)
            await self.presenter.edit_table_message(live, embed, view, None)

    async def show_hand(self, interaction: Interaction, live: LiveTable) -> None:
        if not live.seated(interaction.user.id):
            raise TableProblem("You are not seated at this table.")
        if live.engine.hand is None:
            raise TableProblem("No cards yet: wait for the deal.")
        await self.presenter.preferences_of([interaction.user.id])  # the deck's colours
        embed, file = self.presenter.private_message(live, interaction.user.id)
        if file is not None:
            await interaction.response.send_message(embed=embed, file=file, ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, ephemeral=True)

    # -- the table's buttons during a hand -----------------------------------------------------

    async def table_button(self, interaction: Interaction, button: TableButton) -> None:
        live = self._live(button.table)
        user_id = interaction.user.id
        version = str(button.version)
        if button.verb in ("private", "amount"):
            # These open a panel or a modal for the choice waiting: nothing is played yet.
            self.tables.check_fresh(live, version)
            decision = self._decision(live, user_id)
            if decision is None:
                raise TableProblem("It's not your turn.")
            if button.verb == "private":
                await self._open_panel(interaction, live, decision)
            elif isinstance(decision.legal, engine.BetOptions):
                modal = panels.amount_modal(live.id, button.version, decision.legal)
                await interaction.response.send_modal(modal)
            else:
                raise TableProblem(NO_LONGER_VALID)
            return
        action: engine.Action
        if button.verb == "fold":
            action = engine.Fold()
        elif button.verb == "check":
            action = engine.Check()
        elif button.verb == "call":
            action = engine.Call()
        elif button.verb == "allin":
            action = engine.AllIn()
        elif button.verb == "pat":
            action = engine.Discard(())  # the engine refuses it unless a draw is waiting
        else:
            assert button.amount is not None  # the codec pairs "to" with an amount
            action = self._bet(live, user_id, button.amount)
        outcome = await self.tables.act(live, user_id, action, version=version)
        await self.presenter.present(live, outcome, interaction)

    def _bet(self, live: LiveTable, user_id: int, to: int) -> engine.Action:
        """A bet or a raise to ``to`` (the engine judges the amount; the word is for the
        history)."""
        decision = self._decision(live, user_id)
        legal = decision.legal if decision is not None else None
        if isinstance(legal, engine.BetOptions) and not legal.is_bet:
            return engine.Raise(to)
        return engine.Bet(to)

    async def sit(self, interaction: Interaction, modal: SitModalId) -> None:
        live = self._live(modal.table)
        user = interaction.user
        buy_in = validation.parse_amount(
            _modal_value(interaction.data, "buy_in"), what="The buy-in"
        )
        seat_text = _modal_value(interaction.data, "seat").strip()
        seat = None
        if seat_text:
            seats = len(live.engine.seats)
            if not (seat_text.isascii() and seat_text.isdigit() and 1 <= int(seat_text) <= seats):
                raise TableProblem(f"The seat is a number from 1 to {seats}.")
            seat = int(seat_text) - 1
        await self.tables.join(live, user.id, user.display_name, buy_in, seat)
        await self._refresh_lobby(live, interaction)

    async def amount(self, interaction: Interaction, modal: AmountModalId) -> None:
        live = self._live(modal.table)
        amount = validation.parse_amount(_modal_value(interaction.data, "amount"))
        action = self._bet(live, interaction.user.id, amount)
        outcome = await self.tables.act(
            live, interaction.user.id, action, version=str(modal.version)
        )
        await self.presenter.present(live, outcome, interaction)

    # -- private panels (ephemeral) ------------------------------------------------------------

    async def _open_panel(
        self, interaction: Interaction, live: LiveTable, decision: engine.Decision
    ) -> None:
        # Deferring as an update keeps this interaction's original message = the table
        # message, so the table can be refreshed through its webhook when the choice is made.
        await interaction.response.defer()
        live.editor = MessageEditor.of(interaction)
        embed, view = self._panel(live, decision, coach=await coach_text(live, decision))
        await interaction.followup.send(embed=embed, view=view, ephemeral=True)

    def _panel(
        self,
        live: LiveTable,
        decision: engine.Decision,
        chosen: tuple[int, ...] = (),
        choice: GameChoice | None = None,
        coach: str | None = None,
    ) -> tuple[discord.Embed, discord.ui.View]:
        cards: tuple[engine.Card, ...] = ()
        if not isinstance(decision.legal, engine.ChooseOptions):
            cards = live.engine.private_view(decision.player_id).cards
        return panels.private_panel(
            live.id, live.engine.hand_number, decision, cards, chosen, choice, coach
        )

    async def rules_select(self, interaction: Interaction, select: RulesSelect) -> None:
        """A house rules menu of the Settings panel: the rules change (the engine says
        when), the panel shows them, and the channel is told what changed."""
        live = self._live(select.table)
        if not kit.runs_table(interaction, live.creator_id):
            raise TableProblem(
                "Only the table's creator or a server manager can change the house rules."
            )
        data: Any = interaction.data or {}
        values = data.get("values")
        before = live.engine.next_options
        if select.field == "flags":
            offered = house_rules.flags_offered(live.engine)
            on = validation.parse_select_values(values, offered)
            rules = house_rules.requested(before, **{name: name in on for name in offered})
        elif select.field == "newcomers":
            (rule,) = validation.parse_select_values(
                values, tuple(house_rules.NEWCOMERS), exactly=1
            )
            rules = house_rules.requested(before, newcomers=rule)
        else:
            (limit,) = validation.parse_select_values(
                values, tuple(house_rules.DRAW_LIMITS), exactly=1
            )
            rules = house_rules.requested(before, draw_limit=limit)
        await self.tables.update_settings(live, options=rules)
        embed, view = self.presenter.settings_message(live, True)
        await interaction.response.edit_message(embed=embed, view=view)
        said = house_rules.announce(live.engine, before)
        if said:
            await interaction.followup.send(
                f"{interaction.user.mention} changed the house rules. {said}"[:2000],
                allowed_mentions=kit.NO_PINGS,
            )
        if not live.engine.in_hand:
            self.presenter.spawn(self.presenter.refresh(live))

    async def panel_select(self, interaction: Interaction, select: PanelSelect) -> None:
        live = self._live(select.table)
        decision = self._panel_decision(live, interaction.user.id, select.hand)
        data: Any = interaction.data or {}
        values = [str(v) for v in data.get("values", ())]
        if select.choice is not None:
            slug, mods = select.choice.slug, select.choice.mods
            if select.kind == "cg":
                slug = values[0] if values else slug
            else:
                # The options' values write a modifier's ':' as '=' (see panels).
                picked = [v.replace("=", ":") for v in values]
                wild = select.kind == "cw"
                mods = tuple(
                    [m for m in mods if m.startswith(panels.WILD_PREFIXES) != wild] + picked
                )
            legal = decision.legal
            if not isinstance(legal, engine.ChooseOptions) or slug not in legal.slugs:
                raise TableProblem("That choice is no longer valid.")
            if any(m not in legal.modifiers for m in mods):
                raise TableProblem("That choice is no longer valid.")
            embed, view = self._panel(live, decision, choice=GameChoice(slug, mods))
        else:
            cards = live.engine.private_view(decision.player_id).cards
            picks = _positions(values, len(cards))
            chosen = select.picks + picks if select.kind == "arrange" else tuple(sorted(picks))
            if len(set(chosen)) != len(chosen) or any(i >= len(cards) for i in chosen):
                raise TableProblem("That choice is no longer valid.")
            coach = await coach_text(live, decision)
            embed, view = self._panel(live, decision, chosen, coach=coach)
        await interaction.response.edit_message(embed=embed, view=view)

    async def panel_button(self, interaction: Interaction, button: PanelButton) -> None:
        live = self._live(button.table)
        user_id = interaction.user.id
        decision = self._panel_decision(live, user_id, button.hand)
        if button.kind == "choose":
            assert button.choice is not None  # the codec gives "choose" its choice
            slug, mods = button.choice.slug, button.choice.mods
            outcome = await self.tables.act(live, user_id, engine.ChooseGame(slug, mods))
            chose = f"You chose {game_name(engine.get_variant(slug).name, mods)}."
            await interaction.response.edit_message(embed=panels.choice_made(chose), view=None)
            await self.presenter.present(live, outcome, interaction)
            return
        action, done = self._panel_action(live, decision, button)
        outcome = await self.tables.act(live, user_id, action)
        if isinstance(action, engine.Discard) and live.seated(user_id) and live.engine.in_hand:
            # The new cards at once, in the answer to the draw (the DM follows).
            cards = live.engine.private_view(str(user_id)).cards
            done += f" Your cards: **{render.cards_text(cards)}**"
        # Answered too late (a busy bot): the choice is made all the same; show the table.
        with contextlib.suppress(discord.NotFound):
            await interaction.response.edit_message(embed=panels.choice_made(done), view=None)
        # The interaction's followups carry the next player's ping and any showdown.
        await self.presenter.present(live, outcome, interaction)

    @staticmethod
    def _panel_action(
        live: LiveTable, decision: engine.Decision, button: PanelButton
    ) -> tuple[engine.Action, str]:
        """The engine action a panel's button stands for, and how to confirm it."""
        if button.kind in ("draw", "pass", "arrange"):
            cards = live.engine.private_view(decision.player_id).cards
            if any(i >= len(cards) for i in button.picks):
                raise TableProblem("That choice is no longer valid.")
            picked = tuple(cards[i] for i in button.picks)
            if button.kind == "draw":
                done = f"You discarded {len(picked)}." if picked else "You stand pat."
                return engine.Discard(picked), done
            if button.kind == "pass":
                return engine.PassCards(picked), f"You passed {render.cards_text(picked)}."
            return engine.Arrange(picked), f"Your order: {render.cards_text(picked)}."
        if button.kind == "declare":
            return engine.Declare(engine.Direction(button.word)), f"You declared {button.word}."
        if button.kind == "show":
            if not isinstance(decision.legal, engine.ShowOptions):
                raise TableProblem("That choice is no longer valid.")
            if button.word == "show":
                return engine.Show(), "You showed your hand."
            if button.word == "muck":
                return engine.Muck(), "You mucked your hand."
            raise TableProblem("That choice is no longer valid.")
        legal = decision.legal
        if not isinstance(legal, engine.KeepOptions):
            raise TableProblem("That choice is no longer valid.")
        return engine.Keep(legal.face_up if button.word == "up" else None), "Card chosen."


def _positions(values: list[str], size: int) -> tuple[int, ...]:
    """A select's values: card positions as Discord sends them back (refused if forged)."""
    return validation.parse_select_positions(values, size)


def _on_public_message(interaction: Interaction) -> bool:
    """Whether the pressed component sits on a message everyone in a server channel sees."""
    message = interaction.message
    if message is None or interaction.guild_id is None:
        return False
    return not message.flags.ephemeral


def _on_message(interaction: Interaction, custom_id: str, component_type: object) -> bool:
    message = interaction.message
    if message is None:
        return False
    kind = discord.ui.LayoutView if message.flags.components_v2 else discord.ui.View
    view = kind.from_message(message, timeout=None)
    return any(
        item.type.value == component_type and getattr(item, "custom_id", None) == custom_id
        for item in view.walk_children()
    )


def _claimed_elsewhere(bot: PokerBot, interaction: Interaction, custom_id: str) -> bool:
    """Whether discord.py will hand this press to someone else: a dynamic item whose template
    matches (the paginator's buttons), a view stored for the message, or an open modal."""
    store: Any = getattr(getattr(bot, "_connection", None), "_view_store", None)
    if store is None:
        return True  # cannot tell: better no second answer than a clash
    if interaction.type is discord.InteractionType.modal_submit:
        return custom_id in getattr(store, "_modals", {})
    data: Any = interaction.data or {}
    component_type = data.get("component_type")
    if any(p.fullmatch(custom_id) for p in getattr(store, "_dynamic_items", {})):
        # discord.py runs a dynamic item only if the pressed message really has a component
        # of that id and type (a forged press may name any): check the same.
        return _on_message(interaction, custom_id, component_type)
    key = (component_type, custom_id)
    views: Any = getattr(store, "_views", {})
    message_id = interaction.message.id if interaction.message is not None else None
    return key in views.get(message_id, {}) or key in views.get(None, {})


def _modal_value(data: Any, custom_id: str) -> str:
    for row in (data or {}).get("components", []):
        children = row.get("components") or ([row["component"]] if "component" in row else [])
        for child in children:
            if child.get("custom_id") == custom_id:
                return str(child.get("value", ""))
    return ""


async def setup(bot: PokerBot) -> None:
    await bot.add_cog(TableControls(bot))
