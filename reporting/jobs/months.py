"""The reference month a monthly run writes: each game's page date gives its month, and all of
a run's games must share one."""

from __future__ import annotations

from datetime import date

from reporting.config.loader import OperatorConfig
from reporting.engine.games import GameSpec
from reporting.errors import InputError
from reporting.figures.disclosure import DEFAULT_UPDATE_DAY, reference_month, updated_on
from reporting.figures.regulators import update_day
from reporting.records import Month

__all__ = ["as_of_choices", "as_of_writing", "games_by_month"]


def games_by_month(config: OperatorConfig, as_of: dict[str, date]) -> dict[str, list[GameSpec]]:
    """The games by the reference month of their page date: one month, or an input error."""
    months: dict[str, list[GameSpec]] = {}
    for game in config.games.values():
        month = reference_month(as_of[game.id], update_day(game))  # (refuses one before 1980)
        months.setdefault(str(month), []).append(game)
    if len(months) > 1:
        # A month's folder is rebuilt whole: a run that wrote only some of its games would
        # drop the others' reports. This happens only near midnight in some game's zone.
        dates = ", ".join(f"{game.id} {month}" for month, games in months.items() for game in games)
        raise InputError(
            f"the games' dates fall in different reference months ({dates}): the run is near"
            f" midnight in one of their time zones; {as_of_choices(config, as_of)}"
        )
    return months


def as_of_choices(config: OperatorConfig, as_of: dict[str, date]) -> str:
    """What to pass when the games' dates fall in two months: each of their dates that gives
    every game one reference month, with that month (``pass --as-of 2026-11-05 to write
    2026-10, or --as-of 2026-11-04 to write 2026-09``)."""
    choices = []
    for day in sorted(set(as_of.values()), reverse=True):
        given = {str(reference_month(day, update_day(game))) for game in config.games.values()}
        if len(given) == 1:
            choices.append(f"--as-of {day.isoformat()} to write {given.pop()}")
    return f"pass {', or '.join(choices)}" if choices else "pass --as-of YYYY-MM-DD"


def as_of_writing(config: OperatorConfig, month: str) -> str:
    """The first ``--as-of`` date whose run writes ``month`` for every game: the latest of
    their figures' update days in the month after (the 5th)."""
    day = max((update_day(game) for game in config.games.values()), default=DEFAULT_UPDATE_DAY)
    return updated_on(Month.parse(month), day).isoformat()
