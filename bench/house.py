"""How strong the house players are: win rates against baselines.

Run with ``.venv/bin/python bench/house.py [--hands N] [--levels easy,normal,hard]
[--families high,lowball,ace-to-five,ace-to-six,high-low] [--seats N] [--selfplay N]``.

Each house level plays ``--hands`` hands heads-up (10,000 by default; ``--seats N`` seats it
with N - 1 players of the baseline instead) in each game family (high: five-card draw;
lowball: Kansas City 2-7 lowball; ace-to-five: California lowball; ace-to-six: ace-to-six
lowball; high-low: California high-low split) against

* a calling station: checks or calls every bet, never bets, never folds, and draws like a
  casual player (everything but pairs in high, pairs and cards above an eight in lowball);
* a random player: any legal action with equal chances, amounts and discards at random;
* the easy house player (``--baselines station,random,easy``; not in the default), the only
  baseline that folds.

Deals are duplicated to cut the luck: every deck is dealt once with the house player in
each seat (twice heads-up). The figure is the house player's win in big bets per 100 hands,
with its standard error over the sets of deals of one deck; then each level's gain over the
level below on the same deals, with its own standard error. The lines run in ``--workers``
processes (2).

``--calibrate N`` prints the measured ranges of engine.house from N hands per family (also
``double-draw`` and ``triple-draw``, whose final hands weigh the draws in those games).
``--selfplay N`` instead plays N hands of every variant of the catalogue and of dealer's
choice with three house players (one of each level), checks that no chip is created or lost
and that every hand ends, and prints the time a hand takes and what each level won.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import listed, positive
from engine import Table, TableConfig, list_variants
from engine.actions import (
    Action,
    AllIn,
    Arrange,
    Bet,
    Call,
    Check,
    ChooseGame,
    Declare,
    Discard,
    Fold,
    Keep,
    PassCards,
    Raise,
)
from engine.decisions import (
    ArrangeOptions,
    BetOptions,
    ChooseOptions,
    Decision,
    DeclareOptions,
    DrawOptions,
    KeepOptions,
    PassOptions,
)
from engine.habits import Habits
from engine.house import LEVELS, Level, decide
from engine.rules import Draw
from engine.stakes import FixedLimit

FAMILIES = {
    "high": "five-card-draw",
    "lowball": "kansas-city-lowball",
    "ace-to-five": "california-lowball",
    "ace-to-six": "ace-to-six-lowball",
    "double-draw": "double-draw-lowball",
    "triple-draw": "triple-draw-27",
    "high-low": "california-high-low",
}
ONE_DRAW = ("high", "lowball", "ace-to-five", "ace-to-six", "high-low")
STACK_BIG_BETS = 100


def station(table: Table, decision: Decision, rng: random.Random) -> Action:
    """Never folds, never bets: calls what it must and draws like a casual player."""
    legal = decision.legal
    if isinstance(legal, BetOptions):
        if legal.can_check:
            return Check()
        if legal.to_call == 0 and legal.min_to is not None:
            return Bet(legal.min_to)
        return Call()
    if isinstance(legal, DrawOptions):
        # the easy house player's draw is the casual one; its betting is not used here
        return casual(table, decision, rng)
    return random_action(table, decision, rng)


def random_action(table: Table, decision: Decision, rng: random.Random) -> Action:
    """Any legal action, chosen uniformly among the kinds available."""
    legal = decision.legal
    if isinstance(legal, BetOptions):
        moves: list[Action] = [Check() if legal.can_check else Call()]
        if legal.can_fold and not legal.can_check:
            moves.append(Fold())
        if legal.min_to is not None and legal.max_to is not None:
            to = rng.randint(legal.min_to, legal.max_to)
            moves.append(Bet(to) if legal.is_bet else Raise(to))
        if legal.can_all_in and not legal.fixed_limit:
            moves.append(AllIn())
        return rng.choice(moves)
    if isinstance(legal, DrawOptions):
        for _ in range(20):
            count = rng.choice(legal.counts)
            discard = tuple(rng.sample(legal.cards, min(count, len(legal.cards))))
            if legal.refusal(discard) is None:
                return Discard(discard)
        return Discard(())
    if isinstance(legal, KeepOptions):
        return Keep(rng.choice((legal.face_up, None)))
    if isinstance(legal, PassOptions):
        return PassCards(tuple(rng.sample(legal.cards, legal.count)))
    if isinstance(legal, ArrangeOptions):
        return Arrange(tuple(rng.sample(legal.cards, legal.size)))
    if isinstance(legal, DeclareOptions):
        return Declare(rng.choice(legal.directions))
    if isinstance(legal, ChooseOptions):
        return ChooseGame(rng.choice(legal.slugs))
    return Check()


def casual(table: Table, decision: Decision, rng: random.Random) -> Action:
    """The easy house player: opens good hands, folds weak ones to a bet, calls from a fixed
    chance; unlike the other two it folds, so loose raises do not pay against it."""
    return decide(
        table.private_view(decision.seat),
        table.public_view(),
        decision,
        Level.EASY,
        rng,
        rules=table.current_rules,
    )


BASELINES = {"station": station, "random": random_action, "easy": casual}
DEFAULT_BASELINES = ("station", "random")


def big_bet(table: Table) -> int:
    structure, _ = table.config.stakes
    return structure.big_bet if isinstance(structure, FixedLimit) else 2 * max(1, structure.min_bet)


def play_hand(
    table: Table,
    house_seat: int,
    level: Level,
    baseline: str,
    deal_seed: int,
    rng: random.Random,
    habits: Habits | None = None,
) -> int:
    """One hand; the house seat's chip result (the house player knowing ``habits``)."""
    stack_size = STACK_BIG_BETS * big_bet(table)
    for player in (seat.player_id for seat in table.seats if seat is not None):
        missing = stack_size - table.stack(player)
        if missing > 0:
            table.add_chips(player, missing)
    before = table.stack(f"p{house_seat}")
    table.start_hand(random.Random(deal_seed))
    other = BASELINES[baseline]
    steps = 0
    while table.pending:
        decision = table.pending[0]
        if decision.seat == house_seat:
            action = decide(
                table.private_view(decision.seat),
                table.public_view(),
                decision,
                level,
                rng,
                rules=table.current_rules,
                habits=habits,
            )
        else:
            action = other(table, decision, rng)
        table.act(decision.seat, action)
        steps += 1
        if steps > 1000:
            raise RuntimeError("a hand did not end")
    return table.stack(f"p{house_seat}") - before


def duplicate_pairs(
    slug: str, level: Level, baselines: list[str], hands: int, seed: int, seats: int = 2
) -> dict[str, list[float]]:
    """The house player's win in big bets a hand over each set of deals of the same deck,
    against each baseline (``seats`` deals, the house player in each seat in turn, the
    baseline in the others). Each baseline has its own tables and generator, so its figures
    are the same whatever else is played; each deck is dealt against every baseline in turn,
    so the house player's first decision on it is counted once and found again."""
    tables: dict[str, list[Table]] = {}
    # what the house player at each table has seen of its opponents' bets
    habits: dict[str, list[Habits]] = {baseline: [Habits()] * seats for baseline in baselines}
    for baseline in baselines:
        tables[baseline] = []
        for _ in range(seats):
            table = Table(TableConfig(slug))
            for seat in range(seats):
                table.sit(f"p{seat}", 1, seat=seat)
            tables[baseline].append(table)
    rngs = {baseline: random.Random(seed) for baseline in baselines}
    unit = big_bet(Table(TableConfig(slug)))
    pairs: dict[str, list[float]] = {baseline: [] for baseline in baselines}
    for index in range(hands // seats):
        deal_seed = seed * 1_000_003 + index
        for baseline in baselines:
            rng = rngs[baseline]
            # the same deck once with the house player in each seat
            won = 0
            for seat, table in enumerate(tables[baseline]):
                seen = habits[baseline][seat]
                won += play_hand(table, seat, level, baseline, deal_seed, rng, seen)
                habits[baseline][seat] = seen.after_hand(table.events)
            pairs[baseline].append(won / unit / seats)
    return pairs


def per_100(values: list[float]) -> tuple[float, float]:
    """The mean per 100 hands of per-hand figures, and its standard error."""
    mean = sum(values) / len(values)
    spread = math.sqrt(sum((x - mean) ** 2 for x in values) / max(1, len(values) - 1))
    return 100 * mean, 100 * spread / math.sqrt(len(values))


def heads_up(slug: str, level: Level, baseline: str, hands: int, seed: int) -> tuple[float, float]:
    """Big bets per 100 hands and its standard error, over ``hands`` hands (duplicate deals)."""
    return per_100(duplicate_pairs(slug, level, [baseline], hands, seed)[baseline])


_Job = tuple[str, str, list[str], int, int, int]


def _lines(job: _Job) -> tuple[_Job, dict[str, list[float]], float]:
    family, level, baselines, hands, seed, seats = job
    started = time.perf_counter()
    pairs = duplicate_pairs(FAMILIES[family], Level(level), baselines, hands, seed, seats)
    return job, pairs, time.perf_counter() - started


def strength_check(
    families: list[str],
    baselines: list[str],
    levels: list[str],
    hands: int,
    seed: int,
    workers: int,
    seats: int = 2,
) -> None:
    """Every line of the check, then each level against the one below on the same deals."""
    table = "heads-up" if seats == 2 else f"at {seats} seats (one house player)"
    print(f"{hands} hands {table} per line, big bets per 100 hands (± standard error)")
    jobs: list[_Job] = [(f, lv, baselines, hands, seed, seats) for f in families for lv in levels]
    # the longest first, so that no worker is left with one at the end: the joker deck's
    # odds cost the most to count, and the easy level counts none
    jobs.sort(key=lambda job: (job[0] != "high-low", job[1] == "easy"))
    results: dict[tuple[str, str, str], list[float]] = {}
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        for job, lines, took in pool.imap_unordered(_lines, jobs, chunksize=1):
            family, level = job[:2]
            for baseline in baselines:
                results[family, baseline, level] = lines[baseline]
            print(f"{family:9} {level:7} played against every baseline in {took:.0f} s", flush=True)
    for family in families:
        for baseline in baselines:
            for level in levels:
                rate, error = per_100(results[family, baseline, level])
                print(f"{family:9} vs {baseline:8} {level:14} {rate:+8.1f} ± {error:5.1f}")
    print("each level minus the one below, on the same deals:")
    for family in families:
        for baseline in baselines:
            for better, worse in zip(levels[1:], levels[:-1], strict=True):
                gains = [
                    a - b
                    for a, b in zip(
                        results[family, baseline, better],
                        results[family, baseline, worse],
                        strict=True,
                    )
                ]
                rate, error = per_100(gains)
                pair = f"{better} - {worse}"
                print(f"{family:9} vs {baseline:8} {pair:14} {rate:+8.1f} ± {error:5.1f}")


def _selfplay_game(job: tuple[str, bool, int, int]) -> tuple[str, float, dict[str, float]]:
    """One game's self-play: its time and each level's win in big bets per 100 hands."""
    slug, choice, hands, seed = job
    started = time.perf_counter()
    rng = random.Random(seed)
    table = Table(TableConfig(slug, dealers_choice=choice))
    names = ("easy", "normal", "hard")
    for name in names:
        table.sit(name, 1000)
    total = table.chips()
    bought = dict.fromkeys(names, 1000)
    for _ in range(hands):
        for name in names:
            if table.stack(name) < 50:
                table.add_chips(name, 1000)
                total += 1000
                bought[name] += 1000
        table.start_hand(rng)
        steps = 0
        while table.pending:
            decision = table.pending[0]
            action = decide(
                table.private_view(decision.seat),
                table.public_view(),
                decision,
                LEVELS[names.index(decision.player_id)],
                rng,
                rules=table.current_rules,
            )
            table.act(decision.seat, action)
            steps += 1
            if steps > 2000:
                raise RuntimeError(f"{slug}: a hand did not end")
        if table.chips() != total:
            raise RuntimeError(f"{slug}: chips {table.chips()} != {total}")
    unit = big_bet(table)
    won = {name: 100 * (table.stack(name) - bought[name]) / unit / hands for name in names}
    name = "dealer's choice" if choice else slug
    return name, time.perf_counter() - started, won


def selfplay(hands: int, seed: int = 1, workers: int = 2) -> None:
    """Every variant (and dealer's choice) with one house player of each level, three-handed:
    chips conserved, every hand ended, the time it took and what each level won (big bets per
    100 hands, of the game's own stakes; between hands only, so chips in a pot carried to the
    next deal count for nobody)."""
    games = [(v.slug, False) for v in list_variants()] + [("five-card-draw", True)]
    jobs = [(slug, choice, hands, seed) for slug, choice in games]
    spent = 0.0
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        for name, took, won in pool.imap(_selfplay_game, jobs, chunksize=1):
            spent += took
            wins = " ".join(f"{level} {rate:+6.1f}" for level, rate in won.items())
            print(
                f"{name:20} {hands} hands, chips conserved, {took:5.1f} s"
                f" ({1000 * took / hands:4.1f} ms a hand)   {wins}",
                flush=True,
            )
    print(f"{spent:.0f} s of play in all, {1000 * spent / (hands * len(jobs)):.1f} ms a hand")


def calibrate(slug: str, hands: int, seed: int = 7, quantiles: int = 20) -> None:
    """Print the measured ranges engine.house reads (its ``_RANGES``): two casual players
    (the station's draw, opening with the smallest bet) heads-up, each seat's strength
    before the draw and after it by the number of cards drawn."""
    from engine.house import _Seen, _strength  # a bench may look inside

    rng = random.Random(seed)
    table = Table(TableConfig(slug))
    table.sit("p0", 1, seat=0)
    table.sit("p1", 1, seat=1)
    before: list[float] = []
    after: dict[int, list[float]] = {}
    for index in range(hands):
        for player in ("p0", "p1"):
            if table.stack(player) < 1000:
                table.add_chips(player, 1000 - table.stack(player))
        table.start_hand(random.Random(seed * 7919 + index))
        seen_before: set[int] = set()
        seen_after: set[int] = set()
        while table.pending:
            decision = table.pending[0]
            legal = decision.legal
            seen = _Seen(
                table.private_view(decision.seat), table.public_view(), table.current_rules
            )
            action: Action | None = None
            if isinstance(legal, BetOptions):
                if seen.draws_left and decision.seat not in seen_before:
                    before.append(_strength(seen, True))
                    seen_before.add(decision.seat)
                elif not seen.draws_left and decision.seat not in seen_after:
                    me = next(s for s in seen.public.seats if s.seat == decision.seat)
                    after.setdefault(me.draws[-1], []).append(_strength(seen, True))
                    seen_after.add(decision.seat)
                opens = seen.draws_left and legal.to_call == 0 and legal.can_raise
                if opens and legal.min_to is not None:
                    action = Bet(legal.min_to) if legal.is_bet else Raise(legal.min_to)
            table.act(decision.seat, action or station(table, decision, rng))

    def cut(values: list[float]) -> tuple[float, ...]:
        ordered = sorted(values)
        n = len(ordered)
        return tuple(ordered[int((k + 0.5) * n / quantiles)] for k in range(quantiles))

    def show(name: object, values: tuple[float, ...]) -> None:
        # ten to a line, as the table in engine/house.py is written (between fmt: off and on)
        print(f"        {name!r}: (".replace("'", '"'))
        for start in range(0, len(values), 10):
            print("            " + ", ".join(f"{v:.4f}" for v in values[start : start + 10]) + ",")
        print("        ),")

    rules = TableConfig(slug).rules()
    ranking = rules.low if rules.split.value == "low" else rules.high
    draws = sum(1 for step in rules.steps if isinstance(step, Draw))
    key = (rules.split.value, ranking.value, rules.deck.value, draws)
    print(f"    {key!r}: {{".replace("'", '"'))
    show("pre", cut(before))
    for drawn in sorted(after):
        if len(after[drawn]) >= 100:  # too few to measure: the pooled range stands in
            show(drawn, cut(after[drawn]))
    show("any", cut([x for xs in after.values() for x in xs]))
    print("    },")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=positive, default=10_000)
    parser.add_argument(
        "--levels", type=listed(level.value for level in LEVELS), default="easy,normal,hard"
    )
    # the strength check plays the one-draw games by default; --calibrate measures any
    parser.add_argument("--families", type=listed(FAMILIES), default=",".join(ONE_DRAW))
    parser.add_argument("--baselines", type=listed(BASELINES), default=",".join(DEFAULT_BASELINES))
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--selfplay", type=int, default=0)
    parser.add_argument("--workers", type=positive, default=2, help="processes for the lines")
    parser.add_argument(
        "--seats", type=positive, default=2, help="players at the table, the house player one"
    )
    parser.add_argument("--calibrate", type=int, default=0, help="hands per family")
    args = parser.parse_args()
    most = min(TableConfig(FAMILIES[family]).seats for family in args.families)
    if not 2 <= args.seats <= most:
        parser.error(f"--seats: these games seat 2 to {most} players")
    if args.calibrate:
        for family in args.families:
            calibrate(FAMILIES[family], args.calibrate)
        return
    if args.selfplay:
        selfplay(args.selfplay, workers=args.workers)
        return
    strength_check(
        args.families,
        args.baselines,
        args.levels,
        args.hands,
        args.seed,
        args.workers,
        args.seats,
    )


if __name__ == "__main__":
    main()
