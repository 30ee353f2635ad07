"""Discord's limits on a message and an embed, and a panel cut to fit them: Discord
refuses a whole message if one part is over its limit.
"""

from __future__ import annotations

from dataclasses import replace

from bot.tables.panel import Panel, shorten

# ----------------------------------------------------------------- Discord's limits

# Discord refuses a whole message if one part is over its limit, and the user then sees
# "This interaction failed": every reply is cut to these first.
CONTENT_LIMIT = 2000
TITLE_LIMIT = 256
DESCRIPTION_LIMIT = 4096
FIELD_COUNT_LIMIT = 25
FIELD_NAME_LIMIT = 256
FIELD_VALUE_LIMIT = 1024
FOOTER_LIMIT = 2048
EMBED_TOTAL_LIMIT = 6000


def _embed_size(panel: Panel) -> int:
    return (len(panel.title) + len(panel.description) + len(panel.footer or "")
            + sum(len(name) + len(value) for name, value, _ in panel.fields))


def fit_panel(panel: Panel) -> Panel:
    """The panel cut to what one embed may hold: each part to its limit (an empty field
    shows "—", as Discord refuses empty ones), at most 25 fields, and 6,000 characters in
    all, by dropping the last fields and then shortening the description."""
    fields = tuple((shorten(name, FIELD_NAME_LIMIT) or "—",
                    shorten(value, FIELD_VALUE_LIMIT) or "—", inline)
                   for name, value, inline in panel.fields[:FIELD_COUNT_LIMIT])
    fitted = replace(panel, title=shorten(panel.title, TITLE_LIMIT),
                     description=shorten(panel.description, DESCRIPTION_LIMIT),
                     footer=shorten(panel.footer, FOOTER_LIMIT) if panel.footer else None,
                     fields=fields)
    while fitted.fields and _embed_size(fitted) > EMBED_TOTAL_LIMIT:
        fitted = replace(fitted, fields=fitted.fields[:-1])
    excess = _embed_size(fitted) - EMBED_TOTAL_LIMIT
    if excess > 0:  # title and footer together are far below the total: cut the rest
        description = fitted.description
        fitted = replace(fitted, description=shorten(description, len(description) - excess))
    return fitted
