"""The Discord layer's shared toolkit: one palette, one chips formatter, one way to refuse.

Every cog and every renderer takes these from here instead of keeping its own copy::

    from cogs import kit
    from tables.errors import Refusal

    embed = discord.Embed(title="Chips", colour=kit.GOLD)
    embed.add_field(name="Bankroll", value=kit.chips(12345))          # "12,345"
    embed.add_field(name="Next bonus", value=kit.when(next_at))        # "in 3 hours"
    raise Refusal("The daily bonus is turned off on this server.")     # ephemeral answer
    await kit.reply(interaction, "Done.")                              # ephemeral, any time
    async with kit.held_in_time(run.lock, interaction): ...            # answered by 3 s

Raising a :class:`~tables.errors.Refusal` (or a subclass such as
:class:`~tables.errors.TableProblem`) from a slash command or a component's handler is enough:
:func:`answer_failure`, called by the command tree (:class:`cogs.app.PokerTree`) and by the
router (:mod:`cogs.routing`) alike, answers it. Nothing here pings anyone (:data:`NO_PINGS`).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import unicodedata
from collections.abc import AsyncIterator, Awaitable, Sequence
from datetime import UTC, datetime
from typing import Any, Final, Protocol, TypeVar

import discord
from babel.numbers import format_decimal
from discord import app_commands
from discord.ext import commands

import engine
import i18n
from cogs import transport, validation
from cogs.metrics import Metrics
from cogs.translator import _
from cogs.transport import ANSWER_WITHIN as ANSWER_WITHIN
from data import DataError
from i18n import Language, LazyString, engine_text
from i18n.translator import integer_text
from tables.errors import Refusal

log = logging.getLogger("poker.kit")

__all__ = [
    "BLUE",
    "GOLD",
    "GREEN",
    "GREY",
    "NO_PINGS",
    "RED",
    "UNEXPECTED",
    "announce",
    "answer_failure",
    "chips",
    "discord_failed",
    "held_in_time",
    "reply",
    "signed",
    "when",
]

# One palette for every embed: the felt, the chips, the card backs and the red suits of the
# card pictures, so messages and pictures match.
GREEN: Final = discord.Colour.from_rgb(22, 120, 70)
"""A table in play, a success, a catalogue."""
GOLD: Final = discord.Colour.from_rgb(214, 170, 40)
"""Chips and cards: bankrolls, hands, showdowns, private panels."""
GREY: Final = discord.Colour.from_rgb(110, 110, 120)
"""Idle or over: a table between hands, a closed table, an empty list."""
RED: Final = discord.Colour.from_rgb(200, 30, 45)
"""Chips taken away, a failed check."""
BLUE: Final = discord.Colour.from_rgb(40, 70, 160)
"""Information: settings, stats, logs."""

NO_PINGS: Final = discord.AllowedMentions.none()

# ------------------------------------------------------------------------------ option ranges
# Each slash option's range, read from the bound its check uses (:mod:`cogs.validation`): what
# Discord's client offers is exactly what the bot accepts, declared once.
StakeOption = app_commands.Range[int, validation.STAKE.low, validation.STAKE.high]
AnteOption = app_commands.Range[int, validation.ANTE.low, validation.ANTE.high]
SeatsOption = app_commands.Range[int, validation.SEATS.low, validation.SEATS.high]
MinBuyInOption = app_commands.Range[int, validation.MIN_BUY_IN.low, validation.MIN_BUY_IN.high]
MaxBuyInOption = app_commands.Range[int, validation.MAX_BUY_IN.low, validation.MAX_BUY_IN.high]
BuyInOption = app_commands.Range[int, validation.BUY_IN.low, validation.BUY_IN.high]
RebuyOption = app_commands.Range[int, validation.REBUY.low, validation.REBUY.high]
TimerOption = app_commands.Range[int, validation.TIMER.low, validation.TIMER.high]
AutoDealOption = app_commands.Range[int, validation.AUTO_DEAL.low, validation.AUTO_DEAL.high]
TimeBankOption = app_commands.Range[int, validation.TIME_BANK.low, validation.TIME_BANK.high]
TIME_BANK_HELP = "Extra seconds each player gets once the timer runs out (0 = no time bank)"
"""The time_bank option's description, for tables and tournaments alike."""
DiabloCapOption = app_commands.Range[int, validation.DIABLO_CAP.low, validation.DIABLO_CAP.high]
StartingStackOption = app_commands.Range[
    int, validation.STARTING_STACK.low, validation.STARTING_STACK.high
]
LevelsOption = app_commands.Range[int, validation.LEVELS.low, validation.LEVELS.high]
LevelMinutesOption = app_commands.Range[
    float, validation.LEVEL_MINUTES.low, validation.LEVEL_MINUTES.high
]
PlayersOption = app_commands.Range[int, validation.PLAYERS.low, validation.PLAYERS.high]
RebuysOption = app_commands.Range[int, validation.REBUYS.low, validation.REBUYS.high]
RebuyLevelsOption = app_commands.Range[
    int, validation.REBUY_LEVELS.low, validation.REBUY_LEVELS.high
]
AddonOption = app_commands.Range[int, validation.ADDON.low, validation.ADDON.high]
LateRegLevelsOption = app_commands.Range[
    int, validation.LATE_REG_LEVELS.low, validation.LATE_REG_LEVELS.high
]
ChipsOption = app_commands.Range[int, validation.CHIPS.low, validation.CHIPS.high]
ChipsMovedOption = app_commands.Range[int, validation.CHIPS_MOVED.low, validation.CHIPS_MOVED.high]
StartingBankrollOption = app_commands.Range[
    int, validation.STARTING_BANKROLL.low, validation.STARTING_BANKROLL.high
]
DailyAmountOption = app_commands.Range[
    int, validation.DAILY_AMOUNT.low, validation.DAILY_AMOUNT.high
]
DailyCooldownHoursOption = app_commands.Range[
    int, validation.DAILY_COOLDOWN_HOURS.low, validation.DAILY_COOLDOWN_HOURS.high
]
TablesPerPlayerOption = app_commands.Range[
    int, validation.MAX_TABLES_PER_PLAYER.low, validation.MAX_TABLES_PER_PLAYER.high
]


class _Attachment(discord.File):
    """A file made in memory, freed as soon as nothing uses it.

    discord.py's :meth:`discord.File.close` hands the buffer its own ``close`` back as an
    attribute of the buffer: a reference cycle that kept every sent picture (3-4 KB) until the
    garbage collector's next full pass, rare on purpose (:data:`cogs.app.GC_THRESHOLDS`). At
    hundreds of tables that was hundreds of pictures held at any moment."""

    def close(self) -> None:
        super().close()
        # The class's own close is the same method, without the cycle.
        vars(self.fp).pop("close", None)


def attachment(data: bytes, filename: str, description: str | None = None) -> discord.File:
    """``data`` as a file attached to a message (a picture, a CSV, a hand's history)."""
    return _Attachment(io.BytesIO(data), filename=filename, description=description)


def chips(amount: int) -> str:
    """Chips with thousands separators, written the current language's way.

    >>> chips(12345)
    '12,345'
    >>> with i18n.speaking(i18n.resolve("de")):
    ...     chips(12345)
    '12.345'
    """
    language = i18n.current_language()
    if language is i18n.ENGLISH:
        return f"{amount:,}"  # the common case, 20 times faster than Babel
    if type(amount) is int:
        return integer_text(amount, language)  # Babel's, remembered: a table says dozens
    return format_decimal(amount, locale=language.locale)


def signed(amount: int) -> str:
    """A change of chips with its sign.

    >>> signed(1200), signed(-300), signed(0)
    ('+1,200', '-300', '0')
    """
    return f"+{chips(amount)}" if amount > 0 else chips(amount)


def mention(user_id: int | str) -> str:
    """A member named by id in a message (Discord shows their name).

    >>> mention(42)
    '<@42>'
    """
    return f"<@{user_id}>"


def channel_link(channel_id: int) -> str:
    """A channel named by id in a message (Discord shows a link to it).

    >>> channel_link(7)
    '<#7>'
    """
    return f"<#{channel_id}>"


def as_typed(text: str) -> str:
    r"""A member's own text (a name, a nickname) in a message, reading as they typed it: not as
    markdown, nor as a mention of somebody else (a name typed as ``<@id>`` shows that member).

    >>> print(as_typed("__Al__ *x*"))
    \_\_Al\_\_ \*x\*
    >>> as_typed("<@123456789012345678>") == "<@\u200b123456789012345678>"
    True

    A name written right to left is set apart from the line around it (Unicode's isolates),
    so that it does not carry the words and numbers after it into its own direction
    (``38 :name`` for ``name: 38``):

    >>> as_typed("דני") == "\u2068דני\u2069"
    True
    """
    escaped = discord.utils.escape_markdown(discord.utils.escape_mentions(text))
    if text.isascii() or not any(unicodedata.bidirectional(c) in _RIGHT_TO_LEFT for c in text):
        return escaped
    return f"{FIRST_STRONG_ISOLATE}{escaped}{POP_ISOLATE}"


FIRST_STRONG_ISOLATE: Final = "\u2068"
POP_ISOLATE: Final = "\u2069"
_RIGHT_TO_LEFT: Final = frozenset({"R", "AL"})


FIELD_LIMIT: Final = 1024
"""Discord's longest embed field value."""

DESCRIPTION_LIMIT: Final = 4096
"""Discord's longest embed description."""

# Translators: the last line of a list cut to fit a Discord message; {count} lines were left
# out.
MORE_LINES: Final = _.lazy_plural("… and {count} more", "… and {count} more")


def fit_lines(
    lines: Sequence[str], limit: int, *, sep: str = "\n", language: Language | None = None
) -> str:
    """``lines`` joined by ``sep``, as many whole ones as fit in ``limit`` characters; those
    left out are counted on a last line ("… and 3 more", in ``language``: by default the
    current one) rather than cut mid-line.

    >>> fit_lines(["one", "two"], 20)
    'one\\ntwo'
    >>> fit_lines([f"line {n}" for n in range(10)], 40)
    'line 0\\nline 1\\nline 2\\nline 3\\n… and 6 more'
    """
    text = sep.join(lines)
    if len(text) <= limit:
        return text
    size = 0  # the length of the first ``kept`` lines joined
    ends = []
    for kept, line in enumerate(lines):
        size += len(line) + (len(sep) if kept else 0)
        ends.append(size)
    for kept in range(len(lines) - 1, -1, -1):
        more = MORE_LINES.render(len(lines) - kept, language)
        if (ends[kept - 1] + len(sep) if kept else 0) + len(more) <= limit:
            return sep.join([*lines[:kept], more])
    return more[:limit]


def when(unix: float, style: discord.utils.TimestampStyle = "R") -> str:
    """A Discord timestamp, shown in each reader's own time zone and language.

    >>> when(0), when(90.5, "f")
    ('<t:0:R>', '<t:90:f>')
    """
    return discord.utils.format_dt(datetime.fromtimestamp(unix, tz=UTC), style)


async def reply(
    interaction: discord.Interaction[Any],
    text: str | LazyString | None = None,
    *,
    embed: discord.Embed | None = None,
) -> bool:
    """Answer only the user who interacted, whether or not the interaction was answered already.

    A lazy text (a module's constant) is rendered here, in the member's language.
    Returns whether Discord took the answer: an expired interaction (a busy bot) is logged,
    not raised, since there is nobody left to tell.
    """
    if isinstance(text, LazyString):
        text = text.render()
    kwargs: dict[str, Any] = {"ephemeral": True, "allowed_mentions": NO_PINGS}
    if embed is not None:
        kwargs["embed"] = embed
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text or "", **kwargs)
        else:
            await interaction.response.send_message(text, **kwargs)
    except discord.HTTPException as exc:
        log.warning("could not answer interaction %s: %s", interaction.id, exc)
        return False
    return True


ANSWER_BY: Final = 1.5
"""Seconds an interaction waits for a lock held by an earlier change (one that waits on
Discord: a 429, a 5xx retried, a thread being opened) before it is acknowledged on its own,
its answer following: Discord wants every interaction answered within 3 seconds."""


class Lock(Protocol):
    """What :func:`take_in_time` needs of a lock: :class:`asyncio.Lock` or a table's lock."""

    def locked(self) -> bool: ...

    async def acquire(self) -> bool: ...

    def release(self) -> None: ...


async def acknowledge(interaction: discord.Interaction[Any]) -> None:
    """Acknowledge ``interaction`` without a word, its answer to follow: a press as an update
    of its message to come, a command as a private "thinking..." (so that a refusal stays
    private; :func:`announce` says a success in the channel). Given up when Discord does not
    take it within :data:`ANSWER_WITHIN` (nobody can be answered after that)."""
    with contextlib.suppress(discord.HTTPException, TimeoutError):
        async with asyncio.timeout(ANSWER_WITHIN - ANSWER_BY):
            if interaction.type is discord.InteractionType.application_command:
                await interaction.response.defer(ephemeral=True, thinking=True)
            else:
                await interaction.response.defer()


T = TypeVar("T")


async def in_time(
    interaction: discord.Interaction[Any], work: Awaitable[T], *, public: bool = False
) -> T:
    """``work``'s result; should it take longer than :data:`ANSWER_BY` (a large server's
    records, Discord holding a call up), ``interaction`` is acknowledged meanwhile: as a
    "thinking..." the answer will replace, in the channel when it is ``public``, else
    privately (:func:`acknowledge`)."""
    task: asyncio.Future[T] = asyncio.ensure_future(work)
    done, _pending = await asyncio.wait({task}, timeout=ANSWER_BY)
    if not done and not interaction.response.is_done():
        if public:
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.defer(thinking=True)
        else:
            await acknowledge(interaction)
    return await task


async def take_in_time(lock: Lock, interaction: discord.Interaction[Any] | None) -> None:
    """Take ``lock``; an ``interaction`` still to be answered that would wait for it longer
    than :data:`ANSWER_BY` is acknowledged meanwhile (:func:`acknowledge`)."""
    if interaction is None or not lock.locked() or interaction.response.is_done():
        await lock.acquire()
        return
    taking = asyncio.ensure_future(lock.acquire())
    try:
        taken, _ = await asyncio.wait({taking}, timeout=ANSWER_BY)
        if not taken:
            log.info("interaction %s waits for an earlier change; acknowledged", interaction.id)
            await acknowledge(interaction)
        await taking
    except BaseException:
        if taking.done() and not taking.cancelled() and taking.exception() is None:
            lock.release()
        else:
            taking.cancel()  # (a lock handed over meanwhile passes it on as it is cancelled)
        raise


@contextlib.asynccontextmanager
async def held_in_time(
    lock: Lock, interaction: discord.Interaction[Any] | None
) -> AsyncIterator[None]:
    """``async with lock``, by :func:`take_in_time`: the interaction is acknowledged should
    the lock keep it waiting."""
    await take_in_time(lock, interaction)
    try:
        yield
    finally:
        lock.release()


DONE: Final = _.lazy("Done.")
"""A private answer to an action whose effect shows elsewhere."""


async def announce(interaction: discord.Interaction[Any], text: str) -> None:
    """Say ``text`` in the channel as the answer to ``interaction``; one acknowledged privately
    meanwhile (:func:`acknowledge`) is told it is done, and ``text`` goes to the channel as a
    message of its own."""
    if not interaction.response.is_done():
        await interaction.response.send_message(text, allowed_mentions=NO_PINGS)
        return
    await reply(interaction, DONE)
    await interaction.followup.send(text, allowed_mentions=NO_PINGS)


UNEXPECTED: Final = _.lazy("Something went wrong on our side. Please try again in a moment.")
"""The one answer to a failure nobody meant (a bug): the details go to the log, not the member."""

DISCORD_FAILED: Final = _.lazy(
    "Discord did not take my answer just now. If nothing changed, please try again."
)
"""Said when Discord failed (a 5xx, or no answer at all) in the middle of handling a press or
a command: what was done may or may not have been shown."""

MISMATCH: Final = _.lazy("Those options don't match this command. Refresh Discord and try again.")
"""A stale client or a forged request: a command's options missing, unknown or mistyped."""


def failure_text(error: BaseException) -> str | None:
    """What the member is told about ``error``: its reason for a failure the bot meant (a
    refusal, a data-layer refusal, one of Discord's own command checks); ``None`` for a bug.

    >>> failure_text(Refusal("Every seat is taken."))
    'Every seat is taken.'
    >>> failure_text(DataError("not enough chips"))
    "That didn't work: not enough chips."
    >>> failure_text(ZeroDivisionError()) is None
    True
    """
    if isinstance(error, Refusal):
        return str(error)
    if isinstance(error, DataError):
        return _("That didn't work: {reason}.", reason=str(error))
    if isinstance(error, app_commands.MissingPermissions):
        return _("You need the **Manage Server** permission to use this command.")
    if isinstance(error, app_commands.NoPrivateMessage):
        return _("This command works in a server, not in DMs.")
    if isinstance(error, app_commands.TransformerError):
        if error.type is discord.AppCommandOptionType.user:
            return _("That user is not a member of this server.")
        return _("{value} is not a valid value here.", value=repr(error.value))
    if isinstance(error, app_commands.CommandSignatureMismatch):
        return MISMATCH.render()
    return None


def discord_failed(error: BaseException) -> bool:
    """Whether ``error`` is Discord failing rather than a bug: a 5xx or a dropped connection
    (see :mod:`cogs.transport`), or a 429 that discord.py gave up on (it waits out a rate
    limit and tries again, five times, then raises it as a plain ``HTTPException``)."""
    if isinstance(error, discord.DiscordServerError):
        return True
    return isinstance(error, discord.HTTPException) and error.status == 429


async def answer_failure(
    interaction: discord.Interaction[Any], error: BaseException, *, what: str
) -> None:
    """The one answer to anything that went wrong in a slash command or a component press.

    A refusal is told to the member (ephemerally) with its reason. Discord failing (a 5xx, a
    dropped connection, a rate limit still in force after discord.py's retries) is logged as
    a warning and the member hears :data:`DISCORD_FAILED`, unless the answer itself was given
    up at Discord's 3 seconds (nothing can be said then). Anything else is a bug: logged
    once, with its traceback, under ``what`` (the command or the custom id), and the member
    hears :data:`UNEXPECTED`.
    """
    text = failure_text(error)
    if isinstance(error, transport.AnswerExpired):
        # Discord failed the answer until it was too late for any: nobody left to tell.
        log.warning("%s: Discord took no answer in time: %s", what, error)
        return
    if text is None and discord_failed(error):
        # Discord's failure, not a bug: it did not take a message or an answer.
        log.warning("%s: Discord failed: %s", what, error)
        text = DISCORD_FAILED.render()
    elif text is None:
        log.error("%s failed", what, exc_info=error)
        text = UNEXPECTED.render()
    else:
        Metrics.refused(interaction)
        if isinstance(error, app_commands.CommandSignatureMismatch):
            log.warning("refused %s: its options do not match the command", what)
    await reply(interaction, text)


def _poker_group(bot: commands.Bot | commands.AutoShardedBot) -> app_commands.Group:
    group = getattr(bot.get_cog("Poker"), "poker", None)
    if not isinstance(group, app_commands.Group):
        raise RuntimeError("cogs.poker must be loaded first: it owns the /poker group")
    return group


UNDER_POKER: Final = frozenset({"ledger", "tournament", "schedule"})
"""The commands other cogs define at the top level that :func:`move_under_poker` puts under
``/poker`` (the translators' notes name them there too)."""


def move_under_poker(
    bot: commands.Bot | commands.AutoShardedBot,
    *moved: app_commands.Command[Any, Any, Any] | app_commands.Group,
) -> None:
    """One way to each command: another cog's commands leave the top level for ``/poker``
    (``/poker tournament``, ``/poker ledger``...), their handlers staying with their cog."""
    group = _poker_group(bot)
    for command in moved:
        if command.name not in UNDER_POKER:
            raise RuntimeError(f"/{command.name} moves under /poker: add it to UNDER_POKER")
        bot.tree.remove_command(command.name)
        group.add_command(command)


def leave_poker(bot: commands.Bot | commands.AutoShardedBot, *names: str) -> None:
    """Undo :func:`move_under_poker` when the other cog unloads."""
    group = getattr(bot.get_cog("Poker"), "poker", None)
    if isinstance(group, app_commands.Group):
        for name in names:
            group.remove_command(name)


def runs_table(interaction: discord.Interaction[Any], creator_id: int) -> bool:
    """Whether the member may change a table's settings: its creator, or a server manager."""
    return interaction.user.id == creator_id or interaction.permissions.manage_guild


def ordinal(place: int) -> str:
    """A place as people write it: ``1st``, ``2nd``, ``3rd``, ``4th``... ``11th``, ``21st``."""
    if place % 100 in (11, 12, 13):
        return f"{place}th"
    return f"{place}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(place % 10, 'th') }"


async def variant_choices(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete for every option naming a game: the catalogue's games whose name (in the
    member's language or in English) or slug contains what was typed, each by its name in the
    member's language (Discord shows at most 25)."""
    needle = current.lower()
    choices = []
    for v in engine.list_variants():
        name = engine_text.variant_name(v)
        if needle in v.slug or needle in v.name.lower() or needle in name.lower():
            choices.append(app_commands.Choice(name=name[:100], value=v.slug))
    return choices[:25]
