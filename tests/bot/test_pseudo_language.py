"""Every word the bot sends, through the pseudo-language: a server and members in ``en-XA``.

``en-XA`` is made from the templates (every letter accented, text 40 % longer), so a plain
English word in anything the bot sent is a string that escaped the localisation layer, and a
payload over Discord's limits is a text too long for German or Polish. Three games are played
to the end through the emulator, pressing only by custom id (labels are pseudo here): a draw
game, a lowball game and a high-low declare game, with their private panels, the member's own
hand panel, the game's rules from the table, a refusal, ``/poker help`` and ``/poker rules``.
Everything the bot sent (channel messages and their edits, DMs, interaction answers, forms) is
read back from the emulator's record of REST calls.
"""

from __future__ import annotations

from typing import Any

import pytest

import engine
from cogs.ui.custom_ids import (
    LobbyButton,
    PanelButton,
    PanelSelect,
    TableButton,
    parse_custom_id,
)
from tests.bot.driver import live_table
from tests.emulator import Emulator, World
from tests.i18n.escaped import english_words, limit_problems, payload_texts

GAMES = ("five-card-draw", "california-lowball", "high-low-declare")

# Keys of a REST body that are not text a player reads (file names are ours, not words).
_NOT_READ = frozenset({"filename", "nonce", "allowed_mentions", "message_reference"})


def _parsed(component: dict[str, Any]) -> Any:
    try:
        return parse_custom_id(component.get("custom_id", ""))
    except Exception:  # a button of another kind (a link): not ours to press
        return None


def _find(message: Any, codec: type, **wanted: Any) -> dict[str, Any] | None:
    for component in message.all_components():
        parsed = _parsed(component)
        if isinstance(parsed, codec) and all(getattr(parsed, k) == v for k, v in wanted.items()):
            return component
    return None


def _table_message(emu: Emulator, world: World) -> Any:
    for message in reversed(emu.channel_messages(world.channel)):
        if _find(message, TableButton) is not None:
            return message
    raise AssertionError("no table message with action buttons")


async def _sit_and_deal(emu: Emulator, world: World, players: list[Any], game: str) -> Any:
    created = await emu.run_command(players[0], world.channel, "poker create", {"variant": game})
    assert created.type == 4 and not created.ephemeral, created.content
    lobby = created.message
    for player in players:
        sit = _find(lobby, LobbyButton, verb="sit")
        assert sit is not None, lobby.button_labels
        r = await emu.click(player, lobby, custom_id=sit["custom_id"])
        if r.type == 9:  # the buy-in form, prefilled
            r = await emu.submit_modal(player, r, {})
        assert r.type == 7, r.content
    rules = _find(lobby, LobbyButton, verb="rules")
    assert rules is not None
    r = await emu.click(players[1], lobby, custom_id=rules["custom_id"])
    assert r.ephemeral and r.embeds, r.content
    deal = _find(lobby, LobbyButton, verb="deal")
    assert deal is not None
    assert (await emu.click(players[0], lobby, custom_id=deal["custom_id"])).type == 7
    await emu.idle()
    return lobby


async def _private_choice(emu: Emulator, user: Any, table: Any, decision: Any) -> None:
    opener = _find(table, TableButton, verb="private")
    assert opener is not None, table.button_labels
    opened = await emu.click(user, table, custom_id=opener["custom_id"])
    assert opened.type == 6, opened.content
    panel = (await emu.wait_for(lambda: opened.followups, timeout=5))[-1]
    kind = decision.kind
    if kind is engine.DecisionKind.DRAW:
        # Throw one card away when allowed (the select, then its button), else stand pat.
        legal = decision.legal
        if 1 in legal.counts:
            select = _find(panel, PanelSelect)
            assert select is not None
            panel = (await emu.select(user, panel, select["custom_id"], ["0"])).message
            button = next(
                c
                for c in panel.all_components()
                if isinstance(_parsed(c), PanelButton) and _parsed(c).picks
            )
        else:
            button = _find(panel, PanelButton, kind="draw")
    elif kind is engine.DecisionKind.DECLARE:
        button = _find(panel, PanelButton, kind="declare")
    elif kind is engine.DecisionKind.SHOW:
        button = _find(panel, PanelButton, kind="show")
    else:
        raise AssertionError(f"a decision this test does not make: {kind}")
    assert button is not None, panel.button_labels
    r = await emu.click(user, panel, custom_id=button["custom_id"])
    assert r.type == 7, (kind, r.content)


async def _play(emu: Emulator, world: World, bot: Any, players: list[Any]) -> None:
    """Act for whoever must until the hand ends: the first bettor bets (so that the hand is
    not passed out), the others check or call; one player presses out of turn once."""
    users = {str(user.id): user for user in players}
    live = live_table(bot, world)
    bet = refused = False
    for _turn in range(80):
        await emu.idle()
        if not live.engine.in_hand:
            return
        decision = live.engine.pending[0]
        actor = users[decision.player_id]
        table = _table_message(emu, world)
        if not refused:
            other = next(u for pid, u in users.items() if pid != decision.player_id)
            wrong = _find(table, TableButton, verb="fold") or _find(table, TableButton)
            assert wrong is not None
            r = await emu.click(other, table, custom_id=wrong["custom_id"])
            assert r.ephemeral and r.content, r.content
            refused = True
        if decision.kind is not engine.DecisionKind.BET:
            await _private_choice(emu, actor, table, decision)
            continue
        button = None if bet else _find(table, TableButton, verb="to")
        button = button or _find(table, TableButton, verb="check")
        button = button or _find(table, TableButton, verb="call")
        assert button is not None, table.button_labels
        bet = True
        r = await emu.click(actor, table, custom_id=button["custom_id"])
        if r.type == 9:  # an amount form: the smallest bet it allows
            r = await emu.submit_modal(actor, r, {"amount": str(decision.legal.min_to)})
        assert r.type == 7, r.content
    raise AssertionError("the hand did not finish")


def _readable(body: Any) -> Any:
    if isinstance(body, dict):
        return {k: _readable(v) for k, v in body.items() if k not in _NOT_READ}
    if isinstance(body, list):
        return [_readable(v) for v in body]
    return body


@pytest.mark.parametrize("game", GAMES)
async def test_a_whole_hand_in_the_pseudo_language(
    game: str, poker_bot: Any, emu: Emulator, world: World
) -> None:
    world.guild.locale = "en-XA"
    players = world.players[:3]
    for user in world.users:
        user.locale = "en-XA"
    bot = await poker_bot()
    lobby = await _sit_and_deal(emu, world, players, game)
    await emu.wait_for(lambda: all(emu.dms(p) for p in players))

    table = _table_message(emu, world)
    hand = _find(table, TableButton, verb="hand") or _find(lobby, LobbyButton, verb="hand")
    if hand is not None:
        r = await emu.click(players[0], table, custom_id=hand["custom_id"])
        assert r.type in (4, 6), r.content
    await _play(emu, world, bot, players)
    await emu.idle()

    for command in ("poker help", "poker rules", "balance"):
        r = await emu.run_command(players[1], world.channel, command, {})
        assert r.content or r.embeds, command
    r = await emu.run_command(players[2], world.channel, "poker join", {})
    assert r.ephemeral and r.content, r.content  # already seated: a refusal

    names = [n for u in world.users for n in (u.username, u.global_name) if n]
    names += [world.guild.name, world.channel.name]
    allowed = [*names, game, "#"]
    escaped: dict[str, list[str]] = {}
    too_long: list[str] = []
    sent = 0
    for call in emu.calls:
        body = call.body
        if call.method not in ("POST", "PATCH") or not isinstance(body, dict):
            continue
        body = _readable(body.get("data", body) if call.kind == "interaction_callback" else body)
        sent += 1
        too_long += limit_problems(body)
        for text in payload_texts(body):
            words = english_words(text, allowed)
            if words:
                escaped.setdefault(call.route, []).append(f"{words} in {text[:120]!r}")
    assert sent > 20, sent  # the hand really was played and shown
    report = [f"{route}: {found}" for route, texts in escaped.items() for found in texts]
    assert not escaped, "\n".join(report)
    assert not too_long, too_long


async def test_the_checker_catches_an_english_word_left_in_a_payload() -> None:
    """The scan above would see a text that escaped: an English word among pseudo ones."""
    body = {"embeds": [{"title": "[Ŧåƀļé ···]", "fields": [{"name": "Pot", "value": "5"}]}]}
    found = [english_words(t, ()) for t in payload_texts(body)]
    assert ["Pot"] in found
    assert not english_words("[Ŧåƀļé ···] <@12> `/poker join`", ())
