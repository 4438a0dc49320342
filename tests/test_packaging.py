"""The tool installed from its wheel, not only from a checkout: every folder of the package is
shipped, and the rule sheets render from the templates inside the installed package."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def pyproject() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def folders_as_packages(root: Path, prefix: str, pattern: str = "*") -> set[str]:
    """The dotted names of ``root`` and of each folder under it that holds files matching
    ``pattern``."""
    names = {prefix}
    for folder in root.rglob("*"):
        holds_files = folder.is_dir() and any(
            child.is_file() and child.match(pattern) for child in folder.iterdir()
        )
        if holds_files and folder.name != "__pycache__":
            names.add(".".join((prefix, *folder.relative_to(root).parts)))
    return names


def test_every_folder_of_code_and_templates_is_listed_for_setuptools():
    """A folder missing from the list would be missing from the wheel (and setuptools only
    warns): every folder of Python code, and each folder of reporting/templates/. Each at its
    own path under the project's root, none mapped elsewhere (see the editable install's
    test below)."""
    settings = pyproject()["tool"]["setuptools"]
    assert settings["package-dir"] == {"": "."}
    templates = REPO / "reporting" / "templates"
    expected = folders_as_packages(REPO / "reporting", "reporting", "*.py") | folders_as_packages(
        templates, "reporting.templates"
    )
    assert set(settings["packages"]) == expected


def test_every_data_file_and_catalogue_is_shipped_by_a_glob():
    """The catalogue, regulators and translations ship by package-data globs: a new
    language's catalogue needs no edit of pyproject.toml."""
    globs = pyproject()["tool"]["setuptools"]["package-data"]["reporting"]
    package = REPO / "reporting"
    for folder in ("data", "locale"):
        for path in (package / folder).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                relative = path.relative_to(package)
                assert any(relative.match(glob) for glob in globs), f"{relative} is not shipped"


# What setuptools prints when a folder of data looks like a package it was not told about:
# harmless for the wheel, but about 40 lines each on a newcomer's first `make demo`.
UNLISTED_PACKAGE_WARNING = "is absent from the `packages` configuration"


def copy_of_the_sources(destination: Path) -> Path:
    """A copy of what the wheel is built from (a build writes beside its sources)."""
    shutil.copytree(
        REPO / "reporting", destination / "reporting", ignore=shutil.ignore_patterns("__pycache__")
    )
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, destination / name)
    return destination


PIP = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]


@pytest.fixture(scope="module")
def built_wheel(tmp_path_factory) -> tuple[Path, Path, str]:
    """The sources' copy, the wheel built from it, and everything the build printed (verbose:
    setuptools' own warnings are shown)."""
    root = tmp_path_factory.mktemp("wheel")
    source, wheels = copy_of_the_sources(root / "source"), root / "wheels"
    build = subprocess.run(
        [*PIP, "wheel", "--verbose", "--no-deps", "--no-build-isolation"]
        + ["--wheel-dir", str(wheels), str(source)],
        check=True,
        capture_output=True,
        text=True,
        cwd=root,
    )
    (wheel,) = wheels.glob("baccarat_report-*.whl")
    return source, wheel, build.stdout + build.stderr


@pytest.mark.slow
def test_the_wheel_ships_every_file_of_the_package_and_templates_and_nothing_else(built_wheel):
    """Each file of reporting/ (code, data, catalogues, templates), at the same path, plus the
    wheel's own metadata."""
    source, wheel, _ = built_wheel
    package = {path for path in (source / "reporting").rglob("*") if path.is_file()}
    expected = {path.relative_to(source).as_posix() for path in package}
    assert any(name.startswith("reporting/templates/rules/") for name in expected)
    with zipfile.ZipFile(wheel) as archive:
        shipped = set(archive.namelist())
    metadata = {name for name in shipped if name.startswith("baccarat_report-0.1.0.dist-info/")}
    assert shipped - metadata == expected
    assert {name.rsplit("/", 1)[1] for name in metadata} == {
        "METADATA",
        "RECORD",
        "WHEEL",
        "entry_points.txt",
        "top_level.txt",
    }


@pytest.mark.slow
def test_building_the_wheel_prints_no_setuptools_warning_of_an_unlisted_package(built_wheel):
    _, _, printed = built_wheel
    assert "running build_py" in printed  # setuptools' own output is there
    assert UNLISTED_PACKAGE_WARNING not in printed


@pytest.fixture(scope="module")
def editable_build(tmp_path_factory) -> str:
    """What `make demo` runs (`pip install -e`), through the same build backend hook, without
    installing anything: everything the build printed."""
    root = tmp_path_factory.mktemp("editable")
    source = copy_of_the_sources(root / "source")
    build = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from setuptools import build_meta as backend;"
            " backend.build_editable(sys.argv[1])",
            str(root / "wheels"),
        ],
        check=True,
        capture_output=True,
        text=True,
        cwd=source,
    )
    return build.stdout + build.stderr


@pytest.mark.slow
def test_an_editable_install_prints_no_setuptools_warning_of_an_unlisted_package(editable_build):
    assert UNLISTED_PACKAGE_WARNING not in editable_build


# A warning as Python prints it (`path:line: Category: text`): setuptools' own
# (SetuptoolsWarning, InformationOnly...), which pip shows as a BuildBackendWarning even with
# --quiet.
PRINTED_WARNING = re.compile(r": (\w*Warning|InformationOnly): ")


@pytest.mark.slow
def test_an_editable_install_prints_no_warning_at_all(editable_build):
    """setuptools warns of an editable install ("Editable installation... folders in your
    working directory with the same name as your package") when the layout is not simple: a
    package mapped to another folder (the top-level templates/ folder once was, as
    reporting.templates) makes it install an import finder of its own instead of a path
    entry. Every package sits at its own path in reporting/, so `make demo` prints nothing of
    the build."""
    assert PRINTED_WARNING.findall(editable_build) == [], editable_build


@pytest.mark.slow
def test_an_installed_wheel_renders_rule_sheets_from_its_own_templates(built_wheel, tmp_path):
    _, wheel, _ = built_wheel
    site, out = tmp_path / "site", tmp_path / "out"
    subprocess.run(
        [*PIP, "install", "--no-deps", "--target", str(site), str(wheel)],
        check=True,
        capture_output=True,
    )
    environment = {**os.environ, "PYTHONPATH": str(site)}
    where = subprocess.run(
        [
            sys.executable,
            "-c",
            "import reporting.presentation.i18n as i; print(i.__file__, i.TEMPLATE_DIR)",
        ],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,  # not the checkout
        env=environment,
    ).stdout.split()
    assert [Path(path).is_relative_to(site) for path in where] == [True, True]

    rendered = subprocess.run(
        [sys.executable, "-m", "reporting", "rules", "--game", "live-baccarat-it"]
        + ["--lang", "it", "--format", "html", "--as-of", "2026-11-05", "--out", str(out)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=environment,
    )
    assert rendered.returncode == 1, rendered.stderr  # rendered; a draft: no round logs
    page = (out / "live-baccarat-it.it.html").read_text(encoding="utf-8")
    assert 'lang="it"' in page
    assert "98,94" in page  # the engine's Banker RTP in Italian number format


def test_openpyxl_is_held_to_the_minor_version_whose_private_style_array_we_copy():
    """The audit workbook gives each new cell a prebuilt style by copying openpyxl's style
    array (``cell._style``, private). The public attributes (``cell.font = ...`` and so on)
    give the same bytes, but each assignment hashes the style object again: 25 to 30 times
    slower per cell (issue 23, measured: 0.5 s against 11 to 15 s for 200,000 cells). So the
    dependency stops below the next minor version, and this checks that the private array is
    still where the code reads it."""
    from openpyxl import Workbook, __version__
    from openpyxl.cell.cell import Cell
    from openpyxl.styles.cell_style import StyleArray

    (requirement,) = [
        entry for entry in pyproject()["project"]["dependencies"] if entry.startswith("openpyxl")
    ]
    assert requirement == "openpyxl>=3.1,<3.2"
    assert __version__.startswith("3.1.")
    sheet = Workbook(write_only=True).create_sheet("styles")
    assert isinstance(Cell(sheet, row=1, column=1, style_array=StyleArray())._style, StyleArray)


#: Where the repository keeps documents and logs of the tool's own making on purpose: the
#: sample month and a provider's sample export, and the golden page the layout is held to.
#: Anything else of these kinds was written by a run and committed by mistake (39 rule
#: sheets once landed in a folder named "  ").
KEPT_OUTPUTS = ("sample_data/", "tests/presentation/golden/")
OUTPUT_SUFFIXES = (".pdf", ".xlsx", ".html", ".sqlite", ".parquet", ".jsonl", ".gz")


def test_the_repository_holds_no_document_or_log_a_run_wrote():
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True)
    stray = [
        name
        for name in listed.stdout.decode("utf-8", "surrogateescape").split("\0")
        if name.endswith(OUTPUT_SUFFIXES) and not name.startswith(KEPT_OUTPUTS)
    ]
    assert stray == []
