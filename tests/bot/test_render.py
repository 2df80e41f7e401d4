"""The table embed shows what the engine's public view says of each seat."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from cogs.ui import panels, render
from engine import (
    Bet,
    BetOptions,
    Call,
    Check,
    ChooseGame,
    Discard,
    DrawOptions,
    FixedLimit,
    Fold,
    ForcedBets,
    NoLimit,
    Table,
    TableConfig,
    Timeout,
)
from engine.actions import Action
from i18n import PSEUDO, speaking
from i18n.engine_text import engine_text
from tables.live import Version


def test_a_newcomer_waiting_for_the_deal_is_shown_on_the_table() -> None:
    table = Table(TableConfig("five-card-draw", forced_bets=ForcedBets.dealers_edge(1)))
    table.sit("1", 100)
    table.sit("2", 100)
    table.start_hand(random.Random(3))
    table.sit("3", 100)  # mid-hand: under dealer's edge a newcomer waits for their deal
    while table.in_hand:
        table.act(table.pending[0].seat, Timeout())
    names = {"1": "Alice", "2": "Bob", "3": "Carol"}
    embed = render.table_embed(table.public_view(), names)
    text = "\n".join(f.value or "" for f in embed.fields) + (embed.description or "")
    carol = next(line for line in text.splitlines() if "Carol" in line)
    assert "plays from the hand they deal" in carol
    assert "plays from" not in next(line for line in text.splitlines() if "Alice" in line)


def _diablo_result_with_a_note() -> object:
    """A Diablo hand (house players' play, seeded) whose opener did not win: its note."""
    from engine.house import LEVELS, decide

    rng = random.Random(5)
    table = Table(TableConfig("diablo"))
    for pid in ("1575984259603234822", "1575984259603234823", "1575984259603234824"):
        table.sit(pid, 500)
    for _ in range(300):
        for seat in table.seats:
            if seat is not None and seat.stack < 60:
                table.add_chips(seat.player_id, 500)
        table.start_hand(rng)
        while table.pending:
            d = table.pending[0]
            view = table.private_view(d.seat)
            action = decide(view, table.public_view(), d, LEVELS[1], rng, rules=table.current_rules)
            table.act(d.seat, action)
        if table.result is not None and table.result.note:
            return table.result
    raise AssertionError("no opener lost in 300 hands")


def test_a_diablo_note_names_the_opener_in_the_tables_language() -> None:
    """The note of a Diablo hand lost by its opener names them (not their Discord id) and
    reads in the table's language."""
    from i18n import resolve

    result = _diablo_result_with_a_note()
    names = {pid: f"Player{pid[-1]}" for pid in result.final_stacks}
    for code, words in (("en", "opened and did not win"), ("de", "hat eröffnet")):
        embed = render.showdown_embed(result, names, language=resolve(code))
        note = next(f["value"] for f in embed.to_dict()["fields"] if f["name"] in ("Note", "Notiz"))
        assert words in note, note
        assert not any(pid in note for pid in names), note
        assert any(name in note for name in names.values()), note


def test_a_pot_part_kept_back_is_told_in_the_tables_language() -> None:
    """Trips to win with a short stack all-in: when no hand eligible for a side pot meets the
    requirement, the part that stays is told in the table's language."""
    from i18n import resolve
    from tests.engine.engine_helpers import deck_for, make_table

    # 1004 is all-in with trips for the main pot; 1001's aces and 1002's kings bet a side pot
    # that neither may win.
    table = make_table(["1001", "1002", "1004"], variant="trips-to-win", stacks=[500, 500, 3])
    deck = deck_for(["Ah Ad 7c 4s 2h", "Kh Kd 8c 5s 3h", "9h 9d 9s 6c Jd"])
    table.start_hand(random.Random(5), deck=deck)
    while table.pending:
        decision = table.pending[0]
        options = decision.legal
        action: Action
        if isinstance(options, DrawOptions):
            action = Discard(())
        elif isinstance(options, BetOptions) and options.is_bet and decision.player_id == "1001":
            assert options.min_to is not None
            action = Bet(options.min_to)
        elif isinstance(options, BetOptions) and options.can_check:
            action = Check()
        else:
            action = Call()
        table.act(decision.seat, action)
    result = table.result
    assert result is not None and result.note is not None, table.events
    assert result.note.startswith("part of the pot stays"), result.note
    embed = render.showdown_embed(result, {}, language=resolve("de"))
    told = next(f["value"] for f in embed.to_dict()["fields"] if f["name"] == "Notiz")
    assert "part of the pot" not in told and "Teil des Pots" in told, told


def _play_down(table: Table) -> None:
    """Call, check and stand pat down to the showdown."""
    while table.in_hand:
        decision = table.pending[0]
        options = decision.legal
        action = Discard(()) if isinstance(options, DrawOptions) else Call()
        if isinstance(options, BetOptions) and options.can_check:
            action = Check()
        table.act(decision.seat, action)


def test_names_read_as_typed_in_the_table_and_its_result_but_plain_in_the_picture() -> None:
    """A name is its player's own text: ``**Al**`` is not bold and ``<@id>`` does not show
    another member, on the table message and in the result; the picture writes it plainly."""
    table = Table(TableConfig("five-card-draw", forced_bets=ForcedBets.with_blinds(1, 2)))
    table.sit("1", 100)
    table.sit("2", 100)
    table.start_hand(random.Random(5))
    names = {"1": "**Al**", "2": "<@123456789012345678>"}
    embed = render.table_embed(table.public_view(), names)
    text = "\n".join(f.value or "" for f in embed.fields) + (embed.description or "")
    assert "\\*\\*Al\\*\\*" in text and "<@\u200b123456789012345678>" in text, text
    assert "<@123456789012345678>" not in text
    _play_down(table)
    result = table.result
    assert result is not None and len(result.shown) == 2
    shown = render.showdown_embed(result, names, seat_order=["1", "2"])
    text = "\n".join(f"{f.name}\n{f.value}" for f in shown.fields) + (shown.description or "")
    assert "\\*\\*Al\\*\\*" in text and "<@123456789012345678>" not in text, text
    rows = render.shown_rows(result, names)
    assert {row.name for row in rows} == {"**Al**", "<@123456789012345678>"}


def test_a_right_to_left_name_keeps_its_line_in_order() -> None:
    """A name written right to left is isolated (FSI ... PDI) on the table and in the result,
    so that its seat's chips and its change of stack stay after it; a left-to-right name,
    even one with a right-to-left letter's neighbours (digits, emoji), is written as typed."""
    table = Table(TableConfig("five-card-draw", forced_bets=ForcedBets.with_blinds(1, 2)))
    table.sit("1", 100)
    table.sit("2", 100)
    table.start_hand(random.Random(5))
    names = {"1": "דני 7", "2": "Ann 😀 42"}
    isolated = "\u2068דני 7\u2069"
    embed = render.table_embed(table.public_view(), names)
    text = "\n".join(f.value or "" for f in embed.fields)
    assert isolated in text and "\u2068Ann" not in text and "Ann 😀 42" in text, text
    _play_down(table)
    result = table.result
    assert result is not None
    shown = render.showdown_embed(result, names, seat_order=["1", "2"])
    text = "\n".join(f"{f.name}\n{f.value}" for f in shown.fields)
    stacks = next(line for line in text.splitlines() if line.startswith(isolated))
    assert stacks.startswith(f"{isolated}: "), stacks
    rows = render.shown_rows(result, names)
    assert {row.name for row in rows} == {"דני 7", "Ann 😀 42"}  # the picture lays it out itself


def _short_stack_buttons(structure: NoLimit | FixedLimit, chips: int) -> list[str]:
    """The table's buttons for a player with ``chips`` facing the big blind of 2."""
    table = Table(
        TableConfig(
            "five-card-draw",
            structure=structure,
            forced_bets=ForcedBets.with_blinds(1, 2),
            max_seats=4,
        )
    )
    for name, stack in (("a", 100), ("b", 100), ("c", chips)):
        table.sit(name, stack)
    table.start_hand(random.Random(1))
    (decision,) = table.pending
    assert decision.player_id == "c" and decision.legal.min_to == decision.legal.max_to == chips
    return [
        button["label"]
        for row in panels.table_components(1, Version(1, 0), table.pending).to_components()
        for button in row["components"]
    ]


def test_a_raise_that_can_only_be_all_in_is_one_button_not_an_empty_form() -> None:
    """A short stack can raise only by going all-in: the smallest raise and the largest are
    the same. The table offers that one amount as a button; a form asking for an amount
    "from 4 to 4" is a needless step."""
    labels = _short_stack_buttons(NoLimit(2), 4)
    assert labels == ["Fold", "Call 2", "All-in 4", "My hand"], labels
    # At a fixed limit, which has no All-in button, the raise keeps its own.
    labels = _short_stack_buttons(FixedLimit(2), 3)
    assert labels == ["Fold", "Call 2", "Raise to 3", "My hand"], labels


def test_openers_shown_name_the_opener_who_won_uncontested_or_folded() -> None:
    """The opener shows the openers when the pot is paid even with no showdown (everyone
    folded to the bet, or the opener split them and folded): the field names the player."""
    from engine.cards import parse_cards
    from tests.engine.engine_helpers import deck_for, make_table, play

    names = {"a": "Ann", "b": "Bob"}
    hands = ["Kc Jc 9c 7c Jh", "Ah Ad Qd 8s 3d"]
    for moves in (
        [("a", Bet(2)), ("b", Fold())],
        [
            ("a", Bet(2)),
            ("b", Call()),
            ("a", Discard(parse_cards("Jh"))),
            ("b", Discard(())),
            ("a", Check()),
            ("b", Bet(4)),
            ("a", Fold()),
        ],
    ):
        table = make_table(["a", "b"], variant="jacks-or-better")
        table.start_hand(random.Random(5), deck=deck_for(hands, "2s 5h"))
        play(table, moves)
        result = table.result
        assert result is not None and result.openers and not result.shown
        seats = {i: s.player_id for i, s in enumerate(table.seats) if s is not None}
        embed = render.showdown_embed(result, names, seat_order=["a", "b"], seats=seats)
        shown = next(f.value or "" for f in embed.fields if f.name == "Openers shown")
        assert shown.startswith("Ann: "), shown


def _showdown_of_two(seed: int) -> tuple[Table, dict[str, str]]:
    """Two players call, check and stand pat down to a showdown (one pot)."""
    table = Table(TableConfig("five-card-draw", forced_bets=ForcedBets.with_blinds(1, 2)))
    table.sit("1", 100)
    table.sit("2", 100)
    table.start_hand(random.Random(seed))
    _play_down(table)
    return table, {"1": "Alice", "2": "Bob"}


def test_the_table_between_hands_shows_no_old_hand_number_or_last_action() -> None:
    """Once a hand is over its result is the message above: the table message that waits for
    the next deal carries neither the finished hand's number nor its last action."""
    table, names = _showdown_of_two(5)
    waiting = render.table_embed(table.public_view(), names)
    assert table.result is not None and not table.in_hand
    assert "hand #" not in (waiting.title or ""), waiting.title
    assert "Last action" not in [field.name for field in waiting.fields]
    assert "Between hands" in (waiting.description or "")
    table.start_hand(random.Random(6))
    table.act(table.pending[0].seat, Call())
    dealt = render.table_embed(table.public_view(), names)
    assert "hand\u00a0#2" in (dealt.title or ""), dealt.title
    last = next(field for field in dealt.fields if field.name == "Last action")
    assert "Alice" in (last.value or "") or "Bob" in (last.value or ""), last.value


def test_while_the_dealer_chooses_the_last_hand_is_not_shown_as_the_current_one() -> None:
    """Dealer's choice: while the next game is chosen, the table message does not read as the
    hand just played (its number, its last action), yet says who is choosing."""
    table = Table(TableConfig("five-card-draw", dealers_choice=True))
    table.sit("1", 100)
    table.sit("2", 100)
    rng = random.Random(4)
    table.start_hand(rng)
    table.act(table.pending[0].seat, ChooseGame("five-card-draw", ()))
    _play_down(table)
    table.start_hand(rng)
    view = table.public_view()
    assert view.phase == "choose" and view.hand_number == 1 and view.last_action is not None
    embed = render.table_embed(view, {"1": "Alice", "2": "Bob"})
    assert "hand #" not in (embed.title or ""), embed.title
    assert "Last action" not in [field.name for field in embed.fields]
    assert "Waiting for" in (embed.description or ""), embed.description


def test_the_winner_of_the_only_pot_is_labelled_with_the_chips_alone() -> None:
    """The showdown picture says "wins 4" for a hand with one pot; pot names appear only when
    there are several to tell apart."""
    for seed in range(50):
        table, names = _showdown_of_two(seed)
        result = table.result
        assert result is not None and len(result.pots) == 1
        shares = result.pots[0].shares
        if len(shares) != 1:
            continue  # a tie: look for a single winner
        rows = render.shown_rows(result, names)
        assert [row.won for row in rows] == [f"wins {shares[0].amount}", ""]
        # The text names the winning hand as the label it is, after a dash.
        embed = render.showdown_embed(result, names, seat_order=["1", "2"])
        winners = next(field.value for field in embed.fields if field.name == "Winners")
        winner = names[shares[0].player_id]
        hand = rows[0].hand
        assert winners == f"Main pot: **{winner}** wins {shares[0].amount} — {hand}", winners
        return
    raise AssertionError("no single winner in 50 deals")


def test_a_closed_tables_message_names_its_game_in_the_tables_language() -> None:
    """A tournament table broken up keeps a note under the game's name, which the engine
    gives in English: the note reads it in the channel's language."""
    with speaking(PSEUDO):
        embed, components = panels.closed_notice("Five-card draw", ["Ann moves to table 2."])
        assert embed.title == engine_text("Five-card draw") != "Five-card draw"
    assert not components.to_components()


def test_the_pot_says_a_lone_amount_once_and_splits_only_a_pot_in_parts() -> None:
    """One amount in the middle (the first round's bets, or the main pot alone) is the field's
    value under "Pot"; once there are two parts (the pot and this round's bets) the field's
    name gives the total and its value the parts."""
    config = TableConfig(
        "five-card-draw", structure=NoLimit(2), forced_bets=ForcedBets.with_blinds(1, 2)
    )
    table = Table(config)
    for pid in ("1", "2", "3"):
        table.sit(pid, 100)
    table.start_hand(random.Random(2))
    names = {"1": "Alice", "2": "Bob", "3": "Carol"}

    def pot_field() -> tuple[str | None, str | None]:
        embed = render.table_embed(table.public_view(), names)
        found = [f for f in embed.fields if (f.name or "").startswith("Pot")]
        assert len(found) == 1, embed.fields
        return found[0].name, found[0].value

    assert pot_field() == ("Pot", "**3**")  # the blinds, not yet gathered
    for _ in range(3):  # call, call, check: the round ends, its bets are gathered
        seat = table.to_act[0]
        table.act(seat, Check() if table.public_view().to_call == 0 else Call())
    while table.public_view().phase != "bet":
        decision = table.pending[0]
        table.act(decision.seat, Discard(()))
    assert pot_field() == ("Pot", "**6**")
    table.act(table.to_act[0], Bet(4))
    assert pot_field() == ("Pot 10", "Main pot: **6**\nBets this round: 4")


def test_every_quick_amount_of_the_engine_has_a_button_label() -> None:
    """The raise shortcuts are the engine's keys; the table labels each in the reader's
    language. Across stacks from all-in-only to deep, every key it gives has a label."""
    config = TableConfig(structure=NoLimit(2), forced_bets=ForcedBets.with_blinds(1, 2))
    table = Table(config)
    table.sit("1", 100)
    table.sit("2", 100)
    table.start_hand(random.Random(4))
    first = table.pending[0].legal
    assert isinstance(first, BetOptions)
    seen: set[str] = set()
    for stack in (3, 5, 9, 14, 30, 200):
        for pot in (0, 3, 12, 50):
            options = replace(first, max_to=stack, all_in_to=stack, stack=stack, pot=pot)
            seen.update(name for name, _ in options.quick_amounts())
    assert seen == set(panels.QUICK_LABELS)


def test_a_seats_facts_wrap_between_them_not_inside_them() -> None:
    """On a phone a seat's line wraps: it breaks between its facts, never inside "37 chips",
    "drew 1" or the cards a player shows, nor before a separator."""
    table = Table(TableConfig("shotgun"))
    for pid in ("1", "2", "3"):
        table.sit(pid, 100)
    table.start_hand(random.Random(8))
    first = table.pending[0]
    assert isinstance(first.legal, BetOptions) and first.legal.min_to is not None
    table.act(first.seat, Bet(first.legal.min_to))  # opened: the others call, then draw
    while table.in_hand and not all(len(s.face_up) >= 2 for s in table.public_view().seats):
        d = table.pending[0]
        calls = isinstance(d.legal, BetOptions) and d.legal.to_call
        table.act(d.seat, Call() if calls else Timeout())
    view = table.public_view()
    names = {"1": "Alice", "2": "Bob", "3": "Carol"}
    seats = next(f.value or "" for f in render.table_embed(view, names).fields if f.name == "Seats")
    for seat, line in zip(view.seats, seats.splitlines(), strict=True):
        who, *facts = line.split("\u00a0· ")
        assert f"**{names[seat.player_id]}**" in who
        assert facts and all(" " not in fact for fact in facts), facts
        shown = render.cards_text(seat.face_up).replace(" ", "\u00a0")
        assert f"shows\u00a0{shown}" in facts, facts
        assert any(fact.startswith("drew\u00a0") for fact in facts), facts


@pytest.mark.parametrize("variant", ["five-card-draw", "seven-card-draw"])
def test_a_showdown_line_wraps_around_its_cards_not_inside_them(variant: str) -> None:
    """A shown hand's cards stay on one line (and in seven-card draw, the two cards that do
    not play stay together with their words): the line breaks around them, never inside."""
    table = Table(TableConfig(variant, forced_bets=ForcedBets.with_blinds(1, 2)))
    for pid in ("1", "2", "3"):
        table.sit(pid, 100)
    table.start_hand(random.Random(6))
    _play_down(table)
    result = table.result
    assert result is not None and len(result.shown) == 3
    names = {"1": "Alice", "2": "Bob", "3": "Carol"}
    embed = render.showdown_embed(result, names, seat_order=["1", "2", "3"])
    lines = next(f.value or "" for f in embed.fields if f.name == "Showdown").splitlines()
    assert len(lines) == 3
    for line in lines:
        cards = line.split(": ", 1)[1].rsplit(" — ", 1)[0]
        if variant == "seven-card-draw":
            playing, apart = cards.split(" ")
            assert playing.count("\u00a0") == 4 and apart.startswith("(not\u00a0playing:")
        else:
            assert " " not in cards and cards.count("\u00a0") == 4, cards


def test_a_poker_font_that_is_missing_or_unreadable_falls_back_to_the_bundled_one(
    tmp_path, monkeypatch, caplog
) -> None:
    from PIL import ImageFont

    from cogs.ui import card_images

    unreadable = tmp_path / "broken.ttf"
    unreadable.write_text("not a font")
    for chosen in (str(tmp_path / "missing.ttf"), str(unreadable)):
        monkeypatch.setenv("POKER_FONT", chosen)
        card_images.font_file.cache_clear()
        card_images.font.cache_clear()
        try:
            drawn = card_images.font(20)
        finally:
            card_images.font_file.cache_clear()
            card_images.font.cache_clear()
        assert isinstance(drawn, ImageFont.FreeTypeFont)
        assert drawn.path == str(card_images.BUNDLED_FONT)
        assert chosen in caplog.text
