-- As sqlite/0009_daily_ladders.sql.
CREATE TABLE daily_ladders (
    guild_id     BIGINT NOT NULL,
    game         TEXT   NOT NULL,
    period       TEXT   NOT NULL,
    user_id      BIGINT NOT NULL,
    display_name TEXT   NOT NULL,
    total        DOUBLE PRECISION NOT NULL,
    days         INTEGER NOT NULL,
    PRIMARY KEY (guild_id, game, period, user_id)
);

DELETE FROM daily_points;
DELETE FROM daily_scored;
