"""The presenter's state of a table is saved with it, unread by the table service: written
with the table's next snapshot, or alone a moment after it changed, and handed back as it was
after a restart (the Discord side's own test of this is tests/bot/test_pings_kept.py)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import engine
from data import Database
from tables.live import LiveTable, SavedPresentation, TableSettings
from tables.service import TableService


class _Quiet:
    """A presenter that shows nothing."""

    async def present(self, live: object, outcome: object) -> None:
        return None


class _Shown:
    """A presentation of the presenter's own making: the service only calls ``saved()``."""

    def __init__(self) -> None:
        self.message = 0

    def saved(self) -> dict[str, Any]:
        return {"message": self.message}


async def _saved(db: Database, live: LiveTable) -> Any:
    row = await db.get_table(live.id)
    return json.loads(row.state_json or "{}").get("presentation")


async def test_the_presentation_is_kept_with_the_table(tmp_path) -> None:
    path = tmp_path / "shown.db"
    db = await Database.open(path)
    service = TableService(db, _Quiet())  # type: ignore[arg-type]
    service.presentation_save_delay = 0.05
    live = await service.create(
        1, 2, 3, engine.TableConfig("five-card-draw"), TableSettings(40, 400)
    )
    shown = _Shown()
    live.presentation = shown

    # Carried by the next change's snapshot: no save of its own.
    shown.message = 1
    await service.join(live, 3, "alice", 40)
    assert await _saved(db, live) == {"message": 1}

    # Changed with nothing else to save: written alone after the delay, once.
    shown.message = 2
    service.keep_presentation(live)
    service.keep_presentation(live)
    assert live.presentation_save is not None
    for _ in range(100):
        if await _saved(db, live) == {"message": 2}:
            break
        await asyncio.sleep(0.02)
    assert await _saved(db, live) == {"message": 2}
    assert live.presentation_save is None

    # A clean stop writes a change still waiting for its delay.
    service.presentation_save_delay = 3600
    shown.message = 3
    service.keep_presentation(live)
    await service.shutdown()
    assert await _saved(db, live) == {"message": 3}
    await db.close()

    db = await Database.open(path)
    again = TableService(db, _Quiet())  # type: ignore[arg-type]
    (restored,) = await again.restore()
    assert isinstance(restored.presentation, SavedPresentation)
    assert restored.presentation.saved() == {"message": 3}
    await again.shutdown()
    await db.close()
