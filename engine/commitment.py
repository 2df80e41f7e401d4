"""The deck commitment: what a table publishes before a hand so the deal can be checked after.

A hand's deck order and its reshuffle seed are stored as one text, ``"<cards>|<seed>"``
(:meth:`DeckRecord.encode`, read back by :meth:`DeckRecord.parse`). The commitment is the
SHA-256 of that text followed by ``|`` and a secret salt; it is shown before the first action,
and the deck, seed and salt are revealed when the hand is over.

>>> from engine.cards import parse_cards
>>> record = DeckRecord(parse_cards("As Kd 7c"), 42)
>>> record.encode()
'As Kd 7c|42'
>>> DeckRecord.parse("As Kd 7c|42") == record
True
>>> digest = record.commitment("pepper")
>>> record.verify(digest, "pepper"), record.verify(digest, "salt")
(True, False)
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

from engine.cards import Card, parse_card

__all__ = ["DeckRecord"]


@dataclass(frozen=True, slots=True)
class DeckRecord:
    """A hand's deck order (top card first) and the seed of its reshuffles."""

    deck: tuple[Card, ...]
    seed: int

    def __post_init__(self) -> None:
        if self.seed < 0:
            raise ValueError("a deck seed is a non-negative whole number")
        if len(set(self.deck)) != len(self.deck):
            raise ValueError("a deck holds each card once")

    def encode(self) -> str:
        """The stored text: the cards' short codes, ``|``, the seed."""
        return f"{' '.join(str(card) for card in self.deck)}|{self.seed}"

    @classmethod
    def parse(cls, text: str) -> DeckRecord:
        """Read :meth:`encode`'s text back.

        >>> DeckRecord.parse("As Kd|x")
        Traceback (most recent call last):
        ...
        ValueError: the deck's seed must be digits, got 'x'

        :raises ValueError: with the reason, for anything :meth:`encode` would not write.
        """
        cards_text, bar, seed_text = text.rpartition("|")
        if not bar:
            raise ValueError("a deck record is '<cards>|<seed>'")
        if not (seed_text.isascii() and seed_text.isdigit()):
            raise ValueError(f"the deck's seed must be digits, got {seed_text!r}")
        words = cards_text.split(" ") if cards_text else []
        deck = tuple(parse_card(word) for word in words)
        record = cls(deck, int(seed_text))
        if record.encode() != text:
            raise ValueError("a deck record is written with single spaces and short card codes")
        return record

    def commitment(self, salt: str) -> str:
        """The SHA-256 (hex) of the encoded record, ``|`` and ``salt``."""
        return hashlib.sha256(f"{self.encode()}|{salt}".encode()).hexdigest()

    def verify(self, commitment: str, salt: str) -> bool:
        """Whether this record and ``salt`` hash to ``commitment`` (compared in constant time)."""
        return hmac.compare_digest(self.commitment(salt), commitment)
