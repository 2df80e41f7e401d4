"""The custom-id codecs: every kind round-trips, and a malformed id of every kind is refused,
by its codec and then by the bot (an ephemeral "no longer valid", nothing changed)."""

from __future__ import annotations

import doctest

import pytest

from cogs import kit, validation
from cogs.ui import custom_ids, house_rules
from cogs.ui.custom_ids import (
    AmountModalId,
    CustomIdError,
    GameChoice,
    LobbyButton,
    PageId,
    PanelButton,
    PanelSelect,
    PokerId,
    ReplayButton,
    RulesSelect,
    SeatPanelButton,
    TableButton,
    TournamentButton,
    Version,
    parse_custom_id,
)
from tables import service as table_service
from tests.bot.driver import create_table, deal, forged_press, live_table, table_message
from tests.emulator import Emulator, World

V = Version(3, 12)

GOOD: list[tuple[PokerId, str]] = [
    (LobbyButton(7, "sit"), "pk:l:7:sit"),
    (LobbyButton(7, "hand"), "pk:l:7:hand"),
    (TableButton(7, V, "fold"), "pk:t:7:3.12:fold"),
    (TableButton(7, V, "to", 40), "pk:t:7:3.12:to40"),
    (TableButton(7, V, "private"), "pk:t:7:3.12:private"),
    (PanelButton(7, 3, "draw"), "pk:p:7:3.0:draw:"),
    (PanelButton(7, 3, "draw", picks=(0, 4)), "pk:p:7:3.0:draw:0.4"),
    (PanelButton(7, 3, "arrange", picks=(4, 0, 2)), "pk:p:7:3.0:arrange:4.0.2"),
    (PanelButton(7, 3, "declare", word="both"), "pk:p:7:3.0:declare:both"),
    (PanelButton(7, 3, "keep", word="up"), "pk:p:7:3.0:keep:up"),
    (
        PanelButton(7, 3, "choose", choice=GameChoice("razz", ("wild:2", "bug"))),
        "pk:p:7:3.0:choose:razz~wild=2,bug",
    ),
    (PanelButton(7, 3, "choose", choice=GameChoice("razz")), "pk:p:7:3.0:choose:razz~"),
    (SeatPanelButton(7, 3, "checkfold"), "pk:s:7:3:checkfold"),
    (SeatPanelButton(7, 3, "sitout"), "pk:s:7:3:sitout"),
    (PanelSelect(7, 3, "draw"), "pks:7:3.0:draw:"),
    (PanelSelect(7, 3, "arrange", picks=(1,)), "pks:7:3.0:arrange:1"),
    (PanelSelect(7, 3, "cw", choice=GameChoice("razz", ("wild:13",))), "pks:7:3.0:cw:razz~wild=13"),
    (RulesSelect(7, "flags"), "pks:r:7:flags"),
    (RulesSelect(7, "draw"), "pks:r:7:draw"),
    (AmountModalId(7, V), "pkm:7:3.12"),
    (PageId("leaderboard", 0, "1", 20, "n"), "pg:leaderboard:0:1:20:n"),
    (TournamentButton("register"), "trn:register"),
    (TournamentButton("start", 7), "trn:start:7"),
    (ReplayButton(12), "pk:r:12"),
]

MALFORMED = [
    # replay buttons
    "pk:r:",
    "pk:r:012",
    "pk:r:12:7",
    "pk:r:9223372036854775808",  # past the largest id the database can hold
    # house rules selects
    "pks:r:7:colour",
    "pks:r:7:flags:x",
    "pks:r:07:flags",
    "pks:r::flags",
    # lobby buttons
    "pk:l:7:dance",
    "pk:l:x:sit",
    "pk:l:07:sit",
    "pk:l:7:sit:extra",
    "pk:l::sit",
    "pk:l:-7:sit",
    "pk:l:٧:sit",  # a digit, but not an ASCII one
    # table buttons
    "pk:t:7:3.12",
    "pk:t:7:3:fold",
    "pk:t:7:3.12.1:fold",
    "pk:t:7:3.x:fold",
    "pk:t:7:3.12:to",
    "pk:t:7:3.12:to0",
    "pk:t:7:3.12:to-5",
    "pk:t:7:3.12:to1e3",
    "pk:t:7:3.12:raise",
    "pk:t:7:03.12:fold",
    # private-choice buttons
    "pk:p:7:3.0:draw:0.0",
    "pk:p:7:3.0:draw:0..1",
    "pk:p:7:3.0:draw:a",
    "pk:p:7:3.0:draw:123",
    "pk:p:7:3.0:declare:sideways",
    "pk:p:7:3.0:declare:",
    "pk:p:7:3.0:keep:left",
    "pk:p:7:3.0:choose:",
    "pk:p:7:3.0:choose:razz",
    "pk:p:7:3.0:choose:razz~WILD",
    "pk:p:7:3.0:choose:razz~a,,b",
    "pk:p:7:3.0:fold:",
    "pk:p:7:draw:0",
    "pk:p:7:3:draw:0",  # no round: a panel made before panels named their round
    # a player's own panel (pre-actions, sit out / back)
    "pk:s:7:3:fold",
    "pk:s:7:3:callany:",
    "pk:s:7:03:back",
    "pk:s:7:back",
    "pk:s:7:3:CHECKFOLD",
    # private-panel selects
    "pks:7:3.0:draw:1",
    "pks:7:3.0:pass:0.1",
    "pks:7:3.0:arrange:1.1",
    "pks:7:3.0:cg:razz",
    "pks:7:3.0:zz:",
    "pks:7:3",
    # amount modals
    "pkm:7",
    "pkm:7:3",
    "pkm:7:3.12:9",
    "pkm:x:3.12",
    # unknown poker kinds and oversized ids
    "pk:x:7",
    "pk:",
    "pks:",
    "pk:l:7:" + "sit" * 40,
    # list pages and tournament lobbies
    "pg:Leaderboard:0:1:0:n",
    "pg:leaderboard:0:1:0:x",
    "pg:leaderboard:0:a:b:0:n",
    "pg:leaderboard:-1:1:0:n",
    "pg:leaderboard:0:1:0123456789:n",
    "trn:dance",
    "trn:dance:7",
    "trn:register:0",
    "trn:register:07",
    "trn:register:",
    "trn:register:9223372036854775808",
    "trn:register:7:8",
]


@pytest.mark.parametrize(("value", "text"), GOOD)
def test_every_kind_round_trips(value: PokerId, text: str) -> None:
    assert value.encode() == text
    assert parse_custom_id(text) == value
    assert type(value).parse(text) == value


@pytest.mark.parametrize("text", MALFORMED)
def test_a_malformed_id_of_every_kind_is_refused_with_a_reason(text: str) -> None:
    with pytest.raises(CustomIdError) as refused:
        parse_custom_id(text)
    assert str(refused.value), "the refusal says why"


def test_ids_of_other_components_are_not_ours() -> None:
    assert parse_custom_id("profile:0:1") is None
    assert parse_custom_id("") is None
    with pytest.raises(CustomIdError):
        TableButton(7, V, "to")  # an amount goes with "to"


async def test_the_bot_refuses_malformed_ids_and_changes_nothing(
    poker_bot, emu: Emulator, world: World
) -> None:
    bot = await poker_bot()
    alice, bob = world.players[:2]
    await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    await deal(emu, world, alice)
    live = live_table(bot, world)
    message = table_message(emu, world)
    actor = next(p for p in (alice, bob) if str(p.id) == live.engine.pending[0].player_id)
    version = live.version()
    state = live.state_json()
    forged = [
        *MALFORMED,
        f"pk:p:{live.id}:{live.engine.hand_number}.{live.street()}:draw:7",
    ]  # no draw now
    for custom_id in forged:
        r = await forged_press(emu, actor, message, custom_id)
        assert r.ephemeral and "no longer valid" in r.content, (custom_id, r.content)
    # Well formed, but the amount is the engine's to judge: it says why not.
    r = await forged_press(emu, actor, message, f"pk:t:{live.id}:{version}:to99999999")
    assert r.ephemeral and "not 99,999,999" in r.content, r.content  # numbers the reader's way
    for custom_id in MALFORMED[:3]:
        r = await forged_press(emu, actor, message, custom_id, values=["0"])
        assert r.ephemeral and "no longer valid" in r.content, (custom_id, r.content)
    r = await forged_press(emu, actor, message, f"pkm:{live.id}:{version}:x", modal_value="5")
    assert r.ephemeral and "no longer valid" in r.content, r.content
    # A modal id pressed as a button, and a button id submitted as a modal.
    r = await forged_press(emu, actor, message, f"pkm:{live.id}:{version}")
    assert r.ephemeral and "no longer valid" in r.content, r.content
    r = await forged_press(emu, actor, message, f"pk:l:{live.id}:sit", modal_value="5")
    assert r.ephemeral and "no longer valid" in r.content, r.content
    assert live.version() == version and live.state_json() == state
    emu.assert_clean()


@pytest.mark.parametrize("module", [custom_ids, kit, table_service, validation, house_rules])
def test_the_examples_in_the_docstrings_hold(module: object) -> None:
    failures, tried = doctest.testmod(module, raise_on_error=False)  # type: ignore[arg-type]
    assert tried and not failures


async def test_a_tables_ids_from_outside_its_channel_are_refused(
    poker_bot, emu: Emulator, world: World
) -> None:
    """The bot puts a table's components only in its channel: a Sit down form submitted from
    a DM seated a stranger to the server (with a bankroll there), one from another channel of
    the server seated a member at a table they may not see, and a table button pressed in
    another server or channel acted. All are refused, and nothing changes."""
    from cogs.ui.custom_ids import SitModalId

    bot = await poker_bot()
    alice, bob = world.players[:2]
    await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    live = live_table(bot, world)
    stranger = emu.add_user("stranger")
    other = emu.add_guild("Elsewhere", owner=stranger)
    elsewhere = emu.add_text_channel(other, "cards")
    emu.add_member(other, alice)
    row = {"type": 1, "components": [{"type": 4, "custom_id": "buy_in", "value": "40"}]}
    carol = world.players[2]
    lounge = emu.add_text_channel(world.guild, "lounge")
    for user, channel in (
        (stranger, emu.dm_channel(stranger)),
        (stranger, elsewhere),
        (carol, lounge),
    ):
        data = {"custom_id": SitModalId(live.id).encode(), "components": [row]}
        rec = emu.build_interaction(5, user, channel, data)
        emu.dispatch("INTERACTION_CREATE", rec.payload)
        r = await emu.await_response(rec)
        assert r.ephemeral and "no longer valid" in (r.content or ""), r.content
    for user in (stranger, carol):
        assert not live.seated(user.id)
        assert await bot.db.chips_on_tables(world.guild.id, user.id) == (0, 0)
    # A seated player's own button, pressed from another server's channel.
    await deal(emu, world, alice)
    actor = next(p for p in (alice, bob) if str(p.id) == live.engine.pending[0].player_id)
    if actor is not alice:
        emu.add_member(other, actor)
    state, version = live.state_json(), live.version()
    data = {"custom_id": f"pk:t:{live.id}:{version}:fold", "component_type": 2}
    for channel in (elsewhere, lounge):
        rec = emu.build_interaction(3, actor, channel, data)
        emu.dispatch("INTERACTION_CREATE", rec.payload)
        r = await emu.await_response(rec)
        assert r.ephemeral and "no longer valid" in (r.content or ""), r.content
    assert live.state_json() == state and live.version() == version
    emu.assert_clean()


async def test_a_press_off_the_table_message_is_answered(
    poker_bot, emu: Emulator, world: World
) -> None:
    """A table's button (or its amount form) used from another message acted, and the
    table message was edited on its own, but the press itself was never answered ("This
    interaction failed" for a move that was made). It is answered, saying where the table
    is."""
    bot = await poker_bot()
    alice, bob = world.players[:2]
    await create_table(emu, world, [alice, bob], stake=2, auto_deal=0, betting="no-limit")
    await deal(emu, world, alice)
    live = live_table(bot, world)
    for verb in ("bet", "call"):
        actor = next(p for p in (alice, bob) if str(p.id) == live.engine.pending[0].player_id)
        other = await emu.run_command(actor, world.channel, "balance", {})
        version = live.version()
        if verb == "bet":
            r = await forged_press(
                emu, actor, other.message, f"pkm:{live.id}:{version}", modal_value="4"
            )
        else:
            r = await forged_press(emu, actor, other.message, f"pk:t:{live.id}:{version}:call")
        # Answered with where the table is.
        assert r.ephemeral and r.content == "The table is below.", (verb, r.type, r.content)
        await emu.idle()
        assert live.version() != version and live.engine.in_hand
        shown = [c.get("custom_id", "") for c in table_message(emu, world).all_components()]
        assert any(f":{live.version()}:" in custom_id for custom_id in shown), shown
    emu.assert_clean()
