"""The ledger's CSV and settle-up on random nights (pure: no bot): the CSV reads back with
Python's csv module to the same figures, and the settle-up lines pay every net."""

from __future__ import annotations

import csv
import dataclasses
import io
from typing import Literal

from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.ui.ledger import CSV_COLUMNS, csv_name, iso, ledger_csv, ledger_embed
from data.ledger import LedgerLine, NightLedger, TableLedger
from data.models import Table
from tests.bot.test_ledger import assert_settles, settle_field

# Nicknames as members pick them: commas, quotes, new lines and emoji included.
nicknames = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=20
)


@st.composite
def nights(draw: st.DrawFn) -> tuple[NightLedger, dict[int, str]]:
    """One table of a night: random buy-ins and rebuys; what was brought ends up cashed out or
    in the stacks (all but one player's share drawn, the last one's the rest)."""
    count = draw(st.integers(2, 9))
    ids = draw(st.lists(st.integers(-50, 10**18), min_size=count, max_size=count, unique=True))
    names = dict(zip(ids, draw(st.lists(nicknames, min_size=count, max_size=count)), strict=True))
    brought = [(draw(st.integers(1, 5000)), draw(st.integers(0, 5000))) for _ in ids]
    pool = sum(b + r for b, r in brought)
    shares = sorted(draw(st.lists(st.integers(0, pool), min_size=count - 1, max_size=count - 1)))
    ends = [b - a for a, b in zip([0, *shares], [*shares, pool], strict=True)]
    lines = []
    for i, (player, (buy_in, rebuys), end) in enumerate(zip(ids, brought, ends, strict=True)):
        seated = draw(st.booleans())
        left = 1000.0 + i + draw(st.floats(0, 3600)) if not seated else None
        lines.append(
            LedgerLine(
                player_id=player,
                buy_in=buy_in,
                rebuys=rebuys,
                rebuy_count=0 if rebuys == 0 else draw(st.integers(1, 5)),
                cashed_out=0 if seated else end,
                stack=end if seated else 0,
                seated=seated,
                started_at=1000.0 + i,
                ended_at=left,
            )
        )
    table = Table(1, 1, 1, 1, "open", "{}", None, pool, None, None, 1000.0, 1000.0, None)
    ledger = TableLedger(table, tuple(lines))
    return NightLedger(ledger, (ledger,)), names


@settings(max_examples=150)
@given(nights())
def test_the_csv_reads_back_to_the_same_figures(night: tuple[NightLedger, dict[int, str]]) -> None:
    ledger, names = night
    rows = list(csv.DictReader(io.StringIO(ledger_csv(ledger, names), newline="")))
    assert list(rows[0]) == list(CSV_COLUMNS)
    assert len(rows) == len(ledger.table.lines)
    for row, line in zip(rows, ledger.table.lines, strict=True):
        name = names[line.player_id]
        formula = name.startswith(("=", "+", "-", "@", "\t", "\r"))
        assert row["player_nickname"] == (f"'{name}" if formula else name)
        assert int(row["player_id"]) == line.player_id
        assert row["session_start_at"] == iso(line.started_at)
        assert row["session_end_at"] == iso(line.ended_at)
        assert int(row["buy_in"]) == line.buy_in + line.rebuys
        assert int(row["buy_out"]) == line.cashed_out
        assert int(row["stack"]) == line.stack
        assert int(row["net"]) == line.net
        assert int(row["net"]) == int(row["buy_out"]) + int(row["stack"]) - int(row["buy_in"])
    assert sum(int(row["net"]) for row in rows) == 0


def test_nicknames_a_spreadsheet_would_run_as_formulas_are_written_as_text() -> None:
    """A member named ``=HYPERLINK(...)`` (or ``+...``, ``-...``, ``@...``) is a text cell in
    the CSV, not a formula run by whoever opens the file; other names are as they are."""
    chosen = [
        '=HYPERLINK("https://example.com/x","click")',
        "+1+1",
        "-2+3",
        "@SUM(A1:A9)",
        "\t=1+1",
        "\r=1+1",
        'Ana, "the shark"\nof Lyon',
        "Bo=b",
    ]
    ids = list(range(1, len(chosen) + 1))
    lines = tuple(LedgerLine(i, 10, 0, 0, 0, 10, True, 1000.0, None) for i in ids)
    table = Table(1, 1, 1, 1, "open", "{}", None, 80, None, None, 1000.0, 1000.0, None)
    ledger = TableLedger(table, lines)
    text = ledger_csv(NightLedger(ledger, (ledger,)), dict(zip(ids, chosen, strict=True)))
    read = [row["player_nickname"] for row in csv.DictReader(io.StringIO(text, newline=""))]
    assert read == [f"'{name}" for name in chosen[:6]] + chosen[6:]


@settings(max_examples=100)
@given(nights())
def test_the_settle_up_lines_pay_every_net(night: tuple[NightLedger, dict[int, str]]) -> None:
    ledger, _ = night
    # Names that read back unambiguously from "payer → payee: n chips".
    names = {line.player_id: f"P{i}" for i, line in enumerate(ledger.table.lines)}
    nets = {names[line.player_id]: line.net for line in ledger.table.lines}
    embed = ledger_embed(ledger, names).to_dict()
    if any(nets.values()):
        assert_settles(settle_field(dict(embed)), nets)
    else:
        assert "Everyone is even" in settle_field(dict(embed))


def _table(table_id: int, status: Literal["open", "closed"] = "closed") -> Table:
    return Table(table_id, 1, table_id, 1, status, "{}", None, 0, None, None, 0.0, 0.0, 9.0)


def _line(player: int, buy_in: int, out: int, stack: int = 0) -> LedgerLine:
    return LedgerLine(player, buy_in, 0, 0, out, stack, stack > 0, 1.0, None if stack else 9.0)


def test_a_night_of_two_tables_settles_the_night_nets() -> None:
    names = {1: "Ann", 2: "Bob", 3: "Cy"}
    first = TableLedger(_table(4), (_line(1, 100, 180), _line(2, 100, 20)))
    second = TableLedger(_table(6), (_line(2, 100, 150), _line(3, 100, 50)))
    night = NightLedger(second, (first, second))
    embed = ledger_embed(night, names).to_dict()
    night_field = next(f for f in embed["fields"] if f["name"] == "The night: 2 tables")
    assert night_field["value"].splitlines() == [
        "**Ann** · net **+80**",
        "**Bob** · net **−30**",
        "**Cy** · net **−50**",
    ]
    assert embed["title"] == "Ledger · table 6 (closed)"
    assert settle_field(dict(embed)).splitlines() == [
        "Cy → Ann: 50 chips",
        "Bob → Ann: 30 chips",
    ]
    rows = list(csv.DictReader(io.StringIO(ledger_csv(night, names), newline="")))
    assert [(r["player_nickname"], r["net"]) for r in rows] == [
        ("Ann", "80"),
        ("Bob", "-80"),
        ("Bob", "50"),
        ("Cy", "-50"),
    ]
    assert csv_name(night) == "ledger-night-4-6.csv"


def test_no_settle_up_while_chips_are_in_a_pot() -> None:
    # Ann and Bob have 10 each in the pot of the hand being played (hand 7).
    playing = dataclasses.replace(_table(4, "open"), current_hand_id=7)
    ledger = TableLedger(playing, (_line(1, 100, 0, 90), _line(2, 100, 0, 90)))
    embed = ledger_embed(NightLedger(ledger, (ledger,)), {1: "Ann", 2: "Bob"}).to_dict()
    assert "20 chips in the pot" in settle_field(dict(embed))
    assert embed["title"] == "Ledger · table 4"
