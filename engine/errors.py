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
...     refused = exc
...     print(exc)
it is not bob's turn to act
>>> issubclass(IllegalAction, ValueError)
True

The message is a :class:`engine.wording.Phrase`: a template with named placeholders and
their values, which the localisation layer renders in the player's language:

>>> refused.phrase.template, dict(refused.phrase.values)
("it is not {player}'s turn to act", {'player': 'bob'})
"""

from __future__ import annotations

from engine.wording import Phrase

__all__ = ["IllegalAction", "Refusal", "TableError", "reason_of"]


class Refusal(ValueError):
    """Something a player asked for that the engine refuses, with the reason in words.

    Made like a :class:`Phrase`: ``IllegalAction("you do not hold {card}", card=card)``; or
    from a reason that is already a phrase. ``str(exc)`` is the English sentence and
    :attr:`phrase` the template and values for the localisation layer.
    """

    phrase: Phrase

    def __init__(self, message: str, /, **values: object) -> None:
        if values or not isinstance(message, Phrase):
            message = Phrase(message, **values)
        super().__init__(message)
        self.phrase = message

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.phrase,))


def reason_of(error: BaseException) -> str:
    """The reason ``error`` gives, as a phrase when it has one (to raise it again as another
    kind of refusal without losing its words)."""
    if isinstance(error, Refusal):
        return error.phrase
    return error.args[0] if error.args and isinstance(error.args[0], Phrase) else str(error)


class IllegalAction(Refusal):
    """An action that is not legal at this moment (wrong player, wrong amount, wrong cards...).

    The message is meant to be shown to the player as it is.
    """


class TableError(Refusal):
    """A table operation (sitting, leaving, adding chips, starting a hand) that cannot be done now.

    The message is meant to be shown to the player as it is.
    """
