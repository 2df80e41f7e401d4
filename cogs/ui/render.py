"""Engine state -> Discord embeds. Pure formatting: every fact shown comes from an engine view.

Names: the engine knows players by id (the Discord user id as a string); ``names`` maps those ids
to display names. Amounts use thousands separators; cards are written with suit symbols so the
text alone is complete for screen readers (pictures are an extra).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

import discord

from cogs.kit import GOLD, GREEN, GREY, chips, signed, when
from cogs.ui.card_images import ShownRow
from cogs.ui.showdown_texts import say
from engine import Card, HandResult, HandValue, PrivateView, PublicView, SeatView, Variant
from engine.arrange import ArrangedCard, Arrangement, arrange
from engine.cards import parse_card
from engine.events import ShownHand
from engine.game import Hand

TEXTS = {
    "deadline": "⏱ {when}",
    "time-bank": "⏳ {who}: using time bank, out {when}",
}
"""The table message's clock lines ({when}: a Discord timestamp counting down)."""

__all__ = [
    "GOLD",
    "GREEN",
    "GREY",
    "arranged_positions",
    "arranged_text",
    "cards_text",
    "chips",
    "name_of",
    "picture_cards",
    "pots_text",
    "private_arrangement",
    "private_embed",
    "showdown_arrangement",
    "showdown_embed",
    "showdown_order",
    "shown_rows",
    "table_embed",
    "variant_embed",
]


def cards_text(cards: Iterable[Card]) -> str:
    text = " ".join(card.display for card in cards)
    return text or "—"


def wild_text(wild: str) -> str:
    """The public view's wild cards (card codes) with suit symbols, like every other card."""
    try:
        return cards_text(parse_card(code) for code in wild.split())
    except ValueError:
        return wild


def opening_text(requirement: str) -> str:
    """``"A pair of jacks or better to open"`` -> ``"To open: a pair of jacks or better."``"""
    what = requirement.removesuffix(" to open").strip()
    return f"To open: {what[:1].lower()}{what[1:]}."


def name_of(names: Mapping[str, str], player_id: str | None) -> str:
    if player_id is None:
        return "—"
    return names.get(player_id, f"Player {player_id[-4:]}")


def _seat_line(seat: SeatView, names: Mapping[str, str], view: PublicView) -> str:
    marks = []
    if seat.is_button:
        marks.append("🔘")
    pointer = "▶️ " if seat.to_act else ""
    who = f"{pointer}**{name_of(names, seat.player_id)}**"
    parts = [f"{chips(seat.stack)} chips"]
    if seat.bet:
        parts.append(f"bet {chips(seat.bet)}")
    if seat.folded:
        parts.append("folded")
    if seat.all_in:
        parts.append("**all-in**")
    if seat.sitting_out:
        parts.append("sitting out")
    if seat.leaving:
        parts.append("leaving")
    if seat.waiting_reason and not seat.in_hand:
        parts.append(seat.waiting_reason)
    if seat.in_hand and seat.draws:
        parts.append("drew " + ", ".join(str(n) for n in seat.draws))
    if seat.split_openers:
        parts.append("split openers")
    if seat.face_up:
        parts.append("shows " + cards_text(seat.face_up))
    if seat.declared:
        parts.append(f"declared {seat.declared}")
    return f"{' '.join(marks)} {who} · " + " · ".join(parts)


def pots_text(view: PublicView, names: Mapping[str, str]) -> str:
    if not view.pots:
        return chips(view.pot_total) if view.pot_total else "empty"
    lines = []
    for pot in view.pots:
        label = "Main pot" if pot.index == 0 else f"Side pot {pot.index}"
        line = f"{label}: **{chips(pot.amount)}**"
        if pot.index:
            seats = {s.seat: s.player_id for s in view.seats}
            who = ", ".join(name_of(names, seats.get(i)) for i in pot.eligible)
            line += f" ({who})"
        lines.append(line)
    bets = view.pot_total - sum(p.amount for p in view.pots)
    if bets > 0:
        lines.append(f"Bets this round: {chips(bets)}")
    return "\n".join(lines)


def table_embed(
    view: PublicView,
    names: Mapping[str, str],
    *,
    title_prefix: str = "",
    deadline: float | None = None,
    commitment: str | None = None,
    notes: Sequence[str] = (),
    banking: Sequence[str] = (),
) -> discord.Embed:
    """The public table: seats, pots, whose turn and what they owe, the last action.
    ``banking``: the players to act who are using their time bank (``deadline`` is then when
    it runs out)."""
    playing = view.phase != "waiting"
    title = f"{title_prefix}{view.game}"
    if view.hand_number:
        title += f" · hand #{view.hand_number}"
    embed = discord.Embed(title=title, colour=GREEN if playing else GREY)
    status = []
    if playing and view.street:
        status.append(f"**{view.street}**")
    if view.to_act:
        seats = {s.seat: s for s in view.seats}
        who = ", ".join(name_of(names, seats[i].player_id) for i in view.to_act if i in seats)
        if view.phase == "bet" and view.to_call:
            status.append(f"{who} to act: **{chips(view.to_call)}** to call")
        elif view.phase == "bet":
            status.append(f"{who} to act")
        else:
            status.append(f"Waiting for {who} ({view.phase})")
        if deadline is not None and banking:
            who = ", ".join(name_of(names, pid) for pid in banking)
            status.append(TEXTS["time-bank"].format(who=who, when=when(deadline)))
        elif deadline is not None:
            status.append(TEXTS["deadline"].format(when=when(deadline)))
    elif not playing:
        status.append("Between hands: sit down, stand up, or deal the next hand.")
    if view.opening_requirement and playing:
        status.append(opening_text(view.opening_requirement))
    if view.wild:
        status.append(f"Wild: {wild_text(view.wild)}")
    embed.description = "\n".join(status) or None
    seat_lines = [_seat_line(seat, names, view) for seat in view.seats]
    embed.add_field(name="Seats", value="\n".join(seat_lines) or "Nobody yet.", inline=False)
    if view.board:
        embed.add_field(name="On the table", value=cards_text(view.board), inline=False)
    if playing or view.pot_total:
        pot_value = pots_text(view, names)
        if view.carried:
            pot_value += f"\n(carried over: {chips(view.carried)})"
        embed.add_field(name=f"Pot {chips(view.pot_total)}", value=pot_value, inline=False)
    if view.last_action is not None:
        last = view.last_action
        text = last.text
        if last.player_id is not None:
            text = text.replace(last.player_id, name_of(names, last.player_id))
        embed.add_field(name="Last action", value=text, inline=False)
    for note in notes[-3:]:
        embed.add_field(name="Note", value=note[:1000], inline=False)
    footer = f"{view.structure} · {view.forced_bets}"
    if commitment:
        footer += f" · deck commitment {commitment[:16]}…"
    embed.set_footer(text=footer[:2048])
    return embed


def private_embed(
    private: PrivateView,
    view: PublicView,
    *,
    title: str | None = None,
    arranged: Arrangement | None = None,
) -> discord.Embed:
    """A player's own cards and what they make, for DMs and the "My hand" button; ``arranged``
    (:func:`private_arrangement`) writes them in the order the picture and the showdown show."""
    shown = cards_text(private.cards) if arranged is None else arranged_text(arranged)
    embed = discord.Embed(
        title=title or f"Your hand · {view.game} · hand #{view.hand_number}",
        colour=GOLD,
        description=f"**{shown}**",
    )
    if private.high:
        embed.add_field(name="High", value=private.high)
    if private.low:
        low = private.low if private.low_qualifies else f"{private.low} (doesn't qualify)"
        embed.add_field(name="Low", value=low)
    if view.board:
        embed.add_field(name="On the table", value=cards_text(view.board), inline=False)
    if view.wild:
        embed.add_field(name="Wild", value=wild_text(view.wild), inline=False)
    if private.split_openers:
        embed.add_field(
            name="Openers kept aside", value=cards_text(private.split_openers), inline=False
        )
    if private.arranged:
        embed.add_field(name="Rollout order", value=cards_text(private.arranged), inline=False)
    return embed


def private_arrangement(hand: Hand | None, private: PrivateView) -> Arrangement | None:
    """A player's own cards arranged by what they make, as the showdown will show them: by the
    high value, or the low in a game that plays only low. ``None`` (the cards stay in the order
    dealt) while the hand is incomplete, when a board card plays with them, or when the player
    set the order themselves (a rollout)."""
    if hand is None or private.arranged or not (private.high or private.low):
        return None
    player = hand.by_seat.get(private.seat)
    if player is None or tuple(hand.playing_cards(player)) != private.cards:
        return None
    value = hand.high_value(player) if private.high else hand.low_value(player)
    if value is None:
        return None
    try:
        return arrange(private.cards, value)
    except ValueError:
        return None


def picture_cards(
    cards: Sequence[Card], arranged: Arrangement | None
) -> tuple[tuple[Card, ...], frozenset[Card], int]:
    """The cards of a hand picture in the order of the text, the wild cards among them, and
    how many of the last ones do not play (``render_cards``'s ``idle``)."""
    if arranged is None:
        return tuple(cards), frozenset(), 0
    return (
        tuple(item.card for item in arranged.cards),
        frozenset(item.card for item in arranged.cards if item.wild),
        len(arranged.idle),
    )


def arranged_positions(cards: Sequence[Card], arranged: Arrangement | None) -> tuple[int, ...]:
    """The positions of ``cards`` in the order ``arranged`` shows them (as dealt without one),
    for lists that pick cards by position, such as the draw's menu.

    >>> from engine.arrange import arrange_cards
    >>> from engine.cards import parse_cards
    >>> from engine.hands import Ranking
    >>> hand = parse_cards("Qd 7c 4h 7s 9h")
    >>> arranged_positions(hand, arrange_cards(hand, Ranking.HIGH))
    (1, 3, 0, 4, 2)
    """
    if arranged is None:
        return tuple(range(len(cards)))
    return tuple(cards.index(item.card) for item in arranged.cards)


LowRule = Callable[[HandValue], bool]
"""Whether a low value qualifies in a high-low game (from the engine's rules)."""


def pot_label(index: int) -> str:
    return "Main pot" if index == 0 else f"Side pot {index}"


def hand_names(shown: ShownHand, low_rule: LowRule | None) -> str:
    """The names of a shown hand: high and low, the low marked when it falls short."""
    parts = []
    if shown.high:
        parts.append(say("high_half", hand=shown.high) if low_rule is not None else shown.high)
    if shown.low_value is not None:
        if low_rule is None:
            parts.append(shown.low_value.name)
        elif low_rule(shown.low_value):
            parts.append(say("low_half", hand=shown.low_value.name))
        else:
            parts.append(say("no_low"))
    return say("halves_joiner").join(parts)


def winnings(result: HandResult) -> dict[str, list[str]]:
    """What each winner took, pot by pot (``"Main pot 40 (high)"``), by player id."""
    won: dict[str, list[str]] = {}
    for pot in result.pots:
        for share in pot.shares:
            half = "" if share.half == "all" else f" ({share.half})"
            won.setdefault(share.player_id, []).append(
                f"{pot_label(pot.index)} {chips(share.amount)}{half}"
            )
    return won


def showdown_embed(
    result: HandResult,
    names: Mapping[str, str],
    *,
    seat_order: Sequence[str] = (),
    start_stacks: Mapping[str, int] | None = None,
    low_rule: LowRule | None = None,
) -> discord.Embed:
    """The end of a hand: hands shown, who won each pot, and the stacks in seat order with each
    player's net for the hand. ``low_rule`` is given for high-low games with a qualifier."""
    embed = discord.Embed(title=f"{result.game} · hand #{result.hand_number} result", colour=GOLD)
    won = winnings(result)
    lines = []
    for shown in showdown_order(result):
        arranged = showdown_arrangement(shown, result)
        lines.append(
            say(
                "line",
                mark=say("winner_mark") if shown.player_id in won else "",
                name=name_of(names, shown.player_id),
                declared=say("declared", how=shown.declared) if shown.declared else "",
                cards=cards_text(shown.cards) if arranged is None else arranged_text(arranged),
                hand=hand_names(shown, low_rule),
            )
        )
    if lines:
        embed.add_field(name="Showdown", value="\n".join(lines)[:1024], inline=False)
    winners = []
    for pot in result.pots:
        label = pot_label(pot.index)
        for share in pot.shares:
            how = f" with {share.hand}" if share.hand else ""
            half = "" if share.half == "all" else f" ({share.half})"
            winners.append(
                f"{label}{half}: **{name_of(names, share.player_id)}** wins "
                f"{chips(share.amount)}{how}"
            )
        lows_shown = [s for s in result.shown if s.low_value is not None]
        if (
            low_rule is not None
            and pot.shares
            and lows_shown
            and all(share.half == "all" for share in pot.shares)
        ):
            winners.append(f"{label}: no qualifying low, so high takes the whole pot.")
    if winners:
        embed.add_field(name="Winners", value="\n".join(winners)[:1024], inline=False)
    for seat, cards in result.openers:
        seat_player = next((s.player_id for s in result.shown if s.seat == seat), None)
        who = name_of(names, seat_player) if seat_player else f"Seat {seat + 1}"
        embed.add_field(name="Openers shown", value=f"{who}: {cards_text(cards)}", inline=False)
    if result.returned:
        embed.add_field(
            name="Returned",
            value=", ".join(
                f"seat {seat + 1}: {chips(amount)}" for seat, amount in result.returned
            ),
            inline=False,
        )
    if result.passed_out:
        embed.description = "Nobody opened: the deal is passed out."
    if result.carried:
        embed.add_field(name="Carried to the next deal", value=chips(result.carried))
    if result.note:
        embed.add_field(name="Note", value=result.note[:1024], inline=False)
    order = [pid for pid in seat_order if pid in result.final_stacks]
    order += [pid for pid in result.final_stacks if pid not in order]
    stack_lines = []
    for pid in order:
        stack = result.final_stacks[pid]
        line = f"{name_of(names, pid)}: {chips(stack)}"
        if start_stacks is not None and pid in start_stacks:
            line += f" ({signed(stack - start_stacks[pid])})"
        stack_lines.append(line)
    if stack_lines:
        embed.add_field(name="Stacks", value="\n".join(stack_lines)[:1024], inline=False)
    return embed


def shown_rows(
    result: HandResult, names: Mapping[str, str], low_rule: LowRule | None = None
) -> list[ShownRow]:
    """The rows of the showdown picture: every hand shown, winners first with what they took,
    each arranged as in the text (:func:`showdown_arrangement`)."""
    won = winnings(result)
    rows = []
    for shown in showdown_order(result):
        arranged = showdown_arrangement(shown, result)
        cards: tuple[Card, ...] = shown.cards
        plays: tuple[bool, ...] = ()
        stands_for: tuple[Card | None, ...] = ()
        if arranged is not None:
            cards = tuple(item.card for item in arranged.cards)
            plays = tuple(item.plays for item in arranged.cards)
            stands_for = tuple(item.plays_as if item.wild else None for item in arranged.cards)
        what = ", ".join(won.get(shown.player_id, ()))
        rows.append(
            ShownRow(
                name=name_of(names, shown.player_id),
                hand=hand_names(shown, low_rule),
                cards=cards,
                won=say("picture_wins", what=what) if what else "",
                plays=plays,
                stands_for=stands_for,
            )
        )
    return rows


def showdown_order(result: HandResult) -> list[ShownHand]:
    """The hands shown, winners first (each group in showdown order)."""
    won = {share.player_id for pot in result.pots for share in pot.shares}
    return sorted(result.shown, key=lambda shown: shown.player_id not in won)


def showdown_arrangement(shown: ShownHand, result: HandResult) -> Arrangement | None:
    """A shown hand arranged by the value it plays for: its low when it won only low (or
    declared low), else its high; ``None`` when no value was made (cards stay as dealt)."""
    halves = {
        share.half
        for pot in result.pots
        for share in pot.shares
        if share.player_id == shown.player_id
    }
    wants_low = shown.declared == "low" or (halves and halves <= {"low"})
    value = shown.low_value if wants_low else shown.high_value
    value = value or shown.high_value or shown.low_value
    if value is None:
        return None
    try:
        return arrange(shown.cards, value)
    except ValueError:
        return None


def _arranged_card(item: ArrangedCard) -> str:
    if item.wild and item.plays_as is not None:
        return say("wild_as", card=item.card.display, plays_as=item.plays_as.display)
    return item.card.display


def arranged_text(arranged: Arrangement) -> str:
    """An arranged hand as text: the cards that play, then the others set apart.

    >>> from engine.arrange import arrange_cards
    >>> from engine.cards import parse_cards
    >>> from engine.hands import Ranking
    >>> arranged_text(arrange_cards(parse_cards("Qd 7c 4h 7s 9h 2c Kd"), Ranking.HIGH))
    '7♣ 7♠ K♦ Q♦ 9♥ (not playing: 4♥ 2♣)'
    """
    text = " ".join(_arranged_card(item) for item in arranged.playing)
    idle = arranged.idle
    if idle:
        text += " " + say("idle", cards=" ".join(_arranged_card(item) for item in idle))
    return text


def variant_embed(variant: Variant, at_table: Sequence[str] = ()) -> discord.Embed:
    """How a game is played, in the project's own words (from the engine's catalogue), with
    ``at_table``: how this table plays where the rules books differ
    (:meth:`engine.TableConfig.rules_notes`)."""
    embed = discord.Embed(title=variant.name, description=variant.description, colour=GREEN)
    embed.add_field(name="Players", value=f"2 to {variant.max_players}")
    for option in variant.options[:10]:
        state = "on" if option.default else "off"
        embed.add_field(
            name=f"Option: {option.label} ({state} by default)",
            value=option.description[:1024],
            inline=False,
        )
    if at_table:
        embed.add_field(name="At this table", value="\n".join(at_table)[:1024], inline=False)
    footer = f"slug: {variant.slug}"
    if at_table:
        footer += " · house rules: /poker settings"
    embed.set_footer(text=footer)
    return embed
