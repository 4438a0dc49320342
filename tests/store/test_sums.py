"""Sums of stored cents that SQLite cannot overflow (reporting.store.sums): exact where
SQLite's own ``sum()`` stops with "integer overflow", whatever the amounts stored; and every
money sum of the month's figures goes through them."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from reporting.store.sums import LOW_BITS, SAFE_ROWS, joined, joined_columns, split_sum

ROOT = Path(__file__).resolve().parents[2]
LARGEST = 2**63 - 1


@pytest.fixture
def amounts():
    connection = sqlite3.connect(":memory:")
    connection.execute("CREATE TABLE bets (grp TEXT, cents INTEGER NOT NULL) STRICT")
    yield connection
    connection.close()


def test_a_total_past_what_sqlite_adds_is_exact(amounts):
    values = [LARGEST, LARGEST, 2**62, 1, 0, 10**15 - 1]
    amounts.executemany("INSERT INTO bets VALUES ('a', ?)", [(value,) for value in values])
    with pytest.raises(sqlite3.OperationalError, match="integer overflow"):
        amounts.execute("SELECT sum(cents) FROM bets").fetchone()
    high, low = amounts.execute(f"SELECT {split_sum('cents')} FROM bets").fetchone()
    assert joined(high, low) == sum(values)


def test_no_row_is_a_total_of_zero(amounts):
    assert joined(*amounts.execute(f"SELECT {split_sum('cents')} FROM bets").fetchone()) == 0


def test_each_half_stays_within_sqlite_s_integers_for_as_many_rows_as_it_promises():
    assert (SAFE_ROWS * (2**63 >> LOW_BITS)) <= LARGEST + 1
    assert SAFE_ROWS * ((1 << LOW_BITS) - 1) <= LARGEST


def test_named_halves_are_one_column_of_the_total(amounts):
    amounts.executemany(
        "INSERT INTO bets VALUES (?, ?)", [("a", LARGEST), ("a", LARGEST), ("b", 7)]
    )
    cursor = amounts.execute(
        f"SELECT grp, {split_sum('cents', 'stakes')}, count(*) AS bets FROM bets GROUP BY grp"
    )
    names, rows = joined_columns(tuple(c[0] for c in cursor.description), cursor, ("stakes",))
    assert names == ("grp", "stakes", "bets")
    assert list(rows) == [("a", 2 * LARGEST, 2), ("b", 7, 1)]


#: Where the SQL of reporting/ sums a money column: only through split_sum. The browsing
#: views of the schema (``serve``, the sqlite3 shell) are a person's to query, not a report's.
PLAIN_MONEY_SUM = re.compile(r"\b(?:sum|total)\([^)]*(?:stake|payout)", re.IGNORECASE)
#: The one money aggregate of a float on purpose: the sum of squared stakes, the spread of the
#: RTP's statistical bound (no money is printed from it).
SPREAD = "total(CAST(b.stake_cents AS REAL) * b.stake_cents)"


def test_every_money_sum_of_the_reports_goes_through_the_split():
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "reporting").rglob("*.py"))
        if path.name != "sql.py"  # the browsing views
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if PLAIN_MONEY_SUM.search(line.replace(SPREAD, ""))
    ]
    assert not found, f"a money sum SQLite can overflow (use reporting.store.sums): {found}"
