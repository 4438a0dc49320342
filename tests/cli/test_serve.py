"""``baccarat-report serve``: the store in Datasette, read only, on this machine by default.

The pages are asked of Datasette's own in-process client (no port is opened): a finding
links to its round and its bet by the store's foreign keys, the views hold the evidence, the
void register and the money, and the metadata says what cents, UTC and report_month mean.
"""

from __future__ import annotations

import asyncio

from helpers import bet_record as bet
from helpers import round_record, run_main, store_records

import reporting.cli.serve as serve
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


def get(app, path: str):
    async def ask():
        return await app.client.get(path)

    return asyncio.run(ask())


def test_a_finding_links_to_its_round_and_bet_and_the_views_hold_the_evidence(tmp_path):
    path = tmp_path / "store.sqlite"
    make_store(path)
    app = serve.datasette_app(path)
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


def test_the_metadata_says_what_cents_utc_and_report_month_mean(tmp_path):
    path = tmp_path / "store.sqlite"
    make_store(path)
    app = serve.datasette_app(path)
    document = get(app, "/-/metadata.json").json()
    columns = document["databases"]["store"]["tables"]["bets"]["columns"]
    assert "integer cents" in columns["stake_cents"]
    rounds = document["databases"]["store"]["tables"]["rounds"]["columns"]
    assert rounds["settled_at"].startswith("UTC") and "time zone" in rounds["report_month"]
    page = get(app, "/store/bets")
    assert "integer cents" in page.text  # shown beside the column
    assert get(app, "/store.db").status_code in (403, 404)  # the file is not offered


def test_nothing_can_be_written_through_it(tmp_path):
    path = tmp_path / "store.sqlite"
    make_store(path)
    app = serve.datasette_app(path)
    query = "/store.json?sql=" + "DELETE FROM findings"
    answer = get(app, query)
    assert answer.status_code >= 400
    connection = connect(path, create=False)
    assert connection.execute("SELECT count(*) FROM findings").fetchone() == (1,)
    connection.close()


def test_the_command_listens_on_this_machine_unless_told(tmp_path, monkeypatch, capsys):
    path = tmp_path / "store.sqlite"
    make_store(path)
    calls = []
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda app, **options: calls.append(options))
    serve.serve_command(db=path)
    assert calls[-1]["host"] == "127.0.0.1" and calls[-1]["port"] == 8001
    assert "anyone who reaches it" not in capsys.readouterr().err
    serve.serve_command(db=path, host="0.0.0.0", port=9000)
    assert (calls[-1]["host"], calls[-1]["port"]) == ("0.0.0.0", 9000)
    assert "anyone who reaches it can read the store" in capsys.readouterr().err


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
