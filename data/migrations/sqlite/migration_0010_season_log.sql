-- Migration 10: the admin log also names each season ended with a bankroll reset (who reset
-- every bankroll, when, and to what), beside the ledger rows that move the chips. SQLite's
-- CHECK cannot learn the new action in place: the table is rebuilt, with its index and the
-- triggers that keep it append-only.

CREATE TABLE admin_log_new (
    log_id     INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    actor_id   INTEGER NOT NULL,
    action     TEXT    NOT NULL
               CHECK (action IN ('grant', 'set', 'remove', 'settings', 'season_reset')),
    target_id  INTEGER,
    old_value  TEXT    NOT NULL CHECK (json_valid(old_value)),
    new_value  TEXT    NOT NULL CHECK (json_valid(new_value)),
    note       TEXT,
    entry_id   INTEGER REFERENCES ledger (entry_id),
    created_at REAL    NOT NULL
);
INSERT INTO admin_log_new (log_id, guild_id, actor_id, action, target_id, old_value, new_value,
    note, entry_id, created_at)
SELECT log_id, guild_id, actor_id, action, target_id, old_value, new_value, note, entry_id,
    created_at
FROM admin_log;
DROP TABLE admin_log;
ALTER TABLE admin_log_new RENAME TO admin_log;
CREATE INDEX admin_log_guild ON admin_log (guild_id, log_id);
CREATE TRIGGER admin_log_no_update BEFORE UPDATE ON admin_log
BEGIN SELECT RAISE(ABORT, 'admin log rows are append-only'); END;
CREATE TRIGGER admin_log_no_delete BEFORE DELETE ON admin_log
BEGIN SELECT RAISE(ABORT, 'admin log rows are append-only'); END;
