-- Migration 7 for PostgreSQL: how many tables of a server one member may sit at at once (see
-- the SQLite script of the same number).

ALTER TABLE guild_settings
    ADD COLUMN max_tables_per_player BIGINT NOT NULL DEFAULT 4
    CONSTRAINT guild_settings_max_tables_per_player CHECK (max_tables_per_player >= 1);
