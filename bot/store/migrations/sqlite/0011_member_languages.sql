-- A member's own language, in every server (issue 55): what they alone read (their
-- answers, hand panels, direct messages) in a language they chose with /language rather
-- than their Discord's. Discord sends a user's locale with each interaction, but only
-- from its own list of locales, which has no Persian (nor any right-to-left language):
-- https://discord.com/developers/docs/reference#locales. No row: their Discord's.
CREATE TABLE member_languages (
    user_id    INTEGER PRIMARY KEY,
    language   TEXT    NOT NULL,            -- a language the bot speaks ("en", "nb", "fa")
    updated_at REAL    NOT NULL
);
