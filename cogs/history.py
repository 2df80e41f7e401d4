"""Hand history: ``/poker history`` lists a table's hands, ``/poker hand`` replays one.

Everything here reads what the table service stored (the data layer's ``hands`` and
``hand_events`` rows, the table's config and last snapshot); nothing is written.

* ``/poker history [table]``: the table's hands, newest first, :data:`PAGE_SIZE` a page, with
  Previous/Next buttons (:mod:`cogs.ui.paginator`, page kind :data:`HAND_PAGES`). Each line:
  hand id, number at the table, game, pot, winners, when, and the start of the deck commitment.
* ``/poker hand <id>``: a text replay of a FINISHED hand, answered ephemerally: the deal, every
  action, the draws, the showdown, the pots and the final stacks, then the fairness summary
  (:func:`fairness_embed`). A hand still being played is refused (its history opens when it
  ends), and so is a hand of another server.
* ``/poker verify <id>``: the fairness summary alone, with the proof file
  ``hand-<id>-proof.json`` (:class:`engine.commitment.DealProof`) that opens the leaves of the
  cards the asker saw: those shown to everyone and, for a player of the hand, their own.
* ``/poker hand <id> phh:true`` also attaches ``hand-<id>.phh``, the hand in pokerkit's PHH
  format (:mod:`engine.notation`: with PHH's variant code when it has one for the game, else
  with the game named in an extension field).

Who sees which cards: the stored events are read back as engine events
(:meth:`engine.events.Event.from_dict`) and each is shown as the engine masks it for the
viewer's seat (:meth:`~engine.events.Event.masked_for`): a face-down card only to its owner,
the cards shown at the showdown to everyone, burned cards to no one. A player who was not
dealt in sees only public information. The PHH export follows the same rule (other players'
unshown cards are written ``??``).

Hands dealt before the card-by-card commitment keep their old proof (the whole deck order, the
seed and the salt, hashed together), checked as it always was: their deck is public already.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import discord

import engine
from cogs import kit
from cogs.translator import _
from cogs.ui.paginator import (
    PageContent,
    PageRefused,
    fitted_lines,
    register_pages,
    send_paginated,
)
from cogs.ui.replay import LINE_LIMIT, chosen_game, name_of, read_events, replay_lines
from cogs.validation import MAX_ID
from data import Database, Hand, HandInProgress, HandSecrets, NotFound
from data import Table as TableRow
from engine import events as ev
from engine.commitment import (
    DealCommitment,
    DealProof,
    DeckRecord,
    cards_seen,
    cards_to_open,
    dealt_to,
    seed_withheld,
)
from engine.notation import PhhHeader, PhhUnsupported, export_phh
from i18n import engine_text
from tables.errors import Refusal
from tables.languages import table_language
from tables.live import shown_names

if TYPE_CHECKING:
    from cogs.app import PokerBot

Interaction = discord.Interaction["PokerBot"]

log = logging.getLogger("poker.history")

HAND_PAGES: Final = "hands"
"""The paginator's page kind for ``/poker history`` (key: the table id)."""
PAGE_SIZE = 10
"""Hands per history page (read at call time)."""
COMMITMENT_PREFIX: Final = 12

# Discord limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits).
DESCRIPTION_LIMIT: Final = kit.DESCRIPTION_LIMIT
EMBED_TOTAL_LIMIT: Final = 6000
EMBEDS_PER_MESSAGE: Final = 10
CHUNK: Final = 3800
"""Replay characters per embed (below the description limit, leaving room for the title)."""
MESSAGE_BUDGET: Final = EMBED_TOTAL_LIMIT - 100
"""Characters of embeds per message (titles included), with a margin."""
MAX_MESSAGES: Final = 4
"""A replay longer than this many messages is cut short, with a note."""


class HistoryProblem(Refusal):
    """A history request that cannot be answered, with a reason fit to show the member."""


# ---------------------------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A finished hand with everything the replay and the export need."""

    hand: Hand
    table: TableRow
    events: tuple[dict[str, Any], ...]
    result: dict[str, Any]
    secrets: HandSecrets
    names: dict[str, str]

    @property
    def start(self) -> ev.HandStarted | None:
        """The hand-started event (who was dealt in, from the dealer's left)."""
        stored = next((e for e in self.events if e.get("type") == "hand-started"), None)
        try:
            start = None if stored is None else ev.Event.from_dict(stored)
        except ValueError:
            return None
        return start if isinstance(start, ev.HandStarted) else None

    def seats(self) -> dict[int, str]:
        """Seat -> player id of everyone dealt in."""
        start = self.start
        return {} if start is None else {seat: pid for seat, pid, _stack in start.seats}

    def seat_of(self, user_id: int) -> int | None:
        return next((s for s, pid in self.seats().items() if pid == str(user_id)), None)


def table_names(table: TableRow) -> dict[str, str]:
    """Player id -> display name, from the table snapshot's ``meta.names`` (house players
    named in the table's language, as its message names them: :func:`tables.live.shown_names`)."""
    try:
        meta = json.loads(table.state_json or "{}").get("meta", {})
        names = {str(k): str(v) for k, v in meta.get("names", {}).items()}
        chosen = meta.get("language")
    except (ValueError, AttributeError):
        return {}
    language = table_language(chosen if isinstance(chosen, str) else None, table.guild_id)
    return shown_names(names, language)


def _hand_config(record: HandRecord) -> engine.TableConfig | None:
    """The table's configuration the hand was dealt with (its stakes: a tournament's level);
    for a hand recorded before that was kept, the table's own."""
    try:
        return engine.TableConfig.from_dict(
            json.loads(record.hand.config_json or record.table.config_json)
        )
    except (ValueError, KeyError, TypeError):
        return None


async def load_hand(db: Database, hand_id: int, guild_id: int | None) -> HandRecord:
    """A finished hand of this server, or :class:`HistoryProblem` saying why not."""
    try:
        hand: Hand = await db.get_hand(hand_id)
    except NotFound as exc:
        raise HistoryProblem(_("There is no hand\u00a0#{hand}.", hand=str(hand_id))) from exc
    if hand.guild_id != guild_id:
        raise HistoryProblem(_("There is no hand\u00a0#{hand} in this server.", hand=str(hand_id)))
    if hand.in_progress:
        raise HistoryProblem(
            _(
                "Hand\u00a0#{hand} is still being played. Its history (and its deck) opens when "
                "the hand is over.",
                hand=str(hand_id),
            )
        )
    try:
        rows = await db.hand_events(hand_id)
        secrets_: HandSecrets = await db.hand_secrets(hand_id)
        table: TableRow = await db.get_table(hand.table_id)
    except HandInProgress as exc:
        raise HistoryProblem(
            _("Hand\u00a0#{hand} is still being played.", hand=str(hand_id))
        ) from exc
    events = []
    for row in rows:
        try:
            data = json.loads(row.event_json)
        except ValueError:
            continue
        if isinstance(data, dict):
            events.append(data)
    try:
        result = json.loads(hand.result_json or "{}")
    except ValueError:
        result = {}
    return HandRecord(
        hand,
        table,
        tuple(events),
        result if isinstance(result, dict) else {},
        secrets_,
        table_names(table),
    )


def deal_proof(record: HandRecord, viewer_seat: int | None) -> DealProof | None:
    """The proof of the cards ``viewer_seat`` saw (``None``: what everyone saw), against the
    commitment published when the hand was dealt; ``None`` for a hand of the old scheme.

    :raises ValueError: when the stored deal record can't be read.
    """
    s = record.secrets
    if not DealCommitment.is_encoded(s.deck):
        return None
    deal = DealCommitment.parse(s.deck, s.salt)
    events = [e for e in read_events(record.events) if not isinstance(e, str)]
    withheld = seed_withheld(events)
    reshuffles = sum(isinstance(e, ev.Reshuffled) for e in events)
    proof = deal.open(
        record.hand.hand_id,
        "everyone" if viewer_seat is None else f"seat {viewer_seat}",
        cards_to_open(events, viewer_seat) & set(deal.deck),
        with_seed=reshuffles > 0 and not withheld,
        dealt=dealt_to(deal.deck, events),
    )
    # Checked against the root the players saw, not one recomputed from what is stored now.
    return dataclasses.replace(
        proof, root=s.commitment, reshuffles=reshuffles, seed_withheld=withheld
    )


def fairness_embed(record: HandRecord, viewer_seat: int | None = None) -> discord.Embed:
    """Whether the deal matches the commitment shown before the first action, what is opened
    for ``viewer_seat`` and how to check it without the bot."""
    try:
        proof = deal_proof(record, viewer_seat)
    except ValueError as exc:  # a record the bot does not write: it can't match
        log.warning("hand %s: unreadable deal record: %s", record.hand.hand_id, exc)
        return _mismatch(record, _("the stored deal can't be read"))
    if proof is None:
        return _old_fairness_embed(record)
    problems = [engine_text.engine_text(problem) for problem in proof.problems()]
    # The bot holds the whole deck: it also checks the leaves nobody is shown, and that every
    # card the hand showed is one of the deck's.
    deal = DealCommitment.parse(record.secrets.deck, record.secrets.salt)
    if deal.root() != proof.root:
        problems.append(_("the stored deck and secret no longer give the commitment"))
    shown = [e for e in read_events(record.events) if not isinstance(e, str)]
    if not cards_seen(shown, viewer_seat) <= set(deal.deck):
        problems.append(_("a card of the hand is not in the committed deck"))
    if problems:
        return _mismatch(record, "; ".join(problems))
    hand_id = record.hand.hand_id
    cards = proof.cards()
    readable = [e for e in read_events(record.events) if not isinstance(e, str)]
    public = cards_seen(readable, None)

    def listed(mine: bool) -> str:
        return " · ".join(
            _opened(position, card.display, proof.dealt_to[position])
            for position, card in sorted(cards.items())
            if (card not in public) is mine
        ) or _("none")

    if proof.reshuffles == 0:
        reshuffle = _("No reshuffle.")
    elif proof.seed_withheld:
        reshuffle = _.plural(
            "Reshuffled {count} time; seed withheld: {reason}.",
            "Reshuffled {count} times; seed withheld: {reason}.",
            count=proof.reshuffles,
            reason=engine_text.engine_text(str(proof.seed_withheld)),
        )
    else:
        reshuffle = _.plural(
            "Reshuffled {count} time; reshuffle seed `{seed}` opened.",
            "Reshuffled {count} times; reshuffle seed `{seed}` opened.",
            count=proof.reshuffles,
            seed=str(proof.seed()),
        )
    embed = discord.Embed(
        title=_("Fair deal · hand {hand}: ✅ the deal matches its commitment", hand=str(hand_id)),
        colour=kit.GREEN,
    )
    commitment = record.secrets.commitment
    if viewer_seat is None:
        opened = _.plural(
            "Opened for everyone: {count} card of {deck} (position: card, where it was dealt); "
            "no other card is revealed.",
            "Opened for everyone: {count} cards of {deck} (position: card, where it was dealt); "
            "no other card is revealed.",
            count=len(cards),
            deck=proof.deck_size,
        )
    else:
        opened = _.plural(
            "Opened for you: {count} card of {deck} (position: card, where it was dealt); "
            "no other card is revealed.",
            "Opened for you: {count} cards of {deck} (position: card, where it was dealt); "
            "no other card is revealed.",
            count=len(cards),
            deck=proof.deck_size,
        )
    lines = [
        _("Commitment (Merkle root, shown when dealt): `{commitment}`", commitment=commitment),
        opened,
        _("Shown to everyone: {cards}", cards=listed(False)),
    ]
    if viewer_seat is not None:
        lines.append(_("Yours alone: {cards}", cards=listed(True)))
    lines.append(reshuffle)
    lines.append(
        # Translators: the commands, the file names and the script's path stay as they are.
        _(
            "**Check it yourself**: `/poker verify hand:{hand}` attaches "
            "`hand-{hand}-proof.json`; `python3 tests/verify_deal.py` (or the few lines on the "
            "documentation's Fair deals page) checks each opened card against the commitment.",
            hand=str(hand_id),
        )
    )
    embed.description = kit.fit_lines(lines, DESCRIPTION_LIMIT)
    return embed


def _opened(position: int, card: str, where: str) -> str:
    """One opened card of a proof: its position in the deck, the card, where it was dealt
    (the engine's ``"seat <n>"``, ``"burn"`` or ``"board"``; empty after a reshuffle)."""
    if not where:
        # Translators: an opened card of the deck: its position, then the card.
        return _("{position}: {card}", position=position, card=card)
    seat = where.removeprefix("seat ")
    if seat != where and seat.isdigit():
        # The proof file counts seats from 0, as the engine does; the summary numbers them as
        # the table and the replay show them, from 1.
        # Translators: an opened card of the deck, dealt to a seat: "12: 7♣ (seat 3)".
        return _(
            "{position}: {card} (seat {seat})", position=position, card=card, seat=int(seat) + 1
        )
    if where == "burn":
        # Translators: an opened card of the deck that was burned: "12: 7♣ (burn)".
        return _("{position}: {card} (burn)", position=position, card=card)
    if where == "board":
        # Translators: an opened card of the deck dealt face up to the board.
        return _("{position}: {card} (board)", position=position, card=card)
    return _("{position}: {card} ({where})", position=position, card=card, where=where)


def _mismatch(record: HandRecord, reason: str) -> discord.Embed:
    embed = discord.Embed(
        title=_(
            "Fair deal · hand {hand}: ❌ the deal does NOT match", hand=str(record.hand.hand_id)
        ),
        colour=kit.RED,
    )
    embed.description = _(
        "Commitment (shown when dealt): `{commitment}`\n{reason}",
        commitment=record.secrets.commitment,
        reason=reason,
    )[:DESCRIPTION_LIMIT]
    return embed


def _old_fairness_embed(record: HandRecord) -> discord.Embed:
    """A hand of the first scheme: one hash over the whole deck, which it reveals."""
    s = record.secrets
    try:
        deck_record = DeckRecord.parse(s.deck)
    except ValueError:  # not as the bot writes it: shown as stored, and it can't match
        ok = False
        deck, _bar, seed = s.deck.rpartition("|")
    else:
        ok = deck_record.verify(s.commitment, s.salt)
        deck = " ".join(str(card) for card in deck_record.deck)
        seed = str(deck_record.seed)
    preimage = f"{deck}|{seed}|{s.salt}"
    hand = str(record.hand.hand_id)
    embed = discord.Embed(
        title=_("Fair deal · hand {hand}: ✅ the deck matches its commitment", hand=hand)
        if ok
        else _("Fair deal · hand {hand}: ❌ the deck does NOT match", hand=hand),
        colour=kit.GREEN if ok else kit.RED,
    )
    # Translators: `<deck>|<seed>|<salt>` and the shell command stay as they are.
    embed.description = _(
        "Commitment (shown when dealt): `{commitment}`\n"
        "Salt: `{salt}`\nReshuffle seed: `{seed}`\n"
        "Deck, top card first:\n```\n{deck}\n```\n"
        "**Check it yourself**: the SHA-256 of `<deck>|<seed>|<salt>` must equal the "
        "commitment, e.g. `printf '%s' '{preimage}' | sha256sum` (or `/poker verify`).",
        commitment=s.commitment,
        salt=s.salt,
        seed=seed,
        deck=deck,
        preimage=preimage,
    )[:DESCRIPTION_LIMIT]
    return embed


def _header(record: HandRecord, viewer_seat: int | None) -> str:
    hand = record.hand
    config = _hand_config(record)
    parts = [
        # Translators: {when} is a date and time Discord writes in the reader's language.
        _(
            "Table {table}, hand\u00a0#{number} · dealt {when}",
            table=str(hand.table_id),
            number=str(hand.number),
            when=kit.when(hand.started_at, "f"),
        )
    ]
    if config is not None:
        structure, forced = config.stakes
        parts.append(
            _(
                "{structure} · {forced_bets}",
                structure=engine_text.engine_text(structure.label),
                forced_bets=engine_text.engine_text(forced.label),
            )
        )
    if viewer_seat is None:
        parts.append(_("*You were not dealt in: only what everyone saw is shown.*"))
    else:
        parts.append(_("*Your own cards are shown; other players' only where they showed them.*"))
    return "\n".join(parts)


def _pack(lines: Sequence[str], title: str, proof: discord.Embed) -> list[list[discord.Embed]]:
    """Lines into embeds (descriptions up to :data:`CHUNK` characters) and embeds into
    messages (up to :data:`MESSAGE_BUDGET` characters and 10 embeds each), then the proof."""
    messages: list[list[discord.Embed]] = [[]]
    size = 0

    def add(embed: discord.Embed) -> None:
        nonlocal size
        if messages[-1] and (
            size + len(embed) > MESSAGE_BUDGET or len(messages[-1]) >= EMBEDS_PER_MESSAGE
        ):
            messages.append([])
            size = 0
        messages[-1].append(embed)
        size += len(embed)

    def embed_of(text: str) -> discord.Embed:
        heading = title if not messages[0] else _("{title} (continued)", title=title)
        return discord.Embed(title=heading, description=text, colour=kit.GOLD)

    def room() -> int:
        return min(CHUNK, MESSAGE_BUDGET - size - len(title) - 20)

    def next_message_if_full() -> None:
        nonlocal size
        if messages[-1] and room() < LINE_LIMIT:
            messages.append([])
            size = 0

    text = ""
    for line in lines:
        if text and len(text) + 1 + len(line) > room():
            add(embed_of(text))
            text = ""
        if not text:
            next_message_if_full()
        text = f"{text}\n{line}" if text else line
    if text:
        add(embed_of(text))
    add(proof)
    return messages


def replay_messages(record: HandRecord, viewer_seat: int | None) -> list[list[discord.Embed]]:
    """The replay and the fairness data as embeds, grouped into messages within Discord's
    limits (4096 characters a description, 6000 a message, 10 embeds); a replay longer than
    :data:`MAX_MESSAGES` messages is cut short with a note."""
    hand = record.hand
    chosen = next((e for e in read_events(record.events) if isinstance(e, ev.GameChosen)), None)
    game = hand_game(hand, chosen)
    title = _("Hand {hand} · {game}", hand=str(hand.hand_id), game=game)
    lines = [_header(record, viewer_seat), *replay_lines(record.events, record.names, viewer_seat)]
    if record.result.get("voided"):
        lines.append(
            _(
                "**Void.** The hand could not be played to its end: every chip went back where "
                "it was before the deal."
            )
        )
    note = record.result.get("note")
    if note:
        text = engine_text.engine_text(str(note))
        for pid in record.seats().values():  # the engine names players by id
            text = text.replace(pid, name_of(record.names, pid))
        lines.append(_("Note: {note}", note=text))
    proof = fairness_embed(record, viewer_seat)
    messages = _pack(lines, title, proof)
    keep = len(lines)
    while len(messages) > MAX_MESSAGES and keep > 1:
        keep = max(1, keep * 9 // 10)
        more = _.plural(
            "… {count} more line is too long to show here.",
            "… {count} more lines are too long to show here.",
            count=len(lines) - keep,
        )
        cut = [*lines[:keep], more]
        messages = _pack(cut, title, proof)
    return messages


# ---------------------------------------------------------------------------------------------
# PHH export (the notation itself is engine.notation's)
# ---------------------------------------------------------------------------------------------


def phh_file(record: HandRecord, viewer_seat: int | None) -> str:
    """The hand in PHH (see :mod:`engine.notation`), as ``viewer_seat`` may see it.

    :raises PhhUnsupported: when the table's settings or the hand's events can't be read.
    """
    config = _hand_config(record)
    if config is None:
        raise PhhUnsupported("the table's settings could not be read")
    events = read_events(record.events)
    readable = [e for e in events if not isinstance(e, str)]
    if len(readable) != len(events):
        raise PhhUnsupported("this version can't read every event of the hand")
    start = next((e for e in readable if isinstance(e, ev.HandStarted)), None)
    pids = [] if start is None else [pid for _seat, pid, _stack in start.seats]
    header = PhhHeader(
        hand_id=record.hand.hand_id,
        number=record.hand.number,
        table_id=record.hand.table_id,
        started_at=record.hand.started_at,
        game_name=record.hand.variant_name,
        commitment=record.secrets.commitment,
        seat_count=config.seats,
        variant=record.hand.variant,
        names={pid: name_of(record.names, pid, markdown=False) for pid in pids},
    )
    return export_phh(config, readable, viewer_seat, header)


# ---------------------------------------------------------------------------------------------
# /poker history
# ---------------------------------------------------------------------------------------------


def hand_game(hand: Hand, chosen: ev.GameChosen | None = None) -> str:
    """The hand's game in the reader's language, as the table message named it: a dealer's
    choice (``chosen``: the hand's :class:`engine.events.GameChosen`) made again from its game
    and modifiers, since only its English name is stored; any other hand's game by the
    catalogue; the stored name when the game is no longer known."""
    if chosen is not None and chosen.name == hand.variant_name:
        return chosen_game(chosen.slug, chosen.modifiers, chosen.name)
    try:
        variant = engine.get_variant(hand.variant)
    except (KeyError, ValueError):
        return hand.variant_name
    # A name stored unlike the catalogue's (a game renamed since) is shown as it was stored.
    return (
        engine_text.variant_name(variant)
        if variant.name == hand.variant_name
        else hand.variant_name
    )


def _winners(hand: Hand, names: Mapping[str, str]) -> str:
    if hand.in_progress:
        return _("*in progress*")
    try:
        result = json.loads(hand.result_json or "{}")
    except ValueError:
        result = {}
    if not result:
        return _("*not finished (table closed)*")
    if result.get("passed_out"):
        return _("*passed out*")
    if result.get("voided"):
        # Translators: a voided hand's line in /poker history.
        return _("*void: every chip went back*")
    won: list[str] = []
    for pot in result.get("pots", []):
        for share in pot.get("shares", []):
            name = name_of(names, str(share.get("player_id")))
            if name not in won:
                won.append(name)
    if not won:
        return _("*no winner*")
    # Translators: {players} is a list of names, joined by ", ".
    return _("won by {players}", players=", ".join(won))


def history_line(hand: Hand, names: Mapping[str, str], chosen: ev.GameChosen | None = None) -> str:
    """A hand's line of /poker history (``chosen``: its dealer's choice, if it had one)."""
    game = hand_game(hand, chosen)
    # Translators: a line of /poker history; {when} is written by Discord ("2 hours ago"),
    # {commitment} is the start of the deck's hash.
    if hand.pot is None:
        return _(
            "`#{id}` hand {number} · {game} · pot – · {result} · {when} · `{commitment}`",
            id=str(hand.hand_id),
            number=str(hand.number),
            game=game,
            result=_winners(hand, names),
            when=kit.when(hand.started_at),
            commitment=hand.commitment[:COMMITMENT_PREFIX],
        )
    return _(
        "`#{id}` hand {number} · {game} · pot {pot} · {result} · {when} · `{commitment}`",
        id=str(hand.hand_id),
        number=str(hand.number),
        game=game,
        pot=hand.pot,
        result=_winners(hand, names),
        when=kit.when(hand.started_at),
        commitment=hand.commitment[:COMMITMENT_PREFIX],
    )


async def _games_chosen(db: Database, hand_ids: list[int]) -> dict[int, ev.GameChosen]:
    """Each dealer's choice hand's choice, by hand id (the first of a hand, which names it)."""
    chosen: dict[int, ev.GameChosen] = {}
    for row in await db.games_chosen(hand_ids):
        try:
            data = json.loads(row.event_json)
        except ValueError:
            continue
        if not isinstance(data, dict):
            continue
        event = read_events([data])[0]
        if isinstance(event, ev.GameChosen):
            chosen.setdefault(row.hand_id, event)
    return chosen


# ---------------------------------------------------------------------------------------------
# Who may read a table's record
# ---------------------------------------------------------------------------------------------


def may_read(interaction: Interaction, channel_id: int, players: Iterable[str]) -> bool:
    """Whether the asker may read what was played in the channel ``channel_id``: they played
    there (``players``: the ids of those who did), or they can read that channel's messages
    now, as Discord's permissions say. A private thread lets in only who may manage threads
    (the bot does not know its members); a channel the bot no longer knows, only who may
    manage the server."""
    user = interaction.user
    if str(user.id) in players:
        return True
    guild = interaction.guild
    if guild is None or not isinstance(user, discord.Member):
        return False
    channel = guild.get_channel_or_thread(channel_id)
    if channel is None:
        # Deleted, or a thread archived since (Discord sends the bot only active ones): no
        # permission says who may read it now, and asking Discord would cost the answer time.
        return user.guild_permissions.manage_guild
    perms = channel.permissions_for(user)
    if isinstance(channel, discord.Thread) and channel.is_private():
        return perms.manage_threads
    return perms.view_channel and perms.read_message_history


def _check_may_read(interaction: Interaction, table: TableRow, players: Iterable[str]) -> None:
    if not may_read(interaction, table.channel_id, players):
        raise HistoryProblem(
            _(
                "Table\u00a0#{table} plays in a channel you can't see: its hands are for the "
                "members who can.",
                table=str(table.table_id),
            )
        )


async def _table_here(db: Database, table_id: int, guild_id: int | None) -> TableRow:
    try:
        table: TableRow = await db.get_table(table_id)
    except NotFound as exc:
        raise HistoryProblem(_("There is no table\u00a0#{table}.", table=str(table_id))) from exc
    if table.guild_id != guild_id:
        raise HistoryProblem(
            _("There is no table\u00a0#{table} in this server.", table=str(table_id))
        )
    return table


async def history_page(interaction: discord.Interaction[Any], key: str, offset: int) -> PageContent:
    """The paginator's page builder for :data:`HAND_PAGES` (key: the table id)."""
    db = interaction.client.db
    if not (key.isascii() and key.isdigit() and 0 < int(key) <= MAX_ID):
        # Not an id the bot writes (a forged button): no table has it.
        raise PageRefused(_("There is no table\u00a0#{table}.", table=key))
    try:
        table = await _table_here(db, int(key), interaction.guild_id)
        names = table_names(table)
        _check_may_read(interaction, table, names)
    except HistoryProblem as exc:
        raise PageRefused(str(exc)) from exc

    async def lines_at(at: int, limit: int) -> tuple[list[str], int]:
        page = await db.list_hands(table.table_id, offset=at, limit=limit)
        chosen = await _games_chosen(db, [hand.hand_id for hand in page.items])
        return [history_line(h, names, chosen.get(h.hand_id)) for h in page.items], page.total

    # Many winners with long names may not fit ten hands to a message: shown in parts.
    fitted = await fitted_lines(lines_at, offset, PAGE_SIZE, DESCRIPTION_LIMIT)
    embed = discord.Embed(
        title=_("Hand history · table {table}", table=str(table.table_id)), colour=kit.GREEN
    )
    embed.description = fitted.text or _("No hands have been dealt at this table yet.")
    # Translators: "/poker hand <id>" is the command to type, as it is.
    embed.set_footer(
        text=_.plural(
            "{count} hand · /poker hand <id> replays one",
            "{count} hands · /poker hand <id> replays one",
            count=fitted.total,
        )
    )
    return PageContent.of_lines(embed, fitted, PAGE_SIZE)


register_pages(HAND_PAGES, history_page)


async def send_history(interaction: Interaction, table_id: int) -> None:
    """``/poker history``: the table's hands, newest first, paginated (only the asker sees and
    pages the list). A :class:`HistoryProblem` is answered by the bot's error handler."""
    table = await _table_here(interaction.client.db, table_id, interaction.guild_id)
    _check_may_read(interaction, table, table_names(table))
    await send_paginated(
        interaction, HAND_PAGES, str(table_id), ephemeral=True, owner_id=interaction.user.id
    )


# ---------------------------------------------------------------------------------------------
# /poker hand
# ---------------------------------------------------------------------------------------------


async def send_hand(interaction: Interaction, hand_id: int, *, with_phh: bool) -> None:
    """``/poker hand``: replay a finished hand for the asker (ephemeral), optionally with a
    ``.phh`` file."""
    record = await load_hand(interaction.client.db, hand_id, interaction.guild_id)
    _check_may_read(interaction, record.table, record.seats().values())
    viewer = record.seat_of(interaction.user.id)
    messages = replay_messages(record, viewer)
    content: str | None = None
    files: list[discord.File] = []
    if with_phh:
        try:
            text = phh_file(record, viewer)
        except PhhUnsupported as exc:
            content = _(
                "This hand can't be exported as PHH: {reason}.",
                reason=engine_text.engine_text(str(exc)),
            )
        else:
            files.append(
                kit.attachment(
                    text.encode(),
                    f"hand-{hand_id}.phh",
                    _("Hand {hand} in pokerkit's PHH format", hand=str(hand_id)),
                )
            )
            content = _phh_note(
                hand_id, mine=viewer is not None, replayable=text.startswith("variant = ")
            )
    first, *rest = messages
    await interaction.response.send_message(
        content=content,
        embeds=first,
        files=files,
        ephemeral=True,
        allowed_mentions=discord.AllowedMentions.none(),
    )
    for embeds in rest:
        await interaction.followup.send(
            embeds=embeds, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )


def _phh_note(hand_id: int, *, mine: bool, replayable: bool) -> str:
    """What the attached PHH file holds. ``replayable``: engine.notation wrote PHH's variant
    code first (PHH has one for the hand's game), so pokerkit can replay it."""
    name = f"hand-{hand_id}.phh"
    # Translators: {file} is the attached file's name; `_variant` is a field of the file.
    if mine and replayable:
        return _(
            "📄 `{file}`: PHH hand history (pokerkit). Your own cards are in it; other "
            "players' only where they showed them.",
            file=name,
        )
    if replayable:
        return _(
            "📄 `{file}`: PHH hand history (pokerkit). Only cards shown at the showdown are in it.",
            file=name,
        )
    if mine:
        return _(
            "📄 `{file}`: PHH hand history (pokerkit). Your own cards are in it; other "
            "players' only where they showed them. PHH has no variant code for this hand, so "
            "pokerkit can't load the file; it keeps PHH's other fields, and `_variant` names the "
            "game.",
            file=name,
        )
    return _(
        "📄 `{file}`: PHH hand history (pokerkit). Only cards shown at the showdown are in it. "
        "PHH has no variant code for this hand, so pokerkit can't load the file; it keeps "
        "PHH's other fields, and `_variant` names the game.",
        file=name,
    )


# ---------------------------------------------------------------------------------------------
# /poker verify
# ---------------------------------------------------------------------------------------------


async def send_verify(interaction: Interaction, hand_id: int) -> None:
    """``/poker verify``: the fairness summary for the asker (ephemeral) with the proof file of
    the cards they may see (a hand of the old scheme has its whole deck in the summary)."""
    record = await load_hand(interaction.client.db, hand_id, interaction.guild_id)
    _check_may_read(interaction, record.table, record.seats().values())
    viewer = record.seat_of(interaction.user.id)
    embed = fairness_embed(record, viewer)
    try:
        proof = deal_proof(record, viewer)
    except ValueError:
        proof = None  # the summary says the deal does not match
    if proof is None:
        await kit.reply(interaction, embed=embed)
        return
    file = kit.attachment(
        proof.to_json().encode(),
        f"hand-{hand_id}-proof.json",
        _("Hand {hand}: the opened leaves of its deal commitment", hand=str(hand_id)),
    )
    await interaction.response.send_message(
        embed=embed, file=file, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
    )


async def setup(bot: PokerBot) -> None:
    """Extension entry point: makes the history's paging buttons work as soon as the bot starts
    (also after a restart, before anyone has used ``/poker history``)."""
    register_pages(HAND_PAGES, history_page)


__all__ = [
    "HAND_PAGES",
    "PAGE_SIZE",
    "HandRecord",
    "HistoryProblem",
    "PhhUnsupported",
    "deal_proof",
    "fairness_embed",
    "history_line",
    "load_hand",
    "may_read",
    "phh_file",
    "read_events",
    "replay_lines",
    "replay_messages",
    "send_hand",
    "send_history",
    "send_verify",
]
