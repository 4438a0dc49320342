"""Benchmark: generate a synthetic month, ingest it, and compare with the raw SQLite floor.

Measures and prints; it never passes or fails on time. Run with ``make bench`` (1,000,000
rounds) or ``python scripts/bench.py --rounds 200000``. Data goes to a temporary folder
outside the repository (or ``--dir``), removed afterwards unless ``--keep``.

Phases, each in its own process so peak memory (RSS) is its own:

* generate: ``baccarat-report sample`` (not timed against anything, shown for scale);
* ingest: ``baccarat-report ingest`` of the generated ``.jsonl.gz``;
* floor: the raw insert of the very same round and bet rows (read back from the ingested
  database into lists before the clock starts, in the order ingest wrote them) into tables
  with their primary keys alone (the target's floor), then into the project's whole schema
  (:data:`reporting.store.sql.SCHEMA`, its indexes made first), each in a fresh database:
  one ``executemany`` for each table, one transaction, the pragmas of the store's
  ``connect()`` (WAL, synchronous NORMAL, its cache size). What ingest adds to the first is
  its own work (reading, checking, deciding duplicates and conflicts) and the indexes a
  month's verify reads through; to the second, its own work alone;
* floor, bets only (the floor of earlier benchmarks, printed beside it): raw
  ``sqlite3.executemany`` of the bet rows alone, streamed from the ingested database, into the
  schema's ``bets`` table;
* verify: ``baccarat-report verify`` of the month with one job, then with a job per core (the
  two must find the same; their ratio is printed), then with the month's audit written
  (``--workbook`` and ``--report``): the difference is the audit's cost;
* the same month written in a provider's shape (``sample --format replay-api``, a gzipped JSON
  document) and ingested with ``--profile replay-api`` into a database of its own: the
  profiled reader against the spec's JSON Lines reader, same rounds;
* odds against its floor: ``odds --game live-baccarat-it --json`` and the tests' independent
  exact calculator for the same shoe (``scripts/oracle_odds.py``), whole processes in turn:
  the median of seven pairs' ratios (target: at most 1.0x);
* help: the median wall time of ``baccarat-report --help`` and ``verify --help``, the
  installed console script, whole process, as a user waits for it (under 0.15 s);
* variants: a month of four classic games and a month of the same size of four variant games
  (no commission, EZ, the Tiger family, Super 6 and Lucky 6 beside the pairs), each generated,
  ingested and verified with one job: verify of the variant month against the classic one
  (target: within 1.25x); then ``odds --game`` of a variant game, whole process, the median of
  five runs (target: under 0.5 s);
* months: ``--months N`` months of ``--month-rounds`` rounds each (the last of them October,
  by default 12 of 60,000: above the 50,000 from which verify's default runs in partitions),
  generated and ingested into one store, the newest also into a store of its own; verify of
  that month in each, with one job and with the default number, in turn (A B A B A B): the
  median of the three ratios, many months / alone, for each (target: within 1.15x).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CONFIG = REPO / "sample_data" / "operator.toml"
MONTH = "2026-10"
GAMES = 4  # in each month of the variants phase
ROUNDS_PER_TABLE_MONTH = 31 * 24 * 3600 // 45  # a table dealing 24/7, about 45 s a round

#: The variants phase's two months: four classic catalogue games, and four variant games on the
#: same bases (the same decks, limits and languages), each dealt at tables of its own.
CLASSIC_GAMES = """
[operator]
name = "Bench"
[games.live-baccarat-it]
tables = ["LB-IT-*"]
[games.live-baccarat-dk]
tables = ["LB-DK-*"]
[games.live-baccarat-gr]
tables = ["LB-GR-*"]
[games.mini-baccarat-it]
regulator_code = "2377"
opening_hours = "24h"
tables = ["MB-IT-*"]
"""
VARIANT_GAMES = """
[operator]
name = "Bench"
[games.no-commission-it]
base = "live-baccarat-it"
bets = ["player", "banker_no_commission", "tie", "super_6", "player_pair", "banker_pair"]
tables = ["NC-IT-*"]
[games.ez-baccarat-dk]
base = "live-baccarat-dk"
bets = ["player", "banker_ez", "tie", "dragon_7", "panda_8", "ox_6"]
tables = ["EZ-DK-*"]
[games.tiger-baccarat-gr]
base = "live-baccarat-gr"
bets = ["player", "banker", "tie", "tiger", "small_tiger", "big_tiger", "tiger_tie", "tiger_pair"]
exclusive_bets = []
tables = ["TG-GR-*"]
[games.lucky-6-it]
base = "mini-baccarat-it"
bets = ["player", "banker", "banker_no_commission", "tie", "lucky_6", "perfect_pair"]
pay = { perfect_pair_both = "250" }
regulator_code = "2377"
opening_hours = "24h"
tables = ["L6-IT-*"]
"""
#: The variant game whose ``odds --game`` the variants phase times.
ODDS_GAME = "tiger-baccarat-gr"

#: The floor of earlier benchmarks: the bet rows alone, streamed from the ingested database.
BETS_FLOOR_SCRIPT = """
import sqlite3, sys, time
from reporting.store.schema import SCHEMA
source = sqlite3.connect(sys.argv[1])
target = sqlite3.connect(sys.argv[2], isolation_level=None)
for pragma in ("journal_mode = WAL", "synchronous = NORMAL", "cache_size = -65536"):
    target.execute("PRAGMA " + pragma)
target.executescript(SCHEMA)
rows = source.execute("SELECT * FROM bets")
start = time.perf_counter()
target.execute("BEGIN")
target.executemany("INSERT INTO bets VALUES (?,?,?,?,?,?,?,?,?)", rows)
target.execute("COMMIT")
print(time.perf_counter() - start)
"""

#: verify on a two-worker LocalCluster of worker processes (the command's arguments after the
#: script's name): the cluster's start is in the time, its workers in the memory.
CLUSTER_SCRIPT = """
import subprocess, sys
from distributed import LocalCluster
with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c:
    done = subprocess.run(
        [sys.executable, "-m", "reporting", *sys.argv[1:], "--scheduler", c.scheduler_address],
        capture_output=True, text=True,
    )
sys.stdout.write(done.stdout)
sys.stderr.write(done.stderr)
sys.exit(done.returncode)
"""

#: The floor of ingest: the same round and bet rows, pre-built in memory (in the order ingest
#: wrote them: rounds in file order, each round's bets in its line's order, which is bet_id
#: order in the generated logs), inserted alone into the project's schema, pragmas as the
#: store's connect() sets them (its cache size read from a connection it opens).
FLOOR_SCRIPT = """
import re, sqlite3, sys, time
from pathlib import Path
from reporting.store.schema import SCHEMA, connect
source = sqlite3.connect(sys.argv[1])
store = connect(Path(sys.argv[1]), create=False)
cache_size = store.execute("PRAGMA cache_size").fetchone()[0]
store.close()
log = source.execute("SELECT * FROM ingest_log").fetchall()
rounds = source.execute("SELECT * FROM rounds ORDER BY rowid").fetchall()
bets = source.execute(
    "SELECT bets.* FROM rounds JOIN bets ON bets.round_id = rounds.round_id"
    " ORDER BY rounds.rowid, bets.bet_id"
).fetchall()
source.close()
target = sqlite3.connect(sys.argv[2], isolation_level=None)
for pragma in ("journal_mode = WAL", "synchronous = NORMAL", f"cache_size = {cache_size}"):
    target.execute("PRAGMA " + pragma)
# "keys": the tables with their primary keys alone (the issue's floor), no other index.
keys_only = sys.argv[3] == "keys"
target.executescript(re.sub(r"CREATE INDEX[^;]*;", "", SCHEMA) if keys_only else SCHEMA)
start = time.perf_counter()
target.execute("BEGIN")
target.executemany(f"INSERT INTO ingest_log VALUES ({','.join('?' * len(log[0]))})", log)
target.executemany(f"INSERT INTO rounds VALUES ({','.join('?' * len(rounds[0]))})", rounds)
target.executemany(f"INSERT INTO bets VALUES ({','.join('?' * len(bets[0]))})", bets)
target.execute("COMMIT")
print(time.perf_counter() - start)
"""


def tree_rss_kib(root: int) -> int:
    """Resident memory (KiB) of a process and all its descendants, read from /proc."""
    total, pending = 0, [root]
    while pending:
        pid = pending.pop()
        try:
            status = Path(f"/proc/{pid}/status").read_text()
            children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        except OSError:
            continue
        total += next(
            (int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0
        )
        pending.extend(int(child) for child in children)
    return total


def run(command: list[str], label: str) -> tuple[float, int, str]:
    """Run a phase in a child process; return (seconds, peak RSS in KiB, stdout).

    The peak is the largest of: the process's own peak (from the kernel), and the summed
    memory of the process and its children sampled every 0.1 s (ingest reads large files in
    a second process, and both count).
    """
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    output: dict[str, str] = {}
    readers = [
        threading.Thread(target=lambda: output.update(out=process.stdout.read())),  # type: ignore[union-attr]
        threading.Thread(target=lambda: output.update(err=process.stderr.read())),  # type: ignore[union-attr]
    ]
    for reader in readers:
        reader.start()
    sampled = 0
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        sampled = max(sampled, tree_rss_kib(process.pid))
        time.sleep(0.1)
    elapsed = time.perf_counter() - start
    for reader in readers:
        reader.join()
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):  # 1 = done with findings or rejects
        sys.exit(f"{label} failed with exit code {code}:\n{output.get('err')}")
    return elapsed, max(sampled, usage.ru_maxrss), output.get("out", "")


# Long on purpose: the phases in the order they run, each a few lines, read top to bottom.
def main() -> None:
    """Run every phase and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1_000_000, help="rounds to generate")
    parser.add_argument("--dir", type=Path, help="work folder (default: a temporary one)")
    parser.add_argument("--keep", action="store_true", help="keep the generated files")
    parser.add_argument(
        "--variant-rounds",
        type=int,
        default=200_000,
        help="rounds of each month of the variants phase (0: skip the phase)",
    )
    parser.add_argument(
        "--months",
        type=int,
        default=12,
        help="months of the many-months phase, the last of them October (0: skip the phase)",
    )
    parser.add_argument(
        "--month-rounds",
        type=int,
        default=60_000,
        help="rounds of each month of the many-months phase",
    )
    args = parser.parse_args()

    work = args.dir or Path(tempfile.mkdtemp(prefix="baccarat-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    games = len(tomllib.loads(CONFIG.read_text(encoding="utf-8"))["games"])
    tables = max(1, math.ceil(args.rounds / (games * ROUNDS_PER_TABLE_MONTH)))
    per_day = max(1, round(args.rounds / (games * tables * 31)))
    log, db, floor_db = work / "bench.jsonl.gz", work / "bench.sqlite", work / "floor.sqlite"
    for path in (db, floor_db):
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
    cli = [sys.executable, "-m", "reporting"]
    rows = []
    verify_seconds: list[tuple[str, float]] = []
    try:
        rows.append(generate(cli, log, tables, per_day))

        seconds, rss, out = run(
            [*cli, "ingest", str(log), "--db", str(db), "--config", str(CONFIG), "--json"],
            "ingest",
        )
        loaded = json.loads(out)
        ingest_seconds = seconds
        rows.append(("ingest", seconds, loaded["rounds_loaded"], loaded["bets_loaded"], rss))

        floors = {}
        for name, script, label, rounds in (
            ("keys", FLOOR_SCRIPT, "floor: raw insert, primary keys only", loaded["rounds_loaded"]),
            ("schema", FLOOR_SCRIPT, "floor: raw insert, rounds + bets", loaded["rounds_loaded"]),
            ("bets", BETS_FLOOR_SCRIPT, "floor: raw insert, bets only", 0),
        ):
            for suffix in ("", "-wal", "-shm"):
                Path(f"{floor_db}{suffix}").unlink(missing_ok=True)
            command = [sys.executable, "-c", script, str(db), str(floor_db), name]
            seconds, rss, out = run(command, label)
            floors[name] = float(out)
            rows.append((label, floors[name], rounds, loaded["bets_loaded"], rss))

        help_text = subprocess.run([*cli, "--help"], capture_output=True, text=True).stdout
        if " verify " in help_text:
            verify_seconds = verify_phases(cli, db, work, rows)
        profiled_seconds = profiled(cli, work, tables, per_day, rows)
        variants = (
            variant_phase(cli, work, args.variant_rounds, rows) if args.variant_rounds else None
        )
        months = (
            months_phase(cli, work, args.months, args.month_rounds, rows) if args.months else None
        )
    finally:
        if not args.keep and args.dir is None:
            shutil.rmtree(work, ignore_errors=True)

    print_table(rows, {name: ingest_seconds / floor for name, floor in floors.items()})
    if verify_seconds:
        one, *others = verify_seconds
        for jobs, seconds in others:
            target = " (target: at most 0.6x)" if jobs.endswith("jobs") else ""
            print(f"verify with {jobs} / with 1 job: {seconds / one[1]:.2f}x{target}")
    print(
        f"ingest --profile replay-api / ingest of JSON Lines: {profiled_seconds / ingest_seconds:.2f}x"
    )
    if variants is not None:
        classic, variant, odds_median = variants
        print(
            f"verify of the variant month / of the classic month of the same size, 1 job:"
            f" {variant / classic:.2f}x (target: within 1.25x)"
        )
        print(
            f"odds --game {ODDS_GAME} --json: median {odds_median:.3f} s of 5 runs (target: under 0.5 s)"
        )
    if months is not None:
        for jobs, ratio in months.items():
            print(
                f"verify of the newest of {args.months} months in one store / of that month alone,"
                f" {jobs}: median of 3 pairs {ratio:.2f}x (target: within 1.15x)"
            )
    odds_seconds, oracle_seconds, odds_ratio = odds_phase()
    print(
        f"odds --game {ODDS_FLOOR_GAME} --json / the independent exact calculator, same shoe:"
        f" median of {ODDS_PAIRS} pairs {odds_ratio:.2f}x ({odds_seconds:.3f} s against"
        f" {oracle_seconds:.3f} s; target: at most 1.0x)"
    )
    help_phase()


#: Runs of each verify the many-months phase takes in turn: the ratio is the median of the pairs.
MONTHS_PAIRS = 3


def months_phase(
    cli: list[str], work: Path, months: int, rounds: int, rows: list[Row]
) -> dict[str, float]:
    """``months`` months of ``rounds`` rounds each, the last of them :data:`MONTH`, in one
    store, and that month alone in another; verify of the month in each, with one job and
    with the default, in turn (each verify row of the table: the median time of the runs, the
    peak of their memory): per jobs label, the median ratio many months / alone."""
    year, number = map(int, MONTH.split("-"))
    names = [
        f"{year + (number - 1 - back) // 12}-{(number - 1 - back) % 12 + 1:02}"
        for back in reversed(range(months))
    ]
    games = len(tomllib.loads(CONFIG.read_text(encoding="utf-8"))["games"])
    tables = max(1, math.ceil(rounds / (games * ROUNDS_PER_TABLE_MONTH)))
    per_day = max(1, round(rounds / (games * tables * 31)))
    logs = []
    for name in names:
        logs.append(work / f"month-{name}.jsonl.gz")
        generate(cli, logs[-1], tables, per_day, month=name)
    stores = {"alone": work / "month-alone.sqlite", "many": work / "months.sqlite"}
    for label, db, given in (("alone", stores["alone"], logs[-1:]), ("many", stores["many"], logs)):
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        seconds, rss, out = run(
            [*cli, "ingest", *map(str, given), "--db", str(db), "--config", str(CONFIG), "--json"],
            f"ingest of {label}",
        )
        loaded = json.loads(out)
        rows.append(
            (
                f"ingest, {len(given)} month(s) of ~{rounds:,} rounds",
                seconds,
                loaded["rounds_loaded"],
                loaded["bets_loaded"],
                rss,
            )
        )
    ratios = {}
    for jobs, option in (("--jobs 1", ["--jobs", "1"]), ("default jobs", [])):
        timed: dict[str, list[float]] = {"many": [], "alone": []}
        peak = {"many": 0, "alone": 0}
        documents = {}
        for _ in range(MONTHS_PAIRS):
            for label in ("many", "alone"):
                command = [*cli, "verify", "--db", str(stores[label]), "--config", str(CONFIG)]
                seconds, rss, out = run(
                    [*command, "--month", MONTH, "--json", *option], f"verify {label} {jobs}"
                )
                timed[label].append(seconds)
                peak[label] = max(peak[label], rss)
                documents[label] = json.loads(out)
        if documents["many"] != documents["alone"]:
            sys.exit(f"verify of {MONTH} found otherwise among {months} months than alone")
        checked = documents["alone"]
        for label, what in (("many", f"newest of {months} months"), ("alone", "that month alone")):
            rows.append(
                (
                    f"verify, {what}, {jobs}",
                    sorted(timed[label])[MONTHS_PAIRS // 2],
                    checked["rounds_checked"],
                    checked["bets_checked"],
                    peak[label],
                )
            )
        pairs = sorted(m / a for m, a in zip(timed["many"], timed["alone"], strict=True))
        ratios[jobs] = pairs[MONTHS_PAIRS // 2]
    return ratios


def variant_phase(
    cli: list[str], work: Path, rounds: int, rows: list[Row]
) -> tuple[float, float, float]:
    """The classic and the variant month of ``rounds`` rounds each, generated, ingested and
    verified with one job; then ``odds`` of a variant game: (classic verify seconds, variant
    verify seconds, median odds seconds)."""
    tables = max(1, math.ceil(rounds / (GAMES * ROUNDS_PER_TABLE_MONTH)))
    per_day = max(1, round(rounds / (GAMES * tables * 31)))
    verified = []
    for label, text in (("classic", CLASSIC_GAMES), ("variant", VARIANT_GAMES)):
        config, log, db = (
            work / f"{label}{suffix}" for suffix in (".toml", ".jsonl.gz", ".sqlite")
        )
        config.write_text(text, encoding="utf-8")
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        generated = generate(cli, log, tables, per_day, config=config)
        rows.append((f"generate, {label} games", *generated[1:]))
        seconds, rss, out = run(
            [*cli, "ingest", str(log), "--db", str(db), "--config", str(config), "--json"],
            f"ingest, {label} games",
        )
        loaded = json.loads(out)
        rows.append(
            (f"ingest, {label} games", seconds, loaded["rounds_loaded"], loaded["bets_loaded"], rss)
        )
        seconds, rss, out = run(
            [*cli, "verify", "--db", str(db), "--config", str(config), "--month", MONTH]
            + ["--jobs", "1", "--json"],
            f"verify, {label} games",
        )
        checked = json.loads(out)
        if checked["findings"]:
            sys.exit(f"verify of the generated {label} month found something: it must be clean")
        rows.append(
            (
                f"verify, {label} games, 1 job",
                seconds,
                checked["rounds_checked"],
                checked["bets_checked"],
                rss,
            )
        )
        verified.append(seconds)
    program = str(Path(sys.executable).with_name("baccarat-report"))
    odds = [program, "odds", "--config", str(work / "variant.toml"), "--game", ODDS_GAME, "--json"]
    times = [seconds_of(odds) for _ in range(5)]
    return verified[0], verified[1], sorted(times)[2]


#: A row of the table: phase, seconds, rounds, bets, peak RSS (KiB).
Row = tuple[str, float, int, int, int]


def verify_phases(cli: list[str], db: Path, work: Path, rows: list[Row]) -> list[tuple[str, float]]:
    """verify of the month in one process, then with a job per core, then on a two-worker
    LocalCluster when the dask extra is installed (the same findings: the JSON documents are
    compared), then with the month's audit written (a job per core): the seconds of all but
    the last, by their label."""
    base = [*cli, "verify", "--db", str(db), "--config", str(CONFIG), "--month", MONTH, "--json"]
    cores = len(os.sched_getaffinity(0))
    timed, documents = [], []
    for jobs in (1, cores) if cores > 1 else (1,):
        seconds, rss, out = run([*base, "--jobs", str(jobs)], f"verify --jobs {jobs}")
        checked = json.loads(out)
        documents.append(checked)
        label = f"{jobs} job" + ("s" if jobs > 1 else "")
        timed.append((label, seconds))
        rows.append(
            (f"verify, {label}", seconds, checked["rounds_checked"], checked["bets_checked"], rss)
        )
    if importlib.util.find_spec("distributed") is not None:
        seconds, rss, out = run(
            [sys.executable, "-c", CLUSTER_SCRIPT, *base[3:]], "verify on a cluster"
        )
        checked = json.loads(out)
        documents.append(checked)
        timed.append(("a 2-worker LocalCluster", seconds))
        rows.append(
            (
                "verify, 2-worker LocalCluster (+ its start)",
                seconds,
                checked["rounds_checked"],
                checked["bets_checked"],
                rss,
            )
        )
    if any(document != documents[0] for document in documents):
        sys.exit("verify with several jobs, or on the cluster, found otherwise than with one")
    audit = work / "audit"
    seconds, rss, _ = run(
        [*base, "--workbook", str(audit / f"audit-{MONTH}.xlsx"), "--report", str(audit)]
        + ["--as-of", "2026-11-05"],
        "verify + audit",
    )
    checked = documents[-1]
    rows.append(
        (
            "verify + audit workbook + report",
            seconds,
            checked["rounds_checked"],
            checked["bets_checked"],
            rss,
        )
    )
    return timed


def generate(
    cli: list[str],
    log: Path,
    tables: int,
    per_day: int,
    fmt: str = "jsonl",
    config: Path = CONFIG,
    month: str = MONTH,
) -> Row:
    """The generate phase: a month (:data:`MONTH`, or ``month``) of the sample generator's
    rounds for the games of ``config``, written to ``log`` (in the spec's JSON Lines, or
    ``fmt``)."""
    seconds, rss, out = run(
        [
            *cli,
            "sample",
            "--config",
            str(config),
            "--month",
            month,
            "--tables",
            str(tables),
            "--rounds-per-day",
            str(per_day),
            "--seed",
            "1",
            "--out",
            str(log),
            "--format",
            fmt,
            "--force",  # a --dir kept from an earlier run holds the logs already
            "--json",
        ],
        "sample",
    )
    summary = json.loads(out)
    return ("generate (sample)", seconds, summary["rounds"], summary["bets"], rss)


def profiled(cli: list[str], work: Path, tables: int, per_day: int, rows: list[Row]) -> float:
    """The month in the replay-API shape, generated then ingested through its profile; the
    ingest's seconds."""
    export, db = work / "bench-replay.json.gz", work / "bench-replay.sqlite"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    generated = generate(cli, export, tables, per_day, "replay-api")
    rows.append(("generate (sample --format replay-api)", *generated[1:]))
    seconds, rss, out = run(
        [*cli, "ingest", str(export), "--profile", "replay-api", "--db", str(db)]
        + ["--config", str(CONFIG), "--json"],
        "ingest --profile replay-api",
    )
    loaded = json.loads(out)
    rows.append(
        (
            "ingest --profile replay-api",
            seconds,
            loaded["rounds_loaded"],
            loaded["bets_loaded"],
            rss,
        )
    )
    return seconds


def print_table(rows: list[Row], ratios: dict[str, float]) -> None:
    """The phases with their rates and memory, and ingest against the three floors."""
    print(
        f"\nbaccarat-report benchmark, {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, SQLite {__import__('sqlite3').sqlite_version}"
    )
    print(f"{'phase':44} {'seconds':>9} {'rounds/s':>10} {'bets/s':>10} {'peak RSS':>10}")
    for label, seconds, rounds, bets, rss in rows:
        print(
            f"{label:44} {seconds:9.2f} {rounds / seconds if rounds else 0:10,.0f} "
            f"{bets / seconds:10,.0f} {rss / 1024:8.0f} MiB"
        )
    print(
        f"\ningest / floor (rounds + bets into tables with their primary keys only):"
        f" {ratios['keys']:.2f}x (target: at most 1.5x at 200,000 rounds)"
    )
    print(
        f"ingest / floor (rounds + bets into the schema, its indexes too): {ratios['schema']:.2f}x"
    )
    # The two floors differ by the indexes alone: what any ingest of the schema pays.
    print(
        "of which the indexes a month's verify reads through (the schema's floor / the"
        f" primary keys' floor): {ratios['keys'] / ratios['schema']:.2f}x"
    )
    print(f"ingest / floor (bets only, the earlier floor): {ratios['bets']:.2f}x")


def seconds_of(command: list[str]) -> float:
    """The wall time of one whole process of ``command``, its output discarded."""
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


#: Pairs of runs the odds phase takes in turn (odds, then the independent calculator).
ODDS_PAIRS = 7
#: The game whose ``odds --game`` the odds phase holds to the independent calculator: an
#: eight-deck shoe of the sample configuration.
ODDS_FLOOR_GAME = "live-baccarat-it"


def odds_phase(pairs: int = ODDS_PAIRS) -> tuple[float, float, float]:
    """``odds --game`` against its floor, the independent exact calculator of the tests
    (``scripts/oracle_odds.py``, standard library only) for the same shoe and bets, whole
    processes in turn (A B A B ...): the medians of each, and the median of the pairs'
    ratios."""
    program = str(Path(sys.executable).with_name("baccarat-report"))
    odds = [program, "odds", "--config", str(CONFIG), "--game", ODDS_FLOOR_GAME, "--json"]
    oracle = [sys.executable, str(REPO / "scripts" / "oracle_odds.py"), "--config", str(CONFIG)]
    oracle += ["--game", ODDS_FLOOR_GAME]
    timed: dict[str, list[float]] = {"odds": [], "oracle": []}
    for _ in range(pairs):
        for name, command in (("odds", odds), ("oracle", oracle)):
            timed[name].append(seconds_of(command))
    ratios = sorted(a / b for a, b in zip(timed["odds"], timed["oracle"], strict=True))
    return (
        sorted(timed["odds"])[pairs // 2],
        sorted(timed["oracle"])[pairs // 2],
        ratios[pairs // 2],
    )


#: Runs of each help the help phase times; it prints their median.
HELP_RUNS = 30


def help_phase(runs: int = HELP_RUNS) -> None:
    """The help phase: the median wall time of ``--help`` and of ``verify --help`` of the
    console script beside this Python, each run a whole process, output discarded."""
    program = str(Path(sys.executable).with_name("baccarat-report"))
    for arguments in (["--help"], ["verify", "--help"]):
        times = [seconds_of([program, *arguments]) for _ in range(runs)]
        median = sorted(times)[runs // 2]
        print(
            f"baccarat-report {' '.join(arguments)}: median {median:.3f} s of {runs} runs"
            " (target: under 0.15 s)"
        )


if __name__ == "__main__":
    main()
