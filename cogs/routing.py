"""The one way in: every component press and modal submission, routed by custom id.

Every interaction on a component or a modal arrives in :meth:`TableControls.on_interaction`;
the codecs of :mod:`cogs.ui.custom_ids` parse its custom id and one handler per kind answers it:
the table's buttons, panels, menus and modals here, a list's Previous/Next in
:func:`cogs.ui.paginator.turn_page`, a tournament lobby's buttons in the tournament cog (which
adds its route when it loads, :meth:`TableControls.add_route`). Routing by custom id, rather
than views kept in memory or ``DynamicItem`` s, keeps buttons of messages posted before a
restart working, costs one dictionary look-up (discord.py rebuilt the whole pressed view for
each ``DynamicItem``), and needs nothing of discord.py's internals: no view is ever stored, so
nobody else answers a press.

Each table handler turns the press into one table-service call and shows the result through
the presenter. It never judges a poker action itself: the engine does, and its refusal comes
back as a :class:`~tables.errors.TableProblem`. A malformed id is refused by its codec; every
other failure (a refusal, or a bug) goes to :func:`cogs.kit.answer_failure`, the answer slash
commands get too.

A member pressing faster than anyone plays (more than :data:`PRESSES` presses in
:data:`PRESS_SECONDS` seconds on one table) is told once to slow down, and the extra presses
change nothing (:class:`PressLimiter`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Final, Literal, cast

import discord
from discord.ext import commands

import engine
import i18n
from cogs import kit, validation
from cogs.coach import coach_text
from cogs.history import send_hand
from cogs.languages import channel_language
from cogs.metrics import Metrics
from cogs.translator import _
from cogs.ui import house_rules, paginator, panels, render
from cogs.ui.components import Components
from cogs.ui.custom_ids import (
    MAX_LENGTH,
    MODAL_KINDS,
    PREFIXES,
    TABLE_KINDS,
    AmountModalId,
    CustomIdError,
    GameChoice,
    LobbyButton,
    PageId,
    PanelButton,
    PanelSelect,
    PokerId,
    ReplayButton,
    RulesSelect,
    SeatPanelButton,
    SitModalId,
    TableButton,
    parse_custom_id,
)
from engine.modifiers import game_name
from engine.timebank import PreAction
from i18n.poker_words import direction_word
from tables.errors import TableProblem
from tables.live import LiveTable
from tables.service import StalePress

if TYPE_CHECKING:
    from cogs.app import PokerBot

log = logging.getLogger("poker.routing")

Interaction = discord.Interaction["PokerBot"]
Handler = Callable[[Interaction, Any], Awaitable[None]]
"""``async def handler(interaction, parsed_id)``: raises a refusal to say no."""

NO_LONGER_VALID = _.lazy("That button is no longer valid.")

PRESSES: Final = 8
PRESS_SECONDS: Final = 2.0
"""More than ``PRESSES`` presses by one member on one table within ``PRESS_SECONDS`` seconds
is faster than a person plays (a script, or a stuck key): the extra presses are turned away."""

SLOW_DOWN: Final = _.lazy(
    "Slow down: you press faster than anyone plays. Those presses did nothing."
)


class PressLimiter:
    """Counts each member's presses on each table over a sliding window.

    :meth:`check` says ``"ok"`` for a press to carry out, ``"warn"`` for the first press turned
    away in a burst (the member is told once) and ``"quiet"`` for the others (acknowledged
    without a word). A press turned away is not counted: a member who pauses for the window
    plays again at once. ``presses`` 0 counts nothing (no limit).

    >>> now = [0.0]
    >>> limiter = PressLimiter(presses=2, seconds=1.0, clock=lambda: now[0])
    >>> [limiter.check(7, 1) for _ in range(4)], limiter.check(8, 1)
    (['ok', 'ok', 'warn', 'quiet'], 'ok')
    >>> now[0] = 1.5
    >>> limiter.check(7, 1)
    'ok'
    """

    def __init__(
        self,
        presses: int = PRESSES,
        seconds: float = PRESS_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.presses = presses
        self.seconds = seconds
        self.clock = clock
        # A short list per member and table, oldest first (a deque costs 600 bytes even empty:
        # at hundreds of tables, one for every seated player).
        self._times: dict[tuple[int, int], list[float]] = {}
        self._told: dict[tuple[int, int], float] = {}
        self._sweep_at = 1024

    def check(self, user_id: int, table_id: int) -> Literal["ok", "warn", "quiet"]:
        if not self.presses:
            return "ok"
        now = self.clock()
        key = (user_id, table_id)
        times = self._times.get(key)
        if times is None:
            times = self._times[key] = []
            if len(self._times) >= self._sweep_at:
                self._sweep(now)
        since = now - self.seconds
        if times and times[0] <= since:
            times[:] = [at for at in times if at > since]
        if len(times) < self.presses:
            times.append(now)
            return "ok"
        told = self._told.get(key)
        if told is not None and told > now - self.seconds:
            return "quiet"
        self._told[key] = now
        return "warn"

    def sweep(self) -> None:
        """Forget the members idle for a whole window now (the bot's memory chores run it
        every few seconds: between the doublings, members gone quiet would otherwise stay).

        >>> now = [0.0]
        >>> limiter = PressLimiter(presses=2, seconds=1.0, clock=lambda: now[0])
        >>> limiter.check(7, 1), limiter.check(8, 1)
        ('ok', 'ok')
        >>> now[0] = 0.5
        >>> limiter.check(8, 1)
        'ok'
        >>> now[0] = 1.2
        >>> limiter.sweep()
        >>> sorted(limiter._times)
        [(8, 1)]
        """
        self._sweep(self.clock())

    def _sweep(self, now: float) -> None:
        """Forget the members idle for a whole window: in amortised constant time, a scan
        only each time the counted members have doubled since the last one."""
        since = now - self.seconds
        self._times = {k: t for k, t in self._times.items() if t and t[-1] > since}
        self._told = {k: at for k, at in self._told.items() if at > since}
        self._sweep_at = max(1024, 2 * len(self._times))


class TableControls(commands.Cog):
    """The router: every press and modal submission, by custom id."""

    def __init__(self, bot: PokerBot) -> None:
        self.bot = bot
        self.tables = bot.tables
        self.presenter = bot.presenter
        self.presses = PressLimiter(presses=bot.settings.press_limit)
        self._handlers: dict[type[PokerId], Handler] = {
            LobbyButton: self.lobby,
            TableButton: self.table_button,
            PanelButton: self.panel_button,
            SeatPanelButton: self.seat_button,
            PanelSelect: self.panel_select,
            RulesSelect: self.rules_select,
            AmountModalId: self.amount,
            SitModalId: self.sit,
            PageId: paginator.turn_page,
            ReplayButton: self.replay,
        }

    async def cog_load(self) -> None:
        self.bot.trimmer.chores.append(self.presses.sweep)

    async def cog_unload(self) -> None:
        with contextlib.suppress(ValueError):
            self.bot.trimmer.chores.remove(self.presses.sweep)

    def add_route(self, kind: type[PokerId], handler: Handler) -> None:
        """Answer presses of ``kind`` with ``handler`` (a cog that owns the component)."""
        self._handlers[kind] = handler

    def remove_route(self, kind: type[PokerId]) -> None:
        self._handlers.pop(kind, None)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        kind = interaction.type
        if kind not in (discord.InteractionType.component, discord.InteractionType.modal_submit):
            return
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        if not custom_id.startswith(PREFIXES):
            # No component of this bot has such an id (forged, or from another bot's era):
            # it still gets an answer, since silence reads as "This interaction failed".
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
        handler = self._handlers.get(type(parsed)) if parsed is not None else None
        if handler is None or isinstance(parsed, MODAL_KINDS) != is_modal:
            # (No handler: the cog owning the component is not loaded.)
            log.info("refused custom id %r on a %s", custom_id, kind.name)
            await kit.reply(interaction, NO_LONGER_VALID)
            return
        private = PanelButton | PanelSelect | RulesSelect | SeatPanelButton
        if isinstance(parsed, private) and _on_public_message(interaction):
            # A private panel's component forged onto a public message: answering it with
            # edit_message would replace that message (the table) with a private panel.
            log.info("refused private component %r on a public message", custom_id)
            await kit.reply(
                interaction, _("That button is no longer valid: it belongs to a private panel.")
            )
            return
        if isinstance(parsed, TABLE_KINDS) and not self._in_its_channel(interaction, parsed):
            # A table's component or form from a DM, another server or another channel
            # (forged: the bot puts them only in the table's channel) would seat, or act for,
            # a member at a table they may not even be able to see.
            log.info("refused %r from outside its table's channel", custom_id)
            await kit.reply(interaction, NO_LONGER_VALID)
            return
        if isinstance(parsed, TABLE_KINDS) and not await self._at_human_pace(interaction, parsed):
            return
        try:
            await handler(interaction, parsed)
        except StalePress as exc:
            assert isinstance(parsed, TABLE_KINDS)  # only the table service says stale
            live = self.tables.get(parsed.table)
            if live is not None:
                self.presenter.spawn(self.presenter.refresh(live))
            await kit.answer_failure(interaction, exc, what=f"press {custom_id!r}")
        except Exception as exc:
            await kit.answer_failure(interaction, exc, what=f"press {custom_id!r}")

    async def _at_human_pace(self, interaction: Interaction, pressed: Any) -> bool:
        """Whether to carry the press out; a press turned away is answered here (once in
        words, then silently: the member has been told, and every press needs an answer)."""
        verdict = self.presses.check(interaction.user.id, pressed.table)
        if verdict == "ok":
            return True
        Metrics.refused(interaction)
        if verdict == "warn":
            log.info("member %s presses too fast on table %s", interaction.user.id, pressed.table)
            await kit.reply(interaction, SLOW_DOWN)
        else:
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.defer()
        return False

    # -- helpers ------------------------------------------------------------------------------

    def _in_its_channel(self, interaction: Interaction, pressed: Any) -> bool:
        """Whether the press comes from the channel (and server) of the table it names (a
        table closed or unknown here is the handler's to refuse)."""
        live = self.tables.get(pressed.table)
        return live is None or (
            live.guild_id == interaction.guild_id and live.channel_id == interaction.channel_id
        )

    def _live(self, table_id: int) -> LiveTable:
        live = self.tables.get(table_id)
        if live is None:
            self.tables.check_not_elsewhere(table_id=table_id)
            raise TableProblem(_("This table has been closed."))
        return live

    @staticmethod
    def _decision(live: LiveTable, user_id: int) -> engine.Decision | None:
        return next((d for d in live.engine.pending if d.player_id == str(user_id)), None)

    async def _coach(self, live: LiveTable, user_id: int, decision: engine.Decision) -> str | None:
        """The coach's lines for a panel of ``decision`` whose press was just answered (an
        await, as is the count): refused if the decision went away meanwhile."""
        self._still_waiting(live, user_id, decision)
        coach = await coach_text(live, decision)
        self._still_waiting(live, user_id, decision)
        return coach

    def _still_waiting(self, live: LiveTable, user_id: int, decision: engine.Decision) -> None:
        """Refuse a panel whose ``decision`` went away during an await (the player stood up,
        the hand ended, a timeout acted)."""
        waiting = self._decision(live, user_id)
        if waiting != decision:
            raise StalePress(
                NO_LONGER_VALID.render()
                if waiting is not None
                else _("That choice is no longer valid: nothing is waiting for you.")
            )

    def _panel_decision(
        self, live: LiveTable, user_id: int, pressed: PanelButton | PanelSelect
    ) -> engine.Decision:
        """The choice a private panel was opened for (in its hand and round), if it still
        waits."""
        if live.engine.hand_number != pressed.hand or not live.engine.in_hand:
            raise TableProblem(_("That choice is no longer valid: the hand is over."))
        decision = self._decision(live, user_id)
        if decision is None:
            raise TableProblem(_("That choice is no longer valid: nothing is waiting for you."))
        if isinstance(pressed, PanelButton) and live.street() != pressed.street:
            # A button of an earlier round's panel (left open from the first draw, pressed in
            # the second): its picks name positions of cards the player no longer holds. (A
            # menu only picks: it draws the panel again, for this round.)
            raise TableProblem(_("That choice is no longer valid."))
        return decision

    # -- lobby --------------------------------------------------------------------------------

    async def lobby(self, interaction: Interaction, button: LobbyButton) -> None:
        live = self._live(button.table)
        user = interaction.user
        verb = button.verb
        if verb == "sit":
            if live.seated(user.id):
                raise TableProblem(_("You are already seated at this table."))
            self.tables.check_open_for_seats(live)
            free = [i for i, seat in enumerate(live.engine.seats) if seat is None]
            if not free:
                raise TableProblem(_("Every seat is taken."))
            settings = live.settings
            modal = panels.sit_modal(live.id, settings.min_buy_in, settings.max_buy_in, free)
            await interaction.response.send_modal(modal)
        elif verb == "stand":
            paid, outcome = await self.tables.leave(live, user.id)
            if paid is not None:
                await self._refresh_lobby(live, interaction)
            else:
                await kit.reply(interaction, _("You'll stand up when this hand ends."))
                if outcome is not None:
                    await self.presenter.present(live, outcome)
        elif verb == "deal":
            if not live.seated(user.id):
                raise TableProblem(_("Only seated players can deal."))
            outcome = await self.tables.start_hand(live)
            # The lobby message the Deal was pressed on becomes the hand's table message.
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

    async def replay(self, interaction: Interaction, button: ReplayButton) -> None:
        """The Replay button of a hand's result: the hand's replay, for the presser alone
        (their own cards in it if they played; /poker hand's answer)."""
        await send_hand(interaction, button.hand, with_phh=False)

    async def _refresh_lobby(self, live: LiveTable, interaction: Interaction) -> None:
        embed, view = self.presenter.lobby_message(live)
        if self.presenter.on_table(live, interaction) and not live.engine.in_hand:
            await interaction.response.edit_message(embed=embed, view=view)
            self.presenter.edits_through(live, interaction)
        else:
            await interaction.response.send_message(kit.DONE.render(), ephemeral=True)
            await self.presenter.edit_table_message(live, embed, view, None)

    async def show_hand(self, interaction: Interaction, live: LiveTable) -> None:
        self._has_cards(live, interaction.user.id)
        await self.presenter.preferences_of([interaction.user.id])  # the deck's colours
        self._has_cards(live, interaction.user.id)  # (they may have stood up meanwhile)
        embed, file = self.presenter.private_message(live, interaction.user.id)
        view = self._seat_panel(live, interaction.user.id)
        if file is not None:
            await interaction.response.send_message(
                embed=embed, file=file, view=view, ephemeral=True
            )
        else:
            await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    @staticmethod
    def _has_cards(live: LiveTable, user_id: int) -> None:
        """Refuse My hand to a player not seated here, or before the table's first deal."""
        if not live.seated(user_id):
            raise TableProblem(_("You are not seated at this table."))
        if live.engine.hand is None:
            raise TableProblem(_("No cards yet: wait for the deal."))

    def _seat_panel(self, live: LiveTable, user_id: int) -> Components:
        """The buttons under a player's own cards: pre-actions, sit out / back (only the
        moves the table would take from them now)."""
        pid = str(user_id)
        seat = next(s for s in live.engine.seats if s is not None and s.player_id == pid)
        ticked = live.meta.pre_actions.get(pid)
        return panels.seat_panel(
            live.id,
            live.engine.hand_number,
            ticked=PreAction(ticked) if ticked else None,
            pre_actions=self.tables.pre_action_refusal(live, user_id) is None,
            sitting_out=seat.sitting_out if live.engine.may_sit_out_or_in(pid) else None,
        )

    async def seat_button(self, interaction: Interaction, button: SeatPanelButton) -> None:
        """A button of a player's own panel: a pre-action ticked or cleared, or sitting out
        from the next hand / coming back. The panel is redrawn with what is now in force."""
        live = self._live(button.table)
        user_id = interaction.user.id
        if not live.seated(user_id):
            raise TableProblem(_("You are not seated at this table."))
        texts = panels.SEAT_PANEL_TEXTS
        if button.choice in ("sitout", "back"):
            out = button.choice == "sitout"
            await self.tables.sit_out(live, user_id, out)
            said = texts["sitting-out" if out else "back"].render()
        else:
            if button.hand != live.engine.hand_number or not live.engine.in_hand:
                raise TableProblem(texts["hand-over"].render())
            pre = None if button.choice == "clear" else PreAction(button.choice)
            await self.tables.set_pre_action(live, user_id, pre)
            label = panels.SEAT_PANEL[button.choice]
            said = texts["cleared"].render() if pre is None else texts["ticked"].render(label=label)
        view = self._seat_panel(live, user_id)
        await interaction.response.edit_message(content=said, view=view)

    # -- the table's buttons during a hand -----------------------------------------------------

    async def table_button(self, interaction: Interaction, button: TableButton) -> None:
        live = self._live(button.table)
        user_id = interaction.user.id
        if button.verb in ("private", "amount"):
            # These open a panel or a modal for the choice waiting: nothing is played yet.
            self.tables.check_fresh(live, button.version)
            decision = self._decision(live, user_id)
            if decision is None:
                raise TableProblem(_("It's not your turn."))
            if button.verb == "private":
                await self._open_panel(interaction, live, decision)
            elif isinstance(decision.legal, engine.BetOptions):
                modal = panels.amount_modal(live.id, button.version, decision.legal)
                await interaction.response.send_modal(modal)
            else:
                raise TableProblem(NO_LONGER_VALID.render())
            return
        if button.verb == "fold" and self._checks_for_free(live, user_id):
            self.tables.check_fresh(live, button.version)
            text, prompt = panels.free_check_prompt(live.id, button.version)
            await interaction.response.send_message(text, view=prompt, ephemeral=True)
            return
        action: engine.Action
        if button.verb in ("fold", "foldanyway"):
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
            action = _raise_to(button.amount)
        outcome = await self.tables.act(live, user_id, action, version=button.version)
        pressed = interaction.message
        if pressed is not None and pressed.flags.ephemeral:
            # The free-check prompt: it keeps what was done, without its buttons.
            done = _("You fold.") if isinstance(action, engine.Fold) else _("You check.")
            await self._answer_and_present(live, outcome, interaction, content=done, view=None)
            return
        await self.presenter.present(live, outcome, interaction)

    async def _answer_and_present(
        self, live: LiveTable, outcome: Any, interaction: Interaction, **answer: Any
    ) -> None:
        """Answer a press on an ephemeral message (a private panel, the free-check prompt) by
        editing it, then show the change. The change's followups (the next ping, a new table
        message) go through this press once it is answered; a Discord slow to take the answer
        (a 429) does not hold the table up: the change is then shown as a timeout's is."""
        edit = interaction.response.edit_message(**answer)
        answered, _late = await asyncio.wait({self.presenter.spawn(_quietly(edit))}, timeout=1.0)
        await self.presenter.present(live, outcome, interaction if answered else None)

    def _checks_for_free(self, live: LiveTable, user_id: int) -> bool:
        """Whether the player's bet decision is waiting with nothing to call."""
        decision = self._decision(live, user_id)
        legal = decision.legal if decision is not None else None
        return isinstance(legal, engine.BetOptions) and legal.can_check

    async def sit(self, interaction: Interaction, modal: SitModalId) -> None:
        live = self._live(modal.table)
        user = interaction.user
        buy_in = validation.parse_amount(
            _modal_value(interaction.data, "buy_in"), what=validation.BUY_IN.what
        )
        seat = validation.parse_seat(_modal_value(interaction.data, "seat"), len(live.engine.seats))
        await self.tables.join(live, user.id, user.display_name, buy_in, seat)
        await self._refresh_lobby(live, interaction)

    async def amount(self, interaction: Interaction, modal: AmountModalId) -> None:
        live = self._live(modal.table)
        amount = validation.parse_amount(_modal_value(interaction.data, "amount"))
        action = _raise_to(amount)
        outcome = await self.tables.act(live, interaction.user.id, action, version=modal.version)
        await self.presenter.present(live, outcome, interaction)

    # -- private panels (ephemeral) ------------------------------------------------------------

    async def _open_panel(
        self, interaction: Interaction, live: LiveTable, decision: engine.Decision
    ) -> None:
        # Deferring as an update keeps this interaction's original message = the table
        # message, so the table can be refreshed through its webhook when the choice is made
        # (pressed on another message, an older one, its webhook cannot edit the table's).
        await interaction.response.defer()
        self.presenter.edits_through(live, interaction)
        coach = await self._coach(live, interaction.user.id, decision)
        embed, view = self._panel(live, decision, coach=coach)
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
        order: tuple[int, ...] = ()
        if not isinstance(decision.legal, engine.ChooseOptions):
            private = live.engine.private_view(decision.player_id)
            cards = private.cards
            # The cards in the order the player's DM shows them (picks stay positions).
            arranged = render.private_arrangement(live.engine.hand, private)
            order = render.arranged_positions(cards, arranged)
        return panels.private_panel(
            live.id,
            live.engine.hand_number,
            decision,
            cards,
            chosen,
            choice,
            coach,
            order,
            street=live.street(),
        )

    async def rules_select(self, interaction: Interaction, select: RulesSelect) -> None:
        """A house rules menu of the Settings panel: the rules change (the engine says
        when), the panel shows them, and the channel is told what changed."""
        live = self._live(select.table)
        if not kit.runs_table(interaction, live.creator_id):
            raise TableProblem(
                _("Only the table's creator or a server manager can change the house rules.")
            )
        data: Any = interaction.data or {}
        values = data.get("values")
        change: dict[str, object]
        if select.field == "flags":
            offered = house_rules.flags_offered(live.engine)
            on = validation.parse_select_values(values, offered)
            change = {name: name in on for name in offered}
        elif select.field == "newcomers":
            (rule,) = validation.parse_select_values(
                values, tuple(house_rules.NEWCOMERS), exactly=1
            )
            change = {"newcomers": rule}
        else:
            (limit,) = validation.parse_select_values(
                values, tuple(house_rules.DRAW_LIMITS), exactly=1
            )
            change = {"draw_limit": limit}
        done = await self.tables.update_settings(
            live, rules=lambda base: house_rules.requested(base, **change)
        )
        embed, view = self.presenter.settings_message(live, True)
        await interaction.response.edit_message(embed=embed, view=view)
        # The channel reads the change: in the table's language, not the member's.
        with i18n.speaking(channel_language(live)):
            said = house_rules.announce(live.engine, done.rules_before, done.rules_after)
            told = (
                _(
                    "{member} changed the house rules. {change}",
                    member=interaction.user.mention,
                    change=said,
                )[:2000]
                if said
                else None
            )
        if told:
            try:
                await interaction.followup.send(told, allowed_mentions=kit.NO_PINGS)
            except discord.HTTPException as exc:
                # The rules changed all the same (the panel shows them): only the channel's
                # word of it is lost.
                log.warning("table %s: the house rules change was not told: %s", live.id, exc)
        if not live.engine.in_hand:
            self.presenter.spawn(self.presenter.refresh(live))

    async def panel_select(self, interaction: Interaction, select: PanelSelect) -> None:
        live = self._live(select.table)
        decision = self._panel_decision(live, interaction.user.id, select)
        data: Any = interaction.data or {}
        values = [str(v) for v in data.get("values", ())]
        if select.choice is not None:
            slug, mods = select.choice.slug, select.choice.mods
            if select.kind == "cg":
                slug = values[0] if values else slug
            legal = decision.legal
            if not isinstance(legal, engine.ChooseOptions):
                raise TableProblem(_("That choice is no longer valid."))
            if select.kind != "cg":
                menu = panels.choice_menu(select.kind, legal.modifiers)
                # The options' values write a modifier's ':' as '=' (see panels): each one
                # of this menu's, none twice.
                offered = tuple(m.replace(":", "=") for m in menu)
                picked = [
                    v.replace("=", ":") for v in validation.parse_select_values(values, offered)
                ]
                mods = tuple([m for m in mods if m not in menu] + picked)
            if slug not in legal.slugs or any(m not in legal.modifiers for m in mods):
                raise TableProblem(_("That choice is no longer valid."))
            choice = GameChoice(slug, mods)
            if not _carried(live.id, select.hand, choice, select.street):
                raise TableProblem(
                    _("That is more rules than one game can take: untick some of them.")
                )
            embed, view = self._panel(live, decision, choice=choice)
        else:
            if not isinstance(decision.legal, _PICKED_FROM[select.kind]):
                # A menu of an earlier choice's panel (a pass, where a draw now waits).
                raise TableProblem(_("That choice is no longer valid."))
            cards = _held(live, decision.player_id)
            picks = _positions(values, len(cards))
            chosen = select.picks + picks if select.kind == "arrange" else tuple(sorted(picks))
            if len(set(chosen)) != len(chosen) or any(i >= len(cards) for i in chosen):
                raise TableProblem(_("That choice is no longer valid."))
            if live.settings.coach and isinstance(decision.legal, engine.DrawOptions):
                # The coach counts in the odds thread, which house players share: the pick is
                # answered now, and the panel follows with the odds.
                await interaction.response.defer()
                coach = await self._coach(live, interaction.user.id, decision)
                embed, view = self._panel(live, decision, chosen, coach=coach)
                await interaction.edit_original_response(embed=embed, view=view)
                return
            embed, view = self._panel(live, decision, chosen)
        await interaction.response.edit_message(embed=embed, view=view)

    async def panel_button(self, interaction: Interaction, button: PanelButton) -> None:
        live = self._live(button.table)
        user_id = interaction.user.id
        decision = self._panel_decision(live, user_id, button)
        if button.kind == "choose":
            assert button.choice is not None  # the codec gives "choose" its choice
            slug, mods = button.choice.slug, button.choice.mods
            outcome = await self.tables.act(live, user_id, engine.ChooseGame(slug, mods))
            chose = _("You chose {game}.", game=game_name(engine.get_variant(slug).name, mods))
            embed = panels.choice_made(chose)
            await self._answer_and_present(live, outcome, interaction, embed=embed, view=None)
            return
        action, done = self._panel_action(live, decision, button)
        outcome = await self.tables.act(live, user_id, action)
        if isinstance(action, engine.Discard) and live.seated(user_id) and live.engine.in_hand:
            # The new cards at once, in the answer to the draw (the DM follows).
            cards = _held(live, str(user_id))
            done = _("{done} Your cards: **{cards}**", done=done, cards=render.cards_text(cards))
        # Answered too late (a busy bot): the choice is made all the same; show the table.
        embed = panels.choice_made(done)
        await self._answer_and_present(live, outcome, interaction, embed=embed, view=None)

    @staticmethod
    def _panel_action(
        live: LiveTable, decision: engine.Decision, button: PanelButton
    ) -> tuple[engine.Action, str]:
        """The engine action a panel's button stands for, and how to confirm it."""
        if button.kind in ("draw", "pass", "arrange"):
            cards = _held(live, decision.player_id)
            if any(i >= len(cards) for i in button.picks):
                raise TableProblem(_("That choice is no longer valid."))
            picked = tuple(cards[i] for i in button.picks)
            if button.kind == "draw":
                done = (
                    _("You discarded {count}.", count=len(picked))
                    if picked
                    else _("You stand pat.")
                )
                return engine.Discard(picked), done
            if button.kind == "pass":
                return engine.PassCards(picked), _(
                    "You passed {cards}.", cards=render.cards_text(picked)
                )
            return engine.Arrange(picked), _(
                "Your order: {cards}.", cards=render.cards_text(picked)
            )
        if button.kind == "declare":
            return engine.Declare(engine.Direction(button.word)), _(
                "You declared {direction}.", direction=direction_word(button.word)
            )
        if button.kind == "show":
            if not isinstance(decision.legal, engine.ShowOptions):
                raise TableProblem(_("That choice is no longer valid."))
            if button.word == "show":
                return engine.Show(), _("You showed your hand.")
            if button.word == "muck":
                return engine.Muck(), _("You mucked your hand.")
            raise TableProblem(_("That choice is no longer valid."))
        legal = decision.legal
        if not isinstance(legal, engine.KeepOptions):
            raise TableProblem(_("That choice is no longer valid."))
        return engine.Keep(legal.face_up if button.word == "up" else None), _("Card chosen.")


async def _quietly(answer: Awaitable[Any]) -> None:
    """An answer whose failure changes nothing: the press's change is made and shown."""
    with contextlib.suppress(discord.HTTPException):
        await answer


def _raise_to(to: int) -> engine.Action:
    """The engine action of a "bet or raise to ``to``" press: the engine plays a bet and a
    raise alike (this round's total becomes ``to``) and judges the amount itself, so the
    press needs no look at the legal options first."""
    return engine.Raise(to)


def _carried(table: int, hand: int, choice: GameChoice, street: int) -> bool:
    """Whether the dealer's choice so far fits in the custom ids of its panel (the choice
    travels in them; Discord takes at most 100 characters)."""
    ids = (
        PanelSelect(table, hand, "cw", choice=choice, street=street).encode(),
        PanelButton(table, hand, "choose", choice=choice, street=street).encode(),
    )
    return all(len(custom_id) <= MAX_LENGTH for custom_id in ids)


def router_of(bot: commands.Bot | commands.AutoShardedBot) -> TableControls:
    """The bot's router (loaded as the extension ``cogs.routing``).

    Found by name, not by class: discord.py loads an extension as a fresh module, so a module
    imported earlier may hold another copy of the class.
    """
    router = bot.get_cog("TableControls")
    if router is None or not hasattr(router, "add_route"):
        raise RuntimeError("cogs.routing must be loaded before the cogs that add routes")
    return cast(TableControls, router)


_PICKED_FROM: dict[str, type] = {
    "draw": engine.DrawOptions,
    "pass": engine.PassOptions,
    "arrange": engine.ArrangeOptions,
}
"""The choice each card menu of a private panel picks cards for."""


def _held(live: LiveTable, player_id: str) -> tuple[engine.Card, ...]:
    """A seated player's cards: their private view's, without naming what they make (the
    engine works out the hand's name for a private view, four times the work)."""
    return live.engine.held_cards().get(player_id, ())


def _positions(values: list[str], size: int) -> tuple[int, ...]:
    """A select's values: card positions as Discord sends them back (refused if forged)."""
    return validation.parse_select_positions(values, size)


def _on_public_message(interaction: Interaction) -> bool:
    """Whether the pressed component sits on a message everyone in a server channel sees."""
    message = interaction.message
    if message is None or interaction.guild_id is None:
        return False
    return not message.flags.ephemeral


def _modal_value(data: Any, custom_id: str) -> str:
    for row in (data or {}).get("components", []):
        children = row.get("components") or ([row["component"]] if "component" in row else [])
        for child in children:
            if child.get("custom_id") == custom_id:
                return str(child.get("value", ""))
    return ""


async def setup(bot: PokerBot) -> None:
    await bot.add_cog(TableControls(bot))
