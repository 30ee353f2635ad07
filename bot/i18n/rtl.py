"""Right-to-left text (issue 55): what runs left to right inside it, isolated.

A Persian sentence holds names, numbers, cards, mentions, timestamps and commands that
run left to right. Left to the Unicode bidirectional algorithm, their neutral
neighbours (spaces, colons, parentheses, a "+" or a "·") take the direction of whatever
is next to them, so "{name}: 12" or "/amerikaner bid" come out reordered, and a run of
two such values reads as one. Discord lays an embed field out as one paragraph, so a
right-to-left word in it reorders the whole field (discord-api-docs#5341, "RTL unicode
text is altering the order of an entire field's value", open since 2022:
https://github.com/discord/discord-api-docs/issues/5341). Unicode's answer is the
isolate (UAX #9, BD13): a run set between FSI/LRI and PDI is laid out on its own and
stands as one neutral character in the sentence around it.

So, when the language of the moment is written right to left, in one place (the
translation functions, bot/i18n/__init__.py):

* `isolate_template()`: each left-to-right run of a translated message's own words
  (a command such as "/amerikaner bid", a typed example "AS", "1d", a number "30")
  is set between LRI and PDI; a `{placeholder}` inside such a run stays in it;
* `RightToLeft.format()`: each argument formatted into it (a name, a number, a card,
  a mention, a timestamp, a list) is set between FSI and PDI: FSI takes the direction
  of the argument's first strong letter, so a display name in Latin letters stays
  whole left to right and one in Arabic script stays whole right to left;
* `isolate()`: the same for the few texts the render layer joins outside a message
  (an embed field's name made of a number and a name).

What spans lines is left as it is (an isolate ends at a line's end anyway, and a Markdown
list or quote must begin its line), and so is what already is one isolate. Nothing
changes for a language written left to right.
"""

from __future__ import annotations

import re
import string
from typing import Any

__all__ = ["FSI", "ISOLATES", "LRI", "PDI", "RLI", "RightToLeft", "isolate",
           "isolate_template", "isolated", "strip_isolates"]

LRI = "\u2066"  # LEFT-TO-RIGHT ISOLATE
RLI = "\u2067"  # RIGHT-TO-LEFT ISOLATE
FSI = "\u2068"  # FIRST STRONG ISOLATE
PDI = "\u2069"  # POP DIRECTIONAL ISOLATE
ISOLATES = LRI + RLI + FSI + PDI
_OPENERS = LRI + RLI + FSI

# A placeholder of a message: `{name}`, `{n:+d}`, `{0}` (not "{{", an escaped brace).
_FIELD = re.compile(r"\{[^{}]*\}")
# What a left-to-right word of a message's own text holds: a Latin letter or a digit
# (a placeholder does not count: its value is isolated by format()).
_LATIN = re.compile(r"[A-Za-z0-9]")
# Markdown and punctuation at a word's edges stay outside its isolate: bold and
# strikethrough markers, brackets (mirrored in right-to-left text), and the sentence's
# own punctuation after it, Latin or Persian.
_LEADING = "*~|([«\"'"
_TRAILING = "*~|)]».,;!?،؛\"'"


def isolated(text: str) -> bool:
    """Whether `text` is one isolate from its first character to its last."""
    if len(text) < 2 or text[0] not in _OPENERS or text[-1] != PDI:
        return False
    depth = 0
    for i, char in enumerate(text):
        if char in _OPENERS:
            depth += 1
        elif char == PDI:
            depth -= 1
            if depth == 0 and i != len(text) - 1:
                return False
    return depth == 0


def isolate(text: str, opener: str = FSI) -> str:
    """`text` as one isolate (`opener`: FSI, its own first strong letter's direction;
    LRI, left to right), unless it is empty, spans lines or is one already."""
    if not text or "\n" in text or isolated(text):
        return text
    return opener + text + PDI


def strip_isolates(text: str) -> str:
    """`text` without isolates: where what lays it out knows no Unicode bidi controls
    (a plain picture font), or to compare with what a member typed."""
    return text.translate({ord(c): None for c in ISOLATES})


def _ltr_word(core: str) -> bool:
    """Whether a word of a message's own text runs left to right: it holds a Latin
    letter or a digit, or is a command ("/{command}")."""
    literal = _FIELD.sub("", core)
    return bool(_LATIN.search(literal)) or core.startswith("/")


def _split_edges(word: str) -> tuple[str, str, str]:
    """A word's Markdown and punctuation before, its core, and after."""
    start, end = 0, len(word)
    while start < end and word[start] in _LEADING:
        start += 1
    while end > start and word[end - 1] in _TRAILING:
        end -= 1
    return word[:start], word[start:end], word[end:]


def isolate_template(message: str) -> str:
    """A translated message with each left-to-right run of its own words between LRI
    and PDI: consecutive left-to-right words (a single space between them, no Markdown
    or punctuation) make one run, so "/{command} settings language:" stays one
    command. Placeholders stay as they are, inside a run or alone."""
    return "\n".join(_isolate_line(line) for line in message.split("\n"))


def _isolate_line(line: str) -> str:
    out: list[str] = []
    run: list[tuple[str, str, str]] = []  # the run's words: (before, core, after)

    def close() -> None:
        if run:
            inner = " ".join(core if i == 0 else lead + core for i, (lead, core, _) in
                             enumerate(run))
            out.append(run[0][0] + LRI + inner + PDI + run[-1][2])
            run.clear()

    space = ""
    for part in re.split(r"( +)", line):
        if part.startswith(" "):
            space = part
            continue
        if not part:
            continue
        lead, core, trail = _split_edges(part)
        ltr = bool(core) and _ltr_word(core) and not _FIELD.fullmatch(core)
        if ltr and run and space == " " and not run[-1][2] and not lead:
            run.append((lead, core, trail))
        else:
            close()
            out.append(space)
            if ltr:
                run.append((lead, core, trail))
            else:
                out.append(part)
        space = ""
    close()
    out.append(space)
    return "".join(out)


class _Isolating(string.Formatter):
    """str.format's formatting, each argument isolated (FSI … PDI)."""

    def format_field(self, value: Any, format_spec: str) -> str:
        text = super().format_field(value, format_spec)
        return isolate(text)


_FORMATTER = _Isolating()


class RightToLeft(str):
    """A translated message of a right-to-left language: `format()` isolates each
    argument (module docstring). The rest is a str's."""

    __slots__ = ()

    def format(self, *args: Any, **kwargs: Any) -> str:
        return _FORMATTER.vformat(str(self), args, kwargs)

    def format_map(self, mapping: Any) -> str:
        return _FORMATTER.vformat(str(self), (), mapping)
