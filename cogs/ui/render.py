"""Engine state -> Discord embeds. Pure formatting: every fact shown comes from an engine view.

Names: the engine knows players by id (the Discord user id as a string); ``names`` maps those ids
to display names. Amounts use thousands separators; cards are written with suit symbols so the
text alone is complete for screen readers (pictures are an extra).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import discord
from babel.numbers import format_decimal

from cogs.kit import (
    DESCRIPTION_LIMIT,
    FIELD_LIMIT,
    GOLD,
    GREEN,
    GREY,
    as_typed,
    chips,
    fit_lines,
    when,
)
from cogs.translator import _
from cogs.ui.card_images import ShownRow
from cogs.ui.showdown_texts import say
from engine import Card, HandResult, HandValue, PrivateView, PublicView, SeatView, Variant, wording
from engine.arrange import ArrangedCard, Arrangement, arrange
from engine.cards import parse_card
from engine.events import ShownHand
from engine.game import Hand
from engine.scoring import qualifies_low
from i18n import Language, current_language, speaking
from i18n.engine_text import (
    engine_text,
    hand_name,
    option_description,
    option_label,
    variant_description,
    variant_name,
)
from i18n.engine_text import say as engine_say
from i18n.poker_words import direction_word

TEXTS = {
    "deadline": _.lazy("⏱ {when}"),
    # Translators: the table message's clock line while a player's time bank runs; {when}: a
    # Discord timestamp counting down ("in 12 seconds", in the reader's own language).
    "time-bank": _.lazy("⏳ {who}: using time bank, out {when}"),
}
"""The table message's clock lines ({when}: a Discord timestamp counting down)."""

_KIND_OF_VERB = {verb: kind for kind, verb in wording.VERBS.items()}

# Translators: the step the table waits for, in "Waiting for Ann (draw)": a noun for the
# step (the draw, passing cards, arranging the cards, declaring high or low, choosing the game).
PHASES = {
    "draw": _.lazy("draw"),
    "pass": _.lazy("pass"),
    "arrange": _.lazy("arrange"),
    "declare": _.lazy("declare"),
    "choose": _.lazy("choose"),
}
"""The steps other than betting in which the table waits for players (the view's ``phase``)."""


def phase_text(phase: str) -> str:
    known = PHASES.get(phase)
    return known.render() if known is not None else engine_text(phase)


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
    """``"a pair of jacks or better"`` (the engine's phrase) -> ``"To open: a pair of jacks or
    better."``, in the current language."""
    return _("To open: {what}.", what=engine_text(requirement))


def name_of(names: Mapping[str, str], player_id: str | None, *, markdown: bool = True) -> str:
    """A player's name in a message (as they typed it: :func:`cogs.kit.as_typed`), or
    unescaped for a picture (``markdown=False``)."""
    if player_id is None:
        return "—"
    name = names.get(player_id)
    if name:
        return as_typed(name) if markdown else name
    # Translators: a player the table knows no name for; {id}: the last digits of their id.
    return _("Player {id}", id=player_id[-4:])


def signed(amount: int) -> str:
    """A change of chips with its sign, digits in the current language's way."""
    digits = format_decimal(abs(amount), locale=current_language().locale)
    return f"+{digits}" if amount > 0 else f"-{digits}" if amount < 0 else digits


def last_action_text(view: PublicView, names: Mapping[str, str]) -> str | None:
    """The table's last action in words: the engine's phrase for it when it has one."""
    last = view.last_action
    if last is None:
        return None
    kind = _KIND_OF_VERB.get(last.verb)
    if last.player_id is not None and kind in wording.PHRASES:
        who = name_of(names, last.player_id)
        amount = chips(last.amount) if last.amount is not None else ""
        try:
            return engine_say(kind, who=who, amount=amount)
        except KeyError:
            pass
    text = engine_text(last.text)
    if last.player_id is not None:
        text = text.replace(last.player_id, name_of(names, last.player_id))
    return text


def _seat_line(seat: SeatView, names: Mapping[str, str], view: PublicView) -> str:
    marks = []
    if seat.is_button:
        marks.append("🔘")
    pointer = "▶️ " if seat.to_act else ""
    who = f"{pointer}**{name_of(names, seat.player_id)}**"
    # Each fact of a seat is a message of its own, listed with " · " between them. Those with
    # a number or cards are kept whole (a phone breaks the line before "37 chips" or "shows
    # K♥ 3♣", not inside them), and no line starts with the separator.
    parts = [_keep_whole(_.plural("{count} chip", "{count} chips", count=seat.stack))]
    if seat.bet:
        # Translators: a seat's bet in this betting round, on the table message.
        parts.append(_keep_whole(_("bet {amount}", amount=seat.bet)))
    if seat.folded:
        parts.append(_("folded"))
    if seat.all_in:
        parts.append(_("**all-in**"))
    if seat.sitting_out:
        parts.append(_("sitting out"))
    if seat.leaving:
        parts.append(_("leaving"))
    if seat.waiting_reason and not seat.in_hand:
        parts.append(engine_text(seat.waiting_reason))
    if seat.in_hand and seat.draws:
        # Translators: the number of cards a player drew in each draw so far ({draws}: "3, 1").
        parts.append(_keep_whole(_("drew {draws}", draws=", ".join(str(n) for n in seat.draws))))
    if seat.split_openers:
        parts.append(_("split openers"))
    if seat.face_up:
        parts.append(_keep_whole(_("shows {cards}", cards=cards_text(seat.face_up))))
    if seat.declared:
        # Translators: a seat's declaration in a declare game; {how}: high, low or both.
        parts.append(_("declared {how}", how=direction_word(seat.declared)))
    return f"{' '.join(marks)} {who}{_NBSP}· " + f"{_NBSP}· ".join(parts)


_NBSP = "\u00a0"


def _keep_whole(text: str) -> str:
    """``text`` with no space a line may break at."""
    return text.replace(" ", _NBSP)


def pots_text(view: PublicView, names: Mapping[str, str]) -> str | None:
    """How the pot's total splits (the main pot, each side pot and who can win it, the bets
    of this round), or None when it is all one amount (the field shows just the total)."""
    bets = view.pot_total - sum(p.amount for p in view.pots)
    if len(view.pots) + (bets > 0) < 2:
        return None
    lines = []
    for pot in view.pots:
        if pot.index == 0:
            line = _("Main pot: **{amount}**", amount=pot.amount)
        else:
            seats = {s.seat: s.player_id for s in view.seats}
            who = ", ".join(name_of(names, seats.get(i)) for i in pot.eligible)
            # Translators: {players}: who can win this side pot, names joined by commas.
            line = _(
                "Side pot {number}: **{amount}** ({players})",
                number=pot.index,
                amount=pot.amount,
                players=who,
            )
        lines.append(line)
    if bets > 0:
        lines.append(_("Bets this round: {amount}", amount=bets))
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
    language: Language | None = None,
    tournament: bool = False,
) -> discord.Embed:
    """The public table: seats, pots, whose turn and what they owe, the last action.
    ``banking``: the players to act who are using their time bank (``deadline`` is then when
    it runs out); ``tournament``: a tournament's table, where nobody sits down or stands up.
    The channel reads it: ``language`` is the table's (default: the current)."""
    with speaking(language or current_language()):
        return _table_embed(
            view, names, title_prefix, deadline, commitment, notes, banking, tournament
        )


def _table_embed(
    view: PublicView,
    names: Mapping[str, str],
    title_prefix: str,
    deadline: float | None,
    commitment: str | None,
    notes: Sequence[str],
    banking: Sequence[str],
    tournament: bool,
) -> discord.Embed:
    playing = view.phase != "waiting"
    # Between hands, and while a dealer chooses the next game, the last hand's number and
    # action are old news: its result is the message just above.
    dealt = playing and view.phase != "choose"
    game = engine_text(view.game)
    if view.hand_number and dealt:
        # Translators: the table message's title; {prefix}: a marker or nothing.
        title = _(
            "{prefix}{game} · hand\u00a0#{number}",
            prefix=title_prefix,
            game=game,
            number=str(view.hand_number),
        )
    else:
        title = f"{title_prefix}{game}"
    embed = discord.Embed(title=title[:256], colour=GREEN if playing else GREY)
    status = []
    if playing and view.street:
        status.append(f"**{engine_text(view.street)}**")
    if view.to_act:
        seats = {s.seat: s for s in view.seats}
        who = ", ".join(name_of(names, seats[i].player_id) for i in view.to_act if i in seats)
        if view.phase == "bet" and view.to_call:
            status.append(_("{who} to act: **{amount}** to call", who=who, amount=view.to_call))
        elif view.phase == "bet":
            status.append(_("{who} to act", who=who))
        else:
            # Translators: {phase}: what the table waits for (draw, declare, arrange...).
            status.append(_("Waiting for {who} ({phase})", who=who, phase=phase_text(view.phase)))
        if deadline is not None and banking:
            who = ", ".join(name_of(names, pid) for pid in banking)
            status.append(TEXTS["time-bank"].render(who=who, when=when(deadline)))
        elif deadline is not None:
            status.append(TEXTS["deadline"].render(when=when(deadline)))
    elif not playing and tournament:
        # Translators: a tournament table between two hands (its players are seated by the
        # tournament).
        status.append(_("Between hands."))
    elif not playing:
        status.append(_("Between hands: sit down, stand up, or deal the next hand."))
    if view.opening_requirement and playing:
        status.append(opening_text(view.opening_requirement))
    if view.wild:
        status.append(_("Wild: {cards}", cards=wild_text(view.wild)))
    embed.description = fit_lines(status, DESCRIPTION_LIMIT) or None
    seat_lines = [_seat_line(seat, names, view) for seat in view.seats]
    embed.add_field(
        name=_("Seats"),
        value=fit_lines(seat_lines or [_("Nobody yet.")], FIELD_LIMIT),
        inline=False,
    )
    if view.board:
        embed.add_field(name=_("On the table"), value=cards_text(view.board), inline=False)
    if playing or view.pot_total:
        split = pots_text(view, names)
        if split is None:
            # One amount: "Pot 9" over "Main pot: 9" said it twice.
            # Translators: the table's field for the chips in the middle, over their total.
            name, lines = _("Pot"), [f"**{chips(view.pot_total)}**"]
        else:
            name, lines = _("Pot {amount}", amount=view.pot_total), [split]
        if view.carried:
            lines.append(_("(carried over: {amount})", amount=view.carried))
        embed.add_field(name=name, value="\n".join(lines)[:1024], inline=False)
    last = last_action_text(view, names) if dealt else None
    if last is not None:
        embed.add_field(name=_("Last action"), value=last[:1024], inline=False)
    for note in notes[-3:]:
        embed.add_field(name=_("Note"), value=note[:1000], inline=False)
    stakes = (engine_text(view.structure), engine_text(view.forced_bets))
    if commitment:
        # Translators: the table message's footer; {commitment}: the start of a hash (hex).
        footer = _(
            "{structure} · {forced_bets} · deck commitment {commitment}…",
            structure=stakes[0],
            forced_bets=stakes[1],
            commitment=commitment[:16],
        )
    else:
        footer = f"{stakes[0]} · {stakes[1]}"
    embed.set_footer(text=footer[:2048])
    return embed


def private_embed(
    private: PrivateView,
    view: PublicView,
    *,
    title: str | None = None,
    arranged: Arrangement | None = None,
    hand: Hand | None = None,
) -> discord.Embed:
    """A player's own cards and what they make, for DMs and the "My hand" button; ``arranged``
    (:func:`private_arrangement`) writes them in the order the picture and the showdown show.
    ``hand`` (the hand in play) names the high and low values in the reader's language; the
    view alone carries their English names."""
    high_value, low_value = private_values(hand, private)
    shown = cards_text(private.cards) if arranged is None else arranged_text(arranged)
    if title is None:
        title = _(
            "Your hand · {game} · hand\u00a0#{number}",
            game=engine_text(view.game),
            number=str(view.hand_number),
        )
    embed = discord.Embed(title=title[:256], colour=GOLD, description=f"**{shown}**")
    if private.high:
        high = hand_name(high_value) if high_value else engine_text(private.high)
        embed.add_field(name=_("High"), value=high)
    if private.low:
        low = hand_name(low_value) if low_value else engine_text(private.low)
        if not private.low_qualifies:
            # Translators: a low hand that is not good enough to win the low half.
            low = _("{hand} (doesn't qualify)", hand=low)
        embed.add_field(name=_("Low"), value=low)
    if view.board:
        embed.add_field(name=_("On the table"), value=cards_text(view.board), inline=False)
    if view.wild:
        embed.add_field(name=_("Wild"), value=wild_text(view.wild), inline=False)
    if private.split_openers:
        embed.add_field(
            name=_("Openers kept aside"), value=cards_text(private.split_openers), inline=False
        )
    if private.arranged:
        embed.add_field(name=_("Rollout order"), value=cards_text(private.arranged), inline=False)
    return embed


def private_values(
    hand: Hand | None, private: PrivateView
) -> tuple[HandValue | None, HandValue | None]:
    """The high and low values the private view names, read from the hand in play (``None``
    where the view names none, or the hand is not the one the view was made of)."""
    if hand is None or not (private.high or private.low):
        return None, None
    player = hand.by_seat.get(private.seat)
    if player is None or player.pid != private.player_id:
        return None, None
    high = hand.high_value(player) if private.high else None
    low = hand.low_value(player) if private.low else None
    return high, low


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


def low_rule(result: HandResult) -> LowRule | None:
    """The qualifier test for the low half of the hand ``result`` came from (a high-low game
    that has one), taken from the result itself: the table may deal another game by the time
    it is drawn (dealer's choice, a result drawn after a restart)."""
    qualifier = result.low_qualifier
    if qualifier is None:
        return None
    return lambda value: qualifies_low(value, qualifier)


def pot_label(index: int) -> str:
    return _("Main pot") if index == 0 else _("Side pot {number}", number=index)


def _half(half: str) -> str:
    """A share's half of a split pot in words ("high", "low"); ``all`` is not written."""
    if half == "high":
        # Translators: the high half of a split pot.
        return _("high")
    if half == "low":
        # Translators: the low half of a split pot.
        return _("low")
    return engine_text(half)


def hand_names(shown: ShownHand, low_rule: LowRule | None) -> str:
    """The names of a shown hand: high and low, the low marked when it falls short."""
    high = hand_name(shown.high_value) if shown.high_value is not None else None
    if high and low_rule is not None:
        high = say("high_half", hand=high)
    low = None
    if shown.low_value is not None:
        if low_rule is None:
            low = hand_name(shown.low_value)
        elif low_rule(shown.low_value):
            low = say("low_half", hand=hand_name(shown.low_value))
        else:
            low = say("no_low")
    if high and low:
        return say("high_and_low", high=high, low=low)
    return high or low or ""


def winnings(result: HandResult) -> dict[str, list[str]]:
    """What each winner took, pot by pot (``"Main pot 40 (high)"``), by player id. A hand
    with one pot names none: its winner took ``"40"`` or ``"20 (high)"``."""
    won: dict[str, list[str]] = {}
    single = len(result.pots) == 1
    for pot in result.pots:
        for share in pot.shares:
            if single and share.half == "all":
                text = str(share.amount)
            elif single:
                # Translators: the half of the only pot a player won, on the showdown picture
                # ("40 (high)").
                text = _("{amount} ({half})", amount=share.amount, half=_half(share.half))
            elif share.half == "all":
                # Translators: a pot a player won, on the showdown picture ("Main pot 40").
                text = _("{pot} {amount}", pot=pot_label(pot.index), amount=share.amount)
            else:
                # Translators: the half of a pot a player won ("Main pot 40 (high)").
                text = _(
                    "{pot} {amount} ({half})",
                    pot=pot_label(pot.index),
                    amount=share.amount,
                    half=_half(share.half),
                )
            won.setdefault(share.player_id, []).append(text)
    return won


def showdown_embed(
    result: HandResult,
    names: Mapping[str, str],
    *,
    seat_order: Sequence[str] = (),
    start_stacks: Mapping[str, int] | None = None,
    low_rule: LowRule | None = None,
    language: Language | None = None,
    seats: Mapping[int, str] | None = None,
) -> discord.Embed:
    """The end of a hand: hands shown, who won each pot, and the stacks in seat order with each
    player's net for the hand. ``low_rule`` is given for high-low games with a qualifier. The
    channel reads it: ``language`` is the table's (default: the current one). ``seats`` (seat
    to player id) names an opener who shows the openers without a showdown."""
    with speaking(language or current_language()):
        return _showdown_embed(result, names, seat_order, start_stacks, low_rule, seats or {})


def _showdown_embed(
    result: HandResult,
    names: Mapping[str, str],
    seat_order: Sequence[str],
    start_stacks: Mapping[str, int] | None,
    low_rule: LowRule | None,
    seats: Mapping[int, str],
) -> discord.Embed:
    title = _(
        "{game} · hand\u00a0#{number} result",
        game=engine_text(result.game),
        number=str(result.hand_number),
    )
    embed = discord.Embed(title=title[:256], colour=GOLD)
    won = winnings(result)
    lines = []
    for shown in showdown_order(result):
        arranged = showdown_arrangement(shown, result)
        lines.append(
            say(
                "line",
                mark=say("winner_mark") if shown.player_id in won else "",
                name=name_of(names, shown.player_id),
                declared=(
                    say("declared", how=direction_word(shown.declared)) if shown.declared else ""
                ),
                cards=(
                    _keep_whole(cards_text(shown.cards))
                    if arranged is None
                    else arranged_text(arranged, whole=True)
                ),
                hand=hand_names(shown, low_rule),
            )
        )
    if lines:
        embed.add_field(name=_("Showdown"), value=fit_lines(lines, FIELD_LIMIT), inline=False)
    winners = []
    for pot in result.pots:
        label = pot_label(pot.index)
        for share in pot.shares:
            values: dict[str, Any] = {
                "pot": label,
                "player": name_of(names, share.player_id),
                "amount": share.amount,
            }
            hand = hand_name(share.value) if share.value is not None else None
            if share.half == "all" and hand:
                # Translators: {hand}: the winning hand's name, written as a label ("Pair of
                # sevens"), hence set apart by a dash rather than read into the sentence.
                line = _("{pot}: **{player}** wins {amount} — {hand}", hand=hand, **values)
            elif share.half == "all":
                line = _("{pot}: **{player}** wins {amount}", **values)
            elif hand:
                # Translators: {half}: high or low, the half of a split pot.
                line = _(
                    "{pot} ({half}): **{player}** wins {amount} — {hand}",
                    half=_half(share.half),
                    hand=hand,
                    **values,
                )
            else:
                line = _(
                    "{pot} ({half}): **{player}** wins {amount}", half=_half(share.half), **values
                )
            winners.append(line)
        lows_shown = [s for s in result.shown if s.low_value is not None]
        if (
            low_rule is not None
            and pot.shares
            and lows_shown
            and all(share.half == "all" for share in pot.shares)
        ):
            winners.append(_("{pot}: no qualifying low, so high takes the whole pot.", pot=label))
    if winners:
        embed.add_field(name=_("Winners"), value=fit_lines(winners, FIELD_LIMIT), inline=False)
    for seat, cards in result.openers:
        # The opener shows them when the pot is paid, showdown or not (everyone folded to the
        # bet, or the opener split them and folded): the shown hands, the pots' winners, then
        # the seats name the player.
        seat_player = next((s.player_id for s in result.shown if s.seat == seat), None)
        if seat_player is None:
            seat_player = next(
                (x.player_id for pot in result.pots for x in pot.shares if x.seat == seat),
                seats.get(seat),
            )
        who = name_of(names, seat_player) if seat_player else _("Seat {number}", number=seat + 1)
        embed.add_field(
            name=_("Openers shown"), value=f"{who}: {cards_text(cards)}"[:1024], inline=False
        )
    if result.returned:
        embed.add_field(
            name=_("Returned"),
            value=", ".join(
                _("seat {number}: {amount}", number=seat + 1, amount=amount)
                for seat, amount in result.returned
            )[:1024],
            inline=False,
        )
    if result.passed_out:
        embed.description = _("Nobody opened: the deal is passed out.")
    if result.carried:
        embed.add_field(name=_("Carried to the next deal"), value=chips(result.carried))
    if result.note:
        note = engine_text(result.note)
        for pid in result.final_stacks:  # the engine names players by id
            note = note.replace(pid, name_of(names, pid))
        embed.add_field(name=_("Note"), value=note[:1024], inline=False)
    order = [pid for pid in seat_order if pid in result.final_stacks]
    order += [pid for pid in result.final_stacks if pid not in order]
    stack_lines = []
    for pid in order:
        stack = result.final_stacks[pid]
        if start_stacks is not None and pid in start_stacks:
            # Translators: a player's stack after the hand and what it won or lost ("+40").
            line = _(
                "{player}: {stack} ({net})",
                player=name_of(names, pid),
                stack=stack,
                net=signed(stack - start_stacks[pid]),
            )
        else:
            line = f"{name_of(names, pid)}: {chips(stack)}"
        stack_lines.append(line)
    if stack_lines:
        embed.add_field(name=_("Stacks"), value=fit_lines(stack_lines, FIELD_LIMIT), inline=False)
    return embed


def shown_rows(
    result: HandResult,
    names: Mapping[str, str],
    low_rule: LowRule | None = None,
    *,
    language: Language | None = None,
) -> list[ShownRow]:
    """The rows of the showdown picture: every hand shown, winners first with what they took,
    each arranged as in the text (:func:`showdown_arrangement`); written in ``language`` (the
    channel's; default: the current one)."""
    with speaking(language or current_language()):
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
                    name=name_of(names, shown.player_id, markdown=False),
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


def arranged_text(arranged: Arrangement, *, whole: bool = False) -> str:
    """An arranged hand as text: the cards that play, then the others set apart; ``whole``
    keeps each of the two parts on one line (a line may break between them, not inside).

    >>> from engine.arrange import arrange_cards
    >>> from engine.cards import parse_cards
    >>> from engine.hands import Ranking
    >>> seven = arrange_cards(parse_cards("Qd 7c 4h 7s 9h 2c Kd"), Ranking.HIGH)
    >>> arranged_text(seven)
    '7♣ 7♠ K♦ Q♦ 9♥ (not playing: 4♥ 2♣)'
    >>> arranged_text(seven, whole=True).count(" ")  # the one place a line may break
    1
    """
    text = " ".join(_arranged_card(item) for item in arranged.playing)
    idle = arranged.idle
    if idle:
        apart = say("idle", cards=" ".join(_arranged_card(item) for item in idle))
        text = f"{_keep_whole(text)} {_keep_whole(apart)}" if whole else f"{text} {apart}"
    elif whole:
        text = _keep_whole(text)
    return text


def variant_embed(
    variant: Variant, at_table: Sequence[str] = (), *, language: Language | None = None
) -> discord.Embed:
    """How a game is played, in the project's own words (from the engine's catalogue), with
    ``at_table``: how this table plays where the rules books differ
    (:meth:`engine.TableConfig.rules_notes`, already in words)."""
    with speaking(language or current_language()):
        embed = discord.Embed(
            title=variant_name(variant)[:256],
            description=variant_description(variant)[:4096],
            colour=GREEN,
        )
        embed.add_field(name=_("Players"), value=_("2 to {most}", most=variant.max_players))
        for option in variant.options[:10]:
            label = option_label(option)
            if option.default:
                # Translators: a game option's heading on the game's page; {label}: its name.
                name = _("Option: {label} (on by default)", label=label)
            else:
                name = _("Option: {label} (off by default)", label=label)
            embed.add_field(name=name[:256], value=option_description(option)[:1024], inline=False)
        if at_table:
            embed.add_field(
                name=_("At this table"), value=fit_lines(at_table, FIELD_LIMIT), inline=False
            )
        if at_table:
            # Translators: {slug}: the game's code name (stays as it is); the command stays too.
            footer = _("slug: {slug} · house rules: /poker settings", slug=variant.slug)
        else:
            footer = _("slug: {slug}", slug=variant.slug)
        embed.set_footer(text=footer)
        return embed
