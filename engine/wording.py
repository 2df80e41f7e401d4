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

A reason or a refusal is a :class:`Phrase`: its English text, which keeps the template and the
values it was made of, so that the localisation layer (its ``engine_text`` module) can say it in
another language while the engine knows no language but English:

>>> reason = Phrase("you can bet to between {low} and {high}, not {to}", low=2, high=4, to=9)
>>> reason
'you can bet to between 2 and 4, not 9'
>>> reason.template, reason.values["high"]
('you can bet to between {low} and {high}, not {to}', 4)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from engine.cards import RANK_WORDS

__all__ = ["PHRASES", "VERBS", "Phrase", "RankWord", "english", "say", "sentence"]

_NO_VALUES: Final[Mapping[str, object]] = MappingProxyType({})


def english(text: str) -> str:
    """``text`` itself: marks a template kept aside (in a table of sentences, filled later) as
    a source string of the engine's catalogue, as a call of :class:`Phrase` marks its own."""
    return text


class Phrase(str):
    """English words that remember their template (named placeholders in braces) and values.

    A phrase *is* its English text, so whoever prints, compares or logs it reads it as before;
    the localisation layer reads :attr:`template` and :attr:`values` instead. A value may be a
    phrase itself (a refusal that gives a reason), a number, or language-free text (a player's
    id, a card such as ``7h``): never an English word, or it would reach a player untranslated.
    The templates are the source strings of the engine's catalogue (``engine/locales``), found
    by the extractor in calls of ``Phrase`` and of the engine's exceptions.
    """

    template: str
    values: Mapping[str, object]
    plural: str | None
    """The template for a count other than one (:meth:`counted`), else None."""
    capital: bool
    """Whether the text begins with a capital letter whatever its first word (:meth:`begun`)."""
    lowered: bool
    """Whether the English text begins with a small letter inside a longer phrase
    (:meth:`within`)."""

    def __new__(cls, template: str, /, **values: object) -> Phrase:
        if not values and isinstance(template, Phrase):
            return template  # already a phrase: keep what it is made of
        text = template.format(**values) if values else template
        self = super().__new__(cls, text)
        self.template = template
        self.values = MappingProxyType(values) if values else _NO_VALUES
        self.plural = None
        self.capital = self.lowered = False
        return self

    @classmethod
    def begun(cls, template: str, /, **values: object) -> Phrase:
        """The phrase as a sentence of its own begins, with a capital first letter (when the
        first word is a value, such as a few words of a menu: ``"{words}."``).

        >>> Phrase.begun("{words}.", words=Phrase("kings wild"))
        'Kings wild.'
        """
        made = cls(template, **values)
        self = super().__new__(cls, sentence(made))
        self.template, self.values, self.plural = made.template, made.values, None
        self.capital, self.lowered = True, False
        return self

    @classmethod
    def counted(cls, singular: str, plural: str, /, *, count: int, **values: object) -> Phrase:
        """The phrase for ``count`` things (``{count}`` is a placeholder like the others); a
        language with more plural forms than English picks its own.

        >>> Phrase.counted("choose {count} card", "choose {count} cards", count=1)
        'choose 1 card'
        """
        self = cls(singular if count == 1 else plural, count=count, **values)
        self.template = singular
        self.plural = plural
        return self

    @classmethod
    def within(cls, phrase: Phrase) -> Phrase:
        """``phrase`` inside a longer one, its first letter in lower case in English (a game's
        name after a prefix: "Triple-draw five-card draw"); a translation keeps its own case.
        """
        self = super().__new__(cls, phrase[:1].lower() + phrase[1:])
        self.template, self.values, self.plural = phrase.template, phrase.values, phrase.plural
        self.capital, self.lowered = False, True
        return self

    def __reduce__(self) -> tuple[object, ...]:
        made = (self.template, self.plural, dict(self.values), self.capital)
        if self.lowered:
            return (_within, (_phrase(*made),))
        return (_phrase, made)


def _within(phrase: Phrase) -> Phrase:
    return Phrase.within(phrase)


def _phrase(
    template: str, plural: str | None, values: dict[str, object], capital: bool = False
) -> Phrase:
    if capital:
        return Phrase.begun(template, **values)
    if plural is None:
        return Phrase(template, **values)
    count = values.pop("count")
    assert isinstance(count, int)
    return Phrase.counted(template, plural, count=count, **values)


@dataclass(frozen=True, slots=True)
class RankWord:
    """A rank said as a word ("seven", or "sevens" when ``plural``): a phrase's value that the
    localisation layer says in the reader's language (``str()`` is the English word)."""

    rank: int
    plural: bool = False

    def __str__(self) -> str:
        return RANK_WORDS[self.rank][1 if self.plural else 0]


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
    "drew": "{who} " + VERBS["drew"] + " {amount}",
    "shown": "{who} " + VERBS["shown"],
    "mucked": "{who} " + VERBS["mucked"],
    "choosing-cards": "{who} " + VERBS["choosing-cards"],
    "arranging": "{who} " + VERBS["arranging"],
    "declaring": "{who} " + VERBS["declaring"],
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
