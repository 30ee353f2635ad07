"""A picture of the public table, described as data.

A game may not import the renderer (bot.render), and the renderer knows no game: so a
game describes what everyone may see at its table as a Scene (its GameKind's
`table_scene`), and bot.render.pictures draws it. A Scene is game-neutral: seats with
their lines and the cards in front of them, cards in the middle of the table (a trick by
seat, or a pile), labelled rows of cards (the last trick, a kitty shown, a deck), and a
few lines about the deal. Every string in it is already in the reader's words (the
game's text layer translates them); cards are the integers of bot.cards.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["NO_SEAT", "CardGroup", "Scene", "SeatScene"]

NO_SEAT = -1  # a centre card that lies on a pile rather than in front of a seat


@dataclass(frozen=True, slots=True)
class SeatScene:
    """One seat as everyone sees it."""

    name: str
    lines: tuple[str, ...] = ()  # a few short lines: bid, tricks, points...
    cards: tuple[int, ...] = ()  # face up in front of the seat (a shedding game's row)
    backs: int = 0  # cards seen only from the back (held, or face down): shown as a count
    to_act: bool = False


@dataclass(frozen=True, slots=True)
class CardGroup:
    """A labelled row of cards beside the table: "Last trick", "Kitty", "Deck"."""

    label: str
    cards: tuple[int, ...] = ()
    backs: int = 0  # face-down cards (a deck), shown as a stack with its count
    # The index in `cards` of a card to mark: the last trick's winning card (its label
    # stays short enough for a phone's strip, naming nobody).
    marked: int | None = None


@dataclass(frozen=True, slots=True)
class Scene:
    """The public table of a game: only what everyone may see."""

    title: str
    seats: tuple[SeatScene, ...]
    # The cards in the middle, in the order they were played: (seat, card) of a trick,
    # each drawn towards its seat, or (NO_SEAT, card) for a pile, drawn stacked.
    centre: tuple[tuple[int, int], ...] = ()
    centre_label: str = ""
    groups: tuple[CardGroup, ...] = ()
    lines: tuple[str, ...] = ()  # about the deal: contract, trump, whose turn...

    def shown_cards(self) -> set[int]:
        """Every card face up in the picture (tests check none is hidden in the views)."""
        shown = {card for _seat, card in self.centre}
        for seat in self.seats:
            shown.update(seat.cards)
        for group in self.groups:
            shown.update(group.cards)
        return shown

    def texts(self) -> list[str]:
        """Every string the picture shows."""
        out = [self.title, self.centre_label, *self.lines]
        for seat in self.seats:
            out.extend((seat.name, *seat.lines))
        out.extend(group.label for group in self.groups)
        return [text for text in out if text]
