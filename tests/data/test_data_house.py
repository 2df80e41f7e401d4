"""House players' bankrolls: issued by house_fund rows only, audited, kept off the
leaderboard (on both backends)."""

from __future__ import annotations

import pytest

from data import Database, DataError

from .helpers import GUILD


async def test_fund_house_issues_only_what_is_missing(db: Database) -> None:
    assert await db.fund_house(GUILD, -201, 150, now=10) == 150
    # already enough: nothing issued
    assert await db.fund_house(GUILD, -201, 100, now=11) == 150
    assert await db.fund_house(GUILD, -201, 400, now=12) == 400
    rows = (await db.ledger(GUILD, -201)).items
    assert [(r.kind, r.delta) for r in rows] == [("house_fund", 250), ("house_fund", 150)]
    audit = await db.chip_audit(GUILD)
    assert audit.ok, audit
    await db.account(GUILD, 7, now=13)
    board = await db.leaderboard(GUILD)
    assert [entry.user_id for entry in board.items] == [7] and board.total == 1


async def test_fund_house_refuses_member_ids(db: Database) -> None:
    with pytest.raises(DataError):
        await db.fund_house(GUILD, 5, 100)
    assert (await db.ledger(GUILD)).total == 0
