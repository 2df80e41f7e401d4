#!/usr/bin/env python3
"""Check a deal proof from ``/poker verify`` without the bot: standard library only.

Usage::

    python3 verify_deal.py hand-12-proof.json [--root HEX] [--card As --card Kd ...]

``--root`` is the commitment the table showed when the hand was dealt (the table message shows
its first 16 digits: a prefix is enough). ``--card`` names a card you expect to be opened (one
you held, or one shown at the showdown). ``--pool N`` (with an opened reshuffle seed) prints the
pool slot each card dealt after the reshuffle came from. Prints each opened card with its
position and where that position was dealt, then ``OK``; prints what is wrong and exits with
status 1 otherwise.

The format (``poker-deal-proof/1``, described in docs/players/fair-deals.md): the deck is committed
as a Merkle tree whose leaves are ``card|<position>|<card>|<salt>`` for each position of the deck
(top card first), then ``reshuffle|<seed>|<salt>`` at index ``deck_size``, then ``pad|<i>`` up
to a power of two. A leaf hashes as SHA-256(0x00 + text), a node as SHA-256(0x01 + left +
right); an opening gives the leaf's index, its text and the sibling hashes from the leaf up.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Sequence
from typing import Any

FORMAT = "poker-deal-proof/1"
RANKS = set("23456789TJQKA")
SUITS = set("cdhs")


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def root_of(leaf: str, index: int, path: list[str]) -> str:
    """The root that ``leaf`` at ``index`` reaches by climbing ``path``."""
    digest = sha256(b"\x00" + leaf.encode())
    for level, sibling_hex in enumerate(path):
        sibling = bytes.fromhex(sibling_hex)
        pair = sibling + digest if index >> level & 1 else digest + sibling
        digest = sha256(b"\x01" + pair)
    return digest.hex()


def reshuffle_order(seed: int, number: int, size: int) -> list[int]:
    """The pool slots (0 = first burn card; then the rest of the stub from its bottom card up;
    then the discards in the order thrown) in the order the ``number``-th reshuffle of a pool
    of ``size`` cards deals them."""
    slots = list(range(size))
    random.Random((seed << 8) + number).shuffle(slots)
    return slots[::-1]  # the new stub is dealt from its end


def is_card(text: str) -> bool:
    return text == "JK" or (len(text) == 2 and text[0] in RANKS and text[1] in SUITS)


def check(
    proof: dict[str, Any], root: str | None = None, expected: Sequence[str] = ()
) -> list[str]:
    """Everything wrong with ``proof`` (an empty list when it checks out)."""
    if proof.get("format") != FORMAT:
        return [f"not a {FORMAT} proof"]
    wrong = []
    if root is not None and not proof["root"].startswith(root.lower()):
        wrong.append(f"the proof's root {proof['root']} is not the commitment {root}")
    size = proof["deck_size"]
    depth = max(1, size.bit_length())
    cards: dict[str, int] = {}
    for opening in proof["openings"]:
        index, leaf, path = opening["index"], opening["leaf"], opening["path"]
        fields = leaf.split("|")
        if len(path) != depth:
            wrong.append(f"leaf {index}: {len(path)} hashes on its path, not {depth}")
        elif root_of(leaf, index, path) != proof["root"]:
            wrong.append(f"leaf {index} ({leaf}) does not lead to the root")
        if fields[0] == "card" and len(fields) == 4:
            position, card = fields[1], fields[2]
            if position != str(index) or index >= size or not is_card(card):
                wrong.append(f"leaf {index} is not a card at its own position: {leaf}")
            elif card in cards:
                wrong.append(f"{card} is at positions {cards[card]} and {index}")
            else:
                cards[card] = index
        elif fields[0] == "reshuffle" and len(fields) == 3:
            if index != size:
                wrong.append(f"the reshuffle leaf belongs at {size}, not {index}")
        else:
            wrong.append(f"leaf {index} is neither a card nor the reshuffle seed: {leaf}")
    for card in expected:
        if card not in cards:
            wrong.append(f"{card} is not opened by this proof")
    # Cards leave the deck from the top: the positions dealt before a reshuffle come first.
    dealt = proof.get("dealt_to", [])
    taken = sum(1 for label in dealt if label)
    if not all(dealt[:taken]):
        wrong.append("the cards dealt before the first reshuffle are not the deck's top cards")
    return wrong


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Check a /poker verify deal proof.")
    parser.add_argument("proof", help="the JSON file attached by /poker verify ('-': stdin)")
    parser.add_argument("--root", help="the commitment shown at the deal (or its first digits)")
    parser.add_argument("--card", action="append", default=[], help="a card you expect opened")
    parser.add_argument(
        "--pool",
        type=int,
        help="with an opened seed: the number of cards reshuffled (the replay says it); prints "
        "which pool slot each card dealt after the reshuffle came from",
    )
    parser.add_argument("--reshuffle", type=int, default=1, help="which reshuffle (default 1)")
    args = parser.parse_args(argv)
    if args.proof == "-":
        text = sys.stdin.read()
    else:
        with open(args.proof, encoding="utf-8") as file:
            text = file.read()
    try:
        proof = json.loads(text)
        wrong = check(proof, args.root, args.card)
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        wrong = [f"unreadable proof: {error!r}"]
    if wrong:
        for line in wrong:
            print(f"FAIL: {line}")
        return 1
    dealt = proof.get("dealt_to", [])
    print(f"hand {proof['hand']}, root {proof['root']}, opened for {proof['viewer']}")
    for opening in proof["openings"]:
        kind, value, *_ = opening["leaf"].split("|")
        if kind == "card":
            index = opening["index"]
            where = dealt[index] if index < len(dealt) and dealt[index] else "after a reshuffle"
            print(f"position {index}: {opening['leaf'].split('|')[2]} ({where})")
        else:
            print(f"reshuffle seed: {value}")
            if args.pool:
                order = reshuffle_order(int(value), args.reshuffle, args.pool)
                print(f"reshuffle {args.reshuffle}, dealt from pool slots: {order}")
    if proof["reshuffles"] and proof["seed_withheld"]:
        print(f"reshuffle seed withheld: {proof['seed_withheld']}")
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
