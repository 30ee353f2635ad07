"""Extract the catalogs: the platform's (bot/i18n/locales) and each game's (`locales/` in
the game's folder), each from its own code, and bring every translation along.

    python -m bot.i18n.split_catalogs [--check] [--from REV ...] [--game NAME=FOLDER ...]

The games are the bot's, by their folders under bot/games/, and a game the bot registers
that lives elsewhere, named with its folder (`--game`, `plan(more_games=...)`). Not the
registry itself: bot.i18n imports no game (pyproject.toml's contracts), and a game's
package registers its catalog with `add_catalog` whether or not the game is registered.
A game's command words are extracted while it is registered (cogs/words.py reads the
registry): a game the tests alone register is split with it registered, and only its
own files written (tests/games/catalogs.py, for the toy game under tests/).

One extraction (Babel, with babel.cfg, which maps bot/**; a game's folder outside bot/
is read on its own) finds every message; a message belongs to each game whose folder
holds it (or a command of the game's group: cogs/words.py names the owner in a comment),
and to the platform when the platform's code holds it. A game's message is never moved
to the platform's catalog: the same English may stand in two catalogs (a game's words
are looked up in its own catalog first, bot/i18n's Translator), and adding a game
changes no catalog but its own.
Each catalog's `messages.pot` is rewritten, and each language's `messages.po` beside it
keeps exactly the template's messages, translated from whichever catalog translated them
before (a message that moved keeps its words).

`--from REV` (repeatable) also takes translations from the catalogs of a git revision
(any layout: the one catalog of before, or these), for messages no catalog here translates:
after a merge whose catalogs conflicted, keep either side and run this with the other
branch as REV. `--check` writes nothing and exits 1 if a file would change (the test suite
checks the same, tests/i18n/test_i18n.py). This module imports no game: it reads the folders.
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

REPO = Path(__file__).resolve().parents[2]
PLATFORM = "platform"
PROJECT = "amerikaner"
TRANSLATED = ("nb", "fa")  # the languages with catalogs, besides English (the source)
OWNER_COMMENT = "words of:"  # cogs/words.py's comment on a command's string
_PO = Path("LC_MESSAGES") / "messages.po"

Key = tuple[str | tuple[str, str], str | None]  # (msgid, or (singular, plural); context)


def games(repo: Path = REPO) -> list[str]:
    """The bot's games by their folders (bot/games/<name>/__init__.py), sorted."""
    return sorted(p.parent.name for p in (repo / "bot" / "games").glob("*/__init__.py"))


def game_folders(repo: Path = REPO, more_games: Mapping[str, str] | None = None
                 ) -> dict[str, str]:
    """Every game's folder relative to `repo`, by name: the bot's, and `more_games`."""
    return {**{name: f"bot/games/{name}" for name in games(repo)}, **(more_games or {})}


def catalog_dir(owner: str, repo: Path = REPO,
                folders: Mapping[str, str] | None = None) -> Path:
    """The catalog folder of the platform or of a game (in its folder: one of `folders`,
    else bot/games/<name>)."""
    if owner == PLATFORM:
        return repo / "bot" / "i18n" / "locales"
    return repo / (folders or {}).get(owner, f"bot/games/{owner}") / "locales"


def _key(message: object, context: str | None) -> Key:
    """Babel's message id as a key: a string, or (singular, plural) for a plural."""
    if isinstance(message, (list, tuple)):
        singular, plural = (str(part) for part in message[:2])
        return ((singular, plural), context)
    return (str(message), context)


def extracted(repo: Path = REPO, folders: Mapping[str, str] | None = None
              ) -> Iterator[tuple[str, Key]]:
    """(file, key) of every message occurrence, as Babel finds them with babel.cfg, then
    in each game folder of `folders` that babel.cfg's bot/** does not reach; a command's
    string comes with its owners in place of the file (`words of: <names>`)."""
    if str(repo) not in sys.path:
        sys.path.insert(0, str(repo))  # babel.cfg names cogs.words' extraction method
    with (repo / "babel.cfg").open() as fh:
        method_map, options_map = parse_mapping_cfg(fh)
    for filename, _line, message, comments, context in extract_from_dir(
            str(repo), method_map, options_map):
        owners = [c[len(OWNER_COMMENT):].split() for c in comments
                  if c.startswith(OWNER_COMMENT)]
        where = " ".join(owners[0]) if owners else filename.replace("\\", "/")
        yield where, _key(message, context)
    for folder in (folders or {}).values():
        if folder.startswith("bot/"):
            continue  # babel.cfg's extraction has read it
        for filename, _line, message, _comments, context in extract_from_dir(
                str(repo / folder), [("**.py", "python")], {"**.py": {}}):
            yield f"{folder}/{filename}".replace("\\", "/"), _key(message, context)


def _owner_of(where: str, folders: Mapping[str, str]) -> set[str]:
    if "/" not in where:  # the command words' owners, by name
        return {name if name in folders else PLATFORM for name in where.split()}
    return {next((name for name, folder in folders.items()
                  if where.startswith(folder + "/")), PLATFORM)}


def split(found: Iterable[tuple[str, Key]], known: Iterable[str],
          folders: Mapping[str, str] | None = None) -> dict[str, list[Key]]:
    """Each catalog's messages (in first-found order): a game's are those its folder (or
    its commands) has, the platform's those the platform's code has; a message two
    catalogs' code share stands in both, each translated on its own. `known` are the
    games' names, `folders` their folders (by default bot/games/<name>)."""
    names = set(known)
    where_is = {name: (folders or {}).get(name, f"bot/games/{name}") for name in names}
    owners: dict[Key, set[str]] = {}
    for where, key in found:
        owners.setdefault(key, set()).update(_owner_of(where, where_is))
    out: dict[str, list[Key]] = {PLATFORM: [], **{name: [] for name in sorted(names)}}
    for key, who in owners.items():
        for owner in sorted(who):  # in each catalog whose code has it: never moved
            out[owner].append(key)
    return out


# ----------------------------------------------------------------------------- writing

def _dump(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_po(buffer, catalog, no_location=True, sort_output=True, ignore_obsolete=True)
    return buffer.getvalue()


# Header lines that say when and by which Babel a file was written, not what it holds.
_STAMPS = (b'"POT-Creation-Date', b'"PO-Revision-Date', b'"Generated-By')


def same_but_stamps(old: bytes, new: bytes) -> bool:
    def strip(text: bytes) -> list[bytes]:
        return [line for line in text.splitlines() if not line.startswith(_STAMPS)]
    return strip(old) == strip(new)


def _template(keys: list[Key]) -> Catalog:
    catalog = Catalog(project=PROJECT, version="VERSION", fuzzy=True)
    for message, context in keys:
        catalog.add(message, context=context)
    return catalog


def _translated(lang: str, keys: list[Key], header: Catalog | None,
                sources: list[Catalog]) -> Catalog:
    """`keys` in `lang`, each from the first source that translates it (else empty)."""
    catalog = Catalog(locale=lang, project=PROJECT, version="VERSION", fuzzy=False)
    if header is not None:  # keep the translators' header: glossary, team, dates
        catalog.header_comment = header.header_comment
        catalog.mime_headers = header.mime_headers
    for message, context in keys:
        found = next((m for m in (s.get(message, context) for s in sources)
                      if m is not None and _is_translated(m)), None)
        if found is None:
            catalog.add(message, ("", "") if isinstance(message, tuple) else "",
                        context=context)
        else:
            catalog.add(message, found.string, context=context,
                        user_comments=list(found.user_comments),
                        flags=set(found.flags) - {"fuzzy"})
    return catalog


def _is_translated(message: Message) -> bool:
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return all(strings) and not message.fuzzy


def _read(data: bytes, lang: str | None = None) -> Catalog:
    return read_po(io.BytesIO(data), locale=lang)


def _catalogs_on_disk(lang: str, repo: Path, folders: Mapping[str, str]
                      ) -> list[tuple[Path, Catalog]]:
    found = [catalog_dir(owner, repo, folders) / lang / _PO
             for owner in (PLATFORM, *sorted(folders))]
    return [(path, _read(path.read_bytes(), lang)) for path in found if path.is_file()]


def _catalogs_at(rev: str, lang: str, repo: Path) -> list[Catalog]:
    """`lang`'s catalogs at git revision `rev`, wherever they lie in its tree."""
    listing = subprocess.run(["git", "-C", str(repo), "ls-tree", "-r", "--name-only", rev],
                             check=True, capture_output=True, text=True).stdout.split()
    suffix = f"locales/{lang}/{_PO.as_posix()}"
    return [_read(subprocess.run(["git", "-C", str(repo), "show", f"{rev}:{path}"],
                                 check=True, capture_output=True).stdout, lang)
            for path in listing if path.endswith(suffix)]


def plan(repo: Path = REPO, revs: Iterable[str] = (),
         more_games: Mapping[str, str] | None = None) -> dict[Path, bytes]:
    """Every catalog file's new contents, by path: the platform's, the bot's games' and
    those of `more_games` (a game's name -> its folder, relative to `repo`)."""
    folders = game_folders(repo, more_games)
    parts = split(extracted(repo, folders), folders, folders)
    files: dict[Path, bytes] = {}
    for owner, keys in parts.items():
        files[catalog_dir(owner, repo, folders) / "messages.pot"] = _dump(_template(keys))
    for lang in TRANSLATED:
        on_disk = _catalogs_on_disk(lang, repo, folders)
        by_path = dict(on_disk)
        elsewhere = [c for rev in revs for c in _catalogs_at(rev, lang, repo)]
        platform_now = by_path.get(catalog_dir(PLATFORM, repo) / lang / _PO)
        for owner, keys in parts.items():
            path = catalog_dir(owner, repo, folders) / lang / _PO
            own = by_path.get(path)
            # Its own catalog first, then the others here, then the revisions'.
            sources = [*([own] if own else []), *(c for p, c in on_disk if p != path),
                       *elsewhere]
            files[path] = _dump(_translated(lang, keys, own or platform_now, sources))
    return files


def named_folder(text: str) -> tuple[str, str]:
    """`--game`'s value: a game's name and its folder, relative to the repository."""
    name, _, folder = text.partition("=")
    if not name or not folder:
        raise argparse.ArgumentTypeError(f"not NAME=FOLDER: {text!r}")
    return name, folder.strip("/")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a catalog is out of date")
    parser.add_argument("--from", dest="revs", action="append", default=[],
                        metavar="REV", help="also take translations from git revision REV")
    parser.add_argument("--game", dest="games", action="append", default=[],
                        metavar="NAME=FOLDER", type=named_folder,
                        help="also a game outside bot/games/ (its folder, from the repo)")
    args = parser.parse_args(argv)
    stale = []
    for path, data in plan(REPO, args.revs, dict(args.games)).items():
        if path.is_file() and same_but_stamps(path.read_bytes(), data):
            continue
        stale.append(path)
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    for path in stale:
        print(("out of date: " if args.check else "wrote ") + str(path.relative_to(REPO)))
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
