"""The running-totals chart as a PNG, sized for a phone like the table.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence

from bot.i18n import _

from .canvas import BACKGROUND, GRID, LINE_COLOURS, MUTED, RGB, WHITE, Canvas
from .letters import fit_text, text_width, wrap_text

# ----------------------------------------------------------------- the running totals

# Made for a phone like the table (see above): 480 x 576, shown 300 px wide on a phone
# (0.625) and 250 px wide on a desktop (0.52). Its smallest words are 29 px: 18 px high
# on a phone and 15 px on a desktop, twice and more the 800 x 500 chart's before (15 px
# words: 5.6 px on a phone, 7.5 px on a desktop). The standings are under the plot, a
# row each (two for a name that needs them), so the names have the picture's width.
CHART_SIZE = (480, 576)
# The chart's palette: its dozen flat colours and their edges' blends. Fewer than the
# table's 64, so that its bigger words do not make it heavier (bench/render.py).
CHART_COLOURS = 32
CHART_TEXT = 29  # the smallest words: the axes' numbers and word, the target's value
CHART_TITLE = 32
LEGEND_SIZE = 29
LEGEND_STEP = 36  # from one row of the standings to the next
CHART_MARGIN = 16
CHART_TOP = 76  # the plot's top, under the title and the top value's label
PLOT_LEAST = 150.0  # the plot's height at least: else the standings' names take one row


@dataclasses.dataclass(frozen=True, slots=True)
class LegendRow:
    """A row of the chart's standings: the seat (its colour), the words of its name in
    one row or two, its final total, and the baseline of its first row."""

    seat: int
    rows: tuple[str, ...]
    total: str
    baseline: float


def legend_rows(names: Sequence[str], final: Sequence[int],
                places: Sequence[int] | None = None) -> list[LegendRow]:
    """The standings under the chart, top down: players by place (else by final total,
    ties in seat order), "place. name" in one row, or in two where one is too narrow
    (never cut where two rows hold it), as long as the plot keeps PLOT_LEAST: past that,
    the longest names take one row, shortened (with six players, one name may take
    two rows; with five, two names)."""
    if places is None:
        order = sorted(range(len(names)), key=lambda seat: -final[seat])
        shown = list(range(1, len(names) + 1))
    else:
        order = sorted(range(len(names)), key=lambda seat: (places[seat], seat))
        shown = [places[seat] for seat in order]
    entries = [(seat, f"{place}. {names[seat]}", str(final[seat]))
               for place, seat in zip(shown, order, strict=True)]
    wrapped = [wrap_text(words, LEGEND_SIZE, _legend_room(total), 2)
               for _seat, words, total in entries]
    room = CHART_SIZE[1] - CHART_TOP - PLOT_LEAST - _AXIS_ROOM - CHART_MARGIN
    while sum(len(rows) for rows in wrapped) * LEGEND_STEP > room:
        # The longest name in two rows takes one, shortened, until the plot has room.
        longest = max((i for i, rows in enumerate(wrapped) if len(rows) > 1),
                      key=lambda i: len(entries[i][1]))
        _seat, words, total = entries[longest]
        wrapped[longest] = [fit_text(words, LEGEND_SIZE, _legend_room(total))]
    baseline = CHART_SIZE[1] - CHART_MARGIN - 6 - LEGEND_STEP * (
        sum(len(rows) for rows in wrapped) - 1)
    legend = []
    for (seat, _words, total), rows in zip(entries, wrapped, strict=True):
        legend.append(LegendRow(seat, tuple(rows), total, baseline))
        baseline += LEGEND_STEP * len(rows)
    return legend


_SWATCH = 22  # a player's colour before their name
_AXIS_ROOM = 48  # under the plot: the deals' numbers and the axis's word


def _legend_room(total: str) -> float:
    """The width a name has in the standings, beside its colour and its total."""
    return (CHART_SIZE[0] - 2 * CHART_MARGIN - _SWATCH - 10
            - text_width(total, LEGEND_SIZE) - 14)


@dataclasses.dataclass(frozen=True, slots=True)
class ChartLayout:
    """Where the chart's parts go: the plot's box (left, top, right, bottom), the value
    axis (lowest, highest, step) and the standings' rows."""

    plot: tuple[float, float, float, float]
    values: tuple[int, int, int]
    legend: list[LegendRow]


def chart_layout(names: Sequence[str], rows: Sequence[Sequence[int]], target: int | None,
                 word: str, places: Sequence[int] | None = None) -> ChartLayout:
    """The layout of a chart of `rows` (the totals from the zeros before the first deal
    on), its deals named `word`."""
    legend = legend_rows(names, rows[-1], places)
    values = _y_range([v for row in rows for v in row] + (
        [target] if target is not None else []))
    # The value labels and, under them, the axis's word share the column left of the plot.
    column = max(text_width(str(value), CHART_TEXT) for value in values[:2])
    left = CHART_MARGIN + max(column, text_width(word, CHART_TEXT)
                              + text_width("0", CHART_TEXT) / 2 + 8) + 10
    bottom = legend[0].baseline - LEGEND_SIZE - 8 - _AXIS_ROOM
    return ChartLayout((left, CHART_TOP, CHART_SIZE[0] - CHART_MARGIN - 8, bottom), values,
                       legend)


def totals_chart(title: str, names: Sequence[str], totals: Sequence[Sequence[int]],
                 target: int | None = None, axis_label: str | None = None,
                 places: Sequence[int] | None = None) -> bytes:
    """Each player's total deal by deal as a line (from 0 before the first deal), with
    the standings under it: names in the order of `places` (each seat's place, as the
    game's standings rank them: ties are broken by the game's own rules), else by final
    total, with their colours. `totals[d][s]` is seat s's total after deal d
    (GameKind.running_totals); `target`, if given, is drawn as a dashed line;
    `axis_label` names the deals (the renderer's "Deal" by default)."""
    canvas = Canvas(CHART_SIZE, BACKGROUND)
    canvas.text(CHART_MARGIN, 40, fit_text(title, CHART_TITLE, CHART_SIZE[0] - 2 * CHART_MARGIN),
                CHART_TITLE, WHITE)
    rows = [tuple(0 for _ in names), *(tuple(row) for row in totals)]
    word = axis_label if axis_label is not None else chart_axis_label()
    layout = chart_layout(names, rows, target, word, places)
    plot, legend = layout.plot, layout.legend
    low, high, step = layout.values
    bottom = plot[3]
    scale_x = _scale(0, max(1, len(rows) - 1), plot[0], plot[2])
    scale_y = _scale(low, high, plot[3], plot[1])
    _grid(canvas, plot, low, high, step, len(rows) - 1, scale_x, scale_y)
    canvas.text(CHART_MARGIN, bottom + 8 + CHART_TEXT, word, CHART_TEXT, MUTED)
    if target is not None:
        _dashed(canvas, plot[0], plot[2], scale_y(target), WHITE)
        canvas.text(plot[2] - 4, scale_y(target) - 8, str(target), CHART_TEXT, WHITE,
                    align="right")
    for seat in range(len(names)):
        colour = LINE_COLOURS[seat % len(LINE_COLOURS)]
        points = [(scale_x(d), scale_y(row[seat])) for d, row in enumerate(rows)]
        canvas.line(points, colour, 4)
        for x, y in points if len(points) <= 30 else points[-1:]:
            canvas.ellipse((x - 5, y - 5, x + 5, y + 5), colour)
    _legend(canvas, legend)
    return canvas.png(colours=CHART_COLOURS)


def chart_axis_label() -> str:
    """The chart's name for its deals, in the language of the moment."""
    return _("Deal")


def _scale(low: float, high: float, start: float, end: float) -> Callable[[float], float]:
    """The linear map of [low, high] onto [start, end]."""
    span = (high - low) or 1

    def at(value: float) -> float:
        return start + (value - low) / span * (end - start)
    return at


def _y_range(values: Sequence[int]) -> tuple[int, int, int]:
    """The value axis: from below the lowest (0 at most) to above the highest, in round
    steps, about five of them."""
    low, high = min([0, *values]), max([1, *values])
    raw = (high - low) / 5
    magnitude = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    step = max(1, int(step))
    return (math.floor(low / step) * step, math.ceil(high / step) * step, step)


def _grid(canvas: Canvas, plot: tuple[float, float, float, float], low: int, high: int,
          step: int, deals: int, scale_x: Callable[[float], float],
          scale_y: Callable[[float], float]) -> None:
    left, top, right, bottom = plot
    values = range(low, high + 1, step)
    # At most five value labels (big words need room between them); every line drawn.
    every = max(1, math.ceil(len(values) / 5))
    for i, value in enumerate(values):
        y = scale_y(value)
        canvas.line([(left, y), (right, y)], GRID if value else MUTED, 1)
        if i % every == 0 or value == 0:
            canvas.text(left - 10, y + 10, str(value), CHART_TEXT, MUTED, align="right")
    # The deals' numbers, as many as fit side by side at this size.
    gap = (right - left) / max(1, deals)
    wide = text_width(str(deals), CHART_TEXT) + 12
    every = max(1, math.ceil(wide / gap))
    for deal in range(0, deals + 1, every):
        x = scale_x(deal)
        canvas.line([(x, bottom), (x, bottom + 6)], MUTED, 1)
        canvas.text(x, bottom + 8 + CHART_TEXT, str(deal), CHART_TEXT, MUTED,
                    align="centre")


def _dashed(canvas: Canvas, left: float, right: float, y: float, colour: RGB) -> None:
    x = left
    while x < right:
        canvas.line([(x, y), (min(right, x + 12), y)], colour, 3)
        x += 20


def _legend(canvas: Canvas, legend: Sequence[LegendRow]) -> None:
    """The standings (legend_rows), in the players' colours."""
    right = CHART_SIZE[0] - CHART_MARGIN
    for row in legend:
        colour = LINE_COLOURS[row.seat % len(LINE_COLOURS)]
        top = row.baseline - _SWATCH + 2
        canvas.rect((CHART_MARGIN, top, CHART_MARGIN + _SWATCH, top + _SWATCH), colour,
                    radius=5)
        canvas.text(right, row.baseline, row.total, LEGEND_SIZE, WHITE, align="right")
        for i, words in enumerate(row.rows):
            canvas.text(CHART_MARGIN + _SWATCH + 10, row.baseline + i * LEGEND_STEP, words,
                        LEGEND_SIZE, colour)
