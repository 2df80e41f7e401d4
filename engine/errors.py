"""Exceptions raised by the engine.

Every exception here is a :class:`ValueError`: the engine raises one whenever a caller asks for
something the rules or the table state do not allow, and in that case nothing has changed.

>>> import random
>>> from engine import Check, Table, TableConfig
>>> table = Table(TableConfig())
>>> _ = table.sit("ann", 50), table.sit("bob", 50)
>>> _ = table.start_hand(random.Random(3))
>>> try:
...     table.act("bob", Check())
... except IllegalAction as exc:
...     print(exc)
it is not bob's turn to act
>>> issubclass(IllegalAction, ValueError)
True
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
