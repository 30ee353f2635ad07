CREATE TABLE games (
    id           INTEGER PRIMARY KEY,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    host_id      INTEGER NOT NULL,
    status       TEXT    NOT NULL DEFAULT 'active'
                 CHECK (status IN ('active', 'finished', 'cancelled')),
    rules        TEXT    NOT NULL,          -- JSON, the record's "rules"
    first_dealer INTEGER NOT NULL,
    meta         TEXT    NOT NULL DEFAULT '{}',  -- JSON for the table service
    created_at   REAL    NOT NULL,          -- unix seconds
    updated_at   REAL    NOT NULL,
    finished_at  REAL                       -- set when finished or cancelled
);
-- At most one active game per channel; also serves active_game_in_channel().
CREATE UNIQUE INDEX games_active_channel ON games (channel_id) WHERE status = 'active';
-- unfinished_games() after a restart.
CREATE INDEX games_active ON games (id) WHERE status = 'active';
CREATE INDEX games_guild ON games (guild_id, id);

CREATE TABLE game_seats (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL CHECK (seat >= 0),
    user_id      INTEGER,                   -- NULL for an AI seat
    is_ai        INTEGER NOT NULL DEFAULT 0 CHECK (is_ai IN (0, 1)),
    ai_level     TEXT,
    display_name TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE INDEX game_seats_user ON game_seats (user_id, game_id) WHERE user_id IS NOT NULL;

CREATE TABLE game_hands (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    hand_index INTEGER NOT NULL CHECK (hand_index >= 0),
    deal       TEXT    NOT NULL,            -- JSON: the hand minus "actions"
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, hand_index)
) WITHOUT ROWID;

CREATE TABLE game_actions (
    game_id    INTEGER NOT NULL,
    hand_index INTEGER NOT NULL,
    seq        INTEGER NOT NULL CHECK (seq >= 0),
    action     TEXT    NOT NULL,            -- JSON: exactly the record's action object
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, hand_index, seq),
    FOREIGN KEY (game_id, hand_index)
        REFERENCES game_hands (game_id, hand_index) ON DELETE CASCADE
) WITHOUT ROWID;

CREATE TABLE results (
    game_id          INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    guild_id         INTEGER NOT NULL,
    user_id          INTEGER NOT NULL,
    seat             INTEGER NOT NULL,
    points           INTEGER NOT NULL,      -- final total of the game
    won              INTEGER NOT NULL CHECK (won IN (0, 1)),
    contracts_made   INTEGER NOT NULL DEFAULT 0,
    contracts_failed INTEGER NOT NULL DEFAULT 0,
    top_bids_made    INTEGER NOT NULL DEFAULT 0,  -- Amerikaner / Kani made
    hands_played     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE INDEX results_member ON results (guild_id, user_id, game_id);

-- Per-(guild, user) running totals, maintained by finish_game in the same
-- transaction as the results rows: the leaderboard is an index range scan.
CREATE TABLE player_totals (
    guild_id         INTEGER NOT NULL,
    user_id          INTEGER NOT NULL,
    games            INTEGER NOT NULL DEFAULT 0,
    wins             INTEGER NOT NULL DEFAULT 0,
    points           INTEGER NOT NULL DEFAULT 0,
    contracts_made   INTEGER NOT NULL DEFAULT 0,
    contracts_failed INTEGER NOT NULL DEFAULT 0,
    top_bids_made    INTEGER NOT NULL DEFAULT 0,
    hands_played     INTEGER NOT NULL DEFAULT 0,
    last_played_at   REAL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;
CREATE INDEX player_totals_wins
    ON player_totals (guild_id, wins DESC, points DESC, user_id);
CREATE INDEX player_totals_points
    ON player_totals (guild_id, points DESC, wins DESC, user_id);

CREATE TABLE guild_settings (
    guild_id   INTEGER PRIMARY KEY,
    settings   TEXT NOT NULL,               -- JSON
    updated_at REAL NOT NULL
);
