"""The inputs of issue 16 (a hostile user's findings), each refused at the door with a reason.

The property test (``test_fuzz.py``) covers any input; these pin the cases that were found,
with the wording the user gets.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.bot.driver import create_table, deal, forged_press, live_table, table_message
from tests.emulator import Emulator, World

BAD_CREATE: list[tuple[dict[str, Any], str]] = [
    ({"blinds": "2/1"}, "can't be larger than the big blind"),
    ({"blinds": "0/0"}, "Each blind must be from 1"),
    ({"blinds": "1/99999999999999999999999"}, "Blinds look like"),
    ({"blinds": "²/³"}, "Blinds look like"),
    ({"blinds": "1/2/1"}, "at least the big blind"),
    ({"stake": 0}, "The stake must be a whole number from 1"),
    ({"stake": 10**12}, "The stake must be a whole number from 1"),
    ({"timer": -5}, "The action timer must be"),
    ({"timer": 0}, "The action timer must be"),
    ({"auto_deal": -1}, "The pause between hands must be"),
    ({"min_buy_in": -100}, "The smallest buy-in must be"),
    ({"min_buy_in": 500, "max_buy_in": 100}, "can't be larger than the largest"),
    ({"betting": "limitless"}, "Betting is one of"),
    ({"seats": 1}, "The number of seats must be"),
    ({"seats": "6"}, "The number of seats must be"),
    ({"ante": 2.5}, "The ante must be"),
    ({"ante": 0}, "needs an ante of at least 1"),
    ({"dealers_choice": "yes"}, "The dealers_choice option is either true or false"),
    ({"variant": "five card draw; DROP TABLE"}, "I don't know the game"),
]


@pytest.mark.parametrize(("options", "reason"), BAD_CREATE)
async def test_a_forged_create_option_is_refused_with_its_reason(
    poker_bot, emu: Emulator, world: World, options: dict[str, Any], reason: str
) -> None:
    bot = await poker_bot()
    r = await emu.run_forged_command(world.host, world.channel, "poker create", options)
    assert r.ephemeral and reason in (r.content or ""), r.content
    assert live_table(bot, world) is None, "no table was opened"
    assert not await bot.db.open_tables()
    emu.assert_clean()


async def test_settings_and_server_defaults_share_the_checks(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    alice, bob = world.players[:2]
    await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    live = live_table(bot, world)
    before = live.settings
    for options, reason in (
        ({"timer": 5}, "The action timer must be"),
        ({"auto_deal": 9999}, "The pause between hands must be"),
        ({"max_buy_in": "lots"}, "The largest buy-in must be"),
    ):
        r = await emu.run_forged_command(alice, world.channel, "poker settings", options)
        assert r.ephemeral and reason in (r.content or ""), r.content
    assert live.settings == before
    settings_before = await bot.db.get_settings(world.guild.id)
    for options, reason in (
        ({"starting_bankroll": -1}, "The starting bankroll must be"),
        ({"daily_amount": 10**15}, "The daily bonus must be"),
        ({"daily_cooldown_hours": 0}, "The daily cooldown (hours) must be"),
    ):
        r = await emu.run_forged_command(world.host, world.channel, "server settings", options)
        assert r.ephemeral and reason in (r.content or ""), r.content
    assert await bot.db.get_settings(world.guild.id) == settings_before
    emu.assert_clean()


async def test_typed_amounts_and_forged_components(poker_bot, emu: Emulator, world: World) -> None:
    bot = await poker_bot()
    alice, bob = world.players[:2]
    await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    await deal(emu, world, alice)
    live = live_table(bot, world)
    table = table_message(emu, world)
    actor = next(p for p in (alice, bob) if str(p.id) == live.engine.pending[0].player_id)
    state = live.state_json()
    modal = f"pkm:{live.id}:{live.version()}"

    # A superscript two passes str.isdigit(); it is not a number of chips. Nor is a number
    # grouped in threes after a zero ("0.500" reads as a half, not 500).
    for typed in ("²", "-5", "1.5", "1,50", "٣", "9" * 30, "", "0.500", "0,500", "01,000"):
        r = await forged_press(emu, actor, table, modal, modal_value=typed)
        assert r.ephemeral and "not a number of chips" in r.content, (typed, r.content)
    # Ids of no known shape, and tampered poker ids: an answer, never silence.
    for custom_id in ("hello", "x" * 100, "pk:l:1:dance", f"pkm:{live.id}", "pg:nothing"):
        r = await forged_press(emu, actor, table, custom_id)
        assert r.ephemeral and "no longer valid" in r.content, (custom_id, r.content)
    # A private panel's button pressed on the public table message leaves it alone.
    components = list(table.all_components())
    r = await forged_press(
        emu, actor, table, f"pk:p:{live.id}:{live.engine.hand_number}.{live.street()}:draw:"
    )
    assert r.ephemeral and "private panel" in r.content, r.content
    assert list(emu.messages[table.id].all_components()) == components
    # A select value outside the options offered.
    ephemeral = r.message
    select = f"pks:{live.id}:{live.engine.hand_number}.{live.street()}:draw:"
    for values in (["-1"], ["5"], ["0", "0"], ["x"]):
        r = await forged_press(emu, actor, ephemeral, select, values=values)
        assert r.ephemeral and "no longer valid" in r.content, (values, r.content)
    assert live.state_json() == state
    emu.assert_clean()


async def test_a_sit_down_form_with_a_seat_of_thousands_of_digits_is_refused(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Python reads no whole number of more than 4,300 digits: such a seat was an error
    ("Something went wrong", logged as a bug) instead of the seat's range."""
    bot = await poker_bot()
    alice, carol = world.players[0], world.players[2]
    lobby = await create_table(emu, world, [alice], auto_deal=0)
    live = live_table(bot, world)
    channel = emu.channels[lobby.channel_id]
    for seat in ("1" * 5000, "9" * 4301, "٣", "0", "99"):
        rows = [
            {"type": 1, "components": [{"type": 4, "custom_id": "buy_in", "value": "40"}]},
            {"type": 1, "components": [{"type": 4, "custom_id": "seat", "value": seat}]},
        ]
        data = {"custom_id": f"pkm:sit:{live.id}", "components": rows}
        rec = emu.build_interaction(5, carol, channel, data, message=lobby)
        emu.dispatch("INTERACTION_CREATE", rec.payload)
        r = await emu.await_response(rec)
        assert r.ephemeral and r.content.startswith("“"), r.content
        assert "is not a seat: the seat is a number from 1 to 6" in r.content, r.content
    assert not live.seated(carol.id)
    emu.assert_clean()


async def _sit_form(emu: Emulator, member: Any, lobby: Any, table: int, seat: str) -> Any:
    rows = [
        {"type": 1, "components": [{"type": 4, "custom_id": "buy_in", "value": "40"}]},
        {"type": 1, "components": [{"type": 4, "custom_id": "seat", "value": seat}]},
    ]
    data = {"custom_id": f"pkm:sit:{table}", "components": rows}
    rec = emu.build_interaction(5, member, emu.channels[lobby.channel_id], data, message=lobby)
    emu.dispatch("INTERACTION_CREATE", rec.payload)
    return await emu.await_response(rec)


async def test_a_seat_is_a_plain_number_and_anything_else_is_refused_naming_it(
    poker_bot, emu: Emulator, world: World
) -> None:
    """A seat written "02", "+2", "２" (full-width) or "2.0" was read as seat 2 or refused
    with no word of what was typed: only a plain number from 1 to the table's seats is a seat
    (spaces around it ignored, as for every typed number); anything else is refused quoting
    it, in the member's language, and nobody sits down."""
    bot = await poker_bot()
    alice, carol, dan = world.players[0], world.players[2], world.players[3]
    lobby = await create_table(emu, world, [alice], auto_deal=0)
    live = live_table(bot, world)
    for seat in ("02", "0002", "+2", "２", "2.0", "-2", "2 3", "0x2", "2\n"[:1] + "\t3"):
        r = await _sit_form(emu, carol, lobby, live.id, seat)
        shown = " ".join(seat.split())
        expected = f"“{shown}” is not a seat: the seat is a number from 1 to 6"
        assert r.ephemeral and r.content.startswith(expected), (seat, r.content)
        assert not live.seated(carol.id), seat
    carol.locale = "de"
    r = await _sit_form(emu, carol, lobby, live.id, "+2")
    assert r.ephemeral and "„+2“ ist kein Platz" in r.content, r.content
    assert not live.seated(carol.id)
    r = await _sit_form(emu, dan, lobby, live.id, " 3 ")
    assert r.type in (4, 7) and live.seated(dan.id), r.content
    assert live.engine.seats[2] is not None and live.engine.seats[2].player_id == str(dan.id)
    emu.assert_clean()


async def test_a_refusal_names_the_option_in_the_members_language(
    poker_bot, emu: Emulator, world: World
) -> None:
    """The option a refusal names reads in the member's language like the rest of the
    sentence (it read "Colours", "The setting", "The note", "Dealer's choice" in English)."""
    bot = await poker_bot()
    host = world.host
    host.locale = "de"  # the server reads English; this member's client reads German
    for command, options, expected in (
        ("poker deck", {"colours": "six"}, "Die Option colours ist eins von two, four."),
        ("poker notify", {"setting": "maybe"}, "Die Option setting ist eins von on, off."),
        ("poker create", {"dealers_choice": "yes"}, "Die Option dealers_choice ist entweder"),
    ):
        r = await emu.run_forged_command(host, world.channel, command, options)
        assert r.ephemeral and expected in (r.content or ""), r.content
    assert live_table(bot, world) is None, "no table was opened"
    alice = world.players[0]
    r = await emu.run_command(
        host,
        world.channel,
        "chips grant",
        {"member": alice, "amount": 100, "note": "why\x07"},
        raise_on_failure=False,
    )
    assert "Die Option note enthält Steuerzeichen." in (r.content or ""), r.content
    emu.assert_clean()
