"""Pay flags (``perfect_pair = "A"``): typed rows of the keys table, named nowhere else in the
configuration's code."""

from __future__ import annotations

import ast
import re
from fractions import Fraction
from pathlib import Path

import pytest

import reporting.config
from reporting.config.keys import GAME_KEYS, PAY_FLAGS, json_schema
from reporting.config.loader import ConfigError, load_config
from reporting.config.pay_overrides import apply_pay_overrides
from reporting.engine.bets import PayTable
from reporting.errors import InputError

CONFIG = Path(reporting.config.__file__).parent
#: Every word that names a flag or a pay key it ties.
FLAG_WORDS = {
    word for name, flag in PAY_FLAGS.items() for word in (name, flag.leader, flag.follower)
}


def _names_in(path: Path) -> set[str]:
    """The flag words a module's code names: in its strings (docstrings aside, which may show
    an example) and in its identifiers (``perfect_pair_variant`` names one too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found: set[str] = set()
    for node in ast.walk(tree):
        is_string = isinstance(node, ast.Constant) and isinstance(node.value, str)
        if is_string and id(node) not in docstrings:
            found |= FLAG_WORDS & set(re.findall(r"\w+", node.value))
        identifier = getattr(node, "id", None) or getattr(node, "attr", None)
        identifier = identifier or getattr(node, "arg", None) or getattr(node, "name", None)
        if isinstance(identifier, str):
            found |= {word for word in FLAG_WORDS if word in identifier}
    return found


def test_no_config_module_but_the_keys_table_names_a_pay_flag():
    named = {
        path.name: sorted(_names_in(path))
        for path in sorted(CONFIG.glob("*.py"))
        if path.name != "keys.py" and _names_in(path)
    }
    assert named == {}


def test_the_scan_sees_a_flag_named_in_code(tmp_path):
    module = tmp_path / "special.py"
    word = next(iter(PAY_FLAGS))
    module.write_text(f'"""About {word}."""\nif key == "{word}":\n    pass\n', encoding="utf-8")
    assert _names_in(module) == {word}


def test_each_flag_is_a_game_key_described_in_the_schema_with_its_values():
    game = json_schema()["properties"]["games"]["additionalProperties"]["properties"]
    for name, flag in PAY_FLAGS.items():
        assert GAME_KEYS[name] is flag
        assert game[name] == {"type": "string", "enum": list(flag.kind.known())} | {
            "description": flag.help
        }
        assert flag.tied in flag.kind.known() and len(flag.kind.known()) == 2


def test_a_flag_reads_any_case_and_refuses_other_words():
    flag = PAY_FLAGS["perfect_pair"]
    assert (flag.parse(" b "), flag.parse("A"), flag.parse("C")) == ("B", "A", None)


def test_the_perfect_pair_flag_ties_both_hands_to_one_or_pays_200():
    flag = PAY_FLAGS["perfect_pair"]
    assert flag.value_of({"perfect_pair_one": 25, "perfect_pair_both": 25}) == "A"
    assert flag.value_of({"perfect_pair_one": 25, "perfect_pair_both": 200}) == "B"
    pays: dict[str, object] = {"perfect_pair_one": Fraction(30)}
    flag.choose(pays, "A")
    assert pays["perfect_pair_both"] == 30
    flag.choose(pays, "B")
    assert pays["perfect_pair_both"] == 200


def test_pay_overrides_read_the_flag_rows():
    from reporting.config.bets import catalogue_bets

    table = PayTable.of([catalogue_bets()["perfect_pair"]])
    b = apply_pay_overrides(table, ["perfect_pair=b", "perfect_pair_one=30"])
    assert (b.odds("perfect_pair_one"), b.odds("perfect_pair_both")) == (30, 200)
    a = apply_pay_overrides(b, ["perfect_pair=A"])
    assert a.odds("perfect_pair_both") == 30


def _game(tmp_path: Path, keys: str, tables: str = "") -> Path:
    path = tmp_path / "operator.toml"
    path.write_text(f"{tables}\n[games.live-baccarat-it]\n{keys}\n", encoding="utf-8")
    return path


def _problems(path: Path) -> list[str]:
    with pytest.raises(ConfigError) as error:
        load_config(path)
    return error.value.problems


def test_a_flag_and_the_game_s_own_pay_of_its_follower_saying_otherwise_is_a_problem_there(
    tmp_path,
):
    tied = _game(tmp_path, 'perfect_pair = "A"\npay = { perfect_pair_both = "100" }')
    assert _problems(tied) == [
        f'{tied}:4: games.live-baccarat-it.pay.perfect_pair_both: perfect_pair = "A" pays'
        " perfect_pair_both as perfect_pair_one (25), not 100: remove one of the two"
    ]
    untied = _game(
        tmp_path, 'perfect_pair = "B"\n[games.live-baccarat-it.pay]\nperfect_pair_both = "25"'
    )
    assert _problems(untied) == [
        f'{untied}:5: games.live-baccarat-it.pay.perfect_pair_both: perfect_pair = "B" pays'
        " perfect_pair_both apart from perfect_pair_one (25), not as it: remove one of the two"
    ]


def test_untied_the_follower_keeps_the_pay_the_game_or_its_table_gives_it(tmp_path):
    own = _game(tmp_path, 'perfect_pair = "B"\npay = { perfect_pair_both = "150" }')
    assert load_config(own).game("live-baccarat-it").pay_table.odds("perfect_pair_both") == 150
    table = _game(
        tmp_path,
        'perfect_pair = "B"\npay_table = "mine"',
        '[pay_tables.mine]\nperfect_pair_both = "150"',
    )
    assert load_config(table).game("live-baccarat-it").pay_table.odds("perfect_pair_both") == 150
    tied_table = _game(
        tmp_path,
        'perfect_pair = "B"\npay_table = "mine"',
        '[pay_tables.mine]\nperfect_pair_both = "25"',
    )
    pays = load_config(tied_table).game("live-baccarat-it").pay_table
    assert pays.odds("perfect_pair_both") == 200 and pays.perfect_pair_variant == "B"
    agreeing = _game(tmp_path, 'perfect_pair = "A"\npay = { perfect_pair_both = "25" }')
    assert load_config(agreeing).game("live-baccarat-it").pay_table.perfect_pair_variant == "A"


def _pair_table() -> PayTable:
    from reporting.config.bets import catalogue_bets

    return PayTable.of([catalogue_bets()["perfect_pair"], catalogue_bets()["tie"]])


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        (
            ["perfect_pair_both=100", "perfect_pair=A"],
            "--perfect-pair a pays perfect_pair_both as perfect_pair_one (25), not 100 (--pay"
            " 'perfect_pair_both=100'): give one of the two",
        ),
        (
            ["perfect_pair=B", "perfect_pair_both=25"],
            "--pay 'perfect_pair=B' pays perfect_pair_both apart from perfect_pair_one (25),"
            " not as it (--pay 'perfect_pair_both=25'): give one of the two",
        ),
        (["tie=8", "tie=9"], "--pay 'tie=8' and --pay 'tie=9': give tie once"),
        (
            ["perfect_pair=B", "perfect_pair=A"],
            "--pay 'perfect_pair=B' and --perfect-pair a: give perfect_pair once",
        ),
    ],
)
def test_overrides_that_say_otherwise_than_each_other_are_refused(overrides, message):
    """The last of two was taken without a word: ``--perfect-pair A`` beside ``--pay
    perfect_pair_both=100`` printed pair B. Each override is named as it was given, by its
    place (a ``--pay`` written as the option's override is still a ``--pay``)."""
    options = (
        {overrides.index("perfect_pair=A"): "--perfect-pair a"}
        if "perfect_pair=A" in overrides
        else {}
    )
    with pytest.raises(InputError) as error:
        apply_pay_overrides(_pair_table(), overrides, options)
    assert str(error.value) == message


def test_an_override_is_named_by_its_place_not_by_its_text():
    """A ``--pay perfect_pair=A`` was named ``--perfect-pair a`` where both were given."""
    from typer.testing import CliRunner

    from reporting.cli import app

    args = ["--pay", "perfect_pair=A", "--pay", "perfect_pair=B", "--perfect-pair", "a"]
    result = CliRunner().invoke(app, ["odds", "--game", "live-baccarat-it", *args])
    assert str(result.exception) == (
        "--pay 'perfect_pair=A' and --pay 'perfect_pair=B': give perfect_pair once"
    )


def test_a_flag_of_a_bet_the_table_does_not_pay_is_refused():
    """``odds --game live-baccarat-gr --pay perfect_pair=A`` was taken without a word."""
    from reporting.config.bets import catalogue_bets

    with pytest.raises(InputError) as error:
        apply_pay_overrides(PayTable.of([catalogue_bets()["tie"]]), ["perfect_pair=A"])
    assert str(error.value) == (
        "--pay 'perfect_pair=A': perfect_pair chooses how perfect_pair_one pays, the pay of no"
        " bet counted here (their pays: tie)"
    )


def test_a_flag_of_a_bet_the_game_does_not_offer_is_said_as_that_alone(tmp_path):
    """The flag's pay and the game's own were called two that say otherwise, and removing
    one left the other's problem."""
    path = tmp_path / "operator.toml"
    path.write_text(
        '[games.live-baccarat-gr]\nperfect_pair = "A"\npay = { perfect_pair_both = "100" }\n',
        encoding="utf-8",
    )
    problems = _problems(path)
    assert len(problems) == 2, problems
    assert all("the pay of no bet this game offers" in problem for problem in problems)


def test_overrides_that_agree_are_taken():
    table = apply_pay_overrides(
        _pair_table(), ["tie=9", "tie=9/1", "perfect_pair=B", "perfect_pair_both=150"]
    )
    assert (table.odds("tie"), table.odds("perfect_pair_both")) == (9, 150)
    assert (
        apply_pay_overrides(_pair_table(), ["perfect_pair=a", "perfect_pair=A"]).odds(
            "perfect_pair_both"
        )
        == 25
    )
