"""``baccarat-report init``: the starter configuration, never written over a file."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from reporting.cli import app
from reporting.config.loader import load_config
from reporting.errors import InputError

runner = CliRunner()
SAMPLE_CONFIG = Path(__file__).resolve().parents[2] / "sample_data" / "operator.toml"


def test_init_writes_the_sample_with_its_comments(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["init"])
    assert result.exit_code == 0, result.output
    written = tmp_path / "operator.toml"
    assert written.read_bytes() == SAMPLE_CONFIG.read_bytes()
    assert "check --config operator.toml" in result.stdout
    assert set(load_config(written).games) == set(load_config(SAMPLE_CONFIG).games)


def test_init_never_writes_over_a_file_or_through_a_link(tmp_path):
    existing = tmp_path / "mine.toml"
    existing.write_text("# mine\n", encoding="utf-8")
    target = tmp_path / "target"
    link = tmp_path / "link.toml"
    link.symlink_to(target)  # dangling: opening it for writing would create the target
    for path in (existing, link, tmp_path):
        result = runner.invoke(app, ["init", str(path)])
        assert result.exit_code != 0
        assert str(path) in str(result.exception)
    assert existing.read_text(encoding="utf-8") == "# mine\n"
    assert not target.exists()


def test_init_given_a_folder_says_it_is_a_folder_and_names_a_file_in_it(tmp_path):
    """It said "already exists; not overwritten", as if a file were there."""
    result = runner.invoke(app, ["init", str(tmp_path)])
    assert result.exit_code != 0
    assert str(result.exception) == (
        f"{tmp_path}: is a folder; name a file such as {tmp_path / 'operator.toml'}"
    )
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "d").mkdir()
    (tmp_path / "link").symlink_to("d")
    result = runner.invoke(app, ["init", str(tmp_path / "link")])
    assert str(result.exception).startswith(f"{tmp_path / 'link'}: is a folder; name a file")


def test_init_into_a_missing_folder_is_one_clear_error(tmp_path):
    missing = tmp_path / "no" / "such"
    result = runner.invoke(app, ["init", str(missing / "operator.toml")])
    assert isinstance(result.exception, InputError)  # exit code 2, by the launcher
    assert str(result.exception) == (
        f"{missing / 'operator.toml'}: there is no folder {missing}; make it first, or name a"
        " file in a folder that exists"
    )


def test_init_given_a_folder_that_is_not_there_writes_no_file_of_its_name(tmp_path):
    """``init newdir/`` wrote a file named ``newdir``: the closing "/" was dropped."""
    result = runner.invoke(app, ["init", f"{tmp_path / 'newdir'}/"])
    assert isinstance(result.exception, InputError)
    assert str(result.exception) == (
        f"{tmp_path / 'newdir'}/: names a folder, and there is none; name a file such as"
        f" {tmp_path / 'newdir' / 'operator.toml'}"
    )
    assert list(tmp_path.iterdir()) == []
    result = runner.invoke(app, ["init", f"{tmp_path / 'newdir'}/."])
    assert str(result.exception).startswith(f"{tmp_path / 'newdir'}/.: names a folder, and")
    assert list(tmp_path.iterdir()) == []
    for blank in ("", " "):
        result = runner.invoke(app, ["init", blank])
        assert isinstance(result.exception, InputError)
        assert str(result.exception) == "PATH is blank: name a file"


def test_init_in_a_folder_that_is_a_file_says_what_stands_there(tmp_path):
    file = tmp_path / "notes.txt"
    file.write_text("mine", encoding="utf-8")
    result = runner.invoke(app, ["init", str(file / "operator.toml")])
    assert str(result.exception) == (
        f"{file / 'operator.toml'}: {file} is a regular file, not a folder; name a file in a folder"
    )
    result = runner.invoke(app, ["init", f"{file}/"])
    assert (
        str(result.exception)
        == f"{file}/: names a folder, and {file} is a regular file; name a file"
    )
    assert file.read_text(encoding="utf-8") == "mine"


def test_a_fresh_starter_file_says_how_to_settle_its_one_warning(tmp_path, monkeypatch):
    """Issue 23: the starter named ``baccarat-report --config FILE`` (the option is each
    command's) and never ``declared_rtp_reference``, so ``check`` on it exited 1 with no hint.
    Now the file shows the keys, commented, and ``check`` names the figure the bets can return
    (a certificate cannot make a figure above it true: citing one alone settles nothing);
    declaring that figure with its certificate makes the check clean."""
    monkeypatch.chdir(tmp_path)
    assert runner.invoke(app, ["init"]).exit_code == 0
    written = tmp_path / "operator.toml"
    text = written.read_text(encoding="utf-8")
    assert "baccarat-report --config" not in text
    (reference,) = [line for line in text.splitlines() if "declared_rtp_reference =" in line]
    (declared,) = [line for line in text.splitlines() if line.startswith("# declared_rtp =")]
    assert reference.startswith("# declared_rtp_reference = ")
    checked = runner.invoke(app, ["check", "--config", str(written)])
    assert checked.exit_code == 1  # the live Italian game's declared RTP: a warning
    hints = [
        line for line in checked.stderr.splitlines() if line.startswith("baccarat-report: hint:")
    ]
    assert len(hints) == 1 and "[games.live-baccarat-it]" in hints[0], checked.stderr
    # the best bet (banker, 98.9421%) rounded down: "more than 98.94%" would be untrue
    assert "no bet of live-baccarat-it returns what it declares" in hints[0]
    assert "declare at most 98.94%, the best bet's RTP rounded down" in hints[0]
    cited = text.replace(reference, reference[2:])
    written.write_text(cited, encoding="utf-8")
    assert runner.invoke(app, ["check", "--config", str(written)]).exit_code == 1
    written.write_text(cited.replace(declared, 'declared_rtp = "98.94"'), encoding="utf-8")
    settled = runner.invoke(app, ["check", "--config", str(written)])
    assert (settled.exit_code, settled.stderr) == (0, ""), settled.stderr
    assert (
        json.loads(runner.invoke(app, ["check", "--config", str(written), "--json"]).stdout)[
            "hints"
        ]
        == []
    )
