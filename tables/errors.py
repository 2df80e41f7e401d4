"""The refusal family: a request the bot turns down on purpose, with a reason for the player.

No Discord code here, so the table service (which has none either) raises the same family the
cogs do. The bot's one app-command error handler (:class:`cogs.app.PokerTree`) and the
component router both answer a :class:`Refusal` ephemerally with ``str(exc)`` and change
nothing; anything else that escapes a handler is a bug, logged with its traceback, and the
player only hears that something went wrong.
"""

from __future__ import annotations

__all__ = ["Refusal", "TableProblem"]


class Refusal(Exception):
    """Turned down on purpose; ``str(exc)`` is the reason, written for the player."""


class TableProblem(Refusal):
    """A table request that cannot be done now (no table here, not seated, stale button...)."""
