"""How much script a phone fetches for the browser game's first pages, from the built client.

The build (``cd web && npm run build``) writes Vite's manifest (``.vite/manifest.json``), which names
every chunk with the chunks it imports. A page loads the entry, the chunk of its screen, every chunk
those import (recursively; what they fetch later with ``import()`` does not count) and the
interface's catalog of its language, a chunk of its own in every language (English's too), fetched
before the page is drawn. Each file's size is taken gzipped at level 9, as a server or proxy that
compresses would send it.

Usage: python bench/client_budget.py [--static DIR] [--lang en]

It ends with two lines::

    landing_gzip_kb: X
    table_gzip_kb: Y
"""

from __future__ import annotations

import argparse
import gzip
import json
from pathlib import Path
from typing import Any

STATIC_DIR = Path(__file__).resolve().parents[1] / "src" / "smear" / "server" / "static"
MANIFEST = Path(".vite") / "manifest.json"

# Each first page, by the source of its screen's chunk (web/src/ui/screens.ts).
SCREENS = {
    "landing": "src/ui/Landing.tsx",
    "table": "src/ui/game/Game.tsx",
}
LANGS = ("en", "es", "fr", "it", "pt")


def read_manifest(static: Path) -> dict[str, Any]:
    manifest: dict[str, Any] = json.loads((static / MANIFEST).read_text(encoding="utf-8"))
    return manifest


def entry_key(manifest: dict[str, Any]) -> str:
    (entry,) = [key for key, chunk in manifest.items() if chunk.get("isEntry")]
    return entry


def language_key(lang: str) -> str:
    """The source of the interface's catalog in ``lang``: a chunk of its own in every language."""
    return f"src/i18n/{lang}.ts"


def page_chunks(manifest: dict[str, Any], screen: str, lang: str) -> set[str]:
    """The script files a page of ``screen`` in ``lang`` loads before it shows: the entry, the screen,
    the language's catalog and every chunk they import, as paths under the static directory."""
    wanted = [entry_key(manifest), screen, language_key(lang)]
    seen: set[str] = set()
    while wanted:
        key = wanted.pop()
        if key in seen:
            continue
        seen.add(key)
        wanted.extend(manifest[key].get("imports", []))
    return {manifest[key]["file"] for key in seen}


def gzip_bytes(static: Path, files: set[str]) -> int:
    return sum(len(gzip.compress((static / name).read_bytes(), compresslevel=9)) for name in files)


def page_kb(static: Path, page: str, lang: str = "en") -> float:
    """The gzipped script of a first page (a key of SCREENS) in ``lang``, in KB (1024 bytes)."""
    manifest = read_manifest(static)
    return gzip_bytes(static, page_chunks(manifest, SCREENS[page], lang)) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--static", type=Path, default=STATIC_DIR, help="the built client")
    parser.add_argument("--lang", default="en", choices=LANGS)
    args = parser.parse_args()
    for page in SCREENS:
        for lang in LANGS:
            print(f"{page}_gzip_kb_{lang}: {page_kb(args.static, page, lang):.1f}")
    for page in SCREENS:
        print(f"{page}_gzip_kb: {page_kb(args.static, page, args.lang):.1f}")


if __name__ == "__main__":
    main()
