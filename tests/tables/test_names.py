"""Member-supplied names and text made harmless (bot/tables/names.py): no invisible
characters anywhere; in messages, Markdown and mention syntax escaped so that Discord
shows them as typed; in pictures and thread names, no escapes (nothing renders there)."""

from __future__ import annotations

import re
import unicodedata

import discord
import emoji
from hypothesis import given
from hypothesis import strategies as st

from bot.render import picture_seat_names, seat_label, seat_names
from bot.tables.names import INVISIBLE, safe_markdown, safe_plain
from bot.tables.table import Seat

ROLE = "<@&123456789012345678>"


def test_invisible_characters_go() -> None:
    assert safe_plain("\u202eevil\u202c") == "evil"  # a right-to-left override
    assert safe_plain("a\u200bb\u200dc\u2060d\ufeffe") == "abcde"  # zero-width ones
    assert safe_plain("\u2066x\u2069\u200e\u200f\u061c") == "x"  # isolates and marks
    assert safe_plain("tab\there\nnew  line\x00\x07") == "tab here new line"
    assert safe_plain("\u200b\u200b") == "?"  # nothing visible left
    assert safe_plain("Åse 🃏 李") == "Åse 🃏 李"  # letters and emoji stay


def test_the_joiners_of_emoji_and_words_stay() -> None:
    """A joiner that is part of what is seen stays: inside an emoji sequence (a family
    of three, not three people; England's flag, not a black one), and Persian's
    zero-width non-joiner between two letters; anywhere else it goes."""
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    england = "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"
    assert safe_plain(f"ola {family}") == f"ola {family}"
    assert safe_markdown(f"{england} fan") == f"{england} fan"
    assert safe_plain("\u202e" + family + "\u202c") == family
    assert safe_plain("\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645") == \
        "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"  # Persian "I want"
    assert safe_plain("a\u200c b \u200cc\u200c") == "a b c"  # not between two letters
    assert safe_plain("\U0001f468\u200d") == "\U0001f468"  # a joiner joining nothing


def test_markdown_and_mentions_are_escaped() -> None:
    assert safe_markdown("[gift](https://example.com)") == r"\[gift\](https://example.com)"
    assert safe_markdown("<@123>") == r"\<@123\>"
    assert safe_markdown(ROLE) == "\\" + ROLE[:-1] + "\\>"
    assert safe_markdown("<#1> <t:1700000000:R> </cmd:1> <:e:1>") == \
        r"\<#1\> \<t:1700000000:R\> \</cmd:1\> \<:e:1\>"
    assert safe_markdown("@everyone @here") == "@\u200beveryone @\u200bhere"
    assert safe_markdown("```py") == r"\`\`\`py"
    assert safe_markdown("**b** __u__ ~~s~~ ||spoiler||") == \
        r"\*\*b\*\* \_\_u\_\_ \~\~s\~\~ \|\|spoiler\|\|"
    assert safe_markdown("# big") == r"\# big"
    assert safe_markdown("-# small") == r"\-# small"
    assert safe_markdown("> quote") == r"\> quote"
    assert safe_markdown("- item") == r"\- item"
    assert safe_markdown("+ item") == r"\+ item"
    assert safe_markdown("1. item") == r"1\. item"  # not "\1": Discord shows that as is
    assert safe_markdown("back\\slash") == r"back\\slash"
    assert safe_markdown("Anne-Marie (she/her)") == "Anne-Marie (she/her)"  # as typed


def test_what_discord_py_misses() -> None:
    """The docstring's claims about discord.utils, kept true."""
    assert discord.utils.escape_mentions("<#1>") == "<#1>"
    assert discord.utils.escape_mentions("<t:1700000000:R>") == "<t:1700000000:R>"
    assert "\u202e" in discord.utils.escape_markdown("\u202eevil")
    assert discord.utils.escape_markdown("1. item") == "1. item"
    assert discord.utils.escape_markdown("a -# b\n+ c") == "a -# b\n+ c"


# What renders in Discord's Markdown when not escaped: an unescaped masked link, mention
# or channel/role/timestamp chip, code fence, emphasis, or @everyone / @here.
_LIVE = re.compile(r"(?<!\\)(?:\]\(|<[@#/:t]|```|\*|_|~|\|)|@everyone|@here")


@given(st.text())
def test_nothing_renders(text: str) -> None:
    shown = safe_markdown(text)
    # Invisible characters only where they are part of what is seen: inside an emoji
    # sequence, or a non-joiner between two letters.
    bare = emoji.replace_emoji(shown, "")
    letter = [unicodedata.category(ch)[0] in "LM" for ch in bare]
    assert not any(ch in INVISIBLE for i, ch in enumerate(bare)
                   if not (ch == "\u200c" and 0 < i < len(bare) - 1
                           and letter[i - 1] and letter[i + 1])), shown
    unescaped = re.sub(r"\\.", "", shown)  # what an escape leaves is text
    assert not _LIVE.search(unescaped), shown


def test_seats_in_messages_and_pictures() -> None:
    seats = [Seat(1, "[x](https://e.com)"), Seat(None, "\u202e<@1>", "easy"),
             Seat(2, "@everyone", away=True)]
    assert seat_label(seats, 0) == r"\[x\](https://e.com)"
    assert seat_names(seats) == [r"\[x\](https://e.com)", r"AI for \<@1\>",
                                 "@\u200beveryone (away, AI plays)"]
    # A picture renders no Markdown: the names as typed, without invisible characters.
    assert picture_seat_names(seats) == ["[x](https://e.com)", "AI for <@1>",
                                         "@everyone (away, AI plays)"]
