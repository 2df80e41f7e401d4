"""Exceptions raised by the engine.

Every exception here is a :class:`ValueError`: the engine raises one whenever a caller asks for
something the rules or the table state do not allow, and in that case nothing has changed.
"""

from __future__ import annotations

__all__ = ["IllegalAction", "TableError"]


class IllegalAction(ValueError):
    """An action that is not legal at this moment (wrong player, wrong amount, wrong cards...).

    The message is meant to be shown to the player as it is.
    """


class TableError(ValueError):
    """A table operation (sitting, leaving, adding chips, starting a hand) that cannot be done now.

    The message is meant to be shown to the player as it is.
    """
