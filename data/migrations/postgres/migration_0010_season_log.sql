-- Migration 10 for PostgreSQL: the admin log also names each season ended with a bankroll
-- reset (see the SQLite script of the same number; here the CHECK is replaced in place).

ALTER TABLE admin_log DROP CONSTRAINT admin_log_action_check;
ALTER TABLE admin_log ADD CONSTRAINT admin_log_action_check
    CHECK (action IN ('grant', 'set', 'remove', 'settings', 'season_reset'));
