"""The command's entry point: a Ctrl-C while the command's modules are being imported ends
in one line and exit code 2, as one later does; it printed a KeyboardInterrupt traceback
(found by a review: Ctrl-C 0.1 s into ``verify``, 3 runs in 6)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: The launcher, its import of the command interrupted as a Ctrl-C would.
INTERRUPTED = """\
import builtins

real = builtins.__import__


def interrupted(name, *args, **kwargs):
    if name == "reporting.cli":
        raise KeyboardInterrupt
    return real(name, *args, **kwargs)


builtins.__import__ = interrupted
from reporting.launch import main

main()
"""


def test_a_ctrl_c_while_the_command_is_imported_ends_in_one_line():
    run = subprocess.run(
        [sys.executable, "-c", INTERRUPTED], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert run.returncode == 2
    assert run.stderr == "baccarat-report: stopped by SIGINT as it started: nothing was done\n"


def test_the_command_and_python_m_start_through_it():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert scripts["project"]["scripts"]["baccarat-report"] == "reporting.launch:main"
    assert "from reporting.launch import main" in (ROOT / "reporting" / "__main__.py").read_text()
    run = subprocess.run(
        [sys.executable, "-m", "reporting", "--version"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert run.returncode == 0 and "0.1.0" in run.stdout, run.stderr
