"""The sample exports under ``sample_data/profiles/``: each is what its README's command
writes today, byte for byte, and small."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

PROFILES = Path(__file__).resolve().parents[2] / "sample_data" / "profiles"
SAMPLE_CONFIG = PROFILES.parent / "operator.toml"
FILES = (
    "replay-api/games-2026-10.json",
    "replay-api/games-2026-10.jsonl",
    "numeric-feed/page-2026-10.json",
    "flat-csv/bets-2026-10.csv",
)


def readme_commands() -> dict[str, list[str]]:
    """The README's commands, by the file each writes (relative to ``profiles/``)."""
    text = (PROFILES / "README.md").read_text(encoding="utf-8")
    commands = {}
    for line in re.findall(r"^    (baccarat-report sample .*)$", text, flags=re.MULTILINE):
        argv = shlex.split(line)[2:]
        out = argv[argv.index("--out") + 1]
        commands[out.removeprefix("sample_data/profiles/")] = argv
    return commands


def test_the_readme_regenerates_every_sample_and_only_those():
    assert sorted(readme_commands()) == sorted(FILES)
    assert sorted(str(path.relative_to(PROFILES)) for path in PROFILES.rglob("*.*")) == sorted(
        [*FILES, "README.md"]
    )


@pytest.mark.parametrize("name", FILES)
def test_each_sample_is_what_its_command_writes(tmp_path, name):
    from reporting.cli.sample import sample_command

    app = typer.Typer()
    app.command()(sample_command)
    argv = readme_commands()[name]
    out = tmp_path / Path(name).name
    argv[argv.index("--out") + 1] = str(out)
    result = CliRunner().invoke(app, [*argv, "--config", str(SAMPLE_CONFIG), "--json"])
    assert result.exit_code == 0, result.output
    sample = (PROFILES / name).read_bytes()
    assert out.read_bytes() == sample
    assert len(sample) < 64_000
