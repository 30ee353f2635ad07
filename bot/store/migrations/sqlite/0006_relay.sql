-- Interactions handed between shard processes (bot/store/relay.py, PostgreSQL only: one
-- process on SQLite never relays). The same table as PostgreSQL's, so that a database of
-- either kind at this version has the same tables.
CREATE TABLE relayed_interactions (
    id         INTEGER PRIMARY KEY,
    shard      INTEGER NOT NULL,
    payload    TEXT    NOT NULL,
    created_at REAL    NOT NULL
);
