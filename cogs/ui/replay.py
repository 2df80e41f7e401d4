"""A finished hand's stored events as lines of text, from one seat's point of view.

Pure formatting (no database, no Discord calls): every stored event is read back as an engine
event (:meth:`engine.events.Event.from_dict`) and written as the engine masks it for the viewer
(:meth:`engine.events.Event.masked_for`), so a replay never shows a card the table did not show
that seat. ``/poker hand`` (:mod:`cogs.history`) packs these lines into embeds.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from cogs import kit
from cogs.translator import _
from cogs.ui.render import signed
from engine import events as ev
from engine.cards import Card
from engine.modifiers import game_name
from engine.variants import get_variant
from engine.wording import sentence
from i18n.engine_text import engine_text, hand_name
from i18n.engine_text import say as engine_say
from i18n.poker_words import HAND_NAMES, LOW_HAND, RANK_WORDS, ROYAL_FLUSH, direction_word

__all__ = ["LINE_LIMIT", "chosen_game", "counted", "name_of", "read_events", "replay_lines"]

log = logging.getLogger("poker.history")

LINE_LIMIT: Final = 1000
"""The longest line of a replay; longer ones are cut."""


def name_of(names: Mapping[str, str], player_id: str, *, markdown: bool = True) -> str:
    """A display name (as typed, :func:`cogs.kit.as_typed`, unless ``markdown`` is false); a
    member the snapshot does not name is written as a mention."""
    name = names.get(player_id)
    if not name:
        return kit.mention(player_id)
    return kit.as_typed(name) if markdown else name


def say(kind: str, **blanks: Any) -> str:
    """The engine's words for an event of ``kind``, in the reader's language."""
    return engine_say(kind, **blanks)


def _name_pattern(template: str) -> re.Pattern[str]:
    """A regex reading an English hand name made from ``template`` (each placeholder a rank
    word, named by the placeholder)."""
    parts = re.split(r"\{(\w+)\}", template)
    pattern = "".join(
        f"(?P<{part}>[a-z]+)" if i % 2 else re.escape(part) for i, part in enumerate(parts)
    )
    return re.compile(f"^{pattern}$", re.IGNORECASE)


_NAME_PATTERNS: Final = [
    (_name_pattern(ROYAL_FLUSH.message), ROYAL_FLUSH),
    (_name_pattern(LOW_HAND.message), LOW_HAND),
    *((_name_pattern(template.message), template) for template in HAND_NAMES.values()),
]
_RANKS: Final = {
    word.message: (rank, plural)
    for rank, words in RANK_WORDS.items()
    for plural, word in enumerate(words)
}


def stored_hand_name(name: str) -> str:
    """A hand's name as a stored event holds it (the engine's English: a stored hand keeps
    names, not values) in the reader's language, read back by the names' own patterns; a
    name of another shape goes through the engine's catalogue as it is.

    >>> stored_hand_name("Full house, nines over kings")
    'Full house, nines over kings'
    """
    for pattern, template in _NAME_PATTERNS:
        found = pattern.match(name)
        if found is None:
            continue
        words = {key: _RANKS.get(value.lower()) for key, value in found.groupdict().items()}
        if any(word is None for word in words.values()):
            continue
        values = {
            key: RANK_WORDS[rank][plural].render()
            for key, (rank, plural) in ((k, w) for k, w in words.items() if w is not None)
        }
        return sentence(template.render(None, **values))
    return engine_text(name)


def chosen_game(slug: str, modifiers: Sequence[str], name: str) -> str:
    """A dealer's choice in the reader's language: the stored name is the engine's English,
    so the name is made again from the game and its modifiers (as stored when the game is no
    longer known, or was named otherwise then)."""
    try:
        made = game_name(get_variant(slug).name, modifiers)
    except ValueError:
        return engine_text(name)
    return engine_text(made) if made == name else engine_text(name)


def _all_in(text: str, all_in: bool) -> str:
    # Translators: a replay line of a player who went all-in with it ({line}: what they did).
    return _("{line} (all-in)", line=text) if all_in else text


def _card(card: Card) -> str:
    return card.display


def _cards(cards: tuple[Card, ...]) -> str:
    return " ".join(card.display for card in cards) or "—"


def counted(n: int, word: str) -> str:
    """``n`` cards (the only thing a replay counts), in the reader's language."""
    if word == "card":
        return _.plural("{count} card", "{count} cards", count=n)
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _shown(value: Any) -> Any:
    """A field's value in a line of text (cards as players write them)."""
    if isinstance(value, Card):
        return value.display
    if isinstance(value, tuple) and value and all(isinstance(v, Card) for v in value):
        return _cards(value)
    return ev.plain(value)


_FORCED: Final = {
    "ante": _.lazy("{who} antes {amount}"),
    "blind": _.lazy("{who} posts a blind of {amount}"),
    "straddle": _.lazy("{who} straddles {amount}"),
    "diablo": _.lazy("{who} puts in {amount}"),
}
# Translators: the heading of a round in a hand's replay; {number}: 1, 2, 3...
_ROUNDS: Final = {
    "bet": _.lazy("__Betting round {number}__"),
    "draw": _.lazy("__Draw {number}__"),
    "pass": _.lazy("__Passing {number}__"),
    "arrange": _.lazy("__Arranging {number}__"),
    "reveal": _.lazy("__Reveal {number}__"),
    "declare": _.lazy("__Declaring {number}__"),
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
        name = f"**{name_of(self.names, pid)}**" if pid else _("Seat {number}", number=seat + 1)
        # Translators: the reader's own name in a replay.
        return _("{name} (you)", name=name) if seat == self.viewer else name

    def lines(self) -> list[str]:
        out: list[str] = []
        for event in self.events:
            if isinstance(event, str):
                line: str | None = _("*An event this version can't show ({event}).*", event=event)
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
            return _.plural(
                "{who} is dealt {count} card face down",
                "{who} is dealt {count} cards face down",
                count=n["cards"],
                who=who,
            )
        if kind in (ev.Burned, ev.Arranged):
            return None
        if kind is ev.Drew:
            out, got = n["discarded"], n["received"]
            if out == 0 and got == 0:
                return say("stood-pat", who=who)
            if out == got:
                return _("{who} draws {count}", who=who, count=got)
            return _("{who} discards {out} and draws {count}", who=who, out=out, count=got)
        if kind is ev.OpenersSplit:
            return _("{who} splits openers", who=who)
        if kind is ev.BosnianOffer:
            return say("bosnian-offer", who=who, card=_card(view.shown["face_up"]))
        if kind is ev.BosnianKept:
            if view.shown["took_face_up"]:
                return _("{who} keeps the face-up card", who=who)
            return _("{who} keeps the face-down card", who=who)
        if kind is ev.CardsPassed:
            to = self.who(view.shown["to_seat"])
            return say("cards-passed", who=who, cards=counted(n["cards"], "card"), to=to)
        if kind is ev.LastCardDealt:
            return _("{who} is dealt the last card, face down", who=who)
        if kind is ev.Mucked:
            return _("{who} mucks, unseen", who=who)
        return self.generic(view.to_dict(), view.shown)

    def line(self, e: ev.Event) -> str | None:
        who = self.who(getattr(e, "seat", None))
        match e:
            case ev.HandStarted(button=button):
                seats = [
                    _(
                        "Seat {number}: {who} · {stack}",
                        number=seat + 1,
                        who=self.who(seat),
                        stack=stack,
                    )
                    + (" 🔘" if seat == button else "")
                    for seat, stack in self.start_stacks.items()
                ]
                return "\n".join([_("__Seats__ (🔘 dealer)"), *seats])
            case ev.GameChosen(slug=slug, modifiers=modifiers, name=name):
                return say("game-chosen", who=who, game=f"**{chosen_game(slug, modifiers, name)}**")
            case ev.PotCarried(amount=amount, reason=reason):
                return say("pot-carried", amount=kit.chips(amount), reason=engine_text(reason))
            case ev.ForcedBet(kind=kind, amount=amount, all_in=all_in):
                forced = _FORCED.get(kind)
                if forced is None:
                    text = f"{who} {engine_text(kind)} {kit.chips(amount)}"
                else:
                    text = forced.render(who=who, amount=amount)
                return _all_in(text, all_in)
            case ev.Dealt(cards=cards, face_up=face_up):
                if face_up:
                    return _("{who} is dealt {cards} face up", who=who, cards=_cards(cards))
                return _("{who} is dealt {cards}", who=who, cards=_cards(cards))
            case ev.BoardDealt(cards=cards, wild_rank=wild_rank):
                if wild_rank:
                    return _(
                        "On the table: {cards} (wild: rank {rank})",
                        cards=_cards(cards),
                        rank=str(wild_rank),
                    )
                return _("On the table: {cards}", cards=_cards(cards))
            case ev.Burned():
                return None
            case ev.RoundStarted(kind=kind, number=number):
                heading = _ROUNDS.get(kind)
                if heading is None:
                    return f"__{engine_text(kind.title())} {number}__"
                return heading.render(number=number)
            case ev.TimedOut():
                return f"⏱ {say('timed-out', who=who)}"
            case ev.Folded() | ev.Checked():
                return say(e.type, who=who)
            case ev.Called(amount=amount, all_in=all_in):
                return _all_in(say("called", who=who, amount=kit.chips(amount)), all_in)
            case ev.BetPlaced(to=to, all_in=all_in) | ev.Raised(to=to, all_in=all_in):
                return _all_in(say(e.type, who=who, amount=kit.chips(to)), all_in)
            case ev.BetReturned(amount=amount):
                return _("{amount} uncalled returned to {who}", amount=amount, who=who)
            case ev.PassedOut(pot=pot):
                return sentence(say("passed-out", amount=kit.chips(pot)))
            case ev.GameSwitched(game=game):
                return sentence(say("game-switched", game=f"**{engine_text(game)}**"))
            case ev.Drew(discarded=discarded, received=received):
                if not discarded:
                    return say("stood-pat", who=who)
                return _(
                    "{who} discards {discarded} and draws {received}",
                    who=who,
                    discarded=_cards(discarded),
                    received=_cards(received),
                )
            case ev.Reshuffled(count=count):
                return sentence(say("reshuffled", cards=counted(count, "card")))
            case ev.OpenersSplit(cards=cards):
                return say("openers-split", who=who, cards=_cards(cards))
            case ev.BosnianOffer(face_up=face_up):
                return say("bosnian-offer", who=who, card=_card(face_up))
            case ev.BosnianKept(took_face_up=took_face_up, kept=kept):
                # Translators: which of the two offered cards a player keeps (Bosnian draw).
                which = _("face-up") if took_face_up else _("face-down")
                return say("bosnian-kept", who=who, card=_card(kept), which=which)
            case ev.CardsPassed(to_seat=to_seat, cards=cards):
                return say("cards-passed", who=who, cards=_cards(cards), to=self.who(to_seat))
            case ev.Arranged(order=order):
                return say("arranged", who=who, cards=_cards(order))
            case ev.CardRevealed(card=card):
                return say("card-revealed", who=who, card=_card(card))
            case ev.Declared(direction=direction):
                return say("declared", who=who, direction=direction_word(direction))
            case ev.Shown(cards=cards):
                title = None if self.showdown else _("__Showdown__")
                self.showdown = True
                high = hand_name(e.high_value) if e.high_value else e.high
                low = hand_name(e.low_value) if e.low_value else e.low
                high = high if e.high_value or not high else stored_hand_name(high)
                low = low if e.low_value or not low else stored_hand_name(low)
                if high and low:
                    line = _(
                        "{who} shows {cards} — {high} / {low}",
                        who=who,
                        cards=_cards(cards),
                        high=high,
                        low=low,
                    )
                elif high or low:
                    line = _(
                        "{who} shows {cards} — {hand}",
                        who=who,
                        cards=_cards(cards),
                        hand=high or low,
                    )
                else:
                    line = _("{who} shows {cards}", who=who, cards=_cards(cards))
                return line if title is None else f"{title}\n{line}"
            case ev.OpenersShown(cards=cards):
                return say("openers-shown", who=who, cards=_cards(cards))
            case ev.Mucked(cards=cards):
                # Only the player who mucked sees this line (the event is masked for others).
                return _("{who} mucks {cards} (nobody else saw them)", who=who, cards=_cards(cards))
            case ev.PotAwarded(pot=pot, amount=amount, shares=shares):
                label = _("Main pot") if pot == 0 else _("Side pot {number}", number=pot)
                won = ", ".join(
                    _("{who} wins {amount}", who=self.who(seat), amount=chips)
                    if half == "all"
                    else _(
                        "{who} wins {amount} ({half})",
                        who=self.who(seat),
                        amount=chips,
                        half=_("high") if half == "high" else _("low") if half == "low" else half,
                    )
                    for seat, chips, half in shares
                )
                if not won:
                    return _("💰 {pot} ({amount}): no winner", pot=label, amount=amount)
                return _("💰 {pot} ({amount}): {winners}", pot=label, amount=amount, winners=won)
            case ev.PlayerLeft():
                return say("player-left", who=who)
            case ev.LastCardDealt(card=card):
                return _("{who} is dealt the last card, {card}", who=who, card=_card(card))
            case ev.HandEnded(stacks=stacks, carried=carried):
                parts = [_("__Final stacks__")]
                for seat, stack in stacks:
                    delta = stack - self.start_stacks.get(seat, stack)
                    parts.append(
                        _(
                            "{who} {stack} ({net})",
                            who=self.who(seat),
                            stack=stack,
                            net=signed(delta),
                        )
                    )
                if carried:
                    parts.append(_("{amount} stay in the middle", amount=carried))
                return "\n".join(parts)
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
