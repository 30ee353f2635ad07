ALTER TABLE games ADD COLUMN turn_since DOUBLE PRECISION;

CREATE TABLE member_settings (
    guild_id   BIGINT NOT NULL,
    user_id    BIGINT NOT NULL,
    settings   TEXT   NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

CREATE TABLE panels (
    game_id        BIGINT NOT NULL,
    user_id        BIGINT NOT NULL,
    application_id BIGINT NOT NULL,
    token          TEXT   NOT NULL,
    language       TEXT   NOT NULL,
    since          DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX panels_since ON panels (since);
