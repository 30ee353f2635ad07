"""What members supply (display names, what they type) made harmless for where it is
shown. Names are stored raw; every one passes through one of these two functions on its
way to Discord or a picture:

* `safe_plain(text)`: where nothing is rendered as Markdown or mentions (pictures,
  thread names, button and option labels): without the invisible characters that
  reorder or hide text.
* `safe_markdown(text)`: in a message's content or an embed: the same, and every piece of
  Markdown and mention syntax escaped, so it shows as typed and never as a link, a
  mention chip, a heading, a quote or a code block.

Why not discord.py's `escape_markdown` / `escape_mentions` (discord.utils; and
bot.tables may not import discord): they fall short here.

* `escape_markdown` (default, ignore_links=True) leaves URLs alone, escapes `[` only when
  the whole `[x](url)` is on one line, headings only as `#`-`###` at a line start and
  lists only as `-`: numbered lists (`1.`), `+` lists and `-#` subtext after other
  characters pass; with as_needed=True it escapes even less ("can open you up to some
  clever syntax abuse", its docstring says).
* `escape_mentions` escapes `@everyone`, `@here` and user/role ids of 17-20 digits after
  `@`, but not channel mentions `<#id>`, timestamps `<t:…>`, command mentions
  `</name:id>`, custom emoji `<:name:id>` nor `<https://…>` links.
* Neither removes bidirectional controls (U+202A-202E, U+2066-2069, U+200E/F, U+061C),
  which reverse the rest of the line, nor zero-width characters (U+200B-200D, U+2060,
  U+FEFF), which hide text or split `@everyone` for a reader but not for a filter.

So escaping here is simple and total: every ASCII character that Markdown or mention
syntax is made of is preceded by a backslash. Discord's Markdown shows `\\x` as `x` for
any such character, so the name reads as typed. `@everyone` and `@here` also get a
zero-width space after the `@` (what discord.py does): a ping needs `allowed_mentions`
besides (bot/app.py pings nobody by default: bot.discord.no_mentions), but no text of
ours even looks like one.
Bare URLs stay visible as what they are (only masked links hide where they lead).
"""

from __future__ import annotations

import re
import unicodedata

import emoji

__all__ = ["INVISIBLE", "safe_markdown", "safe_plain", "visible"]

# Bidirectional controls (embeddings, overrides, isolates, marks) and zero-width
# characters, named here because they are the point; every other character of Unicode's
# "other" categories goes too: controls (Cc), format characters (Cf), surrogates (Cs),
# private use (Co) and unassigned code points (Cn), which show as nothing or as boxes.
INVISIBLE = frozenset(
    [chr(c) for c in range(0x202A, 0x202F)] + [chr(c) for c in range(0x2066, 0x206A)]
    + ["\u200e", "\u200f", "\u061c"]
    + ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"])

# What Markdown and mention syntax are made of, escaped wherever it stands: emphasis
# (* _ ~), spoilers (|), code (`), masked links ([ ]: a link needs both, so its "(url)"
# may stay as typed), mentions, channels, roles, timestamps, commands and custom emoji
# (< >), and the escape itself.
_ESCAPED = re.compile(r"([\\*_~|`\[\]<>])")
# What is Markdown only at the start of a line: headings (#), subtext (-#), block quotes
# (>, above), lists (- + and "1." / "1)"). A name is one line, so its start is the only
# place it can begin one.
_LINE_START = re.compile(r"^([#\-+])")
# A numbered list's dot (or parenthesis) is escaped, not its digits: Discord shows a
# backslash before a letter or digit as it is.
_NUMBERED = re.compile(r"^([0-9]+)([.)])")
_EVERYONE = re.compile(r"@(everyone|here)", re.IGNORECASE)
# A name with nothing visible left is shown as this (Discord allows no empty name, but
# one of zero-width characters only is possible).
_EMPTY = "?"


def visible(text: str) -> str:
    """`text` without invisible characters (bidirectional controls, zero-width and other
    format characters, controls), its whitespace as single spaces; "" if nothing is
    left. Two invisible characters stay where they are part of what is seen: the
    joiners and tags inside an emoji sequence (a family, a flag of England: the emoji
    package's list of Unicode's emoji), and a zero-width non-joiner between two letters
    (Persian writes words with it)."""
    kept = []
    emoji_at = ({found["match_start"]: found["match_end"]
                 for found in emoji.emoji_list(text)}
                if _EMOJI_INVISIBLE.search(text) else {})  # the common case: none
    index = 0
    while index < len(text):
        if index in emoji_at:  # a whole emoji sequence, as typed
            kept.append(text[index:emoji_at[index]])
            index = emoji_at[index]
            continue
        ch = text[index]
        if ch.isspace():
            kept.append(" ")
        elif _seen(text, index):
            kept.append(ch)
        index += 1
    return " ".join("".join(kept).split())


_NON_JOINER = "\u200c"
# What of an emoji sequence is invisible: the zero-width joiner, the tags of a flag.
_EMOJI_INVISIBLE = re.compile("[\u200d\U000e0020-\U000e007f]")


def _seen(text: str, index: int) -> bool:
    """Whether `text[index]` (outside an emoji) is seen, or part of what is."""
    ch = text[index]
    if ch == _NON_JOINER:
        return _letter(text, index - 1) and _letter(text, index + 1)
    return ch not in INVISIBLE and not unicodedata.category(ch).startswith("C")


def _letter(text: str, index: int) -> bool:
    return 0 <= index < len(text) and unicodedata.category(text[index])[0] in "LM"


def safe_plain(text: str) -> str:
    """`text` as `visible` makes it (never empty): for places that render no Markdown
    (pictures, thread names, labels)."""
    return visible(text) or _EMPTY


def safe_markdown(text: str) -> str:
    """`text` as `safe_plain`, with Markdown and mention syntax escaped: for a message's
    content and embeds. It reads as typed and renders as nothing but text."""
    shown = _ESCAPED.sub(r"\\\1", safe_plain(text))
    shown = _LINE_START.sub(r"\\\1", shown)
    shown = _NUMBERED.sub(r"\1\\\2", shown)
    return _EVERYONE.sub("@\u200b\\1", shown)
