"""Fair deals that reveal no folded card: the card-by-card commitment of issue 16.

The bot publishes a Merkle root when it deals; after the hand ``/poker verify`` hands each member
a proof that opens only the cards that member saw (their own, and those shown to everyone), and
``tests/verify_deal.py``, a standalone script, checks such a proof. Tests through the emulator
run the script on the files the real bot attaches; pure tests check the tree, the choice of the
leaves against the engine's own masks over many random hands, the reshuffle rule
docs/players/fair-deals.md documents, and that the reshuffle seed never gives the deck away.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import engine
from engine import events as ev
from engine.cards import Card, parse_card, parse_cards, permuted
from engine.commitment import (
    DealCommitment,
    DealProof,
    DeckRecord,
    Opening,
    cards_seen,
    cards_to_open,
    dealt_to,
    seed_withheld,
    stored_deck,
)
from engine.game import Hand
from engine.table import Table
from tests.bot.driver import create_table, current_table_message
from tests.bot.test_history import _deal, _passive, _play, _tamper
from tests.emulator import Emulator, World
from tests.engine.engine_helpers import make_table, random_action
from tests.verify_deal import check, reshuffle_order

SCRIPT = Path(__file__).parents[1] / "verify_deal.py"
SECRET = "5e" * 32


def _run_script(proof: str | bytes, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The standalone checker, run as a member would run it: a separate Python, on a file."""
    path = tmp_path / "proof.json"
    path.write_bytes(proof if isinstance(proof, bytes) else proof.encode())
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(path), *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def _cards_printed(output: str) -> set[str]:
    """The cards the script says are opened (its ``position N: CARD (...)`` lines)."""
    return {
        line.split(": ")[1].split(" ")[0]
        for line in output.splitlines()
        if line.startswith("position ")
    }


# -- through the bot ------------------------------------------------------------------------------


async def _verify_file(emu: Emulator, user: Any, world: World, hand_id: int) -> tuple[Any, bytes]:
    r = await emu.run_command(user, world.channel, "poker verify", {"hand": hand_id})
    assert r.ephemeral and "✅" in r.embeds[0]["title"], (r.content, r.embeds)
    assert len(r.attachments) == 1 and r.attachments[0].filename == f"hand-{hand_id}-proof.json"
    assert len(r.embeds[0]["description"]) <= 4096
    return r, bytes(r.attachments[0].data)


async def _stored_events(bot: Any, hand_id: int) -> list[ev.Event]:
    rows = await bot.db.hand_events(hand_id)
    return [ev.Event.from_dict(json.loads(row.event_json)) for row in rows]


async def test_each_member_checks_their_own_cards_and_no_one_elses(
    poker_bot: Any, emu: Emulator, world: World, tmp_path: Path, db_path: Path
) -> None:
    bot = await poker_bot()
    alice, bob, carol, dave = world.players
    await create_table(emu, world, [alice, bob, carol], stake=2, ante=1, auto_deal=0)
    hand_id = await _deal(emu, bot, world, alice)
    # The root is public before anyone acts: the table message shows its first digits.
    footer = (await current_table_message(emu, world)).embeds[0]["footer"]["text"]
    shown_root = footer.split("deck commitment ")[1].rstrip("…")
    assert len(shown_root) == 16
    await _play(emu, bot, world, _passive(fold={str(bob.id)}, discards={str(alice.id): (0, 1)}))
    events = await _stored_events(bot, hand_id)
    start = next(e for e in events if isinstance(e, ev.HandStarted))
    seats = {pid: seat for seat, pid, _ in start.seats}
    public = {str(c) for e in events if isinstance(e, ev.Shown) for c in e.cards}
    assert seats[str(bob.id)] not in {e.seat for e in events if isinstance(e, ev.Shown)}

    outputs: dict[str, set[str]] = {}
    for user in (alice, bob, carol, dave):
        seat = seats.get(str(user.id))
        own = set() if seat is None else {str(c) for c in cards_seen(events, seat)}
        r, proof = await _verify_file(emu, user, world, hand_id)
        summary = r.embeds[0]["description"]
        assert ("Yours alone:" in summary) is (seat is not None) and "Shown to everyone:" in summary
        if seat is not None:
            # Seats read as the table shows them (from 1), though the proof file counts from 0.
            assert f"(seat {seat + 1})" in summary and "(seat 0)" not in summary, summary
        wanted = [arg for card in sorted(own | public) for arg in ("--card", card)]
        done = _run_script(proof, tmp_path, "--root", shown_root, *wanted)
        assert done.returncode == 0 and done.stdout.endswith("OK\n"), done.stdout
        outputs[user.username] = _cards_printed(done.stdout)
        # Exactly the cards the member saw are opened: no more.
        assert outputs[user.username] == own | public, user.username
        assert json.loads(proof)["viewer"] == ("everyone" if seat is None else f"seat {seat}")
    bob_cards = {str(c) for e in events if isinstance(e, ev.Dealt) for c in e.cards} - public
    bob_cards &= {str(c) for c in cards_seen(events, seats[str(bob.id)])}
    assert len(bob_cards) == 5
    for name in ("alice", "carol", "dave"):
        assert not bob_cards & outputs[name]
    assert bob_cards <= outputs["bob"] and outputs["dave"] == public

    # A changed card, a changed hash on a path, another root: the script says so and fails.
    _r, proof = await _verify_file(emu, bob, world, hand_id)
    data = json.loads(proof)
    first = data["openings"][0]
    position, card = first["leaf"].split("|")[1:3]
    other = next(c for c in ("As", "Kd", "2c") if c != card)
    forged = json.loads(proof)
    forged["openings"][0]["leaf"] = first["leaf"].replace(f"|{card}|", f"|{other}|")
    done = _run_script(json.dumps(forged), tmp_path)
    assert done.returncode == 1 and f"leaf {position}" in done.stdout and "root" in done.stdout
    forged = json.loads(proof)
    forged["openings"][-1]["path"][2] = "0" * 64
    assert _run_script(json.dumps(forged), tmp_path).returncode == 1
    done = _run_script(proof, tmp_path, "--root", "ffff" + shown_root[4:])
    assert done.returncode == 1 and "is not the commitment" in done.stdout
    done = _run_script(b"not json", tmp_path)
    assert done.returncode == 1 and "unreadable" in done.stdout

    # A hand recorded before this scheme keeps its old proof, checked the old way.
    secrets_ = await bot.db.hand_secrets(hand_id)
    old = DeckRecord(stored_deck(secrets_.deck), 42)
    _tamper(db_path, hand_id, "deck", old.encode())
    _tamper(db_path, hand_id, "salt", "pepper")
    _tamper(db_path, hand_id, "commitment", old.commitment("pepper"))
    r = await emu.run_command(dave, world.channel, "poker verify", {"hand": hand_id})
    assert "✅ the deck matches" in r.embeds[0]["title"] and not r.attachments
    assert " ".join(str(c) for c in old.deck) in r.embeds[0]["description"]
    emu.assert_clean()


def _draw_three(fold_after_draw: set[str]) -> Any:
    """32-card poker: open, everyone calls, everyone throws three cards (more than the stub
    holds, so the stub is reshuffled), then check, or fold for ``fold_after_draw``."""

    def choose(live: Any, decision: Any, labels: list[str]) -> Any:
        if decision.kind is engine.DecisionKind.DRAW:
            return (0, 1, 2)
        first_round = live.engine.public_view().street == "First betting round"
        if not first_round and decision.player_id in fold_after_draw and "Fold" in labels:
            return "Fold"
        return _passive()(live, decision, labels)

    return choose


async def test_the_reshuffle_seed_is_opened_only_when_it_exposes_nothing(
    poker_bot: Any, emu: Emulator, world: World, tmp_path: Path
) -> None:
    bot = await poker_bot()
    players = world.players
    await create_table(emu, world, players, variant="32-card-poker", stake=2, ante=1, auto_deal=0)
    # Everyone shows down: every card dealt after the reshuffle is public, so is the seed.
    shown_down = await _deal(emu, bot, world, players[0])
    await _play(emu, bot, world, _draw_three(set()))
    # All but one fold after the draw: cards dealt after the reshuffle stay hidden.
    folded = await _deal(emu, bot, world, players[0])
    await _play(emu, bot, world, _draw_three({str(p.id) for p in players[1:]}))

    for hand_id, revealed in ((shown_down, True), (folded, False)):
        events = await _stored_events(bot, hand_id)
        assert sum(isinstance(e, ev.Reshuffled) for e in events) == 1
        secrets_ = await bot.db.hand_secrets(hand_id)
        seed = DealCommitment.parse(secrets_.deck, secrets_.salt).reshuffle_seed
        for user in (players[0], players[3], world.host):
            r, proof = await _verify_file(emu, user, world, hand_id)
            data = json.loads(proof)
            assert data["reshuffles"] == 1 and bool(data["seed_withheld"]) is not revealed
            done = _run_script(proof, tmp_path)
            assert done.returncode == 0, done.stdout
            if revealed:
                assert f"reshuffle seed: {seed}" in done.stdout
                pool = next(e.count for e in events if isinstance(e, ev.Reshuffled))
                slots = _run_script(proof, tmp_path, "--pool", str(pool)).stdout
                assert f"dealt from pool slots: {reshuffle_order(seed, 1, pool)}" in slots
                assert f"seed `{seed}` opened" in r.embeds[0]["description"]
            else:
                assert "reshuffle seed withheld" in done.stdout and str(seed) not in proof.decode()
                assert "seed withheld" in r.embeds[0]["description"]
    emu.assert_clean()


# -- the tree and the proof, without the bot ------------------------------------------------------


def _play_random(slug: str, rng: random.Random, players: int) -> Hand:
    table = make_table([f"p{i}" for i in range(players)], variant=slug)
    table.start_hand(rng)
    for _ in range(600):
        if not table.in_hand:
            break
        seat, action = random_action(rng, table)
        try:
            table.act(seat, action)
        except engine.IllegalAction:
            continue
    assert table.hand is not None and table.hand.over
    return table.hand


def _public_codes(events: list[ev.Event]) -> set[str]:
    """Every card code in the events' public form (the engine's other way of hiding cards)."""
    codes: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, str):
            with contextlib.suppress(ValueError):
                codes.add(str(parse_card(value)))
        elif isinstance(value, list | tuple):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)

    for event in events:
        data = event.public_dict()
        data.pop("type")
        walk(data)
    return codes


def test_random_hands_open_exactly_what_each_seat_saw() -> None:
    """Many random hands of every game: each seat's proof checks (in the engine and in the
    standalone script) and opens the cards that seat saw; the public proof opens the cards in
    the events' public form; positions were taken from the top, in order, before a reshuffle."""
    reshuffled = revealed = hands = 0
    for slug in [v.slug for v in engine.list_variants()]:
        for k in range(16):
            rng = random.Random(f"{slug}-{k}")
            most = engine.TableConfig(slug).rules().max_players
            hand = _play_random(slug, rng, rng.randint(2, min(7, most)))
            hands += 1
            events = list(hand.events)
            deal = DealCommitment(tuple(hand.setup.deck), hand.setup.seed, SECRET)
            labels = dealt_to(deal.deck, events)
            taken = sum(1 for label in labels if label)
            assert all(labels[:taken]) and not any(labels[taken:]), (slug, labels)
            position = {card: p for p, card in enumerate(deal.deck)}
            for event in events:
                if isinstance(event, ev.Reshuffled):
                    break
                if isinstance(event, ev.Dealt):
                    assert {labels[position[c]] for c in event.cards} == {f"seat {event.seat}"}
            withheld = seed_withheld(events)
            happened = any(isinstance(e, ev.Reshuffled) for e in events)
            reshuffled += happened
            revealed += happened and not withheld
            public = cards_seen(events, None)
            first = next((i for i, e in enumerate(events) if isinstance(e, ev.Reshuffled)), None)
            first = len(events) if first is None else first
            for seat in [None, *(p.seat for p in hand.players)]:
                seen = cards_to_open(events, seat)
                assert seen <= cards_seen(events, seat)
                proof = deal.open(1, str(seat), seen, with_seed=happened and not withheld)
                proof = dataclasses.replace(proof, dealt_to=labels)
                assert proof.problems() == [] and check(json.loads(proof.to_json())) == []
                assert set(proof.cards().values()) == seen
                # A card a seat drew after a reshuffle, nobody else shown, stays unopened:
                # its place in the deck would say whose discard it was.
                drawn_later = {
                    card
                    for e in events[first:]
                    if isinstance(e, ev.Drew) and e.seat == seat
                    for card in e.received
                }
                assert not (drawn_later - public) & seen, (slug, seat)
                for card in drawn_later & seen:
                    assert card in public or labels[position[card]] == f"seat {seat}"
                if seat is None:
                    assert {str(c) for c in seen} == _public_codes(events), slug
    assert hands > 300 and reshuffled >= 10 and 0 < revealed < reshuffled, (reshuffled, revealed)


def test_a_forged_proof_is_refused_by_the_engine_and_by_the_script() -> None:
    deal = DealCommitment(parse_cards("As Kd 7c 2h Jk 9s"), 7, SECRET)
    proof = deal.open(3, "seat 0", parse_cards("Kd Jk"), with_seed=True)
    assert proof.problems() == [] and proof.seed() == 7
    assert DealProof.from_json(proof.to_json()) == proof
    kd, jk, seed = proof.openings
    forgeries = {
        "another card": Opening(kd.index, kd.text.replace("Kd", "Ks"), kd.path),
        "another position": Opening(jk.index - 1, jk.text, jk.path),
        "a short path": Opening(kd.index, kd.text, kd.path[:-1]),
        "a bad hash": Opening(kd.index, kd.text, ("00" * 32, *kd.path[1:])),
        "the seed elsewhere": Opening(seed.index + 1, seed.text, seed.path),
        "a padding leaf": Opening(7, "pad|7", seed.path),
    }
    for name, opening in forgeries.items():
        forged = dataclasses.replace(proof, openings=(opening,))
        assert forged.problems(), name
        assert check(json.loads(forged.to_json())), name
    twice = dataclasses.replace(proof, openings=(kd, kd))
    assert "opened twice" in " ".join(twice.problems())
    # Cards dealt from anywhere but the top (a deck committed in one order, dealt in another).
    dealt = ("seat 0", "seat 1", "", "", "", "")
    assert dataclasses.replace(proof, dealt_to=dealt).problems() == []
    for dealt in (("", "", "", "", "seat 0", "seat 1"), ("seat 0", "", "seat 1", "", "", "")):
        forged = dataclasses.replace(proof, dealt_to=dealt)
        assert "not the deck's top cards" in " ".join(forged.problems()), dealt
        assert "not the deck's top cards" in " ".join(check(json.loads(forged.to_json())))
    other_root = dataclasses.replace(proof, root=DealCommitment(deal.deck, 8, SECRET).root())
    assert other_root.problems() and check(json.loads(other_root.to_json()))
    # Each leaf's salt is its own: revealing one (and every opened leaf) does not reveal
    # the secret or another leaf, whose hash can't be matched by trying the 53 cards.
    texts = deal.leaves()
    assert len({t.rsplit("|", 1)[1] for t in texts[:7]}) == 7 and SECRET not in proof.to_json()
    with pytest.raises(ValueError, match="not in this hand's deck"):
        deal.open(3, "x", parse_cards("Qh"), with_seed=False)
    with pytest.raises(ValueError, match="at least 16 bytes"):
        DealCommitment(deal.deck, 7, "short")


def test_the_reshuffle_rule_is_the_one_documented() -> None:
    """docs/players/fair-deals.md tells how a reshuffle orders the pool; the engine does exactly
    that."""
    table = make_table(["a", "b"], variant="five-card-draw")
    table.start_hand(random.Random(5))
    hand = table.hand
    assert hand is not None
    hand.burns = list(parse_cards("2c 3c"))
    hand.stub = list(parse_cards("4c 5c"))  # the bottom card first: the stub's top is its end
    hand.discards = list(parse_cards("6c 7c 8c"))
    pool = [*hand.burns, *hand.stub, *hand.discards]
    hand._reshuffle()
    dealt = [hand.deal_one() for _ in range(len(pool))]
    assert dealt == [pool[slot] for slot in reshuffle_order(hand.setup.seed, 1, len(pool))]


def test_the_revealed_seed_does_not_give_the_deck_away() -> None:
    """Dealer's choice used to derive the deck from the seed it now reveals: the deck has its
    own secret seed, the same as before, and old snapshots replay as they were dealt."""
    table = make_table(["a", "b", "c"], dealers_choice=True)
    table.start_hand(random.Random(11))
    draws = random.Random(11)
    deck_seed, reshuffle_seed = draws.getrandbits(62), draws.getrandbits(62)
    snapshot = table.to_dict()
    table.act(table.pending[0].seat, engine.ChooseGame("five-card-draw"))
    assert table.hand is not None
    pack = table.hand.rules.deck.cards()
    assert table.hand.setup.seed == reshuffle_seed
    assert table.hand.setup.deck == permuted(pack, random.Random(deck_seed))
    assert table.hand.setup.deck != permuted(pack, random.Random(reshuffle_seed))
    # The snapshot taken while the dealer chose replays to the same deal.
    again = Table.from_dict(snapshot)
    again.act(again.pending[0].seat, engine.ChooseGame("five-card-draw"))
    assert again.hand is not None and again.hand.setup.deck == table.hand.setup.deck
    assert Table.from_dict(table.to_dict()).hand.setup == table.hand.setup  # type: ignore[union-attr]
    # A snapshot written before the seeds were separate: one seed for both, as dealt then.
    old = json.loads(json.dumps(snapshot))
    choose = old["journal"][0]
    assert choose["op"] == "choose" and choose.pop("reshuffle_seed") == reshuffle_seed
    legacy = Table.from_dict(old)
    legacy.act(legacy.pending[0].seat, engine.ChooseGame("five-card-draw"))
    assert legacy.hand is not None and legacy.hand.setup.seed == deck_seed
    assert legacy.hand.setup.deck == table.hand.setup.deck


def test_old_and_new_records_both_read() -> None:
    deal = DealCommitment(parse_cards("As Kd"), 3, SECRET)
    assert stored_deck(deal.encode()) == stored_deck("As Kd|3") == deal.deck
    for bad in (
        '{"v":3,"deck":"As","seed":1}',
        '{"v":2,"deck":"As"}',
        '{"v":2,"deck":"As Zz","seed":1}',
    ):
        with pytest.raises(ValueError):
            DealCommitment.parse(bad, SECRET)
    card: Card = parse_card("Kd")
    assert deal.open(1, "x", [card], with_seed=False).cards() == {1: card}
