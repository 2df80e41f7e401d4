"""A clean stop: the bot runs as a process and gets SIGTERM (or SIGINT) in busy play.

Three tables play at once, each with its players pressing their action buttons and My hand as
fast as the bot answers. SIGTERM arrives while presses are in flight; the players go on
pressing until the bot answers one of them that it is restarting. Then: every press sent got an
answer, the process exited 0 (within 10 s), no chip was lost (the audit), every table is still
open, and the next start resumes each of them (a hand plays on at every table).

Run with ``-s`` to see the figures (presses in flight at the signal, answered, time to exit).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any

import pytest

import engine
from data import Database
from tests.bot.driver import custom_ids, passive
from tests.emulator import Emulator, InteractionResult, World

TABLES = 3
PRESSES_BEFORE_SIGNAL = 60
RESTARTING = "restarting"


@dataclass
class Presses:
    sent: int = 0
    answered: int = 0
    restarting: int = 0
    in_flight: int = 0
    unanswered: list[str] = field(default_factory=list)
    stopping: bool = False  # a press was answered "restarting": press no more
    signalled: bool = False
    exited: bool = False  # the bot process has exited: nothing more can be answered
    in_flight_played: int = 0  # in flight at the signal, and answered as played (not refused)

    @property
    def done(self) -> bool:
        return self.stopping or self.exited

    async def press(self, what: str, click: Coroutine[Any, Any, Any]) -> None:
        if self.done:
            click.close()  # not sent
            return
        self.sent += 1
        self.in_flight += 1
        before_signal = not self.signalled
        try:
            result: InteractionResult = await click
        finally:
            self.in_flight -= 1
        if result.type is None:
            self.unanswered.append(f"{what}: {result.failure}")
            return
        self.answered += 1
        if RESTARTING in (result.content or ""):
            self.restarting += 1
            self.stopping = True
        elif before_signal and self.signalled:
            self.in_flight_played += 1


def _table_message(emu: Emulator, channel: Any) -> Any:
    for message in reversed(emu.channel_messages(channel)):
        if any(cid.startswith("pk:t:") for cid in custom_ids(message)):
            return message
    return None


async def _engine(db: Database, channel_id: int) -> engine.Table | None:
    for row in await db.open_tables():
        if row.channel_id == channel_id:
            state = json.loads(row.state_json or "{}")
            return engine.Table.from_dict(state["engine"])
    return None


async def _open_table(emu: Emulator, channel: Any, players: list[Any]) -> None:
    created = await emu.run_command(
        players[0], channel, "poker create", {"stake": 2, "auto_deal": 0}
    )
    assert created.type == 4 and not created.ephemeral, created.content
    for player in players:
        r = await emu.click(player, created.message, label="Sit down")
        if r.type == 9:  # the buy-in modal, as prefilled
            r = await emu.submit_modal(player, r, {})
        assert r.type == 7, r.content


async def _dealt(emu: Emulator, db: Database, channel: Any, presses: Presses) -> None:
    """After a deal: until the table's message shows the hand (its My hand button), or the
    bot is stopping. The wait is for this table alone: the other tables keep the bot busy, so
    waiting for the whole bot to be idle (emu.idle) only ends by luck on a loaded machine."""
    deadline = time.monotonic() + 60
    while not presses.done:
        table = await _engine(db, channel.id)
        message = _table_message(emu, channel)
        shown = message is not None and "My hand" in message.button_labels
        if table is not None and table.in_hand and shown:
            return
        assert time.monotonic() < deadline, f"the deal at {channel.name} was never shown"
        with contextlib.suppress(TimeoutError):
            await emu.wait_for(lambda: presses.done, timeout=0.05)


async def _play(
    emu: Emulator, db: Database, channel: Any, players: list[Any], presses: Presses
) -> None:
    """Press this table's buttons as fast as the bot answers, until it says it is restarting:
    the action of whoever must act, and My hand from the others at the same time."""
    by_id = {str(p.id): p for p in players}
    while not presses.done:
        table = await _engine(db, channel.id)
        assert table is not None
        message = _table_message(emu, channel)
        if not table.in_hand or message is None:
            await presses.press(
                "deal",
                emu.run_command(players[0], channel, "poker start", {}, raise_on_failure=False),
            )
            await _dealt(emu, db, channel, presses)
            continue
        decision = table.pending[0]
        user = by_id[decision.player_id]
        others = [p for p in players if p is not user]
        label = passive(decision, message.button_labels)
        if decision.kind is not engine.DecisionKind.BET or label not in message.button_labels:
            label = "Fold" if "Fold" in message.button_labels else message.button_labels[0]
        await asyncio.gather(
            presses.press(
                f"{label} on {channel.name}",
                emu.click(user, message, label=label, raise_on_failure=False),
            ),
            *(
                presses.press(
                    f"My hand on {channel.name}",
                    emu.click(other, message, label="My hand", raise_on_failure=False),
                )
                for other in others
                if "My hand" in message.button_labels
            ),
        )


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_stop_signal_in_busy_play(
    emu: Emulator, world: World, bot_process: Any, signum: signal.Signals
) -> None:
    # Python's fault handler: a process that does not exit is made to show where it is stuck.
    proc = bot_process(env={"PYTHONFAULTHANDLER": "1"})
    await proc.start()
    extra = [emu.add_user(name) for name in ("erin", "frank")]
    for user in extra:
        emu.add_member(world.guild, user)
    users = [*world.players, *extra]
    channels = [world.channel] + [
        emu.add_text_channel(world.guild, f"poker-{i}") for i in range(2, TABLES + 1)
    ]
    seating = {channel.id: users[2 * i : 2 * i + 2] for i, channel in enumerate(channels)}
    for channel in channels:
        await _open_table(emu, channel, seating[channel.id])
    db = await Database.open(str(proc.database_path))
    presses = Presses()
    try:
        players = [asyncio.create_task(_play(emu, db, c, seating[c.id], presses)) for c in channels]
        await emu.wait_for(lambda: presses.sent >= PRESSES_BEFORE_SIGNAL, timeout=120)
        await emu.wait_for(lambda: presses.in_flight > 0, timeout=30)
        in_flight, sent_before = presses.in_flight, presses.sent
        signalled = time.perf_counter()
        assert proc.proc is not None
        proc.proc.send_signal(signum)
        presses.signalled = True
        try:
            returncode = await proc.wait_exit(timeout=10)
            presses.exited = True
        except TimeoutError:
            proc.proc.send_signal(signal.SIGABRT)  # the fault handler prints every thread
            await asyncio.sleep(1)
            stuck = proc.output[-6000:]
            raise AssertionError(f"no exit 10 s after {signum.name}:\n{stuck}") from None
        exited_after = time.perf_counter() - signalled
        await asyncio.gather(*players)
        print(
            f"\n{signum.name} in busy play on {TABLES} tables: {sent_before} presses before it, "
            f"{in_flight} in flight at the signal ({presses.in_flight_played} of them played, "
            f"not refused); {presses.sent} sent in all, "
            f"{presses.answered} answered ({presses.restarting} 'restarting'); "
            f"exit {returncode} after {exited_after:.2f} s"
        )
        assert returncode == 0, proc.output[-3000:]
        assert presses.unanswered == [], presses.unanswered
        assert presses.answered == presses.sent
        assert presses.restarting >= 1, "no press arrived while the bot was stopping"
        assert "stopped cleanly" in proc.output
        audit = await db.chip_audit()
        assert audit.ok, audit
        before = {c.id: await _engine(db, c.id) for c in channels}
        assert all(table is not None for table in before.values())

        # The next start resumes every table: a hand is played to its end at each.
        await proc.start()
        for channel in channels:
            await _finish_hand(emu, db, channel, seating[channel.id])
        audit = await db.chip_audit()
        assert audit.ok, audit
        emu.assert_clean()
    finally:
        await db.close()


async def _finish_hand(emu: Emulator, db: Database, channel: Any, players: list[Any]) -> None:
    """Play on at ``channel``'s table until the hand in progress (or a new one) ends."""
    by_id = {str(p.id): p for p in players}
    table = await _engine(db, channel.id)
    assert table is not None
    if not table.in_hand:
        r = await emu.run_command(players[0], channel, "poker start", {})
        assert r.ephemeral and "Dealing" in r.content, r.content
    hand = None
    for _ in range(100):
        await emu.idle(timeout=30)  # generous: the restarted bot takes up three tables
        table = await _engine(db, channel.id)
        assert table is not None
        hand = hand or table.hand_number
        if not table.in_hand:
            assert table.hand_number == hand
            return
        decision = table.pending[0]
        message = _table_message(emu, channel)
        assert message is not None
        label = passive(decision, message.button_labels)
        r = await emu.click(by_id[decision.player_id], message, label=label)
        assert r.type == 7, r.content
    raise AssertionError(f"the hand at {channel.name} did not finish after the restart")
