"""House players (engine.house): legal play in every game, chips conserved, hands that end,
and decisions that depend on nothing a person in the seat could not see."""

from __future__ import annotations

import gc
import random
import tracemalloc
from collections.abc import Callable

import pytest

from engine import Table, TableConfig, house
from engine.actions import (
    Action,
    Bet,
    Call,
    Check,
    ChooseGame,
    Discard,
    Fold,
    PassCards,
    Raise,
)
from engine.cards import DECK_52, Card, parse_cards
from engine.decisions import BetOptions, Decision, DecisionKind
from engine.habits import Habits
from engine.house import LEVELS, Level
from tests.engine.engine_helpers import make_table
from tests.house_selfplay import game_name, games, house_action, play

# tests/engine/test_house_selfplay.py plays 1,000 hands of every game in the background of the
# whole suite; here a few, for a quick answer when only the engine's tests run.
HANDS = 25


@pytest.mark.parametrize(("slug", "choice"), games(), ids=[game_name(*g) for g in games()])
def test_house_players_alone_play_every_game(slug: str, choice: bool) -> None:
    report = play(slug, choice, HANDS if slug != "all-for-one" else 6, seed=hash(slug) % 1000)
    assert "error" not in report, report
    assert report["chips"] == report["expected"], report
    assert "BET" in report["kinds"], report


def _deck_with_other_hands(
    deck: list[Card], seat_positions: list[int], rng: random.Random
) -> list[Card]:
    """``deck`` with the cards at ``seat_positions`` (other players' cards) swapped for cards
    from the bottom of the deck, which nobody reaches in one hand."""
    changed = list(deck)
    bottom = list(range(len(deck) - 1, len(deck) - 1 - len(seat_positions), -1))
    for position, other in zip(seat_positions, bottom, strict=True):
        changed[position], changed[other] = changed[other], changed[position]
    return changed


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("slug", ["five-card-draw", "kansas-city-lowball", "california-high-low"])
def test_decisions_ignore_other_players_hidden_cards(level: Level, slug: str) -> None:
    """The same seat with other players' cards changed decides the same, up to its draw."""
    deal_rng = random.Random(11)
    compared = 0
    for deal in range(40):
        tables: list[Table] = []
        base = list(Table(TableConfig(slug)).config.rules().deck.cards())
        deal_rng.shuffle(base)
        # three players, five cards each, dealt one at a time from the dealer's left: the
        # house player (the first name) is on the dealer's left, so it gets every third card
        others = [i for i in range(15) if i % 3 != 0]
        decks = [base, _deck_with_other_hands(base, others, deal_rng)]
        for cards in decks:
            table = Table(TableConfig(slug, max_seats=3))
            for name in ("house", "ann", "bob"):
                table.sit(name, 200)
            # the first hand's button is the last seat, so "house" acts first
            table.start_hand(random.Random(0), deck=cards)
            tables.append(table)
        assert tables[0].private_view("ann").cards != tables[1].private_view("ann").cards
        assert tables[0].private_view("house").cards == tables[1].private_view("house").cards
        for _step in range(30):
            if not tables[0].pending:
                break
            decision = tables[0].pending[0]
            if decision.player_id == "house":
                actions = [
                    house_action(t, decision.seat, level, random.Random(deal)) for t in tables
                ]
                assert actions[0] == actions[1]
                compared += 1
                action: Action = actions[0]
                if decision.kind is DecisionKind.DRAW:
                    break  # what it draws next comes from the stub, which may now differ
            elif decision.kind is DecisionKind.BET:
                legal = decision.legal
                assert isinstance(legal, BetOptions)
                action = Check() if legal.can_check else Call()
            else:
                action = Discard(())
            for table in tables:
                table.act(decision.seat, action)
    assert compared >= 40


def test_decide_is_a_function_of_its_inputs() -> None:
    table = Table(TableConfig("five-card-draw"))
    table.sit("a", 100)
    table.sit("b", 100)
    table.start_hand(random.Random(5))
    seat = table.pending[0].seat
    first = [house_action(table, seat, Level.HARD, random.Random(n)) for n in range(20)]
    again = [house_action(table, seat, Level.HARD, random.Random(n)) for n in range(20)]
    assert first == again


def _house_draw(slug: str, house: str, level: Level) -> Action:
    """What a house player holding ``house`` draws heads-up in ``slug``, after a bet and a
    call."""
    table = Table(TableConfig(slug, max_seats=2))
    table.sit("house", 200)
    table.sit("ann", 200)
    hand = parse_cards(house)
    ann = parse_cards("3s 4d 8c 9d Tc")
    deck_cards = table.config.rules().deck.cards()
    rest = [c for c in deck_cards if c not in hand and c not in ann]
    deck = [card for pair in zip(hand, ann, strict=True) for card in pair] + rest
    table.start_hand(random.Random(0), deck=deck)
    while table.pending and table.pending[0].kind is DecisionKind.BET:
        pending = table.pending[0]
        legal = pending.legal
        assert isinstance(legal, BetOptions)
        if pending.player_id == "ann" and legal.can_check and legal.min_to is not None:
            # a bet keeps the deal from being passed out when both check
            table.act(pending.seat, Bet(legal.min_to))
        else:
            table.act(pending.seat, Check() if legal.can_check else Call())
    decision = table.pending[0]
    assert decision.kind is DecisionKind.DRAW and decision.player_id == "house"
    return house_action(table, decision.seat, level, random.Random(1))


@pytest.mark.parametrize("level", [Level.NORMAL, Level.HARD])
def test_house_draws_by_the_odds(level: Level) -> None:
    """Normal and hard keep a four-card flush and throw the odd card."""
    assert _house_draw("five-card-draw", "Ah Kh Qh Jh 2c", level) == Discard(parse_cards("2c"))


@pytest.mark.parametrize("level", [Level.NORMAL, Level.HARD])
@pytest.mark.parametrize(
    ("slug", "house", "thrown"),
    [
        # a king kept is a king-low at best, which a drawn low rarely loses to
        ("kansas-city-lowball", "Kc Kd 7h 4s 2c", "Kc Kd"),
        ("kansas-city-lowball", "Kc 8d 6h 4s 2c", "Kc"),
        ("triple-draw-27", "Kc Kd 7h 4s 2c", "Kc Kd"),
        # three draws to come: a king-queen low stood pat is beaten by what others draw to
        ("triple-draw-27", "Qs 6h Kh 5h 7c", "Qs Kh"),
        # and a jack- or ten-low is drawn to again while it misses: it was once stood pat on
        # as if that draw were the last
        ("triple-draw-27", "Jc 9s 7h 5d 4c", "Jc"),
        ("triple-draw-27", "Th 8d 6h 4s 2c", "Th"),
        ("california-lowball", "Qc 8d 7h 4s 2c", "Qc"),
        ("ace-to-six-lowball", "Qc 8d 7h 4s 2c", "Qc"),
    ],
)
def test_house_draws_to_a_low_that_wins(level: Level, slug: str, house: str, thrown: str) -> None:
    """A high card does not stay for the share of random hands it beats: drawn hands are
    stronger."""
    assert _house_draw(slug, house, level) == Discard(parse_cards(thrown))


@pytest.mark.parametrize(
    ("slug", "hand", "first"),
    [
        ("kansas-city-lowball", "Kc Kd 7h 4s 2c", "Kc Kd"),
        ("kansas-city-lowball", "Kc 8d 6h 4s 2c", "Kc"),
        ("california-lowball", "Qc 8d 7h 4s 2c", "Qc"),
        ("five-card-draw", "Ah Kh Qh Jh 2c", "2c"),
        # what is still in at the showdown beats an ace-king draw: the flush and straight
        # draws are drawn to, and a pair draws three
        ("five-card-draw", "Ah 7h 4h 2h Kc", "Kc"),
        ("five-card-draw", "Jh Th 9c 8d 2s", "2s"),
        ("five-card-draw", "Ac Kd 7h 7s 2c", "Ac Kd 2c"),
        ("triple-draw-27", "Jc 9s 7h 5d 4c", "Jc"),
    ],
)
def test_the_coach_recommends_the_draw_that_wins(slug: str, hand: str, first: str) -> None:
    """The coach's first draw is the one most likely to beat a typical player's final hand
    still in at the showdown, as the house players draw."""
    from engine.variants import get_variant

    advice = house.study_odds(parse_cards(hand), get_variant(slug).rules)
    assert advice[0][0] == parse_cards(first)


def _dealt(
    slug: str,
    hand: str,
    players: int,
    options: tuple[str, ...] = (),
    *,
    at: int = 0,
    opened: bool = False,
) -> Table:
    """A table of ``players`` where "house", ``at`` seats from the dealer's left, holds
    ``hand`` and the others the next cards of the pack; everyone before the house player
    checks or calls (the first of them bets, if ``opened``), up to its first decision."""
    names = [f"p{n}" for n in range(1, players)]
    names.insert(at, "house")
    table = make_table(names, variant=slug, variant_options=options or None, stacks=500)
    cards = parse_cards(hand)
    rules = table.config.rules()
    pack = [card for card in rules.deck.cards() if card not in cards]
    hands = [list(cards) if name == "house" else [pack.pop(0) for _ in cards] for name in names]
    table.start_hand(random.Random(1), deck=[h[k] for k in range(len(cards)) for h in hands] + pack)
    while table.pending[0].player_id != "house":
        legal = table.pending[0].legal
        assert isinstance(legal, BetOptions)
        if opened and legal.is_bet and legal.min_to is not None:
            table.act(table.pending[0].seat, Bet(legal.min_to))
        else:
            table.act(table.pending[0].seat, Check() if legal.can_check else Call())
    return table


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(
    ("slug", "hand", "players", "options"),
    [
        ("five-card-draw", "Ac Ad Kc Kd 7h", 3, ()),
        ("five-card-draw", "Ah Kh Qh Jh Th", 5, ()),
        ("california-high-low", "5c 4c 3c 2c Ac", 8, ()),
        ("kansas-city-lowball", "7c 5d 4h 3s 2c", 8, ()),
        ("california-lowball", "5c 4d 3h 2s Ac", 8, ()),
        ("ace-to-six-lowball", "6c 4d 3h 2s Ac", 7, ()),
        ("five-card-draw", "Ac Ad 7h", 3, ("cards:3",)),
        ("four-before", "Ac 2d 3h 4s", 3, ()),
    ],
)
def test_house_players_bet_a_big_hand_against_several_players(
    level: Level, slug: str, hand: str, players: int, options: tuple[str, ...]
) -> None:
    """The chance to beat everyone left shrinks with each player, and so does the chance that
    makes a bet pay: a fair share of the pot. Measured against one opponent's mark, a royal
    flush was checked three-handed, and a short hand's strength never reached it. Before the
    draw, a pat hand's chance once fell with each opponent as if the draw might turn it
    around against every one of them, and a raise kept one opponent's mark: normal and hard
    checked a steel wheel eight-handed in high-low, and easy and normal only called the
    blind with a pat wheel at eight players."""
    table = _dealt(slug, hand, players, options)
    decision = table.pending[0]
    actions = [house_action(table, decision.seat, level, random.Random(n)) for n in range(10)]
    # hard slowplays a monster now and then
    assert sum(isinstance(a, Bet | Raise) for a in actions) >= 8, actions


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(
    ("slug", "hand", "players", "at"),
    [
        # first to act, eight-handed: raising the blind needs at least what calling it does
        ("kansas-city-lowball", "Kc Qd 7h 4s 2c", 8, 2),
        ("kansas-city-lowball", "Kc Kd 7h 4s 2c", 8, 2),
        # junk facing a bet and four callers: an even share of the pot is no reason to call
        ("five-card-draw", "Qc Jd 7h 4s 2c", 6, 5),
    ],
)
def test_house_players_do_not_play_junk_against_several_players(
    level: Level, slug: str, hand: str, players: int, at: int
) -> None:
    """Before the draw, hard once raised a king-queen low under the gun eight-handed every
    time (its raise mark fell with the fair share below what a call needed), and normal
    called a bet with queen-high six-handed (every hand's even share of the pot, plus the
    slack for calling light, reached the pot odds)."""
    table = _dealt(slug, hand, players, at=at, opened=slug == "five-card-draw")
    decision = table.pending[0]
    legal = decision.legal
    assert isinstance(legal, BetOptions) and legal.to_call > 0
    actions = [house_action(table, decision.seat, level, random.Random(n)) for n in range(20)]
    assert not any(isinstance(a, Bet | Raise) for a in actions), actions
    if slug == "five-card-draw":
        assert sum(isinstance(a, Fold) for a in actions) >= 18, actions


def test_a_good_draw_with_draws_to_come_outranks_a_pat_jack_low() -> None:
    """Before the first of three draws, a one-card draw to a seven is worth more than what
    one draw makes of it; valued by one draw, a pat jack-low ranked above it (as it does,
    rightly, in a game of one draw)."""

    def strength(slug: str, hand: str) -> float:
        table = _dealt(slug, hand, 2)
        seat = table.pending[0].seat
        view = table.private_view(seat)
        return house.hand_strength(view, table.public_view(), table.current_rules)

    draw, pat = "7c 5d 3h 2s Kc", "Jc 9d 6h 3s 2c"
    assert strength("triple-draw-27", draw) > strength("triple-draw-27", pat)
    assert strength("kansas-city-lowball", draw) < strength("kansas-city-lowball", pat)


def test_normal_does_not_raise_a_jack_low_after_three_draws() -> None:
    """After the last of three draws a jack-low is a weak hand, not the share of hands dealt
    at random it beats: weighed against those, normal raised it to the cap, and the easy
    player beat normal by 81 big bets per 100 hands heads-up in triple draw."""
    table = _dealt("triple-draw-27", "Jc 9d 6h 3s 2c", 2)

    def choose(decision: Decision, legal: BetOptions) -> Action | None:
        last = all(len(s.draws) == 3 for s in table.public_view().seats)
        if last and decision.player_id == "house" and legal.to_call:
            return None
        if last and decision.player_id != "house" and legal.can_check and legal.min_to:
            return Bet(legal.min_to)
        return Check() if legal.can_check else Call()

    _standing_pat(table, choose)
    decision = table.pending[0]
    assert decision.player_id == "house"
    actions = [
        house_action(table, decision.seat, Level.NORMAL, random.Random(n)) for n in range(10)
    ]
    assert not any(isinstance(action, Raise) for action in actions), actions


def test_hard_folds_nothing_to_a_bet_before_the_draw() -> None:
    """Hard calls down light after the draw, where a bet may be a bluff; before it, its whole
    slack called every bet with nine-high."""
    table = _dealt("five-card-draw", "9c 8d 6h 3s 2c", 2)
    table.act(table.pending[0].seat, Check())
    legal = table.pending[0].legal
    assert isinstance(legal, BetOptions) and legal.min_to is not None
    table.act(table.pending[0].seat, Bet(legal.min_to))
    decision = table.pending[0]
    assert decision.player_id == "house"
    actions = [house_action(table, decision.seat, Level.HARD, random.Random(n)) for n in range(20)]
    # its judgement wavers a little: a close call now and then
    assert sum(isinstance(action, Fold) for action in actions) >= 15, actions


def _standing_pat(table: Table, choose: Callable[[Decision, BetOptions], Action | None]) -> Table:
    """``table`` played on with everyone standing pat at every draw and each bet as
    ``choose`` says, up to the decision it answers ``None`` to (left pending)."""
    while table.pending:
        decision = table.pending[0]
        if decision.kind is DecisionKind.DRAW:
            table.act(decision.seat, Discard(()))
            continue
        assert isinstance(decision.legal, BetOptions)
        action = choose(decision, decision.legal)
        if action is None:
            return table
        table.act(decision.seat, action)
    raise AssertionError("the hand ended before the house player faced a bet")


def _facing_a_bet_after_the_draw(
    slug: str, hand: str, players: int, options: tuple[str, ...] = ()
) -> Table:
    """``_dealt``'s table played to the house player facing a bet after the draw: it opens,
    everyone calls and stands pat; after the draw it checks, the next player bets and the
    others call."""
    table = _dealt(slug, hand, players, options)
    legal = table.pending[0].legal
    assert isinstance(legal, BetOptions) and legal.min_to is not None
    table.act(table.pending[0].seat, Bet(legal.min_to))
    checked = bet = False

    def choose(decision: Decision, legal: BetOptions) -> Action | None:
        nonlocal checked, bet
        drawn = any(s.draws for s in table.public_view().seats)
        if decision.player_id == "house" and drawn:
            if checked:
                return None
            checked = True
            return Check()
        if drawn and not bet and legal.min_to is not None:
            bet = True
            return Bet(legal.min_to)
        return Check() if legal.can_check else Call()

    return _standing_pat(table, choose)


@pytest.mark.parametrize(
    ("hand", "players", "options"),
    [("As Ad 9c 5s 2h", 4, ()), ("Ah Kd 9c", 2, ("cards:3",))],
    ids=["aces-into-three", "ace-king-three-cards"],
)
@pytest.mark.parametrize("level", [Level.EASY, Level.NORMAL])
def test_house_players_do_not_raise_a_modest_hand_after_the_draw(
    level: Level, hand: str, players: int, options: tuple[str, ...]
) -> None:
    """A bet after the draw says a hand: aces raised into a bettor and two callers, or an
    ace-high of three cards valued among the hands dealt rather than those kept, mostly lost."""
    table = _facing_a_bet_after_the_draw("five-card-draw", hand, players, options)
    decision = table.pending[0]
    actions = [house_action(table, decision.seat, level, random.Random(n)) for n in range(10)]
    assert not any(isinstance(action, Raise) for action in actions), actions


@pytest.mark.parametrize(
    ("hand", "passed"),
    [
        ("2h 4h 6h 8h Th Kc 3d", "2h Kc 3d"),  # four to a flush, not the three lowest
        ("5c 6d 7h 8s 9c Kd Ah", "5c Kd Ah"),  # four to a straight
    ],
)
def test_anaconda_passes_keep_four_to_a_flush_or_a_straight(hand: str, passed: str) -> None:
    """Three cards passed from seven: what is kept is four to a flush or a straight, not what
    is left once the lowest cards are gone (that broke straights and flushes)."""
    table = _dealt("anaconda", hand, 3)
    while table.pending[0].kind is DecisionKind.BET:
        legal = table.pending[0].legal
        assert isinstance(legal, BetOptions)
        table.act(table.pending[0].seat, Check() if legal.can_check else Call())
    decision = next(d for d in table.pending if d.player_id == "house")
    action = house_action(table, decision.seat, Level.NORMAL, random.Random(1))
    assert isinstance(action, PassCards) and set(action.cards) == set(parse_cards(passed))


def test_easy_keeps_a_made_straight() -> None:
    assert _house_draw("five-card-draw", "9c Td Jh Qs Kc", Level.EASY) == Discard(())


def test_a_split_hand_of_seven_cards_is_worth_at_most_a_scoop() -> None:
    """A split game's worth runs to 1.25 (a scoop); the power that sets the best five of seven
    cards against others' best five of seven raised a worth above 1 higher still."""
    table = _dealt("high-low-declare", "Kc Kd Qh Qs Jc Jd 9s", 3, ("cards:7",))
    seat = table.pending[0].seat
    view = table.private_view(seat)
    assert house.hand_strength(view, table.public_view(), table.current_rules) <= 1.25


def _after_the_draw(
    house: str, ann: str, house_discard: str, ann_discard: str, *, ann_bets: bool = False
) -> tuple[Table, int]:
    """A heads-up five-card draw dealt from a stacked deck, played to the house player's first
    decision after the draw: ann opens, the house calls, each throws the given cards (the
    replacements pair nothing of the house's); then ann checks if she acts first, or with
    ``ann_bets`` bets (the house checking to her first if it acts first)."""
    table = Table(TableConfig("five-card-draw", max_seats=2))
    table.sit("house", 200)
    table.sit("ann", 200)
    hands = parse_cards(house), parse_cards(ann)
    replacements = parse_cards("Qs Jc 6d 5h 3c 8s")
    dealt = {*hands[0], *hands[1], *replacements}
    deck = [card for pair in zip(*hands, strict=True) for card in pair]
    deck += [*replacements, *(c for c in DECK_52 if c not in dealt)]
    table.start_hand(random.Random(0), deck=deck)
    while table.pending and table.pending[0].kind is DecisionKind.BET:
        pending = table.pending[0]
        legal = pending.legal
        assert isinstance(legal, BetOptions)
        if pending.player_id == "ann" and legal.can_check and legal.min_to is not None:
            table.act(pending.seat, Bet(legal.min_to))
        else:
            table.act(pending.seat, Check() if legal.can_check else Call())
    while table.pending and table.pending[0].kind is DecisionKind.DRAW:
        pending = table.pending[0]
        thrown = house_discard if pending.player_id == "house" else ann_discard
        table.act(pending.seat, Discard(parse_cards(thrown)))
    first = table.pending[0]
    if first.player_id == "house" and ann_bets:
        table.act(first.seat, Check())
    if table.pending[0].player_id == "ann":
        legal = table.pending[0].legal
        assert isinstance(legal, BetOptions) and legal.min_to is not None
        table.act(table.pending[0].seat, Bet(legal.min_to) if ann_bets else Check())
    decision = table.pending[0]
    assert decision.player_id == "house" and decision.kind is DecisionKind.BET
    return table, decision.seat


@pytest.mark.parametrize(
    ("house", "thrown", "ann_thrown", "bettors"),
    [
        # a full house: everyone bets it
        ("Kh Kd Ks 9s 9h", "", "8c 9d Tc", {Level.EASY, Level.NORMAL, Level.HARD}),
        # kings up: easy waits for a big hand
        ("Kh Kd 7c 7s 2h", "2h", "8c 9d Tc", {Level.NORMAL, Level.HARD}),
        # a pair of kings against a three-card draw, which is mostly one pair or nothing:
        # only hard bets it for value
        ("Kh Kd 7c 4s 2h", "7c 4s 2h", "8c 9d Tc", {Level.HARD}),
        # the same kings against a one-card draw (two pair, or a straight or flush draw):
        # hard reads the draw and checks
        ("Kh Kd 7c 4s 2h", "7c 4s 2h", "9d", set()),
    ],
    ids=["full-house", "two-pair", "kings-vs-three", "kings-vs-one"],
)
def test_levels_bet_thinner_in_order(
    house: str, thrown: str, ann_thrown: str, bettors: set[Level]
) -> None:
    table, seat = _after_the_draw(house, "3s 5d 8c 9d Tc", thrown, ann_thrown)
    for level in LEVELS:
        actions = {house_action(table, seat, level, random.Random(n)) for n in range(12)}
        expected = Bet if level in bettors else Check
        assert all(isinstance(a, expected) for a in actions), (level, actions)


def test_measured_ranges_are_quantiles() -> None:
    """The ranges bench/house.py --calibrate measured: ascending strengths, as many in each,
    each read with bisection."""
    from engine.house import _RANGES

    for key, ranges in _RANGES.items():
        assert {"pre", "any"} <= set(ranges), key
        for drawn, quantiles in ranges.items():
            assert len(quantiles) == 20, (key, drawn)
            assert list(quantiles) == sorted(quantiles), (key, drawn)
            assert quantiles[0] >= 0 and quantiles[-1] <= 1.25, (key, drawn)


@pytest.mark.parametrize(
    ("house", "thrown", "expected"),
    [
        # kings against a bet after a three-card draw: called (bets can be bluffs), not raised
        ("Kh Kd 7c 4s 2h", "7c 4s 2h", Call),
        # a full house beats the better half of what a bettor holds: raised
        ("Kh Kd Ks 9s 9h", "", Raise),
    ],
    ids=["kings-call", "full-house-raises"],
)
def test_hard_raises_a_bet_only_with_what_beats_a_bettor(
    house: str, thrown: str, expected: type[Action]
) -> None:
    table, seat = _after_the_draw(house, "3s 5d 8c 9d Tc", thrown, "8c 9d Tc", ann_bets=True)
    actions = {house_action(table, seat, Level.HARD, random.Random(n)) for n in range(12)}
    assert all(isinstance(a, expected) for a in actions), actions


def test_what_house_players_remember_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The counts kept between decisions stay within their budget, however heavy each one is:
    a bound on the number kept let a bot with house players at many tables grow by gigabytes
    (the odds of every discard of one hand weigh about a quarter of a megabyte)."""
    monkeypatch.setattr(house, "_CACHE_BUDGET", 5_000)
    house.clear_cache()
    gc.collect()
    tracemalloc.start()
    try:
        report = play("jacks-or-better", False, 8, seed=7)
        gc.collect()
        remembered = tracemalloc.get_traced_memory()[0]
        house.clear_cache()
        gc.collect()
        remembered -= tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert "error" not in report, report
    assert remembered < 2_000_000, f"{remembered:,} bytes kept"


@pytest.mark.parametrize(
    ("slug", "keys", "held"),
    [("32-card-poker", ("four-before",), 4), ("four-before", ("cards:3",), 2)],
)
def test_house_players_bet_on_a_hand_still_being_dealt(
    slug: str, keys: tuple[str, ...], held: int
) -> None:
    """Four-before deals the last card with the draw, so the first round is bet on fewer cards
    than the game ranks: four in the 32-card game (whose ranking values five cards only), two
    in a three-card game. Every level still decides, and the hand plays to its end."""
    table = Table(TableConfig("five-card-draw", dealers_choice=True, max_seats=4))
    for name in ("a", "b", "c"):
        table.sit(name, 100)
    total = table.chips()
    rng = random.Random(3)
    table.start_hand(rng)
    table.act(table.pending[0].seat, ChooseGame(slug, keys))
    assert {len(cards) for cards in table.held_cards().values()} == {held}
    decided = 0
    while table.in_hand:
        seat = table.pending[0].seat
        if len(table.held_cards()[table.seats[seat].player_id]) == held:
            decided += 1
        table.act(seat, house_action(table, seat, LEVELS[seat % len(LEVELS)], rng))
    assert decided >= 2 and table.chips() == total


@pytest.mark.parametrize("level", [Level.NORMAL, Level.HARD])
def test_a_bet_before_the_draw_from_a_player_who_seldom_bets_is_respected(level: Level) -> None:
    """Six-handed, a pair of sevens facing an opening bet: hard plays it (normal now and
    then) against a player nothing is known of, or one who bets every other hand, and both
    fold it against a player who has opened 2 hands in 40."""
    table = _dealt("five-card-draw", "7c 7d Ks 9h 3c", 6, at=3, opened=True)
    assert table.public_view().aggressors == (0,)
    assert table.pending[0].seat == 3
    loose = Habits({"p1": (40, 20)})
    tight = Habits({"p1": (40, 2)})
    assert _actions(table, level, None) == _actions(table, level, loose)
    assert _actions(table, level, None) != {"Fold"}
    assert _actions(table, level, tight) == {"Fold"}


def _actions(table: Table, level: Level, habits: Habits | None) -> set[str]:
    """What ``level`` does at the pending decision on six generators, knowing ``habits``."""
    seat = table.pending[0].seat
    return {
        type(house_action(table, seat, level, random.Random(seed), habits)).__name__
        for seed in range(6)
    }


@pytest.mark.parametrize("level", [Level.NORMAL, Level.HARD])
def test_a_bet_after_the_draw_from_a_player_who_seldom_bets_is_called_not_raised(
    level: Level,
) -> None:
    """Aces up facing a bet after the draw with one more player in: raised against a bettor
    nothing is known of, or one who bets every other hand after the draw, only called
    against one who has bet after it once in 40 hands (trips are still raised)."""
    for hand, against_tight in (("As Ad Kc Ks 2h", {"Call"}), ("9s 9d 9c 5s 2h", {"Raise"})):
        table = _facing_a_bet_after_the_draw("five-card-draw", hand, 3)
        view = table.public_view()
        (bettor,) = (s.player_id for s in view.seats if s.seat in view.aggressors)
        loose = Habits(after={bettor: (40, 20)})
        assert _actions(table, level, None) == _actions(table, level, loose) == {"Raise"}, hand
        assert _actions(table, level, Habits(after={bettor: (40, 1)})) == against_tight, hand
