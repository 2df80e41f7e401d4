"""Playing through the emulator by custom id, so that a test plays in any language (labels are
translated): find a component by its parsed id, sit and deal, make a private choice in its
panel, play a hand to its end. A :class:`tests.bot.look.Look` given to them keeps every
version of the table message and every panel opened, for a person to look at.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import engine
from cogs.ui.custom_ids import (
    LobbyButton,
    PanelButton,
    PanelSelect,
    TableButton,
    parse_custom_id,
)
from tests.bot.driver import live_table
from tests.bot.look import Look
from tests.emulator import Emulator, World
from tests.i18n.escaped import limit_problems, payload_texts

# Keys of a REST body that are not text a player reads (file names are ours, not words).
NOT_READ = frozenset({"filename", "nonce", "allowed_mentions", "message_reference"})


def parsed_id(component: dict[str, Any]) -> Any:
    try:
        return parse_custom_id(component.get("custom_id", ""))
    except Exception:  # a button of another kind (a link): not ours to press
        return None


def find(message: Any, codec: type, **wanted: Any) -> dict[str, Any] | None:
    for component in message.all_components():
        parsed = parsed_id(component)
        if isinstance(parsed, codec) and all(getattr(parsed, k) == v for k, v in wanted.items()):
            return component
    return None


def table_message(emu: Emulator, world: World) -> Any:
    for message in reversed(emu.channel_messages(world.channel)):
        if find(message, TableButton) is not None:
            return message
    raise AssertionError("no table message with action buttons")


async def sit_and_deal(emu: Emulator, world: World, players: list[Any], game: str) -> Any:
    created = await emu.run_command(players[0], world.channel, "poker create", {"variant": game})
    assert created.type == 4 and not created.ephemeral, created.content
    lobby = created.message
    for player in players:
        sit = find(lobby, LobbyButton, verb="sit")
        assert sit is not None, lobby.button_labels
        r = await emu.click(player, lobby, custom_id=sit["custom_id"])
        if r.type == 9:  # the buy-in form, prefilled
            r = await emu.submit_modal(player, r, {})
        assert r.type == 7, r.content
    rules = find(lobby, LobbyButton, verb="rules")
    assert rules is not None
    r = await emu.click(players[1], lobby, custom_id=rules["custom_id"])
    assert r.ephemeral and r.embeds, r.content
    deal = find(lobby, LobbyButton, verb="deal")
    assert deal is not None
    assert (await emu.click(players[0], lobby, custom_id=deal["custom_id"])).type == 7
    await emu.idle()
    return lobby


async def private_choice(
    emu: Emulator, user: Any, table: Any, decision: Any, look: Look | None = None
) -> None:
    opener = find(table, TableButton, verb="private")
    assert opener is not None, table.button_labels
    opened = await emu.click(user, table, custom_id=opener["custom_id"])
    assert opened.type == 6, opened.content
    panel = (await emu.wait_for(lambda: opened.followups, timeout=5))[-1]
    if look is not None:
        look.add("#poker · only you", panel, ephemeral=True)
    kind = decision.kind
    if kind is engine.DecisionKind.DRAW:
        # Throw one card away when allowed (the select, then its button), else stand pat.
        legal = decision.legal
        if 1 in legal.counts:
            select = find(panel, PanelSelect)
            assert select is not None
            panel = (await emu.select(user, panel, select["custom_id"], ["0"])).message
            button = next(
                c
                for c in panel.all_components()
                if isinstance(parsed_id(c), PanelButton) and parsed_id(c).picks
            )
        else:
            button = find(panel, PanelButton, kind="draw")
    elif kind is engine.DecisionKind.PASS:
        # Pass the first cards the rules ask for: the select, then its button.
        select = find(panel, PanelSelect)
        assert select is not None
        values = [str(i) for i in range(decision.legal.count)]
        panel = (await emu.select(user, panel, select["custom_id"], values)).message
        button = find(panel, PanelButton, kind="pass")
    elif kind is engine.DecisionKind.ARRANGE:
        # Keep the cards in the order the select offers them, one pick at a time.
        for _ in range(decision.legal.size):
            select = find(panel, PanelSelect)
            assert select is not None
            first = select["options"][0]["value"]
            panel = (await emu.select(user, panel, select["custom_id"], [first])).message
        button = find(panel, PanelButton, kind="arrange")
    elif kind is engine.DecisionKind.DECLARE:
        button = find(panel, PanelButton, kind="declare")
    elif kind is engine.DecisionKind.SHOW:
        button = find(panel, PanelButton, kind="show")
    else:
        raise AssertionError(f"a decision this test does not make: {kind}")
    assert button is not None, panel.button_labels
    r = await emu.click(user, panel, custom_id=button["custom_id"])
    assert r.type == 7, (kind, r.content)


async def play(
    emu: Emulator, world: World, bot: Any, players: list[Any], look: Look | None = None
) -> None:
    """Act for whoever must until the hand ends: the first bettor bets (so that the hand is
    not passed out), the others check or call (or open, where the only other choice
    is to fold); one player presses out of turn once."""
    users = {str(user.id): user for user in players}
    live = live_table(bot, world)
    bet = refused = False
    for _turn in range(80):
        await emu.idle()
        if not live.engine.in_hand:
            return
        decision = live.engine.pending[0]
        actor = users[decision.player_id]
        table = table_message(emu, world)
        if look is not None:
            look.add("#poker", table)
        if not refused:
            other = next(u for pid, u in users.items() if pid != decision.player_id)
            wrong = find(table, TableButton, verb="fold") or find(table, TableButton)
            assert wrong is not None
            r = await emu.click(other, table, custom_id=wrong["custom_id"])
            assert r.ephemeral and r.content, r.content
            refused = True
        if decision.kind is not engine.DecisionKind.BET:
            await private_choice(emu, actor, table, decision, look)
            continue
        button = None if bet else find(table, TableButton, verb="to")
        button = button or find(table, TableButton, verb="check")
        button = button or find(table, TableButton, verb="call")
        # Where a player may only open or fold (Q-Ball), open: the hand goes on to its draw.
        button = button or find(table, TableButton, verb="to")
        assert button is not None, table.button_labels
        bet = True
        r = await emu.click(actor, table, custom_id=button["custom_id"])
        if r.type == 9:  # an amount form: the smallest bet it allows
            r = await emu.submit_modal(actor, r, {"amount": str(decision.legal.min_to)})
        assert r.type == 7, r.content
    raise AssertionError("the hand did not finish")


def readable(body: Any) -> Any:
    if isinstance(body, dict):
        return {k: readable(v) for k, v in body.items() if k not in NOT_READ}
    if isinstance(body, list):
        return [readable(v) for v in body]
    return body


def sent_bodies(emu: Emulator) -> Iterator[tuple[str, Any]]:
    """Every text-bearing body the bot sent (messages, edits, DMs, interaction answers,
    forms), by route, without the keys no player reads."""
    for call in emu.calls:
        body = call.body
        if call.method not in ("POST", "PATCH") or not isinstance(body, dict):
            continue
        yield (
            call.route,
            readable(body.get("data", body) if call.kind == "interaction_callback" else body),
        )


@dataclass
class Scan:
    """What :func:`scan_sent` found in everything the bot sent."""

    sent: int = 0
    too_long: list[str] = field(default_factory=list)
    found: list[str] = field(default_factory=list)


def scan_sent(emu: Emulator, find: Callable[[str], list[str]]) -> Scan:
    """Every body the bot sent (:func:`sent_bodies`): how many, what is over Discord's limits,
    and what ``find`` reports in each text a player reads (each with its route and text)."""
    scan = Scan()
    for route, body in sent_bodies(emu):
        scan.sent += 1
        scan.too_long += limit_problems(body)
        for text in payload_texts(body):
            scan.found += [f"{route}: {item} in {text[:100]!r}" for item in find(text)]
    return scan
