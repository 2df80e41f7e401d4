"""The bot's store of bankrolls, ledger, tables, hands and stats: :class:`Database`, the one
interface the rest of the bot uses.

Layout
------
* This module: the public methods, their contracts and their argument checks
  (:mod:`data.checks`); each method runs one repository function as one transaction.
* The SQL, by area: :mod:`data.accounts` (settings, bankrolls, ledger, daily bonus, admin log),
  :mod:`data.tables` (tables, seats, buy-ins and cash-outs, snapshots, closing),
  :mod:`data.hands` (hands, events, secrets, results), :mod:`data.stats` (stats, leaderboard,
  chip audit).
* The backend, which owns connections and transactions: :mod:`data.sqlite` (a file, the
  default) or :mod:`data.postgres` (a server, for several processes), behind the
  :class:`~data.core.Backend` and :class:`~data.core.Tx` protocols of :mod:`data.core`.
* Table ownership (:meth:`Database.claim_tables`): which process drives which table, for
  processes sharing one PostgreSQL database.
* Backups (:meth:`Database.backup`; the command and the automatic ones: :mod:`data.backup`).

Guarantees
----------
* Every public method runs as ONE transaction: it changes everything it says or nothing, even
  when its caller is cancelled halfway (the backend finishes the transaction regardless).
* Every method that raises a :class:`~data.errors.DataError` has changed nothing.
* Chips: a bankroll changes only together with a ``ledger`` row (same transaction, same helper:
  :func:`data.accounts.move`), and the chips on a table only by buy-ins, top-ups and cash-outs
  (:mod:`data.tables`). Hence ``issued - removed == bankrolls + chips on tables`` always;
  :meth:`Database.chip_audit` checks.
* History (ledger, admin log, hand events, finished hands) is append-only, enforced by the
  schema itself, not only by this code.
* JSON blobs (settings, config, engine state, events, results) are opaque strings; the database
  only checks that they are valid JSON.
* ``now`` parameters are unix seconds from the caller (tests control time); default
  ``time.time()``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final, TypeVar

from data import (
    accounts,
    checks,
    hands,
    languages,
    ledger,
    preferences,
    stats,
    tables,
    tournaments,
)
from data.checks import (
    clock,
    hand_results,
    integer,
    json_text,
    locale_code,
    page,
    table_save,
    text,
)
from data.core import Backend, Body, Claim, LocalOwnership, TableOwnership
from data.errors import InvalidArgument
from data.ledger import NightLedger
from data.migrations import Migration, load_migrations
from data.models import (
    Account,
    AdminLogEntry,
    ChipAudit,
    DailyClaim,
    GuildSettings,
    Hand,
    HandEvent,
    HandEventIn,
    HandSecrets,
    LeaderboardEntry,
    LedgerEntry,
    Page,
    PlayerHandResult,
    PlayerStats,
    StatsHistory,
    Table,
    TablePlayer,
    TableSave,
)
from data.postgres import PostgresBackend, is_url
from data.preferences import Preferences
from data.sqlite import SqliteBackend, Synchronous

__all__ = ["DEFAULT_PATH", "Claim", "Database", "HandEventIn", "TableSave"]

T = TypeVar("T")

DEFAULT_PATH: Final = Path(__file__).resolve().parent / "poker.db"
"""Where the bot keeps its database unless told otherwise (gitignored)."""


class Database:
    """The data layer. Open with ``await Database.open(path)``; close with ``await db.close()``.

    Also an async context manager: ``async with await Database.open(p) as db: ...``.
    """

    def __init__(self, backend: Backend, ownership: TableOwnership | None = None) -> None:
        """Private: use :meth:`open`."""
        self._backend = backend
        self._ownership = LocalOwnership() if ownership is None else ownership

    # ---------------------------------------------------------------- lifecycle

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str] = DEFAULT_PATH,
        *,
        synchronous: Synchronous = "FULL",
        migrations: Sequence[Migration] | None = None,
        checkpoint_every: float = 1.0,
    ) -> Database:
        """Open (creating if needed) the database at ``path`` and upgrade its schema.

        A ``postgresql://`` URL in ``path`` opens that PostgreSQL database instead (the
        SQLite options are then ignored). ``":memory:"`` gives a private in-memory database
        (tests). ``migrations`` defaults to
        the ones shipped in this package (an override exists for tests and tooling). A file
        database is checkpointed in the background every ``checkpoint_every`` seconds in which
        something was written.
        Raises :class:`SchemaError` if the file's schema is newer than this code or a migration
        fails.
        """
        if is_url(path):
            server = await PostgresBackend.open(
                str(path),
                migrations=load_migrations("postgres") if migrations is None else migrations,
            )
            return cls(server, server.ownership)
        backend = await SqliteBackend.open(
            path,
            synchronous=synchronous,
            migrations=load_migrations() if migrations is None else migrations,
            checkpoint_every=checkpoint_every,
        )
        return cls(backend)

    async def close(self) -> None:
        """Wait for the running transaction, then close (giving up every table claimed).
        Further calls raise DataError."""
        await self._ownership.close()
        await self._backend.close()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def path(self) -> str:
        return self._backend.path

    async def backup(self, target: str | os.PathLike[str]) -> int:
        """Copy the whole database, consistent as of one commit, into the new file ``target``
        while it stays in use; return the copy's size in bytes. SQLite only: on PostgreSQL
        this raises :class:`~data.errors.BackupFailed` naming the ``pg_dump`` line to run.
        See :mod:`data.backup` for the folder of automatic backups."""
        return await self._backend.backup(target)

    async def schema_version(self) -> int:
        """The schema version of the open database (the number of migrations applied)."""
        return await self._backend.schema_version()

    async def check_integrity(self) -> list[str]:
        """The database's own consistency checks: a list of problems, empty when sound. Cheap
        enough for a start-up check."""
        return await self._backend.check_integrity()

    # ---------------------------------------------------------------- table ownership

    async def claim_tables(self, owner: str, table_ids: Sequence[int]) -> Claim:
        """Make this process the one that drives the listed tables, unless another process
        already does.

        ``owner`` names this process in refusals seen by others (e.g. ``"shard 0-1 pid 42"``);
        one Database has one owner at a time. Returns the tables now owned (those owned
        already included) and, for the refused ones, who owns them; a process must not drive
        a refused table. With PostgreSQL a claim lasts until :meth:`release_tables`,
        :meth:`close` or the end of the process (a killed process's claims go with its
        connection); with SQLite, one process per file, every claim succeeds.
        """
        text("owner", owner)
        wanted = [integer("table_id", t, 1) for t in table_ids]
        return await self._ownership.claim(owner, wanted)

    async def release_tables(self, table_ids: Sequence[int]) -> None:
        """Stop driving the listed tables (a closed table, a shard handed over); tables not
        owned are ignored."""
        wanted = [integer("table_id", t, 1) for t in table_ids]
        await self._ownership.release(wanted)

    def owned_tables(self) -> frozenset[int]:
        """The tables this process has claimed and not released."""
        return self._ownership.owned()

    async def _write(self, body: Body[T]) -> T:
        return await self._backend.run(body)

    async def _read(self, body: Body[T]) -> T:
        return await self._backend.run(body, write=False)

    # ---------------------------------------------------------------- settings

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings (defaults if never changed)."""
        integer("guild_id", guild_id)
        return await self._read(lambda tx: accounts.settings(tx, guild_id))

    async def update_settings(
        self,
        guild_id: int,
        actor_id: int,
        *,
        starting_bankroll: int | None = None,
        daily_amount: int | None = None,
        daily_cooldown: int | None = None,
        table_defaults_json: str | None = None,
        max_tables_per_player: int | None = None,
        note: str | None = None,
        now: float | None = None,
    ) -> GuildSettings:
        """Change the given settings (None = unchanged) and log the change in the admin log.

        ``daily_cooldown`` is in seconds. Returns the new settings.
        """
        integer("guild_id", guild_id)
        integer("actor_id", actor_id)
        at = clock(now)
        changes: dict[str, int | str] = {}
        if starting_bankroll is not None:
            changes["starting_bankroll"] = integer("starting_bankroll", starting_bankroll, 0)
        if daily_amount is not None:
            changes["daily_amount"] = integer("daily_amount", daily_amount, 0)
        if daily_cooldown is not None:
            changes["daily_cooldown"] = integer("daily_cooldown", daily_cooldown, 0)
        if table_defaults_json is not None:
            changes["table_defaults"] = json_text("table_defaults_json", table_defaults_json)
        if max_tables_per_player is not None:
            changes["max_tables_per_player"] = integer(
                "max_tables_per_player", max_tables_per_player, 1
            )
        if not changes:
            raise InvalidArgument("no setting to change")
        return await self._write(
            lambda tx: accounts.update_settings(tx, guild_id, actor_id, changes, note, at)
        )

    # ---------------------------------------------------------------- accounts

    async def account(self, guild_id: int, user_id: int, *, now: float | None = None) -> Account:
        """The member's account, created with the server's starting bankroll on first use."""
        integer("guild_id", guild_id)
        integer("user_id", user_id)
        at = clock(now)
        return await self._write(lambda tx: accounts.account(tx, guild_id, user_id, at))

    async def balance(self, guild_id: int, user_id: int, *, now: float | None = None) -> int:
        """The member's bankroll (chips not on a table); creates the account on first use."""
        return (await self.account(guild_id, user_id, now=now)).balance

    async def fund_house(
        self, guild_id: int, user_id: int, amount: int, *, now: float | None = None
    ) -> int:
        """Top the server's house account up to ``amount`` for house seat ``user_id`` (a
        negative id), issuing only what it lacks (ledger kind ``house_fund``); returns the
        house account's balance. A house seat's buy-in does this by itself too."""
        integer("guild_id", guild_id)
        integer("user_id", user_id, None)
        integer("amount", amount, 1)
        at = clock(now)
        return await self._write(lambda tx: accounts.fund_house(tx, guild_id, user_id, amount, at))

    async def house_balance(self, guild_id: int) -> int:
        """The chips in the server's house account (every house seat buys in from it and
        cashes out to it; see :data:`data.accounts.HOUSE_ACCOUNT`)."""
        integer("guild_id", guild_id)
        return await self._read(lambda tx: accounts.house_balance(tx, guild_id))

    async def claim_daily(
        self, guild_id: int, user_id: int, now: float | None = None
    ) -> DailyClaim:
        """Credit the server's daily bonus. Raises :class:`Cooldown` (remaining seconds and
        next time) and changes nothing if the last claim is more recent than the cooldown."""
        integer("guild_id", guild_id)
        integer("user_id", user_id)
        at = clock(now)
        return await self._write(lambda tx: accounts.claim_daily(tx, guild_id, user_id, at))

    async def admin_grant(
        self,
        guild_id: int,
        actor_id: int,
        user_id: int,
        amount: int,
        *,
        note: str | None = None,
        now: float | None = None,
    ) -> LedgerEntry:
        """Issue ``amount`` (> 0) new chips to the member's bankroll; ledger + admin log."""
        integer("amount", amount, 1)
        return await self._admin(guild_id, actor_id, user_id, "grant", amount, note, now)

    async def admin_set(
        self,
        guild_id: int,
        actor_id: int,
        user_id: int,
        balance: int,
        *,
        note: str | None = None,
        now: float | None = None,
    ) -> LedgerEntry:
        """Set the member's bankroll to ``balance`` (>= 0), issuing or removing the difference;
        ledger + admin log. Chips on tables are not touched."""
        integer("balance", balance, 0)
        return await self._admin(guild_id, actor_id, user_id, "set", balance, note, now)

    async def admin_remove(
        self,
        guild_id: int,
        actor_id: int,
        user_id: int,
        amount: int,
        *,
        note: str | None = None,
        now: float | None = None,
    ) -> LedgerEntry:
        """Remove ``amount`` (> 0) chips from the member's bankroll; ledger + admin log.
        Raises :class:`InsufficientFunds` if the bankroll holds less."""
        integer("amount", amount, 1)
        return await self._admin(guild_id, actor_id, user_id, "remove", amount, note, now)

    async def _admin(
        self,
        guild_id: int,
        actor_id: int,
        user_id: int,
        action: accounts.AdminChange,
        value: int,
        note: str | None,
        now: float | None,
    ) -> LedgerEntry:
        integer("guild_id", guild_id)
        integer("actor_id", actor_id)
        integer("user_id", user_id)
        at = clock(now)
        return await self._write(
            lambda tx: accounts.admin_change(
                tx, guild_id, actor_id, user_id, action, value, note, at
            )
        )

    async def ledger(
        self, guild_id: int, user_id: int | None = None, *, offset: int = 0, limit: int = 20
    ) -> Page[LedgerEntry]:
        """Ledger rows of a server (or of one member), newest first."""
        integer("guild_id", guild_id)
        page(offset, limit)
        if user_id is not None:
            integer("user_id", user_id)
        return await self._read(lambda tx: accounts.ledger(tx, guild_id, user_id, offset, limit))

    async def admin_log(
        self, guild_id: int, *, offset: int = 0, limit: int = 20
    ) -> Page[AdminLogEntry]:
        """The server's admin actions, newest first."""
        integer("guild_id", guild_id)
        page(offset, limit)
        return await self._read(lambda tx: accounts.admin_log(tx, guild_id, offset, limit))

    # ---------------------------------------------------------------- tables

    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        config_json: str,
        *,
        state_json: str | None = None,
        message_id: int | None = None,
        now: float | None = None,
    ) -> Table:
        """Open a table in a channel (no chips on it yet). Raises :class:`TableExists` if the
        channel already has an open table."""
        integer("guild_id", guild_id)
        integer("channel_id", channel_id)
        integer("creator_id", creator_id)
        json_text("config_json", config_json)
        if state_json is not None:
            json_text("state_json", state_json)
        if message_id is not None:
            integer("message_id", message_id)
        at = clock(now)
        return await self._write(
            lambda tx: tables.create_table(
                tx, guild_id, channel_id, creator_id, config_json, state_json, message_id, at
            )
        )

    async def update_table(
        self,
        table_id: int,
        *,
        config_json: str | None = None,
        message_id: int | None = None,
        now: float | None = None,
    ) -> Table:
        """Change an open table's config and/or its public message id (None = unchanged)."""
        integer("table_id", table_id)
        if config_json is not None:
            json_text("config_json", config_json)
        if message_id is not None:
            integer("message_id", message_id)
        at = clock(now)
        return await self._write(
            lambda tx: tables.update_table(tx, table_id, config_json, message_id, at)
        )

    async def get_table(self, table_id: int) -> Table:
        """A table, open or closed. Raises :class:`TableNotFound`."""
        integer("table_id", table_id)
        return await self._read(lambda tx: tables.get_table(tx, table_id))

    async def open_tables(self, guild_id: int | None = None) -> list[Table]:
        """All open tables (of one server, or of all: what to resume after a restart)."""
        if guild_id is not None:
            integer("guild_id", guild_id)
        return await self._read(lambda tx: tables.open_tables(tx, guild_id))

    async def table_players(self, table_id: int) -> list[TablePlayer]:
        """The seat projection of a table (empty once closed), by seat then user."""
        integer("table_id", table_id)
        return await self._read(lambda tx: tables.table_players(tx, table_id))

    async def night_ledger(
        self, table_id: int | None = None, *, channel_id: int | None = None
    ) -> NightLedger | None:
        """The ledger of a table (open or closed: each player's buy-ins, rebuys, cash-outs,
        stack and net) and of every table of its poker night (:mod:`data.ledger`).

        By ``table_id`` (:class:`TableNotFound` if there is none), or by ``channel_id``: the
        channel's open table, else its last (None if the channel never had a table)."""
        if table_id is not None:
            wanted = integer("table_id", table_id)
            return await self._read(lambda tx: ledger.night_ledger(tx, wanted))
        if channel_id is None:
            raise InvalidArgument("night_ledger needs a table_id or a channel_id")
        channel = integer("channel_id", channel_id)
        return await self._read(lambda tx: ledger.channel_night_ledger(tx, channel))

    async def chips_on_tables(self, guild_id: int, user_id: int) -> tuple[int, int]:
        """The member's chips on this server's open tables (stacks as last saved), and at how
        many tables they sit."""
        integer("guild_id", guild_id)
        integer("user_id", user_id)
        return await self._read(lambda tx: tables.chips_on_tables(tx, guild_id, user_id))

    async def buy_in(
        self,
        guild_id: int,
        user_id: int,
        table_id: int,
        amount: int,
        save: TableSave,
        *,
        seat: int | None = None,
        now: float | None = None,
    ) -> LedgerEntry:
        """Move ``amount`` (> 0) chips from the member's bankroll onto the table, in one
        transaction with the table's ``save`` (its new snapshot and events).

        ``save.chips`` must be the table's chips plus ``amount``; ``save.seats`` (user id ->
        stack, every seated player, including this one) replaces the seat projection; ``seat``
        records this player's seat number. The ledger kind is 'buy_in', or 'top_up' if the
        member was already seated. Raises :class:`InsufficientFunds` if the bankroll is too small
        (the account is created first if needed, with the starting bankroll). A house seat (a
        negative id) buys in from the server's house account, issued what it lacks.
        """
        integer("guild_id", guild_id)
        integer("user_id", user_id)
        integer("table_id", table_id)
        integer("amount", amount, 1)
        state = table_save(save)
        if user_id not in state.seats:
            raise InvalidArgument(f"save.seats must include the member buying in ({user_id})")
        if seat is not None:
            integer("seat", seat, 0)
        at = clock(now)
        return await self._write(
            lambda tx: tables.buy_in(tx, guild_id, user_id, table_id, amount, state, seat, at)
        )

    async def cash_out(
        self,
        guild_id: int,
        user_id: int,
        table_id: int,
        amount: int,
        save: TableSave,
        *,
        now: float | None = None,
    ) -> LedgerEntry:
        """Move ``amount`` (>= 0) chips from the table back to the member's bankroll, in one
        transaction with the table's ``save``.

        ``save.chips`` must be the table's chips minus ``amount``; ``save.seats`` is the new
        set of seated players (leave the member out when they stand up). The member must have
        bought in at this table.
        """
        integer("guild_id", guild_id)
        integer("user_id", user_id)
        integer("table_id", table_id)
        integer("amount", amount, 0)
        state = table_save(save)
        at = clock(now)
        return await self._write(
            lambda tx: tables.cash_out(tx, guild_id, user_id, table_id, amount, state, at)
        )

    async def save_table_state(
        self,
        table_id: int,
        save: TableSave,
        *,
        now: float | None = None,
    ) -> None:
        """Store the table's ``save`` after an event: its snapshot, the current hand's new
        events and the seat projection, in one transaction.

        ``save.chips`` must equal the table's current chips (only buy-ins and cash-outs
        change them): :class:`ChipsMismatch` otherwise. Events go to the table's current hand
        (:class:`NoHandInProgress` if none); saving an event again with the same ``seq`` and
        content is a no-op, with other content :class:`EventConflict`.
        """
        integer("table_id", table_id)
        state = table_save(save)
        at = clock(now)
        await self._write(lambda tx: tables.save_table_state(tx, table_id, state, at))

    async def close_table(
        self,
        table_id: int,
        payouts: Mapping[int, int],
        *,
        state_json: str | None = None,
        now: float | None = None,
    ) -> list[LedgerEntry]:
        """Close the table, paying every remaining chip back to bankrolls in one transaction.

        ``payouts`` (user id -> chips, each >= 0) must add up to the table's chips exactly
        (:class:`ChipsMismatch` otherwise) and go to members who bought in at this table. A hand
        still in progress is ended without a result (its secrets become readable). Returns the
        cash-out ledger rows, by user id.
        """
        integer("table_id", table_id)
        pay = sorted(
            (integer("payout user", u), integer("payout", a, 0)) for u, a in payouts.items()
        )
        if state_json is not None:
            json_text("state_json", state_json)
        at = clock(now)
        entries = await self._write(
            lambda tx: tables.close_table(tx, table_id, pay, state_json, at)
        )
        # A closed table needs no owner; letting go keeps the server's lock table from filling
        # up over a long-running process's life.
        await self._ownership.release([table_id])
        return entries

    # ---------------------------------------------------------------- hands

    async def start_hand(
        self,
        table_id: int,
        *,
        variant: str,
        variant_name: str,
        commitment: str,
        salt: str,
        deck: str,
        save: TableSave,
        now: float | None = None,
        config: str | None = None,
    ) -> Hand:
        """Record a new hand (numbered 1, 2, ... per table) as the table's current hand, with
        its commitment, salt and deck, the table's configuration it is dealt with (``config``,
        JSON), and the table's ``save`` (its snapshot and the hand's first events) with it.

        The salt and deck stay unreadable until the hand ends. Raises :class:`HandInProgress`
        if the table's previous hand has not ended.
        """
        integer("table_id", table_id)
        text("variant", variant)
        text("variant_name", variant_name)
        checks.commitment(commitment)
        text("salt", salt)
        text("deck", deck)
        if config is not None:
            json_text("config", config)
        state = table_save(save)
        at = clock(now)
        return await self._write(
            lambda tx: hands.start_hand(
                tx, table_id, variant, variant_name, commitment, salt, deck, state, at, config
            )
        )

    async def record_hand_result(
        self,
        guild_id: int,
        table_id: int,
        hand_id: int,
        per_player: Sequence[PlayerHandResult],
        *,
        result_json: str,
        pot: int,
        save: TableSave,
        carried: int = 0,
        now: float | None = None,
    ) -> Hand:
        """End the table's current hand: store its last events (``save.events``), result and
        pot, update every player's stats and save the table's snapshot, in one transaction.

        ``per_player`` lists everyone dealt in. Chips can stay in the middle from one deal to
        the next (a passed-out deal, trips not reached, Diablo's new pot): ``carried`` is the
        change in those chips over this hand (positive when the hand left chips in the middle,
        negative when it paid out chips carried in), and the players' ``net`` values must add
        up to ``-carried``.
        ``best_hand_score`` is higher-is-better (None when the hand was not shown). Raises
        :class:`NoHandInProgress` unless ``hand_id`` is the table's current hand.
        """
        integer("guild_id", guild_id)
        integer("table_id", table_id)
        integer("hand_id", hand_id)
        json_text("result_json", result_json)
        integer("pot", pot, 0)
        state = table_save(save)
        at = clock(now)
        players = hand_results(per_player, carried)
        return await self._write(
            lambda tx: hands.record_hand_result(
                tx, guild_id, table_id, hand_id, players, result_json, pot, state, at
            )
        )

    async def get_hand(self, hand_id: int) -> Hand:
        """A hand's public record. Raises :class:`HandNotFound`."""
        integer("hand_id", hand_id)
        return await self._read(lambda tx: hands.get_hand(tx, hand_id))

    async def list_hands(self, table_id: int, *, offset: int = 0, limit: int = 10) -> Page[Hand]:
        """A table's hands, newest first."""
        integer("table_id", table_id)
        page(offset, limit)
        return await self._read(lambda tx: hands.list_hands(tx, table_id, offset, limit))

    async def games_chosen(self, hand_ids: Sequence[int]) -> list[HandEvent]:
        """The dealer's-choice events (``game-chosen``) of these hands, in ``hand_id`` then
        ``seq`` order; a hand dealt without a choice has none."""
        wanted = [integer("hand_id", hand_id) for hand_id in hand_ids]
        return await self._read(lambda tx: hands.games_chosen(tx, wanted))

    async def hand_events(
        self, hand_id: int, *, allow_in_progress: bool = False
    ) -> list[HandEvent]:
        """A hand's events in ``seq`` order. Raises :class:`HandInProgress` for a hand still
        being played unless ``allow_in_progress`` (events may reveal private cards)."""
        integer("hand_id", hand_id)
        return await self._read(lambda tx: hands.hand_events(tx, hand_id, allow_in_progress))

    async def hand_secrets(self, hand_id: int) -> HandSecrets:
        """The salt and deck order of a FINISHED hand, to verify its commitment. Raises
        :class:`HandInProgress` while the hand is being played."""
        integer("hand_id", hand_id)
        return await self._read(lambda tx: hands.hand_secrets(tx, hand_id))

    # ---------------------------------------------------------------- preferences

    async def preferences(self, user_id: int) -> Preferences:
        """The player's preferences (the defaults if never set)."""
        integer("user_id", user_id)
        return await self._read(lambda tx: preferences.get(tx, user_id))

    async def preferences_of(self, user_ids: Sequence[int]) -> dict[int, Preferences]:
        """Several players' preferences in one read (defaults for those never set)."""
        wanted = [integer("user_id", user_id) for user_id in user_ids]
        return await self._read(lambda tx: preferences.many(tx, wanted))

    async def set_preferences(
        self,
        user_id: int,
        *,
        notify: bool | None = None,
        four_colour: bool | None = None,
        now: float | None = None,
    ) -> Preferences:
        """Change the given preferences (None = unchanged); returns them all."""
        integer("user_id", user_id)
        at = clock(now)
        return await self._write(lambda tx: preferences.set_(tx, user_id, notify, four_colour, at))

    # ---------------------------------------------------------------- languages

    async def member_locales(self, user_ids: Sequence[int]) -> dict[int, str]:
        """The last seen client locale of each listed member who has one."""
        wanted = [integer("user_id", user_id) for user_id in user_ids]
        return await self._read(lambda tx: languages.member_locales(tx, wanted))

    async def set_member_locale(
        self, user_id: int, locale: str, *, now: float | None = None
    ) -> None:
        """Remember the member's client locale (callers write only when it changed)."""
        integer("user_id", user_id)
        code = locale_code("locale", locale)
        at = clock(now)
        await self._write(lambda tx: languages.set_member_locale(tx, user_id, code, at))

    async def guild_languages(self) -> list[languages.GuildLanguage]:
        """Every server's chosen language and last seen Discord locale."""
        return await self._read(languages.guild_languages)

    async def set_guild_language(
        self, guild_id: int, language: str | None, actor_id: int, *, now: float | None = None
    ) -> None:
        """The server's chosen language; None follows its Discord locale again."""
        integer("guild_id", guild_id)
        integer("actor_id", actor_id)
        code = None if language is None else locale_code("language", language)
        at = clock(now)
        await self._write(lambda tx: languages.set_guild_language(tx, guild_id, code, actor_id, at))

    async def set_guild_locale(
        self, guild_id: int, locale: str, *, now: float | None = None
    ) -> None:
        """Remember the server's Discord locale (callers write only when it changed)."""
        integer("guild_id", guild_id)
        code = locale_code("locale", locale)
        at = clock(now)
        await self._write(lambda tx: languages.set_guild_locale(tx, guild_id, code, at))

    # ---------------------------------------------------------------- tournaments & seasons

    async def create_tournament(
        self,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        config_json: str,
        state_json: str,
        *,
        now: float | None = None,
    ) -> tournaments.TournamentRow:
        """A new tournament taking registrations in the channel (one open per channel)."""
        for name, value in (("guild_id", guild_id), ("channel_id", channel_id)):
            integer(name, value)
        integer("creator_id", creator_id)
        json_text("config_json", config_json)
        json_text("state_json", state_json)
        at = clock(now)
        return await self._write(
            lambda tx: tournaments.create(
                tx, guild_id, channel_id, creator_id, config_json, state_json, at
            )
        )

    async def get_tournament(self, tournament_id: int) -> tournaments.TournamentRow:
        """The tournament (raises :class:`~data.tournaments.TournamentNotFound`)."""
        integer("tournament_id", tournament_id)
        return await self._read(lambda tx: tournaments.get(tx, tournament_id))

    async def open_tournaments(
        self, guild_id: int | None = None
    ) -> list[tournaments.TournamentRow]:
        """Tournaments registering or running (in one server, or all)."""
        if guild_id is not None:
            integer("guild_id", guild_id)
        return await self._read(lambda tx: tournaments.open_tournaments(tx, guild_id))

    async def tournament_pay_in(
        self,
        tournament_id: int,
        user_id: int,
        amount: int,
        state_json: str,
        *,
        note: str = "buy-in",
        now: float | None = None,
    ) -> int:
        """Move ``amount`` from the member's bankroll into the prize pool (a buy-in, rebuy or
        add-on) with the tournament's new state; the balance after. Raises
        :class:`InsufficientFunds` when the bankroll is short."""
        integer("tournament_id", tournament_id)
        integer("user_id", user_id)
        integer("amount", amount, 1)
        json_text("state_json", state_json)
        text("note", note)
        at = clock(now)
        return await self._write(
            lambda tx: tournaments.pay_in(tx, tournament_id, user_id, amount, note, state_json, at)
        )

    async def tournament_refund(
        self,
        tournament_id: int,
        user_id: int,
        amount: int,
        state_json: str,
        *,
        now: float | None = None,
    ) -> int:
        """Give ``amount`` back from the pool to the member; the balance after."""
        integer("tournament_id", tournament_id)
        integer("user_id", user_id)
        integer("amount", amount, 1)
        json_text("state_json", state_json)
        at = clock(now)
        return await self._write(
            lambda tx: tournaments.refund(tx, tournament_id, user_id, amount, state_json, at)
        )

    async def save_tournament(
        self,
        tournament_id: int,
        status: str,
        state_json: str,
        *,
        started_at: float | None = None,
        now: float | None = None,
    ) -> None:
        """Save the tournament's state; ``started_at`` is kept from the first save that gives
        it (the zero of the level clock, so a restart finds the level and its time left)."""
        integer("tournament_id", tournament_id)
        text("status", status)
        json_text("state_json", state_json)
        at = clock(now)
        start = None if started_at is None else clock(started_at)
        await self._write(
            lambda tx: tournaments.save(tx, tournament_id, status, state_json, start, at)
        )

    async def set_tournament_message(
        self, tournament_id: int, message_id: int, *, now: float | None = None
    ) -> None:
        """Remember the tournament's lobby message."""
        integer("tournament_id", tournament_id)
        integer("message_id", message_id)
        at = clock(now)
        await self._write(lambda tx: tournaments.set_message(tx, tournament_id, message_id, at))

    async def create_tournament_table(
        self,
        tournament_id: int,
        channel_id: int,
        config_json: str,
        state_json: str,
        *,
        now: float | None = None,
    ) -> Table:
        """A table of the tournament in ``channel_id`` (its channel or a thread of it)."""
        integer("tournament_id", tournament_id)
        integer("channel_id", channel_id)
        json_text("config_json", config_json)
        json_text("state_json", state_json)
        at = clock(now)
        return await self._write(
            lambda tx: tournaments.create_table(
                tx, tournament_id, channel_id, config_json, state_json, at
            )
        )

    async def seat_tournament_table(
        self,
        table_id: int,
        save: TableSave,
        *,
        now: float | None = None,
    ) -> None:
        """Players sat down at or left a tournament table between hands: its tournament chips
        become ``save.chips`` with no bankroll involved (``save`` has no events)."""
        integer("table_id", table_id)
        state = table_save(save, events_allowed=False)
        at = clock(now)
        await self._write(lambda tx: tournaments.seat_table(tx, table_id, state, at))

    async def close_tournament_table(
        self, table_id: int, state_json: str, *, now: float | None = None
    ) -> None:
        """Close an empty tournament table (broken up: its players sit at the others)."""
        integer("table_id", table_id)
        json_text("state_json", state_json)
        at = clock(now)
        await self._write(lambda tx: tournaments.close_table(tx, table_id, state_json, at))

    async def schedule_game(
        self,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        kind: str,
        options_json: str,
        starts_at: float,
        *,
        now: float | None = None,
        repeat: str = "none",
        poll_games: tuple[str, ...] = (),
        series_id: int | None = None,
        repeat_from: float | None = None,
    ) -> tournaments.ScheduledGame:
        """Set a game ('tournament' or 'table') to open in the channel at ``starts_at``; with
        ``series_id``, as the next night of that series (else it starts a series of its own,
        repeating as ``repeat`` says, counted from ``repeat_from``, by default its start)."""
        integer("guild_id", guild_id)
        integer("channel_id", channel_id)
        integer("creator_id", creator_id)
        if kind not in ("tournament", "table"):
            raise InvalidArgument(f"kind must be 'tournament' or 'table', not {kind!r}")
        if repeat not in ("none", "weekly", "fortnightly", "monthly"):
            raise InvalidArgument(
                f"repeat must be none, weekly, fortnightly or monthly: {repeat!r}"
            )
        if not all(isinstance(g, str) and g for g in poll_games):
            raise InvalidArgument("poll_games are game slugs")
        if series_id is not None:
            integer("series_id", series_id)
        json_text("options_json", options_json)
        start = clock(starts_at)
        at = clock(now)
        origin = None if repeat_from is None else clock(repeat_from)
        return await self._write(
            lambda tx: tournaments.add_schedule(
                tx,
                guild_id,
                channel_id,
                creator_id,
                kind,
                options_json,
                start,
                at,
                repeat,
                tuple(poll_games),
                series_id,
                origin,
            )
        )

    async def schedule(self, schedule_id: int) -> tournaments.ScheduledGame | None:
        """One scheduled night, whatever its status."""
        integer("schedule_id", schedule_id)
        return await self._read(lambda tx: tournaments.get_schedule(tx, schedule_id))

    async def guild_schedules(self, guild_id: int) -> list[tournaments.ScheduledGame]:
        """The server's nights still to come, soonest first."""
        integer("guild_id", guild_id)
        return await self._read(lambda tx: tournaments.guild_schedules(tx, guild_id))

    async def opened_schedule(self, kind: str, game_id: int) -> tournaments.ScheduledGame | None:
        """The night that opened this tournament (``kind`` 'tournament') or table, if any."""
        integer("game_id", game_id)
        return await self._read(lambda tx: tournaments.opened_schedule(tx, kind, game_id))

    async def move_schedule(self, schedule_id: int, starts_at: float) -> None:
        """Move a pending night; its series counts its later nights from the new start."""
        integer("schedule_id", schedule_id)
        start = clock(starts_at)
        await self._write(lambda tx: tournaments.move_schedule(tx, schedule_id, start))

    async def pending_schedules(self, until: float) -> list[tournaments.ScheduledGame]:
        """Scheduled games not opened yet that start by ``until``, soonest first."""
        end = clock(until)
        return await self._read(lambda tx: tournaments.pending_schedules(tx, end))

    async def update_schedule(
        self,
        schedule_id: int,
        *,
        event_id: int | None = None,
        reminded: bool = False,
        status: str = "pending",
        poll_message_id: int | None = None,
        game_id: int | None = None,
    ) -> None:
        """Record a scheduled game's Discord event, its poll, its reminder, that it opened
        (the tournament or table it opened), ended, or was cancelled."""
        integer("schedule_id", schedule_id)
        for name, value in (
            ("event_id", event_id),
            ("poll_message_id", poll_message_id),
            ("game_id", game_id),
        ):
            if value is not None:
                integer(name, value)
        await self._write(
            lambda tx: tournaments.update_schedule(
                tx, schedule_id, event_id, bool(reminded), status, poll_message_id, game_id
            )
        )

    async def tournament_tables(self, tournament_id: int) -> list[Table]:
        """The open tables of a tournament."""
        integer("tournament_id", tournament_id)
        return await self._read(lambda tx: tournaments.open_tables(tx, tournament_id))

    async def finish_tournament(
        self,
        tournament_id: int,
        places: Sequence[tuple[int, int, int]],
        state_json: str,
        *,
        now: float | None = None,
    ) -> list[tournaments.TournamentResult]:
        """Pay the prizes ``(user_id, place, prize)``, which must add up to the prize pool,
        and record the results (with season points), in one transaction."""
        integer("tournament_id", tournament_id)
        json_text("state_json", state_json)
        rows = [
            (integer("user_id", u), integer("place", p, 1), integer("prize", z, 0))
            for u, p, z in places
        ]
        if len({u for u, _, _ in rows}) != len(rows):
            raise InvalidArgument("places lists a member twice")
        at = clock(now)
        return await self._write(
            lambda tx: tournaments.finish(tx, tournament_id, rows, state_json, at)
        )

    async def cancel_tournament(
        self,
        tournament_id: int,
        refunds: Sequence[tuple[int, int]],
        state_json: str,
        *,
        void_hands: bool = False,
        now: float | None = None,
    ) -> None:
        """Call the tournament off, returning ``(user_id, amount)`` (the whole pool); with
        ``void_hands``, a hand in progress at one of its tables ends without a result."""
        integer("tournament_id", tournament_id)
        json_text("state_json", state_json)
        rows = [(integer("user_id", u), integer("amount", a, 0)) for u, a in refunds]
        at = clock(now)
        await self._write(
            lambda tx: tournaments.cancel(
                tx, tournament_id, rows, state_json, at, void_hands=void_hands
            )
        )

    async def tournament_paid_in(self, tournament_id: int) -> dict[int, int]:
        """What each member has in the tournament's pool (buy-ins, rebuys, add-ons, less
        refunds), by user id."""
        integer("tournament_id", tournament_id)
        return await self._read(lambda tx: tournaments.paid_in(tx, tournament_id))

    async def tournament_results(self, tournament_id: int) -> list[tournaments.TournamentResult]:
        """Places, prizes and points of a finished tournament, best first."""
        integer("tournament_id", tournament_id)
        return await self._read(lambda tx: tournaments.results(tx, tournament_id))

    async def tournament_record(self, guild_id: int, user_id: int) -> tournaments.TournamentRecord:
        """The member's tournaments in the server: played, cashes, wins, best finish."""
        integer("guild_id", guild_id)
        integer("user_id", user_id)
        return await self._read(lambda tx: tournaments.record(tx, guild_id, user_id))

    async def start_season(
        self, guild_id: int, name: str, points: Sequence[int], *, now: float | None = None
    ) -> tournaments.Season:
        """Open a named season; ``points`` are given for first place, second, ..."""
        integer("guild_id", guild_id)
        text("name", name)
        scale = tuple(integer("points", p, 0) for p in points)
        at = clock(now)
        return await self._write(lambda tx: tournaments.start_season(tx, guild_id, name, scale, at))

    async def current_season(self, guild_id: int) -> tournaments.Season | None:
        """The open season, if any."""
        integer("guild_id", guild_id)
        return await self._read(lambda tx: tournaments.current_season(tx, guild_id))

    async def end_season(
        self, guild_id: int, actor_id: int, *, reset: bool = False, now: float | None = None
    ) -> tuple[tournaments.Season, list[tournaments.Standing]]:
        """Close the open season and snapshot its standings; with ``reset`` every bankroll
        goes back to the starting amount through the ledger. A reset raises
        :class:`ChipsInPlay` and changes nothing while members have chips at open cash tables
        or in tournaments not over yet (a reset cannot reach them)."""
        integer("guild_id", guild_id)
        integer("actor_id", actor_id)
        at = clock(now)
        return await self._write(
            lambda tx: tournaments.end_season(tx, guild_id, bool(reset), actor_id, at)
        )

    async def seasons(self, guild_id: int) -> list[tournaments.Season]:
        """The server's seasons, newest first."""
        integer("guild_id", guild_id)
        return await self._read(lambda tx: tournaments.seasons(tx, guild_id))

    async def season_standings(
        self, guild_id: int, name: str
    ) -> tuple[tournaments.Season, list[tournaments.Standing]]:
        """A closed season's standings (raises NotFound for an unknown name)."""
        integer("guild_id", guild_id)
        text("name", name)
        return await self._read(lambda tx: tournaments.standings(tx, guild_id, name))

    # ---------------------------------------------------------------- stats & audit

    async def stats(self, guild_id: int, user_id: int) -> PlayerStats:
        """The member's poker stats in the server (zeros if they never played)."""
        integer("guild_id", guild_id)
        integer("user_id", user_id)
        return await self._read(lambda tx: stats.stats(tx, guild_id, user_id))

    async def leaderboard(
        self, guild_id: int, *, offset: int = 0, limit: int = 10
    ) -> Page[LeaderboardEntry]:
        """Members ranked by bankroll + stacks at open tables (ties by user id)."""
        integer("guild_id", guild_id)
        page(offset, limit)
        return await self._read(lambda tx: stats.leaderboard(tx, guild_id, offset, limit))

    async def stats_history(
        self, guild_id: int, user_id: int, *, max_points: int = 300, max_hands: int = 5000
    ) -> StatsHistory:
        """The member's game over time: their bankroll after each ledger row (at most
        ``max_points`` of them, evenly picked, the latest kept) and their net per game over
        their newest ``max_hands`` finished cash-game hands (see :class:`StatsHistory`)."""
        integer("guild_id", guild_id)
        integer("user_id", user_id)
        integer("max_points", max_points, 2)
        integer("max_hands", max_hands, 1)
        return await self._read(
            lambda tx: stats.history(tx, guild_id, user_id, max_points, max_hands)
        )

    async def void_hand(
        self,
        guild_id: int,
        table_id: int,
        hand_id: int,
        *,
        reason_json: str,
        save: TableSave,
        now: float | None = None,
    ) -> Hand:
        """End the table's current hand as void, in one transaction: its row gets
        ``reason_json`` as its result and a pot of 0, no player's stats change, and the table's
        snapshot (every stack back to the deal) is saved.

        The safety valve for a hand whose result the database refuses: the table goes on
        instead of retrying the same refused end forever. ``save.chips`` must equal the
        table's chips, as in :meth:`save_table_state`; ``save`` has no events (the voided hand's
        are not stored).
        """
        integer("guild_id", guild_id)
        integer("table_id", table_id)
        integer("hand_id", hand_id)
        json_text("reason_json", reason_json)
        state = table_save(save, events_allowed=False)
        at = clock(now)
        return await self._write(
            lambda tx: hands.void_hand(tx, guild_id, table_id, hand_id, reason_json, state, at)
        )

    async def chip_audit(self, guild_id: int | None = None) -> ChipAudit:
        """Check conservation of chips for one server, or all servers if ``guild_id`` is None.

        See :class:`ChipAudit`; ``.ok`` must always be True. Reads the whole ledger: meant for
        tests, admin commands and start-up checks, not for every action.
        """
        if guild_id is not None:
            integer("guild_id", guild_id)
        return await self._read(lambda tx: stats.audit(tx, guild_id))
