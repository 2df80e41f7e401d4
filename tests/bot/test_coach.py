"""The coach: /poker odds and /odds (in a DM too), and the odds in a coached table's draw
panel."""

from __future__ import annotations

import asyncio
from typing import Any

import engine
from engine.house import draw_advice
from tests.bot.driver import create_table, deal, live_table, open_panel, table_message
from tests.emulator import Emulator, World


async def _answer(emu: Emulator, r: Any) -> str:
    """The text of a deferred answer (the first followup fills the deferred message)."""
    assert r.type in (4, 5), r.type
    await emu.wait_for(
        lambda: r.followups or (r.message is not None and r.message.text.strip()), timeout=10
    )
    messages = [*r.followups, *([r.message] if r.message is not None else [])]
    return "\n".join(m.text for m in messages)


async def test_poker_odds_in_a_server(poker_bot, emu: Emulator, world: World) -> None:
    await poker_bot()
    alice = world.players[0]
    r = await emu.run_command(alice, world.channel, "poker odds", {"cards": "Ah Kh Qh Jh 2c"})
    text = await _answer(emu, r)
    assert r.ephemeral or all(m.ephemeral for m in r.followups)
    # four to a royal: throwing the deuce comes first; 45 of 47 draws improve the hand, but
    # 21 of those only to a better ace-high: 24 make a pair or better
    assert "Throw 2♣" in text or "Throw 2c" in text, text
    assert "recommended" in text, text
    assert "makes a better hand class 51% · any improvement 96%" in text, text
    assert "Straight flush 2%" in text and "Flush 17%" in text, text


async def test_odds_for_one_discard_in_lowball_and_refusals(
    poker_bot, emu: Emulator, world: World
) -> None:
    await poker_bot()
    alice = world.players[0]
    r = await emu.run_command(
        alice,
        world.channel,
        "poker odds",
        {"cards": "7s 5d 4c 2h Kd", "game": "kansas-city-lowball", "discard": "Kd"},
    )
    text = await _answer(emu, r)
    # 12 of 47 one-card draws make an eight or better, 8 of them a seven (engine.odds docs)
    assert "8-low or better 26%" in text and "7-low or better 17%" in text, text
    assert "recommended" not in text
    r = await emu.run_command(alice, world.channel, "poker odds", {"cards": "Ah Kh Qh"})
    assert r.ephemeral and "five cards" in r.content
    r = await emu.run_command(alice, world.channel, "poker odds", {"cards": "Ah Kh Qh Jh Zz"})
    assert r.ephemeral and "Write cards like" in r.content
    r = await emu.run_command(
        alice, world.channel, "poker odds", {"cards": "Ah Kh Qh Jh Tc", "discard": "2c"}
    )
    assert r.ephemeral and "cards of the hand" in r.content
    r = await emu.run_command(
        alice, world.channel, "poker odds", {"cards": "Ah Kh Qh Jh Tc", "game": "seven-card-draw"}
    )
    assert r.ephemeral and "Give seven cards, not 5" in r.content
    r = await emu.run_command(
        alice,
        world.channel,
        "poker odds",
        {"cards": "Ah Kh Qh Jh 2c 7d 8s", "game": "seven-card-draw", "discard": "2c 7d 8s"},
    )
    text = await _answer(emu, r)
    # 14,190 sets of three from 45 unseen cards: few enough to count, so no estimate
    assert "Throw 2♣ 7♦ 8♠" in text and "estimate" not in text, text
    r = await emu.run_command(
        alice, world.channel, "poker odds", {"cards": "9h 9d 4c 2s 3d", "game": "spit-in-the-ocean"}
    )
    assert "no odds" in await _answer(emu, r)


async def test_odds_in_wild_widow_need_the_widow(poker_bot, emu: Emulator, world: World) -> None:
    """Wild widow's wild rank is the face-up widow's: without it the odds would be counted
    with no wild card, so /poker odds asks for it, and counts the other cards of its rank wild."""
    await poker_bot()
    alice = world.players[0]
    hand = {"cards": "7c 7d Ah Kd 2s", "game": "wild-widow"}
    r = await emu.run_command(alice, world.channel, "poker odds", hand)
    assert "Name the widow card" in await _answer(emu, r)
    r = await emu.run_command(alice, world.channel, "poker odds", {**hand, "widow": "7h"})
    text = await _answer(emu, r)
    # two sevens wild with an ace: three aces at least whatever the one card drawn brings
    assert "Throw 2♠" in text and "Four of a kind 15%" in text and "Pair" not in text, text
    r = await emu.run_command(alice, world.channel, "poker odds", {**hand, "widow": "Ah"})
    assert "Ah is the widow card" in await _answer(emu, r)
    r = await emu.run_command(alice, world.channel, "poker odds", {**hand, "widow": "7h 8h"})
    assert r.ephemeral and "Give one widow card" in r.content, r.content
    r = await emu.run_command(
        alice, world.channel, "poker odds", {"cards": "7c 7d Ah Kd 2s", "widow": "7h"}
    )
    assert "no widow card" in await _answer(emu, r)


async def test_odds_in_a_dm(poker_bot, emu: Emulator, world: World) -> None:
    await poker_bot()
    alice = world.players[0]
    dm = emu.dm_channel(alice)
    r = await emu.run_command(alice, dm, "odds", {"cards": "As Ad 7c 4h 2s"})
    text = await _answer(emu, r)
    assert "Throw 7♣ 4♥ 2♠" in text or "Throw 7c 4h 2s" in text, text
    # a pair of aces drawing three: a better kicker is no better hand class
    assert "makes a better hand class 29% · any improvement 97%" in text, text


async def test_coach_in_the_draw_panel(poker_bot, emu: Emulator, world: World) -> None:
    bot = await poker_bot()
    alice, bob = world.players[:2]
    await create_table(emu, world, [alice, bob], coach=True)
    live = live_table(bot, world)
    assert live.settings.coach
    await deal(emu, world, alice)
    for _ in range(10):
        await emu.idle()
        decision = live.engine.pending[0]
        if decision.kind is engine.DecisionKind.DRAW:
            break
        user = alice if decision.player_id == str(alice.id) else bob
        message = table_message(emu, world)
        labels = [lb for lb in message.button_labels if lb]
        # a bet and a call: a deal where everyone checks would be passed out before the draw
        label = next(
            lb for want in ("Call", "Bet", "Check") for lb in labels if lb.startswith(want)
        )
        await emu.click(user, message, label=label)
        await emu.idle()
    decision = live.engine.pending[0]
    assert decision.kind is engine.DecisionKind.DRAW
    user = alice if decision.player_id == str(alice.id) else bob
    panel = await open_panel(emu, user, table_message(emu, world), "Draw / stand pat…")
    fields = panel.embeds[0].get("fields") or []
    coach = next(f for f in fields if f["name"].startswith("Coach"))
    assert "recommended" in coach["value"] and "better hand class" in coach["value"]
    # the recommendation is the engine's advice for that hand: the odds engine's legal draws
    # ranked by their chance against a typical player's final hand (not always the one of
    # the best expected hand: a pair kept alone beats a pair and a kicker there)
    private = live.engine.private_view(decision.seat)
    advice = draw_advice(private, live.engine.public_view(), live.engine.current_rules)
    top = advice[0][0]
    name = "Stand pat" if not top else "Throw " + " ".join(c.display for c in top)
    assert coach["value"].startswith(f"**{name}**"), coach["value"]
    # without the option, no coach
    r = await emu.run_command(alice, world.channel, "poker settings", {"coach": False})
    assert "coach" not in r.content
    assert not live.settings.coach


async def _to_the_draw(emu: Emulator, world: World, live: Any, players: list[Any]) -> Any:
    """Call or check on the table message until a draw is pending; the player it waits for."""
    by_id = {str(p.id): p for p in players}
    for _ in range(10):
        await emu.idle()
        decision = live.engine.pending[0]
        if decision.kind is engine.DecisionKind.DRAW:
            break
        message = table_message(emu, world)
        labels = [lb for lb in message.button_labels if lb]
        label = next(
            lb for want in ("Call", "Bet", "Check") for lb in labels if lb.startswith(want)
        )
        await emu.click(by_id[decision.player_id], message, label=label)
        await emu.idle()
    decision = live.engine.pending[0]
    assert decision.kind is engine.DecisionKind.DRAW
    return by_id[decision.player_id]


async def test_coach_in_the_draw_panel_speaks_the_players_language(
    poker_bot, emu: Emulator, world: World
) -> None:
    """The coach's odds are counted in the odds thread: they are written in the language of
    the player who opened the panel, like the rest of it, not in the thread's English."""
    bot = await poker_bot()
    alice, bob = world.players[:2]
    await create_table(emu, world, [alice, bob], coach=True)
    live = live_table(bot, world)
    await deal(emu, world, alice)
    user = await _to_the_draw(emu, world, live, [alice, bob])
    user.locale = "de"  # the server reads English; this player's client reads German
    panel = await open_panel(emu, user, table_message(emu, world), "Draw / stand pat…")
    fields = panel.embeds[0].get("fields") or []
    coach = next(f for f in fields if f["name"] == "Coach: deine besten Tausche")
    assert "empfohlen" in coach["value"] and "bessere Handklasse" in coach["value"], coach
    assert "recommended" not in coach["value"] and "better hand class" not in coach["value"]


async def test_odds_refusals_speak_the_players_language(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Why cards were refused (not a card, a card twice, a card the game's deck lacks, too
    many to draw) reads in the asker's language, not in the engine's English."""
    await poker_bot()
    alice = world.players[0]
    alice.locale = "de"
    r = await emu.run_command(alice, world.channel, "poker odds", {"cards": "As As 2c 3c 4c"})
    assert r.ephemeral and "Die Karten:" in r.content, r.content
    assert "Karte 'As' kommt in 'As As 2c 3c 4c' zweimal vor" in r.content, r.content
    assert "appears twice" not in r.content
    r = await emu.run_command(alice, world.channel, "poker odds", {"cards": "As Kd 7h 7c Zz"})
    assert r.ephemeral and "keine Karte: 'Zz'" in r.content, r.content
    assert "not a card" not in r.content and "expected a rank" not in r.content, r.content
    r = await emu.run_command(
        alice, world.channel, "poker odds", {"cards": "As Kd 7h 7c 2c", "game": "32-card-poker"}
    )
    text = await _answer(emu, r)
    assert "2c ist nicht im Deck dieses Spiels" in text, text
    r = await emu.run_command(
        alice,
        world.channel,
        "poker odds",
        {"cards": "Ah Kh Qh Jh 2c 7d 8s", "game": "seven-card-draw", "discard": "Ah Kh Qh Jh"},
    )
    text = await _answer(emu, r)
    assert "höchstens 3 Karten" in text and "draw at most" not in text, text


async def test_a_coached_draw_select_is_answered_while_the_odds_thread_is_busy(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Picking cards in a coached draw panel recounts the coach's odds in the odds thread,
    which house players at every table share: a busy thread must not leave the pick without
    an answer within Discord's three seconds (the panel follows when the odds are ready)."""
    import threading

    from cogs.ui.custom_ids import PanelSelect, parse_custom_id
    from tables.worker import in_worker

    bot = await poker_bot()
    alice, bob = world.players[:2]
    await create_table(emu, world, [alice, bob], coach=True)
    live = live_table(bot, world)
    await deal(emu, world, alice)
    user = await _to_the_draw(emu, world, live, [alice, bob])
    panel = await open_panel(emu, user, table_message(emu, world), "Draw / stand pat…")
    select = next(
        s for s in panel.selects if isinstance(parse_custom_id(s["custom_id"]), PanelSelect)
    )
    release = threading.Event()
    busy = asyncio.ensure_future(in_worker(release.wait, 10))  # other tables' house players
    try:
        r = await emu.select(user, panel, select["custom_id"], ["0"])
        assert r.type in (6, 7), r.type
    finally:
        release.set()
        await busy
    assert "Chosen: —" in panel.text  # nothing picked yet
    panel = await emu.wait_for(
        lambda: (
            r.message
            if "Chosen: " in r.message.text and "Chosen: —" not in r.message.text
            else None
        )
    )
    coach = next(f for f in panel.embeds[0]["fields"] if f["name"].startswith("Coach"))
    assert "recommended" in coach["value"], coach
