"""Synthetic round logs: a realistic month of play for every configured game, with known
faults injected on request (for demos, tests and benchmarks).

The package, by concern: :mod:`.calendar` (months, clocks, sessions), :mod:`.shoes` (shoes
and dealing), :mod:`.bets` (shares of play, stakes, accounts, settlement by the engine),
:mod:`.games` (one game's model), :mod:`.faults` (one injector per fault kind, in one table),
:mod:`.table` (one table's month), :mod:`.writers` (JSON lines and CSV), :mod:`.exports`
(the providers' export shapes: replay-api, numeric-feed, flat-csv) and :mod:`.generator`
(:func:`generate_month` and its summary). :data:`CARRIED_KINDS` says which fault kinds a log
of each of :data:`FORMATS` carries.
"""

from reporting.sample.calendar import month_span, parse_month
from reporting.sample.faults import CARRIED_KINDS, FAULT_KINDS, FORMATS
from reporting.sample.generator import GameSample, SampleSummary, generate_month, log_files

__all__ = [
    "CARRIED_KINDS",
    "FAULT_KINDS",
    "FORMATS",
    "GameSample",
    "SampleSummary",
    "generate_month",
    "log_files",
    "month_span",
    "parse_month",
]
