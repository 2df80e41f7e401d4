-- Migration 2 for PostgreSQL: each player's own preferences (see the SQLite script of the same
-- number). A missing row means the defaults.

CREATE TABLE player_preferences (
    user_id     BIGINT PRIMARY KEY,
    notify      INTEGER NOT NULL DEFAULT 1 CHECK (notify IN (0, 1)),
    four_colour INTEGER NOT NULL DEFAULT 0 CHECK (four_colour IN (0, 1)),
    updated_at  DOUBLE PRECISION NOT NULL
);
