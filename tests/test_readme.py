"""What the README and the documentation pages state about the code and the repository, held
to them: every file they link is there, every contract page they name is linked, and the schema
version they state is the store's."""

from __future__ import annotations

import re
from pathlib import Path

from reporting.store.schema import SCHEMA_VERSION

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
SPEC = ROOT / "docs" / "spec"
#: The README and every page of the site but the contract's own.
PAGES = [README, *(p for p in sorted((ROOT / "docs").rglob("*.md")) if SPEC not in p.parents)]


def local_links(page: Path) -> list[Path]:
    """The files a page links, resolved from the page's folder."""
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8"))
    links += re.findall(r'<img src="([^"]+)"', page.read_text(encoding="utf-8"))
    return [(page.parent / link).resolve() for link in links if not re.match(r"[a-z]+:", link)]


def test_every_file_the_readme_and_the_pages_link_is_in_the_repository():
    assert local_links(README), "the README links no file"
    for page in PAGES:
        assert [link for link in local_links(page) if not link.exists()] == [], page


def test_every_contract_page_named_is_linked_and_in_the_repository():
    """A page name written on its own (not a link's target, not a path's end) is a contract
    page of docs/spec/, and the page that names it links it."""
    named_anywhere = set()
    for page in PAGES:
        text = re.sub(r"\]\([^)]*\)", "]", page.read_text(encoding="utf-8"))
        named = set(re.findall(r"(?<![\w/.-])([a-z-]+\.md)\b", text)) - {"CHANGELOG.md"}
        named_anywhere |= named
        for name in named:
            assert (SPEC / name).is_file(), (page, name)
            assert (SPEC / name).resolve() in local_links(page), f"{page}: {name} is not linked"
    assert {"games.md", "round-log.md", "cli.md"} <= named_anywhere


def test_the_schema_version_the_docs_state_is_the_stores():
    page = (ROOT / "docs" / "operations" / "database.md").read_text(encoding="utf-8")
    (stated,) = re.findall(r"`PRAGMA user_version`, now (\d+)", page)
    assert int(stated) == SCHEMA_VERSION


def test_the_readme_is_short():
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 250
