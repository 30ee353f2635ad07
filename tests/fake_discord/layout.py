"""How tall a message is on a phone: a small layout model of Discord's mobile client, to
measure the hand panel the bot really sent (its payload, as the fake stores it).

Discord publishes the limits of what a message may hold, not pixel sizes: an embed
(title 256, description 4096, at most 25 fields of 256 + 1024 characters, 6000 in all:
https://discord.com/developers/docs/resources/message#embed-object-embed-limits, as
https://sapphirejs.dev/docs/Documentation/api-utilities/@sapphire/discord-utilities/variables/EmbedLimits
lists them) and components (at most 5 action rows; a row holds 5 buttons or one select:
https://discord.com/developers/docs/components/reference#action-row, as
https://interactions-py.github.io/interactions.py/Guides/05%20Components/ puts it). Every
size below is therefore a MEASURED ASSUMPTION, from screenshots of Discord's iOS app
(cozy message display, default font size) on a 390 x 844 pt phone (iPhone 12 to 14),
rounded to the safe side (taller). Change them here, in one place, if the app changes.

The model: a message is the interaction's header line ("alice used My hand"), the bot's
name line, its content (wrapped), its embed (a 4 px colour bar and padding around the
title, description, fields and footer, each wrapped at the embed's inner width by a
mean character width), then its action rows (buttons laid left to right, wrapped when a
row is wider than the message; a select takes a row), then the ephemeral line ("Only
you can see this"). It measures heights from the top of the message and where each
component ends, so a test can ask whether the buttons lie within one screen.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

import emoji

# ---------------------------------------------------------------- the device (points)
SCREEN_WIDTH = 390
SCREEN_HEIGHT = 844
# What the app leaves for messages: the screen less the status bar (47), the channel's
# header (52), the message box (64) and the home indicator (34).
USABLE_HEIGHT = SCREEN_HEIGHT - 47 - 52 - 64 - 34  # 647

# ---------------------------------------------------------------- a message
AVATAR_GUTTER = 16 + 40 + 12  # left margin, avatar, gap: messages start at x = 68
RIGHT_MARGIN = 16
MESSAGE_WIDTH = SCREEN_WIDTH - AVATAR_GUTTER - RIGHT_MARGIN  # 306
INTERACTION_HEADER = 22  # "alice used /amerikaner hand" above a reply
AUTHOR_LINE = 24  # the bot's name, its APP tag and the time
MESSAGE_PADDING = 8  # above and below a message
EPHEMERAL_LINE = 22  # "Only you can see this · Dismiss message"

CONTENT_FONT = 16  # message content: 16 pt, 22 pt lines
CONTENT_LINE = 22

# ---------------------------------------------------------------- an embed
EMBED_GAP = 4  # between the content and the embed
EMBED_BAR = 4  # the colour bar on the left
EMBED_PAD_TOP, EMBED_PAD_RIGHT, EMBED_PAD_BOTTOM, EMBED_PAD_LEFT = 8, 16, 16, 12
EMBED_TEXT_WIDTH = MESSAGE_WIDTH - EMBED_BAR - EMBED_PAD_LEFT - EMBED_PAD_RIGHT  # 274
TITLE_FONT, TITLE_LINE = 16, 22  # bold
TEXT_FONT, TEXT_LINE = 14, 18  # description, field names and values
SECTION_GAP = 8  # between title, description, field rows and footer
FOOTER_FONT, FOOTER_LINE = 12, 16
INLINE_FIELDS_PER_ROW = 3
INLINE_FIELD_GAP = 8

# Mean glyph widths as a share of the font size (gg sans): most letters and digits, the
# narrow ones, the wide ones (suit symbols, drawn as text glyphs, among them); emoji
# are drawn a little over a font size wide.
MEAN_GLYPH = 0.55
NARROW_GLYPH = 0.3
WIDE_GLYPH = 0.8
EMOJI_GLYPH = 1.25
_NARROW = set("iljtfrI.,:;'!|() ")
_WIDE = set("mwMW@%—♠♥♦♣")

# ---------------------------------------------------------------- components
COMPONENTS_GAP = 8  # between the embed and the first row
BUTTON_HEIGHT = 36
BUTTON_GAP = 8  # between buttons, and between their rows
BUTTON_PAD = 14  # each side of a button's label
BUTTON_EMOJI = 20  # an emoji before a label, with its gap
BUTTON_FONT = 14
SELECT_HEIGHT = 44

# A relative timestamp, as the app shows it ("in 10 minutes").
_TIMESTAMP = re.compile(r"<t:-?\d+(?::[tTdDfFR])?>")
_MARKDOWN = re.compile(r"\*\*|__|~~|\|\||\\(?=\W)")  # bold, underline, strike, spoiler, escapes
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")


def glyph_width(char: str, font: float) -> float:
    """How wide one character is drawn at `font` points."""
    if char in "\u200b\ufe0f\u200d":
        return 0.0
    if char not in _WIDE and (emoji.is_emoji(char) or unicodedata.east_asian_width(char) == "W"):
        return EMOJI_GLYPH * font
    if char in _NARROW:
        return NARROW_GLYPH * font
    if char in _WIDE or char.isupper():
        return WIDE_GLYPH * font if char in _WIDE else 0.68 * font
    return MEAN_GLYPH * font


def plain(text: str) -> str:
    """What the app draws of Markdown: the text without its marks, a link as its words,
    a timestamp as the words it shows."""
    text = _TIMESTAMP.sub("in 10 minutes", text)
    return _MARKDOWN.sub("", _LINK.sub(r"\1", text))


def text_width(text: str, font: float) -> float:
    return sum(glyph_width(c, font) for c in text)


def wrapped_lines(text: str, width: float, font: float) -> int:
    """How many lines `text` takes at `width`, wrapped at spaces (a word too long for a
    line is broken where it overflows), each newline starting a line."""
    count = 0
    for paragraph in plain(text).split("\n"):
        count += 1
        used = 0.0
        for word in re.split(r"(?<= )", paragraph):
            size = text_width(word, font)
            if used and used + text_width(word.rstrip(), font) > width:
                count += 1
                used = 0.0
            while size > width:  # a word wider than a line
                count += 1
                size -= width
            used += size
    return count


@dataclass
class Layout:
    """A message laid out: its height, and where each component ends (from its top)."""

    height: float = 0.0
    parts: list[tuple[str, float]] = field(default_factory=list)  # (what, its height)
    component_bottoms: dict[str, float] = field(default_factory=dict)  # custom_id -> y

    def add(self, what: str, height: float) -> None:
        if height:
            self.parts.append((what, height))
            self.height += height

    def fits(self, height: float = USABLE_HEIGHT) -> bool:
        return self.height <= height

    def __str__(self) -> str:
        return f"{self.height:.0f} pt: " + ", ".join(f"{w} {h:.0f}" for w, h in self.parts)


def _embed_height(embed: dict[str, Any]) -> float:
    """An embed's height, its padding and colour bar's included."""
    sections: list[float] = []
    if embed.get("title"):
        sections.append(wrapped_lines(embed["title"], EMBED_TEXT_WIDTH, TITLE_FONT)
                        * TITLE_LINE)
    if embed.get("description"):
        sections.append(wrapped_lines(embed["description"], EMBED_TEXT_WIDTH, TEXT_FONT)
                        * TEXT_LINE)
    row: list[dict[str, Any]] = []
    for item in [*embed.get("fields", []), None]:  # None: the last row ends
        if item is not None and item.get("inline") and len(row) < INLINE_FIELDS_PER_ROW:
            row.append(item)
            continue
        if row:
            width = (EMBED_TEXT_WIDTH - INLINE_FIELD_GAP * (len(row) - 1)) / len(row)
            sections.append(max(_field_height(f, width) for f in row))
            row = []
        if item is not None and item.get("inline"):
            row = [item]
        elif item is not None:
            sections.append(_field_height(item, EMBED_TEXT_WIDTH))
    footer = (embed.get("footer") or {}).get("text")
    if footer:
        sections.append(wrapped_lines(footer, EMBED_TEXT_WIDTH, FOOTER_FONT) * FOOTER_LINE)
    inner = sum(sections) + SECTION_GAP * max(0, len(sections) - 1)
    return EMBED_PAD_TOP + inner + EMBED_PAD_BOTTOM


def _field_height(item: dict[str, Any], width: float) -> float:
    return (wrapped_lines(item.get("name", ""), width, TEXT_FONT)
            + wrapped_lines(item.get("value", ""), width, TEXT_FONT)) * TEXT_LINE


def button_width(button: dict[str, Any]) -> float:
    label = button.get("label") or ""
    width = 2 * BUTTON_PAD + text_width(label, BUTTON_FONT)
    if button.get("emoji"):
        width += BUTTON_EMOJI
    return min(width, MESSAGE_WIDTH)


def layout(message: Any, *, header: bool = True) -> Layout:
    """The layout of a stored message (tests.fake_discord.models.StoredMessage) or of a
    message payload (a dict with content, embeds and components) on the phone."""
    get = message.get if isinstance(message, dict) else lambda k, d=None: getattr(
        message, k, d)
    out = Layout()
    out.add("padding", MESSAGE_PADDING)
    if header:
        out.add("interaction header", INTERACTION_HEADER)
    out.add("author", AUTHOR_LINE)
    content = get("content") or ""
    if content:
        out.add("content", wrapped_lines(content, MESSAGE_WIDTH, CONTENT_FONT) * CONTENT_LINE)
    for embed in get("embeds") or []:
        out.add("embed gap", EMBED_GAP)
        out.add("embed", _embed_height(embed))
    rows = get("components") or []
    if rows:
        out.add("components gap", COMPONENTS_GAP)
    for index, row in enumerate(rows):
        _lay_row(out, row, first=index == 0)
    out.add("ephemeral line", EPHEMERAL_LINE)
    out.add("padding", MESSAGE_PADDING)
    return out


def _lay_row(out: Layout, row: dict[str, Any], first: bool) -> None:
    """One action row: a select, or buttons wrapped to the message's width."""
    if not first:
        out.add("row gap", BUTTON_GAP)
    children = row.get("components") or []
    if any(c.get("type") != 2 for c in children):  # a select fills its row
        out.add("select", SELECT_HEIGHT)
        for child in children:
            out.component_bottoms[child.get("custom_id", "")] = out.height
        return
    lines: list[list[dict[str, Any]]] = [[]]
    used = 0.0
    for button in children:
        width = button_width(button)
        if lines[-1] and used + BUTTON_GAP + width > MESSAGE_WIDTH:
            lines.append([])
            used = 0.0
        used += (BUTTON_GAP if lines[-1] else 0) + width
        lines[-1].append(button)
    for number, line in enumerate(lines):
        if number:
            out.add("wrapped buttons gap", BUTTON_GAP)
        out.add("buttons", BUTTON_HEIGHT)
        for button in line:
            out.component_bottoms[button.get("custom_id") or button.get("url", "")] = \
                out.height
