"""What the README states about the code and the repository, held to them (issue 23: it said
2,100 tests, schema version 3, and linked contract pages the repository did not hold)."""

from __future__ import annotations

import re
from pathlib import Path

from reporting.store.schema import SCHEMA_VERSION

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_file_the_readme_links_is_in_the_repository():
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", README)
    local = [link for link in links if not re.match(r"[a-z]+:", link)]
    assert local, "the README links no file"
    assert [link for link in local if not (ROOT / link).exists()] == []


def test_every_contract_page_the_readme_names_is_linked_and_in_the_repository():
    named = set(re.findall(r"\b([a-z-]+\.md)\b", README)) - {"README.md", "CHANGELOG.md"}
    assert named, "the README names no contract page"
    for page in named:
        assert (ROOT / "docs" / "spec" / page).is_file(), page
        assert f"(docs/spec/{page})" in README, f"{page} is named but never linked"


def test_the_schema_version_the_readme_states_is_the_stores():
    (stated,) = re.findall(r"`PRAGMA user_version`, now (\d+)", README)
    assert int(stated) == SCHEMA_VERSION
