-- Migration 7: how many tables of a server one member may sit at at once.
--
-- A server setting like the starting bankroll: /server settings changes it, the table service
-- refuses a seat past it. Every server starts at 4.

ALTER TABLE guild_settings
    ADD COLUMN max_tables_per_player INTEGER NOT NULL DEFAULT 4
    CHECK (max_tables_per_player >= 1);
