"""A finished hand's stored events as lines of text, from one seat's point of view.

Pure formatting (no database, no Discord calls): every stored event is read back as an engine
event (:meth:`engine.events.Event.from_dict`) and written as the engine masks it for the viewer
(:meth:`engine.events.Event.masked_for`), so a replay never shows a card the table did not show
that seat. ``/poker hand`` (:mod:`cogs.history`) packs these lines into embeds.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping, Sequence
from typing import Any, Final

import discord

from cogs import kit
from engine import events as ev
from engine.cards import Card
from engine.wording import say, sentence

__all__ = ["LINE_LIMIT", "counted", "name_of", "read_events", "replay_lines"]

log = logging.getLogger("poker.history")

LINE_LIMIT: Final = 1000
"""The longest line of a replay; longer ones are cut."""


def name_of(names: Mapping[str, str], player_id: str, *, markdown: bool = True) -> str:
    """A display name (markdown escaped unless ``markdown`` is false); a member the snapshot
    does not name is written as a mention."""
    name = names.get(player_id)
    if not name:
        return f"<@{player_id}>"
    return discord.utils.escape_markdown(name) if markdown else name


def _all_in(all_in: bool) -> str:
    return " (all-in)" if all_in else ""


def _card(card: Card) -> str:
    return card.display


def _cards(cards: tuple[Card, ...]) -> str:
    return " ".join(card.display for card in cards) or "—"


def counted(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _shown(value: Any) -> Any:
    """A field's value in a line of text (cards as players write them)."""
    if isinstance(value, Card):
        return value.display
    if isinstance(value, tuple) and value and all(isinstance(v, Card) for v in value):
        return _cards(value)
    return ev.plain(value)


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


def read_events(stored: Sequence[Mapping[str, Any]]) -> list[ev.Event | str]:
    """The stored events read back as engine events; one that can't be read (written by
    another version of the engine) is kept as its type name."""
    events: list[ev.Event | str] = []
    for data in stored:
        try:
            events.append(ev.Event.from_dict(data))
        except ValueError as exc:
            log.warning("unreadable stored event: %s", exc)
            events.append(str(data.get("type")))
    return events


class _Replay:
    """Turns a hand's events into lines of text from one seat's point of view: each event is
    formatted as the engine masks it for that seat (:meth:`engine.events.Event.masked_for`)."""

    def __init__(
        self, events: Sequence[ev.Event | str], names: Mapping[str, str], viewer: int | None
    ) -> None:
        self.events = events
        self.names = names
        self.viewer = viewer
        self.showdown = False
        start = next((e for e in events if isinstance(e, ev.HandStarted)), None)
        self.seat_pid: dict[int, str] = {}
        self.start_stacks: dict[int, int] = {}
        if start is not None:
            for seat, pid, stack in start.seats:
                self.seat_pid[seat] = pid
                self.start_stacks[seat] = stack

    def who(self, seat: int | None) -> str:
        if seat is None:
            return "?"
        pid = self.seat_pid.get(seat)
        name = f"**{name_of(self.names, pid)}**" if pid else f"Seat {seat + 1}"
        return f"{name} (you)" if seat == self.viewer else name

    def lines(self) -> list[str]:
        out: list[str] = []
        for event in self.events:
            if isinstance(event, str):
                line: str | None = f"*An event this version can't show ({event}).*"
            else:
                view = event.masked_for(self.viewer)
                line = self.masked(view) if isinstance(view, ev.Masked) else self.line(view)
            if line:
                out.append(line[:LINE_LIMIT])
        return out

    def masked(self, view: ev.Masked) -> str | None:
        """An event with cards this seat may not see: only their number is told."""
        who = self.who(view.shown.get("seat"))
        n = view.counts
        kind = view.kind
        if kind is ev.Dealt:
            return f"{who} is dealt {counted(n['cards'], 'card')} face down"
        if kind in (ev.Burned, ev.Arranged):
            return None
        if kind is ev.Drew:
            out, got = n["discarded"], n["received"]
            if out == 0 and got == 0:
                return say("stood-pat", who=who)
            if out == got:
                return f"{who} draws {got}"
            return f"{who} discards {out} and draws {got}"
        if kind is ev.OpenersSplit:
            return f"{who} splits openers"
        if kind is ev.BosnianOffer:
            return say("bosnian-offer", who=who, card=_card(view.shown["face_up"]))
        if kind is ev.BosnianKept:
            which = "face-up" if view.shown["took_face_up"] else "face-down"
            return f"{who} keeps the {which} card"
        if kind is ev.CardsPassed:
            to = self.who(view.shown["to_seat"])
            return say("cards-passed", who=who, cards=counted(n["cards"], "card"), to=to)
        if kind is ev.LastCardDealt:
            return f"{who} is dealt the last card, face down"
        if kind is ev.Mucked:
            return f"{who} mucks, unseen"
        return self.generic(view.to_dict(), view.shown)

    def line(self, e: ev.Event) -> str | None:
        who = self.who(getattr(e, "seat", None))
        match e:
            case ev.HandStarted(button=button):
                seats = [
                    f"Seat {seat + 1}: {self.who(seat)} · {kit.chips(stack)}"
                    + (" 🔘" if seat == button else "")
                    for seat, stack in self.start_stacks.items()
                ]
                return "__Seats__ (🔘 dealer)\n" + "\n".join(seats)
            case ev.GameChosen(name=name):
                return say("game-chosen", who=who, game=f"**{name}**")
            case ev.PotCarried(amount=amount, reason=reason):
                return say("pot-carried", amount=kit.chips(amount), reason=reason)
            case ev.ForcedBet(kind=kind, amount=amount, all_in=all_in):
                verb = _FORCED.get(kind, kind)
                return f"{who} {verb} {kit.chips(amount)}" + (" (all-in)" if all_in else "")
            case ev.Dealt(cards=cards, face_up=face_up):
                return f"{who} is dealt {_cards(cards)}{' face up' if face_up else ''}"
            case ev.BoardDealt(cards=cards, wild_rank=wild_rank):
                wild = f" (wild: rank {wild_rank})" if wild_rank else ""
                return f"On the table: {_cards(cards)}{wild}"
            case ev.Burned():
                return None
            case ev.RoundStarted(kind=kind, number=number):
                return f"__{_ROUNDS.get(kind, kind.title())} {number}__"
            case ev.TimedOut():
                return f"⏱ {say('timed-out', who=who)}"
            case ev.Folded() | ev.Checked():
                return say(e.type, who=who)
            case ev.Called(amount=amount, all_in=all_in):
                return say("called", who=who, amount=kit.chips(amount)) + _all_in(all_in)
            case ev.BetPlaced(to=to, all_in=all_in) | ev.Raised(to=to, all_in=all_in):
                return say(e.type, who=who, amount=kit.chips(to)) + _all_in(all_in)
            case ev.BetReturned(amount=amount):
                return f"{kit.chips(amount)} uncalled returned to {who}"
            case ev.PassedOut(pot=pot):
                return sentence(say("passed-out", amount=kit.chips(pot)))
            case ev.GameSwitched(game=game):
                return sentence(say("game-switched", game=f"**{game}**"))
            case ev.Drew(discarded=discarded, received=received):
                if not discarded:
                    return say("stood-pat", who=who)
                return f"{who} discards {_cards(discarded)} and draws {_cards(received)}"
            case ev.Reshuffled(count=count):
                return sentence(say("reshuffled", cards=counted(count, "card")))
            case ev.OpenersSplit(cards=cards):
                return say("openers-split", who=who, cards=_cards(cards))
            case ev.BosnianOffer(face_up=face_up):
                return say("bosnian-offer", who=who, card=_card(face_up))
            case ev.BosnianKept(took_face_up=took_face_up, kept=kept):
                which = "face-up" if took_face_up else "face-down"
                return say("bosnian-kept", who=who, card=_card(kept), which=which)
            case ev.CardsPassed(to_seat=to_seat, cards=cards):
                return say("cards-passed", who=who, cards=_cards(cards), to=self.who(to_seat))
            case ev.Arranged(order=order):
                return say("arranged", who=who, cards=_cards(order))
            case ev.CardRevealed(card=card):
                return say("card-revealed", who=who, card=_card(card))
            case ev.Declared(direction=direction):
                return say("declared", who=who, direction=direction)
            case ev.Shown(cards=cards):
                heading = "" if self.showdown else "__Showdown__\n"
                self.showdown = True
                hands = " / ".join(h for h in (e.high, e.low) if h)
                return f"{heading}{who} shows {_cards(cards)}" + (f" — {hands}" if hands else "")
            case ev.OpenersShown(cards=cards):
                return say("openers-shown", who=who, cards=_cards(cards))
            case ev.Mucked(cards=cards):
                # Only the player who mucked sees this line (the event is masked for others).
                return f"{who} mucks {_cards(cards)} (nobody else saw them)"
            case ev.PotAwarded(pot=pot, amount=amount, shares=shares):
                label = "Main pot" if pot == 0 else f"Side pot {pot}"
                won = ", ".join(
                    f"{self.who(seat)} wins {kit.chips(chips)}"
                    + ("" if half == "all" else f" ({half})")
                    for seat, chips, half in shares
                )
                return f"💰 {label} ({kit.chips(amount)}): {won or 'no winner'}"
            case ev.PlayerLeft():
                return say("player-left", who=who)
            case ev.LastCardDealt(card=card):
                return f"{who} is dealt the last card, {_card(card)}"
            case ev.HandEnded(stacks=stacks, carried=carried):
                parts = []
                for seat, stack in stacks:
                    delta = stack - self.start_stacks.get(seat, stack)
                    parts.append(f"{self.who(seat)} {kit.chips(stack)} ({kit.signed(delta)})")
                left = f"\n{kit.chips(carried)} stay in the middle" if carried else ""
                return "__Final stacks__\n" + "\n".join(parts) + left
        values = {f.name: getattr(e, f.name) for f in dataclasses.fields(e)}  # type: ignore[arg-type]
        return self.generic(e.to_dict(), values)

    def generic(self, data: Mapping[str, Any], values: Mapping[str, Any]) -> str:
        """A line for an event kind added to the engine after this replay: its fields as the
        seat may see them (``data``, hidden cards counted), cards written out."""
        details = ", ".join(
            f"{k}: {_shown(values[k]) if k in values else v}"
            for k, v in data.items()
            if k not in ("type", "seat")
        )
        who = f"{self.who(data['seat'])} · " if isinstance(data.get("seat"), int) else ""
        return f"{who}{data.get('type')}: {details}"


def replay_lines(
    events: Sequence[Mapping[str, Any]], names: Mapping[str, str], viewer_seat: int | None
) -> list[str]:
    """The hand (its stored events) as lines of text, with private cards shown only to
    ``viewer_seat``."""
    return _Replay(read_events(events), names, viewer_seat).lines()
