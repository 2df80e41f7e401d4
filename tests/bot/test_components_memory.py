"""A table message's components are sent and forgotten: they must be freed as soon as they
are dropped, not left in a reference cycle for the garbage collector's rare full passes (at
hundreds of tables, those cycles were a large part of the bot's memory per table)."""

from __future__ import annotations

import gc
import weakref

from cogs.ui.components import Components, PokerButton, PokerSelect


async def test_a_dropped_view_is_freed_without_the_garbage_collector() -> None:
    view = Components()
    button = PokerButton("pk:test:1", "Check")
    select = PokerSelect("pk:test:2", placeholder="Discards")
    view.add_item(button).add_item(select)
    assert [item.custom_id for item in view.children] == ["pk:test:1", "pk:test:2"]
    assert view.to_components(), "the items are still sent"
    refs = [weakref.ref(obj) for obj in (view, button, select)]
    gc.disable()
    try:
        del view, button, select
        assert all(ref() is None for ref in refs), "freed by reference counting alone"
    finally:
        gc.enable()
