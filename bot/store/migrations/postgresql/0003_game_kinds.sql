-- As sqlite/0003_game_kinds.sql, in place (PostgreSQL alters columns inside the transaction). The stats are
-- JSONB here, so that finish_game sums a member's counters inside one upsert, under the
-- row's lock, however many processes finish games at once.
ALTER TABLE games ADD COLUMN game TEXT NOT NULL DEFAULT 'amerikaner';

CREATE TABLE results_v3 (
    game_id  BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    guild_id BIGINT  NOT NULL,
    game     TEXT    NOT NULL,
    user_id  BIGINT  NOT NULL,
    seat     BIGINT  NOT NULL,
    place    BIGINT  NOT NULL CHECK (place >= 1),
    points   BIGINT  NOT NULL,
    won      INTEGER NOT NULL CHECK (won IN (0, 1)),
    stats    JSONB   NOT NULL DEFAULT '{}',
    PRIMARY KEY (game_id, seat)
);
INSERT INTO results_v3 (game_id, guild_id, game, user_id, seat, place, points, won, stats)
SELECT game_id, guild_id, 'amerikaner', user_id, seat,
       RANK() OVER (PARTITION BY game_id ORDER BY points DESC), points, won,
       jsonb_build_object('contracts_made', contracts_made,
                          'contracts_failed', contracts_failed,
                          'top_bids_made', top_bids_made, 'hands_played', hands_played)
FROM results;
DROP TABLE results;
ALTER TABLE results_v3 RENAME TO results;
ALTER TABLE results RENAME CONSTRAINT results_v3_pkey TO results_pkey;
CREATE INDEX results_member ON results (guild_id, game, user_id, game_id);

CREATE TABLE player_totals_v3 (
    guild_id       BIGINT NOT NULL,
    game           TEXT   NOT NULL,
    user_id        BIGINT NOT NULL,
    games          BIGINT NOT NULL DEFAULT 0,
    wins           BIGINT NOT NULL DEFAULT 0,
    points         BIGINT NOT NULL DEFAULT 0,
    stats          JSONB  NOT NULL DEFAULT '{}',
    last_played_at DOUBLE PRECISION,
    PRIMARY KEY (guild_id, game, user_id)
);
INSERT INTO player_totals_v3 (guild_id, game, user_id, games, wins, points, stats,
                              last_played_at)
SELECT guild_id, 'amerikaner', user_id, games, wins, points,
       jsonb_build_object('contracts_made', contracts_made,
                          'contracts_failed', contracts_failed,
                          'top_bids_made', top_bids_made, 'hands_played', hands_played),
       last_played_at
FROM player_totals;
DROP TABLE player_totals;
ALTER TABLE player_totals_v3 RENAME TO player_totals;
ALTER TABLE player_totals RENAME CONSTRAINT player_totals_v3_pkey TO player_totals_pkey;
CREATE INDEX player_totals_wins
    ON player_totals (guild_id, game, wins DESC, points DESC, user_id);
CREATE INDEX player_totals_points
    ON player_totals (guild_id, game, points DESC, wins DESC, user_id);

CREATE TABLE guild_settings_v3 (
    guild_id   BIGINT NOT NULL,
    game       TEXT   NOT NULL,
    settings   TEXT   NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, game)
);
INSERT INTO guild_settings_v3 (guild_id, game, settings, updated_at)
SELECT guild_id, 'amerikaner', settings, updated_at FROM guild_settings;
DROP TABLE guild_settings;
ALTER TABLE guild_settings_v3 RENAME TO guild_settings;
ALTER TABLE guild_settings RENAME CONSTRAINT guild_settings_v3_pkey TO guild_settings_pkey;

CREATE TABLE guild_prefs (
    guild_id   BIGINT PRIMARY KEY,
    language   TEXT,
    updated_at DOUBLE PRECISION NOT NULL
);
