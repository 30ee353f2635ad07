"""The phone renderer of the fake's messages (tests/fake_discord/snapshot.py) draws
Discord's Markdown as the app does, without a browser: marks, timestamps, mentions,
HTML escaped, an ephemeral message's line, a picture from its bytes."""

from __future__ import annotations

from tests.fake_discord.models import EPHEMERAL, StoredAttachment, StoredMessage
from tests.fake_discord.snapshot import markdown, relative, render_html

NOW = 2_000_000_000.0


def test_marks_timestamps_and_mentions() -> None:
    html = markdown("**bold** *it* `co*de*` <t:2000010800:R> <@42> <#7> a<b", {42: "alice"},
                    {7: "play"}, NOW)
    assert "<strong>bold</strong>" in html and "<em>it</em>" in html
    assert "<code>co*de*</code>" in html  # nothing marked inside code
    assert "in 3 hours" in html and "@alice" in html and "#play" in html
    assert "a&lt;b" in html and "<t:" not in html
    assert relative(-2 * 86400) == "2 days ago"


def test_a_message_with_its_picture_and_buttons() -> None:
    png = b"\x89PNG\r\n\x1a\n" + b"\x00" * 8 + (300).to_bytes(4, "big") + (200).to_bytes(4, "big")
    message = StoredMessage(
        1, 2, 3, {"username": "Amerikaner"}, content="-# small", flags=EPHEMERAL,
        embeds=[{"title": "T", "color": 0x2ECC71, "image": {"url": "attachment://table.png"},
                 "fields": [{"name": "a", "value": "1", "inline": True},
                            {"name": "b", "value": "2", "inline": True}]}],
        components=[{"type": 1, "components": [
            {"type": 2, "style": 1, "label": "My hand", "emoji": {"name": "🃏"},
             "custom_id": "x"}]}],
        attachments=[StoredAttachment(9, "table.png", png, "application/octet-stream", "u")])
    page = render_html(message, now=NOW, invoker="alice", command="/amerikaner new")
    assert "border-left-color:#2ecc71" in page
    assert "data:image/png;base64," in page  # its bytes, not a grey box
    assert "repeat(2, minmax(0, 1fr))" in page  # two inline fields share a row
    assert '<span class="emoji">🃏</span> My hand' in page
    assert "Only you can see this" in page and "alice" in page
