"""Deal commitments: what a table publishes before a hand so the deal can be checked after.

Two schemes, both kept: a hand is checked by the one it was dealt under.

* :class:`DealCommitment` (every hand dealt now): a Merkle tree over the deck, position by
  position, and the reshuffle seed. Its root is shown before the first action; after the hand,
  :meth:`DealCommitment.open` reveals only chosen leaves (a :class:`DealProof`): for each viewer
  the cards they saw (:func:`cards_seen`, from the events' own masks), and the seed only when
  it exposes nothing (:func:`seed_withheld`).
* :class:`DeckRecord` (hands dealt before): the SHA-256 of the whole deck, the seed and a salt,
  which can only be checked by revealing the whole deck.

>>> from engine.cards import parse_cards
>>> deal = DealCommitment(parse_cards("As Kd 7c"), 42, "ab" * 16)
>>> proof = deal.open(1, "everyone", parse_cards("7c"), with_seed=False)
>>> proof.root == deal.root(), proof.problems(), [o.index for o in proof.openings]
(True, [], [2])

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

import dataclasses
import hashlib
import hmac
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from engine.cards import Card, parse_card
from engine.events import Burned, Drew, Event, Masked, Reshuffled

__all__ = [
    "PROOF_FORMAT",
    "DealCommitment",
    "DealProof",
    "DeckRecord",
    "Opening",
    "cards_seen",
    "cards_to_open",
    "dealt_to",
    "leaf_hash",
    "node_hash",
    "root_from_path",
    "seed_withheld",
    "stored_deck",
]


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


# ---------------------------------------------------------------------------------------------
# Card-by-card commitments (hands dealt since the Merkle scheme)
# ---------------------------------------------------------------------------------------------
#
# Why a tree: one hash over the whole deck can only be checked by revealing the whole deck,
# which names every folded and unshown card. A Merkle root commits to the same thing, yet each
# position can be opened alone: its leaf plus the hashes along its path to the root.
#
# Leaves, in order: one per deck position ``p`` (top card first), the text
# ``card|<p>|<card>|<salt p>``, then ``reshuffle|<seed>|<salt n>`` at index ``n`` (the deck's
# size), then ``pad|<i>`` up to the next power of two, so every path has the same length and
# its bits are the leaf's index. Each salt is the HMAC-SHA256 of ``salt|<index>`` under the
# hand's secret (32 hex digits): revealing one leaf's salt says nothing about any other, and
# an unopened leaf's hash (seen as a sibling on someone's path) can't be guessed card by card.
# Hashes: a leaf is SHA-256(0x00 + text), an inner node SHA-256(0x01 + left + right), the
# prefixes keeping a leaf from ever passing for a node.

PROOF_FORMAT: Final = "poker-deal-proof/1"
"""The ``format`` field of every proof this module writes (see :meth:`DealProof.to_json`)."""

_V2: Final = 2


def leaf_hash(text: str) -> bytes:
    """The hash of one leaf's text."""
    return hashlib.sha256(b"\x00" + text.encode()).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """The hash of an inner node from its two children."""
    return hashlib.sha256(b"\x01" + left + right).digest()


def _levels(leaves: Sequence[str]) -> list[list[bytes]]:
    """Every level of the tree, the leaves' hashes first, the root alone last."""
    if not leaves or len(leaves) & (len(leaves) - 1):
        raise ValueError("a tree has a power-of-two number of leaves")
    level = [leaf_hash(text) for text in leaves]
    levels = [level]
    while len(level) > 1:
        level = [node_hash(level[i], level[i + 1]) for i in range(0, len(level), 2)]
        levels.append(level)
    return levels


def root_from_path(text: str, index: int, path: Sequence[str]) -> str:
    """The root (hex) that leaf ``text`` at ``index`` with sibling hashes ``path`` (hex,
    leaf level first) leads to.

    :raises ValueError: for a sibling that is not 32 bytes of hex, or an index too large for
        the path.
    """
    if not 0 <= index < 1 << len(path):
        raise ValueError(f"leaf {index} is not in a tree of depth {len(path)}")
    digest = leaf_hash(text)
    for level, sibling_hex in enumerate(path):
        sibling = bytes.fromhex(sibling_hex)
        if len(sibling) != 32:
            raise ValueError("a path holds 32-byte SHA-256 hashes")
        left, right = (sibling, digest) if index >> level & 1 else (digest, sibling)
        digest = node_hash(left, right)
    return digest.hex()


@dataclass(frozen=True, slots=True)
class Opening:
    """One opened leaf: its index in the tree, its text, and the hashes that lead to the root."""

    index: int
    text: str
    path: tuple[str, ...]

    def card(self) -> Card | None:
        """The card at this position (``None`` for the reshuffle leaf).

        :raises ValueError: for a text that is neither kind of leaf, or names another index.
        """
        kind, *fields = self.text.split("|")
        if kind == "card" and len(fields) == 3 and fields[0] == str(self.index):
            return parse_card(fields[1])
        if kind == "reshuffle" and len(fields) == 2 and fields[0].isdigit():
            return None
        raise ValueError(f"leaf {self.index} is not a card or reshuffle leaf: {self.text!r}")

    def seed(self) -> int | None:
        """The reshuffle seed, if this is the reshuffle leaf."""
        kind, *fields = self.text.split("|")
        return int(fields[0]) if kind == "reshuffle" and len(fields) == 2 else None

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "leaf": self.text, "path": list(self.path)}


@dataclass(frozen=True, slots=True)
class DealProof:
    """Leaves of one hand's tree opened for one viewer (or for everyone), with what a checker
    needs: the root shown before the first action and the deck's size, which places the
    reshuffle leaf.

    ``reshuffles`` is how many times the stub was reshuffled; ``seed_withheld`` says why the
    reshuffle leaf is not among the openings although a reshuffle happened (empty otherwise).
    ``dealt_to`` names, position by position, where the card taken there went before any
    reshuffle (see :func:`dealt_to`): public knowledge, against which each opened card's
    position can be checked.
    """

    hand_id: int
    root: str
    deck_size: int
    viewer: str
    openings: tuple[Opening, ...]
    reshuffles: int = 0
    seed_withheld: str = ""
    dealt_to: tuple[str, ...] = ()

    def problems(self) -> list[str]:
        """What does not check out (empty when every opening leads to the root).

        The checks: each leaf hashes along its path to :attr:`root`; every path has the
        depth of a tree holding ``deck_size + 1`` leaves; a card leaf's index is below
        ``deck_size`` and is the position written in it; the reshuffle leaf sits at index
        ``deck_size``; no position is opened twice and no card appears at two positions; the
        positions :attr:`dealt_to` names are the deck's first ones.
        """
        found: list[str] = []
        depth = max(1, (self.deck_size).bit_length())
        seen: dict[Card, int] = {}
        indexes: set[int] = set()
        for opening in self.openings:
            where = f"leaf {opening.index}"
            if len(opening.path) != depth:
                found.append(f"{where}: a path of {len(opening.path)} hashes, not {depth}")
                continue
            if opening.index in indexes:
                found.append(f"{where} is opened twice")
            indexes.add(opening.index)
            try:
                card = opening.card()
                reached = root_from_path(opening.text, opening.index, opening.path)
            except ValueError as error:
                found.append(f"{where}: {error}")
                continue
            if not hmac.compare_digest(reached, self.root):
                found.append(f"{where} ({opening.text.split('|')[0]}) does not lead to the root")
            if card is None:
                if opening.index != self.deck_size:
                    found.append(f"{where}: the reshuffle leaf belongs at {self.deck_size}")
            elif opening.index >= self.deck_size:
                found.append(f"{where}: a card beyond the deck's {self.deck_size} positions")
            elif card in seen:
                found.append(f"{card} is at positions {seen[card]} and {opening.index}")
            else:
                seen[card] = opening.index
        # Cards leave the deck from the top: before a reshuffle, the positions dealt are the
        # first ones, with no gap (whatever the game deals them to).
        taken = sum(1 for label in self.dealt_to if label)
        if not all(self.dealt_to[:taken]):
            found.append("the cards dealt before the first reshuffle are not the deck's top cards")
        return found

    def cards(self) -> dict[int, Card]:
        """Position -> card, for every card leaf opened (assumes :meth:`problems` is empty)."""
        return {o.index: card for o in self.openings if (card := o.card()) is not None}

    def seed(self) -> int | None:
        """The reshuffle seed, when its leaf is opened."""
        return next((s for o in self.openings if (s := o.seed()) is not None), None)

    def to_json(self) -> str:
        """The proof as the bot hands it out (docs/players/fair-deals.md documents each field)."""
        data = {
            "format": PROOF_FORMAT,
            "hand": self.hand_id,
            "root": self.root,
            "deck_size": self.deck_size,
            "viewer": self.viewer,
            "reshuffles": self.reshuffles,
            "seed_withheld": self.seed_withheld,
            "dealt_to": list(self.dealt_to),
            "openings": [o.to_dict() for o in self.openings],
        }
        return json.dumps(data, indent=1)

    @classmethod
    def from_json(cls, text: str) -> DealProof:
        """Read :meth:`to_json`'s text back.

        :raises ValueError: for anything not in that shape.
        """
        try:
            data = json.loads(text)
            if data["format"] != PROOF_FORMAT:
                raise ValueError(f"not a {PROOF_FORMAT} proof")
            openings = tuple(
                Opening(int(o["index"]), str(o["leaf"]), tuple(str(h) for h in o["path"]))
                for o in data["openings"]
            )
            return cls(
                int(data["hand"]),
                str(data["root"]),
                int(data["deck_size"]),
                str(data["viewer"]),
                openings,
                int(data["reshuffles"]),
                str(data["seed_withheld"]),
                tuple(str(label) for label in data["dealt_to"]),
            )
        except (KeyError, TypeError, AttributeError) as error:
            raise ValueError(f"a proof needs {error}") from None


@dataclass(frozen=True, slots=True)
class DealCommitment:
    """A hand's deck (top card first), reshuffle seed and secret, committed leaf by leaf.

    >>> from engine.cards import parse_cards
    >>> deal = DealCommitment(parse_cards("As Kd 7c 2h"), 42, "00" * 32)
    >>> len(deal.leaves()), deal.leaves()[0].startswith("card|0|As|")
    (8, True)
    >>> DealCommitment.parse(deal.encode(), deal.secret) == deal
    True
    >>> proof = deal.open(7, "seat 1", parse_cards("Kd"), with_seed=True)
    >>> proof.problems(), proof.cards(), proof.seed()
    ([], {1: Card.from_str('Kd')}, 42)

    A leaf changed after the root was published no longer leads to it:

    >>> forged = Opening(1, proof.openings[0].text.replace("Kd", "Ks"), proof.openings[0].path)
    >>> DealProof(7, deal.root(), 4, "seat 1", (forged,)).problems()
    ['leaf 1 (card) does not lead to the root']
    """

    deck: tuple[Card, ...]
    reshuffle_seed: int
    secret: str

    def __post_init__(self) -> None:
        if self.reshuffle_seed < 0:
            raise ValueError("a reshuffle seed is a non-negative whole number")
        if len(set(self.deck)) != len(self.deck):
            raise ValueError("a deck holds each card once")
        if len(self.secret) < 32:
            raise ValueError("a hand's secret has at least 16 bytes (32 hex digits)")

    def _salt(self, index: int) -> str:
        return hmac.new(self.secret.encode(), f"salt|{index}".encode(), "sha256").hexdigest()[:32]

    def leaves(self) -> tuple[str, ...]:
        """Every leaf's text, index order."""
        n = len(self.deck)
        texts = [f"card|{p}|{card}|{self._salt(p)}" for p, card in enumerate(self.deck)]
        texts.append(f"reshuffle|{self.reshuffle_seed}|{self._salt(n)}")
        size = 1 << max(1, n.bit_length())
        texts.extend(f"pad|{i}" for i in range(n + 1, size))
        return tuple(texts)

    def root(self) -> str:
        """The commitment published before the first action (hex)."""
        return _levels(self.leaves())[-1][0].hex()

    def open(
        self,
        hand_id: int,
        viewer: str,
        cards: Iterable[Card],
        *,
        with_seed: bool,
        dealt: Sequence[str] = (),
    ) -> DealProof:
        """The proof opening the positions of ``cards`` (and the reshuffle leaf if
        ``with_seed``); nothing else is revealed.

        :raises ValueError: for a card that is not in the deck.
        """
        position = {card: p for p, card in enumerate(self.deck)}
        indexes = set()
        for card in cards:
            if card not in position:
                raise ValueError(f"{card} is not in this hand's deck")
            indexes.add(position[card])
        if with_seed:
            indexes.add(len(self.deck))
        texts = self.leaves()
        levels = _levels(texts)
        openings = []
        for index in sorted(indexes):
            path = tuple(levels[k][(index >> k) ^ 1].hex() for k in range(len(levels) - 1))
            openings.append(Opening(index, texts[index], path))
        return DealProof(
            hand_id, self.root(), len(self.deck), viewer, tuple(openings), dealt_to=tuple(dealt)
        )

    def encode(self) -> str:
        """The stored text of the deck and seed (the secret is stored apart): versioned JSON,
        never confused with a :class:`DeckRecord`, whose text never starts with ``{``."""
        data = {"v": _V2, "deck": " ".join(map(str, self.deck)), "seed": self.reshuffle_seed}
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def parse(cls, text: str, secret: str) -> DealCommitment:
        """Read :meth:`encode`'s text back, with the secret stored beside it.

        :raises ValueError: with the reason, for anything :meth:`encode` would not write.
        """
        try:
            data = json.loads(text)
            if data["v"] != _V2:
                raise ValueError(f"unknown deal record version {data['v']!r}")
            words = str(data["deck"]).split(" ") if data["deck"] else []
            seed = data["seed"]
        except (KeyError, TypeError) as error:
            raise ValueError(f"a deal record needs {error}") from None
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError("a deal record's seed is a whole number")
        return cls(tuple(parse_card(word) for word in words), seed, secret)

    @staticmethod
    def is_encoded(text: str) -> bool:
        """Whether ``text`` is a record of this scheme rather than a :class:`DeckRecord`."""
        return text.startswith("{")


def stored_deck(text: str) -> tuple[Card, ...]:
    """The deck order (top card first) in a hand's stored record, of either scheme.

    >>> stored_deck("As Kd|42") == stored_deck('{"v":2,"deck":"As Kd","seed":42}')
    True

    :raises ValueError: for a record neither scheme writes.
    """
    if DealCommitment.is_encoded(text):
        return DealCommitment.parse(text, "0" * 32).deck
    return DeckRecord.parse(text).deck


# ---------------------------------------------------------------------------------------------
# Which leaves a viewer may have opened
# ---------------------------------------------------------------------------------------------


def _cards_in(value: Any, into: set[Card]) -> None:
    if isinstance(value, Card):
        into.add(value)
    elif isinstance(value, tuple | list | frozenset | set):
        for item in value:
            _cards_in(item, into)
    elif isinstance(value, Mapping):
        for item in value.values():
            _cards_in(item, into)


def cards_seen(events: Iterable[Event], seat: int | None) -> frozenset[Card]:
    """Every card ``seat`` saw during the hand (``None``: what everyone saw), as the events
    mask them (:meth:`engine.events.Event.masked_for`), the one rule for who sees what."""
    seen: set[Card] = set()
    for event in events:
        view = event.masked_for(seat)
        if isinstance(view, Masked):
            _cards_in(view.shown, seen)
        else:
            for field in dataclasses.fields(event):  # type: ignore[arg-type]
                _cards_in(getattr(event, field.name), seen)
    return frozenset(seen)


def cards_to_open(events: Sequence[Event], seat: int | None) -> frozenset[Card]:
    """The cards a proof for ``seat`` opens (``None``: everyone's): every card it saw
    (:func:`cards_seen`) but those handed to it after the first reshuffle that not everyone
    saw. Such a card's place in the committed deck says whose it was before the reshuffle
    (:func:`dealt_to`: whose discard the seat drew), which is what the withheld seed keeps
    secret; it stays unopened, like the reshuffle's order."""
    seen = cards_seen(events, seat)
    if seat is None:
        return seen
    return seen - (_handed_out_after_reshuffle(events, seat) - cards_seen(events, None))


def seed_withheld(events: Sequence[Event]) -> str:
    """Why the reshuffle seed must stay secret after this hand ("" when it may be revealed).

    The seed fixes the whole permutation of the reshuffle, and the order of the cards that went
    into it (burn cards, the rest of the stub, then the discards as they were thrown) is public
    except for their faces. A player knows their own discards, so with the seed they could
    follow each one to the seat that received it. The seed is therefore revealed only when
    every card handed out after the first reshuffle was shown to everyone; even then it tells
    where each of those shown cards came from (for instance that a player who folded had
    thrown it away), but names no card that was not shown.
    """
    if _handed_out_after_reshuffle(events, None) <= cards_seen(events, None):
        return ""
    return (
        "cards dealt after the reshuffle stayed hidden; the seed would show where each discard went"
    )


def _handed_out_after_reshuffle(events: Sequence[Event], seat: int | None) -> set[Card]:
    """The cards handed out from the first reshuffle on (to ``seat`` only, unless None): what
    each draw received (its discards were the drawer's own), and every other private card."""
    first = next((i for i, e in enumerate(events) if isinstance(e, Reshuffled)), None)
    handed_out: set[Card] = set()
    for event in events[len(events) if first is None else first :]:
        if seat is not None and getattr(event, "seat", None) != seat:
            continue
        if isinstance(event, Drew):
            _cards_in(event.received, handed_out)
        else:
            for name in event._private:
                _cards_in(getattr(event, name), handed_out)
    return handed_out


def dealt_to(deck: Sequence[Card], events: Sequence[Event]) -> tuple[str, ...]:
    """Where each position's card went when it was first taken from the stub: ``"seat <n>"``,
    ``"burn"`` or ``"board"``, and ``""`` for a card not taken before the first reshuffle.

    This is public: the order of dealing and the number of cards each seat drew say who gets
    the next card from the top, whatever the faces. After a reshuffle they no longer do (the
    order of the new stub is the secret one), so the list stops there.

    >>> from engine.cards import parse_cards
    >>> from engine.events import Burned, Dealt
    >>> deck = parse_cards("As Kd 7c 2h")
    >>> dealt_to(deck, [Dealt(3, parse_cards("As"), False), Burned(deck[1])])
    ('seat 3', 'burn', '', '')
    """
    first: dict[Card, str] = {}
    for event in events:
        if isinstance(event, Reshuffled):
            break
        found: set[Card] = set()
        for field in dataclasses.fields(event):  # type: ignore[arg-type]
            _cards_in(getattr(event, field.name), found)
        seat = getattr(event, "seat", None)
        if isinstance(event, Burned):
            label = "burn"
        elif isinstance(seat, int):
            label = f"seat {seat}"
        else:
            label = "board"
        for card in found:
            first.setdefault(card, label)
    return tuple(first.get(card, "") for card in deck)
