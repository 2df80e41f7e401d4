"""How a table's changes reach the database: chips bought in and cashed out, a new hand with
its deck commitment, the snapshot after each change (with the presenter's state), a finished
hand's results, a voided hand (the safety valve), the stacks owed to players who left, and
the table's close.

:class:`TableRecords` is the table service's collaborator for the disk: the service
(:class:`tables.service.TableService`) decides what a change means, the records write it.
:func:`table_save` takes the value written with every change (:class:`data.TableSave`).
"""

from __future__ import annotations

import json
import logging
import secrets
from typing import Any

import orjson

import engine
from data import Database, DataError, HandEventIn, PlayerHandResult, TableSave
from engine import HandResult, Table
from engine.commitment import DealCommitment
from tables.live import HandInfo, LiveTable, Meta
from tables.translator import _, table_language

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


def closing_payouts(snapshot: dict[str, Any], meta: Meta) -> dict[int, int]:
    """What each player is owed when a table this version cannot rebuild at all (its saved
    game or options are no longer valid) is closed: its hand void, every stack back to the
    deal, then the engine's closing rule (:meth:`engine.Table.close`) and the stacks still
    owed to players who left. None of that reads the game's rules or the house rules, so the
    snapshot is read with the default game in place of its own and without its house rules.

    :raises ValueError: (or ``KeyError``, ``TypeError``) when even that cannot be read.
    """
    neutral = {
        **snapshot,
        "config": engine.TableConfig().to_dict(),
        "state": {**snapshot["state"], "pending_options": None},
        "journal": [op for op in snapshot["journal"] if op.get("op") != "options"],
    }
    dealt_in = set(meta.hand.start_stacks) if meta.hand is not None else set()
    voided, owed = voided_table(neutral, dealt_in)
    payouts: dict[int, int] = {}
    for pid, amount in [*voided.close().items(), *owed.items(), *meta.owed.items()]:
        payouts[int(pid)] = payouts.get(int(pid), 0) + amount
    return payouts


def saved_meta(state: dict[str, Any], current_hand_id: int | None) -> Meta:
    """The meta saved in a table's snapshot ``state``, with the id of the hand in progress
    from the table's row (``current_hand_id``): the snapshot that deals a hand is written in
    the same transaction as the hand's row, before that row has its id, so it says 0."""
    meta = Meta.from_dict(state.get("meta", {}))
    if meta.hand is not None and current_hand_id is not None:
        meta.hand.hand_id = current_hand_id
    return meta


def table_save(live: LiveTable, events: list[HandEventIn], owed: int = 0) -> TableSave:
    """What is written of ``live`` now: its snapshot (:meth:`LiveTable.state_json`), the chips
    on it, each seated player's stack, and ``events`` (the hand's, not yet on disk); ``owed``:
    chips taken off the table but not yet paid to their bankrolls (still counted on it)."""
    return TableSave(live.state_json(), live.engine.chips() + owed, live.seat_stacks(), events)


class TableRecords:
    """Writes tables to the database: every method runs under the table's lock."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def take(self, live: LiveTable) -> TableSave:
        """The table now, with the events of its hand not yet saved (marked saved: the
        caller writes them)."""
        events = self.new_events(live)
        self.mark_saved(live)  # first: the snapshot says they are saved
        return table_save(live, events)

    async def buy_in(
        self, live: LiveTable, user_id: int, amount: int, seat: int | None = None
    ) -> None:
        """``amount`` chips from the player's bankroll are on the table now (they took
        ``seat``, or added chips to their stack): the ledger, with the table."""
        save = table_save(live, self.new_events(live))
        await self.db.buy_in(live.guild_id, user_id, live.id, amount, save, seat=seat)
        self.mark_saved(live)

    async def cash_out(self, live: LiveTable, user_id: int, amount: int) -> None:
        """``amount`` chips left the table for the player's bankroll: the ledger, with the
        table."""
        save = table_save(live, self.new_events(live))
        await self.db.cash_out(live.guild_id, user_id, live.id, amount, save)
        self.mark_saved(live)

    async def seat_tournament(self, live: LiveTable) -> None:
        """Tournament players were seated or stood up (tournament chips: no ledger)."""
        await self.db.seat_tournament_table(live.id, table_save(live, []))

    async def set_message(self, live: LiveTable, message_id: int) -> None:
        """The table's public message is ``message_id``: on its row, and in its snapshot."""
        await self.db.update_table(live.id, message_id=message_id)
        await self.save(live)

    async def close(self, live: LiveTable, payouts: dict[int, int]) -> None:
        """The table closes: ``payouts`` (user id -> chips) go back to the bankrolls."""
        await self.db.close_table(live.id, payouts, state_json=live.state_json())

    async def record_new_hand(self, live: LiveTable) -> None:
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
            start_stacks={pid: stack for _seat, pid, stack in setup.players},
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
            save=table_save(live, events_in(live.engine.events, 0)),
            # Its stakes and house rules as dealt (a tournament's level, a rule changed
            # between hands): what its replay and export say, whatever the table plays later.
            config=json.dumps(live.engine.config.to_dict()),
        )
        live.meta.hand.hand_id = row.hand_id

    def new_events(self, live: LiveTable) -> list[HandEventIn]:
        info = live.meta.hand
        if info is None or live.engine.hand is None:
            return []
        return events_in(live.engine.events, info.saved_events)

    def mark_saved(self, live: LiveTable) -> None:
        if live.meta.hand is not None:
            live.meta.hand.saved_events = len(live.engine.events)

    async def save(self, live: LiveTable) -> None:
        """Write the table's snapshot (with the events of its hand not yet saved)."""
        if not live.engine.in_hand and live.meta.hand is None:
            self.mark_saved(live)
            save = table_save(live, [])
        else:
            save = self.take(live)
        await self.db.save_table_state(live.id, save)

    async def reload(self, live: LiveTable) -> None:
        """Put the table back as it was last saved (a change that could not be saved)."""
        row = await self.db.get_table(live.id)
        state = json.loads(row.state_json or "{}")
        live.engine = Table.from_dict(state["engine"])
        live.meta = saved_meta(state, row.current_hand_id)
        # The presenter's state stays: it tells what Discord shows, which no reload undoes.
        live.last_private = live.engine.held_cards()

    async def end_hand(self, live: LiveTable, info: HandInfo, result: HandResult | None) -> bool:
        """Record the end of the hand ``info`` (its results, the leavers' payouts); False when
        the database refused it for good and the hand was voided instead (the safety valve)."""
        try:
            await self.finish_hand(live, info, result)
        except VOIDABLE as exc:
            if not await self.still_current(live, info):
                raise  # the hand is recorded: what failed came after
            await self.void_hand(live, info, exc)
            return False
        return True

    async def finish_hand(self, live: LiveTable, info: HandInfo, result: HandResult | None) -> None:
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
        new_events = self.new_events(live)
        live.meta.hand = None
        await self.db.record_hand_result(
            live.guild_id,
            live.id,
            info.hand_id,
            per_player,
            result_json=json.dumps(result.to_dict() if result is not None else {}),
            pot=pot_total,
            save=table_save(live, new_events),
            carried=live.engine.carried - info.carried_before,
        )
        await self.pay_leavers(live)

    async def still_current(self, live: LiveTable, info: HandInfo) -> bool:
        row = await self.db.get_table(live.id)
        return row.current_hand_id == info.hand_id

    async def void_hand(self, live: LiveTable, info: HandInfo, exc: Exception) -> None:
        """The safety valve: the database refused this hand's end, and would refuse it again
        after every reload, so the table would be stuck for good. Void the hand instead:
        every stack goes back to the deal, the incident is logged with the hand id, the table
        shows a note, and play goes on with the next deal."""
        number = live.engine.hand_number
        log.error(
            "table %s: the database refused the end of hand %s (#%s), voided: %r",
            live.id,
            info.hand_id,
            number,
            exc,
        )
        # The channel reads the note: in the table's language.
        note = _(
            "⚠ Hand\u00a0#{number} could not be recorded and is void: every chip is back "
            "where it was before the deal.",
            number=str(number),
            language=table_language(live),
        )
        await self._void(live, info, f"{type(exc).__name__}: {exc}", [note])

    async def void_unplayable(
        self, live: LiveTable, info: HandInfo, owed: dict[str, int], exc: Exception
    ) -> None:
        """A hand saved in progress that this version cannot play on (its rules refuse the
        saved deal or an action in it, after an update): the restore made ``live`` from its
        snapshot as if the hand had not been dealt (:func:`voided_table`, which also gave the
        stacks ``owed`` to players who left during it). Record the void, and say so on the
        table."""
        number = live.engine.hand_number  # the voided hand's: it stays used
        log.error(
            "table %s: hand %s (#%s) cannot be replayed by this version, voided: %r",
            live.id,
            info.hand_id,
            number,
            exc,
        )
        note = _(
            "⚠ Hand\u00a0#{number} could not go on after the bot was updated and is void: "
            "every chip is back where it was before the deal.",
            number=str(number),
            language=table_language(live),
        )
        await self._void(live, info, f"{type(exc).__name__}: {exc}", [note], (live.engine, owed))

    async def abandon_hand(self, live: LiveTable, info: HandInfo, why: str) -> None:
        """The hand in progress can never be played on (its channel is gone): void it, every
        stack back to the deal, before the table closes."""
        log.warning(
            "table %s: hand %s (#%s) voided: %s",
            live.id,
            info.hand_id,
            live.engine.hand_number,
            why,
        )
        await self._void(live, info, why, [])

    async def _void(
        self,
        live: LiveTable,
        info: HandInfo,
        why: str,
        notes: list[str],
        done: tuple[Table, dict[str, int]] | None = None,
    ) -> None:
        """Void the table's hand; ``done``: the table without it and the stacks owed, when
        already made (:func:`voided_table`)."""
        number = live.engine.hand_number
        voided, owed = done or voided_table(live.engine.to_dict(), set(info.start_stacks))
        reason = json.dumps({"voided": True, "number": number, "reason": why[:500]})
        live.engine = voided
        live.meta.hand = None
        for pid, amount in owed.items():
            live.meta.owed[pid] = live.meta.owed.get(pid, 0) + amount
        live.meta.notes = list(notes)
        live.last_private = voided.held_cards()
        await self.db.void_hand(
            live.guild_id,
            live.id,
            info.hand_id,
            reason_json=reason,
            save=table_save(live, [], owed=sum(live.meta.owed.values())),
        )
        await self.pay_leavers(live)

    async def pay_leavers(self, live: LiveTable) -> None:
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
            save = table_save(live, [], owed=sum(live.meta.owed.values()))
            await self.db.cash_out(live.guild_id, int(pid), live.id, amount, save)
