"""How a table's changes reach the database: a new hand with its deck commitment, the
snapshot after each change (and the turn ping's id), a finished hand's results, a voided hand
(the safety valve) and the stacks owed to players who left.

A mixin of :class:`tables.service.TableService`, kept apart so that the service reads as
the list of table operations and this file as the one place that writes a table to disk.
"""

from __future__ import annotations

import json
import logging
import secrets
from typing import TYPE_CHECKING, Any

import orjson

import engine
from data import Database, DataError, HandEventIn, PlayerHandResult
from engine import HandResult, Table
from engine.commitment import DealCommitment
from tables.errors import TableProblem
from tables.live import HandInfo, LiveTable, Meta, Outcome, TournamentHooks

log = logging.getLogger("poker.tables")


def events_in(events: tuple[engine.Event, ...], start: int) -> list[HandEventIn]:
    return [
        (seq, orjson.dumps(event.to_dict()).decode())
        for seq, event in enumerate(events[start:], start)
    ]


# A hand's end refused by the data layer, by its own checks or by a constraint of the schema
# (ConstraintViolation, a DataError on every backend): the same end would be refused again, so
# the hand is voided rather than retried.
VOIDABLE: tuple[type[Exception], ...] = (DataError,)

# Snapshot operations that belong to the hand itself; the others (seats taken and left,
# chips added, sitting out) stand when a hand is voided.
_HAND_OPS = frozenset({"start", "choose", "act"})


def voided_table(snapshot: dict[str, Any], dealt_in: set[str]) -> tuple[Table, dict[str, int]]:
    """The table of ``snapshot`` (taken during or at the end of a hand) as if its hand had
    not been dealt, and the stacks owed to players of that hand who left during it.

    The snapshot holds the state at the deal plus every operation since; the hand's own
    operations are dropped and the rest replayed. The hand number stays used, so the next
    deal (and its buttons) never shares a number with the voided hand.
    """
    state = dict(snapshot["state"])
    journal = snapshot["journal"]
    if journal and journal[0].get("op") in ("start", "choose"):
        state["hand_number"] = int(state["hand_number"]) + 1
    kept = [op for op in journal if op.get("op") not in _HAND_OPS]
    owed: dict[str, int] = {}
    for index, op in enumerate(kept):
        pid = op.get("player_id")
        if op.get("op") == "leave" and pid in dealt_in:
            # Their leave waited for the hand's end; replayed now, it returns the stack.
            before = Table.from_dict({**snapshot, "state": state, "journal": kept[:index]})
            owed[pid] = owed.get(pid, 0) + before.stack(pid)
    return Table.from_dict({**snapshot, "state": state, "journal": kept}), owed


class TableRecords:
    """Saving a table: every method runs under the table's lock."""

    db: Database
    hooks: TournamentHooks | None

    if TYPE_CHECKING:  # provided by TableService and TableClock

        def _schedule(self, live: LiveTable) -> None: ...

        async def _end_locked(self, live: LiveTable) -> dict[int, int]: ...

    async def _record_new_hand(self, live: LiveTable) -> None:
        """Store the hand the engine has just dealt, with its deck commitment and first events,
        in one transaction with the table snapshot that knows about it."""
        hand = live.engine.hand
        assert hand is not None
        setup = hand.setup
        # The secret derives every leaf's salt; it is stored in the salt column.
        salt = secrets.token_hex(32)
        record = DealCommitment(tuple(setup.deck), setup.seed, salt)
        commitment = record.root()
        live.meta.hand = HandInfo(
            hand_id=0,
            commitment=commitment,
            start_stacks={pid: stack for _, pid, stack in setup.players},
            saved_events=len(live.engine.events),
            carried_before=setup.carried,
        )
        live.meta.recorded = live.engine.hand_number
        row = await self.db.start_hand(
            live.id,
            variant=live.engine.config.variant,
            variant_name=setup.rules.name,
            commitment=commitment,
            salt=salt,
            deck=record.encode(),
            state_json=live.state_json(),
            chips_on_table=live.engine.chips(),
            seat_stacks=live.seat_stacks(),
            new_events=events_in(live.engine.events, 0),
        )
        live.meta.hand.hand_id = row.hand_id

    async def _save_ping(self, live: LiveTable) -> None:
        async with live.lock:
            live.ping_save = None
            if live.closed or live.saved_ping == live.meta.ping_id:
                return  # a snapshot written since carried it
            try:
                await self._save(live)
            except Exception:
                log.exception("table %s: saving the turn ping's id failed", live.id)

    def _new_events(self, live: LiveTable) -> list[HandEventIn]:
        info = live.meta.hand
        if info is None or live.engine.hand is None:
            return []
        return events_in(live.engine.events, info.saved_events)

    def _mark_saved(self, live: LiveTable) -> None:
        if live.meta.hand is not None:
            live.meta.hand.saved_events = len(live.engine.events)

    async def _save(self, live: LiveTable) -> None:
        new_events = self._new_events(live)
        if not live.engine.in_hand and live.meta.hand is None:
            new_events = []
        self._mark_saved(live)
        await self.db.save_table_state(
            live.id,
            live.state_json(),
            live.engine.chips(),
            live.seat_stacks(),
            new_events,
        )

    async def _after_change(
        self,
        live: LiveTable,
        start: int,
        *,
        events: tuple[engine.Event, ...] | None = None,
        new_hand: bool = False,
        notes: tuple[str, ...] = (),
    ) -> Outcome:
        """Persist, work out who needs a fresh DM, finish the hand if it ended, reset timers.

        If saving fails, the table is put back as it was last saved and the change is refused:
        what players see never runs ahead of what is on disk."""
        try:
            return await self._persist_change(live, start, events, new_hand, notes)
        except Exception as exc:
            log.exception("table %s: saving a change failed; reloading the last snapshot", live.id)
            await self._reload(live)
            raise TableProblem(
                "The table could not be saved, so that did not happen. Please try again."
            ) from exc

    async def _reload(self, live: LiveTable) -> None:
        row = await self.db.get_table(live.id)
        state = json.loads(row.state_json or "{}")
        live.engine = Table.from_dict(state["engine"])
        live.meta = Meta.from_dict(state.get("meta", {}))
        live.last_private = live.engine.held_cards()
        self._schedule(live)

    async def _persist_change(
        self,
        live: LiveTable,
        start: int,
        events: tuple[engine.Event, ...] | None,
        new_hand: bool,
        notes: tuple[str, ...],
    ) -> Outcome:
        new = events if events is not None else tuple(live.engine.events[start:])
        cards = live.engine.held_cards()
        changed = tuple(pid for pid, held in cards.items() if live.last_private.get(pid) != held)
        live.last_private = cards
        result: HandResult | None = None
        dealt = live.engine.hand is not None and live.engine.hand_number != live.meta.recorded
        if dealt:
            await self._record_new_hand(live)
        info = live.meta.hand
        if info is not None and not live.engine.in_hand:
            result = live.engine.result
            try:
                await self._finish_hand(live, info, result)
            except VOIDABLE as exc:
                if not await self._still_current(live, info):
                    raise  # the hand is recorded: what failed came after
                await self._void_hand(live, info, exc)
                self._schedule(live)
                return Outcome((), None, changed, new_hand, (*notes, *live.meta.notes))
            if live.meta.tournament is not None and self.hooks is not None:
                notes = (*notes, *await self.hooks.after_hand(live, dict(info.start_stacks)))
        elif not dealt:
            await self._save(live)
        ended: dict[int, int] | None = None
        if info is not None and not live.engine.in_hand and live.meta.end_requested is not None:
            ended = await self._end_locked(live)  # /poker end was asked during the hand
        self._schedule(live)
        starts = dict(info.start_stacks) if result is not None and info is not None else None
        return Outcome(new, result, changed, new_hand, notes, start_stacks=starts, ended=ended)

    async def _finish_hand(
        self, live: LiveTable, info: HandInfo, result: HandResult | None
    ) -> None:
        final = dict(result.final_stacks) if result is not None else {}
        per_player = []
        winners = set()
        pot_won: dict[str, int] = {}
        if result is not None:
            for pot in result.pots:
                for share in pot.shares:
                    winners.add(share.player_id)
                    pot_won[share.player_id] = pot_won.get(share.player_id, 0) + share.amount
        shown = {s.player_id: s for s in result.shown} if result is not None else {}
        for pid, start in info.start_stacks.items():
            if pid not in final:
                continue
            hand = shown.get(pid)
            # Best hands are compared on the standard high ranking only, so scores from
            # different games stay comparable; lowball hands don't compete for it.
            value = hand.high_value if hand is not None else None
            if value is not None and value.ranking is not engine.Ranking.HIGH:
                value = None
            per_player.append(
                PlayerHandResult(
                    user_id=int(pid),
                    net=final[pid] - start,
                    won=pid in winners,
                    pot_won=pot_won.get(pid, 0),
                    best_hand_score=value.score if value is not None else None,
                    best_hand_name=value.name if value is not None else None,
                )
            )
        pot_total = sum(p.amount for p in result.pots) if result is not None else 0
        new_events = self._new_events(live)
        live.meta.hand = None
        await self.db.record_hand_result(
            live.guild_id,
            live.id,
            info.hand_id,
            per_player,
            result_json=json.dumps(result.to_dict() if result is not None else {}),
            pot=pot_total,
            state_json=live.state_json(),
            chips_on_table=live.engine.chips(),
            seat_stacks=live.seat_stacks(),
            new_events=new_events,
            carried=live.engine.carried - info.carried_before,
        )
        await self._pay_leavers(live)

    async def _still_current(self, live: LiveTable, info: HandInfo) -> bool:
        row = await self.db.get_table(live.id)
        return row.current_hand_id == info.hand_id

    async def _void_hand(self, live: LiveTable, info: HandInfo, exc: Exception) -> None:
        """The safety valve: the database refused this hand's end, and would refuse it again
        after every reload, so the table would be stuck for good. Void the hand instead:
        every stack goes back to the deal, the incident is logged with the hand id, the table
        shows a note, and play goes on with the next deal."""
        number = live.engine.hand_number
        voided, owed = voided_table(live.engine.to_dict(), set(info.start_stacks))
        log.error(
            "table %s: the database refused the end of hand %s (#%s), voided: %r",
            live.id,
            info.hand_id,
            number,
            exc,
        )
        reason = json.dumps(
            {"voided": True, "number": number, "reason": f"{type(exc).__name__}: {exc}"[:500]}
        )
        live.engine = voided
        live.meta.hand = None
        for pid, amount in owed.items():
            live.meta.owed[pid] = live.meta.owed.get(pid, 0) + amount
        live.meta.notes = [
            f"⚠ Hand #{number} could not be recorded and is void: every chip is back where "
            "it was before the deal."
        ]
        live.last_private = voided.held_cards()
        await self.db.void_hand(
            live.guild_id,
            live.id,
            info.hand_id,
            reason_json=reason,
            state_json=live.state_json(),
            chips_on_table=live.engine.chips() + sum(live.meta.owed.values()),
            seat_stacks=live.seat_stacks(),
        )
        await self._pay_leavers(live)

    async def _pay_leavers(self, live: LiveTable) -> None:
        """Pay the stacks of players who left during the hand back to their bankrolls.

        Each payout is its own transaction, and the ones not yet made are saved in the table's
        meta with it, so a crash between two of them leaves nothing unpaid: the next start
        pays the rest."""
        if live.engine.in_hand:
            return
        if live.engine.payouts:
            live.meta.owed.update(live.engine.take_payouts())
        while live.meta.owed:
            pid = min(live.meta.owed)
            amount = live.meta.owed.pop(pid)
            await self.db.cash_out(
                live.guild_id,
                int(pid),
                live.id,
                amount,
                live.state_json(),
                live.engine.chips() + sum(live.meta.owed.values()),
                live.seat_stacks(),
            )
