"""The engine's words reach players through i18n.engine_text: English as the engine says it,
every other language from the engine's catalogue (here the pseudo-language, in which any plain
English word left is a text that escaped the layer)."""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import engine
from engine import wording
from engine.actions import Bet, Call, Check, Discard, Raise
from engine.cards import JOKER, parse_cards
from engine.errors import IllegalAction, Refusal, TableError
from engine.hands import Category, HandValue, Ranking, evaluate
from engine.modifiers import MODIFIER_KEYS, apply_modifiers, explain_modifier, rules_warnings
from engine.seating import BuyIns, SeatRefused
from engine.table import Table, TableConfig, TableOptions
from engine.tournament import (
    Level,
    Payouts,
    Schedule,
    Tournament,
    TournamentError,
    TournamentSettings,
)
from engine.variants import get_variant, list_variants
from engine.wording import Phrase, RankWord
from i18n import ENGLISH, PSEUDO, placeholders, resolve
from i18n.engine_text import (
    engine_text,
    hand_name,
    option_description,
    option_label,
    refusal,
    say,
    variant_description,
    variant_name,
)
from tests.engine.engine_helpers import deck_for, make_table

ENGINE = Path(engine.__file__).resolve().parent
_ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")


def _plain_english(text: str, *values: str) -> list[str]:
    """The plain (unaccented) words left in ``text`` once the language-free ``values`` (a
    player's id, a card) are taken out."""
    for value in sorted(values, key=len, reverse=True):
        text = text.replace(value, " ")
    return _ENGLISH_WORD.findall(text)


def _free_values(phrase: Phrase) -> Iterator[str]:
    """The values of ``phrase`` (and of the phrases in it) that no language translates."""
    for value in phrase.values.values():
        if isinstance(value, Phrase):
            yield from _free_values(value)
        elif isinstance(value, str):
            yield value


# ------------------------------------------------------------------------------ hand names

_HANDS: list[tuple[str, Ranking, frozenset]] = [
    ("Ah Kd 9s 7c 3d", Ranking.HIGH, frozenset()),
    ("7h 7d Ks 4c 2d", Ranking.HIGH, frozenset()),
    ("7h 7d Ks Kc 2d", Ranking.HIGH, frozenset()),
    ("Qh Qd Qs 4c 2d", Ranking.HIGH, frozenset()),
    ("9h 8d 7s 6c 5d", Ranking.HIGH, frozenset()),
    ("Ah 2d 3s 4c 5d", Ranking.HIGH, frozenset()),
    ("Ah Jh 9h 6h 3h", Ranking.HIGH, frozenset()),
    ("9h 9d 9s Kc Kd", Ranking.HIGH, frozenset()),
    ("Th Td Ts Tc 2d", Ranking.HIGH, frozenset()),
    ("9h 8h 7h 6h 5h", Ranking.HIGH, frozenset()),
    ("Ah Kh Qh Jh Th", Ranking.HIGH, frozenset()),
    ("Ah Ad As Ac", Ranking.HIGH, frozenset({JOKER})),
    ("7h 5d 4s 3c 2d", Ranking.ACE_TO_FIVE, frozenset()),
    ("5h 4d 3s 2c Ad", Ranking.ACE_TO_FIVE, frozenset()),
    ("7h 5d 4s 3c 2d", Ranking.DEUCE_TO_SEVEN, frozenset()),
    ("8h 6d 4s 3c Ad", Ranking.ACE_TO_SIX, frozenset()),
    ("Kh Kd 4s 3c 2d", Ranking.ACE_TO_FIVE, frozenset()),
    ("Ah Kd Qs Jc 9d", Ranking.STRIPPED_HIGH, frozenset()),
]


def _value(cards: str, ranking: Ranking, wild: frozenset) -> HandValue:
    held = parse_cards(cards)
    if wild:
        held = [*held, JOKER]
    return evaluate(held, ranking, wild=wild)


def test_the_hands_cover_every_category_and_lowball() -> None:
    values = [_value(*hand) for hand in _HANDS]
    assert {v.category for v in values} == set(Category)
    assert {v.ranking for v in values} == set(Ranking)


@pytest.mark.parametrize("hand", _HANDS, ids=lambda h: f"{h[1].value}:{h[0]}")
def test_a_hand_name_in_english_is_the_engines(hand) -> None:
    value = _value(*hand)
    assert hand_name(value, language=ENGLISH) == value.name


@pytest.mark.parametrize("hand", _HANDS, ids=lambda h: f"{h[1].value}:{h[0]}")
def test_a_hand_name_is_translated(hand) -> None:
    text = hand_name(_value(*hand), language=PSEUDO)
    assert text.startswith("[")
    assert _plain_english(text) == []


def test_english_hand_names_match_the_engine_on_many_hands() -> None:
    rng = random.Random(26)
    deck = parse_cards(" ".join(f"{r}{s}" for r in "23456789TJQKA" for s in "cdhs"))
    for _ in range(3000):
        ranking = rng.choice(list(Ranking))
        pack = [c for c in deck if c.rank >= 7] if ranking is Ranking.STRIPPED_HIGH else deck
        value = evaluate(rng.sample(pack, rng.choice((5, 7))), ranking)
        assert hand_name(value, language=ENGLISH) == value.name


def test_a_hand_name_follows_the_current_language() -> None:
    from i18n import speaking

    value = _value("7h 7d Ks 4c 2d", Ranking.HIGH, frozenset())
    with speaking(PSEUDO):
        assert hand_name(value) == hand_name(value, language=PSEUDO)


# ------------------------------------------------------------------------------ refusals


def _seated(*names: str, **config: object) -> Table:
    return make_table(list(names), **config)  # type: ignore[arg-type]


def _in_hand(*names: str, deck: str | None = None, **config: object) -> Table:
    table = _seated(*names, **config)
    hands = None
    if deck is not None:
        hands = deck_for(deck.split("|"))
    table.start_hand(random.Random(7), hands)
    return table


def _first(table: Table) -> str:
    return table.pending[0].player_id


def _other(table: Table) -> str:
    waiting = _first(table)
    return next(s.player_id for s in table.public_view().seats if s and s.player_id != waiting)


def _to_draw(table: Table) -> Table:
    table.act(_first(table), Bet(2))
    table.act(_first(table), Call())
    return table


def _draw_table() -> Table:
    return _to_draw(_in_hand("ann", "bob"))


def _held(table: Table, who: str) -> list:
    return list(table.private_view(who).cards)


_REFUSALS: dict[str, Callable[[], object]] = {
    "already seated": lambda: _seated("ann", "bob").sit("ann", 50),
    "table full": lambda: _seated("ann", "bob").sit("cat", 50),
    "no such seat": lambda: _seated("ann", seats=3).sit("bob", 50, seat=7),
    "seat taken": lambda: _seated("ann", seats=3).sit("bob", 50, seat=0),
    "bad stack": lambda: _seated("ann", seats=3).sit("bob", 0),
    "empty id": lambda: _seated("ann", seats=3).sit("", 10),
    "not seated": lambda: _seated("ann", "bob").leave("zed"),
    "chips in a hand": lambda: _in_hand("ann", "bob").add_chips("ann", 10),
    "bad amount": lambda: _seated("ann", "bob").add_chips("ann", -5),
    "hand in progress": lambda: _in_hand("ann", "bob").start_hand(random.Random(1)),
    "too few players": lambda: _seated("ann", seats=3).start_hand(random.Random(1)),
    "close in a hand": lambda: _in_hand("ann", "bob").close(),
    "option changes nothing": lambda: _seated("ann", "bob").set_options(
        TableOptions(progressive_back_down=False)
    ),
    "not your turn": lambda: (t := _in_hand("ann", "bob")).act(_other(t), Check()),
    "no hand": lambda: _seated("ann", "bob").act("ann", Check()),
    "not in the hand": lambda: _in_hand("ann", "bob", seats=3).act("zed", Check()),
    "nobody in seat": lambda: _in_hand("ann", "bob", seats=3).act(2, Check()),
    "bet size": lambda: (t := _in_hand("ann", "bob")).act(_first(t), Bet(77)),
    "raise size": lambda: (t := _in_hand("ann", "bob")).act(_first(t), Raise(77)),
    "draw in a betting round": lambda: (t := _in_hand("ann", "bob")).act(_first(t), Discard(())),
    "check facing a bet": lambda: (
        (t := _in_hand("ann", "bob")).act(_first(t), Bet(2)),
        t.act(_first(t), Check()),
    ),
    "openers": lambda: _in_hand(
        "ann", "bob", variant="jacks-or-better", deck="2c 5d 8h Tc Kd|3s 6h 9c Js Ad"
    ).act("ann", Bet(2)),
    "not held": lambda: (t := _draw_table()).act(
        _first(t),
        Discard(tuple(c for c in parse_cards("2c 2d 2h") if c not in _held(t, _first(t)))[:1]),
    ),
    "named twice": lambda: (t := _draw_table()).act(
        _first(t), Discard((_held(t, _first(t))[0], _held(t, _first(t))[0]))
    ),
    "too many discards": lambda: (t := _draw_table()).act(
        _first(t), Discard(tuple(_held(t, _first(t))))
    ),
    "check in a draw": lambda: (t := _draw_table()).act(_first(t), Check()),
    "buy-in": lambda: BuyIns(1000, 5000).buy_in(20),
    "rebuy at the top": lambda: BuyIns(1000, 5000).rebuy(5000, None),
    "rebuy amount": lambda: BuyIns(1000, 5000).rebuy(3000, None),
    "rebuy too much": lambda: BuyIns(1000, 5000).rebuy(3000, 4000),
    "level": lambda: Level.parse("12"),
    "level amounts": lambda: Level.parse("a:b"),
    "level bet": lambda: Level(0, (1, 2), 0),
    "payouts": lambda: Payouts.parse("90/5"),
    "payouts words": lambda: Payouts.parse("all"),
    "settings": lambda: TournamentSettings(0, 100, Schedule.parse("1:2")),
    "settings rebuys": lambda: TournamentSettings(10, 100, Schedule.parse("1:2"), rebuys=-1),
    "registered twice": lambda: _tournament().register("a"),
    "start alone": lambda: Tournament(_settings()).register("a").start(),
    "start twice": lambda: _tournament().register("b").start().start(),
    "full": lambda: Tournament(_settings(max_players=2)).register("a").register("b").register("c"),
    "no rebuys": lambda: _tournament().register("b").start().rebuy("a", 0, 0),
    "no add-on": lambda: _tournament().register("b").start().addon("a", 0),
    "unregister late": lambda: _tournament().register("b").start().unregister("a"),
    "unknown entrant": lambda: _tournament().entry("zed"),
    "too many to deal": lambda: (
        (t := _seated("a", "b", "c", "d", "e", "f", "g", "h", seats=8, dealers_choice=True)),
        t.start_hand(random.Random(1)),
        t.act(t.pending[0].player_id, _choose("seven-card-draw")),
    ),
    "wild game": lambda: (
        (t := _seated("a", "b", dealers_choice=True)),
        t.start_hand(random.Random(1)),
        t.act(t.pending[0].player_id, _choose("five-card-draw", ("progressive",))),
    ),
}


def _choose(slug: str, modifiers: tuple[str, ...] = ()):
    from engine.actions import ChooseGame

    return ChooseGame(slug, modifiers)


def _settings(**changes: object) -> TournamentSettings:
    base: dict[str, object] = {"buy_in": 10, "starting_stack": 100, "max_players": 9}
    base.update(changes)
    return TournamentSettings(schedule=Schedule.parse("1:2"), **base)  # type: ignore[arg-type]


def _tournament() -> Tournament:
    return Tournament(_settings()).register("a")


def _refused(name: str) -> Refusal:
    with pytest.raises(ValueError) as caught:
        _REFUSALS[name]()
    exc = caught.value
    assert isinstance(exc, IllegalAction | TableError | TournamentError | SeatRefused), (
        f"{name}: {type(exc).__name__}: {exc}"
    )
    return exc


@pytest.mark.parametrize("name", _REFUSALS)
def test_a_refusal_reads_in_english_as_the_engine_says_it(name) -> None:
    exc = _refused(name)
    english = refusal(exc, language=ENGLISH)
    assert english == str(exc) or english == str(exc).replace("1000", "1,000").replace(
        "5000", "5,000"
    ).replace("3000", "3,000")


@pytest.mark.parametrize("name", _REFUSALS)
def test_a_refusal_is_translated(name) -> None:
    exc = _refused(name)
    text = refusal(exc, language=PSEUDO)
    assert text.startswith("["), text
    assert _plain_english(text, *_free_values(exc.phrase)) == [], text


@pytest.mark.parametrize("name", _REFUSALS)
def test_a_refusal_gives_a_value_for_each_placeholder(name) -> None:
    def check(phrase: Phrase) -> None:
        wanted = placeholders(phrase.template)
        if phrase.plural is not None:
            wanted |= placeholders(phrase.plural)
        assert set(phrase.values) == wanted, phrase.template
        for value in phrase.values.values():
            if isinstance(value, Phrase):
                check(value)

    check(_refused(name).phrase)


def test_a_refusal_reads_in_a_real_language_with_its_numbers() -> None:
    exc = _refused("buy-in")
    assert "1.000" in refusal(exc, language=resolve("de"))


def test_the_reason_a_refusal_gives_is_a_phrase_to_raise_again() -> None:
    exc = _refused("openers")
    assert exc.phrase.template == "you cannot bet or raise: {reason}"
    reason = exc.phrase.values["reason"]
    assert isinstance(reason, Phrase)
    assert reason.values["openers"].values["rank_plural"] == RankWord(11, plural=True)
    assert str(exc) == "you cannot bet or raise: you need a pair of jacks or better to open"


def test_phrases_survive_a_pickle() -> None:
    import pickle

    exc = _refused("openers")
    again = pickle.loads(pickle.dumps(exc))
    assert str(again) == str(exc)
    assert refusal(again, language=PSEUDO) == refusal(exc, language=PSEUDO)


# The refusal classes a player can meet, and the modules whose words they are not (PHH).
_RAISED = {"IllegalAction", "TableError", "TournamentError", "SeatRefused", "NoOdds"}
_MARKERS = {"Phrase", "english", "begun", "counted"}


def _calls(tree: ast.AST) -> Iterator[tuple[str, ast.Call]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            yield name, node


def _engine_modules() -> list[Path]:
    return [p for p in sorted(ENGINE.rglob("*.py")) if p.name != "notation.py"]


@pytest.mark.parametrize("path", _engine_modules(), ids=lambda p: p.stem)
def test_no_refusal_or_phrase_is_made_from_an_f_string(path) -> None:
    """A message made of an f-string cannot be in the catalogue: it would reach players in
    English. Refusals and phrases take a template and its values."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for name, call in _calls(tree):
        if name in _RAISED | _MARKERS and call.args:
            first = call.args[0]
            assert not isinstance(first, ast.JoinedStr), f"{path.name}:{call.lineno}"
            assert not (isinstance(first, ast.BinOp)), f"{path.name}:{call.lineno}"


# ------------------------------------------------------------------------------ event wording

_BLANKS = {"who": "ann", "amount": 40, "cards": "7h 2c", "reason": "x", "game": "Badugi",
           "card": "7h", "which": "x", "to": "bob", "direction": "x"}  # fmt: skip


@pytest.mark.parametrize("kind", wording.PHRASES)
def test_an_event_reads_in_english_as_the_engine_says_it(kind) -> None:
    blanks = {name: _BLANKS[name] for name in placeholders(wording.PHRASES[kind])}
    expected = wording.say(kind, **{name: str(value) for name, value in blanks.items()})
    assert say(kind, language=ENGLISH, **blanks) == expected


@pytest.mark.parametrize("kind", wording.PHRASES)
def test_an_event_is_translated(kind) -> None:
    blanks = {name: _BLANKS[name] for name in placeholders(wording.PHRASES[kind])}
    text = say(kind, language=PSEUDO, **blanks)
    free = [str(v) for v in blanks.values()]
    assert _plain_english(text, *free) == [], text


@pytest.mark.parametrize("verb", wording.VERBS.values())
def test_a_verb_of_the_last_action_is_translated(verb) -> None:
    assert engine_text(verb, language=ENGLISH) == verb
    assert _plain_english(engine_text(verb, language=PSEUDO)) == []


# ------------------------------------------------------------------------------ the catalogue


@pytest.mark.parametrize("variant", list_variants(), ids=lambda v: v.slug)
def test_a_game_reads_in_english_as_the_catalogue_says_it(variant) -> None:
    assert variant_name(variant, language=ENGLISH) == variant.name
    assert variant_description(variant, language=ENGLISH) == variant.description
    for option in variant.options:
        assert option_label(option, language=ENGLISH) == option.label
        assert option_description(option, language=ENGLISH) == option.description


@pytest.mark.parametrize("variant", list_variants(), ids=lambda v: v.slug)
def test_a_game_is_translated(variant) -> None:
    texts = [variant_name(variant, language=PSEUDO), variant_description(variant, language=PSEUDO)]
    for option in variant.options:
        texts += [
            option_label(option, language=PSEUDO),
            option_description(option, language=PSEUDO),
        ]
    # The game a deal turns into when nobody opens (Jacks back's lowball) names the table too.
    switched = variant.rules.switch_on_pass_out
    if switched is not None:
        texts.append(engine_text(switched.name, language=PSEUDO))
    for text in texts:
        assert _plain_english(text) == [], text


@pytest.mark.parametrize("key", MODIFIER_KEYS)
def test_a_modifier_is_explained_in_every_language(key) -> None:
    explained = explain_modifier(key)
    assert engine_text(explained, language=ENGLISH) == explained
    assert _plain_english(engine_text(explained, language=PSEUDO)) == []


def test_rules_warnings_and_notes_are_translated() -> None:
    rules = get_variant("five-card-draw").rules
    wild = apply_modifiers(rules, ["joker-wild", "wild:2", "wild:3"]).rules
    warnings = rules_warnings(wild)
    assert warnings
    config = TableConfig("jacks-or-better", variant_options=("progressive",))
    notes = config.rules_notes()
    assert len(notes) == 2
    for text in (*warnings, *notes):
        assert engine_text(text, language=ENGLISH) == text
        assert _plain_english(engine_text(text, language=PSEUDO)) == [], text


def _labels() -> list[str]:
    from engine.odds import best_draws
    from engine.stakes import (
        STRUCTURE_NAMES,
        FixedLimit,
        ForcedBets,
        NoLimit,
        PotLimit,
        SpreadLimit,
    )

    labels: list[str] = [
        FixedLimit(2).label,
        SpreadLimit(1, 2).label,
        SpreadLimit(1, 2, 2, 4).label,
        PotLimit(2).label,
        NoLimit(2).label,
        ForcedBets.antes(1).label,
        ForcedBets.with_blinds(1, 2).label,
        ForcedBets.with_blinds(1, 2, ante=1).label,
        ForcedBets().label,
        ForcedBets(ante=1, dealer_edge=True).label,
        Level.parse("1:2").label,
        Level.parse("1-2:2").label,
        Level.parse("1-2+1:2").label,
        *STRUCTURE_NAMES.values(),
    ]
    for cards, ranking in (
        ("7h 5d 4s 3c Kd", Ranking.ACE_TO_FIVE),
        ("9h 9d 4s 3c Kd", Ranking.HIGH),
    ):
        for _, odds in best_draws(parse_cards(cards), ranking, max_discard=1)[:3]:
            labels.extend(odds.categories)
    return labels


def test_stakes_levels_and_odds_read_in_every_language() -> None:
    for label in _labels():
        assert engine_text(label, language=ENGLISH) == label
        assert _plain_english(engine_text(label, language=PSEUDO)) == [], label


@pytest.mark.parametrize(
    "slug, keys",
    [
        ("california-lowball", ("draws:3", "wild:13")),
        ("jacks-or-better", ("cards:4", "progressive")),
        ("five-card-draw", ("draws:2", "low:27", "hilo:8")),
        ("badugi" if any(v.slug == "badugi" for v in list_variants()) else "johnson", ("bug",)),
    ],
)
def test_a_game_named_with_house_rules_reads_in_every_language(slug, keys) -> None:
    from engine.modifiers import game_name

    name = game_name(get_variant(slug).rules.name, keys)
    assert engine_text(name, language=ENGLISH) == name
    assert _plain_english(engine_text(name, language=PSEUDO)) == [], name


def test_the_name_of_a_game_with_options_is_translated() -> None:
    rules = get_variant("jacks-or-better").build(["progressive", "wild:2"])
    assert rules.name == "Jacks or better, progressive, deuces wild"
    assert _plain_english(engine_text(rules.name, language=PSEUDO)) == []


def test_carried_pots_misdeals_and_newcomers_read_in_every_language() -> None:
    from engine import table as table_module
    from engine.rules import Requirement

    texts = [
        *table_module._JOINING_REASONS.values(),
        "passed out",
        "nobody could win",
        "carried over",
        Phrase("nobody showed {requirement}", requirement=Requirement.trips().label),
        Phrase("the winner could not show {requirement}", requirement=Requirement.pair(11).label),
        table_module._imperfect(
            get_variant("five-card-draw").rules, [*parse_cards("2c 3d"), *parse_cards("2c")]
        ),
        table_module._imperfect(get_variant("five-card-draw").rules, parse_cards("2c 3d")),
    ]
    for text in texts:
        assert text is not None
        assert engine_text(text, language=ENGLISH) == text
        assert _plain_english(engine_text(text, language=PSEUDO)) == [], text
