"""The picture of a closing ledger (two tables in a night), as a player sees it.

    .venv/bin/python docs/pictures/ledger_preview.py /tmp/ledger.json
    .venv/bin/python ../shared/tools/discord_preview.py /tmp/ledger.json docs/pictures/ledger.png

The embed comes from the bot's own formatting (:mod:`cogs.ui.ledger`) on a made-up night; the
night's CSV is written beside the JSON.
"""

import json
import sys
from pathlib import Path

from cogs.ui.ledger import csv_name, ledger_csv, ledger_embed
from data.ledger import LedgerLine, NightLedger, TableLedger
from data.models import Table

if len(sys.argv) != 2:
    sys.exit(f"usage: {sys.argv[0]} OUT.json (the embed's payload; its CSV is written beside it)")
out = Path(sys.argv[1])
t0 = 1764097200.0  # 2025-11-25 19:00 UTC
first = Table(12, 1, 1, 1, "closed", "{}", None, 0, None, None, t0, t0 + 9000, t0 + 9000)
second = Table(13, 1, 2, 1, "closed", "{}", None, 0, None, None, t0 + 3600, t0 + 9300, t0 + 9300)
A, B, C, D, E = 101, 102, 103, 104, -301
names = {A: "Alice", B: "Bob", C: "Cleo", D: "Dan", E: "🤖 House normal 1"}
one = TableLedger(
    first,
    (
        LedgerLine(A, 200, 0, 0, 455, 0, False, t0 + 60, t0 + 9000),
        LedgerLine(B, 200, 300, 2, 180, 0, False, t0 + 65, t0 + 9000),
        LedgerLine(C, 200, 0, 0, 320, 0, False, t0 + 70, t0 + 4100),
        LedgerLine(E, 200, 0, 0, 145, 0, False, t0 + 80, t0 + 9000),
    ),
)
two = TableLedger(
    second,
    (
        LedgerLine(C, 100, 0, 0, 40, 0, False, t0 + 4200, t0 + 9300),
        LedgerLine(D, 100, 100, 1, 260, 0, False, t0 + 4300, t0 + 9300),
    ),
)
night = NightLedger(one, (one, two))
(out.parent / csv_name(night)).write_text(ledger_csv(night, names))
payload = {
    "caption": (
        "A table closes: its ledger, the night's nets (two tables), the settle-up; "
        f"{csv_name(night)} attached"
    ),
    "messages": [
        {
            "where": "#poker",
            "author": "Draw Poker",
            "content": "",
            "embeds": [
                {
                    "title": "Table closed",
                    "description": "Alice: 455\nBob: 180\n🤖 House normal 1: 145",
                    "color": 0x5F6368,
                }
            ],
        },
        {
            "where": "#poker",
            "author": "Draw Poker",
            "content": "",
            "embeds": [ledger_embed(night, names).to_dict()],
        },
    ],
}
out.write_text(json.dumps(payload, ensure_ascii=False, indent=1))
