"""The monthly job reads providers' exports in its inbox by the configuration's rules."""

from __future__ import annotations

import json
import sqlite3
from datetime import date

from reporting.config.loader import load_config
from reporting.errors import InputError
from reporting.jobs.monthly import run_monthly
from reporting.store.schema import connect

CONFIG = """\
[games.live-baccarat-gr]
languages = ["el"]
tables = ["LB-GR-*"]

[[inbox.profiles]]
folder = "replay"
profile = "replay-api"
"""


def replay_game(uid: str) -> dict:
    """A replay-API game of 2026-10-03 18:40 UTC: player natural 9 beats banker 7."""
    return {
        "gameUid": uid,
        "gameResultType": "PLAYER_WIN",
        "startDate": 1791052802120,
        "endDate": 1791052841870,
        "gameplay": {
            ".BaccaratGameplay": {
                "betEndDate": 1791052817000,
                "playerHand": {"cards": {"0": "H_9", "1": "S_K"}},
                "bankerHand": {"cards": {"0": "D_5", "1": "C_2"}},
            }
        },
        "playersBets": [
            {
                "playerId": "acc-1",
                "tileId": "LB-GR-01",
                "currency": "EUR",
                "bets": [
                    {
                        "betId": f"{uid}-B1",
                        "betAmount": 10,
                        "payoffAmount": 20,
                        "betType": "BC_PLAYER",
                    },
                    {
                        "betId": f"{uid}-B2",
                        "betAmount": 5,
                        "payoffAmount": 0,
                        "betType": "BC_KINGS",
                    },
                ],
            }
        ],
    }


def write_stub_pages(game, disclosure, as_of, folder):
    page = folder / f"{game.id}.page.txt"
    page.write_text(f"{game.id} {disclosure.win_percentage}\n", encoding="utf-8")
    return [page]


def test_the_inbox_rules_read_each_export_with_its_profile(tmp_path):
    (tmp_path / "operator.toml").write_text(CONFIG, encoding="utf-8")
    config = load_config(tmp_path / "operator.toml")
    inbox = tmp_path / "inbox"
    (inbox / "replay").mkdir(parents=True)
    games = [replay_game("LB-GR-01-1"), replay_game("LB-GR-01-2")]
    (inbox / "replay" / "games-2026-10.json").write_text(json.dumps(games), encoding="utf-8")
    (inbox / "replay" / "readme.txt").write_text("from the provider\n", encoding="utf-8")
    connection = connect(tmp_path / "store.sqlite")
    try:
        result = run_monthly(
            connection,
            config,
            inbox,
            tmp_path / "reports",
            {"live-baccarat-gr": date(2026, 11, 5)},
            write_stub_pages,
        )
    finally:
        connection.close()
    assert result.ingest.rounds_loaded == 2 and result.ingest.bets_loaded == 4
    store = sqlite3.connect(tmp_path / "store.sqlite")
    try:
        assert store.execute("SELECT file_name, format, profile FROM ingest_log").fetchall() == [
            ("replay/games-2026-10.json", "json", "replay-api")
        ]
        assert store.execute("SELECT DISTINCT bet_type FROM bets ORDER BY 1").fetchall() == [
            ("BC_KINGS",),
            ("player",),
        ]
    finally:
        store.close()
    manifest = json.loads((tmp_path / "reports" / "2026-10" / "manifest.json").read_text("utf-8"))
    assert [(item["file"], item.get("profile")) for item in manifest["inputs"]] == [
        ("replay/games-2026-10.json", "replay-api")
    ]
    (report,) = result.months
    assert report.alerts.unread_files == (
        "replay/readme.txt (not a file the log profile replay-api reads (*.json, *.json.gz,"
        " *.jsonl, *.jsonl.gz))",
    )


def monthly_twice(tmp_path, first: str, then: str, file: str, text: str) -> list:
    """The monthly run on an inbox holding ``file`` (under ``replay/``), with the
    configuration ``first``, then ``then``: each run's error (None: it ran), and its log lines
    appended to the list returned last."""
    config_path = tmp_path / "operator.toml"
    inbox = tmp_path / "inbox"
    (inbox / "replay").mkdir(parents=True)
    (inbox / "replay" / file).write_text(text, encoding="utf-8")
    lines: list[str] = []
    errors: list[str | None] = []
    for configuration in (first, then):
        config_path.write_text(configuration, encoding="utf-8")
        connection = connect(tmp_path / "store.sqlite")
        try:
            run_monthly(
                connection,
                load_config(config_path),
                inbox,
                tmp_path / "reports",
                {"live-baccarat-gr": date(2026, 11, 5)},
                write_stub_pages,
                log=lines.append,
            )
            errors.append(None)
        except InputError as error:
            errors.append(str(error))
        finally:
            connection.close()
    return [*errors, lines]


def inputs_of(tmp_path) -> list[tuple[str, str | None]]:
    manifest = json.loads((tmp_path / "reports" / "2026-10" / "manifest.json").read_text("utf-8"))
    return [(item["file"], item.get("profile")) for item in manifest["inputs"]]


def test_a_providers_export_dropped_before_its_rule_is_read_once_the_rule_names_it(tmp_path):
    """A provider's JSON Lines dropped before its rule was written was read as the spec's log
    (every line rejected), and once the rule named its folder the file, known by its hash, was
    not read again: the store never held its rounds. The run before the rule stops on it,
    naming the profile that reads it, nothing of it loaded; the run after reads it through
    the rule's profile."""
    record = json.dumps(replay_game("LB-GR-01-1")) + "\n"
    before, after, _ = monthly_twice(
        tmp_path, CONFIG.split("[[inbox.profiles]]")[0], CONFIG, "games.jsonl", record
    )
    assert before is not None and "games.jsonl:1: written as the replay-api export" in before
    assert after is None
    assert inputs_of(tmp_path) == [("replay/games.jsonl", "replay-api")]


def test_a_file_read_before_a_rule_named_it_stays_as_first_read_and_is_said(tmp_path, make_round):
    """A round log read as the spec's, before a rule named its folder for a provider's
    profile: the file is known by its hash and not read again; the manifest said the rule's
    profile had read it, and nothing said the rule had changed nothing. The manifest names
    how it was read, and the log says why."""
    spec = json.dumps(make_round("LB-GR-01-1", game="live-baccarat-gr", table_id="LB-GR-01"))
    before, after, lines = monthly_twice(
        tmp_path, CONFIG.split("[[inbox.profiles]]")[0], CONFIG, "games.jsonl", spec + "\n"
    )
    assert (before, after) == (None, None)
    assert inputs_of(tmp_path) == [("replay/games.jsonl", None)]
    assert [line for line in lines if "read before" in line] == [
        "inbox: warning: replay/games.jsonl was read before as the spec's round log, not log"
        " profile replay-api as its rule now says: a file is read once per store, and its"
        " rounds stay as first read"
    ]
