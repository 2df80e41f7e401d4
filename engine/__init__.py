"""The draw-poker engine: pure, typed, deterministic game logic with no I/O.

The core of the game (tables, rules, actions, views) is importable from ``engine`` directly;
the bot also imports the subjects of their own modules (``engine.tournament``,
``engine.house``, ``engine.settle``, ``engine.timebank``, ``engine.notation``...). The parts:

Cards and hand values (:mod:`engine.cards`, :mod:`engine.hands`)
    ``Card``, ``JOKER``, ``parse_cards("As Td 7h 2c JK")``, the decks, ``shuffled(cards, rng)``;
    ``evaluate(cards, ranking, wild=...) -> HandValue`` and ``Ranking``.

Rules as data (:mod:`engine.rules`)
    ``GameRules(name, steps, deck=, split=, high=, low=, low_qualifier=, high_needs_pair=,
    wild=, max_players=, open_requirement=, progressive=, jackpot_limit=, pass_out_on_checks=,
    switch_on_pass_out=, win_requirement=, opener_must_win=, seven_rule=, no_check_raise=,
    forced_bets=)``.
    Steps: ``Deal(count, face_up=False)``, ``DealBoard(count=1, wild_rank=True, plays=False)``,
    ``Bet(tier=BetTier.SMALL, scale=1, start=BetStart.AUTO, checking=True, double_min=False,
    blind=False)``, ``Draw(limit=None, counts=None, extra=0, start=DrawStart.DEALER_LEFT,
    bosnian=False)``, ``DrawSeries(counts={0, 1, 5})``, ``Pass(count, direction)``,
    ``Arrange(size=5)``, ``Reveal(index)``, ``Declare()``. Enums ``DeckKind``, ``Split``,
    ``Direction``, ``PassDirection``, ``BetTier``, ``BetStart``, ``DrawStart``; values
    ``DrawLimit(most, with_ace=None)`` (``DRAW_THREE``, ``DRAW_FOUR_WITH_ACE``, ``DRAW_FOUR``,
    ``DRAW_FIVE``), ``WildCards(ranks, cards, joker)``, ``Requirement.pair(rank)`` /
    ``Requirement.trips()``.

Stakes (:mod:`engine.stakes`)
    ``FixedLimit(small_bet, big_bet=2*small, max_raises=4)``,
    ``SpreadLimit(min_bet, max_bet, min_bet_after=min_bet, max_bet_after=max_bet,
    max_raises=4)``, ``PotLimit(min_bet=1)``, ``NoLimit(min_bet=1)``;
    ``ForcedBets(ante=0, blinds=(), dealer_edge=False, blinds_from_dealer=False)`` with
    ``ForcedBets.antes(n)``, ``ForcedBets.dealers_edge(n)``,
    ``ForcedBets.with_blinds(small, big, straddle=None, ante=0)``.

The catalogue (:mod:`engine.variants`)
    ``VARIANTS`` (slug -> ``Variant``), ``get_variant(slug)``, ``list_variants()``. A
    ``Variant`` has ``slug``, ``name``, ``description``, ``rules``, the recommended
    ``structure``, ``forced_bets`` and ``max_players``, and ``options`` (``VariantOption`` with
    ``key``, ``label``, ``description``, ``default``); ``variant.build(enabled_keys)`` gives
    the rules with those options on.

Modifiers (:mod:`engine.modifiers`)
    Named changes to a game's rules, shared by variant options and dealer's choice:
    ``bug``, ``no-joker``, ``joker-wild``, ``wild:R`` (2-14), ``one-eyed`` (the two one-eyed
    jacks), ``one-eyed-king`` (the king of diamonds too), ``draws:N`` (1-3), ``cards:N``
    (hands of 3, 4 or 6-9 cards; short hands rank by pairs and sets only), ``four-before``,
    ``low:a5``/``low:27``/``low:a6``, ``high``, ``hilo:8``/``hilo:9``/``hilo:any`` (any pair,
    no pair: a pair or better for high, no pair for low), ``declare``, ``progressive``,
    ``jackpot-limit``, ``lowball-blind``, ``seven-rule``, ``no-check-raise``, ``bosnian``,
    ``no-first-round``, ``rollout`` (``MODIFIER_KEYS``).
    ``apply_modifiers(rules, keys, name=None) -> Modified`` (``.rules`` named like
    "Triple-draw California lowball, kings wild", ``.warnings`` for broken guidelines: more
    than six wild cards, more than eight cards, more than five betting rounds);
    ``check_rules(rules)`` refuses high-low without a qualifier or a declaration;
    ``describe_modifier(key)`` (a few words), ``explain_modifier(key)`` (rules text),
    ``game_name(base, keys)``.

The table (:mod:`engine.table`)
    ``Table(TableConfig(variant="five-card-draw", structure=None, forced_bets=None,
    max_seats=None, variant_options=None, options=TableOptions(...), dealers_choice=False))``
    (``None`` = the variant's recommendation; ``variant_options`` takes the variant's option
    keys and any modifier key). ``TableOptions(pass_out_reante=True,
    pass_out_deal_passes=True, second_round_from_opener=True, draw_limit=None,
    diablo_cap=None, newcomers=None, no_five_in_a_row=False, progressive_back_down=True,
    muck_losers=False, blind_off_absent=False)``; ``TableConfig.rules_notes()`` says which
    way the table plays where the rules books differ, ``TableConfig.applicable_options()``
    which options matter in its game. ``set_options(options) -> bool`` changes the house
    rules: at once between hands, from the next deal during one (``pending_options``; the
    next deal's rules are ``next_options``); refused for an option that means nothing in the
    game. With ``dealers_choice`` each ``start_hand`` first asks the dealer for a
    ``CHOOSE_GAME`` decision (``ChooseGame(slug, modifiers)``; a ``Timeout`` deals the
    configured variant); a Diablo game goes on (``table.dc_lock``) until its opener wins, and
    the choice then passes to the left of the player who called it.

    Seats: ``sit(player_id, stack, seat=None) -> seat``, ``leave(player_id) -> stack | None``
    (``None`` during a hand: the stack is paid out when the hand ends, collect it with
    ``take_payouts() -> {player_id: chips}``), ``sit_out(player_id)``, ``sit_in(player_id)``,
    ``add_chips(player_id, amount)`` (between hands), ``seat_of(player_id)``,
    ``stack(player_id)``, ``close() -> {player_id: chips}`` (between hands: every chip at
    the table back to its players, a carried pot to whoever put it in, chips of players gone
    shared from the dealer's left), ``carried_stakes`` (who has chips in the carried pot: they
    are dealt into the next deal even with no stack), ``return_carried() -> {player_id:
    chips}`` (between hands: the carried pot back into the stacks of who put it in). The button
    moves left each hand. A player seated after the first deal may have to wait for the deal
    to reach their seat, or post a blind (``TableOptions.newcomers``; ``newcomer_rule``);
    the public view shows ``SeatView.waiting`` and ``waiting_reason``.

    Hands: ``can_start() -> reason | None``; ``start_hand(rng, deck=None) -> events``;
    ``pending -> tuple[Decision, ...]``; ``to_act -> seats``; ``act(seat_or_player_id, action)
    -> events`` (raises ``IllegalAction``, a ``ValueError``, with the reason, changing
    nothing); ``events`` (the hand's log); ``result`` (``HandResult`` of the last hand);
    ``chips()`` (every chip at the table, for conservation checks).

    Views: ``public_view() -> PublicView``, ``private_view(seat_or_player_id) ->
    PrivateView``, both frozen with ``to_dict()``.

    Persistence: ``to_dict()`` / ``Table.from_dict(data)``: a JSON-compatible snapshot that
    rebuilds the table and any hand in progress exactly.

Decisions (:mod:`engine.decisions`)
    ``Decision(seat, player_id, kind, legal)``; ``DecisionKind`` ``BET``, ``DRAW``, ``KEEP``,
    ``PASS``, ``ARRANGE``, ``DECLARE``, ``CHOOSE_GAME``; ``legal`` is ``BetOptions``
    (``can_check``, ``to_call``, ``min_to``/``max_to``, ``all_in_to``, ``can_all_in``,
    ``is_bet``, ``fixed_limit``, ``raises_left``, ``quick_amounts()``...), ``DrawOptions``
    (``cards``, ``counts``, ``ace_count``, ``condition``, ``extra``, ``bosnian``),
    ``KeepOptions``, ``PassOptions``, ``ArrangeOptions``, ``DeclareOptions``,
    ``ChooseOptions``.

Actions (:mod:`engine.actions`)
    ``Fold()``, ``Check()``, ``Call()``, ``Bet(to)``, ``Raise(to)`` (``to`` = the player's
    total for the round), ``AllIn()``, ``Discard(cards)`` (empty = stand pat), ``Keep(card)``,
    ``PassCards(cards)``, ``Arrange(order)``, ``Declare(direction)``, ``ChooseGame(slug,
    modifiers)``, ``Timeout()``; ``action_to_dict`` / ``action_from_dict``.

Events (:mod:`engine.events`)
    Frozen events with ``to_dict()``, ``public_dict()`` (face-down cards replaced by their
    number) and ``visible_to(seat)``: ``GameChosen``, ``HandStarted``, ``ForcedBet``,
    ``PotCarried``, ``Dealt``, ``BoardDealt``, ``Burned``, ``RoundStarted``, ``TimedOut``,
    ``Folded``, ``Checked``, ``Called``, ``BetPlaced``, ``Raised``, ``BetReturned``,
    ``PassedOut``, ``GameSwitched``, ``Drew``, ``Reshuffled``, ``OpenersSplit``,
    ``BosnianOffer``, ``BosnianKept``, ``CardsPassed``, ``Arranged``, ``CardRevealed``,
    ``Declared``, ``Shown``, ``OpenersShown``, ``PotAwarded``, ``PlayerLeft``,
    ``LastCardDealt`` (no five in a row), ``Misdeal`` (a void deal, dealt again; it comes
    first in the new hand's events), ``HandEnded``.
    ``HandResult`` (``table.result``) summarises a hand: pots with their shares, hands shown in
    showdown order, the uncontested winner, openers shown, passed-out and carried chips,
    returned bets, final stacks, a note for special endings and the low qualifier of a
    high-low game (so that it is drawn as it was whatever game comes next).

Errors (:mod:`engine.errors`)
    ``IllegalAction`` and ``TableError``, both ``ValueError``.

Randomness only ever comes from the ``random.Random`` passed to ``start_hand``; the engine
keeps no global state.

A hand from the first bet to the result (a preset deck makes it repeatable):

>>> import random
>>> from engine import Bet, Call, Check, Discard, Table, TableConfig, parse_cards
>>> table = Table(TableConfig("five-card-draw"))
>>> table.sit("ann", 100), table.sit("bob", 100)
(0, 1)
>>> _ = table.start_hand(random.Random(1), deck=parse_cards("As Kd Ah Kc Ad Ks Qh Qd 2c 3c"))
>>> for who, action in [("ann", Bet(2)), ("bob", Call()), ("ann", Discard(())),
...                     ("bob", Discard(())), ("ann", Check()), ("bob", Check())]:
...     _ = table.act(who, action)
>>> [(shown.player_id, shown.high) for shown in table.result.shown]
[('ann', 'Three of a kind, aces'), ('bob', 'Three of a kind, kings')]
>>> table.result.final_stacks
{'ann': 103, 'bob': 97}
"""

from __future__ import annotations

from engine.actions import (
    Action,
    AllIn,
    Arrange,
    Bet,
    Call,
    Check,
    ChooseGame,
    Declare,
    Discard,
    Fold,
    Keep,
    Muck,
    PassCards,
    Raise,
    Show,
    Timeout,
    action_from_dict,
    action_to_dict,
)
from engine.cards import DECK_32, DECK_52, DECK_53, JOKER, Card, parse_cards, shuffled
from engine.decisions import (
    ArrangeOptions,
    BetOptions,
    ChooseOptions,
    Decision,
    DecisionKind,
    DeclareOptions,
    DrawOptions,
    KeepOptions,
    PassOptions,
    ShowOptions,
)
from engine.errors import IllegalAction, TableError
from engine.events import Event, HandResult, PotResult, PotShare, ShownHand
from engine.hands import HandValue, Ranking, evaluate
from engine.modifiers import (
    MODIFIER_KEYS,
    Modified,
    apply_modifiers,
    check_rules,
    describe_modifier,
    explain_modifier,
)
from engine.rules import (
    DRAW_FIVE,
    DRAW_FOUR,
    DRAW_FOUR_WITH_ACE,
    DRAW_THREE,
    BetStart,
    BetTier,
    DeckKind,
    Direction,
    DrawLimit,
    DrawStart,
    GameRules,
    PassDirection,
    Requirement,
    Split,
    WildCards,
)
from engine.stakes import FixedLimit, ForcedBets, NoLimit, PotLimit, SpreadLimit, Structure
from engine.table import Table, TableConfig, TableOptions
from engine.variants import VARIANTS, Variant, VariantOption, get_variant, list_variants
from engine.views import LastAction, PotView, PrivateView, PublicView, SeatView

__all__ = [
    "DECK_32",
    "DECK_52",
    "DECK_53",
    "DRAW_FIVE",
    "DRAW_FOUR",
    "DRAW_FOUR_WITH_ACE",
    "DRAW_THREE",
    "JOKER",
    "MODIFIER_KEYS",
    "VARIANTS",
    "Action",
    "AllIn",
    "Arrange",
    "ArrangeOptions",
    "Bet",
    "BetOptions",
    "BetStart",
    "BetTier",
    "Call",
    "Card",
    "Check",
    "ChooseGame",
    "ChooseOptions",
    "Decision",
    "DecisionKind",
    "DeckKind",
    "Declare",
    "DeclareOptions",
    "Direction",
    "Discard",
    "DrawLimit",
    "DrawOptions",
    "DrawStart",
    "Event",
    "FixedLimit",
    "Fold",
    "ForcedBets",
    "GameRules",
    "HandResult",
    "HandValue",
    "IllegalAction",
    "Keep",
    "KeepOptions",
    "LastAction",
    "Modified",
    "Muck",
    "NoLimit",
    "PassCards",
    "PassDirection",
    "PassOptions",
    "PotLimit",
    "PotResult",
    "PotShare",
    "PotView",
    "PrivateView",
    "PublicView",
    "Raise",
    "Ranking",
    "Requirement",
    "SeatView",
    "Show",
    "ShowOptions",
    "ShownHand",
    "Split",
    "SpreadLimit",
    "Structure",
    "Table",
    "TableConfig",
    "TableError",
    "TableOptions",
    "Timeout",
    "Variant",
    "VariantOption",
    "WildCards",
    "action_from_dict",
    "action_to_dict",
    "apply_modifiers",
    "check_rules",
    "describe_modifier",
    "evaluate",
    "explain_modifier",
    "get_variant",
    "list_variants",
    "parse_cards",
    "shuffled",
]
