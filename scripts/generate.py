"""The files of the repository that are generated, never edited by hand, and the one command
that writes each: the JSON Schemas (from the key tables and the bet catalogue), the sample
inbox (from the sample generator, same bytes for the same seed), the catalogues' template
(the msgids of reporting/ and reporting/templates/rules/, extracted as babel.cfg says), and
the currencies in use with the decimals CLDR writes them in (from Babel: the configuration
checks a game's currency against them without loading Babel).

``make generate`` runs ``python scripts/generate.py`` (every file); ``make schemas``,
``make sample-inbox``, ``make currencies`` and ``make i18n`` run one of them by name. Each
writes under a root folder, the repository by default: the tests write into a temporary one
and compare (tests/test_generated.py), so a file left out of date fails a test naming
``make generate``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from babel.messages.frontend import CommandLineInterface

from reporting.config import keys as config_keys
from reporting.config.regulators import CURRENCIES_PATH
from reporting.ingest.profiles import keys as profile_keys
from reporting.presentation.i18n import LOCALE_DIR

REPO = Path(__file__).resolve().parent.parent
# Where each lands, relative to the repository (a root folder in the tests).
CONFIG_SCHEMA = config_keys.SCHEMA_PATH.relative_to(REPO)
PROFILE_SCHEMA = profile_keys.SCHEMA_PATH.relative_to(REPO)
CATALOGUE_TEMPLATE = (LOCALE_DIR / "messages.pot").relative_to(REPO)
SAMPLE_INBOX = Path("sample_data/inbox/round-log-2026-10.jsonl.gz")
CURRENCIES = CURRENCIES_PATH.relative_to(REPO)


def write_schemas(root: Path) -> None:
    """The configuration's and the log profiles' JSON Schemas."""
    for path, schema in (
        (CONFIG_SCHEMA, config_keys.json_schema()),
        (PROFILE_SCHEMA, profile_keys.json_schema()),
    ):
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(schema, indent=2, ensure_ascii=False) + "\n"
        (root / path).write_text(text, encoding="utf-8")


def write_sample_inbox(root: Path) -> None:
    """October 2026, 30 rounds a day and table in sessions, seed 2026, no fault
    (sample_data/README.md says what it holds)."""
    (root / SAMPLE_INBOX).parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [sys.executable, "-m", "reporting", "sample", "--month", "2026-10"]
        + [
            "--rounds-per-day",
            "30",
            "--seed",
            "2026",
            "--force",
            "--out",
            str(root / SAMPLE_INBOX),
        ],
        check=True,
        cwd=REPO,
        stdout=subprocess.DEVNULL,
    )


def write_catalogue_template(root: Path) -> None:
    """messages.pot, from the sources of the repository (``make i18n`` then updates each
    language's catalogue from it)."""
    (root / CATALOGUE_TEMPLATE).parent.mkdir(parents=True, exist_ok=True)
    with contextlib.chdir(REPO):  # the messages' locations, relative to the repository
        CommandLineInterface().run(
            ["pybabel", "--quiet", "extract", "-F", "babel.cfg"]
            + ["-o", str(root / CATALOGUE_TEMPLATE), "--add-comments=Translators:"]
            + ["--project=baccarat-report", "--version=0.1.0", "--copyright-holder=baccarat-report"]
            + ["--msgid-bugs-address=compliance@example.invalid", "--sort-by-file", "--width=100"]
            + ["."]
        )


def write_currencies(root: Path) -> None:
    """Every currency in use (legal tender of some territory today, as CLDR lists them), with
    the decimals CLDR writes its amounts in, which are those the pages print."""
    from babel import __version__ as babel_version
    from babel.core import get_global
    from babel.numbers import get_currency_precision

    in_use = {
        code
        for currencies in get_global("territory_currencies").values()
        for code, _start, end, tender in currencies
        if end is None and tender
    }
    document = {
        "source": f"CLDR, as Babel {babel_version} ships it (make currencies)",
        "decimals": {code: get_currency_precision(code) for code in sorted(in_use)},
    }
    (root / CURRENCIES).parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(document, indent=1, ensure_ascii=False) + "\n"
    (root / CURRENCIES).write_text(text, encoding="utf-8")


#: Each generated file's name on the command line, and its writer.
GENERATORS: dict[str, Callable[[Path], None]] = {
    "schemas": write_schemas,
    "sample-inbox": write_sample_inbox,
    "catalogue-template": write_catalogue_template,
    "currencies": write_currencies,
}


def main(argv: list[str] | None = None) -> None:
    """Write the files named (every one by default) under the repository."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help=", ".join(GENERATORS))
    names = parser.parse_args(argv).names or list(GENERATORS)
    if unknown := [name for name in names if name not in GENERATORS]:
        parser.error(f"unknown: {', '.join(unknown)} (one of {', '.join(GENERATORS)})")
    for name in names:
        GENERATORS[name](REPO)


if __name__ == "__main__":
    main()
