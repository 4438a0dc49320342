"""The sample package's shape: a module per concern, each saying its role, importing only
from the layers below it (the engine, the records, the configuration, the log reader's
columns), never from the store, verification, presentation, jobs or the CLI."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import reporting.sample

PACKAGE = Path(reporting.sample.__file__).parent
MODULES = sorted(PACKAGE.glob("*.py"))
ALLOWED = ("reporting.engine", "reporting.records", "reporting.errors", "reporting.files", "reporting.config",
           "reporting.ingest.csv_pair", "reporting.sample")  # fmt: skip


def reporting_imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module if node.level == 0 else f"reporting.sample.{node.module}")
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return {name for name in names if name.split(".")[0] == "reporting"}


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.name)
def test_each_module_says_its_role(path):
    docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    assert docstring and len(docstring.split()) >= 8, f"{path.name} needs a docstring"


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.name)
def test_each_module_imports_only_from_below(path):
    for name in reporting_imports(path):
        assert name.startswith(ALLOWED), f"{path.name} imports {name}"


def test_the_package_offers_the_public_names():
    assert set(reporting.sample.__all__) == {
        "CARRIED_KINDS", "FAULT_KINDS", "FORMATS", "GameSample", "SampleSummary", "generate_month", "log_files", "month_span", "parse_month",
    }  # fmt: skip
    for name in reporting.sample.__all__:
        assert getattr(reporting.sample, name) is not None
