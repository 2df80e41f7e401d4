-- Migration 5: games scheduled ahead (poker nights): the Discord event made for each, a
-- reminder before it, and the table or tournament opened at its time.

CREATE TABLE scheduled_games (
    schedule_id INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    creator_id  INTEGER NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('tournament', 'table')),
    options     TEXT    NOT NULL CHECK (json_valid(options)),
    starts_at   REAL    NOT NULL,
    event_id    INTEGER,
    reminded    INTEGER NOT NULL DEFAULT 0 CHECK (reminded IN (0, 1)),
    status      TEXT    NOT NULL DEFAULT 'pending'
                CHECK (status IN ('pending', 'opened', 'failed')),
    created_at  REAL    NOT NULL
);
CREATE INDEX scheduled_games_due ON scheduled_games (status, starts_at);
