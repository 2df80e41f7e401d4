-- Migration 6: one house account per server.
--
-- Until now every house seat had a bankroll of its own under its seat id (-101, -203, ...).
-- From now on every house seat buys in from, and cashes out to, its server's one house account,
-- user id -1 (data/accounts.py HOUSE_ACCOUNT). This script empties the old seat bankrolls into
-- it: a 'house_merge' row takes the chips out of each seat bankroll and one row per server puts
-- their sum into the house account, so every balance is still the sum of its ledger rows and no
-- chip is issued or removed. The seat accounts stay, empty (their ledger and stats point at
-- them); chips a house seat has on a table go to the house account when it cashes out.

INSERT INTO ledger_kinds (kind, supply) VALUES
    ('house_merge', 0);   -- a house seat's old bankroll moved into the server's house account

-- A server gets its house account here only if there is something to put in it: an account
-- without a ledger row would fail the audit. Otherwise the first house buy-in opens it.
INSERT INTO accounts (guild_id, user_id, balance, created_at, updated_at)
SELECT guild_id, -1, 0, (julianday('now') - 2440587.5) * 86400.0,
       (julianday('now') - 2440587.5) * 86400.0
FROM accounts WHERE user_id < -1 AND balance > 0
GROUP BY guild_id
ON CONFLICT (guild_id, user_id) DO NOTHING;

-- Into the house account first (it reads the seat balances before they are emptied).
INSERT INTO ledger (guild_id, user_id, delta, balance_after, kind, note, created_at)
SELECT s.guild_id, -1, sum(s.balance), h.balance + sum(s.balance), 'house_merge',
       'house seat bankrolls merged into the house account',
       (julianday('now') - 2440587.5) * 86400.0
FROM accounts AS s JOIN accounts AS h ON h.guild_id = s.guild_id AND h.user_id = -1
WHERE s.user_id < -1 AND s.balance > 0
GROUP BY s.guild_id, h.balance
ORDER BY s.guild_id;

UPDATE accounts
SET balance = balance + (SELECT sum(s.balance) FROM accounts AS s
                         WHERE s.guild_id = accounts.guild_id AND s.user_id < -1
                         AND s.balance > 0),
    updated_at = (julianday('now') - 2440587.5) * 86400.0
WHERE user_id = -1 AND EXISTS (SELECT 1 FROM accounts AS s
                               WHERE s.guild_id = accounts.guild_id AND s.user_id < -1
                               AND s.balance > 0);

-- Then out of each seat bankroll; actor_id names the house account that took the chips.
INSERT INTO ledger (guild_id, user_id, delta, balance_after, kind, actor_id, note, created_at)
SELECT guild_id, user_id, -balance, 0, 'house_merge', -1, 'moved to the house account',
       (julianday('now') - 2440587.5) * 86400.0
FROM accounts WHERE user_id < -1 AND balance > 0
ORDER BY guild_id, user_id;

UPDATE accounts SET balance = 0, updated_at = (julianday('now') - 2440587.5) * 86400.0
WHERE user_id < -1 AND balance > 0;
