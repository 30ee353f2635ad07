"""What happened at a table since a member's last move ("While you were away", issue
35 part 4), read from the game's record: pure, and it knows no game (the record's
actions carry their seat; a game words them itself, GameWords.describe_action, and
tells what only it can see in them, GameWords.recap_facts: who took the tricks, who
picked up the pile, a deal's result).

Absence, as chosen here, is stateless where it can be: the actions after the member's
own last action at the table (the record holds who played what), or after the last
panel they opened, whichever is later (the caller remembers that one, in memory: after
a restart a member may read the recap once more). Nothing is shown unless someone else
acted since, so a member who just moved, or who already saw the panel, reads nothing."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any


def played_for_key(table_id: int) -> str:
    """The member setting that holds the positions of the moves the AI made in their
    name at a table (cogs/tables/recaps.py keeps them; every recap names them)."""
    return f"played_for_{table_id}"


# The recap names at most this many of the latest actions (one short line on a phone);
# more are told as "…" before them.
RECAP_ACTIONS = 6


@dataclass(frozen=True)
class Since:
    """The actions since the member's last move (the latest RECAP_ACTIONS of them, as
    the record stores them; of the running deal only, if one ended meanwhile), whether
    earlier ones were left out, and the index of the last deal that ended meanwhile
    (None: none did)."""

    actions: tuple[Mapping[str, Any], ...]
    more: bool
    deal_ended: int | None
    # Where the stretch since the member's last move begins: a deal's index and the
    # index of its first action told (the game's recap_facts reads from there on).
    first: tuple[int, int] = (0, 0)
    # The member's own seat's actions within the stretch that the AI chose for them (a
    # turn whose time ran out, a seat it covered), each with its deal's index: all of
    # them, however many, since the recap names each (issue 52: the card the AI played
    # for you is not lost when the next ping replaces the DM that told it).
    for_them: tuple[tuple[int, Mapping[str, Any]], ...] = ()

    def start_in(self, deal: int) -> int | None:
        """The first action of deal `deal` within the stretch (0: the whole deal; None:
        the deal was over before the stretch began)."""
        first_deal, first_seq = self.first
        if deal < first_deal:
            return None
        return first_seq if deal == first_deal else 0


def since_last_move(hands: Sequence[Mapping[str, Any]], seat: int,
                    seen: int = 0, not_theirs: Collection[int] = ()) -> Since | None:
    """What the record's `hands` (each with its ordered "actions") hold after `seat`'s
    last action and after the first `seen` actions of the game (the version of the
    panel the member last saw); None when no other seat acted since. `not_theirs`: the
    positions (in the game's actions, from 0) of `seat`'s actions the AI chose for the
    member: not their move, so told like the others' (Since.for_them)."""
    flat = [(index, seq, action) for index, hand in enumerate(hands)
            for seq, action in enumerate(hand.get("actions", ()))]
    start = seen
    for position, (_, _, action) in enumerate(flat):
        if action.get("seat") == seat and position not in not_theirs:
            start = max(start, position + 1)
    stretch = flat[start:]
    for_them = tuple((index, action) for position, (index, _, action)
                     in enumerate(flat[start:], start=start)
                     if position in not_theirs and action.get("seat") == seat)
    if not for_them and not any(action.get("seat") != seat for _, _, action in stretch):
        return None
    first = stretch[0][:2]
    # A deal ended meanwhile when a later one began (the last deal may be running).
    ended = len(hands) - 2 if first[0] < len(hands) - 1 else None
    after = [(index, action) for index, _, action in stretch]
    if ended is not None:
        # Its result is told; the plays named are the running deal's only (perhaps
        # none yet): a card played in an earlier deal may be in someone's hand now.
        after = [(index, action) for index, action in after if index == len(hands) - 1]
    return Since(tuple(action for _, action in after[-RECAP_ACTIONS:]),
                 len(after) > RECAP_ACTIONS, ended, first, for_them)
