"""A fast ``--help`` and a fast ``odds``, held without timing anything: what the CLI imports to
show a help or count a game's odds.

``--help`` of the root and of any command loads :mod:`reporting.cli`, which imports every
command module. Each command imports the library it drives (the store, the readers, the
checks, the renderers) and the heavy third-party packages where it runs, not at the top of
its module. These tests run ``python -X importtime`` in a fresh process and fail on any heavy
module loaded, naming the chain of imports that pulled it in, so that a new top-level import
shows up here rather than as a slower start for every user.

``odds`` reads the configuration and counts: it needs no more than that (issue 25). typer
(0.2x) coerces every option through pydantic, whose import alone costs more than the counting;
the CLI reads plain values itself (:mod:`reporting.cli.parsing`).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

#: Packages that a help text never needs: storage, parsing, checking, rendering, serving.
HEAVY = (
    "sqlite3",
    "msgspec",
    "orjson",
    "jinja2",
    "babel",
    "openpyxl",
    "weasyprint",
    "pyarrow",
    "fsspec",
    "dask",
    "distributed",
    "datasette",
    "uvicorn",
    "sqlite_utils",
    "rich",
    # typer coerces the root's options through pydantic before a command runs: a command's
    # help is shown without them (reporting.cli.show_command_help).
    "pydantic",
    "reporting.config",
    "reporting.records",
    "reporting.ingest",
    "reporting.store",
    "reporting.sample",
    "reporting.verify",
    "reporting.figures",
    "reporting.presentation",
    "reporting.jobs",
    "reporting.cli.tables",
)

#: Light modules inside the packages above, needed by a help text: ``ingest --help`` lists the
#: built-in log profiles' names, ``rules --help`` the languages' codes (their packages'
#: ``__init__`` modules hold only docstrings; the table of languages imports the standard
#: library alone).
NEEDED = frozenset(
    {
        "reporting.ingest",
        "reporting.ingest.profiles",
        "reporting.ingest.profiles.builtin",
        "reporting.config",
        "reporting.config.languages",
    }
)


def import_tree(arguments: list[str], program: str = sys.executable) -> list[tuple[int, str]]:
    """``(depth, module)`` of every import of ``PROGRAM ARGUMENTS`` under ``-X importtime``
    (PYTHONPROFILEIMPORTTIME), in the order Python reports them: a module's line comes after
    the lines of the modules it imported."""
    result = subprocess.run(
        [program, *arguments],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPROFILEIMPORTTIME": "1"},
    )
    assert result.returncode == 0, result.stderr[-2000:]
    tree = []
    for line in result.stderr.splitlines():
        if not line.startswith("import time:") or line.endswith("imported package"):
            continue
        name = line.rsplit("|", 1)[1]
        stripped = name.lstrip(" ")
        tree.append(((len(name) - len(stripped) - 1) // 2, stripped))
    assert tree, "no -X importtime output"
    return tree


def chain(tree: list[tuple[int, str]], index: int) -> str:
    """``module <- its importer <- ...``: who pulled the module at ``index`` in."""
    depth, name = tree[index]
    names = [name]
    for later_depth, later in tree[index + 1 :]:
        if later_depth < depth:
            names.append(later)
            depth = later_depth
    return " <- ".join(names)


def heavy_imports(tree: list[tuple[int, str]], heavy_modules: tuple[str, ...] = HEAVY) -> list[str]:
    """The chain of every heavy module the process loaded where a light one imported it (the
    heavy module's own imports are not listed again)."""

    def heavy(name: str) -> bool:
        if name in NEEDED:
            return False
        return any(name == top or name.startswith(f"{top}.") for top in heavy_modules)

    found = []
    for index, (_, name) in enumerate(tree):
        if heavy(name):
            pulled_in = chain(tree, index)
            importer = pulled_in.split(" <- ")[1:2]
            if not importer or not heavy(importer[0]):
                found.append(pulled_in)
    return found


def test_importing_the_cli_loads_no_heavy_module():
    tree = import_tree(["-c", "import reporting.cli"])
    assert "typer" in {name for _, name in tree}
    assert heavy_imports(tree) == []


@pytest.mark.parametrize(
    "arguments",
    [["--help"], ["verify", "--help"], ["ingest", "-h"], ["rules", "--help"]],
    ids=" ".join,
)
def test_showing_help_loads_no_heavy_module(arguments):
    """The whole process of a help, run as a user runs it: the installed console script."""
    program = str(Path(sys.executable).with_name("baccarat-report"))
    assert heavy_imports(import_tree(arguments, program)) == []


#: What ``odds`` needs beside a help's modules: the configuration (msgspec checks the
#: regulators' table of the catalogue); its table, not its JSON document, needs rich.
ODDS_NEEDS = ("reporting.config", "msgspec")


@pytest.mark.parametrize("game", ["live-baccarat-it", "ez-baccarat-it"])
def test_odds_of_a_game_loads_no_heavy_module(game):
    """No pydantic (typer's coercion), no store, renderer or reader: the configuration, the
    engine and the counting."""
    config = Path(__file__).parents[2] / "sample_data" / "operator.toml"
    arguments = ["-m", "reporting", "odds", "--game", game, "--config", str(config), "--json"]
    heavy = tuple(name for name in HEAVY if name not in ODDS_NEEDS)
    assert heavy_imports(import_tree(arguments), heavy) == []


def test_odds_of_a_shoe_loads_no_heavy_module_but_its_table():
    """``--decks`` with the options given, the table printed: rich and the table's module."""
    arguments = ["-m", "reporting", "-q", "odds", "--decks", "6", "--pay", "tie=9"]
    heavy = tuple(
        name for name in HEAVY if name not in (*ODDS_NEEDS, "rich", "reporting.cli.tables")
    )
    assert heavy_imports(import_tree(arguments), heavy) == []


def test_the_chain_names_who_pulled_a_module_in(tmp_path):
    """The reader of the import tree, on a module written here that imports heavy ones."""
    (tmp_path / "probe_light.py").write_text("import reporting.errors\nimport sqlite3\n")
    (tmp_path / "probe.py").write_text("import probe_light\nimport reporting.store.schema\n")
    code = f"import sys; sys.path.insert(0, {str(tmp_path)!r}); import probe"
    assert heavy_imports(import_tree(["-c", code])) == [
        "sqlite3 <- probe_light <- probe",
        "reporting.store.schema <- probe",
    ]


def test_the_folding_table_is_still_importable_from_common():
    """It moved to reporting.cli.tables (rich is imported with it); the old name stays."""
    from reporting.cli import common, tables

    assert common.FoldingTable is tables.FoldingTable
    with pytest.raises(AttributeError, match="no attribute 'Table'"):
        common.Table  # noqa: B018


def test_the_rule_sheet_formats_spelled_for_help_are_the_renderers():
    from reporting.cli.rules import FORMATS
    from reporting.presentation.documents import FORMATS as RENDERED

    assert FORMATS == RENDERED
