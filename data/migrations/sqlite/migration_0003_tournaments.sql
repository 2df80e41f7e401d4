-- Migration 3: tournaments (sit-and-go), their tables, results, and seasons.
--
-- A tournament holds bankroll chips in its prize pool: buy-ins, rebuys and add-ons come in
-- and prizes or refunds go out, each one a ledger row carrying the tournament's id, in the
-- same transaction as the pool it changes. The chips at its tables are tournament chips and
-- are worth nothing outside it, so they are not counted by the audit; the pool is.

INSERT INTO ledger_kinds (kind, supply) VALUES
    ('tournament_buy_in', 0),   -- bankroll -> prize pool (entry, rebuy or add-on)
    ('tournament_prize',  0),   -- prize pool -> bankroll (a place paid)
    ('tournament_refund', 0),   -- prize pool -> bankroll (a tournament called off, unregistering)
    ('season_reset',      1);   -- a bankroll set back to the starting amount for a new season

CREATE TABLE tournaments (
    tournament_id INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    creator_id    INTEGER NOT NULL,
    status        TEXT    NOT NULL DEFAULT 'registering'
                  CHECK (status IN ('registering', 'running', 'finished', 'cancelled')),
    config        TEXT    NOT NULL CHECK (json_valid(config)),
    state         TEXT    NOT NULL CHECK (json_valid(state)),
    prize_pool    INTEGER NOT NULL DEFAULT 0 CHECK (prize_pool >= 0),
    message_id    INTEGER,
    started_at    REAL,
    created_at    REAL    NOT NULL,
    updated_at    REAL    NOT NULL,
    finished_at   REAL,
    CHECK (status IN ('registering', 'running') OR prize_pool = 0)
);
CREATE UNIQUE INDEX tournaments_one_open_per_channel ON tournaments (channel_id)
    WHERE status IN ('registering', 'running');
CREATE INDEX tournaments_guild_status ON tournaments (guild_id, status);

ALTER TABLE ledger ADD COLUMN tournament_id INTEGER REFERENCES tournaments (tournament_id);
CREATE INDEX ledger_tournament ON ledger (tournament_id) WHERE tournament_id IS NOT NULL;

-- A tournament's tables are poker tables like the others, but their chips are tournament
-- chips: seated without a buy-in, closed without a cash-out, left out of bankroll totals,
-- the audit's chips on tables and the players' cash-game stats.
ALTER TABLE tables ADD COLUMN tournament_id INTEGER REFERENCES tournaments (tournament_id);

-- Places and prizes, written once when a tournament ends.
CREATE TABLE tournament_results (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (tournament_id),
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    place         INTEGER NOT NULL CHECK (place >= 1),
    prize         INTEGER NOT NULL CHECK (prize >= 0),
    points        INTEGER NOT NULL DEFAULT 0 CHECK (points >= 0),
    finished_at   REAL    NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);
CREATE INDEX tournament_results_member ON tournament_results (guild_id, user_id);

-- Seasons: at most one open per server; closing one writes its standings.
CREATE TABLE seasons (
    season_id  INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    points     TEXT    NOT NULL CHECK (json_valid(points)),
    started_at REAL    NOT NULL,
    ended_at   REAL,
    UNIQUE (guild_id, name)
);
CREATE UNIQUE INDEX seasons_one_open ON seasons (guild_id) WHERE ended_at IS NULL;

CREATE TABLE season_standings (
    season_id INTEGER NOT NULL REFERENCES seasons (season_id),
    user_id   INTEGER NOT NULL,
    rank      INTEGER NOT NULL CHECK (rank >= 1),
    balance   INTEGER NOT NULL CHECK (balance >= 0),
    points    INTEGER NOT NULL CHECK (points >= 0),
    PRIMARY KEY (season_id, user_id)
);
