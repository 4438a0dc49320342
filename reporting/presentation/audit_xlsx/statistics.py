"""The statistics sheets: Outcome tests and RTP checks (:mod:`reporting.figures.statistics`)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from reporting.config.loader import OperatorConfig
from reporting.figures.statistics import CONFIDENCE_LABEL, OutcomeTest, RtpCheck
from reporting.presentation.audit_report import LANGUAGE
from reporting.presentation.audit_xlsx.cells import (
    COUNT,
    EXPECTED,
    FLAG,
    MONEY,
    P_VALUE,
    PERCENT,
    STAT,
    TEXT,
    _Book,
    _Column,
    _content_widths,
    _money,
    _money_header,
    _ratio,
    _SheetWriter,
    _yes_no,
)
from reporting.presentation.bet_words import bet_names
from reporting.verify.run import VerifyResult

_OUTCOME_COLUMNS = (
    _Column("Game", TEXT),
    _Column("Table", TEXT),
    _Column("Rounds settled", COUNT),
    _Column("Rounds void", COUNT),
    _Column("Banker", COUNT),
    _Column("Banker expected", EXPECTED),
    _Column("Player", COUNT),
    _Column("Player expected", EXPECTED),
    _Column("Tie", COUNT),
    _Column("Tie expected", EXPECTED),
    _Column("Chi-square (2 df)", STAT),
    _Column("p-value", P_VALUE),
    _Column(f"Outside {CONFIDENCE_LABEL}", FLAG),
)


def _write_outcome_tests(
    book: _Book, result: VerifyResult, outcomes: Sequence[OutcomeTest]
) -> None:
    columns = _OUTCOME_COLUMNS
    rows = []
    for test in outcomes:
        counts = result.tables.get((test.game_id, test.table_id))
        rows.append(
            (
                test.game_id,
                test.table_id,
                test.rounds,
                counts.void if counts is not None else None,
                test.banker,
                test.expected_banker,
                test.player,
                test.expected_player,
                test.tie,
                test.expected_tie,
                test.chi_square,
                test.p_value,
                _yes_no(test.flagged),
            )
        )
    writer = _SheetWriter(book, "Outcome tests", columns, _content_widths(columns, rows))
    writer.header()
    writer.rows(rows, flagged_column=len(columns) - 1)
    writer.finish_table()


def _write_rtp_checks(
    book: _Book, config: OperatorConfig, rtp: Sequence[RtpCheck], currencies: set[str]
) -> None:
    columns = [
        _Column("Game", TEXT),
        _Column("Bet type", TEXT),
        _Column("Bet", TEXT),
        _Column("Currency", TEXT),
        _Column("Bets", COUNT),
        _Column(_money_header("Stakes", currencies), MONEY),
        _Column(_money_header("Payouts", currencies), MONEY),
        _Column("Actual RTP", PERCENT),
        _Column("Theoretical RTP", PERCENT),
        _Column("Actual - theoretical", PERCENT),
        _Column(f"Bound ({CONFIDENCE_LABEL}, ±)", PERCENT),
        _Column("Lower bound", PERCENT),
        _Column("Upper bound", PERCENT),
        _Column("z-score", STAT),
        _Column(f"Outside {CONFIDENCE_LABEL}", FLAG),
    ]
    rows = []
    names = dict(bet_names(config, LANGUAGE))  # as the pages and the report name each bet
    for check in rtp:
        game = config.games.get(check.game_id)
        actual = check.actual_rtp
        rows.append(
            (
                check.game_id,
                check.bet_type,
                names.get(check.bet_type, check.bet_type),
                game.currency if game else None,
                check.bets,
                _money(check.stakes),
                _money(check.payouts),
                _ratio(actual),
                _ratio(check.theoretical_rtp),
                None if actual is None else _ratio(actual - check.theoretical_rtp),
                _ratio(Fraction(check.bound)),
                # an RTP is no less than 0: a band wider than the figure (a rare bet's, on a
                # month's few bets) is bounded there, not printed as -185.08%
                _ratio(max(check.theoretical_rtp - Fraction(check.bound), Fraction(0))),
                _ratio(check.theoretical_rtp + Fraction(check.bound)),
                check.z_score,
                _yes_no(check.flagged),
            )
        )
    writer = _SheetWriter(book, "RTP checks", columns, _content_widths(columns, rows))
    writer.header()
    writer.rows(rows, flagged_column=len(columns) - 1)
    writer.finish_table()
