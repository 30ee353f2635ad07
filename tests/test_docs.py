"""The documents match the repository: every relative link in a Markdown file resolves (to
a file, and to a heading where it names one), nothing points outside the repository
(the documents the project grew from lived beside it, in a folder a clone does not
have), every file a document names by its path exists, and the settings table of
docs/operating.md lists exactly the variables bot/config.py reads."""

from __future__ import annotations

import re
import subprocess
import unicodedata
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

# Nothing may be missing (a file a document promises, written later, would go here).
PROMISED: set[str] = set()

# Written as two strings so that this file does not name what it looks for.
OUTSIDE = "../" + "shared"

# Paths a document names as examples of what to write, not as files that exist.
EXAMPLES = {
    "bot/store/migrations/sqlite/0010_what.sql",
    "bot/store/migrations/postgresql/0010_what.sql",
}


def _tracked(*patterns: str) -> list[Path]:
    """The repository's files (tracked, or new and not ignored), as a clone has them."""
    out = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "--", *patterns],
        cwd=REPO, capture_output=True, text=True, check=True).stdout
    return sorted({REPO / line for line in out.splitlines() if (REPO / line).is_file()})


MARKDOWN = [p for p in _tracked("*.md")]
DOCUMENTS = [p for p in MARKDOWN if "fixtures" not in p.parts]

_FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
_CODE = re.compile(r"`[^`\n]*`")
_LINK = re.compile(r"!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.M)


def _prose(text: str) -> str:
    """The text without code blocks and code spans, where brackets are not links."""
    return _CODE.sub("", _FENCE.sub("", text))


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: markup dropped, lower case, punctuation removed
    (letters, digits, spaces, hyphens and underscores kept), spaces made hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "")
    text = text.lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN")
    return kept.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    anchors: set[str] = set()
    seen: dict[str, int] = {}
    for match in _HEADING.finditer(_FENCE.sub("", path.read_text(encoding="utf-8"))):
        slug = _slug(match.group(1))
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchors.add(slug if count == 0 else f"{slug}-{count}")
    return anchors


def _relative_links(path: Path) -> list[str]:
    links = _LINK.findall(_prose(path.read_text(encoding="utf-8")))
    return [link for link in links
            if not re.match(r"^[a-z][a-z0-9+.-]*:", link, re.I)]  # http:, mailto:, ...


def test_the_documents_are_found() -> None:
    names = {p.relative_to(REPO).as_posix() for p in MARKDOWN}
    assert {"README.md", "CONTRIBUTING.md", "docs/operating.md", "docs/rules-amerikaner.md",
            "docs/rules-american.md", "docs/record-format.md"} <= names


@pytest.mark.parametrize("path", MARKDOWN, ids=lambda p: p.relative_to(REPO).as_posix())
def test_every_relative_link_resolves(path: Path) -> None:
    broken = []
    for link in _relative_links(path):
        target, _, anchor = link.partition("#")
        file = (path.parent / target).resolve() if target else path
        name = file.relative_to(REPO).as_posix() if file.is_relative_to(REPO) else str(file)
        if not file.is_relative_to(REPO):
            broken.append(f"{link}: outside the repository")
        elif not file.exists():
            if name not in PROMISED:
                broken.append(f"{link}: no such file")
        elif anchor and file.suffix == ".md" and anchor not in _anchors(file):
            broken.append(f"{link}: no heading #{anchor} in {name}")
    assert broken == []


def test_nothing_refers_outside_the_repository() -> None:
    """Code comments, tests, documents and settings cite docs/ and the fixtures in
    tests/, never the folder beside the repository the project started from."""
    here = Path(__file__).resolve()
    found = []
    for path in _tracked():
        if path == here or path.suffix in {".png", ".sqlite3", ".db", ".gz", ".zip"}:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if OUTSIDE in line:
                found.append(f"{path.relative_to(REPO)}:{number}")
    assert found == []


_PATH = re.compile(r"`((?:bot|cogs|tests|bench|docs|\.ci)/[A-Za-z0-9_./-]+)`")


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.relative_to(REPO).as_posix())
def test_every_path_a_document_names_exists(path: Path) -> None:
    """A file or folder named in code style by its path from the repository's top exists
    (a document that names a moved or deleted file says something untrue)."""
    missing = sorted({name for name in _PATH.findall(path.read_text(encoding="utf-8"))
                      if not (REPO / name.rstrip("/")).exists()
                      and name not in EXAMPLES and name not in PROMISED})
    assert missing == []


def test_the_settings_table_lists_what_the_bot_reads() -> None:
    config = (REPO / "bot" / "config.py").read_text(encoding="utf-8")
    read = set(re.findall(r"environ\.get\(\"([A-Z_]+)\"", config))
    read |= set(re.findall(r"_float\(\"([A-Z_]+)\"", config))
    operating = (REPO / "docs" / "operating.md").read_text(encoding="utf-8")
    table = operating.split("## Settings", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"^\| `([A-Z_]+)`(?:, `([A-Z_]+)`)?", table, re.M))
    names = {name for pair in documented for name in pair if name}
    assert "DISCORD_TOKEN" in read
    assert names == read
    example = (REPO / ".env.example").read_text(encoding="utf-8")
    assert {n for n in read if f"\n{n}=" not in example} == set()
