"""The pictures' colours and what they are drawn on: the Canvas (drawn at twice its
size, then reduced) and the Board (put together at its own size from kept sprites), and
the cards, suits and symbols drawn on them.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.cards import JOKER_BASE, RANKS, SUIT_SYMBOLS, rank_of, suit_of

from .letters import (
    Piece,
    piece_width,
    pieces_of,
    rtl_direction,
    rtl_font,
    run_width,
    sized_font,
    text_width,
)

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
        width = text_width(text, size)
        if align == "centre":
            x -= width / 2
        elif align == "right":
            x -= width
        _draw_pieces(self.draw, x * SCALE, baseline * SCALE, pieces_of(text), size * SCALE,
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
        width = text_width(text, size)
        if align == "centre":
            x -= width / 2
        elif align == "right":
            x -= width
        for piece in pieces_of(text):
            if piece[0] == "text":
                mask, left, top = _run_mask(piece[1], round(size))
                self.image.paste(fill, (round(x) + left, round(baseline) + top), mask)
            else:
                sprite, top = _piece_sprite(piece, size, fill, red)
                self.paste(sprite, x - _SPRITE_MARGIN, baseline - top)
            x += piece_width(piece, size)
        return width

    def png(self, palette: Image.Image) -> bytes:
        # A table changes at every move: the palette is the table's own, found once
        # (`palette`), and zlib's fastest level writes it in a third of the time for a
        # few KB more.
        return _png(self.image, palette, level=1)


@lru_cache(maxsize=2048)
def _run_mask(run: str, size: int) -> tuple[Image.Image, int, int]:
    """A run of text drawn by the font (its coverage, to paste a colour through), and
    where its top left lies from the start of its baseline. Kept: most words of a table
    ("3 tricks", "dealer", the scores) recur at every table and every change. (Names
    recur only at their own table: at a busy bot they come and go, about 3 KB each.)"""
    font = sized_font(size)
    ascent, descent = font.getmetrics()  # no layout of its own, unlike getbbox
    mask = Image.new("L", (math.ceil(run_width(run, size)) + 2 * _RUN_MARGIN,
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
    canvas = _transparent(piece_width(piece, size) + 2 * _SPRITE_MARGIN, top + 0.45 * size)
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
    font = sized_font(round(size))
    for piece in pieces:
        kind, what = piece
        width = piece_width(piece, size)
        if kind == "text":
            draw.text((x, baseline), what, font=font, fill=fill, anchor="ls")
        elif kind == "rtl":  # Persian: shaped and ordered right to left (letters.py)
            draw.text((x, baseline), what, font=rtl_font(round(size)), fill=fill,
                      anchor="ls", direction=rtl_direction())
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
    draw.text((left, 0.05 * h), rank, font=sized_font(size), fill=colour, anchor="lt",
              stroke_width=1 if h >= 60 * SCALE else 0, stroke_fill=colour)
    index = 0.2 * h
    _suit_shape(draw, suit, left + 0.01 * w, 0.1 * h + size, index, colour)
    pip = 0.44 * h
    _suit_shape(draw, suit, w - pip - 0.08 * w, h - pip - 0.07 * h, pip, colour)


def _joker(draw: ImageDraw.ImageDraw, card: int, w: int, h: int) -> None:
    size = round(h * 0.22)
    draw.text((0.09 * w, 0.06 * h), "JK", font=sized_font(size), fill=JOKER, anchor="lt")
    draw.text((0.09 * w, 0.08 * h + size), str(card - JOKER_BASE + 1), font=sized_font(size),
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
