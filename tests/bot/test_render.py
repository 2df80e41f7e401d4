"""The table embed shows what the engine's public view says of each seat."""

from __future__ import annotations

import random

from cogs.ui import render
from engine import ForcedBets, Table, TableConfig, Timeout


def test_a_newcomer_waiting_for_the_deal_is_shown_on_the_table() -> None:
    table = Table(TableConfig("five-card-draw", forced_bets=ForcedBets.dealers_edge(1)))
    table.sit("1", 100)
    table.sit("2", 100)
    table.start_hand(random.Random(3))
    table.sit("3", 100)  # mid-hand: under dealer's edge a newcomer waits for their deal
    while table.in_hand:
        table.act(table.pending[0].seat, Timeout())
    names = {"1": "Alice", "2": "Bob", "3": "Carol"}
    embed = render.table_embed(table.public_view(), names)
    text = "\n".join(f.value or "" for f in embed.fields) + (embed.description or "")
    carol = next(line for line in text.splitlines() if "Carol" in line)
    assert "plays from the hand they deal" in carol
    assert "plays from" not in next(line for line in text.splitlines() if "Alice" in line)
