"""``baccarat-report disclose``: the regulator disclosure figures of a game."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Annotated

import typer

from reporting.cli.common import (
    DEFAULT_DB,
    DEFAULT_DB_WAIT,
    EXIT_FINDINGS,
    EXIT_OK,
    ConfigOption,
    DbOption,
    DbWaitOption,
    JsonOption,
    load_operator_config,
    print_json,
    stdout_console,
)
from reporting.cli.completion import complete_game
from reporting.cli.failures import database_errors
from reporting.cli.logs import command_logger
from reporting.engine.money import format_money, round_fraction
from reporting.errors import InputError

if TYPE_CHECKING:
    from reporting.figures.disclosure import Disclosure


#: A date as --as-of takes it, in ASCII digits (``re``'s [0-9], not Python's \d).
_YYYY_MM_DD = r"([0-9]{4})-([0-9]{2})-([0-9]{2})"


def parse_as_of(text: str | None, timezone: str) -> date:
    """``--as-of YYYY-MM-DD``, or today's date in the game's time zone."""
    from zoneinfo import ZoneInfo

    from reporting.records import MONTHS_HANDLED

    if text is None:
        return datetime.now(ZoneInfo(timezone)).date()
    import re

    try:  # YYYY-MM-DD alone: Python takes 20261105 and 2026-W45-4 too
        if re.fullmatch(_YYYY_MM_DD, text) is None:
            raise ValueError(text)
        day = date.fromisoformat(text)
    except ValueError:
        raise InputError(f"--as-of {_not_a_date(text)}") from None
    first, last = MONTHS_HANDLED
    last_day = last.shifted(2).first_day - timedelta(days=1)  # the last month's run, after it
    if not first.first_day <= day <= last_day:
        raise InputError(
            f"--as-of {text}: outside the dates this tool handles, {first.first_day} to"
            f" {last_day} (the run of {last}, the last month it handles)"
        )
    return day


def _not_a_date(text: str) -> str:
    """Why ``text`` is not a date: a day or month that does not exist, or not YYYY-MM-DD.

    >>> _not_a_date("2026-02-30"), _not_a_date("2026-13-01")
    ('2026-02-30 is not a date: February 2026 has 28 days', '2026-13-01 is not a date: months go from 01 to 12')
    >>> _not_a_date("05/11/2026")
    "'05/11/2026': expected a date YYYY-MM-DD, e.g. 2026-11-05"
    """
    import calendar
    import re

    parts = re.fullmatch(_YYYY_MM_DD, text)
    if parts is None:
        return f"{text!r}: expected a date YYYY-MM-DD, e.g. 2026-11-05"
    year, month, day = (int(part) for part in parts.groups())
    if not year:
        return f"{text} is not a date: years go from 0001"
    if not 1 <= month <= 12:
        return f"{text} is not a date: months go from 01 to 12"
    if day == 0:
        return f"{text} is not a date: days go from 01"
    days = calendar.monthrange(year, month)[1]
    return f"{text} is not a date: {calendar.month_name[month]} {year} has {days} days"


def disclose_command(
    game: Annotated[
        str,
        typer.Option(
            "--game",
            metavar="ID",
            autocompletion=complete_game,
            help="Game id from the configuration.",
        ),
    ],
    as_of: Annotated[
        str | None,
        typer.Option(
            "--as-of",
            metavar="YYYY-MM-DD",
            help="Date of the page, in the game's time zone. Default: today there.",
        ),
    ] = None,
    db: DbOption = DEFAULT_DB,
    db_wait: DbWaitOption = DEFAULT_DB_WAIT,
    config: ConfigOption = None,
    as_json: JsonOption = False,
) -> None:
    """Declared RTP, operator share, limits and the previous month's win percentage."""
    from reporting.figures.disclosure import disclose
    from reporting.store.schema import connect, read_unchanged
    from reporting.verify.bearing import misplaced_line
    from reporting.verify.coverage import misplaced_rounds

    spec = load_operator_config(config).game(game)
    day = parse_as_of(as_of, spec.timezone)
    with database_errors(db):
        connection = connect(db, create=False, wait=db_wait, read_only=True)
        try:
            with read_unchanged(connection):  # a store read where it is, written elsewhere
                disclosure = disclose(connection, spec, day)
                month = disclosure.reference_month_text
                # rounds counted in the month that the game's zone now puts in another (as
                # verify and the monthly job say): the figure counts them as stored
                misplaced = misplaced_rounds(connection, {spec.id: spec}, month)
        finally:
            connection.close()
    warnings = [*disclosure.warnings] + [
        misplaced_line(game_id, rounds, zone, month)
        for game_id, (rounds, zone) in misplaced.items()
    ]
    if as_json:
        print_json(disclosure.to_document() | {"warnings": list(warnings)})
    else:
        print_disclosure(disclosure)
    for warning in warnings:  # each names its game, as rules' and monthly's do
        command_logger().warning("%s: %s", disclosure.game.id, warning)
    # A figure in doubt or missing is not to be published as it is: exit 1 with the warnings.
    raise typer.Exit(EXIT_FINDINGS if warnings else EXIT_OK)


def print_disclosure(disclosure: Disclosure) -> None:
    """The figures as a two-column table (the command logs the warnings after it)."""
    from reporting.cli.tables import FoldingTable

    game = disclosure.game
    limits = game.overall_limits
    table = FoldingTable(
        title=f"{game.name} ({game.id}), page dated {disclosure.as_of.isoformat()}",
        title_justify="left",
        show_header=False,
    )
    table.add_column("Item")
    table.add_column("Figure")
    regulator = " ".join(part for part in (game.regulator, game.regulator_code) if part) or "-"
    rows = [
        ("Regulator code", regulator),
        ("Declared RTP", "-" if game.declared_rtp is None else f"{game.declared_rtp:.2f}%"),
        ("Operator share", "-" if game.operator_share is None else f"{game.operator_share:.2f}%"),
        (
            "Stake limits",
            f"{format_money(limits.minimum)} - {format_money(limits.maximum, game.currency)}",
        ),
        (
            "Opening hours",
            "24 hours, every day" if game.open_around_the_clock else game.opening_hours or "-",
        ),
        ("Reference month", disclosure.reference_month_text),
        ("Updated on", disclosure.updated_on.isoformat()),
        ("Previous month's win percentage", f"{disclosure.win_percentage:.2f}%"),
        ("Rounds / bets", f"{disclosure.rounds:,} / {disclosure.bets:,}"),
        ("Stakes", format_money(disclosure.stakes, game.currency)),
        ("Payouts", format_money(disclosure.payouts, game.currency)),
    ]
    rows += [
        (f"Theoretical RTP, {odds.bet}", f"{round_fraction(odds.rtp * 100, 2):.2f}%")
        for odds in disclosure.theory.bets
    ]
    for item, figure in rows:
        table.add_row(item, figure)
    stdout_console().print(table)
