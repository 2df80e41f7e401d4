"""Components of a table: engine decisions -> buttons, selects, modals and their embeds.

Pure functions, like :mod:`cogs.ui.render`: each takes engine values (a public view, a pending
:class:`engine.Decision`, a player's cards) and returns what to send; none reads a live table,
the clock or Discord. Every custom id is written by a codec of :mod:`cogs.ui.custom_ids`, and
the router (:mod:`cogs.routing`) reads it back with the same codec.

Adding a kind of private choice: a ``*Options`` class in the engine, a branch in
:func:`private_panel` that shows it, a :class:`~cogs.ui.custom_ids.PanelButton` kind that
carries the answer, and the engine action that answer stands for in the router's panel
button handler (:meth:`cogs.routing.TableControls.panel_button`).
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

import engine
from cogs import kit
from cogs.translator import _
from cogs.ui import render
from cogs.ui.components import AmountModal, Components, PokerButton, PokerSelect, SitModal
from cogs.ui.custom_ids import (
    AmountModalId,
    GameChoice,
    LobbyButton,
    LobbyVerb,
    PanelButton,
    PanelKind,
    PanelSelect,
    ReplayButton,
    SeatChoice,
    SeatPanelButton,
    SelectKind,
    SitModalId,
    TableButton,
    TableVerb,
    TournamentButton,
    Version,
)
from engine.modifiers import describe_modifier, game_name
from engine.timebank import PreAction
from i18n import LazyString
from i18n.engine_text import engine_text, variant_description, variant_name

__all__ = [
    "CHOICE_MENUS",
    "PRIVATE_LABELS",
    "QUICK_LABELS",
    "amount_modal",
    "choice_made",
    "choice_menu",
    "closed_embed",
    "closed_notice",
    "lobby_components",
    "private_panel",
    "result_components",
    "seat_panel",
    "settings_embed",
    "sit_modal",
    "table_components",
]

PRIVATE_LABELS: dict[engine.DecisionKind, LazyString] = {
    engine.DecisionKind.DRAW: _.lazy("Draw / stand pat…"),
    engine.DecisionKind.KEEP: _.lazy("Choose your card…"),
    engine.DecisionKind.PASS: _.lazy("Pass cards…"),
    engine.DecisionKind.ARRANGE: _.lazy("Arrange your cards…"),
    engine.DecisionKind.DECLARE: _.lazy("Declare…"),
    engine.DecisionKind.CHOOSE_GAME: _.lazy("Choose the game…"),
    engine.DecisionKind.SHOW: _.lazy("Show or muck…"),
}
"""The table button that opens each kind of private panel."""

QUICK_LABELS: dict[str, LazyString] = {
    # Translators: the shortcut buttons beside "Bet…" and "Raise to…" in pot and no limit
    # games: the smallest raise, half the pot, the whole pot; {amount} is the total bet.
    "min": _.lazy("Min {amount}"),
    "half pot": _.lazy("Half pot {amount}"),
    "pot": _.lazy("Pot {amount}"),
    "all-in": _.lazy("All-in {amount}"),
}
"""The button of each of the engine's quick amounts (:meth:`engine.BetOptions.quick_amounts`)."""

DECLARE_LABELS: dict[str, LazyString] = {
    # Translators: the buttons of a secret declaration in a high-low declare game.
    "high": _.lazy("High"),
    "low": _.lazy("Low"),
    "both": _.lazy("Both ways"),
}

WILD_PREFIXES = ("wild:", "one-eyed", "joker-wild", "bug", "no-joker")
SHAPE_PREFIXES = ("draws:", "cards:", "four-before", "low:")

CHOICE_MENUS: tuple[tuple[SelectKind, LazyString], ...] = (
    ("cw", _.lazy("Wild cards and the joker")),
    ("cr", _.lazy("Draws, hand sizes and lows")),
    ("ch", _.lazy("High-low and house rules")),
)
"""Dealer's choice's menus of modifiers, each with its placeholder: a menu takes at most 25
options, fewer than the modifiers, so they are shared out by what they change."""


def choice_menu(kind: SelectKind, modifiers: Sequence[str]) -> tuple[str, ...]:
    """The modifiers among ``modifiers`` that dealer's choice lists in the menu ``kind`` (see
    :data:`CHOICE_MENUS`; each modifier is in exactly one)."""

    def menu_of(modifier: str) -> SelectKind:
        if modifier.startswith(WILD_PREFIXES):
            return "cw"
        if modifier == "high" or modifier.startswith(SHAPE_PREFIXES):
            return "cr"
        return "ch"

    return tuple(m for m in modifiers if menu_of(m) == kind)


_LOBBY: tuple[tuple[LobbyVerb, LazyString, discord.ButtonStyle, int], ...] = (
    ("sit", _.lazy("Sit down"), discord.ButtonStyle.success, 0),
    ("stand", _.lazy("Stand up"), discord.ButtonStyle.secondary, 0),
    ("deal", _.lazy("Deal"), discord.ButtonStyle.primary, 0),
    ("settings", _.lazy("Settings"), discord.ButtonStyle.secondary, 0),
    ("hand", _.lazy("My hand"), discord.ButtonStyle.secondary, 1),
    ("rules", _.lazy("Rules"), discord.ButtonStyle.secondary, 1),
)


SEAT_PANEL: dict[SeatChoice, LazyString] = {
    "checkfold": _.lazy("Check/fold"),
    "callany": _.lazy("Call any"),
    "clear": _.lazy("Clear pre-action"),
    "sitout": _.lazy("Sit out next hand"),
    "back": _.lazy("Back"),
}
"""The labels of a player's own panel (My hand): pre-actions, sitting out and coming back."""

SEAT_PANEL_TEXTS: dict[str, LazyString] = {
    "ticked": _.lazy(
        "✅ **{label}** ticked: played as soon as your turn comes (once; acting clears it)."
    ),
    "cleared": _.lazy("No pre-action ticked."),
    "sitting-out": _.lazy("You sit out from the next hand. Press **Back** to be dealt in again."),
    "back": _.lazy("You're back: dealt in from the next hand."),
    "hand-over": _.lazy("That hand is over: pre-actions are for the hand in play."),
}
"""What the panel says after a press ({label}: one of SEAT_PANEL's), or why it refuses one."""


def seat_panel(
    table_id: int,
    hand: int,
    *,
    ticked: PreAction | None,
    pre_actions: bool,
    sitting_out: bool | None,
) -> Components:
    """A seated player's own buttons under their cards: the pre-actions for hand ``hand``
    when one may be ticked (the one ``ticked`` marked), and Sit out next hand or Back
    (neither when ``sitting_out`` is None: the player may do neither now)."""
    ui = Components()

    def button(
        choice: SeatChoice, style: discord.ButtonStyle, row: int, mark: bool = False
    ) -> None:
        label = ("✓ " if mark else "") + SEAT_PANEL[choice].render()
        custom_id = SeatPanelButton(table_id, hand, choice).encode()
        ui.button(custom_id, label, style, row=row)

    if pre_actions:
        for pre in PreAction:
            on = pre is ticked
            style = discord.ButtonStyle.success if on else discord.ButtonStyle.secondary
            button(pre.value, style, 0, mark=on)
        if ticked is not None:
            button("clear", discord.ButtonStyle.secondary, 0)
    if sitting_out:
        button("back", discord.ButtonStyle.primary, 1)
    elif sitting_out is not None:
        button("sitout", discord.ButtonStyle.secondary, 1)
    return ui


def lobby_components(
    table_id: int, *, rebuy: bool = False, tournament: int | None = None
) -> Components:
    """Between hands: sit, stand, deal, settings, my hand, rules; and Rebuy when a seated
    player has no chips left.

    At a table of ``tournament`` nobody sits or stands (the tournament seats its players),
    and a player left without chips buys the tournament's rebuy or turns it down."""
    ui = Components()
    for verb, label, style, row in _LOBBY:
        if tournament is None or verb not in ("sit", "stand"):
            ui.button(LobbyButton(table_id, verb).encode(), label.render(), style, row=row)
    if rebuy and tournament is not None:
        rebuy_choice(ui, tournament, row=1)
    elif rebuy:
        custom_id = LobbyButton(table_id, "rebuy").encode()
        ui.button(custom_id, _("Rebuy"), discord.ButtonStyle.success, row=1)
    return ui


def rebuy_choice(ui: Components, tournament: int, *, row: int) -> Components:
    """A tournament table's Rebuy and No rebuy, for a player there left without chips while
    rebuys are open (shown during the others' hands too)."""
    ui.button(
        TournamentButton("rebuy", tournament).encode(),
        _("Rebuy"),
        discord.ButtonStyle.success,
        row=row,
    )
    # Translators: a tournament table's button for a player left without chips who does not
    # buy a rebuy: they are out (at most 80 characters).
    no_rebuy = _("No rebuy")
    ui.button(TournamentButton("decline", tournament).encode(), no_rebuy, row=row)
    return ui


def result_components(hand_id: int) -> Components:
    """A hand's result message: only the button that replays the hand (ephemerally)."""
    ui = Components()
    # Translators: the button under a hand's result that replays it (at most 80 characters).
    label = _("Replay")
    ui.add_item(PokerButton(ReplayButton(hand_id).encode(), label, emoji="🔁"))
    return ui


def table_components(
    table_id: int, version: Version, pending: Sequence[engine.Decision]
) -> Components:
    """During a hand: the betting buttons of whoever bets, or a button per kind of private
    choice waiting; and My hand. Only what the engine's decisions allow is offered."""
    ui = Components()
    bet = next((d for d in pending if d.kind is engine.DecisionKind.BET), None)

    def button(
        verb: TableVerb, label: str, style: discord.ButtonStyle, row: int, to: int | None = None
    ) -> None:
        custom_id = TableButton(table_id, version, verb, to).encode()
        ui.button(custom_id, label, style, row=row)

    secondary = discord.ButtonStyle.secondary
    if bet is not None and isinstance(bet.legal, engine.BetOptions):
        legal = bet.legal
        # Translators: the table's buttons (at most 80 characters each).
        button("fold", _("Fold"), discord.ButtonStyle.danger, 0)
        if legal.can_check:
            button("check", _("Check"), secondary, 0)
        elif legal.to_call:
            if legal.call_all_in:
                label = _("Call {amount} (all-in)", amount=legal.to_call)
            else:
                label = _("Call {amount}", amount=legal.to_call)
            button("call", label, discord.ButtonStyle.primary, 0)
        all_in_button = legal.can_all_in and not legal.fixed_limit
        # One amount only (a short stack's raise is all-in, or a limit's fixed size): a
        # button for it, not a form asking for a number between it and itself; none at all
        # when that amount is the All-in button's.
        only = legal.min_to if legal.min_to is not None and legal.min_to == legal.max_to else None
        if legal.can_raise and not (all_in_button and only == legal.all_in_to):
            if (legal.fixed_limit or only is not None) and legal.min_to is not None:
                if legal.is_bet:
                    label = _("Bet {amount}", amount=legal.min_to)
                else:
                    label = _("Raise to {amount}", amount=legal.min_to)
                button("to", label, discord.ButtonStyle.success, 0, legal.min_to)
            else:
                label = _("Bet…") if legal.is_bet else _("Raise to…")
                button("amount", label, discord.ButtonStyle.success, 0)
                all_in = legal.all_in_to if legal.can_all_in else None
                for name, amount in legal.quick_amounts()[:4]:
                    if amount != all_in:  # the All-in button already offers it
                        label = QUICK_LABELS[name].render(amount=amount)
                        button("to", label, secondary, 1, amount)
        if all_in_button:
            label = QUICK_LABELS["all-in"].render(amount=legal.all_in_to)
            button("allin", label, discord.ButtonStyle.danger, 0)
    else:
        for kind in sorted({d.kind for d in pending}, key=lambda k: k.value):
            if kind in PRIVATE_LABELS:
                button("private", PRIVATE_LABELS[kind].render(), discord.ButtonStyle.primary, 0)
        if any(d.kind is engine.DecisionKind.DRAW for d in pending):
            # The usual choice in one click, for the player to act (the engine checks who).
            button("pat", _("Stand pat"), discord.ButtonStyle.secondary, 0)
    ui.button(LobbyButton(table_id, "hand").encode(), _("My hand"), row=2)
    return ui


def free_check_prompt(table_id: int, version: Version) -> tuple[str, Components]:
    """Asked of a player who pressed Fold with nothing to call: check instead, or fold all
    the same (a slip of the thumb on a phone should not throw a free hand away)."""
    ui = Components()
    check = TableButton(table_id, version, "check").encode()
    ui.button(check, _("Check"), discord.ButtonStyle.success, row=0)
    fold = TableButton(table_id, version, "foldanyway").encode()
    # Translators: a button (at most 80 characters), under the question just below.
    ui.button(fold, _("Fold anyway"), discord.ButtonStyle.danger, row=0)
    # Translators: asked after Fold is pressed where checking costs nothing.
    return _("Nothing to call: you can check for free. Fold anyway?"), ui


def amount_modal(table_id: int, version: Version, legal: engine.BetOptions) -> AmountModal:
    """Asks for a bet or raise amount; the engine judges it when it is submitted."""
    low, high = legal.min_to or 0, legal.max_to or 0
    # Translators: the amount form's title and label (at most 45 characters each).
    if legal.is_bet:
        title = _("Bet ({low}–{high})", low=low, high=high)
        label = _("Bet: {low} to {high}", low=low, high=high)
    else:
        title = _("Raise to ({low}–{high})", low=low, high=high)
        label = _("Raise to: {low} to {high}", low=low, high=high)
    return AmountModal(AmountModalId(table_id, version).encode(), title, label, low, high)


def sit_modal(table_id: int, low: int, high: int, free_seats: Sequence[int]) -> SitModal:
    """Asks a newcomer's buy-in (prefilled with the smallest) and seat (numbered from 1)."""
    free = [seat + 1 for seat in free_seats]
    return SitModal(SitModalId(table_id).encode(), low, high, low, free)


def closed_embed(
    names: dict[str, str],
    payouts: dict[int, int],
    *,
    after_hand: bool = False,
    notes: Sequence[str] = (),
) -> discord.Embed:
    """The table's last word: what each player took back to their bankroll (after the
    table's last ``notes``, such as its last hand being void)."""
    lines = [
        _("{player}: {amount}", player=names.get(str(uid), str(uid)), amount=amount)
        for uid, amount in payouts.items()
    ]
    paid = "\n".join(lines) or _("Nobody was seated.")
    embed = discord.Embed(
        title=_("Table closed"),
        description="\n\n".join(["\n".join(notes), paid] if notes else [paid]),
        colour=kit.GREY,
    )
    if after_hand:
        embed.set_footer(text=_("Closed as asked with /poker end, once the hand was over."))
    return embed


def closed_notice(game: str, notes: Sequence[str] = ()) -> tuple[discord.Embed, Components]:
    """What a table message becomes once its table is closed, with its last notes (where its
    players went), and no buttons. ``game`` is the engine's name for it."""
    text = "\n".join([_("This table is closed."), *notes])
    embed = discord.Embed(title=engine_text(game), description=text, colour=kit.GREY)
    return embed, Components()


def settings_embed(
    view: engine.PublicView,
    settings: str,
    seats: int,
    house: Sequence[str] = (),
    next_hand: Sequence[str] = (),
) -> discord.Embed:
    """The table's settings: stakes, the bot's settings, and the house rules that matter in
    its game (``house``), with a change waiting for the next deal (``next_hand``)."""
    game = engine_text(view.game)
    embed = discord.Embed(title=_("Table settings: {game}", game=game), colour=kit.GREEN)
    stakes = f"{engine_text(view.structure)}\n{engine_text(view.forced_bets)}"
    embed.add_field(name=_("Stakes"), value=stakes, inline=False)
    embed.add_field(name=_("Table"), value=settings, inline=False)
    embed.add_field(name=_("Seats"), value=str(seats))
    if house:
        embed.add_field(name=_("House rules"), value=_bullets(house), inline=False)
    if next_hand:
        embed.add_field(name=_("From the next hand"), value=_bullets(next_hand), inline=False)
    embed.set_footer(text=_("The creator or a server manager can change these: /poker settings"))
    return embed


def _bullets(lines: Sequence[str]) -> str:
    return kit.fit_lines([f"• {line}" for line in lines], kit.FIELD_LIMIT)


def choice_made(text: str) -> discord.Embed:
    """What a private panel becomes once its choice is made."""
    return discord.Embed(description=text, colour=kit.GOLD)


def private_panel(
    table_id: int,
    hand_number: int,
    decision: engine.Decision,
    cards: Sequence[engine.Card],
    chosen: tuple[int, ...] = (),
    choice: GameChoice | None = None,
    coach: str | None = None,
    order: Sequence[int] = (),
    street: int = 0,
) -> tuple[discord.Embed, Components]:
    """The ephemeral panel of one private choice: ``chosen`` are the card positions picked so
    far (draw, pass, arrange), ``choice`` the dealer's choice so far, ``coach`` the coach's
    odds for a draw at a coached table. ``order`` lists the positions in the order the
    player's DM shows the cards (``render.arranged_positions``); the hand and the draw's menu
    follow it, while picks stay positions."""
    legal = decision.legal
    if isinstance(legal, engine.ChooseOptions):
        return _choose_panel(table_id, hand_number, legal, choice or GameChoice(""), street)
    ui = Components()
    embed = discord.Embed(colour=kit.GOLD)

    def select_id(kind: SelectKind, picks: tuple[int, ...] = ()) -> str:
        return PanelSelect(table_id, hand_number, kind, picks, street=street).encode()

    def button_id(kind: PanelKind, picks: tuple[int, ...] = (), word: str = "") -> str:
        return PanelButton(table_id, hand_number, kind, picks, word, street=street).encode()

    if sorted(order) != list(range(len(cards))):
        order = range(len(cards))

    def options(selected: tuple[int, ...], most: int) -> list[discord.SelectOption]:
        # More picks than the menu takes (made in an earlier round's panel, which took more)
        # are not shown as the menu's choice: Discord refuses such a menu.
        if len(selected) > most:
            selected = ()
        return [
            discord.SelectOption(label=cards[i].display, value=str(i), default=i in selected)
            for i in order
        ]

    hand_text = render.cards_text(cards[i] for i in order)
    chosen_text = render.cards_text(cards[i] for i in chosen if i < len(cards))
    if isinstance(legal, engine.DrawOptions):
        most = min(legal.most, len(cards))
        allowed = [c for c in legal.counts if c <= most]
        picked = tuple(cards[i] for i in chosen if i < len(cards))
        problem = legal.refusal(picked)
        embed.title = _("Draw: choose the cards to throw away")
        counts = _counts_text(allowed)
        lines = [
            _("Your hand: **{cards}**", cards=hand_text),
            _(
                "You may discard {counts} ({condition}).",
                counts=counts,
                condition=engine_text(legal.condition),
            )
            if legal.condition and most > (legal.ace_above or 0)
            else _("You may discard {counts}.", counts=counts),
            _("Chosen: {cards}", cards=chosen_text),
        ]
        if problem is not None:
            reason = engine_text(problem)
            lines.append(f"⚠️ {reason[:1].upper()}{reason[1:]}.")
        embed.description = "\n".join(lines)
        if coach:
            embed.add_field(name=_("Coach: your best draws"), value=coach[:1024], inline=False)
        if most:
            ui.add_item(
                PokerSelect(
                    select_id("draw"),
                    options(chosen, most),
                    # Translators: a select's placeholder (at most 150 characters).
                    placeholder=_("Cards to discard (up to {count})", count=most),
                    min_values=0,
                    max_values=most,
                )
            )
        label = _("Discard {count}", count=len(chosen)) if chosen else _("Stand pat")
        ui.add_item(
            PokerButton(
                button_id("draw", chosen),
                label,
                discord.ButtonStyle.success,
                disabled=problem is not None,
            )
        )
    elif isinstance(legal, engine.PassOptions):
        n = legal.count
        embed.title = (
            _.plural("Pass {count} card to the left", "Pass {count} cards to the left", count=n)
            if legal.direction == "left"
            else _.plural(
                "Pass {count} card to the right", "Pass {count} cards to the right", count=n
            )
        )
        embed.description = "\n".join(
            [
                _("Your hand: **{cards}**", cards=hand_text),
                _("Chosen: {cards}", cards=chosen_text),
            ]
        )
        ui.add_item(
            PokerSelect(
                select_id("pass"),
                options(chosen, legal.count),
                placeholder=_("Choose {count}", count=legal.count),
                min_values=legal.count,
                max_values=legal.count,
            )
        )
        ready = len(chosen) == legal.count
        if not ready:
            embed.description += "\n" + _.plural(
                "Choose exactly {count} card to pass.",
                "Choose exactly {count} cards to pass.",
                count=legal.count,
            )
        ui.add_item(
            PokerButton(
                button_id("pass", chosen),
                _("Confirm"),
                discord.ButtonStyle.success,
                disabled=not ready,
            )
        )
    elif isinstance(legal, engine.ArrangeOptions):
        embed.title = _("Arrange the order your cards will be turned up")
        embed.description = "\n".join(
            [
                _("Your hand: **{cards}**", cards=hand_text),
                _("Order so far: {cards}", cards=chosen_text),
            ]
        )
        remaining = [i for i in range(len(cards)) if i not in chosen]
        missing = legal.size - len(chosen) if remaining else 0
        if missing > 0:
            ui.add_item(
                PokerSelect(
                    select_id("arrange", chosen),
                    [discord.SelectOption(label=cards[i].display, value=str(i)) for i in remaining],
                    placeholder=_("Card number {number}", number=len(chosen) + 1),
                )
            )
            embed.description += "\n" + _.plural(
                "Pick {count} more card to confirm.",
                "Pick {count} more cards to confirm.",
                count=missing,
            )
        ui.add_item(
            PokerButton(
                button_id("arrange", chosen),
                _("Confirm"),
                discord.ButtonStyle.success,
                disabled=missing > 0,
            )
        )
    elif isinstance(legal, engine.DeclareOptions):
        embed.title = _("Declare (in secret)")
        embed.description = _("Your hand: **{cards}**", cards=hand_text)
        for direction in legal.directions:
            ui.add_item(
                PokerButton(
                    button_id("declare", word=direction.value),
                    DECLARE_LABELS[direction.value].render(),
                    discord.ButtonStyle.primary,
                )
            )
    elif isinstance(legal, engine.KeepOptions):
        embed.title = _("Take the face-up card or the face-down one")
        embed.description = _("Face up: **{card}**", card=legal.face_up.display)
        ui.add_item(
            PokerButton(
                button_id("keep", word="up"),
                _("Take {card}", card=legal.face_up.display),
                discord.ButtonStyle.primary,
            )
        )
        ui.add_item(PokerButton(button_id("keep", word="down"), _("Take the face-down card")))
    elif isinstance(legal, engine.ShowOptions):
        embed.title = _("Your hand is beaten: show it or muck it")
        embed.description = "\n".join(
            [
                _("Your hand: **{cards}**", cards=hand_text),
                _(
                    "It can't win any part of the pot against the hands already shown. Muck it "
                    "and nobody sees it (also what happens if your time runs out), or show it "
                    "anyway."
                ),
            ]
        )
        muck = PokerButton(button_id("show", word="muck"), _("Muck"), discord.ButtonStyle.danger)
        ui.add_item(muck)
        ui.add_item(
            PokerButton(button_id("show", word="show"), _("Show"), discord.ButtonStyle.primary)
        )
    else:
        embed.title = _("Nothing to choose right now")
    return embed, ui


def _counts_text(counts: Sequence[int]) -> str:
    """``[0, 1, 2, 3]`` -> ``"up to 3 cards"``; ``[0, 2]`` -> ``"0 or 2 cards"``."""
    top = max(counts, default=0)
    if list(counts) == list(range(top + 1)):
        if not top:
            return _("no cards (stand pat)")
        return _.plural("up to {count} card", "up to {count} cards", count=top)
    if len(counts) == 1:
        return _.plural("{count} card", "{count} cards", count=counts[0])
    some = ", ".join(str(c) for c in counts[:-1])
    return _("{some} or {last} cards", some=some, last=counts[-1])


def _choose_panel(
    table_id: int,
    hand_number: int,
    legal: engine.ChooseOptions,
    choice: GameChoice,
    street: int = 0,
) -> tuple[discord.Embed, Components]:
    """Dealer's choice: a game, wild cards and house rules, then Deal. The choice so far
    travels in the custom ids, so the panel needs no memory."""
    choice = choice.or_default(legal.default)
    variant = engine.get_variant(choice.slug)
    embed = discord.Embed(title=_("Dealer's choice: pick the game"), colour=kit.GOLD)
    # Only the dealer reads the panel: the games and rules in their language.
    name = engine_text(game_name(variant.name, choice.mods))
    embed.description = f"**{name}**\n{variant_description(variant)[:1500]}"
    ui = Components()
    games = [
        discord.SelectOption(
            label=variant_name(engine.get_variant(s))[:100], value=s, default=s == choice.slug
        )
        for s in legal.slugs[:25]
    ]
    ui.add_item(
        PokerSelect(
            PanelSelect(table_id, hand_number, "cg", choice=choice, street=street).encode(),
            games,
            row=0,
        )
    )
    for row, (kind, placeholder) in enumerate(CHOICE_MENUS, start=1):
        keys = choice_menu(kind, legal.modifiers)
        options = [
            discord.SelectOption(
                label=engine_text(describe_modifier(m))[:100],
                # ':' written as '=' like in custom ids (messages already sent use it).
                value=m.replace(":", "="),
                default=m in choice.mods,
            )
            for m in keys[:25]
        ]
        if options:
            ui.add_item(
                PokerSelect(
                    PanelSelect(table_id, hand_number, kind, choice=choice, street=street).encode(),
                    options,
                    placeholder=str(placeholder),
                    min_values=0,
                    max_values=len(options),
                    row=row,
                )
            )
    ui.add_item(
        PokerButton(
            PanelButton(table_id, hand_number, "choose", choice=choice, street=street).encode(),
            _("Deal it"),
            discord.ButtonStyle.success,
            row=len(CHOICE_MENUS) + 1,
        )
    )
    return embed, ui
