"""Numbered schema migrations for the game store.

``PRAGMA user_version`` holds the schema version of a database file: 0 for an empty
file, otherwise the version of the last migration applied. :data:`MIGRATIONS` is the
ordered list of ``(version, sql_script)``; versions start at 1 and go up by one.

To change the schema, **append** a new entry (never edit an applied one): the next
``Store.open`` applies every migration above the file's ``user_version``, each in its
own transaction together with the version bump, so a crash mid-migration leaves the
file at the previous version.
"""

from __future__ import annotations

from typing import Final

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

MIGRATIONS: Final[list[tuple[int, str]]] = [
    (1, _V1),
    (2, _V2),
]
"""Ordered ``(version, sql_script)`` pairs. Append only."""


def latest_version() -> int:
    """The schema version a fully migrated database has."""
    return MIGRATIONS[-1][0] if MIGRATIONS else 0


def _check(migrations: list[tuple[int, str]]) -> None:
    for expected, (version, _) in enumerate(migrations, start=1):
        if version != expected:
            raise RuntimeError(f"migration versions must be 1, 2, 3...; got {version}")


_check(MIGRATIONS)
