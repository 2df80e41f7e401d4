"""Showing tables in Discord: the public table message, the showdown, private cards by DM.

The table service hands every change to :meth:`TablePresenter.present` (it is the service's
:class:`~tables.live.Presenter`); commands and the component router call it too,
with the interaction that made the change, so the table message is edited in the answer to
that interaction when it can be. What the messages contain comes from the pure builders in
:mod:`cogs.ui.render` and :mod:`cogs.ui.panels`; this module only decides where they go and
survives Discord's failures (an expired interaction, a closed DM, a deleted message).

What Discord shows of a table (its message, the standing turn ping, its players' DMs) is the
presenter's own state, :class:`Shown`: the table service saves it with the table's snapshot
(:class:`~tables.live.Presentation`) without reading it, so a restart finds it again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import discord

import engine
import i18n
from cogs import kit, languages
from cogs.ledger import post_closing_ledger
from cogs.translator import _
from cogs.ui import house_rules, panels, render
from cogs.ui.card_images import render_cards, render_showdown
from cogs.ui.components import Components, MessageEditor
from cogs.ui.showdown_texts import say
from data.preferences import DEFAULT as DEFAULT_PREFERENCES
from data.preferences import Preferences
from engine.arrange import Arrangement
from engine.rules import Draw, DrawSeries
from engine.seating import is_house
from i18n.engine_text import engine_text
from tables.languages import table_language
from tables.live import LiveTable, Outcome, Version, shown_names
from tables.lock import TableLock

if TYPE_CHECKING:
    from cogs.app import PokerBot
    from tables.service import ClosedAtRestore


log = logging.getLogger("poker.presenter")

__all__ = ["Ping", "Shown", "TablePresenter"]

PING_AFTER = 4.0
"""Seconds a player may take before their turn ping goes out (at most a sixth of the table's
timer): a player who acts sooner was watching, and a ping would only be noise, and two more
API requests at every turn of a busy table."""

SHOWDOWN_FILE = "showdown.png"

UNKNOWN_MESSAGE = 10008
"""Discord's error code for a message that is not there (deleted)."""

THREAD_ARCHIVED = 50083
"""Discord's error code for a send or an edit refused in an archived thread: Discord archives
a thread left quiet for its auto-archive time, then refuses every edit there (and every send
while a moderator has it locked)."""

REDRAW_AFTER = (2.0, 8.0, 30.0)
"""Seconds after Discord refused the table message (its edit, or the new message a table goes
on in after a hand: an outage, a 5xx after discord.py's own retries) until it is drawn again
from the table of the moment, then again while it stays behind: players see the table catch
up without pressing a stale button, and never stay without its buttons. A player's DM of the
hand that Discord refused is sent again after the same delays."""

THREAD_SHUT = "its thread is archived and locked"
EMPTY: frozenset[str] = frozenset()
"""Why a tournament's table is given up when its thread cannot be reopened (see
:meth:`TablePresenter.reopen_thread`)."""

T = TypeVar("T")

# Translators: the answer to /poker table, and to a press on an older message of a table (its
# live message is further down the channel).
TABLE_BELOW = _.lazy("The table is below.")

REPOST_SECONDS = 10.0
"""The least time between two posts of one table by ``/poker table``: each costs a post and a
delete, and anyone in the channel may ask."""

DRAWN_CARDS_NOTE = _.lazy("The cards you draw show in the answer to your draw, and under My hand.")


@dataclass(frozen=True, slots=True)
class Ping:
    """The one turn ping of a table standing in the channel: a message that mentioned the
    players in ``players``. ``editor`` is the webhook it was sent through (deleting it
    there is not counted against the global rate limit). ``text`` is what it says, so that a
    change of street can reword it."""

    message_id: int
    players: frozenset[str]
    editor: MessageEditor | None = None
    text: str = ""


class Shown:
    """How one table shows in Discord: the presenter's state of a table (its
    :class:`~tables.live.Presentation`). ``message_id``, ``ping_id`` and ``dm_closed`` are
    saved with the table's snapshot; the rest lives as long as the process."""

    __slots__ = (
        "behind",
        "dm_closed",
        "dm_messages",
        "dms_behind",
        "editor",
        "finishing",
        "hand",
        "lock",
        "message_id",
        "ping",
        "ping_id",
        "pinging",
        "pings",
        "reposted",
        "restored",
        "turn",
        "unshown",
    )

    def __init__(
        self,
        message_id: int | None = None,
        ping_id: int | None = None,
        dm_closed: tuple[str, ...] = (),
        hand: tuple[int, int] | None = None,
    ) -> None:
        # The table's public message (the one its buttons are on).
        self.message_id = message_id
        # The hand that message was dealt on (its number, its id in the history): when that
        # hand is over, the message becomes its result and the table moves to a new message.
        # Saved, so that a restart between the two finishes the move.
        self.hand = hand
        # The message and hand of a move under way (see leave_message): what is saved until
        # the table's new message is posted.
        self.finishing: tuple[int, tuple[int, int] | None] | None = None
        # The result that message is to become, until it has: saved with the move, so that a
        # restart after a newer hand was dealt still draws it (that hand's engine state is
        # gone by then). The result's state (engine.HandResult.to_state) and the stacks the
        # hand began with.
        self.unshown: dict[str, Any] | None = None
        # Taken up from a snapshot and not shown since: what Discord shows may be what the
        # process before left (a hand over but not yet shown as its result).
        self.restored = False
        # The table message's last edit or post failed: Discord shows an older table, or none.
        self.behind = False
        # Held while the table's messages change: a deal that follows a hand's end at once
        # (auto-deal, a busy bot) waits until the result is shown and the new message posted.
        self.lock = TableLock()
        # The turn ping standing in the channel as a message of its own: saved so that a
        # restart can still delete it (the Ping below is gone by then).
        self.ping_id = ping_id
        # Players whose DMs are closed: not tried again at this table.
        self.dm_closed = dm_closed
        # When /poker table last posted the table again (the event loop's clock).
        self.reposted = -REPOST_SECONDS
        # A recent interaction on the table message, so later updates can go through its
        # webhook.
        self.editor: MessageEditor | None = None
        # Who the engine waited for when the table was last shown: a ping goes only to
        # players the action has just passed to.
        self.turn: frozenset[str] = frozenset()
        self.ping: Ping | None = None
        # Held while the ping changes (posted, reworded, deleted): those calls go in the
        # order the table changed, without the table's messages waiting for them.
        self.pings = TableLock()
        # Ping changes on their way (spawned, waiting for the lock or under way).
        self.pinging = 0
        # Each player's DM of the hand in progress (hand number, DM channel, message): the
        # DM is edited as the cards change rather than a new one sent.
        self.dm_messages: dict[str, tuple[int, int, int]] = {}
        # Players whose DM of the hand Discord refused (a send or an edit): sent again soon.
        self.dms_behind: tuple[str, ...] = ()

    def saved(self) -> dict[str, Any]:
        message_id, hand = self.finishing or (self.message_id, self.hand)
        saved: dict[str, Any] = {
            "message_id": message_id,
            "ping_id": self.ping_id,
            "dm_closed": list(self.dm_closed),
            "hand": list(hand) if hand is not None else None,
        }
        if self.finishing is not None and self.unshown is not None:
            saved["result"] = self.unshown
        return saved

    def leave_message(
        self, result: engine.HandResult | None = None, start_stacks: dict[str, int] | None = None
    ) -> int | None:
        """The hand's message stops being the table's: it becomes the hand's result, and the
        table goes on in a new message. Returns its id (None: the table had none).

        At once, before any await, the table has no message: nothing drawing the table
        meanwhile (a refresh, a tournament closing it) draws it over the result, and the next
        change posts a new one if the move fails. What is saved still names the old message
        and its hand until the new one is posted: a snapshot written meanwhile (a deal, a
        player joining) must not say "no message, no hand to finish", or a restart after it
        would find nothing to bring up to date while the channel still shows the old hand's
        buttons. ``result`` (with ``start_stacks``): what the message is to show, saved with
        the move until it does (see :attr:`unshown`)."""
        message_id = self.message_id
        self.finishing = (message_id, self.hand) if message_id is not None else None
        self.message_id = self.hand = None
        self.unshown = None
        if result is not None and message_id is not None:
            self.unshown = {"state": result.to_state(), "start_stacks": start_stacks}
        return message_id

    def take_unshown(self) -> tuple[engine.HandResult, dict[str, int] | None] | None:
        """The result saved with a move cut short by a restart (see :attr:`unshown`), taken
        (None: none, or one this version cannot read)."""
        unshown, self.unshown = self.unshown, None
        if unshown is None:
            return None
        try:
            result = engine.HandResult.from_state(unshown["state"])
        except (KeyError, ValueError):
            log.warning("a saved hand result could not be read: %r", unshown)
            return None
        stacks = unshown.get("start_stacks")
        return result, {str(k): int(v) for k, v in stacks.items()} if stacks else None

    def now_on(self, message_id: int, hand: tuple[int, int] | None) -> None:
        """The table is shown on the new message ``message_id`` (showing ``hand``, or the
        table between hands): a move under way is over."""
        self.message_id = message_id
        self.hand = hand
        self.finishing = None
        self.unshown = None

    @classmethod
    def of(cls, live: LiveTable) -> Shown:
        """The table's presentation, taken up from what was saved the first time."""
        presentation = live.presentation
        if isinstance(presentation, Shown):
            return presentation
        data = presentation.saved()
        hand = data.get("hand")
        shown = cls(
            data.get("message_id"),
            data.get("ping_id"),
            tuple(data.get("dm_closed", ())),
            (int(hand[0]), int(hand[1])) if hand else None,
        )
        result = data.get("result")
        shown.unshown = result if isinstance(result, dict) else None
        shown.restored = True
        live.presentation = shown
        return shown


class TablePresenter:
    """Keeps every table's message, showdowns and DMs in step with the service's changes."""

    def __init__(self, bot: PokerBot) -> None:
        self.bot = bot
        self.dm_channels: dict[int, int] = {}
        # Players' preferences, read from the database once per process and kept in step by
        # /poker notify and /poker deck (a read per ping would cost more than the ping).
        self.preferences: dict[int, Preferences] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self.ping_after = PING_AFTER
        # A turn ping waiting for its player to be slow, by table id (one per table).
        self._late_pings: dict[int, asyncio.TimerHandle] = {}
        # Tournament tables being given up because their thread stays archived (see
        # reopen_thread): one give-up each, however many sends were refused meanwhile.
        self._shut_out: set[int] = set()
        self.redraw_after = REDRAW_AFTER
        # What Discord refused, tried again later (see _again_later): a table message left
        # behind, the hand's DMs.
        self._redraws: dict[int, asyncio.Task[None]] = {}
        self._resends: dict[int, asyncio.Task[None]] = {}

    def spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Future[None]:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _in_thread(self, live: LiveTable, attempt: Callable[[], Awaitable[T]]) -> T:
        """``attempt()``, a send or an edit in the table's channel; refused because its
        thread is archived, the thread is reopened and ``attempt()`` runs once more."""
        try:
            return await attempt()
        except discord.HTTPException as exc:
            if exc.code != THREAD_ARCHIVED or not await self.reopen_thread(live):
                raise
        return await attempt()

    async def reopen_thread(self, live: LiveTable) -> bool:
        """Unarchive the table's thread (the bot is a member of the threads it made, which
        is all an unlocked thread asks; a locked one needs Manage Threads). Refused, nobody
        can play there until a moderator reopens it: a tournament's players then play on at
        its other tables (as when the thread is deleted), a cash table waits."""
        try:
            await self.bot.http.edit_channel(live.channel_id, archived=False)
        except discord.HTTPException as exc:
            shut = isinstance(exc, discord.Forbidden) or exc.code == THREAD_ARCHIVED
            log.warning(
                "table %s: its thread %s is archived and could not be reopened: %s",
                live.id,
                live.channel_id,
                exc,
            )
            tournament = live.meta.tournament is not None
            if shut and tournament and not live.closed and live.id not in self._shut_out:
                self._shut_out.add(live.id)
                self.spawn(self._give_up(live))
            return False
        log.info("table %s: its thread %s was archived; reopened", live.id, live.channel_id)
        return True

    async def _give_up(self, live: LiveTable) -> None:
        try:
            await self.bot.tables.abandon(live, THREAD_SHUT)
        except Exception:
            log.exception("table %s: giving it up (%s) failed", live.id, THREAD_SHUT)
        finally:
            self._shut_out.discard(live.id)  # closed now: live.closed answers from here on

    async def settle(self, timeout: float) -> None:
        """Wait up to ``timeout`` seconds for the messages being sent or edited (a clean stop
        lets a turn ping being posted be posted, so that its id is saved with the table)."""
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=timeout)

    def close(self) -> None:
        for timer in self._late_pings.values():
            timer.cancel()
        self._late_pings.clear()
        for task in [*self._tasks, *self._redraws.values(), *self._resends.values()]:
            task.cancel()

    # -- what a table shows -----------------------------------------------------------------

    @staticmethod
    def shown(live: LiveTable) -> Shown:
        """What Discord shows of ``live`` (see :class:`Shown`)."""
        return Shown.of(live)

    @staticmethod
    def on_table(live: LiveTable, interaction: discord.Interaction[PokerBot]) -> bool:
        """Whether ``interaction`` was pressed on the table message of the moment."""
        return _on_message(interaction, Shown.of(live).message_id)

    @staticmethod
    def edits_through(live: LiveTable, interaction: discord.Interaction[PokerBot]) -> None:
        """Keep the webhook of ``interaction``, answered, to edit the table message with
        (Discord does not count it), if it was pressed on that message: the only message,
        besides its own followups, that its webhook may edit."""
        shown = Shown.of(live)
        if _on_message(interaction, shown.message_id):
            shown.editor = MessageEditor.of(interaction)

    def _ping_changed(self, live: LiveTable, shown: Shown, message_id: int | None) -> None:
        """The standing ping is now ``message_id`` (``None``: there is none): saved with the
        table's next snapshot, or soon on its own."""
        if shown.ping_id != message_id:
            shown.ping_id = message_id
            self.bot.tables.keep_presentation(live)

    async def message_posted(self, live: LiveTable, message_id: int) -> None:
        """``message_id`` is now the table's public message (posted by a command): later
        changes edit it, and the table's row and snapshot name it."""
        shown = Shown.of(live)
        shown.now_on(message_id, shown.hand)
        shown.editor = None
        await self.bot.tables.set_message(live, message_id)

    def table_message(self, live: LiveTable) -> tuple[discord.Embed, Components]:
        # The table's language, whoever's press redraws it.
        with i18n.speaking(languages.channel_language(live)):
            embed, components, _view = self._table_message(live)
            return embed, components

    def _table_message(
        self, live: LiveTable
    ) -> tuple[discord.Embed, Components, engine.PublicView]:
        """The table message, and the public view it was drawn from."""
        view = live.engine.public_view()
        embed = render.table_embed(
            view,
            live.names,
            deadline=live.deadline,
            commitment=live.meta.hand.commitment if live.meta.hand else None,
            notes=live.shown_notes(kit.as_typed),
            banking=live.banking(),
            tournament=live.meta.tournament is not None,
        )
        if live.closed and not live.engine.in_hand:
            # Broken up, or its tournament over: nothing to sit at or deal.
            return (*panels.closed_notice(view.game, live.shown_notes(kit.as_typed)), view)
        if view.phase == "waiting" or not live.engine.in_hand:
            busted = any(seat.stack == 0 for seat in view.seats)
            components = panels.lobby_components(
                live.id, rebuy=busted, tournament=live.meta.tournament
            )
            return embed, components, view
        components = panels.table_components(live.id, live.version(), live.engine.pending)
        tournament = live.meta.tournament
        if tournament is not None and any(s.stack == 0 and not s.in_hand for s in view.seats):
            # A player left out of this hand without chips decides on a rebuy meanwhile.
            panels.rebuy_choice(components, tournament, row=2)
        return embed, components, view

    def current_message(self, live: LiveTable) -> tuple[discord.Embed, Components]:
        """The table message as it reads now: the hand in progress, else the lobby."""
        return self.table_message(live) if live.engine.in_hand else self.lobby_message(live)

    def lobby_message(self, live: LiveTable) -> tuple[discord.Embed, Components]:
        """The table message between hands, with the table's settings in the footer."""
        embed, view = self.table_message(live)
        with i18n.speaking(languages.channel_language(live)):
            # Translators: the table's footer between hands: its own line, then the table's
            # settings (buy-in, timer, time bank, dealing).
            footer = _(
                "{footer} · {settings}",
                footer=embed.footer.text or "",
                settings=live.settings.describe(buy_in=live.meta.tournament is None),
            )
            embed.set_footer(text=footer)
        return embed, view

    async def show_settings(self, interaction: discord.Interaction[Any], live: LiveTable) -> None:
        """Answer with the table's settings, privately; with the house rules' menus for its
        creator or a server manager."""
        embed, view = self.settings_message(live, kit.runs_table(interaction, live.creator_id))
        await interaction.response.send_message(
            embed=embed, view=view if view is not None else discord.utils.MISSING, ephemeral=True
        )

    def settings_message(
        self, live: LiveTable, runs_table: bool
    ) -> tuple[discord.Embed, Components | None]:
        """The table's settings and house rules (the Settings button, /poker settings), with
        the menus that change the house rules for who ``runs_table`` (not at a tournament's
        table, which plays the tournament's rules)."""
        now, later = house_rules.in_force(live.engine)
        embed = panels.settings_embed(
            live.engine.public_view(),
            live.settings.describe(buy_in=live.meta.tournament is None),
            len(live.engine.seats),
            now,
            later,
        )
        if not runs_table or live.meta.tournament is not None:
            return embed, None
        embed.set_footer(
            text=_("Change the house rules below; everything else with /poker settings")
        )
        return embed, house_rules.components(live.id, live.engine)

    def rules_embed(self, live: LiveTable) -> discord.Embed:
        """The rules page of the table's game, with how this table plays where books differ."""
        config = live.engine.config
        notes = [engine_text(note) for note in config.rules_notes()]
        return render.variant_embed(engine.get_variant(config.variant), notes)

    async def preferences_of(self, user_ids: list[int]) -> dict[int, Preferences]:
        missing = [uid for uid in user_ids if uid not in self.preferences]
        if missing:
            try:
                self.preferences.update(await self.bot.db.preferences_of(missing))
            except Exception:
                log.exception("could not read preferences; using the defaults")
        return {uid: self.preferences.get(uid, DEFAULT_PREFERENCES) for uid in user_ids}

    def remember_preferences(self, user_id: int, preferences: Preferences) -> None:
        self.preferences[user_id] = preferences

    def private_message(
        self, live: LiveTable, user_id: int, view: engine.PublicView | None = None
    ) -> tuple[discord.Embed, discord.File | None]:
        """A player's cards: the text, and a picture when there are cards to draw. ``view``:
        the table's public view, if the caller has it for the table as it is now."""
        if view is None:
            view = live.engine.public_view()
        private = live.engine.private_view(str(user_id))
        arranged = render.private_arrangement(live.engine.hand, private)
        embed = render.private_embed(private, view, arranged=arranged, hand=live.engine.hand)
        file = self._cards_picture(user_id, private, arranged)
        if file is not None:
            embed.set_image(url="attachment://hand.png")
        return embed, file

    def _cards_picture(
        self, user_id: int, private: engine.PrivateView, arranged: Arrangement | None
    ) -> discord.File | None:
        """The picture of a player's own cards (None without cards), in their DM's order."""
        if not private.cards:
            return None
        four = self.preferences.get(user_id, DEFAULT_PREFERENCES).four_colour
        cards, wild, idle = render.picture_cards(private.cards, arranged)
        png = render_cards(cards, wild=wild, four_colour=four, idle=idle)
        # Translators: the alt text of the picture of a player's own cards.
        alt = _("Your cards")
        return kit.attachment(png, "hand.png", alt)

    # -- presenting ---------------------------------------------------------------------------

    async def present(
        self,
        live: LiveTable,
        outcome: Outcome,
        interaction: discord.Interaction[PokerBot] | None = None,
    ) -> None:
        """Show what changed: the table message, the hand's result, fresh private cards by
        DM."""
        shown = Shown.of(live)
        lock = shown.lock
        with i18n.speaking(languages.channel_language(live)):
            await kit.take_in_time(lock, interaction)
            try:
                if (
                    interaction is not None
                    and not interaction.response.is_done()
                    and not _on_message(interaction, shown.message_id)
                ):
                    # Pressed anywhere but the table message (an older message, maybe deleted
                    # since, or the table moved to a new one while the press waited its
                    # turn): the table message is edited on its own, and the press is told
                    # where it is.
                    await self._tell_elsewhere(interaction)
                drawn = await self._present(live, outcome, interaction)
            finally:
                lock.release()
        if outcome.private_changed:
            changed = outcome.private_changed
            acting = str(interaction.user.id) if interaction is not None else ""
            if (
                interaction is not None
                and acting in changed
                and self._has_dm(live, acting)
                and _on_private_panel(interaction)
            ):
                # A draw (or pass) on the player's own panel: its answer shows the new
                # cards, uncounted, instead of an edit of their DM (a counted call).
                changed = tuple(pid for pid in changed if pid != acting)
                self.spawn(self._cards_in_answer(live, interaction))
            if changed:
                self.spawn(self._send_private(live, changed, drawn))
        if outcome.result is not None or not live.engine.in_hand:
            shown.dm_messages.clear()
            shown.dms_behind = ()

    async def _tell_elsewhere(self, interaction: discord.Interaction[PokerBot]) -> None:
        """Answer a press made anywhere but the table message by telling the player where the
        table is (given up, like :func:`cogs.kit.acknowledge`, when Discord is too slow)."""
        with contextlib.suppress(discord.HTTPException, TimeoutError):
            async with asyncio.timeout(kit.ANSWER_WITHIN - kit.ANSWER_BY):
                with i18n.speaking(languages.member_language(interaction.user.id)):
                    below = TABLE_BELOW.render()
                await interaction.response.send_message(below, ephemeral=True)

    async def _present(
        self,
        live: LiveTable,
        outcome: Outcome,
        interaction: discord.Interaction[PokerBot] | None,
    ) -> _Drawn | None:
        """Show the change; returns the public view the table message was drawn from, for
        the DMs that follow (they may use it while the hand stays as it was)."""
        shown = Shown.of(live)
        shown.restored = False  # this change shows the table as it is now
        if outcome.result is not None:
            # The hand's message becomes its result; the table goes on in a new message.
            hand_id = outcome.hand_id or (shown.hand[1] if shown.hand is not None else 0)
            # At once, before any await (see Shown.leave_message).
            message_id = shown.leave_message(outcome.result, outcome.start_stacks)
            await self._turn_targets(live, interaction, outcome.new_hand)  # nobody: over
            await self._show_result(
                live, message_id, outcome.result, hand_id, interaction, outcome.start_stacks
            )
            shown.unshown = None  # shown (or tried): a snapshot from now on need not carry it
            self._turn_passed(live, frozenset(), interaction)
            if outcome.ended is not None:
                # /poker end during the hand: the table's last word, then its ledger.
                embed = panels.closed_embed(live.names, outcome.ended, after_hand=True)
                await self._post_table_message(live, embed, Components(), interaction)
                await post_closing_ledger(self.bot, live.id, live.channel_id, interaction)
            else:
                # A tournament's table closed by its hand (broken up, or the tournament
                # over) says so and offers no seat; any other goes on between hands.
                closed = live.closed
                embed, view = self.table_message(live) if closed else self.lobby_message(live)
                await self._post_table_message(live, embed, view, interaction)
                if live.closed and not closed and shown.message_id is not None:
                    # Closed while the message was being posted (a tournament breaking the
                    # table up): its retire_closed found no message to retire.
                    await self._retire(live, shown.message_id, shown.editor)
            return None
        targets = await self._turn_targets(live, interaction, outcome.new_hand)
        # present() already speaks the table's language.
        embed, view, public = self._table_message(live)
        drawn = _Drawn(live.engine, live.version(), public)
        if outcome.ended is not None:
            # Closed by /poker end once a hand ended with no result: it was voided (the note).
            last_word = panels.closed_embed(
                live.names, outcome.ended, after_hand=True, notes=live.shown_notes(kit.as_typed)
            )
            embed, view = last_word, Components()
        if outcome.new_hand:
            # The lobby message the hand is dealt on becomes the hand's table message.
            shown.hand = _hand_played(live)
            self.bot.tables.keep_presentation(live)
        if shown.message_id is None:
            # (No message to deal on, its post having failed: the new one shows the hand.)
            await self._post_table_message(live, embed, view, interaction, keep=_hand_played(live))
        else:
            await self.edit_table_message(live, embed, view, interaction)
        if outcome.ended is not None:
            await post_closing_ledger(self.bot, live.id, live.channel_id, interaction)
        self._turn_passed(live, targets, interaction)
        return drawn

    async def refresh(self, live: LiveTable) -> None:
        """Redraw the table message from the current state (after a restart or a stale press)."""
        shown = Shown.of(live)
        async with shown.pings:
            stale = shown.ping_id
            if stale is not None and (shown.ping is None or shown.ping.message_id != stale):
                # A ping left by the process before a restart: nobody else would remove it.
                await self._delete_ping(live, Ping(stale, frozenset()))
                self._ping_changed(live, shown, None)
        async with shown.lock:
            await self._refresh(live, shown)

    async def _refresh(self, live: LiveTable, shown: Shown) -> None:
        if shown.message_id is None or live.closed:
            return
        with i18n.speaking(languages.channel_language(live)):
            hand = shown.hand
            result = live.engine.result
            if (
                shown.restored
                and hand is not None
                and not live.engine.in_hand
                and hand[0] == live.engine.hand_number
                and result is not None
            ):
                # Stopped between the end of a hand and its move to a new message: finish it.
                shown.restored = False
                message_id = shown.leave_message()
                await self._show_result(live, message_id, result, hand[1], None)
                embed, view = self.lobby_message(live)
                await self._post_table_message(live, embed, view, None)
                return
            if shown.restored and hand is not None and hand[0] < live.engine.hand_number:
                # Stopped during that move, after a newer hand was dealt (its snapshot names
                # the old message: see Shown.leave_message). The old message shows the old
                # hand, as its table or already its result: it becomes that result (saved
                # with the move), and the table goes on in a new message.
                shown.restored = False
                unshown = shown.take_unshown()
                message_id = shown.leave_message()
                if unshown is not None:
                    old_result, start_stacks = unshown
                    await self._show_result(
                        live, message_id, old_result, hand[1], None, start_stacks
                    )
                embed, view = self.current_message(live)
                await self._post_table_message(live, embed, view, None, keep=_hand_played(live))
                return
            # Between hands the footer carries the settings, as the lobby was first drawn.
            embed, view = self.current_message(live)
            await self.edit_table_message(live, embed, view, None)

    def just_reposted(self, live: LiveTable) -> str | None:
        """The link to the table message when ``/poker table`` posted it under
        :data:`REPOST_SECONDS` ago (it is at the bottom of the channel, or nearly); else None."""
        shown = Shown.of(live)
        now = asyncio.get_running_loop().time()
        if shown.message_id is None or now - shown.reposted >= REPOST_SECONDS:
            return None
        return f"https://discord.com/channels/{live.guild_id}/{live.channel_id}/{shown.message_id}"

    async def repost(self, live: LiveTable, interaction: discord.Interaction[PokerBot]) -> None:
        """Post the live table again at the bottom of the channel (``/poker table``); the old
        one is deleted, so the table still has one live message."""
        shown = Shown.of(live)
        shown.reposted = asyncio.get_running_loop().time()
        async with shown.lock:
            with i18n.speaking(languages.channel_language(live)):
                embed, view = self.current_message(live)
                old_id, old_editor = shown.message_id, shown.editor
                await self._post_table_message(live, embed, view, interaction, keep=shown.hand)
            moved = shown.message_id
        # Outside the lock: the table's next changes (on the new message) do not wait for
        # the old one to go, which Discord failing may hold up for 16 s (discord.py's retries).
        if old_id is not None and old_id != moved:
            await self._delete_message(live, old_id, old_editor)

    async def retire_closed(self, live: LiveTable) -> None:
        """The table is closed between hands: its message goes (the closing answer below it
        says what each player took home); a tournament's keeps a note of where its players
        went, without buttons."""
        shown = Shown.of(live)
        async with shown.lock:
            if shown.message_id is not None and live.meta.tournament is None:
                await self._delete_message(live, shown.message_id, shown.editor)
            elif shown.message_id is not None:
                with i18n.speaking(languages.channel_language(live)):
                    await self._retire(live, shown.message_id, shown.editor)
        async with shown.pings:
            if shown.ping is not None:
                await self._delete_ping(live, shown.ping)
            shown.ping = None
            shown.ping_id = None

    # -- turn pings -----------------------------------------------------------------------------

    async def _turn_targets(
        self,
        live: LiveTable,
        interaction: discord.Interaction[PokerBot] | None,
        new_hand: bool,
    ) -> frozenset[str]:
        """The players the action has just passed to, who want to be pinged (never the
        player whose own action this is)."""
        waiting = (
            frozenset(d.player_id for d in live.engine.pending)
            if live.engine.in_hand
            else frozenset()
        )
        shown = Shown.of(live)
        before = frozenset() if new_hand else shown.turn
        shown.turn = waiting
        # house players are nobody to ping
        fresh = frozenset(pid for pid in waiting - before if not is_house(pid))
        if interaction is not None:
            fresh -= {str(interaction.user.id)}
        if not fresh:
            return frozenset()
        wanted = await self.preferences_of([int(pid) for pid in fresh])
        return frozenset(pid for pid in fresh if wanted[int(pid)].notify)

    def _turn_passed(
        self,
        live: LiveTable,
        targets: frozenset[str],
        interaction: discord.Interaction[PokerBot] | None,
    ) -> None:
        """Ping ``targets`` if they have not acted ``ping_after`` seconds from now; with no
        one to ping, tidy the standing ping at once (reword or remove it). The calls to
        Discord are made in a task of their own: the table's next change does not wait for
        them (Discord slow or rate limiting the channel holds up only its pings)."""
        waiting = self._late_pings.pop(live.id, None)
        if waiting is not None:
            waiting.cancel()
        editor = MessageEditor.of(interaction) if interaction is not None else None
        delay = min(self.ping_after, live.settings.action_seconds / 6)
        if not targets or delay <= 0:
            self._ping_soon(live, self._ping(live, targets, editor), targets)
            return
        # A ping answered (its player acted or timed out) goes now, not when the next one
        # is sent: pings are there to notify, not to stay.
        self._ping_soon(live, self._ping(live, frozenset(), editor))
        hand = live.engine.hand_number
        self._late_pings[live.id] = asyncio.get_running_loop().call_later(
            delay,
            lambda: self._ping_soon(
                live, self._ping_if_still_waiting(live, targets, editor, hand), targets
            ),
        )

    def _ping_soon(
        self, live: LiveTable, change: Coroutine[Any, Any, None], targets: frozenset[str] = EMPTY
    ) -> None:
        """Make ``change`` to the table's ping in a task, after the changes already on their
        way. Nothing to ping, no ping standing and none on its way (most actions): nothing
        to do, and no task."""
        shown = Shown.of(live)
        if not targets and shown.ping is None and not shown.pinging:
            change.close()
            return
        shown.pinging += 1
        self.spawn(self._in_turn(shown, change))

    async def _in_turn(self, shown: Shown, change: Coroutine[Any, Any, None]) -> None:
        try:
            async with shown.pings:
                await change
        finally:
            shown.pinging -= 1

    async def _ping_if_still_waiting(
        self, live: LiveTable, targets: frozenset[str], editor: MessageEditor | None, hand: int
    ) -> None:
        self._late_pings.pop(live.id, None)
        if live.closed or not live.engine.in_hand or live.engine.hand_number != hand:
            return
        still = targets & Shown.of(live).turn
        if still:
            await self._ping(live, still, editor)

    def _ping_text(self, live: LiveTable, targets: frozenset[str]) -> str:
        with i18n.speaking(languages.channel_language(live)):
            return self._ping_words(live, targets)

    def _ping_words(self, live: LiveTable, targets: frozenset[str]) -> str:
        mentions = " ".join(kit.mention(pid) for pid in sorted(targets))
        view = live.engine.public_view()
        number = str(view.hand_number)  # an id, not a quantity: no thousands separator
        if view.street:
            # Translators: a turn ping in the channel; {players} are mentions, {street} the
            # betting round or draw ("Flop", "First draw").
            return _(
                "🔔 {players}: your turn (hand\u00a0#{number} · {street}).",
                players=mentions,
                number=number,
                street=view.street,
            )
        # Translators: a turn ping in the channel; {players} are mentions.
        return _("🔔 {players}: your turn (hand\u00a0#{number}).", players=mentions, number=number)

    async def _ping(
        self,
        live: LiveTable,
        targets: frozenset[str],
        editor: MessageEditor | None,
    ) -> None:
        """Replace the table's ping with one for ``targets`` (or just remove it when the
        turn moved on to nobody new, or the hand is over)."""
        shown = Shown.of(live)
        old = shown.ping
        if not targets:
            if old is None:
                return
            if old.players & shown.turn and live.engine.in_hand:
                await self._reword_ping(live, shown, old)
                return
        shown.ping = None
        # No ping stands from here until the new one is posted: a refresh meanwhile must not
        # take the old one for a ping a restart left, and delete it a second time.
        self._ping_changed(live, shown, None)
        if old is not None:
            await self._delete_ping(live, old)
        if not targets:
            return
        content = self._ping_text(live, targets)
        mentions = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(int(pid)) for pid in targets]
        )

        async def send() -> Ping:
            if editor is not None and not editor.is_expired():
                # A followup of the interaction that passed the turn: not counted against
                # the global rate limit, and deletable through the same webhook.
                sent = await editor.webhook(self.bot).send(
                    content, allowed_mentions=mentions, wait=True
                )
                return Ping(sent.id, targets, editor, text=content)
            channel = self.bot.get_partial_messageable(live.channel_id)
            message = await channel.send(content, allowed_mentions=mentions)
            return Ping(message.id, targets, text=content)

        try:
            shown.ping = await self._in_thread(live, send)
        except discord.HTTPException as exc:
            log.warning("table %s: could not ping %s: %s", live.id, sorted(targets), exc)
        self._ping_changed(live, shown, shown.ping.message_id if shown.ping else None)

    async def _reword_ping(self, live: LiveTable, shown: Shown, old: Ping) -> None:
        """The ping's players are still to act, maybe in a new street (the last caller is
        first to draw): bring its words up to date by an edit, which notifies nobody (a new
        ping would notify a player about their own action)."""
        still = old.players & shown.turn
        text = self._ping_text(live, still)
        if text == old.text:
            return
        quiet = discord.AllowedMentions.none()

        async def edit() -> None:
            editor = old.editor
            if editor is not None and not editor.is_expired():
                await editor.webhook(self.bot).edit_message(
                    old.message_id, content=text, allowed_mentions=quiet
                )
            else:
                channel = self.bot.get_partial_messageable(live.channel_id)
                await channel.get_partial_message(old.message_id).edit(
                    content=text, allowed_mentions=quiet
                )

        try:
            await self._in_thread(live, edit)
            shown.ping = Ping(old.message_id, still, old.editor, text=text)
        except discord.NotFound:
            shown.ping = None
            self._ping_changed(live, shown, None)
        except discord.HTTPException as exc:
            log.warning("table %s: could not reword the ping: %s", live.id, exc)

    async def _delete_ping(self, live: LiveTable, ping: Ping) -> None:
        try:
            editor = ping.editor
            if editor is not None and not editor.is_expired():
                with contextlib.suppress(discord.NotFound):
                    await editor.delete(self.bot, ping.message_id)
                return
            channel = self.bot.get_partial_messageable(live.channel_id)
            await channel.get_partial_message(ping.message_id).delete()
        except discord.NotFound:
            pass
        except discord.HTTPException as exc:
            log.warning("table %s: could not remove the old ping: %s", live.id, exc)

    # -- the one live table message -------------------------------------------------------------

    async def _retire(self, live: LiveTable, message_id: int, editor: MessageEditor | None) -> None:
        """The table is closed: its message becomes a note without components (at a
        tournament's table broken up, its last notes: where its players went)."""
        notes = live.shown_notes(kit.as_typed) if live.meta.tournament is not None else ()
        embed, view = panels.closed_notice(live.engine.public_view().game, notes)

        async def edit() -> None:
            if editor is not None and not editor.is_expired():
                with contextlib.suppress(discord.NotFound):
                    await editor.edit(self.bot, message_id, embed=embed, view=view)
                    return
            channel = self.bot.get_partial_messageable(live.channel_id)
            await channel.get_partial_message(message_id).edit(content=None, embed=embed, view=view)

        try:
            await self._in_thread(live, edit)
        except discord.NotFound:
            pass
        except discord.HTTPException as exc:
            log.warning("table %s: could not retire message %s: %s", live.id, message_id, exc)

    async def retire_unrestored(self, closed: ClosedAtRestore) -> None:
        """A table the restore had to close: its message (or a new one, if it is gone) says
        why, and what each player got back; its ledger follows, as after any close."""
        language = table_language(closed.language, closed.guild_id)
        with i18n.speaking(language):
            if closed.voided:
                note = _(
                    "⚠ This table could not come back after the bot was updated, so it is "
                    "closed: its hand in progress is void, and every chip on it went back to "
                    "its player."
                )
            else:
                note = _(
                    "⚠ This table could not come back after the bot was updated, so it is "
                    "closed: every chip on it went back to its player."
                )
            names = shown_names(closed.names, language)
            embed = panels.closed_embed(names, closed.payouts, notes=[note])
        channel = self.bot.get_partial_messageable(closed.channel_id)
        edited = False
        try:
            if closed.message_id is not None:
                with contextlib.suppress(discord.NotFound):  # deleted: a new message says it
                    message = channel.get_partial_message(closed.message_id)
                    await message.edit(content=None, embed=embed, view=Components())
                    edited = True
            if not edited:
                await channel.send(embed=embed, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.warning("table %s: could not say it was closed: %s", closed.table_id, exc)
        await post_closing_ledger(self.bot, closed.table_id, closed.channel_id)

    async def _delete_message(
        self, live: LiveTable, message_id: int, editor: MessageEditor | None
    ) -> None:
        """Delete an older table message (``/poker table`` posted the table again)."""
        try:
            if editor is not None and not editor.is_expired():
                with contextlib.suppress(discord.NotFound):
                    await editor.delete(self.bot, message_id)
                    return
            channel = self.bot.get_partial_messageable(live.channel_id)
            await channel.get_partial_message(message_id).delete()
        except discord.NotFound:
            pass
        except discord.HTTPException as exc:
            log.warning("table %s: could not delete message %s: %s", live.id, message_id, exc)

    async def _post_table_message(
        self,
        live: LiveTable,
        embed: discord.Embed,
        view: discord.ui.View,
        interaction: discord.Interaction[PokerBot] | None,
        *,
        keep: tuple[int, int] | None = None,
    ) -> None:
        """Post the table's new message at the bottom of the channel: after a hand's result
        (its message stays as the result), for ``/poker table``, or when it has none. ``keep``:
        the hand the new message shows (``/poker table`` during a hand)."""
        shown = Shown.of(live)
        message: discord.Message | None = None
        # A followup of the interaction that ended the hand, else of the table's last press
        # (a timeout has none of its own): interaction webhooks are not counted against the
        # global rate limit, and the followup stays editable through the same token (the
        # next deal edits it into the hand).
        editor = MessageEditor.of(interaction) if interaction is not None else shown.editor
        if editor is not None and not editor.is_expired():
            try:
                message = await editor.webhook(self.bot).send(
                    embed=embed,
                    view=view,
                    allowed_mentions=discord.AllowedMentions.none(),
                    wait=True,
                )
            except discord.HTTPException as exc:
                # E.g. the interaction was answered too late (a busy bot): the change is saved
                # all the same, so post the table message in the channel instead.
                log.warning("table %s: followup failed (%s); posting in the channel", live.id, exc)
        try:
            if message is None:
                editor = None
                channel = self.bot.get_partial_messageable(live.channel_id)
                message = await self._in_thread(
                    live,
                    lambda: channel.send(
                        embed=embed, view=view, allowed_mentions=discord.AllowedMentions.none()
                    ),
                )
            shown.editor = editor
        except discord.HTTPException as exc:
            log.warning("table %s: could not post the table message: %s", live.id, exc)
            self._left_behind(live, shown)
            return
        # Taken at once, not after the table's lock: a change being made meanwhile (a player
        # leaving as the message is posted) must edit the new message.
        shown.now_on(message.id, keep)
        shown.behind = False
        await self.bot.tables.set_message(live, message.id)

    async def edit_table_message(
        self,
        live: LiveTable,
        embed: discord.Embed,
        view: discord.ui.View,
        interaction: discord.Interaction[PokerBot] | None,
    ) -> None:
        """Edit the table message: in the answer to ``interaction`` when it was pressed on
        it, else through a recent interaction's webhook, else by REST."""
        shown = Shown.of(live)
        on_table = interaction is not None and _on_message(interaction, shown.message_id)
        try:
            if interaction is not None and on_table and not interaction.response.is_done():
                try:
                    async with asyncio.timeout(kit.ANSWER_WITHIN):
                        await interaction.response.edit_message(
                            content=None, embed=embed, view=view
                        )
                    shown.editor = MessageEditor.of(interaction)
                    shown.behind = False
                    return
                except discord.NotFound:
                    # Answered after Discord's 3 s (a busy bot): the change is saved, so show it
                    # through the webhook or REST below rather than leave the table stale.
                    log.warning("table %s: interaction expired; editing the message", live.id)
                except TimeoutError:
                    log.warning(
                        "table %s: Discord did not take the answer to %s in time; "
                        "editing the message",
                        live.id,
                        interaction.id,
                    )

            async def edit() -> None:
                editor = shown.editor
                if editor is not None and not editor.is_expired() and shown.message_id:
                    with contextlib.suppress(discord.NotFound):
                        await editor.edit(self.bot, shown.message_id, embed=embed, view=view)
                        return
                if shown.message_id is not None:
                    channel = self.bot.get_partial_messageable(live.channel_id)
                    await channel.get_partial_message(shown.message_id).edit(
                        content=None, embed=embed, view=view
                    )

            await self._in_thread(live, edit)
            shown.behind = False
        except discord.NotFound as exc:
            if exc.code != UNKNOWN_MESSAGE:
                log.warning("table %s: could not update the table message: %s", live.id, exc)
                return
            # Deleted (a moderator, maybe while the bot was away): the table's buttons must
            # stay somewhere, so the table goes on in a new message.
            log.warning("table %s: its message is gone (%s); posting it again", live.id, exc)
            await self._post_table_message(live, embed, view, None, keep=shown.hand)
        except discord.HTTPException as exc:
            log.warning("table %s: could not update the table message: %s", live.id, exc)
            self._left_behind(live, shown)

    def _left_behind(self, live: LiveTable, shown: Shown) -> None:
        """Discord refused to show the table (an edit or a new message): it is drawn again
        a little later (see :data:`REDRAW_AFTER`), once a table."""
        shown.behind = True
        self._again_later(self._redraws, live, lambda: self._redraw(live, shown), "drawing it")

    async def _redraw(self, live: LiveTable, shown: Shown) -> bool:
        """Draw the table message again if Discord still leaves it behind (a later change
        of the table draws it anyway); whether it was."""
        if not shown.behind or Shown.of(live) is not shown:
            return False
        if shown.message_id is not None:
            await self.refresh(live)
            return True
        async with shown.lock:  # the table has no message: its post failed
            if shown.message_id is None and not live.closed:
                with i18n.speaking(languages.channel_language(live)):
                    embed, view = self.current_message(live)
                    keep = _hand_played(live)
                    await self._post_table_message(live, embed, view, None, keep=keep)
        return True

    def _again_later(
        self,
        tasks: dict[int, asyncio.Task[None]],
        live: LiveTable,
        attempt: Callable[[], Awaitable[bool]],
        what: str,
    ) -> None:
        """Run ``attempt`` after each of :data:`REDRAW_AFTER`'s delays, as long as it finds
        something Discord left behind (it returns whether it did): one such task a table,
        kept in ``tasks`` (apart from ``_tasks``: a clean stop does not wait for them)."""
        if live.id not in tasks:
            tasks[live.id] = asyncio.ensure_future(self._again(tasks, live, attempt, what))

    async def _again(
        self,
        tasks: dict[int, asyncio.Task[None]],
        live: LiveTable,
        attempt: Callable[[], Awaitable[bool]],
        what: str,
    ) -> None:
        try:
            for delay in self.redraw_after:
                await asyncio.sleep(delay)
                if live.closed or not await attempt():
                    return
        except Exception:
            log.exception("table %s: %s again failed", live.id, what)
        finally:
            tasks.pop(live.id, None)

    async def showdown_message(
        self,
        live: LiveTable,
        result: engine.HandResult,
        start_stacks: dict[str, int] | None = None,
    ) -> tuple[discord.Embed, bytes | None]:
        """The result of a hand: its embed, and the picture of every hand shown (PNG)."""
        low_rule = render.low_rule(result)
        seated = {i: s.player_id for i, s in enumerate(live.engine.seats) if s is not None}
        embed = render.showdown_embed(
            result,
            live.names,
            seat_order=list(seated.values()),
            start_stacks=start_stacks,
            low_rule=low_rule,
            seats=seated,
        )
        rows = render.shown_rows(result, live.names, low_rule)
        if not rows:
            return embed, None
        # Drawing and PNG-encoding a picture of several hands takes ~10 ms, most of it in
        # Pillow's encoder, which lets go of the GIL: a thread keeps the event loop free.
        png = await asyncio.to_thread(render_showdown, rows)
        embed.set_image(url=f"attachment://{SHOWDOWN_FILE}")
        return embed, png

    async def _show_result(
        self,
        live: LiveTable,
        message_id: int | None,
        result: engine.HandResult,
        hand_id: int,
        interaction: discord.Interaction[PokerBot] | None,
        start_stacks: dict[str, int] | None = None,
    ) -> None:
        """Turn the hand's table message into its result: the winners, the pots, each
        player's net, the showdown picture, and only a Replay button. In the answer to the
        press that ended the hand when it was pressed on that message (an edit that costs no
        counted call), else through a recent interaction's webhook, else by REST."""
        shown = Shown.of(live)
        if message_id is None:
            return
        embed, png = await self.showdown_message(live, result, start_stacks)
        view = panels.result_components(hand_id) if hand_id else Components()

        def files() -> list[discord.File]:
            if png is None:
                return []
            alt = say("picture_description")
            return [kit.attachment(png, SHOWDOWN_FILE, alt)]

        on_table = (
            interaction is not None
            and interaction.message is not None
            and interaction.message.id == message_id
        )
        try:
            if interaction is not None and on_table and not interaction.response.is_done():
                try:
                    await interaction.response.edit_message(
                        content=None, embed=embed, attachments=files(), view=view
                    )
                    return
                except discord.NotFound:
                    log.warning("table %s: interaction expired; editing the result", live.id)

            async def edit() -> None:
                editor = shown.editor
                if editor is not None and not editor.is_expired():
                    with contextlib.suppress(discord.NotFound):
                        await editor.webhook(self.bot).edit_message(
                            message_id, content=None, embed=embed, attachments=files(), view=view
                        )
                        return
                channel = self.bot.get_partial_messageable(live.channel_id)
                await channel.get_partial_message(message_id).edit(
                    content=None, embed=embed, attachments=files(), view=view
                )

            await self._in_thread(live, edit)
        except discord.HTTPException as exc:
            log.warning("table %s: could not show the hand's result: %s", live.id, exc)

    @staticmethod
    def _draws(live: LiveTable) -> bool:
        """Whether the hand being played has a drawing round."""
        hand = live.engine.hand
        rules = hand.rules if hand is not None else live.engine.config.rules()
        return any(isinstance(step, Draw | DrawSeries) for step in rules.steps)

    @staticmethod
    def _has_dm(live: LiveTable, player_id: str) -> bool:
        """Whether the player has this hand's DM (the hand as dealt to them)."""
        sent = Shown.of(live).dm_messages.get(player_id)
        return sent is not None and sent[0] == live.engine.hand_number

    async def _cards_in_answer(
        self, live: LiveTable, interaction: discord.Interaction[PokerBot]
    ) -> None:
        """Add the picture of the player's cards to the answer of their private panel; the
        DM is edited instead if that answer cannot be (answered too late, say)."""
        user_id = interaction.user.id
        try:
            # The picture alone: the answer's text says the cards already.
            private = live.engine.private_view(str(user_id))
        except engine.TableError:
            return  # no longer seated
        file = self._cards_picture(
            user_id, private, render.private_arrangement(live.engine.hand, private)
        )
        if file is None:
            return
        try:
            await interaction.edit_original_response(attachments=[file])
        except discord.HTTPException as exc:
            log.warning(
                "table %s: cards not shown in the answer (%s); editing the DM", live.id, exc
            )
            await self._send_private(live, (str(user_id),))

    async def _send_private(
        self, live: LiveTable, player_ids: tuple[str, ...], drawn: _Drawn | None = None
    ) -> None:
        """Bring each player's DM of the hand up to date: sent at the deal, edited as the
        cards change (one DM per player per hand). A closed DM is noted on the table once and
        not tried again at this table; one Discord refused otherwise is sent again a moment
        later (:meth:`_dm_left_behind`). ``drawn``: the view the table message was just drawn
        from."""
        # house players have no DMs: they read their cards from the engine
        player_ids = tuple(pid for pid in player_ids if not is_house(pid))
        await self.preferences_of([int(pid) for pid in player_ids])
        # Each DM in its reader's last seen client language, whoever's press sent it.
        spoken = await languages.member_languages(self.bot.db, [int(p) for p in player_ids])
        hand_number = live.engine.hand_number
        shown = Shown.of(live)
        # One public view for every DM while the hand has not moved on (the DMs read only what
        # the hand's events change: its game, number, board and wild cards); a deal's six DMs
        # made six before.
        for pid in player_ids:
            if pid in shown.dms_behind:
                # Tried now: back on the list only if Discord refuses it again.
                shown.dms_behind = tuple(p for p in shown.dms_behind if p != pid)
            if pid in shown.dm_closed:
                continue
            user_id = int(pid)
            view = _still(live, drawn)
            try:
                if view is None:
                    drawn = _Drawn(live.engine, live.version(), live.engine.public_view())
                    view = drawn.view
                with i18n.speaking(spoken[user_id]):
                    embed, file = self.private_message(live, user_id, view)
            except engine.TableError:
                continue  # no longer seated (left during the hand)
            if file is None:
                continue  # folded: no cards to show, and the DM keeps the hand they had
            try:
                sent = shown.dm_messages.get(pid)
                if sent is not None and sent[0] == hand_number:
                    dm = self.bot.get_partial_messageable(sent[1], type=discord.ChannelType.private)
                    attachments = [file] if file is not None else []
                    with contextlib.suppress(discord.NotFound):
                        await dm.get_partial_message(sent[2]).edit(
                            embed=embed, attachments=attachments
                        )
                        continue
                if self._draws(live):
                    # The DM is not edited after the player's own draw (see present).
                    with i18n.speaking(spoken[user_id]):
                        embed.set_footer(text=str(DRAWN_CARDS_NOTE))
                channel_id = await self.dm_channel(user_id)
                dm = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
                if file is not None:
                    message = await dm.send(embed=embed, file=file)
                else:
                    message = await dm.send(embed=embed)
                shown.dm_messages[pid] = (hand_number, channel_id, message.id)
            except discord.Forbidden:
                if await self._dm_closed(live, shown, pid):
                    await self.refresh(live)
            except discord.HTTPException as exc:
                log.warning("DM to %s failed: %s", user_id, exc)
                self._dm_left_behind(live, shown, pid)

    def _dm_left_behind(self, live: LiveTable, shown: Shown, player_id: str) -> None:
        """Discord refused ``player_id``'s DM of the hand: it is sent again a little later
        (see :data:`REDRAW_AFTER`), from the hand of the moment."""
        if player_id not in shown.dms_behind:
            shown.dms_behind = (*shown.dms_behind, player_id)
        hand = live.engine.hand_number
        self._again_later(
            self._resends, live, lambda: self._resend(live, shown, hand), "sending its DMs"
        )

    async def _resend(self, live: LiveTable, shown: Shown, hand_number: int) -> bool:
        """Send the DMs Discord refused again, as long as their hand is played (a later
        change of a player's cards sends theirs anyway); whether there were any."""
        if (
            Shown.of(live) is not shown
            or not shown.dms_behind
            or not live.engine.in_hand
            or live.engine.hand_number != hand_number
        ):
            return False
        await self._send_private(live, shown.dms_behind)
        return True

    async def dm_channel(self, user_id: int) -> int:
        """The id of the bot's DM channel with ``user_id`` (opened once per process)."""
        channel_id = self.dm_channels.get(user_id)
        if channel_id is None:
            data = await self.bot.http.start_private_message(user_id)
            channel_id = int(data["id"])
            self.dm_channels[user_id] = channel_id
        return channel_id

    async def send_dm(self, user_id: int, embed: discord.Embed) -> bool:
        """DM ``embed`` to ``user_id``; whether it was sent (closed DMs and Discord's
        failures are logged and skipped: nothing waits on a DM)."""
        try:
            channel_id = await self.dm_channel(user_id)
            dm = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
            await dm.send(embed=embed)
        except discord.Forbidden:
            log.info("DM to %s not sent: their DMs are closed", user_id)
            return False
        except discord.HTTPException as exc:
            log.warning("DM to %s failed: %s", user_id, exc)
            return False
        return True

    async def _dm_closed(self, live: LiveTable, shown: Shown, player_id: str) -> bool:
        """This player's DMs are closed: say so on the table once (they can use My hand).

        Returns whether the note is new, i.e. whether the table message needs redrawing."""
        if player_id in shown.dm_closed:
            return False
        shown.dm_closed = (*shown.dm_closed, player_id)
        name = kit.as_typed(live.names.get(player_id, player_id))
        # Translators: a note on the table message (kept until the next deal).
        note = _(
            "📪 I can't DM {name}: use **My hand** to see your cards.",
            name=name,
            language=languages.channel_language(live),
        )
        return await self.bot.tables.add_note(live, note)


@dataclass(frozen=True, slots=True)
class _Drawn:
    """A table's public view, and the state it was made of (the engine and its version)."""

    table: engine.Table
    version: Version
    view: engine.PublicView


def _hand_played(live: LiveTable) -> tuple[int, int] | None:
    """The hand being played at ``live`` as a table message remembers it (its number, and its
    id in the hand history), or None between hands."""
    if not live.engine.in_hand:
        return None
    info = live.meta.hand
    return (live.engine.hand_number, info.hand_id if info is not None else 0)


def _still(live: LiveTable, drawn: _Drawn | None) -> engine.PublicView | None:
    """``drawn``'s view if the hand is still where it was, for a player's own message: that
    reads only what the hand's events change (the game, the hand's number, the board, the
    wild cards), so a view of the same hand at the same event is as good as a new one."""
    if drawn is None or live.engine is not drawn.table or not live.engine.in_hand:
        return None
    return drawn.view if live.version() == drawn.version else None


def _on_message(interaction: discord.Interaction[Any], message_id: int | None) -> bool:
    """Whether the interaction came from the message ``message_id``."""
    message = interaction.message
    return message is not None and message.id == message_id


def _on_private_panel(interaction: discord.Interaction[Any]) -> bool:
    """Whether the press was on the player's own ephemeral panel (answered to them alone)."""
    message = interaction.message
    return message is not None and message.flags.ephemeral
