"""The table service: every open table, one lock each, saved to the database after every
change (SQLite or PostgreSQL: the data layer's business).

It joins the engine (every poker rule) to the data layer (every chip and byte on disk) and
makes no Discord call: each change is handed as an :class:`~tables.live.Outcome` to the
presenter (:class:`cogs.presenter.TablePresenter`). The bot owns one, as ``bot.tables``.
Two collaborators do the rest: :class:`~tables.records.TableRecords` writes tables to disk,
:class:`~tables.clock.TableClock` runs their timers and house players' turns.

Legality has one source, the engine. Its refusals (:class:`engine.IllegalAction`,
:class:`engine.TableError`) and the data layer's (:class:`data.DataError`) come back as a
:class:`~tables.errors.TableProblem` worded for the player who asked; anything else is a bug.

Crash safety: the engine snapshot is saved in the same transaction as the chips it moves or
with the hand's new events; :meth:`TableService.restore` rebuilds every open table from it.
Fair shuffles: decks come from :mod:`secrets`, and the deal's commitment (the Merkle root of
:class:`engine.commitment.DealCommitment`) is shown before the first action (``/poker verify``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import NamedTuple

import engine
from data import Database, DataError, InsufficientFunds, TableClosed, TableExists
from data.models import Table as TableRow
from engine import Action, HandResult, IllegalAction, Table, TableConfig, TableError
from engine.house import Level
from engine.seating import (
    ACTION_SECONDS,
    AUTO_DEAL_SECONDS,
    BuyIns,
    SeatRefused,
    house_id,
    house_level,
    is_house,
    sits_out_after,
)
from engine.timebank import TIME_BANK_SECONDS, PreAction, pre_action_move
from i18n.engine_text import engine_text
from i18n.engine_text import refusal as engine_refusal
from tables.clock import TableClock, people_playing
from tables.errors import TableProblem
from tables.live import (
    LiveTable,
    Meta,
    Outcome,
    Presenter,
    SavedPresentation,
    TableSettings,
    TimedOut,
    TournamentHooks,
    Version,
    house_name,
)
from tables.records import TableRecords, closing_payouts, saved_meta, voided_table
from tables.translator import _, table_language

log = logging.getLogger("poker.tables")

__all__ = ["StalePress", "TableProblem", "TableService", "refusal"]


class StalePress(TableProblem):
    """A button of an older state of the table: the message it was on needs redrawing."""


# Errors that mean "refused, nothing changed": the engine's and the data layer's. A bare
# ValueError is not one of them: from here it can only be a bug.
REFUSED: tuple[type[Exception], ...] = (IllegalAction, TableError, DataError)


def refusal(exc: Exception, user_id: int | None = None) -> TableProblem:
    """The engine's or the data layer's reason, as a sentence to the player who asked.

    The engine names players by id; the one asking is "you".

    >>> str(refusal(IllegalAction("it is not 42's turn to act"), 42))
    'It is not your turn to act.'
    >>> str(refusal(TableError("42 is not seated at this table"), 42))
    'You are not seated at this table.'

    In another language the player is named by a mention (shown as their name). The data
    layer's refusals a player can meet are worded here (its own texts are for the log):

    >>> str(refusal(InsufficientFunds(1, 42, 100, 400), 42))
    'Not enough chips: your bankroll holds 100, and 400 are needed.'
    """
    worded = _data_refusal(exc) if isinstance(exc, DataError) else None
    if worded is not None:
        problem = TableProblem(worded)
        problem.__cause__ = exc
        return problem
    english = str(exc).strip()
    text = engine_refusal(exc).strip() or _("That can't be done right now")
    if user_id is not None:
        pid = re.escape(str(user_id))
        if text == english:
            # The engine names players by id; in English the one asking is "you".
            text = re.sub(rf"\b{pid} is\b", "you are", text)
            text = re.sub(rf"\b{pid}'s\b", "your", text)
            text = re.sub(rf"\b{pid}\b", "you", text)
        else:
            # Another language's grammar is not rewritten: the id becomes a mention, which
            # Discord shows as the player's own name.
            text = re.sub(rf"(?<![<@\d]){pid}\b", f"<@{user_id}>", text)
    text = text[0].upper() + text[1:]
    problem = TableProblem(text if text.endswith((".", "!", "?")) else f"{text}.")
    problem.__cause__ = exc
    return problem


def _data_refusal(exc: DataError) -> str | None:
    """A data-layer refusal a player can meet, in the player's language (None: another)."""
    if isinstance(exc, InsufficientFunds):
        # Translators: {balance} and {needed} are numbers of chips.
        return _(
            "Not enough chips: your bankroll holds {balance}, and {needed} are needed.",
            balance=exc.balance,
            needed=exc.needed,
        )
    if isinstance(exc, TableClosed):
        return _("This table has been closed.")
    if isinstance(exc, TableExists):
        return _("This channel already has a table. Use `/poker end` first.")
    return None


def _cash_table_only(live: LiveTable) -> None:
    """Seats at a tournament's table come from the tournament, never from a bankroll."""
    if live.meta.tournament is not None:
        raise TableProblem(
            _(
                "This is a tournament table: players are seated by the tournament, and its "
                "chips stay in it until it ends."
            )
        )


def _buy_ins(live: LiveTable) -> BuyIns:
    """The table's buy-in range, for the engine's buy-in and rebuy policy."""
    return BuyIns(live.settings.min_buy_in, live.settings.max_buy_in)


PRE_ACTION_REFUSALS = {
    "no-hand": _.lazy("No hand is being played: pre-actions are for the hand in play."),
    "not-in-hand": _.lazy("You have no decision to come in this hand."),
    "your-turn": _.lazy("It's your turn: act on the table."),
}
"""Why a pre-action cannot be ticked now (:meth:`TableService.pre_action_refusal`)."""

PRESENTATION_SAVE_DELAY = 3.0
"""Seconds after a change of the presenter's state (a turn ping posted) within which the
table's next snapshot is expected to carry it; past them it is saved on its own."""


class Leaving(NamedTuple):
    """What :meth:`TableService.leave` did: the chips paid out now (None: when the hand in
    progress ends), and the change standing up made to that hand (a fold), which the caller
    shows once it has answered (Discord may be slow to take the table's edit)."""

    paid: int | None
    outcome: Outcome | None = None


class SettingsChange(NamedTuple):
    """What :meth:`TableService.update_settings` did: the table's settings now, and the latest
    house rules (those of the next deal) just before and just after the change."""

    settings: TableSettings
    rules_before: engine.TableOptions
    rules_after: engine.TableOptions


class ClosedAtRestore(NamedTuple):
    """A table the restore had to close (:meth:`TableService.restore`), for the bot to say
    so where its message stands: who was paid what (user id -> chips), with the names and
    language the table had."""

    table_id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    payouts: dict[int, int]
    names: dict[str, str]
    language: str | None
    voided: bool  # a hand was in progress (it is void)


class TableService:
    """Every open table of the process, and the operations on them."""

    def __init__(
        self,
        db: Database,
        presenter: Presenter,
        *,
        now: Callable[[], float] = time.time,
        owner: str = "",
    ) -> None:
        self.db = db
        self.presenter = presenter
        self.now = now
        self.records = TableRecords(db)
        self.clock = TableClock(
            now=lambda: self.now(),  # read through the service: a test may set its clock
            expire=self.expire,
            deal=self._start_locked,
            after_change=self._after_change,
            present=self._present,
        )
        self.tables: dict[int, LiveTable] = {}
        self.by_channel: dict[int, int] = {}
        # Tables another process holds (table id / channel id -> its name): left alone here.
        self.owner = owner or f"pid {os.getpid()}"
        self.elsewhere: dict[int, str] = {}
        self.elsewhere_channels: dict[int, str] = {}
        self.presentation_save_delay = PRESENTATION_SAVE_DELAY
        # Set by the tournament cog: levels and eliminations at tournament tables.
        self.hooks: TournamentHooks | None = None
        # Tables the restore closed (it could not rebuild them), until the bot has said so.
        self.closed_at_restore: list[ClosedAtRestore] = []
        # Tournaments with a table the restore could not rebuild: the tournament cog calls
        # them off when it restores them (it alone can pay their players back).
        self.tournaments_unrestored: set[int] = set()

    # -- lookup -------------------------------------------------------------------------------

    def in_channel(self, channel_id: int) -> LiveTable | None:
        table_id = self.by_channel.get(channel_id)
        return self.tables.get(table_id) if table_id is not None else None

    def get(self, table_id: int) -> LiveTable | None:
        return self.tables.get(table_id)

    def check_not_elsewhere(self, *, table_id: int = 0, channel_id: int = 0) -> None:
        """Refuse a table that another process of the bot drives (see :meth:`restore`)."""
        owner = self.elsewhere.get(table_id) or self.elsewhere_channels.get(channel_id)
        if owner is not None:
            raise TableProblem(
                _(
                    "This table is run by another process of the bot ({owner}) while servers "
                    "move between processes. Try again in a minute; nothing was changed.",
                    owner=owner,
                )
            )

    # -- life cycle ---------------------------------------------------------------------------

    async def restore(self, owns: Callable[[int], bool] | None = None) -> list[LiveTable]:
        """Rebuild every open table from its last snapshot (after a restart or a crash).

        With ``owns``, only the tables of the servers it accepts: another process drives the
        rest (each server's tables belong to the process holding its gateway shard).
        """
        rows = [r for r in await self.db.open_tables() if owns is None or owns(r.guild_id)]
        return await self._take(rows)

    async def adopt(self, owns: Callable[[int], bool] | None = None) -> list[LiveTable]:
        """Take over the tables another process held when this one started, once it has let
        them go (it stopped, or died and the database dropped its claims); returns them.

        Tables it closed meanwhile are forgotten. Called now and then by the bot."""
        if not self.elsewhere:
            return []
        rows = {
            r.table_id: r
            for r in await self.db.open_tables()
            if r.table_id in self.elsewhere and (owns is None or owns(r.guild_id))
        }
        for table_id in [t for t in self.elsewhere if t not in rows]:
            self.elsewhere.pop(table_id)
        self.elsewhere_channels = {r.channel_id: self.elsewhere[r.table_id] for r in rows.values()}
        return await self._take(list(rows.values()))

    async def _take(self, rows: list[TableRow]) -> list[LiveTable]:
        restored = []
        # Two processes can both believe a server is theirs while shards move: the database
        # gives each table to one of them, and the other leaves it alone.
        claim = await self.db.claim_tables(self.owner, [r.table_id for r in rows])
        for row in rows:
            if row.table_id in claim.refused:
                holder = claim.refused[row.table_id]
                if row.table_id not in self.elsewhere:
                    log.warning("table %s is run by %s: not restored", row.table_id, holder)
                self.elsewhere[row.table_id] = holder
                self.elsewhere_channels[row.channel_id] = holder
                continue
            if self.elsewhere.pop(row.table_id, None) is not None:
                self.elsewhere_channels.pop(row.channel_id, None)
                log.warning("table %s: its other process let it go; taken over", row.table_id)
            try:
                state = json.loads(row.state_json or "{}")
                settings = TableSettings(**state["settings"])
                meta = saved_meta(state, row.current_hand_id)
                presentation = SavedPresentation.from_snapshot(state)
                unplayable: tuple[Exception, dict[str, int]] | None = None
                try:
                    table = Table.from_dict(state["engine"])
                except (KeyError, ValueError, TypeError) as exc:
                    # This version's rules cannot play the saved hand on (a rule changed
                    # since): the table comes back with that hand voided, if it can.
                    if meta.hand is None:
                        raise
                    table, owed = voided_table(state["engine"], set(meta.hand.start_stacks))
                    unplayable = (exc, owed)
            except (KeyError, ValueError, TypeError) as exc:
                await self._close_unrestorable(row, exc)
                continue
            live = LiveTable(
                row.table_id,
                row.guild_id,
                row.channel_id,
                row.creator_id,
                table,
                settings,
                meta,
                presentation,
            )
            live.last_private = live.engine.held_cards()
            self._register(live)
            restored.append(live)
            async with live.lock:
                if unplayable is not None and live.meta.hand is not None:
                    refusal, owed = unplayable
                    await self.records.void_unplayable(live, live.meta.hand, owed, refusal)
                elif live.meta.hand is not None and not live.engine.in_hand:
                    # Saved in progress, over on replay: this version's rules ended it (a
                    # rule changed since). Its end is recorded now, as if it had just come.
                    log.warning("table %s: its saved hand ends on replay; recorded", live.id)
                    with contextlib.suppress(TableProblem):  # (logged; the others go on)
                        await self._after_change(live, len(live.engine.events))
                # A crash between the end of a hand and its payouts leaves chips owed: pay
                # them now.
                await self.records.pay_leavers(live)
            self.clock.schedule(live)
        return restored

    async def _close_unrestorable(self, row: TableRow, exc: Exception) -> None:
        """A cash table this version cannot rebuild at all (its game or options are no longer
        valid, say): rather than leave it dark with its players' chips on it and its channel
        taken, close it, paying every chip back as a close would. A snapshot that cannot even
        be read that far, or payouts the database refuses, leave it as it is (logged)."""
        log.error("table %s could not be restored: %s", row.table_id, exc)
        if row.tournament_id is not None:
            # Tournament chips are not bankrolls: the tournament's restore calls it off.
            self.tournaments_unrestored.add(row.tournament_id)
            return
        try:
            state = json.loads(row.state_json or "{}")
            meta = saved_meta(state, row.current_hand_id)
            payouts = closing_payouts(state["engine"], meta)
            message_id = SavedPresentation.from_snapshot(state).saved().get("message_id")
        except (KeyError, ValueError, TypeError) as why:
            log.error(
                "table %s left open: its payouts cannot be read either: %s", row.table_id, why
            )
            return
        try:
            await self.db.close_table(row.table_id, payouts)
        except DataError as why:
            log.error("table %s left open: closing it was refused: %s", row.table_id, why)
            return
        log.warning("table %s closed at the restore; paid out %s", row.table_id, payouts)
        self.closed_at_restore.append(
            ClosedAtRestore(
                row.table_id,
                row.guild_id,
                row.channel_id,
                message_id if isinstance(message_id, int) else None,
                payouts,
                meta.names,
                meta.language,
                meta.hand is not None,
            )
        )

    async def shutdown(self) -> None:
        """Stop every table for a clean exit: its clock stops, the change being made at it
        finishes (its lock is taken), a standing turn ping is saved, and nothing starts after
        (a deal or timeout waiting for the lock finds the table closed). Restarting restores
        each table from its last snapshot, as after a crash."""
        for live in self.tables.values():
            self.clock.cancel_timers(live)
        for live in list(self.tables.values()):
            if live.presentation_save is not None:
                live.presentation_save.cancel()
                await self._save_presentation(live)
            async with live.lock:
                live.closed = True
        self.clock.cancel_all()

    def _register(self, live: LiveTable) -> None:
        self.tables[live.id] = live
        self.by_channel[live.channel_id] = live.id

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        config: TableConfig,
        settings: TableSettings,
    ) -> LiveTable:
        if self.hooks is not None and self.hooks.holds_channel(channel_id):
            # The tournament opens its table here when it starts: a cash table would stop it.
            raise TableProblem(
                _("This channel holds a tournament: open the table in another channel.")
            )
        config_json = json.dumps(config.to_dict())
        return await self._open(
            LiveTable(0, guild_id, channel_id, creator_id, Table(config), settings, Meta()),
            lambda live: self.db.create_table(
                guild_id, channel_id, creator_id, config_json, state_json=live.state_json()
            ),
        )

    async def _open(
        self, live: LiveTable, insert: Callable[[LiveTable], Awaitable[TableRow]]
    ) -> LiveTable:
        """Register a new table made by ``insert`` (its row in the database), refusing a
        channel that has one here or in another process."""
        if self.in_channel(live.channel_id) is not None:
            raise TableProblem(_("This channel already has a table. Use `/poker end` first."))
        self.check_not_elsewhere(channel_id=live.channel_id)
        try:
            row = await insert(live)
        except REFUSED as exc:
            raise refusal(exc) from exc
        live.id = row.table_id
        # A new id: nobody else can hold it; claimed so that no other process restores it.
        await self.db.claim_tables(self.owner, [live.id])
        self._register(live)
        return live

    async def set_message(self, live: LiveTable, message_id: int) -> None:
        """The table has a new public message (the one its buttons are on; the presenter's
        state names it already): written to the table's row and its snapshot."""
        if live.closed:
            return
        async with live.lock:
            if live.closed:
                return
            await self.records.set_message(live, message_id)

    def keep_presentation(self, live: LiveTable) -> None:
        """The presenter's state changed (a turn ping posted or gone): it is written with the
        table's next snapshot, or on its own after ``presentation_save_delay`` seconds if no
        other change comes first. A ping waits as long as its player takes, the likeliest
        time for a restart, but a save of its own for every turn would double the writes of a
        busy table. A clean shutdown writes it at once."""
        if live.closed or live.presentation_save is not None:
            return
        live.presentation_save = asyncio.get_running_loop().call_later(
            self.presentation_save_delay,
            lambda: self.clock.spawn(self._save_presentation(live)),
        )

    async def _save_presentation(self, live: LiveTable) -> None:
        """Write the presenter's state if no snapshot has carried it since it changed."""
        async with live.lock:
            live.presentation_save = None
            if live.closed or live.saved_presentation == live.presentation.saved():
                return  # a snapshot written since carried it
            try:
                await self.records.save(live)
            except Exception:
                log.exception("table %s: saving the presenter's state failed", live.id)

    async def add_note(self, live: LiveTable, note: str) -> bool:
        """Show ``note`` on the table until the next deal (saved with it); False when the
        table is closed."""
        async with live.lock:
            if live.closed:
                return False
            live.meta.notes.append(note)
            await self.records.save(live)
            return True

    async def end(self, live: LiveTable) -> dict[int, int]:
        """Close the table; every stack (and any chips in the middle, to their owners)
        goes back to the bankrolls. Refused while a hand is being played."""
        _cash_table_only(live)
        async with live.lock:
            if live.engine.in_hand:
                # The engine would refuse too; this says what to do about it.
                raise TableProblem(_("A hand is in progress: end the table when it is over."))
            return await self._end_locked(live)

    async def end_after_hand(self, live: LiveTable, user_id: int) -> bool:
        """Remember that the table is to close once the hand in progress is over. Returns
        False when no hand is in progress (the caller ends it now)."""
        _cash_table_only(live)
        async with live.lock:
            if not live.engine.in_hand:
                return False
            live.meta.end_requested = user_id
            await self.records.save(live)
            return True

    async def abandon(self, live: LiveTable, why: str) -> dict[int, int] | None:
        """The table's channel is gone (deleted, or the bot removed from its server): nobody
        can see it, act at it or leave it any more, so it closes now and every stack goes
        back to its bankroll; a hand in progress is void (every chip back where it was at the
        deal). Returns the payouts; None for a tournament's table (its chips belong to the
        tournament: its players play on at another of its tables, see
        :meth:`TournamentHooks.table_gone`) or a table already closed."""
        if live.meta.tournament is not None:
            log.warning("tournament table %s: %s; its players move", live.id, why)
            if self.hooks is not None:
                await self.hooks.table_gone(live, why)
            return None
        async with live.lock:
            if live.closed:
                return None
            await self.void_gone_hand_locked(live, why)
            payouts = await self._end_locked(live)
        log.warning("table %s closed: %s; paid out %s", live.id, why, payouts)
        return payouts

    def in_guild(self, guild_id: int) -> list[LiveTable]:
        """The open tables of server ``guild_id`` driven by this process."""
        return [live for live in self.tables.values() if live.guild_id == guild_id]

    async def _end_locked(self, live: LiveTable) -> dict[int, int]:
        """Close the table now (under its lock, between hands): see :meth:`end`."""
        try:
            # The engine's one rule: stacks, leavers' payouts and the carried pot (shared
            # from the dealer's left).
            closing = live.engine.close()
        except TableError as exc:
            await self._reload(live)
            raise refusal(exc) from exc
        payouts: dict[int, int] = {}
        # Stacks of players who left in a hand whose bankroll payout is still to be made.
        for pid, amount in [*closing.items(), *live.meta.owed.items()]:
            payouts[int(pid)] = payouts.get(int(pid), 0) + amount
        live.meta.owed = {}
        try:
            await self.records.close(live, payouts)
        except Exception:
            await self._reload(live)
            raise
        live.closed = True
        self.clock.cancel_timers(live)
        self.tables.pop(live.id, None)
        self.by_channel.pop(live.channel_id, None)
        return payouts

    # -- tournament tables ----------------------------------------------------------------------

    async def create_tournament_table(
        self,
        tournament_id: int,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        config: TableConfig,
        settings: TableSettings,
    ) -> LiveTable:
        """A table of the tournament in ``channel_id``, empty until :meth:`seat_tournament`."""
        config_json = json.dumps(config.to_dict())
        meta = Meta(tournament=tournament_id)
        return await self._open(
            LiveTable(0, guild_id, channel_id, creator_id, Table(config), settings, meta),
            lambda live: self.db.create_tournament_table(
                tournament_id, channel_id, config_json, live.state_json()
            ),
        )

    async def seat_tournament_locked(
        self, live: LiveTable, seat: dict[str, int], unseat: list[str], names: dict[str, str]
    ) -> dict[str, int]:
        """Under the table's lock, between hands: sit ``seat`` players (id -> tournament
        chips) and stand ``unseat`` players up; returns the stacks of those stood up."""
        taken: dict[str, int] = {}
        for pid in unseat:
            if live.seated(int(pid)):
                taken[pid] = live.engine.leave(pid) or 0
        for pid, stack in seat.items():
            live.engine.sit(pid, stack)
            live.meta.names[pid] = names.get(pid, pid)
        try:
            await self.records.seat_tournament(live)
        except Exception:
            await self._reload(live)
            raise
        self.clock.schedule(live)
        return taken

    async def void_gone_hand_locked(self, live: LiveTable, why: str) -> None:
        """Under the table's lock: the hand in progress can never be played on (its channel
        is gone), so it is void, every stack back to the deal."""
        info = live.meta.hand
        if live.engine.in_hand and info is not None:
            await self.records.abandon_hand(live, info, why)

    def forget(self, live: LiveTable) -> None:
        """The table was closed in the database with its tournament: drop it here."""
        live.closed = True
        self.clock.cancel_timers(live)
        self.tables.pop(live.id, None)
        self.by_channel.pop(live.channel_id, None)

    # -- seats --------------------------------------------------------------------------------

    async def join(
        self,
        live: LiveTable,
        user_id: int,
        name: str,
        buy_in: int | None,
        seat_choice: int | None = None,
    ) -> int:
        _cash_table_only(live)
        try:
            amount = _buy_ins(live).buy_in(buy_in)
        except SeatRefused as exc:
            raise TableProblem(engine_refusal(exc)) from exc
        limit = (await self.db.get_settings(live.guild_id)).max_tables_per_player
        async with live.lock:
            self.check_open_for_seats(live)
            # House players have no limit: each is a seat of its own table.
            if not is_house(user_id):
                # Counted and taken with no await between: two sits at once cannot both pass.
                self._check_table_limit(live, user_id, limit)
            try:
                seat = live.engine.sit(str(user_id), amount, seat_choice)
            except REFUSED as exc:
                raise refusal(exc, user_id) from exc
            live.meta.names[str(user_id)] = name
            live.meta.misses.pop(str(user_id), None)
            try:
                await self.records.buy_in(live, user_id, amount, seat)
            except REFUSED as exc:
                await self._reload(live)
                raise refusal(exc, user_id) from exc
            if not live.engine.in_hand:  # (in a hand: the actor's clock runs on)
                self.clock.schedule(live)  # a table short of players deals again by itself
            return seat

    @staticmethod
    def check_open_for_seats(live: LiveTable) -> None:
        """No one sits down at a table that closes when the hand in play is over (``/poker
        end`` was asked during it): they would only be paid back at once. (Also asked before
        a Sit down form is shown.)"""
        if live.meta.end_requested is not None:
            raise TableProblem(
                _(
                    "This table closes as soon as the hand in play is over (`/poker end`): "
                    "no one can sit down now."
                )
            )

    def _check_table_limit(self, live: LiveTable, user_id: int, limit: int) -> None:
        """Refuse a member a seat at ``live`` if it would be more than ``limit`` tables of its
        server (the server's ``max_tables_per_player``) at once."""
        held = sum(
            1
            for other in self.tables.values()
            if other is not live and other.guild_id == live.guild_id and other.seated(user_id)
        )
        if held >= limit:
            raise TableProblem(
                _.plural(
                    "You are seated at {count} table of this server, the most one member may "
                    "hold at once here. Leave one to sit down here.",
                    "You are seated at {count} tables of this server, the most one member may "
                    "hold at once here. Leave one to sit down here.",
                    count=held,
                )
            )

    async def add_house(self, live: LiveTable, level: Level) -> int:
        """Seat a house player of ``level`` with the table's smallest buy-in, paid from the
        server's house account (the data layer issues it ``house_fund`` chips if it lacks
        them); returns its seat."""
        _cash_table_only(live)
        seated = {s.player_id for s in live.engine.public_view().seats}
        number = next(n for n in range(1, 100) if str(house_id(level, n)) not in seated)
        user_id = house_id(level, number)
        amount = live.settings.min_buy_in
        name = house_name(str(user_id), table_language(live))
        assert name is not None
        return await self.join(live, user_id, name, amount)

    async def remove_house(self, live: LiveTable) -> tuple[str, Leaving]:
        """Stand the last seated house player up (its chips back to the house account now, or
        when the hand ends); its name and what standing up did."""
        seats = live.engine.public_view().seats
        house = [s.player_id for s in seats if house_level(s.player_id)]
        if not house:
            raise TableProblem(_("No house player sits at this table."))
        # One already leaving (stood up during this hand) is not stood up again.
        staying = [s.player_id for s in seats if house_level(s.player_id) and not s.leaving]
        if not staying:
            raise TableProblem(
                _("Every house player at this table already stands up when this hand ends.")
            )
        pid = staying[-1]
        name = live.names.get(pid, pid)
        return name, await self.leave(live, int(pid))

    async def rebuy(self, live: LiveTable, user_id: int, amount: int | None) -> int:
        """Add chips from the bankroll to a seated player's stack between hands (or during a
        hand they were not dealt into), keeping the stack within the table's largest buy-in
        (default: up to the smallest one). Returns the chips added."""
        _cash_table_only(live)
        async with live.lock:
            pid = str(user_id)
            if not live.seated(user_id):
                raise TableProblem(_("You are not seated at this table: sit down first."))
            try:
                amount = _buy_ins(live).rebuy(live.engine.stack(pid), amount)
            except SeatRefused as exc:
                raise TableProblem(engine_refusal(exc)) from exc
            try:
                live.engine.add_chips(pid, amount)
            except REFUSED as exc:
                raise refusal(exc, user_id) from exc
            try:
                await self.records.buy_in(live, user_id, amount)
            except REFUSED as exc:
                await self._reload(live)
                raise refusal(exc, user_id) from exc
            if not live.engine.in_hand:  # (in a hand: the actor's clock runs on)
                self.clock.schedule(live)  # a busted table deals again by itself
            return amount

    async def leave(self, live: LiveTable, user_id: int) -> Leaving:
        """Stand up: the stack goes back to the bankroll now, or when the current hand ends
        (see :class:`Leaving`)."""
        _cash_table_only(live)
        async with live.lock:
            pid = str(user_id)
            outcome_events_from = len(live.engine.events)
            try:
                paid = live.engine.leave(pid)
            except REFUSED as exc:
                raise refusal(exc, user_id) from exc
            try:
                if paid is not None:
                    await self.records.cash_out(live, user_id, paid)
                    return Leaving(paid)
            except REFUSED as exc:
                await self._reload(live)
                raise refusal(exc, user_id) from exc
            # Leaving during a hand folds it; that may end the hand.
            return Leaving(None, await self._after_change(live, outcome_events_from))

    async def update_settings(
        self,
        live: LiveTable,
        *,
        action_seconds: int | None = None,
        auto_deal_seconds: int | None = None,
        min_buy_in: int | None = None,
        max_buy_in: int | None = None,
        coach: bool | None = None,
        rules: Callable[[engine.TableOptions], engine.TableOptions | None] | None = None,
        time_bank: int | None = None,
    ) -> SettingsChange:
        """Change the table's bot-side settings and its house rules (None = unchanged; the
        engine says when new house rules take effect); saved with the table.

        ``rules`` makes the new house rules from those waiting for the next deal as they are
        once the table is free: another change that was served first is built on, not undone.
        """
        async with live.lock:
            clock_or_buy_ins = (
                action_seconds,
                auto_deal_seconds,
                min_buy_in,
                max_buy_in,
                time_bank,
            )
            if live.meta.tournament is not None and (
                rules is not None or any(value is not None for value in clock_or_buy_ins)
            ):
                # Its clock, stacks and rules are the tournament's, the same at every table
                # (a manual deal here would hold the whole tournament up).
                raise TableProblem(_("A tournament table plays by the tournament's rules."))
            if live.meta.tournament is not None and coach:
                # The coach is a cash table's helper: a tournament is played unaided (turning
                # it off stays allowed, for a table saved with it on).
                raise TableProblem(
                    _("The coach helps at cash tables only: a tournament table plays without it.")
                )
            new = TableSettings(
                min_buy_in=live.settings.min_buy_in if min_buy_in is None else min_buy_in,
                max_buy_in=live.settings.max_buy_in if max_buy_in is None else max_buy_in,
                action_seconds=(
                    live.settings.action_seconds if action_seconds is None else action_seconds
                ),
                auto_deal_seconds=(
                    live.settings.auto_deal_seconds
                    if auto_deal_seconds is None
                    else auto_deal_seconds
                ),
                coach=live.settings.coach if coach is None else coach,
                time_bank=live.settings.time_bank if time_bank is None else time_bank,
            )
            if not 0 < new.min_buy_in <= new.max_buy_in:
                raise TableProblem(
                    _("The smallest buy-in must be positive and at most the largest.")
                )
            shortest, longest = ACTION_SECONDS
            if not shortest <= new.action_seconds <= longest:
                raise TableProblem(
                    _(
                        "The action timer is {shortest} to {longest} seconds.",
                        shortest=shortest,
                        longest=longest,
                    )
                )
            shortest, longest = AUTO_DEAL_SECONDS
            if not shortest <= new.auto_deal_seconds <= longest:
                raise TableProblem(
                    _(
                        "The pause between hands is {shortest} to {longest} seconds.",
                        shortest=shortest,
                        longest=longest,
                    )
                )
            shortest, longest = TIME_BANK_SECONDS
            if not shortest <= new.time_bank <= longest:
                raise TableProblem(
                    _(
                        "The time bank is {shortest} to {longest} seconds.",
                        shortest=shortest,
                        longest=longest,
                    )
                )
            old = live.settings
            old_options = live.engine.next_options
            options = rules(old_options) if rules is not None else None
            if options is not None:
                try:
                    live.engine.set_options(options)
                except TableError as exc:
                    raise TableProblem(
                        _(
                            "That house rule doesn't fit this table: {reason}.",
                            reason=engine_refusal(exc).rstrip("."),
                        )
                    ) from exc
            live.settings = new
            old_banks = dict(live.meta.banks)
            if not old.bank.on and new.bank.on:
                # Banks turned on: the empty ones kept while they were off were never banks;
                # everyone starts with a full one, as a player sitting down does.
                live.meta.banks.clear()
            try:
                await self.records.save(live)
            except Exception:
                live.settings = old
                live.meta.banks = old_banks
                if options is not None:
                    live.engine.set_options(old_options)
                raise
            if new.auto_deal_seconds != old.auto_deal_seconds and not live.engine.in_hand:
                # Between hands the next deal follows the new pause now: a deal counted down
                # by the old one is called off (manual deal) or restarted, and one is
                # counted down where there was none.
                self.clock.cancel_auto_deal(live)
                self.clock.schedule(live)
            return SettingsChange(new, old_options, live.engine.next_options)

    async def sit_out(self, live: LiveTable, user_id: int, out: bool) -> None:
        async with live.lock:
            try:
                if out:
                    live.engine.sit_out(str(user_id))
                else:
                    live.engine.sit_in(str(user_id))
                    live.meta.misses.pop(str(user_id), None)
            except REFUSED as exc:
                raise refusal(exc, user_id) from exc
            await self.records.save(live)
            if not out and not live.engine.in_hand:
                self.clock.schedule(live)  # a table short of players deals again by itself

    # -- hands --------------------------------------------------------------------------------

    async def start_hand(self, live: LiveTable) -> Outcome:
        async with live.lock:
            outcome = await self._start_locked(live)
        return outcome

    async def start_first_hand(self, live: LiveTable) -> Outcome | None:
        """Deal a table's first hand if it has none yet and can deal now; None otherwise
        (closed, already dealt, short of players). Checked under the table's lock, so that
        two callers who saw the same new table (a late entry's settling and a balancing that
        seated its second player) deal it once: the second is told None, not refused. Later
        hands are the clock's (auto-deal) or a player's."""
        async with live.lock:
            if (
                live.closed
                or live.engine.in_hand
                or live.engine.hand_number > 0
                or live.engine.can_start() is not None
            ):
                return None
            return await self._start_locked(live)

    async def _start_locked(self, live: LiveTable) -> Outcome:
        if live.closed:
            raise TableProblem(_("This table has been closed."))
        if live.engine.in_hand:
            raise TableProblem(_("A hand is already being played."))
        reason = live.engine.can_start()
        if reason is not None:
            raise TableProblem(_("Can't deal yet: {reason}.", reason=engine_text(reason)))
        if live.meta.tournament is None and not people_playing(live):
            raise TableProblem(_("Can't deal: house players don't play among themselves."))
        banner: list[str] = []
        if live.meta.tournament is not None and self.hooks is not None:
            banner = await self.hooks.before_deal(live)
        self.clock.cancel_auto_deal(live)
        # Every draw comes from the operating system: the reshuffle seed may be revealed after
        # the hand, and nothing else (in dealer's choice, the deck's own seed) may follow from
        # it. The commitment is published when the cards are dealt, before anyone acts.
        rng = secrets.SystemRandom()
        events = live.engine.start_hand(rng)
        live.meta.notes = list(banner)
        self._refill_banks(live)
        return await self._after_change(live, 0, events=events, new_hand=True)

    async def act(
        self, live: LiveTable, user_id: int, action: Action, *, version: Version | None = None
    ) -> Outcome:
        """Apply one player's action. ``version`` (from the button pressed) must match the
        table's, so a stale or doubled press changes nothing."""
        async with live.lock:
            self.check_fresh(live, version)
            start = len(live.engine.events)
            try:
                live.engine.act(str(user_id), action)
            except REFUSED as exc:
                raise refusal(exc, user_id) from exc
            pid = str(user_id)
            live.meta.misses.pop(pid, None)
            live.meta.pre_actions.pop(pid, None)  # acting by hand replaces a ticked one
            self._stop_bank(live, pid)
            return await self._after_change(live, start)

    @staticmethod
    def check_fresh(live: LiveTable, version: Version | None) -> None:
        """Refuse a press made on an older state of the table (``None``: no version to check).

        :raises StalePress: the table has moved on since the pressed message was drawn.
        """
        if version is not None and version != live.version():
            raise StalePress(_("That button is no longer valid: the table has moved on."))

    async def expire(self, live: LiveTable) -> None:
        """The action timer ran out: apply the engine's timeout action to everyone pending
        (unless an action came first and moved the deadline on)."""
        async with live.lock:
            if not live.engine.in_hand or live.closed:
                return
            now = self.now()
            if live.deadline is None or now < live.deadline:
                return
            start = len(live.engine.events)
            notes: list[TimedOut] = []
            bank = live.settings.bank
            for decision in live.engine.pending:
                pid = decision.player_id
                ends = live.meta.bank_ends.get(pid)
                if ends is not None and now < ends:
                    continue  # still using the time bank
                if ends is not None:
                    self._stop_bank(live, pid)  # spent: the timeout acts now
                elif not is_house(pid) and bank.starts(live.meta.banks.get(pid, bank.full)):
                    # The timer ran out: the time bank starts by itself, the hand is kept.
                    live.meta.bank_ends[pid] = now + live.meta.banks.get(pid, bank.full)
                    continue
                try:
                    live.engine.act(decision.seat, engine.Timeout())
                except IllegalAction:
                    continue
                misses = live.meta.misses.get(pid, 0) + 1
                live.meta.misses[pid] = misses
                sat_out = sits_out_after(misses)
                if sat_out:
                    with contextlib.suppress(TableError):
                        live.engine.sit_out(pid)
                # Kept as what happened: the table words it in its language when drawn.
                notes.append(TimedOut(pid, sat_out))
            # The latest timeouts replace the earlier ones: the table shows what just happened
            # (a note saved as words before timeouts were kept as such starts with the clock).
            kept = [
                note
                for note in live.meta.notes
                if isinstance(note, str) and not note.startswith("⏱")
            ]
            live.meta.notes = [*kept, *notes]
            outcome = await self._after_change(live, start)
        await self._present(live, outcome)

    # -- saving a change ----------------------------------------------------------------------

    async def _after_change(
        self,
        live: LiveTable,
        start: int,
        *,
        events: tuple[engine.Event, ...] | None = None,
        new_hand: bool = False,
    ) -> Outcome:
        """Persist, work out who needs a fresh DM, finish the hand if it ended, reset timers.

        If saving fails, the table is put back as it was last saved and the change is refused:
        what players see never runs ahead of what is on disk."""
        try:
            return await self._persist_change(live, start, events, new_hand)
        except Exception as exc:
            log.exception("table %s: saving a change failed; reloading the last snapshot", live.id)
            await self._reload(live)
            raise TableProblem(
                _("The table could not be saved, so that did not happen. Please try again.")
            ) from exc

    # -- time banks and pre-actions -----------------------------------------------------------

    def _refill_banks(self, live: LiveTable) -> None:
        """A hand was dealt: every player dealt in gets the refill (engine.timebank), and
        nothing ticked for the last hand carries over."""
        bank = live.settings.bank
        live.meta.bank_ends.clear()
        live.meta.pre_actions.clear()
        for seat in live.engine.seats:
            if seat is not None and not seat.sitting_out and not is_house(seat.player_id):
                pid = seat.player_id
                live.meta.banks[pid] = bank.refilled(live.meta.banks.get(pid, bank.full))

    def _stop_bank(self, live: LiveTable, pid: str) -> None:
        """``pid``'s running bank stops (they acted, timed out, or the hand ended): what is
        left of it is kept for later turns."""
        ends = live.meta.bank_ends.pop(pid, None)
        if ends is not None:
            live.meta.banks[pid] = live.settings.bank.left(ends_at=ends, now=self.now())

    def _stop_idle_banks(self, live: LiveTable) -> None:
        """Stop the banks of players with nothing waiting any more (folded by leaving, the
        hand over)."""
        if not live.meta.bank_ends:
            return  # the usual case: no bank running, nothing to look up
        waiting = {d.player_id for d in live.engine.pending} if live.engine.in_hand else set()
        for pid in [p for p in live.meta.bank_ends if p not in waiting]:
            self._stop_bank(live, pid)

    def _play_pre_actions(self, live: LiveTable) -> None:
        """Play at once the pre-action of each player whose betting turn has come (each one
        once: it is cleared as it is played)."""
        while live.meta.pre_actions and live.engine.in_hand:
            due = next(
                (
                    d
                    for d in live.engine.pending
                    if d.player_id in live.meta.pre_actions
                    and isinstance(d.legal, engine.BetOptions)
                ),
                None,
            )
            if due is None:
                return
            assert isinstance(due.legal, engine.BetOptions)
            pre = PreAction(live.meta.pre_actions.pop(due.player_id))
            try:
                live.engine.act(due.seat, pre_action_move(pre, due.legal))
            except IllegalAction:
                log.exception("table %s: pre-action %s refused", live.id, pre)
                return
            live.meta.misses.pop(due.player_id, None)

    @staticmethod
    def pre_action_refusal(live: LiveTable, user_id: int) -> str | None:
        """Why ``user_id`` may not tick a pre-action now, or None when they may."""
        pid = str(user_id)
        if not live.engine.in_hand:
            return str(PRE_ACTION_REFUSALS["no-hand"])
        seat = next((v for v in live.engine.public_view().seats if v.player_id == pid), None)
        if seat is None or not seat.in_hand or seat.folded or seat.all_in or seat.leaving:
            return str(PRE_ACTION_REFUSALS["not-in-hand"])
        if any(d.player_id == pid for d in live.engine.pending):
            return str(PRE_ACTION_REFUSALS["your-turn"])
        return None

    async def set_pre_action(self, live: LiveTable, user_id: int, pre: PreAction | None) -> None:
        """Tick (or, with None, untick) a pre-action for ``user_id``'s next betting turn of
        this hand; saved with the table."""
        async with live.lock:
            pid = str(user_id)
            reason = self.pre_action_refusal(live, user_id)
            if reason is not None:
                raise TableProblem(reason)
            if pre is None:
                live.meta.pre_actions.pop(pid, None)
            else:
                live.meta.pre_actions[pid] = pre.value
            await self.records.save(live)

    async def _reload(self, live: LiveTable) -> None:
        await self.records.reload(live)
        self.clock.schedule(live)

    async def _persist_change(
        self,
        live: LiveTable,
        start: int,
        events: tuple[engine.Event, ...] | None,
        new_hand: bool,
    ) -> Outcome:
        if events is None:
            self._play_pre_actions(live)
        self._stop_idle_banks(live)
        if not live.engine.in_hand:
            live.meta.pre_actions.clear()
        new = events if events is not None else tuple(live.engine.events[start:])
        cards = live.engine.held_cards()
        changed = tuple(pid for pid, held in cards.items() if live.last_private.get(pid) != held)
        live.last_private = cards
        result: HandResult | None = None
        dealt = live.engine.hand is not None and live.engine.hand_number != live.meta.recorded
        if dealt:
            await self.records.record_new_hand(live)
        info = live.meta.hand
        if info is not None and not live.engine.in_hand:
            result = live.engine.result
            live.note_habits()
            if not await self.records.end_hand(live, info, result):
                # Voided: play goes on with the next deal, unless /poker end was asked during
                # the hand (the table closes now, as after any hand).
                voided_end = None
                if live.meta.end_requested is not None:
                    voided_end = await self._end_locked(live)
                self.clock.schedule(live)
                return Outcome((), None, changed, new_hand, ended=voided_end)
            if live.meta.tournament is not None and self.hooks is not None:
                await self.hooks.after_hand(live, dict(info.start_stacks))
        elif not dealt:
            await self.records.save(live)
        ended: dict[int, int] | None = None
        if info is not None and not live.engine.in_hand and live.meta.end_requested is not None:
            ended = await self._end_locked(live)  # /poker end was asked during the hand
        self.clock.schedule(live)
        starts = dict(info.start_stacks) if result is not None and info is not None else None
        hand_id = info.hand_id if result is not None and info is not None else None
        return Outcome(
            new, result, changed, new_hand, start_stacks=starts, ended=ended, hand_id=hand_id
        )

    async def _present(self, live: LiveTable, outcome: Outcome) -> None:
        try:
            await self.presenter.present(live, outcome)
        except Exception:
            log.exception("presenting table %s failed", live.id)
