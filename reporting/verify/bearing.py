"""What bears on a month: every alert a month's report shows, gathered in one record.

The exit code of ``monthly`` and ``verify --month``, the summary they print and the audit
workbook's Rejected records sheet all read this one definition, so a re-run can never clear
an alert that the report still shows (and the report never shows one the exit code ignores).

A month's alerts:

* **findings** of the month's rounds (the ``findings`` table, as verify left it);
* **rejected lines** of the files behind the month (below);
* **unread inbox files**: files of the inbox the ingest did not read (given by the caller,
  which knows the inbox; ``verify`` has none);
* **unverified rounds**: rounds of the month (and their bets) of a game the configuration
  does not list, which nothing judged;
* **publishing problems**: each game's regulator warnings (no play, a missing game code, a
  declared RTP above the theory, ...) and a game that must publish but has no language;
* **availability**: a game whose pages say it is open around the clock and whose tables were
  idle in the month past its gap threshold (given by the caller: the gaps are the figures').

Beside the alerts, a month's **warnings** say what could not be checked: per game, the
checks that could not judge some records for want of a field (no shoe id, no bet placement
time: :mod:`reporting.verify.coverage`); per file behind the month (rounds of it loaded in
the month, or repeated there: a re-export whose rounds were all stored before), the fields
it holds that the tool does not read (an exporter's own: ``dealer``, a bet's
``bets[].bonus_payout``), whose content is in no figure and no check; and per game, the shoes whose hand numbers skip some
(hands 1, 2, 4: no round loaded is hand 3, which is in no log read, or its line was
rejected), and the shoes whose hands could not be counted (a round without a hand number:
:mod:`reporting.verify.hands`). They are shown wherever the alerts are, but do not change the exit code by
themselves: an export that lacks a field, or adds one, is not an irregularity, and a hand
missing may be in a log still to come.

How a rejected line bears on a month. A rejected line whose game (one configured) and
settlement time could be read has a reporting month, as a round has (a conflict, the stored
round's, whose figures count the round it casts doubt on): it bears on that month,
and on no other (an October round rejected for its stake is October's, whatever else its file
holds). Any other rejected line has no month of its own; it bears on a month through its file:

* the rejects of a file that loaded rounds of the month bear on that month (they are the
  month's missing or doubtful lines);
* the rejects of a file that loaded no round at all (every line rejected) bear on every
  month: nothing places such a file in one month, and a file nothing of which could be read
  must never go unseen. They stay an alert until the file is dealt with by hand;
* the rejects of a file whose rounds all fall in other months bear on those months only.

This is the rule the audit workbook has always applied to its Rejected records sheet; the
exit code and the summary now count the same lines.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from typing import NamedTuple

from reporting.errors import counted, printable
from reporting.records import LateStanding, SourceLocation
from reporting.verify.coverage import CheckNotRun, describe_game
from reporting.verify.hands import (
    MissingHands,
    describe_missing,
    describe_not_judged,
    hands_missing,
    hands_not_judged,
)
from reporting.verify.shoes import ShoeSummary

__all__ = [
    "FILES_NAMED",
    "first_named",
    "REJECTS_SHOWN",
    "LateMonth",
    "MonthAlerts",
    "RejectedFile",
    "RejectedRecord",
    "RejectScope",
    "misplaced_line",
    "month_alerts",
    "reject_scope",
    "rejected_lines_bear",
    "unread_line",
]

#: The rejected records a month's alerts carry line by line (the first, by file and line):
#: the audit report shows them, the workbook's Rejected records sheet lists every one (up to
#: the rows a sheet holds, and counts the rest), and the store keeps them all.
REJECTS_SHOWN = 20
#: The files with rejected lines, and the inbox files not read, that the alerts' lines name
#: one by one (the summary a terminal or a cron mail shows), each; the rest are counted, and
#: ``--json``, the workbook and manifest.json name them all: a checksum file beside each of
#: 5,000 logs made a summary of 5,000 lines.
FILES_NAMED = 20


def first_named(lines: Sequence[str], and_more: str) -> list[str]:
    """The first :data:`FILES_NAMED` of ``lines``, then ``and_more`` (``{more}``: how many
    were left) when any were.

    >>> first_named([f"f{n}" for n in range(22)], "and {more:,} more")[-2:]
    ['f19', 'and 2 more']
    """
    left = len(lines) - FILES_NAMED
    return [*lines[:FILES_NAMED], *([and_more.format(more=left)] if left > 0 else [])]


@dataclass(frozen=True, slots=True)
class RejectScope:
    """The period, the files whose rejected lines of no month of their own bear on it, and
    each file's rounds in it (a line of a month of its own bears on that month alone).

    ``files`` is None for all months (every rejected line bears on "all months").
    """

    month: str | None
    files: tuple[int, ...] | None
    rounds_by_file: Mapping[int, int]
    #: Each file's rounds of the period already stored with the same content (a re-export):
    #: what it repeats is the period's, though none of its rounds was loaded.
    duplicates_by_file: Mapping[int, int] = field(default_factory=dict)

    def behind(self, ingest_id: int) -> bool:
        """Whether the file is behind the period: rounds of it loaded there, or repeated."""
        return bool(self.rounds_by_file.get(ingest_id) or self.duplicates_by_file.get(ingest_id))

    def rejects_where(self) -> tuple[str, tuple]:
        """A WHERE clause (and its parameters) on ``rejected_records`` for the period: the
        lines of its month, and those of no month of their own of its files."""
        if self.files is None:
            return "1", ()
        return (
            "(report_month = ? OR (report_month IS NULL"
            " AND ingest_id IN (SELECT value FROM json_each(?))))",
            (self.month, json.dumps(list(self.files))),
        )


def reject_scope(connection: sqlite3.Connection, month: str | None) -> RejectScope:
    """The files behind ``month`` (see the module's rule), or every file for all months."""
    if month is None:
        counts = connection.execute(
            "SELECT ingest_id, rounds_loaded, rounds_skipped_duplicate FROM ingest_log"
        ).fetchall()
        return RejectScope(
            None,
            None,
            {ingest_id: rounds for ingest_id, rounds, _ in counts},
            {ingest_id: repeated for ingest_id, _, repeated in counts},
        )
    # By the rounds_by_month index: the month's rounds only, whatever the store holds.
    rounds_by_file = dict(
        connection.execute(
            "SELECT ingest_id, count(*) FROM rounds WHERE report_month = ? GROUP BY ingest_id",
            (month,),
        )
    )
    without_rounds = {
        ingest_id
        for (ingest_id,) in connection.execute(
            "SELECT ingest_id FROM ingest_log WHERE rounds_loaded = 0"
        )
    }
    # A re-export loaded before the store kept the months (schema version 10): nothing
    # places it, so it is behind every month, as a file of rejected lines alone is.
    duplicates_by_file = dict(
        connection.execute(
            "SELECT log.ingest_id, months.value FROM ingest_log AS log,"
            " json_each(log.duplicate_months) AS months WHERE months.key = ?"
            " UNION ALL SELECT ingest_id, rounds_skipped_duplicate FROM ingest_log"
            " WHERE duplicate_months IS NULL AND rounds_loaded = 0"
            " AND rounds_skipped_duplicate > 0",
            (month,),
        )
    )
    files = tuple(sorted(set(rounds_by_file) | without_rounds))
    return RejectScope(month, files, rounds_by_file, duplicates_by_file)


@dataclass(frozen=True, slots=True)
class RejectedFile:
    """A file with rejected lines that bear on the month."""

    name: str
    rejected: int  # the lines that bear on the period
    rounds_loaded: int  # over every month; 0: nothing of the file could be used
    by_reason: Mapping[str, int]
    rejected_in_file: int | None = None  # over every month; None: as many as bear here
    duplicates: int = 0  # its rounds already stored from another file (over every month)

    def describe(self) -> str:
        """One line for the summary: the file (its name escaped: a provider's line break or
        escape sequence would forge a line of the summary), how many lines, why."""
        reasons = ", ".join(
            f"{reason} {count:,}" for reason, count in sorted(self.by_reason.items())
        )
        return f"{printable(self.name)}: {self.told(reasons)}"

    def told(self, reasons: str) -> str:
        """What became of the file's lines, after its name, with ``reasons`` as the reader's
        words list them: the summary's (codes) and the audit report's (titles) alike."""
        if self.rounds_loaded:
            return f"{self.rejected:,} rejected ({reasons})"
        if self.duplicates:
            other = "round was" if self.duplicates == 1 else f"{self.duplicates:,} rounds were"
            return (
                f"{self.rejected:,} rejected ({reasons}), no round loaded: its other {other}"
                " stored already"
            )
        if self.rejected_in_file in (None, self.rejected):
            return f"all {self.rejected:,} of its records rejected, no round loaded ({reasons})"
        return (
            f"{self.rejected:,} of its {self.rejected_in_file:,} records, all rejected, bear on"
            f" this period, no round loaded ({reasons})"
        )


@dataclass(frozen=True, slots=True)
class RejectedRecord:
    """A rejected record of the month, where it was and why."""

    file: str
    line: int
    reason: str
    message: str

    @property
    def source(self) -> str:
        """``path:line`` of the record."""
        return str(SourceLocation(self.file, self.line))


def unread_line(entry: str) -> str:
    """The alert of an inbox file that no run reads (``entry``: its name, and why)."""
    return f"in the inbox but not read: {entry}"


@dataclass(frozen=True)
class MonthAlerts:
    """Everything that bears on one month (or on all months): see the module's rules."""

    month: str | None
    findings_by_kind: Mapping[str, int] = field(default_factory=dict)
    rejected_files: tuple[RejectedFile, ...] = ()
    unread_files: tuple[str, ...] = ()
    unverified_rounds: Mapping[str, int] = field(default_factory=dict)  # game id -> rounds
    unverified_bets: int = 0
    publishing: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # game -> problems
    checks_not_run: tuple[CheckNotRun, ...] = ()  # by game: what could not be checked
    #: The first :data:`REJECTS_SHOWN` rejected records of the period, in file (ingest) and
    #: line order.
    first_rejects: tuple[RejectedRecord, ...] = ()
    availability: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # game -> lines
    #: Rounds stored in the month that settled outside it in their game's time zone now,
    #: by game: (rounds, time zone). The zone was changed since they were loaded.
    misplaced_rounds: Mapping[str, tuple[int, str]] = field(default_factory=dict)
    #: Rounds of other months, loaded since the last finished monthly run, that no report
    #: counts (:mod:`reporting.jobs.late`): (month, rounds, why they are in no report). Told
    #: of by the run that writes this month.
    late_rounds: tuple[LateMonth, ...] = ()
    #: The files behind the period with fields the tool does not read, by name: (file,
    #: names) (:class:`reporting.ingest.sources.UnreadFields`); names None: the file's fields
    #: were not looked for (it was loaded before the store kept them).
    fields_not_read: tuple[tuple[str, tuple[str, ...] | None], ...] = ()
    #: The shoes of the period whose hand numbers skip some, by game, table and shoe.
    hands_missing: tuple[MissingHands, ...] = ()
    #: The shoes of the period not judged for hands missing (a round of each has no hand
    #: number), by game, table and shoe: (game, table, shoe).
    hands_not_judged: tuple[tuple[str, str, str], ...] = ()

    @property
    def findings(self) -> int:
        """Findings of every kind."""
        return sum(self.findings_by_kind.values())

    @property
    def rejected(self) -> int:
        """Rejected lines bearing on the period."""
        return sum(item.rejected for item in self.rejected_files)

    @property
    def rejected_by_reason(self) -> dict[str, int]:
        """The period's rejected lines by reason."""
        totals: dict[str, int] = {}
        for item in self.rejected_files:
            for reason, count in item.by_reason.items():
                totals[reason] = totals.get(reason, 0) + count
        return dict(sorted(totals.items()))

    @property
    def all_read_and_checked(self) -> bool:
        """Whether every record of the period was read and checked: no rejected line, inbox
        file not read, round not verified, late or misplaced, and no warning (a check not
        run, a field not read, a hand missing)."""
        return not (
            self.rejected_files
            or self.unread_files
            or self.unverified_rounds
            or self.late_rounds
            or self.misplaced_rounds
            or self.checks_not_run
            or self.fields_not_read
            or self.hands_missing
            or self.hands_not_judged
        )

    @property
    def alerts(self) -> list[str]:
        """Why the period needs a look, one line each (empty: nothing wrong found)."""
        return [line for _, lines in self.alert_sections() for line in lines]

    def alerts_but(self, *sections: str) -> list[str]:
        """:attr:`alerts`, but those of ``sections`` (said elsewhere), each without its
        indent: the exit code's reasons as a log's warnings say them."""
        return [
            line.strip()
            for name, lines in self.alert_sections()
            if name not in sections
            for line in lines
        ]

    def alert_sections(self) -> list[tuple[str, list[str]]]:
        """:attr:`alerts` by what they tell of: ``findings``, ``rejected``, ``late``,
        ``unread``, ``unverified``, ``misplaced``, ``publishing``, ``availability`` (in that
        order; only those with lines)."""
        period = self.month or "all months"
        sections: list[tuple[str, list[str]]] = []
        if self.findings:
            kinds = ", ".join(f"{k} {n:,}" for k, n in sorted(self.findings_by_kind.items()) if n)
            found = counted(self.findings, "finding")
            sections.append(("findings", [f"{found} in {period} ({kinds})"]))
        if self.rejected:
            rejected = [f"{rejected_lines_bear(self.rejected)} on {period}"]
            sections.append(("rejected", rejected + self.rejected_file_lines))
        unread = first_named(
            [unread_line(name) for name in self.unread_files],
            "and {more:,} more inbox files not read: manifest.json names them all",
        )
        unverified = [
            f"{rounds:,} rounds of {game} in {period} were not verified: the configuration"
            " does not list that game"
            for game, rounds in sorted(self.unverified_rounds.items())
        ]
        publishing = [
            f"{game}: {problem}"
            for game, problems in sorted(self.publishing.items())
            for problem in problems
        ]
        availability = [
            f"{game}: {problem}"
            for game, problems in sorted(self.availability.items())
            for problem in problems
        ]
        sections += [
            (name, lines)
            for name, lines in (
                ("late", self._late_lines()),
                ("unread", unread),
                ("unverified", unverified),
                ("misplaced", self._misplaced_lines(period)),
                ("publishing", publishing),
                ("availability", availability),
            )
            if lines
        ]
        return sections

    def _late_lines(self) -> list[str]:
        """The alerts of :attr:`late_rounds`, one line a month."""
        return [_late_line(*late) for late in self.late_rounds]

    def _misplaced_lines(self, period: str) -> list[str]:
        """The alerts of :attr:`misplaced_rounds`, one line a game."""
        return [
            misplaced_line(game, rounds, timezone, period)
            for game, (rounds, timezone) in sorted(self.misplaced_rounds.items())
        ]

    @property
    def rejected_file_lines(self) -> list[str]:
        """The files with rejected lines, one line each up to :data:`FILES_NAMED`, indented
        under the alerts' count of rejected lines; then how many more."""
        return first_named(
            [f"  {item.describe()}" for item in self.rejected_files],
            "  and {more:,} more files with rejected lines: see rejected_records",
        )

    @property
    def warnings(self) -> list[str]:
        """What could not be checked, one line per game, then what was not read, one line
        per file (not an alert: see the module)."""
        return (
            [
                describe_game(game, entries)
                for game, entries in groupby(self.checks_not_run, key=lambda entry: entry.game_id)
            ]
            + self.fields_not_read_lines
            + self.shoes_lines
        )

    @property
    def shoes_lines(self) -> list[str]:
        """The warnings of :attr:`hands_missing`, one line a game; then those of
        :attr:`hands_not_judged`, one line a game."""
        return [
            f"{game}: {line}"
            for game, line in self.hands_missing_by_game + self.hands_not_judged_by_game
        ]

    @property
    def hands_not_judged_by_game(self) -> list[tuple[str, str]]:
        """Each game with shoes not judged for hands missing, and its line
        (:func:`describe_not_judged`)."""
        return [
            (game, describe_not_judged([(table, shoe) for _, table, shoe in shoes]))
            for game, shoes in groupby(self.hands_not_judged, key=lambda shoe: shoe[0])
        ]

    @property
    def hands_missing_by_game(self) -> list[tuple[str, str]]:
        """Each game with shoes whose hand numbers skip some, and its line
        (:func:`describe_missing`)."""
        return [
            (game, describe_missing(list(shoes)))
            for game, shoes in groupby(self.hands_missing, key=lambda shoe: shoe.game_id)
        ]

    @property
    def fields_not_read_lines(self) -> list[str]:
        """The warnings of :attr:`fields_not_read`, one line a file up to
        :data:`FILES_NAMED`; then how many more."""
        return first_named(
            [
                f"{printable(name)}: fields not read, so in no figure and no check:"
                f" {', '.join(fields)}"
                if fields is not None
                else f"{printable(name)}: its fields were not looked for (it was loaded by a"
                " release that did not name them): any field of its own is in no figure and"
                " no check"
                for name, fields in self.fields_not_read
            ],
            "and {more:,} more files with fields not read: see the ingest_log table",
        )

    @property
    def late_by_month(self) -> dict[str, int]:
        """The rounds of other months in no report, by month (one :class:`LateMonth` a month)."""
        return {late.month: late.rounds for late in self.late_rounds}

    @property
    def exit_code(self) -> int:
        """0 when nothing bears on the period, 1 otherwise (cli.md's exit codes)."""
        return 1 if self.alerts else 0

    def to_document(self) -> dict:
        """The JSON form (``--json`` of monthly and verify)."""
        return {
            "month": self.month,
            "findings": self.findings,
            "rejected_records": self.rejected,
            "rejected_by_reason": self.rejected_by_reason,
            "rejected_files": [
                {
                    "file": item.name,
                    "rejected": item.rejected,
                    "rounds_loaded": item.rounds_loaded,
                    "by_reason": dict(sorted(item.by_reason.items())),
                }
                for item in self.rejected_files
            ],
            "unread_files": list(self.unread_files),
            "unverified_rounds": dict(sorted(self.unverified_rounds.items())),
            "unverified_bets": self.unverified_bets,
            "publishing_problems": {game: list(p) for game, p in sorted(self.publishing.items())},
            "availability": {game: list(p) for game, p in sorted(self.availability.items())},
            "late_rounds": self.late_by_month,
            "late_standing": {late.month: str(late.standing) for late in self.late_rounds},
            "misplaced_rounds": {
                game: rounds for game, (rounds, _) in sorted(self.misplaced_rounds.items())
            },
            "alerts": self.alerts,
            "checks_not_run": [entry.to_document() for entry in self.checks_not_run],
            "fields_not_read": [
                {"file": name, "fields": None if fields is None else list(fields)}
                for name, fields in self.fields_not_read
            ],
            "hands_missing": [
                {"game": game, "table": table, "shoe": shoe, "missing": missing, "first": first}
                for game, table, shoe, missing, first in self.hands_missing
            ],
            "hands_not_judged": [
                {"game": game, "table": table, "shoe": shoe}
                for game, table, shoe in self.hands_not_judged
            ],
            "warnings": self.warnings,
        }


def month_alerts(
    connection: sqlite3.Connection,
    month: str | None,
    *,
    findings_by_kind: Mapping[str, int],
    unverified_rounds: Mapping[str, int],
    unread_files: Iterable[str] = (),
    publishing: Mapping[str, Sequence[str]] | None = None,
    checks_not_run: Iterable[CheckNotRun] = (),
    availability: Mapping[str, Sequence[str]] | None = None,
    scope: RejectScope | None = None,
    misplaced_rounds: Mapping[str, tuple[int, str]] | None = None,
    late_rounds: Iterable[LateMonth] = (),
    shoes: Iterable[ShoeSummary] = (),
) -> MonthAlerts:
    """Gather what bears on ``month``: the findings and unverified rounds verify counted, the
    rejected lines of the files behind the month (read from the store; the first
    :data:`REJECTS_SHOWN` line by line), the inbox files not read, each game's publishing and
    availability problems (only games with some), and the checks verify could not run (its
    ``checks_not_run``, in its order: by game). ``scope``: the period's
    :func:`reject_scope`, if read already. ``misplaced_rounds``: verify's count of the
    month's rounds that settled outside it in their game's zone now
    (:func:`reporting.verify.coverage.misplaced_rounds`); ``late_rounds``: the monthly run's
    rounds of other months in no report; ``shoes``: verify's shoe summaries, whose hands
    missing, or that could not be judged, are named."""
    shoes = tuple(shoes)
    scope = reject_scope(connection, month) if scope is None else scope
    where, params = scope.rejects_where()
    return MonthAlerts(
        month=month,
        findings_by_kind={kind: n for kind, n in sorted(findings_by_kind.items()) if n},
        rejected_files=_rejected_files(connection, where, params),
        unread_files=tuple(sorted(unread_files)),
        unverified_rounds=dict(unverified_rounds),
        unverified_bets=_unverified_bets(connection, month, unverified_rounds),
        publishing={
            game: tuple(problems) for game, problems in (publishing or {}).items() if problems
        },
        checks_not_run=tuple(sorted(checks_not_run, key=lambda entry: entry.game_id)),
        first_rejects=tuple(
            RejectedRecord(*row)
            for row in connection.execute(
                f"SELECT file_name, line, reason, message FROM rejected_records WHERE {where}"
                " ORDER BY ingest_id, line, reject_id LIMIT ?",
                (*params, REJECTS_SHOWN),
            )
        ),
        availability={
            game: tuple(problems) for game, problems in (availability or {}).items() if problems
        },
        misplaced_rounds=dict(misplaced_rounds or {}),
        late_rounds=tuple(late_rounds),
        fields_not_read=_fields_not_read(connection, scope),
        hands_missing=hands_missing(shoes),
        hands_not_judged=hands_not_judged(shoes),
    )


class LateMonth(NamedTuple):
    """Rounds of another month that no report counts (:mod:`reporting.jobs.late`): how many,
    why, and the first ``--as-of`` date whose monthly run writes their month."""

    month: str
    rounds: int
    standing: LateStanding
    as_of: str  # YYYY-MM-DD


def _fields_not_read(
    connection: sqlite3.Connection, scope: RejectScope
) -> tuple[tuple[str, tuple[str, ...] | None], ...]:
    """The files behind the period (rounds of theirs in it, loaded or repeated; every file,
    for all months) that hold fields the tool does not read, each with their names, or whose
    fields were not looked for (None: a file loaded before the store kept them, schema
    version 9); by name, then load order (a file sent again under its name, with other
    content, is a file of its own)."""
    return tuple(
        (name, None if named is None else tuple(json.loads(named)))
        for ingest_id, name, named in connection.execute(
            "SELECT ingest_id, file_name, fields_not_read FROM ingest_log"
            " WHERE fields_not_read IS NULL OR fields_not_read != '[]'"
            " ORDER BY file_name, ingest_id"
        )
        if scope.files is None or scope.behind(ingest_id)
    )


def _rejected_files(
    connection: sqlite3.Connection, where: str, params: Sequence[object]
) -> tuple[RejectedFile, ...]:
    """The files with rejected lines that ``where`` takes (a :class:`RejectScope`'s), each
    with its lines by reason, by name."""
    per_file: dict[int, dict[str, int]] = {}
    for ingest_id, reason, count in connection.execute(
        f"SELECT ingest_id, reason, count(*) FROM rejected_records WHERE {where}"
        " GROUP BY ingest_id, reason",
        params,
    ):
        per_file.setdefault(ingest_id, {})[reason] = count
    files = []
    for ingest_id, (name, rounds_loaded, in_file, duplicates) in _files(
        connection, per_file
    ).items():
        reasons = per_file[ingest_id]
        rejected = sum(reasons.values())
        files.append(RejectedFile(name, rejected, rounds_loaded, reasons, in_file, duplicates))
    return tuple(sorted(files, key=lambda item: item.name))


def _files(
    connection: sqlite3.Connection, ids: Iterable[int]
) -> dict[int, tuple[str, int, int, int]]:
    """Name, rounds loaded, lines rejected and rounds already stored (over every month) of
    each ingest id."""
    return {
        ingest_id: (name, rounds, rejected, duplicates)
        for ingest_id, name, rounds, rejected, duplicates in connection.execute(
            "SELECT ingest_id, file_name, rounds_loaded, rejected, rounds_skipped_duplicate"
            " FROM ingest_log"
            " WHERE ingest_id IN (SELECT value FROM json_each(?)) ORDER BY ingest_id",
            (json.dumps(sorted(ids)),),
        )
    }


def _unverified_bets(
    connection: sqlite3.Connection, month: str | None, unverified_rounds: Mapping[str, int]
) -> int:
    """Bets of the rounds nothing verified (games the configuration does not list)."""
    if not unverified_rounds:
        return 0
    games = json.dumps(sorted(unverified_rounds))
    sql = (
        "SELECT count(*) FROM bets JOIN rounds USING (round_id)"
        " WHERE rounds.game_id IN (SELECT value FROM json_each(?))"
    )
    if month is None:
        return connection.execute(sql, (games,)).fetchone()[0]
    return connection.execute(sql + " AND rounds.report_month = ?", (games, month)).fetchone()[0]


def rejected_lines_bear(count: int) -> str:
    """``1 rejected line bears``, ``3 rejected lines bear``."""
    return "1 rejected line bears" if count == 1 else f"{count:,} rejected lines bear"


def _rounds_of(count: int, month: str) -> str:
    """``1 round of 2026-10 is``, ``3 rounds of 2026-10 are``."""
    return f"{counted(count, 'round')} of {month} {'is' if count == 1 else 'are'}"


def misplaced_line(game: str, rounds: int, timezone: str, period: str) -> str:
    """The alert of ``rounds`` of ``game`` stored in ``period`` that settled outside it in
    ``timezone``, the game's zone now (:func:`~reporting.verify.coverage.misplaced_rounds`):
    verify's, the monthly job's and ``disclose``'s."""
    it, them, were = ("it", "it", "was") if rounds == 1 else ("they", "them", "were")
    return (
        f"{counted(rounds, 'round')} of {game} stored in {period} settled outside it in"
        f" {timezone}, the game's time zone now: {it} {were} loaded under another, and every"
        f" report counts {them} in the month {it} {were} stored in; set the zone back, or"
        " build the store again from the logs"
    )


def _late_line(month: str, rounds: int, standing: LateStanding, as_of: str) -> str:
    """The alert of a month's rounds in no report, by why (:class:`LateStanding`), with the
    run that publishes the month."""
    check = f"check them with verify --month {month}"
    if standing == LateStanding.AHEAD:
        return (
            f"{_rounds_of(rounds, month)} dated past the month after this one and in no"
            f" report (a provider's clock, or a date typed wrong?): {check}"
        )
    if standing == LateStanding.UNPUBLISHED:
        return (
            f"{_rounds_of(rounds, month)} in no report ({month} has no reports in the output"
            f" folder): {check}, then publish {month} (monthly --as-of {as_of})"
        )
    return (
        f"{_rounds_of(rounds, month)} in no report (loaded since {month} was written): {check},"
        f" then publish {month} again (monthly --as-of {as_of})"
    )
