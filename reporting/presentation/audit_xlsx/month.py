"""The month's sheets, from its audit records: Void rounds, Money, Activity, Availability
gaps, Shoes, Limits and Disclosure check."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from decimal import Decimal
from fractions import Fraction

from reporting.config.loader import OperatorConfig
from reporting.figures.audit_records import ActivityHour, MoneyRow, MonthAudit
from reporting.presentation.audit_report import LANGUAGE
from reporting.presentation.audit_xlsx.cells import (
    COUNT,
    DATE,
    LINE,
    MONEY,
    PERCENT,
    TEXT,
    WRAP,
    _Book,
    _Column,
    _money,
    _money_header,
    _ratio,
    _write_table,
)
from reporting.presentation.bet_words import bet_names
from reporting.records import SourceLocation
from reporting.verify.shoes import ShoeSummary


def _write_void_rounds(book: _Book, audit: MonthAudit, currencies: set[str]) -> None:
    """The void register: every void round of the month, why, and what its bets got back (a
    row whose refunds fall short of its stakes is emphasised)."""
    columns = [
        _Column("Round", TEXT, cap=28),
        _Column("Game", TEXT),
        _Column("Table", TEXT),
        _Column("Shoe", TEXT, cap=24),
        _Column("Hand", LINE),
        _Column("Settled at (UTC)", TEXT),
        _Column("Reason", WRAP, cap=40),
        _Column("Bets", COUNT),
        _Column("Currency", TEXT),
        _Column(_money_header("Stakes", currencies), MONEY),
        _Column(_money_header("Refunded", currencies), MONEY),
        _Column("Source", WRAP, cap=36),
    ]
    rows = [
        (
            *(void.round_id, void.game_id, void.table_id, void.shoe_id, void.hand_no),
            *(void.settled_at, void.void_reason, void.bets, void.currency),
            *(_money(void.stakes), _money(void.refunded)),
            str(SourceLocation(void.source_file, void.source_line)),
        )
        for void in audit.void_rounds
    ]
    _write_table(
        book, "Void rounds", columns, rows, lambda row: "flagged" if row[10] < row[9] else None
    )


#: What the Money sheet's Table column says on a row of every table.
_ALL_TABLES = "All tables"


def _money_order(row: MoneyRow) -> tuple:
    """Per game and currency: the month, then each table, then each day."""
    level = 0 if row.table_id is None and row.day is None else 1 if row.day is None else 2
    return (row.game_id, row.currency, level, row.table_id or "", row.day or date.min)


def _write_money(book: _Book, audit: MonthAudit) -> None:
    """Money of settled rounds per game and currency: the month (bold), each table, each local
    day, with the gross gaming revenue; no row adds two currencies."""
    columns = [
        _Column("Game", TEXT),
        _Column("Currency", TEXT),
        _Column("Table", TEXT),
        _Column("Day", DATE),
        _Column("Rounds settled", COUNT),
        _Column("Rounds void", COUNT),
        _Column("Bets", COUNT),
        _Column("Accounts", COUNT),
        _Column("Stakes", MONEY),
        _Column("Payouts", MONEY),
        _Column("GGR", MONEY),
    ]
    rows = [
        (
            *(row.game_id, row.currency, row.table_id or _ALL_TABLES, row.day),
            *(row.rounds, row.void_rounds, row.bets, row.accounts),
            *(_money(row.stakes), _money(row.payouts), _money(row.ggr)),
        )
        for row in sorted(audit.money, key=_money_order)
    ]
    writer = _write_table(
        book,
        "Money",
        columns,
        rows,
        lambda row: "total" if row[2] == _ALL_TABLES and row[3] is None else None,
    )
    writer.append([])
    for note in (
        "Per game and currency: the month (bold), then each table, then each local day of the"
        " game's time zone. GGR: stakes less payouts.",
        "Amounts are in the currency of their row: no figure adds two currencies.",
    ):
        writer.append([("note", note)])


def _activity_order(hour: ActivityHour) -> tuple:
    return (hour.game_id, hour.table_id, hour.day, hour.hour)


def _write_activity(book: _Book, config: OperatorConfig, audit: MonthAudit) -> None:
    """Play per table, local day and hour."""
    columns = [
        _Column("Game", TEXT),
        _Column("Table", TEXT),
        _Column("Day", DATE),
        _Column("Hour", LINE),
        _Column("Rounds", COUNT),
        _Column("Bets", COUNT),
        _Column("Currency", TEXT),
        _Column("Stakes", MONEY),
    ]
    currency = {game_id: game.currency for game_id, game in config.games.items()}
    rows = [
        (
            *(hour.game_id, hour.table_id, hour.day, hour.hour, hour.rounds, hour.bets),
            *(currency.get(hour.game_id), _money(hour.stakes)),
        )
        for hour in sorted(audit.activity, key=_activity_order)
    ]
    _write_table(book, "Activity", columns, rows)


def _write_gaps(book: _Book, audit: MonthAudit) -> None:
    """The stretches without a round at a table announced as always open."""
    columns = [
        _Column("Game", TEXT),
        _Column("Table", TEXT),
        _Column("After round", TEXT, cap=28),
        _Column("Before round", TEXT, cap=28),
        _Column("Start (UTC)", TEXT),
        _Column("End (UTC)", TEXT),
        _Column("Minutes", COUNT),
    ]
    rows = [
        (gap.game_id, gap.table_id, gap.after_round, gap.before_round, gap.start, gap.end)
        + (gap.minutes,)
        for gap in audit.gaps
    ]
    _write_table(book, "Availability gaps", columns, rows)


def _write_shoes(book: _Book, shoes: Sequence[ShoeSummary]) -> None:
    """Per shoe: its hands and outcomes, pairs, cards dealt, the hand numbers it skips; a shoe
    with findings or hands missing emphasised."""
    columns = [
        _Column("Game", TEXT),
        _Column("Table", TEXT),
        _Column("Shoe", TEXT, cap=28),
        _Column("First settlement (UTC)", TEXT),
        _Column("Last settlement (UTC)", TEXT),
        _Column("Hands", COUNT),
        _Column("Banker", COUNT),
        _Column("Player", COUNT),
        _Column("Tie", COUNT),
        _Column("Banker pairs", COUNT),
        _Column("Player pairs", COUNT),
        _Column("Cards dealt", COUNT),
        _Column("Void rounds", COUNT),
        _Column("Hands missing", COUNT),
        _Column("Findings", COUNT),
    ]
    ordered = sorted(
        shoes, key=lambda shoe: (shoe.game_id, shoe.table_id, shoe.first_settled_at, shoe.shoe_id)
    )
    rows = [
        (
            *(shoe.game_id, shoe.table_id, shoe.shoe_id),
            *(shoe.first_settled_at, shoe.last_settled_at, shoe.rounds),
            *(shoe.banker_wins, shoe.player_wins, shoe.ties),
            *(shoe.banker_pairs, shoe.player_pairs, shoe.cards_dealt, shoe.void_rounds),
            *(shoe.hands_missing if shoe.hands_judged else None, shoe.findings),
        )
        for shoe in ordered
    ]
    # a shoe with findings, hands missing, or hands not counted (None: a round without hand_no)
    flagged = lambda row: "flagged" if row[-1] or row[-2] != 0 else None  # noqa: E731
    _write_table(book, "Shoes", columns, rows, flagged)


def _write_limits(book: _Book, config: OperatorConfig, audit: MonthAudit) -> None:
    """The configured stake limits, what ``stake_out_of_limits`` is read against."""
    names = dict(bet_names(config, LANGUAGE))  # as the pages and the report name each bet
    columns = [
        _Column("Game", TEXT),
        _Column("Bet type", TEXT),
        _Column("Bet", TEXT),
        _Column("Currency", TEXT),
        _Column("Minimum", MONEY),
        _Column("Maximum", MONEY),
        _Column("Below the minimum", TEXT),
        _Column("Above the maximum", TEXT),
    ]
    rows = [
        (limit.game_id, limit.bet_type, names.get(limit.bet_type, limit.bet_type))
        + (limit.currency, _money(limit.minimum))
        + (_money(limit.maximum), limit.below_minimum, limit.above_maximum)
        for limit in sorted(audit.limits, key=lambda limit: (limit.game_id, limit.bet_type))
    ]
    _write_table(book, "Limits", columns, rows)


def _percent_share(percent: Decimal | Fraction | None) -> Decimal | None:
    """A figure in percent as the share a percentage cell holds."""
    if percent is None:
        return None
    if isinstance(percent, Fraction):
        return _ratio(percent / 100)
    return percent.scaleb(-2)


#: The Regulator cell of a game whose configuration names none (its pages carry no regulator's
#: block); a blank cell read as a figure missing.
NO_REGULATOR = "none configured"


def _write_disclosures(book: _Book, audit: MonthAudit) -> None:
    """Each game's figure of the previous month, what it is on the game's pages, and what it
    rests on; a row with warnings emphasised (its pages are drafts)."""
    columns = [
        _Column("Game", TEXT),
        _Column("Regulator", TEXT),
        _Column("Win percentage", PERCENT),
        _Column("On its pages", TEXT),
        _Column("Reference month", TEXT),
        _Column("Updated on", DATE),
        _Column("Rounds", COUNT),
        _Column("Currency", TEXT),
        _Column("Stakes", MONEY),
        _Column("Payouts", MONEY),
        _Column("Declared RTP", PERCENT),
        _Column("Declared RTP reference", WRAP, cap=30),
        _Column("Best theoretical RTP", PERCENT),
        _Column("Warnings", WRAP, cap=60),
    ]
    rows = [
        (
            *(check.game_id, check.regulator or NO_REGULATOR, _percent_share(check.win_percentage)),
            check.on_the_pages,
            *(check.reference_month, check.updated_on, check.rounds, check.currency),
            *(_money(check.stakes), _money(check.payouts), _percent_share(check.declared_rtp)),
            check.declared_rtp_reference,
            _percent_share(check.best_theoretical_rtp),
            "\n".join(check.warnings) or None,
        )
        for check in sorted(audit.disclosures, key=lambda check: check.game_id)
    ]
    _write_table(
        book, "Disclosure check", columns, rows, lambda row: "flagged" if row[-1] else None
    )
