"""Every word of the table's texts passes through the localisation layer, within Discord's limits.

Each text is rendered in the pseudo-language ``en-XA`` (catalogues made fresh from the code):
a plain English word left in it escaped the layer. Words the engine's part of the layer still
lets through in English (:func:`tests.i18n.escaped.engine_passthrough`: its catalogue is filled
by another branch) are told apart, so only strings that never reached the layer fail here.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import pytest

import engine
from cogs.translator import _ as cogs_translator
from cogs.ui import economy, house_rules, ledger, render, replay, stats_chart
from cogs.ui.card_images import render_showdown
from cogs.ui.showdown_texts import say as showdown_say
from data import BankrollPoint, GameNet, StatsHistory
from data.ledger import LedgerLine, NightLedger, TableLedger
from data.models import Table as TableRow
from engine.scoring import qualifies_low
from i18n import ENGLISH, PSEUDO, speaking
from i18n.engine_text import _ as engine_translator
from i18n.poker_words import _ as words_translator
from tables import service
from tables.translator import _ as tables_translator
from tests.i18n.escaped import (
    engine_passthrough,
    english_words,
    fresh_pseudo,
    limit_problems,
    payload_texts,
)
from tests.showdowns import play_calling

NAMES = {"1": "Alice", "2": "Bob", "3": "Carol"}
ALLOWED = [*NAMES.values(), "Player"]  # "Player" only inside a test's player names


@pytest.fixture(autouse=True, scope="module")
def _pseudo() -> Iterator[None]:
    with fresh_pseudo(cogs_translator, tables_translator, engine_translator, words_translator):
        yield


@pytest.fixture
def passthrough() -> Iterator[set[str]]:
    with engine_passthrough() as returned, speaking(PSEUDO):
        yield returned


def assert_translated(texts: Iterable[str], passthrough: set[str], *allowed: str) -> None:
    texts = list(texts)
    assert texts, "nothing was rendered"
    left = {
        text: words
        for text in texts
        if (words := english_words(text, [*ALLOWED, *allowed, *passthrough]))
    }
    assert not left, left


def _play(config: engine.TableConfig, seed: int, *, until_showdown: bool = True) -> engine.Table:
    """Everyone calls or bets the least (never folds), so the hand goes to a showdown."""
    return play_calling(config, seed, NAMES, until_showdown=until_showdown)


def _betting() -> engine.Table:
    """A five-card draw hand in its first betting round, after a bet."""
    table = _play(engine.TableConfig("five-card-draw"), 5, until_showdown=False)
    for _step in range(10):
        legal = table.pending[0].legal
        if isinstance(legal, engine.BetOptions) and legal.can_raise and legal.min_to:
            table.act(table.pending[0].seat, engine.Bet(legal.min_to))
            break
        table.act(table.pending[0].seat, engine.Timeout())
    return table


def _to_the_draw() -> engine.Table:
    """A five-card draw hand waiting for its players to draw."""
    for seed in range(100):
        table = _play(engine.TableConfig("five-card-draw"), seed, until_showdown=False)
        while table.in_hand and table.public_view().phase == "bet":
            legal = table.pending[0].legal
            action: engine.Action = engine.Check()
            if isinstance(legal, engine.BetOptions) and legal.to_call:
                action = engine.Call()
            elif isinstance(legal, engine.BetOptions) and legal.can_raise and legal.min_to:
                action = engine.Bet(legal.min_to)
            try:
                table.act(table.pending[0].seat, action)
            except engine.IllegalAction:
                table.act(table.pending[0].seat, engine.Timeout())
        if table.in_hand and table.public_view().phase == "draw":
            return table
    raise AssertionError("no hand reached the draw in 100 deals")


def _high_low() -> tuple[engine.Table, engine.HandResult, render.LowRule]:
    for seed in range(500):
        table = _play(engine.TableConfig("california-high-low"), seed)
        result = table.result
        assert result is not None
        halves = {share.half for pot in result.pots for share in pot.shares}
        if len(result.shown) >= 2 and {"high", "low"} <= halves:
            assert table.hand is not None
            found = table.hand.rules.low_qualifier
            assert found is not None
            return table, result, lambda value, q=found: qualifies_low(value, q)
    raise AssertionError("no high-low split in 500 deals")


def _embed_texts(embed: Any) -> list[str]:
    problems = limit_problems(embed)
    assert not problems, problems
    return payload_texts(embed)


def test_the_table_message_in_play_and_between_hands(passthrough: set[str]) -> None:
    table = _betting()
    view = table.public_view()
    pending = next(s.player_id for s in view.seats if s.seat == view.to_act[0])
    texts = _embed_texts(
        render.table_embed(
            view,
            NAMES,
            deadline=1_000_000.0,
            commitment="ab" * 32,
            notes=["⏱ note"],
            banking=[pending],
            language=PSEUDO,
        )
    )
    texts += _embed_texts(render.table_embed(view, NAMES, deadline=1_000_000.0))
    texts += _embed_texts(render.table_embed(view, {}))  # players the table has no name for
    drawing = _to_the_draw()
    texts += _embed_texts(render.table_embed(drawing.public_view(), NAMES, deadline=5.0))
    finished = _play(engine.TableConfig("five-card-draw"), 7)
    texts += _embed_texts(render.table_embed(finished.public_view(), NAMES))
    # The note is the table service's (tested with it); the rest is the embed's own.
    assert_translated([t for t in texts if "note" not in t], passthrough, "ab" * 8)


def test_the_private_hand(passthrough: set[str]) -> None:
    table = _betting()
    view = table.public_view()
    private = table.private_view("1")
    arranged = render.private_arrangement(table.hand, private)
    texts = _embed_texts(render.private_embed(private, view, arranged=arranged))
    texts += _embed_texts(render.private_embed(private, view))
    assert_translated(texts, passthrough)


def test_the_showdown_text_and_picture(passthrough: set[str]) -> None:
    _table, result, rule = _high_low()
    start = {pid: 200 for pid in NAMES}
    embed = render.showdown_embed(
        result, NAMES, seat_order=list(NAMES), start_stacks=start, low_rule=rule
    )
    texts = _embed_texts(embed)
    rows = render.shown_rows(result, NAMES, rule)
    texts += [text for row in rows for text in (row.hand, row.won) if text]
    texts.append(showdown_say("picture_description"))
    assert render_showdown(rows, language=PSEUDO).startswith(b"\x89PNG")
    draw = _play(engine.TableConfig("five-card-draw"), 11)
    assert draw.result is not None
    texts += _embed_texts(render.showdown_embed(draw.result, NAMES, start_stacks=start))
    assert_translated(texts, passthrough)


def test_the_game_page(passthrough: set[str]) -> None:
    variant = engine.get_variant("five-card-draw")
    config = engine.TableConfig("five-card-draw")
    texts = _embed_texts(render.variant_embed(variant, config.rules_notes()))
    assert_translated(texts, passthrough, variant.slug, *config.rules_notes())


def test_a_replay_from_every_seat_and_none(passthrough: set[str]) -> None:
    for game in ("five-card-draw", "california-lowball", "california-high-low", "deuces-wild"):
        table = _play(engine.TableConfig(game), 3)
        events = [event.to_dict() for event in table.events]
        for viewer in (None, 0, 1):
            lines = replay.replay_lines(events, NAMES, viewer)
            assert all(len(line) <= replay.LINE_LIMIT for line in lines)
            assert_translated(lines, passthrough)


def test_house_rules_lines_and_menus(passthrough: set[str]) -> None:
    table = engine.Table(engine.TableConfig("five-card-draw"))
    lines = [
        house_rules.describe(name, value)
        for name in house_rules.flags_offered(table)
        for value in (True, False)
    ]
    lines += [house_rules.describe("newcomers", value) for value in house_rules.NEWCOMERS]
    lines += [house_rules.describe("diablo_cap", value) for value in (None, 1000)]
    lines += [house_rules.describe("draw_limit", each) for each in house_rules.DRAW_LIMITS.values()]
    now, _pending = house_rules.in_force(table)
    before = table.next_options
    changed = house_rules.requested(before, muck_losers=True, newcomers="post")
    assert changed is not None
    table.set_options(changed)
    said = house_rules.announce(table, before)
    assert said
    components = house_rules.components(7, table).to_components()
    problems = limit_problems(components)
    assert not problems, problems
    assert_translated([*lines, *now, said, *payload_texts(components)], passthrough)


def _ledger() -> tuple[NightLedger, dict[int, str]]:
    row = TableRow(7, 1, 7, 1, "closed", "{}", None, 0, None, None, 0.0, 0.0, 9.0)
    lines = (
        LedgerLine(5, 200, 200, 2, 0, 150, True, 0.0, None),
        LedgerLine(6, 200, 0, 0, 460, 0, False, 0.0, 5.0),
        LedgerLine(7, 200, 100, 1, 0, 290, True, 0.0, None),
        LedgerLine(8, 100, 0, 0, 0, 0, False, 0.0, 8.0),
    )
    table = TableLedger(row, lines)
    other = TableLedger(TableRow(8, 1, 8, 1, "closed", "{}", None, 0, None, None, 0, 0, 9), ())
    return NightLedger(table, (table, other)), {5: "Alice", 6: "Bob", 7: "Carol"}


def test_the_ledger_and_settle_up(passthrough: set[str]) -> None:
    night, names = _ledger()
    texts = _embed_texts(ledger.ledger_embed(night, names))
    texts.append(ledger.ledger_file(night, names).description or "")
    texts += [
        str(ledger.NO_TABLE),
        ledger.NO_SUCH_TABLE.format(table=3),
        str(ledger.TOURNAMENT_TABLE),
        str(ledger.SERVER_ONLY),
    ]
    # "PokerNow" is a product's name; the CSV's column names are PokerNow's, never shown.
    assert_translated(texts, passthrough, "PokerNow")


def test_the_stats_chart_texts(passthrough: set[str]) -> None:
    day = 86_400.0
    history = StatsHistory(
        bankroll=(BankrollPoint(0.0, 1000), BankrollPoint(day, 1250), BankrollPoint(2 * day, 1)),
        games=tuple(
            GameNet(slug, engine.get_variant(slug).name, hands, net)
            for slug, hands, net in (("five-card-draw", 12, 250), ("california-lowball", 1, -40))
        ),
        hands=13,
        capped=False,
    )
    embed = economy.stats_embed(_Member(), _stats())  # type: ignore[arg-type]
    stats_chart.show_chart(embed, history)
    texts = _embed_texts(embed)
    texts.append(stats_chart.chart_description(history))
    texts += [stats_chart.say(key) for key in ("bankroll_title", "bankroll_note", "games_title")]
    texts += [stats_chart.say("more_games", count=n) for n in (1, 2)]
    png = stats_chart.render_stats_chart(history, language=PSEUDO)
    assert png.startswith(b"\x89PNG")
    assert_translated(texts, passthrough)


class _Member:
    display_name = "Alice"
    mention = "<@5>"


def _stats() -> Any:
    from data import PlayerStats

    fields: dict[str, Any] = dict.fromkeys(PlayerStats.__dataclass_fields__, 0)
    fields.update(hands_played=40, hands_won=9, net_chips=-120, biggest_pot=300)
    fields["best_hand_name"] = "Pair of jacks"
    return PlayerStats(**fields)


def test_the_table_service_refusals_and_notes(passthrough: set[str]) -> None:
    texts = [str(text) for text in service.PRE_ACTION_REFUSALS.values()]
    assert_translated(texts, passthrough)
    # The engine's refusal, through the engine's part of the layer; the asker is named by a
    # mention (Discord shows their name) where English says "you".
    with pytest.raises(engine.TableError) as raised:
        engine.Table(engine.TableConfig("five-card-draw")).seat_of("42")
    refused = str(service.refusal(raised.value, 42))
    assert_translated([refused], passthrough)
    assert "<@42>" in refused
    with speaking(ENGLISH):
        assert str(service.refusal(raised.value, 42)) == "You are not seated at this table."


def test_english_reads_as_before() -> None:
    """English is the source language: the texts tests and players know are unchanged."""
    with speaking(ENGLISH):
        assert render.pots_text(_betting().public_view(), NAMES).startswith("Main pot: **")
        post = house_rules.describe("newcomers", "post")
        assert post == "Newcomers post a blind and play at once"
        assert showdown_say("wild_as", card="2♣", plays_as="K♣") == "2♣→K♣"
        assert ledger.NO_SUCH_TABLE.format(table=3) == "There is no table\u00a0#3 in this server."
        assert stats_chart.say("bankroll_now", count=1250) == "now 1,250 chips"
        assert stats_chart.say("bankroll_now", count=1) == "now 1 chip"


def test_the_card_pictures_write_the_channels_words() -> None:
    """The joker's label and the wild mark are drawn in the language asked for."""
    from cogs.ui.card_images import render_cards
    from engine.cards import JOKER, parse_card

    deuce = parse_card("2h")
    cards = [JOKER, deuce]
    english = render_cards(cards, wild=frozenset({deuce}), language=ENGLISH)
    pseudo = render_cards(cards, wild=frozenset({deuce}), language=PSEUDO)
    assert english != pseudo
    with speaking(PSEUDO):
        assert render_cards(cards, wild=frozenset({deuce})) == pseudo
