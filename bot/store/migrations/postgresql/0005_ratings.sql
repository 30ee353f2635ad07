CREATE TABLE ratings (
    guild_id   BIGINT  NOT NULL,
    pool       TEXT    NOT NULL,
    user_id    BIGINT  NOT NULL,
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL,
    ordinal    DOUBLE PRECISION NOT NULL,
    hands      BIGINT  NOT NULL,
    ranked     INTEGER NOT NULL CHECK (ranked IN (0, 1)),
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, pool, user_id)
);
CREATE INDEX ratings_board ON ratings (guild_id, pool, ranked, ordinal DESC, user_id);

CREATE TABLE rating_seasons (
    guild_id   BIGINT  NOT NULL,
    pool       TEXT    NOT NULL,
    month      TEXT    NOT NULL,
    user_id    BIGINT  NOT NULL,
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL,
    ordinal    DOUBLE PRECISION NOT NULL,
    hands      BIGINT  NOT NULL,
    ranked     INTEGER NOT NULL CHECK (ranked IN (0, 1)),
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, pool, month, user_id)
);
CREATE INDEX rating_seasons_board
    ON rating_seasons (guild_id, pool, month, ranked, ordinal DESC, user_id);

CREATE TABLE rating_days (
    guild_id BIGINT NOT NULL,
    pool     TEXT   NOT NULL,
    user_id  BIGINT NOT NULL,
    day      TEXT   NOT NULL,
    mu       DOUBLE PRECISION NOT NULL,
    sigma    DOUBLE PRECISION NOT NULL,
    ordinal  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, pool, user_id, day)
);

CREATE TABLE rating_games (
    game_id  BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    guild_id BIGINT NOT NULL,
    pool     TEXT   NOT NULL,
    rated    BIGINT NOT NULL,
    log      TEXT   NOT NULL DEFAULT '[]'
);

CREATE TABLE rating_counts (
    guild_id BIGINT PRIMARY KEY,
    matches  BIGINT NOT NULL
);
