"""Play hands through the bot's real UI, as players would: table buttons and private panels.

The one module of helpers shared by the bot's test files (tables, table messages, acting).

The driver looks at the engine (through the bot's table service) only to know whose turn it is
and what kind of choice is waiting, the way a player knows from the table message; every
action goes through a button, a select or a modal in the emulator.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from typing import Any

import pytest

import engine
from tests.emulator import Emulator, World

Policy = Callable[[engine.Decision, list[str]], str]


def live_table(bot: Any, world: World) -> Any:
    """The channel's open table in the bot's table service (None once it is closed)."""
    return bot.tables.in_channel(world.channel.id)


def custom_ids(message: Any) -> list[str]:
    return [c.get("custom_id", "") for c in message.all_components()]


def find_table_message(emu: Emulator, world: World) -> Any:
    """The newest public message with table buttons for the hand in progress, or None."""
    for message in reversed(emu.channel_messages(world.channel)):
        if any(cid.startswith("pk:t:") for cid in custom_ids(message)):
            return message
    return None


def table_message(emu: Emulator, world: World) -> Any:
    """The newest public message with table buttons for the hand in progress."""
    message = find_table_message(emu, world)
    if message is None:
        raise AssertionError("no table message with action buttons")
    return message


def find_result(emu: Emulator, world: World) -> Any:
    """The newest hand's result in the channel (the message the hand was played on), or None."""
    for message in reversed(emu.channel_messages(world.channel)):
        if message.embeds and str(message.embeds[0].get("title", "")).endswith(" result"):
            return message
    return None


async def last_result(emu: Emulator, world: World) -> Any:
    """The newest hand's result, once the bot has written it (its picture is drawn in a
    thread, which a loaded machine may not have finished when the engine's hand is over)."""
    try:
        return await emu.wait_for(lambda: find_result(emu, world), timeout=10)
    except TimeoutError:
        raise AssertionError("no hand's result in the channel") from None


async def current_table_message(emu: Emulator, world: World) -> Any:
    """:func:`table_message` once the bot has finished what it was doing."""
    await emu.idle()
    return table_message(emu, world)


def member_to_act(emu: Emulator, decision: engine.Decision) -> Any:
    """The member whose decision ``decision`` is."""
    return next(p for p in emu.world.users if str(p.id) == decision.player_id)  # type: ignore[union-attr]


def nothing_logged_as_error(caplog: pytest.LogCaptureFixture) -> None:
    """Fails with the lines, if anything was logged as an error (a bug, by the bot's rule)."""
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [f"{r.name}: {r.getMessage()}" for r in errors]


def shows_now(message: Any, live: Any) -> bool:
    """Whether ``message``'s buttons carry the table's current version (the table message
    has caught up with the table)."""
    version = live.version()
    mark = f":{version.hand}.{version.events}:"
    return message is not None and any(
        mark in (c.get("custom_id") or "") for c in message.all_components()
    )


def passive(decision: engine.Decision, labels: list[str]) -> str:
    """Check when possible, else call, else open (for no-check rounds), else fold."""
    for want in ("Check", "Call"):
        match = next((label for label in labels if label.startswith(want)), None)
        if match:
            return match
    return next((label for label in labels if label.startswith(("Bet", "Raise"))), "Fold")


def opener(decision: engine.Decision, labels: list[str]) -> str:
    """Bet or raise whenever offered, else check or call."""
    bet = next((label for label in labels if label.split(" ")[0] in ("Bet", "Raise")), None)
    return bet or passive(decision, labels)


async def create_table(emu: Emulator, world: World, players: list[Any], **options: Any) -> Any:
    created = await emu.run_command(players[0], world.channel, "poker create", options)
    assert created.type == 4 and not created.ephemeral, created.content
    sit = next(c["custom_id"] for c in created.message.buttons if c["custom_id"].endswith(":sit"))
    for player in players:
        r = await emu.click(player, created.message, custom_id=sit)
        if r.type == 9:  # the buy-in modal: its prefilled buy-in, the first free seat
            r = await emu.submit_modal(player, r, {})
        assert r.type == 7, (r.content, [m.text for m in r.followups])
    return created.message


def _asks_first(answer: Any) -> bool:
    """Whether a Fold press was answered with the question (checking was free)."""
    return answer.message is not None and "Fold anyway" in answer.message.button_labels


async def fold(emu: Emulator, user: Any, message: Any, **options: Any) -> Any:
    """Press Fold; where checking was free the bot asks first, and this folds anyway.
    Returns the answer to the press that folded (or to the refused one)."""
    r = await emu.click(user, message, label="Fold", **options)
    if r.type == 4 and _asks_first(r):
        r = await emu.click(user, r.message, label="Fold anyway", **options)
    return r


async def fold_press(emu: Emulator, user: Any, message: Any) -> tuple[Any, str] | None:
    """Where to press to fold, for a test that makes the press itself (with a fault or a kill
    around it): Fold on ``message``, or, where checking was free, the question's Fold anyway
    (asked here). None when the question was refused (a stale message)."""
    if "Check" not in message.button_labels:
        return message, "Fold"
    asked = await emu.click(user, message, label="Fold")
    return (asked.message, "Fold anyway") if _asks_first(asked) else None


async def open_panel(emu: Emulator, user: Any, message: Any, label: str) -> Any:
    opened = await emu.click(user, message, label=label)
    assert opened.type == 6, opened.content
    followups = await emu.wait_for(lambda: opened.followups, timeout=5)
    return followups[-1]


async def act_once(
    emu: Emulator,
    world: World,
    bot: Any,
    decision: engine.Decision,
    *,
    policy: Policy = passive,
    rng: random.Random | None = None,
    declare: str = "High",
) -> None:
    """Make one pending decision through the UI."""
    rng = rng or random.Random(0)
    user = member_to_act(emu, decision)
    message = table_message(emu, world)
    labels = message.button_labels
    legal = decision.legal
    kind = decision.kind
    if kind is engine.DecisionKind.BET:
        label = policy(decision, labels)
        if label == "Fold":
            r = await fold(emu, user, message)
        else:
            r = await emu.click(user, message, label=label)
        if r.type == 9:  # an amount modal: take the minimum
            assert isinstance(legal, engine.BetOptions)
            r = await emu.submit_modal(user, r, {"amount": str(legal.min_to)})
        assert r.type == 7, (label, r.content)
        return
    private_label = {
        engine.DecisionKind.DRAW: "Draw / stand pat…",
        engine.DecisionKind.PASS: "Pass cards…",
        engine.DecisionKind.ARRANGE: "Arrange your cards…",
        engine.DecisionKind.DECLARE: "Declare…",
        engine.DecisionKind.KEEP: "Choose your card…",
        engine.DecisionKind.CHOOSE_GAME: "Choose the game…",
        engine.DecisionKind.SHOW: "Show or muck…",
    }[kind]
    panel = await open_panel(emu, user, message, private_label)
    if kind is engine.DecisionKind.DRAW:
        assert isinstance(legal, engine.DrawOptions)
        count = min(1, max(legal.counts)) if 1 in legal.counts else 0
        if count:
            values = [str(rng.randrange(len(legal.cards)))]
            picked = await emu.select(user, panel, panel.selects[0]["custom_id"], values)
            panel = picked.message
            if picked.type == 6:  # deferred at a coached table: the panel follows the odds
                panel = await emu.wait_for(
                    lambda: picked.message if "Discard 1" in picked.message.button_labels else None
                )
            r = await emu.click(user, panel, label="Discard 1")
        else:
            r = await emu.click(user, panel, label="Stand pat")
    elif kind is engine.DecisionKind.PASS:
        assert isinstance(legal, engine.PassOptions)
        values = [str(i) for i in range(legal.count)]
        panel = (await emu.select(user, panel, panel.selects[0]["custom_id"], values)).message
        r = await emu.click(user, panel, label="Confirm")
    elif kind is engine.DecisionKind.ARRANGE:
        assert isinstance(legal, engine.ArrangeOptions)
        for _ in range(legal.size):
            select = panel.selects[0]
            first = select["options"][0]["value"]
            panel = (await emu.select(user, panel, select["custom_id"], [first])).message
        r = await emu.click(user, panel, label="Confirm")
    elif kind is engine.DecisionKind.DECLARE:
        r = await emu.click(user, panel, label=declare)
    elif kind is engine.DecisionKind.KEEP:
        r = await emu.click(user, panel, label="Take the face-down card")
    elif kind is engine.DecisionKind.SHOW:
        r = await emu.click(user, panel, label="Muck")
    else:
        r = await emu.click(user, panel, label="Deal it")
    assert r.type == 7, (kind, r.content)


async def play_hand(
    emu: Emulator,
    world: World,
    bot: Any,
    *,
    policy: Policy = passive,
    declares: dict[int, str] | None = None,
    limit: int = 200,
) -> engine.HandResult:
    """Act for whoever must act until the current hand is over; returns its result."""
    rng = random.Random(7)
    live = live_table(bot, world)
    for _ in range(limit):
        await emu.idle()
        if not live.engine.in_hand:
            result = live.engine.result
            if result is None:
                # Not dealt yet: a tournament deals from a task of its own, which a loaded
                # machine may not have run by the time the emulator goes quiet.
                await asyncio.sleep(0.05)
                continue
            return result  # type: ignore[no-any-return]
        if not live.engine.pending or find_table_message(emu, world) is None:
            # (No table message yet: the deal's message is still being drawn, which a
            # loaded machine may not have done by the time the emulator goes quiet.)
            await asyncio.sleep(0.05)
            continue
        decision = live.engine.pending[0]
        declare = (declares or {}).get(int(decision.player_id), "High")
        await act_once(emu, world, bot, decision, policy=policy, rng=rng, declare=declare)
    raise AssertionError("the hand did not finish")


async def deal(emu: Emulator, world: World, user: Any) -> None:
    r = await emu.run_command(user, world.channel, "poker start", {})
    assert r.ephemeral and "Dealing" in r.content, r.content
    await emu.idle()


async def forged_press(
    emu: Emulator,
    user: Any,
    message: Any,
    custom_id: str,
    *,
    values: list[str] | None = None,
    modal_value: str | None = None,
) -> Any:
    """A component press (or, with ``modal_value``, an amount-modal submission) carrying any
    custom id, as a modified client could send: nothing is checked against the message."""
    channel = emu.channels[message.channel_id]
    if modal_value is not None:
        row = {"type": 1, "components": [{"type": 4, "custom_id": "amount", "value": modal_value}]}
        data: dict[str, Any] = {"custom_id": custom_id, "components": [row]}
        rec = emu.build_interaction(5, user, channel, data, message=message)
    else:
        data = {"custom_id": custom_id, "component_type": 3 if values is not None else 2}
        if values is not None:
            data["values"] = values
        rec = emu.build_interaction(3, user, channel, data, message=message)
    emu.dispatch("INTERACTION_CREATE", rec.payload)
    return await emu.await_response(rec)


async def two_table_tournament(
    emu: Emulator, world: World, bot: Any, extra: tuple[str, ...], **options: Any
) -> tuple[Any, Any]:
    """Add the members named in ``extra``, open a fast tournament of tables of four with
    ``options`` (buy-in 10, eight short levels, auto-deal 1 s, timer 60 s unless given), have
    every member register, and check it opened on two tables; returns the creation's answer
    and the running tournament."""
    for name in extra:
        user = emu.add_user(name)
        emu.add_member(world.guild, user)
        world.players.append(user)
    settings = {"buy_in": 10, "levels": 8, "level_minutes": 0.05, "seats": 4}
    settings |= {"auto_deal": 1, "timer": 60, **options}
    created = await emu.run_command(world.host, world.channel, "poker tournament create", settings)
    assert created.type == 4 and not created.ephemeral, created.content
    run = next(iter(bot.get_cog("Tournaments").running.values()))
    for player in world.players:
        r = await emu.click(player, created.message, label="Register")
        assert r.type == 7, r.content
    await emu.idle()
    assert len(emu.threads(world.channel)) == 2
    return created, run


async def act_at_a_table(
    emu: Emulator,
    world: World,
    bot: Any,
    live: list[Any],
    threads: dict[int, Any],
    players: list[Any],
    *,
    policy: Policy = opener,
) -> None:
    """One action at the first of ``live`` (a tournament's tables, each in its thread of
    ``threads``) where someone must act; a short wait instead when no table has a decision or
    its table message is still on its way."""
    acting = [t for t in live if t.engine.in_hand and t.engine.pending]
    if acting:
        table = acting[0]
        place = World(world.guild, threads[table.channel_id], world.host, players)
        if find_table_message(emu, place) is not None:
            await act_once(emu, place, bot, table.engine.pending[0], policy=policy)
            return
    await asyncio.sleep(0.05)


def delete_thread(emu: Emulator, world: World, thread: Any) -> None:
    """A moderator deletes ``thread`` of the world's channel (Discord tells the bot)."""
    thread.deleted = True
    emu.dispatch(
        "THREAD_DELETE",
        {
            "id": str(thread.id),
            "guild_id": str(world.guild.id),
            "parent_id": str(world.channel.id),
            "type": thread.type,
        },
    )


async def until_someone_is_broke(emu: Emulator, world: World, bot: Any, players: list[Any]) -> Any:
    """Deal (by ``players[0]``) and play the channel's table until a seated player has no chips
    between hands: that player; None when the table closed first (its tournament over)."""
    for _ in range(80):
        live = live_table(bot, world)
        if live is None:
            return None
        broke = [s.player_id for s in live.engine.seats if s is not None and s.stack == 0]
        if broke and not live.engine.in_hand:
            await emu.idle()
            return next(p for p in players if str(p.id) == broke[0])
        if not live.engine.in_hand:
            r = await emu.run_command(players[0], world.channel, "poker start", {})
            assert r.ephemeral, r.content
            await emu.idle()
        await play_hand(emu, world, bot, policy=opener)
    raise AssertionError("nobody went broke")
