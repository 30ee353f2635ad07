-- Interactions handed from the shard process that received them to the one that runs
-- their table (bot/store/relay.py): a row lives a few seconds, deleted by whichever
-- process takes it first (the owner to answer it, or the sender when the owner did
-- not). Never copied (bot/store/transfer.py): nothing in it outlives its interaction.
CREATE TABLE relayed_interactions (
    id         BIGINT  PRIMARY KEY,         -- Discord's interaction id
    shard      INTEGER NOT NULL,            -- the shard whose process is to answer it
    payload    TEXT    NOT NULL,            -- the gateway's INTERACTION_CREATE, JSON
    created_at DOUBLE PRECISION NOT NULL    -- the database server's clock (epoch seconds)
);
