"""The pseudo-language ``en-XA``: English made visibly foreign, and longer.

Every letter gets an accent, the text is bracketed and padded to about 140 % of its length
(German and Polish run that long), and the placeholders (``{player}``) stay as they are, so the
text still formats. A test that renders in ``en-XA`` and finds a plain English word has found a
string that escaped the layer.
"""

from __future__ import annotations

import re

_ACCENTED = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "åƀçđéƒĝĥîĵķļɱñöþǫŕšŧûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŦÛṼŴẊÝŽ",
)
# Placeholders and doubled braces pass through untouched; everything else is accented.
_PLACEHOLDER = re.compile(r"(\{\{|\}\}|\{[^{}]*\})")


def pseudo(text: str) -> str:
    """``text`` accented, bracketed and 40 % longer, with its placeholders intact.

    >>> pseudo("{player} raises to {amount}")
    '[{player} ŕåîšéš ŧö {amount} ·········]'
    >>> pseudo("")
    ''
    """
    if not text:
        return text
    parts = _PLACEHOLDER.split(text)
    accented = "".join(p if i % 2 else p.translate(_ACCENTED) for i, p in enumerate(parts))
    padding = max(1, round(len(text) * 0.4) - 2)
    return f"[{accented} {'·' * padding}]"


__all__ = ["pseudo"]
