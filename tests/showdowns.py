"""Hands played to a showdown by the engine alone, for tests of what a showdown shows."""

from __future__ import annotations

import random
from collections.abc import Iterable

import engine


def play_calling(
    config: engine.TableConfig,
    seed: int,
    players: Iterable[str],
    *,
    until_showdown: bool = True,
) -> engine.Table:
    """Seat ``players`` with 200 chips and deal; with ``until_showdown`` play the hand out:
    the first to act bets the least, everyone else calls, nobody folds (a private choice is
    the timeout's)."""
    table = engine.Table(config)
    for pid in players:
        table.sit(pid, 200)
    table.start_hand(random.Random(seed))
    while table.in_hand and until_showdown:
        decision = table.pending[0]
        legal = decision.legal
        action: engine.Action = engine.Timeout()
        if isinstance(legal, engine.BetOptions):
            if legal.to_call:
                action = engine.Call()
            elif legal.can_raise and legal.min_to is not None:
                action = engine.Bet(legal.min_to)
        try:
            table.act(decision.seat, action)
        except engine.IllegalAction:
            table.act(decision.seat, engine.Timeout())
    return table
