"""The documentation site builds with ``mkdocs build --strict`` (a broken link, a missing page
or a page left out of the navigation fails it), its reference pages are generated from the
code, and no user page mentions an issue number (history belongs in CHANGELOG.md)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
ISSUE = re.compile(r"\bissues? #?\d+", re.IGNORECASE)


def build(root: Path, site: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT)},
    )


def copy_of_the_site_sources(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(DOCS, root / "docs")
    shutil.copytree(
        ROOT / "scripts", root / "scripts", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copy2(ROOT / "mkdocs.yml", root / "mkdocs.yml")
    return root


@pytest.mark.slow
def test_the_site_builds_strict_with_the_generated_reference(tmp_path):
    process = build(ROOT, tmp_path / "site")
    assert process.returncode == 0, process.stderr
    from reporting.config.keys import OPERATOR_GAME_KEYS
    from reporting.records import FINDING_KINDS, FINDING_SEVERITY

    cli = (tmp_path / "site" / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    assert "Usage: baccarat-report verify [OPTIONS]" in cli
    keys = (tmp_path / "site" / "reference" / "configuration-keys" / "index.html").read_text()
    assert all(f"<code>{key}</code>" in keys for key in OPERATOR_GAME_KEYS)
    kinds = (tmp_path / "site" / "reference" / "finding-kinds" / "index.html").read_text()
    rows = re.findall(r"<td><code>([a-z_]+)</code></td>\s*<td>([a-z]+)</td>", kinds)
    assert rows == [(kind, str(FINDING_SEVERITY[kind])) for kind in FINDING_KINDS]


@pytest.mark.slow
def test_a_broken_link_or_a_page_left_out_fails_the_build(tmp_path):
    root = copy_of_the_site_sources(tmp_path)
    page = root / "docs" / "operations" / "logging.md"
    page.write_text(page.read_text() + "\n[gone](no-such-page.md)\n", encoding="utf-8")
    process = build(root, tmp_path / "site")
    assert process.returncode != 0 and "no-such-page.md" in process.stderr
    page.write_text(page.read_text().replace("[gone](no-such-page.md)", ""), encoding="utf-8")
    (root / "docs" / "operations" / "orphan.md").write_text("# Orphan\n", encoding="utf-8")
    process = build(root, tmp_path / "site")
    assert process.returncode != 0 and "orphan.md" in process.stderr


def test_no_user_page_mentions_an_issue_number():
    pages = [p for p in DOCS.rglob("*.md") if DOCS / "spec" not in p.parents]
    pages.append(ROOT / "README.md")
    found = [
        f"{page.relative_to(ROOT)}: {match.group(0)}"
        for page in pages
        for match in ISSUE.finditer(page.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_issue_pattern_finds_what_it_must():
    assert ISSUE.findall("Issue 15, measured; as issue #14 asks; issues 11") == [
        "Issue 15",
        "issue #14",
        "issues 11",
    ]


def test_the_findings_page_says_what_to_do_about_every_kind():
    """A compliance officer reads, for each finding kind, what to do next: every kind has a row
    of the page's "What to do about each" table, and no row names a kind that does not exist."""
    import re

    from reporting.records import FINDING_KINDS

    page = (ROOT / "docs" / "compliance" / "findings.md").read_text(encoding="utf-8")
    section = page.split("## What to do about each", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([a-z_]+)` \| (.+) \|$", section, re.M)
    assert [kind for kind, _ in rows] == list(FINDING_KINDS)
    assert all(len(action) > 40 for _, action in rows)
