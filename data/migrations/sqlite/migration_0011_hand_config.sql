-- Migration 11: each hand keeps the table's configuration it was dealt with (the engine's
-- TableConfig as JSON): a tournament raises its stakes level by level, and house rules change
-- between hands, so the table's own configuration does not tell an old hand's stakes. NULL for
-- the hands recorded before this version (their replay reads the table's, as it did).

ALTER TABLE hands ADD COLUMN config TEXT CHECK (config IS NULL OR json_valid(config));
