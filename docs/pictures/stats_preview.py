r"""The picture of ``/stats`` (a member's game over time), as a player sees it.

    .venv/bin/python docs/pictures/stats_preview.py docs/pictures/stats.json
    .venv/bin/python ../shared/tools/discord_preview.py docs/pictures/stats.json \
        docs/pictures/stats.png

The message comes from the bot's own formatting (:mod:`cogs.ui.economy`,
:mod:`cogs.ui.stats_chart`) on a made-up six weeks of Thursday nights; the chart is written
beside the JSON (``stats-chart.png``).
"""

import json
import random
import sys
from pathlib import Path
from types import SimpleNamespace

from cogs.ui.economy import stats_embed
from cogs.ui.stats_chart import CHART_FILE, chart_description, render_stats_chart, show_chart
from data import BankrollPoint, GameNet, PlayerStats, StatsHistory

out = Path(sys.argv[1])
out.parent.mkdir(parents=True, exist_ok=True)
ALICE = 1575077335588274181
rng = random.Random(29)
night = 1762455600.0  # Thursday 6 November 2025, 19:00 UTC
balance = 1000
points = [BankrollPoint(night - 86400 * 3, balance)]
for week in range(6):
    at = night + week * 7 * 86400
    balance += 100  # the daily bonus
    points.append(BankrollPoint(at - 3600, balance))
    for _table in range(2):
        buy_in = 200
        balance -= buy_in
        points.append(BankrollPoint(at, balance))
        at += 5400
        balance += max(0, buy_in + rng.randint(-200, 330))
        points.append(BankrollPoint(at, balance))
games = (
    GameNet("five-card-draw", "Five-card draw", 96, 412),
    GameNet("seven-card-draw", "Seven-card draw", 41, 118),
    GameNet("deuces-wild", "Deuces wild", 23, -36),
    GameNet("california-lowball", "California lowball", 30, -152),
)
history = StatsHistory(tuple(points), games, sum(g.hands for g in games), False)
net = sum(g.net for g in games)
stats = PlayerStats(1, ALICE, 190, 61, net, 486, 0, "Full house, nines over fours", None, None)
member = SimpleNamespace(display_name="Alice", mention=f"<@{ALICE}>")
embed = stats_embed(member, stats)  # type: ignore[arg-type]
show_chart(embed, history)
(out.parent / "stats-chart.png").write_bytes(render_stats_chart(history))
doc = {
    "caption": "/stats: Alice's game over six weeks of poker nights",
    "now": points[-1].at + 600,
    "users": {str(ALICE): "Alice"},
    "messages": [
        {
            "where": "#poker",
            "author": "Draw Poker",
            "ephemeral": False,
            "content": "",
            "embeds": [embed.to_dict()],
            "attachments": [
                {
                    "filename": CHART_FILE,
                    "path": "stats-chart.png",
                    "description": chart_description(history),
                }
            ],
        }
    ],
}
out.write_text(json.dumps(doc, indent=2, ensure_ascii=False))
