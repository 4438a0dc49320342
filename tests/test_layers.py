"""Layers that only look down: the rules engine imports nothing from above it, and no float."""

from __future__ import annotations

import ast
import inspect
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import reporting.engine
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
    for bet in bets.BetType:
        result = odds.bet_odds(bet, decks, bets.PayTable())
        for value in (result.win, result.push, result.lose, result.rtp, result.house_edge):
            assert type(value) is Fraction
    for value in odds.main_probabilities(decks).values():
        assert type(value) is Fraction
