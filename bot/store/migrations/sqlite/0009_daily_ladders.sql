-- The deal of the day's ladders (issue 38), cheap by design: a weekly ladder is the
-- calendar week's (Monday to Sunday), a monthly one the calendar month's, and each is a
-- per-member aggregate kept as the days are scored (`daily_score_day`, in the same
-- transaction as the day's `daily_points`), so reading a ladder reads one row per member
-- of the period: `period` is 'week:YYYY-MM-DD' (its Monday) or 'month:YYYY-MM'
-- (bot/store/models.py, ladder_period). A play finished late (begun before its day
-- turned) takes its day's points back out of the aggregates, to be scored again.
CREATE TABLE daily_ladders (
    guild_id     INTEGER NOT NULL,
    game         TEXT    NOT NULL,
    period       TEXT    NOT NULL,
    user_id      INTEGER NOT NULL,
    display_name TEXT    NOT NULL,
    total        REAL    NOT NULL,          -- the sum of the member's days' matchpoints
    days         INTEGER NOT NULL,          -- the days scored in the period
    PRIMARY KEY (guild_id, game, period, user_id)
) WITHOUT ROWID;

-- The days scored before this migration are scored again when a ladder first reads them,
-- so that every day is in the new aggregates.
DELETE FROM daily_points;
DELETE FROM daily_scored;
