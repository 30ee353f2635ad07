-- As sqlite/0010_daily_rules.sql.
CREATE TABLE daily_rules (
    guild_id BIGINT NOT NULL,
    game     TEXT   NOT NULL,
    day      TEXT   NOT NULL,
    settings TEXT   NOT NULL,
    ends_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, game, day)
);

DELETE FROM daily_ladders;
DELETE FROM daily_points;
DELETE FROM daily_scored;
