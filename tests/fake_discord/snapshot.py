"""What a member sees on a phone: one stored message of the fake (StoredMessage, or a
payload dict) drawn as a small self-contained HTML page in the style of Discord's
mobile client (dark theme, 390 CSS px wide), and screenshotted by Playwright driving
Debian's Chromium (never a downloaded one), for the eyes of whoever reads a test's
output: `render_html(message)` and `PhoneCamera` (`await camera.shoot(html)` -> the PNG
and the page's height in CSS px).

What is drawn: the interaction's header line ("alice used /amerikaner daily"), the
bot's name with its APP tag, the content, each embed (its colour bar, title,
description, fields, inline ones three to a row, image, footer), the action rows
(buttons of Discord's colours, wrapped to the width; a select as its placeholder) and,
for an ephemeral message, "Only you can see this". Discord's Markdown as the app shows
it: **bold**, *italic*, __underline__, ~~strike~~, `code`, ```blocks```, headings
(#, ##, ###), -# small text, > quotes, [links](...), <t:...> timestamps as words
(relative ones against `now`), <@id> as @name, <#id> as #name, custom emoji as
:name:. Pictures attached to the message (the table's) are drawn at the embed's
width from their bytes; one that is missing is a grey box.

The sizes are those of tests/fake_discord/layout.py (its phone model, in points; one
CSS px here is one point there): a 16 px left margin, a 40 px avatar, messages from
x = 68 to 374, 36 px buttons, 44 px selects. How the two differ (measured on the
screenshots of tests/e2e/test_phone_screenshots.py): the model estimates wrapped lines
by mean glyph widths, here a browser wraps real glyphs (DejaVu Sans, wider than
Discord's gg sans, which is not free to ship), so text-heavy messages come out taller
than the model (a Norwegian daily result 399 px against 356 pt, panels 559 px against
520 to 556 pt, English results within 5 px); the model leaves out a picture (the table's
is drawn 326 px tall at the embed's width) and counts the "Only you can see this" line
(22 pt) for public messages too: a paused table is 795 px here against 478 pt.
"""

from __future__ import annotations

import base64
import datetime as dt
import html
import re
from pathlib import Path
from types import TracebackType
from typing import Any

from .models import EPHEMERAL

WIDTH = 390  # CSS px: a 390 x 844 pt phone (iPhone 12 to 14), as layout.py
PHONE = {"width": WIDTH, "height": 844}
CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run"]

# Discord's dark theme (its CSS variables, 2024)
BACKGROUND = "#313338"
TEXT = "#dbdee1"
MUTED = "#949ba4"
HEADER = "#f2f3f5"
EMBED_BACKGROUND = "#2b2d31"
EMBED_BORDER = "#1e1f22"
LINK = "#00a8fc"
BUTTON_STYLES = {1: "#5865f2", 2: "#4e5058", 3: "#248046", 4: "#da373c", 5: "#4e5058",
                 6: "#5865f2"}

CSS = f"""
* {{ box-sizing: border-box; }}
html, body {{ margin: 0; padding: 0; background: {BACKGROUND}; width: {WIDTH}px; }}
body {{ font-family: "gg sans", "Noto Sans", "DejaVu Sans", "Liberation Sans", sans-serif;
       color: {TEXT}; font-size: 16px; line-height: 22px; -webkit-font-smoothing: antialiased; }}
#message {{ position: relative; padding: 8px 16px 8px 68px; }}
.reply {{ color: {MUTED}; font-size: 13px; line-height: 22px; white-space: nowrap;
          overflow: hidden; text-overflow: ellipsis; }}
.reply b {{ color: {TEXT}; font-weight: 600; }}
.avatar {{ position: absolute; left: 16px; width: 40px; height: 40px; border-radius: 50%;
           background: #5865f2; color: white; font-weight: 700; font-size: 18px;
           text-align: center; line-height: 40px; }}
.author {{ line-height: 24px; }}
.author .name {{ color: {HEADER}; font-weight: 600; }}
.author .app {{ background: #5865f2; color: white; font-size: 10px; font-weight: 700;
               border-radius: 3px; padding: 1px 4px; margin: 0 4px; vertical-align: 2px; }}
.author .time {{ color: {MUTED}; font-size: 12px; }}
.content {{ white-space: pre-wrap; overflow-wrap: anywhere; }}
.embed {{ margin-top: 4px; background: {EMBED_BACKGROUND}; border: 1px solid {EMBED_BORDER};
          border-left: 4px solid #1e1f22; border-radius: 4px; padding: 8px 16px 16px 12px; }}
.embed > * + * {{ margin-top: 8px; }}
.embed .title {{ color: {HEADER}; font-weight: 600; font-size: 16px; line-height: 22px; }}
.embed .text {{ font-size: 14px; line-height: 18px; white-space: pre-wrap;
                overflow-wrap: anywhere; }}
.embed .fields {{ display: grid; gap: 8px; }}
.field {{ font-size: 14px; line-height: 18px; min-width: 0; }}
.field .fname {{ color: {HEADER}; font-weight: 600; white-space: pre-wrap;
                 overflow-wrap: anywhere; }}
.field .fvalue {{ white-space: pre-wrap; overflow-wrap: anywhere; }}
.embed .image img, .attachment img {{ display: block; max-width: 100%; border-radius: 4px; }}
.grey {{ background: #4e5058; border-radius: 4px; }}
.embed .footer {{ color: {MUTED}; font-size: 12px; line-height: 16px; white-space: pre-wrap; }}
.attachment {{ margin-top: 4px; }}
.rows {{ margin-top: 8px; }}
.row {{ display: flex; flex-wrap: wrap; gap: 8px; }}
.row + .row {{ margin-top: 8px; }}
.button {{ height: 36px; border-radius: 8px; padding: 0 14px; color: white; font-size: 14px;
           font-weight: 500; line-height: 36px; white-space: nowrap; overflow: hidden;
           text-overflow: ellipsis; max-width: 100%; }}
.button.disabled {{ opacity: 0.5; }}
.select {{ width: 100%; height: 44px; border-radius: 8px; background: #1e1f22;
           border: 1px solid #1e1f22; color: {MUTED}; font-size: 15px; line-height: 42px;
           padding: 0 36px 0 12px; position: relative; white-space: nowrap; overflow: hidden;
           text-overflow: ellipsis; }}
.select::after {{ content: "⌄"; position: absolute; right: 14px; top: -4px; color: {TEXT}; }}
.edited {{ color: {MUTED}; font-size: 10px; }}
.ephemeral {{ color: {MUTED}; font-size: 12px; line-height: 22px; }}
.ephemeral a {{ color: {LINK}; }}
strong {{ font-weight: 700; }}
code {{ font-family: "DejaVu Sans Mono", monospace; font-size: 0.85em; background: #1e1f22;
        border-radius: 3px; padding: 0 2px; }}
pre {{ font-family: "DejaVu Sans Mono", monospace; font-size: 0.85em; background: #1e1f22;
       border: 1px solid #1e1f22; border-radius: 4px; padding: 7px; margin: 4px 0;
       white-space: pre-wrap; }}
.h1 {{ font-size: 24px; line-height: 30px; font-weight: 700; color: {HEADER}; }}
.h2 {{ font-size: 20px; line-height: 26px; font-weight: 700; color: {HEADER}; }}
.h3 {{ font-size: 16px; line-height: 22px; font-weight: 700; color: {HEADER}; }}
.small {{ font-size: 12px; line-height: 16px; color: {MUTED}; }}
.quote {{ border-left: 4px solid #4e5058; padding-left: 12px; }}
.mention {{ background: rgba(88, 101, 242, 0.3); color: #c9cdfb; border-radius: 3px;
            padding: 0 2px; font-weight: 500; }}
.time-tag {{ background: rgba(255, 255, 255, 0.06); border-radius: 3px; padding: 0 2px; }}
a {{ color: {LINK}; text-decoration: none; }}
.emoji {{ font-family: "Noto Color Emoji", "Twemoji", sans-serif; }}
"""

# The app's own words, in the member's client language (Discord's Norwegian client).
CHROME = {
    "en": {"used": "used", "today": "Today at", "edited": "(edited)",
           "only_you": "Only you can see this", "dismiss": "Dismiss message"},
    "nb": {"used": "brukte", "today": "I dag kl.", "edited": "(redigert)",
           "only_you": "Bare du kan se dette", "dismiss": "Avvis melding"},
}

_TIMESTAMP = re.compile(r"&lt;t:(-?\d+)(?::([tTdDfFR]))?&gt;")
_USER = re.compile(r"&lt;@!?(\d+)&gt;")
_CHANNEL = re.compile(r"&lt;#(\d+)&gt;")
_ROLE = re.compile(r"&lt;@&amp;(\d+)&gt;")
_EMOJI = re.compile(r"&lt;a?:(\w+):\d+&gt;")
# Emoji drawn as pictures (Discord's Twemoji; here Noto Color Emoji), not as a text
# font's glyph (DejaVu Sans has a black-and-white 🃏): the pictographs' planes.
_PICTOGRAPH = re.compile("([\U0001F000-\U0001FAFF][\ufe0f\u200d]?)")
_COMMAND = re.compile(r"&lt;/([\w \-]+):\d+&gt;")


def relative(seconds: float) -> str:
    """Discord's relative time ("in 3 hours", "2 days ago") of a span in seconds."""
    span = abs(seconds)
    for size, unit in ((365 * 86400, "year"), (30 * 86400, "month"), (86400, "day"),
                       (3600, "hour"), (60, "minute"), (1, "second")):
        if span >= size or unit == "second":
            count = round(span / size)
            words = f"{count} {unit}{'' if count == 1 else 's'}"
            if unit == "second" and count < 10:
                words = "a few seconds"
            return f"in {words}" if seconds >= 0 else f"{words} ago"
    return ""  # pragma: no cover


def timestamp_words(when: int, style: str | None, now: float) -> str:
    """A <t:when:style> as the app shows it (UTC)."""
    moment = dt.datetime.fromtimestamp(when, dt.UTC)
    match style:
        case "R":
            return relative(when - now)
        case "t":
            return moment.strftime("%H:%M")
        case "T":
            return moment.strftime("%H:%M:%S")
        case "d":
            return moment.strftime("%d/%m/%Y")
        case "D":
            return moment.strftime("%-d %B %Y")
        case "F":
            return moment.strftime("%A, %-d %B %Y %H:%M")
        case _:
            return moment.strftime("%-d %B %Y %H:%M")


def _inline(text: str, names: dict[int, str], channels: dict[int, str], now: float) -> str:
    """One line's inline Markdown, HTML-escaped first."""
    out = html.escape(text, quote=False)
    codes: list[str] = []

    def keep_code(match: re.Match[str]) -> str:
        codes.append(f"<code>{match.group(1)}</code>")
        return f"\x00{len(codes) - 1}\x00"

    out = re.sub(r"`([^`]+)`", keep_code, out)
    out = _TIMESTAMP.sub(lambda m: '<span class="time-tag">'
                         + timestamp_words(int(m.group(1)), m.group(2), now) + "</span>", out)
    out = _USER.sub(lambda m: f'<span class="mention">@{html.escape(names.get(int(m.group(1)), "unknown-user"))}</span>', out)  # noqa: E501
    out = _ROLE.sub('<span class="mention">@role</span>', out)
    out = _CHANNEL.sub(lambda m: f'<span class="mention">#{html.escape(channels.get(int(m.group(1)), "unknown"))}</span>', out)  # noqa: E501
    out = _COMMAND.sub(r'<span class="mention">/\1</span>', out)
    out = _EMOJI.sub(r":\1:", out)
    out = re.sub(r"\[([^\]]+)\]\((?:&lt;)?(https?://[^)\s]+?)(?:&gt;)?\)", r"<a>\1</a>", out)
    out = re.sub(r"\\([*_~`|\\>#-])", lambda m: f"\x01{ord(m.group(1))}\x01", out)
    out = re.sub(r"\*\*\*(.+?)\*\*\*", r"<strong><em>\1</em></strong>", out)
    out = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", out)
    out = re.sub(r"__(.+?)__", r"<u>\1</u>", out)
    out = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?!\*)", r"<em>\1</em>", out)
    out = re.sub(r"(?<![\w_])_(?!\s)(.+?)(?<!\s)_(?![\w_])", r"<em>\1</em>", out)
    out = re.sub(r"~~(.+?)~~", r"<s>\1</s>", out)
    out = re.sub(r"\|\|(.+?)\|\|", r'<span style="background:#1e1f22">\1</span>', out)
    out = re.sub(r"\x01(\d+)\x01", lambda m: chr(int(m.group(1))), out)
    out = re.sub(r"\x00(\d+)\x00", lambda m: codes[int(m.group(1))], out)
    return pictographs(out)


def pictographs(text: str) -> str:
    """Each pictograph of an HTML text in the emoji font."""
    return _PICTOGRAPH.sub(r'<span class="emoji">\1</span>', text)


def markdown(text: str, names: dict[int, str] | None = None,
             channels: dict[int, str] | None = None, now: float = 0.0) -> str:
    """Discord's Markdown as HTML: blocks (```code```, headings, -# small, > quotes,
    lists) by line, then inline marks."""
    names, channels = names or {}, channels or {}
    parts: list[str] = []
    blocks = re.split(r"```(?:\w*\n)?(.*?)```", text, flags=re.S)
    for index, block in enumerate(blocks):
        if index % 2:
            parts.append(f"<pre>{html.escape(block.strip(chr(10)))}</pre>")
            continue
        lines: list[str] = []
        for line in block.split("\n"):
            heading = re.match(r"(#{1,3}) (.*)", line)
            if heading:
                lines.append(f'<div class="h{len(heading.group(1))}">'
                             f"{_inline(heading.group(2), names, channels, now)}</div>")
            elif line.startswith("-# "):
                lines.append(f'<div class="small">{_inline(line[3:], names, channels, now)}'
                             "</div>")
            elif line.startswith(("> ", ">>> ")):
                body = line.split(" ", 1)[1]
                lines.append(f'<div class="quote">{_inline(body, names, channels, now)}</div>')
            elif re.match(r"[-*] ", line):
                lines.append(f"• {_inline(line[2:], names, channels, now)}\n")
            else:
                lines.append(_inline(line, names, channels, now) + "\n")
        joined = "".join(lines)
        parts.append(joined[:-1] if joined.endswith("\n") else joined)
    return "".join(parts)


def _get(message: Any, key: str, default: Any = None) -> Any:
    if isinstance(message, dict):
        return message.get(key, default)
    return getattr(message, key, default)


def _attachments(message: Any) -> dict[str, tuple[bytes, str | None]]:
    """filename -> (bytes, content type) of a stored message's attachments."""
    found: dict[str, tuple[bytes, str | None]] = {}
    for item in _get(message, "attachments", []) or []:
        data = getattr(item, "data", None)
        if isinstance(data, bytes):
            found[item.filename] = (data, item.content_type)
    return found


def _png_size(data: bytes) -> tuple[int, int] | None:
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    return None


def _image_type(data: bytes | None, content_type: str | None) -> str | None:
    """The picture's type, by its bytes first (discord.py uploads a file as
    application/octet-stream), else by its content type; None if not a picture."""
    if not data:
        return None
    for magic, kind in ((b"\x89PNG", "image/png"), (b"\xff\xd8", "image/jpeg"),
                        (b"GIF8", "image/gif"), (b"RIFF", "image/webp")):
        if data.startswith(magic):
            return kind
    return content_type if (content_type or "").startswith("image/") else None


def _picture(data: bytes | None, content_type: str | None, size: tuple[int, int] | None,
             width: int) -> str:
    """A picture at `width` px wide at most (from its bytes), else a grey box."""
    kind = _image_type(data, content_type)
    if data is not None and kind:
        encoded = base64.b64encode(data).decode("ascii")
        return f'<img src="data:{kind};base64,{encoded}">'
    w, h = size or (width, width * 3 // 4)
    shown = min(w, width)
    return f'<div class="grey" style="width:{shown}px;height:{h * shown // max(w, 1)}px"></div>'


def _button(button: dict[str, Any]) -> str:
    colour = BUTTON_STYLES.get(button.get("style", 2), "#4e5058")
    label = html.escape(button.get("label") or "")
    emoji = button.get("emoji") or {}
    mark = html.escape(emoji.get("name") or "") if not emoji.get("id") else \
        f":{html.escape(emoji.get('name') or '')}:"
    if mark:
        label = f"{mark} {label}" if label else mark
    if button.get("style") == 5:
        label += " ↗"
    disabled = " disabled" if button.get("disabled") else ""
    return (f'<div class="button{disabled}" style="background:{colour}">'
            f"{pictographs(label)}</div>")


def _row(row: dict[str, Any]) -> str:
    children = row.get("components") or [] if row.get("type") == 1 else [row]
    out = []
    for child in children:
        if child.get("type") == 2:
            out.append(_button(child))
        else:  # a select of any kind: its placeholder, or its default option
            default = next((o.get("label") for o in child.get("options") or []
                            if o.get("default")), None)
            shown = html.escape(default or child.get("placeholder") or "Make a selection")
            out.append(f'<div class="select">{shown}</div>')
    return f'<div class="row">{"".join(out)}</div>'


def render_html(message: Any, *, names: dict[int, str] | None = None,
                channels: dict[int, str] | None = None, now: float | None = None,
                invoker: str | None = None, command: str | None = None,
                bot_name: str = "Amerikaner", language: str = "en") -> str:
    """A self-contained HTML page of one message (StoredMessage or payload dict), as the
    phone's app shows it in the dark theme. `names` and `channels` name the ids of
    mentions; `now` (the fake's clock) words relative timestamps; `invoker` and
    `command` make the header line of a reply to an interaction ("alice used
    /amerikaner daily"); `language` ("en", "nb") the app's own words."""
    words = CHROME.get(language, CHROME["en"])
    now = dt.datetime.now(dt.UTC).timestamp() if now is None else now

    def md(text: str) -> str:
        return markdown(text, names, channels, now)

    body: list[str] = []
    if invoker:
        used = f" {words['used']} <b>{html.escape(command)}</b>" if command else ""
        body.append(f'<div class="reply">↱ <b>{html.escape(invoker)}</b>{used}</div>')
    body.append(f'<div class="avatar">{html.escape(bot_name[:1])}</div>')
    clock = dt.datetime.fromtimestamp(now, dt.UTC).strftime("%H:%M")
    body.append(f'<div class="author"><span class="name">{html.escape(bot_name)}</span>'
                f'<span class="app">APP</span><span class="time">{words["today"]} {clock}'
                "</span></div>")
    content = _get(message, "content") or ""
    if content:
        edited = f' <span class="edited">{words["edited"]}</span>' \
            if _get(message, "edited_timestamp") else ""
        body.append(f'<div class="content">{md(content)}{edited}</div>')
    files = _attachments(message)
    used_files: set[str] = set()
    inner = WIDTH - 68 - 16 - 4 - 12 - 16 - 2
    for embed in _get(message, "embeds", []) or []:
        colour = embed.get("color")
        bar = f"#{colour:06x}" if isinstance(colour, int) else "#1e1f22"
        parts: list[str] = []
        if embed.get("author", {}).get("name"):
            parts.append(f'<div class="fname">{html.escape(embed["author"]["name"])}</div>')
        if embed.get("title"):
            parts.append(f'<div class="title">{md(embed["title"])}</div>')
        if embed.get("description"):
            parts.append(f'<div class="text">{md(embed["description"])}</div>')
        fields = embed.get("fields") or []
        rows_of: list[list[dict[str, Any]]] = []
        for item in fields:  # inline fields three to a row, each other field a row
            if item.get("inline") and rows_of and rows_of[-1][0].get("inline") \
                    and len(rows_of[-1]) < 3:
                rows_of[-1].append(item)
            else:
                rows_of.append([item])
        for row in rows_of:
            cells = "".join(f'<div class="field"><div class="fname">'
                            f'{md(item.get("name") or "")}</div><div class="fvalue">'
                            f'{md(item.get("value") or "")}</div></div>' for item in row)
            parts.append(f'<div class="fields" style="grid-template-columns:'
                         f'repeat({len(row)}, minmax(0, 1fr))">{cells}</div>')
        for key in ("image", "thumbnail"):
            url = (embed.get(key) or {}).get("url") or ""
            if not url:
                continue
            name = url.removeprefix("attachment://")
            data, kind = files.get(name, (None, None))
            used_files.add(name)
            size = _png_size(data) if data else None
            parts.append(f'<div class="image">{_picture(data, kind, size, inner)}</div>')
        footer = (embed.get("footer") or {}).get("text")
        if footer:
            parts.append(f'<div class="footer">{md(footer)}</div>')
        body.append(f'<div class="embed" style="border-left-color:{bar}">'
                    f'{"".join(parts)}</div>')
    for name, (data, kind) in files.items():
        if name not in used_files and _image_type(data, kind):
            body.append(f'<div class="attachment">'
                        f'{_picture(data, kind, _png_size(data), WIDTH - 84)}</div>')
    rows = _get(message, "components", []) or []
    if rows:
        body.append(f'<div class="rows">{"".join(_row(r) for r in rows)}</div>')
    if int(_get(message, "flags", 0) or 0) & EPHEMERAL:
        body.append(f'<div class="ephemeral">👁 {words["only_you"]} · '
                    f'<a>{words["dismiss"]}</a></div>')
    return ("<!doctype html><html><head><meta charset='utf-8'>"
            f"<meta name='viewport' content='width={WIDTH}'><style>{CSS}</style></head>"
            f"<body><div id='message'>{''.join(body)}</div></body></html>")


class PhoneCamera:
    """One headless Chromium (Debian's) for a series of screenshots at a phone's width:
    `async with PhoneCamera() as camera: png, height = await camera.shoot(page_html)`."""

    def __init__(self, executable: Path = CHROMIUM) -> None:
        self.executable = executable
        self._pw: Any = None
        self._browser: Any = None
        self._page: Any = None

    async def __aenter__(self) -> PhoneCamera:
        from playwright.async_api import async_playwright

        self._pw = await async_playwright().start()
        try:
            self._browser = await self._pw.chromium.launch(
                executable_path=str(self.executable), args=FLAGS)
            context = await self._browser.new_context(viewport=PHONE, device_scale_factor=1)
            self._page = await context.new_page()
        except BaseException:
            await self._pw.stop()
            raise
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: TracebackType | None) -> None:
        try:
            if self._browser is not None:
                await self._browser.close()
        finally:
            await self._pw.stop()

    async def shoot(self, page_html: str) -> tuple[bytes, int]:
        """The page's PNG (its full height, 390 px wide) and its height in CSS px."""
        page = self._page
        await page.set_content(page_html, wait_until="load")
        height = int(await page.evaluate(
            "Math.ceil(document.getElementById('message').getBoundingClientRect().height)"))
        await page.set_viewport_size({"width": WIDTH, "height": max(height, 1)})
        png = await page.screenshot(full_page=True)
        await page.set_viewport_size(PHONE)
        return png, height


async def screenshot(message: Any, **options: Any) -> tuple[bytes, int]:
    """One message's PNG and height (a browser started and stopped for it)."""
    async with PhoneCamera() as camera:
        return await camera.shoot(render_html(message, **options))
