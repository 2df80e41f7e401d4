"""Sharded bot processes: ``SHARD_COUNT``/``SHARD_IDS`` split the gateway's shards, a server's
tables live in the process holding its shard, and killing one process leaves the other's tables
alone while its own resume on restart with every chip accounted for."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

import engine
from cogs.app import NOT_OURS, create_bot
from cogs.config import Settings, SettingsError, shard_of
from data import Database
from tests.bot.driver import find_table_message, forged_press, passive
from tests.emulator import Emulator, World
from tests.emulator.plugin import StartBot
from tests.emulator.server import MANAGE_GUILD
from tests.pg import PgServer, pg_server

__all__ = ["pg_server"]  # a fixture

# -- settings ---------------------------------------------------------------------------------


def _settings(**env: str) -> Settings:
    return Settings.from_env({"DISCORD_TOKEN": "t", **env})


def test_shard_settings() -> None:
    unset = _settings()
    assert unset.shard_count is None and unset.shard_ids is None
    assert unset.owns_guild(123 << 22) and unset.syncs_commands
    all_of_two = _settings(SHARD_COUNT="2")
    assert all_of_two.shard_count == 2 and all_of_two.shard_ids is None
    assert all_of_two.owns_guild(1 << 22)
    split = _settings(SHARD_COUNT="4", SHARD_IDS=" 3, 1 ")
    assert split.shard_ids == (1, 3) and not split.syncs_commands
    assert [split.owns_guild(n << 22) for n in range(4)] == [False, True, False, True]
    assert not split.owns_guild(None)  # DMs are shard 0's
    assert _settings(SHARD_COUNT="8", SHARD_IDS="0-2,6").shard_ids == (0, 1, 2, 6)
    assert shard_of(None, 3) == 0 and shard_of(5 << 22, 3) == 2


@pytest.mark.parametrize(
    ("env", "words"),
    [
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be a whole number"),
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be a whole number"),
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "do not exist with SHARD_COUNT=2"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,x"}, "like 0,1 or a range like 0-3"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "3-1"}, "runs backwards"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "1,0-1"}, "names a shard twice"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "-1"}, "like 0,1 or a range like 0-3"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0-99999999999999"}, "do not exist with SHARD_COUNT"),
        ({"SHARD_COUNT": "99999999999999999999"}, "SHARD_COUNT must be a whole number"),
        ({"SHARD_COUNT": "²"}, "SHARD_COUNT must be a whole number"),
        # Other settings with a number, an id or an address in them.
        ({"PRESS_LIMIT": "²"}, "PRESS_LIMIT must be a whole number"),
        ({"DEV_GUILD_ID": "99999999999999999999"}, "DEV_GUILD_ID must be a server id"),
        ({"BACKUP_HOURS": "0.000001"}, "at least one minute"),
        ({"DISCORD_GATEWAY_URL": "ws://[::1"}, "DISCORD_GATEWAY_URL must be a ws://"),
        ({"DISCORD_API_BASE": "http://127.0.0.1:99999/api"}, "DISCORD_API_BASE must be"),
        ({"DATABASE_URL": "postgresql://u:p@127.0.0.1:port/db"}, "DATABASE_URL must be"),
        ({"DATABASE_PATH": ":memory:"}, "would lose every bankroll"),
    ],
)
def test_bad_settings_are_refused_with_a_reason(env: dict[str, str], words: str) -> None:
    with pytest.raises(SettingsError, match=words):
        _settings(**env)


# -- worlds on chosen shards ------------------------------------------------------------------


def _server(emu: Emulator, name: str, shard: tuple[int, int], players: int = 3) -> World:
    host = emu.add_user(f"{name}-host")
    guild = emu.add_guild(name, owner=host, shard=shard)
    emu.add_member(guild, host, permissions=MANAGE_GUILD)
    channel = emu.add_text_channel(guild, "poker")
    people = []
    for i in range(players):
        user = emu.add_user(f"{name}-p{i}")
        emu.add_member(guild, user)
        people.append(user)
    return World(guild, channel, host, people)


async def _open_table(emu: Emulator, world: World) -> Any:
    creator = world.players[0]
    created = await emu.run_command(
        creator, world.channel, "poker create", {"stake": 2, "ante": 1, "auto_deal": 0}
    )
    assert created.type == 4 and not created.ephemeral, created.content
    for player in world.players:
        r = await emu.click(player, created.message, label="Sit down")
        if r.type == 9:
            r = await emu.submit_modal(player, r, {})
        assert r.type == 7, r.content
    return created


async def _deal(emu: Emulator, world: World) -> None:
    r = await emu.run_command(world.players[0], world.channel, "poker start", {})
    assert r.ephemeral and "Dealing" in r.content, r.content


async def _table(db: Database, guild_id: int) -> engine.Table:
    rows = [t for t in await db.open_tables() if t.guild_id == guild_id]
    assert len(rows) == 1, rows
    return engine.Table.from_dict(json.loads(rows[0].state_json or "{}")["engine"])


async def _act(emu: Emulator, db: Database, world: World) -> engine.Table:
    """One decision on ``world``'s table through its buttons (check/call, stand pat)."""
    table = await _table(db, world.guild.id)
    assert table.in_hand
    decision = table.pending[0]
    user = next(p for p in world.players if str(p.id) == decision.player_id)
    message = await emu.wait_for(lambda: find_table_message(emu, world), timeout=5)
    labels = message.button_labels
    label = "Stand pat" if decision.kind is engine.DecisionKind.DRAW else passive(decision, labels)
    r = await emu.click(user, message, label=label)
    assert r.type == 7, (label, r.content)
    return await _table(db, world.guild.id)


async def _finish_hand(emu: Emulator, db: Database, world: World) -> engine.Table:
    for _ in range(60):
        await emu.idle()
        table = await _table(db, world.guild.id)
        if not table.in_hand:
            return table
        await _act(emu, db, world)
    raise AssertionError("the hand did not finish")


async def _finish_both(emu: Emulator, db: Database, *worlds: World) -> None:
    """Play the worlds' hands to the end, one decision on each table at a time."""
    for _ in range(60):
        await emu.idle()
        playing = [w for w in worlds if (await _table(db, w.guild.id)).in_hand]
        if not playing:
            return
        await asyncio.gather(*(_act(emu, db, w) for w in playing))
    raise AssertionError("the hands did not finish")


async def _audit(db: Database) -> None:
    audit = await db.chip_audit()
    assert audit.ok, audit


# -- one process, every shard ------------------------------------------------------------------


async def test_one_process_runs_every_recommended_shard(
    emu: Emulator, start_bot: StartBot, tmp_path: Path
) -> None:
    zero = _server(emu, "Zero", (0, 2))
    one = _server(emu, "One", (1, 2))
    emu.recommended_shards = 2
    settings = Settings(token="emulated", database_path=str(tmp_path / "poker.db"))
    bot = await start_bot(lambda: create_bot(settings), reidentify_delay=0.01)
    await emu.wait_for(lambda: len(emu.shard_sessions()) == 2)
    assert bot.shard_count == 2 and sorted(bot.shards) == [0, 1]
    for world in (zero, one):
        created = await _open_table(emu, world)
        assert "Sit down" in created.message.button_labels
        assert bot.tables.in_channel(world.channel.id) is not None
    emu.assert_clean()


# -- two processes -----------------------------------------------------------------------------


async def test_a_process_refuses_a_server_of_another_shard(
    emu: Emulator, start_bot: StartBot, tmp_path: Path
) -> None:
    """Discord never sends a server's interactions to a process without its shard; while shards
    move (a restart with another layout) one can still arrive: refused, nothing changed."""
    mine = _server(emu, "Mine", (0, 2))
    theirs = _server(emu, "Theirs", (1, 2))
    settings = Settings(
        token="emulated", database_path=str(tmp_path / "poker.db"), shard_count=2, shard_ids=(0,)
    )
    bot = await start_bot(lambda: create_bot(settings))
    created = await _open_table(emu, mine)
    # Forge the shard layout changing under the bot: the other server's events now reach it.
    for session in emu.sessions.values():
        session.shard = None
    r = await emu.run_command(theirs.players[0], theirs.channel, "poker create", {})
    assert r.ephemeral and r.content == str(NOT_OURS)
    # A table button pressed in the other server (a forged one: it has no table here).
    sit = created.message.component(label="Sit down")["custom_id"]
    posted = emu.user_message(theirs.players[0], theirs.channel, "hello")
    r = await forged_press(emu, theirs.players[0], posted, sit)
    assert r.ephemeral and r.content == str(NOT_OURS)
    # The same press in its own server is answered as usual.
    r = await emu.click(mine.players[0], created.message, label="Sit down")
    assert r.type in (4, 9) and r.content != str(NOT_OURS)
    assert bot.tables.in_channel(theirs.channel.id) is None
    assert len(bot.tables.tables) == 1


async def _database(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, dict[str, str]]:
    """The shared database of a test's processes: what Database.open takes, and their env."""
    if request.param == "sqlite":
        return str(tmp_path / "shared.db"), {}
    server: PgServer = request.getfixturevalue("pg_server")
    url = await server.create_database()
    return url, {"DATABASE_URL": url}


@pytest.fixture(params=["postgres", "sqlite"])
def backend(request: pytest.FixtureRequest) -> pytest.FixtureRequest:
    return request


async def test_two_processes_kill_one_mid_hand(
    emu: Emulator, bot_process: Any, tmp_path: Path, backend: pytest.FixtureRequest
) -> None:
    zero = _server(emu, "Zero", (0, 2))
    one = _server(emu, "One", (1, 2))
    shared, database_env = await _database(backend, tmp_path)
    path = tmp_path / "shared.db"
    env = {"SHARD_COUNT": "2", **database_env}
    first = bot_process(database_path=path, env={**env, "SHARD_IDS": "0"})
    second = bot_process(database_path=path, env={**env, "SHARD_IDS": "1"})
    await first.start()
    await second.start(expect_sync=False)
    assert sorted(s.shard for s in emu.shard_sessions()) == [(0, 2), (1, 2)]
    second_session = next(s for s in emu.shard_sessions(1))

    # Both servers open a table and deal, at the same time.
    await asyncio.gather(_open_table(emu, zero), _open_table(emu, one))
    await asyncio.gather(_deal(emu, zero), _deal(emu, one))
    db = await Database.open(shared)
    try:
        await emu.idle()
        for _ in range(2):
            await asyncio.gather(_act(emu, db, zero), _act(emu, db, one))
            await emu.idle()
        await _audit(db)
        before = await _table(db, zero.guild.id)
        assert before.in_hand

        # kill -9 the process holding shard 0 while the other one is answering a press.
        press = asyncio.ensure_future(_act(emu, db, one))
        await asyncio.sleep(0.005)
        first.kill()
        assert await first.wait_exit() == -9
        await press
        await emu.wait_for(
            lambda: not emu.shard_sessions(0) or not any(s.conn for s in emu.shard_sessions(0))
        )

        # The other process's table goes on: this hand and a whole new one.
        done = await _finish_hand(emu, db, one)
        assert done.result is not None
        await _deal(emu, one)
        await _finish_hand(emu, db, one)
        assert second.running and second_session.conn is not None
        assert second_session.id in emu.sessions and second_session.resumes == 0
        await _audit(db)
        # Nobody drove shard 0's table meanwhile.
        assert (await _table(db, zero.guild.id)).to_dict() == before.to_dict()

        # The restarted process resumes its own table where it stopped, and only that one.
        mark = emu.mark()
        await first.start(settle=0.3)
        await emu.idle()
        one_channel = str(one.channel.id)
        touched = [c for c in emu.calls_since(mark) if one_channel in c.path.split("/")]
        assert not touched, [c.key for c in touched]
        restored = await _table(db, zero.guild.id)
        assert restored.hand_number == before.hand_number and restored.in_hand
        finished = await _finish_hand(emu, db, zero)
        assert finished.result is not None and finished.hand_number == before.hand_number
        # And both servers play on at once.
        await asyncio.gather(_deal(emu, zero), _deal(emu, one))
        await _finish_both(emu, db, zero, one)
        await _audit(db)
    finally:
        await db.close()
    assert second.running
    assert "Traceback" not in first.output and "Traceback" not in second.output


async def test_a_second_process_leaves_a_claimed_table_alone(
    emu: Emulator, bot_process: Any, start_bot: StartBot, pg_server: PgServer
) -> None:
    """Two processes started with the same shard (a mistake, or a move half done) share one
    PostgreSQL database: the one that claimed a table drives it; the other refuses to."""
    zero = _server(emu, "Zero", (0, 2))
    url = await pg_server.create_database()
    first = bot_process(env={"SHARD_COUNT": "2", "SHARD_IDS": "0", "DATABASE_URL": url})
    await first.start()
    created = await _open_table(emu, zero)
    await _deal(emu, zero)
    await emu.idle()
    settings = Settings(
        token="emulated",
        database_path="unused.db",
        database_url=url,
        shard_count=2,
        shard_ids=(0,),
    )
    bot = await start_bot(lambda: create_bot(settings), expect_sync=False)
    assert not bot.tables.tables and len(bot.tables.elsewhere) == 1
    # Only the second process hears the server from now on (the emulator is told the first
    # one's session is another shard's), so every answer below is the second one's.
    for session in emu.sessions.values():
        if (
            session.conn is not None
            and session.id != bot._connection._get_websocket(shard_id=0).session_id
        ):
            session.shard = (1, 2)
    db = await Database.open(url)
    try:
        before = (await _table(db, zero.guild.id)).to_dict()
        before_id = next(iter(bot.tables.elsewhere))
        message = find_table_message(emu, zero)
        assert message is not None
        decision = engine.Table.from_dict(before).pending[0]
        user = next(p for p in zero.players if str(p.id) == decision.player_id)
        label = passive(decision, message.button_labels)
        r = await emu.click(user, message, label=label)
        assert r.ephemeral and "run by another process of the bot" in r.content, r.content
        r = await emu.run_command(zero.players[1], zero.channel, "poker create", {})
        assert r.ephemeral and "run by another process of the bot" in r.content, r.content
        assert (await _table(db, zero.guild.id)).to_dict() == before
        await _audit(db)
        assert not await bot.adopt_tables()  # still held: nothing to take over

        # The first process dies: its claim goes with its connection, and the second one
        # takes the table over (the bot looks every ADOPT_SECONDS; here it is asked now).
        first.kill()
        await first.wait_exit()
        adopted: list[Any] = []
        for _ in range(50):
            adopted = await bot.adopt_tables()
            if adopted:
                break
            await asyncio.sleep(0.1)
        assert [live.id for live in adopted] == [before_id] and not bot.tables.elsewhere
        await emu.idle()
        message = find_table_message(emu, zero)
        assert message is not None
        r = await emu.click(user, message, label=label)
        assert r.type == 7 and not r.ephemeral, r.content
        assert (await _table(db, zero.guild.id)).to_dict() != before  # the press was played
        await _audit(db)
    finally:
        await db.close()
    assert created.message is not None
