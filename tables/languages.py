"""Which language the channel of a table, a lobby or an announcement reads (Discord-free).

What the whole channel reads is in the table's own language if it chose one (``/poker create
language:``, ``/poker settings language:``), else the server's chosen language (``/server
settings language:``), else the server's Discord locale (its community language, as last seen
on an interaction), else English. What one member reads is in their client's language: the
interaction's locale for an answer, their last seen locale for a DM (see :mod:`cogs.languages`,
which feeds this module from Discord and the database).

The servers' choices live here in memory, per process (one short entry per server, loaded
whole at start-up): reading a channel's language is a dictionary look-up, never a query.
"""

from __future__ import annotations

from dataclasses import dataclass

from i18n import ENGLISH, LANGUAGES, Language, resolve


@dataclass(slots=True)
class GuildChoice:
    """What this process knows of one server's language."""

    chosen: str | None = None
    """The language the server chose (a shipped code), None to follow its Discord locale."""
    seen: str | None = None
    """The server's Discord locale as last seen on an interaction."""


_guilds: dict[int, GuildChoice] = {}


def forget_guilds() -> None:
    """Forget every server's language (a new bot in this process loads them again)."""
    _guilds.clear()


def guild_choice(guild_id: int) -> GuildChoice:
    """The server's entry, made if new (to be changed by the one who knows better)."""
    found = _guilds.get(guild_id)
    if found is None:
        found = _guilds[guild_id] = GuildChoice()
    return found


def shipped(code: str | None) -> Language | None:
    """The shipped language spelled ``code`` exactly, or None (no choice, or one the bot no
    longer ships: then the next rule decides)."""
    if not code:
        return None
    language = resolve(code)
    return language if language in LANGUAGES and language.code == code else None


def guild_language(guild_id: int | None) -> Language:
    """The language of a server's channels when no table chose one: the server's choice,
    else its Discord locale, else English. Tournament lobbies and poker nights use it.

    >>> forget_guilds()
    >>> guild_language(1).code
    'en'
    >>> guild_choice(1).seen = "fr"
    >>> guild_language(1).code
    'fr'
    >>> guild_choice(1).chosen = "pl"
    >>> guild_language(1).code
    'pl'
    >>> guild_choice(2).seen = "ja"  # a locale we do not ship
    >>> guild_language(2).code
    'en'
    >>> forget_guilds()
    """
    if guild_id is None:
        return ENGLISH
    choice = _guilds.get(guild_id)
    if choice is None:
        return ENGLISH
    return shipped(choice.chosen) or resolve(choice.seen)


def table_language(override: str | None, guild_id: int | None) -> Language:
    """A table's channel language: its own choice, else its server's."""
    return shipped(override) or guild_language(guild_id)


__all__ = [
    "GuildChoice",
    "forget_guilds",
    "guild_choice",
    "guild_language",
    "shipped",
    "table_language",
]
