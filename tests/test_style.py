"""Size held down by tests, not by reading: ruff's complexity rule over the package, no
function longer than 60 lines without a comment above it saying why, and no module longer than
700 lines."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from reporting.ingest.profiles.json_stream import POSSESSIVE_PROBE

REPOSITORY = Path(__file__).resolve().parent.parent
PACKAGE = REPOSITORY / "reporting"
MAX_LINES = 60
#: The longest a module of the package may be: past it, split it by what its parts do.
MAX_MODULE_LINES = 700
#: A function may be longer when the comment right above its ``def`` starts with this.
LONG_ON_PURPOSE = "# Long on purpose:"


def test_ruff_passes_with_the_complexity_rule():
    """pyproject.toml selects C901 with max-complexity 12; this runs the whole lint."""
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--quiet", "reporting", "tests", "scripts"],
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def long_functions(path: Path, root: Path = REPOSITORY) -> list[str]:
    """``module:line name (N lines)`` of each function over the limit without a reason."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found = []
    for node in ast.walk(ast.parse("\n".join(lines), filename=str(path))):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        length = node.end_lineno - node.lineno + 1
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        above = lines[first - 2].strip() if first >= 2 else ""
        if length > MAX_LINES and not above.startswith(LONG_ON_PURPOSE):
            found.append(f"{path.relative_to(root)}:{node.lineno} {node.name} ({length} lines)")
    return found


@pytest.mark.parametrize(
    "path",
    sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts),
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_no_function_is_longer_than_60_lines_without_saying_why(path):
    assert long_functions(path) == []


def test_the_length_check_sees_a_long_function(tmp_path):
    body = "\n".join(f"    x = {n}" for n in range(MAX_LINES))
    module = tmp_path / "probe.py"
    module.write_text(f"def long():\n{body}\n\n\n{LONG_ON_PURPOSE} a table\ndef also():\n{body}\n")
    assert [entry.split()[1] for entry in long_functions(module, tmp_path)] == ["long"]


def long_modules(root: Path) -> list[str]:
    """``module (N lines)`` of each module of ``root`` over :data:`MAX_MODULE_LINES`."""
    found = []
    for path in sorted(root.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        length = len(path.read_text(encoding="utf-8").splitlines())
        if length > MAX_MODULE_LINES:
            found.append(f"{path.relative_to(root)} ({length} lines)")
    return found


def test_no_module_is_longer_than_700_lines():
    assert long_modules(PACKAGE) == []


def test_the_module_length_check_sees_a_long_module(tmp_path):
    (tmp_path / "short.py").write_text("x = 1\n" * MAX_MODULE_LINES)
    (tmp_path / "long.py").write_text("x = 1\n" * (MAX_MODULE_LINES + 1))
    assert long_modules(tmp_path) == [f"long.py ({MAX_MODULE_LINES + 1} lines)"]


#: A possessive quantifier on a group (``(?:ab)*+``, ``)++``, ``)?+``, ``){1,3}+``).
_POSSESSIVE_GROUP = re.compile(r"\)(?:[*+?]|\{\d*,?\d*\})\+")


def test_no_regular_expression_repeats_a_group_possessively():
    """Python 3.11 before 3.11.5 (Debian 12 has 3.11.2) matches a group repeated possessively
    wrongly when the group can backtrack (CPython gh-106052, gh-100061): the JSON document
    reader's pattern ``(?:...)*+`` stepped one bracket too far into a value nested past eight
    levels, and a provider's export was refused whole. The same repeat in an atomic group,
    ``(?>(?:...)*)``, is what later releases compile it to, and is right in every 3.11. The
    JSON document reader repeats its groups possessively only where the Python it runs under
    does it right (``json_stream._repeated``): an atomic group holds each repeat's state."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            value = getattr(node, "value", None) if isinstance(node, ast.Constant) else None
            text = value.decode("latin-1") if isinstance(value, bytes) else value
            if text == POSSESSIVE_PROBE:  # the test of the Python the reader runs under
                continue
            if isinstance(text, str) and _POSSESSIVE_GROUP.search(text):
                found.append(f"{path.relative_to(REPOSITORY)}:{node.lineno}: {text[:60]!r}")
    assert found == []
