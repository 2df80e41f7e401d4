"""Shared helpers for the engine's table tests: preset decks, tables, random legal play and
invariant checks."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from engine import (
    AllIn,
    Arrange,
    Bet,
    BetOptions,
    Call,
    Check,
    ChooseGame,
    ChooseOptions,
    DecisionKind,
    Declare,
    Direction,
    Discard,
    DrawOptions,
    Fold,
    ForcedBets,
    IllegalAction,
    Keep,
    Muck,
    PassCards,
    Raise,
    Show,
    Table,
    TableConfig,
    TableOptions,
    Timeout,
)
from engine.actions import Action
from engine.cards import Card, parse_cards
from engine.stakes import Structure


def deck_for(hands: Sequence[str], rest: str = "") -> list[Card]:
    """A deck that deals ``hands`` (clockwise from the dealer's left, five cards each or any
    equal number) one card at a time, followed by the cards in ``rest`` (burn card first)."""
    parsed = [parse_cards(h) for h in hands]
    size = len(parsed[0])
    assert all(len(h) == size for h in parsed)
    deck = [h[r] for r in range(size) for h in parsed]
    deck.extend(parse_cards(rest))
    assert len(set(deck)) == len(deck), "a card appears twice in the preset deck"
    return deck


def make_table(
    names: Sequence[str],
    *,
    variant: str = "five-card-draw",
    structure: Structure | None = None,
    forced: ForcedBets | None = None,
    stacks: Sequence[int] | int = 100,
    options: TableOptions | None = None,
    variant_options: tuple[str, ...] | None = None,
    seats: int | None = None,
    dealers_choice: bool = False,
) -> Table:
    """A table with ``names`` seated in seats 0, 1, 2... The first hand's dealer is the last
    name, so the first name is on the dealer's left."""
    config = TableConfig(
        variant,
        structure=structure,
        forced_bets=forced,
        max_seats=seats if seats is not None else max(len(names), 2),
        variant_options=variant_options,
        options=options if options is not None else TableOptions(),
        dealers_choice=dealers_choice,
    )
    table = Table(config)
    amounts = [stacks] * len(names) if isinstance(stacks, int) else list(stacks)
    for name, stack in zip(names, amounts, strict=True):
        table.sit(name, stack)
    return table


def play(table: Table, moves: Sequence[tuple[str, Action]]) -> None:
    """Apply ``moves`` in order, checking each mover is the one the table waits for."""
    for who, action in moves:
        waiting = [d.player_id for d in table.pending]
        assert who in waiting, f"{who} is not to act (waiting for {waiting}) before {action}"
        table.act(who, action)


def random_action(rng: random.Random, table: Table) -> tuple[int, Action]:
    """A random legal action of one of the pending decisions."""
    decision = rng.choice(table.pending)
    legal = decision.legal
    kind = decision.kind
    action: Action
    if kind is DecisionKind.BET:
        assert isinstance(legal, BetOptions)
        choices: list[Action] = []
        if legal.can_check:
            choices += [Check()] * 3
        elif legal.to_call > 0:
            choices += [Call()] * 3 + [Fold()]
        else:
            choices.append(Fold())  # open or fold
        if legal.min_to is not None and legal.max_to is not None:
            amount = rng.randint(legal.min_to, legal.max_to)
            choices += [Raise(amount) if not legal.is_bet else Bet(amount)] * 2
            choices.append(Bet(legal.min_to))
        if legal.can_all_in:
            choices.append(AllIn())
        action = rng.choice(choices)
    elif kind is DecisionKind.DRAW:
        assert isinstance(legal, DrawOptions)
        count = rng.choice(legal.counts)
        cards = list(legal.cards)
        if legal.ace_count is not None and count == legal.ace_count:
            keepers = [c for c in cards if c.rank == 14 or c.is_joker]
            if not keepers:
                count = max(c for c in legal.counts if c != legal.ace_count)
                action = Discard(tuple(rng.sample(cards, count)))
                return decision.seat, action
            keep = rng.choice(keepers)
            pool = [c for c in cards if c is not keep]
            action = Discard(tuple(rng.sample(pool, count)))
            return decision.seat, action
        action = Discard(tuple(rng.sample(cards, count)))
    elif kind is DecisionKind.KEEP:
        action = Keep(rng.choice([legal.face_up, None]))  # type: ignore[union-attr]
    elif kind is DecisionKind.PASS:
        action = PassCards(tuple(rng.sample(list(legal.cards), legal.count)))  # type: ignore[union-attr]
    elif kind is DecisionKind.ARRANGE:
        action = Arrange(tuple(rng.sample(list(legal.cards), legal.size)))  # type: ignore[union-attr]
    elif kind is DecisionKind.DECLARE:
        action = Declare(rng.choice(list(Direction)))
    elif kind is DecisionKind.SHOW:
        action = rng.choice([Show(), Muck()])
    else:
        raise AssertionError(f"unexpected decision {decision}")
    return decision.seat, action


def check_cards(table: Table) -> None:
    """Every card of the pack is in exactly one place."""
    hand = table.hand
    if hand is None or (hand.over and table.in_hand):
        return  # dealer's choice: no cards out yet
    where = hand.card_locations()
    counts = Counter(card for cards in where.values() for card in cards)
    doubled = [card for card, n in counts.items() if n > 1]
    assert not doubled, f"cards in two places: {doubled} ({where})"
    if not hand.over:
        assert set(counts) == set(hand.setup.deck), "a card went missing"


def check_held_cards(table: Table) -> None:
    """``held_cards`` (the bot's cheap change detector) agrees with every seat's private view."""
    from_views = {}
    for seat in table.seats:
        if seat is not None:
            cards = table.private_view(seat.player_id).cards
            if cards:
                from_views[seat.player_id] = cards
    assert table.held_cards() == from_views


def choose_random_game(rng: random.Random, table: Table) -> None:
    """Dealer's choice: try random games with random modifiers until one is accepted (a
    refused choice must change nothing), else let the timeout deal the default game."""
    decision = table.pending[0]
    legal = decision.legal
    assert isinstance(legal, ChooseOptions)
    for _ in range(30):
        slug = rng.choice(legal.slugs)
        modifiers = tuple(rng.sample(legal.modifiers, rng.choice([0, 0, 1, 1, 2, 3])))
        before = table.to_dict()
        try:
            table.act(decision.seat, ChooseGame(slug, modifiers))
            return
        except IllegalAction:
            assert table.to_dict() == before
    table.act(decision.seat, Timeout())


def play_random_hand(rng: random.Random, table: Table, total: int, max_actions: int = 2000) -> int:
    """Play the current hand to its end with random legal actions, checking the invariants
    after every action; returns the number of actions."""
    actions = 0
    while table.in_hand:
        assert table.pending, "the hand stalled: nobody has a decision"
        if table.pending[0].kind is DecisionKind.CHOOSE_GAME:
            choose_random_game(rng, table)
            continue
        seat, action = random_action(rng, table)
        table.act(seat, action)
        actions += 1
        assert table.chips() == total, "chips were created or lost"
        check_cards(table)
        check_held_cards(table)
        assert actions < max_actions, "the hand never ends"
    return actions


def check_result(table: Table) -> None:
    """Checks on a finished hand: showdown hands have the game's size, every share goes to a
    player eligible for its pot, and the pots add up."""
    hand = table.hand
    assert hand is not None and hand.over
    result = table.result
    assert result is not None
    rules = hand.rules
    expected = rules.min_hand_size + (rules.board_cards if rules.board_plays else 0)
    for shown in result.shown:
        assert len(shown.cards) == expected, f"{shown} should hold {expected} cards"
    live = {p.seat for p in hand.players if not p.folded}
    for pot in result.pots:
        assert set(pot.eligible) <= live or result.passed_out
        assert sum(s.amount for s in pot.shares) == pot.amount
        for share in pot.shares:
            assert share.seat in pot.eligible, f"{share} is not eligible for pot {pot}"
    paid = sum(p.amount for p in result.pots)
    committed = sum(p.committed for p in hand.players) + hand.carried
    assert paid + result.carried == committed
