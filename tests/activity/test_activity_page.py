"""The Activity's built page, committed in the package (bot/web/static), is the build of
the sources in web/: `npm ci && npm run build` there records the hash of the sources it
built from, and this test computes it again (no Node needed)."""

from __future__ import annotations

import hashlib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
WEB = REPO / "web"
STATIC = REPO / "bot" / "web" / "static"


def sources_hash() -> str:
    """web/build.mjs's hash: each source's path, then its bytes."""
    files = ["build.mjs", "package.json", "package-lock.json",
             *(f"src/{p.name}" for p in (WEB / "src").iterdir())]
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0")
        digest.update((WEB / name).read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def test_the_committed_page_is_built_from_the_sources() -> None:
    recorded = (STATIC / "SOURCES.sha256").read_text().strip()
    assert recorded == sources_hash(), (
        "bot/web/static is not the build of web/: run `npm ci && npm run build` in web/ "
        "and commit bot/web/static")
    for name in ("index.html", "app.js", "app.css"):
        assert (STATIC / name).is_file(), name


def test_the_page_fetches_nothing_from_outside() -> None:
    """Discord's proxy lets the page reach only its own origin (relative paths)."""
    page = (STATIC / "index.html").read_text()
    assert "http://" not in page and "https://" not in page
