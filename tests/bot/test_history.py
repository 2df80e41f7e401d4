"""Hand history, replays, fairness checks and PHH export, through the emulator with the real bot.

Hands are played with the table buttons as players would; the tests then read what each member
is shown by ``/poker history``, ``/poker hand`` and ``/poker verify``. Pure tests at the end
check the Discord size limits of long replays and that recorded hands replay to the text they
gave when recorded. The PHH notation itself is tested in ``tests/engine/test_notation.py``.
"""

from __future__ import annotations

import functools
import json
import re
import sqlite3
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
import pokerkit

import engine
from cogs import history
from data.models import Hand, HandSecrets
from data.models import Table as TableRow
from engine import events as ev
from engine.cards import parse_card
from engine.commitment import DeckRecord, stored_deck
from i18n import resolve, speaking
from tests.bot.driver import create_table as _table
from tests.bot.driver import current_table_message as _table_message
from tests.bot.driver import fold, forged_press, opener, play_hand
from tests.emulator import Emulator, World
from tests.engine.test_notation import LOWBALL, lowball, replay_phh

__all__ = ["lowball"]  # a fixture, imported for the PHH test below

# A choice for the player to act: a button label, or the card indexes to discard in a draw.
Choice = str | tuple[int, ...]
Chooser = Callable[[Any, Any, list[str]], Choice]

# -- playing through the emulator ---------------------------------------------------------------


def _live(bot: Any, world: World) -> Any:
    return bot.tables.in_channel(world.channel.id)


def _user(world: World, player_id: str) -> Any:
    return next(u for u in world.users if str(u.id) == player_id)


async def _deal(emu: Emulator, bot: Any, world: World, dealer: Any) -> int:
    """Deal the next hand with /poker start; returns its hand id."""
    r = await emu.run_command(dealer, world.channel, "poker start", {})
    assert r.ephemeral and "Dealing" in _said(r), r.content
    live = _live(bot, world)
    assert live.engine.in_hand
    return int(live.meta.hand.hand_id)


def _followups(result: Any) -> Callable[[], Any]:
    return lambda: result.followups


async def _play(emu: Emulator, bot: Any, world: World, choose: Chooser) -> None:
    """Play the hand in progress to its end with the table's buttons and draw panels."""
    for _ in range(80):
        await emu.idle()
        live = _live(bot, world)
        if not live.engine.in_hand:
            return
        table = await _table_message(emu, world)
        decision = live.engine.pending[0]
        actor = _user(world, decision.player_id)
        labels = [label or "" for label in table.button_labels]
        choice = choose(live, decision, labels)
        if isinstance(choice, tuple):
            opened = await emu.click(actor, table, label="Draw / stand pat…")
            assert opened.type == 6, opened.content
            panel = (await emu.wait_for(_followups(opened)))[-1]
            if choice:
                select = panel.selects[0]["custom_id"]
                picked = await emu.select(actor, panel, select, [str(i) for i in choice])
                assert picked.type == 7, picked.content
                r = await emu.click(actor, picked.message, label=f"Discard {len(choice)}")
            else:
                r = await emu.click(actor, panel, label="Stand pat")
        elif choice == "Fold":
            r = await fold(emu, actor, table)
        else:
            r = await emu.click(actor, table, label=choice)
        assert r.type == 7, (choice, r.content, r.embeds)
    raise AssertionError("the hand did not end")


def _passive(
    fold: frozenset[str] | set[str] = frozenset(),
    discards: dict[str, tuple[int, ...]] | None = None,
) -> Chooser:
    """Open (or call) before the draw so the deal is not passed out, fold the ids in ``fold``,
    discard ``discards[player_id]`` (else stand pat), check after the draw."""
    discards = discards or {}

    def choose(live: Any, decision: Any, labels: list[str]) -> Choice:
        pid = decision.player_id
        if decision.kind is engine.DecisionKind.DRAW:
            return discards.get(pid, ())
        if pid in fold and "Fold" in labels:
            return "Fold"
        if "Check" in labels and live.engine.public_view().street != "First betting round":
            return "Check"
        opening = [x for x in labels if x.startswith("Bet ")]
        if opening:
            return opening[0]
        call = [x for x in labels if x.startswith("Call")]
        return call[0] if call else "Check"

    return choose


def _said(result: Any) -> str:
    """The text content of an interaction's answer."""
    return str(result.content or "")


def _message(result: Any) -> Any:
    assert result.message is not None, result
    return result.message


def _replay_text(result: Any) -> str:
    """The replay part of a /poker hand answer (every embed except the fairness proof)."""
    return "\n".join(
        f"{e.get('title', '')}\n{e.get('description', '')}"
        for e in result.embeds
        if not str(e.get("title", "")).startswith("Fair deal")
    )


def _fairness(result: Any) -> dict[str, Any]:
    embeds = [e for e in result.embeds if str(e.get("title", "")).startswith("Fair deal")]
    assert len(embeds) == 1, [e.get("title") for e in result.embeds]
    return dict(embeds[0])


def _assert_cards_absent(text: str, cards: list[str]) -> None:
    for card in cards:
        shown = parse_card(card).display
        assert shown not in text, f"{shown} leaked:\n{text}"
        assert not re.search(rf"\b{card}\b", text), f"{card} leaked:\n{text}"


def _assert_cards_present(text: str, cards: list[str]) -> None:
    for card in cards:
        assert parse_card(card).display in text, f"{card} missing:\n{text}"


async def _events(bot: Any, hand_id: int) -> list[dict[str, Any]]:
    return [json.loads(e.event_json) for e in await bot.db.hand_events(hand_id)]


def _tamper(db_path: Path, hand_id: int, column: str, value: str) -> None:
    """What someone with the database file could do: change a finished hand's secret behind
    the bot's back (lifting, then restoring, the triggers that forbid it)."""
    conn = sqlite3.connect(db_path, isolation_level=None)
    try:
        triggers = conn.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'hands'"
        ).fetchall()
        conn.execute("BEGIN IMMEDIATE")
        for name, _sql in triggers:
            conn.execute(f"DROP TRIGGER {name}")
        conn.execute(f"UPDATE hands SET {column} = ? WHERE hand_id = ?", (value, hand_id))
        for _name, sql in triggers:
            conn.execute(sql)
        conn.execute("COMMIT")
    finally:
        conn.close()


# -- /poker history -----------------------------------------------------------------------------


async def test_history_lists_hands_newest_first_in_pages(
    poker_bot: Any, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    alice, bob = world.players[:2]
    await _table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    live = _live(bot, world)
    folds = {str(alice.id), str(bob.id)}
    hand_ids = []
    for _ in range(11):  # one more than a page: the first to act folds every hand
        hand_ids.append(await _deal(emu, bot, world, alice))
        await _play(emu, bot, world, _passive(fold=folds))
    table_id = live.id

    r = await emu.run_command(bob, world.channel, "poker history", {})
    assert r.type == 4 and r.ephemeral
    page1 = r.embeds[0]["description"].splitlines()
    assert len(page1) == history.PAGE_SIZE == 10
    assert [int(line.split("`")[1][1:]) for line in page1] == hand_ids[::-1][:10]
    assert "Page 1 of 2" in r.embeds[0]["footer"]["text"]
    newest = await bot.db.get_hand(hand_ids[-1])
    result = json.loads(newest.result_json)
    winner = result["pots"][0]["shares"][0]["player_id"]
    names = {str(alice.id): "Alice", str(bob.id): "Bob"}
    assert f"won by {names[winner]}" in page1[0]
    assert f"`{newest.commitment[:12]}`" in page1[0]
    assert f"<t:{int(newest.started_at)}:R>" in page1[0]
    assert f"pot {newest.pot}" in page1[0] and "hand 11" in page1[0]

    nxt = await emu.click(bob, r.message, label="Next")
    assert nxt.type == 7
    page2 = _message(nxt).embeds[0]["description"].splitlines()
    assert len(page2) == 1 and page2[0].startswith(f"`#{hand_ids[0]}` hand 1 ")
    assert "Page 2 of 2" in _message(nxt).embeds[0]["footer"]["text"]
    back = await emu.click(bob, nxt.message, label="Previous")
    assert _message(back).embeds[0]["description"].splitlines() == page1
    assert _message(r).ephemeral and _message(nxt).ephemeral  # the list is for the asker only

    # A table id from the option, one that does not exist, and one of another server.
    r = await emu.run_command(alice, world.channel, "poker history", {"table": table_id})
    assert r.ephemeral and r.embeds[0]["description"].splitlines() == page1
    r = await emu.run_command(alice, world.channel, "poker history", {"table": table_id + 99})
    assert r.ephemeral and f"no table\u00a0#{table_id + 99}" in _said(r)
    other = emu.add_guild("Other Game", owner=world.host)
    channel = emu.add_text_channel(other, "cards")
    emu.add_member(other, alice)
    r = await emu.run_command(alice, channel, "poker history", {"table": table_id})
    assert r.ephemeral and "in this server" in _said(r) and not r.embeds
    r = await emu.run_command(alice, channel, "poker hand", {"hand": hand_ids[0]})
    assert r.ephemeral and "in this server" in _said(r) and not r.embeds
    r = await emu.run_command(alice, channel, "poker verify", {"hand": hand_ids[0]})
    assert r.ephemeral and "in this server" in _said(r) and not r.embeds
    emu.assert_clean()


async def test_a_history_page_too_long_for_a_message_is_shown_in_parts(
    poker_bot: Any, emu: Emulator, world: World
) -> None:
    """Ten hands each split among six players whose names are markdown (escaped, so twice as
    long): the page was longer than Discord's 4,096 characters and /poker history failed. The
    page is shown in parts, each hand once."""
    from data import PlayerHandResult, TableSave
    from tests.data.helpers import commitment, seat_players

    bot = await poker_bot()
    db = bot.db
    guild = world.guild.id
    other = emu.add_text_channel(world.guild, "poker-2")  # a channel the viewer reads
    table = await db.create_table(guild, other.id, world.host.id, "{}")
    people = {1000 + n: 100 for n in range(6)}
    stacks = await seat_players(db, table, people)
    names = {str(uid): f"P{n}" + "*_" * 15 for n, uid in enumerate(people)}
    snapshot = json.dumps({"meta": {"names": names}})
    chips = sum(stacks.values())
    result = json.dumps({"pots": [{"shares": [{"player_id": uid} for uid in people]}]})
    for n in range(10):
        hand = await db.start_hand(
            table.table_id,
            variant="five-card-draw",
            variant_name="Five-card draw",
            commitment=commitment(str(n), "As"),
            salt=str(n),
            deck="As",
            save=TableSave(snapshot, chips, stacks, [(0, "{}")]),
        )
        await db.record_hand_result(
            guild,
            table.table_id,
            hand.hand_id,
            [PlayerHandResult(uid, 0, True, 10, None, None) for uid in people],
            result_json=result,
            pot=60,
            save=TableSave(snapshot, chips, stacks, [(1, "{}")]),
        )
    viewer = world.players[0]
    r = await emu.run_command(viewer, world.channel, "poker history", {"table": table.table_id})
    assert r.ephemeral and r.embeds, r.content
    shown: list[str] = []
    for _turn in range(12):
        embed = _message(r).embeds[0] if shown else r.embeds[0]
        assert len(embed["description"]) <= 4096
        shown += embed["description"].splitlines()
        following = [b for b in _message(r).buttons if b.get("label") == "Next"]
        if not following or following[0].get("disabled"):
            break
        assert (await emu.click(viewer, _message(r), label="Next")).type == 7
    assert [line.split("`")[1] for line in shown] == [f"#{h}" for h in range(10, 0, -1)], shown
    assert all(line.count("\\*\\_") == 90 for line in shown), shown  # six names, whole
    emu.assert_clean()


# -- /poker hand and /poker verify --------------------------------------------------------------


async def test_replay_shows_private_cards_only_to_their_owner_and_verifies(
    poker_bot: Any, emu: Emulator, world: World, db_path: Path
) -> None:
    bot = await poker_bot()
    alice, bob, carol, dave = world.players
    await _table(emu, world, [alice, bob, carol], stake=2, ante=1, auto_deal=0)
    hand_id = await _deal(emu, bot, world, alice)
    # Bob folds; Alice throws away two cards, Carol stands pat; both show down.
    await _play(emu, bot, world, _passive(fold={str(bob.id)}, discards={str(alice.id): (0, 1)}))
    events = await _events(bot, hand_id)
    seats = {pid: seat for seat, pid, _ in events[0]["seats"]}
    dealt = {e["seat"]: e["cards"] for e in events if e["type"] == "dealt"}
    drew = {e["seat"]: e for e in events if e["type"] == "drew"}
    shown = {e["seat"]: e["cards"] for e in events if e["type"] == "shown"}
    bob_cards = dealt[seats[str(bob.id)]]
    alice_thrown = drew[seats[str(alice.id)]]["discarded"]
    assert len(alice_thrown) == 2 and seats[str(bob.id)] not in shown
    assert set(shown) == {seats[str(alice.id)], seats[str(carol.id)]}

    answers, proofs = {}, {}
    for user in (alice, bob, carol, dave):
        r = await emu.run_command(user, world.channel, "poker hand", {"hand": hand_id})
        assert r.type == 4 and r.ephemeral, r.content
        answers[user.username] = _replay_text(r)
        proof = _fairness(r)
        assert "✅" in proof["title"]
        proofs[user.username] = str(proof["description"])
    # Bob sees his own folded cards; nobody else does (not even in a form like "Kd").
    _assert_cards_present(answers["bob"], bob_cards)
    _assert_cards_present(proofs["bob"], bob_cards)
    for name in ("alice", "carol", "dave"):
        _assert_cards_absent(answers[name], bob_cards)
        _assert_cards_absent(proofs[name], bob_cards)
    # Alice's discards are hers alone; the others only learn that she drew two.
    _assert_cards_present(answers["alice"], alice_thrown)
    _assert_cards_present(proofs["alice"], alice_thrown)
    for name in ("bob", "carol", "dave"):
        _assert_cards_absent(answers[name], alice_thrown)
        _assert_cards_absent(proofs[name], alice_thrown)
        assert "**Alice** draws 2" in answers[name]
    # The showdown is public: even Dave, who was not dealt in, sees both hands shown.
    for cards in shown.values():
        _assert_cards_present(answers["dave"], cards)
    assert "not dealt in" in answers["dave"] and "(you)" not in answers["dave"]
    assert "**Bob** (you) folds" in answers["bob"] and "**Bob** folds" in answers["alice"]
    assert "Final stacks" in answers["dave"] and "💰 Main pot" in answers["dave"]

    # The fairness summary opens only what the viewer saw: Bob's folded cards are in no one
    # else's proof, and the commitment is the one shown at the deal.
    secrets_ = await bot.db.hand_secrets(hand_id)
    assert secrets_.commitment in proof["description"] and secrets_.salt not in proof["description"]
    deck = [str(card) for card in stored_deck(secrets_.deck)]
    r = await emu.run_command(dave, world.channel, "poker verify", {"hand": hand_id})
    assert r.ephemeral and "✅" in r.embeds[0]["title"]
    opened = json.loads(r.attachments[0].data)
    leaves = " ".join(o["leaf"] for o in opened["openings"])
    assert opened["root"] == secrets_.commitment and opened["viewer"] == "everyone"
    for card in bob_cards + list(alice_thrown):
        assert f"|{card}|" not in leaves
    assert len(opened["openings"]) == sum(len(cards) for cards in shown.values())

    # A hand being played: no replay, no verification, for players and onlookers alike.
    playing = await _deal(emu, bot, world, alice)
    for user in (alice, dave):
        r = await emu.run_command(user, world.channel, "poker hand", {"hand": playing})
        assert r.ephemeral and "still being played" in _said(r) and not r.embeds
        r = await emu.run_command(user, world.channel, "poker verify", {"hand": playing})
        assert r.ephemeral and "still being played" in _said(r) and not r.embeds
    await _play(emu, bot, world, _passive(fold={str(alice.id), str(bob.id), str(carol.id)}))
    r = await emu.run_command(dave, world.channel, "poker verify", {"hand": playing})
    assert "✅" in r.embeds[0]["title"]

    # Tampering, as someone with the database file would: a swapped card, then a new secret.
    cards = list(deck)
    cards[0], cards[1] = cards[1], cards[0]
    record = json.loads(secrets_.deck)
    _tamper(db_path, hand_id, "deck", json.dumps({**record, "deck": " ".join(cards)}))
    _tamper(db_path, playing, "salt", "00" * 32)
    for tampered in (hand_id, playing):
        r = await emu.run_command(dave, world.channel, "poker verify", {"hand": tampered})
        assert r.ephemeral and "❌" in r.embeds[0]["title"], r.embeds
        r = await emu.run_command(dave, world.channel, "poker hand", {"hand": tampered})
        assert "❌" in _fairness(r)["title"] and "NOT match" in _fairness(r)["title"]
    r = await emu.run_command(dave, world.channel, "poker hand", {"hand": 9999})
    assert r.ephemeral and "no hand\u00a0#9999" in _said(r)
    # Five-card draw has no PHH code: the file names the game in our own field, and says so.
    r = await emu.run_command(alice, world.channel, "poker hand", {"hand": hand_id, "phh": True})
    assert "no variant code" in _said(r) and len(r.attachments) == 1, _said(r)
    exported = tomllib.loads(r.attachments[0].data.decode())
    assert exported["_variant"] == "five-card-draw" and "variant" not in exported
    assert "five-card draw" in exported["_no_phh_code"]
    p_bob = [pid for _seat, pid, _stack in events[0]["seats"]].index(str(bob.id)) + 1
    assert f"d dh p{p_bob} ??????????" in exported["actions"]  # Bob's cards stay his
    emu.assert_clean()


# -- PHH export ---------------------------------------------------------------------------------


async def test_phh_export_replays_to_the_same_stacks_in_pokerkit(
    poker_bot: Any, emu: Emulator, world: World, lowball: None
) -> None:
    bot = await poker_bot()
    alice, bob, carol, dave = world.players
    await _table(
        emu,
        world,
        [alice, bob, carol],
        variant=LOWBALL,
        betting="no-limit",
        stake=2,
        blinds="1/2",
        auto_deal=0,
    )
    hand_id = await _deal(emu, bot, world, alice)
    raised: list[str] = []

    def choose(live: Any, decision: Any, labels: list[str]) -> Choice:
        if decision.kind is engine.DecisionKind.DRAW:
            return (0, 2, 4) if decision.player_id == str(alice.id) else (1,)
        pot = [x for x in labels if x.startswith("Pot ")]
        if pot and not raised:  # one pot-sized raise before the draw
            raised.append(decision.player_id)
            return pot[0]
        if "Check" in labels:
            return "Check"
        return next(x for x in labels if x.startswith("Call"))

    await _play(emu, bot, world, choose)
    live = _live(bot, world)
    result = live.engine.result
    assert raised and result is not None and result.shown
    events = await _events(bot, hand_id)
    seat_of = {pid: seat for seat, pid, _ in events[0]["seats"]}
    order = [pid for _, pid, _ in events[0]["seats"]]
    bob_drew = next(e for e in events if e["type"] == "drew" and e["seat"] == seat_of[str(bob.id)])

    answers = {}
    for user in (alice, dave):
        r = await emu.run_command(user, world.channel, "poker hand", {"hand": hand_id, "phh": True})
        assert r.ephemeral and len(r.attachments) == 1, r.content
        attachment = r.attachments[0]
        assert attachment.filename == f"hand-{hand_id}.phh"
        text = attachment.data.decode()
        answers[user.username] = text
        # pokerkit plays the file to the bot's own final stacks, seat by seat.
        assert replay_phh(text) == [result.final_stacks[pid] for pid in order]
        hh = pokerkit.HandHistory.loads(text)
        assert hh.variant == "N2L1D" and hh.min_bet == 2
        assert list(hh.blinds_or_straddles or [])[:2] == [1, 2]
        assert hh.players == [live.meta.names[pid] for pid in order]
    # Alice's file holds her discards; Bob's discard is "??" for her and for Dave.
    alice_drew = next(
        e for e in events if e["type"] == "drew" and e["seat"] == seat_of[str(alice.id)]
    )
    p_alice = order.index(str(alice.id)) + 1
    p_bob = order.index(str(bob.id)) + 1
    assert f"p{p_alice} sd {''.join(alice_drew['discarded'])}" in answers["alice"]
    assert f"p{p_alice} sd ??????" in answers["dave"]
    for text in answers.values():
        assert f"p{p_bob} sd ??" in text
        assert bob_drew["discarded"][0] not in text.split("actions")[1].split("]")[0]
    emu.assert_clean()


# -- pure checks --------------------------------------------------------------------------------


def test_long_replays_fit_discord_limits() -> None:
    """A replay too long for one message is split across messages within Discord's limits,
    and one too long for several is cut short with a note."""
    start = {"type": "hand-started", "hand_number": 1, "game": "G", "button": 1}
    start["seats"] = [[0, "1", 100], [1, "2", 100]]
    for count, several, cut in ((150, False, False), (600, True, False), (3000, True, True)):
        events = [start] + [{"type": "checked", "seat": i % 2} for i in range(count)]
        events.append({"type": "hand-ended", "stacks": [[0, 100], [1, 100]], "carried": 0})
        table = engine.Table(engine.TableConfig())
        record = _record_from(events, table)
        messages = history.replay_messages(record, 0)
        assert 1 <= len(messages) <= history.MAX_MESSAGES
        assert (len(messages) > 1) is several
        for embeds in messages:
            assert 1 <= len(embeds) <= 10
            assert sum(len(e) for e in embeds) <= 6000
            for embed in embeds:
                assert len(embed.description or "") <= 4096
                assert isinstance(embed, discord.Embed)
        text = "\n".join(e.description or "" for m in messages for e in m)
        assert ("more lines are too long" in text) is cut
        assert "Final stacks" in text or cut
        assert "Fair deal" in str(messages[-1][-1].title)


def _record_from(events: list[dict[str, Any]], table: engine.Table) -> history.HandRecord:
    config = json.dumps(table.config.to_dict())
    hand = Hand(1, 1, 1, 1, "five-card-draw", "G", "0" * 64, 1.7e9, 1.7e9, "{}", 0)
    row = TableRow(1, 1, 1, 1, "open", config, "{}", 0, None, None, 0, 0, None)
    secrets_ = HandSecrets(1, "0" * 64, "s", "As Kd|1")
    return history.HandRecord(hand, row, tuple(events), {}, secrets_, {"1": "Ann", "2": "Ben"})


# -- a recorded hand replays to the same text -----------------------------------------------------

GOLDEN = Path(__file__).with_name("history_golden.json")


def _golden_record(i: int, recorded: dict[str, Any], names: dict[str, str]) -> history.HandRecord:
    """A recorded hand as the bot stores it, with a real commitment over its deck."""
    deck = recorded["deck"]
    commitment = DeckRecord.parse(deck).commitment("pepper")
    result = recorded["result"]
    hand = Hand(
        100 + i,
        7,
        1,
        i + 1,
        recorded["slug"],
        recorded["slug"].title(),
        commitment,
        1.7e9 + i,
        1.7e9 + i + 60,
        json.dumps(result),
        10,
    )
    state = json.dumps({"meta": {"names": names}})
    config = json.dumps(recorded["config"])
    row = TableRow(7, 1, 2, 3, "open", config, state, 0, None, None, 0, 0, None)
    secrets_ = HandSecrets(100 + i, commitment, "pepper", deck)
    events = tuple(recorded["events"])
    return history.HandRecord(hand, row, events, result, secrets_, history.table_names(row))


def test_recorded_hands_replay_to_the_recorded_text() -> None:
    """Thirteen hands recorded from the engine (every event kind, dealer's choice, a player
    leaving, timeouts, the Bosnian exchange...) replay, from every seat and for an onlooker,
    to exactly the text the replay gave when they were recorded."""
    golden = json.loads(GOLDEN.read_text())
    kinds: set[str] = set()
    compared = 0
    for i, recorded in enumerate(golden["hands"]):
        record = _golden_record(i, recorded, golden["names"])
        kinds |= {e["type"] for e in recorded["events"]}
        for viewer, expected in recorded["expected"].items():
            seat = None if viewer == "None" else int(viewer)
            messages = history.replay_messages(record, seat)
            got = [[[e.title, e.description] for e in embeds] for embeds in messages]
            assert got == expected, (recorded["slug"], viewer)
            compared += 1
    assert compared > 40
    assert {"bosnian-offer", "cards-passed", "arranged", "declared", "player-left"} <= kinds


def test_last_card_and_unreadable_events_show_only_what_the_seat_may_see() -> None:
    """The no-five-in-a-row card is its owner's alone; an event this version can't read is
    named by its type, never by its fields."""
    start = {"type": "hand-started", "hand_number": 1, "game": "G", "button": 1}
    start["seats"] = [[0, "1", 100], [1, "2", 100]]
    events = [
        start,
        {"type": "last-card-dealt", "seat": 0, "card": "As"},
        {"type": "from-the-future", "seat": 1, "cards": ["Kd", "Kh"]},
        {"type": "checked", "seat": 0, "extra": "Qs"},
        {"type": "hand-ended", "stacks": [[0, 100], [1, 100]], "carried": 0},
    ]
    names = {"1": "Ann", "2": "Ben"}
    own = history.replay_lines(events, names, 0)
    other = history.replay_lines(events, names, 1)
    assert "**Ann** (you) is dealt the last card, A♠" in own
    assert "**Ann** is dealt the last card, face down" in other
    for lines in (own, other):
        text = "\n".join(lines)
        assert "*An event this version can't show (from-the-future).*" in lines
        assert "*An event this version can't show (checked).*" in lines
        assert "K♦" not in text and "Kd" not in text and "Q♠" not in text
    assert "A♠" not in "\n".join(other)


async def test_a_forged_replay_button_past_the_largest_id_is_refused_as_stale(
    poker_bot: Any, emu: Emulator, world: World
) -> None:
    """A Replay button forged with a hand id larger than any the database holds is an id the
    bot never wrote: the presser is told the button is not valid, not that the bot failed."""
    await poker_bot()
    alice = world.players[0]
    lobby = await _table(emu, world, [alice])
    r = await forged_press(emu, alice, lobby, "pk:r:9999999999999999999")
    assert r.ephemeral and "no longer valid" in r.content, r.content
    r = await forged_press(emu, alice, lobby, "pk:r:9223372036854775807")  # the largest id
    assert r.ephemeral and "There is no hand\u00a0#9223372036854775807." in r.content, r.content


def test_a_dealers_choice_reads_in_the_viewers_language() -> None:
    """A dealer's choice is stored with its English name: the replay names the game from its
    slug and modifiers, in the viewer's language like the rest of the replay."""
    start = {"type": "hand-started", "hand_number": 1, "game": "G", "button": 1}
    start["seats"] = [[0, "1", 100], [1, "2", 100]]
    chosen = ev.GameChosen(
        seat=0,
        slug="california-lowball",
        modifiers=("draws:3", "wild:13"),
        name="Triple-draw California lowball, kings wild",
    )
    events = [start, chosen.to_dict()]
    names = {"1": "Ann", "2": "Ben"}
    english = "\n".join(history.replay_lines(events, names, 1))
    assert "Triple-draw California lowball, kings wild" in english, english
    with speaking(resolve("de")):
        german = "\n".join(history.replay_lines(events, names, 1))
    assert "California Lowball mit drei Tauschrunden, Könige wild" in german, german
    # a game the catalogue no longer has reads as it was stored
    gone = {**chosen.to_dict(), "slug": "no-such-game", "name": "Old game"}
    with speaking(resolve("de")):
        assert "Old game" in "\n".join(history.replay_lines([start, gone], names, 1))


def test_a_stored_note_names_players_not_their_ids() -> None:
    """A hand's note (a Diablo opener who did not win) is stored with the engine's player
    id: the replay names the player."""
    golden = json.loads(GOLDEN.read_text())
    recorded = dict(golden["hands"][0])
    recorded["result"] = {
        **recorded["result"],
        "note": "101 opened and did not win: they build a new pot of 40.",
    }
    record = _golden_record(0, recorded, golden["names"])
    text = "\n".join(e.description or "" for e in history.replay_messages(record, None)[0])
    assert "Note: Ann opened and did not win: they build a new pot of 40." in text, text


async def test_a_tournament_hand_replays_at_its_own_level(
    poker_bot: Any, emu: Emulator, world: World
) -> None:
    """A tournament raises its stakes level by level: a hand dealt at the third level replays
    (and exports) with that level's stakes, not the first level's the table was opened at."""
    bot = await poker_bot()
    alice, bob = world.players[:2]
    created = await emu.run_command(
        world.host,
        world.channel,
        "poker tournament create",
        {
            "buy_in": 10,
            "starting_stack": 500,
            "levels": 4,
            "level_minutes": 10.0,
            "seats": 2,
            "payouts": "winner",
            "auto_deal": 0,
        },
    )
    for player in (alice, bob):
        assert (await emu.click(player, created.message, label="Register")).type == 7
    await emu.idle()
    cog = bot.get_cog("Tournaments")
    run = next(iter(cog.running.values()))
    first_ante = _live(bot, world).engine.config.forced_bets.ante
    await play_hand(emu, world, bot, policy=opener)  # at the first level
    first = (await bot.db.list_hands(_live(bot, world).id, limit=1)).items[0].hand_id
    cog.clock = functools.partial(float, run.started_at + 1201)  # the third level
    assert (await emu.run_command(alice, world.channel, "poker start", {})).ephemeral
    await emu.idle()
    live = _live(bot, world)
    config = live.engine.config
    ante, small_bet = config.forced_bets.ante, config.structure.small_bet
    assert ante > first_ante
    third = (await bot.db.list_hands(live.id, limit=1)).items[0].hand_id
    await play_hand(emu, world, bot, policy=opener)
    for hand_id, paid in ((first, first_ante), (third, ante)):
        r = await emu.run_command(alice, world.channel, "poker hand", {"hand": hand_id})
        header = r.embeds[0]["description"].splitlines()[1]
        assert header.endswith(f"ante {paid}"), (hand_id, header)
    r = await emu.run_command(alice, world.channel, "poker hand", {"hand": third, "phh": True})
    text = r.attachments[0].data.decode()
    assert f"antes = [{ante}, {ante}]" in text and f"small_bet = {small_bet}" in text, text
