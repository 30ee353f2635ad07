"""`amerikaner db rerate`: every rating, season, day and log rebuilt from the records.

Ratings are derived data. This clears them and replays every game's finished matches
through the functions the running bot uses (`GameKind.rating_matches`, then
`RatingBook.rate`, the same `MODEL`), guild by guild, in the order the running updates
happened: the numbers the games' rating logs gave the matches (a guild's count at each
update, so the order is exact whatever the clock did), with the seats and the time
logged. So after a parameter change the ratings are what the new model says of the same
play, and on a copied database they are the same numbers as on the original.

Matches no log holds (games played before the ratings were stored) come first, in the
order of their game's end (or last change), game id and place in the game, rated with
the game's stored seats at that time; they are logged then, so the next rerate and the
running bot go on from there. Run it with the bot stopped: it is one transaction.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.store import GameRating, GameRow, LoggedMatch, Seated, Store
from bot.tables.kind import GameKind
from bot.tables.rating_book import RatingBook, seated
from bot.tables.ratings import MODEL, RatedMatch, RatingModel


@dataclass(frozen=True)
class RerateReport:
    guilds: int
    games: int
    matches: int
    members: int
    skipped: tuple[int, ...]  # games of a kind this bot does not know, or unreadable


@dataclass(frozen=True)
class _Entry:
    key: tuple[Any, ...]  # the order the running updates happened in
    game_id: int
    pool: str
    match: RatedMatch | None  # None: a forfeit (a deal abandoned unfinished)
    seats: tuple[Seated, ...]
    at: float
    covered: tuple[int, ...] = ()
    forfeit: bool = False
    absent: tuple[int, ...] = ()


async def rerate(store: Store, games: Mapping[str, GameKind], *,
                 model: RatingModel = MODEL, min_hands: int | None = None
                 ) -> RerateReport:
    """Rebuild every rating of the store from its records, as one transaction."""
    totals = {"games": 0, "matches": 0, "members": 0}
    skipped: list[int] = []
    async with store.transaction():
        logs = await store.rating_logs()
        await store.clear_ratings()
        guilds = await store.guilds()
        for guild_id in guilds:
            entries: list[_Entry] = []
            for row in await store.games_of_guild(guild_id):
                found = await _entries(store, games, row, logs.get(row.id, ("", []))[1])
                if found is None:
                    skipped.append(row.id)
                elif found:
                    entries.extend(found)
                    totals["games"] += 1
            book = RatingBook(guild_id, 0, model=model, min_hands=min_hands)
            rated: dict[int, tuple[str, list[LoggedMatch]]] = {}
            for entry in sorted(entries, key=lambda e: e.key):
                logged = book.rate(entry.pool, entry.match, entry.seats, entry.at,
                                   entry.covered, entry.forfeit, entry.absent)
                rated.setdefault(entry.game_id, (entry.pool, []))[1].append(logged)
            if rated:
                await store.write_ratings(book.update(
                    GameRating(game_id, pool, 0, tuple(matches))
                    for game_id, (pool, matches) in sorted(rated.items())))
            totals["matches"] += len(entries)
            totals["members"] += len(book.ratings)
    return RerateReport(len(guilds), totals["games"], totals["matches"], totals["members"],
                        tuple(skipped))


async def rerate_if_due(store: Store, games: Mapping[str, GameKind]
                        ) -> RerateReport | None:
    """Rerate once if a migration says the rules of the ratings changed (the bot runs
    it at its start, before any table plays on); None if none is due."""
    if not await store.rerate_due():
        return None
    return await rerate(store, games)


async def _entries(store: Store, games: Mapping[str, GameKind], row: GameRow,
                   logged: list[LoggedMatch]) -> list[_Entry] | None:
    """The game's finished matches, each with its place in the order of updates, or
    None if the game cannot be read (its kind unknown to this bot)."""
    kind = games.get(row.game)
    if kind is None:
        return None
    record = await store.load_record(row.id, record_format=kind.record_format)
    if not record.get("hands") and not logged:
        return []  # a lobby: nothing played
    try:
        matches = kind.rating_matches(kind.load(record))
        pool = kind.rating_pool(kind.rules_from_json(row.rules))
    except Exception:
        return None
    seats = seated((s.user_id, s.ai_level) for s in sorted(row.seats, key=lambda s: s.seat))
    ended = row.finished_at if row.finished_at is not None else row.updated_at
    entries = []
    for index, entry in enumerate(logged):
        # As logged: the seats when the deal began, its covered seats, a forfeit (the
        # deal a cancel abandoned: the last of its game's log, no match of the record).
        match = None if entry.forfeit else matches[index]
        entries.append(_Entry((1, entry.number), row.id, pool, match, entry.seats,
                              entry.at, entry.covered, entry.forfeit, entry.absent))
    for index in range(len(logged), len(matches)):
        entries.append(_Entry((0, ended, row.id, index), row.id, pool, matches[index],
                              seats, ended))
    return entries
