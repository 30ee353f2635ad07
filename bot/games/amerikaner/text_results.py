"""Amerikaner's words when a hand ends: its summary and recap, the final standings, and a
finished hand shown face up (all of it public by then, read from views).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.amerikaner import _, ngettext
from bot.tables.panel import GOLD, GREEN, GREY, RED, Panel

from .hand import ALL_PASS_PLAYED, MADE, REDEAL, THROWN_IN
from .text_table import (
    bid_label,
    contract_fields,
    hand_lines,
    sorted_cards,
    trick_line,
    tricks_text,
)
from .views import DealReview, GameView, HandView, TrickView

# ----------------------------------------------------------------- results

def deal_summary(view: GameView, names: Sequence[str]) -> Panel:
    """After a hand (`view`: the game as it stood when it ended, `game_view_after`): the
    contract made or failed, tricks, score changes, totals."""
    hand = view.hand
    assert hand is not None
    title, colour = _summary_title(hand, view.hand_number, names)
    return Panel(title=title, description=_result_rows(view, names), colour=colour)


def _summary_title(hand: HandView, number: int, names: Sequence[str]) -> tuple[str, int]:
    outcome = hand.outcome
    if outcome == THROWN_IN:
        return _("Hand {number}: everyone passed — thrown in").format(number=number), GREY
    if outcome == REDEAL:
        return _("Hand {number}: redeal claimed — same dealer deals again").format(
            number=number), GREY
    if outcome == ALL_PASS_PLAYED:
        return _("Hand {number}: all passed, played at -1 a trick").format(number=number), GREY
    assert hand.bidder is not None
    made = outcome == MADE
    values = {"number": number, "bidder": names[hand.bidder], "bid": bid_label(hand.contract)}
    if hand.partner is not None:
        values["partner"] = names[hand.partner]
        title = (_("Hand {number}: {bidder} with {partner} made {bid}") if made
                 else _("Hand {number}: {bidder} with {partner} failed {bid}"))
    else:
        title = (_("Hand {number}: {bidder} alone made {bid}") if made
                 else _("Hand {number}: {bidder} alone failed {bid}"))
    return title.format(**values), GREEN if made else RED


def recap_facts(taken: Sequence[tuple[int, int]], hand: HandView | None,
                names: Sequence[str]) -> list[str]:
    """"While you were away": who took how many tricks since (`taken`: seat and count,
    in the order they first took one) and, `hand` over, its result in a few words."""
    facts = [ngettext("{name} took {count} trick", "{name} took {count} tricks",
                      count).format(name=names[seat], count=count) for seat, count in taken]
    if hand is not None:
        facts.append(hand_result(hand, names))
    return facts


def hand_result(hand: HandView, names: Sequence[str]) -> str:
    """A finished hand's result in a few words ("bob with carol made 8")."""
    outcome = hand.outcome
    if outcome == THROWN_IN:
        return _("everyone passed: thrown in")
    if outcome == REDEAL:
        return _("redeal claimed")
    if outcome == ALL_PASS_PLAYED or hand.bidder is None:
        return _("all passed, played at -1 a trick")
    made = outcome == MADE
    values = {"bidder": names[hand.bidder], "bid": bid_label(hand.contract)}
    if hand.partner is not None:
        return (_("{bidder} with {partner} made {bid}") if made
                else _("{bidder} with {partner} failed {bid}")).format(
            partner=names[hand.partner], **values)
    return (_("{bidder} alone made {bid}") if made
            else _("{bidder} alone failed {bid}")).format(**values)


def final_standings(view: GameView, names: Sequence[str]) -> Panel:
    """The finished game: seats by final total, the winner(s) in the title."""
    order = sorted(range(len(names)), key=lambda s: -view.totals[s])
    rows = [_("{place} **{name}** — {total}").format(
        place=MEDALS[i] if i < len(MEDALS) else f"{i + 1}.", name=names[s],
        total=view.totals[s]) for i, s in enumerate(order)]
    winners = [names[s] for s in view.winners]
    if len(winners) == 1:
        title = _("Game over — {winner} wins!").format(winner=winners[0])
    else:
        title = _("Game over — {winners} win!").format(winners=_(" and ").join(winners))
    footer = ngettext("{count} hand · /amerikaner export for the record",
                      "{count} hands · /amerikaner export for the record",
                      view.hand_number).format(count=view.hand_number)
    return Panel(title=title, description="\n".join(rows), colour=GOLD, footer=footer)


# ----------------------------------------------------------------- a finished deal

def deal_review(review: DealReview, names: Sequence[str]) -> Panel:
    """A finished deal face up (`views.deal_review`): every hand as dealt, the kitty and
    the discards or the blind exchanges, the bidding, every trick in order, the result."""
    view = review.after
    hand = view.hand
    assert hand is not None
    title, colour = _summary_title(hand, view.hand_number, names)
    fields = [(_("{name} — dealt").format(name=names[seat]), "\n".join(hand_lines(cards)),
               True) for seat, cards in enumerate(review.dealt)]
    fields.extend(_set_aside_fields(review, hand, names))
    fields.extend(_trick_fields(hand.tricks, names))
    fields.append((_("Result"), _result_rows(view, names), False))
    lines = (_("**Bidding:** {bids}").format(bids=_bids_by_seat(hand, names)),
             _contract_line(hand, names))
    description = "\n".join(line for line in lines if line)
    return Panel(title=title, description=description, fields=tuple(fields), colour=colour)


def _set_aside_fields(review: DealReview, hand: HandView, names: Sequence[str]
                      ) -> list[tuple[str, str, bool]]:
    fields = []
    if review.kitty:
        fields.append((_("Kitty"), sorted_cards(review.kitty), True))
    if review.discards and hand.bidder is not None:
        fields.append((_("{name} discarded").format(name=names[hand.bidder]),
                       sorted_cards(review.discards), True))
    if review.blind:
        fields.append((_("Blind"), sorted_cards(review.blind), True))
    if review.exchanges:
        rows = [_("**{name}** gave {given}, took {taken}").format(
            name=names[seat], given=sorted_cards(given), taken=sorted_cards(taken)) if given
            else _("**{name}** kept the hand").format(name=names[seat])
            for seat, given, taken in review.exchanges]
        fields.append((_("Blind exchanges"), "\n".join(rows), False))
    return fields


def _bids_by_seat(hand: HandView, names: Sequence[str]) -> str:
    """The auction in short: each seat's calls in order (`bob 7, 9 · carol pass`)."""
    calls: dict[int, list[str]] = {}
    for seat, bid in hand.auction:
        calls.setdefault(seat, []).append(_("pass") if bid == "pass" else bid_label(bid))
    if not calls:
        return _("none")
    return " · ".join(_("{name} {bids}").format(name=names[seat], bids=_(", ").join(bids))
                      for seat, bids in calls.items())


def _contract_line(hand: HandView, names: Sequence[str]) -> str:
    """The contract, the trump and the called card in one line (nothing if none)."""
    if hand.contract is None and not hand.all_pass:
        return ""
    return " · ".join(_("{name}: {value}").format(name=name, value=value)
                      for name, value, _inline in contract_fields(hand, names))


# A field's value holds at most 1,024 characters in Discord: tricks are cut into fields
# of whole lines below that.
_FIELD_VALUE_MAX = 1000


def _trick_fields(tricks: Sequence[TrickView], names: Sequence[str]
                  ) -> list[tuple[str, str, bool]]:
    """Every trick in order, a line each: its leader first, the cards as played, who
    took it; as many fields as their length needs."""
    rows = [_("{number}. {plays}").format(number=i + 1, plays=trick_line(trick, names))
            for i, trick in enumerate(tricks)]
    fields = []
    start = 0
    while start < len(rows):
        end = start + 1
        while end < len(rows) and len("\n".join(rows[start:end + 1])) <= _FIELD_VALUE_MAX:
            end += 1
        name = (_("Trick {first}").format(first=start + 1) if end == start + 1 else
                _("Tricks {first}–{last}").format(first=start + 1, last=end))
        fields.append((name, "\n".join(rows[start:end]), False))
        start = end
    return fields


def _result_rows(view: GameView, names: Sequence[str]) -> str:
    """Each seat's tricks, score and total after the deal."""
    hand = view.hand
    assert hand is not None
    return "\n".join(_("**{name}**: {tricks}, {score} → {total}").format(
        name=name, tricks=tricks_text(hand.tricks_won[seat]),
        score=f"{hand.scores[seat] if hand.scores else 0:+d}", total=view.totals[seat])
        for seat, name in enumerate(names))


MEDALS = ("🥇", "🥈", "🥉")
