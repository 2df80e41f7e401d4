"""The refusal family: a request the bot turns down on purpose, with a reason for the player.

No Discord code here, so the table service (which has none either) raises the same family the
cogs do. The bot's one answer to failures (:func:`cogs.kit.answer_failure`, for slash
commands and component presses alike) tells a :class:`Refusal` ephemerally with ``str(exc)``;
nothing was changed. Anything else that escapes a handler is a bug, logged once with its
traceback, and the player only hears that something went wrong.
"""

from __future__ import annotations

__all__ = ["Refusal", "TableProblem"]


class Refusal(Exception):
    """Turned down on purpose; ``str(exc)`` is the reason, written for the player."""


class TableProblem(Refusal):
    """A table request that cannot be done now (no table here, not seated, stale button...)."""
