"""Writing a file's batches into the open transaction: the new rounds and their bets as they
came. A round already stored, or given twice, is looked at only in a batch that holds one: of
the same content it is a duplicate, counted and skipped; of other content a conflict,
rejected, never overwritten.

A round of a CSV export (its consecutive rows) whose id comes back later in the file with
other rows is apart: neither part loads, each is a ``conflict`` naming the other (a part
loaded would be a round cut short). A file with more than
:data:`~reporting.ingest.limits.MAX_ROUNDS_APART` of them is not grouped by round at all, and
fails whole.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Mapping
from itertools import accumulate
from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING

from msgspec.structs import astuple, replace

from reporting.engine.money import format_cents
from reporting.errors import InputError
from reporting.ingest.limits import MAX_ROUNDS_APART
from reporting.ingest.sources import RowBatch
from reporting.ingest.validation import shown
from reporting.records import (
    Bet,
    RejectedLine,
    RejectReason,
    Round,
    SourceLocation,
)
from reporting.store.damage import damaged
from reporting.store.schema import BET_CONTENT_FIELDS, ROUND_CONTENT_FIELDS, stored_round_content

if TYPE_CHECKING:
    from reporting.store.load import FileResult, StoredNames

__all__ = ["BatchWriter"]

#: A record's content in the order :func:`stored_round_content` gives it, and a bet's.
_round_content = attrgetter(*ROUND_CONTENT_FIELDS)
_bet_content = attrgetter(*BET_CONTENT_FIELDS)
#: The same, named as in the round log, for the raw text of a conflict reject.
_LOG_NAMES = (*("game" if name == "game_id" else name for name in ROUND_CONTENT_FIELDS), "bets")

# A batch comes as rows (reporting.ingest.sources.RowBatch): a round's row is its record's
# fields but its bets, a bet's its record's fields, the statements' parameters in that order.
_ROUND_COLUMNS = Round.__struct_fields__[:-1]
assert Round.__struct_fields__[-1] == "bets"
_ROUND_ID = _ROUND_COLUMNS.index("round_id")
_SOURCE_LINE = _ROUND_COLUMNS.index("source_line")
_month_of = itemgetter(_ROUND_COLUMNS.index("report_month"))
_BET_ROUND_ID = Bet.__struct_fields__.index("round_id")
#: The file's ingest id is a number of the store's own (never text of the log), written into
#: the statement once per file: a round's row is then its record's fields alone. A round
#: already stored is left as it is (ON CONFLICT applies to the primary key only: a row that
#: breaks a CHECK still fails), and the writer then tells a duplicate from a conflict.
_INSERT_ROUND = (
    f"INSERT INTO rounds ({', '.join(_ROUND_COLUMNS)}, ingest_id)"
    f" VALUES ({', '.join('?' * len(_ROUND_COLUMNS))}, {{ingest_id:d}})"
    " ON CONFLICT (round_id) DO NOTHING"
)
_INSERT_BET = (
    f"INSERT INTO bets ({', '.join(Bet.__struct_fields__)})"
    f" VALUES ({', '.join('?' * len(Bet.__struct_fields__))})"
)
# The table keeps its v1 column names: file_name is a RejectedLine's source_file, line its
# source_line.
_INSERT_REJECT = (
    "INSERT INTO rejected_records (ingest_id, file_name, line, reason, message, round_id,"
    " raw_text, report_month) VALUES (?,?,?,?,?,?,?,?)"
)


#: The optional fields of a round, and of a bet, a log profile may read and an export may
#: leave out of some rounds, never of all (a void reason only a void round has is not one).
_WATCHED_ROUND_FIELDS = ("shoe_id", "hand_no", "started_at", "betting_closed_at")
_WATCHED_BET_FIELDS = ("placed_at",)

#: The fields of a bet in a round's content after its id, the money ones in cents.
_BET_CONTENT = BET_CONTENT_FIELDS[1:]


def _difference(kept: tuple, given: tuple) -> str:
    """The first field in which a round given differs from the one kept, in the round log's
    words and units (``the payout of bet 'B-1': 20.00 stored, 0.00 on this line``): what the conflict is
    about, for whoever asks the provider."""
    for name, old, new in zip(_LOG_NAMES[:-1], kept, given, strict=False):
        if old != new:
            return f"{name}: {_shown(old)} stored, {_shown(new)} on this line"
    old_bets = {bet[0]: bet for bet in (kept[-1] if kept else ())}
    new_bets = {bet[0]: bet for bet in (given[-1] if given else ())}
    for bet_id in sorted(old_bets.keys() | new_bets.keys()):
        old, new = old_bets.get(bet_id), new_bets.get(bet_id)
        if old is None or new is None:
            return f"bet {shown(bet_id)} {'on this line' if old is None else 'in the stored round'} only"
        for index, name in enumerate(_BET_CONTENT, start=1):
            if old[index] != new[index]:
                money = name.endswith("_cents")
                was, now = (
                    format_cents(v) if money else _shown(v) for v in (old[index], new[index])
                )
                named = "type" if name == "bet_type" else name.removesuffix("_cents")
                return f"the {named} of bet {shown(bet_id)}: {was} stored, {now} on this line"
    return "the same fields, in another form"


def _shown(value: object) -> str:
    return "none" if value is None else shown(value) if isinstance(value, str) else str(value)


def _records_of(batch: RowBatch) -> list[Round]:
    """The batch's rounds as records again (for the rare batch whose rounds must be told
    apart: a round twice, or one already stored)."""
    ends = list(accumulate(batch.bet_counts))
    return [
        Round(*row, [Bet(*bet) for bet in batch.bets[end - count : end]])
        for row, count, end in zip(batch.rounds, batch.bet_counts, ends, strict=True)
    ]


class BatchWriter:
    """Writes batches into the open transaction, resolving duplicates and conflicts."""

    def __init__(
        self,
        connection: sqlite3.Connection,
        ingest_id: int,
        result: FileResult,
        keep_rejects: int,
        names: StoredNames,
        rows_together: bool = False,
    ):
        self.connection = connection
        self.names = names
        self.ingest_id = ingest_id
        self.result = result
        self.keep_rejects = keep_rejects
        self.lines = 0
        self._file_names: dict[int, str] = {}
        self._insert_round = _INSERT_ROUND.format(ingest_id=ingest_id)
        #: A layout whose round is its consecutive rows (a CSV export), not one record each
        self.rows_together = rows_together
        #: and the ids of its rounds found apart, with the line of their first part.
        self.apart: dict[str, int] = {}
        #: The optional fields a log profile reads, by their place in a round's row or a
        #: bet's, with their paths: looked at in the first batch (:meth:`watch_fields`).
        self._watched: list[tuple[bool, int, str]] = []

    def watch_fields(
        self, round_paths: Mapping[str, object], bet_paths: Mapping[str, object]
    ) -> None:
        """Look, in the first batch of rounds, for the optional fields a log profile reads
        (paths of its ``[round]`` and ``[bet]``) that hold no value in any of them: a path
        that matches nothing in the export stores each empty, without a reject (a misspelt
        ``shoe.handNo`` left every hand number empty). Each is named in
        ``result.empty_fields``."""
        self._watched = [
            (False, _ROUND_COLUMNS.index(name), f"{name} ({round_paths[name]})")
            for name in _WATCHED_ROUND_FIELDS
            if name in round_paths
        ] + [
            (True, Bet.__struct_fields__.index(name), f"{name} ({bet_paths[name]})")
            for name in _WATCHED_BET_FIELDS
            if name in bet_paths
        ]

    def _look_at_fields(self, rounds: list[tuple], bets: list[tuple]) -> None:
        """Name the watched fields empty in every round (or bet) of this first batch."""
        for of_bets, place, named in self._watched:
            rows = bets if of_bets else rounds
            if rows and all(row[place] is None for row in rows):
                kind = "bet" if of_bets else "round"
                first = f"its {kind}" if len(rows) == 1 else f"its first {len(rows):,} {kind}s"
                self.result.empty_fields.append(f"{named} is empty in {first}")
        self._watched = []

    def write(self, batch: RowBatch) -> None:
        """Store a batch: its new rounds with their bets, and its rejected lines together
        with the rounds that conflict with one stored (or earlier in the batch).

        The common batch, of rounds new to the store and each once, costs two
        ``executemany`` of its rows as they came; the rest is told apart only when the
        batch holds a round twice, or when fewer rounds than given were inserted."""
        rejects = list(batch.rejects)
        rounds, bets = batch.rounds, batch.bets
        if rounds:
            ids = {row[_ROUND_ID] for row in rounds}
            repeated: list[tuple[Round, Round]] = []
            if len(ids) != len(rounds) or (self.apart and not self.apart.keys().isdisjoint(ids)):
                rounds, bets = self._first_of_each(_records_of(batch), rejects, repeated)
            inserted = self.connection.executemany(self._insert_round, rounds).rowcount
            months = Counter(map(_month_of, rounds))
            if inserted != len(rounds):
                bets, kept_out = self._drop_stored(rounds, bets, rejects, inserted)
                months -= Counter(_month_of(row) for row in rounds if row[_ROUND_ID] in kept_out)
            for record, earlier in repeated:  # told where the round they repeat is stored
                where = self._stored_at(earlier)
                rejects.append(
                    self._conflict(record, where, self._content(earlier), earlier.report_month)
                )
            self.connection.executemany(_INSERT_BET, bets)
            for month, count in months.items():
                self.result.months[month] = self.result.months.get(month, 0) + count
            self.result.rounds_loaded += inserted
            self.result.bets_loaded += len(bets)
        if self._watched and rounds:
            self._look_at_fields(rounds, bets)
        self.lines += len(batch.rounds) + len(batch.rejects)
        if rejects:
            self._store_rejects(rejects)

    def _first_of_each(
        self,
        records: list[Round],
        rejects: list[RejectedLine],
        repeated: list[tuple[Round, Round]],
    ) -> tuple[list[tuple], list[tuple]]:
        """The rows of the batch's first round of each id, and of their bets; a repeat is a
        duplicate when its content is the same, a conflict when not (added to ``repeated``
        with the round it repeats, told once the store says where that one is: a duplicate
        of a round of another file is stored there, not here): of a CSV export, both parts of
        a round apart are conflicts (added to ``rejects``), and every later part."""
        fresh: dict[str, Round] = {}
        apart = self.apart
        for record in records:
            earlier = fresh.get(record.round_id)
            if apart and record.round_id in apart:
                rejects.append(self._apart_again(record, apart[record.round_id]))
            elif earlier is None:
                fresh[record.round_id] = record
            elif self._content(earlier) == self._content(record):
                self._duplicate(earlier.report_month)
            elif self.rows_together:
                del fresh[record.round_id]
                content = self._content(earlier)
                rejects += self._apart_parts(
                    record, earlier.source_line, content, earlier.report_month
                )
            else:
                repeated.append((record, earlier))
        kept = list(fresh.values())
        return (
            [astuple(record)[: len(_ROUND_COLUMNS)] for record in kept],
            [astuple(bet) for record in kept for bet in record.bets],
        )

    def _drop_stored(
        self, rounds: list[tuple], bets: list[tuple], rejects: list[RejectedLine], inserted: int
    ) -> tuple[list[tuple], set[str]]:
        """The bets of the rounds just inserted; the rounds that were not (stored before this
        batch, by an earlier file or earlier in this one) are duplicates, or conflicts.

        A round stored under this file's number and line that was not inserted now is a
        round whose file's row was deleted from the log (foreign keys off), its number
        taken again by this file: the store was changed by hand, and said so (its bets
        failed the bets' primary key, a traceback)."""
        connection = self.connection
        given = {row[_ROUND_ID]: row for row in rounds}
        stored = connection.execute(
            "SELECT round_id, ingest_id, source_line, report_month FROM rounds"
            " WHERE round_id IN (SELECT value FROM json_each(?))",
            (json.dumps(list(given)),),
        ).fetchall()
        earlier = [
            (round_id, ingest_id, source_line, month)
            for round_id, ingest_id, source_line, month in stored
            if (ingest_id, source_line) != (self.ingest_id, given[round_id][_SOURCE_LINE])
        ]  # the rest: this very row, inserted now
        if len(given) - len(earlier) != inserted:
            ours = next(  # one is: more rows of this file's number than it inserted now
                round_id for round_id, ingest_id, *_ in stored if ingest_id == self.ingest_id
            )
            raise damaged(
                ours,
                f"a file number, {self.ingest_id}, that the files' log does not hold (its row"
                " was deleted, and the file loaded now took its number)",
                connection,
            )
        kept_out = {round_id for round_id, *_ in earlier}
        bets_of: dict[str, list[Bet]] = {round_id: [] for round_id in kept_out}
        for bet in bets:
            if bet[_BET_ROUND_ID] in kept_out:
                bets_of[bet[_BET_ROUND_ID]].append(Bet(*bet))
        for round_id, ingest_id, source_line, month in earlier:
            record = Round(*given[round_id], bets_of[round_id])
            kept = stored_round_content(connection, round_id)
            if kept == self._content(record):
                self._duplicate(month)
            elif ingest_id == self.ingest_id and self.rows_together:
                month = self._unload(round_id, len(kept[-1]) if kept else 0)
                rejects += self._apart_parts(record, source_line, kept or (), month)
            elif ingest_id == self.ingest_id:
                where = self._in_this_file(source_line)
                rejects.append(self._conflict(record, where, kept or (), month))
            else:
                where = str(SourceLocation(self._source_name(ingest_id), source_line))
                rejects.append(self._conflict(record, where, kept or (), month))
        return [bet for bet in bets if bet[_BET_ROUND_ID] not in kept_out], kept_out

    def _store_rejects(self, rejects: list[RejectedLine]) -> None:
        """Store the rejected lines in file order, and keep the first ones for the report."""
        if self.names.renames:
            rejects = [self.names.renamed(reject) for reject in rejects]
        rejects.sort(key=lambda reject: (reject.source_file, reject.source_line))
        ingest_id = self.ingest_id
        self.connection.executemany(
            _INSERT_REJECT,
            [
                (
                    ingest_id,
                    r.source_file,
                    r.source_line,
                    r.reason,
                    r.message,
                    r.round_id,
                    r.raw_text,
                    r.report_month,
                )
                for r in rejects
            ],
        )
        self.result.rejected_count += len(rejects)
        room = self.keep_rejects - len(self.result.rejected)
        if room > 0:
            self.result.rejected.extend(rejects[:room])

    @staticmethod
    def _content(record: Round) -> tuple:
        """The record as the store holds it (see :func:`stored_round_content`)."""
        bets = tuple(sorted(_bet_content(bet) for bet in record.bets))
        return (*_round_content(record), bets)

    def _duplicate(self, month: str) -> None:
        """A round already stored with the same content: counted and skipped, in the stored
        round's ``month``."""
        result = self.result
        result.rounds_skipped_duplicate += 1
        result.duplicate_months[month] = result.duplicate_months.get(month, 0) + 1

    def _in_this_file(self, line: int) -> str:
        """Where in the file being loaded a record was: its line, or a JSON document's record
        by its index (``record #4``, as :class:`~reporting.records.SourceLocation` shows it)."""
        return f"{SourceLocation(self.result.file, line).within_file()} of this file"

    def _conflict(self, record: Round, where: str, kept: tuple, month: str) -> RejectedLine:
        """The reject of ``record``, a round loaded before (at ``where``, of content ``kept``,
        in reporting ``month``) with other content. It bears on the stored round's month,
        whose figures hold the round it casts doubt on: a re-send that moves a round of 31
        October past midnight was told of in November's audit alone, and October's, which
        counts the round, said nothing of it."""
        content = self._content(record)
        return RejectedLine(
            source_file=self.result.file,
            source_line=record.source_line,
            reason=RejectReason.CONFLICT.value,
            message=f"round {record.round_id!r} was already loaded from {where} with other"
            f" content ({_difference(kept, content)}); the stored round is kept",
            raw_text=json.dumps(dict(zip(_LOG_NAMES, content, strict=True)), ensure_ascii=False),
            round_id=record.round_id,
            report_month=month,
        )

    def _apart_parts(
        self, record: Round, first_line: int, first: tuple, first_month: str
    ) -> list[RejectedLine]:
        """The rejects of both parts of a round of a CSV export found apart: its first part
        (at ``first_line``, of content ``first``, in ``first_month``) and ``record``, its rows
        at a later line. Past :data:`MAX_ROUNDS_APART` such rounds, the file fails whole."""
        round_id, line, apart = record.round_id, record.source_line, self.apart
        apart[round_id] = first_line
        if len(apart) > MAX_ROUNDS_APART:
            (one, at), *_ = apart.items()
            raise InputError(
                f"{self.result.file}: its rows are not grouped by round: more than"
                f" {MAX_ROUNDS_APART:,} rounds have rows apart (the first, {shown(one)}, at line"
                f" {at} and later): a round's rows must be together; sort the export by round,"
                " or ask its provider; nothing of it was loaded"
            )
        between = "with another round's rows between: a round's rows must be together; neither"
        return [
            RejectedLine(
                source_file=self.result.file,
                source_line=first_line,
                reason=RejectReason.CONFLICT.value,
                message=f"round {round_id!r} has rows here and again at line {line}, {between}"
                " part is loaded",
                raw_text=json.dumps(dict(zip(_LOG_NAMES, first, strict=True)), ensure_ascii=False),
                round_id=round_id,
                report_month=first_month,
            ),
            replace(
                self._conflict(
                    record, f"line {first_line} of this file", first, record.report_month
                ),
                message=f"round {round_id!r} has rows at line {first_line} and again here,"
                f" {between} part is loaded",
            ),
        ]

    def _apart_again(self, record: Round, first_line: int) -> RejectedLine:
        """The reject of a later part of a round found apart before: not loaded either."""
        return replace(
            self._conflict(record, f"line {first_line} of this file", (), record.report_month),
            message=f"round {record.round_id!r} has rows apart in this file (its first at line"
            f" {first_line}, not loaded): a round's rows must be together; this part is not"
            " loaded either",
        )

    def _unload(self, round_id: str, bets: int) -> str:
        """Take out of the store a round this file loaded (and its ``bets`` bets), found apart
        since: its month."""
        self.connection.execute("DELETE FROM bets WHERE round_id = ?", (round_id,))
        (month,) = self.connection.execute(
            "DELETE FROM rounds WHERE round_id = ? RETURNING report_month", (round_id,)
        ).fetchone()
        result = self.result
        result.rounds_loaded -= 1
        result.bets_loaded -= bets
        result.months[month] -= 1
        if not result.months[month]:
            del result.months[month]
        return month

    def _stored_at(self, first: Round) -> str:
        """Where the round a batch gave ``first`` is stored: ``first``'s line of this file,
        or, when ``first`` was a duplicate of an earlier file's round (nothing of it loaded),
        that file's line. Asked only of a round given twice with other content: rare."""
        row = self.connection.execute(
            "SELECT ingest_id, source_line FROM rounds WHERE round_id = ?", (first.round_id,)
        ).fetchone()
        if row is None or row[0] == self.ingest_id:
            return self._in_this_file(first.source_line)
        return str(SourceLocation(self._source_name(row[0]), row[1]))

    def _source_name(self, ingest_id: int) -> str:
        if ingest_id not in self._file_names:
            row = self.connection.execute(
                "SELECT file_name FROM ingest_log WHERE ingest_id = ?", (ingest_id,)
            ).fetchone()
            self._file_names[ingest_id] = row[0] if row else "an earlier file"
        return self._file_names[ingest_id]
