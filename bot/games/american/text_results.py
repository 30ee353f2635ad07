"""American's words when a deal ends: its summary and recap, the match's final standings,
and a finished deal shown face up (all of it public by then, read from views).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.cards import card_label
from bot.games.american import _, ngettext
from bot.tables.panel import BLUE, GOLD, GREY, Panel

from .state import DRAWN, FINISHED
from .text_table import card_labels, describe_action, options_line, wins_line
from .views import DealReview, DealView, GameView

# ----------------------------------------------------------------- a deal's end, the match

def _places_lines(deal: DealView, names: Sequence[str]) -> list[str]:
    return [_("{place}. **{name}**").format(place=i + 1, name=names[s])
            for i, s in enumerate(deal.out_order)]


def deal_summary(view: GameView, names: Sequence[str]) -> Panel:
    """The result of a deal, as everyone may see it: who went out in which order."""
    deal = view.deal
    assert deal is not None
    if deal.outcome == DRAWN:
        title = _("Deal {number}: drawn").format(number=view.deal_number)
        lines = [_("A thousand moves without an end: nobody wins this deal.")]
        colour = GREY
    else:
        assert deal.winner is not None
        title = _("Deal {number}: {name} is out first").format(number=view.deal_number,
                                                                name=names[deal.winner])
        lines = _places_lines(deal, names)
        colour = BLUE
    if view.rules.target > 1:
        lines.append(_("Deals won: {wins}").format(wins=wins_line(view, names)))
    return Panel(title=title, description="\n".join(lines), colour=colour)


# What "While you were away" tells of a stretch of a deal (AmericanWords.recap_facts).
BURNED, PICKED_UP, WENT_OUT = "burned", "picked_up", "went_out"


def recap_facts(events: Sequence[tuple[str, str, int, bool]], outcome: str | None,
                winner: str | None) -> list[str]:
    """"While you were away": each (what, who, how often, whether they went out first)
    in the order it first happened, then, `outcome` given (the deal is over), its
    result: who won it (went out first), or a drawn deal."""
    facts = []
    for what, name, count, first in events:
        if what == BURNED:
            facts.append(ngettext("{name} burned the pile", "{name} burned the pile {count} "
                                  "times", count).format(name=name, count=count))
        elif what == PICKED_UP:
            facts.append(ngettext("{name} picked up the pile", "{name} picked up the pile "
                                  "{count} times", count).format(name=name, count=count))
        elif first and outcome is not None:
            continue  # told as the deal's winner below
        elif first:
            facts.append(_("{name} went out first").format(name=name))
        else:
            facts.append(_("{name} went out").format(name=name))
    if outcome == DRAWN:
        facts.append(_("the deal was drawn"))
    elif outcome is not None and winner is not None:
        facts.append(_("{name} won the deal").format(name=winner))
    return facts


def final_standings(view: GameView, names: Sequence[str], places: Sequence[int]) -> Panel:
    """The finished match: seats by place (`places`: each seat's, 1 for the winner), the
    winner in the title."""
    order = sorted(range(len(names)), key=lambda s: places[s])
    rows = [_("{medal} **{name}** — {wins}").format(
        medal=MEDALS[places[s] - 1] if places[s] <= len(MEDALS) else f"{places[s]}.",
        name=names[s], wins=ngettext("{count} deal won", "{count} deals won",
                                     view.wins[s]).format(count=view.wins[s]))
        for s in order]
    winners = [names[s] for s in view.winners]
    title = _("Game over — {winner} wins!").format(winner=_(" and ").join(winners))
    footer = ngettext("{count} deal · /american export for the record",
                      "{count} deals · /american export for the record",
                      view.deal_number).format(count=view.deal_number)
    return Panel(title=title, description="\n".join(rows), colour=GOLD, footer=footer)


def deal_review(review: DealReview, names: Sequence[str]) -> Panel:
    """A finished deal face up: every seat's cards as dealt, the deck, every action in
    order (a flip with the card it turned over), the places."""
    view = review.after
    fields = [(_("{name} — dealt").format(name=names[seat]),
               _("down: {down}\nup: {up}\nhand: {hand}").format(
                   down=card_labels(review.down[seat]), up=card_labels(review.up[seat]),
                   hand=card_labels(review.hand[seat])), True)
              for seat in range(len(names))]
    if review.deck:
        fields.append((_("Deck, top first"), card_labels(review.deck), False))
    moves = [_("{name}: {what}").format(
        name=names[a.seat], what=_("turned over {card}").format(card=card_label(turned))
        if turned is not None else describe_action(a))
        for a, turned in zip(review.actions, review.turned, strict=True)]
    fields.extend(_chunks(_("Moves"), moves))
    deal = view.deal
    assert deal is not None
    result = "\n".join(_places_lines(deal, names)) if deal.outcome == FINISHED else _(
        "drawn")
    fields.append((_("Result"), result, False))
    return Panel(title=_("Deal {number} face up").format(number=view.deal_number),
                 description=options_line(view.rules), fields=tuple(fields), colour=GREY)


def _chunks(title: str, lines: Sequence[str], size: int = 900
            ) -> list[tuple[str, str, bool]]:
    """Lines in fields of at most `size` characters (an embed field holds 1,024)."""
    fields: list[tuple[str, str, bool]] = []
    current: list[str] = []
    for line in lines:
        if current and len("\n".join([*current, line])) > size:
            fields.append((title, "\n".join(current), False))
            current = []
        current.append(line)
    if current:
        fields.append((title, "\n".join(current), False))
    return fields or [(title, _("none"), False)]


MEDALS = ("🥇", "🥈", "🥉")
