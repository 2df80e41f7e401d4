"""When tables move on their own: the action timer, the next deal, and house players' turns.

:class:`TableClock` is the table service's collaborator for time: it is handed the service's
operations it starts (the timeout, the deal, showing a change) as plain callables. Every
timer is an asyncio task or handle owned by the table (``live.timer``, ``live.auto_deal``) or
by the clock (house turns), and every one of them takes the table's lock before touching it,
like a player's press.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import engine
from engine import Action, IllegalAction, seating
from engine.habits import Habits
from engine.house import Level, decide
from engine.seating import house_level
from tables.errors import TableProblem
from tables.live import LiveTable, Outcome
from tables.worker import in_worker

log = logging.getLogger("poker.tables")


HOUSE_PAUSE = 1.5
"""Seconds a house player takes to act: long enough to read as a person's turn. It thinks
meanwhile, so how long it thought tells nothing (unless it thinks longer than that)."""


def people_playing(live: LiveTable) -> bool:
    """Whether a person (not a house player) is seated, in, and has chips (asked between
    hands, when the seats hold the stacks: no need to build the public view)."""
    seats = live.engine.seats
    return seating.people_playing((s.player_id, s.stack, s.sitting_out) for s in seats if s)


class TableClock:
    """Timers of the tables: each runs the same locked operations a player's press does."""

    def __init__(
        self,
        *,
        now: Callable[[], float],
        expire: Callable[[LiveTable], Awaitable[None]],
        deal: Callable[[LiveTable], Awaitable[Outcome]],
        after_change: Callable[[LiveTable, int], Awaitable[Outcome]],
        present: Callable[[LiveTable, Outcome], Awaitable[None]],
    ) -> None:
        """``expire``: the service's timeout of whoever is to act (takes the lock itself);
        ``deal``, ``after_change`` (saves a change made since the ``int``-th event of the
        hand): run under the table's lock; ``present``: shows an outcome, after the lock."""
        self.now = now
        self._expire = expire
        self._deal = deal
        self._after_change = after_change
        self._present = present
        self.house_pause = HOUSE_PAUSE
        self._house_rng = secrets.SystemRandom()
        self._background: set[asyncio.Task[Any]] = set()
        # A house player's turn waiting for its pause, by table id (one per table at a time).
        self._house_turns: dict[int, asyncio.Task[None]] = {}

    def cancel_timers(self, live: LiveTable) -> None:
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        live.deadline = None
        self.cancel_auto_deal(live)

    def cancel_auto_deal(self, live: LiveTable) -> None:
        if live.auto_deal is not None and live.auto_deal is not asyncio.current_task():
            live.auto_deal.cancel()
        live.auto_deal = None

    def schedule(self, live: LiveTable) -> None:
        """(Re)start the action timer for whoever must act, or the next deal between hands.

        The action timer is lazy: an action only moves ``live.deadline`` on, and the table's one
        timer, when it fires at an old deadline, sleeps again until the new one. (A new timer
        task for every action made a handful of objects that lived until the next action: at
        hundreds of tables, enough to set off a full garbage collection every few seconds.)
        """
        live.deadline = None
        if live.closed:
            return
        # Read once: each look goes through the engine (its property, its checks).
        pending = live.engine.pending if live.engine.in_hand else ()
        if pending:
            now = self.now()
            # A player using their time bank has until it runs out (saved with the table, so
            # a restart resumes it); otherwise the action timer starts afresh.
            banks = [live.meta.bank_ends[pid] for pid in live.banking()]
            live.deadline = min(banks) if banks else now + live.settings.action_seconds
            seconds = max(0.0, live.deadline - now)
            timer = live.timer
            if timer is not None and timer.when() > asyncio.get_running_loop().time() + seconds:
                timer.cancel()  # armed for later than the new deadline (a shorter timer now)
                timer = None
            if timer is None:
                self._arm(live, seconds)
            if any(house_level(d.player_id) for d in pending):
                self._house_turn_later(live)
        elif (
            not live.engine.in_hand
            and live.engine.hand_number > 0
            and live.settings.auto_deal_seconds > 0
            and live.engine.can_start() is None
            and live.auto_deal is None
            and (live.meta.tournament is not None or people_playing(live))
        ):
            live.auto_deal = self.spawn(self._deal_later(live, live.settings.auto_deal_seconds))

    def _house_turn_later(self, live: LiveTable) -> None:
        # A restart reschedules it too: restore() calls schedule for every table.
        waiting = self._house_turns.get(live.id)
        if waiting is None or waiting.done():
            self._house_turns[live.id] = self.spawn(self._house_turn(live))

    async def _house_turn(self, live: LiveTable) -> None:
        loop = asyncio.get_running_loop()
        acts_at = loop.time() + self.house_pause
        try:
            batch: int | None = None  # the decisions pending when the turn began
            acted = 0
            while True:
                async with live.lock:
                    if live.closed or not live.engine.in_hand:
                        self._forget_house_turn(live)
                        return
                    pending = live.engine.pending
                    house = [d for d in pending if house_level(d.player_id)]
                    if not house or (batch is not None and acted >= batch):
                        self._forget_house_turn(live)
                        return
                    if batch is None:
                        batch = len(pending)
                    decision = house[0]
                    # Several house players deciding at once act one after the other, with
                    # no pause between them (the last one lets the next turn be scheduled).
                    last = len(house) == 1 or acted + 1 >= batch
                    level = house_level(decision.player_id)
                    assert level is not None
                    table = live.engine
                    version = live.version()
                    # only what that seat may see: its own view and the public one
                    seen = (table.private_view(decision.seat), table.public_view())
                    rules = table.current_rules
                    habits = live.habits
                # The odds thread is shared by every table: the house player thinks there
                # without the table's lock, so the people at the table are answered meanwhile.
                action = await in_worker(
                    _house_action, *seen, decision, level, self._house_rng, rules, habits
                )
                # A hand that takes long to weigh must not show: it acts when its pause ends.
                await asyncio.sleep(max(0.0, acts_at - loop.time()))
                async with live.lock:
                    if live.closed or live.version() != version:
                        continue  # the table moved on while it thought: think again
                    if last:
                        self._forget_house_turn(live)
                    table = live.engine
                    start = len(table.events)
                    try:
                        table.act(decision.seat, action)
                    except IllegalAction:
                        log.exception("house player on table %s: %r refused", live.id, action)
                        table.act(decision.seat, engine.Timeout())
                    acted += 1
                    outcome = await self._after_change(live, start)
                await self._present(live, outcome)
                if last:
                    return
        except Exception:
            self._forget_house_turn(live)
            log.exception("house player's turn on table %s failed", live.id)

    def _forget_house_turn(self, live: LiveTable) -> None:
        """This task's turn is over (or about to act): the next change may start another."""
        if self._house_turns.get(live.id) is asyncio.current_task():
            del self._house_turns[live.id]

    def _arm(self, live: LiveTable, seconds: float) -> None:
        live.timer = asyncio.get_running_loop().call_later(seconds, self._on_deadline, live)

    def _on_deadline(self, live: LiveTable) -> None:
        live.timer = None
        if live.closed or live.deadline is None:
            return
        remaining = live.deadline - self.now()
        if remaining > 0:
            self._arm(live, remaining)
        else:
            self.spawn(self._timed_out(live))

    def spawn(self, coro: Awaitable[None]) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.ensure_future(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    async def _timed_out(self, live: LiveTable) -> None:
        try:
            await self._expire(live)
        except Exception:
            log.exception("timeout on table %s failed", live.id)

    async def _deal_later(self, live: LiveTable, seconds: float) -> None:
        await asyncio.sleep(seconds)
        try:
            async with live.lock:
                live.auto_deal = None
                if live.closed or live.engine.in_hand or live.engine.can_start() is not None:
                    return
                outcome = await self._deal(live)
            await self._present(live, outcome)
        except TableProblem as exc:
            log.info("auto-deal on table %s skipped: %s", live.id, exc)
        except Exception:
            log.exception("auto-deal on table %s failed", live.id)

    def cancel_all(self) -> None:
        """Stop every task the clock started (the service shuts down)."""
        for task in list(self._background):
            task.cancel()


def _house_action(
    private: engine.PrivateView,
    public: engine.PublicView,
    decision: engine.Decision,
    level: Level,
    rng: Any,
    rules: engine.GameRules,
    habits: Habits,
) -> Action:
    return decide(private, public, decision, level, rng, rules=rules, habits=habits)
