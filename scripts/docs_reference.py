"""The site's reference pages, generated from the code at every build, so they cannot go stale.

MkDocs loads this file as a hook (``hooks:`` in ``mkdocs.yml``): a page holding the marker
``<!-- generated: NAME -->`` gets, in its place, the text of ``GENERATORS[NAME]``:

- ``cli``: every command's ``--help``, as the installed command prints it;
- ``configuration-keys``: every key of the operator configuration, from the loader's key tables
  (``reporting/config/keys.py``, the tables the JSON Schema is generated from, and the keys of
  a bet and of a pay row, ``BET_KEYS`` and ``ROW_KEYS`` of ``reporting/config/bets.py``);
- ``finding-kinds``: every finding kind in contract order, with its severity and title
  (``FINDING_KINDS``, ``FINDING_SEVERITY`` and ``FINDING_TITLES`` of ``reporting/records.py``);
- ``reject-advice``: what to do about the lines of each reject reason (``REJECT_ADVICE``);
- ``finding-advice``: what to do about each finding kind, in contract order (``FINDING_ADVICE``
  of ``reporting/records.py``, the words the audit report prints under each kind);
- ``bounds``: every bound the tool holds input and its own work to (:data:`BOUNDS`), its value
  as the code computes it and its reason as the ``#:`` comment above it says.

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
        items = schema.get("items", {})
        return "a list of tables" if items.get("type") == "object" else f"a list of {_value(items)}"
    if kind == "object":
        names = schema.get("propertyNames", {}).get("enum")
        if names and schema.get("additionalProperties", {}).get("type") == "string":
            return 'a text in each language of its games, e.g. `{ en = "...", it = "..." }`'
        return "a table"
    if kind == "string":
        examples, pattern = schema.get("examples"), schema.get("pattern")
        if examples:
            return f'text, e.g. `"{examples[0]}"`'
        return f"text matching `{pattern.strip('^$')}`" if pattern else "text"
    return "a value"


def _row(name: str, schema: Mapping[str, Any], meaning: str) -> str:
    """One key's row of a table: its name, its value in words and its meaning (its braces
    escaped: attr_list would take a cell's closing ``{ ... }`` for attributes and drop it)."""
    meaning = _plain_outside_code(" ".join(meaning.split()))
    meaning = meaning.replace("{", "\\{").replace("}", "\\}")
    value = _value(schema).replace("|", "\\|")
    return f"| {name} | {value} | {meaning} |"


def _rows(prefix: str, keys: Mapping[str, Any]) -> list[str]:
    return [_row(f"`{prefix}{name}`", key.kind.schema(), key.help) for name, key in keys.items()]


def _table(rows: list[str]) -> str:
    return "\n".join(["| key | value | meaning |", "|---|---|---|", *rows]) + "\n"


def _declared(keys: Mapping[str, str], schema: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    """The rows of a bet's or a pay row's keys (``BET_KEYS``, ``ROW_KEYS``: name and meaning),
    each valued from the JSON Schema of the operator's own bets, and the keys it requires. A
    key the schema leaves out (``wins_plural``) is the catalogue's alone: the loader refuses it
    in an operator's file, so it is not listed."""
    properties = schema["properties"]
    rows = [
        _row(f"`{name}`", properties[name], meaning)
        for name, meaning in keys.items()
        if name in properties
    ]
    return rows, [f"`{name}`" for name in keys if name in schema.get("required", ())]


def _own_bets() -> str:
    """``[bets.ID]``, its keys and its rows' keys (from the JSON Schema of ``[bets]``, which
    ``BET_KEYS`` and ``ROW_KEYS`` describe), with the facts a row's ``when`` may name."""
    from reporting.config.bets import BET_KEYS, ROW_KEYS
    from reporting.config.keys import json_schema
    from reporting.engine.facts import FACTS

    section = json_schema()["properties"]["bets"]
    bet = section["additionalProperties"]
    bet_rows, bet_required = _declared(BET_KEYS, bet)
    row_rows, row_required = _declared(ROW_KEYS, bet["properties"]["rows"]["items"])
    pattern = section["propertyNames"]["pattern"].strip("^$")
    facts = ", ".join(f"`{name}`" for name in FACTS)
    return (
        "## `[bets.ID]`\n\n"
        f"{section['description'][0].upper()}{section['description'][1:]}. "
        f"An id matches `{pattern}`. A bet requires {', '.join(bet_required)}.\n\n"
        + _table(bet_rows)
        + "\n### `rows = [...]` of a bet\n\n"
        f"Each row is a table; it requires {', '.join(row_required)}.\n\n"
        + _table(row_rows)
        + f"\nThe facts `when` may name ({len(FACTS)}): {facts}. Their values and meanings:"
        " [Catalogue and games](../operators/catalogue-and-games.md).\n"
    )


def _pay_tables() -> str:
    """``[pay_tables.NAME]``: ``base`` and every pay key (``PAY_TABLE_KEYS``), and the pay keys
    of the file's own bets' rows, as the JSON Schema takes them."""
    from reporting.config.keys import PAY_TABLE_KEYS, PayKeys, json_schema

    section = json_schema()["properties"]["pay_tables"]
    pattern = section["propertyNames"]["pattern"].strip("^$")
    own = PayKeys(PAY_TABLE_KEYS).schema()["additionalProperties"]
    ordered = {"base": PAY_TABLE_KEYS["base"]} | PAY_TABLE_KEYS
    return (
        "## `[pay_tables.NAME]`\n\n"
        f"{section['description'][0].upper()}{section['description'][1:]}"
        f" (a name matches `{pattern}`), which a game names in `pay_table`: `base`, the"
        f" {len(PAY_TABLE_KEYS) - 1} pay keys of the catalogue's bets and those of the rows of"
        " the file's own bets.\n\n"
        + _table(
            _rows("", ordered)
            + [_row("*KEY* of a row of `[bets]`", own, own.get("description", ""))]
        )
    )


def configuration_keys() -> str:
    """One table per section of the file, every key with its value and meaning."""
    from reporting.config import keys

    sections = (
        ("[operator]", "operator.", keys.OPERATOR_KEYS),
        ("[games.ID]", "", keys.OPERATOR_GAME_KEYS),
        ("limits = {...} of a game", "limits.", keys.LIMIT_KEYS),
        ("[[inbox.profiles]]", "", keys.INBOX_RULE_KEYS),
    )
    parts = [
        f"## `{title}`\n\n" + _table(_rows(prefix, table)) for title, prefix, table in sections
    ]
    pays = ", ".join(f"`{name}`" for name in keys.PAY_KEYS)
    parts.append(
        "## `pay = {...}` of a game\n\n"
        f"The pay keys a game's `pay` table accepts ({len(keys.PAY_KEYS)}): {pays}, and those"
        " of the rows of the file's own bets; each takes the value it takes in a pay table"
        " (below).\n"
    )
    parts.append(_pay_tables())
    parts.append(_own_bets())
    return "\n".join(parts)


def finding_kinds() -> str:
    """The finding kinds in contract order: severity and the audit report's title."""
    from reporting.records import FINDING_KINDS, FINDING_SEVERITY, FINDING_TITLES

    rows = ["| kind | severity | title in the audit |", "|---|---|---|"]
    for kind in FINDING_KINDS:
        rows.append(f"| `{kind}` | {FINDING_SEVERITY[kind]} | {FINDING_TITLES[kind]} |")
    return "\n".join(rows) + "\n"


def finding_advice() -> str:
    """What to do about each finding kind, in contract order: the audit report's words."""
    from reporting.records import FINDING_ADVICE, FINDING_KINDS

    rows = ["| finding | what to do |", "|---|---|"]
    rows += [f"| `{kind}` | {FINDING_ADVICE[kind]} |" for kind in FINDING_KINDS]
    return "\n".join(rows) + "\n"


def reject_advice() -> str:
    """What to do about the lines of each reject reason, in contract order: the audit
    report's words."""
    from reporting.records import REJECT_ADVICE, REJECT_REASONS, REJECT_TITLES

    rows = ["| reason | | what to do |", "|---|---|---|"]
    rows += [
        f"| `{reason}` | {REJECT_TITLES[reason]} | {REJECT_ADVICE[reason]} |"
        for reason in REJECT_REASONS
    ]
    return "\n".join(rows) + "\n"


#: The bounds, by what they bound: each a module and the names of its bounds, in page order.
#: ``tests/test_docs.py`` fails when a bound of ``reporting/`` (a public ``MAX_*``, ``*_LIMIT``,
#: ``*_WAIT`` or ``DEPTH``) is left out.
BOUNDS: tuple[tuple[str, tuple[tuple[str, tuple[str, ...]], ...]], ...] = (
    (
        "Reading round logs",
        (
            (
                "reporting.ingest.limits",
                (
                    "MAX_LINE_BYTES",
                    "MAX_ROUND_ROWS",
                    "MAX_CSV_LINE_CHARS",
                    "MAX_CSV_FIELD_CHARS",
                    "MAX_CSV_COLUMNS",
                    "MAX_DEPTH",
                    "MAX_AMOUNT_CHARS",
                    "MAX_ID_CHARS",
                    "MAX_TEXT_CHARS",
                    "MAX_NUMBER_EXPONENT",
                    "RAW_TEXT_LIMIT",
                    "MAX_MESSAGE_CHARS",
                    "MAX_SHOWN_VALUE_CHARS",
                    "MAX_GZIP_RATIO",
                    "GZIP_ALLOWANCE_BYTES",
                    "SKIP_CHUNK_BYTES",
                    "MAX_BATCH_BETS",
                    "MAX_REJECTED_LINES",
                    "MAX_ROUNDS_APART",
                    "MAX_LEARNT_FIELDS",
                    "MAX_NAMED_FIELDS",
                ),
            ),
            ("reporting.ingest.validation", ("MAX_HAND_NO", "CACHE_LIMIT")),
            ("reporting.records", ("MAX_OFFSET_HOURS",)),
            ("reporting.config.table_patterns", ("TABLE_CACHE_LIMIT", "MAX_SEARCH_STEPS")),
            ("reporting.ingest.profiles.paths", ("MAX_PATH_STEPS",)),
            ("reporting.ingest.profiles.cards", ("MAX_CARDS_SEEN",)),
        ),
    ),
    (
        "The configuration",
        (
            ("reporting.config.loader", ("MAX_CONFIG_BYTES",)),
            ("reporting.config.keys", ("MAX_PATH_CHARACTERS",)),
            ("reporting.config.lines", ("DEPTH",)),
            (
                "reporting.config.values",
                (
                    "MAX_AMOUNT_CENTS",
                    "MAX_ODDS",
                    "MAX_ODDS_DENOMINATOR",
                    "MAX_CENTS",
                    "MAX_CHOICES_LISTED",
                ),
            ),
            ("reporting.config.rtp", ("MAX_STAKES_TRIED",)),
            (
                "reporting.config.operator",
                ("MAX_LOGO_BYTES", "MAX_LOGO_PIXELS", "MAX_LOGO_ELEMENTS", "MAX_LOGO_DEPTH"),
            ),
        ),
    ),
    (
        "The commands",
        (
            (
                "reporting.cli.common",
                ("MAX_JOBS", "DEFAULT_WORKER_WAIT", "DEFAULT_DB_WAIT", "MAX_WAIT"),
            ),
            ("reporting.store.faults", ("DEFAULT_WAIT", "WAIT_STEP")),
            ("reporting.verify.distributed", ("DEFAULT_WORKER_WAIT",)),
            ("reporting.store.parquet", ("EXPORT_WAIT", "MAX_SEGMENT")),
            ("reporting.sample.calendar", ("MAX_ROUNDS_PER_DAY",)),
        ),
    ),
    (
        "Browsing the store (`serve`)",
        (
            (
                "reporting.store.query_bounds",
                (
                    "TIME_LIMIT_MS",
                    "MAX_VALUE_BYTES",
                    "MAX_LIKE_PATTERN_BYTES",
                    "SQLITE_HEAP_BYTES",
                    "MAX_RESULT_BYTES",
                    "MAX_REQUESTS",
                    "MAX_RETURNED_ROWS",
                    "MAX_CSV_MB",
                ),
            ),
        ),
    ),
    (
        "What the pages show",
        (
            ("reporting.presentation.workbook_base", ("TEXT_LIMIT", "HEADER_LIMIT", "SHEET_ROWS")),
            ("reporting.verify.bearing", ("REJECTS_SHOWN", "FILES_NAMED")),
            ("reporting.cli.verify", ("SHOWN_FINDINGS", "SHOWN_TABLES", "FINDINGS_LISTED")),
            ("reporting.jobs.audit", ("FINDINGS_PER_KIND",)),
            (
                "reporting.presentation.audit_report",
                (
                    "MAX_INPUTS",
                    "MAX_LISTED_FILES",
                    "MAX_GAPS",
                    "MAX_SHOES",
                    "MAX_VOIDS",
                ),
            ),
            ("reporting.presentation.audit_charts", ("MAX_TABLES",)),
        ),
    ),
)


#: reStructuredText roles and literals of the code's comments (``x``, :data:`~a.b.X`).
_ROLE = re.compile(r":[a-z]+:`~?(?:[\w.]+\.)?([\w]+)`")
_LITERAL = re.compile(r"``([^`]+)``")


def _markdown(comment: str) -> str:
    """A comment of the code as Markdown: its literals as code, ``*`` outside them as itself."""
    return _plain_outside_code(_LITERAL.sub(r"`\1`", _ROLE.sub(r"`\1`", comment)))


def _plain_outside_code(text: str) -> str:
    """Markdown's ``*`` (emphasis) and ``|`` (a table's cell) shown as themselves outside the
    text's code spans: a path pattern's ``*`` printed as emphasis, its stars lost."""
    pieces = text.split("`")
    pieces[::2] = [piece.replace("*", "\\*").replace("|", "\\|") for piece in pieces[::2]]
    return "`".join(pieces)


def bound_reasons(module_name: str) -> dict[str, str]:
    """The ``#:`` comment above each module-level assignment of a module, as one line of
    Markdown. An assignment right under another without a comment of its own shares the
    comment of the one above (``MAX_ODDS_DENOMINATOR`` under ``MAX_ODDS``)."""
    import ast
    import importlib.util

    spec = importlib.util.find_spec(module_name)
    if spec is None or spec.origin is None:
        raise ModuleNotFoundError(module_name)
    lines = Path(spec.origin).read_text(encoding="utf-8").splitlines()
    reasons: dict[str, str] = {}
    shared, last_line = "", -1
    for node in ast.parse("\n".join(lines)).body:
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if not isinstance(targets[0], ast.Name):
            continue
        above, number = [], node.lineno - 2
        while number >= 0 and lines[number].startswith("#:"):
            above.insert(0, lines[number][2:].strip())
            number -= 1
        if above:
            shared = " ".join(above)
        elif last_line != node.lineno - 1:
            shared = ""
        reasons[targets[0].id] = _markdown(shared)
        last_line = node.end_lineno or node.lineno
    return reasons


def _shown(name: str, value: object) -> str:
    """A bound's value as a reader takes it in: bytes in their binary unit, numbers grouped."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if name.endswith("_BYTES") and isinstance(value, int):
        for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
            if value >= size and value % size == 0:
                return f"{value // size:,} {unit}"
    return f"{value:,}" if isinstance(value, int) else str(value)


def bounds() -> str:
    """One section per part of the tool, a table per module: each bound's name, value and
    reason."""
    import importlib

    parts = []
    for title, modules in BOUNDS:
        parts.append(f"## {title}\n")
        for module_name, names in modules:
            module, reasons = importlib.import_module(module_name), bound_reasons(module_name)
            rows = [f"In `{module_name}`:\n", "| bound | value | why |", "|---|---|---|"]
            for name in names:
                if not reasons.get(name):
                    raise LookupError(f"{module_name}.{name} has no #: comment saying why")
                value = _shown(name, getattr(module, name))
                rows.append(f"| `{name}` | {value} | {reasons[name]} |")
            parts.append("\n".join(rows) + "\n")
    return "\n".join(parts)


GENERATORS: Mapping[str, Callable[[], str]] = {
    "cli": cli_reference,
    "configuration-keys": configuration_keys,
    "finding-kinds": finding_kinds,
    "finding-advice": finding_advice,
    "reject-advice": reject_advice,
    "bounds": bounds,
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
    if len(sys.argv) != 2 or sys.argv[1] not in GENERATORS:
        sys.exit(f"usage: python scripts/docs_reference.py NAME (one of: {', '.join(GENERATORS)})")
    print(GENERATORS[sys.argv[1]]())
