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
    """A compliance officer reads, for each finding kind, what to do next: the page's "What to
    do about each" section is generated from the words the audit report prints, a row for
    every kind in contract order, each a sentence or more that begins with what to do."""
    import re

    from reporting.records import FINDING_ADVICE, FINDING_KINDS

    page = (ROOT / "docs" / "compliance" / "findings.md").read_text(encoding="utf-8")
    section = page.split("## What to do about each", 1)[1].split("\n## ", 1)[0]
    assert "<!-- generated: finding-advice -->" in section
    generated = docs_reference_module().on_page_markdown(section)
    rows = re.findall(r"^\| `([a-z_]+)` \| (.+) \|$", generated, re.M)
    assert [kind for kind, _ in rows] == list(FINDING_KINDS)
    assert [action for _, action in rows] == [FINDING_ADVICE[kind] for kind in FINDING_KINDS]
    assert all(len(action) > 40 and action[0].isupper() for _, action in rows)


def test_the_findings_page_says_what_to_do_about_every_reject_reason():
    """The rejected lines' advice the audit report prints is the page's table too: a row for
    every reject reason in contract order, with its words."""
    import re

    from reporting.records import REJECT_ADVICE, REJECT_REASONS, REJECT_TITLES

    page = (ROOT / "docs" / "compliance" / "findings.md").read_text(encoding="utf-8")
    section = page.split("## What to do about rejected lines", 1)[1].split("\n## ", 1)[0]
    assert "<!-- generated: reject-advice -->" in section
    generated = docs_reference_module().on_page_markdown(section)
    rows = re.findall(r"^\| `([a-z_]+)` \| ([^|]+) \| (.+) \|$", generated, re.M)
    assert [reason for reason, _, _ in rows] == list(REJECT_REASONS)
    assert [title for _, title, _ in rows] == [REJECT_TITLES[r] for r in REJECT_REASONS]
    assert [advice for _, _, advice in rows] == [REJECT_ADVICE[r] for r in REJECT_REASONS]


# --- the bounds: one page generated from the code, and the values other pages quote ---------

#: A bound's name in the code: public, module-level, upper case.
BOUND_NAME = re.compile(
    r"^((?:MAX_\w+)|(?:[A-Z]\w*_LIMIT(?:_\w+)?)|(?:[A-Z]\w*_WAIT)|DEPTH) *(?::[^=]*)?=", re.M
)


#: Small numbers as the pages spell them.
WORDS = dict(enumerate(("no", "one", "two", "three", "four", "five", "six", "seven", "eight")))


def _mib(size: int) -> str:
    return f"{size // (1 << 20)} MiB"


def quoted_bounds() -> list[tuple[str, str]]:
    """Where a user page quotes a bound's value: the page, and the words it must hold, made
    from the constant (a bound changed in the code and not on the page fails the test)."""
    from reporting.cli.common import MAX_JOBS
    from reporting.config.operator import MAX_LOGO_PIXELS
    from reporting.errors import STOP_CHANCE_STEPS
    from reporting.ingest import limits
    from reporting.ingest.worker import WORKER_MIN_BYTES
    from reporting.presentation.audit_report import (
        MAX_GAPS,
        MAX_INPUTS,
        MAX_LISTED_FILES,
        MAX_TABLES,
    )
    from reporting.store.faults import DEFAULT_WAIT, WAIT_STEP
    from reporting.store.query_bounds import MAX_REQUESTS, MAX_RETURNED_ROWS
    from reporting.verify import pool
    from reporting.verify.bearing import FILES_NAMED

    side = int(MAX_LOGO_PIXELS**0.5)
    socket_room = pool._SOCKET_PATH_MAX - pool._SOCKET_SUFFIX
    reliability, profiles = "operations/reliability.md", "providers/profiles.md"
    return [
        ("operators/commands.md", f"returns at most {MAX_RETURNED_ROWS:,} rows"),
        (reliability, f"a line of {_mib(limits.MAX_LINE_BYTES)}"),
        (reliability, f"a CSV cell of {limits.MAX_CSV_FIELD_CHARS // 1024} Ki characters"),
        (reliability, f"a CSV cell over {limits.MAX_CSV_FIELD_CHARS:,} characters"),
        (reliability, f"nesting {limits.MAX_DEPTH} deep"),
        (reliability, f"an amount of {limits.MAX_AMOUNT_CHARS} characters"),
        (reliability, f"a reject message of {limits.MAX_MESSAGE_CHARS} characters"),
        (reliability, f"each statement waits ({DEFAULT_WAIT:g} s)"),
        (reliability, f"the wait is taken in steps of {WAIT_STEP:g} s"),
        (
            reliability,
            f"past {limits.GZIP_ALLOWANCE_BYTES >> 30} GiB at over {limits.MAX_GZIP_RATIO}"
            " times its compressed size",
        ),
        (reliability, f"pass {_mib(limits.MAX_LINE_BYTES)}, as"),
        (reliability, f"a path over {socket_room} bytes"),
        (reliability, f"every {STOP_CHANCE_STEPS:,} of its own"),
        (profiles, f"a game longer than {_mib(limits.MAX_LINE_BYTES)} (`MAX_LINE_BYTES`"),
        (profiles, f"a game nested more than {limits.MAX_DEPTH} deep (`MAX_DEPTH`)"),
        ("operators/configuration.md", f"({side} x {side};"),
        ("operators/commands.md", f"at most {MAX_JOBS} (tables"),
        ("operators/commands.md", f"It answers {WORDS[MAX_REQUESTS]} requests at a time"),
        ("operators/commands.md", f"A log of {_mib(WORKER_MIN_BYTES)} or more"),
        ("developers/architecture.md", f"of {_mib(WORKER_MIN_BYTES)} or more"),
        ("compliance/audit.md", f"at most {MAX_INPUTS} listed, `MAX_INPUTS`"),
        ("compliance/audit.md", f"at most {MAX_LISTED_FILES} files with rejected lines and"),
        ("compliance/audit.md", f"{MAX_LISTED_FILES} files not read are named, `MAX_LISTED_FILES`"),
        ("compliance/audit.md", f"at most {MAX_TABLES} tables of a game, `MAX_TABLES`"),
        ("compliance/audit.md", f"at most {MAX_TABLES} tables drawn"),
        ("compliance/audit.md", f"(at most {MAX_GAPS}, `MAX_GAPS`, the longest"),
        ("operators/commands.md", f"the first {FILES_NAMED} are named and the rest counted"),
    ]


def test_every_bound_a_page_quotes_is_the_code_s():
    """The pages quote a few bounds in their sentences: each quote is made here from its
    constant, so a bound changed in the code fails until the page says the new value."""
    missing = []
    for page, words in quoted_bounds():
        text = " ".join((DOCS / page).read_text(encoding="utf-8").split())
        if words not in text:
            missing.append(f"docs/{page}: {words!r}")
    assert missing == []


def docs_reference_module():
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import docs_reference
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    return docs_reference


def test_the_bounds_page_lists_every_bound_of_the_code_with_its_reason():
    """Each public bound of ``reporting/`` (``MAX_*``, ``*_LIMIT``, ``*_WAIT``, ``DEPTH``) is a
    row of the generated Bounds page, with its value and its reason."""
    docs_reference = docs_reference_module()
    listed = {
        (module, name)
        for _, modules in docs_reference.BOUNDS
        for module, names in modules
        for name in names
    }
    found = set()
    for path in (ROOT / "reporting").rglob("*.py"):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        found |= {(module, name) for name in BOUND_NAME.findall(path.read_text("utf-8"))}
    assert sorted(found - listed) == []
    page = docs_reference.bounds()
    tables = {part.split("`", 1)[0]: part for part in page.split("In `")[1:]}
    assert all(f"| `{name}` |" in tables[module] for module, name in listed)
    line = "| `MAX_LINE_BYTES` | 4 MiB | Bytes of one JSON Lines line"
    assert line in tables["reporting.ingest.limits"]
    assert "10\\*\\*20 is already past" in page  # Markdown's stars escaped, not bold


def test_a_key_s_meaning_shows_its_pattern_s_stars():
    """The configuration keys page printed the examples of an inbox profile's pattern
    (``backoffice-*.csv``, ``*/backoffice-*.csv``) with Markdown taking their stars for
    emphasis: "backoffice-.csv" in italics."""
    page = docs_reference_module().configuration_keys()
    assert "acme/backoffice-\\*.csv those of its folder acme, \\*/backoffice-\\*.csv" in page


def test_a_bound_without_its_reason_fails_the_page(monkeypatch):
    """A bound whose ``#:`` comment is missing fails the site's build; a bound right under
    another shares the comment above both."""
    docs_reference = docs_reference_module()
    reasons = docs_reference.bound_reasons("reporting.config.values")
    assert reasons["MAX_ODDS"] == reasons["MAX_ODDS_DENOMINATOR"] != ""
    unexplained = (("Reading", (("reporting.ingest.profiles.paths", ("_KEY",)),)),)
    monkeypatch.setattr(docs_reference, "BOUNDS", unexplained)
    with pytest.raises(LookupError, match="_KEY has no #: comment"):
        docs_reference.bounds()


def test_the_table_of_languages_names_the_hands_as_each_catalogue_does():
    """The operators' table of languages quotes each catalogue's words for the two hands and
    the tie: each row is read back against its catalogue (the Italian row said Player and
    Banker where the pages say Giocatore and Banco)."""
    from reporting.config.languages import SUPPORTED_LANGUAGES
    from reporting.presentation.i18n import load_translations

    text = (DOCS / "operators" / "pages-and-languages.md").read_text(encoding="utf-8")
    rows = dict(
        re.findall(r"^\| ([a-z]{2}) \| [a-z]{2}_[A-Z]{2} \| [^|]+ \| ([^|]+) \|$", text, re.M)
    )
    assert set(rows) == set(SUPPORTED_LANGUAGES)
    for code, words in rows.items():
        catalogue = load_translations(code)
        expected = ", ".join(catalogue.gettext(word) for word in ("Player", "Banker", "Tie"))
        assert words.strip() == expected, code
