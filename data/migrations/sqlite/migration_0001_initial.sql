-- Migration 1: the initial schema.
--
-- Conventions
--   * ids from Discord (guild, channel, user, message) are 64-bit INTEGERs;
--   * times are unix seconds as REAL;
--   * chip amounts are INTEGERs; balances and stacks can never go negative (CHECK);
--   * JSON blobs (settings, table config, engine state, hand events, results) are opaque TEXT,
--     only checked to be valid JSON.
--
-- The runner (data/migrations.py) wraps this file in a transaction and bumps PRAGMA user_version.

-- Kinds of ledger rows. `supply` = 1 when the kind creates or destroys chips (changes the
-- chips in circulation); 0 when it only moves chips between a bankroll and a table.
CREATE TABLE ledger_kinds (
    kind   TEXT PRIMARY KEY,
    supply INTEGER NOT NULL CHECK (supply IN (0, 1))
) WITHOUT ROWID;

INSERT INTO ledger_kinds (kind, supply) VALUES
    ('issue',        1),   -- starting bankroll when an account is created
    ('daily',        1),   -- daily bonus
    ('admin_grant',  1),   -- admin adds chips
    ('admin_set',    1),   -- admin sets a balance (delta may be negative)
    ('admin_remove', 1),   -- admin removes chips
    ('buy_in',       0),   -- bankroll -> table (first buy-in at a table)
    ('top_up',       0),   -- bankroll -> table (already seated)
    ('cash_out',     0);   -- table -> bankroll (leaving, or the table closing)

-- Per-server settings. A missing row means "all defaults".
CREATE TABLE guild_settings (
    guild_id          INTEGER PRIMARY KEY,
    starting_bankroll INTEGER NOT NULL DEFAULT 1000  CHECK (starting_bankroll >= 0),
    daily_amount      INTEGER NOT NULL DEFAULT 100   CHECK (daily_amount >= 0),
    daily_cooldown    INTEGER NOT NULL DEFAULT 86400 CHECK (daily_cooldown >= 0),
    table_defaults    TEXT    NOT NULL DEFAULT '{}'  CHECK (json_valid(table_defaults)),
    updated_at        REAL    NOT NULL,
    updated_by        INTEGER
);

-- A member's bankroll in one server (chips not on a table).
CREATE TABLE accounts (
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    balance       INTEGER NOT NULL CHECK (balance >= 0),
    last_daily_at REAL,
    created_at    REAL    NOT NULL,
    updated_at    REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

-- Tables (poker tables). At most one open table per channel.
CREATE TABLE tables (
    table_id        INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    creator_id      INTEGER NOT NULL,
    status          TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    config          TEXT    NOT NULL CHECK (json_valid(config)),
    state           TEXT             CHECK (state IS NULL OR json_valid(state)),
    chips_on_table  INTEGER NOT NULL DEFAULT 0 CHECK (chips_on_table >= 0),
    message_id      INTEGER,
    current_hand_id INTEGER REFERENCES hands (hand_id),
    created_at      REAL    NOT NULL,
    updated_at      REAL    NOT NULL,
    closed_at       REAL,
    CHECK (status = 'open' OR (chips_on_table = 0 AND current_hand_id IS NULL))
);
CREATE UNIQUE INDEX tables_one_open_per_channel ON tables (channel_id) WHERE status = 'open';
CREATE INDEX tables_guild_status ON tables (guild_id, status);

-- Projection of the seated players of OPEN tables (the engine state is the source of truth);
-- rewritten in the same transaction as the state. Closing a table empties it.
CREATE TABLE table_players (
    table_id INTEGER NOT NULL REFERENCES tables (table_id),
    user_id  INTEGER NOT NULL,
    guild_id INTEGER NOT NULL,
    seat     INTEGER,
    stack    INTEGER NOT NULL CHECK (stack >= 0),
    PRIMARY KEY (table_id, user_id)
) WITHOUT ROWID;
CREATE UNIQUE INDEX table_players_seat ON table_players (table_id, seat);
CREATE INDEX table_players_member ON table_players (guild_id, user_id);

-- Hands. salt and deck are stored at the start; the API refuses to read them until ended_at.
CREATE TABLE hands (
    hand_id      INTEGER PRIMARY KEY,
    table_id     INTEGER NOT NULL REFERENCES tables (table_id),
    guild_id     INTEGER NOT NULL,
    number       INTEGER NOT NULL CHECK (number >= 1),
    variant      TEXT    NOT NULL,
    variant_name TEXT    NOT NULL,
    commitment   TEXT    NOT NULL
                 CHECK (length(commitment) = 64 AND NOT commitment GLOB '*[^0-9a-f]*'),
    salt         TEXT    NOT NULL,
    deck         TEXT    NOT NULL,
    started_at   REAL    NOT NULL,
    ended_at     REAL,
    result       TEXT    CHECK (result IS NULL OR json_valid(result)),
    pot          INTEGER CHECK (pot IS NULL OR pot >= 0),
    UNIQUE (table_id, number)
);

-- Append-only hand events; (hand_id, seq) is unique so a replayed save cannot duplicate.
CREATE TABLE hand_events (
    hand_id    INTEGER NOT NULL REFERENCES hands (hand_id),
    seq        INTEGER NOT NULL CHECK (seq >= 0),
    event      TEXT    NOT NULL CHECK (json_valid(event)),
    created_at REAL    NOT NULL,
    PRIMARY KEY (hand_id, seq)
) WITHOUT ROWID;

-- Every movement of chips into or out of a bankroll.
CREATE TABLE ledger (
    entry_id      INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    delta         INTEGER NOT NULL,
    balance_after INTEGER NOT NULL CHECK (balance_after >= 0),
    kind          TEXT    NOT NULL REFERENCES ledger_kinds (kind),
    table_id      INTEGER REFERENCES tables (table_id),
    hand_id       INTEGER REFERENCES hands (hand_id),
    actor_id      INTEGER,
    note          TEXT,
    created_at    REAL    NOT NULL,
    FOREIGN KEY (guild_id, user_id) REFERENCES accounts (guild_id, user_id)
);
CREATE INDEX ledger_account ON ledger (guild_id, user_id, entry_id);
CREATE INDEX ledger_table ON ledger (table_id) WHERE table_id IS NOT NULL;

-- Admin actions: chip grants/sets/removals (with their ledger row) and settings changes.
CREATE TABLE admin_log (
    log_id     INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    actor_id   INTEGER NOT NULL,
    action     TEXT    NOT NULL CHECK (action IN ('grant', 'set', 'remove', 'settings')),
    target_id  INTEGER,
    old_value  TEXT    NOT NULL CHECK (json_valid(old_value)),
    new_value  TEXT    NOT NULL CHECK (json_valid(new_value)),
    note       TEXT,
    entry_id   INTEGER REFERENCES ledger (entry_id),
    created_at REAL    NOT NULL
);
CREATE INDEX admin_log_guild ON admin_log (guild_id, log_id);

-- Per-member poker statistics, updated with each hand result.
CREATE TABLE player_stats (
    guild_id        INTEGER NOT NULL,
    user_id         INTEGER NOT NULL,
    hands_played    INTEGER NOT NULL DEFAULT 0 CHECK (hands_played >= 0),
    hands_won       INTEGER NOT NULL DEFAULT 0 CHECK (hands_won >= 0),
    net_chips       INTEGER NOT NULL DEFAULT 0,
    biggest_pot     INTEGER NOT NULL DEFAULT 0 CHECK (biggest_pot >= 0),
    best_hand_score INTEGER,
    best_hand_name  TEXT,
    best_hand_id    INTEGER REFERENCES hands (hand_id),
    updated_at      REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id),
    FOREIGN KEY (guild_id, user_id) REFERENCES accounts (guild_id, user_id)
) WITHOUT ROWID;

-- History is append-only: the ledger, the admin log and hand events cannot be edited.
CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
BEGIN SELECT RAISE(ABORT, 'ledger rows are append-only'); END;
CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
BEGIN SELECT RAISE(ABORT, 'ledger rows are append-only'); END;
CREATE TRIGGER admin_log_no_update BEFORE UPDATE ON admin_log
BEGIN SELECT RAISE(ABORT, 'admin log rows are append-only'); END;
CREATE TRIGGER admin_log_no_delete BEFORE DELETE ON admin_log
BEGIN SELECT RAISE(ABORT, 'admin log rows are append-only'); END;
CREATE TRIGGER hand_events_no_update BEFORE UPDATE ON hand_events
BEGIN SELECT RAISE(ABORT, 'hand events are append-only'); END;
CREATE TRIGGER hand_events_no_delete BEFORE DELETE ON hand_events
BEGIN SELECT RAISE(ABORT, 'hand events are append-only'); END;

-- A hand's commitment, salt and deck never change; a finished hand is frozen.
CREATE TRIGGER hands_secrets_frozen BEFORE UPDATE OF commitment, salt, deck ON hands
BEGIN SELECT RAISE(ABORT, 'a hand''s commitment, salt and deck cannot change'); END;
CREATE TRIGGER hands_finished_frozen BEFORE UPDATE ON hands WHEN OLD.ended_at IS NOT NULL
BEGIN SELECT RAISE(ABORT, 'a finished hand cannot change'); END;
