"""The draw coach: exact draw odds shown to a player, at a table or for study.

One job: turn :func:`engine.house.draw_advice` / :func:`engine.house.study_odds` (the odds
engine with the game's rules applied) into text, off the event loop (the counting runs in
:mod:`tables.worker`'s thread).

Commands: ``/odds`` (also in DMs) and ``/poker odds`` (in a server) answer the same way.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

import engine
from cogs import kit, validation
from cogs.translator import _
from engine.hands import Category, HandValue
from engine.house import NoOdds, draw_advice, own_discards, study_odds
from engine.odds import DrawOdds
from i18n import engine_text
from i18n.poker_words import category_name
from tables.errors import TableProblem
from tables.live import LiveTable
from tables.worker import in_worker

if TYPE_CHECKING:
    from cogs.app import PokerBot

log = logging.getLogger("poker.coach")

Interaction = discord.Interaction["PokerBot"]
Advice = list[tuple[tuple[engine.Card, ...], DrawOdds]]
T = TypeVar("T")

# Translators: the subject of "… is too long", "… must be text" (/poker odds' options).
CARDS_OPTION = _.lazy("The list of cards")
DISCARD_OPTION = _.lazy("The discard")
WIDOW_OPTION = _.lazy("The widow card")
NO_ODDS = _.lazy("The coach has no odds for this game: it counts hands of five to nine cards only.")
LOW_TOPS = (9, 8, 7)
GIVE_CARDS = {
    5: _.lazy("Give five cards, not {given}."),
    6: _.lazy("Give six cards, not {given}."),
    7: _.lazy("Give seven cards, not {given}."),
    8: _.lazy("Give eight cards, not {given}."),
    9: _.lazy("Give nine cards, not {given}."),
}
_LOW_TOPS = {10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}


def _percent(part: int, whole: int) -> str:
    share = Fraction(part, whole) * 100 if whole else Fraction(0)
    if 0 < share < 1:
        # Translators: a chance below one per cent.
        return _("<1%")
    # Translators: a chance in per cent, {share} a whole number ("{share} %" in French).
    return _("{share}%", share=round(share))


def _draw_name(discard: Sequence[engine.Card]) -> str:
    if not discard:
        return _("Stand pat")
    # Translators: a draw that throws away {cards} (card symbols like 7♣ 2♠).
    return _("Throw {cards}", cards=" ".join(card.display for card in discard))


def _hand_class(value: HandValue) -> tuple[Category, int]:
    """The class a player names a hand by ("two pair", "9-low"): its category, and for a
    lowball hand without a pair (or a straight or flush where they count) its top card."""
    category = value.category
    if value.ranking.is_low and category is Category.HIGH_CARD:
        return category, value.ranks[0]
    return category, 0


def _class_name(value: HandValue) -> str:
    category, top = _hand_class(value)
    if top:
        # Translators: a lowball hand named by its top card: "9-low", "K-low".
        return _("{top}-low", top=_LOW_TOPS.get(top, str(top)))
    return category_name(category).render()


def better_class(odds: DrawOdds) -> int:
    """How many sets end in a hand of a better class than the hand held: a pair that draws
    two pair or better, a 9-low that draws an 8-low or better. :attr:`DrawOdds.improves` also
    counts a better hand of the same class (a pair of aces with a better kicker)."""
    current = odds.current
    held = _hand_class(current)
    return sum(
        count
        for value, count in odds.outcomes
        if value.score > current.score and _hand_class(value) != held
    )


def _head(discard: Sequence[engine.Card], odds: DrawOdds, recommended: bool) -> str:
    """The first line of a draw's odds: its name, and what it improves to."""
    draw = _draw_name(discard)
    better = _percent(better_class(odds), odds.draws)
    improves = _percent(odds.improves, odds.draws)
    if better == improves:
        if recommended:
            return _(
                "**{draw}** ⭐ recommended · makes a better hand class {better}",
                draw=draw,
                better=better,
            )
        return _("**{draw}** · makes a better hand class {better}", draw=draw, better=better)
    # Translators: "any improvement" also counts a better hand of the same class (better
    # kickers, a lower low of the same top card); "a better hand class" does not.
    if recommended:
        return _(
            "**{draw}** ⭐ recommended · makes a better hand class {better} · "
            "any improvement {improves}",
            draw=draw,
            better=better,
            improves=improves,
        )
    return _(
        "**{draw}** · makes a better hand class {better} · any improvement {improves}",
        draw=draw,
        better=better,
        improves=improves,
    )


def odds_lines(advice: Advice, *, mark_best: bool = True) -> list[str]:
    """One paragraph per discard: what it improves, the final categories, and for lowball the
    chances of a nine, eight and seven low or better (the low half too in high-low)."""
    lines: list[str] = []
    for index, (discard, odds) in enumerate(advice):
        paragraph = [_head(discard, odds, mark_best and index == 0)]
        if not odds.exact:
            paragraph.append(
                _.plural(
                    "An estimate from {count} sample draw.",
                    "An estimate from {count} sample draws.",
                    count=odds.draws,
                )
            )
        classes: dict[str, int] = {}
        for value, count in odds.outcomes:
            name = _class_name(value)
            classes[name] = classes.get(name, 0) + count
        shown = sorted(classes.items(), key=lambda item: -item[1])[:5]
        paragraph.append(
            " · ".join(
                # Translators: a hand class and its chance: "Flush 17%".
                _("{hand} {chance}", hand=label, chance=_percent(count, odds.draws))
                for label, count in shown
            )
        )
        low = odds if odds.ranking.is_low else odds.low
        if low is not None:
            paragraph.append(
                " · ".join(
                    _(
                        "{top}-low or better {chance}",
                        top=top,
                        chance=_percent(low.low_or_better(top), low.draws),
                    )
                    for top in LOW_TOPS
                )
            )
        lines.append("\n".join(paragraph))
    return lines


def _table_advice(
    private: engine.PrivateView,
    public: engine.PublicView,
    rules: engine.GameRules,
    dead: tuple[engine.Card, ...],
) -> str:
    try:
        advice = draw_advice(private, public, rules, dead=dead)
    except NoOdds:
        return NO_ODDS.render()
    return kit.fit_lines(odds_lines(advice), kit.FIELD_LIMIT)


async def coach_text(live: LiveTable, decision: engine.Decision) -> str | None:
    """The coach's lines for ``decision`` (a draw) at a coached table, or None when the table
    has no coach or the decision is not a draw."""
    if not live.settings.coach or not isinstance(decision.legal, engine.DrawOptions):
        return None
    table = live.engine
    # the views are taken here, on the loop: the table may change while the thread counts
    private = table.private_view(decision.seat)
    public = table.public_view()
    rules = table.current_rules
    dead = own_discards(table.events, decision.seat)
    return await in_worker(_table_advice, private, public, rules, dead)


async def prepare_for(live: LiveTable) -> None:
    """Count the table's game once ahead of its first coached draw (a coached table's first
    odds would otherwise take longest)."""
    if not live.settings.coach:
        return
    rules = live.engine.current_rules
    if rules.min_hand_size != 5:
        return
    ranking = rules.low if rules.split is engine.Split.LOW else rules.high
    wild = rules.wild.resolve(rules.deck.cards())
    try:
        await in_worker(_prepare, ranking, wild, rules.deck)
    except ValueError:
        log.warning("could not prepare the odds of table %s", live.id, exc_info=True)


def _prepare(ranking: engine.Ranking, wild: frozenset[engine.Card], deck: engine.DeckKind) -> None:
    engine.odds.prepare(ranking, wild=wild, deck=deck)


def _study(
    cards: tuple[engine.Card, ...],
    rules: engine.GameRules,
    discard: tuple[engine.Card, ...] | None,
    widow: engine.Card | None,
) -> Advice:
    return study_odds(cards, rules, discard, widow=widow)


def _parse(text: str, *, discard: bool = False) -> tuple[engine.Card, ...]:
    try:
        return engine.parse_cards(text)
    except ValueError as exc:
        reason = engine_text.refusal(exc)
        # Translators: {reason} is why the cards could not be read (already translated).
        if discard:
            raise TableProblem(
                _("The discard: {reason}. Write cards like `As Kd 7h 7c 2s`.", reason=reason)
            ) from exc
        raise TableProblem(
            _("The cards: {reason}. Write cards like `As Kd 7h 7c 2s`.", reason=reason)
        ) from exc


def _parse_widow(text: str) -> engine.Card:
    try:
        cards = engine.parse_cards(text)
    except ValueError as exc:
        # Translators: {reason} is why the card could not be read (already translated).
        raise TableProblem(
            _(
                "The widow card: {reason}. Write one card like `7h`.",
                reason=engine_text.refusal(exc),
            )
        ) from exc
    if len(cards) != 1:
        raise TableProblem(_("Give one widow card, like `7h`."))
    return cards[0]


def odds_options(command: Any) -> Any:
    """The options of ``/odds`` and ``/poker odds``, described once."""
    described = app_commands.describe(
        cards="Five cards (seven in seven-card draw), e.g. As Kd 7h 7c 2s",
        game="The game (default: five-card draw)",
        discard="Only these cards' odds, e.g. As Kd 2s",
        widow="Wild widow: the face-up card, whose rank is wild, e.g. 7h",
    )(command)
    return app_commands.autocomplete(game=kit.variant_choices)(described)


async def send_odds(
    interaction: Interaction, cards: object, game: object, discard: object, widow: object = None
) -> None:
    """Answer ``/odds`` or ``/poker odds``: the best draws of a hand, or one discard's odds."""
    # Discord's option types bind its client, not a forged request
    cards = validation.check_text(cards, CARDS_OPTION, 100)
    if discard is not None:
        discard = validation.check_text(discard, DISCARD_OPTION, 100)
    if widow is not None:
        widow = validation.check_text(widow, WIDOW_OPTION, 20)
    variant = validation.known_variant("five-card-draw" if game is None else game)
    hand = _parse(cards)
    thrown = _parse(discard, discard=True) if discard else None
    face_up = _parse_widow(widow) if widow else None
    size = variant.rules.dealt_per_player if 5 <= variant.rules.dealt_per_player <= 9 else 5
    if len(hand) != size:
        raise TableProblem(GIVE_CARDS[size].render(given=len(hand)))
    if thrown is not None and any(card not in hand for card in thrown):
        raise TableProblem(_("The discard must be cards of the hand."))
    await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        advice = await in_worker(_study, hand, variant.rules, thrown, face_up)
    except NoOdds:
        await interaction.followup.send(NO_ODDS.render(), ephemeral=True)
        return
    except ValueError as exc:
        text = engine_text.refusal(exc)
        await interaction.followup.send(f"{text[:1].upper()}{text[1:]}.", ephemeral=True)
        return
    embed = discord.Embed(
        title=_("Draw odds: {cards}", cards=" ".join(card.display for card in hand)),
        description=kit.fit_lines(
            odds_lines(advice, mark_best=thrown is None), kit.DESCRIPTION_LIMIT, sep="\n\n"
        ),
        colour=kit.GREEN,
    )
    game = engine_text.variant_name(variant)
    if all(odds.exact for _discard, odds in advice):
        footer = _("{game} · exact counts over every possible draw", game=game)
    else:
        footer = _(
            "{game} · exact counts where the draws are few, else estimates from seeded samples",
            game=game,
        )
    embed.set_footer(text=footer)
    await interaction.followup.send(embed=embed, ephemeral=True)


class Coach(commands.Cog):
    """``/odds``: the draw odds of any hand, in a server or a DM."""

    def __init__(self, bot: PokerBot) -> None:
        self.bot = bot
        self._warming: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        # restored coached tables: their first draw panel should not pay the first count
        coached = [live for live in self.bot.tables.tables.values() if live.settings.coach]
        if coached:
            self._warming = asyncio.create_task(self._warm(coached))

    @staticmethod
    async def _warm(tables: list[LiveTable]) -> None:
        for live in tables:
            await prepare_for(live)

    @app_commands.command(name="odds", description="The exact odds of each draw of a hand.")
    @odds_options
    async def odds(
        self,
        interaction: Interaction,
        cards: str,
        game: str | None = None,
        discard: str | None = None,
        widow: str | None = None,
    ) -> None:
        await send_odds(interaction, cards, game, discard, widow)


async def setup(bot: PokerBot) -> None:
    await bot.add_cog(Coach(bot))


__all__ = [
    "Coach",
    "better_class",
    "coach_text",
    "in_worker",
    "odds_lines",
    "prepare_for",
    "send_odds",
]
