"""The ``/poker`` slash commands: open, join, deal, end and configure a channel's table.

One job: turn each command's options into a table-service call, then show the result through
the presenter (:mod:`cogs.presenter`). Poker rules are the engine's, refusals are raised as
:class:`~tables.errors.TableProblem` and answered by the bot's one error handler
(:class:`cogs.app.PokerTree`). Buttons and panels are routed in :mod:`cogs.routing`.

Adding a slash command: a method decorated with ``@poker.command`` below (or, for another
group, a new cog module listed in ``cogs.app.EXTENSIONS``).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import engine
from cogs import history as hand_history
from cogs import kit, languages, validation
from cogs.coach import odds_options, send_odds
from cogs.coach import prepare_for as coach_prepare
from cogs.ledger import post_closing_ledger
from cogs.presenter import TABLE_BELOW
from cogs.translator import _
from cogs.ui import house_rules, panels, render
from engine.house import LEVELS, Level
from engine.seating import default_buy_ins
from engine.stakes import (
    STRUCTURE_NAMES,
    forced_bets_for,
    structure_for,
    structure_kind,
    structure_unit,
)
from engine.timebank import DEFAULT_TIME_BANK
from i18n import engine_text, speaking
from tables.errors import TableProblem
from tables.live import LiveTable, TableSettings

if TYPE_CHECKING:
    from cogs.app import PokerBot

log = logging.getLogger("poker.commands")

Interaction = discord.Interaction["PokerBot"]

# Translators: the first suggestion of /poker create's and /poker settings' language option
# (at most 100 characters): the table takes the server's language.
SERVERS_LANGUAGE = _.lazy("The server's language")


def build_stakes(
    variant: engine.Variant,
    betting: str | None,
    stake: int | None,
    ante: int | None,
    blinds: str | None,
) -> tuple[engine.Structure, engine.ForcedBets]:
    """Translate the /poker create options into the engine's stakes (its defaults otherwise).

    :raises ValueError: stakes the engine refuses, with its reason.
    """
    structure: engine.Structure = variant.structure
    if betting is not None or stake is not None:
        kind = betting or structure_kind(variant.structure)
        structure = structure_for(kind, stake or structure_unit(variant.structure))
    shape = None if blinds is None else validation.parse_blinds(blinds).amounts
    return structure, forced_bets_for(ante, shape, variant.forced_bets)


class Poker(commands.Cog):
    """The /poker command group."""

    poker = app_commands.Group(
        name="poker", description="Play draw poker at this channel's table.", guild_only=True
    )

    def __init__(self, bot: PokerBot) -> None:
        self.bot = bot
        self.tables = bot.tables
        self.presenter = bot.presenter

    def _table_here(self, interaction: Interaction) -> LiveTable:
        live = self.tables.in_channel(interaction.channel_id or 0)
        if live is None:
            raise TableProblem(
                _("There is no table in this channel. Start one with `/poker create`.")
            )
        return live

    # -- a table's channel gone -------------------------------------------------------------

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._channel_gone(channel.id, "its channel was deleted")

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self._channel_gone(payload.thread_id, "its thread was deleted")

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        # (Fired when the bot is removed from the server, not in an outage.)
        for live in self.bot.tables.in_guild(guild.id):
            await self._close_gone(live, "the bot was removed from its server")

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        # A channel deleted while the bot was away: nobody told this process, and the table
        # restored in it would hold its players' chips for good.
        for live in list(self.bot.tables.tables.values()):
            if self.bot.get_channel(live.channel_id) is not None:
                continue
            try:
                # (Not in the cache is not gone: an archived thread is not cached.)
                await self.bot.fetch_channel(live.channel_id)
            except discord.NotFound:
                await self._close_gone(live, "its channel was deleted while the bot was away")
            except discord.HTTPException as exc:
                log.warning("table %s: its channel could not be read: %s", live.id, exc)

    async def _channel_gone(self, channel_id: int, why: str) -> None:
        live = self.bot.tables.in_channel(channel_id)
        if live is not None:
            await self._close_gone(live, why)

    async def _close_gone(self, live: LiveTable, why: str) -> None:
        try:
            await self.bot.tables.abandon(live, why)
        except Exception:
            log.exception("table %s: closing it (%s) failed", live.id, why)

    @poker.command(name="create", description="Open a poker table in this channel.")
    @app_commands.describe(
        variant="The game to play (start typing to search the catalogue)",
        betting="Betting structure (default: the game's usual one)",
        stake="Small bet (fixed limit) or minimum bet, in chips",
        ante="Ante per player, in chips",
        blinds="Blinds as small/big, e.g. 1/2 (or 1/2/4 with a straddle)",
        seats="Number of seats",
        min_buy_in="Smallest buy-in, in chips",
        max_buy_in="Largest buy-in, in chips",
        timer="Seconds each player has to act",
        auto_deal="Seconds between hands before the next deal (0 = press Deal)",
        time_bank=kit.TIME_BANK_HELP,
        dealers_choice="Each dealer picks the game (the variant above is the default)",
        coach="Show each player the odds of their own draws (off by default)",
        muck="A beaten hand may be mucked unseen at the showdown (off: every hand is shown)",
        language="The language of the table's messages (default: the server's)",
    )
    @app_commands.choices(
        betting=[app_commands.Choice(name=v, value=k) for k, v in STRUCTURE_NAMES.items()],
    )
    @app_commands.autocomplete(
        variant=kit.variant_choices, language=languages.language_autocomplete(SERVERS_LANGUAGE)
    )
    async def create(
        self,
        interaction: Interaction,
        variant: str = "five-card-draw",
        betting: str | None = None,
        stake: kit.StakeOption | None = None,
        ante: kit.AnteOption | None = None,
        blinds: str | None = None,
        seats: kit.SeatsOption | None = None,
        min_buy_in: kit.MinBuyInOption | None = None,
        max_buy_in: kit.MaxBuyInOption | None = None,
        timer: kit.TimerOption = 60,
        auto_deal: kit.AutoDealOption = 8,
        time_bank: kit.TimeBankOption = DEFAULT_TIME_BANK,
        dealers_choice: bool = False,
        coach: bool = False,
        muck: bool = False,
        language: str | None = None,
    ) -> None:
        if interaction.guild_id is None or interaction.channel_id is None:
            raise TableProblem(_("Tables live in server channels."))
        table_language = languages.check_language(language)
        # Discord's Range and choices bind its client, not a forged request: check each option.
        variant = validation.check_variant_slug(variant)
        betting = validation.check_betting(betting)
        stake = validation.STAKE.optional(stake)
        ante = validation.ANTE.optional(ante)
        seats = validation.SEATS.optional(seats)
        min_buy_in = validation.MIN_BUY_IN.optional(min_buy_in)
        max_buy_in = validation.MAX_BUY_IN.optional(max_buy_in)
        timer = validation.TIMER.check(timer)
        auto_deal = validation.AUTO_DEAL.check(auto_deal)
        time_bank = validation.TIME_BANK.check(time_bank)
        dealers_choice = validation.check_flag(dealers_choice, validation.option("dealers_choice"))
        coach = validation.check_flag(coach, validation.option("coach"))
        muck = validation.check_flag(muck, validation.option("muck"))
        chosen = validation.known_variant(variant)
        try:
            structure, forced = build_stakes(chosen, betting, stake, ante, blinds)
        except ValueError as exc:  # the engine's own check of the stakes, with its reason
            # Translators: {reason} is the engine's reason, already in the reader's language.
            raise TableProblem(
                _("Those stakes don't work: {reason}.", reason=engine_text.refusal(exc))
            ) from exc
        try:
            config = engine.TableConfig(
                variant=chosen.slug,
                structure=structure,
                forced_bets=forced,
                max_seats=seats,
                dealers_choice=dealers_choice,
                options=engine.TableOptions(muck_losers=muck),
            )
        except ValueError as exc:
            raise TableProblem(engine_text.refusal(exc)) from exc
        low, high = default_buy_ins(structure, forced)
        low = min_buy_in if min_buy_in is not None else low
        high = max_buy_in if max_buy_in is not None else max(low, high)
        validation.check_buy_ins(low, high)
        settings = TableSettings(
            low,
            high,
            action_seconds=timer,
            auto_deal_seconds=auto_deal,
            coach=coach,
            time_bank=time_bank,
        )
        live = await self.tables.create(
            interaction.guild_id, interaction.channel_id, interaction.user.id, config, settings
        )
        if table_language is not None:
            await languages.set_table_language(self.tables, live, table_language)
        self.presenter.spawn(coach_prepare(live))
        embed, view = self.presenter.lobby_message(live)
        # Translators: the title of a new table's message in the channel; {table} is its name.
        embed.title = _(
            "New table: {table}", table=embed.title, language=languages.channel_language(live)
        )
        response = await interaction.response.send_message(embed=embed, view=view)
        if response.message_id is not None:
            await self.presenter.message_posted(live, response.message_id)

    @poker.command(name="join", description="Sit down at this channel's table.")
    @app_commands.describe(buy_in="Chips to bring from your bankroll (default: the minimum)")
    async def join(
        self,
        interaction: Interaction,
        buy_in: kit.BuyInOption | None = None,
    ) -> None:
        live = self._table_here(interaction)
        buy_in = validation.BUY_IN.optional(buy_in)
        seat = await self.tables.join(
            live, interaction.user.id, interaction.user.display_name, buy_in
        )
        await interaction.response.send_message(
            _.plural(
                "{player} sits down in seat {seat} with {count} chip.",
                "{player} sits down in seat {seat} with {count} chips.",
                count=live.engine.stack(str(interaction.user.id)),
                player=interaction.user.mention,
                seat=seat + 1,
                language=languages.channel_language(live),
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        if not live.engine.in_hand:
            await self.presenter.refresh(live)

    @poker.command(name="leave", description="Stand up; your chips go back to your bankroll.")
    async def leave(self, interaction: Interaction) -> None:
        live = self._table_here(interaction)
        paid, outcome = await self.tables.leave(live, interaction.user.id)
        if paid is None:
            await interaction.response.send_message(
                _("You fold and will stand up when this hand ends."), ephemeral=True
            )
            if outcome is not None:
                await self.presenter.present(live, outcome)
            return
        await interaction.response.send_message(
            _.plural(
                "{player} stands up with {count} chip.",
                "{player} stands up with {count} chips.",
                count=paid,
                player=interaction.user.mention,
                language=languages.channel_language(live),
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        # Paid now, even during a hand (not dealt in, or the dealer still choosing the game):
        # the seat is empty now, and the table says so.
        await self.presenter.refresh(live)

    @poker.command(name="start", description="Deal the next hand.")
    async def start(self, interaction: Interaction) -> None:
        live = self._table_here(interaction)
        if not live.seated(interaction.user.id):
            raise TableProblem(_("Only seated players can deal."))
        outcome = await self.tables.start_hand(live)
        await interaction.response.send_message(
            _("Dealing hand\u00a0#{number}.", number=str(live.engine.hand_number)), ephemeral=True
        )
        await self.presenter.present(live, outcome, interaction)

    @poker.command(name="end", description="Close this channel's table and pay everyone out.")
    async def end(self, interaction: Interaction) -> None:
        live = self._table_here(interaction)
        perms = interaction.permissions
        if interaction.user.id != live.creator_id and not perms.manage_guild:
            raise TableProblem(_("Only the table's creator or a server manager can end it."))
        if await self.tables.end_after_hand(live, interaction.user.id):
            await interaction.response.send_message(
                _(
                    "A hand is being played: the table will close as soon as it is over.",
                    language=languages.channel_language(live),
                )
            )
            return
        payouts = await self.tables.end(live)
        with speaking(languages.channel_language(live)):
            closed = panels.closed_embed(live.names, payouts)
        await interaction.response.send_message(embed=closed)
        await self.presenter.retire_closed(live)
        await post_closing_ledger(self.bot, live.id, live.channel_id, interaction)

    @poker.command(name="sitout", description="Sit out from the next hand (keep your seat).")
    async def sitout(self, interaction: Interaction) -> None:
        live = self._table_here(interaction)
        await self.tables.sit_out(live, interaction.user.id, True)
        await interaction.response.send_message(
            _("You'll sit out until `/poker back`."), ephemeral=True
        )

    @poker.command(name="back", description="Come back in after sitting out.")
    async def back(self, interaction: Interaction) -> None:
        live = self._table_here(interaction)
        await self.tables.sit_out(live, interaction.user.id, False)
        await interaction.response.send_message(
            _("Welcome back: you're in the next hand."), ephemeral=True
        )

    @poker.command(
        name="settings", description="Show or change this table's settings and house rules."
    )
    @app_commands.describe(
        timer="Seconds each player has to act",
        auto_deal="Seconds between hands before the next deal (0 = press Deal)",
        time_bank=kit.TIME_BANK_HELP,
        min_buy_in="Smallest buy-in, in chips",
        max_buy_in="Largest buy-in, in chips",
        coach="Show each player the odds of their own draws",
        newcomers="How a player who sits down after the first deal joins the game",
        muck="A beaten hand may be mucked unseen at the showdown",
        pass_out_reante="After a deal nobody opens, everyone antes again (off: no new antes)",
        pass_out_deal_passes="After a deal nobody opens, the deal passes left (off: same dealer)",
        second_round_from_opener="After the draw the opener bets first (off: dealer's left)",
        draw_limit="How many cards a player may draw where the game leaves it to the table",
        diablo_cap="Most a Diablo opener puts in a new pot, in chips (0 = no cap)",
        no_five_in_a_row="Nobody draws five cards in a row off the deck (the casino rule)",
        progressive_back_down="Progressive openers step back down after aces (off: stay at aces)",
        language="The language of the table's messages",
    )
    @app_commands.autocomplete(language=languages.language_autocomplete(SERVERS_LANGUAGE))
    @app_commands.choices(
        newcomers=[app_commands.Choice(name=v, value=k) for k, v in house_rules.NEWCOMERS.items()],
        draw_limit=[
            app_commands.Choice(name=house_rules.describe("draw_limit", limit), value=key)
            for key, limit in house_rules.DRAW_LIMITS.items()
        ],
    )
    async def settings(
        self,
        interaction: Interaction,
        timer: kit.TimerOption | None = None,
        auto_deal: kit.AutoDealOption | None = None,
        time_bank: kit.TimeBankOption | None = None,
        min_buy_in: kit.MinBuyInOption | None = None,
        max_buy_in: kit.MaxBuyInOption | None = None,
        coach: bool | None = None,
        newcomers: str | None = None,
        muck: bool | None = None,
        pass_out_reante: bool | None = None,
        pass_out_deal_passes: bool | None = None,
        second_round_from_opener: bool | None = None,
        draw_limit: str | None = None,
        diablo_cap: kit.DiabloCapOption | None = None,
        no_five_in_a_row: bool | None = None,
        progressive_back_down: bool | None = None,
        language: str | None = None,
    ) -> None:
        live = self._table_here(interaction)
        table_language = languages.check_language(language)
        timer = validation.TIMER.optional(timer)
        auto_deal = validation.AUTO_DEAL.optional(auto_deal)
        time_bank = validation.TIME_BANK.optional(time_bank)
        min_buy_in = validation.MIN_BUY_IN.optional(min_buy_in)
        max_buy_in = validation.MAX_BUY_IN.optional(max_buy_in)
        if coach is not None:
            coach = validation.check_flag(coach, validation.option("coach"))
        asked = {
            "newcomers": newcomers,
            "draw_limit": draw_limit,
            "diablo_cap": diablo_cap,
            "muck_losers": muck,
            "pass_out_reante": pass_out_reante,
            "pass_out_deal_passes": pass_out_deal_passes,
            "second_round_from_opener": second_round_from_opener,
            "no_five_in_a_row": no_five_in_a_row,
            "progressive_back_down": progressive_back_down,
        }
        # Checked now (a bad value changes nothing); applied once the table is free, to the
        # rules waiting for the next deal then: a change already waiting is built on.
        rules = house_rules.requested(live.engine.next_options, **asked)
        changes = (timer, auto_deal, time_bank, min_buy_in, max_buy_in, coach, rules)
        if language is None and all(value is None for value in changes):
            await self.presenter.show_settings(interaction, live)
            return
        if not kit.runs_table(interaction, live.creator_id):
            raise TableProblem(
                _("Only the table's creator or a server manager can change settings.")
            )
        if all(value is None for value in changes):
            await languages.set_table_language(self.tables, live, table_language)
            spoken = languages.native_name(languages.channel_language(live))
            await kit.reply(interaction, _("This table now speaks {name}.", name=spoken))
            self.presenter.spawn(self.presenter.refresh(live))
            return
        # The settings first: the service refuses what does not fit (a smallest buy-in above
        # the largest...), and a refused change must leave the language as it was too.
        done = await self.tables.update_settings(
            live,
            action_seconds=timer,
            auto_deal_seconds=auto_deal,
            min_buy_in=min_buy_in,
            max_buy_in=max_buy_in,
            coach=coach,
            rules=None if rules is None else lambda base: house_rules.requested(base, **asked),
            time_bank=time_bank,
        )
        if language is not None:
            await languages.set_table_language(self.tables, live, table_language)
        with speaking(languages.channel_language(live)):  # posted for the channel
            # Translators: {settings} lists the table's settings.
            text = _("Table settings: {settings}.", settings=done.settings.describe())
            if rules is not None:
                announced = house_rules.announce(live.engine, done.rules_before, done.rules_after)
                text += "\n" + (announced or _("House rules unchanged."))
        await interaction.response.send_message(text[:2000])
        if coach:
            await coach_prepare(live)
        if language is not None or not live.engine.in_hand:
            # Between hands the table message's footer shows the settings (buy-in, timer...)
            # and the house rules: it shows the new ones; a new language redraws it at once.
            await self.presenter.refresh(live)

    @poker.command(name="addbot", description="Seat a house player (the bot plays it).")
    @app_commands.describe(level="How well it plays (default: normal)")
    @app_commands.choices(
        level=[app_commands.Choice(name=level.value, value=level.value) for level in LEVELS]
    )
    async def addbot(self, interaction: Interaction, level: str = "normal") -> None:
        live = self._table_here(interaction)
        level = validation.check_choice(
            level, validation.option("level"), tuple(lv.value for lv in LEVELS)
        )
        if not live.seated(interaction.user.id) and not interaction.permissions.manage_guild:
            raise TableProblem(_("Only seated players or a server manager can add house players."))
        seat = await self.tables.add_house(live, Level(level))
        pid = live.engine.public_view().seats
        name = next(live.names.get(s.player_id, s.player_id) for s in pid if s.seat == seat)
        await interaction.response.send_message(
            _.plural(
                "{player} sits down in seat {seat} with {count} chip.",
                "{player} sits down in seat {seat} with {count} chips.",
                count=live.settings.min_buy_in,
                player=name,
                seat=seat + 1,
                language=languages.channel_language(live),
            )
        )
        if not live.engine.in_hand:
            await self.presenter.refresh(live)

    @poker.command(name="removebot", description="Stand a house player up.")
    async def removebot(self, interaction: Interaction) -> None:
        live = self._table_here(interaction)
        if not live.seated(interaction.user.id) and not interaction.permissions.manage_guild:
            raise TableProblem(
                _("Only seated players or a server manager can remove house players.")
            )
        name, (paid, outcome) = await self.tables.remove_house(live)
        language = languages.channel_language(live)
        if paid is None:
            text = _(
                "{player} folds and stands up when this hand ends.", player=name, language=language
            )
        else:
            text = _.plural(
                "{player} stands up with {count} chip.",
                "{player} stands up with {count} chips.",
                count=paid,
                player=name,
                language=language,
            )
        await interaction.response.send_message(text)
        if outcome is not None:
            await self.presenter.present(live, outcome)
        elif paid is not None or not live.engine.in_hand:
            await self.presenter.refresh(live)

    @poker.command(name="odds", description="The exact odds of each draw of a hand.")
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

    @poker.command(name="rules", description="How a game is played.")
    @app_commands.describe(variant="The game (default: this channel's game, or the list)")
    @app_commands.autocomplete(variant=kit.variant_choices)
    async def rules(self, interaction: Interaction, variant: str | None = None) -> None:
        if variant is not None:
            variant = validation.check_variant_slug(variant)
        live = self.tables.in_channel(interaction.channel_id or 0)
        if live is not None and variant in (None, live.engine.config.variant):
            embed = self.presenter.rules_embed(live)
            await interaction.response.send_message(embed=embed, ephemeral=True)
            return
        if variant is None:
            lines = [
                # Translators: a line of /poker rules' list of games; {slug} is typed as is.
                _("**{game}** (`{slug}`)", game=engine_text.variant_name(v), slug=v.slug)
                for v in engine.list_variants()
            ]
            embed = discord.Embed(
                title=_("Games I deal"),
                description=kit.fit_lines(lines, kit.DESCRIPTION_LIMIT),
                colour=kit.GREEN,
            )
            await interaction.response.send_message(embed=embed, ephemeral=True)
            return
        try:
            chosen = engine.get_variant(variant)
        except (KeyError, ValueError) as exc:
            raise TableProblem(_("I don't know the game “{game}”.", game=variant)) from exc
        await interaction.response.send_message(embed=render.variant_embed(chosen), ephemeral=True)

    @poker.command(name="help", description="How to play poker with this bot.")
    async def help(self, interaction: Interaction) -> None:
        embed = discord.Embed(title=_("Draw poker: how it works here"), colour=kit.GREEN)
        # Translators: **Sit down**, **Deal**, **My hand** and **Settings** are the table's
        # buttons (use their translations); the /commands stay in English.
        embed.description = _(
            "**/poker create** opens a table in this channel; **Sit down** or **/poker join** "
            "buys in from your bankroll. **Deal** (or /poker start) deals a hand.\n"
            "Your cards arrive by DM, and **My hand** shows them any time. Act with the "
            "buttons on the table message; discards and other private choices open a panel "
            "only you can see.\n**/poker leave** stands you up with your chips; "
            "**/balance**, **/daily**, **/leaderboard** and **/stats** track your bankroll."
        )
        embed.add_field(
            name=_("House rules"),
            # Translators: a field of at most 1024 characters.
            value=_(
                "**Settings** (or **/poker settings**) lists the rules this table plays by "
                "where home games differ; the table's creator changes them with /poker settings."
            ),
            inline=False,
        )
        embed.add_field(
            name=_("Fair deals"),
            # Translators: a field of at most 1024 characters.
            value=_(
                "Every hand shows a commitment to its shuffled deck before the first action; "
                "**/poker verify** checks it once the hand is over."
            ),
            inline=False,
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @poker.command(name="history", description="The last hands played at this channel's table.")
    @app_commands.describe(table="A table id (default: this channel's table)")
    async def history(self, interaction: Interaction, table: int | None = None) -> None:
        if table is not None:
            table = validation.check_id(table, validation.TABLE_ID)
        if table is None:
            live = self.tables.in_channel(interaction.channel_id or 0)
            if live is None:
                raise TableProblem(_("There is no table in this channel; give a table id."))
            table = live.id
        await hand_history.send_history(interaction, table)

    @poker.command(name="hand", description="Replay a hand from the history.")
    @app_commands.describe(hand="The hand id (from /poker history)", phh="Attach a .phh file")
    async def hand(self, interaction: Interaction, hand: int, phh: bool = False) -> None:
        hand = validation.check_id(hand, validation.HAND_ID)
        phh = validation.check_flag(phh, validation.option("phh"))
        await hand_history.send_hand(interaction, hand, with_phh=phh)

    @poker.command(name="verify", description="Check a finished hand's deck commitment.")
    @app_commands.describe(hand="The hand id (from /poker history)")
    async def verify(self, interaction: Interaction, hand: int) -> None:
        hand = validation.check_id(hand, validation.HAND_ID)
        await hand_history.send_verify(interaction, hand)

    @poker.command(name="table", description="Post this channel's table again at the bottom.")
    async def table(self, interaction: Interaction) -> None:
        live = self._table_here(interaction)
        link = self.presenter.just_reposted(live)
        if link is not None:
            await kit.reply(
                interaction, _("The table was posted again a moment ago: {link}", link=link)
            )
            return
        await interaction.response.send_message(TABLE_BELOW.render(), ephemeral=True)
        await self.presenter.repost(live, interaction)

    @poker.command(name="rebuy", description="Add chips to your stack between hands.")
    @app_commands.describe(amount="Chips to add (default: up to the table's smallest buy-in)")
    async def rebuy(
        self,
        interaction: Interaction,
        amount: kit.RebuyOption | None = None,
    ) -> None:
        live = self._table_here(interaction)
        amount = validation.REBUY.optional(amount)
        added = await self.tables.rebuy(live, interaction.user.id, amount)
        stack = live.engine.stack(str(interaction.user.id))
        await kit.reply(
            interaction,
            _.plural(
                "You add {count} chip: your stack is {stack}.",
                "You add {count} chips: your stack is {stack}.",
                count=added,
                stack=stack,
            ),
        )
        await self.presenter.refresh(live)  # (during a hand: a stack not in play)

    @poker.command(name="notify", description="Be pinged when it's your turn (every table).")
    @app_commands.describe(setting="on (the default) or off")
    @app_commands.choices(
        setting=[
            app_commands.Choice(name="on", value="on"),
            app_commands.Choice(name="off", value="off"),
        ]
    )
    async def notify(self, interaction: Interaction, setting: str) -> None:
        setting = validation.check_choice(setting, validation.option("setting"), ("on", "off"))
        on = setting == "on"
        await self._set_preferences(interaction, notify=on)
        await kit.reply(
            interaction,
            _("I'll ping you when it's your turn.") if on else _("No more turn pings for you."),
        )

    @poker.command(name="deck", description="Card pictures with two or four suit colours.")
    @app_commands.describe(colours="four: clubs green and diamonds blue, easier on a phone")
    @app_commands.choices(
        colours=[
            app_commands.Choice(name="two", value="two"),
            app_commands.Choice(name="four", value="four"),
        ]
    )
    async def deck(self, interaction: Interaction, colours: str) -> None:
        colours = validation.check_choice(colours, validation.option("colours"), ("two", "four"))
        await self._set_preferences(interaction, four_colour=colours == "four")
        await kit.reply(
            interaction,
            _("Your card pictures now use four suit colours.")
            if colours == "four"
            else _("Your card pictures now use two suit colours."),
        )

    async def _set_preferences(self, interaction: Interaction, **change: bool) -> None:
        """Save a member's preference and keep the presenter's copy in step."""
        prefs = await self.bot.db.set_preferences(interaction.user.id, **change)
        self.presenter.remember_preferences(interaction.user.id, prefs)


async def setup(bot: PokerBot) -> None:
    await bot.add_cog(Poker(bot))


__all__ = ["Poker", "build_stakes"]
