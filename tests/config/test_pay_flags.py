"""Pay flags (``perfect_pair = "A"``): typed rows of the keys table, named nowhere else in the
configuration's code."""

from __future__ import annotations

import ast
import re
from fractions import Fraction
from pathlib import Path

import reporting.config
from reporting.config.keys import GAME_KEYS, PAY_FLAGS, json_schema
from reporting.config.pay_overrides import apply_pay_overrides
from reporting.engine.bets import PayTable

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
