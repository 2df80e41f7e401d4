"""The table service: every open table, one lock each, saved to SQLite after every change.

It joins the engine (every poker rule) to the data layer (every chip and byte on disk) and
makes no Discord call: each change is handed as an :class:`~tables.live.Outcome` to the
presenter (:class:`cogs.presenter.TablePresenter`). The bot owns one, as ``bot.tables``.

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
from typing import Any

import engine
from data import Database, DataError
from data.models import Table as TableRow
from engine import Action, IllegalAction, Table, TableConfig, TableError
from engine.house import Level
from engine.seating import (
    ACTION_SECONDS,
    AUTO_DEAL_SECONDS,
    BuyIns,
    SeatRefused,
    house_id,
    house_level,
    sits_out_after,
)
from engine.wording import say
from tables.clock import HOUSE_PAUSE, TableClock, people_playing
from tables.errors import TableProblem
from tables.live import (
    LiveTable,
    Meta,
    Outcome,
    Presenter,
    TableSettings,
    TournamentHooks,
)
from tables.records import TableRecords

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
    """
    text = str(exc).strip() or "That can't be done right now"
    if user_id is not None:
        pid = re.escape(str(user_id))
        text = re.sub(rf"\b{pid} is\b", "you are", text)
        text = re.sub(rf"\b{pid}'s\b", "your", text)
        text = re.sub(rf"\b{pid}\b", "you", text)
    text = text[0].upper() + text[1:]
    problem = TableProblem(text if text.endswith((".", "!", "?")) else f"{text}.")
    problem.__cause__ = exc
    return problem


def _cash_table_only(live: LiveTable) -> None:
    """Seats at a tournament's table come from the tournament, never from a bankroll."""
    if live.meta.tournament is not None:
        raise TableProblem(
            "This is a tournament table: players are seated by the tournament, and its chips "
            "stay in it until it ends."
        )


def _buy_ins(live: LiveTable) -> BuyIns:
    """The table's buy-in range, for the engine's buy-in and rebuy policy."""
    return BuyIns(live.settings.min_buy_in, live.settings.max_buy_in)


PING_SAVE_DELAY = 3.0
"""Seconds after a turn ping within which the table's next snapshot is expected to carry its
id; past them it is saved on its own."""


class TableService(TableRecords, TableClock):
    """Every open table of the process, and the operations on them."""

    def __init__(
        self,
        db: Database,
        presenter: Presenter,
        *,
        clock: Callable[[], float] = time.time,
        owner: str = "",
    ) -> None:
        self.db = db
        self.presenter = presenter
        self.clock = clock
        self.tables: dict[int, LiveTable] = {}
        self.by_channel: dict[int, int] = {}
        # Tables another process holds (table id / channel id -> its name): left alone here.
        self.owner = owner or f"pid {os.getpid()}"
        self.elsewhere: dict[int, str] = {}
        self.elsewhere_channels: dict[int, str] = {}
        self._background: set[asyncio.Task[Any]] = set()
        # A house player's turn waiting for its pause, by table id (one per table at a time).
        self._house_turns: dict[int, asyncio.Task[None]] = {}
        self.house_pause = HOUSE_PAUSE
        self.ping_save_delay = PING_SAVE_DELAY
        self._house_rng = secrets.SystemRandom()
        # Set by the tournament cog: levels and eliminations at tournament tables.
        self.hooks: TournamentHooks | None = None

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
                f"This table is run by another process of the bot ({owner}) while servers "
                "move between processes. Try again in a minute; nothing was changed."
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
                table = Table.from_dict(state["engine"])
                settings = TableSettings(**state["settings"])
                meta = Meta.from_dict(state.get("meta", {}))
            except (KeyError, ValueError, TypeError) as exc:
                log.error("table %s could not be restored: %s", row.table_id, exc)
                continue
            if meta.hand is not None and row.current_hand_id is not None:
                meta.hand.hand_id = row.current_hand_id
            live = LiveTable(
                row.table_id, row.guild_id, row.channel_id, row.creator_id, table, settings, meta
            )
            live.last_private = live.engine.held_cards()
            self._register(live)
            restored.append(live)
            # A crash between the end of a hand and its payouts leaves chips owed: pay them now.
            async with live.lock:
                await self._pay_leavers(live)
            self._schedule(live)
        return restored

    async def shutdown(self) -> None:
        for live in self.tables.values():
            self._cancel_timers(live)
            if live.ping_save is not None:
                live.ping_save.cancel()
                await self._save_ping(live)
        for task in list(self._background):
            task.cancel()

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
            raise TableProblem("This channel already has a table. Use `/poker end` first.")
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
        """Remember the table's public message (the one its buttons are on)."""
        if live.closed:
            return
        # Taken at once, not after waiting for the lock: a change being made meanwhile (a
        # player leaving as the hand's message is posted) must edit the new message.
        live.meta.message_id = message_id
        async with live.lock:
            if live.closed:
                return
            await self.db.update_table(live.id, message_id=message_id)
            await self._save(live)

    async def set_ping(self, live: LiveTable, message_id: int | None) -> None:
        """Remember the turn ping standing in the channel (``None``: there is none).

        It is written with the table's next snapshot, or on its own after
        ``ping_save_delay`` seconds if no other change comes first: a ping waits as long as
        its player takes, the likeliest time for a restart, but a save of its own for every
        turn would double the writes of a busy table. A clean shutdown writes it at once."""
        if live.closed or live.meta.ping_id == message_id:
            return
        live.meta.ping_id = message_id
        if live.ping_save is None:
            live.ping_save = asyncio.get_running_loop().call_later(
                self.ping_save_delay, lambda: self._spawn(self._save_ping(live))
            )

    async def note_dm_closed(self, live: LiveTable, player_id: str) -> bool:
        """This player's DMs are closed: say so on the table once (they can use My hand).

        Returns whether the note is new, i.e. whether the table message needs redrawing."""
        async with live.lock:
            if live.closed or player_id in live.meta.dm_closed:
                return False
            live.meta.dm_closed.append(player_id)
            name = live.meta.names.get(player_id, player_id)
            live.meta.notes.append(f"📪 I can't DM {name}: use **My hand** to see your cards.")
            await self._save(live)
            return True

    async def end(self, live: LiveTable) -> dict[int, int]:
        """Close the table; every stack (and any chips in the middle, to their owners)
        goes back to the bankrolls. Refused while a hand is being played."""
        _cash_table_only(live)
        async with live.lock:
            if live.engine.in_hand:
                # The engine would refuse too; this says what to do about it.
                raise TableProblem("A hand is in progress: end the table when it is over.")
            return await self._end_locked(live)

    async def end_after_hand(self, live: LiveTable, user_id: int) -> bool:
        """Remember that the table is to close once the hand in progress is over. Returns
        False when no hand is in progress (the caller ends it now)."""
        _cash_table_only(live)
        async with live.lock:
            if not live.engine.in_hand:
                return False
            live.meta.end_requested = user_id
            await self._save(live)
            return True

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
            await self.db.close_table(live.id, payouts, state_json=live.state_json())
        except Exception:
            await self._reload(live)
            raise
        live.closed = True
        self._cancel_timers(live)
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
            await self.db.seat_tournament_table(
                live.id, live.state_json(), live.engine.chips(), live.seat_stacks()
            )
        except Exception:
            await self._reload(live)
            raise
        self._schedule(live)
        return taken

    def forget(self, live: LiveTable) -> None:
        """The table was closed in the database with its tournament: drop it here."""
        live.closed = True
        self._cancel_timers(live)
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
            raise TableProblem(str(exc)) from exc
        async with live.lock:
            try:
                seat = live.engine.sit(str(user_id), amount, seat_choice)
            except REFUSED as exc:
                raise refusal(exc, user_id) from exc
            live.meta.names[str(user_id)] = name
            live.meta.misses.pop(str(user_id), None)
            try:
                await self.db.buy_in(
                    live.guild_id,
                    user_id,
                    live.id,
                    amount,
                    live.state_json(),
                    live.engine.chips(),
                    live.seat_stacks(),
                    seat=seat,
                    new_events=self._new_events(live),
                )
            except REFUSED as exc:
                await self._reload(live)
                raise refusal(exc, user_id) from exc
            self._mark_saved(live)
            return seat

    async def add_house(self, live: LiveTable, level: Level) -> int:
        """Seat a house player of ``level`` with the table's smallest buy-in, paid from the
        server's house account (the data layer issues it ``house_fund`` chips if it lacks
        them); returns its seat."""
        _cash_table_only(live)
        seated = {s.player_id for s in live.engine.public_view().seats}
        number = next(n for n in range(1, 100) if str(house_id(level, n)) not in seated)
        user_id = house_id(level, number)
        amount = live.settings.min_buy_in
        name = f"🤖 House {level.value} {number}"
        return await self.join(live, user_id, name, amount)

    async def remove_house(self, live: LiveTable) -> tuple[str, int | None]:
        """Stand the last seated house player up (its chips back to the house account now, or
        when the hand ends); its name and the chips paid now."""
        house = [s.player_id for s in live.engine.public_view().seats if house_level(s.player_id)]
        if not house:
            raise TableProblem("No house player sits at this table.")
        pid = house[-1]
        name = live.meta.names.get(pid, pid)
        return name, await self.leave(live, int(pid))

    async def rebuy(self, live: LiveTable, user_id: int, amount: int | None) -> int:
        """Add chips from the bankroll to a seated player's stack between hands, keeping the
        stack within the table's largest buy-in (default: up to the smallest one). Returns the
        chips added."""
        _cash_table_only(live)
        async with live.lock:
            pid = str(user_id)
            if not live.seated(user_id):
                raise TableProblem("You are not seated at this table: sit down first.")
            try:
                amount = _buy_ins(live).rebuy(live.engine.stack(pid), amount)
            except SeatRefused as exc:
                raise TableProblem(str(exc)) from exc
            try:
                live.engine.add_chips(pid, amount)
            except REFUSED as exc:
                raise refusal(exc, user_id) from exc
            try:
                await self.db.buy_in(
                    live.guild_id,
                    user_id,
                    live.id,
                    amount,
                    live.state_json(),
                    live.engine.chips(),
                    live.seat_stacks(),
                    new_events=self._new_events(live),
                )
            except REFUSED as exc:
                await self._reload(live)
                raise refusal(exc, user_id) from exc
            self._mark_saved(live)
            self._schedule(live)
            return amount

    async def leave(self, live: LiveTable, user_id: int) -> int | None:
        """Stand up: the stack goes back to the bankroll now, or when the current hand ends.
        Returns the chips paid now, or None when the payout waits for the hand's end."""
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
                    await self.db.cash_out(
                        live.guild_id,
                        user_id,
                        live.id,
                        paid,
                        live.state_json(),
                        live.engine.chips(),
                        live.seat_stacks(),
                        new_events=self._new_events(live),
                    )
                    self._mark_saved(live)
                    return paid
            except REFUSED as exc:
                await self._reload(live)
                raise refusal(exc, user_id) from exc
            # Leaving during a hand folds it; that may end the hand.
            outcome = await self._after_change(live, outcome_events_from)
        await self._present(live, outcome)
        return None

    async def update_settings(
        self,
        live: LiveTable,
        *,
        action_seconds: int | None = None,
        auto_deal_seconds: int | None = None,
        min_buy_in: int | None = None,
        max_buy_in: int | None = None,
        coach: bool | None = None,
        options: engine.TableOptions | None = None,
    ) -> TableSettings:
        """Change the table's bot-side settings and its house rules (None = unchanged; the
        engine says when new house rules take effect); saved with the table."""
        async with live.lock:
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
            )
            if not 0 < new.min_buy_in <= new.max_buy_in:
                raise TableProblem("The smallest buy-in must be positive and at most the largest.")
            shortest, longest = ACTION_SECONDS
            if not shortest <= new.action_seconds <= longest:
                raise TableProblem(f"The action timer is {shortest} to {longest} seconds.")
            shortest, longest = AUTO_DEAL_SECONDS
            if not shortest <= new.auto_deal_seconds <= longest:
                raise TableProblem(f"The pause between hands is {shortest} to {longest} seconds.")
            old = live.settings
            old_options = live.engine.next_options
            if options is not None:
                if live.meta.tournament is not None:
                    raise TableProblem("A tournament table plays by the tournament's rules.")
                try:
                    live.engine.set_options(options)
                except TableError as exc:
                    raise TableProblem(f"That house rule doesn't fit this table: {exc}.") from exc
            live.settings = new
            try:
                await self._save(live)
            except Exception:
                live.settings = old
                if options is not None:
                    live.engine.set_options(old_options)
                raise
            return new

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
            await self._save(live)

    # -- hands --------------------------------------------------------------------------------

    async def start_hand(self, live: LiveTable) -> Outcome:
        async with live.lock:
            outcome = await self._start_locked(live)
        return outcome

    async def _start_locked(self, live: LiveTable) -> Outcome:
        if live.closed:
            raise TableProblem("This table has been closed.")
        if live.engine.in_hand:
            raise TableProblem("A hand is already being played.")
        reason = live.engine.can_start()
        if reason is not None:
            raise TableProblem(f"Can't deal yet: {reason}.")
        if live.meta.tournament is None and not people_playing(live):
            raise TableProblem("Can't deal: house players don't play among themselves.")
        banner: list[str] = []
        if live.meta.tournament is not None and self.hooks is not None:
            banner = await self.hooks.before_deal(live)
        self._cancel_auto_deal(live)
        # Every draw comes from the operating system: the reshuffle seed may be revealed after
        # the hand, and nothing else (in dealer's choice, the deck's own seed) may follow from
        # it. The commitment is published when the cards are dealt, before anyone acts.
        rng = secrets.SystemRandom()
        events = live.engine.start_hand(rng)
        live.meta.notes = banner
        return await self._after_change(live, 0, events=events, new_hand=True)

    async def act(
        self, live: LiveTable, user_id: int, action: Action, *, version: str | None = None
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
            live.meta.misses.pop(str(user_id), None)
            return await self._after_change(live, start)

    @staticmethod
    def check_fresh(live: LiveTable, version: str | None) -> None:
        """Refuse a press made on an older state of the table (``None``: no version to check).

        :raises StalePress: the table has moved on since the pressed message was drawn.
        """
        if version is not None and version != live.version():
            raise StalePress("That button is no longer valid: the table has moved on.")

    async def expire(self, live: LiveTable) -> None:
        """The action timer ran out: apply the engine's timeout action to everyone pending
        (unless an action came first and moved the deadline on)."""
        async with live.lock:
            if not live.engine.in_hand or live.closed:
                return
            if live.deadline is None or self.clock() < live.deadline:
                return
            start = len(live.engine.events)
            notes = []
            for decision in live.engine.pending:
                pid = decision.player_id
                try:
                    live.engine.act(decision.seat, engine.Timeout())
                except IllegalAction:
                    continue
                name = live.meta.names.get(pid, pid)
                misses = live.meta.misses.get(pid, 0) + 1
                live.meta.misses[pid] = misses
                note = f"⏱ {say('timed-out', who=name)}."
                if sits_out_after(misses):
                    with contextlib.suppress(TableError):
                        live.engine.sit_out(pid)
                    note += " Timed out twice running: sitting out from the next hand."
                notes.append(note)
            # The latest timeouts replace the earlier ones: the table shows what just happened.
            kept = [note for note in live.meta.notes if not note.startswith("⏱")]
            live.meta.notes = kept + notes
            outcome = await self._after_change(live, start, notes=tuple(notes))
        await self._present(live, outcome)
