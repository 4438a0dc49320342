"""Synthetic round logs: a realistic month of play for every configured game, with known
faults injected on request (for demos, tests and benchmarks).

The package, by concern: :mod:`.calendar` (months, clocks, sessions), :mod:`.shoes` (shoes
and dealing), :mod:`.bets` (bet weights, stakes, accounts, settlement by the engine),
:mod:`.games` (one game's model), :mod:`.faults` (one injector per fault kind, in one table),
:mod:`.table` (one table's month), :mod:`.writers` (JSON lines and CSV) and
:mod:`.generator` (:func:`generate_month` and its summary).
"""

from reporting.sample.calendar import month_span, parse_month
from reporting.sample.faults import FAULT_KINDS
from reporting.sample.generator import GameSample, SampleSummary, generate_month

__all__ = [
    "FAULT_KINDS",
    "GameSample",
    "SampleSummary",
    "generate_month",
    "month_span",
    "parse_month",
]
