"""A first page that loads fast on a phone: the landing page and the table each fetch at most
``BUDGET_KB`` of gzipped script before they show, in every language (bench/client_budget.py counts it
from the build's manifest: the entry, the screen, what they import and the language's catalog), and
the other screens and the other languages' catalogs come in chunks of their own, fetched when they
are needed."""

from __future__ import annotations

import gzip
import re
import subprocess
import sys
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest
from client_budget import LANGS, SCREENS, language_key, page_chunks, page_kb, read_manifest

from smear.server.web import SECURITY_HEADERS

# A phone on a slow 3G link (about 400 kbit/s) fetches 60 KB in about 1.2 s, before the page can draw.
BUDGET_KB = 60.0

# Starlette's GZipMiddleware leaves smaller answers as they are.
GZIP_FROM_BYTES = 500

# Screens a first page must not fetch before it shows: their sources' chunks.
LATER = (
    "src/ui/replay/ReplayPage.tsx",
    "src/ui/players/PlayersPage.tsx",
    "src/ui/HowTo.tsx",
    "src/ui/Summary.tsx",
    "src/ui/game/MatchEnd.tsx",
)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", sorted(SCREENS))
def test_a_first_page_fetches_at_most_the_budget_of_gzipped_script(
    static_build: Path, page: str, lang: str
) -> None:
    size = page_kb(static_build, page, lang)
    print(f"{page}_gzip_kb_{lang}: {size:.1f}")
    assert size <= BUDGET_KB, f"the {page} page in {lang} fetches {size:.1f} KB of gzipped script"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", sorted(SCREENS))
def test_the_screens_not_shown_first_stay_out_of_a_first_page(
    static_build: Path, page: str, lang: str
) -> None:
    manifest = read_manifest(static_build)
    loaded = page_chunks(manifest, SCREENS[page], lang)
    assert {manifest[screen]["file"] for screen in LATER}.isdisjoint(loaded)
    # The other first page is not fetched either: the landing page does not bring the table.
    (other,) = set(SCREENS) - {page}
    assert manifest[SCREENS[other]]["file"] not in loaded
    # Nor any other language's catalog: English's too is a chunk of its own, out of the entry.
    catalogs = {manifest[language_key(each)]["file"] for each in LANGS}
    assert catalogs & loaded == {manifest[language_key(lang)]["file"]}


def test_the_server_serves_every_chunk_with_the_security_headers_and_gzipped(
    static_build: Path, serve: Callable[..., str]
) -> None:
    url = serve()
    files = {chunk["file"] for chunk in read_manifest(static_build).values()}
    assert len(files) > len(SCREENS) + 1
    for name in sorted(files):
        with urllib.request.urlopen(f"{url}/{name}", timeout=10) as response:
            assert response.status == 200
            assert response.headers["content-type"].startswith("text/javascript")
            for header, value in SECURITY_HEADERS:
                assert response.headers[header.decode()] == value.decode(), (name, header)
            assert response.read() == (static_build / name).read_bytes()
        # And gzipped, as the budget counts it, to a browser that takes it (all but the smallest).
        asks = urllib.request.Request(f"{url}/{name}", headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(asks, timeout=10) as response:
            body = response.read()
            if (static_build / name).stat().st_size >= GZIP_FROM_BYTES:
                assert response.headers["content-encoding"] == "gzip", name
                body = gzip.decompress(body)
            assert body == (static_build / name).read_bytes()
    # The list of them too (docs/security.md): it names only those files.
    with urllib.request.urlopen(f"{url}/.vite/manifest.json", timeout=10) as response:
        assert response.read() == (static_build / ".vite" / "manifest.json").read_bytes()


def test_the_bench_ends_with_the_two_pages_figures(static_build: Path) -> None:
    bench = Path(__file__).resolve().parents[2] / "bench" / "client_budget.py"
    run = subprocess.run(
        [sys.executable, str(bench), "--static", str(static_build)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    last = run.stdout.splitlines()[-2:]
    assert [line.split(":")[0] for line in last] == ["landing_gzip_kb", "table_gzip_kb"]
    assert all(re.fullmatch(r"\w+: \d+\.\d", line) for line in run.stdout.splitlines()), run.stdout


# The later pages' texts (web/src/i18n/pages): fetched with those pages, never before a first page.
PAGE_TEXTS = Path(__file__).resolve().parents[2] / "web" / "src" / "i18n" / "pages" / "en.ts"


def page_text_keys() -> set[str]:
    return set(re.findall(r'^\s*"([\w.]+)":', PAGE_TEXTS.read_text(encoding="utf-8"), re.M))


@pytest.mark.parametrize("page", sorted(SCREENS))
def test_a_first_page_names_none_of_the_later_pages_texts(static_build: Path, page: str) -> None:
    """A key a first page's script names must be in the catalog it fetches first: else it would show
    the raw key until some later page happened to bring the rest."""
    keys = page_text_keys()
    assert len(keys) > 50  # the catalog was read
    manifest = read_manifest(static_build)
    catalogs = {manifest[language_key(each)]["file"] for each in LANGS}
    scripts = page_chunks(manifest, SCREENS[page], "en") - catalogs
    text = "\n".join((static_build / name).read_text(encoding="utf-8") for name in scripts)
    named = {key for key in keys if names_text(text, key)}
    assert named == set(), f"the {page} page names later pages' texts: {sorted(named)}"


def names_text(script: str, key: str) -> bool:
    """Whether ``script`` names ``key`` as a string, a plural's key by its base (tn("x.n", n))."""
    base = key.rsplit(".", 1)[0] if key.endswith((".one", ".other")) else key
    return re.search(rf"[\"'`]{re.escape(base)}[\"'`]", script) is not None


def test_the_later_pages_name_their_texts_as_the_check_reads_them(static_build: Path) -> None:
    """The check above can see a key: the replay viewer's chunk names its own texts."""
    manifest = read_manifest(static_build)
    replay = (static_build / manifest["src/ui/replay/ReplayPage.tsx"]["file"]).read_text(encoding="utf-8")
    assert sum(names_text(replay, key) for key in page_text_keys()) > 10
