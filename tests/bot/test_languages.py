"""Each text in its reader's language, through the emulator: what one member reads (an answer,
a private panel, a refusal, their DM) in their client's language, what the channel reads (the
table message) in the table's or the server's.

The expected texts are what the localisation layer renders for that language, so a text the
bot wrote in the wrong language fails whether or not it has been translated yet; each test
also fails while a text it reads has no translation (the same as English): the catalogues are
filled by translators after the code.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

import engine
from cogs.languages import FOLLOW, check_language
from cogs.translator import _
from cogs.ui.custom_ids import PanelButton, TableButton, parse_custom_id
from i18n import ENGLISH, PSEUDO, Language, resolve, speaking
from i18n.engine_text import say
from tables.errors import Refusal
from tables.languages import guild_language
from tables.translator import _ as tables_
from tests.bot.driver import create_table, current_table_message, deal, live_table, play_hand
from tests.emulator import Emulator, World

GERMAN, POLISH, FRENCH = resolve("de"), resolve("pl"), resolve("fr")


class Expect:
    """The texts a test compares with, and those still untranslated (the test's last check)."""

    def __init__(self) -> None:
        self.untranslated: set[tuple[str, str]] = set()

    def __call__(self, message: str, language: Language, **values: object) -> str:
        text = _(message, language=language, **values)
        if language is not ENGLISH and text == _(message, language=ENGLISH, **values):
            self.untranslated.add((language.code, message))
        return text

    def same(self, shown: str | None, english: str | None, language: Language) -> None:
        """A text the bot rendered itself (a DM) must be in ``language``: ``shown`` equals
        the same text rendered in ``language`` by the caller, and is not English."""
        if shown == english:
            self.untranslated.add((language.code, shown or ""))

    def check(self) -> None:
        assert not self.untranslated, f"no translation yet: {sorted(self.untranslated)}"


def _buttons(message: Any, kind: type) -> list[tuple[Any, dict[str, Any]]]:
    """The message's buttons whose custom id parses as ``kind``, with the parsed id."""
    found = []
    for button in message.buttons:
        parsed = parse_custom_id(button.get("custom_id", ""))
        if isinstance(parsed, kind):
            found.append((parsed, button))
    return found


def _table_button(message: Any, verb: str) -> dict[str, Any] | None:
    return next((b for p, b in _buttons(message, TableButton) if p.verb == verb), None)


async def _play_with_draw_checks(
    emu: Emulator, world: World, bot: Any, languages: dict[int, Language], expect: Expect
) -> None:
    """Check/call to the showdown, standing pat; at the first draw the member not to act
    presses the draw button (a refusal in their language) and the actor's private panel is
    checked in theirs."""
    users = {str(user.id): user for user in world.users}
    live = live_table(bot, world)
    refused = panel_seen = opened = False
    for _turn in range(40):
        await emu.idle()
        if not live.engine.in_hand:
            return
        decision = live.engine.pending[0]
        actor = users[decision.player_id]
        table = await current_table_message(emu, world)
        if decision.kind is engine.DecisionKind.BET:
            # The first player opens (a draw game may need an opener), the others call.
            button = (None if opened else _table_button(table, "to")) or (
                _table_button(table, "check") or _table_button(table, "call")
            )
            opened = True
            assert button is not None, table.button_labels
            r = await emu.click(actor, table, custom_id=button["custom_id"])
            assert r.type == 7, r.content
            continue
        assert decision.kind is engine.DecisionKind.DRAW, decision.kind
        opener = _table_button(table, "private")
        assert opener is not None, table.button_labels
        if not refused:
            other = next(
                u for pid, u in users.items() if pid != decision.player_id and live.seated(u.id)
            )
            r = await emu.click(other, table, custom_id=opener["custom_id"])
            assert r.ephemeral, r.content
            assert r.content == expect("It's not your turn.", languages[other.id])
            refused = True
        opened = await emu.click(actor, table, custom_id=opener["custom_id"])
        assert opened.type == 6, opened.content
        panel = (await emu.wait_for(lambda o=opened: o.followups, timeout=5))[-1]
        language = languages[actor.id]
        assert panel.ephemeral
        if not panel_seen:
            title = panel.embeds[0]["title"]
            assert title == expect("Draw: choose the cards to throw away", language)
            panel_seen = True
        pat = next(b for p, b in _buttons(panel, PanelButton) if p.kind == "draw")
        assert pat["label"] == expect("Stand pat", language)
        r = await emu.click(actor, panel, custom_id=pat["custom_id"])
        assert r.type == 7, r.content
        assert expect("You stand pat.", language) in r.embeds[0]["description"]
    raise AssertionError("the hand did not finish")


async def _dm_in(bot: Any, live: Any, user: Any, dm: Any, language: Language, expect: Expect):
    """The member's DM of the hand reads as the presenter renders it in ``language``."""
    with speaking(language):
        embed, _file = bot.presenter.private_message(live, user.id)
    with speaking(ENGLISH):
        english, _file = bot.presenter.private_message(live, user.id)
    assert dm.embeds[0]["title"] == embed.title
    assert dm.embeds[0].get("description") == embed.description
    expect.same(embed.title, english.title, language)


async def test_each_member_reads_their_language_and_the_table_the_servers(
    poker_bot, emu: Emulator, world: World
) -> None:
    expect = Expect()
    world.guild.locale = "fr"
    alice, bob = world.players[:2]
    alice.locale, bob.locale = "de", "pl"
    languages = {alice.id: GERMAN, bob.id: POLISH}
    bot = await poker_bot()
    lobby = await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    live = live_table(bot, world)
    assert live.language is FRENCH and guild_language(world.guild.id) is FRENCH

    deal = next(b for b in lobby.buttons if b.get("custom_id", "").endswith(":deal"))
    dealt = await emu.click(alice, lobby, custom_id=deal["custom_id"])
    assert dealt.type == 7
    await emu.wait_for(lambda: emu.dms(alice) and emu.dms(bob))
    await emu.idle()
    # The DMs of the deal, each in its reader's language (a German's press dealt them).
    await _dm_in(bot, live, alice, emu.dms(alice)[-1], GERMAN, expect)
    await _dm_in(bot, live, bob, emu.dms(bob)[-1], POLISH, expect)
    # The table message, redrawn by a German's press, in French.
    table = await current_table_message(emu, world)
    assert expect("My hand", FRENCH) in table.button_labels
    assert expect("Fold", FRENCH) in table.button_labels

    await _play_with_draw_checks(emu, world, bot, languages, expect)

    # What the bot remembers: each member's client locale (their DMs), the server's locale.
    assert await bot.db.member_locales([alice.id, bob.id]) == {alice.id: "de", bob.id: "pl"}
    (row,) = [r for r in await bot.db.guild_languages() if r.guild_id == world.guild.id]
    assert row.guild_locale == "fr" and row.language is None
    expect.check()


async def test_pseudo_member_at_an_english_server(poker_bot, emu: Emulator, world: World) -> None:
    """The plumbing, with a language every template string has (en-XA): the member's own
    texts are pseudo, the table's stay English although the member's presses redraw it."""
    expect = Expect()
    alice, bob = world.players[:2]
    alice.locale = "en-XA"
    languages = {alice.id: PSEUDO, bob.id: ENGLISH}
    bot = await poker_bot()
    lobby = await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    live = live_table(bot, world)
    assert live.language is ENGLISH
    deal = next(b for b in lobby.buttons if b.get("custom_id", "").endswith(":deal"))
    assert (await emu.click(alice, lobby, custom_id=deal["custom_id"])).type == 7
    await emu.wait_for(lambda: emu.dms(alice) and emu.dms(bob))
    await emu.idle()
    await _dm_in(bot, live, alice, emu.dms(alice)[-1], PSEUDO, expect)
    table = await current_table_message(emu, world)
    assert "My hand" in table.button_labels and "Fold" in table.button_labels
    await _play_with_draw_checks(emu, world, bot, languages, expect)
    expect.check()


async def test_server_and_table_choices(poker_bot, emu: Emulator, world: World) -> None:
    """/server settings language: and /poker settings language: decide the channel's
    language; a restart keeps the table's; taking a choice back follows the next rule."""
    world.guild.locale = "ja"  # a locale the bot does not ship: English
    alice, bob = world.players[:2]
    bob.locale = "ja"  # his refusal below reads English too
    bot = await poker_bot()
    await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    live = live_table(bot, world)
    assert live.language is ENGLISH
    # A hand where the first to act lets the clock (and their time bank) run out: the table
    # shows the timeout in English.
    await deal(emu, world, alice)
    late = live.engine.pending[0].player_id
    who = next(p for p in (alice, bob) if str(p.id) == late).global_name
    base = time.time()
    for later in (1000, 2000):
        bot.tables.now = lambda later=later: base + later
        live.deadline = base
        await bot.tables.expire(live)
    english_note = f"{who} ran out of time"
    assert english_note in (await current_table_message(emu, world)).text

    r = await emu.run_command(world.host, world.channel, "server settings", {"language": "pl"})
    assert r.ephemeral and r.content == "This server's tables now speak Polski.", r.content
    assert live.language is POLISH and guild_language(world.guild.id) is POLISH
    # The note shown before is redrawn in the table's new language with the rest.
    shown = (await current_table_message(emu, world)).text
    assert english_note not in shown, shown
    assert say("timed-out", who=who, language=POLISH) in shown, shown

    r = await emu.run_command(alice, world.channel, "poker settings", {"language": "de"})
    assert r.ephemeral and r.content == "This table now speaks Deutsch.", r.content
    assert live.language is GERMAN and live.meta.language == "de"
    shown = (await current_table_message(emu, world)).text
    assert say("timed-out", who=who, language=GERMAN) in shown, shown
    r = await emu.run_command(bob, world.channel, "poker settings", {"language": "fr"})
    assert r.ephemeral and live.language is GERMAN, "only the creator or a manager"
    assert "Only the table's creator" in (r.content or ""), r.content

    # The table's choice is saved with its snapshot: a restarted bot keeps it.
    await bot.close()
    bot = await poker_bot()
    live = live_table(bot, world)
    assert live.meta.language == "de" and live.language is GERMAN
    r = await emu.run_command(alice, world.channel, "poker settings", {"language": "auto"})
    assert live.language is POLISH, r.content
    r = await emu.run_command(world.host, world.channel, "server settings", {"language": "auto"})
    assert live.language is ENGLISH, r.content
    assert r.content == "This server's tables follow Discord's server language (English)."


async def test_a_refused_setting_leaves_the_language_as_it_was(
    poker_bot, emu: Emulator, world: World
) -> None:
    """A language asked for with a setting that is refused changes nothing: the refusal
    said so, and the server's or the table's language stayed as it was."""
    alice, bob = world.players[:2]
    bot = await poker_bot()
    await create_table(emu, world, [alice, bob], stake=2, ante=1, auto_deal=0)
    live = live_table(bot, world)
    r = await emu.run_forged_command(
        world.host, world.channel, "server settings", {"language": "de", "starting_bankroll": -5}
    )
    assert r.ephemeral and "starting bankroll" in (r.content or ""), r.content
    assert guild_language(world.guild.id) is ENGLISH and live.language is ENGLISH
    assert (await bot.db.get_settings(world.guild.id)).updated_at is None
    settings = live.settings
    r = await emu.run_command(
        alice,
        world.channel,
        "poker settings",
        {"language": "de", "min_buy_in": 5000, "max_buy_in": 100},
    )
    assert r.ephemeral and "smallest buy-in" in (r.content or ""), r.content
    assert live.meta.language is None and live.language is ENGLISH
    assert live.settings == settings
    # Both at once, accepted: the table speaks German and reads its new settings in it.
    r = await emu.run_command(
        alice, world.channel, "poker settings", {"language": "de", "timer": 30}
    )
    assert not r.ephemeral and live.language is GERMAN and live.settings.action_seconds == 30
    emu.assert_clean()


async def test_a_bankroll_too_small_is_told_in_the_members_language(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Buying in or rebuying for more than the bankroll holds was refused with the data
    layer's English sentence, whatever the member's language."""
    alice, bob, carol = world.players[:3]
    carol.locale = "de"
    bot = await poker_bot()
    lobby = await create_table(emu, world, [alice, bob], stake=2, auto_deal=0, max_buy_in=5000)
    expected = tables_(
        "Not enough chips: your bankroll holds {balance}, and {needed} are needed.",
        language=GERMAN,
        balance=1000,
        needed=4000,
    )
    assert expected != tables_(
        "Not enough chips: your bankroll holds {balance}, and {needed} are needed.",
        language=ENGLISH,
        balance=1000,
        needed=4000,
    )
    r = await emu.run_command(carol, world.channel, "poker join", {"buy_in": 4000})
    assert r.ephemeral and r.content == expected, r.content
    opened = await emu.click(carol, lobby, label="Sit down")
    r = await emu.submit_modal(carol, opened, {"buy_in": "4000"})
    assert r.ephemeral and r.content == expected, r.content
    r = await emu.run_command(carol, world.channel, "poker join", {"buy_in": 900})
    assert not r.ephemeral, r.content
    r = await emu.run_command(carol, world.channel, "poker rebuy", {"amount": 3000})
    assert r.ephemeral and r.content == tables_(
        "Not enough chips: your bankroll holds {balance}, and {needed} are needed.",
        language=GERMAN,
        balance=100,
        needed=3000,
    ), r.content
    assert await bot.db.balance(world.guild.id, carol.id) == 100
    emu.assert_clean()


def test_a_locale_we_do_not_ship_reads_english() -> None:
    assert resolve("ja") is ENGLISH and resolve("zh-CN") is ENGLISH
    assert resolve("es-419").code == "es-ES"
    assert _("It's not your turn.", language=resolve("ja")) == "It's not your turn."


def test_a_forged_language_is_refused() -> None:
    assert check_language("pt-BR") == "pt-BR" and check_language(FOLLOW) is None
    for forged in ("xx", "en-XA", "de; DROP", ""):
        with pytest.raises(Refusal):
            check_language(forged)


async def test_the_language_option_suggests_each_language_by_its_own_name(
    poker_bot, emu: Emulator, world: World
) -> None:
    """A language option suggests the languages as the member types (Discord counts an
    option's listed choices with the command's size, which every language would grow): the
    first suggestion takes the choice back, in the member's language, then each language by
    its own name. A language's name typed out is taken as well as a suggestion."""
    bot = await poker_bot()
    alice = world.players[0]
    alice.locale = "de"
    r = await emu.autocomplete(alice, world.channel, "poker create", focused="language", value="")
    names = [choice["name"] for choice in r.choices]
    assert names[0] == _("The server's language", language=GERMAN) != "The server's language"
    assert {"Deutsch", "Italiano", "Українська", "English"} <= set(names), names
    r = await emu.autocomplete(
        alice, world.channel, "poker create", focused="language", value="ITA"
    )
    assert [(c["name"], c["value"]) for c in r.choices] == [("Italiano", "it")], r.choices
    r = await emu.autocomplete(
        world.host, world.channel, "server settings", focused="language", value="Pol"
    )
    assert [c["value"] for c in r.choices] == ["pl"], r.choices

    await create_table(emu, world, [alice], language="italiano")
    assert live_table(bot, world).meta.language == "it"
    r = await emu.run_command(alice, world.channel, "poker settings", {"language": "klingon"})
    refused = _("That language is not one the bot speaks.", language=GERMAN)
    assert r.ephemeral and r.content == refused, r.content
    assert live_table(bot, world).meta.language == "it"


async def test_the_game_menu_lists_the_games_in_the_members_language(
    poker_bot, emu: Emulator, world: World
) -> None:
    """Autocompleting a game option (here /poker odds' game): the games by their names in the
    member's language, found by those names too (and still by the English slug)."""
    await poker_bot()
    alice = world.players[0]
    alice.locale = "ru"
    r = await emu.autocomplete(alice, world.channel, "poker odds", focused="game", value="лоуболл")
    listed = {choice["value"]: choice["name"] for choice in r.choices}
    assert listed.get("california-lowball") == "Калифорнийский лоуболл", listed
    assert "kansas-city-lowball" in listed and "five-card-draw" not in listed, listed
    r = await emu.autocomplete(alice, world.channel, "poker odds", focused="game", value="deuces")
    listed = {choice["value"]: choice["name"] for choice in r.choices}
    assert listed == {"deuces-wild": "Двойки — джокеры"}, listed


async def _a_dealer_choosing(poker_bot: Any, emu: Emulator, world: World) -> tuple[Any, Any, Any]:
    """A dealer's choice table of two, started: the bot, the live table and its dealer, who
    is choosing."""
    bot = await poker_bot()
    players = world.players[:2]
    await create_table(emu, world, players, dealers_choice=True, auto_deal=0)
    r = await emu.run_command(players[0], world.channel, "poker start", {})
    assert r.ephemeral, r.content
    await emu.idle()
    live = live_table(bot, world)
    decision = live.engine.pending[0]
    assert decision.kind.value == "choose-game"
    return bot, live, next(p for p in players if str(p.id) == decision.player_id)


async def test_the_dealers_choice_panel_speaks_the_dealers_language(
    poker_bot, emu: Emulator, world: World
) -> None:
    """The dealer's choice panel (only the dealer reads it) names the games, describes them
    and lists the wild cards and house rules in the dealer's language."""
    _bot, _live, dealer = await _a_dealer_choosing(poker_bot, emu, world)
    dealer.locale = "de"  # the server reads English; the dealer's client reads German
    table = await current_table_message(emu, world)
    opened = await emu.click(dealer, table, label="Choose the game…")
    panel = (await emu.wait_for(lambda: opened.followups))[-1]
    game = next(s for s in panel.selects if ":cg:" in s["custom_id"])
    labels = {o["value"]: o["label"] for o in game["options"]}
    assert labels["deuces-wild"] == "Zweien wild", labels
    assert labels["jacks-or-better"] == "Buben oder besser", labels
    panel = (await emu.select(dealer, panel, game["custom_id"], ["california-lowball"])).message
    assert "Die niedrigste Hand gewinnt" in panel.text, panel.text
    wild = next(s for s in panel.selects if ":cw:" in s["custom_id"])
    assert "Könige wild" in {o["label"] for o in wild["options"]}, wild["options"]
    panel = (await emu.select(dealer, panel, wild["custom_id"], ["wild=13"])).message
    rules = next(s for s in panel.selects if ":cr:" in s["custom_id"])
    assert "drei Tauschrunden" in {o["label"] for o in rules["options"]}, rules["options"]
    panel = (await emu.select(dealer, panel, rules["custom_id"], ["draws=3"])).message
    assert "California Lowball mit drei Tauschrunden, Könige wild" in panel.text, panel.text


async def _a_kings_wild_hand_played(poker_bot: Any, emu: Emulator, world: World) -> Any:
    """A dealer's choice table whose dealer picked five-card draw with kings wild, the hand
    played to its end: (the live table, the hand's history row)."""
    bot, live, dealer = await _a_dealer_choosing(poker_bot, emu, world)
    table = await current_table_message(emu, world)
    opened = await emu.click(dealer, table, label="Choose the game…")
    panel = (await emu.wait_for(lambda: opened.followups))[-1]
    wild = next(s for s in panel.selects if ":cw:" in s["custom_id"])
    panel = (await emu.select(dealer, panel, wild["custom_id"], ["wild=13"])).message
    r = await emu.click(dealer, panel, label="Deal it")
    assert r.type == 7, r.content
    await emu.idle()
    await play_hand(emu, world, bot)
    (hand,) = (await bot.db.list_hands(live.id)).items
    assert hand.variant_name == "Five-card draw, kings wild", hand.variant_name
    return live, hand


async def test_a_dealers_choice_replays_in_the_viewers_language(
    poker_bot, emu: Emulator, world: World
) -> None:
    """The replay of a dealer's choice hand names the game chosen (its title and the line of
    the choice) in the viewer's language, though the hand is stored with its English name."""
    _live, hand = await _a_kings_wild_hand_played(poker_bot, emu, world)
    viewer = world.players[3]
    viewer.locale = "de"
    r = await emu.run_command(viewer, world.channel, "poker hand", {"hand": hand.hand_id})
    replay = r.embeds[0]
    assert replay["title"] == f"Hand {hand.hand_id} · Five Card Draw, Könige wild", replay
    assert "wählt **Five Card Draw, Könige wild**" in replay["description"], replay


async def test_a_dealers_choice_is_listed_in_the_viewers_language(
    poker_bot, emu: Emulator, world: World
) -> None:
    """/poker history names a dealer's choice hand's game in the viewer's language, as its
    replay and the table message do (the hand is stored with its English name)."""
    live, hand = await _a_kings_wild_hand_played(poker_bot, emu, world)
    for code, game in (("de", "Five Card Draw, Könige wild"), ("en-US", hand.variant_name)):
        viewer = world.players[3]
        viewer.locale = code
        r = await emu.run_command(viewer, world.channel, "poker history", {"table": live.id})
        (listed,) = r.embeds
        assert f"· {game} ·" in listed["description"], (code, listed)
        if code == "de":
            assert hand.variant_name not in listed["description"], listed


async def test_a_bad_hand_id_or_card_list_is_named_in_the_members_language(
    poker_bot, emu: Emulator, world: World
) -> None:
    """/poker hand, /poker history and /poker odds refuse a bad value naming the option in
    the member's language (the name was English inside a translated sentence)."""
    await poker_bot()
    alice = world.players[0]
    alice.locale = "de"
    r = await emu.run_command(alice, world.channel, "poker hand", {"hand": -5})
    assert r.ephemeral and r.content == "Eine Hand-ID ist eine positive ganze Zahl.", r.content
    r = await emu.run_command(alice, world.channel, "poker verify", {"hand": 0})
    assert r.ephemeral and r.content == "Eine Hand-ID ist eine positive ganze Zahl.", r.content
    r = await emu.run_command(alice, world.channel, "poker history", {"table": -1})
    assert r.ephemeral and r.content == "Eine Tisch-ID ist eine positive ganze Zahl.", r.content
    r = await emu.run_command(alice, world.channel, "poker odds", {"cards": "As " * 40})
    assert r.ephemeral and r.content.startswith("Die Kartenangabe ist zu lang"), r.content
    r = await emu.run_command(
        alice, world.channel, "poker odds", {"cards": "As Kd 7h 7c 2s", "discard": "As " * 40}
    )
    assert r.ephemeral and r.content.startswith("Der Abwurf ist zu lang"), r.content
