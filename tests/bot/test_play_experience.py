"""Issue 15, the play experience, through the emulator with the real bot, engine and database:
turn pings, one live table message, the showdown picture, panels offering only legal choices,
rebuys and ending a table during a hand, and a clean start-up failure."""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import random
import socket
import sqlite3
import subprocess
import sys
from collections import Counter
from typing import Any

from PIL import Image

import engine
from cogs.config import Settings
from cogs.presenter import Shown
from cogs.ui import render
from cogs.ui.card_images import CARD_H, MARGIN, ROW_TITLE, render_cards
from tests.bot.driver import (
    act_once,
    create_table,
    current_table_message,
    custom_ids,
    find_table_message,
    live_table,
    open_panel,
    opener,
    play_hand,
)
from tests.emulator import Emulator, World

PING = "🔔"


def pings(emu: Emulator, world: World) -> list[Any]:
    return [m for m in emu.channel_messages(world.channel) if PING in (m.content or "")]


def with_components(emu: Emulator, world: World) -> list[Any]:
    """The messages with the table's controls (a hand's result offers only its Replay)."""
    return [
        m
        for m in emu.channel_messages(world.channel)
        if any(cid and not cid.startswith("pk:r:") for cid in custom_ids(m))
    ]


def assert_no_duplicate_labels(emu: Emulator, world: World) -> None:
    """No message anyone can see offers two buttons with the same label."""
    seen = list(emu.channel_messages(world.channel))
    for user in world.players:
        seen += emu.ephemerals(user)
    for message in seen:
        labels = Counter(label.lower() for label in message.button_labels)
        twice = [label for label, n in labels.items() if n > 1]
        assert not twice, (twice, message.button_labels)


async def hand_on_screen(emu: Emulator, world: World, live: Any) -> None:
    """Wait until the hand the engine dealt has its table message (posted after the deal)."""

    def shown() -> bool:
        message = find_table_message(emu, world)
        return (
            live.engine.in_hand and message is not None and message.id == Shown.of(live).message_id
        )

    await emu.wait_for(shown, timeout=10)


async def lobby_message(emu: Emulator, world: World) -> Any:
    """The one message with the table's controls, once it shows the lobby (a hand is over)."""
    return await emu.wait_for(
        lambda: next((m for m in with_components(emu, world) if "Deal" in m.button_labels), None)
    )


def ping_bodies(emu: Emulator, mark: Any) -> list[dict[str, Any]]:
    return [
        c.body
        for c in emu.calls_since(mark)
        if c.method == "POST" and isinstance(c.body, dict) and PING in (c.body.get("content") or "")
    ]


async def test_the_player_to_act_is_pinged_once_and_only_one_ping_stays(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    bot.presenter.ping_after = 0  # at once: these tests follow every ping
    alice, bob, carol = world.players[:3]
    off = await emu.run_command(carol, world.channel, "poker notify", {"setting": "off"})
    assert off.ephemeral and "No more turn pings" in off.content
    lobby = await create_table(emu, world, [alice, bob, carol], stake=2, ante=1, auto_deal=0)
    mark = emu.mark()
    await emu.click(alice, lobby, label="Deal")
    await emu.idle()
    live = live_table(bot, world)
    pinged_users: list[str] = []
    for _ in range(40):
        if not live.engine.in_hand:
            break
        waiting = {d.player_id for d in live.engine.pending}
        current = pings(emu, world)
        assert len(current) <= 1, [m.content for m in current]
        for message in current:
            mentioned = {pid for pid in waiting if f"<@{pid}>" in message.content}
            assert mentioned, (message.content, waiting)
            assert str(carol.id) not in message.content, "carol turned pings off"
        await act_once(emu, world, bot, live.engine.pending[0], policy=opener)
        await emu.idle()
    # Every ping mentioned only the players it was for (allowed mentions: those users only).
    bodies = ping_bodies(emu, mark)
    assert bodies, "nobody was ever pinged"
    for body in bodies:
        allowed = body.get("allowed_mentions") or {}
        assert allowed.get("parse") in (None, []), allowed
        users = [str(u) for u in allowed.get("users", [])]
        assert users and all(f"<@{u}>" in body["content"] for u in users)
        pinged_users += users
    assert str(carol.id) not in pinged_users
    assert_no_duplicate_labels(emu, world)
    emu.assert_clean()


async def test_only_a_player_slow_to_act_is_pinged(poker_bot, emu: Emulator, world: World) -> None:
    """A player who answers within ``ping_after`` seconds was watching: no ping. One who
    takes longer gets it then, and it is the only ping standing."""
    bot = await poker_bot()
    bot.presenter.ping_after = 0.5
    alice, bob, carol = world.players[:3]
    lobby = await create_table(emu, world, [alice, bob, carol], stake=2, ante=1, auto_deal=0)
    await emu.click(alice, lobby, label="Deal")
    await emu.idle()
    live = live_table(bot, world)

    def standing() -> list[Any]:
        return [m for m in pings(emu, world) if m.id != Shown.of(live).message_id]

    first = live.engine.pending[0]
    await act_once(emu, world, bot, first, policy=opener)
    await emu.idle()
    quick = live.engine.pending[0]
    assert quick.player_id != first.player_id
    await act_once(emu, world, bot, quick, policy=opener)
    await emu.idle()
    assert live.engine.in_hand
    slow = live.engine.pending[0]
    assert not standing(), "pinged before taking any time"
    await asyncio.sleep(0.8)
    await emu.idle()
    (ping,) = standing()
    assert f"<@{slow.player_id}>" in ping.content, ping.content
    mentioned = " ".join(m.content or "" for m in emu.channel_messages(world.channel))
    assert f"<@{quick.player_id}>" not in mentioned, "the quick player was pinged"
    emu.assert_clean()


async def test_a_player_is_not_pinged_for_their_own_action(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Heads-up, after the last bet the same player may be first to draw: no ping to them."""
    bot = await poker_bot()
    bot.presenter.ping_after = 0  # at once: these tests follow every ping
    alice, bob = world.players[:2]
    lobby = await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    await emu.click(alice, lobby, label="Deal")
    live = live_table(bot, world)
    for _ in range(30):
        await emu.idle()
        if not live.engine.in_hand:
            break
        decision = live.engine.pending[0]
        mark = emu.mark()
        await act_once(emu, world, bot, decision, policy=opener)
        await emu.idle()
        for body in ping_bodies(emu, mark):
            assert f"<@{decision.player_id}>" not in body["content"], body["content"]
    emu.assert_clean()


async def test_one_message_carries_the_table_after_auto_deals_and_a_start(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    bot.presenter.ping_after = 0  # at once: these tests follow every ping
    alice, bob, carol = world.players[:3]
    lobby = await create_table(emu, world, [alice, bob, carol], stake=2, ante=1, auto_deal=1)
    await emu.click(alice, lobby, label="Deal")
    live = live_table(bot, world)
    for hand in range(1, 4):
        await emu.wait_for(lambda h=hand: live.engine.hand_number == h and live.engine.in_hand)
        await hand_on_screen(emu, world, live)
        await play_hand(emu, world, bot)
        await emu.idle()
        assert len(with_components(emu, world)) == 1
    # The third hand's auto-deal is pending: /poker start deals at once instead.
    started = await emu.run_command(bob, world.channel, "poker start", {})
    assert started.ephemeral, started.content
    await emu.idle()
    assert live.engine.in_hand and live.engine.hand_number == 4
    live_messages = with_components(emu, world)
    assert len(live_messages) == 1, [m.text[:60] for m in live_messages]
    assert live_messages[0].id == Shown.of(live).message_id
    # /poker table brings it to the bottom and deletes the old one (no stub left).
    old = Shown.of(live).message_id
    moved = await emu.run_command(carol, world.channel, "poker table", {})
    assert moved.ephemeral
    await emu.idle()
    live_messages = with_components(emu, world)
    assert len(live_messages) == 1 and live_messages[0].id != old
    assert emu.channel_messages(world.channel)[-1].id == Shown.of(live).message_id or pings(
        emu, world
    )
    assert old not in [m.id for m in emu.channel_messages(world.channel)]
    # Asked again at once (by anyone): not posted a third time, the link to it instead.
    posts = len(emu.channel_messages(world.channel, include_deleted=True))
    again = await emu.run_command(bob, world.channel, "poker table", {})
    assert again.ephemeral and "posted again a moment ago" in again.content, again.content
    assert f"/{Shown.of(live).message_id}" in again.content
    await emu.idle()
    assert len(emu.channel_messages(world.channel, include_deleted=True)) == posts
    assert with_components(emu, world)[0].id == live_messages[0].id
    await play_hand(emu, world, bot)
    assert_no_duplicate_labels(emu, world)
    emu.assert_clean()


async def test_the_showdown_picture_shows_every_hand_shown(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    bot.presenter.ping_after = 0  # at once: these tests follow every ping
    players = world.players[:3]
    lobby = await create_table(emu, world, players, stake=2, ante=1, auto_deal=0)
    heights: dict[int, int] = {}
    carol = str(players[2].id)

    def carol_folds(decision: engine.Decision, labels: list[str]) -> str:
        if decision.player_id == carol and any(x.startswith("Call") for x in labels):
            return "Fold"
        return opener(decision, labels)

    deal_on = lobby
    for attempt in range(10):
        await emu.click(players[0], deal_on, label="Deal")
        await hand_on_screen(emu, world, live_table(bot, world))
        policy = carol_folds if attempt % 2 else opener
        result = await play_hand(emu, world, bot, policy=policy)
        await emu.idle()
        deal_on = await emu.wait_for(
            lambda: next(
                (m for m in with_components(emu, world) if "Deal" in m.button_labels), None
            )
        )
        if not result.shown:
            continue
        title = f"hand\u00a0#{result.hand_number} result"
        showdown = await emu.wait_for(
            lambda t=title: next(
                (m for m in emu.channel_messages(world.channel) if t in m.text), None
            )
        )
        picture = Image.open(io.BytesIO(showdown.attachments[0].data))
        rows = len(result.shown)
        assert picture.height == MARGIN + rows * (ROW_TITLE + CARD_H + 2 * MARGIN)
        heights[rows] = picture.height
        for shown in result.shown:
            assert live_table(bot, world).meta.names[shown.player_id] in showdown.text
        if len(heights) >= 2:
            break
    assert len(heights) >= 2, heights
    small, large = sorted(heights)[:2]
    assert heights[small] < heights[large]
    emu.assert_clean()


async def test_the_draw_select_allows_only_what_the_cards_held_allow(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Five-card draw: three cards, or four when keeping an ace. The select's maximum follows
    the hand; a four-card discard that throws the ace away is shown disabled, with the reason."""
    bot = await poker_bot()
    bot.presenter.ping_after = 0  # at once: these tests follow every ping
    alice, bob = world.players[:2]
    lobby = await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    live = live_table(bot, world)
    seen = 0
    deal_on = lobby
    for _ in range(6):
        await emu.click(alice, deal_on, label="Deal")
        await hand_on_screen(emu, world, live)
        for _ in range(20):
            await emu.idle()
            decision = live.engine.pending[0] if live.engine.in_hand else None
            if decision is None or decision.kind is engine.DecisionKind.DRAW:
                break
            await act_once(emu, world, bot, decision, policy=opener)
        if decision is not None:
            legal = decision.legal
            assert isinstance(legal, engine.DrawOptions)
            user = alice if decision.player_id == str(alice.id) else bob
            table = await current_table_message(emu, world)
            assert "Stand pat" in table.button_labels
            panel = await open_panel(emu, user, table, "Draw / stand pat…")
            select = panel.selects[0]
            has_ace = any(c.rank == 14 for c in legal.cards)
            assert select["max_values"] == (4 if has_ace else 3), (legal.cards, select)
            if has_ace:
                # Throw away every ace (a hand may hold two): four cards, none of them kept an ace.
                aces = [i for i, c in enumerate(legal.cards) if c.rank == 14]
                others = [i for i in range(5) if i not in aces]
                values = [str(i) for i in (aces + others)[:4]]
                panel = (await emu.select(user, panel, select["custom_id"], values)).message
                confirm = panel.component(label="Discard 4")
                assert confirm["disabled"], confirm
                assert "only when keeping an ace" in panel.text
            # Stand pat straight from the table message.
            r = await emu.click(user, table, label="Stand pat")
            assert r.type == 7, r.content
            seen += 1
        await play_hand(emu, world, bot)
        await emu.idle()
        deal_on = await lobby_message(emu, world)
        if seen >= 2:
            break
    assert seen, "no draw was reached"
    assert_no_duplicate_labels(emu, world)
    emu.assert_clean()


async def test_a_menu_left_from_an_earlier_pass_redraws_its_panel_without_a_refusal(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Anaconda passes three cards, then two. A player opened the pass panel twice and passed
    three with one of them; at the next pass, three picks on the other (its menu took three)
    drew the panel again with three cards ticked in a menu of two, which Discord refused (400,
    and 'something went wrong': a random tournament run found it). The panel comes back with
    nothing ticked and Confirm disabled until two are chosen."""
    bot = await poker_bot()
    alice, bob = world.players[:2]
    lobby = await create_table(emu, world, [alice, bob], variant="anaconda", auto_deal=0)
    await emu.click(alice, lobby, label="Deal")
    live = live_table(bot, world)

    async def to_the_pass() -> None:
        for _ in range(20):
            await emu.idle()
            decision = live.engine.pending[0]
            if decision.kind is engine.DecisionKind.PASS:
                return
            await act_once(emu, world, bot, decision)
        raise AssertionError("no pass was reached")

    await to_the_pass()
    table = await current_table_message(emu, world)
    first = await open_panel(emu, alice, table, "Pass cards…")
    spare = await open_panel(emu, alice, table, "Pass cards…")
    menu = first.selects[0]["custom_id"]
    picked = (await emu.select(alice, first, menu, ["0", "1", "2"])).message
    assert (await emu.click(alice, picked, label="Confirm")).type == 7
    await emu.idle()
    (bobs,) = live.engine.pending
    await act_once(emu, world, bot, bobs)
    await emu.idle()
    assert live.engine.pending[0].kind is engine.DecisionKind.BET
    await to_the_pass()
    legal = next(d.legal for d in live.engine.pending if d.player_id == str(alice.id))
    assert isinstance(legal, engine.PassOptions) and legal.count == 2

    r = await emu.select(alice, spare, spare.selects[0]["custom_id"], ["0", "1", "2"])

    assert r.type == 7, r.content
    (redrawn,) = r.message.selects
    assert redrawn["max_values"] == 2 and not any(o.get("default") for o in redrawn["options"])
    assert r.message.component(label="Confirm")["disabled"]
    emu.assert_clean()


async def test_a_draw_menu_picked_while_the_cards_are_arranged_is_refused(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Shotgun draws, then each player arranges the order their cards are turned up. Picks on
    a second draw panel, left open, are not taken for that order: the choice is refused."""
    bot = await poker_bot()
    alice, bob = world.players[:2]
    lobby = await create_table(emu, world, [alice, bob], variant="shotgun", auto_deal=0)
    await emu.click(alice, lobby, label="Deal")
    live = live_table(bot, world)
    for _ in range(20):
        await emu.idle()
        decision = live.engine.pending[0]
        if decision.kind is engine.DecisionKind.DRAW and decision.player_id == str(alice.id):
            break
        await act_once(emu, world, bot, decision, policy=opener)  # a deal nobody opens ends
    table = await current_table_message(emu, world)
    await open_panel(emu, alice, table, "Draw / stand pat…")
    spare = await open_panel(emu, alice, table, "Draw / stand pat…")
    for _ in range(20):
        await emu.idle()
        waiting = {d.player_id: d for d in live.engine.pending}
        if str(alice.id) in waiting and waiting[str(alice.id)].kind is engine.DecisionKind.ARRANGE:
            break
        await act_once(emu, world, bot, live.engine.pending[0])
    else:
        raise AssertionError("alice never came to arrange her cards")

    r = await emu.select(alice, spare, spare.selects[0]["custom_id"], ["0", "1"])

    assert r.type == 4 and r.ephemeral and "no longer valid" in r.content, r.content
    assert live.engine.pending[0].kind is engine.DecisionKind.ARRANGE
    emu.assert_clean()


async def test_rebuy_and_end_during_a_hand(poker_bot, emu: Emulator, world: World) -> None:
    bot = await poker_bot()
    bot.presenter.ping_after = 0  # at once: these tests follow every ping
    alice, bob = world.players[:2]
    lobby = await create_table(
        emu, world, [alice, bob], stake=2, ante=1, auto_deal=0, min_buy_in=40, max_buy_in=200
    )
    live = live_table(bot, world)
    added = await emu.run_command(alice, world.channel, "poker rebuy", {"amount": 60})
    assert added.ephemeral and "100" in added.content, added.content
    too_much = await emu.run_command(alice, world.channel, "poker rebuy", {"amount": 150})
    assert too_much.ephemeral and "1 to 100" in too_much.content, too_much.content
    assert live.engine.stack(str(alice.id)) == 100
    await emu.click(alice, lobby, label="Deal")
    await emu.idle()
    during = await emu.run_command(alice, world.channel, "poker rebuy", {"amount": 10})
    assert during.ephemeral and "between hands" in during.content, during.content
    ending = await emu.run_command(alice, world.channel, "poker end", {})
    assert "as soon as it is over" in ending.content, ending.content
    assert live_table(bot, world) is live
    await play_hand(emu, world, bot)
    await emu.idle()
    assert live_table(bot, world) is None, "the table closed once the hand was over"
    assert "Table closed" in emu.get_message(Shown.of(live).message_id).text
    assert not with_components(emu, world)
    audit = await bot.db.chip_audit(world.guild.id)
    assert audit.ok
    emu.assert_clean()


def _run_bot(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    return subprocess.run(
        [sys.executable, "bot.py"],
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
        cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
    )


async def test_a_refused_token_or_no_network_ends_with_one_line(emu: Emulator, tmp_path) -> None:
    bogus = {**emu.env(), "DISCORD_TOKEN": "bogus", "DATABASE_PATH": str(tmp_path / "a.db")}
    refused = await asyncio.to_thread(_run_bot, bogus)
    assert refused.returncode != 0
    assert "Traceback" not in refused.stderr, refused.stderr
    assert "refused the token" in refused.stderr
    assert "voice will NOT be supported" not in refused.stderr
    offline = {
        "DISCORD_TOKEN": "x",
        "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10",
        "DATABASE_PATH": str(tmp_path / "b.db"),
    }
    unreachable = await asyncio.to_thread(_run_bot, offline)
    assert unreachable.returncode != 0
    assert "Traceback" not in unreachable.stderr, unreachable.stderr
    assert "can't be reached" in unreachable.stderr
    lines = [line for line in unreachable.stderr.splitlines() if "Cannot start" in line]
    assert len(lines) == 1


async def test_a_database_or_port_the_bot_cannot_use_ends_with_one_line(
    emu: Emulator, tmp_path
) -> None:
    """Logged in, the bot opens its database and its metrics port: what this machine refuses
    ends the start with one line naming it (exit 6), and another program's SQLite file is
    left exactly as it was."""
    folder = tmp_path / "folder.db"
    folder.mkdir()
    text = tmp_path / "text.db"
    text.write_text("not a database " * 40)
    foreign = tmp_path / "foreign.db"
    with contextlib.closing(sqlite3.connect(foreign)) as other:
        other.execute("CREATE TABLE notes (body TEXT)")
        other.commit()
    before = foreign.read_bytes()
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = str(taken.getsockname()[1])
    cases = [
        ({"DATABASE_PATH": str(folder)}, "cannot open the SQLite file"),
        ({"DATABASE_PATH": str(text / "poker.db")}, "cannot open the SQLite file"),
        ({"DATABASE_PATH": str(text)}, "cannot be used as the bot's database"),
        ({"DATABASE_PATH": str(foreign)}, "another program's SQLite database"),
        ({"DATABASE_PATH": str(tmp_path / "ok.db"), "METRICS_PORT": port}, "cannot be served"),
    ]
    with taken:
        for change, words in cases:
            run = await asyncio.to_thread(_run_bot, {**emu.env(), **change})
            assert run.returncode == 6, run.stderr
            assert "Traceback" not in run.stderr, run.stderr
            lines = [line for line in run.stderr.splitlines() if "Cannot start" in line]
            assert len(lines) == 1 and words in lines[0], run.stderr
    assert foreign.read_bytes() == before
    assert not (tmp_path / "foreign.db-wal").exists()


def test_a_log_level_logging_does_not_know_ends_with_one_line(tmp_path) -> None:
    env = {"DISCORD_TOKEN": "x", "LOG_LEVEL": "verbose", "DATABASE_PATH": str(tmp_path / "c.db")}
    refused = _run_bot(env)
    assert refused.returncode == 2
    assert "Traceback" not in refused.stderr, refused.stderr
    assert refused.stderr.strip().splitlines() == [
        "Cannot start: LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, not 'VERBOSE'."
    ]
    assert Settings.from_env({"DISCORD_TOKEN": "x", "LOG_LEVEL": " warning "}).log_level == (
        "WARNING"
    )


_ = random  # the driver's policies take their own random source


async def test_sit_down_asks_the_buy_in_and_a_seat(poker_bot, emu: Emulator, world: World) -> None:
    bot = await poker_bot()
    bot.presenter.ping_after = 0  # at once: these tests follow every ping
    alice, bob, carol = world.players[:3]
    created = await emu.run_command(
        alice, world.channel, "poker create", {"min_buy_in": 40, "max_buy_in": 200, "seats": 4}
    )
    opened = await emu.click(alice, created.message, label="Sit down")
    assert opened.type == 9, opened.content
    inputs = [row["components"][0] for row in opened.modal["components"]]
    buy_in = next(i for i in inputs if i["custom_id"] == "buy_in")
    assert buy_in["value"] == "40" and "40 to 200" in buy_in["label"]
    seat = next(i for i in inputs if i["custom_id"] == "seat")
    assert "1, 2, 3, 4" in seat["placeholder"]
    sat = await emu.submit_modal(alice, opened, {"buy_in": "150", "seat": "3"})
    assert sat.type == 7, sat.content
    live = live_table(bot, world)
    assert live.engine.seats[2] is not None and live.engine.seats[2].player_id == str(alice.id)
    assert live.engine.stack(str(alice.id)) == 150
    # A taken seat, a buy-in outside the range, a seat that does not exist: refused, no change.
    for values, reason in (
        ({"seat": "3"}, "seat is taken"),
        ({"buy_in": "500"}, "40 to 200"),
        ({"seat": "9"}, "from 1 to 4"),
    ):
        opened = await emu.click(bob, created.message, label="Sit down")
        refused = await emu.submit_modal(bob, opened, values)
        assert refused.ephemeral and reason in refused.content, (values, refused.content)
        assert not live.seated(bob.id)
    again = await emu.click(alice, created.message, label="Sit down")
    assert again.ephemeral and "already seated" in again.content
    opened = await emu.click(carol, created.message, label="Sit down")
    seat = next(
        row["components"][0]
        for row in opened.modal["components"]
        if row["components"][0]["custom_id"] == "seat"
    )
    assert "3" not in seat["placeholder"]
    emu.assert_clean()


def _shove(decision: engine.Decision, labels: list[str]) -> str:
    """All-in whenever offered, else call, else check."""
    for want in ("All-in", "Call", "Check"):
        match = next((label for label in labels if label.startswith(want)), None)
        if match:
            return match
    return labels[0]


async def test_a_busted_player_rebuys_with_the_lobby_button(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    bot.presenter.ping_after = 0  # at once: these tests follow every ping
    alice, bob = world.players[:2]
    lobby = await create_table(
        emu,
        world,
        [alice, bob],
        betting="no-limit",
        stake=2,
        auto_deal=0,
        min_buy_in=40,
        max_buy_in=400,
    )
    live = live_table(bot, world)
    deal_on = lobby
    for _ in range(12):
        await emu.click(alice, deal_on, label="Deal")
        await play_hand(emu, world, bot, policy=_shove)
        await emu.idle()
        deal_on = await lobby_message(emu, world)
        if any(s is not None and s.stack == 0 for s in live.engine.seats):
            break
    busted = next(s for s in live.engine.seats if s is not None and s.stack == 0)
    user = alice if busted.player_id == str(alice.id) else bob
    winner = bob if user is alice else alice
    assert "Rebuy" in deal_on.button_labels
    # Someone with chips is told so; the busted player gets the table's smallest buy-in.
    refused = await emu.click(winner, deal_on, label="Rebuy")
    assert refused.ephemeral, refused.content
    r = await emu.click(user, deal_on, label="Rebuy")
    assert r.type == 7, r.content
    assert live.engine.stack(busted.player_id) == 40
    assert "Rebuy" not in r.message.button_labels
    audit = await bot.db.chip_audit(world.guild.id)
    assert audit.ok
    emu.assert_clean()


async def test_ending_between_hands_leaves_no_live_buttons(
    poker_bot, emu: Emulator, world: World
) -> None:
    await poker_bot()
    alice, bob = world.players[:2]
    lobby = await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    ended = await emu.run_command(alice, world.channel, "poker end", {})
    assert not ended.ephemeral and "Table closed" in ended.message.text
    await emu.idle()
    assert not with_components(emu, world)
    # The table message goes: the closing answer below it is the table's last word.
    assert emu.get_message(lobby.id).deleted
    emu.assert_clean()


async def test_a_four_colour_deck_for_whoever_asks(poker_bot, emu: Emulator, world: World) -> None:
    bot = await poker_bot()
    bot.presenter.ping_after = 0  # at once: these tests follow every ping
    alice, bob = world.players[:2]
    chosen = await emu.run_command(alice, world.channel, "poker deck", {"colours": "four"})
    assert chosen.ephemeral and "four" in chosen.content
    assert (await bot.db.preferences(alice.id)).four_colour
    lobby = await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    await emu.click(alice, lobby, label="Deal")
    await emu.wait_for(lambda: emu.dms(alice) and emu.dms(bob))
    live = live_table(bot, world)

    def drawn(user: Any, four: bool) -> bytes:
        # The cards arranged by what they make, as the DM's text writes them.
        private = live.engine.private_view(str(user.id))
        arranged = render.private_arrangement(live.engine.hand, private)
        cards, wild, idle = render.picture_cards(private.cards, arranged)
        return render_cards(cards, wild=wild, four_colour=four, idle=idle)

    for user, four in ((alice, True), (bob, False)):
        picture = emu.dms(user)[-1].attachments[0].data
        assert picture == drawn(user, four)
    # My hand draws the same.
    await hand_on_screen(emu, world, live)
    mine = await emu.click(alice, find_table_message(emu, world), label="My hand")
    assert mine.attachments[0].data == drawn(alice, True)
    emu.assert_clean()


async def test_a_refused_rebuy_during_a_hand_leaves_the_hand_to_end_as_usual(
    poker_bot, emu: Emulator, world: World
) -> None:
    """A rebuy the bankroll cannot pay, made during a hand the player was not dealt into, is
    refused and the table goes back to its last snapshot. That snapshot was written as the
    hand was dealt, before the hand had its id in the history: the table then failed to
    record the hand's end, and refused every action after it ("could not be saved")."""
    bot = await poker_bot()
    alice, bob, carol = world.players[:3]
    await create_table(emu, world, [alice, bob], stake=2, auto_deal=0, max_buy_in=5000)
    r = await emu.run_command(carol, world.channel, "poker join", {"buy_in": 900})
    assert not r.ephemeral, r.content
    r = await emu.run_command(carol, world.channel, "poker sitout", {})
    assert r.ephemeral, r.content
    r = await emu.run_command(alice, world.channel, "poker start", {})
    assert r.ephemeral and "Dealing" in r.content, r.content
    # Nothing is saved between the deal and the refusal.
    r = await emu.run_command(carol, world.channel, "poker rebuy", {"amount": 3000})
    assert r.ephemeral and "Not enough chips" in r.content, r.content
    result = await play_hand(emu, world, bot)
    assert result is not None
    (hand,) = (await bot.db.list_hands(live_table(bot, world).id)).items
    assert hand.ended_at is not None and hand.result_json, hand
    r = await emu.run_command(bob, world.channel, "poker start", {})
    assert r.ephemeral and "Dealing" in r.content, r.content
    assert (await bot.db.chip_audit(world.guild.id)).ok
    emu.assert_clean()
