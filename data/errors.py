"""Exceptions raised by :mod:`data`. All derive from :class:`DataError`.

Every operation that raises one of these has changed nothing in the database. ``str(exc)`` is a
readable reason; the attributes carry the numbers a caller may want to show.
"""

from __future__ import annotations


class DataError(Exception):
    """Base class for everything :mod:`data` raises on purpose."""


class ConstraintViolation(DataError):
    """The database refused a statement for breaking a constraint (CHECK, UNIQUE, FOREIGN
    KEY, or a trigger's refusal). Each backend raises this in place of its driver's own
    exception, so that nothing outside :mod:`data` needs to know the driver; the repositories
    turn the few expected ones into a more precise :class:`DataError` with a reason.

    After one, a transaction must not run further statements (PostgreSQL aborts it): raise.
    Like every :class:`DataError`, it changed nothing: the transaction is rolled back.
    """


class BackupFailed(DataError):
    """A backup could not be taken or written (no such database, the target exists, the disk
    is full, no permission, a server database that its own tool backs up): the reason says
    which. The database itself is untouched."""


class SchemaError(DataError):
    """The database file's schema cannot be used or upgraded by this code."""


class CannotOpen(DataError):
    """The database cannot be opened: no such folder and none can be made, no permission, a
    file that is not SQLite (or is damaged), or another program's database. The reason says
    which; nothing was written."""


class InvalidArgument(DataError, ValueError):
    """A caller passed a value that can never be valid (negative amount, bad JSON, ...)."""


class NotFound(DataError, LookupError):
    """Base class for "no such row"."""


class TableNotFound(NotFound):
    """No table with that id."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"table {table_id} does not exist")
        self.table_id = table_id


class HandNotFound(NotFound):
    """No hand with that id."""

    def __init__(self, hand_id: int) -> None:
        super().__init__(f"hand {hand_id} does not exist")
        self.hand_id = hand_id


class InsufficientFunds(DataError):
    """A bankroll holds fewer chips than the operation needs."""

    def __init__(self, guild_id: int, user_id: int, balance: int, needed: int) -> None:
        super().__init__(f"not enough chips: the bankroll holds {balance}, {needed} are needed")
        self.guild_id = guild_id
        self.user_id = user_id
        self.balance = balance
        self.needed = needed


class Cooldown(DataError):
    """The daily bonus was already claimed; ``remaining`` seconds until ``next_at``."""

    def __init__(self, remaining: float, next_at: float) -> None:
        hours, rest = divmod(max(0, int(remaining + 0.999)), 3600)
        minutes, seconds = divmod(rest, 60)
        super().__init__(
            f"the daily bonus is on cooldown for another {hours}h {minutes:02d}m {seconds:02d}s"
        )
        self.remaining = remaining
        self.next_at = next_at


class ChipsInPlay(DataError):
    """``members`` members have chips a season's bankroll reset cannot reach: at the server's
    open cash tables or in its tournaments not over yet."""

    def __init__(self, guild_id: int, members: int) -> None:
        super().__init__(f"{members} members of server {guild_id} have chips in play")
        self.guild_id = guild_id
        self.members = members


class TableExists(DataError):
    """The channel already has an open table."""

    def __init__(self, channel_id: int, table_id: int) -> None:
        super().__init__(f"channel {channel_id} already has an open table (table {table_id})")
        self.channel_id = channel_id
        self.table_id = table_id


class TableClosed(DataError):
    """The table is closed; nothing more can happen at it."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"table {table_id} is closed")
        self.table_id = table_id


class WrongGuild(DataError):
    """The table belongs to another server than the one given."""

    def __init__(self, table_id: int, guild_id: int, expected: int) -> None:
        super().__init__(f"table {table_id} belongs to server {expected}, not {guild_id}")
        self.table_id = table_id
        self.guild_id = guild_id
        self.expected = expected


class ChipsMismatch(DataError):
    """The chips the caller says are on a table break conservation of chips.

    Only buy-ins, top-ups and cash-outs change the chips on a table; ``expected`` is what the
    table must hold after this operation, ``got`` what the caller passed.
    """

    def __init__(
        self, table_id: int, expected: int, got: int, what: str = "chips_on_table"
    ) -> None:
        super().__init__(
            f"table {table_id}: {what} is {got} but conservation of chips requires {expected}"
        )
        self.table_id = table_id
        self.expected = expected
        self.got = got


class HandInProgress(DataError):
    """The hand has not ended (its secrets stay hidden), or the table already has a hand."""

    def __init__(self, hand_id: int, message: str | None = None) -> None:
        super().__init__(message or f"hand {hand_id} is still in progress")
        self.hand_id = hand_id


class NoHandInProgress(DataError):
    """The operation needs the table's current hand, and it has none (or another one)."""

    def __init__(self, table_id: int, message: str | None = None) -> None:
        super().__init__(message or f"table {table_id} has no hand in progress")
        self.table_id = table_id


class EventConflict(DataError):
    """A hand event was saved again with the same ``seq`` but different content."""

    def __init__(self, hand_id: int, seq: int) -> None:
        super().__init__(
            f"hand {hand_id} already has event {seq} with different content; events are append-only"
        )
        self.hand_id = hand_id
        self.seq = seq
