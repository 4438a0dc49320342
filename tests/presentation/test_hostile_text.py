"""Text from the input as the signed audit shows it: a void reason, a file's name and a rejected
line that hold a bidirectional override, a zero-width space or a control character show each
as its escape (``\\u202e``) in the audit report (HTML and PDF) and its workbook; read as written,
the override printed "evil" as "live" and a file ``a\\u202egnp.jsonl`` as ``alnosj.png``.

One monthly run of a Greek game without rule sheets, through the real command.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from helpers import run_main
from openpyxl import load_workbook

#: Characters that reorder or hide what a reader sees, and a control character.
HIDDEN = re.compile(
    "[\u202a-\u202e\u2066-\u2069\u200b-\u200f\u2060\ufeff\x00-\x08\x0b\x0c\x0e-\x1f]"
)
REASON = "\u202eevil\u202c \x07 scanner"
FILE = "a\u202egnp.jsonl"
CONFIG = """\
[games.live-baccarat-gr]
languages = []
"""


@pytest.fixture(scope="module")
def month(tmp_path_factory, make_round, make_bet) -> Path:
    root = tmp_path_factory.mktemp("hostile-text")
    inbox = root / "inbox"
    inbox.mkdir()
    rounds = [
        make_round(
            "GR-1",
            game="live-baccarat-gr",
            table_id="GR-T",
            shoe_id="GR-1-S1",
            hand_no=1,
            bets=[make_bet("GR-1-B1", type="player", stake="10.00", payout="20.00")],
        ),
        make_round(
            "GR-2",
            game="live-baccarat-gr",
            table_id="GR-T",
            shoe_id="GR-2-S1",
            hand_no=1,
            status="void",
            void_reason=REASON,
            bets=[make_bet("GR-2-B1", type="player", stake="10.00", payout="10.00")],
        ),
    ]
    lines = [json.dumps(record) for record in rounds]
    lines.append('{"round_id": "GR-\u202e3\u200b", "bets": "x"}')  # rejected, kept as read
    (inbox / FILE).write_text("\n".join(lines) + "\n", encoding="utf-8")
    (inbox / os.fsdecode(b"b\xff.jsonl")).write_text('{"bets": "x"}\n')  # not UTF-8, its name
    config = root / "operator.toml"
    config.write_text(CONFIG, encoding="utf-8")
    out = root / "out"
    ran = run_main(
        "monthly", "--config", str(config), "--inbox", str(inbox), "--db", str(root / "db.sqlite"),
        "--out", str(out), "--as-of", "2026-11-05",
    )  # fmt: skip
    assert ran.returncode == 1, ran.stderr  # the rejected lines
    return out / "2026-10"


def test_the_audit_report_shows_input_escaped(month):
    html = (month / "audit-2026-10.html").read_text(encoding="utf-8")
    assert not HIDDEN.search(html), HIDDEN.search(html)
    assert "\\u202eevil\\u202c \\x07 scanner" in html  # the void reason, as written
    assert "a\\u202egnp.jsonl" in html  # the file's name
    assert "b\\xff.jsonl" in html  # a byte not UTF-8, as the workbook and the console show it


def test_the_audit_pdf_prints_input_escaped(month):
    text = subprocess.run(
        ["pdftotext", "-layout", str(month / "audit-2026-10.pdf"), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.replace("\f", "")  # pdftotext's page breaks
    assert not HIDDEN.search(text)
    assert "\\u202eevil\\u202c \\x07" in text  # not "live", printed backwards


def test_the_audit_workbook_holds_input_escaped(month):
    workbook = load_workbook(month / "audit-2026-10.xlsx", read_only=True)
    try:
        cells = [
            value
            for sheet in workbook.worksheets
            for row in sheet.iter_rows(values_only=True)
            for value in row
            if isinstance(value, str)
        ]
    finally:
        workbook.close()
    assert not [cell for cell in cells if HIDDEN.search(cell)]
    assert any("\\u202eevil\\u202c \\x07 scanner" in cell for cell in cells)  # Void rounds
    assert any("a\\u202egnp.jsonl" in cell for cell in cells)  # Ingest log, Rejected records
    assert any('"GR-\\u202e3\\u200b"' in cell for cell in cells)  # the rejected line's text
    assert any("b\\xff.jsonl" in cell for cell in cells)  # a file not read, by its name
