"""What bears on a month (reporting.verify.bearing): which rejected lines, and every alert kind.

Stores are built by the real ingest from small logs written inline; each test names the rule
of the module's docstring it holds.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reporting.ingest.discovery import discover_sources
from reporting.store.load import ingest
from reporting.store.schema import connect
from reporting.verify.bearing import (
    FILES_NAMED,
    MonthAlerts,
    RejectedFile,
    month_alerts,
    reject_scope,
)
from reporting.verify.coverage import CheckNotRun
from reporting.verify.run import verify


def greek(make_round, make_bet, round_id: str, settled_at: str, stake: str = "10.00"):
    """A Greek round settled at ``settled_at`` (its bet placed 35 s before)."""
    day, clock = settled_at.split("T")
    return make_round(
        round_id,
        game="live-baccarat-gr",
        table_id="GR-T",
        shoe_id=f"{round_id}-S",
        hand_no=1,
        started_at=f"{day}T10:00:00Z",
        betting_closed_at=f"{day}T10:00:15Z",
        settled_at=settled_at,
        bets=[make_bet(f"{round_id}-B", type="banker", stake=stake, payout="0.00",
                       placed_at=f"{day}T10:00:05Z")],
    )  # fmt: skip


@pytest.fixture
def store(tmp_path, operator_config, make_round, make_bet, write_jsonl):
    """Four files: October rounds with a bad line; September rounds with a bad line; a file
    whose every line is rejected; a file whose every round conflicts with an October one."""
    folder = tmp_path / "logs"
    write_jsonl(
        folder / "a-october.jsonl",
        greek(make_round, make_bet, "OCT-1", "2026-10-03T10:00:40Z"),
        "{october's bad line",
    )
    write_jsonl(
        folder / "b-september.jsonl",
        greek(make_round, make_bet, "SEP-1", "2026-09-03T10:00:40Z"),
        "{september's bad line",
    )
    write_jsonl(folder / "c-garbage.jsonl", "{x", "{y")
    write_jsonl(
        folder / "d-conflict.jsonl",
        greek(make_round, make_bet, "OCT-1", "2026-10-03T10:00:40Z", stake="99.00"),
    )
    connection = connect(tmp_path / "store.sqlite")
    result = ingest(connection, discover_sources([folder]), operator_config)
    assert [item.rejected_count for item in result.files] == [1, 1, 2, 1]
    yield connection
    connection.close()


def names(alerts) -> dict[str, int]:
    return {Path(item.name).name: item.rejected for item in alerts.rejected_files}


def test_rejects_bear_on_the_months_of_their_files_rounds_and_files_without_rounds_on_every_month(
    store,
):
    october = month_alerts(store, "2026-10", findings_by_kind={}, unverified_rounds={})
    september = month_alerts(store, "2026-09", findings_by_kind={}, unverified_rounds={})
    assert names(october) == {"a-october.jsonl": 1, "c-garbage.jsonl": 2, "d-conflict.jsonl": 1}
    # The conflict is of an October round: it bears on October alone, its month.
    assert names(september) == {"b-september.jsonl": 1, "c-garbage.jsonl": 2}
    # A month nothing was loaded for still shows the files nothing of which could be read.
    august = month_alerts(store, "2026-08", findings_by_kind={}, unverified_rounds={})
    assert names(august) == {"c-garbage.jsonl": 2}
    everything = month_alerts(store, None, findings_by_kind={}, unverified_rounds={})
    assert everything.rejected == 5
    assert (october.rejected, october.exit_code) == (4, 1)


def test_a_rejected_line_whose_month_can_be_read_bears_on_that_month_alone(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    """A file of September rounds held an October round rejected for its stake (a JSON
    number): the reject bore on September, through its file, and October's audit, exit code
    and workbook never showed the October round missing. A line whose game and settlement
    time can be read has a month, and bears on it alone; its round id is kept too."""
    from helpers import write_csv_pair

    october = greek(make_round, make_bet, "OCT-9", "2026-10-10T10:00:40Z")
    october["bets"][0]["stake"] = 10.0  # money as a JSON number: rejected, never rounded
    write_jsonl(
        tmp_path / "logs" / "n1.jsonl",
        greek(make_round, make_bet, "SEP-9", "2026-09-30T10:00:40Z"),
        october,
    )
    late = greek(make_round, make_bet, "OCT-8", "2026-10-31T22:30:00Z", stake="x")
    write_csv_pair(tmp_path / "pair", [late])  # 00:30 on 1 November in Athens: November's
    connection = connect(tmp_path / "store.sqlite")
    try:
        sources = discover_sources([tmp_path / "logs", tmp_path / "pair"])
        ingest(connection, sources, operator_config)
        stored = connection.execute(
            "SELECT round_id, report_month FROM rejected_records ORDER BY round_id"
        ).fetchall()
        months = {
            month: month_alerts(connection, month, findings_by_kind={}, unverified_rounds={})
            for month in ("2026-09", "2026-10", "2026-11")
        }
    finally:
        connection.close()
    assert stored == [("OCT-8", "2026-11"), ("OCT-9", "2026-10")]
    assert names(months["2026-10"]) == {"n1.jsonl": 1} and months["2026-10"].exit_code == 1
    assert names(months["2026-09"]) == {} and months["2026-09"].rejected == 0
    assert [Path(item.name).name for item in months["2026-11"].rejected_files] == ["rounds.csv"]


def test_the_workbook_scope_is_the_same_rule(store):
    for month in ("2026-08", "2026-09", "2026-10", None):
        where, params = reject_scope(store, month).rejects_where()
        [(shown,)] = store.execute(
            f"SELECT count(*) FROM rejected_records WHERE {where}", params
        ).fetchall()
        alerts = month_alerts(store, month, findings_by_kind={}, unverified_rounds={})
        assert shown == alerts.rejected, month


def test_a_file_that_loaded_nothing_is_described_as_such(store):
    alerts = month_alerts(store, "2026-10", findings_by_kind={}, unverified_rounds={})
    described = {Path(item.name).name: item.describe() for item in alerts.rejected_files}
    assert described["c-garbage.jsonl"].endswith(
        "all 2 of its records rejected, no round loaded (bad_json 2)"
    )
    assert described["d-conflict.jsonl"].endswith("no round loaded (conflict 1)")
    assert described["a-october.jsonl"].endswith(": 1 rejected (bad_json 1)")
    assert alerts.rejected_by_reason == {"bad_json": 3, "conflict": 1}


def test_a_file_of_no_round_whose_rejects_span_months_says_how_many_bear_here():
    """Its rejects of a month of their own bear on that month: "all 3 of its records" was
    untrue of a file of 5 rejected lines, 3 of them this month's."""
    from reporting.verify.bearing import RejectedFile

    part = RejectedFile("f.jsonl", 3, 0, {"bad_money": 3}, rejected_in_file=5)
    assert part.describe() == (
        "f.jsonl: 3 of its 5 records, all rejected, bear on this period, no round loaded"
        " (bad_money 3)"
    )
    whole = RejectedFile("f.jsonl", 5, 0, {"bad_money": 5}, rejected_in_file=5)
    assert (
        whole.describe() == "f.jsonl: all 5 of its records rejected, no round loaded (bad_money 5)"
    )
    # A re-export with one round corrected: 92 rounds stored already, one conflict. "All 1 of
    # its records rejected" said nothing of the 92.
    again = RejectedFile("oct-v2.jsonl", 1, 0, {"conflict": 1}, duplicates=92)
    assert again.describe() == (
        "oct-v2.jsonl: 1 rejected (conflict 1), no round loaded: its other 92 rounds were"
        " stored already"
    )
    one = RejectedFile("oct-v3.jsonl", 1, 0, {"conflict": 1}, duplicates=1)
    assert one.describe().endswith("its other round was stored already")  # not "1 rounds were"


def test_a_file_s_name_is_shown_escaped_in_its_line():
    """A provider's file named with a line break (or an escape sequence) forged a line of the
    summary, the cron mail and monthly.last.txt: the name is escaped, as in the log."""
    from reporting.verify.bearing import RejectedFile

    named = RejectedFile("replay/a\nb\x1b[31m.json", 2, 0, {"conflict": 2})
    assert named.describe() == (
        "replay/a\\nb\\x1b[31m.json: all 2 of its records rejected, no round loaded (conflict 2)"
    )


def test_nothing_bearing_on_a_month_gives_exit_0_and_no_alert(tmp_path):
    connection = connect(tmp_path / "empty.sqlite")
    try:
        alerts = month_alerts(connection, "2026-10", findings_by_kind={"late_bet": 0},
                              unverified_rounds={}, publishing={"live-baccarat-gr": ()})  # fmt: skip
    finally:
        connection.close()
    assert (alerts.alerts, alerts.exit_code, alerts.findings) == ([], 0, 0)
    assert alerts.to_document()["publishing_problems"] == {}


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"findings_by_kind": {"late_bet": 2}}, "2 findings in 2026-08 (late_bet 2)"),
        ({"unread_files": ["rounds.json"]}, "in the inbox but not read: rounds.json"),
        ({"publishing": {"g": ("no play in 2026-08",)}}, "g: no play in 2026-08"),
    ],
)
def test_each_kind_of_alert_alone_gives_exit_1_and_is_named(tmp_path, options, expected):
    connection = connect(tmp_path / "empty.sqlite")
    try:
        arguments = {"findings_by_kind": {}, "unverified_rounds": {}, **options}
        alerts = month_alerts(connection, "2026-08", **arguments)
    finally:
        connection.close()
    assert alerts.exit_code == 1
    assert alerts.alerts == [expected]


def test_rounds_of_a_game_the_configuration_does_not_list_are_unverified_bets(
    store, operator_config
):
    only_italy = type(operator_config)(
        name=operator_config.name,
        games={"live-baccarat-it": operator_config.games["live-baccarat-it"]},
        source=operator_config.source,
    )
    result = verify(store, only_italy, "2026-10")
    alerts = month_alerts(
        store,
        "2026-10",
        findings_by_kind=result.findings_by_kind,
        unverified_rounds=result.unconfigured_rounds,
    )
    assert dict(alerts.unverified_rounds) == {"live-baccarat-gr": 1}
    assert alerts.unverified_bets == 1
    assert (
        "1 rounds of live-baccarat-gr in 2026-10 were not verified: the configuration does not"
        " list that game"
    ) in alerts.alerts


def test_checks_not_run_are_warnings_that_leave_the_exit_code_alone():
    entries = (
        CheckNotRun(
            "live-baccarat-it",
            "late_bet",
            "bets",
            5,
            5,
            (("placed_at", 5), ("betting_closed_at", 0)),
        ),
        CheckNotRun("live-baccarat-it", "shoe_card_count", "rounds", 2, 3, (("shoe_id", 2),)),
        CheckNotRun("live-baccarat-gr", "shoe_card_count", "rounds", 3, 3, (("shoe_id", 3),)),
    )
    alerts = MonthAlerts("2026-10", checks_not_run=entries)
    assert alerts.warnings == [
        "live-baccarat-it: not checked: late_bet on 5 of 5 bets (no placed_at); shoe_card_count"
        " on 2 of 3 rounds (no shoe_id)",
        "live-baccarat-gr: not checked: shoe_card_count on 3 of 3 rounds (no shoe_id)",
    ]
    assert (alerts.alerts, alerts.exit_code) == ([], 0)
    document = alerts.to_document()
    assert document["warnings"] == alerts.warnings
    assert [entry["missing"] for entry in document["checks_not_run"]] == [
        ["placed_at"],
        ["shoe_id"],
        ["shoe_id"],
    ]
    with_a_finding = MonthAlerts("2026-10", findings_by_kind={"unverified_bet": 1})
    assert with_a_finding.exit_code == 1
    assert with_a_finding.alerts == ["1 finding in 2026-10 (unverified_bet 1)"]


def test_the_alerts_name_the_first_files_and_count_the_rest_with_every_other_alert_after():
    """A checksum file beside each of 5,000 logs made a summary of 5,000 lines, and what came
    after them (an availability problem, say) went unseen: the alerts' lines name the first
    FILES_NAMED files of each list and count the rest; the JSON keeps every one."""
    rejected = tuple(
        RejectedFile(f"logs/{n:04d}.jsonl", 1, 3, {"bad_json": 1}) for n in range(FILES_NAMED + 3)
    )
    unread = tuple(
        f"logs/{n:04d}.jsonl.sha256 (not a round log name)" for n in range(FILES_NAMED + 5)
    )
    alerts = MonthAlerts(
        "2026-10",
        rejected_files=rejected,
        unread_files=unread,
        availability={"live-baccarat-it": ("idle for 43,986 of the month's minutes",)},
    )
    lines = alerts.alerts
    assert lines[0] == f"{FILES_NAMED + 3} rejected lines bear on 2026-10"
    assert lines[1 : FILES_NAMED + 1] == [f"  {item.describe()}" for item in rejected[:FILES_NAMED]]
    assert lines[FILES_NAMED + 1] == "  and 3 more files with rejected lines: see rejected_records"
    named = lines[FILES_NAMED + 2 : 2 * FILES_NAMED + 2]
    assert named == [f"in the inbox but not read: {name}" for name in unread[:FILES_NAMED]]
    assert lines[2 * FILES_NAMED + 2 :] == [
        "and 5 more inbox files not read: manifest.json names them all",
        "live-baccarat-it: idle for 43,986 of the month's minutes",
    ]
    document = alerts.to_document()
    assert len(document["rejected_files"]) == FILES_NAMED + 3
    assert document["unread_files"] == list(unread)
