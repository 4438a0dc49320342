"""The examples in the package's docstrings run, and still say what their code does: an
example left behind by a change of its function fails here (one said "and give those" for a
month after the message became "and load those")."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

import reporting

PACKAGE = Path(reporting.__file__).parent


def _modules_with_examples() -> list[str]:
    """The package's modules whose text holds an example (``>>>``), by dotted name."""
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if ">>> " not in path.read_text(encoding="utf-8"):
            continue
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


MODULES = _modules_with_examples()


def test_the_package_has_examples_to_run():
    """The search finds top-level and nested modules alike: among them, modules whose own
    tests ran their examples before this test ran every module's."""
    assert {
        "reporting.engine.money",
        "reporting.files",
        "reporting.presentation.roads",
        "reporting.ingest.profiles.numbers",
        "reporting.sample.exports",
        "reporting.verify.checks",
    } <= set(MODULES), MODULES


@pytest.mark.parametrize("name", MODULES)
def test_every_example_of_the_module_holds(name, capsys):
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    tests = [test for test in finder.find(module, name) if test.examples]
    for test in tests:
        runner.run(test)
    failed, tried = runner.summarize(verbose=False)
    assert tried > 0, f"{name} names an example that doctest does not find"
    assert failed == 0, capsys.readouterr().out
