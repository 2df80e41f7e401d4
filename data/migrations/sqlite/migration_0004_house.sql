-- Migration 4: house players.
--
-- A house player (a seat the bot plays itself) sits with chips from a bankroll of its own: an
-- account whose user id is negative (no Discord user has one), so member-only views such as
-- the leaderboard and the stats leave it out. When that bankroll runs short, the house
-- issues what it lacks with this kind, so the audit (bankrolls = ledger sums; supply = the
-- sum of issuing rows) stays exact.

INSERT INTO ledger_kinds (kind, supply) VALUES
    ('house_fund', 1);   -- chips issued to a house player's bankroll before it sits down
