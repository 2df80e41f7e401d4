"""Hand history: ``/poker history`` lists a table's hands, ``/poker hand`` replays one.

Everything here reads what the table service stored (the data layer's ``hands`` and
``hand_events`` rows, the table's config and last snapshot); nothing is written.

* ``/poker history [table]``: the table's hands, newest first, :data:`PAGE_SIZE` a page, with
  Previous/Next buttons (:mod:`cogs.ui.paginator`, page kind :data:`HAND_PAGES`). Each line:
  hand id, number at the table, game, pot, winners, when, and the start of the deck commitment.
* ``/poker hand <id>``: a text replay of a FINISHED hand, answered ephemerally: the deal, every
  action, the draws, the showdown, the pots and the final stacks, then the fairness data
  (commitment, salt, reshuffle seed, deck order) and how to check it by hand. A hand still being
  played is refused (its history, like its deck, opens when it ends), and so is a hand of
  another server.
* ``/poker hand <id> phh:true`` also attaches ``hand-<id>.phh`` when the game is one that
  pokerkit's PHH format can describe (see :func:`phh_game`), or says why it can't.

Who sees which cards: a face-down card is shown only to its owner (the viewer's own seat, from
the hand's first event), the cards shown at the showdown to everyone, burned cards to no one.
A player who was not dealt in sees only public information. The rules come from the engine's
event classes (``_private`` fields and ``visible_to``), applied to the stored JSON events; the
PHH export follows the same rule (other players' unshown cards are written ``??``).

Note: the revealed deck order, which the commitment needs, determines every card dealt; the
replay itself never prints another player's unshown cards.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Final, cast

import discord

import engine
from cogs.ui import render
from cogs.ui.paginator import (
    PageContent,
    PageRefused,
    register_pages,
    send_paginated,
    setup_paginator,
)
from data import Hand, HandInProgress, HandSecrets, NotFound
from data import Table as TableRow
from engine import events as ev
from engine.cards import parse_card
from engine.commitment import DeckRecord
from engine.hands import Ranking
from engine.rules import Bet, BetStart, Deal, DeckKind, Draw, DrawStart, GameRules, Split

log = logging.getLogger("poker.history")

HAND_PAGES: Final = "hands"
"""The paginator's page kind for ``/poker history`` (key: the table id)."""
PAGE_SIZE = 10
"""Hands per history page (read at call time)."""
COMMITMENT_PREFIX: Final = 12

# Discord limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits).
DESCRIPTION_LIMIT: Final = 4096
EMBED_TOTAL_LIMIT: Final = 6000
EMBEDS_PER_MESSAGE: Final = 10
CHUNK: Final = 3800
"""Replay characters per embed (below the description limit, leaving room for the title)."""
MESSAGE_BUDGET: Final = EMBED_TOTAL_LIMIT - 100
"""Characters of embeds per message (titles included), with a margin."""
MAX_MESSAGES: Final = 4
"""A replay longer than this many messages is cut short, with a note."""
LINE_LIMIT: Final = 1000


class HistoryProblem(Exception):
    """A request that cannot be answered, with a reason fit to show the member."""


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
    def start(self) -> dict[str, Any] | None:
        """The hand-started event (who was dealt in, from the dealer's left)."""
        return next((e for e in self.events if e.get("type") == "hand-started"), None)

    def seats(self) -> dict[int, str]:
        """Seat -> player id of everyone dealt in."""
        start = self.start
        if start is None:
            return {}
        return {int(seat): str(pid) for seat, pid, _stack in start.get("seats", [])}

    def seat_of(self, user_id: int) -> int | None:
        return next((s for s, pid in self.seats().items() if pid == str(user_id)), None)


def table_names(table: TableRow) -> dict[str, str]:
    """Player id -> display name, from the table snapshot's ``meta.names``."""
    try:
        state = json.loads(table.state_json or "{}")
        names = state.get("meta", {}).get("names", {})
        return {str(k): str(v) for k, v in names.items()}
    except (ValueError, AttributeError):
        return {}


def name_of(names: Mapping[str, str], player_id: str, *, markdown: bool = True) -> str:
    """A display name (markdown escaped unless ``markdown`` is false); a member the snapshot
    does not name is written as a mention."""
    name = names.get(player_id)
    if not name:
        return f"<@{player_id}>"
    return discord.utils.escape_markdown(name) if markdown else name


def _table_config(table: TableRow) -> engine.TableConfig | None:
    try:
        return engine.TableConfig.from_dict(json.loads(table.config_json))
    except (ValueError, KeyError, TypeError):
        return None


async def load_hand(db: Any, hand_id: int, guild_id: int | None) -> HandRecord:
    """A finished hand of this server, or :class:`HistoryProblem` saying why not."""
    try:
        hand: Hand = await db.get_hand(hand_id)
    except NotFound as exc:
        raise HistoryProblem(f"There is no hand #{hand_id}.") from exc
    if hand.guild_id != guild_id:
        raise HistoryProblem(f"There is no hand #{hand_id} in this server.")
    if hand.in_progress:
        raise HistoryProblem(
            f"Hand #{hand_id} is still being played. Its history (and its deck) opens when the "
            "hand is over."
        )
    try:
        rows = await db.hand_events(hand_id)
        secrets_: HandSecrets = await db.hand_secrets(hand_id)
        table: TableRow = await db.get_table(hand.table_id)
    except HandInProgress as exc:
        raise HistoryProblem(f"Hand #{hand_id} is still being played.") from exc
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


# ---------------------------------------------------------------------------------------------
# Who may see what (the engine's rules, applied to stored events)
# ---------------------------------------------------------------------------------------------

_EVENT_CLASSES: Final[dict[str, type[ev.Event]]] = {
    cls.type: cls
    for cls in vars(ev).values()
    if isinstance(cls, type) and issubclass(cls, ev.Event) and cls is not ev.Event
}


def _looks_like_cards(value: Any) -> bool:
    items = value if isinstance(value, list) else [value]
    if not items or not all(isinstance(item, str) for item in items):
        return False
    try:
        for item in items:
            parse_card(item)
    except ValueError:
        return False
    return True


def private_fields(event: Mapping[str, Any]) -> tuple[str, ...]:
    """The fields of a stored event that only some seats may see."""
    cls = _EVENT_CLASSES.get(str(event.get("type")))
    if cls is None:  # an event this code does not know: hide anything that looks like cards
        return tuple(k for k, v in event.items() if k != "type" and _looks_like_cards(v))
    return cls._private


def visible_to(event: Mapping[str, Any], seat: int | None) -> bool:
    """Whether ``seat`` (``None``: someone not dealt in) may see the event's private fields.

    Applies the engine's own :meth:`engine.events.Event.visible_to` to the stored fields."""
    fields = private_fields(event)
    if not fields:
        return True
    cls = _EVENT_CLASSES.get(str(event.get("type")))
    if cls is not None:
        probe = SimpleNamespace(**{k: v for k, v in event.items() if k != "type"})
        probe._private = cls._private
        with contextlib.suppress(Exception):
            return bool(cls.visible_to(cast(Any, probe), seat))
    return seat is not None and event.get("seat") == seat


def masked(event: Mapping[str, Any], seat: int | None) -> dict[str, Any]:
    """The event as ``seat`` may see it: hidden card fields become their count."""
    data = dict(event)
    if visible_to(event, seat):
        return data
    for name in private_fields(event):
        value = data.get(name)
        if isinstance(value, list):
            data[name] = len(value)
        elif value is not None:
            data[name] = 1
    return data


# ---------------------------------------------------------------------------------------------
# The replay as text
# ---------------------------------------------------------------------------------------------


def _card(text: Any) -> str:
    try:
        return parse_card(str(text)).display
    except ValueError:
        return str(text)


def _cards(values: Any) -> str:
    if not isinstance(values, list):
        return _card(values)
    return " ".join(_card(v) for v in values) or "—"


def _count(value: Any) -> int:
    return len(value) if isinstance(value, list) else int(value or 0)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


_FORCED: Final = {
    "ante": "antes",
    "blind": "posts a blind of",
    "straddle": "straddles",
    "diablo": "puts in",
}
_ROUNDS: Final = {
    "bet": "Betting round",
    "draw": "Draw",
    "pass": "Passing",
    "arrange": "Arranging",
    "reveal": "Reveal",
    "declare": "Declaring",
}


class _Replay:
    """Turns stored events into lines of text from one seat's point of view."""

    def __init__(
        self, events: Sequence[Mapping[str, Any]], names: Mapping[str, str], viewer: int | None
    ) -> None:
        self.events = events
        self.names = names
        self.viewer = viewer
        self.showdown = False
        start = next((e for e in events if e.get("type") == "hand-started"), None)
        self.seat_pid: dict[int, str] = {}
        self.start_stacks: dict[int, int] = {}
        if start is not None:
            for seat, pid, stack in start.get("seats", []):
                self.seat_pid[int(seat)] = str(pid)
                self.start_stacks[int(seat)] = int(stack)

    def who(self, seat: Any) -> str:
        if not isinstance(seat, int):
            return "?"
        pid = self.seat_pid.get(seat)
        name = f"**{name_of(self.names, pid)}**" if pid else f"Seat {seat + 1}"
        return f"{name} (you)" if seat == self.viewer else name

    def lines(self) -> list[str]:
        out: list[str] = []
        for event in self.events:
            try:
                line = self.line(masked(event, self.viewer), visible_to(event, self.viewer))
            except (KeyError, TypeError, ValueError):
                line = self.generic(masked(event, self.viewer))
            if line:
                out.append(line[:LINE_LIMIT])
        return out

    def line(self, e: dict[str, Any], full: bool) -> str | None:
        kind = e.get("type")
        who = self.who(e.get("seat"))
        if kind == "hand-started":
            seats = [
                f"Seat {seat + 1}: {self.who(seat)} · {render.chips(stack)}"
                + (" 🔘" if seat == e.get("button") else "")
                for seat, stack in self.start_stacks.items()
            ]
            return "__Seats__ (🔘 dealer)\n" + "\n".join(seats)
        if kind == "game-chosen":
            return f"{who} chooses **{e['name']}**"
        if kind == "pot-carried":
            return f"{render.chips(e['amount'])} chips carried in ({e['reason']})"
        if kind == "forced-bet":
            verb = _FORCED.get(str(e["kind"]), str(e["kind"]))
            return f"{who} {verb} {render.chips(e['amount'])}" + (
                " (all-in)" if e["all_in"] else ""
            )
        if kind == "dealt":
            if full:
                up = " face up" if e.get("face_up") else ""
                return f"{who} is dealt {_cards(e['cards'])}{up}"
            return f"{who} is dealt {_plural(_count(e['cards']), 'card')} face down"
        if kind == "board-dealt":
            wild = f" (wild: rank {e['wild_rank']})" if e.get("wild_rank") else ""
            return f"On the table: {_cards(e['cards'])}{wild}"
        if kind == "burned":
            return None
        if kind == "round-started":
            label = _ROUNDS.get(str(e["kind"]), str(e["kind"]).title())
            return f"__{label} {e['number']}__"
        if kind == "timed-out":
            return f"⏱ {who} ran out of time"
        if kind == "folded":
            return f"{who} folds"
        if kind == "checked":
            return f"{who} checks"
        if kind == "called":
            all_in = " (all-in)" if e["all_in"] else ""
            return f"{who} calls {render.chips(e['amount'])}{all_in}"
        if kind == "bet":
            return f"{who} bets {render.chips(e['to'])}" + (" (all-in)" if e["all_in"] else "")
        if kind == "raised":
            all_in = " (all-in)" if e["all_in"] else ""
            return f"{who} raises to {render.chips(e['to'])}{all_in}"
        if kind == "bet-returned":
            return f"{render.chips(e['amount'])} uncalled returned to {who}"
        if kind == "passed-out":
            return f"Nobody opened: passed out; {render.chips(e['pot'])} stay for the next deal"
        if kind == "game-switched":
            return f"The hand goes on as **{e['game']}**"
        if kind == "drew":
            if full:
                if not e["discarded"]:
                    return f"{who} stands pat"
                return f"{who} discards {_cards(e['discarded'])} and draws {_cards(e['received'])}"
            out, got = _count(e["discarded"]), _count(e["received"])
            if out == 0 and got == 0:
                return f"{who} stands pat"
            if out == got:
                return f"{who} draws {got}"
            return f"{who} discards {out} and draws {got}"
        if kind == "reshuffled":
            return f"The stub ran short: {_plural(int(e['count']), 'card')} reshuffled"
        if kind == "openers-split":
            if full:
                return f"{who} splits openers, keeping {_cards(e['cards'])} aside"
            return f"{who} splits openers"
        if kind == "bosnian-offer":
            return f"{who} is offered {_card(e['face_up'])} face up and one card face down"
        if kind == "bosnian-kept":
            which = "face-up" if e["took_face_up"] else "face-down"
            if full:
                return f"{who} keeps {_card(e['kept'])} (the {which} card)"
            return f"{who} keeps the {which} card"
        if kind == "cards-passed":
            to = self.who(e.get("to_seat"))
            if full:
                return f"{who} passes {_cards(e['cards'])} to {to}"
            return f"{who} passes {_plural(_count(e['cards']), 'card')} to {to}"
        if kind == "arranged":
            return f"{who} sets the rollout order {_cards(e['order'])}" if full else None
        if kind == "card-revealed":
            return f"{who} turns up {_card(e['card'])}"
        if kind == "declared":
            return f"{who} declares {e['direction']}"
        if kind == "shown":
            heading = "" if self.showdown else "__Showdown__\n"
            self.showdown = True
            hands = " / ".join(str(h) for h in (e.get("high"), e.get("low")) if h)
            return f"{heading}{who} shows {_cards(e['cards'])}" + (f" — {hands}" if hands else "")
        if kind == "openers-shown":
            return f"{who} shows openers {_cards(e['cards'])}"
        if kind == "pot-awarded":
            label = "Main pot" if e["pot"] == 0 else f"Side pot {e['pot']}"
            shares = ", ".join(
                f"{self.who(seat)} wins {render.chips(amount)}"
                + ("" if half == "all" else f" ({half})")
                for seat, amount, half in e["shares"]
            )
            return f"💰 {label} ({render.chips(e['amount'])}): {shares or 'no winner'}"
        if kind == "player-left":
            return f"{who} leaves the table"
        if kind == "hand-ended":
            parts = []
            for seat, stack in e["stacks"]:
                delta = int(stack) - self.start_stacks.get(int(seat), int(stack))
                sign = "+" if delta > 0 else ""
                parts.append(f"{self.who(seat)} {render.chips(stack)} ({sign}{delta:,})")
            carried = f"\n{render.chips(e['carried'])} stay in the middle" if e["carried"] else ""
            return "__Final stacks__\n" + "\n".join(parts) + carried
        return self.generic(e)

    def generic(self, e: Mapping[str, Any]) -> str:
        details = ", ".join(
            f"{k}: {_cards(v) if _looks_like_cards(v) else v}"
            for k, v in e.items()
            if k not in ("type", "seat")
        )
        who = f"{self.who(e['seat'])} · " if "seat" in e else ""
        return f"{who}{e.get('type')}: {details}"


def replay_lines(
    events: Sequence[Mapping[str, Any]], names: Mapping[str, str], viewer_seat: int | None
) -> list[str]:
    """The hand as lines of text, with private cards shown only to ``viewer_seat``."""
    return _Replay(events, names, viewer_seat).lines()


def deck_parts(secrets_: HandSecrets) -> tuple[str, str]:
    """``(deck order, reshuffle seed)`` from the stored ``"<deck>|<seed>"``."""
    deck, _, seed = secrets_.deck.rpartition("|")
    return deck, seed


def fairness_embed(record: HandRecord) -> discord.Embed:
    """The commitment, what it commits to, whether it matches, and how to check it by hand."""
    s = record.secrets
    deck, seed = deck_parts(s)
    try:
        ok = DeckRecord.parse(s.deck).verify(s.commitment, s.salt)
    except ValueError:
        ok = False
    preimage = f"{deck}|{seed}|{s.salt}"
    embed = discord.Embed(
        title=f"Fair deal · hand {record.hand.hand_id}: "
        + ("✅ the deck matches its commitment" if ok else "❌ the deck does NOT match"),
        colour=render.GREEN if ok else discord.Colour.red(),
    )
    embed.description = (
        f"Commitment (shown when dealt): `{s.commitment}`\n"
        f"Salt: `{s.salt}`\nReshuffle seed: `{seed}`\n"
        f"Deck, top card first:\n```\n{deck}\n```\n"
        "**Check it yourself**: the SHA-256 of `<deck>|<seed>|<salt>` must equal the "
        f"commitment, e.g. `printf '%s' '{preimage}' | sha256sum` (or `/poker verify`)."
    )[:DESCRIPTION_LIMIT]
    return embed


def _header(record: HandRecord, viewer_seat: int | None) -> str:
    hand = record.hand
    config = _table_config(record.table)
    parts = [f"Table {hand.table_id}, hand #{hand.number} · dealt <t:{int(hand.started_at)}:f>"]
    if config is not None:
        structure, forced = config.stakes
        parts.append(f"{structure.label} · {forced.label}")
    if viewer_seat is None:
        parts.append("*You were not dealt in: only what everyone saw is shown.*")
    else:
        parts.append("*Your own cards are shown; other players' only where they showed them.*")
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
        heading = title if not messages[0] else f"{title} (continued)"
        return discord.Embed(title=heading, description=text, colour=render.GOLD)

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
    title = f"Hand {hand.hand_id} · {hand.variant_name}"
    lines = [_header(record, viewer_seat), *replay_lines(record.events, record.names, viewer_seat)]
    note = record.result.get("note")
    if note:
        lines.append(f"Note: {note}")
    proof = fairness_embed(record)
    messages = _pack(lines, title, proof)
    keep = len(lines)
    while len(messages) > MAX_MESSAGES and keep > 1:
        keep = max(1, keep * 9 // 10)
        cut = [*lines[:keep], f"… {len(lines) - keep} more lines are too long to show here."]
        messages = _pack(cut, title, proof)
    return messages


# ---------------------------------------------------------------------------------------------
# PHH export (pokerkit's hand history format)
# ---------------------------------------------------------------------------------------------


class PhhUnsupported(Exception):
    """The hand cannot be written as PHH; ``str(exc)`` says why, for the member."""


PHH_VARIANTS: Final = {
    "N2L1D": "no-limit deuce-to-seven single draw",
    "F2L3D": "fixed-limit deuce-to-seven triple draw",
}
"""The PHH draw variants the engine can deal (PHH's third, badugi, is a four-card game)."""

PHH_FIXED_LIMIT_CAP: Final = 4
"""pokerkit's fixed-limit games allow four completions, bets or raises per betting round."""


def _plain_bet(step: Any, tier: engine.BetTier | None) -> bool:
    return (
        isinstance(step, Bet)
        and (tier is None or step.tier is tier)
        and step.scale == 1
        and step.start is BetStart.AUTO
        and step.checking
        and not step.double_min
        and not step.blind
    )


def _plain_draw(step: Any) -> bool:
    return (
        isinstance(step, Draw)
        and step.counts is None
        and step.extra == 0
        and step.start is DrawStart.DEALER_LEFT
        and not step.bosnian
        and (step.limit is None or step.limit.most <= 5)
    )


def _lowball_27(rules: GameRules) -> str | None:
    """Why the rules are not plain deuce-to-seven lowball, or None when they are."""
    if rules.deck is not DeckKind.STANDARD:
        return "PHH's draw games use the plain 52-card pack (no joker, no stripped deck)"
    if rules.wild:
        return "PHH has no wild cards"
    if not (
        rules.split is Split.LOW and rules.low is Ranking.DEUCE_TO_SEVEN and not rules.low_qualifier
    ):
        return (
            "PHH's only draw games are deuce-to-seven lowball (single draw no limit, triple draw "
            "fixed limit) and badugi; it has no five-card draw for high hands, no ace-to-five or "
            "ace-to-six lowball and no high-low split"
        )
    special = {
        "an opening requirement": rules.open_requirement is not None,
        "a progressive or jackpot rule": rules.progressive or rules.jackpot_limit,
        "a switch to another game": rules.switch_on_pass_out is not None,
        "a hand needed to win": rules.win_requirement is not None,
        "the Diablo rule": rules.opener_must_win,
        "the seven rule": rules.seven_rule,
    }
    named = [label for label, present in special.items() if present]
    if named:
        return f"PHH cannot describe {', '.join(named)}"
    return None


def phh_game(config: engine.TableConfig) -> tuple[str, dict[str, Any]]:
    """The PHH variant code and its stake fields for a table's game.

    Exportable: deuce-to-seven lowball from a plain 52-card pack, no wild cards and no special
    rules, with exactly two blinds (the player left of the dealer posts the small one; antes
    from everyone allowed), dealt as

    * ``N2L1D``: five cards, a betting round, one draw of 0 to 5 cards, a betting round, in
      no limit (``min_bet`` is the table's minimum bet);
    * ``F2L3D``: five cards and three draws, small bet for the first two betting rounds and big
      bet for the last two, in fixed limit.

    Five-card draw for high hands, ace-to-five/ace-to-six lowball, high-low games, jokers,
    pot limit, spread limit, dealer's edge, straddles and antes-only games have no PHH form;
    they raise :class:`PhhUnsupported` with the reason.
    """
    try:
        rules = config.rules()
        structure, forced = config.stakes
    except (ValueError, KeyError) as exc:
        raise PhhUnsupported(f"the game is no longer known ({exc})") from exc
    if rules.forced_bets is not None:
        forced = rules.forced_bets
    reason = _lowball_27(rules)
    if reason is not None:
        raise PhhUnsupported(reason)
    if len(forced.blinds) != 2 or forced.blinds_from_dealer or forced.dealer_edge:
        raise PhhUnsupported(
            "PHH's lowball games are played with a small and a big blind (antes optional); "
            f"this table has {forced.label}"
        )
    steps = rules.steps
    big, small = engine.BetTier.BIG, engine.BetTier.SMALL
    first = len(steps) > 0 and steps[0] == Deal(5)
    single = (
        first
        and len(steps) == 4
        and _plain_bet(steps[1], None)
        and _plain_draw(steps[2])
        and _plain_bet(steps[3], None)
    )
    triple = (
        first
        and len(steps) == 8
        and all(_plain_draw(steps[i]) for i in (2, 4, 6))
        and all(_plain_bet(steps[i], small) for i in (1, 3))
        and all(_plain_bet(steps[i], big) for i in (5, 7))
    )
    stakes: dict[str, Any] = {"blinds_or_straddles": list(forced.blinds), "ante": forced.ante}
    if single and isinstance(structure, engine.NoLimit):
        return "N2L1D", {**stakes, "min_bet": structure.min_bet}
    if triple and isinstance(structure, engine.FixedLimit):
        return "F2L3D", {**stakes, "small_bet": structure.small_bet, "big_bet": structure.big_bet}
    if single or triple:
        wanted = "no limit" if single else "fixed limit"
        raise PhhUnsupported(f"PHH has this game only in {wanted}, not {structure.label}")
    raise PhhUnsupported(
        "PHH's lowball games are single draw (no limit) and triple draw (fixed limit); this "
        "game's streets are different"
    )


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        text = json.dumps(value, ensure_ascii=False)
        return text.replace("\x7f", "\\u007f")
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(f"no TOML form for {value!r}")


def _phh_cards(cards: Any, known: bool) -> str:
    if known and isinstance(cards, list):
        return "".join(str(card) for card in cards)
    return "??" * _count(cards)


def phh_actions(
    events: Sequence[Mapping[str, Any]], viewer_seat: int | None, *, fixed_limit: bool
) -> tuple[list[str], list[int], list[int]]:
    """``(actions, starting stacks, finishing stacks)`` in PHH notation, players numbered
    from the dealer's left (the button last, as PHH does). Only ``viewer_seat``'s cards and
    the cards shown at the showdown are written; other cards are ``??``."""
    start = next((e for e in events if e.get("type") == "hand-started"), None)
    end = next((e for e in events if e.get("type") == "hand-ended"), None)
    if start is None or end is None:
        raise PhhUnsupported("the hand did not finish")
    order = [int(seat) for seat, _pid, _stack in start["seats"]]
    index = {seat: i + 1 for i, seat in enumerate(order)}
    starting = [int(stack) for _seat, _pid, stack in start["seats"]]
    final = {int(seat): int(stack) for seat, stack in end["stacks"]}
    finishing = [final.get(seat, 0) for seat in order]

    actions: list[str] = []
    deals: list[str] = []
    aggressions = 0
    short = False  # a fixed-limit all-in short of a full bet or raise, this round
    for e in events:
        kind = e.get("type")
        seat = e.get("seat")
        p = f"p{index[seat]}" if isinstance(seat, int) and seat in index else None
        known = viewer_seat is not None and seat == viewer_seat
        if kind not in ("drew", "burned", "reshuffled") and deals:
            actions.extend(deals)  # replacement cards are dealt once everyone has drawn
            deals = []
        if kind in ("hand-started", "forced-bet", "burned", "timed-out", "bet-returned"):
            continue
        if kind in ("pot-awarded", "hand-ended"):
            continue
        if kind == "round-started":
            aggressions = 0
            short = False
            continue
        if p is None and kind in ("dealt", "folded", "checked", "called", "bet", "raised"):
            raise PhhUnsupported("an action of a player who was not dealt in")
        if kind == "dealt" and not e.get("face_up"):
            actions.append(f"d dh {p} {_phh_cards(e['cards'], known)}")
        elif kind == "folded":
            actions.append(f"{p} f")
        elif kind in ("checked", "called"):
            actions.append(f"{p} cc")
        elif kind in ("bet", "raised"):
            aggressions += 1
            if fixed_limit and aggressions > PHH_FIXED_LIMIT_CAP:
                raise PhhUnsupported(
                    "a betting round had more bets and raises than PHH's fixed-limit cap of "
                    f"{PHH_FIXED_LIMIT_CAP}"
                )
            if fixed_limit and short:
                raise PhhUnsupported(
                    "a short all-in was raised in fixed limit, which pokerkit sizes differently"
                )
            short = bool(e.get("all_in")) and not e.get("full", False)
            actions.append(f"{p} cbr {int(e['to'])}")
        elif kind == "drew" and p is not None:
            discarded = _phh_cards(e["discarded"], known)
            actions.append(f"{p} sd {discarded}".rstrip())
            if _count(e["received"]) != _count(e["discarded"]):
                raise PhhUnsupported("a draw gave a different number of cards than discarded")
            if _count(e["received"]):
                deals.append(f"d dh {p} {_phh_cards(e['received'], known)}")
        elif kind == "shown" and p is not None:
            actions.append(f"{p} sm {_phh_cards(e['cards'], True)}")
        elif kind == "reshuffled":
            continue
        else:
            raise PhhUnsupported(f"PHH has no notation for this hand's “{kind}” event")
    actions.extend(deals)
    return actions, starting, finishing


def export_phh(record: HandRecord, viewer_seat: int | None) -> str:
    """The hand in PHH (pokerkit's TOML hand history), as ``viewer_seat`` may see it.

    Raises :class:`PhhUnsupported` when the game or this hand has no PHH form."""
    config = _table_config(record.table)
    if config is None:
        raise PhhUnsupported("the table's settings could not be read")
    if config.variant != record.hand.variant:
        raise PhhUnsupported("the hand was dealt as another game than the table's")
    code, stakes = phh_game(config)
    if record.result.get("passed_out") or record.result.get("carried"):
        raise PhhUnsupported("chips stayed in the middle for the next deal, which PHH can't hold")
    for e in record.events:
        if e.get("type") in ("pot-carried", "player-left", "game-chosen", "game-switched"):
            raise PhhUnsupported(f"PHH has no notation for this hand's “{e['type']}” event")
    actions, starting, finishing = phh_actions(
        record.events, viewer_seat, fixed_limit=code.startswith("F")
    )
    start = record.start or {}
    pids = [str(pid) for _seat, pid, _stack in start.get("seats", [])]
    seats = [int(seat) + 1 for seat, _pid, _stack in start.get("seats", [])]
    players = len(starting)
    blinds = stakes["blinds_or_straddles"] + [0] * max(0, players - 2)
    when = dt.datetime.fromtimestamp(record.hand.started_at, tz=dt.UTC)
    lines = [
        f"variant = {_toml(code)}",
        f"antes = {_toml([stakes['ante']] * players)}",
        f"blinds_or_straddles = {_toml(blinds[:players])}",
    ]
    for key in ("min_bet", "small_bet", "big_bet"):
        if key in stakes:
            lines.append(f"{key} = {_toml(int(stakes[key]))}")
    lines.append(f"starting_stacks = {_toml(starting)}")
    lines.append("actions = [")
    lines.extend(f"  {_toml(action)}," for action in actions)
    lines.append("]")
    lines += [
        f"hand = {record.hand.number}",
        f"table = {record.hand.table_id}",
        f"seats = {_toml(seats)}",
        f"seat_count = {config.seats}",
        f"players = {_toml([name_of(record.names, pid, markdown=False) for pid in pids])}",
        f"finishing_stacks = {_toml(finishing)}",
        f"time = {when:%H:%M:%S}",
        "time_zone = 'UTC'",
        f"day = {when.day}",
        f"month = {when.month}",
        f"year = {when.year}",
        f"_hand_id = {record.hand.hand_id}",
        f"_game = {_toml(record.hand.variant_name)}",
        f"_commitment = {_toml(record.secrets.commitment)}",
    ]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# /poker history
# ---------------------------------------------------------------------------------------------


def _winners(hand: Hand, names: Mapping[str, str]) -> str:
    if hand.in_progress:
        return "*in progress*"
    try:
        result = json.loads(hand.result_json or "{}")
    except ValueError:
        result = {}
    if not result:
        return "*not finished (table closed)*"
    if result.get("passed_out"):
        return "*passed out*"
    won: list[str] = []
    for pot in result.get("pots", []):
        for share in pot.get("shares", []):
            name = name_of(names, str(share.get("player_id")))
            if name not in won:
                won.append(name)
    return "won by " + ", ".join(won) if won else "*no winner*"


def history_line(hand: Hand, names: Mapping[str, str]) -> str:
    pot = "–" if hand.pot is None else render.chips(hand.pot)
    return (
        f"`#{hand.hand_id}` hand {hand.number} · {hand.variant_name} · pot {pot} · "
        f"{_winners(hand, names)} · <t:{int(hand.started_at)}:R> · "
        f"`{hand.commitment[:COMMITMENT_PREFIX]}`"
    )


async def _table_here(db: Any, table_id: int, guild_id: int | None) -> TableRow:
    try:
        table: TableRow = await db.get_table(table_id)
    except NotFound as exc:
        raise HistoryProblem(f"There is no table #{table_id}.") from exc
    if table.guild_id != guild_id:
        raise HistoryProblem(f"There is no table #{table_id} in this server.")
    return table


async def history_page(interaction: discord.Interaction[Any], key: str, offset: int) -> PageContent:
    """The paginator's page builder for :data:`HAND_PAGES` (key: the table id)."""
    db = interaction.client.db
    try:
        table = await _table_here(db, int(key), interaction.guild_id)
    except (HistoryProblem, ValueError) as exc:
        raise PageRefused(str(exc)) from exc
    page = await db.list_hands(table.table_id, offset=offset, limit=PAGE_SIZE)
    names = table_names(table)
    embed = discord.Embed(title=f"Hand history · table {table.table_id}", colour=render.GREEN)
    if page.items:
        embed.description = "\n".join(history_line(hand, names) for hand in page.items)
    else:
        embed.description = "No hands have been dealt at this table yet."
    embed.set_footer(text=f"{page.total} hands · /poker hand <id> replays one")
    return PageContent(embed, page.offset, page.limit, page.total)


register_pages(HAND_PAGES, history_page)


async def _reply(interaction: discord.Interaction[Any], text: str) -> None:
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def send_history(interaction: discord.Interaction[Any], table_id: int) -> None:
    """``/poker history``: the table's hands, newest first, paginated (only the asker sees and
    pages the list)."""
    setup_paginator(interaction.client)
    try:
        await _table_here(interaction.client.db, table_id, interaction.guild_id)
        await send_paginated(
            interaction,
            HAND_PAGES,
            str(table_id),
            ephemeral=True,
            owner_id=interaction.user.id,
        )
    except (HistoryProblem, PageRefused) as exc:
        await _reply(interaction, str(exc))


# ---------------------------------------------------------------------------------------------
# /poker hand
# ---------------------------------------------------------------------------------------------


async def send_hand(interaction: discord.Interaction[Any], hand_id: int, *, with_phh: bool) -> None:
    """``/poker hand``: replay a finished hand for the asker (ephemeral), optionally with a
    ``.phh`` file."""
    db = interaction.client.db
    try:
        record = await load_hand(db, hand_id, interaction.guild_id)
    except HistoryProblem as exc:
        await _reply(interaction, str(exc))
        return
    viewer = record.seat_of(interaction.user.id)
    messages = replay_messages(record, viewer)
    content: str | None = None
    files: list[discord.File] = []
    if with_phh:
        try:
            text = export_phh(record, viewer)
        except PhhUnsupported as exc:
            content = f"This hand can't be exported as PHH: {exc}."
        else:
            files.append(
                discord.File(
                    io.BytesIO(text.encode()),
                    filename=f"hand-{hand_id}.phh",
                    description=f"Hand {hand_id} in pokerkit's PHH format",
                )
            )
            content = f"📄 `hand-{hand_id}.phh`: PHH hand history (pokerkit). " + (
                "Your own cards are in it; other players' only where they showed them."
                if viewer is not None
                else "Only cards shown at the showdown are in it."
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


async def setup(bot: Any) -> None:
    """Extension entry point: makes the history's paging buttons work as soon as the bot starts
    (also after a restart, before anyone has used ``/poker history``)."""
    setup_paginator(bot)
    register_pages(HAND_PAGES, history_page)


__all__ = [
    "HAND_PAGES",
    "PAGE_SIZE",
    "PHH_VARIANTS",
    "HandRecord",
    "HistoryProblem",
    "PhhUnsupported",
    "export_phh",
    "history_line",
    "load_hand",
    "phh_actions",
    "phh_game",
    "replay_lines",
    "replay_messages",
    "send_hand",
    "send_history",
    "visible_to",
]
