"""What a catalogue still lacks: the checks the suite runs and ``python -m i18n check`` lists.

A catalogue is complete when every message of its package's template has a translation that
is not fuzzy, keeps every named placeholder of the source (and invents none: it would not
format), and, for a plural message, has as many forms as the language has. A time written
with an abbreviated unit ("8 s", "5 min.") or a number after its sign ("n.º 12") keeps the two
together with a non-breaking space: a phone's narrow embed would otherwise leave the unit or
the number alone at the start of a line.
"""

from __future__ import annotations

import re

from babel.messages.catalog import Catalog, Message

from .translator import placeholders

_Id = str | tuple[str, ...]

# A time placeholder, a plain space and an abbreviated unit ("s", "min", "Std.", "мин"...);
# a number sign ("n.º", "nr", "№"...), a plain space and a placeholder; or a word, a plain
# space and "#" with its placeholder ("rozdanie #{number}", which a title broke before "#1").
_SPLIT_UNIT = re.compile(
    r"\{(?:seconds|minutes|hours)\} \w{1,3}\.?(?!\w)"
    r"|(?<![\w.])(?:n\.º|nº|n°|№|Nr\.|nr\.?) \{"
    r"|\w #\{"
)


def splits_a_number(text: str) -> bool:
    """Whether a line of ``text`` may break between a number and its unit or sign."""
    return _SPLIT_UNIT.search(text) is not None


def _key(message: Message) -> _Id:
    return tuple(message.id) if message.pluralizable else str(message.id)


def _sources(message: Message) -> tuple[str, ...]:
    return tuple(message.id) if message.pluralizable else (str(message.id),)


def _forms(message: Message) -> tuple[str, ...]:
    if isinstance(message.string, list | tuple):
        return tuple(message.string)
    return (message.string or "",)


def problems(template: Catalog, catalogue: Catalog) -> list[str]:
    """Every way ``catalogue`` falls short of ``template`` (empty when it is complete)."""
    found: list[str] = []
    for source in template:
        if not source.id:
            continue
        key = source.id[0] if source.pluralizable else source.id
        name = repr(key)
        translated = catalogue.get(source.id, source.context)
        if translated is None or translated.fuzzy:
            found.append(f"{name}: {'fuzzy' if translated else 'missing'}")
            continue
        forms = _forms(translated)
        if not all(forms):
            found.append(f"{name}: untranslated")
            continue
        allowed = set().union(*(placeholders(s) for s in _sources(source)))
        if source.pluralizable:
            wanted = placeholders(source.id[1])
            if len(forms) != catalogue.num_plurals:
                found.append(f"{name}: {len(forms)} plural forms, not {catalogue.num_plurals}")
        else:
            wanted = allowed
        for form in forms:
            missing, invented = wanted - placeholders(form), placeholders(form) - allowed
            if missing:
                found.append(f"{name}: {form!r} lacks {{{'}, {'.join(sorted(missing))}}}")
            if invented:
                found.append(f"{name}: {form!r} invents {{{'}, {'.join(sorted(invented))}}}")
            if splits_a_number(form):
                found.append(f"{name}: {form!r} needs a non-breaking space beside a number")
    return found


def stale(template: Catalog, fresh: Catalog) -> tuple[set[_Id], set[_Id]]:
    """The messages the code has and the template lacks, and those the template keeps that
    the code no longer has."""
    have = {_key(m) for m in template if m.id}
    want = {_key(m) for m in fresh if m.id}
    return want - have, have - want


__all__ = ["problems", "splits_a_number", "stale"]
