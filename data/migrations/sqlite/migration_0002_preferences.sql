-- Migration 2: each player's own preferences, the same at every table and in every server.
--
-- A missing row means "all defaults": turn pings on, the usual two-colour deck.

CREATE TABLE player_preferences (
    user_id     INTEGER PRIMARY KEY,
    notify      INTEGER NOT NULL DEFAULT 1 CHECK (notify IN (0, 1)),
    four_colour INTEGER NOT NULL DEFAULT 0 CHECK (four_colour IN (0, 1)),
    updated_at  REAL    NOT NULL
);
