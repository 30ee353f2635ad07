-- Ratings (issue 28), derived from the records (`amerikaner db rerate` rebuilds them):
-- `ratings`: each member's current rating per (guild, pool); `ordinal` is stored (it is
-- what boards sort by) with `ranked` (enough rated hands to be on a board), so a board
-- page is a range scan of `ratings_board`. `rating_seasons`: the same per month
-- ('YYYY-MM', UTC, by the bot's clock), each month starting afresh, so a month's board
-- is exact and never recomputed from today's ratings. `rating_days`: one row per member
-- per day they were rated (their rating at the end of that day), what the 30-day trend
-- reads; not a row per hand. `rating_games`: how many of a game's matches are rated
-- (written in the commit of the move that finished them, so a restart neither loses nor
-- doubles one) and its log: per rated match its number in the pool, the bot's time and
-- who sat where (members' ids, AI levels), so that `rerate` replays exactly what the
-- running updates did even after seats changed hands. `rating_counts`: how many matches
-- a guild has rated: the numbers of the logs (the order of the updates, whatever the
-- clock did), checked at each update so two writers cannot both take the same number.
CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    pool       TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    ordinal    REAL    NOT NULL,
    hands      INTEGER NOT NULL,            -- rated matches
    ranked     INTEGER NOT NULL CHECK (ranked IN (0, 1)),
    updated_at REAL    NOT NULL,            -- the bot's time of the last rated match
    PRIMARY KEY (guild_id, pool, user_id)
) WITHOUT ROWID;
CREATE INDEX ratings_board ON ratings (guild_id, pool, ranked, ordinal DESC, user_id);

CREATE TABLE rating_seasons (
    guild_id   INTEGER NOT NULL,
    pool       TEXT    NOT NULL,
    month      TEXT    NOT NULL,            -- 'YYYY-MM'
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    ordinal    REAL    NOT NULL,
    hands      INTEGER NOT NULL,
    ranked     INTEGER NOT NULL CHECK (ranked IN (0, 1)),
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, pool, month, user_id)
) WITHOUT ROWID;
CREATE INDEX rating_seasons_board
    ON rating_seasons (guild_id, pool, month, ranked, ordinal DESC, user_id);

CREATE TABLE rating_days (
    guild_id INTEGER NOT NULL,
    pool     TEXT    NOT NULL,
    user_id  INTEGER NOT NULL,
    day      TEXT    NOT NULL,              -- 'YYYY-MM-DD'
    mu       REAL    NOT NULL,
    sigma    REAL    NOT NULL,
    ordinal  REAL    NOT NULL,
    PRIMARY KEY (guild_id, pool, user_id, day)
) WITHOUT ROWID;

CREATE TABLE rating_games (
    game_id  INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    guild_id INTEGER NOT NULL,
    pool     TEXT    NOT NULL,
    rated    INTEGER NOT NULL,
    log      TEXT    NOT NULL DEFAULT '[]'  -- JSON [[number, time, [seat, ...]], ...]
);

CREATE TABLE rating_counts (
    guild_id INTEGER PRIMARY KEY,
    matches  INTEGER NOT NULL
);
