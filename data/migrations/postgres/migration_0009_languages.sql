-- Migration 9 for PostgreSQL: the languages the bot writes in (see the SQLite script of the
-- same number).

CREATE TABLE member_locales (
    user_id BIGINT PRIMARY KEY,
    locale  TEXT   NOT NULL CHECK (length(locale) BETWEEN 1 AND 16),
    seen_at DOUBLE PRECISION NOT NULL
);

CREATE TABLE guild_languages (
    guild_id     BIGINT PRIMARY KEY,
    language     TEXT   CHECK (language IS NULL OR length(language) BETWEEN 1 AND 16),
    guild_locale TEXT   CHECK (guild_locale IS NULL OR length(guild_locale) BETWEEN 1 AND 16),
    updated_at   DOUBLE PRECISION NOT NULL,
    updated_by   BIGINT
);
