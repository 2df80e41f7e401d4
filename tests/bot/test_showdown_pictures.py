"""What players see at the end of a three-way high-low split: the showdown picture (every hand
shown, labelled, winners framed) and the result embed, written as PNGs for a person to look at.

The pictures go under pytest's temporary folder; copies go to /tmp/look/ when it can be written
(for a reviewer to open).
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
from pathlib import Path

import pytest
from PIL import Image, ImageChops

import engine
from cogs.ui import card_images, render
from cogs.ui.card_images import (
    CARD_H,
    MARGIN,
    ROW_TITLE,
    ShownRow,
    render_cards,
    render_showdown,
)
from engine.cards import Card, parse_cards
from engine.scoring import qualifies_low
from tests.showdowns import play_calling

NAMES = {"1": "Alice", "2": "Bob", "3": "Carol"}
ACE = Card.from_str("Ah")


def _play(seed: int) -> tuple[engine.Table, engine.HandResult]:
    """A California high-low hand: the first to act bets, everyone calls, nobody draws."""
    table = play_calling(engine.TableConfig("california-high-low"), seed, NAMES)
    assert table.result is not None
    return table, table.result


def _three_way_split() -> tuple[engine.Table, engine.HandResult]:
    for seed in range(2000):
        table, result = _play(seed)
        halves = {share.half for pot in result.pots for share in pot.shares}
        winners = {share.player_id for pot in result.pots for share in pot.shares}
        if len(result.shown) == 3 and {"high", "low"} <= halves and len(winners) == 2:
            return table, result
    raise AssertionError("no three-way split in 2000 deals")


def _low_rule(table: engine.Table) -> render.LowRule:
    assert table.hand is not None
    qualifier = table.hand.rules.low_qualifier
    assert qualifier is not None
    return lambda value: qualifies_low(value, qualifier)


def _save(tmp_path: Path, name: str, png: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(png)
    look = Path("/tmp/look")
    with contextlib.suppress(OSError):
        look.mkdir(exist_ok=True)
        shutil.copy(path, look / name)
    return path


def test_three_way_high_low_split_pictures(tmp_path: Path) -> None:
    table, result = _three_way_split()
    rule = _low_rule(table)
    rows = render.shown_rows(result, NAMES, rule)
    png = render_showdown(rows)
    picture = Image.open(io.BytesIO(png))
    # One labelled row per hand shown: the picture grows with the showdown.
    assert picture.height == MARGIN + 3 * (ROW_TITLE + CARD_H + MARGIN + MARGIN)
    # Winners first (each group in showdown order), each hand arranged as the text shows it.
    won = {share.player_id for pot in result.pots for share in pot.shares}
    first = [s for s in result.shown if s.player_id in won]
    first += [s for s in result.shown if s.player_id not in won]
    assert [row.name for row in rows] == [NAMES[s.player_id] for s in first]
    assert [bool(row.won) for row in rows] == [s.player_id in won for s in first]
    for row, shown in zip(rows, first, strict=True):
        arranged = render.showdown_arrangement(shown, result)
        assert arranged is not None
        assert row.cards == tuple(item.card for item in arranged.cards)
        assert sorted(map(str, row.cards)) == sorted(map(str, shown.cards))
    winners = [row for row in rows if row.won]
    assert len(winners) == 2 and any("high" in r.won for r in winners)
    assert any("low" in r.won for r in winners)
    _save(tmp_path, "showdown_high_low.png", png)
    _save(tmp_path, "showdown_high_low_4colour.png", render_showdown(rows, four_colour=True))
    cards = [card for row in rows for card in row.cards][:5]
    _save(tmp_path, "hand_4colour.png", render_cards(cards, four_colour=True))

    embed = render.showdown_embed(
        result,
        NAMES,
        seat_order=["1", "2", "3"],
        start_stacks={pid: 200 for pid in NAMES},
        low_rule=rule,
    )
    fields = {f.name: f.value or "" for f in embed.fields}
    assert "(high)" in fields["Winners"] and "(low)" in fields["Winners"]
    stacks = fields["Stacks"].splitlines()
    assert [line.split(":")[0] for line in stacks] == ["Alice", "Bob", "Carol"]
    nets = sum(result.final_stacks[pid] - 200 for pid in NAMES)
    assert nets == 0 and all("(" in line for line in stacks)
    # The table after the hand, as text, for the record.
    table_embed = render.table_embed(table.public_view(), NAMES)
    text = "\n".join(
        [embed.title or "", *(f"{f.name}: {f.value}" for f in embed.fields)]
        + ["", table_embed.title or "", table_embed.description or ""]
        + [f"{f.name}: {f.value}" for f in table_embed.fields]
    )
    (tmp_path / "result.txt").write_text(text)
    with contextlib.suppress(OSError):
        (Path("/tmp/look") / "result.txt").write_text(text)


def test_a_low_that_misses_the_qualifier_is_not_named_as_a_winning_low() -> None:
    for seed in range(3000):
        table, result = _play(seed)
        rule = _low_rule(table)
        lows = [s for s in result.shown if s.low_value is not None]
        if len(result.shown) >= 2 and lows and not any(rule(s.low_value) for s in lows):
            break
    else:
        raise AssertionError("no deal without a qualifying low")
    embed = render.showdown_embed(result, NAMES, low_rule=rule)
    fields = {f.name: f.value or "" for f in embed.fields}
    assert "no qualifying low, so high takes the whole pot" in fields["Winners"]
    assert "no qualifying low" in fields["Showdown"]
    assert "(low)" not in fields["Winners"]


def test_a_result_read_back_is_drawn_with_its_own_qualifier() -> None:
    """Dealer's choice: a result drawn after a restart, once the next game (another high-low
    game) is dealt, is drawn with the qualifier of the hand it came from, read from the
    result itself: a 9-low that qualified under "hilo:9" still reads as the winning low, and
    a game without a high-low split gets no high/low labels."""
    config = engine.TableConfig("california-high-low", variant_options=("hilo:9",))
    for seed in range(3000):
        table = play_calling(config, seed, NAMES)
        result = table.result
        assert result is not None
        lows = [s.low_value for s in result.shown if s.low_value is not None]
        nines = [v for v in lows if qualifies_low(v, 9)]
        if nines and not any(qualifies_low(v, 8) for v in lows):
            break
    else:
        raise AssertionError("no deal whose best low is a nine")
    back = engine.HandResult.from_state(json.loads(json.dumps(result.to_state())))
    rule = render.low_rule(back)
    assert rule is not None
    embed = render.showdown_embed(back, NAMES, low_rule=rule)
    fields = {f.name: f.value or "" for f in embed.fields}
    assert "(low)" in fields["Winners"], fields
    assert "high takes the whole pot" not in fields["Winners"], fields
    nine = next(s for s in back.shown if s.low_value is not None and qualifies_low(s.low_value, 9))
    assert render.hand_names(nine, rule).endswith(f"Low: {nine.low}"), fields
    high_only = play_calling(engine.TableConfig("five-card-draw"), 1, NAMES).result
    assert high_only is not None and render.low_rule(high_only) is None


def test_the_palette_picture_is_the_full_colour_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """A showdown is drawn on a palette (its PNG is written several times faster), and looks
    as the same rows drawn in full colour do, to a few shades on the words' edges. A wild
    card's band has colours of its own: its picture is drawn in full colour."""
    rows = [
        ShownRow("Ałicja Жанна", "Three sevens", parse_cards("7d 7c 7s Td 3h"), won="Main pot 9"),
        ShownRow(
            "Bob",
            "Ace high",
            parse_cards("Ad Kd Ts 3c 2d 9h 8h"),
            plays=(True,) * 5 + (False, False),
        ),
    ]
    for four_colour in (False, True):
        fast = Image.open(io.BytesIO(render_showdown(rows, four_colour=four_colour)))
        assert fast.mode == "P"
        with monkeypatch.context() as patched:
            patched.setattr(card_images, "_IndexedCanvas", card_images._Canvas)
            full = Image.open(io.BytesIO(render_showdown(rows, four_colour=four_colour)))
        assert full.mode == "RGB" and full.size == fast.size
        difference = ImageChops.difference(fast.convert("RGB"), full)
        assert max(high for _, high in difference.getextrema()) <= 8
    wild = ShownRow(
        "Cy", "Five aces", parse_cards("As Ah Ad Ac 2s"), stands_for=(None,) * 4 + (ACE,)
    )
    assert Image.open(io.BytesIO(render_showdown([wild]))).mode == "RGB"
