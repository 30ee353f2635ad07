"""The words of "While you were away" (issue 35): what happened at a table since a
member's last move or last look, read from the game's record (bot/tables/since.py) and
worded by the game (GameWords.describe_action, recap_facts, deal_score_text) in at most
three lines (since_lines). One place for the hand panel's recap (cogs/tables/recaps.py)
and the Activity's page's (bot/web/server.py)."""

from __future__ import annotations

import contextlib
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from bot.errors import GameError
from bot.render.days import played_for_you, since_lines
from bot.tables.kind import GameKind
from bot.tables.since import Since, since_last_move


def recap_lines(kind: GameKind, game: Any, to_act: int | None, names: Sequence[str],
                record: Mapping[str, Any], seat: int, seen: int,
                for_them: Collection[int] = ()) -> list[str]:
    """What happened at a table of `kind` (its `game` now, whose turn it is: `to_act`)
    since `seat`'s last move there and since the state version `seen` the member last
    saw (the table's `record`, the store's); none if nobody else acted since. Worded
    from the public record only (describe_action words an action as everyone saw it: an
    exchange by its count, never its cards). `for_them`: the positions of the seat's
    moves the AI made in the member's name (named first). `names`: the seats' names as
    the reader's front shows them."""
    if game is None:
        return []
    since = since_last_move(record.get("hands", ()), seat, seen, for_them)
    if since is None:
        return []
    words = kind.words
    told = {id(action) for _, action in since.for_them}  # named below, apart
    played = [(names[int(action["seat"])], words.describe_action(action))
              for action in since.actions if id(action) not in told]
    result = None
    ended_facts: list[str] = []
    if since.deal_ended is not None:
        with contextlib.suppress(GameError):
            result = words.deal_score_text(kind.deal_score(game, since.deal_ended, seat))
        ended_facts = _facts(kind, game, since, since.deal_ended, names)
    # The running deal's facts (who took the tricks since, ...), the game's own.
    running = len(record.get("hands", ())) - 1
    facts = _facts(kind, game, since, running, names)
    # First of all, what the AI played in the member's name (issue 52).
    ended_facts = [*played_for_you([words.describe_action(action) for deal, action
                                    in since.for_them if deal != running]), *ended_facts]
    facts = [*played_for_you([words.describe_action(action) for deal, action
                              in since.for_them if deal == running]), *facts]
    return since_lines(played, since.more, since.deal_ended, result,
                       names[to_act] if to_act is not None else None,
                       to_act == seat, ended_facts, facts)


def _facts(kind: GameKind, game: Any, since: Since, deal: int, names: Sequence[str]
           ) -> list[str]:
    """The game's facts of `deal` within the stretch `since` tells (none if the deal
    lies before it): GameWords.recap_facts."""
    start = since.start_in(deal)
    if start is None or deal < 0:
        return []
    return kind.words.recap_facts(game, deal, start, names)
