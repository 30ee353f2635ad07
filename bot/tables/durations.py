"""Lengths of time as people type them, in English or Norwegian: a turn timer ("1d",
"12h", "36 timer", "2 døgn", "90m"; a bare number is minutes, as the commands took
before) and a reminder point ("1t" is "1h": Norwegian "time"/"timer" for hours, "døgn"
and "dag"/"dager" for days). What a table stores stays canonical ("1h", seconds)."""

from __future__ import annotations

import re

MINUTE, HOUR, DAY = 60.0, 3600.0, 86400.0
# Every unit word a member may type, to its canonical letter (lowercase, as typed).
UNITS: dict[str, str] = {
    **dict.fromkeys(("m", "min", "mins", "minute", "minutes", "minutt", "minutter"), "m"),
    **dict.fromkeys(("h", "t", "hr", "hrs", "hour", "hours", "time", "timer"), "h"),
    **dict.fromkeys(("d", "day", "days", "døgn", "dag", "dager", "dagar"), "d"),
}
SECONDS = {"m": MINUTE, "h": HOUR, "d": DAY}
# One length: a number and, after optional blanks, its unit (or none: minutes).
_PART = re.compile(r"(\d{1,15})\s*([^\W\d_]*)")


def canonical_point(point: str) -> str:
    """A reminder point as the table keeps it: "1t" and "1 time" are "1h", "2 døgn" is
    "2d", "50 %" is "50%"; anything else is given back as it was (for the service to
    refuse with the member's own words)."""
    text = point.strip().lower()
    if re.fullmatch(r"\d+\s*%", text):
        return text.replace(" ", "")
    match = re.fullmatch(r"(\d+)\s*([^\W\d_]+)", text)
    if match is None or match.group(2) not in UNITS:
        return point
    return f"{int(match.group(1))}{UNITS[match.group(2)]}"


def split_points(text: str | None) -> list[str] | None:
    """The reminder points a member typed ("50%, 1h", "50% 1t", "50 %, 1 time"), each
    canonical where it is one; None when blank."""
    tokens = re.findall(r"\d+\s*(?:%|[^\W\d_]+)|[^\s,]+", text or "")
    return [canonical_point(token) for token in tokens] or None


def parse_duration(text: str) -> float | None:
    """Seconds of a length typed as "1d", "12h", "1d 12h", "36 timer", "2 døgn" or a
    bare number (minutes); None when it is not one."""
    text = text.strip().lower()
    if not text:
        return None
    total, end = 0.0, 0
    for match in _PART.finditer(text):
        if text[end:match.start()].strip(" ,"):
            return None
        unit = UNITS.get(match.group(2) or "m")
        if unit is None:
            return None
        total += int(match.group(1)) * SECONDS[unit]
        end = match.end()
    if end == 0 or text[end:].strip(" ,"):
        return None
    return total
