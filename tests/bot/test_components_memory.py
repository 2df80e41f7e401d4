"""A table message's components are sent and forgotten: they must be freed as soon as they
are dropped, not left in a reference cycle for the garbage collector's rare full passes (at
hundreds of tables, those cycles were a large part of the bot's memory per table)."""

from __future__ import annotations

import contextlib
import gc
import weakref
from collections.abc import Iterator

from cogs.ui.components import Components, PokerButton, PokerSelect


@contextlib.contextmanager
def collector_off() -> Iterator[None]:
    """What is freed inside was freed by reference counting alone."""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


async def test_a_dropped_view_is_freed_without_the_garbage_collector() -> None:
    view = Components()
    button = PokerButton("pk:test:1", "Check")
    select = PokerSelect("pk:test:2", placeholder="Discards")
    view.add_item(button).add_item(select)
    assert [item.custom_id for item in view.children] == ["pk:test:1", "pk:test:2"]
    assert view.to_components(), "the items are still sent"
    refs = [weakref.ref(obj) for obj in (view, button, select)]
    with collector_off():
        del view, button, select
        assert all(ref() is None for ref in refs), "freed by reference counting alone"


async def test_plain_buttons_send_what_discord_py_items_would() -> None:
    import discord

    presses = [
        ("pk:t:1", "Fold", discord.ButtonStyle.danger, 0),
        ("pk:t:2", "My hand", discord.ButtonStyle.secondary, 2),
        ("pk:t:3", "Call 1,000", discord.ButtonStyle.primary, 0),
        ("pk:t:4", "½ pot 500", discord.ButtonStyle.secondary, 1),
        ("pk:t:5", "x" * 90, discord.ButtonStyle.success, 0),
    ]
    items, plain = Components(), Components()
    for custom_id, label, style, row in presses:
        items.add_item(PokerButton(custom_id, label, style, row=row))
        plain.button(custom_id, label, style, row=row)
    assert plain.to_components() == items.to_components()
    # the same keys in the same order, so the same bytes on the wire
    assert repr(plain.to_components()) == repr(items.to_components())
    assert plain.is_finished()


async def test_a_sent_attachment_is_freed_without_the_garbage_collector() -> None:
    from cogs import kit

    file = kit.attachment(b"\x89PNG" + bytes(4000), "hand.png", "Your cards")
    for _ in range(2):  # sent, then sent again (an edit that failed, then a new message)
        file.reset(seek=True)
        assert file.fp.read() == b"\x89PNG" + bytes(4000)
        file.close()  # what discord.py does once a request with the file is over
    buffer = weakref.ref(file.fp)
    with collector_off():
        del file
        assert buffer() is None, "freed by reference counting alone"


async def test_a_sent_form_is_freed_without_the_garbage_collector() -> None:
    from cogs.ui.components import AmountModal, SitModal

    makers = (
        lambda: SitModal("pk:sit:1", 10, 100, 50, [1, 2]),
        lambda: AmountModal("pk:amt:1", "Raise", "Raise to", 4, 100),
    )
    for make in makers:
        modal = make()
        rows = modal.to_dict()["components"]
        assert [row["components"][0]["type"] for row in rows] == [4] * len(rows)  # text inputs
        ref = weakref.ref(modal)
        with collector_off():
            del modal
            assert ref() is None, "freed by reference counting alone"
