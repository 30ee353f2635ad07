"""The public table of any game (its Scene) as a PNG, sized for a phone.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image

from bot.cards import JOKER_BASE
from bot.tables.scene import NO_SEAT, CardGroup, Scene, SeatScene

from .canvas import (
    BACKGROUND,
    FELT,
    GOLD,
    MUTED,
    PALETTE_COLOURS,
    RIM,
    SCALE,
    SEAT_BOX,
    SEAT_EDGE,
    WHITE,
    Board,
    Canvas,
)
from .letters import fit_text, text_width, wrap_text

# ----------------------------------------------------------------- the table

# How big Discord shows an embed's image (measured in CSS pixels, the size text is read
# at). Desktop: inside a box of at most 400 x 300, scaled to fit
# (https://github.com/leovoel/embed-visualizer/issues/30: "Discord limits the size of
# the image by 400px in width and 300px in height"; https://opengraphplus.com/consumers/
# discord/images: "up to ~400px wide on desktop, ~300px max height"). Phone: the
# message column's width less the avatar and the embed's margins, about 300 px on a
# 390 px wide screen (measured for issue 27). A square picture is shown about 300 x 300
# on both; a portrait one a little smaller on a desktop (its height is the limit). So the
# table is a square felt and a short strip under it: 480 x 576 is shown 300 px wide on a
# phone (scale 0.625) and 250 px wide on a desktop (0.52), and its smallest words (21 px)
# are 13 px and 11 px high there: twice the 800 x 500 picture's 6.4 px (17 px at 0.375)
# on a phone. Nothing in it repeats the embed (the title, the contract, whose turn): the
# seats, the cards on the table, and the few card rows the embed cannot show.
SHOWN_WIDTH_PHONE = 300
SHOWN_BOX_DESKTOP = (400, 300)
TABLE_SIZE = (480, 576)
FELT_SIZE = 480  # the square felt; the strip below it holds the card rows
CENTRE = (FELT_SIZE / 2, FELT_SIZE / 2)
SEAT_WIDTH = 156
SEAT_PAD = 8
NAME_SIZE = 24
LINE_SIZE = 21  # the smallest words in the picture (see above)
NAME_STEP = 25
LINE_STEP = 23
BIG_CARD = (52, 73)
ROW_CARD = (36, 50)
SEAT_CARD = (30, 42)
MINI_BACK = (14, 19)
MARK_WIDTH = 18  # the mark before the name of the seat to act, and its space
COUNT_ROOM = 38  # a small card back and the count of cards held, right in a seat box
# Seat centres by table size, seat 0 at the bottom and on clockwise, with the room each
# seat's box has in height (three in a column share the felt's height).
_SEATS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((240, 405),),
    2: ((240, 405), (240, 75)),
    3: ((240, 405), (88, 90), (392, 90)),
    4: ((240, 405), (86, 240), (240, 75), (394, 240)),
    5: ((240, 405), (86, 265), (104, 78), (376, 78), (394, 265)),
    6: ((86, 400), (86, 240), (86, 80), (394, 80), (394, 240), (394, 400)),
}
_ROOM = {5: 150.0, 6: 152.0}  # a seat box's height at most (others: 200)


def _seat_centres(count: int) -> tuple[tuple[float, float], ...]:
    if count in _SEATS:
        return _SEATS[count]
    cx, cy = CENTRE
    return tuple((cx + 170 * math.cos(math.pi / 2 + 2 * math.pi * i / count),
                  cy + 170 * math.sin(math.pi / 2 + 2 * math.pi * i / count))
                 for i in range(count))


def table_picture(scene: Scene) -> bytes:
    """The public table of `scene` as a PNG of TABLE_SIZE: the felt with the seats around
    it and the cards in the middle, and under it a strip with the card rows."""
    canvas = Board(_table_base())
    centres = _seat_centres(len(scene.seats))
    room = _ROOM.get(len(scene.seats), 200.0)
    _draw_centre(canvas, scene, centres)
    for seat, centre in zip(scene.seats, centres, strict=True):
        _draw_seat(canvas, seat, centre, room)
    _draw_strip(canvas, scene)
    return canvas.png(_table_palette())


@lru_cache(maxsize=1)
def _table_base() -> Image.Image:
    """What every table's picture starts from: the felt, and the strip under it."""
    canvas = Canvas(TABLE_SIZE, BACKGROUND)
    canvas.rect((3, 3, FELT_SIZE - 3, FELT_SIZE - 3), FELT, radius=48, outline=RIM, width=5)
    return canvas.image.reduce(SCALE)


def prepare_pictures() -> None:
    """Draw now what every table picture starts from (the felt, the palette, the cards
    and boxes it is found with), so that the first picture is as quick as the rest."""
    _table_palette()


@lru_cache(maxsize=1)
def _table_palette() -> Image.Image:
    """The palette of every table picture: found in one picture that has every colour
    and every edge a table can have (each card of every size on the felt, on a seat box
    and on the strip; words of every colour on each), so it is the same in every run."""
    board = Board(_table_base())
    samples = ("▶Åéø 10♠9♥", "—8♦→7♣★Wg")

    def words(x: float, y: float) -> None:  # every colour and size of words, at (x, y)
        for colour in (WHITE, MUTED, GOLD):
            for size in (LINE_SIZE, NAME_SIZE):
                right = x
                for sample in samples:
                    right += board.text(right, y, sample, size, colour) + 4
                y += size + 4

    for top, to_act in ((10, False), (190, True)):
        board.rect((10, top, 10 + SEAT_WIDTH, top + 170), SEAT_BOX, radius=10,
                   outline=GOLD if to_act else SEAT_EDGE, width=3 if to_act else 1.5)
        words(16, top + 26)
    words(200, 380)
    words(10, FELT_SIZE + 10)
    cards = (0, 14, 28, 42, 8, JOKER_BASE, -1)  # every colour a card face or back has
    for i, card in enumerate(cards):
        board.card(card, 200 + i * 40, 240, *BIG_CARD)
        board.card(card, 16 + i * 22, 380, *SEAT_CARD, shadow=None)
        board.card(card, 10 + i * 40, FELT_SIZE + 30, *ROW_CARD, shadow=None)
    return board.image.quantize(colors=PALETTE_COLOURS * 2, method=Image.Quantize.FASTOCTREE,
                                dither=Image.Dither.NONE)


def _draw_centre(canvas: Board, scene: Scene, centres: Sequence[tuple[float, float]]
                 ) -> None:
    """The trick by seat (each card pushed towards its player), or a pile, stacked; the
    centre's label in the middle when no card lies there (else it heads the strip)."""
    cx, cy = CENTRE
    width, height = BIG_CARD
    pile = [card for seat, card in scene.centre if seat == NO_SEAT][-5:]
    for i, card in enumerate(pile):
        x = cx - width / 2 + (i - (len(pile) - 1) / 2) * 20
        canvas.card(card, x, cy - height / 2 - 8 + 4 * i, width, height)
    for seat, card in scene.centre:
        if not 0 <= seat < len(centres):
            continue
        sx, sy = centres[seat]
        x = cx + (sx - cx) * 0.3 - width / 2
        y = cy + (sy - cy) * 0.45 - height / 2
        canvas.card(card, x, y, width, height)
    if scene.centre_label and not scene.centre:
        rows = wrap_text(scene.centre_label, LINE_SIZE, 140, 2)
        top = cy - len(rows) * LINE_STEP / 2 - 6
        canvas.rect((cx - 82, top, cx + 82, top + len(rows) * LINE_STEP + 12), SEAT_BOX,
                    radius=10)
        for i, row in enumerate(rows):
            canvas.text(cx, top + 23 + i * LINE_STEP, row, LINE_SIZE, WHITE, align="centre")


def seat_rows(seat: SeatScene, room: float = 200.0
              ) -> tuple[list[str], list[str], float, bool]:
    """A seat box's words: its name in one row or two, at the name's size or else at the
    lines' size (never cut where two rows hold it), and its lines broken at " · " into
    rows that fit (the first leaves room for the count of cards held), the last rows
    left out when the box would be taller than `room`. Returns the name's size too, and
    whether the count of cards held fits on the name's row (else on the first line's)."""
    names, size = _name_rows(seat.name, seat.to_act)
    on_name = bool(seat.backs) and len(names) == 1 and text_width(names[0], size) + (
        MARK_WIDTH if seat.to_act else 0) + COUNT_ROOM <= SEAT_WIDTH - 2 * SEAT_PAD
    count_row = -1 if on_name else 0
    rows: list[str] = []
    for line in seat.lines:
        for part in line.split(" · "):
            if rows and text_width(rows[-1] + " · " + part, LINE_SIZE) <= _row_room(
                    seat, len(rows) - 1, count_row):
                rows[-1] += " · " + part
            else:
                rows.append(part)
    rows = [fit_text(row, LINE_SIZE, _row_room(seat, i, count_row)) for i, row in enumerate(rows)]
    while rows and _seat_height(seat, len(names), len(rows), on_name) > room:
        rows.pop()
    return names, rows, size, on_name


def _name_rows(name: str, to_act: bool) -> tuple[list[str], float]:
    """The name's rows and size: at NAME_SIZE, else at LINE_SIZE; after the mark of the
    seat to act if the name fits beside it, else without it (the gold box says it)."""
    marks = (MARK_WIDTH, 0) if to_act else (0,)
    for size in (NAME_SIZE, LINE_SIZE):
        for mark in marks:
            rows = wrap_text(name, size, SEAT_WIDTH - 2 * SEAT_PAD - mark, 2)
            if not rows[-1].endswith("…"):
                return rows, size
    return rows, size


def _row_room(seat: SeatScene, row: int, count_row: int) -> float:
    """The width of a row of a seat's lines: the count's row leaves room for it."""
    return SEAT_WIDTH - 2 * SEAT_PAD - (COUNT_ROOM if row == count_row and seat.backs else 0)


def _seat_height(seat: SeatScene, names: int, rows: int, on_name: bool) -> float:
    rows = max(rows, 1 if seat.backs and not on_name else 0)
    return (2 * SEAT_PAD + 4 + NAME_STEP * names + LINE_STEP * rows
            + (SEAT_CARD[1] + 6 if seat.cards else 0))


def _draw_seat(canvas: Board, seat: SeatScene, centre: tuple[float, float],
               room: float) -> None:
    """A seat's box: its name, its lines, the cards seen from the back as a small back
    and a count, and the cards face up in front of it."""
    names, rows, name_size, on_name = seat_rows(seat, room)
    marked = seat.to_act and not wrap_text(seat.name, name_size,
                                       SEAT_WIDTH - 2 * SEAT_PAD - MARK_WIDTH, 2)[-1].endswith("…")
    height = _seat_height(seat, len(names), len(rows), on_name)
    left = centre[0] - SEAT_WIDTH / 2
    # A tall box stays whole inside the felt.
    top = max(6.0, min(centre[1] - height / 2, FELT_SIZE - 6 - height))
    canvas.rect((left, top, left + SEAT_WIDTH, top + height), SEAT_BOX, radius=10,
                outline=GOLD if seat.to_act else SEAT_EDGE, width=3 if seat.to_act else 1.5)
    x = left + SEAT_PAD
    baseline = top + SEAT_PAD + 20
    if marked:
        canvas.text(x, baseline, "▶", LINE_SIZE, GOLD)
        x += MARK_WIDTH
    for row in names:
        canvas.text(x, baseline, row, name_size, GOLD if seat.to_act else WHITE)
        baseline += NAME_STEP
    baseline -= NAME_STEP - LINE_STEP - 2
    for row in rows or ([""] if seat.backs and not on_name else []):
        canvas.text(left + SEAT_PAD, baseline, row, LINE_SIZE, MUTED)
        baseline += LINE_STEP
    if seat.backs:  # at the right of the first row of lines
        count_baseline = top + SEAT_PAD + 20 if on_name else (
            top + SEAT_PAD + 24 + NAME_STEP * (len(names) - 1) + LINE_STEP)
        right = left + SEAT_WIDTH - SEAT_PAD
        right -= canvas.text(right, count_baseline, str(seat.backs), LINE_SIZE, WHITE,
                             align="right") + 3
        canvas.card(-1, right - MINI_BACK[0], count_baseline - 17, *MINI_BACK, shadow=None)
    if seat.cards:
        step = min(SEAT_CARD[0] + 4, (SEAT_WIDTH - 2 * SEAT_PAD - SEAT_CARD[0]) /
                   max(1, len(seat.cards) - 1))
        for i, card in enumerate(seat.cards):
            canvas.card(card, left + SEAT_PAD + i * step, baseline - LINE_STEP + 10,
                        *SEAT_CARD, shadow=None)


@dataclasses.dataclass(frozen=True, slots=True)
class StripPlace:
    """Where the strip under the felt puts one of its parts: the centre's label (no
    group) or a group of cards, from `left`, `width` wide, with its label's rows as
    drawn (shortened only if it could not fit: `strip_layout` avoids that)."""

    group: CardGroup | None
    left: float
    width: float
    rows: tuple[str, ...]


STRIP_GAP = 14  # between the strip's parts
STRIP_RIGHT = TABLE_SIZE[0] - 6
CENTRE_LABEL_WIDTH = 150.0  # the centre's label in one row at most this wide, else two
LEAST_CARD_STEP = 12.0  # cards of a row overlap down to this much of each showing


def strip_layout(scene: Scene) -> list[StripPlace]:
    """The strip's parts side by side: the centre's label (when cards lie there), then
    each group of cards, each at least as wide as its label, so that no label is
    shortened. A row of cards narrower than its cards overlaps them; a group that does
    not fit even so is left out (the embed says it too)."""
    places: list[StripPlace] = []
    x = 10.0
    wants = [(_group_width(group), _group_least(group)) for group in scene.groups]
    if scene.centre_label and scene.centre:
        # In one row if the groups leave it room, else in two as narrow as can be.
        least = sum(least for _want, least in wants) + STRIP_GAP * len(wants)
        one = text_width(scene.centre_label, LINE_SIZE)
        rows = ((scene.centre_label,) if one <= CENTRE_LABEL_WIDTH
                and x + one + least <= STRIP_RIGHT else _narrowest_rows(scene.centre_label))
        width = max(text_width(row, LINE_SIZE) for row in rows)
        places.append(StripPlace(None, x, width, rows))
        x += width + STRIP_GAP
    room = STRIP_RIGHT - x - STRIP_GAP * (len(wants) - 1)
    # Each group its natural width while they all fit; else each gives up its share of
    # what is missing, down to the least it needs (its label, its cards overlapping).
    spare = sum(want - least for want, least in wants)
    missing = max(0.0, sum(want for want, _least in wants) - room)
    share = min(1.0, missing / spare) if spare > 0 else 0.0
    for group, (want, least) in zip(scene.groups, wants, strict=True):
        width = want - (want - least) * share
        if x + width > STRIP_RIGHT + 0.5:
            break
        places.append(StripPlace(group, x, width,
                                 (fit_text(group.label, LINE_SIZE, width),)))
        x += width + STRIP_GAP
    return places


def _narrowest_rows(text: str) -> tuple[str, ...]:
    """`text` in two rows broken at a space, the wider of them as narrow as can be."""
    words = text.split(" ")
    splits = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
    return min(splits, key=lambda rows: max(text_width(row, LINE_SIZE) for row in rows),
               default=(text,))


def _draw_strip(canvas: Board, scene: Scene) -> None:
    """Under the felt, the parts strip_layout placed: the centre's label, then each
    labelled row of cards or stack with its count."""
    top = FELT_SIZE + 4
    for place in strip_layout(scene):
        if place.group is None:
            for i, row in enumerate(place.rows):
                canvas.text(place.left, top + 22 + i * LINE_STEP, row, LINE_SIZE, WHITE)
        else:
            _draw_group(canvas, place.group, place.rows[0], place.left, top, place.width)


def _stack_width(group: CardGroup) -> float:
    """A stack of card backs with its count after it, if the group has one."""
    if not (group.backs or not group.cards):
        return 0.0
    return ROW_CARD[0] + 10 + text_width(str(group.backs), NAME_SIZE) + 8


def _group_width(group: CardGroup) -> float:
    """A group's natural width: its cards side by side (and stack), or its label."""
    cards = len(group.cards) * (ROW_CARD[0] + 3)
    return max(cards + _stack_width(group), text_width(group.label, LINE_SIZE))


def _group_least(group: CardGroup) -> float:
    """The least width a group takes: its label whole, its cards overlapping."""
    count = len(group.cards)
    cards = ROW_CARD[0] + (count - 1) * LEAST_CARD_STEP + 3 if count else 0.0
    return max(cards + _stack_width(group), text_width(group.label, LINE_SIZE))


def _draw_group(canvas: Board, group: CardGroup, label: str, left: float, top: float,
                width: float) -> None:
    """A labelled row of cards (overlapping when many; the marked one outlined in gold),
    then a deck as a small stack with its count."""
    canvas.text(left, top + 20, label, LINE_SIZE, GOLD)
    top += 30
    card_w, card_h = ROW_CARD
    count = len(group.cards)
    room = width - _stack_width(group)
    step = min(card_w + 3, (room - card_w) / max(1, count - 1)) if count else 0
    x = left
    for i, card in enumerate(group.cards):
        canvas.card(card, left + i * step, top, card_w, card_h, shadow=None)
        x = left + i * step + card_w + 8
    if group.marked is not None and group.marked < count:
        # Drawn over the cards after it, so the mark shows whole.
        mark_x = left + group.marked * step
        canvas.card(group.cards[group.marked], mark_x, top, card_w, card_h, shadow=None)
        canvas.rect((mark_x - 2, top - 2, mark_x + card_w + 2, top + card_h + 2), None,
                    radius=5, outline=GOLD, width=3)
    if group.backs or not group.cards:  # an empty stack still shows its count, 0
        for i in range(min(3, group.backs)):
            canvas.card(-1, x + 3 * i, top - 2 * i, card_w, card_h, shadow=None)
        canvas.text(x + card_w + 10, top + card_h / 2 + 8, str(group.backs), NAME_SIZE,
                    WHITE)
