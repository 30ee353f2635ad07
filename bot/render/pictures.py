"""Pictures: the public table of any game (its Scene) and the running-totals chart, as PNG.

Only this module imports Pillow. Everything is drawn here, with no image or font file:
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
"""

from __future__ import annotations

import dataclasses
import io
import math
import unicodedata
from collections.abc import Callable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.cards import JOKER_BASE, RANKS, SUIT_SYMBOLS, rank_of, suit_of
from bot.i18n import _
from bot.tables.scene import NO_SEAT, CardGroup, Scene, SeatScene

__all__ = ["CHART_SIZE", "TABLE_SIZE", "chart_axis_label", "prepare_pictures", "table_picture",
           "totals_chart"]

SCALE = 2  # drawn at this multiple, then reduced: the reduction smooths every edge
PALETTE_COLOURS = 64  # a small palette keeps a picture to a few tens of KB

RGB = tuple[int, int, int]
BACKGROUND: RGB = (30, 33, 38)
PANEL: RGB = (43, 47, 56)
FELT: RGB = (24, 110, 58)
RIM: RGB = (96, 62, 34)
SEAT_BOX: RGB = (14, 66, 34)
SEAT_EDGE: RGB = (58, 140, 86)
SHADOW: RGB = (14, 60, 31)
WHITE: RGB = (245, 245, 245)
MUTED: RGB = (196, 208, 200)
GOLD: RGB = (250, 200, 60)
CARD_EDGE: RGB = (120, 120, 120)
RED_SUIT: RGB = (206, 32, 42)
BLACK_SUIT: RGB = (28, 28, 28)
LIGHT_RED: RGB = (255, 118, 118)  # a red suit in text on a dark background
JOKER: RGB = (110, 50, 170)
BACK: RGB = (44, 82, 160)
BACK_PATTERN: RGB = (96, 138, 214)
GRID: RGB = (64, 69, 80)
# The players' lines in the chart: apart from each other and readable on dark grey.
LINE_COLOURS: tuple[RGB, ...] = ((255, 99, 99), (90, 170, 255), (255, 200, 60),
                                 (110, 220, 130), (200, 130, 255), (255, 150, 60),
                                 (80, 220, 220), (240, 120, 200))


# ----------------------------------------------------------------- text without a full font

@lru_cache(maxsize=32)
def _font(size: int) -> ImageFont.FreeTypeFont:
    font = ImageFont.load_default(size=size)
    assert isinstance(font, ImageFont.FreeTypeFont), "Pillow was built without FreeType"
    return font


def _glyph(ch: str) -> bytes:
    image = Image.new("L", (48, 48))
    ImageDraw.Draw(image).text((4, 4), ch, font=_font(20), fill=255)
    return image.tobytes()


@lru_cache(maxsize=4096)
def _has_glyph(ch: str) -> bool:
    """Whether the bundled font draws `ch` (else it draws its empty box)."""
    return _glyph(ch) != _glyph("\ue000")


# Characters the font lacks, drawn another way: ("text", letters) in the font, or a
# shape by name with its width in font sizes.
_SUBSTITUTES: dict[str, tuple[str, str]] = {
    "æ": ("text", "ae"), "Æ": ("text", "AE"), "œ": ("text", "oe"), "Œ": ("text", "OE"),
    "ß": ("text", "ss"), "đ": ("text", "d"), "Đ": ("text", "D"), "ł": ("text", "l"),
    "Ł": ("text", "L"), "ø": ("slash", "o"), "Ø": ("slash", "O"), "×": ("text", "x"),
    "—": ("dash", "0.9"), "–": ("dash", "0.55"), "−": ("dash", "0.55"),
    "→": ("arrow", ""), "▶": ("play", ""), "★": ("star", ""), "\u00a0": ("text", " "),
}
# Accents drawn over a letter (by their combining character after NFD).
_ACCENTS = {"\u0300": "grave", "\u0301": "acute", "\u0302": "circumflex", "\u0303": "tilde",
            "\u0308": "diaeresis", "\u030a": "ring", "\u030c": "caron"}

Piece = tuple[str, str]  # (kind, what): ("text", run), ("suit", "♠"), ("ring", "a")...


@lru_cache(maxsize=2048)
def _pieces(text: str) -> tuple[Piece, ...]:
    """`text` as runs the font draws and shapes drawn by hand; characters neither can
    show are left out ("?" if that leaves nothing)."""
    kept = [piece for piece in map(_piece, text) if piece is not None]
    if len(kept) < len(text):  # something left out: no double space where it stood
        kept = [piece for i, piece in enumerate(kept) if piece != ("text", " ") or (
            0 < i < len(kept) - 1 and kept[i - 1] != ("text", " "))]
    out: list[Piece] = []
    for piece in kept:
        if piece[0] == "text" and out and out[-1][0] == "text":
            out[-1] = ("text", out[-1][1] + piece[1])
        else:
            out.append(piece)
    if not out and text.strip():
        out.append(("text", "?"))
    return tuple(out)


def _piece(ch: str) -> Piece | None:
    if ch in SUIT_SYMBOLS:
        return ("suit", ch)
    if _has_glyph(ch):
        return ("text", ch)
    if ch in _SUBSTITUTES:
        return _SUBSTITUTES[ch]
    base, *marks = unicodedata.normalize("NFD", ch)
    if marks and _has_glyph(base):
        accents = [_ACCENTS[m] for m in marks if m in _ACCENTS]
        return (accents[0], base) if accents else ("text", base)
    plain = unicodedata.normalize("NFKD", ch)
    if plain != ch and all(_has_glyph(c) for c in plain):
        return ("text", plain)
    if ch.isspace():
        return ("text", " ")
    return None


def _piece_width(piece: Piece, size: float) -> float:
    kind, what = piece
    if kind == "suit":
        return 0.82 * size
    if kind == "dash":
        return float(what) * size
    if kind == "arrow":
        return 0.95 * size
    if kind in ("play", "star"):
        return 0.7 * size
    return _run_width(what, round(size))


@lru_cache(maxsize=8192)
def _run_width(run: str, size: int) -> float:
    return _font(size).getlength(run)


@lru_cache(maxsize=8192)
def _text_width(text: str, size: float) -> float:
    return sum(_piece_width(piece, size) for piece in _pieces(text))


def _fit(text: str, size: float, width: float) -> str:
    """`text`, shortened with "…" until it fits in `width`."""
    if _text_width(text, size) <= width:
        return text
    # The longest start that fits with "…" after it, letter by letter (each letter's
    # width is kept; kerning between them, a fraction of a pixel, is left out).
    room = width - _text_width("…", size)
    fits = 0
    for ch in text:
        room -= _text_width(ch, size)
        if room < 0:
            break
        fits += 1
    return text[:fits].rstrip() + "…"


def _wrap(text: str, size: float, width: float, rows: int) -> list[str]:
    """`text` in at most `rows` rows of `width`, broken at spaces, the last one shortened."""
    out: list[str] = []
    words = text.split(" ")
    while words and len(out) < rows - 1:
        row = words.pop(0)
        while words and _text_width(row + " " + words[0], size) <= width:
            row += " " + words.pop(0)
        out.append(row)
    if words:
        out.append(_fit(" ".join(words), size, width))
    return [_fit(row, size, width) for row in out]


# ----------------------------------------------------------------- the canvas

class Canvas:
    """An image drawn at SCALE times its size: coordinates are the final picture's."""

    def __init__(self, size: tuple[int, int],
                 background: RGB | tuple[int, int, int, int]) -> None:
        self.size = size
        mode = "RGBA" if len(background) == 4 else "RGB"
        self.image = Image.new(mode, (size[0] * SCALE, size[1] * SCALE), background)
        self.draw = ImageDraw.Draw(self.image)

    def rect(self, box: tuple[float, float, float, float], fill: RGB | None,
             radius: float = 0, outline: RGB | None = None, width: float = 0) -> None:
        self.draw.rounded_rectangle(_scaled(box), radius=round(radius * SCALE), fill=fill,
                                    outline=outline, width=round(width * SCALE))

    def line(self, points: Sequence[tuple[float, float]], fill: RGB, width: float) -> None:
        self.draw.line([(x * SCALE, y * SCALE) for x, y in points], fill=fill,
                       width=max(1, round(width * SCALE)), joint="curve")

    def ellipse(self, box: tuple[float, float, float, float], fill: RGB | None,
                outline: RGB | None = None, width: float = 0) -> None:
        self.draw.ellipse(_scaled(box), fill=fill, outline=outline,
                          width=round(width * SCALE))

    def paste(self, image: Image.Image, x: float, y: float) -> None:
        self.image.paste(image, (round(x * SCALE), round(y * SCALE)), image)

    def text(self, x: float, baseline: float, text: str, size: float, fill: RGB,
             align: str = "left", red: RGB = LIGHT_RED) -> float:
        """Draw `text` with its baseline at `baseline`, from `x` ("left"), centred on it
        ("centre") or ending at it ("right"); red suits in `red`. Returns its width."""
        width = _text_width(text, size)
        if align == "centre":
            x -= width / 2
        elif align == "right":
            x -= width
        _draw_pieces(self.draw, x * SCALE, baseline * SCALE, _pieces(text), size * SCALE,
                     fill, red)
        return width

    def png(self, colours: int = PALETTE_COLOURS) -> bytes:
        return _png(self.image.reduce(SCALE), colours=colours)

    def sprite(self) -> Image.Image:
        """What was drawn on a transparent canvas, at its own size, to paste by its alpha.
        Reduced premultiplied, so the transparent pixels' colour never darkens an edge."""
        return self.image.convert("RGBa").reduce(SCALE).convert("RGBA")


def _png(picture: Image.Image, palette: Image.Image | None = None,
         level: int = 6, colours: int = PALETTE_COLOURS) -> bytes:
    """`picture` with a small palette as PNG: `palette`'s colours (fast: a nearest-colour
    map), else its own, found by the fast octree (which keeps the suits' reds apart from
    the felt and costs a few ms). No dithering; zlib at `level`: smaller and several
    times faster to write than PNG's `optimize` (which gains about a tenth)."""
    if palette is not None:
        small = picture.quantize(palette=palette, dither=Image.Dither.NONE)
    else:
        small = picture.quantize(colors=colours, method=Image.Quantize.FASTOCTREE,
                                 dither=Image.Dither.NONE)
    out = io.BytesIO()
    small.save(out, format="PNG", compress_level=level)
    return out.getvalue()


def _transparent(width: float, height: float) -> Canvas:
    return Canvas((math.ceil(width), math.ceil(height)), (0, 0, 0, 0))


class Board:
    """The table's picture at its own size, put together from kept sprites: shapes and
    cards are drawn once at SCALE (see Canvas.sprite), words each time at this size."""

    def __init__(self, base: Image.Image) -> None:
        self.image = base.copy()

    def paste(self, sprite: Image.Image, x: float, y: float) -> None:
        self.image.paste(sprite, (round(x), round(y)), sprite)

    def rect(self, box: tuple[float, float, float, float], fill: RGB | None,
             radius: float = 0, outline: RGB | None = None, width: float = 0) -> None:
        x0, y0, x1, y1 = box
        self.paste(_box(round(x1 - x0), round(y1 - y0), fill, radius, outline, width),
                   x0, y0)

    def card(self, card: int, x: float, y: float, width: int, height: int,
             shadow: RGB | None = SHADOW) -> None:
        self.paste(_card_sprite(card, width, height, shadow), x, y)

    def text(self, x: float, baseline: float, text: str, size: float, fill: RGB,
             align: str = "left", red: RGB = LIGHT_RED) -> float:
        """As Canvas.text: runs of the font drawn here, shapes pasted from sprites."""
        width = _text_width(text, size)
        if align == "centre":
            x -= width / 2
        elif align == "right":
            x -= width
        for piece in _pieces(text):
            if piece[0] == "text":
                mask, left, top = _run_mask(piece[1], round(size))
                self.image.paste(fill, (round(x) + left, round(baseline) + top), mask)
            else:
                sprite, top = _piece_sprite(piece, size, fill, red)
                self.paste(sprite, x - _SPRITE_MARGIN, baseline - top)
            x += _piece_width(piece, size)
        return width

    def png(self) -> bytes:
        # A table changes at every move: the palette is the table's own, found once, and
        # zlib's fastest level writes it in a third of the time for a few KB more.
        return _png(self.image, _table_palette(), level=1)


@lru_cache(maxsize=2048)
def _run_mask(run: str, size: int) -> tuple[Image.Image, int, int]:
    """A run of text drawn by the font (its coverage, to paste a colour through), and
    where its top left lies from the start of its baseline. Kept: most words of a table
    ("3 tricks", "dealer", the scores) recur at every table and every change. (Names
    recur only at their own table: at a busy bot they come and go, about 3 KB each.)"""
    font = _font(size)
    ascent, descent = font.getmetrics()  # no layout of its own, unlike getbbox
    mask = Image.new("L", (math.ceil(_run_width(run, size)) + 2 * _RUN_MARGIN,
                           ascent + descent))
    ImageDraw.Draw(mask).text((_RUN_MARGIN, ascent), run, font=font, fill=255, anchor="ls")
    return mask, -_RUN_MARGIN, -ascent


_RUN_MARGIN = 2  # room beside a run for letters that reach past their advance


_SPRITE_MARGIN = 3  # room around a drawn symbol for strokes that reach past its width


@lru_cache(maxsize=512)
def _piece_sprite(piece: Piece, size: float, fill: RGB, red: RGB) -> tuple[Image.Image, int]:
    """A symbol or an accented letter of text, and how far above its top its baseline
    lies."""
    top = math.ceil(1.25 * size)
    canvas = _transparent(_piece_width(piece, size) + 2 * _SPRITE_MARGIN, top + 0.45 * size)
    _draw_pieces(canvas.draw, _SPRITE_MARGIN * SCALE, top * SCALE, (piece,), size * SCALE,
                 fill, red)
    return canvas.sprite(), top


@lru_cache(maxsize=256)
def _box(width: int, height: int, fill: RGB | None, radius: float, outline: RGB | None,
         line: float) -> Image.Image:
    canvas = _transparent(width, height)
    canvas.rect((0, 0, width, height), fill, radius=radius, outline=outline, width=line)
    return canvas.sprite()


@lru_cache(maxsize=1024)
def _card_sprite(card: int, width: int, height: int, shadow: RGB | None) -> Image.Image:
    """A card (with its shadow below and to the right), at its own size."""
    canvas = _transparent(width + 2, height + 3)
    if shadow is not None:
        canvas.rect((2, 3, width + 2, height + 3), shadow, radius=0.11 * width)
    canvas.paste(_card(card, width, height), 0, 0)
    return canvas.sprite()


def _scaled(box: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = box
    return (round(x0 * SCALE), round(y0 * SCALE), round(x1 * SCALE) - 1,
            round(y1 * SCALE) - 1)


def _draw_pieces(draw: ImageDraw.ImageDraw, x: float, baseline: float,
                 pieces: Sequence[Piece], size: float, fill: RGB, red: RGB) -> None:
    """Pieces of text at scaled coordinates: font runs, and the shapes drawn by hand."""
    font = _font(round(size))
    for piece in pieces:
        kind, what = piece
        width = _piece_width(piece, size)
        if kind == "text":
            draw.text((x, baseline), what, font=font, fill=fill, anchor="ls")
        elif kind == "suit":
            suit = SUIT_SYMBOLS.index(what)
            colour = red if suit in (1, 2) else fill
            edge = 0.68 * size
            _suit_shape(draw, suit, x + 0.07 * size, baseline - edge, edge, colour)
        elif kind in ("dash", "arrow", "play", "star"):
            _symbol(draw, kind, x, baseline, width, size, fill)
        else:
            draw.text((x, baseline), what, font=font, fill=fill, anchor="ls")
            _accent(draw, kind, font.getbbox(what, anchor="ls"), x, baseline, size, fill)
        x += width


def _symbol(draw: ImageDraw.ImageDraw, kind: str, x: float, baseline: float, width: float,
            size: float, fill: RGB) -> None:
    mid = baseline - 0.3 * size
    stroke = max(1, round(size / 11))
    if kind == "dash":
        draw.line([(x + 0.08 * size, mid), (x + width - 0.08 * size, mid)], fill=fill,
                  width=stroke)
    elif kind == "arrow":
        head = 0.22 * size
        end = x + width - 0.1 * size
        draw.line([(x + 0.1 * size, mid), (end, mid)], fill=fill, width=stroke)
        draw.polygon([(end + stroke, mid), (end - head, mid - head * 0.8),
                      (end - head, mid + head * 0.8)], fill=fill)
    elif kind == "play":
        draw.polygon([(x + 0.1 * size, mid - 0.3 * size), (x + 0.1 * size, mid + 0.3 * size),
                      (x + 0.6 * size, mid)], fill=fill)
    else:
        _star(draw, x + width / 2, mid - 0.05 * size, 0.36 * size, fill)


def _accent(draw: ImageDraw.ImageDraw, kind: str, bbox: tuple[float, float, float, float],
            x: float, baseline: float, size: float, fill: RGB) -> None:
    """An accent over (or a stroke through) the letter just drawn in `bbox`."""
    left, top, right, bottom = (x + bbox[0], baseline + bbox[1], x + bbox[2],
                                baseline + bbox[3])
    centre = (left + right) / 2
    stroke = max(1, round(size / 12))
    gap = 0.05 * size
    high = top - gap
    if kind == "slash":
        draw.line([(left, bottom + gap), (right, top - gap)], fill=fill, width=stroke)
    elif kind == "ring":
        radius = 0.1 * size
        draw.ellipse((centre - radius, high - 2 * radius, centre + radius, high),
                     outline=fill, width=stroke)
    elif kind == "acute":
        draw.line([(centre - 0.04 * size, high), (centre + 0.1 * size, high - 0.16 * size)],
                  fill=fill, width=stroke)
    elif kind == "grave":
        draw.line([(centre + 0.04 * size, high), (centre - 0.1 * size, high - 0.16 * size)],
                  fill=fill, width=stroke)
    elif kind == "diaeresis":
        radius = 0.045 * size
        for dot in (centre - 0.12 * size, centre + 0.12 * size):
            draw.ellipse((dot - radius, high - 2 * radius, dot + radius, high), fill=fill)
    elif kind in ("circumflex", "caron"):
        tip, ends = (high - 0.14 * size, high) if kind == "circumflex" else (
            high, high - 0.14 * size)
        draw.line([(centre - 0.1 * size, ends), (centre, tip), (centre + 0.1 * size, ends)],
                  fill=fill, width=stroke)
    elif kind == "tilde":
        wave = [(centre - 0.12 * size + i * 0.04 * size,
                 high - 0.06 * size - 0.05 * size * math.sin(i * math.pi / 3))
                for i in range(7)]
        draw.line(wave, fill=fill, width=stroke)


# ----------------------------------------------------------------- suits and cards

def _suit_shape(draw: ImageDraw.ImageDraw, suit: int, x: float, y: float, edge: float,
                fill: RGB) -> None:
    """Suit `suit` (S H D C) filling the square at (x, y) of side `edge`."""
    def at(u: float, v: float) -> tuple[float, float]:
        return (x + u * edge, y + v * edge)

    def disc(u: float, v: float, r: float) -> None:
        draw.ellipse((x + (u - r) * edge, y + (v - r) * edge, x + (u + r) * edge,
                      y + (v + r) * edge), fill=fill)

    if suit == 2:  # diamond
        draw.polygon([at(0.5, 0.0), at(0.9, 0.5), at(0.5, 1.0), at(0.1, 0.5)], fill=fill)
    elif suit == 1:  # heart: two lobes and a point
        disc(0.28, 0.32, 0.26)
        disc(0.72, 0.32, 0.26)
        draw.polygon([at(0.03, 0.42), at(0.97, 0.42), at(0.5, 0.98)], fill=fill)
    elif suit == 0:  # spade: an upturned heart on a stem
        disc(0.28, 0.6, 0.24)
        disc(0.72, 0.6, 0.24)
        draw.polygon([at(0.05, 0.52), at(0.95, 0.52), at(0.5, 0.0)], fill=fill)
        draw.polygon([at(0.5, 0.6), at(0.3, 1.0), at(0.7, 1.0)], fill=fill)
    else:  # club: three leaves on a stem
        disc(0.5, 0.27, 0.22)
        disc(0.25, 0.6, 0.22)
        disc(0.75, 0.6, 0.22)
        disc(0.5, 0.55, 0.12)
        draw.polygon([at(0.5, 0.5), at(0.3, 1.0), at(0.7, 1.0)], fill=fill)


def _star(draw: ImageDraw.ImageDraw, cx: float, cy: float, radius: float, fill: RGB) -> None:
    points = []
    for i in range(10):
        r = radius if i % 2 == 0 else radius * 0.45
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((cx + r * math.cos(angle), cy + r * math.sin(angle)))
    draw.polygon(points, fill=fill)


def _card(card: int, width: int, height: int) -> Image.Image:
    """A card's face (or its back, card -1), at SCALE, with transparent corners."""
    w, h = width * SCALE, height * SCALE
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    radius = round(0.11 * w)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=WHITE, outline=CARD_EDGE,
                           width=SCALE)
    if card < 0:
        _card_back(draw, w, h, radius)
    elif card >= JOKER_BASE:
        _joker(draw, card, w, h)
    else:
        _card_face(draw, card, w, h)
    return image


def _card_face(draw: ImageDraw.ImageDraw, card: int, w: int, h: int) -> None:
    suit = suit_of(card)
    colour = RED_SUIT if suit in (1, 2) else BLACK_SUIT
    rank = RANKS[rank_of(card)]
    size = round(h * (0.3 if rank == "10" else 0.34))
    left = 0.09 * w
    # A hair of stroke: the bundled font has no bold, and a rank must read on a phone.
    draw.text((left, 0.05 * h), rank, font=_font(size), fill=colour, anchor="lt",
              stroke_width=1 if h >= 60 * SCALE else 0, stroke_fill=colour)
    index = 0.2 * h
    _suit_shape(draw, suit, left + 0.01 * w, 0.1 * h + size, index, colour)
    pip = 0.44 * h
    _suit_shape(draw, suit, w - pip - 0.08 * w, h - pip - 0.07 * h, pip, colour)


def _joker(draw: ImageDraw.ImageDraw, card: int, w: int, h: int) -> None:
    size = round(h * 0.22)
    draw.text((0.09 * w, 0.06 * h), "JK", font=_font(size), fill=JOKER, anchor="lt")
    draw.text((0.09 * w, 0.08 * h + size), str(card - JOKER_BASE + 1), font=_font(size),
              fill=JOKER, anchor="lt")
    _star(draw, 0.58 * w, 0.62 * h, 0.3 * min(w, h * 0.8), JOKER)


def _card_back(draw: ImageDraw.ImageDraw, w: int, h: int, radius: int) -> None:
    margin = round(0.09 * w)
    inner = (margin, margin, w - 1 - margin, h - 1 - margin)
    draw.rounded_rectangle(inner, radius=max(1, radius - margin // 2), fill=BACK)
    step = max(4, round(w / 5))
    half = step / 2 - SCALE
    for row in range(1, (h - 2 * margin) // step + 1):
        for col in range(1, (w - 2 * margin) // step + 1):
            cx = margin + col * step - (step / 2 if row % 2 else 0)
            cy = margin + row * step - step / 2
            if margin + half <= cx <= w - margin - half:
                draw.polygon([(cx, cy - half), (cx + half, cy), (cx, cy + half),
                              (cx - half, cy)], fill=BACK_PATTERN)


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
    return canvas.png()


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
        rows = _wrap(scene.centre_label, LINE_SIZE, 140, 2)
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
    on_name = bool(seat.backs) and len(names) == 1 and _text_width(names[0], size) + (
        MARK_WIDTH if seat.to_act else 0) + COUNT_ROOM <= SEAT_WIDTH - 2 * SEAT_PAD
    count_row = -1 if on_name else 0
    rows: list[str] = []
    for line in seat.lines:
        for part in line.split(" · "):
            if rows and _text_width(rows[-1] + " · " + part, LINE_SIZE) <= _row_room(
                    seat, len(rows) - 1, count_row):
                rows[-1] += " · " + part
            else:
                rows.append(part)
    rows = [_fit(row, LINE_SIZE, _row_room(seat, i, count_row)) for i, row in enumerate(rows)]
    while rows and _seat_height(seat, len(names), len(rows), on_name) > room:
        rows.pop()
    return names, rows, size, on_name


def _name_rows(name: str, to_act: bool) -> tuple[list[str], float]:
    """The name's rows and size: at NAME_SIZE, else at LINE_SIZE; after the mark of the
    seat to act if the name fits beside it, else without it (the gold box says it)."""
    marks = (MARK_WIDTH, 0) if to_act else (0,)
    for size in (NAME_SIZE, LINE_SIZE):
        for mark in marks:
            rows = _wrap(name, size, SEAT_WIDTH - 2 * SEAT_PAD - mark, 2)
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
    marked = seat.to_act and not _wrap(seat.name, name_size,
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
        one = _text_width(scene.centre_label, LINE_SIZE)
        rows = ((scene.centre_label,) if one <= CENTRE_LABEL_WIDTH
                and x + one + least <= STRIP_RIGHT else _narrowest_rows(scene.centre_label))
        width = max(_text_width(row, LINE_SIZE) for row in rows)
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
                                 (_fit(group.label, LINE_SIZE, width),)))
        x += width + STRIP_GAP
    return places


def _narrowest_rows(text: str) -> tuple[str, ...]:
    """`text` in two rows broken at a space, the wider of them as narrow as can be."""
    words = text.split(" ")
    splits = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
    return min(splits, key=lambda rows: max(_text_width(row, LINE_SIZE) for row in rows),
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
    return ROW_CARD[0] + 10 + _text_width(str(group.backs), NAME_SIZE) + 8


def _group_width(group: CardGroup) -> float:
    """A group's natural width: its cards side by side (and stack), or its label."""
    cards = len(group.cards) * (ROW_CARD[0] + 3)
    return max(cards + _stack_width(group), _text_width(group.label, LINE_SIZE))


def _group_least(group: CardGroup) -> float:
    """The least width a group takes: its label whole, its cards overlapping."""
    count = len(group.cards)
    cards = ROW_CARD[0] + (count - 1) * LEAST_CARD_STEP + 3 if count else 0.0
    return max(cards + _stack_width(group), _text_width(group.label, LINE_SIZE))


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
    wrapped = [_wrap(words, LEGEND_SIZE, _legend_room(total), 2)
               for _seat, words, total in entries]
    room = CHART_SIZE[1] - CHART_TOP - PLOT_LEAST - _AXIS_ROOM - CHART_MARGIN
    while sum(len(rows) for rows in wrapped) * LEGEND_STEP > room:
        # The longest name in two rows takes one, shortened, until the plot has room.
        longest = max((i for i, rows in enumerate(wrapped) if len(rows) > 1),
                      key=lambda i: len(entries[i][1]))
        _seat, words, total = entries[longest]
        wrapped[longest] = [_fit(words, LEGEND_SIZE, _legend_room(total))]
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
            - _text_width(total, LEGEND_SIZE) - 14)


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
    column = max(_text_width(str(value), CHART_TEXT) for value in values[:2])
    left = CHART_MARGIN + max(column, _text_width(word, CHART_TEXT)
                              + _text_width("0", CHART_TEXT) / 2 + 8) + 10
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
    canvas.text(CHART_MARGIN, 40, _fit(title, CHART_TITLE, CHART_SIZE[0] - 2 * CHART_MARGIN),
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
    wide = _text_width(str(deals), CHART_TEXT) + 12
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
