"""``baccarat-report serve``: the store in Datasette, read only, on this machine by default.

The pages are asked of Datasette's own in-process client (no port is opened): a finding
links to its round and its bet by the store's foreign keys, the views hold the evidence, the
void register and the money, and the metadata says what cents, UTC and report_month mean.
"""

from __future__ import annotations

import asyncio
import json
import signal
import threading
import time
from pathlib import Path

import pytest
from helpers import bet_record as bet
from helpers import round_record, run_main, store_records

import reporting.cli.serve as serve
from reporting.cli.failures import STOP_SIGNALS
from reporting.store.schema import connect


def make_store(path):
    connection = connect(path)
    store_records(
        connection,
        [
            round_record("R-1", bet("R-1", "B-1", payout_cents=4000)),
            round_record(
                "R-2", bet("R-2", "B-2", payout_cents=2500), status="void", void_reason="scanner"
            ),
        ],
        file_name="october.jsonl",
    )
    connection.execute(
        "INSERT INTO findings (kind, game_id, report_month, round_id, bet_id,"
        " expected_payout_cents, logged_payout_cents, source_file, source_line, message)"
        " VALUES ('payout_mismatch', 'live-baccarat-it', '2026-10', 'R-1', 'B-1', 0, 4000,"
        " 'october.jsonl', 1, 'paid a lost bet')"
    )
    connection.close()


@pytest.fixture
def app_of():
    """``serve.datasette_app``, whose databases are closed when the test ends: Datasette keeps a
    connection open per thread, and a test process with a database open can no longer fork
    the warm children of tests/children.py (every later command of this worker would start a
    fresh interpreter)."""
    apps = []

    def make(path):
        apps.append(serve.datasette_app(path))
        return apps[-1]

    yield make
    for app in apps:
        for database in app.databases.values():
            database.close()


def get(app, path: str):
    async def ask():
        return await app.client.get(path)

    return asyncio.run(ask())


def test_a_finding_links_to_its_round_and_bet_and_the_views_hold_the_evidence(app_of, tmp_path):
    path = tmp_path / "store.sqlite"
    make_store(path)
    app = app_of(path)
    page = get(app, "/store/findings")
    assert page.status_code == 200
    assert '<a href="/store/rounds/R-1">R-1</a>' in page.text  # the foreign key, as a link
    round_page = get(app, "/store/rounds/R-1").text  # and back: the round's bets and findings
    assert 'href="/store/bets?round_id=R-1"' in round_page
    assert 'href="/store/findings?round_id=R-1"' in round_page
    evidence = get(app, "/store/finding_evidence.json?_shape=array").json()
    assert [(row["round_id"], row["account"], row["stake_cents"]) for row in evidence] == [
        ("R-1", "acc-1", 2500)
    ]
    assert evidence[0]["player_cards"] == "9H KS" and evidence[0]["source"] == "october.jsonl:1"
    void = get(app, "/store/void_rounds.json?_shape=array").json()
    assert [(row["round_id"], row["void_reason"], row["refunded_cents"]) for row in void] == [
        ("R-2", "scanner", 2500)
    ]
    money = get(app, "/store/money_by_table_and_utc_day.json?_shape=array").json()
    assert [(row["utc_day"], row["stakes_cents"], row["ggr_cents"]) for row in money] == [
        ("2026-10-03", 2500, -1500)
    ]


def test_the_metadata_says_what_cents_utc_and_report_month_mean(app_of, tmp_path):
    path = tmp_path / "store.sqlite"
    make_store(path)
    app = app_of(path)
    document = get(app, "/-/metadata.json").json()
    columns = document["databases"]["store"]["tables"]["bets"]["columns"]
    assert "integer cents" in columns["stake_cents"]
    rounds = document["databases"]["store"]["tables"]["rounds"]["columns"]
    assert rounds["settled_at"].startswith("UTC") and "time zone" in rounds["report_month"]
    page = get(app, "/store/bets")
    assert "integer cents" in page.text  # shown beside the column
    assert get(app, "/store.db").status_code in (403, 404)  # the file is not offered


def test_the_csv_bound_the_bounds_page_states_is_the_one_datasette_holds(app_of, tmp_path):
    from reporting.store.query_bounds import MAX_CSV_MB, TIME_LIMIT_MS

    path = tmp_path / "store.sqlite"
    make_store(path)
    app = app_of(path)
    assert (app.setting("max_csv_mb"), app.setting("sql_time_limit_ms")) == (
        MAX_CSV_MB,
        TIME_LIMIT_MS,
    )


def test_nothing_can_be_written_through_it(app_of, tmp_path):
    path = tmp_path / "store.sqlite"
    make_store(path)
    app = app_of(path)
    query = "/store.json?sql=" + "DELETE FROM findings"
    answer = get(app, query)
    assert answer.status_code >= 400
    connection = connect(path, create=False)
    assert connection.execute("SELECT count(*) FROM findings").fetchone() == (1,)
    connection.close()


def test_a_store_whose_name_holds_what_a_uri_reserves_is_browsed_and_nothing_made_beside(
    app_of, tmp_path
):
    """Datasette wrote the store's path into its SQLite URI as it was: a name holding ``?``
    opened the file named up to it (an empty ``q`` made beside the store) and every page
    failed."""
    path = tmp_path / "q?x#y%z.sqlite"
    make_store(path)
    app = app_of(path)
    route = "q~3Fx~23y~25z"
    assert get(app, "/").status_code == 200
    rounds = get(app, f"/{route}/rounds.json?_shape=array")
    assert rounds.status_code == 200, rounds.text
    assert [row["round_id"] for row in rounds.json()] == ["R-1", "R-2"]
    for database in app.databases.values():
        database.close()
    beside = {entry.name for entry in tmp_path.iterdir()} - {f"{path.name}-wal", f"{path.name}-shm"}
    assert beside == {path.name}


def test_the_command_listens_on_this_machine_unless_told(tmp_path, monkeypatch, capsys):
    path = tmp_path / "store.sqlite"
    make_store(path)
    calls = []
    import uvicorn

    import reporting.store.query_bounds as query_bounds

    def run(server, sockets):
        calls.append([listening.getsockname()[:2] for listening in sockets])
        for listening in sockets:
            listening.close()

    monkeypatch.setattr(uvicorn.Server, "run", run)
    monkeypatch.setattr(query_bounds, "bound_sqlite_heap", lambda: None)  # the process's
    port = free_port()
    serve.serve_command(db=path, port=port)
    assert calls[-1] == [("127.0.0.1", port)]
    printed = capsys.readouterr()
    assert "anyone who reaches it" not in printed.err and printed.out.endswith("stopped\n")
    assert f"at http://127.0.0.1:{port}/ " in printed.out
    serve.serve_command(db=path, host="0.0.0.0", port=port)
    assert calls[-1] == [("0.0.0.0", port)]
    assert "anyone who reaches it can read the store" in capsys.readouterr().err


def test_the_address_printed_brackets_an_ipv6_host():
    """http://::1:8001/ opens nothing: an IPv6 host is bracketed, its zone's % written %25."""
    assert serve.address_of("::1", 8001) == "http://[::1]:8001/"
    assert serve.address_of("fe80::1%eth0", 80) == "http://[fe80::1%25eth0]:80/"
    assert serve.address_of("localhost", 8001) == "http://localhost:8001/"


def test_a_missing_store_is_exit_2_without_a_traceback(tmp_path):
    result = run_main("serve", "--db", str(tmp_path / "none.sqlite"))
    assert result.returncode == 2
    assert "no such database" in result.stderr and "Traceback" not in result.stderr


def test_a_port_in_use_is_one_line_and_exit_2(tmp_path):
    import socket

    path = tmp_path / "store.sqlite"
    make_store(path)
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        result = run_main("serve", "--db", str(path), "--port", str(port))
    assert result.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in result.stderr
    assert "Traceback" not in result.stderr and "serving" not in result.stdout


# --- the money, the links -------------------------------------------------------------------


def test_the_pages_show_money_in_its_currency_and_a_findings_round_as_a_link(app_of, tmp_path):
    path = tmp_path / "store.sqlite"
    make_store(path)
    connection = connect(path)
    dkk = bet("T/1-3", "B-9", stake_cents=123450, payout_cents=0, currency="DKK")
    store_records(
        connection,
        [round_record("T/1-3", dkk, game_id="live-baccarat-dk")],
        file_name="november.jsonl",
    )
    connection.execute(
        "INSERT INTO findings (kind, game_id, report_month, round_id, bet_id,"
        " expected_payout_cents, logged_payout_cents, source_file, source_line, message)"
        " VALUES ('payout_mismatch', 'live-baccarat-dk', '2026-10', 'T/1-3', 'B-9', 246900,"
        " 0, 'november.jsonl', 1, 'a won bet not paid')"
    )
    connection.close()
    app = app_of(path)
    evidence = get(app, "/store/finding_evidence").text
    assert '<a href="/store/rounds/R-1">R-1</a>' in evidence
    assert '<a href="/store/rounds/T~2F1-3">T/1-3</a>' in evidence  # an id with a slash
    assert get(app, "/store/rounds/T~2F1-3").status_code == 200  # the link leads to the round
    # each amount in its bet's currency, with its separators (the JSON keeps the cents)
    for shown in ("€25.00", "€40.00", "€0.00", "DKK\xa01,234.50", "DKK\xa02,469.00"):
        assert f">{shown}</span>" in evidence, shown
    assert "123450 cents" in evidence  # the stored figure, on hover
    void = get(app, "/store/void_rounds").text
    assert '<a href="/store/rounds/R-2">R-2</a>' in void and ">€25.00</span>" in void
    money = get(app, "/store/money_by_table_and_utc_day").text
    assert ">-€15.00</span>" in money and ">DKK\xa01,234.50</span>" in money
    assert ">DKK\xa01,234.50</span>" in get(app, "/store/bets").text  # tables too
    assert get(app, "/store/finding_evidence.json?_shape=array").json()[0]["stake_cents"] == 2500


# --- the bounds of a query ------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        "hex(fts3_tokenizer('simple'))",
        # one instruction the time limit cannot stop: 11 s a call, and a table page's filter
        # made it once in each of its fifty queries
        "printf('%25.*c',2147483647,'x')",
        "format('%25*d',2147483647,1)",
    ],
)
def test_a_function_no_query_may_call_is_refused_before_it_runs(app_of, tmp_path, call):
    path = tmp_path / "store.sqlite"
    make_store(path)
    app = app_of(path)
    started = time.monotonic()
    answer = get(app, f"/store.json?sql=select+{call}+as+value")
    assert answer.status_code == 400 and "not authorized" in answer.json()["error"]
    where = get(app, f"/store/rounds.json?_where=round_id+in+(select+{call})")
    assert where.status_code == 400 and "not authorized" in where.text
    assert time.monotonic() - started < 5
    assert get(app, "/store.json?sql=select+1+as+one").status_code == 200


def test_only_get_and_head_are_answered_and_a_missing_page_is_a_quiet_404(app_of, tmp_path, capfd):
    path = tmp_path / "store.sqlite"
    make_store(path)
    app = app_of(path)

    async def post(path: str):
        return await app.client.post(path, data={"a": "1"})

    for target in ("/store/findings", "/store/findings.json", "/nowhere", "/"):
        answer = asyncio.run(post(target))
        assert answer.status_code == 405, target
        assert answer.headers["allow"] == "GET, HEAD"
    for missing in ("/store/findings/-/insert", "/store/nowhere", "/nowhere/x", "/store/rounds/X"):
        assert get(app, missing).status_code == 404, missing
    assert get(app, "/store/nowhere.json").json()["error"] == "Table not found"
    printed = capfd.readouterr()
    assert "Traceback" not in printed.out + printed.err
    assert "Error" not in printed.out + printed.err


def free_port() -> int:
    import socket

    with socket.create_server(("127.0.0.1", 0)) as probe:
        return probe.getsockname()[1]


def _reset_stop_signals() -> None:
    """In the child: the stop signals as a terminal leaves them. The suite started with & by a
    script ignores SIGINT (nohup: SIGHUP), and the command would keep ignoring it."""
    for number in STOP_SIGNALS:
        signal.signal(number, signal.SIG_DFL)


class Server:
    """``baccarat-report serve`` in a child process on a free port, its output in files."""

    def __init__(self, path, tmp_path):
        import subprocess
        import sys

        self.port = free_port()
        self.out, self.err = tmp_path / "out.txt", tmp_path / "err.txt"
        with self.out.open("w") as out, self.err.open("w") as err:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "reporting", "serve", "--db", str(path)]
                + ["--port", str(self.port)],
                stdout=out,
                stderr=err,
                preexec_fn=_reset_stop_signals,
            )
        deadline = time.monotonic() + 60
        while self.fetch("/-/versions.json", timeout=5)[0] != 200:
            assert self.process.poll() is None, self.err.read_text()
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)

    def fetch(self, target: str, timeout: float) -> tuple[int, bytes]:
        """The status and body of a GET (0 when nothing answered)."""
        import urllib.error
        import urllib.request

        try:
            with urllib.request.urlopen(
                f"http://127.0.0.1:{self.port}{target}", timeout=timeout
            ) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()
        except OSError:
            return 0, b""

    def memory(self, field: str) -> int:
        """VmRSS (now) or VmHWM (the peak so far) of the server, in bytes."""
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        line = next(line for line in status.splitlines() if line.startswith(field + ":"))
        return int(line.split()[1]) * 1024

    def stop(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=30)


GIB = 1024**3


@pytest.mark.slow
def test_a_query_past_its_bounds_is_stopped_within_twice_its_time_limit_under_1_gib(tmp_path):
    from urllib.parse import quote

    from reporting.store.query_bounds import (
        MAX_LIKE_PATTERN_BYTES,
        MAX_RESULT_BYTES,
        MAX_RETURNED_ROWS,
        MAX_VALUE_BYTES,
        TIME_LIMIT_MS,
    )

    max_rows = MAX_RETURNED_ROWS

    def rows_of(count: int, value: str) -> str:
        return (
            f"with recursive r(i) as (select 1 union all select i + 1 from r limit {count})"
            f" select {value} as v from r"
        )

    def a_times(half: int) -> str:  # 2 * half letters a, made by the query
        return f"replace(hex(zeroblob({half})), '0', 'a')"

    # JSON writes a control character in 6 bytes: rows of them as large as a query may
    # return are the most memory a result takes to send, and still far below the bound
    escaped = MAX_RESULT_BYTES // max_rows - 100
    hostile = {  # what each query is, its SQL, the status it must get
        "one huge value": ("select hex(randomblob(1000000000)) as h", 400),
        "a string doubled in a recursive query": (
            "with recursive r(i, s) as (select 0, 'x' union all select i + 1, s || s from r"
            " where i < 40) select i, length(s) from r",
            400,
        ),
        "a row of many large values": (
            "select " + ", ".join(f"zeroblob({MAX_VALUE_BYTES}) as c{n}" for n in range(150)),
            400,
        ),
        "many rows of large values": (rows_of(2000, "randomblob(4000000)"), 400),
        "rows of escaped characters, as large as allowed": (
            rows_of(max_rows, f"replace(zeroblob({escaped}), x'00', char(1))"),
            200,
        ),
        "rows of escaped characters, larger": (
            rows_of(max_rows, f"replace(zeroblob({2 * escaped}), x'00', char(1))"),
            400,
        ),
        # one instruction the time limit cannot stop, its cost the product of two lengths:
        # a LIKE took 26 s, an instr would have taken hours, holding a thread of the server
        "a LIKE of a long pattern over a long text": (
            f"select {a_times(1_000_000)} like '%' || {a_times(5_000)} || 'b' as m",
            400,
        ),
        "a LIKE pattern past the bound": (
            f"select 'a' like '%' || {a_times(MAX_LIKE_PATTERN_BYTES // 2 + 1)} as m",
            400,
        ),
        "an instr of two long texts": (
            f"select instr({a_times(1_000_000)}, {a_times(500_000)} || 'b') as i",
            400,
        ),
        "the costliest instr the bounds allow": (
            f"select instr({a_times(MAX_VALUE_BYTES // 2 - 8)},"
            f" {a_times(MAX_VALUE_BYTES // 4 - 8)} || 'b') as i",
            200,
        ),
        "a query that never ends": (
            "with recursive r(i) as (select 1 union all select i + 1 from r)"
            " select count(*) as n from r",
            400,
        ),
    }
    path = tmp_path / "store.sqlite"
    make_store(path)
    server = Server(path, tmp_path)
    peak = [0]
    watching = threading.Event()

    def watch():  # the server is stopped at 1 GiB: a test must not take the machine down
        while not watching.wait(0.01):
            try:
                peak[0] = max(peak[0], server.memory("VmRSS"))
            except (OSError, StopIteration):
                return
            if peak[0] > GIB:
                server.process.kill()
                return

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        for name, (sql, expected) in hostile.items():
            started = time.monotonic()
            status, body = server.fetch(f"/store.json?sql={quote(sql)}", 4 * TIME_LIMIT_MS / 1000)
            elapsed = time.monotonic() - started
            assert status == expected, (name, status, body[:300], peak[0] / GIB)
            assert elapsed < 2 * TIME_LIMIT_MS / 1000, (name, elapsed)
            assert json.loads(body)["ok"] is (expected == 200), name
        for _ in range(6):  # the server still answers, on each of its connections
            status, body = server.fetch("/store.json?sql=select+count(*)+as+n+from+rounds", 10)
            assert status == 200 and b'"rows": [[2]]' in body
        peak[0] = max(peak[0], server.memory("VmHWM"))
    finally:
        watching.set()
        watcher.join()
        server.stop()
    assert peak[0] < GIB, f"peak RSS {peak[0] / GIB:.2f} GiB"
    assert "Traceback" not in server.err.read_text() + server.out.read_text()


# --- stopping, listening --------------------------------------------------------------------


@pytest.mark.parametrize(
    "stop", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP], ids=lambda s: s.name
)
def test_sigterm_ctrl_c_or_a_hang_up_stops_it_with_exit_0(tmp_path, stop):
    """A hang-up (the terminal closed) stopped it with exit 2, "the unfinished transaction
    was rolled back" (there was none), and left -wal and -shm beside the store."""
    path = tmp_path / "store.sqlite"
    make_store(path)
    server = Server(path, tmp_path)
    try:
        assert server.fetch("/store/findings.json", timeout=10)[0] == 200  # a page read
        server.process.send_signal(stop)
        assert server.process.wait(timeout=30) == 0
    finally:
        server.stop()
    out, err = server.out.read_text(), server.err.read_text()
    assert out.splitlines()[-1] == f"stopped by {stop.name}"
    assert err == "", err  # no "rolled back", no traceback
    # The read-only browsing left no -wal or -shm beside the store (they stayed, for good).
    assert sorted(item.name for item in tmp_path.glob("store.sqlite*")) == ["store.sqlite"]


def test_a_signal_it_was_started_ignoring_stays_ignored_while_it_serves(
    tmp_path, monkeypatch, capsys
):
    """Started ignoring Ctrl-C (a job started with & by a script, a test suite so started), it
    stopped on SIGINT all the same, through uvicorn's handler, and printed "stopped": uvicorn
    raised the signal again into the ignoring it had found, and the command never saw it."""
    import uvicorn

    import reporting.store.query_bounds as query_bounds

    path = tmp_path / "store.sqlite"
    make_store(path)
    ticks = []
    on_tick = uvicorn.Server.on_tick

    async def tick(server, counter):  # the server's main loop, every 0.1 s
        ticks.append(counter)
        if len(ticks) == 1:
            signal.raise_signal(signal.SIGINT)  # ignored: it goes on serving
        elif len(ticks) == 3:
            signal.raise_signal(signal.SIGTERM)
        return await on_tick(server, counter)

    monkeypatch.setattr(uvicorn.Server, "on_tick", tick)
    monkeypatch.setattr(query_bounds, "bound_sqlite_heap", lambda: None)  # the process's
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        serve.serve_command(db=path, port=free_port())
    finally:
        signal.signal(signal.SIGINT, previous)
    assert capsys.readouterr().out.splitlines()[-1] == "stopped by SIGTERM"
    assert len(ticks) == 3


def test_an_address_this_machine_lacks_is_one_line_and_exit_2(tmp_path):
    path = tmp_path / "store.sqlite"
    make_store(path)
    result = run_main("serve", "--db", str(path), "--host", "203.0.113.7")  # TEST-NET-3
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "baccarat-report: cannot listen on 203.0.113.7:8001: this machine has no such"
        " address; give --host one of its own addresses (127.0.0.1, the default, for this"
        " machine only)"
    ]
    result = run_main("serve", "--db", str(path), "--host", "no-such-host.invalid")
    assert result.returncode == 2 and "no address of that name" in result.stderr
    assert "--port" not in result.stderr and "Traceback" not in result.stderr
    for name in ("a..b", ".a", "a" * 64):  # no host's name (IDNA): it was a traceback
        result = run_main("serve", "--db", str(path), "--host", name)
        assert result.stderr.splitlines() == [
            f"baccarat-report: cannot listen on {name}:8001: no address of that name (not a"
            " host's name); give --host an IP address"
        ]
        assert result.returncode == 2


def test_at_most_max_requests_are_answered_at_once_and_the_others_wait_their_turn():
    """A hundred large queries at once took 4.2 GB: each request may hold a query's rows and
    their JSON. The server answers MAX_REQUESTS at a time; every request is answered."""
    import asyncio

    from reporting.cli.serve_plugin import asgi_wrapper
    from reporting.store.query_bounds import MAX_REQUESTS

    answering, most, answered = 0, 0, []

    async def app(scope, receive, send):
        nonlocal answering, most
        answering += 1
        most = max(most, answering)
        await asyncio.sleep(0.02)
        answering -= 1
        answered.append(scope["path"])

    async def refused_at_once(scope, receive, send):
        raise AssertionError("a POST reached Datasette")

    async def requests():
        wrapped = asgi_wrapper(None)(app)
        sent = []

        async def send(message):
            sent.append(message)

        calls = [
            wrapped({"type": "http", "method": "GET", "path": f"/{n}"}, None, send)
            for n in range(5 * MAX_REQUESTS)
        ]
        await asyncio.gather(*calls)
        await asgi_wrapper(None)(refused_at_once)(
            {"type": "http", "method": "POST", "path": "/x"}, None, send
        )
        return sent

    sent = asyncio.run(requests())
    assert most == MAX_REQUESTS
    assert sorted(answered) == sorted(f"/{n}" for n in range(5 * MAX_REQUESTS))
    assert sent[0]["status"] == 405


def test_a_query_parameter_datasette_cannot_read_is_a_quiet_400(app_of, tmp_path, capfd):
    """``?_sort=nope``, ``?_timelimit=zz``, ``?_through=zz`` and a ``_next`` that is not its
    token were a 500 with a traceback on the terminal for each (74 lines of it for five
    requests): each is the request's error, a 400 that says what, and nothing printed."""
    path = tmp_path / "store.sqlite"
    make_store(path)
    app = app_of(path)
    for query in (
        "bets.json?_sort=nope",
        "bets.json?_sort_desc=nope",
        "bets.json?_timelimit=zz",
        "bets.json?_through=zz",
        "finding_evidence.json?_next=zz",
        "bets?_sort=nope",
    ):
        answer = get(app, f"/store/{query}")
        assert answer.status_code == 400, query
        if query.split("?")[0].endswith(".json"):
            assert answer.json()["ok"] is False and answer.json()["error"], query
    assert get(app, "/store/bets.json?_sort=bet_id").status_code == 200
    said = get(app, "/store/bets.json?_timelimit=zz").json()["error"]
    assert said.startswith("the address's _timelimit=zz cannot be read: "), said
    printed = capfd.readouterr()
    assert "Traceback" not in printed.out + printed.err


def test_a_filter_s_number_past_sqlite_s_integers_is_a_quiet_400(app_of, tmp_path, capfd):
    """``?stake_cents__gt=999...`` (26 digits) was a 500 and a traceback of 760 lines, with
    every frame's locals, on the server's terminal."""
    path = tmp_path / "store.sqlite"
    make_store(path)
    app = app_of(path)
    big = "9" * 26
    for query in (f"bets.json?stake_cents__gt={big}", f"bets?stake_cents__gt={big}"):
        answer = get(app, f"/store/{query}")
        assert answer.status_code == 400, query
    said = get(app, f"/store/bets.json?stake_cents__gt={big}").json()["error"]
    assert said == (
        f"the address's stake_cents__gt={big} cannot be read: a number past SQLite's integers"
        " (at most 9,223,372,036,854,775,807 either way)"
    )
    assert get(app, "/store/bets.json?stake_cents__gt=1").status_code == 200
    printed = capfd.readouterr()
    assert "Traceback" not in printed.out + printed.err


def test_an_error_of_this_tool_s_own_code_stays_a_500(app_of, tmp_path, monkeypatch):
    """Only Datasette's reading of its own parameters is taken for the request's error: a
    ValueError raised in this tool's code, with such a parameter given, is a bug (500)."""
    from reporting.cli import serve_plugin

    async def broken(row, database):
        raise ValueError("a bug of ours")

    monkeypatch.setattr(serve_plugin, "_currency", broken)
    path = tmp_path / "store.sqlite"
    make_store(path)
    app = app_of(path)
    assert get(app, "/store/bets?_sort=bet_id").status_code == 500


def test_a_value_longer_than_serve_reads_is_said_on_its_page_without_a_traceback(
    app_of, tmp_path, capfd
):
    """A hand of 9 MB of cards, set by hand (ingest writes none), stopped every page of the
    rounds with a 500 and a traceback on the terminal. The page says what is wrong with the
    store, and nothing but Datasette's own line of the query is printed."""
    import sqlite3

    path = tmp_path / "store.sqlite"
    make_store(path)
    other = sqlite3.connect(path)
    other.execute("UPDATE rounds SET player_cards = hex(zeroblob(300000)) WHERE round_id = 'R-1'")
    other.commit()
    other.close()
    app = app_of(path)
    answer = get(app, "/store/rounds.json")
    assert answer.status_code == 500
    assert answer.json()["title"] == "A value too long"
    assert answer.json()["error"].startswith("a value of the store is longer than serve reads (")
    assert get(app, "/store/bets.json").status_code == 200
    printed = capfd.readouterr()
    assert "Traceback" not in printed.out + printed.err


def test_a_damaged_page_of_the_store_is_said_on_its_page_without_a_traceback(
    app_of, tmp_path, capfd
):
    """A page of the file overwritten (a disk's fault, a copy cut short) was a 500 with a
    traceback for each page that read it."""
    import sqlite3

    path = tmp_path / "store.sqlite"
    make_store(path)
    other = sqlite3.connect(path)
    (root,) = other.execute("SELECT rootpage FROM sqlite_schema WHERE name = 'rounds'").fetchone()
    (size,) = other.execute("PRAGMA page_size").fetchone()
    other.close()
    with path.open("r+b") as file:
        file.seek((root - 1) * size)
        file.write(b"\xff" * size)
    app = app_of(path)
    answer = get(app, "/store/rounds.json")
    assert answer.status_code == 500
    assert answer.json()["title"] == "Damaged store"
    assert answer.json()["error"] == (
        "the store: the database file is damaged (database disk image is malformed); restore it"
        " from a backup"
    )
    printed = capfd.readouterr()
    assert "Traceback" not in printed.out + printed.err


def test_a_query_s_file_cut_at_its_most_rows_is_refused_not_cut_without_a_mark(app_of, tmp_path):
    """A query's CSV (or JSON array) of more rows than a query returns ended at 2,000 rows,
    with nothing to say that rows were left out. Its page and its JSON object say it."""
    from urllib.parse import quote

    from reporting.store.query_bounds import MAX_RETURNED_ROWS

    path = tmp_path / "store.sqlite"
    make_store(path)
    app = app_of(path)

    def rows(count: int) -> str:
        return quote(
            f"with recursive r(i) as (select 1 union all select i + 1 from r limit {count})"
            " select i from r"
        )

    whole = get(app, f"/store.csv?sql={rows(MAX_RETURNED_ROWS)}")
    assert whole.status_code == 200
    assert whole.text.split() == ["i", *(str(i) for i in range(1, MAX_RETURNED_ROWS + 1))]
    refused = (
        f"400 Too many rows for a query's file: the query returns more than"
        f" {MAX_RETURNED_ROWS:,} rows, the most a query's answer holds, and a CSV file or a"
        " JSON array cannot say it was cut there"
    )
    cut = get(app, f"/store.csv?sql={rows(MAX_RETURNED_ROWS + 1)}")
    assert cut.status_code == 400 and cut.text.startswith(refused)
    for shape in ("array", "arrayfirst"):
        cut = get(app, f"/store.json?sql={rows(MAX_RETURNED_ROWS + 1)}&_shape={shape}")
        assert cut.status_code == 400, shape
        assert cut.json()["error"].startswith(refused.split(": ", 1)[1]), shape
    for said in ("", "&_shape=objects", "&_format=csv"):  # an object: "truncated" says it
        answer = get(app, f"/store.json?sql={rows(MAX_RETURNED_ROWS + 1)}{said}").json()
        assert answer["truncated"] is True and len(answer["rows"]) == MAX_RETURNED_ROWS
    assert get(app, f"/store?sql={rows(MAX_RETURNED_ROWS + 1)}").status_code == 200


def test_a_query_sqlite_refuses_is_said_on_its_page_and_nothing_printed(app_of, tmp_path, capfd):
    """Datasette printed "ERROR: conn=<sqlite3.Connection object at 0x...>, sql = ..." on the
    server's terminal for each such query, and answered its CSV with an empty file."""
    path = tmp_path / "store.sqlite"
    make_store(path)
    app = app_of(path)
    answer = get(app, "/store.json?sql=select+nope+from+bets")
    assert answer.status_code == 400 and "no such column: nope" in answer.json()["error"]
    as_csv = get(app, "/store.csv?sql=select+nope+from+bets")
    assert (as_csv.status_code, as_csv.text) == (
        400,
        "400 Invalid SQL: SQLite refused the query: no such column: nope\n",
    )
    printed = capfd.readouterr()
    assert printed.out + printed.err == ""


def test_a_row_named_by_too_few_values_and_a_database_s_csv_are_a_quiet_404(
    app_of, tmp_path, capfd
):
    """``/store/bets/1`` (a bet is named by its round and its id) and ``/store.csv`` were a
    500 and a traceback on the terminal."""
    path = tmp_path / "store.sqlite"
    make_store(path)
    app = app_of(path)
    for address in ("/store/bets/1", "/store/bets/1.csv", "/store/bets/1.json", "/store.csv"):
        assert get(app, address).status_code == 404, address
    assert (
        get(app, "/store/bets/1.json")
        .json()["error"]
        .startswith("no such row: a row is named by each value of its table's primary key")
    )
    assert get(app, "/store/bets/R-1,B-1.json").status_code == 200
    printed = capfd.readouterr()
    assert "Traceback" not in printed.out + printed.err


def test_a_table_s_csv_holds_every_row_as_the_download_link_asks_for_it(app_of, tmp_path):
    """Datasette's download link asks for one page of a table (``_size=max``) unless "stream
    all rows" is ticked: the file ended at 2,000 rows without a mark."""
    from reporting.store.query_bounds import MAX_RETURNED_ROWS

    path = tmp_path / "store.sqlite"
    connection = connect(path)
    bets = [bet("R-1", f"B-{i:05}") for i in range(MAX_RETURNED_ROWS + 5)]
    store_records(connection, [round_record("R-1", *bets)], file_name="october.jsonl")
    connection.close()
    app = app_of(path)
    for query in ("?_size=max", "", "?_stream=on", "?_stream=", "?account=acc-1&_size=max"):
        answer = get(app, f"/store/bets.csv{query}")
        assert answer.status_code == 200, query
        assert len(answer.text.splitlines()) == 1 + MAX_RETURNED_ROWS + 5, query
    for query in ("?_size=3&_next=R-1,B-00002", "?_size=3"):  # a page asked for stays a page
        assert len(get(app, f"/store/bets.csv{query}").text.splitlines()) == 1 + 3, query
