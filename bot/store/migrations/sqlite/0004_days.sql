-- Games over days (issue 26). `games.turn_since`: when the turn to play began, by the
-- bot's clock (epoch seconds), written with each move, so that a turn timer and its
-- reminders go on after a restart from the moment the turn began (`updated_at` also
-- moves with the table message's id or a seat going away). What a member chose for
-- themselves in a server (their turn pings by DM or in the channel, ...): JSON, like
-- the guild's settings. And the hand panels the bot keeps editing for their players
-- (an interaction's webhook token, 15 minutes long), so that a restart goes on
-- following them until their tokens run out.
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
