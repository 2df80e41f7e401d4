"""Property test: whatever a client sends, the bot answers in time, logs no error and changes
nothing it should not.

Hypothesis draws the cases (a command with forged option values, an amount-modal submission,
a private select's values, a custom id of any shape pressed as a button, a select or a modal,
a seat past the server's table limit, a burst of presses faster than anyone plays);
one bot then answers them all, so the run stays short. Shrinking is given up for that: a
failing case is reported as drawn. Each case must get an answer within Discord's 3 seconds,
ephemeral when it is a refusal, with no ERROR in the log and, read straight from the SQLite
file, no change in the database (nor in the table held in memory).

The values are drawn so that none of them could be accepted and legitimately change
something: commands that could succeed are sent where they cannot (``/poker create`` in a
channel that has a table, ``/poker settings`` by a player who may not change them), and ids
naming the live table are left out of the custom-id fuzz (they are the codec tests' job).
"""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from cogs import validation
from cogs.routing import SLOW_DOWN, PressLimiter, router_of
from cogs.ui.custom_ids import CustomIdError, parse_custom_id
from tests.bot.driver import (
    act_once,
    create_table,
    deal,
    live_table,
    open_panel,
    opener,
    passive,
    table_message,
)
from tests.emulator import Emulator, World

EXAMPLES = 3000
DEADLINE = 3.0

JSON_JUNK = st.one_of(
    st.text(max_size=40),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    st.booleans(),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)
"""Anything a forged request can carry as an option's value."""


def out_of(setting: validation.Setting) -> st.SearchStrategy[Any]:
    """A value ``setting`` must refuse: out of range, of another type, or a bool."""
    return st.one_of(
        st.integers(max_value=setting.low - 1),
        st.integers(min_value=setting.high + 1),
        st.integers(min_value=-(10**30), max_value=10**30).filter(
            lambda v: not setting.low <= v <= setting.high
        ),
        st.text(max_size=30),
        st.floats(allow_nan=False, allow_infinity=False),
        st.booleans(),
        st.lists(st.integers(), max_size=2),
    )


ANY_TEXT = st.one_of(
    st.text(max_size=60),
    st.text(alphabet=st.characters(codec="ascii"), max_size=30),
    st.from_regex(r"[0-9²³¹⁴٣०,./ -]{0,12}", fullmatch=True),
    st.just("9" * 40),
)
AMOUNT_JUNK = ANY_TEXT.filter(lambda t: not re.fullmatch(r"\s*[0-9]{1,13}\s*", t))

# The commands, who sends them, and what each option may carry. "free": anything (the
# command cannot change anything whatever it gets); otherwise only values it must refuse.
COMMANDS: dict[str, tuple[str, bool, dict[str, st.SearchStrategy[Any]]]] = {
    "poker create": (
        "host",
        True,
        {
            "variant": st.one_of(ANY_TEXT, JSON_JUNK),
            "betting": st.one_of(ANY_TEXT, JSON_JUNK),
            "stake": JSON_JUNK,
            "ante": JSON_JUNK,
            "blinds": st.one_of(ANY_TEXT, st.just("2/1"), st.just("0/0"), JSON_JUNK),
            "seats": JSON_JUNK,
            "min_buy_in": JSON_JUNK,
            "max_buy_in": JSON_JUNK,
            "timer": JSON_JUNK,
            "auto_deal": JSON_JUNK,
            "time_bank": JSON_JUNK,
            "dealers_choice": JSON_JUNK,
        },
    ),
    "poker settings": (
        "bob",
        True,
        {
            "timer": JSON_JUNK,
            "auto_deal": JSON_JUNK,
            "time_bank": JSON_JUNK,
            "min_buy_in": JSON_JUNK,
            "max_buy_in": JSON_JUNK,
            "coach": JSON_JUNK,
            "newcomers": st.one_of(st.sampled_from(["play", "wait", "post"]), JSON_JUNK),
            "muck": JSON_JUNK,
            "second_round_from_opener": JSON_JUNK,
            "draw_limit": st.one_of(st.sampled_from(["3", "3+ace", "4", "5"]), JSON_JUNK),
            "diablo_cap": JSON_JUNK,
            "no_five_in_a_row": JSON_JUNK,
        },
    ),
    "poker join": ("carol", False, {"buy_in": out_of(validation.BUY_IN)}),
    "poker hand": ("alice", True, {"hand": JSON_JUNK, "phh": JSON_JUNK}),
    "poker verify": ("alice", True, {"hand": JSON_JUNK}),
    "poker history": ("alice", True, {"table": JSON_JUNK}),
    "poker rules": ("alice", True, {"variant": st.one_of(ANY_TEXT, JSON_JUNK)}),
    "server settings": (
        "host",
        False,
        {
            "starting_bankroll": out_of(validation.STARTING_BANKROLL),
            "daily_amount": out_of(validation.DAILY_AMOUNT),
            "daily_cooldown_hours": out_of(validation.DAILY_COOLDOWN_HOURS),
            "max_tables_per_player": out_of(validation.MAX_TABLES_PER_PLAYER),
        },
    ),
    "chips grant": (
        "host",
        False,
        {"member": JSON_JUNK, "amount": out_of(validation.Setting("x", 1, 10**9))},
    ),
    "chips set": (
        "host",
        False,
        {"member": JSON_JUNK, "amount": out_of(validation.Setting("x", 0, 10**9))},
    ),
    "chips remove": (
        "host",
        False,
        {
            "member": JSON_JUNK,
            "amount": out_of(validation.Setting("x", 1, 10**9)),
            "note": st.one_of(ANY_TEXT, JSON_JUNK),
        },
    ),
}


def wrong_type(option_type: int) -> st.SearchStrategy[Any]:
    """A value of another type than the option declares (what any command must refuse)."""
    texts = st.text(max_size=30).filter(lambda t: not re.fullmatch(r"\s*-?[0-9]+\s*", t))
    shapes = st.one_of(
        st.lists(st.integers(), max_size=2),
        st.dictionaries(st.text(max_size=3), st.integers(), max_size=1),
    )
    if option_type in (4, 10):  # integer, number
        return st.one_of(texts, shapes, st.booleans())
    if option_type == 3:  # string
        return st.one_of(
            st.integers(), st.floats(allow_nan=False, allow_infinity=False), shapes, st.booleans()
        )
    if option_type == 5:  # boolean
        return st.one_of(texts, st.integers(min_value=2), shapes)
    return st.one_of(texts, st.integers(max_value=-1), shapes)  # users, channels, roles...


def other_commands(emu: Emulator) -> dict[str, tuple[str, bool, dict[str, Any]]]:
    """Every synced command with options that :data:`COMMANDS` does not list, fuzzed with
    values of the wrong type, sent by a seated player who manages nothing."""
    found: dict[str, tuple[str, bool, dict[str, Any]]] = {}

    def walk(options: list[dict[str, Any]], path: str) -> None:
        subs = [o for o in options if o.get("type") in (1, 2)]
        for sub in subs:
            walk(sub.get("options") or [], f"{path} {sub['name']}")
        if not subs and options and path not in COMMANDS:
            found[path] = ("bob", False, {o["name"]: wrong_type(o["type"]) for o in options})

    commands = list(emu.global_commands.values())
    commands += [c for guild in emu.guild_commands.values() for c in guild.values()]
    for command in commands:
        walk(command.data.get("options") or [], command.name)
    return found


@st.composite
def command_case(draw: st.DrawFn, commands: dict[str, Any]) -> tuple[str, ...] | Any:
    path = draw(st.sampled_from(sorted(commands)))
    who, _, options = commands[path]
    names = draw(st.lists(st.sampled_from(sorted(options)), min_size=1, unique=True))
    wire = {name: draw(options[name]) for name in names}
    if draw(st.integers(0, 20)) == 0:
        wire[draw(st.text(min_size=1, max_size=10))] = draw(JSON_JUNK)  # an unknown option
    return ("command", path, who, wire)


CUSTOM_IDS = st.one_of(
    st.text(max_size=120),
    st.from_regex(r"(pk:[ltp]|pks|pkm|pk|pg|pk:t:[0-9]{1,3}):[ -~]{0,60}", fullmatch=True),
    st.from_regex(
        r"pk:(l:[0-9]{1,20}:[a-z]{0,8}|t:[0-9]{1,20}:[0-9.]{1,9}:[a-z0-9]{0,8}"
        r"|p:[0-9]{1,20}:[0-9]{1,9}:[a-z]{0,8}:[a-z0-9.,~=-]{0,20})",
        fullmatch=True,
    ),
    st.from_regex(r"pks:[0-9]{1,20}:[0-9]{1,9}:[a-z]{0,8}:[a-z0-9.,~=-]{0,20}", fullmatch=True),
    # a player's own panel: pre-actions and sitting out (a word that is not one is refused)
    st.from_regex(r"pk:s:[0-9]{1,20}:[0-9]{0,9}:[a-z]{0,9}(:[ -~]{0,8})?", fullmatch=True),
    st.from_regex(r"pkm:[0-9]{1,20}(:[0-9.]{0,9}){0,3}", fullmatch=True),
    st.from_regex(r"pg:[a-z_]{0,12}:[0-9]{0,20}:[ -~]{0,20}:[0-9]{0,4}:[a-z]?", fullmatch=True),
    st.from_regex(r"trn:[a-z]{0,12}(:[ -~]{0,8})?", fullmatch=True),
)
SELECT_VALUES = st.lists(
    st.one_of(st.text(max_size=4), st.from_regex(r"-?[0-9]{1,3}", fullmatch=True)), max_size=8
)
RULES_VALUES = st.lists(
    st.one_of(
        st.sampled_from(["muck_losers", "pass_out_reante", "diablo_cap", "post", "wait", "4"]),
        st.text(max_size=12),
    ),
    max_size=5,
)


def cases(commands: dict[str, Any]) -> st.SearchStrategy[Any]:
    return st.one_of(
        command_case(commands),
        command_case(commands),  # twice: commands have the most options
        st.tuples(st.just("modal"), st.sampled_from(["fresh", "stale"]), ANY_TEXT),
        st.tuples(st.just("sit"), AMOUNT_JUNK, ANY_TEXT),
        st.tuples(
            st.just("sit"),
            st.just("40"),
            ANY_TEXT.filter(lambda t: not re.fullmatch(r"\s*[0-9]*\s*", t)),
        ),
        # A good buy-in and seat: only the server's table limit keeps Carol standing.
        st.tuples(st.just("sit"), st.sampled_from(["40", " 60 "]), st.sampled_from(["", "3"])),
        st.tuples(
            st.just("select"), st.sampled_from(["draw", "arrange", "pass", "cg"]), SELECT_VALUES
        ),
        st.tuples(st.just("rules"), st.sampled_from(["flags", "newcomers", "draw"]), RULES_VALUES),
        st.tuples(st.just("id"), st.sampled_from(["button", "select", "modal"]), CUSTOM_IDS),
    )


def draw_cases(count: int, commands: dict[str, Any]) -> list[Any]:
    """``count`` cases drawn by Hypothesis (derandomized: the same cases on every run)."""
    found: list[Any] = []

    @settings(
        max_examples=count,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(cases(commands))
    def collect(case: Any) -> None:
        found.append(case)

    collect()
    return found


def database_rows(path: Path) -> dict[str, list[str]]:
    """Every row of every table, read from the file (what a crash would leave)."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {n: sorted(repr(r) for r in db.execute(f'SELECT * FROM "{n}"')) for n in names}


class ErrorLog(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.ERROR or "could not answer" in record.getMessage():
            self.records.append(record)


async def _send(emu: Emulator, user: Any, message: Any, itype: int, data: dict[str, Any]) -> Any:
    channel = emu.channels[message.channel_id]
    rec = emu.build_interaction(itype, user, channel, data, message=message)
    emu.dispatch("INTERACTION_CREATE", rec.payload)
    return await emu.await_response(rec, timeout=DEADLINE, raise_on_failure=False)


async def test_any_input_is_answered_in_time_and_changes_nothing(
    poker_bot, emu: Emulator, world: World, db_path: Path
) -> None:
    bot = await poker_bot()
    # Pings and their saves happen at once during the set-up, not as a timer in the middle
    # of the cases (which would change the table with nothing to do with them).
    bot.presenter.ping_after = 0
    bot.tables.presentation_save_delay = 0
    host = world.host
    alice, bob, carol = world.players[:3]
    users = {"host": host, "alice": alice, "bob": bob, "carol": carol}
    # The longest action timer and no time bank: on a loaded machine the cases may take a
    # while, and a turn that times out among them would change the table on its own.
    await create_table(
        emu, world, [alice, bob], stake=2, ante=1, auto_deal=0, timer=600, time_bank=0
    )
    live = live_table(bot, world)
    # Read commands first, so that the accounts they open exist before the fingerprint.
    for user in users.values():
        await emu.run_command(user, world.channel, "balance", {})
    await deal(emu, world, alice)
    # Play to the draw: a private panel with selects is open for whoever draws first.
    for step in range(20):
        await emu.idle()
        decision = live.engine.pending[0]
        if decision.kind is engine.DecisionKind.DRAW:
            break
        await act_once(emu, world, bot, decision, policy=opener if step == 0 else passive)
    decision = live.engine.pending[0]
    assert decision.kind is engine.DecisionKind.DRAW
    actor = next(u for u in (alice, bob) if str(u.id) == decision.player_id)
    table = table_message(emu, world)
    panel = await open_panel(emu, actor, table, "Draw / stand pat…")
    await emu.idle()
    await asyncio.sleep(0.05)  # the last ping's id saved
    assert live.presentation_save is None
    hand = live.engine.hand_number
    # Carol sits at a table of her own: at one table at most (the server's setting), she may
    # not sit at the live one, however good her buy-in.
    changed = await emu.run_command(
        host, world.channel, "server settings", {"max_tables_per_player": 1}
    )
    assert changed.type == 4 and not changed.ephemeral, changed.content
    elsewhere = emu.add_text_channel(world.guild, "poker-2")
    other = await emu.run_command(host, elsewhere, "poker create", {"stake": 2})
    sat = await emu.submit_modal(carol, await emu.click(carol, other.message, label="Sit down"), {})
    assert sat.type == 7, sat.content
    # Bob's own Settings panel (no menus: he did not open the table), where he forges them.
    bobs_settings = (await emu.run_command(bob, world.channel, "poker settings", {})).message

    errors = ErrorLog()
    logging.getLogger().addHandler(errors)
    commands = {**COMMANDS, **other_commands(emu)}
    drawn = draw_cases(EXAMPLES, commands)
    tried: Counter[str] = Counter()
    try:
        before = database_rows(db_path)
        state = live.state_json()
        for case in drawn:
            kind = case[0]
            if kind == "command":
                _, path, who, wire = case
                r = await emu.run_forged_command(
                    users[who], world.channel, path, wire, timeout=DEADLINE, raise_on_failure=False
                )
                label = f"/{path}"
            elif kind == "modal":
                _, freshness, text = case
                version = live.version() if freshness == "fresh" else f"{hand}.0"
                row = {"type": 1, "components": [{"type": 4, "custom_id": "amount", "value": text}]}
                data = {"custom_id": f"pkm:{live.id}:{version}", "components": [row]}
                r = await _send(emu, actor, table, 5, data)
                label = "amount modal"
            elif kind == "sit":
                # Carol is not seated: a buy-in or a seat that passed would seat her.
                _, buy_in, seat = case
                rows = [
                    {
                        "type": 1,
                        "components": [{"type": 4, "custom_id": "buy_in", "value": buy_in}],
                    },
                    {"type": 1, "components": [{"type": 4, "custom_id": "seat", "value": seat}]},
                ]
                data = {"custom_id": f"pkm:sit:{live.id}", "components": rows}
                r = await _send(emu, carol, table, 5, data)
                label = "sit modal"
                if buy_in.strip() in ("40", "60") and seat in ("", "3"):
                    assert "seated at 1 table of" in (r.content or ""), (case, r.content)
                    tried["sit past the table limit"] += 1
            elif kind == "select":
                _, select_kind, values = case
                payload = "five-card-draw~" if select_kind == "cg" else ""
                data = {
                    "custom_id": f"pks:{live.id}:{hand}:{select_kind}:{payload}",
                    "component_type": 3,
                    "values": values,
                }
                r = await _send(emu, actor, panel, 3, data)
                label = "private select"
            elif kind == "rules":
                _, field, values = case
                data = {
                    "custom_id": f"pks:r:{live.id}:{field}",
                    "component_type": 3,
                    "values": values,
                }
                r = await _send(emu, bob, bobs_settings, 3, data)
                label = "house rules select"
            else:
                _, shape, custom_id = case
                try:
                    parsed = parse_custom_id(custom_id)
                except CustomIdError:
                    parsed = None
                if getattr(parsed, "table", None) == live.id:
                    continue  # a well-formed press on the live table: the codec tests' job
                if shape == "modal":
                    row = {
                        "type": 1,
                        "components": [{"type": 4, "custom_id": "amount", "value": "5"}],
                    }
                    data = {"custom_id": custom_id, "components": [row]}
                    r = await _send(emu, actor, table, 5, data)
                else:
                    data = {"custom_id": custom_id, "component_type": 3 if shape == "select" else 2}
                    if shape == "select":
                        data["values"] = ["0"]
                    r = await _send(emu, actor, table, 3, data)
                label = f"custom id ({shape})"
            tried[label] += 1
            assert r.interaction.acknowledged, (case, "no answer within the deadline")
            if kind in ("modal", "sit", "rules", "id") or (
                kind == "command" and not commands[case[1]][1]
            ):
                assert r.ephemeral, (case, r.content)
            assert not errors.records, (case, [x.getMessage() for x in errors.records])
            assert live.state_json() == state, (case, "the table changed")
            await asyncio.sleep(0)
        # A burst faster than anyone plays: eight presses that change nothing, then a fresh
        # action, turned away with one word; the extra presses after it are only acknowledged.
        router_of(bot).presses = PressLimiter(presses=8, seconds=2.0, clock=lambda: 0.0)
        mine = {"custom_id": f"pk:l:{live.id}:hand", "component_type": 2}
        for _ in range(8):
            r = await _send(emu, actor, table, 3, mine)
            assert r.ephemeral and r.embeds, r.content
        fresh = {"custom_id": f"pk:t:{live.id}:{live.version()}:fold", "component_type": 2}
        r = await _send(emu, actor, table, 3, fresh)
        assert r.ephemeral and r.content == str(SLOW_DOWN), r.content
        for _ in range(5):
            r = await _send(emu, actor, table, 3, fresh)
            assert r.interaction.acknowledged and r.type == 6
        tried["press burst"] += 14
        assert live.state_json() == state, "a press of the burst acted"
        await emu.idle()
        assert database_rows(db_path) == before, "the database changed"
        assert not errors.records, [x.getMessage() for x in errors.records]
        emu.assert_clean()
    finally:
        logging.getLogger().removeHandler(errors)
        total = sum(tried.values())
        print(
            f"\nfuzz: {total} cases tried: "
            + ", ".join(f"{k} {v}" for k, v in sorted(tried.items()))
        )
    assert total >= EXAMPLES * 0.9
