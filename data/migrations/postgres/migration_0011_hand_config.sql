-- Migration 11 for PostgreSQL: each hand keeps the table's configuration it was dealt with
-- (see the SQLite script of the same number).

ALTER TABLE hands ADD COLUMN config TEXT;
