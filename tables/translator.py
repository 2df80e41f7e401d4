"""The table service's words: refusals, the notes a table shows, its announcements.

``_`` is the ``tables`` package's one translator (catalogues in ``tables/locales/``). The
service has no Discord code and does not import the cogs, so it has its own translator
rather than the cogs' one. A refusal is raised inside the interaction that asked, so it is
written in the current language (the asker's); a text the channel reads (a note on the table)
is written in the table's language, given as ``language=``.
"""

from __future__ import annotations

from i18n import Language, Translator, current_language

_ = Translator("tables", __file__)


def table_language(live: object) -> Language:
    """The language the table's channel reads: the live table's own (``LiveTable.language``)
    once it carries one, else the language of the work at hand."""
    language = getattr(live, "language", None)
    return language if isinstance(language, Language) else current_language()


__all__ = ["_", "table_language"]
