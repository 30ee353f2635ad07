"""Numbered schema migrations for the game store, in both of its dialects.

:data:`MIGRATIONS` is the ordered list of ``(version, script)``; versions start at 1 and
go up by one. A script is one SQL text that both backends run, or a :class:`PerDialect`
pair where SQLite's and PostgreSQL's SQL differ (types, ``WITHOUT ROWID``, JSON
functions). Both backends walk the same list, so a database of either kind at version N
has the same tables, columns and rows as the other at version N.

SQLite keeps the schema version in ``PRAGMA user_version``; PostgreSQL in the one-row
table ``schema_version`` (0, or absent, for an empty database).

To change the schema, **append** a new entry (never edit an applied one): opening the
store applies every migration above the database's version, each in its own transaction
together with the version bump, so a crash mid-migration leaves the database at the
previous version.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

Dialect = Literal["sqlite", "postgresql"]


@dataclass(frozen=True, slots=True)
class PerDialect:
    """One migration written for each backend."""

    sqlite: str
    postgresql: str


def script_for(script: str | PerDialect, dialect: Dialect) -> str:
    """The SQL of one migration for one backend."""
    if isinstance(script, PerDialect):
        return script.sqlite if dialect == "sqlite" else script.postgresql
    return script

_V1: Final = """
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
"""

# The outbox: what a committed change obliges the bot to post, written in the same
# transaction as the change, marked done once posted (posted again after a crash if
# not). And the channel's games by id, for "the last finished game of this channel".
_V2: Final = """
CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    channel_id INTEGER NOT NULL,
    kind       TEXT    NOT NULL,
    params     TEXT    NOT NULL DEFAULT '{}',  -- JSON
    created_at REAL    NOT NULL,
    message_id INTEGER,                     -- what was posted (NULL if it could not be)
    done_at    REAL                         -- NULL while it is still to be posted
);
CREATE INDEX outbox_pending ON outbox (game_id, id) WHERE done_at IS NULL;
CREATE INDEX games_channel ON games (channel_id, id);
"""

# The store becomes game-neutral: a game has a kind; a result is a place, points, won
# and the game's own statistics as JSON counters; totals, leaderboards and settings are
# per guild AND game kind. Every row of version 2 is Amerikaner's and is carried over:
# its four counters become its stats. Version 2 stored no AI seat's result, so an old
# row's place is its rank among the game's stored (human) results; ties share the
# better place (RANK), as new results do.
_V3: Final = """
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
"""

# PostgreSQL: the same tables, columns and constraints. Integers are BIGINT (Discord ids
# are 64-bit), times DOUBLE PRECISION, flags INTEGER 0/1 as in SQLite so that a row
# copies over as it is (`amerikaner db copy`); ids are identity columns BY DEFAULT, so a
# copy keeps them. The partial unique index is what keeps one active game per channel
# when several processes share the database.
_PG_V1: Final = """
CREATE TABLE games (
    id           BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    guild_id     BIGINT  NOT NULL,
    channel_id   BIGINT  NOT NULL,
    host_id      BIGINT  NOT NULL,
    status       TEXT    NOT NULL DEFAULT 'active'
                 CHECK (status IN ('active', 'finished', 'cancelled')),
    rules        TEXT    NOT NULL,
    first_dealer BIGINT  NOT NULL,
    meta         TEXT    NOT NULL DEFAULT '{}',
    created_at   DOUBLE PRECISION NOT NULL,
    updated_at   DOUBLE PRECISION NOT NULL,
    finished_at  DOUBLE PRECISION
);
CREATE UNIQUE INDEX games_active_channel ON games (channel_id) WHERE status = 'active';
CREATE INDEX games_active ON games (id) WHERE status = 'active';
CREATE INDEX games_guild ON games (guild_id, id);

CREATE TABLE game_seats (
    game_id      BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         BIGINT  NOT NULL CHECK (seat >= 0),
    user_id      BIGINT,
    is_ai        INTEGER NOT NULL DEFAULT 0 CHECK (is_ai IN (0, 1)),
    ai_level     TEXT,
    display_name TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_seats_user ON game_seats (user_id, game_id) WHERE user_id IS NOT NULL;

CREATE TABLE game_hands (
    game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    hand_index BIGINT NOT NULL CHECK (hand_index >= 0),
    deal       TEXT   NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, hand_index)
);

CREATE TABLE game_actions (
    game_id    BIGINT NOT NULL,
    hand_index BIGINT NOT NULL,
    seq        BIGINT NOT NULL CHECK (seq >= 0),
    action     TEXT   NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, hand_index, seq),
    FOREIGN KEY (game_id, hand_index)
        REFERENCES game_hands (game_id, hand_index) ON DELETE CASCADE
);

CREATE TABLE results (
    game_id          BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    guild_id         BIGINT  NOT NULL,
    user_id          BIGINT  NOT NULL,
    seat             BIGINT  NOT NULL,
    points           BIGINT  NOT NULL,
    won              INTEGER NOT NULL CHECK (won IN (0, 1)),
    contracts_made   BIGINT  NOT NULL DEFAULT 0,
    contracts_failed BIGINT  NOT NULL DEFAULT 0,
    top_bids_made    BIGINT  NOT NULL DEFAULT 0,
    hands_played     BIGINT  NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX results_member ON results (guild_id, user_id, game_id);

CREATE TABLE player_totals (
    guild_id         BIGINT NOT NULL,
    user_id          BIGINT NOT NULL,
    games            BIGINT NOT NULL DEFAULT 0,
    wins             BIGINT NOT NULL DEFAULT 0,
    points           BIGINT NOT NULL DEFAULT 0,
    contracts_made   BIGINT NOT NULL DEFAULT 0,
    contracts_failed BIGINT NOT NULL DEFAULT 0,
    top_bids_made    BIGINT NOT NULL DEFAULT 0,
    hands_played     BIGINT NOT NULL DEFAULT 0,
    last_played_at   DOUBLE PRECISION,
    PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX player_totals_wins
    ON player_totals (guild_id, wins DESC, points DESC, user_id);
CREATE INDEX player_totals_points
    ON player_totals (guild_id, points DESC, wins DESC, user_id);

CREATE TABLE guild_settings (
    guild_id   BIGINT PRIMARY KEY,
    settings   TEXT NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL
);
"""

_PG_V2: Final = """
CREATE TABLE outbox (
    id         BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    channel_id BIGINT NOT NULL,
    kind       TEXT   NOT NULL,
    params     TEXT   NOT NULL DEFAULT '{}',
    created_at DOUBLE PRECISION NOT NULL,
    message_id BIGINT,
    done_at    DOUBLE PRECISION
);
CREATE INDEX outbox_pending ON outbox (game_id, id) WHERE done_at IS NULL;
CREATE INDEX games_channel ON games (channel_id, id);
"""

# As _V3, in place (PostgreSQL alters columns inside the transaction). The stats are
# JSONB here, so that finish_game sums a member's counters inside one upsert, under the
# row's lock, however many processes finish games at once.
_PG_V3: Final = """
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
"""

# Games over days (issue 26). `games.turn_since`: when the turn to play began, by the
# bot's clock (epoch seconds), written with each move, so that a turn timer and its
# reminders go on after a restart from the moment the turn began (`updated_at` also
# moves with the table message's id or a seat going away). What a member chose for
# themselves in a server (their turn pings by DM or in the channel, ...): JSON, like
# the guild's settings. And the hand panels the bot keeps editing for their players
# (an interaction's webhook token, 15 minutes long), so that a restart goes on
# following them until their tokens run out.
_V4: Final = """
ALTER TABLE games ADD COLUMN turn_since REAL;

CREATE TABLE member_settings (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    settings   TEXT    NOT NULL,            -- JSON {key: value}
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

CREATE TABLE panels (
    game_id        INTEGER NOT NULL,
    user_id        INTEGER NOT NULL,
    application_id INTEGER NOT NULL,
    token          TEXT    NOT NULL,        -- the interaction's webhook token
    language       TEXT    NOT NULL,        -- the panel's reader's language
    since          REAL    NOT NULL,        -- when the interaction was made (epoch)
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;
CREATE INDEX panels_since ON panels (since);
"""

_PG_V4: Final = """
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
"""

# Ratings (issue 28), derived from the records (`amerikaner db rerate` rebuilds them):
# `ratings`: each member's current rating per (guild, pool); `ordinal` is stored (it is
# what boards sort by) with `ranked` (enough rated hands to be on a board), so a board
# page is a range scan of `ratings_board`. `rating_seasons`: the same per month
# ('YYYY-MM', UTC, by the bot's clock), each month starting afresh, so a month's board
# is exact and never recomputed from today's ratings. `rating_days`: one row per member
# per day they were rated (their rating at the end of that day), what the 30-day trend
# reads; not a row per hand. `rating_games`: how many of a game's matches are rated
# (written in the commit of the move that finished them, so a restart neither loses nor
# doubles one) and its log: per rated match its number in the pool, the bot's time and
# who sat where (members' ids, AI levels), so that `rerate` replays exactly what the
# running updates did even after seats changed hands. `rating_counts`: how many matches
# a guild has rated: the numbers of the logs (the order of the updates, whatever the
# clock did), checked at each update so two writers cannot both take the same number.
_V5: Final = """
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
"""

_PG_V5: Final = """
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
"""

MIGRATIONS: Final[list[tuple[int, str | PerDialect]]] = [
    (1, PerDialect(_V1, _PG_V1)),
    (2, PerDialect(_V2, _PG_V2)),
    (3, PerDialect(_V3, _PG_V3)),
    (4, PerDialect(_V4, _PG_V4)),
    (5, PerDialect(_V5, _PG_V5)),
]
"""Ordered ``(version, sql_script)`` pairs. Append only."""


def latest_version() -> int:
    """The schema version a fully migrated database has."""
    return MIGRATIONS[-1][0] if MIGRATIONS else 0


def _check(migrations: list[tuple[int, str | PerDialect]]) -> None:
    for expected, (version, _) in enumerate(migrations, start=1):
        if version != expected:
            raise RuntimeError(f"migration versions must be 1, 2, 3...; got {version}")


_check(MIGRATIONS)
