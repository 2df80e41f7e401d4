-- Migration 8 for PostgreSQL: poker nights that repeat, and a poll that picks the game (see
-- the SQLite script of the same number; here the columns are added in place).

ALTER TABLE scheduled_games DROP CONSTRAINT scheduled_games_status_check;
ALTER TABLE scheduled_games ADD CONSTRAINT scheduled_games_status_check
    CHECK (status IN ('pending', 'opened', 'failed', 'cancelled', 'ended'));
ALTER TABLE scheduled_games ADD COLUMN series_id BIGINT;
ALTER TABLE scheduled_games ADD COLUMN repeat TEXT NOT NULL DEFAULT 'none'
    CHECK (repeat IN ('none', 'weekly', 'fortnightly', 'monthly'));
ALTER TABLE scheduled_games ADD COLUMN repeat_from DOUBLE PRECISION;
ALTER TABLE scheduled_games ADD COLUMN poll_games TEXT
    CONSTRAINT scheduled_games_poll_games_json CHECK (poll_games IS NULL OR json_valid(poll_games));
ALTER TABLE scheduled_games ADD COLUMN poll_message_id BIGINT;
ALTER TABLE scheduled_games ADD COLUMN game_id BIGINT;
UPDATE scheduled_games SET series_id = schedule_id, repeat_from = starts_at;
CREATE INDEX scheduled_games_series ON scheduled_games (series_id);
