-- Issue 36: ratings measure only a member's own play (README, "Ratings"). The rules that
-- make a rating from the records changed, so every server's ratings are rebuilt once
-- under them: a row here says a rerate is due; the bot runs `rerate` at its next start
-- (bot/app.py) and the rerate deletes the row in its own transaction
-- (`Store.clear_ratings`), so it runs exactly once, and a crash mid-rerate leaves it due.
-- Only a database with rated games gets the row: a new one has nothing to rebuild (and a
-- copy into a new database brings the source's row, if any, with it).
-- A later change of the rules adds its own row in a migration of its own.
CREATE TABLE rerate_due (
    reason TEXT PRIMARY KEY
);
INSERT INTO rerate_due (reason)
    SELECT 'own-play-only' WHERE EXISTS (SELECT 1 FROM rating_games);

-- The rating boards show every rated member: the settled ones (`ranked`: enough rated
-- deals) first, then the provisional ones, each by ordinal: one range scan of these.
DROP INDEX ratings_board;
CREATE INDEX ratings_board ON ratings (guild_id, pool, ranked DESC, ordinal DESC, user_id);
DROP INDEX rating_seasons_board;
CREATE INDEX rating_seasons_board
    ON rating_seasons (guild_id, pool, month, ranked DESC, ordinal DESC, user_id);
