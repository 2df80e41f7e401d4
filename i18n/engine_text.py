"""The engine's words in the reader's language: the one way engine text reaches a player.

The engine is pure and never imports this layer: it speaks in values (a
:class:`engine.hands.HandValue`, an event kind with its blanks, a refusal whose reason is an
:class:`engine.wording.Phrase`: a template with named placeholders and its values) and keeps
its English sentences as the source strings of its catalogue, ``engine/locales``. Whatever a
player reads of them is rendered here, in the current language (:func:`i18n.speaking`) or the
one given::

    hand_name(value, language=table_language)        # "Pair of sevens"
    say("raised", who="ann", amount=40)               # "ann raises to 40"
    refusal(exc)                                      # an IllegalAction, TableError... in words
    engine_text(table.config.rules_notes()[0])        # any other phrase of the engine

English reads exactly as the engine writes it, except that numbers are formatted as the layer
formats them everywhere (``2,000``):

>>> import random
>>> from engine import Check, Table, TableConfig
>>> from engine.errors import IllegalAction
>>> from i18n.languages import PSEUDO
>>> table = Table(TableConfig())
>>> _ = table.sit("ann", 50), table.sit("bob", 50)
>>> _ = table.start_hand(random.Random(3))
>>> try:
...     table.act("bob", Check())
... except IllegalAction as exc:
...     refused = exc
>>> refusal(refused)
"it is not bob's turn to act"
>>> refusal(refused, language=PSEUDO)
"[îŧ îš ñöŧ bob'š ŧûŕñ ŧö åçŧ ···········]"
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import engine
from engine import wording
from engine.hands import Category, HandValue
from engine.variants import OPENER_FIRST, Variant, VariantOption, list_variants
from engine.wording import Phrase, RankWord

from .languages import Language
from .poker_words import HAND_NAMES, LOW_HAND, ROYAL_FLUSH, contract, rank_word
from .translator import Translator, current_language, render

log = logging.getLogger(__name__)

_ = Translator("engine", Path(engine.__file__))
"""The engine's catalogue (``engine/locales``): the engine cannot import the layer, so its
translator lives here."""

__all__ = [
    "engine_messages",
    "engine_text",
    "hand_name",
    "option_description",
    "option_label",
    "refusal",
    "say",
    "variant_description",
    "variant_name",
]

# A template's format specs and conversions ("{low:,}", "{seat!r}") are the engine's English
# formatting: the layer formats numbers in the reader's way, so it fills the bare placeholder.
_SPEC = re.compile(r"\{(\w+)[!:][^{}]*\}")


def _bare(template: str) -> str:
    return _SPEC.sub(r"{\1}", template)


def _value(value: object, language: Language) -> object:
    if isinstance(value, Phrase):
        return _phrase(value, language)
    if isinstance(value, RankWord):
        return rank_word(value.rank, plural=value.plural).render(language)
    if isinstance(value, bool | int | float):
        return value
    return str(value)


def _phrase(phrase: str, language: Language) -> str:
    """``phrase`` in ``language``: a :class:`Phrase` by its template and values, other text
    as the catalogue has it (English when it has not)."""
    if not isinstance(phrase, Phrase):
        return _.translation(phrase, language) or phrase
    values = {name: _value(value, language) for name, value in phrase.values.items()}
    if phrase.plural is not None:
        count = values.pop("count")
        assert isinstance(count, int)
        text = _.plural(phrase.template, phrase.plural, count=count, language=language, **values)
    elif values:
        # (The ranks are words by now: whether there were any is asked of the phrase.)
        ranked = any(isinstance(v, RankWord) for v in phrase.values.values())
        text = _format(phrase.template, language, values, ranked=ranked)
    else:
        text = _.translation(phrase.template, language) or phrase.template
    if phrase.capital:
        return wording.sentence(text)
    if phrase.lowered and wording.sentence(text) == wording.sentence(phrase):
        return text[:1].lower() + text[1:]  # the English words, in their place's small letter
    return text


def _format(
    template: str, language: Language, values: Mapping[str, object], *, ranked: bool = False
) -> str:
    """``template`` in ``language`` with ``values``; ``ranked``: a rank is among them, said
    as a word (as a :class:`RankWord` value always is)."""
    translated = _.translation(template, language)
    if translated is not None:
        try:
            text = render(_bare(translated), language, values)
        except (KeyError, IndexError, ValueError):
            log.error("the %s translation of %r does not format", language, template)
        else:
            # A rank said as a word may meet the words before it ("de as": "d'as").
            if ranked or any(isinstance(v, RankWord) for v in values.values()):
                return contract(text, language)
            return text
    return render(_bare(template), language, values)


def engine_text(message: str, *, language: Language | None = None, **values: object) -> str:
    """Any text of the engine in the reader's language: a :class:`Phrase` (a reason, a rules
    note, a modifier's words or warning), or a template with ``values`` for its named
    placeholders, or a plain source string such as a verb of :data:`engine.wording.VERBS`
    (read in English when the catalogue lacks it: a game name made up at the table).

    >>> from i18n.languages import PSEUDO
    >>> engine_text("{count} wild cards make for many ties and some confusion", count=8)
    '8 wild cards make for many ties and some confusion'
    >>> engine_text(wording.VERBS["raised"], language=PSEUDO)
    '[ŕåîšéš ŧö ··]'
    """
    language = language or current_language()
    if values:
        return _format(message, language, values)
    return _phrase(message, language)


def refusal(exc: BaseException, *, language: Language | None = None) -> str:
    """Why the engine refused (an :class:`engine.IllegalAction`, a :class:`engine.TableError`,
    a tournament's, a seat's or the odds' refusal), as a sentence for the player."""
    reason = getattr(exc, "phrase", None)
    if not isinstance(reason, Phrase):
        reason = exc.args[0] if exc.args and isinstance(exc.args[0], Phrase) else str(exc)
    return engine_text(reason, language=language)


def say(kind: str, *, language: Language | None = None, **blanks: object) -> str:
    """The words for an event of ``kind`` (a key of :data:`engine.wording.PHRASES`), its
    blanks filled in (numbers in the language's way); lower-case first letter, as
    :func:`engine.wording.say` (:func:`engine.wording.sentence` starts a line with it).

    >>> say("raised", who="ann", amount=2000)
    'ann raises to 2,000'

    :raises KeyError: for a kind with no words, or a blank left empty.
    """
    return engine_text(wording.PHRASES[kind], language=language, **blanks)


def hand_name(value: HandValue, *, language: Language | None = None) -> str:
    """What a player calls the hand: "Full house, kings over nines", "Seven-five low"; in
    English exactly :attr:`engine.hands.HandValue.name`.

    >>> from engine.cards import parse_cards
    >>> from engine.hands import Ranking, evaluate
    >>> hand_name(evaluate(parse_cards("9h 9d 9s Kc Kd"), Ranking.HIGH))
    'Full house, nines over kings'
    """
    language = language or current_language()
    category, ranks = value.naming
    first = ranks[0]

    def one(rank: int) -> str:
        return rank_word(rank).render(language)

    def many(rank: int) -> str:
        return rank_word(rank, plural=True).render(language)

    if category is Category.HIGH_CARD and value.ranking.is_low:
        text = LOW_HAND.render(language, rank=one(first), next=one(ranks[1]))
    elif category is Category.STRAIGHT_FLUSH and first == 14:
        text = ROYAL_FLUSH.render(language)
    elif category is Category.TWO_PAIR:
        text = HAND_NAMES[category].render(
            language, high_plural=many(first), low_plural=many(ranks[1])
        )
    elif category is Category.FULL_HOUSE:
        text = HAND_NAMES[category].render(
            language, three_plural=many(first), pair_plural=many(ranks[1])
        )
    else:
        text = HAND_NAMES[category].render(language, rank=one(first), rank_plural=many(first))
    return wording.sentence(contract(text, language))


def variant_name(variant: Variant, *, language: Language | None = None) -> str:
    """The game's name, as the catalogue lists it (a proper name such as Badugi may read the
    same in every language: its translator decides)."""
    return engine_text(variant.name, language=language)


def variant_description(variant: Variant, *, language: Language | None = None) -> str:
    """The game's description, as the catalogue lists it (with the note on who bets first
    after the draw, a paragraph of its own in the catalogue)."""
    language = language or current_language()
    description = variant.description
    if description.endswith(" " + OPENER_FIRST):
        own = description[: -len(OPENER_FIRST) - 1]
        return (
            f"{engine_text(own, language=language)} {engine_text(OPENER_FIRST, language=language)}"
        )
    return engine_text(description, language=language)


def option_label(option: VariantOption, *, language: Language | None = None) -> str:
    """A game option's short label (a button or a select option)."""
    return engine_text(option.label, language=language)


def option_description(option: VariantOption, *, language: Language | None = None) -> str:
    """What a game option changes."""
    return engine_text(option.description, language=language)


def _catalogue_texts() -> Iterator[tuple[str, str]]:
    yield OPENER_FIRST, "Ends the description of every game where the opener bets first."
    for variant in list_variants():
        yield variant.name, "A game's name (keep a proper name such as Badugi as it is)."
        yield variant.rules.name, "A game's name (keep a proper name such as Badugi as it is)."
        switched = variant.rules.switch_on_pass_out
        if switched is not None:
            yield switched.name, f"The name {variant.name} takes when a pass-out turns it."
        description = variant.description.removesuffix(" " + OPENER_FIRST)
        yield description, f"The description of the game {variant.name}."
        for option in variant.options:
            yield option.label, f"A game option's label ({variant.name}), on a button: <= 80."
            yield option.description, f"What the game option {option.label!r} changes."


def _wording_texts() -> Iterator[tuple[str, str]]:
    for verb in wording.VERBS.values():
        yield verb, 'What a player does, after their name ("ann raises to 40").'
    for kind, phrase in wording.PHRASES.items():
        yield phrase, f"The table's line for the event {kind!r}; lower-case first letter."


def engine_messages() -> list[tuple[str, str]]:
    """The engine's texts that are not literals in a call the extractor reads (the catalogue
    of games and options, the event wording), with a comment for translators: the engine
    package's collector (``i18n.extract``)."""
    found: dict[str, str] = {}
    collectors: tuple[Callable[[], Iterator[tuple[str, str]]], ...] = (
        _catalogue_texts,
        _wording_texts,
    )
    for collect in collectors:
        for message, comment in collect():
            found.setdefault(message, comment)
    return list(found.items())
