"""A thousand hands of every game with only house players, through the engine (issue 19):
every action legal, every hand ended, the chips on the table always what was put there.

The hands are played by ``tests/house_selfplay.py`` in a background process that
``tests/conftest.py`` starts when this test is collected, and by this test: it plays the games
the background run has not claimed yet (its worker works rather than sleeps), waits for the
run to finish the rest, and checks what both report for each game.
"""

from __future__ import annotations

import json
import time

import pytest

from tests.conftest import SELFPLAY, SELFPLAY_HANDS, SELFPLAY_SEED
from tests.house_selfplay import game_name, games, play_claimed


@pytest.mark.timeout(1500)
def test_house_players_alone_play_a_thousand_hands_of_every_game(
    request: pytest.FixtureRequest,
) -> None:
    run = request.config.stash[SELFPLAY]
    mine: list[str] = []
    play_claimed(run.claims, SELFPLAY_HANDS, SELFPLAY_SEED, mine.append)
    deadline = time.monotonic() + 1400
    # The run may belong to another worker's process: its last line says it finished (an
    # exception ends it without that line, and its traceback is in the text).
    while '{"finished": true}' not in (text := run.text()):
        if not run.running():
            text = run.text()
            break
        assert time.monotonic() < deadline, text[-3000:]
        time.sleep(0.5)
    run.consume()
    lines = text.splitlines()
    assert lines and lines[-1] == '{"finished": true}', text[-3000:]
    played = [json.loads(line) for line in lines[:-1] + mine[:-1]]
    reports = {r["game"]: r for r in played}
    assert len(reports) == len(played), "a game was played twice"
    assert set(reports) == {game_name(slug, choice) for slug, choice in games()}
    for name, report in reports.items():
        assert "error" not in report, (name, report)
        assert report["hands"] == SELFPLAY_HANDS, (name, report)
        assert report["chips"] == report["expected"], (name, report)
        assert "BET" in report["kinds"], (name, report)
    slowest = max(reports.values(), key=lambda r: r["seconds"])
    print(
        f"{len(reports)} games x {SELFPLAY_HANDS} hands in "
        f"{sum(r['seconds'] for r in reports.values()):.0f} s of play "
        f"(slowest: {slowest['game']}, {slowest['seconds']} s)"
    )
