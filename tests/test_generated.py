"""The generated files of the repository are what their command writes now: each is written
again into a temporary folder by scripts/generate.py (what ``make generate`` runs) and
compared with the committed one, so a key, a bet, a message or a change of the sample
generator that leaves one out of date fails here, naming the command to run."""

from __future__ import annotations

import importlib.util
import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
RUN = "out of date: run `make generate` (scripts/generate.py) and commit the result"


def load_generate():
    spec = importlib.util.spec_from_file_location("generate", REPO / "scripts" / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


generate = load_generate()


def comparable_template(text: str) -> str:
    """messages.pot without its creation date, and its messages' locations without their line
    numbers: an edit that only moves a message to another line of the same file needs no new
    template (every branch would otherwise fight over the numbers)."""
    text = re.sub(r'^"POT-Creation-Date: .*"\n', "", text, flags=re.MULTILINE)
    return re.sub(
        r"^#: .*$",
        lambda line: re.sub(r":\d+\b", "", line.group()),
        text,
        flags=re.MULTILINE,
    )


def test_the_json_schemas_are_generated_from_their_tables(tmp_path):
    generate.write_schemas(tmp_path)
    for path in (generate.CONFIG_SCHEMA, generate.PROFILE_SCHEMA):
        assert (REPO / path).read_text(encoding="utf-8") == (tmp_path / path).read_text(
            encoding="utf-8"
        ), f"{path} is {RUN}"


@pytest.mark.slow
def test_the_sample_inbox_is_the_generator_s_month_byte_for_byte(tmp_path):
    generate.write_sample_inbox(tmp_path)
    path = generate.SAMPLE_INBOX
    assert (REPO / path).read_bytes() == (tmp_path / path).read_bytes(), f"{path} is {RUN}"


def test_the_catalogues_template_holds_the_sources_messages_where_they_are(tmp_path):
    generate.write_catalogue_template(tmp_path)
    path = generate.CATALOGUE_TEMPLATE
    committed, fresh = ((root / path).read_text(encoding="utf-8") for root in (REPO, tmp_path))
    assert comparable_template(committed) == comparable_template(fresh), f"{path} is {RUN}"


def test_a_message_moved_to_another_line_leaves_the_template_up_to_date_but_not_a_new_one():
    template = (REPO / generate.CATALOGUE_TEMPLATE).read_text(encoding="utf-8")
    moved = re.sub(r"(#: reporting/data/bets\.toml:)(\d+)", r"\g<1>9\2", template, count=1)
    assert moved != template
    assert comparable_template(moved) == comparable_template(template)
    reworded = template.replace('msgid "Player"\n', 'msgid "Punter"\n', 1)
    assert comparable_template(reworded) != comparable_template(template)


def test_the_currencies_are_cldr_s_as_babel_ships_it(tmp_path):
    generate.write_currencies(tmp_path)
    path = generate.CURRENCIES
    assert (REPO / path).read_bytes() == (tmp_path / path).read_bytes(), f"{path} is {RUN}"


def test_make_generate_runs_every_generator():
    made = subprocess.run(  # -n: print the commands, run none; the venv's stamp taken as made
        ["make", "-n", "-o", ".venv/.installed", "generate"],
        cwd=REPO,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    for name in generate.GENERATORS:
        assert f"scripts/generate.py {name}\n" in made
