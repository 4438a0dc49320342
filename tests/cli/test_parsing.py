"""Option values read without pydantic (reporting.cli.parsing) are typer's own: the same value,
or the same error, for every option of every command."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer
from typer._coercion import build_runtime_param
from typer.testing import CliRunner

from reporting.cli import app
from reporting.cli.parsing import NOT_PLAIN, PlainValues, plain_value

ROOT = Path(__file__).parents[2]

#: Values a command line gives, by the type of the option.
SAMPLES = {
    str: ["live-baccarat-it", "", "è 1", "08"],
    int: ["0", "1", "8", "9", "08", "-1", "+3", " 4", "1_0", "x", "1.5", "65536", 0, 3],
    Path: [str(ROOT / "sample_data" / "operator.toml"), str(ROOT), "no/such/file", "-", ""],
    bool: [True, False, "yes"],
    list[str]: [("tie=9", "banker=1"), ()],
}


def options() -> list[tuple[typer.core.TyperCommand, typer.core.TyperOption]]:
    """Every typer option of the root and of each command, with its command."""
    group = typer.main.get_command(app)
    commands = [group, *group.commands.values()]
    return [
        (command, param)
        for command in commands
        for param in command.get_params(typer.Context(command))
        if hasattr(param, "type_descriptor")
    ]


def outcome(coerce, value, param, ctx):
    try:
        return "value", coerce(value, param=param, ctx=ctx)
    except typer.BadParameter as error:
        return "error", error.format_message()


@pytest.mark.parametrize(
    ("command", "param"), options(), ids=lambda x: getattr(x, "name", None) or "root"
)
def test_a_plain_value_is_typers_own(command, param):
    descriptor = param.type_descriptor
    ctx = typer.Context(command)
    samples = [None, *SAMPLES.get(descriptor.annotation, [])]
    typers = build_runtime_param(descriptor)
    for value in samples:
        expected = outcome(typers.coerce, value, param, ctx)
        assert outcome(PlainValues(descriptor).coerce, value, param, ctx) == expected, value


def test_odds_options_are_read_plainly_when_valid():
    """The values of ``odds --game G --decks 8 --pay tie=9 --config FILE`` need no pydantic."""
    group = typer.main.get_command(app)
    command = group.commands["odds"]
    ctx = typer.Context(command)
    given = {
        "game": "live-baccarat-it",
        "decks": "8",
        "pay": ("tie=9",),
        "config": str(ROOT / "sample_data" / "operator.toml"),
    }
    for param in command.params:
        if param.name in given:
            read = plain_value(given[param.name], param.type_descriptor, param, ctx)
            assert read is not NOT_PLAIN, param.name
    decks = next(param for param in command.params if param.name == "decks")
    assert plain_value("9", decks.type_descriptor, decks, ctx) is NOT_PLAIN  # typer says why


def _single_value_options() -> list[tuple[typer.core.TyperCommand, typer.core.TyperOption]]:
    """Every option of one value (not a flag, not a count, not given several times)."""
    return [
        (command, param)
        for command, param in options()
        if param.param_type_name == "option"
        and not (param.multiple or param.count or param.is_flag)
    ]


@pytest.mark.parametrize(
    ("command", "param"),
    _single_value_options(),
    ids=lambda x: getattr(x, "name", None) or "root",
)
def test_an_option_of_one_value_given_twice_is_refused_in_one_line(
    command, param, tmp_path, monkeypatch
):
    """click keeps the last value: ``--game a --game b`` ran b alone, without a word."""
    monkeypatch.chdir(tmp_path)  # a command that took the line would write here
    twice = [param.opts[0], "x", param.opts[-1], "y"]
    root = isinstance(command, typer.core.TyperGroup)
    args = [*twice, "odds", "--decks", "1"] if root else [command.name, *twice]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    said = f"{param.opts[0]} is given more than once ('x' and 'y'): give it once"
    assert said in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_options_that_take_several_values_or_none_may_be_repeated():
    result = CliRunner().invoke(
        app,
        [
            "-v",
            "-v",
            "odds",
            "--decks",
            "1",
            "--pay",
            "tie=9",
            "--pay",
            "tie=9",
            "--json",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output


def _path_params() -> list[tuple[typer.core.TyperCommand, typer.core.TyperOption]]:
    return [
        (command, param)
        for command, param in options()
        if param.type_descriptor.annotation in (Path, list[Path])
    ]


@pytest.mark.parametrize(
    ("command", "param"), _path_params(), ids=lambda x: getattr(x, "name", None) or "root"
)
def test_an_empty_path_is_refused_in_one_line_not_read_as_the_working_folder(
    command, param, tmp_path, monkeypatch
):
    """``--out ''`` wrote the month's pages into the working folder, ``ingest ''`` read it as
    an inbox, and ``--db ''`` was "a directory"."""
    monkeypatch.chdir(tmp_path)
    given = [param.opts[0], ""] if param.param_type_name == "option" else [""]
    root = isinstance(command, typer.core.TyperGroup)
    args = [*given, "odds", "--decks", "1"] if root else [command.name, *given]
    result = CliRunner().invoke(app, args)
    name = param.opts[0] if param.param_type_name == "option" else param.metavar
    assert result.exit_code == 2, result.output
    assert f"baccarat-report: {name} is blank: name a " in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_help_asked_for_is_given_whatever_else_the_line_holds():
    """``odds --help --decks 1 --decks 2`` said the repeated option instead of the help."""
    for args in (["--help", "--decks", "1", "--decks", "2"], ["--decks", "", "-h"]):
        result = CliRunner().invoke(app, ["odds", *args])
        assert result.exit_code == 0 and result.output.startswith("Usage: "), args


def test_a_blank_path_and_both_spellings_of_a_repeated_option_are_said(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # refused, nothing is written; were it not, nothing lands here
    runner = CliRunner()
    blank = runner.invoke(app, ["rules", "--out", "  "])
    assert blank.exit_code == 2 and "--out is blank: name a folder" in blank.output
    twice = runner.invoke(app, ["odds", "--game", "a", "--game=b"])
    assert "--game is given more than once ('a' and 'b'): give it once" in twice.output


@pytest.mark.parametrize(
    ("variable", "command"),
    [("BACCARAT_REPORT_CONFIG", ["check"]), ("BACCARAT_REPORT_DB", ["verify"])],
)
def test_an_option_s_environment_variable_set_to_nothing_is_refused(variable, command):
    """Click takes it as unset: ``BACCARAT_REPORT_CONFIG=`` (a cron line whose variable was
    empty) read the shipped sample configuration, ``BACCARAT_REPORT_DB=`` made
    ./baccarat-report.sqlite. Given on the command line, the option is read as given."""
    option = {"BACCARAT_REPORT_CONFIG": "--config", "BACCARAT_REPORT_DB": "--db"}[variable]
    result = CliRunner().invoke(app, command, env={variable: ""})
    assert result.exit_code == 2
    assert result.output.startswith(
        f"baccarat-report: {variable} is set, to nothing, for {option}: set it to a file, or"
        " unset it"
    )
    given = CliRunner().invoke(app, [*command, option, "/nonexistent/x"], env={variable: ""})
    assert "is set, to nothing" not in given.output


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["ingest", "--profile", "", "x.jsonl"], "--profile is blank: name a built-in log profile"),
        (["check", "--profile", " "], "--profile is blank: name a built-in log profile"),
        (["verify", "--logs", ""], "--logs is blank: name a folder or a URL"),
        # check takes a folder at --config and a file at --inbox, to report what stands there
        (["check", "--config", " "], "--config is blank: name a file"),
        (["check", "--inbox", ""], "--inbox is blank: name a folder"),
    ],
)
def test_a_blank_profile_or_logs_place_is_refused_as_a_blank_path_is(
    args, said, tmp_path, monkeypatch
):
    """``ingest --profile ''`` looked for a profile at the working folder, and said it was a
    folder; ``--logs ''`` sent the workers to it."""
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and f"baccarat-report: {said}" in result.output
