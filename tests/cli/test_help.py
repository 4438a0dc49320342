"""The ``--help`` of the root and of every command, word for word, against golden files.

Help is what a person reads first, and what the fast start-up of the CLI (its commands import
only what they use) must never change. Each text is held in ``tests/cli/golden/help/`` as the
installed console script prints it, in a fresh process, on an 80-column terminal. Regenerate on
purpose only (say after adding an option): ``UPDATE_GOLDEN=1 pytest tests/cli/test_help.py``,
then read the diff before committing.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from reporting.cli import app

GOLDEN = Path(__file__).resolve().parent / "golden" / "help"

#: The root (no command) and every command, by name.
COMMANDS = ("", *(command.name for command in app.registered_commands))


def _golden(command: str) -> Path:
    return GOLDEN / f"{command or 'root'}.txt"


def _help(command: str, option: str) -> subprocess.CompletedProcess:
    """``baccarat-report [COMMAND] OPTION`` run as a user runs it: the console script beside
    this Python, in a new process, on a terminal 80 columns wide (click reads COLUMNS)."""
    program = Path(sys.executable).with_name("baccarat-report")
    arguments = [command, option] if command else [option]
    return subprocess.run(
        [str(program), *arguments],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        env={**os.environ, "COLUMNS": "80"},
    )


def test_every_command_has_a_golden_help_and_no_golden_is_left_over():
    assert {path.name for path in GOLDEN.glob("*.txt")} == {_golden(c).name for c in COMMANDS}
    assert {"verify", "monthly", "ingest"} <= set(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS, ids=lambda name: name or "root")
def test_help_matches_the_golden_text(command):
    result = _help(command, "--help")
    assert (result.returncode, result.stderr) == (0, "")
    golden = _golden(command)
    if os.environ.get("UPDATE_GOLDEN") == "1":
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(result.stdout, encoding="utf-8")
    assert golden.is_file(), f"{golden} is missing: run with UPDATE_GOLDEN=1 to create it"
    assert result.stdout == golden.read_text(encoding="utf-8"), (
        f"the help of {command or 'the root'} differs from {golden};"
        " if the change is intended, run UPDATE_GOLDEN=1"
    )


def test_short_help_of_verify_in_a_fresh_process_is_the_same_text():
    result = _help("verify", "-h")
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == _golden("verify").read_text(encoding="utf-8")


@pytest.mark.parametrize("command", ["verify", "ingest"])
def test_python_m_reporting_prints_the_same_help_under_its_name(command):
    """``python -m reporting COMMAND --help`` takes typer's usual way (the root's options
    parsed, then the command's), the installed script a shorter one: the same text."""
    result = subprocess.run(
        [sys.executable, "-m", "reporting", command, "--help"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        env={**os.environ, "COLUMNS": "80"},
    )
    assert (result.returncode, result.stderr) == (0, "")
    golden = _golden(command).read_text(encoding="utf-8")
    assert result.stdout.startswith(f"Usage: python -m reporting {command} [OPTIONS]")
    rest = golden.split("\n", 1)[1]
    assert result.stdout.split("\n", 1)[1] == rest


@pytest.mark.parametrize("command", COMMANDS, ids=lambda name: name or "root")
def test_short_and_long_help_are_the_same_text_in_process(command):
    """Through typer's CliRunner (as the other CLI tests call the app, wrapped at 80): ``-h``
    and ``--help`` print the same, exit 0, and carry the golden's first line (its usage)."""
    runner = CliRunner()
    arguments = [command] if command else []
    long, short = (runner.invoke(app, [*arguments, option]) for option in ("--help", "-h"))
    assert (long.exit_code, short.exit_code) == (0, 0)
    assert long.stdout == short.stdout
    usage = _golden(command).read_text(encoding="utf-8").splitlines()[0]
    assert long.stdout.splitlines()[0] == usage


@pytest.mark.parametrize("command", COMMANDS, ids=lambda name: name or "root")
def test_help_names_arguments_and_values_as_a_person_writes_them(command):
    """Issue 23: ``ingest [OPTIONS] {paths}...``, ``paths... <list[Path]>`` and ``--wait <float
    range>``: typer's placeholders, where a reader expects ``PATH...`` and ``SECONDS``."""
    text = _help(command, "--help").stdout
    for placeholder in ("{", "<list[", " range>", "<float", "<int", "<str>"):
        assert placeholder not in text, (command, placeholder)
    usage = text.splitlines()[0]
    if command == "ingest":
        assert usage.endswith("ingest [OPTIONS] PATH...")
    if command == "monthly":
        assert "--wait SECONDS" in text
