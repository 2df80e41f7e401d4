"""House players alone at a table: many hands of one game, or of every game, through the engine.

Each game is played by three house players (easy, normal, hard) with a seeded RNG. A hand must
end (no decision left) within a bound of steps, every action must be legal (the engine raises
otherwise), and the chips on the table must equal what was put there after every hand.

``python -m tests.house_selfplay --hands 1000`` prints one JSON line per game. The test suite
starts that run in a background process as soon as it has collected
``tests/engine/test_house_selfplay.py`` (see ``tests/conftest.py``), so the thousand hands of
every game use the core the bot tests leave idle while they wait on their emulator. The two
share the games through a folder of claims (``--claims``): when the test's turn comes it plays
every game nobody has claimed yet itself, rather than hold its worker asleep, then reads
everyone's lines.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine import Action, Table, TableConfig, list_variants
from engine.habits import Habits
from engine.house import LEVELS, Level, decide

NAMES = ("easy", "normal", "hard")
MAX_STEPS = 3000
"""Decisions in one hand beyond which it counts as stuck (the longest games take ~100)."""


def house_action(
    table: Table, seat: int, level: Level, rng: random.Random, habits: Habits | None = None
) -> Action:
    """What the house player in ``seat`` does now: from its own view and the public one only
    (and ``habits``, what it has seen of the table's players in earlier hands)."""
    decision = next(d for d in table.pending if d.seat == seat)
    return decide(
        table.private_view(seat),
        table.public_view(),
        decision,
        level,
        rng,
        rules=table.current_rules,
        habits=habits,
    )


def games() -> list[tuple[str, bool]]:
    """Every game of the catalogue, and five-card draw as dealer's choice."""
    return [(v.slug, False) for v in list_variants()] + [("five-card-draw", True)]


def game_name(slug: str, choice: bool) -> str:
    return f"{slug}-dc" if choice else slug


def play(slug: str, choice: bool, hands: int, seed: int) -> dict[str, Any]:
    """Play ``hands`` hands; what happened, as a JSON-ready summary (``error`` if it broke)."""
    rng = random.Random(f"{seed}:{game_name(slug, choice)}")
    table = Table(TableConfig(slug, dealers_choice=choice))
    for name in NAMES:
        table.sit(name, 500)
    total = table.chips()
    kinds: set[str] = set()
    longest = 0
    played = 0
    started = time.perf_counter()
    summary: dict[str, Any] = {"game": game_name(slug, choice)}
    try:
        for _ in range(hands):
            for name in NAMES:
                if table.stack(name) < 40:
                    table.add_chips(name, 500)
                    total += 500
            table.start_hand(rng)
            steps = 0
            while table.pending:
                if steps >= MAX_STEPS:
                    raise RuntimeError(f"hand #{table.hand_number} did not end")
                decision = table.pending[0]
                kinds.add(decision.kind.name)
                level = LEVELS[NAMES.index(decision.player_id)]
                table.act(decision.seat, house_action(table, decision.seat, level, rng))
                steps += 1
            longest = max(longest, steps)
            played += 1
            if table.chips() != total:
                raise RuntimeError(
                    f"hand #{table.hand_number}: {table.chips()} chips on the table, not {total}"
                )
    except Exception as exc:  # reported, not raised: the other games still play
        summary["error"] = f"{type(exc).__name__}: {exc}"
    summary.update(
        hands=played,
        chips=table.chips(),
        expected=total,
        longest=longest,
        kinds=sorted(kinds),
        seconds=round(time.perf_counter() - started, 2),
    )
    return summary


def claim(folder: Path, name: str) -> bool:
    """Whether this process may play game ``name``: the first to create its claim file does."""
    try:
        os.close(os.open(folder / f"{name}.claim", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True


def play_claimed(folder: Path | None, hands: int, seed: int, out: Callable[[str], None]) -> None:
    """Play every game not claimed by another process yet (every game without ``folder``),
    writing one JSON line per game to ``out``, then the line that says this process is done."""
    for slug, choice in games():
        if folder is None or claim(folder, game_name(slug, choice)):
            out(json.dumps(play(slug, choice, hands, seed)))
    out(json.dumps({"finished": True}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--nice", type=int, default=0, help="lower this process's priority")
    parser.add_argument(
        "--claims", type=Path, help="a folder where processes sharing the games claim them"
    )
    args = parser.parse_args()
    if args.nice:
        os.nice(args.nice)
    play_claimed(args.claims, args.hands, args.seed, lambda line: print(line, flush=True))


if __name__ == "__main__":
    sys.exit(main())
