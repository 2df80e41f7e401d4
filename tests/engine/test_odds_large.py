"""Draw odds of hands of more than five cards (seven-card draw, the ``cards:N`` games).

Exact counts are checked set by set against the best five of the final hand taken by the
five-card evaluator; estimates against the exact count they stand for, and for being
repeatable from their seed. The house players and the coach then use them.
"""

from __future__ import annotations

import random
from itertools import combinations
from math import comb

import pytest

from engine import Table, TableConfig, house
from engine import odds as odds_module
from engine.actions import ChooseGame, Discard
from engine.cards import DECK_52, Card, parse_cards
from engine.decisions import DrawOptions
from engine.hands import Ranking, evaluate
from engine.house import NoOdds, decide, draw_advice, study_odds
from engine.odds import EXACT_LIMIT, best_draws, draw_odds, strength_of
from engine.variants import get_variant


def best_five_score(cards: tuple[Card, ...], ranking: Ranking) -> int:
    return max(evaluate(five, ranking).score for five in combinations(cards, 5))


def brute_force(
    hand: tuple[Card, ...], discard: tuple[Card, ...], ranking: Ranking
) -> dict[int, int]:
    kept = tuple(card for card in hand if card not in discard)
    unseen = [card for card in DECK_52 if card not in hand]
    tally: dict[int, int] = {}
    for drawn in combinations(unseen, len(discard)):
        score = best_five_score((*kept, *drawn), ranking)
        tally[score] = tally.get(score, 0) + 1
    return tally


@pytest.mark.parametrize(
    ("cards", "thrown", "ranking"),
    [
        ("Ah Kh Qh Jh 2c 7d 8s", "2c 7d", Ranking.HIGH),
        ("9s 9d 5c 3h 2d Kc", "5c", Ranking.HIGH),
        ("7s 5d 4c 2h Kd Kc 9s", "Kd Kc", Ranking.DEUCE_TO_SEVEN),
        ("As 3d 4c 5h Qd Qc 9s 8s", "Qd", Ranking.ACE_TO_FIVE),
        ("6d 4d 3d 2d Ad Kc", "Kc", Ranking.ACE_TO_SIX),
    ],
)
def test_exact_counts_agree_with_the_best_five(cards: str, thrown: str, ranking: Ranking) -> None:
    hand, discard = parse_cards(cards), parse_cards(thrown)
    odds = draw_odds(hand, discard, ranking)
    assert odds.exact
    expected = brute_force(hand, discard, ranking)
    assert odds.draws == comb(52 - len(hand), len(discard)) == sum(expected.values())
    assert {value.score: count for value, count in odds.outcomes} == expected
    assert odds.current == evaluate(hand, ranking)


def test_an_estimate_says_so_and_is_close_to_the_count() -> None:
    hand = parse_cards("Ah Kh Qh Jh 2c 7d 8s")
    discard = parse_cards("2c 7d 8s")  # 14,190 sets
    counted = draw_odds(hand, discard, Ranking.HIGH)
    assert counted.exact and counted.draws == 14_190 <= EXACT_LIMIT
    estimate = draw_odds(hand, discard, Ranking.HIGH, exact_limit=1_000, samples=4_000)
    assert not estimate.exact
    assert estimate.draws == 4_000
    exact_share = counted.improves / counted.draws
    sampled_share = estimate.improves / estimate.draws
    # four standard errors of a 4,000-set sample
    assert abs(sampled_share - exact_share) < 4 * (exact_share * (1 - exact_share) / 4_000) ** 0.5
    flushes = counted.categories["flush"] / counted.draws
    assert abs(estimate.categories["flush"] / estimate.draws - flushes) < 0.04


def test_estimates_repeat_from_their_seed() -> None:
    hand = parse_cards("7s 5d 4c 2h Kd Kc 9s")
    discard = parse_cards("Kd Kc 9s")

    def estimate(rng: random.Random | None) -> dict[str, int]:
        odds = draw_odds(
            hand, discard, Ranking.DEUCE_TO_SEVEN, exact_limit=100, samples=500, rng=rng
        )
        assert not odds.exact
        return odds.categories

    assert estimate(None) == estimate(None)  # seeded by the hand
    assert estimate(random.Random(5)) == estimate(random.Random(5))
    assert estimate(random.Random(5)) != estimate(random.Random(6))


def test_high_low_halves_are_valued_on_the_same_sets() -> None:
    hand = parse_cards("As 2d 3c Kh Kd 9s Qc")
    discard = parse_cards("Kh 9s Qc")
    odds = draw_odds(
        hand,
        discard,
        Ranking.HIGH,
        low=Ranking.ACE_TO_FIVE,
        low_qualifier=8,
        exact_limit=100,
        samples=300,
    )
    assert odds.low is not None and not odds.low.exact
    assert odds.draws == odds.low.draws == 300
    assert odds.low.qualifier == 8


def test_best_draws_of_seven_cards() -> None:
    hand = parse_cards("Ah Kh Qh Jh 2c 7d 8s")
    ranked = best_draws(hand, Ranking.HIGH, max_discard=2)
    assert len(ranked) == 1 + 7 + 21
    # two of the three odd cards go: the four hearts stay, for the flush and the royal
    assert len(ranked[0][0]) == 2 and set(ranked[0][0]) <= set(parse_cards("2c 7d 8s"))
    strengths = [odds.strength for _, odds in ranked]
    assert strengths == sorted(strengths, reverse=True)
    with pytest.raises(ValueError, match="from 0 to 7"):
        best_draws(hand, Ranking.HIGH, max_discard=8)
    with pytest.raises(ValueError, match="up to nine"):
        draw_odds((*hand, *parse_cards("2d 3d 4d")), (), Ranking.HIGH)


def _seven_card_draw_turn() -> tuple[Table, DrawOptions]:
    table = Table(TableConfig("seven-card-draw"))
    for name in ("ann", "bob", "cat"):
        table.sit(name, 500)
    table.start_hand(random.Random(4))
    while table.pending and not isinstance(table.pending[0].legal, DrawOptions):
        decision = table.pending[0]
        view = table.private_view(decision.seat)
        rules = table.config.rules()
        table.act(
            decision.seat,
            decide(view, table.public_view(), decision, "normal", random.Random(1), rules=rules),
        )
    legal = table.pending[0].legal
    assert isinstance(legal, DrawOptions) and len(legal.cards) == 7
    return table, legal


def test_house_players_and_the_coach_count_seven_card_draw() -> None:
    table, legal = _seven_card_draw_turn()
    decision = table.pending[0]
    rules = table.config.rules()
    view, public = table.private_view(decision.seat), table.public_view()
    advice = draw_advice(view, public, rules)
    assert 1 <= len(advice) <= 3
    for discard, odds in advice:
        assert legal.refusal(discard) is None
        assert len(odds.hand) == 7 and odds.draws > 0
    for level in ("easy", "normal", "hard"):
        action = decide(view, public, decision, level, random.Random(2), rules=rules)
        assert isinstance(action, Discard) and legal.refusal(action.cards) is None
    assert decide(view, public, decision, "hard", random.Random(9), rules=rules) == decide(
        view, public, decision, "hard", random.Random(9), rules=rules
    )


def test_study_odds_of_other_sizes() -> None:
    seven = get_variant("seven-card-draw").rules
    hand = parse_cards("Ah Kh Qh Jh 2c 7d 8s")
    (_, odds), *_ = study_odds(hand, seven)
    assert len(odds.hand) == 7
    [(_, one)] = study_odds(hand, seven, parse_cards("2c 7d 8s"))
    assert one.exact and one.draws == 14_190
    with pytest.raises(ValueError, match="holds 7 cards in this game, not 5"):
        study_odds(hand[:5], seven)
    with pytest.raises(NoOdds):
        study_odds(parse_cards("9h 9d 4c 2s 3d"), get_variant("spit-in-the-ocean").rules)


def test_strength_of_a_value_is_its_stand_pat_strength() -> None:
    hand = parse_cards("Ks Kd 7c 4h 2s")
    value = evaluate(hand, Ranking.HIGH)
    assert strength_of(value) == draw_odds(hand, (), Ranking.HIGH).strength
    # a value made with the joker is placed among the hands of a deck without it
    bug = evaluate(parse_cards("JK Kd 7c 4h 2s"), Ranking.HIGH)
    assert strength_of(bug) == strength_of(evaluate(parse_cards("Ac Kd 7c 4h 2s"), Ranking.HIGH))


@pytest.mark.parametrize(
    "modifiers",
    [("cards:6",), ("cards:8", "hilo:8"), ("cards:7", "wild:2", "bug"), ("cards:9", "low:27")],
)
def test_house_players_count_the_cards_n_games(modifiers: tuple[str, ...]) -> None:
    """Dealer's choice of five-card draw with more cards: every draw the house players make
    is legal, and the coach has odds for each of them."""
    table = Table(TableConfig("five-card-draw", dealers_choice=True))
    for name in ("ann", "bob", "cat"):
        table.sit(name, 500)
    rng = random.Random(7)
    draws = 0
    for _ in range(3):
        table.start_hand(rng)
        table.act(table.pending[0].seat, ChooseGame("five-card-draw", modifiers))
        while table.pending:
            decision = table.pending[0]
            rules = table.current_rules
            view, public = table.private_view(decision.seat), table.public_view()
            action = decide(view, public, decision, "hard", rng, rules=rules)
            if isinstance(decision.legal, DrawOptions):
                size = int(modifiers[0].split(":")[1])
                assert len(decision.legal.cards) == size
                assert isinstance(action, Discard) and decision.legal.refusal(action.cards) is None
                if draws == 0:
                    assert draw_advice(view, public, rules)
                draws += 1
            table.act(decision.seat, action)
    assert draws > 0


def test_the_coach_counts_a_large_stripped_deck_hand_within_its_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Thirty-two-card poker dealt nine cards: each set drawn is 126 five-card hands to rank
    with no short cut, and the coach counted every discard in full (two minutes, the panel
    and every house player waiting). It now ranks at most COACH_BUDGET five-card hands, and
    says its odds are estimates."""
    table = Table(TableConfig("five-card-draw", dealers_choice=True))
    for name in ("ann", "bob", "cat"):
        table.sit(name, 500)
    table.start_hand(random.Random(5))
    table.act(table.pending[0].seat, ChooseGame("32-card-poker", ("cards:9",)))
    rng = random.Random(3)
    while not isinstance(table.pending[0].legal, DrawOptions):
        decision = table.pending[0]
        rules = table.current_rules
        view, public = table.private_view(decision.seat), table.public_view()
        table.act(decision.seat, decide(view, public, decision, "easy", rng, rules=rules))
    decision = table.pending[0]
    view, public, rules = (
        table.private_view(decision.seat),
        table.public_view(),
        table.current_rules,
    )
    ranked = [0]
    real = odds_module.evaluate

    def counting(*args: object, **kwargs: object) -> object:
        ranked[0] += 1
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(odds_module, "evaluate", counting)
    advice = draw_advice(view, public, rules)
    assert advice and not all(odds.exact for _, odds in advice)
    assert all(decision.legal.refusal(discard) is None for discard, _ in advice)  # type: ignore[union-attr]
    assert 0 < ranked[0] * comb(9, 5) <= house.COACH_BUDGET


def test_study_odds_offers_only_the_draws_the_game_allows() -> None:
    """/odds advised throwing four without an ace in five-card draw, and counts all for one
    does not allow; a named discard like that was counted too."""
    hand = parse_cards("Kc 9d 7h 4s 3c")
    five = get_variant("five-card-draw").rules
    advice = study_odds(hand, five)
    assert advice and all(len(discard) <= 3 for discard, _ in advice)
    with pytest.raises(ValueError, match="only when keeping an ace or a wild card"):
        study_odds(hand, five, parse_cards("9d 7h 4s 3c"))
    aced = parse_cards("Ac 9d 7h 4s 3c")
    assert study_odds(aced, five, parse_cards("9d 7h 4s 3c"))[0][1].draws == comb(47, 4)
    all_for_one = get_variant("all-for-one").rules
    assert all(len(discard) in (0, 1, 5) for discard, _ in study_odds(hand, all_for_one))
