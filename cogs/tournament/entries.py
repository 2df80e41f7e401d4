"""Players paying into a tournament: registering (also late), unregistering before the start,
rebuys and the add-on, and the chips bought put on the stacks before the next deal.

A collaborator of the tournament cog (:class:`cogs.tournament.Tournaments`), which owns one
and hands it the presses: every chip moves through the data layer's tournament pay-in and
refund, saved with the tournament's new state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from cogs import kit
from cogs.tournament.run import (
    Running,
    TournamentProblem,
    channel_language,
    chips,
    engine_refusal,
)
from cogs.translator import _
from data import InsufficientFunds
from engine.tournament import TournamentError
from i18n import Language
from tables.live import LiveTable

if TYPE_CHECKING:
    from cogs.app import PokerBot
    from cogs.tournament.cog import Tournaments

Interaction = discord.Interaction["PokerBot"]


class TournamentEntries:
    """Entries of the tournaments ``tournaments`` runs: who pays in, and the chips bought."""

    def __init__(self, tournaments: Tournaments) -> None:
        # The cog that runs them: its clock, its tournaments by channel and their tables,
        # their lobby messages, and the start and settling that entries can set off.
        self.tournaments = tournaments
        self.bot: PokerBot = tournaments.bot

    async def register(self, interaction: Interaction, run: Running) -> None:
        pid = str(interaction.user.id)
        full = False
        async with kit.held_in_time(run.lock, interaction):
            try:
                registered = run.state.register(pid, run.level(self.tournaments.clock()))
            except TournamentError as exc:
                raise TournamentProblem(engine_refusal(exc)) from exc
            late = registered.status == "running"
            if registered.status != "registering" and not late:
                raise TournamentProblem(_("Registration is closed."))
            names = {**run.names, pid: interaction.user.display_name}
            opened: list[LiveTable] = []
            if late:
                # Every seat taken: the new table's thread first, so that an entry Discord
                # gives no table is refused before it pays.
                opened = await self.tournaments.tables_for_late_entry(run, interaction)
            try:
                # The entry is made on the state as it is when it is saved: a hand ending
                # meanwhile (a player out, under this lock) must not be undone by it, nor
                # undo it.
                async with kit.held_in_time(run.state_lock, interaction):
                    registered = run.state.register(pid, run.level(self.tournaments.clock()))
                    await self.bot.db.tournament_pay_in(
                        run.tournament_id,
                        interaction.user.id,
                        run.state.settings.buy_in,
                        run.state_json(registered, names),
                    )
                    run.state, run.names = registered, names
            except TournamentError as exc:  # (closed meanwhile: the last player out)
                await self.tournaments.close_unused(opened)
                raise TournamentProblem(engine_refusal(exc)) from exc
            except InsufficientFunds as exc:
                await self.tournaments.close_unused(opened)
                raise TournamentProblem(
                    _(
                        "The buy-in is {buy_in} and your bankroll holds {balance}.",
                        buy_in=chips(run.state.settings.buy_in),
                        balance=chips(exc.balance),
                    )
                ) from exc
            except Exception:
                await self.tournaments.close_unused(opened)
                raise
            full = not late and len(registered.entries) >= registered.settings.max_players
        await self.tournaments.refresh_lobby(run, interaction)
        if late:
            # A late entry is alive and not seated: settling gives them a seat and a stack
            # (at a new table when every seat is taken, whose first hand is dealt here).
            await self.tournaments.reconcile(run)
        if full:
            await self.tournaments.begin(run)

    async def unregister(self, interaction: Interaction, run: Running) -> None:
        pid = str(interaction.user.id)
        async with kit.held_in_time(run.lock, interaction):
            try:
                left = run.state.unregister(pid)
            except TournamentError as exc:
                raise TournamentProblem(engine_refusal(exc)) from exc
            await self.bot.db.tournament_refund(
                run.tournament_id,
                interaction.user.id,
                run.state.settings.buy_in,
                run.state_json(left),
            )
            run.state = left
        await self.tournaments.refresh_lobby(run, interaction)

    async def add_pending(self, run: Running, live: LiveTable) -> None:
        """Under the table's lock, before a deal: chips of rebuys and add-ons paid for go on
        the stacks of the players seated here."""
        here = {s.player_id for s in live.engine.seats if s is not None}
        due = {pid: amount for pid, amount in run.pending.items() if pid in here}
        if not due:
            return
        # The table is saved before the tournament: a crash in between leaves the chips on
        # the table and still pending. Every tournament chip is accounted for by the entries,
        # rebuys and add-ons, so such chips are known by the total and not added twice.
        on_tables = sum(t.engine.chips() for t in self.tournaments.tables_of(run))
        applied = on_tables + sum(run.pending.values()) > run.state.chips_in_play
        if not applied:
            for pid, amount in due.items():
                live.engine.add_chips(pid, amount)
        async with run.state_lock:
            pending = {p: c for p, c in run.pending.items() if p not in due}
            if not applied:
                await self.bot.tables.seat_tournament_locked(live, {}, [], {})
            run.pending = pending
            await self.bot.db.save_tournament(run.tournament_id, "running", run.state_json())

    async def buy_more(
        self, interaction: Interaction, addon: bool, run: Running | None = None
    ) -> None:
        """A rebuy (a busted or short player buys a starting stack) or the add-on, in ``run``
        (default: the channel's tournament)."""
        run = run or self.tournaments.here(interaction)
        pid = str(interaction.user.id)
        s = run.state.settings
        async with kit.held_in_time(run.lock, interaction), run.state_lock:
            level = run.level(self.tournaments.clock())
            stack = self.tournaments.chips_of(run, pid)
            if not run.state.registered(pid):
                raise TournamentProblem(_("You are not in this tournament."))
            try:
                bought = (
                    run.state.addon(pid, level) if addon else run.state.rebuy(pid, level, stack)
                )
            except TournamentError as exc:
                raise TournamentProblem(engine_refusal(exc)) from exc
            more = s.addon_stack if addon else s.starting_stack
            # A player who had no chips has nothing left to decide.
            until = {p: t for p, t in run.rebuy_until.items() if p != pid}
            pending = {**run.pending, pid: run.pending.get(pid, 0) + more}
            previous = run.pending
            run.pending = pending
            try:
                await self.bot.db.tournament_pay_in(
                    run.tournament_id,
                    interaction.user.id,
                    s.buy_in,
                    run.state_json(bought, rebuy_until=until),
                    note="add-on" if addon else "rebuy",
                )
            except InsufficientFunds as exc:
                run.pending = previous
                raise TournamentProblem(
                    _(
                        "It costs {buy_in} and your bankroll holds {balance}.",
                        buy_in=chips(s.buy_in),
                        balance=chips(exc.balance),
                    )
                ) from exc
            except Exception:
                run.pending = previous
                raise
            run.state, run.rebuy_until = bought, until
        await kit.announce(
            interaction,
            bought_text(interaction.user.mention, addon, more, channel_language(run.guild_id)),
        )
        # A table between hands gets the chips now (a lone stack could not deal otherwise).
        for live in self.tournaments.tables_of(run):
            if not live.engine.in_hand:
                async with live.lock:
                    if not live.engine.in_hand and not live.closed:
                        await self.add_pending(run, live)
                await self.bot.presenter.refresh(live)
        self.tournaments.spawn(self.tournaments.refresh_lobby(run))


def bought_text(player: str, addon: bool, more: int, language: Language) -> str:
    """What the channel reads when a player buys a rebuy or the add-on."""
    if addon:
        return _.plural(
            "{player} buys the add-on: {count} more chip.",
            "{player} buys the add-on: {count} more chips.",
            count=more,
            player=player,
            language=language,
        )
    return _.plural(
        "{player} buys a rebuy: {count} more chip.",
        "{player} buys a rebuy: {count} more chips.",
        count=more,
        player=player,
        language=language,
    )
