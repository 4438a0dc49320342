"""What could not be checked: per game, the rounds (or bets) a check could not judge because
a field it needs was not logged (:data:`reporting.verify.checks.FIELDS_NEEDED`).

The counts come from the store, not from the reader that loaded the records, so they hold
for every source: a provider's export without shoe ids, a round log whose bets carry no
placement time. They are sums of integers (one SQL pass over the rounds, one over the bets),
so the counts of separate partitions of a store add up: :func:`coverage_counts` gives every
game's count for every check (none not run included) and :meth:`CheckNotRun.merged` adds two.
:func:`checks_not_run`, what the reports show, leaves out a check that ran on every record.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from reporting.engine.games import GameSpec
from reporting.records import FINDING_KINDS, Bet, FindingKind, Month, Round, stored_instant
from reporting.store.damage import first_unstored_time, first_unzoned_time, unstored_time_sql
from reporting.verify.checks import FIELDS_NEEDED, SHOE_CHECKS, FieldsNeeded

__all__ = ["UNITS", "CheckNotRun", "checks_not_run", "coverage_counts", "describe_game"]

#: What a check judges one by one, in the order they are listed.
UNITS = ("rounds", "bets")

#: The fields of each table, by the names the records give them.
_FIELDS = {
    "rounds": frozenset(name for name in Round.__struct_fields__ if name != "bets"),
    "bets": frozenset(Bet.__struct_fields__),
}


@dataclass(frozen=True, slots=True)
class CheckNotRun:
    """How many records of one game one check could not judge (of how many), and why."""

    game_id: str
    check: str  # the finding kind the check finds
    unit: str  # "rounds" or "bets"
    records: int  # records the check could not judge
    of: int  # records of the game in the period
    missing_counts: tuple[tuple[str, int], ...]  # each field needed, on how many of them absent

    @property
    def missing(self) -> tuple[str, ...]:
        """The fields absent from some of the records not judged, in the table's order."""
        return tuple(name for name, count in self.missing_counts if count)

    @property
    def why(self) -> str:
        """``no shoe_id``; a field absent from only some of them says on how many."""
        return ", ".join(
            f"no {name}" if count == self.records else f"no {name} on {count:,}"
            for name, count in self.missing_counts
            if count
        )

    @property
    def wanting(self) -> str:
        """The fields absent, in the report's words (``placed_at``; ``placed_at on 29,
        betting_closed_at on 92``): a field absent from only some of them says on how many."""
        return ", ".join(
            name if count == self.records else f"{name} on {count:,}"
            for name, count in self.missing_counts
            if count
        )

    def describe(self) -> str:
        """``shoe_card_count on 3,661 of 3,661 rounds (no shoe_id)``."""
        return f"{self.check} on {self.records:,} of {self.of:,} {self.unit} ({self.why})"

    def to_document(self) -> dict:
        """The JSON form (``checks_not_run`` of ``verify --json`` and ``monthly --json``)."""
        return {
            "game": self.game_id,
            "check": self.check,
            "records": self.records,
            "of": self.of,
            "unit": self.unit,
            "missing": list(self.missing),
        }

    def merged(self, other: CheckNotRun) -> CheckNotRun:
        """The counts of this partition of a store and of another (disjoint) one, added."""
        if (other.game_id, other.check, other.unit) != (self.game_id, self.check, self.unit):
            raise ValueError(f"cannot add {other.check} of {other.game_id} to {self.check}")
        theirs = dict(other.missing_counts)
        return CheckNotRun(
            self.game_id,
            self.check,
            self.unit,
            self.records + other.records,
            self.of + other.of,
            tuple((name, count + theirs.get(name, 0)) for name, count in self.missing_counts),
        )


def describe_game(game_id: str, entries: Iterable[CheckNotRun]) -> str:
    """One line for a game: ``GAME: not checked: CHECK on N of M rounds (no FIELD); ...``."""
    return f"{game_id}: not checked: " + "; ".join(entry.describe() for entry in entries)


def _column(unit: str, name: str) -> str:
    """The qualified column of a field needed by a check of ``unit`` records."""
    if unit == "bets" and name in _FIELDS["bets"]:
        return f"b.{name}"
    if name in _FIELDS["rounds"]:
        return f"r.{name}"
    raise ValueError(f"{name!r} is not a field of a round or a bet")


def _not_judged(unit: str, needed: FieldsNeeded) -> str:
    """SQL true on a record the check cannot judge: some group has none of its fields."""
    return " OR ".join(
        "(" + " AND ".join(f"{_column(unit, name)} IS NULL" for name in group) + ")"
        for group in needed.groups
    )


def checks_not_run(
    connection: sqlite3.Connection, games: Mapping[str, GameSpec], month: str | None
) -> list[CheckNotRun]:
    """Per configured game, each check of :data:`FIELDS_NEEDED` that could not judge some of
    the game's records of ``month`` (or of every month), by game, then in the order of the
    finding kinds."""
    return [entry for entry in coverage_counts(connection, games, month) if entry.records]


def coverage_counts(
    connection: sqlite3.Connection, games: Mapping[str, GameSpec], month: str | None
) -> list[CheckNotRun]:
    """Per configured game with records in the period, every check of :data:`FIELDS_NEEDED`
    that applies to it (a game reshuffled before every round has no shoe to check) with the
    records it could not judge (perhaps none): counts that add up across partitions of the
    store. By game, then in the order of the finding kinds."""
    found: list[CheckNotRun] = []
    for unit in UNITS:
        needs = [(kind, needed) for kind, needed in FIELDS_NEEDED.items() if needed.unit == unit]
        if needs:
            found += _count(connection, games, month, unit, needs)
    found.sort(key=lambda entry: (entry.game_id, FINDING_KINDS.index(entry.check)))
    return found


def _count(
    connection: sqlite3.Connection,
    games: Mapping[str, GameSpec],
    month: str | None,
    unit: str,
    needs: list[tuple[FindingKind, FieldsNeeded]],
) -> list[CheckNotRun]:
    """One GROUP BY per unit: records, and per check those not judged and why."""
    sums = []
    for _kind, needed in needs:
        condition = _not_judged(unit, needed)
        sums.append(f"sum({condition})")
        sums += [f"sum(({condition}) AND {_column(unit, name)} IS NULL)" for name in needed.fields]
    source = "rounds AS r" if unit == "rounds" else "bets AS b JOIN rounds AS r USING (round_id)"
    where = "r.game_id IN (SELECT value FROM json_each(?))"
    params: tuple = (json.dumps(sorted(games)),)
    if month is not None:
        where, params = where + " AND r.report_month = ?", (*params, month)
    rows = connection.execute(
        f"SELECT r.game_id, count(*), {', '.join(sums)} FROM {source} WHERE {where}"
        " GROUP BY r.game_id ORDER BY r.game_id",
        params,
    )
    found = []
    for game_id, of, *counts in rows:
        position = 0
        for kind, needed in needs:
            records = counts[position]
            fields = needed.fields
            missing = tuple(
                zip(fields, counts[position + 1 : position + 1 + len(fields)], strict=True)
            )
            position += 1 + len(fields)
            if kind in SHOE_CHECKS and games[game_id].reshuffle_every_round:
                continue  # no shoe to check: the check does not apply, it is not "not run"
            found.append(CheckNotRun(game_id, kind.value, unit, records, of, missing))
    return found


def misplaced_rounds(
    connection: sqlite3.Connection, games: Mapping[str, GameSpec], month: str | None
) -> dict[str, tuple[int, str]]:
    """The rounds of each game stored in ``month`` (its ``report_month``, reckoned when they
    were loaded) that settled outside the month in the game's time zone now, with the zone:
    the zone was changed in the configuration since (the store keeps the month, not the zone;
    every report counts them in the month they were stored in). Read through the month's
    index, the month's rounds alone; nothing for every month (``month`` None). A settled_at
    that is no time as ingest stores one, or one no time zone places in ``month`` (a store
    changed by hand), is refused (:func:`~reporting.store.damage.first_unstored_time`,
    :func:`~reporting.store.damage.first_unzoned_time`), as the month's audit refuses the
    first."""
    if month is None:
        return {}
    found = {}
    for game_id, game in sorted(games.items()):
        start, end = map(stored_instant, Month.parse(month).utc_bounds(game.timezone))
        (rounds,) = connection.execute(
            "SELECT count(*) FROM rounds WHERE game_id = ? AND report_month = ?"
            f" AND (settled_at < ? OR settled_at >= ? OR {unstored_time_sql('settled_at')})",
            (game_id, month, start, end),
        ).fetchone()
        if rounds:
            damage = first_unstored_time(connection, game_id, month) or first_unzoned_time(
                connection, game_id, month
            )
            if damage is not None:
                raise damage
            found[game_id] = (rounds, game.timezone)
    return found
