"""A simulated large run of ``verify --scheduler``: a generated month, one round log per table
(as providers deliver them), ingested, then verified on a Dask LocalCluster of worker
processes reading the logs from a folder standing for shared storage.

Measures and prints; it never passes or fails. It shows the wall time of each phase, the
partitions (their count and largest size), and each worker's peak memory (its process's
maximum resident set, read on the worker after the run) beside its memory once warm: run it
at two sizes to see the peak stay flat while the month grows. A table deals at most about
1,920 rounds a day (45 s a round): ``--tables-per-game 10 --rounds-per-day 2700`` gives 40
tables (40 partitions), 2.4M rounds and 14.3M bets; about 20M bets is
``--tables-per-game 14`` (56 partitions, 3.3M rounds). The default is a tenth of the first.
``--local`` also times ``verify`` in one process.
Data goes to a temporary folder (or ``--dir``), removed afterwards unless ``--keep``.

    .venv/bin/python scripts/bench_cluster.py --tables-per-game 10 --rounds-per-day 270
"""

from __future__ import annotations

import argparse
import resource
import shutil
import tempfile
import time
from pathlib import Path

import msgspec

from reporting.config.loader import load_config
from reporting.ingest.discovery import discover_sources
from reporting.sample.generator import generate_month
from reporting.store.load import ingest
from reporting.store.schema import connect
from reporting.verify.distributed import dask_runner
from reporting.verify.partitions import plan_partitions
from reporting.verify.run import verify

REPO = Path(__file__).resolve().parent.parent
CONFIG = REPO / "sample_data" / "operator.toml"
MONTH = "2026-10"
_TABLE_OF = msgspec.json.Decoder(dict)


def peak_rss_mib() -> float:
    """This process's peak resident memory so far, in MiB: VmHWM of /proc (ru_maxrss would
    carry the parent's peak over a fork and exec into a worker)."""
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def current_rss_mib() -> float:
    """This process's resident memory now, in MiB."""
    with open("/proc/self/statm") as handle:
        pages = int(handle.read().split()[1])
    return pages * resource.getpagesize() / (1 << 20)


def split_by_table(log: Path, folder: Path) -> None:
    """The lines of a generated log written to one file per table (``<table>.jsonl``)."""
    handles = {}
    try:
        with log.open("rb") as lines:
            for line in lines:
                table = _TABLE_OF.decode(line).get("table_id", "unknown")
                if table not in handles:
                    handles[table] = (folder / f"{table}.jsonl").open("wb")
                handles[table].write(line)
    finally:
        for handle in handles.values():
            handle.close()
    log.unlink()


def generate(config, logs: Path, tables: int, per_day: int) -> float:
    """Every configured game's month in one run of the generator (bet ids unique across the
    month), split into one log per table; the seconds it took."""
    start = time.perf_counter()
    logs.mkdir(parents=True)
    log = logs / "month.jsonl"
    generate_month(config, MONTH, log, tables=tables, rounds_per_day=per_day, seed=2026)
    Path(f"{log}.faults.json").unlink(missing_ok=True)
    split_by_table(log, logs)
    return time.perf_counter() - start


def worker_memory(client) -> dict[str, tuple[float, float]]:
    """Each worker's (memory now, peak memory), in MiB."""
    return client.run(lambda: (current_rss_mib(), peak_rss_mib()))


def timed_verify(connection, config, runner=None) -> tuple[float, object]:
    start = time.perf_counter()
    result = verify(connection, config, MONTH, runner=runner)
    return time.perf_counter() - start, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables-per-game", type=int, default=10)
    parser.add_argument("--rounds-per-day", type=int, default=270)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--local", action="store_true", help="also verify in one process")
    parser.add_argument("--dir", type=Path, help="work folder (default: a temporary one)")
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    parser.add_argument(
        "--reuse", action="store_true", help="verify the month a kept --dir holds again"
    )
    args = parser.parse_args()
    work = Path(args.dir or tempfile.mkdtemp(prefix="bench-cluster-"))
    try:
        run(args, work)
    finally:
        if not (args.keep or args.reuse):
            shutil.rmtree(work, ignore_errors=True)


def run(args, work: Path) -> None:
    import distributed

    config = load_config(CONFIG)
    logs = work / "logs"
    if not args.reuse:
        seconds = generate(config, logs, args.tables_per_game, args.rounds_per_day)
        print(f"generate: {seconds:.1f} s")
    connection = connect(work / "store.sqlite")
    if not args.reuse:
        start = time.perf_counter()
        ingested = ingest(connection, discover_sources([logs]), config, base=logs)
        print(f"ingest: {time.perf_counter() - start:.1f} s, {len(ingested.files)} files")
    rounds, bets = connection.execute(
        "SELECT (SELECT count(*) FROM rounds), (SELECT count(*) FROM bets)"
    ).fetchone()
    partitions = plan_partitions(connection, MONTH)
    largest = max(partition.rounds for partition in partitions)
    print(
        f"month: {rounds:,} rounds, {bets:,} bets; {len(partitions)} partitions, the largest {largest:,} rounds"
    )
    if args.local:
        seconds, result = timed_verify(connection, config)
        print(f"verify, one process: {seconds:.1f} s, {result.finding_count:,} findings")
    with (
        distributed.LocalCluster(
            n_workers=args.workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            worker_dashboard_address=None,
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        client.run(__import__, "reporting.verify.distributed")  # warm: imports done
        warm = worker_memory(client)
        seconds, result = timed_verify(connection, config, dask_runner(client, str(logs)))
        after = worker_memory(client)
    print(f"verify, {args.workers} workers: {seconds:.1f} s, {result.finding_count:,} findings")
    for address, (now, peak) in after.items():
        print(
            f"  worker {address}: warm {warm[address][0]:.0f} MiB, peak {peak:.0f} MiB, after {now:.0f} MiB"
        )
    print(f"coordinator peak: {peak_rss_mib():.0f} MiB")
    connection.close()


if __name__ == "__main__":
    main()
