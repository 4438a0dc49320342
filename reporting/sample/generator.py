"""Synthetic round logs: a realistic month of play for every game of a configuration.

:func:`generate_month` writes what a live or RNG baccarat platform would export for one
reporting month (version 1 of the round-log format, JSON lines or CSV), and on request
injects known faults: rounds the verifier must flag and lines the reader must reject, each
listed in a manifest beside the log with its line number.

The cards come from the engine's own dealer (:func:`~reporting.engine.rules.deal_round`)
drawing from shuffled shoes with a burn card and a cut card; every payout comes from
:func:`~reporting.engine.bets.settle` on the logged cards. Nothing here reads the clock:
the same arguments and seed give the same bytes. Rounds are written as they are produced,
so memory stays flat however long the month.

The parts: :mod:`~reporting.sample.calendar` (months, clocks, sessions),
:mod:`~reporting.sample.shoes` (shoes and dealing), :mod:`~reporting.sample.bets` (bet
types, stakes, accounts, settlement), :mod:`~reporting.sample.faults` (one injector per fault
kind), :mod:`~reporting.sample.table` (one table's month), :mod:`~reporting.sample.writers`
(JSON lines and CSV); this module runs the month and sums it up.
"""

from __future__ import annotations

import heapq
import json
import random
from collections.abc import Callable, Collection
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from reporting.config.loader import OperatorConfig
from reporting.errors import InputError
from reporting.files import write_atomically
from reporting.records import CSV_PAIR, FINDING_KINDS, REJECT_REASONS, Month, stored_instant
from reporting.sample.bets import ACCOUNTS_PER_JURISDICTION
from reporting.sample.calendar import (
    MAX_ROUNDS_PER_DAY,
    ROUND_GAP,
    SECOND,
    epoch_ms,
    month_span,
    parse_month,
)
from reporting.sample.exports import EXPORT_FORMATS, ExportWriter, open_export
from reporting.sample.faults import (
    CARRIED_KINDS,
    FAULT_KINDS,
    FORMATS,
    check_room_for_faults,
    injector_for,
    most_faults,
    plan_faults,
    write_round,
)
from reporting.sample.faults.records import AppliedFault, PlannedFault
from reporting.sample.games import GameModel, table_patterns
from reporting.sample.table import Table
from reporting.sample.writers import LogFormat, LogWriter, manifest_file, open_writer

__all__ = [
    "CARRIED_KINDS",
    "FAULT_KINDS",
    "FORMATS",
    "FINDING_KINDS",
    "REJECT_REASONS",
    "GameSample",
    "LogFormat",
    "SampleSummary",
    "generate_month",
    "log_files",
    "month_span",
    "parse_month",
]

# Games a fault may name that a configuration is unlikely to have.
#: Rounds between two reports to a progress callback.
PROGRESS_EVERY = 4096

_UNCONFIGURED_GAMES = ("live-baccarat-mt", "speed-baccarat-it", "dragon-tiger-it", "punto-banco-xx")


# --------------------------------------------------------------------------------------------
# Public records


@dataclass(frozen=True, slots=True)
class GameSample:
    """What was written for one game."""

    game: str
    tables: tuple[str, ...]
    rounds: int
    bets: int
    void_rounds: int
    shoes: int
    first_settled_at: str | None
    last_settled_at: str | None


@dataclass(frozen=True, slots=True)
class SampleSummary:
    """What :func:`generate_month` wrote.

    ``rounds`` counts round records (a conflicting repeat of a round is an extra line, not
    an extra round); ``rejected_lines`` is how many lines the reader must reject, so
    ``rounds - rejected_lines`` rounds load, plus one a conflict (its rejected line is a
    repeat, not a round of its own).
    """

    month: str
    seed: int
    format: str
    log: Path  # the log file, or the folder holding rounds.csv and bets.csv
    files: tuple[Path, ...]  # every file written, the manifest included
    manifest: Path | None  # None: no fault asked, no manifest written
    lines: int  # log lines (rounds.csv rows for CSV; elements of a JSON document; rows of
    # flat-csv), header excluded
    rounds: int  # round records written
    bets: int
    void_rounds: int
    rejected_lines: int
    games: tuple[GameSample, ...]
    faults: dict[str, int]  # kind -> injected count, every kind listed
    skipped_faults: dict[str, str]  # kind -> why it could not be injected
    # Rounds dealt but not written: a replay-api game without bets, or a round whose fault the
    # format cannot carry and a reader would reject (every format then loads the same rounds).
    rounds_left_out: int = 0

    @property
    def loaded_rounds(self) -> int:
        """Rounds a reader loads: every round record except the rejected ones."""
        first_copies = sum(
            count for kind, count in self.faults.items() if injector_for(kind).first_copy_loads
        )
        return self.rounds - self.rejected_lines + first_copies

    def to_document(self) -> dict[str, Any]:
        """The JSON form printed by ``sample --json``."""
        return {
            "month": self.month,
            "seed": self.seed,
            "format": self.format,
            "log": str(self.log),
            "files": [str(path) for path in self.files],
            "manifest": None if self.manifest is None else str(self.manifest),
            "lines": self.lines,
            "rounds": self.rounds,
            "rounds_loaded": self.loaded_rounds,
            "bets": self.bets,
            "void_rounds": self.void_rounds,
            "rejected_lines": self.rejected_lines,
            "rounds_left_out": self.rounds_left_out,
            "games": [
                {
                    "game": game.game,
                    "tables": list(game.tables),
                    "rounds": game.rounds,
                    "bets": game.bets,
                    "void_rounds": game.void_rounds,
                    "shoes": game.shoes,
                    "first_settled_at": game.first_settled_at,
                    "last_settled_at": game.last_settled_at,
                }
                for game in self.games
            ],
            "faults": dict(self.faults),
            "skipped_faults": dict(self.skipped_faults),
        }


# --------------------------------------------------------------------------------------------
# The month


def generate_month(
    config: OperatorConfig,
    month: str,
    out: Path,
    *,
    tables: int = 1,
    seed: int = 0,
    faults: int = 0,
    rounds_per_day: int | None = None,
    fmt: LogFormat | None = None,
    progress: Callable[[int, int], None] | None = None,
    fault_kinds: Collection[str] | None = None,
    games: Collection[str] | None = None,
) -> SampleSummary:
    """Write a synthetic round log of ``month`` for every game of ``config`` (or of ``games``).

    Each game runs ``tables`` tables (``LB-IT-01``, ...) through the game's own month (its
    time zone decides which rounds belong to it): 24 hours a day at about 45 s a round, or
    ``rounds_per_day`` rounds a day in sessions. ``out`` is a ``.jsonl`` or ``.jsonl.gz`` file,
    or with ``fmt="csv"`` a folder that receives ``rounds.csv`` and ``bets.csv``, or a file of
    an export shape (:data:`EXPORT_FORMATS`, :data:`_SUFFIXES`). Every format deals the same
    rounds; each leaves out what it cannot hold.

    ``faults=N`` injects N faults of every kind (or of ``fault_kinds``), each on its own round;
    the manifest beside the log (``<out>.faults.json``, or ``faults.json`` in the CSV folder)
    lists them with their lines (a JSON document's element index), and the kinds the format
    or the games could not carry (no fault asked: no manifest). Same arguments, same bytes.
    ``progress(done, total)`` is told how far through the month the writing is.
    """
    year, number = parse_month(month)
    month_text = str(Month(year, number))
    out = Path(out)
    fmt = _log_format(out, fmt)
    _check_counts(out, fmt, tables, faults, rounds_per_day)
    kinds = _fault_kinds(fault_kinds)
    models = _game_models(config, games)
    _check_fault_count(faults, tables, len(models), rounds_per_day)
    spans = {model.game.id: month_span(month_text, model.game.timezone) for model in models}
    planned, skipped = plan_faults(
        models, spans, tables, faults, random.Random(f"{seed}:faults"), kinds
    )
    if faults > 0:
        skipped = _with_kinds_not_carried(fmt, kinds, skipped)
    check_room_for_faults(planned, spans, rounds_per_day)
    table_runs = _tables(
        config, models, spans, planned, tables=tables, rounds_per_day=rounds_per_day,
        seed=seed, month_start_utc=epoch_ms(datetime(year, number, 1, tzinfo=UTC)),
    )  # fmt: skip

    writer, manifest_path = _open_log(fmt, out, table_runs)
    (run := _MonthRun(models, Month(year, number))).write(writer, table_runs, progress, spans)
    header = _manifest_header(out, seed, month_text, fmt, skipped)
    manifest = (
        run.write_manifest(manifest_path, header) if faults else _no_manifest(manifest_path, out)
    )
    files = (*writer.files(), manifest) if manifest else tuple(writer.files())
    return run.summary(header, fmt, out, files, manifest, writer.lines, table_runs, skipped)


def _manifest_header(
    out: Path, seed: int, month: str, fmt: LogFormat, skipped: dict[str, Any]
) -> dict[str, Any]:
    """What a manifest says before its faults: the log, the seed, the month, and for an
    export shape its format and what a position means in it."""
    header: dict[str, Any] = {"log": out.name, "seed": seed, "month": month}
    if fmt in EXPORT_FORMATS:
        header["format"] = fmt
        header["positions"] = _POSITIONS[fmt]
    if skipped:
        header["skipped_faults"] = skipped
    return header


def _no_manifest(path: Path, log: Path) -> None:
    """A clean month has no answer key: none beside it, nor an old one of this log's, now
    untrue (a file of that name that is not a manifest of ``log``'s is somebody else's, and
    stays)."""
    if path.is_symlink() or not path.is_file():
        return
    try:
        with path.open("rb") as handle:
            ours = json.loads(handle.read(_MANIFEST_BYTES)).get("log") == log.name
    except (OSError, ValueError, AttributeError):
        ours = False
    if ours:
        path.unlink()


#: The largest answer key read back to know it for one of ours.
_MANIFEST_BYTES = 64 * 1024 * 1024


# What a manifest's "line" is, in each export shape.
_POSITIONS = {
    "replay-api": "index of the element in the JSON array, from 0",
    "replay-api-jsonl": "line of the file, from 1",
    "numeric-feed": "index of the element in the JSON array under data, from 0",
    "flat-csv": "line of the file, from 1 (the header is line 1): the round's first row",
}


def _with_kinds_not_carried(
    fmt: str, kinds: tuple[str, ...], skipped: dict[str, str]
) -> dict[str, str]:
    """The kinds no game could carry, and those the format cannot, in FAULT_KINDS order."""
    for kind in kinds:
        reason = injector_for(kind).not_in.get(fmt)
        if reason is not None and kind not in skipped:
            skipped[kind] = reason
    return {kind: skipped[kind] for kind in FAULT_KINDS if kind in skipped}


def _open_log(
    fmt: LogFormat, out: Path, table_runs: list[Table]
) -> tuple[LogWriter | ExportWriter, Path]:
    """The writer of the log, and where its fault manifest goes."""
    if fmt in EXPORT_FORMATS:
        clocks = {table.table_id: table.model.clock for table in table_runs}
        bets = {bet.id: bet for table in table_runs for bet in table.game.bets}
        return open_export(fmt, out, clocks, bets)
    return open_writer(fmt, out)


def _fault_kinds(kinds: Collection[str] | None) -> tuple[str, ...]:
    """The fault kinds asked for, in the order of FAULT_KINDS; refuses an unknown one."""
    if kinds is None:
        return FAULT_KINDS
    unknown = sorted(set(kinds) - set(FAULT_KINDS))
    if unknown:
        raise InputError(
            f"fault kind {', '.join(unknown)}: expected one of {', '.join(FAULT_KINDS)}"
        )
    return tuple(kind for kind in FAULT_KINDS if kind in kinds)


# The names a log of each format that is one file may have.
_SUFFIXES: dict[str, tuple[str, str]] = {
    "jsonl": (".jsonl", ".jsonl.gz"),
    "replay-api": (".json", ".json.gz"),
    "replay-api-jsonl": (".jsonl", ".jsonl.gz"),
    "numeric-feed": (".json", ".json.gz"),
    "flat-csv": (".csv", ".csv.gz"),
}


def log_files(out: Path, fmt: str | None, *, faults: bool = False) -> tuple[Path, ...]:
    """The files a log of ``fmt`` (or of the format ``out``'s name tells) is written to at
    ``out``: the file, or a CSV pair's two files in the folder; and its fault manifest, with
    ``faults``."""
    out = Path(out)
    fmt = _log_format(out, fmt)
    files = tuple(out / name for name in CSV_PAIR) if fmt == "csv" else (out,)
    return (*files, manifest_file(fmt, out)) if faults else files


def _log_format(out: Path, fmt: str | None) -> LogFormat:
    """The format asked for, or told by the name of ``out``; refuses a name that does not fit."""
    if fmt is None:
        if out.name.endswith((".jsonl", ".jsonl.gz")):
            fmt = "jsonl"
        else:
            raise InputError(
                f"{out}: name the log *.jsonl or *.jsonl.gz, or write CSV into a folder with "
                "--format csv, or give an export shape with --format"
            )
    if fmt not in FORMATS:
        raise InputError(f"format {fmt!r}: expected one of {', '.join(FORMATS)}")
    suffixes = _SUFFIXES.get(fmt)
    if suffixes is not None and not out.name.endswith(suffixes):
        raise InputError(f"{out}: a {fmt} log is named *{suffixes[0]} or *{suffixes[1]}")
    return fmt  # type: ignore[return-value]


def _check_counts(
    out: Path, fmt: LogFormat, tables: int, faults: int, rounds_per_day: int | None
) -> None:
    """Refuse, before writing anything, counts out of range and an output that cannot be."""
    if fmt == "csv" and out.exists() and not out.is_dir():
        raise InputError(f"{out}: CSV output goes into a folder, and this is a file")
    if not 1 <= tables <= 99:
        raise InputError(f"--tables {tables}: expected 1 to 99 tables per game")
    if faults < 0:
        raise InputError(f"--faults {faults}: expected 0 or more")
    if rounds_per_day is not None and not 1 <= rounds_per_day <= MAX_ROUNDS_PER_DAY:
        raise InputError(
            f"--rounds-per-day {rounds_per_day:,}: expected 1 to {MAX_ROUNDS_PER_DAY:,}, the"
            f" most a table deals in a day (a round every {ROUND_GAP[0] // SECOND} s at the"
            " quickest)"
        )
    if fmt != "csv" and out.parent.exists() and not out.parent.is_dir():
        raise InputError(f"{out.parent}: not a folder")


def _check_fault_count(faults: int, tables: int, games: int, rounds_per_day: int | None) -> None:
    """Refuse, before anything is planned or held, a fault count no month's rounds could
    hold (:func:`~reporting.sample.faults.most_faults`)."""
    if faults > (most := most_faults(tables, games, rounds_per_day)):
        raise InputError(
            f"--faults {faults:,}: the month's rounds could hold {most:,} of each kind at the"
            " most: raise --rounds-per-day or --tables, or lower --faults"
        )


def _game_models(config: OperatorConfig, chosen: Collection[str] | None) -> list[GameModel]:
    """A model of every game (or of the ``chosen`` ones), in game id order, with table ids
    made unique and an account range per jurisdiction, both as the whole configuration gives
    them."""
    unknown = sorted(set(chosen or ()) - set(config.games))
    if unknown:
        raise InputError(
            f"game {', '.join(unknown)} is not in the configuration: expected one of "
            f"{', '.join(sorted(config.games))}"
        )
    models: list[GameModel] = []
    jurisdictions = sorted({game.jurisdiction for game in config.games.values()})
    patterns = table_patterns(config.games)
    for game_id in sorted(config.games):
        game = config.games[game_id]
        pattern = patterns[game_id]
        account_base = 10000 + jurisdictions.index(game.jurisdiction) * ACCOUNTS_PER_JURISDICTION
        if chosen is None or game_id in chosen:
            models.append(GameModel(game, pattern, account_base))
    return models


def _tables(
    config: OperatorConfig,
    models: list[GameModel],
    spans: dict[str, tuple[int, int]],
    planned: list[PlannedFault],
    *,
    tables: int,
    rounds_per_day: int | None,
    seed: int,
    month_start_utc: int,
) -> list[Table]:
    """Every table of every game, in game order, each with the faults planned for it."""
    unconfigured = next(
        (game for game in _UNCONFIGURED_GAMES if game not in config.games), "unconfigured-game"
    )
    table_runs: list[Table] = []
    for model in models:
        for table_number in range(tables):
            table_faults = [
                fault
                for fault in planned
                if fault.game == model.game.id and fault.table == table_number
            ]
            table_runs.append(
                Table(
                    model, table_number, len(table_runs), spans[model.game.id], month_start_utc,
                    rounds_per_day, table_faults, unconfigured, seed,
                )
            )  # fmt: skip
    return table_runs


def _refuse_unplaced(unplaced: list[PlannedFault]) -> None:
    if unplaced:
        kinds = ", ".join(sorted({fault.kind for fault in unplaced}))
        raise InputError(
            f"the month ended before {len(unplaced)} faults ({kinds}) found a round: give it "
            "more rounds (--rounds-per-day) or ask for fewer --faults"
        )


@dataclass(slots=True)
class _GameTally:
    rounds: int = 0
    bets: int = 0
    voids: int = 0
    first: str | None = None
    last: str | None = None

    def add(self, data: dict[str, Any], void: bool, bets: int) -> None:
        self.rounds += 1
        self.bets += bets
        self.voids += void
        settled = _utc_text(data.get("settled_at"))
        if settled is not None:
            if self.first is None:
                self.first = settled
            self.last = settled


def _utc_text(written: object) -> str | None:
    """A settled time as the store keeps it (UTC, to the millisecond), or None for one a
    fault made no time (the summary's first and last were the log's text: an offset of the
    game's zone, or a time without one)."""
    try:
        moment = datetime.fromisoformat(written) if isinstance(written, str) else None
    except ValueError:
        return None
    return None if moment is None or moment.tzinfo is None else stored_instant(moment)


class _MonthRun:
    """The month's rounds merged from every table in settlement order, written, counted, and
    their faults listed for the manifest."""

    def __init__(self, models: list[GameModel], month: Month):
        self.models = models
        self.tallies = {model.game.id: _GameTally() for model in models}
        self.entries: list[dict[str, Any]] = []
        self.rounds = self.bets = self.voids = self.rejected = self.left_out = 0
        self._bet_number = 0
        # Bet ids are unique in the store (a reused one is a finding): numbered within the
        # month, named after it, so that months generated apart can be loaded together.
        self._bet_prefix = f"B-{month.year:04d}{month.month:02d}-"

    def write(
        self,
        writer: LogWriter | ExportWriter,
        table_runs: list[Table],
        progress: Callable[[int, int], None] | None = None,
        spans: dict[str, tuple[int, int]] | None = None,
    ) -> None:
        """Write every round of every table, and keep the log only if every fault found a
        round; ``progress`` is told how far through ``spans`` (all games' months) it is."""
        kept = False
        try:
            self._write_rounds(writer, table_runs, progress, spans or {})
            _refuse_unplaced([fault for table in table_runs for fault in table.unplaced_faults])
            kept = True
        finally:
            writer.close(keep=kept)

    def write_manifest(self, path: Path, header: dict[str, Any]) -> Path:
        """The manifest: ``header`` (log, seed, month), then the faults in line order."""
        self.entries.sort(key=lambda entry: entry["line"])
        manifest = {**header, "faults": self.entries}
        text = json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"
        return write_atomically(path, text.encode("utf-8"))  # a link there is replaced

    def _write_rounds(
        self,
        writer: LogWriter | ExportWriter,
        table_runs: list[Table],
        progress: Callable[[int, int], None] | None,
        spans: dict[str, tuple[int, int]],
    ) -> None:
        # (settled, table order) is unique, so the merge never compares two rounds' data.
        merged = heapq.merge(*(table.rounds() for table in table_runs))
        start = min((span[0] for span in spans.values()), default=0)
        total = max((span[1] for span in spans.values()), default=0) - start
        for settled, _, game_id, data, void, fault in merged:
            if progress is not None and not self.rounds % PROGRESS_EVERY:
                progress(settled - start, total)
            for bet in data["bets"]:
                self._bet_number += 1
                bet["bet_id"] = f"{self._bet_prefix}{self._bet_number:08d}"
            written = write_round(writer, data, fault)
            if written is None:
                self.left_out += 1
                continue
            line, bet_line, bets = written
            self.rounds += 1
            self.bets += bets
            self.voids += void
            self.tallies[game_id].add(data, void, bets)
            if fault is not None and injector_for(fault.kind).carried_by(writer.format):
                self.rejected += fault.category == "reject"
                self.entries.append(_manifest_entry(data, fault, line, bet_line))

    def summary(
        self,
        header: dict[str, Any],
        fmt: str,
        out: Path,
        files: tuple[Path, ...],
        manifest: Path | None,
        lines: int,
        table_runs: list[Table],
        skipped: dict[str, str],
    ) -> SampleSummary:
        """What was written: ``files`` (the manifest last, if any), ``lines`` of the log."""
        return SampleSummary(
            month=header["month"],
            seed=header["seed"],
            format=fmt,
            log=out,
            files=files,
            manifest=manifest,
            lines=lines,
            rounds=self.rounds,
            bets=self.bets,
            void_rounds=self.voids,
            rejected_lines=self.rejected,
            games=tuple(self.game_sample(model, table_runs) for model in self.models),
            faults=self.fault_counts(),
            skipped_faults=skipped,
            rounds_left_out=self.left_out,
        )

    def fault_counts(self) -> dict[str, int]:
        """How many faults of each kind were written, every kind listed."""
        counts = {kind: 0 for kind in FAULT_KINDS}
        for entry in self.entries:
            counts[entry["kind"]] += 1
        return counts

    def game_sample(self, model: GameModel, table_runs: list[Table]) -> GameSample:
        """What was written for one game."""
        tally = self.tallies[model.game.id]
        return GameSample(
            game=model.game.id,
            tables=tuple(table.table_id for table in table_runs if table.model is model),
            rounds=tally.rounds,
            bets=tally.bets,
            void_rounds=tally.voids,
            shoes=sum(table.shoes.dealt for table in table_runs if table.model is model),
            first_settled_at=tally.first,
            last_settled_at=tally.last,
        )


def _manifest_entry(
    data: dict[str, Any], fault: AppliedFault, line: int, bet_line: int | None
) -> dict[str, Any]:
    """A fault as the manifest lists it."""
    entry: dict[str, Any] = {
        "category": fault.category,
        "kind": fault.kind,
        "game": data["game"],
        "table_id": data["table_id"],
        "round_id": data["round_id"],
        "bet_id": data["bets"][fault.bet_index]["bet_id"] if fault.bet_index is not None else None,
        "line": line,
        "detail": fault.detail,
    }
    if bet_line is not None:
        entry["bets_line"] = bet_line
    entry.update(fault.extra)
    return entry
