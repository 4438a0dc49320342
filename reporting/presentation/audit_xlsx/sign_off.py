"""The Sign-off sheet: the licences, what the reviewer attests and the boxes to fill in, a remarks
row per finding kind and per other matter, the provenance."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from reporting.figures.audit_records import MonthAudit
from reporting.figures.ledger import PeriodLedger
from reporting.presentation.audit_xlsx.cells import (
    _MAX_LINES,
    COUNT,
    DATE,
    TEXT,
    WRAP,
    _Alert,
    _Book,
    _Column,
    _content_widths,
    _severity,
    _SheetWriter,
    _wrapped_lines,
)
from reporting.presentation.sign_off import ATTESTATION, REVIEWER_FIELDS, LicenceLine
from reporting.presentation.workbook_base import LINE_HEIGHT, set_column_widths
from reporting.records import FINDING_KINDS, finding_title

_SIGN_OFF_COLUMNS = (
    _Column("Finding kind", TEXT),
    _Column("Severity", TEXT),
    _Column("Findings", COUNT),
    _Column("Remarks", WRAP, cap=48),
)


_INPUT_HEADERS = ("File", "SHA-256", "Size (bytes)", "Format", "Profile", "Rounds loaded")


_SHA_WIDTH = 33  # a SHA-256 in two lines


def _write_sign_off(
    book: _Book,
    ledger: PeriodLedger,
    audit: MonthAudit,
    meta: Sequence[tuple[str, str, object]],
    licences: Sequence[LicenceLine],
) -> None:
    """The page the reviewer signs: the period, the operator and its licence in each
    jurisdiction of its games (``licences``), what the reviewer attests and a block to fill in
    (name, role, date, signature), a remarks row per finding kind that occurred, then one per
    other matter that bears on the period (each of the Summary's counts that is not zero:
    ``meta``, its lines, and the rejected lines), then the provenance (tool, configuration,
    store digest, every input file with its hash)."""
    counts: Counter[str] = Counter()
    for by_kind in ledger.findings_by_game.values():
        counts.update(by_kind)
    kinds = [kind for kind in FINDING_KINDS if counts[kind]]
    kinds += sorted(set(counts) - set(FINDING_KINDS))
    rows = [(finding_title(kind), _severity(kind), counts[kind], None) for kind in kinds]
    provenance = audit.provenance
    labels = ("Configuration SHA-256", "Store digest (SHA-256)")
    widths = _content_widths(_SIGN_OFF_COLUMNS, rows)
    widths[0] = max(
        widths[0],
        *(len(label) for label in labels),
        *(  # what a count names wraps past 50 characters (a list of every game)
            min(len(_matter(label, value)), 50)
            for label, _, value in meta
            if isinstance(value, _Alert)
        ),
        *(min(len(item.file_name), 30) for item in provenance.inputs),
    )
    widths[1] = _SHA_WIDTH
    widths[2] = max(widths[2], len("Size (bytes)"))
    widths[3] = 48
    block = _reviewer_block(book, licences)
    writer = _SheetWriter(book, "Sign-off", _SIGN_OFF_COLUMNS, widths, header_row=len(block) + 1)
    # Two more columns for the input files' table of the provenance block.
    writer.widths += [len("Profile") + 4, len("Rounds loaded")]
    set_column_widths(writer.sheet, [width + 2 for width in writer.widths])
    for cells, variant, height in block:
        writer.append(cells, variant, height)
    writer.header()
    writer.rows(rows)
    writer.finish_table()
    writer.append([])
    _write_other_matters(writer, ledger, meta)
    _write_provenance(writer, audit)


#: A row above a sheet's table: its cells (kind, value), variant and height (None: a line).
_Row = tuple[list[tuple[str, object]], str | None, float | None]


def _reviewer_block(book: _Book, licences: Sequence[LicenceLine]) -> list[_Row]:
    """The rows above the table: the period, the operator and its licences, the as-of date,
    what the reviewer attests and the boxes to fill in (the table's header comes next)."""
    rows: list[_Row] = [
        ([("title", f"Sign-off: {book.operator}")], "free", 21),
        ([("label", "Period"), (TEXT, book.period)], "free", None),
        ([("label", "Operator"), (TEXT, book.operator)], "free", None),
    ]
    for licence in licences:
        # a number the configuration lacks stands out, as a count that is not zero does
        variant = "free" if licence.given else "free alert"
        rows.append(([("label", licence.label), (TEXT, licence.text)], variant, None))
    rows += [
        ([("label", "As of"), (DATE, book.as_of)], "free", None),
        ([], "free", None),
        ([("label", "Reviewer")], "free", None),
        ([("note", ATTESTATION)], "free", None),
    ]
    # empty ruled boxes to fill in, by hand or in the file
    rows += [
        ([("label", label), (TEXT, None), (TEXT, None), (TEXT, None)], None, height)
        for label, height in REVIEWER_FIELDS
    ]
    return rows


def _write_other_matters(
    writer: _SheetWriter, ledger: PeriodLedger, meta: Sequence[tuple[str, str, object]]
) -> None:
    """A remarks row for each matter besides the findings that bears on the period (a count
    of the Summary's that is not zero), or a line that says there is none."""
    matters = [
        (_matter(label, value), value.value)
        for label, _, value in meta
        if isinstance(value, _Alert) and value.value
    ]
    rejected = sum(ledger.rejects_by_reason.values())
    if rejected:
        matters.insert(0, ("Rejected lines", rejected))
    if not matters:
        writer.append([("note", "No other matter bears on this period.")])
        writer.append([])
        return
    writer.append(
        [("header", "Other matter"), ("header", None), ("header", "Count")]
        + [("header", "Remarks")]
    )
    for label, count in matters:
        writer.append([(WRAP, label), (TEXT, None), (COUNT, count), (WRAP, None)], None)
    writer.append([])


def _write_provenance(writer: _SheetWriter, audit: MonthAudit) -> None:
    """Where the figures come from, under the sign-off: tool, configuration, store, inputs."""
    provenance = audit.provenance
    writer.append([("label", "Provenance")])
    for label, value in (
        ("Tool version", f"baccarat-report {provenance.tool_version}"),
        ("Configuration", provenance.configuration or "the built-in catalogue"),
        ("Configuration SHA-256", provenance.configuration_sha256),
        ("Store digest (SHA-256)", provenance.store_digest),
    ):
        long = value is not None and len(value) > _SHA_WIDTH
        writer.append([("label", label), (WRAP, value)], "free", LINE_HEIGHT * 2 if long else None)
    writer.append([])
    writer.append([("header", header) for header in _INPUT_HEADERS])
    for item in audit.provenance.inputs:
        name = item.file_name
        if item.companion_name:
            name += f" + {item.companion_name}"
        lines = max(2, _wrapped_lines(name, writer.widths[0] + 1))
        writer.append(
            [
                *((WRAP, name), (WRAP, item.sha256), (COUNT, item.size)),
                *((TEXT, item.format), (TEXT, item.profile), (COUNT, item.rounds_loaded)),
            ],
            None,
            LINE_HEIGHT * min(lines, _MAX_LINES),
        )


def _matter(label: str, count: _Alert) -> str:
    """A Summary count's remarks row: its label, and what it names (the games, the months)."""
    return f"{label}: {count.which}" if count.which else label
