-- The store becomes game-neutral: a game has a kind; a result is a place, points, won
-- and the game's own statistics as JSON counters; totals, leaderboards and settings are
-- per guild AND game kind. Every row of version 2 is Amerikaner's and is carried over:
-- its four counters become its stats. Version 2 stored no AI seat's result, so an old
-- row's place is its rank among the game's stored (human) results; ties share the
-- better place (RANK), as new results do.
ALTER TABLE games ADD COLUMN game TEXT NOT NULL DEFAULT 'amerikaner';

CREATE TABLE results_v3 (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    guild_id INTEGER NOT NULL,
    game     TEXT    NOT NULL,              -- the game kind, as in games.game
    user_id  INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    place    INTEGER NOT NULL CHECK (place >= 1),  -- 1 is first; ties share a place
    points   INTEGER NOT NULL,              -- final total of the game
    won      INTEGER NOT NULL CHECK (won IN (0, 1)),
    stats    TEXT    NOT NULL DEFAULT '{}', -- JSON {name: int}, the game's own counters
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
INSERT INTO results_v3 (game_id, guild_id, game, user_id, seat, place, points, won, stats)
SELECT game_id, guild_id, 'amerikaner', user_id, seat,
       RANK() OVER (PARTITION BY game_id ORDER BY points DESC), points, won,
       json_object('contracts_made', contracts_made, 'contracts_failed', contracts_failed,
                   'top_bids_made', top_bids_made, 'hands_played', hands_played)
FROM results;
DROP TABLE results;
ALTER TABLE results_v3 RENAME TO results;
CREATE INDEX results_member ON results (guild_id, game, user_id, game_id);

-- Running totals per (guild, game kind, user), kept by finish_game in the results'
-- transaction: a leaderboard page is an index range scan.
CREATE TABLE player_totals_v3 (
    guild_id       INTEGER NOT NULL,
    game           TEXT    NOT NULL,
    user_id        INTEGER NOT NULL,
    games          INTEGER NOT NULL DEFAULT 0,
    wins           INTEGER NOT NULL DEFAULT 0,
    points         INTEGER NOT NULL DEFAULT 0,
    stats          TEXT    NOT NULL DEFAULT '{}',  -- JSON: the sums of the results' stats
    last_played_at REAL,
    PRIMARY KEY (guild_id, game, user_id)
) WITHOUT ROWID;
INSERT INTO player_totals_v3 (guild_id, game, user_id, games, wins, points, stats,
                              last_played_at)
SELECT guild_id, 'amerikaner', user_id, games, wins, points,
       json_object('contracts_made', contracts_made, 'contracts_failed', contracts_failed,
                   'top_bids_made', top_bids_made, 'hands_played', hands_played),
       last_played_at
FROM player_totals;
DROP TABLE player_totals;
ALTER TABLE player_totals_v3 RENAME TO player_totals;
CREATE INDEX player_totals_wins
    ON player_totals (guild_id, game, wins DESC, points DESC, user_id);
CREATE INDEX player_totals_points
    ON player_totals (guild_id, game, points DESC, wins DESC, user_id);

CREATE TABLE guild_settings_v3 (
    guild_id   INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    settings   TEXT    NOT NULL,            -- JSON
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, game)
) WITHOUT ROWID;
INSERT INTO guild_settings_v3 (guild_id, game, settings, updated_at)
SELECT guild_id, 'amerikaner', settings, updated_at FROM guild_settings;
DROP TABLE guild_settings;
ALTER TABLE guild_settings_v3 RENAME TO guild_settings;

-- What a guild chooses for every game (its language, for now).
CREATE TABLE guild_prefs (
    guild_id   INTEGER PRIMARY KEY,
    language   TEXT,                        -- NULL: not chosen
    updated_at REAL NOT NULL
);
