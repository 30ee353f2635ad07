-- The deal of the day (issue 38). `daily_plays`: one row per member, server, game and
-- day: the deal's actions so far as the record stores them (the member's and the AI
-- players'), so a play goes on after a pause or a restart, and the primary key makes it
-- one try per member per day. Once finished: the result (`score`, GameKind.deal_score as
-- a JSON list, the larger the better) and the game record it was written as (`game_id`,
-- a normal finished game whose meta names its day). Matchpoints are not stored: each
-- result's depends on every other result of its day, so boards compute them from the
-- day's scores (an index range scan: `daily_board`). `daily_days`: the day's public
-- message in a server (its channel, its id, what it last showed), so it is edited, not
-- posted again. `bot_values`: values the bot keeps for itself (the daily's secret when
-- no setting gives one).
CREATE TABLE daily_plays (
    guild_id     INTEGER NOT NULL,
    game         TEXT    NOT NULL,
    day          TEXT    NOT NULL,          -- 'YYYY-MM-DD' in the server's time zone
    user_id      INTEGER NOT NULL,
    display_name TEXT    NOT NULL,
    actions      TEXT    NOT NULL DEFAULT '[]',  -- JSON [record action, ...] of deal 0
    started_at   REAL    NOT NULL,
    updated_at   REAL    NOT NULL,
    finished_at  REAL,
    score        TEXT,                      -- JSON [int, ...] once finished
    game_id      INTEGER,                   -- the finished play's game record
    PRIMARY KEY (guild_id, game, day, user_id)
) WITHOUT ROWID;
CREATE INDEX daily_board ON daily_plays (guild_id, game, day) WHERE finished_at IS NOT NULL;

CREATE TABLE daily_days (
    guild_id   INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    day        TEXT    NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER,                     -- NULL until posted
    shown      TEXT    NOT NULL DEFAULT '', -- what the message last showed (a digest)
    PRIMARY KEY (guild_id, game, day)
) WITHOUT ROWID;

CREATE TABLE bot_values (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;

-- The matchpoints of the days that are over, computed once a day is first read by a
-- ladder (a day's matchpoints depend on all of its results, and none comes after the
-- day), so a weekly or monthly ladder is one aggregate over an index range. A play
-- finished late (begun before the day turned) drops its day's rows, to be computed again.
CREATE TABLE daily_points (
    guild_id     INTEGER NOT NULL,
    game         TEXT   NOT NULL,
    day          TEXT   NOT NULL,
    user_id      INTEGER NOT NULL,
    display_name TEXT   NOT NULL,
    matchpoints  REAL   NOT NULL,
    PRIMARY KEY (guild_id, game, day, user_id)
) WITHOUT ROWID;

CREATE TABLE daily_scored (
    guild_id INTEGER NOT NULL,
    game     TEXT   NOT NULL,
    day      TEXT   NOT NULL,
    PRIMARY KEY (guild_id, game, day)
) WITHOUT ROWID;
