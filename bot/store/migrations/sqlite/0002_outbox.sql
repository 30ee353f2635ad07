-- The outbox: what a committed change obliges the bot to post, written in the same
-- transaction as the change, marked done once posted (posted again after a crash if
-- not). And the channel's games by id, for "the last finished game of this channel".
CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    channel_id INTEGER NOT NULL,
    kind       TEXT    NOT NULL,
    params     TEXT    NOT NULL DEFAULT '{}',  -- JSON
    created_at REAL    NOT NULL,
    message_id INTEGER,                     -- what was posted (NULL if it could not be)
    done_at    REAL                         -- NULL while it is still to be posted
);
CREATE INDEX outbox_pending ON outbox (game_id, id) WHERE done_at IS NULL;
CREATE INDEX games_channel ON games (channel_id, id);
