"""Crash-proof tables: the bot runs as a process and is SIGKILLed at random moments.

Fifty hands are played with random legal actions through the table's buttons and private
panels. The bot is killed between actions and also while an interaction is in flight, then
started again. After every step the chip audit must hold; every hand must complete; each
hand's stored result must equal an offline replay of its deck and recorded actions; and each
player's cards are the same before and after a restart.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import engine
from data import Database
from engine.commitment import stored_deck
from tests.bot.driver import (
    custom_ids,
    find_result,
    find_table_message,
    fold_press,
    last_result,
)
from tests.emulator import Emulator, World

HANDS = 50
PLAYERS = 3


async def _snapshot(db: Database) -> engine.Table | None:
    tables = await db.open_tables()
    if not tables:
        return None
    state = json.loads(tables[0].state_json or "{}")
    return engine.Table.from_dict(state["engine"])


def _lobby_message(emu: Emulator, world: World) -> Any:
    for message in reversed(emu.channel_messages(world.channel)):
        if "Deal" in message.button_labels:
            return message
    return None


def _shown_version(emu: Emulator, world: World) -> str | None:
    """The table version the newest table buttons carry (None: no table buttons)."""
    message = find_table_message(emu, world)
    if message is None:
        return None
    return next(cid.split(":")[3] for cid in custom_ids(message) if cid.startswith("pk:t:"))


def _dealt_from_stub(events: list[dict[str, Any]]) -> list[str]:
    """Every card that left the stub, in the order it left: the deal (one card at a time,
    round the table), then each burn and replacement as it happened."""
    order: list[str] = []
    deal = [e["cards"] for e in events if e["type"] == "dealt"]
    for i in range(max((len(cards) for cards in deal), default=0)):
        order.extend(cards[i] for cards in deal if i < len(cards))
    for event in events:
        if event["type"] == "burned":
            order.append(event["card"])
        elif event["type"] == "drew":
            order.extend(event["received"])
    return order


async def _seated_table(emu: Emulator, world: World, players: list[Any], *, auto_deal: int) -> None:
    """A cash table created by the first of ``players``, everyone seated with the buy-in
    form as prefilled."""
    created = await emu.run_command(
        players[0], world.channel, "poker create", {"stake": 2, "ante": 1, "auto_deal": auto_deal}
    )
    assert created.type == 4, created.content
    for player in players:
        r = await emu.click(player, created.message, label="Sit down")
        if r.type == 9:  # the buy-in modal, as prefilled
            r = await emu.submit_modal(player, r, {})
        assert r.type == 7, r.content


async def test_fifty_hands_with_random_kills(emu: Emulator, world: World, bot_process: Any) -> None:
    rng = random.Random(20261121)
    proc = bot_process()
    await proc.start()
    players = world.players[:PLAYERS]
    by_id = {str(p.id): p for p in players}
    host = players[0]
    await _seated_table(emu, world, players, auto_deal=0)
    db = await Database.open(str(proc.database_path))
    kills = 0
    completed = 0
    stale = 0
    try:
        while completed < HANDS:
            await emu.idle()  # the bot finishes updating the table message after answering
            await _check_audit(db)
            table = await _snapshot(db)
            assert table is not None
            if not table.in_hand:
                lobby = _lobby_message(emu, world) or find_table_message(emu, world)
                # Rebuy anyone who went broke, so that fifty hands can be played.
                for seat in table.seats:
                    if seat is not None and seat.stack < 10:
                        user = by_id[seat.player_id]
                        await emu.run_command(user, world.channel, "poker leave", {})
                        r = await emu.run_command(user, world.channel, "poker join", {})
                        assert not r.ephemeral, r.content
                r = await emu.run_command(host, world.channel, "poker start", {})
                assert r.ephemeral and "Dealing" in r.content, r.content
                del lobby
                await emu.idle()
                continue
            decision = table.pending[0]
            user = by_id[decision.player_id]
            # (The table message may still be on its way after a restart: see below.)
            message = await _table_message(emu, world)
            shown = _shown_version(emu, world)
            crash_now = rng.random() < 0.08
            if crash_now and rng.random() < 0.5:
                # Kill between two actions; the next press must work on the old message.
                before = await _cards(db)
                proc.kill()
                await proc.wait_exit()
                await proc.start()
                kills += 1
                assert await _cards(db) == before
                continue
            if await _act(emu, rng, user, message, decision, kill=proc if crash_now else None):
                stale += 1
                assert stale <= 3, "the table message was not brought up to date"
                # Refused as stale: the bot brings the table message up to date. A restarted
                # bot may first be finishing what it found (drawing the last hand's result
                # in a thread, then posting the table): no REST call is in flight meanwhile,
                # so emu.idle() does not wait for it.
                await _brought_up_to_date(emu, world, shown)
                continue
            stale = 0
            if crash_now:
                kills += 1
                await proc.wait_exit()
                await proc.start()
            after = await _snapshot(db)
            if after is not None and not after.in_hand and after.hand_number == table.hand_number:
                completed += 1
                await _check_hand(db, after)
        await _check_audit(db)
        assert kills >= 3, "the test should have crashed the bot several times"
    finally:
        await db.close()


async def _table_message(emu: Emulator, world: World) -> Any:
    try:
        return await emu.wait_for(lambda: find_table_message(emu, world), timeout=10)
    except TimeoutError:
        raise AssertionError("no table message with action buttons") from None


async def _brought_up_to_date(emu: Emulator, world: World, stale: str | None) -> None:
    """Until the newest table buttons are no longer those of version ``stale``."""
    try:
        await emu.wait_for(lambda: _shown_version(emu, world) not in (None, stale), timeout=10)
    except TimeoutError:
        raise AssertionError("the table message was not brought up to date") from None


async def _cards(db: Database) -> dict[str, tuple[engine.Card, ...]]:
    table = await _snapshot(db)
    if table is None or table.hand is None:
        return {}
    return {
        s.player_id: table.private_view(s.player_id).cards for s in table.seats if s is not None
    }


async def _check_audit(db: Database) -> None:
    audit = await db.chip_audit()
    assert audit.ok, audit


async def _check_hand(db: Database, table: engine.Table) -> None:
    """The finished hand's record agrees with the table, and its cards came off the committed
    deck in order, none twice: a restart neither re-dealt nor skipped anything."""
    tables = await db.open_tables()
    hands = await db.list_hands(tables[0].table_id, limit=1)
    hand = hands.items[0]
    assert hand.ended_at is not None
    result = json.loads(hand.result_json or "{}")
    assert table.result is not None
    assert result.get("final_stacks") == table.result.final_stacks
    events = [json.loads(e.event_json) for e in await db.hand_events(hand.hand_id)]
    assert [e.seq for e in await db.hand_events(hand.hand_id)] == list(range(len(events)))
    secrets_ = await db.hand_secrets(hand.hand_id)
    deck = [str(card) for card in stored_deck(secrets_.deck)]
    moved = _dealt_from_stub(events)
    assert len(moved) == len(set(moved)), "a card was dealt twice"
    assert moved == deck[: len(moved)], "the cards did not come off the committed deck in order"


async def _act(
    emu: Emulator,
    rng: random.Random,
    user: Any,
    message: Any,
    decision: engine.Decision,
    *,
    kill: Any,
) -> bool:
    labels = message.button_labels
    drawing = decision.kind is engine.DecisionKind.DRAW
    if drawing != ("Draw / stand pat…" in labels):
        # The message still shows another moment of the hand (a restarted bot has not
        # brought it up to date yet): handled as a press refused as stale.
        return True
    if drawing:
        opened = await emu.click(user, message, label="Draw / stand pat…")
        if opened.type == 4 and "no longer valid" in (opened.content or ""):
            return True
        panel = (await emu.wait_for(lambda: opened.followups, timeout=5))[-1]
        legal = decision.legal
        assert isinstance(legal, engine.DrawOptions)
        count = rng.choice([c for c in legal.counts if c <= 3])
        if count:
            values = [str(i) for i in rng.sample(range(len(legal.cards)), count)]
            picked = await emu.select(user, panel, panel.selects[0]["custom_id"], values)
            panel = picked.message
        label = f"Discard {count}" if count else "Stand pat"
        return await _press(emu, user, panel, label, kill)
    choices = [
        label for label in labels if label.split(" ")[0] in {"Check", "Call", "Bet", "Raise"}
    ]
    if "Fold" in labels and rng.random() < 0.1:
        choices = ["Fold"]
    assert choices, labels
    return await _press(emu, user, message, rng.choice(choices), kill)


async def _press(emu: Emulator, user: Any, message: Any, label: str, kill: Any) -> bool:
    """Press a button; True when the press was refused as stale."""
    if label == "Fold":
        where = await fold_press(emu, user, message)
        if where is None:
            return True
        message, label = where
    if kill is None:
        r = await emu.click(user, message, label=label)
        # Right after a restart the table message may still show the moment before the crash:
        # the press is refused as stale, and the bot brings the message up to date.
        if r.type == 4 and "no longer valid" in (r.content or ""):
            return True
        assert r.type == 7, (label, r.content)
        return False
    # Kill the bot while the press is being handled: it either happened or it did not.
    click = asyncio.ensure_future(
        emu.click(user, message, label=label, timeout=1.0, raise_on_failure=False)
    )
    await asyncio.sleep(random.random() * 0.02)
    kill.kill()
    await click
    return False


async def test_a_hands_result_is_drawn_after_a_crash_once_the_next_hand_was_dealt(
    emu: Emulator, world: World, bot_process: Any
) -> None:
    """Killed while a finished hand's message was still to become its result, once the next
    hand was already dealt (the deal does not wait for the result to be drawn): the restarted
    bot draws that result on the old message, and the new hand goes on in a new one."""
    proc = bot_process()
    await proc.start()
    players = world.players[:2]
    await _seated_table(emu, world, players, auto_deal=1)
    db = await Database.open(str(proc.database_path))
    try:
        r = await emu.run_command(players[0], world.channel, "poker start", {})
        assert r.ephemeral and "Dealing" in r.content, r.content
        message = await _table_message(emu, world)
        table = await _snapshot(db)
        assert table is not None and table.hand_number == 1
        # A bet, so that the fold that follows is one press on the table message (with
        # nothing to call, Fold asks first).
        bettor = next(p for p in players if str(p.id) == table.pending[0].player_id)
        bet = next(label for label in message.button_labels if label.startswith("Bet "))
        assert (await emu.click(bettor, message, label=bet)).type == 7
        message = await _table_message(emu, world)
        folder = next(p for p in players if p is not bettor)
        # The fold's answer, which would turn the message into the hand's result, is held
        # back (Discord says "later"); meanwhile the next hand is dealt, then the bot dies.
        held = emu.faults.rate_limit("interaction_callback", retry_after=60)
        click = asyncio.ensure_future(
            emu.click(folder, message, label="Fold", timeout=1.0, raise_on_failure=False)
        )

        async def dealt_again() -> bool:
            table = await _snapshot(db)
            return table is not None and table.hand_number == 2

        for _ in range(100):
            if await dealt_again():
                break
            await asyncio.sleep(0.05)
        assert held.hits and await dealt_again(), "the next hand was not dealt"
        proc.kill()
        await proc.wait_exit()
        await click
        assert find_result(emu, world) is None  # the old hand's message shows its table
        await proc.start()
        result = await last_result(emu, world)
        assert result.id == message.id, "the old hand's message becomes its result"
        assert "hand\u00a0#1" in result.text, result.text
        now = await _table_message(emu, world)
        assert now.id != message.id and "hand\u00a0#2" in now.text, now.text
    finally:
        await db.close()
