"""The table service's words: refusals, the notes a table shows, its announcements.

``_`` is the ``tables`` package's one translator (catalogues in ``tables/locales/``). The
service has no Discord code and does not import the cogs, so it has its own translator
rather than the cogs' one. A refusal is raised inside the interaction that asked, so it is
written in the current language (the asker's); a text the channel reads (a note on the table)
is written in the table's language, given as ``language=``.
"""

from __future__ import annotations

from i18n import Translator

_ = Translator("tables", __file__)

__all__ = ["_"]
