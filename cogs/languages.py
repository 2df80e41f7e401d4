"""Which language each text is written in, fed from Discord and kept in the database.

- What one member reads (an answer, a panel, a modal, a refusal) is in their client's language:
  every interaction is handled inside ``i18n.speaking(resolve(interaction.locale))``, set once
  where interactions enter the bot (:meth:`cogs.app.PokerBot._interaction_create`, before
  discord.py routes them to the command tree or the router), so ``_()`` needs no argument.
- A member's DM is in their last seen client locale (:func:`member_language`), remembered
  here and in the database, written only when it changes.
- What a channel reads is in :func:`channel_language` (a table: its own choice, else its
  server's) or :func:`guild_language` (a lobby, an announcement): the server's choice
  (``/server settings language:``), else its Discord locale as last seen, else English
  (see :mod:`tables.languages`).

A locale the bot does not ship reads as English, never as an error.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable, Coroutine, Iterable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from cogs.translator import _
from i18n import ENGLISH, LANGUAGES, Language, LazyString, resolve
from tables.languages import forget_guilds, guild_choice, guild_language
from tables.live import LiveTable

if TYPE_CHECKING:
    from data import Database

log = logging.getLogger("poker.languages")

FOLLOW = "auto"
"""The choice that takes a table's or a server's own choice back (follow the next rule)."""

MEMBERS_KEPT = 50_000
"""Members whose locale is kept in memory; past it the memory starts again (a member seen
again costs one read of their row, or one write if it changed)."""

_members: dict[int, str] = {}
"""Each member's last seen client locale, as Discord spells it."""


def native_name(language: Language) -> str:
    """A language's name in itself, as a menu shows it (``Deutsch``, ``Português (Brasil)``).

    >>> [native_name(resolve(code)) for code in ("en", "pt-BR")]
    ['English', 'Português (Brasil)']
    """
    if language.code == "es-ES":
        return "Español"  # Babel says "español (España)"; it is everyone's Spanish here
    name = language.name
    return name[:1].upper() + name[1:]


Complete = Callable[
    [discord.Interaction[Any], str], Coroutine[Any, Any, list[app_commands.Choice[str]]]
]


def language_autocomplete(follow: LazyString) -> Complete:
    """Autocomplete for a language option: ``follow`` (take the choice back, in the member's
    language), then every shipped language by its own name, those whose name or code holds
    what was typed. Suggested rather than listed as the option's choices: Discord counts a
    command's choices with its size, which every language added would grow."""

    async def complete(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        needle = current.strip().casefold()
        found = []
        label = follow.render()
        if needle in label.casefold():
            found.append(app_commands.Choice(name=label, value=FOLLOW))
        for language in LANGUAGES:
            name = native_name(language)
            if needle in name.casefold() or needle in language.code.casefold():
                found.append(app_commands.Choice(name=name, value=language.code))
        return found[:25]

    return complete


def check_language(value: str | None) -> str | None:
    """A language option as the member left it: a shipped language's code (as suggested) or
    its own name typed out, :data:`FOLLOW` (returned as None: follow the next rule) or
    nothing. Anything else is refused with a reason.

    >>> check_language("pt-BR"), check_language("deutsch"), check_language(FOLLOW)
    ('pt-BR', 'de', None)
    """
    from tables.errors import Refusal

    if value is None or value == FOLLOW:
        return None
    if isinstance(value, str):
        typed = value.strip().casefold()
        for language in LANGUAGES:
            if typed in (language.code.casefold(), native_name(language).casefold()):
                return language.code
    raise Refusal(_("That language is not one the bot speaks."))


# -- what Discord tells us -------------------------------------------------------------------


def seen(
    data: Any, spawn: Callable[[Coroutine[Any, Any, None]], object], db: Database | None
) -> Language:
    """The language of an interaction's raw payload (its member's client locale), after
    noting the member's and the server's locales; a change is written in the background
    through ``spawn`` (nothing is written while they stay the same)."""
    if not isinstance(data, dict):
        return ENGLISH
    now = time.time()
    locale = _locale(data.get("locale"))
    member = data.get("member")
    user = (member.get("user") if isinstance(member, dict) else None) or data.get("user")
    user_id = _snowflake(user.get("id")) if isinstance(user, dict) else None
    if locale is not None and user_id is not None and _members.get(user_id) != locale:
        if len(_members) >= MEMBERS_KEPT:
            _members.clear()
        # One string per locale, not one per member (each payload brings its own copy).
        _members[user_id] = sys.intern(locale)
        if db is not None:
            spawn(_write(db.set_member_locale(user_id, locale, now=now), "member", user_id))
    guild_locale = _locale(data.get("guild_locale"))
    guild_id = _snowflake(data.get("guild_id"))
    if guild_id is not None and guild_locale is not None:
        choice = guild_choice(guild_id)
        if choice.seen != guild_locale:
            choice.seen = guild_locale
            if db is not None:
                write = db.set_guild_locale(guild_id, guild_locale, now=now)
                spawn(_write(write, "server", guild_id))
    return resolve(locale)


def _locale(value: object) -> str | None:
    """A locale as Discord spells them (``de``, ``pt-BR``); None for anything else."""
    if isinstance(value, str) and 0 < len(value) <= 16 and value.replace("-", "").isalnum():
        return value if value.isascii() else None
    return None


def _snowflake(value: object) -> int | None:
    return int(value) if isinstance(value, str | int) and str(value).isdigit() else None


async def _write(write: Coroutine[Any, Any, None], what: str, which: int) -> None:
    try:
        await write
    except Exception:
        # Only a language to remember: the press it came with goes on.
        log.warning("could not remember the locale of %s %s", what, which, exc_info=True)


async def load(db: Database) -> None:
    """Every server's language from the database (at start-up, before any interaction)."""
    forget_guilds()
    _members.clear()
    for row in await db.guild_languages():
        choice = guild_choice(row.guild_id)
        choice.chosen, choice.seen = row.language, row.guild_locale


# -- reading -----------------------------------------------------------------------------------


def member_language(user_id: int) -> Language:
    """The language of a member's DM: their last seen client locale (English if unknown
    here; :func:`member_languages` also reads the database)."""
    return resolve(_members.get(user_id))


async def member_languages(db: Database, user_ids: Iterable[int]) -> dict[int, Language]:
    """The DM language of each member, reading the database for those not seen since the
    start (their rows are then kept in memory)."""
    wanted = set(user_ids)
    missing = [user_id for user_id in wanted if user_id not in _members]
    if missing:
        found = await db.member_locales(missing)
        for user_id in missing:
            # "" (never seen: English) is kept too, so the next DM asks the database nothing.
            _members.setdefault(user_id, found.get(user_id, ""))
    return {user_id: member_language(user_id) for user_id in wanted}


def channel_language(live: LiveTable) -> Language:
    """The language of a table's channel texts (its message, pings, results, pictures)."""
    return live.language


# -- choosing ----------------------------------------------------------------------------------


async def set_guild_language(db: Database, guild_id: int, code: str | None, actor_id: int) -> None:
    """The server's chosen language (None: follow its Discord locale), kept and written."""
    await db.set_guild_language(guild_id, code, actor_id)
    guild_choice(guild_id).chosen = code


async def set_table_language(tables: Any, live: LiveTable, code: str | None) -> None:
    """The table's own language (None: follow the server), saved with its snapshot.

    ``tables`` is the :class:`~tables.service.TableService` (its records write the
    snapshot)."""
    async with live.lock:
        if live.closed or live.meta.language == code:
            return
        before, live.meta.language = live.meta.language, code
        try:
            await tables.records.save(live)
        except Exception:
            live.meta.language = before
            raise


__all__ = [
    "FOLLOW",
    "channel_language",
    "check_language",
    "guild_language",
    "language_autocomplete",
    "load",
    "member_language",
    "member_languages",
    "native_name",
    "seen",
    "set_guild_language",
    "set_table_language",
]
