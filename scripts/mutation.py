"""The mutation score of the last ``mutmut run`` (``make mutation``), against the equivalent
mutants listed in ``tests/mutation_equivalent.toml``.

Reads mutmut's results in ``mutants/`` (each mutated file's ``.meta``: an exit code per mutant,
read by mutmut's own table of statuses: a mutant is killed only when mutmut says so; one that
timed out is not) and prints killed / total, and killed / behaviour-changing, where the
behaviour-changing mutants are all but the listed equivalents. Every mutant neither killed nor
listed is printed with its status.

A mutant's name holds its number within its function, which an edit of the function changes:
each listed mutant gives its ``change`` too (the lines it puts in, stripped, joined by a
space), checked against the mutant the run made. Exit 1 when the score is below
``--minimum`` percent, or when a listed mutant was not made, was killed, or changes something
else (the list is out of date).
"""

from __future__ import annotations

import argparse
import ast
import difflib
import json
import sys
import tomllib
from fractions import Fraction
from pathlib import Path

from mutmut.stats import status_by_exit_code

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENTS = ROOT / "tests" / "mutation_equivalent.toml"


def statuses(mutants: Path) -> dict[str, str]:
    """Every mutant of the run by name, with mutmut's status for it."""
    found: dict[str, str] = {}
    for meta in sorted(mutants.rglob("*.py.meta")):
        exit_codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
        for name, exit_code in exit_codes.items():
            found[name] = status_by_exit_code[exit_code]
    return found


def equivalents(path: Path) -> dict[str, dict[str, str]]:
    """The equivalent mutants by name, each with its ``change`` and the ``reason`` it changes
    no behaviour."""
    with path.open("rb") as file:
        return dict(tomllib.load(file)["equivalent"])


def changes(mutants: Path, names: list[str]) -> dict[str, str]:
    """What each mutant of ``names`` puts in its function: the lines added to the original,
    stripped, joined by a space (from the mutated files mutmut wrote)."""
    sources: dict[str, dict[str, str]] = {}
    found = {}
    for name in names:
        module, _, function = name.rpartition(".x")
        if module not in sources:
            path = mutants / (module.replace(".", "/") + ".py")
            text = path.read_text(encoding="utf-8") if path.exists() else ""
            sources[module] = {
                node.name: ast.get_source_segment(text, node) or ""
                for node in ast.walk(ast.parse(text))
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            }
        functions = sources[module]
        mutant = functions.get("x" + function)
        original = functions.get("x" + function.rpartition("__mutmut_")[0] + "__mutmut_orig")
        if mutant is None or original is None:
            continue
        found[name] = " ".join(
            line[2:].strip()
            for line in difflib.ndiff(original.splitlines()[1:], mutant.splitlines()[1:])
            if line.startswith("+ ")
        )
    return found


def percent(part: int, whole: int) -> str:
    """``part / whole`` as a percentage with one decimal (rounded down: a score is not
    rounded up to a threshold)."""
    if whole == 0:
        return "n/a"
    tenths = Fraction(part * 1000, whole).__floor__()
    return f"{tenths // 10}.{tenths % 10}%"


def main(argv: list[str] | None = None) -> int:
    """Print the score; 0 when it holds, 1 when it does not or the list is out of date."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mutants", type=Path, default=ROOT / "mutants")
    parser.add_argument("--equivalent", type=Path, default=EQUIVALENTS)
    parser.add_argument("--minimum", type=Fraction, default=Fraction(98))
    options = parser.parse_args(argv)

    found = statuses(options.mutants)
    if not found:
        print(f"no mutmut results in {options.mutants}: run `make mutation`", file=sys.stderr)
        return 1
    listed = equivalents(options.equivalent)
    problems = [
        f"listed as equivalent but not made by this run: {name}"
        for name in listed
        if name not in found
    ]
    problems += [
        f"listed as equivalent but {found[name]}: {name}"
        for name in listed
        if found.get(name) == "killed"
    ]
    made = changes(options.mutants, [name for name in listed if name in found])
    problems += [
        f"listed as equivalent for {entry['change']!r}, but it now changes"
        f" {made.get(name)!r}: {name}"
        for name, entry in listed.items()
        if name in found and made.get(name) != entry["change"]
    ]
    total = len(found)
    killed = sum(status == "killed" for status in found.values())
    changing = total - sum(name in found for name in listed)
    left = sorted(
        (status, name)
        for name, status in found.items()
        if status != "killed" and name not in listed
    )
    killed_changing = changing - len(left)
    print(f"mutants: {total}, killed: {killed} ({percent(killed, total)} of all)")
    listed_in = options.equivalent.resolve()
    if listed_in.is_relative_to(ROOT):
        listed_in = listed_in.relative_to(ROOT)
    print(f"equivalent (listed in {listed_in}): {total - changing}")
    print(
        f"behaviour-changing: {changing}, killed: {killed_changing}"
        f" ({percent(killed_changing, changing)}; at least {options.minimum}% needed)"
    )
    for status, name in left:
        print(f"  {status}: {name}  (mutmut show {name})")
    for problem in problems:
        print(problem, file=sys.stderr)
    holds = changing > 0 and Fraction(killed_changing * 100, changing) >= options.minimum
    return 0 if holds and not problems else 1


if __name__ == "__main__":
    sys.exit(main())
