"""The documentation's pictures of what players see, made by the bot itself.

    .venv/bin/python docs/pictures/make.py --preview /path/to/discord_preview.py

Starts the real bot against the local Discord emulator (``tests/emulator/``), plays a hand of
five-card draw with three players through the table's buttons (``tests/bot/driver.py``), and
keeps the messages the players were sent at four moments: the table message during a betting
round, a player's draw panel (with the coach on), the showdown, and a tournament lobby. Each is
written here as Discord API JSON (``<name>.json``, with its attached pictures beside it) and
rendered at phone width by the preview tool (``<name>.png``), which draws message payloads as
Discord does, with headless Chromium. The tool lives outside the repository: its path is
``--preview`` or the ``DISCORD_PREVIEW`` environment variable; ``--json-only`` skips it.

The deck is shuffled by the bot's own random source, so each run deals other cards.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT))

import orjson  # noqa: E402  (after the path: run as a script from anywhere)

import engine  # noqa: E402
from cogs.app import create_bot  # noqa: E402
from cogs.config import Settings  # noqa: E402
from engine.seating import is_house  # noqa: E402
from tests.bot import driver  # noqa: E402
from tests.emulator import Emulator  # noqa: E402
from tests.emulator.client_setup import point_discordpy_at, restore_endpoints  # noqa: E402
from tests.emulator.runner import running_bot  # noqa: E402

AUTHOR = "Draw Poker"
Scene = dict[str, Any]


def payload(message: Any, where: str, folder: Path, prefix: str) -> dict[str, Any]:
    """``message`` as the API's JSON for the preview tool; its attachments saved in ``folder``."""
    files = []
    embeds = orjson.loads(orjson.dumps(message.embeds))  # a copy, to write the links back
    for attachment in message.attachments:
        name = f"{prefix}-{attachment.filename}"
        (folder / name).write_bytes(attachment.data)
        files.append({"filename": attachment.filename, "path": name})
        # The emulator resolves attachment://name to its own address, as Discord does; the
        # payload the bot sent said attachment://name, which is what the preview reads.
        for embed in embeds:
            for key in ("image", "thumbnail"):
                if embed.get(key, {}).get("url") == attachment.url:
                    embed[key]["url"] = f"attachment://{attachment.filename}"
    return {
        "where": where,
        "author": AUTHOR,
        "ephemeral": message.ephemeral,
        "content": message.content,
        "embeds": embeds,
        "components": message.components,
        "flags": message.flags,
        "attachments": files,
    }


def scene(caption: str, users: dict[str, str], *messages: dict[str, Any]) -> Scene:
    return {"caption": caption, "now": int(time.time()), "users": users, "messages": list(messages)}


async def play(folder: Path) -> dict[str, Scene]:
    """Play the hand and the lobby; the scenes by name."""
    emu = Emulator()
    world = emu.default_world()
    await emu.start()
    scenes: dict[str, Scene] = {}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            config = Settings(token="emulated", database_path=f"{tmp}/poker.db", press_limit=0)
            async with running_bot(emu, lambda: create_bot(config)) as bot:
                scenes = await _scenes(emu, world, bot, folder)
    finally:
        await emu.close()
    return scenes


async def _scenes(emu: Emulator, world: Any, bot: Any, folder: Path) -> dict[str, Scene]:
    players = world.players[:3]
    users = {str(p.id): p.username.capitalize() for p in world.players}
    channel = f"#{world.channel.name}"
    await driver.create_table(emu, world, players, variant="five-card-draw", coach=True)
    await driver.deal(emu, world, players[0])
    live = driver.live_table(bot, world)
    scenes: dict[str, Scene] = {}
    rng_policy = driver.opener  # bets and raises, so the table shows a pot and a raise
    for _ in range(200):
        await emu.idle()
        if not live.engine.in_hand:
            break
        decision = live.engine.pending[0]
        if "table" in scenes and "timebank" not in scenes and not is_house(decision.player_id):
            # The player lets the action timer run out: their time bank starts by itself
            # (the service's own timeout, called as the clock would at the deadline).
            live.deadline = 0.0
            await bot.tables.expire(live)
            await emu.idle()
            if live.meta.bank_ends:
                scenes["timebank"] = scene(
                    f"{users[decision.player_id]} is using their time bank",
                    users,
                    payload(driver.table_message(emu, world), channel, folder, "timebank"),
                )
            decision = live.engine.pending[0]
        if decision.kind is engine.DecisionKind.BET and "table" not in scenes:
            legal = decision.legal
            if isinstance(legal, engine.BetOptions) and legal.to_call:  # someone has bet
                message = driver.table_message(emu, world)
                scenes["table"] = scene(
                    "The table message during the first betting round",
                    users,
                    payload(message, channel, folder, "table"),
                )
        if decision.kind is engine.DecisionKind.DRAW and "draw" not in scenes:
            user = next(p for p in players if str(p.id) == decision.player_id)
            message = driver.table_message(emu, world)
            panel = await driver.open_panel(emu, user, message, "Draw / stand pat…")
            scenes["draw"] = scene(
                f"{users[decision.player_id]}'s draw panel, with the coach on",
                users,
                payload(panel, f"{channel} · only you", folder, "draw"),
            )
        await driver.act_once(emu, world, bot, decision, policy=rng_policy)
    await emu.idle()
    shown = [m for m in emu.channel_messages(world.channel) if m.attachments]
    if shown:
        scenes["showdown"] = scene(
            "The showdown", users, payload(shown[-1], channel, folder, "showdown")
        )
        # One message per hand: the hand's message became its result, and the table goes on
        # in the newest message of the channel, below it.
        after = emu.channel_messages(world.channel)
        scenes["result"] = scene(
            "A hand's result, and the table's next message below it",
            users,
            *(payload(m, channel, folder, f"result-{i}") for i, m in enumerate(after[-2:])),
        )
    # One game per channel: the cash table closes before the tournament opens.
    ended = await emu.run_command(players[0], world.channel, "poker end", {})
    await emu.idle()
    lobby = await emu.run_command(
        world.host, world.channel, "poker tournament create", {"buy_in": 100, "seats": 6}
    )
    if lobby.message is None or lobby.ephemeral:
        raise RuntimeError(
            f"no tournament lobby: {lobby.content} (after /poker end: {ended.content})"
        )
    for player in players:
        await emu.click(player, lobby.message, label="Register")
    await emu.idle()
    fresh = emu.messages[lobby.message.id]
    scenes["lobby"] = scene(
        "A tournament lobby with three players registered",
        users,
        payload(fresh, channel, folder, "lobby"),
    )
    return scenes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preview", default=os.environ.get("DISCORD_PREVIEW"))
    parser.add_argument("--out", type=Path, default=HERE)
    parser.add_argument("--width", type=int, default=390, help="CSS pixels: 390 is a phone")
    parser.add_argument("--json-only", action="store_true", help="write the JSON, no PNG")
    args = parser.parse_args()
    if not args.json_only and not args.preview:
        parser.error("give the preview tool's path with --preview or DISCORD_PREVIEW")
    if not args.json_only and not Path(args.preview).is_file():
        parser.error(f"the preview tool {args.preview} is not a file")
    if args.out.exists() and not args.out.is_dir():
        parser.error(f"--out {args.out} is a file, not a folder")
    if args.width < 1:
        parser.error(f"--width must be at least 1 pixel, not {args.width}")
    args.out.mkdir(parents=True, exist_ok=True)
    previous = point_discordpy_at("http://127.0.0.1:9/api/v10", "ws://127.0.0.1:9/gateway")
    try:
        scenes = asyncio.run(play(args.out))
    finally:
        restore_endpoints(previous)
    for name, content in scenes.items():
        source = args.out / f"{name}.json"
        source.write_bytes(orjson.dumps(content, option=orjson.OPT_INDENT_2) + b"\n")
        if not args.json_only:
            png = args.out / f"{name}.png"
            command = [sys.executable, args.preview, str(source), str(png)]
            subprocess.run([*command, "--width", str(args.width)], check=True)
            (args.out / f"{name}.html").unlink(missing_ok=True)  # the tool's working copy
        print(f"{name}: {source}")
    missing = {"table", "timebank", "draw", "showdown", "result", "lobby"} - scenes.keys()
    if missing:
        print(f"not captured: {', '.join(sorted(missing))}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
