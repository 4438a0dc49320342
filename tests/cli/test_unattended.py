"""Running unattended (docs/operations/unattended.md): the cron wrapper and its alert hook, run
by hand from a fresh folder, and the systemd units checked by systemd-analyze."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"
WRAPPER = PACKAGING / "baccarat-report-monthly"
ALERT = PACKAGING / "baccarat-report-alert"
UNITS = PACKAGING / "systemd"


def executable(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    path.chmod(0o755)
    return path


def cron_environment(home: Path, command: Path, **environment) -> dict[str, str]:
    """Cron's bare environment, with the wrapper's settings and an alert hook that appends
    each alert to ``alerts.txt`` beside ``home``."""
    hook = executable(
        home.parent / "hook",
        '#!/bin/sh\n{ echo "subject: $1"; cat; } >> "$ALERTS"\n',
    )
    return {
        "PATH": "/usr/bin:/bin",
        "BACCARAT_REPORT_HOME": str(home),
        "BACCARAT_REPORT": str(command),
        "BACCARAT_REPORT_ALERT_HOOK": str(hook),
        "ALERTS": str(home.parent / "alerts.txt"),
        **environment,
    }


def run_wrapper(
    home: Path, command: Path, *args: str, wrapper: str = str(WRAPPER), cwd=None, **environment
):
    """The wrapper under POSIX sh, as cron runs it: a bare environment (``wrapper``: the path
    it is started by, from ``cwd``)."""
    env = cron_environment(home, command, **environment)
    return subprocess.run(
        ["sh", wrapper, *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=60
    )


def alerts(home: Path) -> str:
    path = home.parent / "alerts.txt"
    return path.read_text(encoding="utf-8") if path.exists() else ""


@pytest.mark.parametrize("status", [1, 2, 3])
def test_a_failing_run_raises_an_alert_and_keeps_its_exit_code(tmp_path, status):
    home = tmp_path / "srv"
    home.mkdir()
    failing = executable(
        tmp_path / "fake-report",
        f'#!/bin/sh\necho "given: $*"\necho "baccarat-report: the disk is full" >&2\nexit {status}\n',
    )
    process = run_wrapper(home, failing, "--as-of", "2026-11-05")

    assert process.returncode == status
    assert (home / "logs").is_dir()  # made by the wrapper: it did not exist
    output = (home / "logs" / "monthly.last.txt").read_text(encoding="utf-8")
    assert f"given: --log-file {home}/logs/monthly.log monthly --inbox inbox" in output
    assert output.rstrip().endswith("--as-of 2026-11-05\nbaccarat-report: the disk is full")
    alert = alerts(home)
    assert alert.startswith(f"subject: baccarat-report monthly exited {status} on ")
    assert "baccarat-report: the disk is full" in alert
    # cron mails a job's output: the alert is there too, and nothing else is
    assert process.stdout == ""
    assert process.stderr.startswith(f"baccarat-report monthly exited {status} on ")


def test_relative_paths_are_read_from_the_folder_the_wrapper_starts_in(tmp_path):
    """Started by hand as ``sh packaging/baccarat-report-monthly`` with relative settings,
    from a folder other than its home: each path is the starting folder's, not the home's it
    enters, and the default alert command beside the wrapper is found (it was looked for
    under the home, "not found", and the alert was lost)."""
    started_in = tmp_path / "here"
    (started_in / "srv").mkdir(parents=True)
    executable(started_in / "fake-report", '#!/bin/sh\necho "given: $*"\nexit 1\n')
    process = run_wrapper(
        started_in / "srv",
        started_in / "fake-report",
        wrapper=os.path.relpath(WRAPPER, started_in),
        cwd=started_in,
        BACCARAT_REPORT_HOME="srv",
        BACCARAT_REPORT="./fake-report",
    )
    assert process.returncode == 1, process.stderr
    assert "failed" not in process.stderr and "not found" not in process.stderr
    output = (started_in / "srv" / "logs" / "monthly.last.txt").read_text(encoding="utf-8")
    assert output.startswith(f"given: --log-file {started_in}/srv/logs/monthly.log monthly")
    alert = alerts(started_in / "srv")
    assert alert.startswith("subject: baccarat-report monthly exited 1 on ")
    assert f"in {started_in}/srv." in alert


def test_two_runs_at_once_each_keep_their_output_and_alert_with_it(tmp_path):
    """A second run started while one runs (refused by its lock, exit 2) emptied
    ``monthly.last.txt`` under the first, which went on writing at its offset: the file was
    the second's line, NUL bytes, then the first's end, and an alert quoted the other run's
    output. Each run's output is its own until it ends; the file is then one run's, whole."""
    home = tmp_path / "srv"
    home.mkdir()
    report = executable(
        tmp_path / "fake-report",
        '#!/bin/sh\necho "run $RUN began"\nsleep "$SLEEP"\necho "run $RUN ended"\nexit "$STATUS"\n',
    )
    first = subprocess.Popen(
        ["sh", str(WRAPPER)],
        env=cron_environment(home, report, RUN="A", SLEEP="3", STATUS="1"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not any(  # the first run is under way
        "run A began" in path.read_text() for path in (home / "logs").glob("monthly.*")
    ):
        time.sleep(0.05)
    second = run_wrapper(home, report, RUN="B", SLEEP="0", STATUS="2")
    first.communicate(timeout=60)
    assert (first.returncode, second.returncode) == (1, 2)
    assert (home / "logs" / "monthly.last.txt").read_text() == "run A began\nrun A ended\n"
    assert sorted(path.name for path in (home / "logs").iterdir()) == ["monthly.last.txt"]
    b_alert, a_alert = alerts(home).split("subject: ")[1:]
    assert "run B began\nrun B ended" in b_alert and "run A" not in b_alert
    assert "run A began\nrun A ended" in a_alert and "run B" not in a_alert


@pytest.mark.parametrize("signal_number", [9, 15])
def test_a_run_killed_says_by_which_signal_and_that_it_may_run_again(tmp_path, signal_number):
    home = tmp_path / "srv"
    home.mkdir()
    killed = executable(
        tmp_path / "fake-report", f"#!/bin/sh\necho working\nkill -{signal_number} $$\n"
    )
    process = run_wrapper(home, killed)
    assert process.returncode == 128 + signal_number
    alert = alerts(home)
    assert f"exited {128 + signal_number} (killed by signal {signal_number}: stopped from outside, or out of memory; what it had published is whole" in alert  # fmt: skip
    assert "run it again" in alert and "\nworking\n" in alert


def test_a_clean_run_is_silent_and_raises_no_alert(tmp_path):
    home = tmp_path / "srv"
    home.mkdir()
    clean = executable(tmp_path / "fake-report", "#!/bin/sh\necho 'Reports for 2026-10'\n")
    process = run_wrapper(home, clean)
    assert (process.returncode, process.stdout, process.stderr) == (0, "", "")
    assert alerts(home) == ""
    assert "Reports for 2026-10" in (home / "logs" / "monthly.last.txt").read_text()


def test_a_missing_working_folder_is_an_alert_and_exit_2(tmp_path):
    home = tmp_path / "not-there"
    process = run_wrapper(home, Path("/bin/true"))
    assert process.returncode == 2
    assert f"cannot enter the working folder {home}" in alerts(home)


def test_a_log_folder_that_cannot_be_made_is_an_alert_and_exit_2(tmp_path):
    home = tmp_path / "srv"
    home.mkdir()
    (home / "logs").write_text("a file where the folder should be", encoding="utf-8")
    process = run_wrapper(home, Path("/bin/true"))
    assert process.returncode == 2
    assert "cannot make the log folder" in alerts(home)


def test_a_failing_alert_hook_is_said_on_stderr(tmp_path):
    home = tmp_path / "srv"
    home.mkdir()
    process = run_wrapper(home, Path("/bin/false"), BACCARAT_REPORT_ALERT_HOOK="/bin/false")
    assert process.returncode == 1
    assert "the alert command" in process.stderr and "failed" in process.stderr


def test_the_alert_asks_for_mail_it_cannot_send(tmp_path):
    (tmp_path / "cat").symlink_to(shutil.which("cat"))  # a PATH without mail(1) or logger
    env = {"PATH": str(tmp_path), "BACCARAT_REPORT_MAILTO": "ops@example.org"}
    process = subprocess.run(
        ["/bin/sh", str(ALERT), "subject"], input="details", capture_output=True, text=True, env=env
    )
    assert process.returncode == 0
    assert process.stderr.startswith("subject\ndetails\n")
    assert "mail(1) is not installed" in process.stderr


# --- systemd ----------------------------------------------------------------------------


def unit_text(name: str) -> str:
    return (UNITS / name).read_text(encoding="utf-8")


def test_the_units_say_what_the_docs_promise():
    service = unit_text("baccarat-report-monthly.service")
    timer = unit_text("baccarat-report-monthly.timer")
    assert "OnFailure=baccarat-report-alert@%n.service" in service
    assert re.search(r"^User=\w+", service, flags=re.MULTILINE)
    assert "LogsDirectory=baccarat-report" in service
    assert "--log-file /var/log/baccarat-report/monthly.log monthly" in service
    assert "OnCalendar=*-*-05 06:00:00" in timer and "Persistent=true" in timer


def test_systemd_analyze_verifies_the_units(tmp_path):
    """In a scratch root holding systemd's own units and the programs the units run, so that
    the check covers every setting and every command line, not only the syntax."""
    root = tmp_path / "root"
    shutil.copytree("/usr/lib/systemd/system", root / "usr/lib/systemd/system", symlinks=True)
    for program in (
        "srv/baccarat/.venv/bin/baccarat-report",
        "usr/local/bin/baccarat-report-alert",
    ):
        (root / program).parent.mkdir(parents=True, exist_ok=True)
        executable(root / program, "#!/bin/sh\n")
    (root / "bin").mkdir()
    shutil.copy("/bin/sh", root / "bin" / "sh")
    installed = root / "etc/systemd/system"
    installed.mkdir(parents=True)
    names = sorted(path.name for path in UNITS.iterdir())
    for name in names:
        shutil.copy(UNITS / name, installed / name)
    process = subprocess.run(
        [
            "systemd-analyze",
            "verify",
            f"--root={root}",
            *(f"/etc/systemd/system/{n}" for n in names),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "SYSTEMD_LOG_LEVEL": "notice"},
    )
    assert (process.returncode, process.stdout, process.stderr) == (0, "", "")
    # ... and the check is able to fail: a schedule that is no time of day
    broken = installed / "baccarat-report-monthly.timer"
    broken.write_text(unit_text(broken.name).replace("06:00:00", "26:00:00"), encoding="utf-8")
    process = subprocess.run(
        ["systemd-analyze", "verify", f"--root={root}", "/etc/systemd/system/" + broken.name],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert process.returncode != 0 and "calendar" in process.stderr


def test_systemd_analyze_knows_the_schedule():
    process = subprocess.run(
        ["systemd-analyze", "calendar", "*-*-05 06:00:00 Europe/Rome", "--iterations=2"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert process.returncode == 0, process.stderr
    elapses = re.findall(r"(?:Next elapse|Iter\. #2): \w+ (\d{4}-\d\d-\d\d) ", process.stdout)
    assert len(elapses) == 2 and all(day.endswith("-05") for day in elapses), process.stdout


def test_the_docs_show_the_units_and_the_cron_line_as_shipped():
    readme = (ROOT / "docs" / "operations" / "unattended.md").read_text(encoding="utf-8")
    for name in ("baccarat-report-monthly.service", "baccarat-report-monthly.timer",
                 "baccarat-report-alert@.service"):  # fmt: skip
        assert unit_text(name).strip() in readme, name
    assert "baccarat-report-monthly" in readme
    assert re.search(
        r"^ *0 6 5 \* \* /usr/local/bin/baccarat-report-monthly$", readme, flags=re.MULTILINE
    )
