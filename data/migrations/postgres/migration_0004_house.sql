-- Migration 4 for PostgreSQL: house players (see the SQLite script of the same number).

INSERT INTO ledger_kinds (kind, supply) VALUES
    ('house_fund', 1);
