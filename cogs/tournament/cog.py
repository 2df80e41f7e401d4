"""``/poker tournament``: sit-and-go tournaments (``/poker schedule`` is in :mod:`.nights`).

The rules (levels, eliminations, places, payouts) are :mod:`engine.tournament`'s; the chips are
the data layer's (buy-ins into a prize pool through the ledger, tournament chips at tables of
``tables`` marked with the tournament). This cog only carries decisions out: it registers
players from the lobby buttons, opens and seats the table, puts each level on the table
before a deal and takes busted players out after a hand (the table service calls it, as
:class:`~tables.live.TournamentHooks`), pays the places and posts the results.

Crash safety: the tournament's state is saved with each change, its level clock is the moment
it started (saved once), and its table is a table like the others; on start-up every running
tournament is brought back in line with its table (see :meth:`Tournaments.reconcile`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

import engine
from cogs import kit, languages, validation
from cogs.presenter import THREAD_SHUT
from cogs.routing import router_of
from cogs.tournament.entries import TournamentEntries
from cogs.tournament.nights import PokerNights
from cogs.tournament.run import (
    Running,
    TournamentProblem,
    channel_language,
    check_organiser,
    chips,
    engine_refusal,
    level_label,
    lobby_embed,
    open_for_entries,
    ordinal,
    sentence,
    table_size,
)
from cogs.translator import _
from cogs.ui.components import Components, PokerButton
from cogs.ui.custom_ids import TournamentButton
from data import DataError, NotFound
from engine.seating import draw_seats, is_house
from engine.timebank import DEFAULT_TIME_BANK
from engine.tournament import (
    Level,
    Payouts,
    TableSeats,
    Tournament,
    TournamentError,
    TournamentSettings,
    at_level,
    before_moving,
    default_schedule,
    plan_moves,
)
from i18n import Language
from tables.live import LiveTable, TableSettings

if TYPE_CHECKING:
    from cogs.app import PokerBot

log = logging.getLogger("poker.tournament")

Interaction = discord.Interaction["PokerBot"]

REBUY_SECONDS = 60
"""The least time a player left without chips has to decide on a rebuy."""


def lobby_view(language: Language, tournament_id: int) -> discord.ui.View:
    """The lobby buttons of a tournament, labelled in ``language`` (the channel's). Their ids
    name the verb and the tournament (the lobby's own, whichever is open in the channel when
    pressed), and the router brings their presses to :meth:`Tournaments.pressed`, so they
    keep working after a restart."""
    view = Components()
    # Translators: a tournament lobby's button (at most 80 characters).
    register = _("Register", language=language)
    # Translators: a tournament lobby's button (at most 80 characters).
    unregister = _("Unregister", language=language)
    # Translators: a tournament lobby's button: its creator starts it (at most 80 characters).
    start = _("Start", language=language)
    for button, label, style in (
        (TournamentButton("register", tournament_id), register, discord.ButtonStyle.success),
        (TournamentButton("unregister", tournament_id), unregister, discord.ButtonStyle.secondary),
        (TournamentButton("start", tournament_id), start, discord.ButtonStyle.primary),
    ):
        view.add_item(PokerButton(button.encode(), label, style))
    return view


class Tournaments(commands.Cog):
    """The /poker tournament commands, the lobby buttons and the tournament side of its
    tables; its :attr:`entries` take the pay-ins, its :attr:`nights` (a cog of its own, loaded
    with this one) open the scheduled games.

    The commands live under the Poker cog's ``/poker`` group (see :func:`setup`): the group is
    that cog's, the handlers stay here, bound to this cog."""

    tournament = app_commands.Group(
        name="tournament", description="Sit-and-go tournaments in this channel.", guild_only=True
    )

    def __init__(self, bot: PokerBot, clock: Any = time.time) -> None:
        self.bot = bot
        self.clock = clock
        self.running: dict[int, Running] = {}
        self.by_channel: dict[int, int] = {}
        self._views: dict[tuple[int, Language], discord.ui.View] = {}
        self.entries = TournamentEntries(self)
        self.nights = PokerNights(bot, self)
        self._tasks: set[asyncio.Task[None]] = set()
        self._timers: set[asyncio.TimerHandle] = set()
        self.poll_seconds: float = 20.0
        self.poller: asyncio.Future[None] | None = None

    async def cog_load(self) -> None:
        self.poller = asyncio.ensure_future(self._poll())
        router_of(self.bot).add_route(TournamentButton, self.pressed)
        self.bot.tables.hooks = self
        for row in await self.bot.db.open_tournaments():
            if not self.bot.owns(row.guild_id):
                continue
            try:
                run = self._from_row(row)
            except (KeyError, ValueError, TypeError) as exc:
                await self._call_off_unrestorable(row, exc)
                continue
            if row.tournament_id in self.bot.tables.tournaments_unrestored:
                # Its players' chips are on a table that is gone: it cannot go on fairly.
                await self._call_off_unrestorable(row, "one of its tables could not be rebuilt")
                continue
            self._register(run)
            if run.state.status == "running":
                self.spawn(self.reconcile(run))
                for when in run.rebuy_until.values():
                    self._settle_at(run, when)

    async def _call_off_unrestorable(self, row: Any, exc: Exception | str) -> None:
        """A tournament this version cannot rebuild (its game retired, say), or one of whose
        tables it cannot: rather than keep its pool and its tables, call it off as void, every
        chip each player paid in (buy-in, rebuys, add-ons) back to their bankroll and a hand in
        progress void, and say so in its channel. Refused by the database, it is left as it
        was (logged)."""
        log.error("tournament %s could not be restored: %s", row.tournament_id, exc)
        try:
            paid = await self.bot.db.tournament_paid_in(row.tournament_id)
            await self.bot.db.cancel_tournament(
                row.tournament_id, sorted(paid.items()), row.state_json or "{}", void_hands=True
            )
        except DataError as why:
            log.error("tournament %s left as it was: %s", row.tournament_id, why)
            return
        log.warning(
            "tournament %s called off at the restore; paid back %s", row.tournament_id, paid
        )
        for live in list(self.bot.tables.tables.values()):
            if live.meta.tournament == row.tournament_id:  # (its tables could be rebuilt)
                self.bot.tables.forget(live)
                self.spawn(self.bot.presenter.retire_closed(live))
        self.spawn(self._say_called_off_unrestorable(row, paid))

    async def _say_called_off_unrestorable(self, row: Any, paid: dict[int, int]) -> None:
        try:
            names = json.loads(row.state_json or "{}").get("names", {})
        except ValueError:
            names = {}
        language = channel_language(row.guild_id)
        lines = [
            _(
                "{player}: {amount}",
                player=kit.as_typed(str(names.get(str(user), user))),
                amount=chips(amount, language),
                language=language,
            )
            for user, amount in sorted(paid.items(), key=lambda item: -item[1])
        ]
        note = _(
            "⚠ This tournament could not come back after the bot was updated, so it is called "
            "off: everything each player paid in (buy-in, rebuys, add-ons) went back to them.",
            language=language,
        )
        embed = discord.Embed(
            title=_("Tournament called off", language=language),
            description="\n\n".join([note, "\n".join(lines)] if lines else [note]),
            colour=discord.Colour.dark_grey(),
        )
        try:
            await self.bot.get_partial_messageable(row.channel_id).send(
                embed=embed, allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.HTTPException as exc:
            log.warning(
                "tournament %s: could not say it was called off: %s", row.tournament_id, exc
            )

    async def cog_unload(self) -> None:
        if self.poller is not None:
            self.poller.cancel()
        for handle in self._timers:
            handle.cancel()
        self._timers.clear()
        if self.bot.tables.hooks is self:
            self.bot.tables.hooks = None
        if self.bot.get_cog("TableControls") is not None:  # (it may be unloaded first)
            router_of(self.bot).remove_route(TournamentButton)

    # -- bookkeeping ---------------------------------------------------------------------------

    def _from_row(self, row: Any) -> Running:
        config = json.loads(row.config_json)
        state = json.loads(row.state_json)
        return Running(
            row.tournament_id,
            row.guild_id,
            row.channel_id,
            row.creator_id,
            engine.TableConfig.from_dict(config["table"]),
            int(config["action_seconds"]),
            int(config["auto_deal_seconds"]),
            Tournament.from_dict(state["tournament"]),
            dict(state.get("names", {})),
            row.started_at,
            row.message_id,
            {k: (int(v[0]), int(v[1])) for k, v in state.get("moving", {}).items()},
            {k: int(v) for k, v in state.get("pending", {}).items()},
            time_bank=int(config.get("time_bank", DEFAULT_TIME_BANK)),
            told_waiting={str(pid) for pid in state.get("told_waiting", ())},
            rebuy_until={str(k): float(v) for k, v in state.get("rebuy_until", {}).items()},
        )

    def lobby_buttons(self, run: Running, language: Language) -> discord.ui.View:
        """The buttons of ``run``'s lobby in ``language`` (made once per language while the
        tournament is open)."""
        view = self._views.get((run.tournament_id, language))
        if view is None:
            view = self._views[run.tournament_id, language] = lobby_view(
                language, run.tournament_id
            )
        return view

    def _register(self, run: Running) -> None:
        self.running[run.tournament_id] = run
        self.by_channel[run.channel_id] = run.tournament_id

    def holds_channel(self, channel_id: int) -> bool:
        """The table service's hook: a tournament taking entries or running has its lobby in
        the channel (no cash table may open there)."""
        return channel_id in self.by_channel

    def _forget(self, run: Running) -> None:
        self.running.pop(run.tournament_id, None)
        self.by_channel.pop(run.channel_id, None)
        for key in [key for key in self._views if key[0] == run.tournament_id]:
            del self._views[key]

    def here(self, interaction: Interaction) -> Running:
        """The tournament of the channel: its lobby's, or the one whose table plays there (a
        table in a thread of the lobby's channel)."""
        channel_id = interaction.channel_id or 0
        tid = self.by_channel.get(channel_id)
        if tid is None:
            live = self.bot.tables.in_channel(channel_id)
            if live is not None and live.meta.tournament in self.running:
                tid = live.meta.tournament
        if tid is None:
            raise TournamentProblem(
                _(
                    "There is no tournament in this channel. "
                    "Start one with `/poker tournament create`."
                )
            )
        return self.running[tid]

    def spawn(self, coro: Any) -> None:
        task: asyncio.Task[None] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("tournament task failed", exc_info=task.exception())

    def chips_of(self, run: Running, player_id: str) -> int:
        """The player's tournament chips: their stack at its tables, and a rebuy or add-on
        paid for and not dealt yet."""
        return sum(
            seat.stack
            for live in self.tables_of(run)
            for seat in live.engine.seats
            if seat is not None and seat.player_id == player_id
        ) + run.pending.get(player_id, 0)

    def tables_of(self, run: Running) -> list[LiveTable]:
        return [
            live
            for live in self.bot.tables.tables.values()
            if live.meta.tournament == run.tournament_id
        ]

    async def pressed(self, interaction: Interaction, button: TournamentButton) -> None:
        """A lobby button (routed here by :mod:`cogs.routing`, which answers a refusal): it
        acts on its lobby's tournament, whatever tournament the channel has now."""
        run = await self._of_button(interaction, button)
        if button.verb == "register":
            await self.entries.register(interaction, run)
        elif button.verb == "unregister":
            await self.entries.unregister(interaction, run)
        elif button.verb == "rebuy":
            self._check_deciding(run, interaction)
            await self.entries.buy_more(interaction, addon=False, run=run)
        elif button.verb == "decline":
            self._check_deciding(run, interaction)
            await self.decline(interaction, run)
        else:
            await self.start_pressed(interaction, run)

    async def _of_button(self, interaction: Interaction, button: TournamentButton) -> Running:
        """The tournament a lobby button belongs to, if it is still open.

        :raises TournamentProblem: it is over or called off, or is not this channel's.
        """
        if button.tournament is None:
            # A lobby posted before its buttons named their tournament: the message's own.
            message = interaction.message
            run = next(
                (
                    run
                    for run in self.running.values()
                    if message is not None and run.message_id == message.id
                ),
                None,
            )
            if run is None:
                raise TournamentProblem(
                    _("That tournament is over; the buttons of its message no longer work.")
                )
            return run
        run = self.running.get(button.tournament)
        if run is not None and interaction.guild_id == run.guild_id:
            # Its lobby's channel, or one of its tables' (a thread, for a table's Rebuy).
            channels = {run.channel_id, *(live.channel_id for live in self.tables_of(run))}
            if interaction.channel_id in channels:
                return run
        try:
            row = await self.bot.db.get_tournament(button.tournament)
        except NotFound:
            row = None
        # Its lobby is in its channel: a button from anywhere else is forged (it would enter
        # a member in a tournament whose channel they may not see).
        if row is None or (row.guild_id, row.channel_id) != (
            interaction.guild_id,
            interaction.channel_id,
        ):
            raise TournamentProblem(_("That button is no longer valid."))
        if row.status == "cancelled":
            raise TournamentProblem(
                _("That tournament was called off; the buttons of its message no longer work.")
            )
        # Over, or open but driven by another process (another shard's server).
        raise TournamentProblem(
            _("That tournament is over; the buttons of its message no longer work.")
        )

    async def refresh_lobby(self, run: Running, interaction: Interaction | None = None) -> None:
        language = channel_language(run.guild_id)
        embed = lobby_embed(run, self.clock(), language)
        view: discord.ui.View | None = (
            self.lobby_buttons(run, language) if open_for_entries(run, self.clock()) else None
        )
        if interaction is not None and not interaction.response.is_done():
            message = interaction.message
            if message is not None and message.id == run.message_id:
                await interaction.response.edit_message(embed=embed, view=view)
                return
            # Pressed on another message (an old copy, a forged button): answered here, and
            # the lobby itself is edited below.
            await kit.reply(interaction, kit.DONE)
        if run.message_id is None:
            return
        try:
            channel = self.bot.get_partial_messageable(run.channel_id)
            await channel.get_partial_message(run.message_id).edit(embed=embed, view=view)
        except discord.HTTPException as exc:
            log.warning("tournament %s: lobby message not updated: %s", run.tournament_id, exc)

    # -- commands ------------------------------------------------------------------------------

    @tournament.command(name="create", description="Open a sit-and-go in this channel.")
    @app_commands.describe(
        variant="The game (start typing to search)",
        buy_in="Bankroll chips each player pays into the prize pool",
        starting_stack="Tournament chips each player starts with",
        levels="How many levels the schedule has (the last one stays)",
        level_minutes="Minutes each level lasts",
        seats="Seats at each table",
        players="Most players (default: one table's seats; more play at tables in threads)",
        payouts="winner, 65/35, 50/30/20, or percentages like 40/30/20/10",
        rebuys="Rebuys each player may make (a starting stack for the buy-in)",
        rebuy_levels="Rebuys are open during this many first levels",
        addon="Chips of the add-on, bought once at the last rebuy level (0: none)",
        timer="Seconds each player has to act",
        auto_deal="Seconds between hands",
        time_bank=kit.TIME_BANK_HELP,
        late_reg_levels="Players may still register during this many first levels (0: none)",
        dealers_choice="Each dealer picks the game (the variant above is the default)",
    )
    @app_commands.autocomplete(variant=kit.variant_choices)
    async def create(
        self,
        interaction: Interaction,
        variant: str = "five-card-draw",
        buy_in: kit.BuyInOption = 100,
        starting_stack: kit.StartingStackOption = 1000,
        levels: kit.LevelsOption = 12,
        level_minutes: kit.LevelMinutesOption = 10.0,
        seats: kit.SeatsOption = 6,
        players: kit.PlayersOption | None = None,
        payouts: str = "65/35",
        rebuys: kit.RebuysOption = 0,
        rebuy_levels: kit.RebuyLevelsOption = 0,
        addon: kit.AddonOption = 0,
        timer: kit.TimerOption = 60,
        auto_deal: kit.AutoDealOption = 5,
        time_bank: kit.TimeBankOption = DEFAULT_TIME_BANK,
        late_reg_levels: kit.LateRegLevelsOption = 0,
        dealers_choice: bool = False,
    ) -> None:
        if interaction.guild_id is None or interaction.channel_id is None:
            raise TournamentProblem(_("Tournaments are played in server channels."))
        # Discord's ranges bind its client, not a forged request: every option is checked.
        variant = validation.known_variant(variant).slug
        validation.BUY_IN.check(buy_in)
        validation.STARTING_STACK.check(starting_stack)
        validation.LEVELS.check(levels)
        validation.SEATS.check(seats)
        if players is None:
            players = seats
        validation.PLAYERS.check(players)
        validation.TIMER.check(timer)
        validation.REBUYS.check(rebuys)
        validation.REBUY_LEVELS.check(rebuy_levels)
        validation.ADDON.check(addon)
        validation.AUTO_DEAL.check(auto_deal)
        validation.TIME_BANK.check(time_bank)
        validation.LATE_REG_LEVELS.check(late_reg_levels)
        level_minutes = validation.LEVEL_MINUTES.number(level_minutes)
        payouts = validation.check_text(payouts, validation.option("payouts"), 100)
        dealers_choice = validation.check_flag(dealers_choice, validation.option("dealers_choice"))
        run = await self.new_tournament(
            interaction.guild_id,
            interaction.channel_id,
            interaction.user.id,
            {
                "variant": variant,
                "buy_in": buy_in,
                "starting_stack": starting_stack,
                "levels": levels,
                "level_minutes": level_minutes,
                "seats": seats,
                "players": players,
                "payouts": payouts,
                "timer": timer,
                "auto_deal": auto_deal,
                "time_bank": time_bank,
                "rebuys": rebuys,
                "rebuy_levels": rebuy_levels,
                "addon": addon,
                "late_reg_levels": late_reg_levels,
                "dealers_choice": dealers_choice,
            },
        )
        language = channel_language(run.guild_id)
        response = await interaction.response.send_message(
            embed=lobby_embed(run, self.clock(), language), view=self.lobby_buttons(run, language)
        )
        if response.message_id is not None:
            run.message_id = response.message_id
            await self.bot.db.set_tournament_message(run.tournament_id, response.message_id)

    async def new_tournament(
        self, guild_id: int, channel_id: int, creator_id: int, options: dict[str, Any]
    ) -> Running:
        """A tournament taking registrations in the channel, from checked options."""
        if self.bot.tables.in_channel(channel_id) is not None:
            raise TournamentProblem(_("This channel has a table: use another channel."))
        if self.holds_channel(channel_id):
            raise TournamentProblem(_("There is already a tournament in this channel."))
        seats = int(options["seats"])
        if int(options["players"]) > seats and await self._text_channel(channel_id) is None:
            # Its tables would be threads of the channel: refused now, before any buy-in,
            # not at the start (registration closed, no table, the buy-ins held).
            raise TournamentProblem(_("Tournaments with several tables need a text channel."))
        try:
            config = engine.TableConfig(
                variant=str(options["variant"]),
                max_seats=seats,
                dealers_choice=bool(options.get("dealers_choice", False)),
                # The tournament rule: a player away still pays the antes and blinds.
                options=engine.TableOptions(blind_off_absent=True),
            )
            schedule = default_schedule(
                config,
                int(options["levels"]),
                max(1, round(float(options["level_minutes"]) * 60)),
                int(options["starting_stack"]),
            )
            settings = TournamentSettings(
                buy_in=int(options["buy_in"]),
                starting_stack=int(options["starting_stack"]),
                schedule=schedule,
                payouts=Payouts.parse(str(options["payouts"])),
                seats=seats,
                max_players=int(options["players"]),
                rebuys=int(options.get("rebuys", 0)),
                rebuy_levels=int(options.get("rebuy_levels", 0)),
                addon_stack=int(options.get("addon", 0)),
                late_levels=int(options.get("late_reg_levels", 0)),
            )
        except ValueError as exc:  # TournamentError and the engine's refusals
            raise TournamentProblem(engine_refusal(exc)) from exc
        run = Running(
            0,
            guild_id,
            channel_id,
            creator_id,
            config,
            int(options["timer"]),
            int(options["auto_deal"]),
            Tournament(settings),
            time_bank=int(options.get("time_bank", DEFAULT_TIME_BANK)),
        )
        try:
            row = await self.bot.db.create_tournament(
                run.guild_id, run.channel_id, run.creator_id, run.config_json(), run.state_json()
            )
        except DataError as exc:
            raise TournamentProblem(sentence(str(exc))) from exc
        run.tournament_id = row.tournament_id
        self._register(run)
        return run

    async def _text_channel(self, channel_id: int) -> discord.TextChannel | None:
        """The text channel ``channel_id`` (one that threads, a tournament's extra tables, can
        be opened in); None when it is another kind of channel, or cannot be found."""
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException:
                return None
        return channel if isinstance(channel, discord.TextChannel) else None

    async def _poll(self) -> None:
        """Remind and open scheduled games on time, also those due while the bot was down."""
        while True:
            try:
                await self.nights.run_schedules()
                # A table can wait on players who may still rebuy: once the rebuy period
                # is over they are out, even if no hand is dealt there meanwhile.
                for run in list(self.running.values()):
                    if run.state.status == "running" and run.started_at is not None:
                        try:
                            await self.settle(run)
                        except Exception:
                            log.exception("tournament %s: settling failed", run.tournament_id)
            except Exception:
                log.exception("scheduled games: a round failed")
            await asyncio.sleep(self.poll_seconds)

    @tournament.command(name="start", description="Start this channel's tournament now.")
    async def start_command(self, interaction: Interaction) -> None:
        await self.start_pressed(interaction)

    @tournament.command(name="cancel", description="Call off a tournament that has not started.")
    async def cancel(self, interaction: Interaction) -> None:
        run = self.here(interaction)
        check_organiser(run, interaction)
        refunds = await self.call_off(run, interaction)
        await kit.announce(
            interaction,
            _.plural(
                "The tournament is called off; {count} buy-in went back to the bankrolls.",
                "The tournament is called off; {count} buy-ins went back to the bankrolls.",
                count=refunds,
                language=channel_language(run.guild_id),
            ),
        )
        await self.refresh_lobby(run)
        self.bot.dispatch("poker_game_ended", "tournament", run.tournament_id)

    async def call_off(self, run: Running, interaction: Interaction | None = None) -> int:
        """Cancel a tournament that has not started, every buy-in back to its bankroll;
        returns how many went back. The ``interaction`` asking for it is acknowledged should
        the tournament's lock keep it waiting.

        :raises TournamentProblem: it has started (the engine's reason).
        """
        async with kit.held_in_time(run.lock, interaction):
            try:
                cancelled = run.state.cancel()
            except TournamentError as exc:
                raise TournamentProblem(engine_refusal(exc)) from exc
            buy_in = run.state.settings.buy_in
            refunds = [(int(e.player_id), buy_in) for e in run.state.entries]
            await self.bot.db.cancel_tournament(
                run.tournament_id, refunds, run.state_json(cancelled)
            )
            run.state = cancelled
            self._forget(run)
        return len(refunds)

    @tournament.command(name="status", description="This channel's tournament: level and players.")
    async def status(self, interaction: Interaction) -> None:
        run = self.here(interaction)
        await interaction.response.send_message(
            embed=lobby_embed(run, self.clock()), ephemeral=True
        )

    # -- registration (register, unregister, buy_more: self.entries) --------------------------

    async def start_pressed(self, interaction: Interaction, run: Running | None = None) -> None:
        """Start the tournament (the channel's, or ``run``: the lobby's whose Start was
        pressed)."""
        run = run or self.here(interaction)
        check_organiser(run, interaction)
        if run.state.status != "registering":
            raise TournamentProblem(_("The tournament has already started."))
        if len(run.state.entries) < 2:
            raise TournamentProblem(_("At least two players must be registered."))
        await kit.reply(interaction, _("Starting the tournament."))
        await self.begin(run)

    # -- play ----------------------------------------------------------------------------------

    async def begin(self, run: Running) -> None:
        """Close registration, start the level clock, open and seat the table, deal."""
        async with run.lock:
            if run.state.status != "registering":
                return
            started = run.state.start()
            if not self.tables_of(run):
                # Before registration closes: tables Discord refuses leave it open.
                await self._open_tables_or_refuse(run)
            now = self.clock()
            await self.bot.db.save_tournament(
                run.tournament_id, "running", run.state_json(started), started_at=now
            )
            run.state, run.started_at = started, now
        await self.refresh_lobby(run)
        await self.reconcile(run)

    async def reconcile(self, run: Running) -> None:
        """Bring a running tournament and its tables in line (after its start, or a restart):
        its tables exist, every player still in is seated once, busted players are out,
        moves cut short by a crash are completed, the tables are balanced, and the first hand
        is dealt where none was."""
        if not self.tables_of(run):
            await self._open_tables(run)
        dealt = {live.id for live in self.tables_of(run) if live.engine.hand_number > 0}
        await self.settle(run)  # (which deals the tables that have not dealt yet)
        for live in self.tables_of(run):
            if live.id in dealt:
                await self.bot.presenter.refresh(live)

    async def _open_tables(self, run: Running) -> None:
        """One table in the channel; with more players than seats, a table per thread."""
        seats = run.state.settings.seats
        count = max(1, -(-len(run.state.alive) // seats))
        if count == 1:
            await self._open_table(run, run.channel_id)
        else:
            await self._open_threads(run, range(1, count + 1))

    async def _open_tables_or_refuse(self, run: Running) -> None:
        """:meth:`_open_tables`, or, when Discord refuses a thread (the bot may not create
        threads here, or Discord fails), none of them: those opened are closed (empty, no chip
        moved).

        :raises TournamentProblem: the tables could not be opened.
        """
        try:
            await self._open_tables(run)
        except discord.HTTPException as exc:
            log.warning("tournament %s: tables not opened: %s", run.tournament_id, exc)
            await self.close_unused(self.tables_of(run))
            if isinstance(exc, discord.Forbidden):
                raise TournamentProblem(
                    _(
                        "I could not open the tournament's tables: I need permission to "
                        "create threads in this channel. Registration stays open."
                    )
                ) from exc
            raise TournamentProblem(
                _(
                    "Discord would not let me open the tournament's tables just now. "
                    "Registration stays open; try again in a moment."
                )
            ) from exc

    async def close_unused(self, tables: list[LiveTable]) -> None:
        """Close ``tables``, opened and never played at (empty, no chip moved)."""
        for live in tables:
            async with live.lock:
                await self.bot.db.close_tournament_table(live.id, live.state_json())
                self.bot.tables.forget(live)

    async def tables_for_late_entry(
        self, run: Running, interaction: Interaction
    ) -> list[LiveTable]:
        """Under the tournament's lock, before a late entry pays in: when every seat is
        taken, the table(s) that seat them, opened (empty) in new threads of the channel
        now, while the entry can still be refused; none when a seat is free. Opening a
        thread may outlast the interaction's 3 s (Discord's retries): it is deferred first.

        :raises TournamentProblem: Discord refused a thread (nothing is left open).
        """
        seats = run.state.settings.seats
        tables = self.tables_of(run)
        seated = {s.player_id for live in tables for s in live.engine.seats if s is not None}
        waiting = 1 + sum(1 for pid in run.state.alive if pid not in seated)
        free = sum(seats - table_size(live)[0] for live in tables)
        if waiting <= free:
            return []
        count = -(-(waiting - free) // seats)
        if not interaction.response.is_done():
            await interaction.response.defer()
        opened: list[LiveTable] = []
        try:
            await self._open_threads(run, range(len(tables) + 1, len(tables) + count + 1), opened)
        except discord.HTTPException as exc:
            log.warning("tournament %s: no table for a late entry: %s", run.tournament_id, exc)
            await self.close_unused(opened)
            if isinstance(exc, discord.Forbidden):
                raise TournamentProblem(
                    _(
                        "Every seat is taken, and I may not create threads in this channel "
                        "to open another table. You are not entered and paid nothing."
                    )
                ) from exc
            raise TournamentProblem(
                _(
                    "Every seat is taken, and Discord would not let me open another table "
                    "in a thread just now. You are not entered and paid nothing; try again "
                    "in a moment."
                )
            ) from exc
        return opened

    async def _open_threads(
        self, run: Running, numbers: range, opened: list[LiveTable] | None = None
    ) -> list[LiveTable]:
        """Tables in new threads of the tournament's channel, named by ``numbers`` (each
        appended to ``opened`` as it opens: those opened before a failure are there)."""
        parent = await self._text_channel(run.channel_id)
        if parent is None:
            raise TournamentProblem(_("Tournaments with several tables need a text channel."))
        language = channel_language(run.guild_id)
        opened = [] if opened is None else opened
        # An announcement channel's threads are of their own kind (Discord refuses the other).
        kind = (
            discord.ChannelType.news_thread
            if parent.is_news()
            else discord.ChannelType.public_thread
        )
        for number in numbers:
            thread = await parent.create_thread(
                # Translators: the name of a tournament table's thread (at most 100).
                name=_("Tournament table {number}", number=number, language=language)[:100],
                type=kind,
                # A week of quiet before Discord archives it, the longest it allows (a table
                # may wait long on a player; the presenter reopens an archived thread).
                auto_archive_duration=10080,
            )
            opened.append(await self._open_table(run, thread.id))
        return opened

    async def _open_table(self, run: Running, channel_id: int) -> LiveTable:
        return await self.bot.tables.create_tournament_table(
            run.tournament_id,
            run.guild_id,
            channel_id,
            run.creator_id,
            run.config,
            TableSettings(
                run.state.settings.starting_stack,
                run.state.settings.starting_stack,
                action_seconds=run.action_seconds,
                auto_deal_seconds=run.auto_deal_seconds,
                time_bank=run.time_bank,
            ),
        )

    async def settle(self, run: Running) -> None:
        """Carry out what the tournament's rules decide between hands, table by table: the
        eliminations, moves interrupted by a crash, seats for players not yet seated, then
        the moves the balancing plan asks for, then closing tables left empty. A table in a
        hand is left alone (its hand's end settles again). Players left without a seat (Discord
        refused a new table's thread) wait, and are told so once."""
        waiting: list[str] = []
        async with run.lock:
            if run.state.status != "running":
                return
            for live in self.tables_of(run):
                async with live.lock:
                    if not live.engine.in_hand and not live.closed:
                        await self._eliminate(run, live, {})
                if run.state.status != "running":
                    return
            tables = {live.id: live for live in self.tables_of(run)}
            seated = {
                s.player_id: live.id
                for live in tables.values()
                for s in live.engine.seats
                if s is not None
            }
            # A move cut short: finish it (its stack was saved before it left its table).
            # Players whose table is gone (its thread deleted) wait for a free seat below.
            homeless: dict[str, int] = {}
            for pid, (to, stack) in list(run.moving.items()):
                held = seated.get(pid)
                if held is not None and held != to and not tables[held].engine.in_hand:
                    async with tables[held].lock:
                        await self.bot.tables.seat_tournament_locked(tables[held], {}, [pid], {})
                    seated.pop(pid)
                if pid not in seated:
                    target = tables.get(to)
                    if target is None or table_size(target)[0] >= run.state.settings.seats:
                        homeless[pid] = stack
                        continue
                    async with target.lock:
                        await self.bot.tables.seat_tournament_locked(
                            target, {pid: stack}, [], run.names
                        )
                    seated[pid] = target.id
                await self._set_moving(run, pid, None)
            # Players never seated yet (the start), and those whose table is gone: each to
            # the emptiest table.
            stacks = {
                pid: homeless.get(pid, run.state.settings.starting_stack)
                for pid in run.state.alive
                if pid not in seated
            }
            # Late entries with every seat taken: more tables, in threads of the channel.
            seats = run.state.settings.seats
            free = sum(seats - table_size(live)[0] for live in tables.values())
            if len(stacks) > free:
                count = -(-(len(stacks) - free) // seats)
                numbers = range(len(tables) + 1, len(tables) + count + 1)
                opened: list[LiveTable] = []
                try:
                    await self._open_threads(run, numbers, opened)
                except discord.HTTPException as exc:
                    # Those without a seat wait, their stacks saved (as moves, or as entries
                    # not seated yet), told so below; the next settling tries again.
                    log.warning(
                        "tournament %s: no new table for %d players: %s",
                        run.tournament_id,
                        len(stacks) - free,
                        exc,
                    )
                for live in opened:
                    tables[live.id] = live
            # Each note below is written on a table, in that table's language.
            for pid in draw_seats(list(stacks), secrets.SystemRandom()):
                room = [t for t in tables.values() if table_size(t)[0] < seats]
                if not room:
                    waiting.append(pid)
                    continue
                target = min(room, key=table_size)
                if pid in homeless:
                    # Saved with its new table first: a crash now finishes this move.
                    await self._set_moving(run, pid, (target.id, stacks[pid]))
                async with target.lock:
                    await self.bot.tables.seat_tournament_locked(
                        target, {pid: stacks[pid]}, [], run.names
                    )
                    if pid in homeless:
                        target.meta.notes.append(
                            _.plural(
                                "⬅️ {player} joins this table with {count} chip.",
                                "⬅️ {player} joins this table with {count} chips.",
                                count=stacks[pid],
                                player=run.name_in_text(pid),
                                language=target.language,
                            )
                        )
                if pid in homeless:
                    await self._set_moving(run, pid, None)
            # Balance: the engine says who moves where; a table in a hand moves nobody yet,
            # nor one where a player decides on a rebuy (no chips to sit down elsewhere with).
            moved: dict[int, list[tuple[str, int]]] = {}
            layout = [TableSeats.of(str(t.id), t.engine) for t in tables.values()]
            for move in plan_moves(layout, run.state.settings.seats):
                source, target = tables[int(move.from_table)], tables[int(move.to_table)]
                if source.engine.in_hand or self._deciding_at(run, source):
                    continue
                async with source.lock:
                    if source.engine.in_hand or self._deciding_at(run, source):
                        continue
                    # The engine's rule for a carried pot, saved before anyone moves.
                    returned = before_moving(source.engine)
                    if returned:
                        await self.bot.tables.seat_tournament_locked(source, {}, [], {})
                        source.meta.notes.append(returned_note(run, returned, source.language))
                    stack = source.engine.stack(move.player_id)
                    await self._set_moving(run, move.player_id, (target.id, stack))
                    await self.bot.tables.seat_tournament_locked(source, {}, [move.player_id], {})
                    name = run.name_in_text(move.player_id)
                    source.meta.notes.append(
                        _(
                            "➡️ {player} moves to {table}.",
                            player=name,
                            table=kit.channel_link(target.channel_id),
                            language=source.language,
                        )
                    )
                    moved.setdefault(source.id, []).append((name, target.channel_id))
                async with target.lock:
                    await self.bot.tables.seat_tournament_locked(
                        target, {move.player_id: stack}, [], run.names
                    )
                    target.meta.notes.append(
                        _.plural(
                            "⬅️ {player} joins this table with {count} chip.",
                            "⬅️ {player} joins this table with {count} chips.",
                            count=stack,
                            player=name,
                            language=target.language,
                        )
                    )
                await self._set_moving(run, move.player_id, None)
            for live in list(tables.values()):
                if not any(s is not None for s in live.engine.seats) and not live.engine.in_hand:
                    async with live.lock:
                        await self.bot.db.close_tournament_table(live.id, live.state_json())
                        self.bot.tables.forget(live)
                    self.spawn(self._break_up(run, live, moved.get(live.id, [])))
                    tables.pop(live.id)
        for live in tables.values():
            if live.engine.hand_number > 0 and not live.engine.in_hand:
                self.spawn(self.bot.presenter.refresh(live))
        await self.deal_new_tables(run)
        await self._tell_waiting(run, waiting, tables.values())

    async def _tell_waiting(
        self, run: Running, waiting: list[str], tables: Iterable[LiveTable]
    ) -> None:
        """Players left without a seat hear it once (in the channel, or by DM when the
        channel refuses it); once seated, the channel says where they play on."""
        new = [pid for pid in waiting if pid not in run.told_waiting]
        seated = {
            s.player_id: live.channel_id
            for live in tables
            for s in live.engine.seats
            if s is not None and s.player_id in run.told_waiting
        }
        run.told_waiting = set(waiting)  # every player waiting now is told below
        language = channel_language(run.guild_id)
        channel = self.bot.get_partial_messageable(run.channel_id)
        people = [pid for pid in new if not is_house(pid)]
        if people:
            # Translators: {players} lists mentions of the players without a seat (a table's
            # thread was deleted and Discord refused a new one); {count} is the retry delay.
            text = _.plural(
                "⏳ {players}: you have no seat for now: Discord would not open the thread of "
                "a new table. Your chips are kept; I try again every {count} second and "
                "seat you as soon as it works.",
                "⏳ {players}: you have no seat for now: Discord would not open the thread of "
                "a new table. Your chips are kept; I try again every {count} seconds and "
                "seat you as soon as it works.",
                count=round(self.poll_seconds),
                players=", ".join(f"<@{pid}>" for pid in people),
                language=language,
            )
            try:
                await channel.send(
                    text[:2000], allowed_mentions=discord.AllowedMentions(users=True)
                )
            except discord.HTTPException as exc:
                log.warning("tournament %s: waiting not posted: %s", run.tournament_id, exc)
                self.spawn(self._dm_waiting(run, people))
        if seated:
            lines = [
                # Translators: followed by one "➡️ {player} → {table}" line per player.
                _("✅ A new table is open: the players who waited play on:", language=language),
                *(
                    _(
                        "➡️ {player} → {table}",
                        player=run.name_in_text(pid),
                        table=kit.channel_link(channel_id),
                        language=language,
                    )
                    for pid, channel_id in seated.items()
                ),
            ]
            try:
                await channel.send(
                    "\n".join(lines)[:2000], allowed_mentions=discord.AllowedMentions.none()
                )
            except discord.HTTPException as exc:
                log.warning("tournament %s: seats not posted: %s", run.tournament_id, exc)
        if new or seated:
            # Saved once told (a crash just before tells again, rather than never).
            async with run.state_lock:
                if run.state.status == "running":
                    await self.bot.db.save_tournament(
                        run.tournament_id, "running", run.state_json()
                    )

    async def _dm_waiting(self, run: Running, players: list[str]) -> None:
        """Players left without a seat, told by DM in their own language (their channel
        refused the notice)."""

        def waiting(_user_id: int, language: Language, server: str) -> discord.Embed:
            return discord.Embed(
                # Translators: the title of a DM to a tournament player left without a seat.
                title=_("⏳ Waiting for a seat", language=language),
                description=_.plural(
                    "In the tournament on {server}, you have no seat for now: Discord would "
                    "not open the thread of a new table. Your chips are kept; I try again "
                    "every {count} second and seat you as soon as it works.",
                    "In the tournament on {server}, you have no seat for now: Discord would "
                    "not open the thread of a new table. Your chips are kept; I try again "
                    "every {count} seconds and seat you as soon as it works.",
                    count=round(self.poll_seconds),
                    server=server,
                    language=language,
                ),
                colour=discord.Colour.dark_grey(),
            )

        await self._dm_each(run, [int(pid) for pid in players], waiting)

    async def deal_new_tables(self, run: Running) -> None:
        """Deal the first hand of each of the tournament's tables that has none yet and can
        deal now: a table the clock does not deal (its auto-deal follows a hand). Whoever
        seats a new table's second player (a late entry, a balancing move, players of a
        deleted table) ends here; the service deals each table once."""
        for live in self.tables_of(run):
            if live.engine.hand_number > 0:
                continue
            outcome = await self.bot.tables.start_first_hand(live)
            if outcome is not None:
                await self.bot.presenter.present(live, outcome)

    async def table_gone(self, live: LiveTable, why: str) -> None:
        """The table's thread (or channel) was deleted: nobody can play there any more. Its
        hand in progress is void (every chip back to the deal), a carried pot goes back to
        who put it in (the engine's rule), its players leave it with their stacks (saved as
        moves first), it closes, and they sit down at the tournament's other tables, or at
        a new one in a thread of the lobby's channel."""
        run = self.running.get(live.meta.tournament or 0)
        if run is None:
            return
        if live.channel_id == run.channel_id or await self._gone(run.channel_id):
            # Its table was in the lobby's channel, or that channel went with its threads:
            # the tournament has nowhere left.
            await self.lobby_gone(run, why)
            return
        async with run.lock:
            if run.state.status != "running":
                return
            async with live.lock:
                if live.closed:
                    return
                await self.bot.tables.void_gone_hand_locked(live, why)
                if before_moving(live.engine):
                    await self.bot.tables.seat_tournament_locked(live, {}, [], {})
                stacks = {s.player_id: s.stack for s in live.engine.seats if s is not None}
                # A player left without chips has nothing to sit down elsewhere with: their
                # decision on a rebuy ends with the table (a rebuy paid for moves with them).
                broke = [p for p, n in stacks.items() if n == 0]
                if broke and await self._out_of_chips_moving(run, broke, stacks):
                    return  # they were the last but one: the tournament is over
                await self._set_moves(
                    run, {pid: (live.id, n) for pid, n in stacks.items() if n > 0}
                )
                await self.bot.tables.seat_tournament_locked(live, {}, list(stacks), {})
                await self.bot.db.close_tournament_table(live.id, live.state_json())
                self.bot.tables.forget(live)
        log.warning(
            "tournament %s: table %s closed (%s); its players move",
            run.tournament_id,
            live.id,
            why,
        )
        await self.settle(run)
        moved: list[tuple[str, int]] = []
        for other in self.tables_of(run):
            moved.extend(
                (run.name_in_text(s.player_id), other.channel_id)
                for s in other.engine.seats
                if s is not None and s.player_id in stacks
            )
        if moved and live.channel_id != run.channel_id:
            language = channel_language(run.guild_id)
            lines = [
                _(
                    "🧳 A table's thread was archived and locked, and I may not reopen it; "
                    "its players play on at these tables:",
                    language=language,
                )
                if why == THREAD_SHUT
                else _(
                    "🧳 A table's thread was deleted; its players play on at these tables:",
                    language=language,
                ),
                *(
                    _(
                        "➡️ {player} → {table}",
                        player=n,
                        table=kit.channel_link(c),
                        language=language,
                    )
                    for n, c in moved
                ),
            ]
            try:
                channel = self.bot.get_partial_messageable(run.channel_id)
                await channel.send(
                    "\n".join(lines)[:2000], allowed_mentions=discord.AllowedMentions.none()
                )
            except discord.HTTPException as exc:
                log.warning("tournament %s: moves not posted: %s", run.tournament_id, exc)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        # A tournament's channel deleted while the bot was away: nobody told this process,
        # and the tournament would keep its buy-ins or its prize pool for good.
        for run in list(self.running.values()):
            if await self._gone(run.channel_id):
                try:
                    await self.lobby_gone(run, "its channel was deleted while the bot was away")
                except Exception:
                    log.exception(
                        "tournament %s: ending it (channel gone) failed", run.tournament_id
                    )

    async def _gone(self, channel_id: int) -> bool:
        """Whether Discord says the channel ``channel_id`` no longer exists (one not in the
        cache is asked for: an archived thread is not cached; any other failure is not an
        answer, and the channel is taken as still there)."""
        if self.bot.get_channel(channel_id) is not None:
            return False
        try:
            await self.bot.fetch_channel(channel_id)
        except discord.NotFound:
            return True
        except discord.HTTPException as exc:
            log.warning("channel %s could not be read: %s", channel_id, exc)
        return False

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        tid = self.by_channel.get(channel.id)
        run = None if tid is None else self.running.get(tid)
        if run is not None:
            try:
                await self.lobby_gone(run, "its channel was deleted")
            except Exception:
                log.exception("tournament %s: ending it (channel deleted) failed", tid)

    async def lobby_gone(self, run: Running, why: str) -> None:
        """The tournament's channel was deleted (its lobby, its tables' threads with it):
        nobody can register, play or read its results there any more. Before the start it
        is called off, every buy-in back; running, it ends now, each player still in placed
        by the chips they hold (a hand in progress void first), and the prize pool is paid
        out by those places."""
        if run.state.status == "registering":
            try:
                await self.call_off(run)
            except TournamentProblem:
                return
            log.warning("tournament %s called off: %s", run.tournament_id, why)
            # Its channel is gone: each player hears of it by DM.
            self.spawn(self._dm_called_off(run))
            self.bot.dispatch("poker_game_ended", "tournament", run.tournament_id)
            return
        async with run.lock:
            if run.state.status != "running":
                return
            stacks: dict[str, int] = {}
            for live in self.tables_of(run):
                async with live.lock:
                    await self.bot.tables.void_gone_hand_locked(live, why)
                    if before_moving(live.engine):
                        await self.bot.tables.seat_tournament_locked(live, {}, [], {})
                    for seat in live.engine.seats:
                        if seat is not None:
                            stacks[seat.player_id] = seat.stack
            for pid, (_, stack) in run.moving.items():
                stacks.setdefault(pid, stack)
            alive = run.state.alive
            # Chips paid for and not yet dealt (rebuys, add-ons), and entries not yet seated.
            held = {
                pid: stacks.get(pid, run.state.settings.starting_stack) + run.pending.get(pid, 0)
                for pid in alive
            }
            final = run.state.stop(held)
            log.warning("tournament %s ended early (%s): stacks %s", run.tournament_id, why, held)
            await self._finish(run, final, None, channel_gone=True)

    async def _break_up(self, run: Running, live: LiveTable, moved: list[tuple[str, int]]) -> None:
        """A table broke up: its message loses its buttons, its channel says who went where
        (a link to each new table), and a thread of its own is archived, out of the list."""
        await self.bot.presenter.retire_closed(live)
        language = channel_language(run.guild_id)
        said = broken_up(moved, language)
        try:
            channel = self.bot.get_channel(live.channel_id) or await self.bot.fetch_channel(
                live.channel_id
            )
            if isinstance(channel, discord.abc.Messageable):
                await channel.send(said, allowed_mentions=discord.AllowedMentions.none())
            if isinstance(channel, discord.Thread) and live.channel_id != run.channel_id:
                await channel.edit(archived=True)
        except discord.HTTPException as exc:
            log.warning(
                "tournament %s: table %s broke up unsaid: %s", run.tournament_id, live.id, exc
            )

    async def _set_moves(self, run: Running, moves: dict[str, tuple[int, int]]) -> None:
        """Save ``moves`` (player id -> (table id, stack)) at once with the tournament."""
        async with run.state_lock:
            moving = {**run.moving, **moves}
            await self.bot.db.save_tournament(
                run.tournament_id, "running", run.state_json(moving=moving)
            )
            run.moving = moving

    async def _set_moving(self, run: Running, pid: str, move: tuple[int, int] | None) -> None:
        async with run.state_lock:
            moving = dict(run.moving)
            if move is None:
                moving.pop(pid, None)
            else:
                moving[pid] = move
            await self.bot.db.save_tournament(
                run.tournament_id, "running", run.state_json(moving=moving)
            )
            run.moving = moving

    async def before_deal(self, live: LiveTable) -> list[str]:
        run = self.running.get(live.meta.tournament or 0)
        if run is None or run.started_at is None:
            return []
        now = self.clock()
        schedule = run.state.settings.schedule
        elapsed = now - run.started_at
        index = schedule.level_at(elapsed)
        live.engine = at_level(live.engine, schedule.levels[index])
        if index >= run.state.settings.rebuy_levels and not run.state.addon_closed:
            async with run.state_lock:
                closed = run.state.close_addon()
                await self.bot.db.save_tournament(
                    run.tournament_id, "running", run.state_json(closed)
                )
                run.state = closed
        await self.entries.add_pending(run, live)
        remaining = schedule.remaining(elapsed)
        # Players here still deciding on a rebuy (the others play on meanwhile).
        deciding = [
            rebuy_note(run, s.player_id, run.rebuy_until[s.player_id], live.language)
            for s in live.engine.seats
            if s is not None and s.player_id in run.rebuy_until and s.stack == 0
        ]
        return [
            level_line(
                index,
                schedule.levels[index],
                schedule.next_level(elapsed),
                None if remaining is None else now + remaining,
                live.language,
            ),
            *deciding,
        ]

    @staticmethod
    def _check_deciding(run: Running, interaction: Interaction) -> None:
        """A table's Rebuy and No rebuy are for a player left without chips, whom the
        tournament waits on: anyone else pressing them is told what they are for (a rebuy
        with chips left is bought with the command, on purpose).

        :raises TournamentProblem: the presser is not deciding on a rebuy.
        """
        pid = str(interaction.user.id)
        if not run.state.registered(pid):
            raise TournamentProblem(_("You are not in this tournament."))
        if pid not in run.rebuy_until:
            raise TournamentProblem(
                _(
                    "Rebuy and No rebuy are for a player left without chips. To rebuy with "
                    "chips left, use `/poker tournament rebuy`."
                )
            )

    async def decline(self, interaction: Interaction, run: Running) -> None:
        """A player left without chips turns their rebuy down (the table's No rebuy): they
        are out now, or when the hand their table is playing ends (a presser
        :meth:`_check_deciding` let through: registered, and deciding)."""
        pid = str(interaction.user.id)
        async with kit.held_in_time(run.lock, interaction), run.state_lock:
            try:
                run.state.decline(pid, self.chips_of(run, pid))
            except TournamentError as exc:
                raise TournamentProblem(engine_refusal(exc)) from exc
            # Their time to decide is over: settling puts them out, as when it runs out.
            until = {**run.rebuy_until, pid: 0.0}
            await self.bot.db.save_tournament(
                run.tournament_id, "running", run.state_json(rebuy_until=until)
            )
            run.rebuy_until = until
        language = channel_language(run.guild_id)
        await kit.announce(
            interaction,
            _("{player} does not rebuy.", player=interaction.user.mention, language=language),
        )
        await self.settle(run)

    @tournament.command(name="rebuy", description="Buy another starting stack (rebuy period).")
    async def rebuy(self, interaction: Interaction) -> None:
        await self.entries.buy_more(interaction, addon=False)

    @tournament.command(name="addon", description="Buy the add-on at the end of the rebuys.")
    async def addon_command(self, interaction: Interaction) -> None:
        await self.entries.buy_more(interaction, addon=True)

    async def after_hand(self, live: LiveTable, start_stacks: dict[str, int]) -> None:
        run = self.running.get(live.meta.tournament or 0)
        if run is None or run.state.status != "running":
            return
        await self._eliminate(run, live, start_stacks)
        if run.state.status == "running" and len(self.tables_of(run)) > 1:
            # Not here: balancing takes the other tables' locks, and this one is held.
            self.spawn(self.settle(run))

    async def _eliminate(self, run: Running, live: LiveTable, start_stacks: dict[str, int]) -> None:
        """Under the table's lock, between hands: its players left without chips are out
        (placed by the stacks they began the hand with), and stand up; with one player
        left in the whole tournament, it is over and paid.

        A player left without chips while a rebuy is open to them stays in for a while
        (:meth:`rebuy_seconds`) to buy one or turn it down; the table says so. Once that time
        is over (or they turned it down), they are out."""
        seats = {s.player_id: s.stack for s in live.engine.seats if s is not None}
        in_pot = live.engine.carried_stakes
        now = self.clock()
        async with run.state_lock:
            # A rebuy paid for and not dealt yet is chips: its player is not out, nor
            # deciding. (Read under the lock: a rebuy saved just before counts.)
            stacks = {pid: stack + run.pending.get(pid, 0) for pid, stack in seats.items()}
            before = run.state
            if before.status != "running":
                return
            after = before.eliminate(stacks, start_stacks, level=run.level(now), in_pot=in_pot)
            deciding = after.deciding({p: s for p, s in stacks.items() if p not in in_pot})
            until = {p: t for p, t in run.rebuy_until.items() if p not in seats or p in deciding}
            given = [p for p in deciding if p not in until]
            for pid in given:
                until[pid] = min(now + self.rebuy_seconds(run, pid), self._rebuys_end(run))
            for pid in deciding:
                if until[pid] <= now:
                    after = after.bust(pid)
                    del until[pid]
            out = [p for p in seats if after.entry(p).out and not before.entry(p).out]
            # Anyone already counted out but still seated (a restart between two saves).
            stale = [p for p in seats if before.registered(p) and before.entry(p).out]
            places = dict(after.places())
            language = live.language  # the notes are the table's
            notes = [
                # Translators: {place} is an ordinal written by the "{place}th" messages.
                _(
                    "💀 {player} is out in {place} place.",
                    player=run.name_in_text(p),
                    place=ordinal(places[p], language),
                    language=language,
                )
                for p in out
            ]
            notes += [rebuy_note(run, p, until[p], language) for p in given if p in until]
            if after.status == "finished":
                run.rebuy_until = until
                await self._finish(run, after, live)
                live.meta.notes.extend(notes)
                return
            if out or until != run.rebuy_until:
                await self.bot.db.save_tournament(
                    run.tournament_id, "running", run.state_json(after, rebuy_until=until)
                )
                run.state, run.rebuy_until = after, until
        if out or stale:
            await self.bot.tables.seat_tournament_locked(live, {}, [*out, *stale], {})
        live.meta.notes.extend(notes)
        for pid in given:
            if pid in until:
                self._settle_at(run, until[pid])
        if out:
            self.spawn(self.refresh_lobby(run))

    def rebuy_seconds(self, run: Running, player_id: str) -> float:
        """How long a player left without chips has to buy a rebuy before they are out: the
        tournament's action timer, and at least a minute (it is a choice about money, made
        away from the cards). A house player decides at once: it never rebuys."""
        if is_house(player_id):
            return 0.0
        return float(max(REBUY_SECONDS, run.action_seconds))

    @staticmethod
    def _rebuys_end(run: Running) -> float:
        """When the rebuy period ends (no rebuy is bought after it, however long a player
        had left to decide)."""
        s = run.state.settings
        return (run.started_at or 0.0) + s.rebuy_levels * s.schedule.level_seconds

    def _deciding_at(self, run: Running, live: LiveTable) -> bool:
        """Whether a player at ``live`` decides on a rebuy."""
        return any(s is not None and s.player_id in run.rebuy_until for s in live.engine.seats)

    async def _out_of_chips_moving(
        self, run: Running, broke: list[str], stacks: dict[str, int]
    ) -> bool:
        """Under the tournament's lock and the table's: players of a table that is gone, left
        without chips (``stacks`` of them 0). Those with a rebuy paid for take its chips along
        (``stacks`` gets them); the others are out, placed where they went broke. Returns
        whether that ended the tournament (it is then paid)."""
        async with run.state_lock:
            after, pending = run.state, dict(run.pending)
            for pid in broke:
                if pending.get(pid):
                    stacks[pid] = pending.pop(pid)
                else:
                    after = after.bust(pid)
            previous = run.pending, run.rebuy_until
            run.pending = pending
            run.rebuy_until = {p: t for p, t in run.rebuy_until.items() if p not in broke}
            try:
                if after.status == "finished":
                    await self._finish(run, after, None)
                    return True
                await self.bot.db.save_tournament(
                    run.tournament_id, "running", run.state_json(after)
                )
            except Exception:
                run.pending, run.rebuy_until = previous
                raise
            run.state = after
            return False

    def _settle_at(self, run: Running, when: float) -> None:
        """Settle ``run`` again just after ``when`` (a rebuy's time running out), which the
        poll would do only up to its period later."""

        def fire() -> None:
            self._timers.discard(handle)
            if self.running.get(run.tournament_id) is run:
                self.spawn(self.settle(run))

        delay = max(0.0, when - self.clock()) + 0.25
        handle = asyncio.get_running_loop().call_later(delay, fire)
        self._timers.add(handle)

    async def _finish(
        self, run: Running, final: Tournament, live: LiveTable | None, channel_gone: bool = False
    ) -> None:
        """Pay the places and post the results (``channel_gone``: its channel was deleted,
        so each player hears them by DM instead)."""
        table = final.payout_table()
        await self.bot.db.finish_tournament(
            run.tournament_id,
            [(int(pid), place, prize) for pid, place, prize in table],
            run.state_json(final),
        )
        run.state = final
        for other in self.tables_of(run):
            self.bot.tables.forget(other)
            if other is not live:
                self.spawn(self.bot.presenter.retire_closed(other))
        if live is not None:
            self.bot.tables.forget(live)
        self._forget(run)
        if channel_gone:
            self.spawn(self._dm_results(run, table))
        else:
            self.spawn(self._post_results(run, table))
        # A poker night that opened it ends with it (see cogs.tournament.nights).
        self.bot.dispatch("poker_game_ended", "tournament", run.tournament_id)

    async def _post_results(self, run: Running, table: tuple[tuple[str, int, int], ...]) -> None:
        embed = results_embed(run, table, channel_language(run.guild_id))
        try:
            channel = self.bot.get_partial_messageable(run.channel_id)
            await channel.send(embed=embed)
        except discord.HTTPException as exc:
            log.warning("tournament %s: results not posted: %s", run.tournament_id, exc)
        await self.refresh_lobby(run)

    def _server_name(self, run: Running) -> str:
        guild = self.bot.get_guild(run.guild_id)
        return kit.as_typed(guild.name) if guild is not None else str(run.guild_id)

    async def _dm_each(
        self,
        run: Running,
        user_ids: list[int],
        make: Callable[[int, Language, str], discord.Embed],
    ) -> None:
        """Send each of ``user_ids`` the DM ``make(user_id, language, server name)``, in the
        language their client last spoke (closed DMs are skipped by the presenter)."""
        spoken = await languages.member_languages(self.bot.db, user_ids)
        server = self._server_name(run)
        for user_id in user_ids:
            await self.bot.presenter.send_dm(user_id, make(user_id, spoken[user_id], server))

    async def _dm_results(self, run: Running, table: tuple[tuple[str, int, int], ...]) -> None:
        """The results of a tournament whose channel was deleted, to each of its players
        by DM in their own language: their place and prize, and the standings."""
        places = {int(pid): (place, prize) for pid, place, prize in table if not is_house(pid)}

        def results(user_id: int, language: Language, server: str) -> discord.Embed:
            embed = results_embed(run, table, language, limit=1500)
            place, prize = places[user_id]
            embed.description = "\n\n".join(
                (ended_early(server, place, prize, language), embed.description or "")
            )
            return embed

        await self._dm_each(run, list(places), results)

    async def _dm_called_off(self, run: Running) -> None:
        """A tournament called off because its channel was deleted: each player registered
        hears by DM, in their own language, that their buy-in went back."""

        def called_off(_user_id: int, language: Language, server: str) -> discord.Embed:
            return discord.Embed(
                title=_("Tournament called off", language=language),
                description=_.plural(
                    "The tournament on {server} was called off: its channel was deleted "
                    "before it started. Your buy-in of {count} chip went back to your "
                    "bankroll.",
                    "The tournament on {server} was called off: its channel was deleted "
                    "before it started. Your buy-in of {count} chips went back to your "
                    "bankroll.",
                    count=run.state.settings.buy_in,
                    server=server,
                    language=language,
                ),
                colour=discord.Colour.dark_grey(),
            )

        players = [int(e.player_id) for e in run.state.entries if not is_house(e.player_id)]
        await self._dm_each(run, players, called_off)


def ended_early(server: str, place: int, prize: int, language: Language) -> str:
    """What a player's DM says of a tournament ended because its channel was deleted."""
    why = _(
        "The tournament on {server} ended early: its channel was deleted, so the players "
        "still in were placed by the chips they held.",
        server=server,
        language=language,
    )
    if prize:
        # Translators: {place} is an ordinal written by the "{place}th" messages.
        mine = _(
            "You finished **{place}** and won {prize}.",
            place=ordinal(place, language),
            prize=chips(prize, language),
            language=language,
        )
    else:
        # Translators: {place} is an ordinal written by the "{place}th" messages.
        mine = _("You finished **{place}**.", place=ordinal(place, language), language=language)
    return f"{why}\n{mine}"


def rebuy_note(run: Running, player_id: str, until: float, language: Language) -> str:
    """What a table says when one of its players is left without chips with a rebuy open to
    them: what a rebuy costs and gives, and when they are out without one."""
    s = run.state.settings
    # Translators: {when} is a Discord timestamp the client shows as "in a minute"; {price}
    # reads like "10 chips" (the buy-in, from the bankroll).
    return _.plural(
        "💸 {player} has no chips left. They can rebuy {count} chip for the buy-in ({price}), "
        "or they are out {when}.",
        "💸 {player} has no chips left. They can rebuy {count} chips for the buy-in "
        "({price}), or they are out {when}.",
        count=s.starting_stack,
        player=run.name_in_text(player_id),
        price=chips(s.buy_in, language),
        when=kit.when(until),
        language=language,
    )


def level_line(
    index: int, level: Level, following: Level | None, at: float | None, language: Language
) -> str:
    """What a tournament table says before a deal: the level, and the next one's time."""
    stakes = level_label(level, language)
    if following is None or at is None:
        return _("🏆 Level {number}: {stakes}", number=index + 1, stakes=stakes, language=language)
    # Translators: {when} is a Discord timestamp the client shows as "in 5 minutes".
    return _(
        "🏆 Level {number}: {stakes} · next {next_stakes} {when}",
        number=index + 1,
        stakes=stakes,
        next_stakes=level_label(following, language),
        when=kit.when(at),
        language=language,
    )


def results_embed(
    run: Running, table: tuple[tuple[str, int, int], ...], language: Language, limit: int = 4096
) -> discord.Embed:
    """The channel's message at the end of a tournament: the places and the prizes (whole
    lines within ``limit`` characters, the rest counted)."""
    lines = []
    for pid, place, prize in table:
        player, shown = run.name_in_text(pid), ordinal(place, language)
        if prize:
            lines.append(
                _(
                    "**{place}** {player} wins {prize}",
                    place=shown,
                    player=player,
                    prize=chips(prize, language),
                    language=language,
                )
            )
        else:
            lines.append(_("**{place}** {player}", place=shown, player=player, language=language))
    embed = discord.Embed(
        title=_("🏁 Tournament over", language=language),
        description=kit.fit_lines(lines, limit, language=language),
        colour=discord.Colour.gold(),
    )
    embed.set_footer(
        text=_.plural(
            "Prize pool {count} chip, paid to bankrolls.",
            "Prize pool {count} chips, paid to bankrolls.",
            count=run.state.prize_pool,
            language=language,
        )
    )
    return embed


def broken_up(moved: list[tuple[str, int]], language: Language) -> str:
    """What a broken-up table's channel says: who went to which table (a link to each)."""
    lines = [
        _("🧳 This table breaks up; its players play on at the other tables:", language=language)
    ]
    lines.extend(
        # Translators: a player of a table that broke up, and the table they went to.
        _("➡️ {player} → {table}", player=name, table=kit.channel_link(to), language=language)
        for name, to in moved
    )
    return "\n".join(lines)[:2000]


def returned_note(run: Running, returned: dict[str, int], language: Language) -> str:
    """What the table says when its carried pot goes back to the players who put it in."""
    shares = ", ".join(
        # Translators: one player's share of a carried pot given back, like "Ann 120".
        _("{player} {amount}", player=run.name_in_text(pid), amount=given, language=language)
        for pid, given in returned.items()
    )
    return _.plural(
        "↩️ The table loses a player, so the carried pot of {count} chip is not played "
        "for: it goes back to who put it in ({shares}).",
        "↩️ The table loses a player, so the carried pot of {count} chips is not played "
        "for: it goes back to who put it in ({shares}).",
        count=sum(returned.values()),
        shares=shares,
        language=language,
    )


async def setup(bot: PokerBot) -> None:
    cog = Tournaments(bot)
    await bot.add_cog(cog)
    await bot.add_cog(cog.nights)
    kit.move_under_poker(bot, cog.tournament, cog.nights.schedule)


async def teardown(bot: PokerBot) -> None:
    kit.leave_poker(bot, "tournament", "schedule")
