"""The showdown as players see it, played through the emulator: each game's result message
lists every hand arranged by what makes it (the same order in its text and its picture), the
winners first, the cards that do not play set apart.

Each test writes the result message as Discord sent it (:class:`tests.bot.look.Look`) with its
picture, under pytest's temporary folder and /tmp/look/showdown/<game>/.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import engine
from cogs.presenter import Shown
from cogs.ui import render
from cogs.ui.card_images import CARD_H, MARGIN, ROW_TITLE, render_cards
from tests.bot.driver import (
    act_once,
    create_table,
    find_table_message,
    live_table,
    open_panel,
    passive,
    play_hand,
)
from tests.bot.look import Look
from tests.emulator import Emulator, World


def _opens_then_calls(decision: engine.Decision, labels: list[str]) -> str:
    """Open when nobody has (some games pass a deal nobody opens), else call or check: every
    hand goes to a showdown."""
    bet = next((label for label in labels if label.startswith("Bet")), None)
    return bet or passive(decision, labels)


async def _hand_on_screen(emu: Emulator, world: World, live: Any) -> None:
    def shown() -> bool:
        message = find_table_message(emu, world)
        return (
            live.engine.in_hand and message is not None and message.id == Shown.of(live).message_id
        )

    await emu.wait_for(shown, timeout=10)


@pytest.mark.parametrize("variant", ["seven-card-draw", "deuces-wild", "california-lowball"])
async def test_the_result_shows_hands_arranged(
    poker_bot, emu: Emulator, world: World, tmp_path: Path, variant: str
) -> None:
    bot = await poker_bot()
    bot.presenter.ping_after = 0
    players = world.players[:3]
    lobby = await create_table(emu, world, players, variant=variant, stake=2, ante=1, auto_deal=0)
    live = live_table(bot, world)
    deal_on = lobby
    first_dm: Any = None
    for _ in range(8):
        await emu.click(players[0], deal_on, label="Deal")
        await _hand_on_screen(emu, world, live)
        if first_dm is None:
            first_dm = await emu.wait_for(lambda: (emu.dms(players[0]) or [None])[-1])
            private = live.engine.private_view(str(players[0].id))
            arranged = render.private_arrangement(live.engine.hand, private)
            assert arranged is not None
            # The DM writes the dealt hand in the order its picture shows, as the showdown will.
            assert first_dm.embeds[0]["description"] == f"**{render.arranged_text(arranged)}**"
            cards, wild, idle = render.picture_cards(private.cards, arranged)
            assert idle == len(arranged.idle) == (2 if variant == "seven-card-draw" else 0)
            assert first_dm.attachments[0].data == render_cards(cards, wild=wild, idle=idle)
        result = await play_hand(emu, world, bot, policy=_opens_then_calls)
        await emu.idle()
        title = f"hand\u00a0#{result.hand_number} result"
        message = await emu.wait_for(
            lambda t=title: next(
                (m for m in emu.channel_messages(world.channel) if t in m.text), None
            )
        )
        if len(result.shown) >= 2:
            break
        deal_on = await emu.wait_for(
            lambda: next(
                (m for m in emu.channel_messages(world.channel) if "Deal" in m.button_labels),
                None,
            )
        )
    else:
        raise AssertionError("no showdown in eight hands")

    names = live.meta.names
    won = {share.player_id for pot in result.pots for share in pot.shares}
    order = render.showdown_order(result)
    # Winners first, each group in showdown order.
    assert [s.player_id in won for s in order] == sorted(
        (s.player_id in won for s in result.shown), reverse=True
    )
    showdown = next(
        f["value"] for e in message.embeds for f in e.get("fields", []) if f["name"] == "Showdown"
    )
    lines = showdown.splitlines()
    assert len(lines) == len(order)
    for line, shown in zip(lines, order, strict=True):
        arranged = render.showdown_arrangement(shown, result)
        assert arranged is not None
        # The text writes the hand as it plays: groups, then kickers, highest first.
        assert names[shown.player_id] in line
        assert render.arranged_text(arranged, whole=True) in line
        assert line.startswith("🏆") == (shown.player_id in won)
        playing = [item.plays_as for item in arranged.playing]
        assert tuple(card.rank for card in playing if card is not None) == arranged.value.ranks
        if variant == "seven-card-draw":
            assert len(arranged.idle) == 2 and "not\u00a0playing" in line
    picture = Image.open(io.BytesIO(message.attachments[0].data))
    assert picture.height == MARGIN + len(order) * (ROW_TITLE + CARD_H + 2 * MARGIN)

    look = Look(f"{variant}: the result of hand #{result.hand_number}")
    look.add("DM (the first hand dealt)", first_dm)
    look.add("#poker", message)
    look.write(tmp_path, name=f"showdown/{variant}")


async def test_the_draw_menu_lists_the_cards_as_the_dm_shows_them(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    bot.presenter.ping_after = 0
    players = world.players[:2]
    lobby = await create_table(
        emu, world, players, variant="seven-card-draw", stake=2, ante=1, auto_deal=0
    )
    live = live_table(bot, world)
    await emu.click(players[0], lobby, label="Deal")
    await _hand_on_screen(emu, world, live)
    for _ in range(20):
        await emu.idle()
        decision = live.engine.pending[0]
        if decision.kind is engine.DecisionKind.DRAW:
            break
        await act_once(emu, world, bot, decision, policy=_opens_then_calls)
    else:
        raise AssertionError("no draw")
    user = next(p for p in players if str(p.id) == decision.player_id)
    private = live.engine.private_view(decision.player_id)
    arranged = render.private_arrangement(live.engine.hand, private)
    assert arranged is not None
    panel = await open_panel(emu, user, find_table_message(emu, world), "Draw / stand pat…")
    options = panel.selects[0]["options"]
    # The menu follows the DM (the pair first, the cards that do not play last) ...
    assert [o["label"] for o in options] == [item.card.display for item in arranged.cards]
    assert render.cards_text(item.card for item in arranged.cards) in panel.text
    # ... and a pick still names the card picked: the last one listed is thrown away.
    thrown = arranged.cards[-1].card
    panel = (
        await emu.select(user, panel, panel.selects[0]["custom_id"], [options[-1]["value"]])
    ).message
    r = await emu.click(user, panel, label="Discard 1")
    assert r.type == 7, r.content
    await emu.idle()
    assert thrown not in live.engine.private_view(decision.player_id).cards
