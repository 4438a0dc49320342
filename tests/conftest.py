"""Shared fixtures: the sample operator configuration and a builder of round-log records.

Records are plain dicts, written as JSON by the test that uses them, so that every input sits
next to its assertion; the builder only fills in the fields a test does not care about.
"""

from __future__ import annotations

import copy
import gc
import json
import signal
import sys
from pathlib import Path
from typing import Any

import pytest
from children import open_databases

from reporting.cli.failures import STOP_SIGNALS
from reporting.config.loader import OperatorConfig, load_config
from reporting.errors import forget_stop

SAMPLE_CONFIG = Path(__file__).resolve().parent.parent / "sample_data" / "operator.toml"

# A suite started in the background by a shell without job control (`make test &` in a
# script, a scheduler's sh -c '... &') inherits SIGINT ignored, and so would every command
# its tests start: a Ctrl-C they send themselves would never come, and the tests of what a
# stop does would fail (ten of them did). Each worker takes Python's own handler back, which
# its children start with as a terminal's Ctrl-C finds them.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session")
def operator_config() -> OperatorConfig:
    """The shipped sample configuration (six games: it, dk, gr, mini-it, no-commission-dk,
    ez-baccarat-it)."""
    return load_config(SAMPLE_CONFIG)


@pytest.fixture(scope="session")
def sample_config_path() -> Path:
    return SAMPLE_CONFIG


def _bet(bet_id: str = "B-1", **fields: Any) -> dict[str, Any]:
    bet = {
        "bet_id": bet_id,
        "account": "acc-4411",
        "type": "banker",
        "stake": "25.00",
        "payout": "0.00",
        "currency": "EUR",
        "placed_at": "2026-10-03T18:40:09.500Z",
    }
    bet.update(fields)
    return bet


def _round(round_id: str = "LB01-20261003-0417", **fields: Any) -> dict[str, Any]:
    """A valid settled live-baccarat-it round: player natural 9 beats banker 7, banker bet lost."""
    record = {
        "round_id": round_id,
        "table_id": "LB01",
        "game": "live-baccarat-it",
        "shoe_id": "LB01-20261003-S05",
        "hand_no": 23,
        "started_at": "2026-10-03T18:40:02.120Z",
        "betting_closed_at": "2026-10-03T18:40:17Z",
        "settled_at": "2026-10-03T18:40:41.870+00:00",
        "status": "settled",
        "player_cards": ["9H", "KS"],
        "banker_cards": ["5D", "2C"],
        "bets": [_bet(f"{round_id}-B1")],
    }
    record.update(copy.deepcopy(fields))
    return record


@pytest.fixture(scope="session")
def make_round():
    """``make_round(round_id, **fields)``: a valid round dict with the given fields replaced."""
    return _round


@pytest.fixture(scope="session")
def make_bet():
    """``make_bet(bet_id, **fields)``: a valid EUR bet dict with the given fields replaced."""
    return _bet


def _write_jsonl(path: Path, *lines: dict[str, Any] | str) -> Path:
    """Write dicts as JSON lines and strings as they are (bad JSON, blank lines)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(
        (line if isinstance(line, str) else json.dumps(line, ensure_ascii=False)) + "\n"
        for line in lines
    )
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def write_jsonl():
    """``write_jsonl(path, *lines)``: dicts become JSON lines, strings are written verbatim."""
    return _write_jsonl


@pytest.fixture(scope="module", autouse=True)
def no_database_left_open(request):
    """A test module closes every SQLite database it opened, fixtures' included: while this
    process holds one open, tests/children.py cannot fork its warm children (SQLite's locks
    would be shared), and every later command of the worker starts a fresh interpreter, about
    half a second of CPU each."""
    before = set(open_databases())
    yield
    left = set(open_databases()) - before
    if left:
        gc.collect()  # a connection only a reference cycle still holds
        left = set(open_databases()) - before
    if left:
        pytest.fail(
            f"{request.module.__name__} left {len(left)} SQLite file(s) open: "
            + ", ".join(sorted(left)[:3]),
            pytrace=False,
        )


@pytest.fixture(autouse=True)
def stop_signals_as_they_were():
    """A test that runs a command in this process (its Typer app, ``reporting.cli.main``)
    leaves the command's stop handlers installed, process-wide, as a command does for the
    rest of its short life; one stray signal would then set the stop signals to ignored, and
    every later child of this worker would start ignoring Ctrl-C. Each test ends with the
    handlers it began with, and Python's hook for what it cannot raise."""
    before = {number: signal.getsignal(number) for number in STOP_SIGNALS}
    hook = sys.unraisablehook
    yield
    sys.unraisablehook = hook
    for number, handler in before.items():
        if signal.getsignal(number) is not handler and handler is not None:
            signal.signal(number, handler)
    forget_stop()  # a stop one test's command received is not the next test's


#: The modules that take longest, in the order they are begun. ``make test`` hands whole
#: modules to its two workers (``--dist loadfile``) in collection order
#: (``--no-loadscope-reorder``): begun first, they leave the short modules to fill in at the
#: end, so that the two workers finish together instead of one waiting out a long module
#: begun last. Only the order depends on this list: a module missing from it still runs.
SLOWEST_FIRST = (
    "tests/jobs/test_monthly.py",
    "tests/presentation/test_render.py",
    "tests/presentation/test_browser.py",
    "tests/presentation/test_variant_sheets.py",
    "tests/verify/test_run.py",
    "tests/verify/test_partitions.py",
    "tests/sample/test_generator.py",
    "tests/sample/test_exports.py",
    "tests/verify/test_distributed.py",
    "tests/cli/test_serve.py",
    "tests/store/test_load.py",
)


def pytest_collection_modifyitems(config, items) -> None:
    """The slowest modules first (:data:`SLOWEST_FIRST`), the others in their usual order."""
    rank = {path: position for position, path in enumerate(SLOWEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))
