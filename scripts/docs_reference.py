"""The site's reference pages, generated from the code at every build, so they cannot go stale.

MkDocs loads this file as a hook (``hooks:`` in ``mkdocs.yml``): a page holding the marker
``<!-- generated: NAME -->`` gets, in its place, the text of ``GENERATORS[NAME]``:

- ``cli``: every command's ``--help``, as the installed command prints it;
- ``configuration-keys``: every key of the operator configuration, from the loader's key tables
  (``reporting/config/keys.py``, the tables the JSON Schema is generated from);
- ``finding-kinds``: every finding kind in contract order, with its severity and title
  (``FINDING_KINDS``, ``FINDING_SEVERITY`` and ``FINDING_TITLES`` of ``reporting/records.py``).

``python scripts/docs_reference.py NAME`` prints one of them.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

MARKER = re.compile(r"<!-- generated: ([a-z-]+) -->")
HELP_COLUMNS = "88"


def cli_reference() -> str:
    """The root's help and each command's, in the order the root lists them."""
    import typer
    from typer.testing import CliRunner

    from reporting.cli import app

    runner = CliRunner()
    group = typer.main.get_command(app)
    names = [None, *group.list_commands(None)]  # type: ignore[arg-type]
    parts = []
    for name in names:
        argv = [name, "--help"] if name else ["--help"]
        result = runner.invoke(
            app, argv, env={"COLUMNS": HELP_COLUMNS}, prog_name="baccarat-report"
        )
        if result.exit_code != 0:
            raise RuntimeError(f"baccarat-report {' '.join(argv)} exited {result.exit_code}")
        title = f"`{name}`" if name else "`baccarat-report`"
        parts.append(f"## {title}\n\n```text\n{result.stdout.rstrip()}\n```\n")
    return "\n".join(parts)


def _value(schema: Mapping[str, Any]) -> str:
    """A key's value in words, from its JSON Schema."""
    if "anyOf" in schema:
        return " or ".join(dict.fromkeys(_value(option) for option in schema["anyOf"]))
    kind = schema.get("type")
    if "enum" in schema:
        values = schema["enum"]
        if len(values) > 8:
            return f"one of {len(values)} names ({', '.join(f'`{v}`' for v in values[:3])}, ...)"
        return "one of " + ", ".join(f"`{value}`" for value in values)
    if kind == "integer":
        return f"a whole number from {schema.get('minimum', '')} to {schema.get('maximum', '')}"
    if kind == "boolean":
        return "`true` or `false`"
    if kind == "array":
        return f"a list of {_value(schema.get('items', {}))}"
    if kind == "object":
        return "a table"
    if kind == "string":
        examples = schema.get("examples")
        return f'text, e.g. `"{examples[0]}"`' if examples else "text"
    return "a value"


def _rows(prefix: str, keys: Mapping[str, Any]) -> list[str]:
    rows = []
    for name, key in keys.items():
        meaning = " ".join(key.help.split()).replace("|", "\\|")
        value = _value(key.kind.schema()).replace("|", "\\|")
        rows.append(f"| `{prefix}{name}` | {value} | {meaning} |")
    return rows


def configuration_keys() -> str:
    """One table per section of the file, every key with its value and meaning."""
    from reporting.config import keys

    sections = (
        ("[operator]", "operator.", keys.OPERATOR_KEYS),
        ("[games.ID]", "", keys.OPERATOR_GAME_KEYS),
        ("limits = {...} of a game", "limits.", keys.LIMIT_KEYS),
        ("[[inbox.profiles]]", "", keys.INBOX_RULE_KEYS),
    )
    parts = []
    for title, prefix, table in sections:
        head = ["| key | value | meaning |", "|---|---|---|"]
        parts.append(f"## `{title}`\n\n" + "\n".join(head + _rows(prefix, table)) + "\n")
    pays = ", ".join(f"`{name}`" for name in keys.PAY_KEYS)
    parts.append(
        "## `pay = {...}` of a game\n\n"
        f"The pay keys a game's `pay` table accepts ({len(keys.PAY_KEYS)}): {pays}.\n"
    )
    return "\n".join(parts)


def finding_kinds() -> str:
    """The finding kinds in contract order: severity and the audit report's title."""
    from reporting.records import FINDING_KINDS, FINDING_SEVERITY, FINDING_TITLES

    rows = ["| kind | severity | title in the audit |", "|---|---|---|"]
    for kind in FINDING_KINDS:
        rows.append(f"| `{kind}` | {FINDING_SEVERITY[kind]} | {FINDING_TITLES[kind]} |")
    return "\n".join(rows) + "\n"


GENERATORS: Mapping[str, Callable[[], str]] = {
    "cli": cli_reference,
    "configuration-keys": configuration_keys,
    "finding-kinds": finding_kinds,
}


def on_page_markdown(markdown: str, **_: Any) -> str:
    """MkDocs hook: each marker replaced by what its generator writes (an unknown name fails
    the build)."""

    def generated(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in GENERATORS:
            raise KeyError(f"no generator named {name!r} (known: {', '.join(GENERATORS)})")
        return GENERATORS[name]()

    return MARKER.sub(generated, markdown)


if __name__ == "__main__":
    print(GENERATORS[sys.argv[1]]())
