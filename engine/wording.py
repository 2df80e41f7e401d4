"""What happened at the table, in words: the one source of event wording.

The table's last action (:class:`engine.views.LastAction`), the bot's hand replay and the
commentary lines of a PHH file all say an event the same way; each fills the blanks in its own
style (a replay writes names and ``1,500``, PHH writes ``p2`` and ``1500``).

>>> say("raised", who="ann", amount="40")
'ann raises to 40'
>>> say("reshuffled", cards="3 cards")
'the stub ran short: 3 cards reshuffled'
>>> VERBS["raised"]
'raises to'
"""

from __future__ import annotations

from typing import Final

__all__ = ["PHRASES", "VERBS", "say", "sentence"]

VERBS: Final[dict[str, str]] = {
    "folded": "folds",
    "checked": "checks",
    "called": "calls",
    "bet": "bets",
    "raised": "raises to",
    "stood-pat": "stands pat",
    "drew": "draws",
    "shown": "shows",
    "mucked": "mucks",
    "won": "wins",
    "choosing-cards": "chooses cards to pass",
    "cards-passed": "cards passed",
    "arranging": "arranges",
    "declaring": "has declared",
    "declarations-revealed": "declarations revealed",
}
"""What a player does, by event (or step) name: the words of the table's last action."""

PHRASES: Final[dict[str, str]] = {
    "timed-out": "{who} ran out of time",
    "folded": "{who} " + VERBS["folded"],
    "checked": "{who} " + VERBS["checked"],
    "called": "{who} " + VERBS["called"] + " {amount}",
    "bet": "{who} " + VERBS["bet"] + " {amount}",
    "raised": "{who} " + VERBS["raised"] + " {amount}",
    "stood-pat": "{who} " + VERBS["stood-pat"],
    "reshuffled": "the stub ran short: {cards} reshuffled",
    "pot-carried": "{amount} chips carried in ({reason})",
    "passed-out": "nobody opened: passed out; {amount} stay for the next deal",
    "game-chosen": "{who} chooses {game}",
    "game-switched": "the hand goes on as {game}",
    "openers-split": "{who} splits openers, keeping {cards} aside",
    "openers-shown": "{who} shows openers {cards}",
    "bosnian-offer": "{who} is offered {card} face up and one card face down",
    "bosnian-kept": "{who} keeps {card} (the {which} card)",
    "cards-passed": "{who} passes {cards} to {to}",
    "arranged": "{who} sets the rollout order {cards}",
    "card-revealed": "{who} turns up {card}",
    "declared": "{who} declares {direction}",
    "player-left": "{who} leaves the table",
}
"""A sentence per event kind (by :attr:`engine.events.Event.type`), blanks in braces."""


def say(kind: str, **blanks: str) -> str:
    """The words for an event of ``kind``, its blanks filled in (lower case first letter:
    :func:`sentence` starts a line with it).

    :raises KeyError: for a kind with no words, or a blank left empty.
    """
    return PHRASES[kind].format(**blanks)


def sentence(text: str) -> str:
    """``text`` with a capital first letter, as a line of its own begins.

    >>> sentence(say("game-switched", game="razz"))
    'The hand goes on as razz'
    """
    return text[:1].upper() + text[1:]
