-- Migration 8: poker nights that repeat, and a poll that picks the game.
--
-- A night belongs to a series (series_id: the schedule_id of its first night) that repeats
-- weekly, fortnightly or monthly counted from repeat_from (the date the series was set or
-- moved to, so a monthly night on the 31st comes back to the 31st after a short month). Its
-- poll offers poll_games (a JSON list of game slugs) and is the message poll_message_id; the
-- game it opened is game_id (a tournament or a table), so its end completes the Discord
-- event. A night can now be cancelled or ended, which SQLite's CHECK cannot learn in place:
-- the table is rebuilt.

CREATE TABLE scheduled_games_new (
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
                CHECK (status IN ('pending', 'opened', 'failed', 'cancelled', 'ended')),
    created_at  REAL    NOT NULL,
    series_id   INTEGER,
    repeat      TEXT    NOT NULL DEFAULT 'none'
                CHECK (repeat IN ('none', 'weekly', 'fortnightly', 'monthly')),
    repeat_from REAL,
    poll_games  TEXT    CHECK (poll_games IS NULL OR json_valid(poll_games)),
    poll_message_id INTEGER,
    game_id     INTEGER
);
INSERT INTO scheduled_games_new (schedule_id, guild_id, channel_id, creator_id, kind, options,
    starts_at, event_id, reminded, status, created_at, series_id, repeat_from)
SELECT schedule_id, guild_id, channel_id, creator_id, kind, options, starts_at, event_id,
    reminded, status, created_at, schedule_id, starts_at
FROM scheduled_games;
DROP TABLE scheduled_games;
ALTER TABLE scheduled_games_new RENAME TO scheduled_games;
CREATE INDEX scheduled_games_due ON scheduled_games (status, starts_at);
CREATE INDEX scheduled_games_series ON scheduled_games (series_id);
