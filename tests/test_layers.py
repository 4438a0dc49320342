"""Layers that only look down: every package imports only from the rungs below it (and the
rules engine nothing but itself, and no float)."""

from __future__ import annotations

import ast
import inspect
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import reporting
import reporting.engine
from reporting.config.bets import catalogue_bets
from reporting.engine import bets, cards, games, money, odds, rules

ENGINE_DIR = Path(reporting.engine.__file__).parent
ENGINE_MODULES = sorted(ENGINE_DIR.rglob("*.py"))
FORBIDDEN = {
    "typer",
    "click",
    "rich",
    "jinja2",
    "weasyprint",
    "openpyxl",
    "babel",
    "sqlite3",
    "sqlite_utils",
    "msgspec",
}


def module_name(path: Path) -> str:
    relative = path.relative_to(ENGINE_DIR.parent.parent).with_suffix("")
    parts = list(relative.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path, module: str | None = None) -> set[str]:
    """Absolute names of every module a file imports, relative imports resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    module = module or module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                prefix = ".".join(base)
                if node.module:
                    names.add(f"{prefix}.{node.module}")
                else:  # "from . import cards": each name may be a module of the package
                    names.add(prefix)
                    names.update(f"{prefix}.{alias.name}" for alias in node.names)
            else:
                names.add(node.module)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in {"__import__", "import_module"}
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            names.add(node.args[0].value)
    return names


def test_the_engine_modules_are_found():
    assert {path.stem for path in ENGINE_MODULES} >= {
        "__init__",
        "money",
        "cards",
        "rules",
        "bets",
        "odds",
        "games",
    }


@pytest.mark.parametrize("path", ENGINE_MODULES, ids=lambda p: p.name)
def test_engine_imports_no_io_rendering_or_cli_library(path):
    for name in imported_modules(path):
        top = name.split(".")[0]
        assert top not in FORBIDDEN, f"{path.name} imports {name}"


@pytest.mark.parametrize("path", ENGINE_MODULES, ids=lambda p: p.name)
def test_engine_imports_only_the_engine_from_reporting(path):
    for name in imported_modules(path):
        if name == "reporting" or name.startswith("reporting."):
            assert name.startswith("reporting.engine"), f"{path.name} imports {name}"


def test_import_scanner_sees_relative_and_dynamic_imports(tmp_path):
    # the scanner itself, on a module that breaks every rule
    package = tmp_path / "reporting" / "engine"
    package.mkdir(parents=True)
    sample = package / "bad.py"
    sample.write_text(
        "import typer\nfrom .. import store\nfrom ..logs import read\n"
        "from . import cards\n__import__('sqlite3')\n",
        encoding="utf-8",
    )
    names = imported_modules(sample, "reporting.engine.bad")
    assert names == {
        "typer",
        "reporting",
        "reporting.store",
        "reporting.logs",
        "reporting.engine",
        "reporting.engine.cards",
        "sqlite3",
    }


@pytest.mark.parametrize("path", ENGINE_MODULES, ids=lambda p: p.name)
def test_engine_never_calls_float_or_writes_float_literals(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id != "float", f"{path.name}:{node.lineno} calls float()"
        if isinstance(node, ast.Constant):
            assert not isinstance(node.value, float), f"{path.name}:{node.lineno} float literal"
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            # true division of two ints gives a float; the engine divides Fractions only
            operands = (node.left, node.right)
            assert not all(
                isinstance(o, ast.Constant) and isinstance(o.value, int) for o in operands
            ), f"{path.name}:{node.lineno} divides two int literals"


@pytest.mark.parametrize(
    "module", [money, cards, rules, bets, odds, games], ids=lambda m: m.__name__
)
def test_no_public_engine_function_is_annotated_to_return_float(module):
    for name, function in inspect.getmembers(module, inspect.isfunction):
        if function.__module__ != module.__name__:
            continue
        annotation = str(inspect.signature(function).return_annotation)
        assert "float" not in annotation, f"{module.__name__}.{name} returns {annotation}"


# --- the engine's numbers at run time ---------------------------------------------------------


@given(st.integers(min_value=0, max_value=10**12), st.integers(min_value=1, max_value=10**6))
def test_money_functions_return_ints_and_exact_decimals(numerator, denominator):
    amount = Fraction(numerator, denominator)
    for policy in money.RoundingPolicy:
        assert type(money.round_cents(amount, policy)) is int
    assert type(money.parse_amount(money.format_cents(numerator))) is int
    assert not isinstance(money.round_fraction(amount, 2), float)
    assert not isinstance(money.cents_to_decimal(numerator), float)


@pytest.mark.parametrize("decks", [1, 8])
def test_odds_are_fractions_never_floats(decks):
    catalogue = catalogue_bets().values()
    table = bets.PayTable.of(catalogue)
    for bet in catalogue:
        result = odds.bet_odds(bet, decks, table)
        for value in (result.win, result.push, result.lose, result.rtp, result.house_edge):
            assert type(value) is Fraction
    for value in odds.main_probabilities(decks).values():
        assert type(value) is Fraction


# --- the ladder of the whole package ------------------------------------------------------------

PACKAGE_DIR = Path(reporting.__file__).parent
#: Each top-level part of ``reporting`` and its rung: a module may import its own part and the
#: parts of lower rungs, never a part of its own rung or above. ``reporting`` itself (the
#: version) and the errors stand at the bottom beside the engine; files one rung up, on the
#: errors (its faults of the machine are InputErrors).
LADDER = {
    "reporting": 0,
    "engine": 0,
    "errors": 0,
    "files": 1,
    "records": 1,
    "config": 2,
    "ingest": 3,
    "store": 4,
    "sample": 4,  # beside the store: reads the formats' columns, used by the CLI and the bench
    "verify": 5,
    "figures": 6,
    "presentation": 7,
    "jobs": 8,
    "cli": 9,
    "launch": 10,  # the entry point: imports the command-line tool as it starts it
    "__main__": 11,
}
#: Third-party libraries of the command line and of rendering, and the parts allowed them.
RENDERING = {"jinja2", "weasyprint", "openpyxl", "babel", "markupsafe", "pyphen", "PIL"}
TERMINAL = {"typer", "click", "rich"}
ALLOWED_LIBRARIES = {
    # the configuration decodes a raster logo as the pages' printer will (Pillow, WeasyPrint's)
    "config": {"PIL"},
    "presentation": RENDERING,
    "cli": RENDERING | TERMINAL,
}
ALL_MODULES = sorted(path for path in PACKAGE_DIR.rglob("*.py") if "__pycache__" not in path.parts)


def part_of(name: str) -> str:
    """The top-level part of ``reporting`` a dotted module name belongs to."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else "reporting"


def test_every_part_of_the_package_stands_on_the_ladder():
    parts = {part_of(module_name(path)) for path in ALL_MODULES}
    assert parts == set(LADDER), "place a new package (or top-level module) on the LADDER"


@pytest.mark.parametrize("path", ALL_MODULES, ids=lambda p: module_name(p))
def test_each_module_imports_only_from_lower_rungs(path):
    own = part_of(module_name(path))
    for name in imported_modules(path):
        if name != "reporting" and not name.startswith("reporting."):
            continue
        other = part_of(name)
        if other == own:
            continue
        assert LADDER[other] < LADDER[own], f"{module_name(path)} ({own}) imports {name} ({other})"


@pytest.mark.parametrize("path", ALL_MODULES, ids=lambda p: module_name(p))
def test_rendering_and_terminal_libraries_stay_in_their_layers(path):
    own = part_of(module_name(path))
    allowed = ALLOWED_LIBRARIES.get(own, set())
    for name in imported_modules(path):
        top = name.split(".")[0]
        if top in RENDERING | TERMINAL:
            assert top in allowed, f"{module_name(path)} imports {name}"


@pytest.mark.parametrize(
    "folder",
    sorted(folder for folder in PACKAGE_DIR.iterdir() if (folder / "__init__.py").is_file()),
    ids=lambda folder: folder.name,
)
def test_each_package_says_its_role_in_a_docstring(folder):
    tree = ast.parse((folder / "__init__.py").read_text(encoding="utf-8"))
    docstring = ast.get_docstring(tree)
    assert docstring and len(docstring.split()) >= 8, f"{folder.name}/__init__.py: say its role"


def test_the_ladder_scanner_finds_an_upward_import(tmp_path):
    package = tmp_path / "reporting" / "store"
    package.mkdir(parents=True)
    sample = package / "bad.py"
    sample.write_text("from reporting.presentation.html import render_html\n", encoding="utf-8")
    (name,) = imported_modules(sample, "reporting.store.bad")
    assert LADDER[part_of(name)] > LADDER["store"]


def test_the_rule_sheet_model_loads_no_log_reader_store_or_sqlite():
    """Rendering a sheet (``rules`` without ``--db``) needs none of the ingest machinery."""
    script = (
        "import sys, reporting.presentation.rulesheet;"
        "print(' '.join(m for m in sys.modules if m == 'sqlite3'"
        " or m.startswith(('reporting.ingest', 'reporting.store'))))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout.split()
    assert loaded == []


#: Libraries of the store that rendering never touches: the figures it renders come in as
#: records, computed below it (``figures/``), so no SQL runs while a page or a sheet is drawn.
STORE_LIBRARIES = {"sqlite3", "sqlite_utils"}


@pytest.mark.parametrize(
    "path",
    [path for path in ALL_MODULES if part_of(module_name(path)) == "presentation"],
    ids=lambda p: module_name(p),
)
def test_presentation_imports_no_sqlite(path):
    imported = {name.split(".")[0] for name in imported_modules(path)}
    assert not imported & STORE_LIBRARIES, f"{module_name(path)} imports the store's library"
