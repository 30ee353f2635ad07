"""Pictures: the public table of any game (its Scene) and the running-totals chart, as PNG.

Only the picture modules (this one's neighbours below) import Pillow. Everything is
drawn there, with no image file and one font file, for Persian words (`letters`: a
subset of DejaVu Sans in fonts/, laid out by libraqm, right to left); the rest:
cards are rounded rectangles with their rank in Pillow's bundled font
(`ImageFont.load_default`) and their suit as vector shapes, card backs a pattern. The
bundled font has ASCII only, so text goes through a small fallback: suit symbols, dashes
and arrows are drawn as shapes, letters with accents (å, é, ü) as the letter and a drawn
accent, ø as o and a stroke, æ as "ae", and what is left (emoji) is left out.

Shapes are drawn at twice their size and reduced (smooth edges without anti-aliased
primitives). The chart is drawn that way whole. The table's picture, drawn at every change
of every table, is put together at its own size instead: the felt, the cards, the seat
boxes and the symbols are drawn once (at twice their size, reduced) and kept; words are
drawn at their size by FreeType's own anti-aliasing, and the runs that recur ("3
tricks", the scores) kept too; the palette is found once. That keeps a picture to a few
ms (`bench/render.py`). Either is saved with a small palette: a few tens of KB, the
same bytes for the same scene. Sized for a phone: Discord shows it about 400 px wide
there, so text is large.

The drawing is kept in the modules beside this one: `letters` (words without a full
font), `canvas` (colours, the Canvas and the Board, cards and suits), `table_picture`
and `chart`. This module names what the bot, the benchmarks and the tests use.
"""

from .canvas import BACKGROUND, LINE_COLOURS, RGB, Board, Canvas
from .chart import (
    CHART_MARGIN,
    CHART_SIZE,
    ChartLayout,
    LegendRow,
    chart_axis_label,
    chart_layout,
    legend_rows,
    totals_chart,
)
from .table_picture import (
    FELT_SIZE,
    TABLE_SIZE,
    StripPlace,
    prepare_pictures,
    seat_rows,
    strip_layout,
    table_picture,
)

__all__ = [
    "BACKGROUND",
    "Board",
    "CHART_MARGIN",
    "CHART_SIZE",
    "Canvas",
    "ChartLayout",
    "FELT_SIZE",
    "LINE_COLOURS",
    "LegendRow",
    "RGB",
    "StripPlace",
    "TABLE_SIZE",
    "chart_axis_label",
    "chart_layout",
    "legend_rows",
    "prepare_pictures",
    "seat_rows",
    "strip_layout",
    "table_picture",
    "totals_chart",
]
