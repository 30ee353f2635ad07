-- As sqlite/0007_daily.sql.
CREATE TABLE daily_plays (
    guild_id     BIGINT NOT NULL,
    game         TEXT   NOT NULL,
    day          TEXT   NOT NULL,
    user_id      BIGINT NOT NULL,
    display_name TEXT   NOT NULL,
    actions      TEXT   NOT NULL DEFAULT '[]',
    started_at   DOUBLE PRECISION NOT NULL,
    updated_at   DOUBLE PRECISION NOT NULL,
    finished_at  DOUBLE PRECISION,
    score        TEXT,
    game_id      BIGINT,
    PRIMARY KEY (guild_id, game, day, user_id)
);
CREATE INDEX daily_board ON daily_plays (guild_id, game, day) WHERE finished_at IS NOT NULL;

CREATE TABLE daily_days (
    guild_id   BIGINT NOT NULL,
    game       TEXT   NOT NULL,
    day        TEXT   NOT NULL,
    channel_id BIGINT NOT NULL,
    message_id BIGINT,
    shown      TEXT   NOT NULL DEFAULT '',
    PRIMARY KEY (guild_id, game, day)
);

CREATE TABLE bot_values (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- The matchpoints of the days that are over, computed once a day is first read by a
-- ladder (a day's matchpoints depend on all of its results, and none comes after the
-- day), so a weekly or monthly ladder is one aggregate over an index range. A play
-- finished late (begun before the day turned) drops its day's rows, to be computed again.
CREATE TABLE daily_points (
    guild_id     BIGINT NOT NULL,
    game         TEXT   NOT NULL,
    day          TEXT   NOT NULL,
    user_id      BIGINT NOT NULL,
    display_name TEXT   NOT NULL,
    matchpoints  DOUBLE PRECISION   NOT NULL,
    PRIMARY KEY (guild_id, game, day, user_id)
);

CREATE TABLE daily_scored (
    guild_id BIGINT NOT NULL,
    game     TEXT   NOT NULL,
    day      TEXT   NOT NULL,
    PRIMARY KEY (guild_id, game, day)
);
