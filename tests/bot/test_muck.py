"""Show or muck at the showdown through the emulator (issue 15, point 3): a table created with
``muck:True`` offers the beaten player a private Show / Muck panel; the mucked hand is left out
of the result, the showdown picture, the other players' replay and the fairness proof."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

import engine
from cogs.ui.card_images import CARD_H, MARGIN, ROW_TITLE
from engine import events as ev
from tests.bot.driver import (
    act_once,
    create_table,
    find_table_message,
    live_table,
    open_panel,
    opener,
)
from tests.emulator import Emulator, World


def _user(world: World, player_id: str) -> Any:
    return next(u for u in world.users if str(u.id) == player_id)


async def test_a_beaten_player_mucks_and_nobody_else_sees_the_cards(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    alice, bob = world.players[:2]
    lobby = await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0, muck=True)
    settings = await emu.run_command(alice, world.channel, "poker settings", {})
    assert "A beaten hand may be mucked unseen" in str(settings.embeds), settings.embeds
    deal_on = lobby
    for _ in range(30):
        await emu.click(alice, deal_on, label="Deal")
        await emu.idle()
        live = live_table(bot, world)
        hand_id = int(live.meta.hand.hand_id)
        mucker: str | None = None
        for _ in range(60):
            await emu.idle()
            if not live.engine.in_hand:
                break
            decision = live.engine.pending[0]
            if decision.kind is engine.DecisionKind.SHOW:
                mucker = decision.player_id
                user = _user(world, mucker)
                message = find_table_message(emu, world)
                assert message is not None and "Show or muck…" in message.button_labels
                # Only the beaten player may answer: the other is refused and nothing changes.
                other = alice if user is bob else bob
                refused = await emu.click(other, message, label="Show or muck…")
                assert refused.ephemeral and "not your turn" in refused.content, refused.content
                await emu.idle()
                assert live.engine.pending[0].kind is engine.DecisionKind.SHOW
                panel = await open_panel(emu, user, message, "Show or muck…")
                assert panel.button_labels == ["Muck", "Show"], panel.button_labels
                cards = list(live.engine.private_view(mucker).cards)
                r = await emu.click(user, panel, label="Muck")
                assert r.type == 7, r.content
                break
            await act_once(emu, world, bot, decision, policy=opener)
        await emu.idle()
        if mucker is None:
            if live.engine.in_hand:
                raise AssertionError("the hand did not finish")
            deal_on = await emu.wait_for(
                lambda: next(
                    (m for m in emu.channel_messages(world.channel) if "Deal" in m.button_labels),
                    None,
                )
            )
            continue
        await emu.idle()
        result = live.engine.result
        assert result is not None and not live.engine.in_hand
        assert [s.player_id for s in result.shown] != [] and all(
            s.player_id != mucker for s in result.shown
        )
        assert any(isinstance(e, ev.Mucked) for e in live.engine.events)
        # The showdown picture has one row per shown hand: the mucked one is not drawn.
        title = f"hand\u00a0#{result.hand_number} result"
        showdown = await emu.wait_for(
            lambda t=title: next(
                (m for m in emu.channel_messages(world.channel) if t in m.text), None
            )
        )
        picture = Image.open(io.BytesIO(showdown.attachments[0].data))
        assert picture.height == MARGIN + len(result.shown) * (ROW_TITLE + CARD_H + 2 * MARGIN)
        for card in cards:
            assert card.display not in showdown.text, (card, showdown.text)
        # The winner's replay and fairness proof never name the mucked cards...
        winner = _user(world, result.shown[0].player_id)
        replay = await emu.run_command(winner, world.channel, "poker hand", {"hand": hand_id})
        text = "\n".join(f"{e.get('description', '')}" for e in replay.embeds)
        assert "mucks, unseen" in text, text
        for card in cards:
            assert card.display not in text, (card, text)
        # ...while the player who mucked still sees their own hand in theirs.
        own = await emu.run_command(
            _user(world, mucker), world.channel, "poker hand", {"hand": hand_id}
        )
        own_text = "\n".join(f"{e.get('description', '')}" for e in own.embeds)
        assert "nobody else saw them" in own_text, own_text
        emu.assert_clean()
        return
    raise AssertionError("no showdown offered a muck in 30 hands")
