"""The settle-up on random nights: every net paid exactly, never more than ``players - 1``
transfers, and the fewest possible (against a brute force) for small groups."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.settle import EXACT_LIMIT, Transfer, UnbalancedNets, _greedy, settle


@st.composite
def nights(draw: st.DrawFn, most: int = 12, chips: int = 500) -> dict[str, int]:
    """Nets of a night: any numbers for all players but one, who takes the rest.

    Small values and repeats are likely, so subgroups that break even on their own happen.
    """
    count = draw(st.integers(1, most))
    nets = draw(st.lists(st.integers(-chips, chips), min_size=count - 1, max_size=count - 1))
    names = [f"p{i}" for i in range(count)]
    return dict(zip(names, [*nets, -sum(nets)], strict=True))


def paid(nets: dict[str, int], transfers: tuple[Transfer, ...]) -> dict[str, int]:
    left = dict(nets)
    for t in transfers:
        left[t.payer] += t.amount
        left[t.payee] -= t.amount
    return left


def partitions(items: list[int]) -> Iterator[list[list[int]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in partitions(rest):
        yield [[first], *part]
        for i in range(len(part)):
            yield [*part[:i], [first, *part[i]], *part[i + 1 :]]


def brute_minimum(nets: dict[str, int]) -> int:
    """Fewest transfers = players with a non-zero net - the most zero-sum blocks of a split."""
    values = [v for v in nets.values() if v != 0]
    most = max(
        (len(p) for p in partitions(values) if all(sum(block) == 0 for block in p)), default=0
    )
    return len(values) - most


@settings(max_examples=300)
@given(nights())
def test_transfers_settle_every_net_exactly(nets: dict[str, int]) -> None:
    transfers = settle(nets)
    assert all(v == 0 for v in paid(nets, transfers).values())
    assert all(t.amount > 0 and t.payer != t.payee for t in transfers)
    assert all(nets[t.payer] < 0 < nets[t.payee] for t in transfers)
    assert len(transfers) <= max(len(nets) - 1, 0)


@settings(max_examples=200)
@given(nights(most=7, chips=6))
def test_fewest_transfers_against_brute_force(nets: dict[str, int]) -> None:
    assert len(settle(nets)) == brute_minimum(nets)


@settings(max_examples=20, deadline=None)
@given(nights(most=40, chips=10_000))
def test_large_nights_fall_back_to_greedy_and_still_settle(nets: dict[str, int]) -> None:
    transfers = settle(nets)
    assert all(v == 0 for v in paid(nets, transfers).values())
    assert len(transfers) <= max(len(nets) - 1, 0)


@given(nights())
def test_same_nets_in_any_order_give_the_same_transfers(nets: dict[str, int]) -> None:
    assert settle(dict(reversed(list(nets.items())))) == settle(nets)


def test_the_exact_search_beats_greedy_near_the_limit() -> None:
    # Three copies of a night where greedy needs 4 transfers and the exact split 3: the
    # copies' amounts differ (x1, x10, x100) so each copy breaks even only on its own.
    nets = {
        f"{name}{scale}": net * scale
        for scale in (1, 10, 100)
        for name, net in {"a": 4, "b": 3, "c": -3, "d": -2, "e": -2}.items()
    }
    assert len(nets) <= EXACT_LIMIT
    assert len(_greedy(sorted(nets.items()))) > 9
    assert len(settle(nets)) == 9


def test_unbalanced_nets_are_refused_with_the_sum() -> None:
    with pytest.raises(UnbalancedNets, match="sum to 5"):
        settle({"a": 10, "b": -5})
    assert issubclass(UnbalancedNets, ValueError)
