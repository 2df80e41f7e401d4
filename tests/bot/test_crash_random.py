"""Fifty kills at random points, over every variant.

The bot runs as a process (``python bot.py``). Before each kill an emulator tripwire is armed
on a random call: either the N-th REST call from now (any call: a table-message edit, a DM, a
followup, an interaction's answer...), or the N-th interaction answer, which kills the bot
after its database commit and before Discord hears the answer. The call that trips it is
dropped, the process is SIGKILLed while it is in the middle of whatever it was doing, and
started again. Tables take turns through the whole catalogue: two kills per variant.

After every kill, read from the database file: the chip audit holds, the hands of every
table are numbered 1..n with none twice, every one but the table's current hand is finished,
and the engine snapshot is at the same hand as the database. After every restart: the table
is resumed (it answers and play goes on to the end of the hand), and a button of a message
posted before the kill either works or is refused with a reason, never left unanswered.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections import Counter
from typing import Any

import engine
from data import Database
from tests.emulator import Emulator, World
from tests.emulator.drivers import UserActionError

KILLS = 50
PLAYERS = 3
QUIET = 0.02  # seconds without a REST call before the next step (the emulator default is 0.05)
PRIVATE_LABEL = {
    engine.DecisionKind.DRAW: "Draw / stand pat…",
    engine.DecisionKind.PASS: "Pass cards…",
    engine.DecisionKind.ARRANGE: "Arrange your cards…",
    engine.DecisionKind.DECLARE: "Declare…",
    engine.DecisionKind.KEEP: "Choose your card…",
    engine.DecisionKind.CHOOSE_GAME: "Choose the game…",
}


class Killed(Exception):
    """The tripwire fired during this step."""


class Crashes:
    """The bot process, the tripwire, and what the test saw."""

    def __init__(self, emu: Emulator, world: World, proc: Any, rng: random.Random) -> None:
        self.emu = emu
        self.world = world
        self.proc = proc
        self.rng = rng
        self.players = world.players[:PLAYERS]
        self.by_id = {str(p.id): p for p in self.players}
        self.killed = False
        self.where: Counter[str] = Counter()
        self.old_buttons: Counter[str] = Counter()
        self.restart_seconds: list[float] = []
        self.steps = 0

    # -- the tripwire ---------------------------------------------------------------------

    def arm(self) -> None:
        self.killed = False

        def die(call: Any) -> None:
            self.proc.kill()
            self.killed = True
            self.where[call.kind if call.kind != "rest" else call.key] += 1
            self.emu.abandon_interactions()

        if self.rng.random() < 0.4:
            # Between the database commit and the answer: the N-th interaction answer.
            self.emu.faults.tripwire("interaction_callback", die, skip=self.rng.randrange(4))
        else:
            self.emu.faults.tripwire(None, die, skip=self.rng.randrange(30))

    async def restart(self, db: Database) -> None:
        await self.proc.wait_exit()
        self.emu.faults.clear()
        await check_database(db)
        started = time.perf_counter()
        await self.proc.start()
        self.killed = False
        self.restart_seconds.append(time.perf_counter() - started)

    # -- answers --------------------------------------------------------------------------

    def judged(self, r: Any, what: str) -> Any:
        """``r`` if it was answered; a refusal must say why."""
        if self.killed:
            raise Killed
        assert r.interaction.acknowledged, f"{what}: no answer ({r.interaction.failure})"
        if r.type == 4 and r.ephemeral:
            assert r.content or r.embeds, f"{what}: a refusal with no reason"
        return r

    async def command(self, user: Any, path: str, options: dict[str, Any]) -> Any:
        r = await self.emu.run_command(
            user, self.world.channel, path, options, raise_on_failure=False
        )
        return self.judged(r, f"/{path}")

    async def click(self, user: Any, message: Any, **how: Any) -> Any:
        r = await self.emu.click(user, message, raise_on_failure=False, **how)
        return self.judged(r, f"click {how}")

    # -- playing --------------------------------------------------------------------------

    def table_message(self) -> Any:
        for message in reversed(self.emu.channel_messages(self.world.channel)):
            if any(c.get("custom_id", "").startswith("pk:t:") for c in message.all_components()):
                return message
        return None

    def lobby_message(self) -> Any:
        for message in reversed(self.emu.channel_messages(self.world.channel)):
            if "Deal" in message.button_labels:
                return message
        return None

    async def act(self, table: engine.Table) -> None:
        """One step of play through the UI: deal, or make the waiting decision."""
        self.steps += 1
        host = self.players[0]
        if not table.in_hand:
            for seat in table.seats:
                if seat is not None and seat.stack < 10:
                    user = self.by_id[seat.player_id]
                    await self.command(user, "poker leave", {})
                    await self.command(user, "poker join", {})
            await self.command(host, "poker start", {})
            return
        decision = table.pending[0]
        user = self.by_id[decision.player_id]
        message = self.table_message()
        if message is None:
            await asyncio.sleep(0.05)
            return
        if decision.kind is engine.DecisionKind.BET:
            labels = [
                label
                for label in message.button_labels
                if label.split(" ")[0] in ("Check", "Call", "Bet", "Raise", "Fold", "All-in")
            ]
            if not labels:
                return
            weights = [1 if label == "Fold" else 6 for label in labels]
            label = self.rng.choices(labels, weights)[0]
            r = await self.click(user, message, label=label)
            if r.type == 9:
                legal = decision.legal
                assert isinstance(legal, engine.BetOptions)
                r = await self.emu.submit_modal(
                    user, r, {"amount": str(legal.min_to)}, raise_on_failure=False
                )
                self.judged(r, "amount")
            return
        label = PRIVATE_LABEL[decision.kind]
        if label not in message.button_labels:
            return
        opened = await self.click(user, message, label=label)
        if opened.type != 6:
            return  # refused (stale): the bot redraws the table message
        try:
            followups = await self.emu.wait_for(lambda: opened.followups or self.killed, 5)
        except TimeoutError:
            followups = None
        if self.killed:
            raise Killed
        assert followups, "the private panel never came"
        await self.private(user, opened.followups[-1], decision)

    async def private(self, user: Any, panel: Any, decision: engine.Decision) -> None:
        kind, legal = decision.kind, decision.legal
        rng = self.rng
        if kind is engine.DecisionKind.DRAW:
            assert isinstance(legal, engine.DrawOptions)
            count = rng.choice([c for c in legal.counts if c <= 3] or [0])
            if count:
                values = [str(i) for i in rng.sample(range(len(legal.cards)), count)]
                r = await self.emu.select(
                    user, panel, panel.selects[0]["custom_id"], values, raise_on_failure=False
                )
                panel = self.judged(r, "draw select").message
                await self.click(user, panel, label=f"Discard {count}")
            else:
                await self.click(user, panel, label="Stand pat")
        elif kind is engine.DecisionKind.PASS:
            assert isinstance(legal, engine.PassOptions)
            values = [str(i) for i in range(legal.count)]
            r = await self.emu.select(
                user, panel, panel.selects[0]["custom_id"], values, raise_on_failure=False
            )
            panel = self.judged(r, "pass select").message
            await self.click(user, panel, label="Confirm")
        elif kind is engine.DecisionKind.ARRANGE:
            assert isinstance(legal, engine.ArrangeOptions)
            for _ in range(legal.size):
                select = panel.selects[0]
                r = await self.emu.select(
                    user,
                    panel,
                    select["custom_id"],
                    [select["options"][0]["value"]],
                    raise_on_failure=False,
                )
                panel = self.judged(r, "arrange select").message
            await self.click(user, panel, label="Confirm")
        elif kind is engine.DecisionKind.DECLARE:
            await self.click(user, panel, label=rng.choice(["High", "Low"]))
        elif kind is engine.DecisionKind.KEEP:
            await self.click(user, panel, label="Take the face-down card")
        else:
            await self.click(user, panel, label="Deal it")

    async def press_an_old_button(self, old: list[Any]) -> None:
        """A button of a message posted before the kill: it works or says why not."""
        buttons = [
            (message, c)
            for message in old
            for c in message.all_components()
            if c.get("type") == 2 and c.get("custom_id", "").startswith("pk:")
        ]
        if not buttons:
            return
        message, button = self.rng.choice(buttons)
        if button.get("label") == "Sit down" or "Stand" in (button.get("label") or ""):
            return  # changes who plays; not what this test is about
        user = self.rng.choice(self.players)
        r = await self.emu.click(
            user, message, custom_id=button["custom_id"], raise_on_failure=False
        )
        assert r.interaction.acknowledged, f"old button {button['custom_id']}: no answer"
        if r.type == 4 and r.ephemeral:
            assert r.content or r.embeds, "an old button refused without a reason"
            self.old_buttons["refused with a reason"] += 1
        else:
            self.old_buttons["worked"] += 1


async def snapshot(db: Database) -> engine.Table | None:
    tables = await db.open_tables()
    if not tables:
        return None
    state = json.loads(tables[0].state_json or "{}")
    return engine.Table.from_dict(state["engine"])


async def check_database(db: Database) -> None:
    """What a crash may leave: chips conserved, hands neither lost nor doubled."""
    audit = await db.chip_audit()
    assert audit.ok, audit
    for table in await db.open_tables():
        hands = (await db.list_hands(table.table_id, limit=100)).items
        numbers = sorted(h.number for h in hands)
        assert numbers == list(range(1, len(numbers) + 1)), numbers
        for hand in hands:
            if hand.hand_id != table.current_hand_id:
                assert hand.ended_at is not None and hand.result_json, hand
        state = json.loads(table.state_json or "{}")
        saved = engine.Table.from_dict(state["engine"])
        assert saved.hand_number == len(numbers), (saved.hand_number, numbers)
        assert (table.current_hand_id is not None) == saved.in_hand


async def test_fifty_kills_at_random_points_over_every_variant(
    emu: Emulator, world: World, bot_process: Any
) -> None:
    started = time.perf_counter()
    rng = random.Random(16_2026)
    variants = [v.slug for v in engine.list_variants()]
    proc = bot_process()
    await proc.start()
    run = Crashes(emu, world, proc, rng)
    host = run.players[0]
    db = await Database.open(str(proc.database_path))
    kills = 0
    hands_played: Counter[str] = Counter()
    try:
        for k in range(KILLS):
            variant = variants[k % len(variants)]
            await open_table(run, db, variant)
            run.arm()
            for _ in range(400):
                await emu.idle(quiet=QUIET)
                table = await snapshot(db)
                assert table is not None
                with contextlib.suppress(Killed, UserActionError):
                    await run.act(table)
                if run.killed:
                    break
            assert run.killed, f"the tripwire never fired ({variant})"
            old = [m for m in emu.channel_messages(world.channel) if list(m.all_components())]
            await run.restart(db)
            kills += 1
            await emu.idle(quiet=QUIET)
            await run.press_an_old_button(old[-6:])
            # Resumed: play goes on to the end of the hand.
            await finish_hand(run, db)
            table = await snapshot(db)
            assert table is not None
            hands_played[variant] = table.hand_number
        await check_database(db)
        r = await run.command(host, "poker end", {})
        assert not r.ephemeral, r.content
        await check_database(db)
    finally:
        await db.close()
        restarts = run.restart_seconds
        print(
            f"\nkills: {kills} in {time.perf_counter() - started:.0f}s over "
            f"{len(hands_played)} variants; killed at {dict(run.where)}; old buttons "
            f"{dict(run.old_buttons)}; {run.steps} steps; restarts {sum(restarts):.0f}s"
            f" ({min(restarts, default=0):.2f}-{max(restarts, default=0):.2f}s each)"
        )
    assert kills == KILLS
    assert len(hands_played) == len(variants)
    assert run.where["interaction_callback"] >= 5, run.where


async def finish_hand(run: Crashes, db: Database) -> None:
    for _ in range(300):
        await run.emu.idle(quiet=QUIET)
        table = await snapshot(db)
        assert table is not None
        if not table.in_hand:
            return
        with contextlib.suppress(UserActionError):  # a panel or message the bot has moved on
            await run.act(table)
    raise AssertionError("the hand did not finish after the restart")


async def open_table(run: Crashes, db: Database, variant: str) -> None:
    """This variant's table in the channel, with a hand dealt (the last one is ended)."""
    table = await snapshot(db)
    tables = await db.open_tables()
    host = run.players[0]
    if table is not None and table.config.variant == variant:
        return
    if table is not None:
        await finish_hand(run, db)
        r = await run.command(host, "poker end", {})
        assert not r.ephemeral, r.content
        assert tables
    r = await run.command(
        host, "poker create", {"variant": variant, "stake": 2, "ante": 1, "auto_deal": 0}
    )
    assert r.type == 4 and not r.ephemeral, (variant, r.content)
    for player in run.players:
        sat = await run.click(player, r.message, label="Sit down")
        if sat.type == 9:  # the buy-in modal, prefilled
            sat = run.judged(
                await run.emu.submit_modal(player, sat, {}, raise_on_failure=False), "sit modal"
            )
        assert sat.type == 7, sat.content
    await run.command(host, "poker start", {})
