"""The data layer: the schema and every query of the bot, behind :class:`Database` (the layout
is described in :mod:`data.db`).

Usage::

    from data import Database

    db = await Database.open()  # data/poker.db, created and migrated on first start
    ...
    await db.close()
"""

from data.db import DEFAULT_PATH, Claim, Database
from data.errors import (
    BackupFailed,
    CannotOpen,
    ChipsInPlay,
    ChipsMismatch,
    ConstraintViolation,
    Cooldown,
    DataError,
    EventConflict,
    HandInProgress,
    HandNotFound,
    InsufficientFunds,
    InvalidArgument,
    NoHandInProgress,
    NotFound,
    SchemaError,
    TableClosed,
    TableExists,
    TableNotFound,
    WrongGuild,
)
from data.models import (
    Account,
    AdminLogEntry,
    BankrollPoint,
    ChipAudit,
    DailyClaim,
    GameNet,
    GuildSettings,
    Hand,
    HandEvent,
    HandEventIn,
    HandSecrets,
    LeaderboardEntry,
    LedgerEntry,
    LedgerKind,
    Page,
    PlayerHandResult,
    PlayerStats,
    StatsHistory,
    Table,
    TablePlayer,
    TableSave,
)

__all__ = [
    "DEFAULT_PATH",
    "Account",
    "AdminLogEntry",
    "BackupFailed",
    "BankrollPoint",
    "CannotOpen",
    "ChipAudit",
    "ChipsInPlay",
    "ChipsMismatch",
    "Claim",
    "ConstraintViolation",
    "Cooldown",
    "DailyClaim",
    "DataError",
    "Database",
    "EventConflict",
    "GameNet",
    "GuildSettings",
    "Hand",
    "HandEvent",
    "HandEventIn",
    "HandInProgress",
    "HandNotFound",
    "HandSecrets",
    "InsufficientFunds",
    "InvalidArgument",
    "LeaderboardEntry",
    "LedgerEntry",
    "LedgerKind",
    "NoHandInProgress",
    "NotFound",
    "Page",
    "PlayerHandResult",
    "PlayerStats",
    "SchemaError",
    "StatsHistory",
    "Table",
    "TableClosed",
    "TableExists",
    "TableNotFound",
    "TablePlayer",
    "TableSave",
    "WrongGuild",
]
