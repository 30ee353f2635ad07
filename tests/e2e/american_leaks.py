"""The leak checker's rules for American (docs/rules-american.md section 9), called by
`LeakChecker` (tests/e2e/driver.py) for every message version written at an American
table: no public message shows a card in a hand that nobody saw go there, a face-down
card or the deck; an ephemeral message shows its owner's seat only what it may know (its
own face-down cards included: nobody sees them before they are taken up)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from bot.cards import card_name, is_card, parse_card
from bot.games.american.state import DealState
from bot.games.american.views import deal_view, known_cards
from bot.render import seat_label
from bot.tables.table import Table
from tests.fake_discord import StoredMessage

if TYPE_CHECKING:
    from tests.e2e.driver import LeakChecker

_DEAL = re.compile(r"Deal (\d+)")


def hidden_from_public(state: DealState) -> set[int]:
    """Cards nobody but (perhaps) their holder may know now: hand cards nobody saw go
    there, face-down cards, the deck."""
    hidden: set[int] = set()
    for seat in range(state.n):
        hand = state.hands[seat] & ~state.known[seat]
        hidden.update(c for c in range(52) if hand >> c & 1)
        hidden.update(state.down[seat])
    hidden.update(state.deck[state.deck_pos:])
    return hidden


def check(checker: LeakChecker, table: Table, msg: StoredMessage, text: str) -> None:
    from tests.e2e.driver import Violation, cards_in_text

    game = table.game
    state = game.current
    match = _DEAL.search(text)
    if match is not None and 1 <= int(match.group(1)) <= len(game.deals):
        state = game.deals[int(match.group(1)) - 1]  # a message about an earlier deal
    title = msg.embeds[0].get("title", "") if msg.embeds else ""
    review = re.match(r"Deal (\d+) face up", title)
    if review is not None:
        # A review: the deal face up, allowed once it is over, never before.
        number = int(review.group(1))
        if not (1 <= number <= len(game.deals) and game.deals[number - 1].finished):
            checker.violations.append(Violation(
                f"a review of deal {number}, which is not over", msg.id, text))
        return
    shown = cards_in_text(text)
    seat = table.seat_of(msg.visible_to) if msg.visible_to is not None else None
    if msg.visible_to is None or seat is None:
        checker.checked_public += msg.visible_to is None
        if msg.visible_to is None:
            checker.checked_ids.add(msg.id)
        leaked = shown & hidden_from_public(state)
        if leaked:
            checker.violations.append(Violation(
                f"a public message or a non-player shows hidden cards {_names(leaked)}",
                msg.id, text))
        if "Your hand" in text and msg.visible_to is None:
            checker.violations.append(Violation("a hand panel sent publicly", msg.id, text))
        return
    if title.startswith("Your hand"):
        checker.checked_ephemeral += 1
        checker.checked_ids.add(msg.id)
        if title != f"Your hand — {seat_label(table.seats, seat)}":
            checker.violations.append(Violation(
                f"hand panel {title!r} shown to seat {seat}", msg.id, text))
            return
    allowed = known_cards(deal_view(state, seat)) | _typed_by_user(checker, msg)
    if state is not game.current and game.current is not None:
        # A message that names an earlier deal ("Deal 2 is over", the catch-up at the top
        # of a hand panel) may go on to show the seat's cards in the deal being played.
        allowed |= known_cards(deal_view(game.current, seat))
    extra = shown - allowed
    if extra and state is game.current and len(game.deals) >= 2:
        # A panel drawn as a deal ended may arrive once the next is dealt: it may show
        # what the seat knew at the end of that deal.
        extra -= known_cards(deal_view(game.deals[-2], seat))
    if extra:
        checker.violations.append(Violation(
            f"ephemeral message to seat {seat} shows cards it may not know: {_names(extra)}",
            msg.id, text))


def _names(cards: set[int]) -> list[str]:
    return [card_name(c) for c in sorted(cards)]


def _typed_by_user(checker: LeakChecker, msg: StoredMessage) -> set[int]:
    """Cards the user named in the interaction this message answers (a refusal may repeat
    them: "You do not hold 4♠")."""
    inter = checker.fake.interactions.get(msg.interaction_id or 0)
    if inter is None:
        return set()
    found: set[int] = set()

    def walk(options: list[dict[str, Any]]) -> None:
        for opt in options:
            if "options" in opt:
                walk(opt["options"])
            elif isinstance(opt.get("value"), str):
                for word in opt["value"].replace(",", " ").split():
                    if is_card(word):
                        found.add(parse_card(word))

    walk((inter.payload.get("data") or {}).get("options") or [])
    return found
