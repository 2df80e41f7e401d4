-- Migration 9: the languages the bot writes in.
--
-- member_locales: each member's last seen Discord client locale (their DMs are written in it);
-- written only when it changes. guild_languages: a server's chosen language (/server settings
-- language:, NULL = follow the server's Discord locale) and the server's Discord locale last
-- seen on an interaction (so a restart still knows it before anyone presses). Codes are
-- Discord's spelling (de, es-ES, pt-BR); a code the bot does not ship reads as English.

CREATE TABLE member_locales (
    user_id INTEGER PRIMARY KEY,
    locale  TEXT    NOT NULL CHECK (length(locale) BETWEEN 1 AND 16),
    seen_at REAL    NOT NULL
);

CREATE TABLE guild_languages (
    guild_id     INTEGER PRIMARY KEY,
    language     TEXT    CHECK (language IS NULL OR length(language) BETWEEN 1 AND 16),
    guild_locale TEXT    CHECK (guild_locale IS NULL OR length(guild_locale) BETWEEN 1 AND 16),
    updated_at   REAL    NOT NULL,
    updated_by   INTEGER
);
