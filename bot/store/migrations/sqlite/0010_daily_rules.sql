-- A day's rules of the deal of the day, fixed at its first play (or at the first change
-- of the daily's settings that day) and kept with the day, so that a settings change, or
-- the server's `players`, takes effect the next day and never replays a play under way
-- on another deal (issue 50). `settings`: JSON {"preset", "house", "players", "level",
-- "time_zone"}; `ends_at`: the epoch second the day ends (midnight after it in the time
-- zone it was fixed in): a play of the day can be continued until `ends_at` plus the
-- daily's grace (bot/tables/daily.py, GRACE), then it is scored as abandoned, and the
-- next day begins only once this one has ended, so a time-zone change never opens a
-- second day in one real day. A play scored as abandoned is a `daily_plays` row with a
-- `finished_at` and no `score` (nor game record).
CREATE TABLE daily_rules (
    guild_id INTEGER NOT NULL,
    game     TEXT    NOT NULL,
    day      TEXT    NOT NULL,
    settings TEXT    NOT NULL,
    ends_at  REAL    NOT NULL,
    PRIMARY KEY (guild_id, game, day)
) WITHOUT ROWID;

-- Plays left unfinished on the days scored before this migration count from now on
-- (abandoned): those days are scored again when a ladder first reads them.
DELETE FROM daily_ladders;
DELETE FROM daily_points;
DELETE FROM daily_scored;
