"""Words in a picture without a full font: Pillow's bundled font has ASCII only, so
suit symbols, dashes and arrows are drawn as shapes, accents as drawn marks over their
letter, ø as o and a stroke, æ as "ae", and what is left (emoji) is left out. Widths,
fitting and wrapping of such words.

Persian words (issue 55) are drawn whole, in a font that has them (fonts/, a subset of
DejaVu Sans: its Arabic letters and their shaping tables), laid out by libraqm (Pillow's
`Layout.RAQM`: HarfBuzz joins the letters, FriBiDi orders the text right to left, the
isolates of bot/i18n/rtl.py included). Pillow's wheels carry libraqm and HarfBuzz and
load FriBiDi from the system (Debian's libfribidi0; the README). Without it the letters
are drawn apart, left to right, and a warning says why.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, features

from bot.cards import SUIT_SYMBOLS

log = logging.getLogger(__name__)

# ----------------------------------------------------------------- right-to-left words

RTL_FONT = Path(__file__).resolve().parent / "fonts" / "DejaVuSans-Persian.ttf"
# A letter of the Arabic script (Persian's): a text with one is drawn by `rtl_font`.
_ARABIC = re.compile("[\u0600-\u06ff\u0750-\u077f\ufb50-\ufdff\ufe70-\ufeff]")


def shapes() -> bool:
    """Whether Persian words are shaped (Pillow has libraqm, with FriBiDi)."""
    return bool(features.check_feature("raqm"))


@lru_cache(maxsize=32)
def rtl_font(size: int) -> ImageFont.FreeTypeFont:
    """The font of right-to-left words, laid out by libraqm where Pillow has it."""
    if not shapes():
        log.warning("Pillow has no libraqm (or FriBiDi): Persian words in pictures are "
                    "drawn unshaped; install FriBiDi (Debian: libfribidi0)")
        return ImageFont.truetype(str(RTL_FONT), size, layout_engine=ImageFont.Layout.BASIC)
    return ImageFont.truetype(str(RTL_FONT), size, layout_engine=ImageFont.Layout.RAQM)


def rtl_direction() -> str | None:
    """The `direction` Pillow draws right-to-left words with (only libraqm takes one)."""
    return "rtl" if shapes() else None


@lru_cache(maxsize=4096)
def rtl_width(text: str, size: int) -> float:
    return rtl_font(size).getlength(text, direction=rtl_direction())


# ----------------------------------------------------------------- text without a full font

@lru_cache(maxsize=32)
def sized_font(size: int) -> ImageFont.FreeTypeFont:
    font = ImageFont.load_default(size=size)
    assert isinstance(font, ImageFont.FreeTypeFont), "Pillow was built without FreeType"
    return font


def _glyph(ch: str) -> bytes:
    image = Image.new("L", (48, 48))
    ImageDraw.Draw(image).text((4, 4), ch, font=sized_font(20), fill=255)
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
def pieces_of(text: str) -> tuple[Piece, ...]:
    """`text` as runs the font draws and shapes drawn by hand; characters neither can
    show are left out ("?" if that leaves nothing). A text with Persian letters is one
    piece, drawn whole right to left ("rtl")."""
    if _ARABIC.search(text):
        return (("rtl", text),)
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
    decomposed = unicodedata.normalize("NFD", ch)
    base, marks = decomposed[0], decomposed[1:]
    if marks and _has_glyph(base):
        accents = [_ACCENTS[m] for m in marks if m in _ACCENTS]
        return (accents[0], base) if accents else ("text", base)
    plain = unicodedata.normalize("NFKD", ch)
    if plain != ch and all(_has_glyph(c) for c in plain):
        return ("text", plain)
    if ch.isspace():
        return ("text", " ")
    return None


def piece_width(piece: Piece, size: float) -> float:
    kind, what = piece
    if kind == "suit":
        return 0.82 * size
    if kind == "dash":
        return float(what) * size
    if kind == "arrow":
        return 0.95 * size
    if kind in ("play", "star"):
        return 0.7 * size
    if kind == "rtl":
        return rtl_width(what, round(size))
    return run_width(what, round(size))


@lru_cache(maxsize=8192)
def run_width(run: str, size: int) -> float:
    return sized_font(size).getlength(run)


@lru_cache(maxsize=8192)
def text_width(text: str, size: float) -> float:
    return sum(piece_width(piece, size) for piece in pieces_of(text))


def fit_text(text: str, size: float, width: float) -> str:
    """`text`, shortened with "…" until it fits in `width`."""
    if text_width(text, size) <= width:
        return text
    # The longest start that fits with "…" after it, letter by letter (each letter's
    # width is kept; kerning between them, a fraction of a pixel, is left out).
    room = width - text_width("…", size)
    fits = 0
    for ch in text:
        room -= text_width(ch, size)
        if room < 0:
            break
        fits += 1
    return text[:fits].rstrip() + "…"


def wrap_text(text: str, size: float, width: float, rows: int) -> list[str]:
    """`text` in at most `rows` rows of `width`, broken at spaces, the last one shortened."""
    out: list[str] = []
    words = text.split(" ")
    while words and len(out) < rows - 1:
        row = words.pop(0)
        while words and text_width(row + " " + words[0], size) <= width:
            row += " " + words.pop(0)
        out.append(row)
    if words:
        out.append(fit_text(" ".join(words), size, width))
    return [fit_text(row, size, width) for row in out]
