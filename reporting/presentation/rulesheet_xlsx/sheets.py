"""The rule sheet workbook's sheets, one writer each, in workbook order (see
:mod:`reporting.presentation.rulesheet_xlsx`)."""

from __future__ import annotations

from collections.abc import Sequence

from openpyxl import Workbook
from openpyxl.cell.rich_text import CellRichText, TextBlock
from openpyxl.cell.text import InlineFont
from openpyxl.styles import PatternFill

from reporting.engine.money import cents_to_decimal
from reporting.engine.rules import Winner
from reporting.presentation.roads import BANKER_COLOUR, PLAYER_COLOUR, TIE_COLOUR
from reporting.presentation.rulesheet_model import OfferedBet, PayForm, RuleSheet, Scoreboard
from reporting.presentation.rulesheet_xlsx.cells import (
    BORDER,
    CENTER,
    CENTER_MIDDLE,
    DRAW_FILL,
    HEAD_FILL,
    PageText,
    SheetWriter,
    excel_share,
    rounded_odds,
    styled_font,
)
from reporting.presentation.workbook_base import FONT


def _title(page: SheetWriter, sheet: RuleSheet, text: PageText) -> None:
    """The operator's line (name and licence, as the page's masthead), the sheet's title and
    subtitle lines, and the draft mark the HTML and PDF carry."""
    publisher = text.publisher_line(sheet)
    if publisher:
        page.paragraph(publisher, font=styled_font(bold=True))
    subtitle = [text.game_rules_title(), text.kind_text(sheet)]
    if sheet.adm and sheet.adm.regulator_code:
        subtitle.append(text.adm_code_text(sheet.adm))
    if sheet.game_version:
        subtitle.append(text.game_version(sheet))
    subtitle.append(text.in_force(sheet))
    page.title(sheet.game_name, subtitle)


def rules_sheet(workbook: Workbook, sheet: RuleSheet, text: PageText, formats: dict) -> None:
    page = SheetWriter(workbook, text._("Rules"), (34, 58, 16), text, formats)
    _title(page, sheet, text)

    page.heading(text.object_title())
    page.paragraph(text.object_text())

    page.heading(text.cards_title())
    page.paragraph(text.shoe_text(sheet))
    if sheet.live and sheet.statistics_reset and not sheet.shows_statistics:
        page.paragraph(text.shoe_count_text(sheet.statistics_reset))
    page.heading(text.card_values_title(), level=3)
    page.caption(text.card_values_caption())
    page.table(
        [text.card_label(), text.points_label()],
        [[text.card_group(group), text.card_points(group)] for group in sheet.card_values],
    )
    page.paragraph(text.hand_value_text())
    page.heading(text.hand_examples_title(), level=3)
    page.table(
        [text.cards_label(), text.points_label(), text.hand_value_label()],
        [
            [
                " ".join(text.card_code(card) for card in example.cards),
                f"{' + '.join(str(p) for p in example.points)} = {example.total}",
                f"{example.value} {text.natural_mark()}" if example.natural else example.value,
            ]
            for example in sheet.hand_examples
        ],
        formats=(None, None, "0"),
    )

    page.heading(text.deal_title())
    page.paragraph(text.deal_text())
    page.paragraph(text.natural_text(sheet))
    page.heading(text.who_wins_title(), level=3)
    page.paragraph(text.who_wins_text())

    page.heading(text.limits_title())
    page.caption(text.limits_caption(sheet))
    page.table(
        [text.bet_label(), text.minimum_label(), text.maximum_label()],
        [
            [
                text.limit_bets(group, sheet),
                cents_to_decimal(group.limits.minimum),
                cents_to_decimal(group.limits.maximum),
            ]
            for group in sheet.limit_groups
        ],
        formats=(None, formats["money"], formats["money"]),
    )
    page.paragraph(f"{text.below_minimum(sheet)} {text.above_maximum(sheet)}")
    for group in sheet.exclusive_groups:
        page.paragraph(text.exclusive_rule(group), font=styled_font(bold=True))

    page.heading(text.malfunctions_title())
    page.paragraph(text.malfunction_text())
    page.skip()
    page.paragraph(text.generated_by(sheet), font=styled_font(size=9, color="5A6273"))


def pay_sheet(workbook: Workbook, sheet: RuleSheet, text: PageText, formats: dict) -> None:
    page = SheetWriter(workbook, text._("Pay table"), (18, 56, 30, 12), text, formats)
    page.heading(text.bets_title())
    page.paragraph(text.payout_example(sheet.payout_example, sheet))
    headers = [text.bet_label(), text.wins_label(), text.pays_label(), text._("Odds")]
    page.heading(text.main_bets_title(), level=3)
    page.caption(text.main_bets_caption())
    _bet_table(page, headers, sheet.main_bets, sheet, text, formats)
    if sheet.side_bets or not sheet.bonus_bets:
        page.heading(text.side_bets_title(), level=3)
        if sheet.side_bets:
            page.paragraph(text.side_bets_text(sheet))
            page.caption(text.side_bets_caption())
            _bet_table(page, headers, sheet.side_bets, sheet, text, formats)
        else:
            page.paragraph(text.no_side_bets_text())
    for group in sheet.exclusive_groups:
        page.paragraph(text.exclusive_rule(group), font=styled_font(bold=True))
    if sheet.bonus_bets:
        page.heading(text.bonus_bets_title(), level=3)
        page.caption(text.bonus_bets_caption())
        _bet_table(page, headers, sheet.bonus_bets, sheet, text, formats)
    if sheet.bonus_table:
        page.paragraph(text.bonus_text())
        page.caption(text.bonus_table_caption())
        page.table(  # a result in words, across the bet's and its condition's columns
            [text.result_label(), None, text.pays_label(), text._("Odds")],
            [
                [text.bonus_result(row), None, text.row_pays(row), rounded_odds(row.odds)]
                for row in sheet.bonus_table
            ],
            formats=(None, None, None, formats["odds"]),
            joined=2,
        )
    page.heading(text.rounding_title(), level=3)
    rounding = text.rounding_text(sheet)
    if sheet.rounding_example:
        rounding += " " + text.rounding_example(sheet.rounding_example, sheet)
    page.paragraph(rounding)


def _bet_table(
    page: SheetWriter,
    headers: Sequence[str],
    bets: Sequence[OfferedBet],
    sheet: RuleSheet,
    text: PageText,
    formats: dict,
) -> None:
    rows: list[list[object]] = []
    spans: list[tuple[int, int]] = []  # a bet stated row by row: its name over its rows
    for offered in bets:
        if offered.form == PayForm.ROWS:
            # as the page: the bet and when it wins, then each of its rows with its pay
            spans.append((len(rows), len(rows) + len(offered.rows)))
            rows.append([text.bet_name(offered), text.bet_wins(offered), None, None])
            rows += [
                [None, text.words(row.says), text.row_pays(row), rounded_odds(row.odds)]
                for row in offered.rows
            ]
            continue
        rows.append(
            [
                text.bet_name(offered),
                text.bet_wins(offered),
                text.bet_pays(offered, sheet),
                # One figure cannot say "25 for one hand, 200 for both": the text does.
                None if offered.perfect_pair_variant == "B" else rounded_odds(offered.odds),
            ]
        )
    first = page.row + 1  # below the header row
    page.table(headers, rows, formats=(None, None, None, formats["odds"]))
    for top, bottom in spans:
        page.sheet.merge_cells(
            start_row=first + top, start_column=1, end_row=first + bottom, end_column=1
        )


def drawing_sheet(workbook: Workbook, sheet: RuleSheet, text: PageText, formats: dict) -> None:
    columns = len(sheet.banker_columns)
    page = SheetWriter(
        workbook, text._("Drawing rules"), (18, 14, *([8] * (columns - 1))), text, formats
    )
    page.heading(text.deal_title())
    page.paragraph(text.natural_text(sheet))
    page.heading(text.player_third_title(), level=3)
    page.caption(text.player_rule_caption())
    page.table(
        [text.player_total_label(), text.player_label()],
        [
            [text.range_text(row.first, row.last), text.player_action(row)]
            for row in sheet.player_rule
        ],
        fills=[[None, DRAW_FILL if row.draws else None] for row in sheet.player_rule],
    )
    page.heading(text.banker_third_title(), level=3)
    page.paragraph(text.banker_third_text())
    page.caption(text.banker_rule_caption())
    over_columns = page.put(3, text.player_third_points_label())
    over_columns.font = styled_font(bold=True)
    over_columns.alignment = CENTER
    over_columns.fill = HEAD_FILL
    page.sheet.merge_cells(
        start_row=page.row, start_column=3, end_row=page.row, end_column=columns + 1
    )
    page.skip()
    first = page.row + 1  # below the header row
    page.table(
        [
            text.banker_total_label(),
            text.player_stood_label(),
            *[str(column) for column in sheet.banker_columns if column is not None],
        ],
        [
            [row.total, text.natural_action(), *[None] * (columns - 1)]
            if row.natural
            else [row.total, *[text.draw_action(cell.draws) for cell in row.cells]]
            for row in sheet.banker_rows
        ],
        fills=[
            [None, *[DRAW_FILL if cell.draws else None for cell in row.cells]]
            for row in sheet.banker_rows
        ],
        formats=("0",),
        center=True,
    )
    # The natural totals: one cell across their rows says why no column applies, as the page.
    naturals = [index for index, row in enumerate(sheet.banker_rows) if row.natural]
    if naturals:
        page.sheet.merge_cells(
            start_row=first + naturals[0],
            start_column=2,
            end_row=first + naturals[-1],
            end_column=columns + 1,
        )


def scoreboard_sheet(workbook: Workbook, sheet: RuleSheet, text: PageText, formats: dict) -> None:
    """What the table's scoreboard shows, in the page's words, and the example's statistics."""
    board = sheet.scoreboard
    assert board is not None
    page = SheetWriter(workbook, text._("Scoreboard"), (30, 12, 18, 30), text, formats)
    page.heading(text.scoreboard_title())
    page.paragraph(
        f"{text.scoreboard_text()} {text.bet_shares_text(board)}"
        f" {text.scoreboard_example_text(board)}"
    )
    if "statistics" in board.parts:
        page.heading(text.statistics_title(), level=3)
        statistics = text.statistics_text()
        if board.statistics_reset:
            statistics += " " + text.shoe_count_text(board.statistics_reset)
        page.paragraph(statistics)
        page.caption(text.statistics_caption())
        page.table(
            [text.result_label(), text.hands_label(), text.share_label()],
            [
                [text.hands_dealt_label(), board.statistics.hands, None],
                *[
                    [text.bet_name(row.bet), row.count, excel_share(row.share * 100)]
                    for row in board.statistics_rows
                ],
            ],
            formats=(None, "0", formats["share"]),
        )
    if "bead_road" in board.parts:
        page.heading(text.bead_road_title(), level=3)
        page.paragraph(f"{text.bead_road_text(board)} {text.pair_dots_text()}")
    if "big_road" in board.parts:
        page.heading(text.big_road_title(), level=3)
        page.paragraph(f"{text.big_road_text()} {text.pair_dots_text()}")


#: A hand's cell on the Roads sheet: a light tint of its winner's colour, the text in the colour.
_TINTS = {Winner.BANKER: "FDE0E0", Winner.PLAYER: "DDE8F8", Winner.TIE: "DDF0DE"}
_INKS = {
    Winner.BANKER: BANKER_COLOUR[1:],
    Winner.PLAYER: PLAYER_COLOUR[1:],
    Winner.TIE: TIE_COLOUR[1:],
}
_ROAD_CELL = 4.5  # characters: a square-ish cell at the row height below
_ROAD_ROW_HEIGHT = 24  # points


def _road_text(
    bead: tuple[str, int] | None, ink: str | None, *, ties: int, pairs: tuple[bool, bool]
) -> CellRichText:
    """A road cell's text: the winner's letter and the score (Bead Road, ``bead``), a green
    ``/`` and the count of ties (Big Road), a red dot for a Banker pair and a blue one for a
    Player pair."""
    blocks: list[str | TextBlock] = []
    if bead is not None:
        letter, score = bead
        blocks.append(TextBlock(InlineFont(b=True, color=ink, rFont=FONT["name"]), letter))
        blocks.append(TextBlock(InlineFont(color=ink, rFont=FONT["name"]), str(score)))
    if ties:
        mark = "/" if ties == 1 else f"/{ties}"
        blocks.append(TextBlock(InlineFont(b=True, color=_INKS[Winner.TIE]), mark))
    banker_pair, player_pair = pairs
    if banker_pair:
        blocks.append(TextBlock(InlineFont(color=_INKS[Winner.BANKER]), "•"))
    if player_pair:
        blocks.append(TextBlock(InlineFont(color=_INKS[Winner.PLAYER]), "•"))
    return CellRichText(blocks)


def _road_grid(
    page: SheetWriter, grid: tuple[int, int], cells: Sequence[tuple[int, int, object]]
) -> None:
    """Cells ``(column, row, (winner, text))`` of a road drawn in a grid of ``grid``
    (columns, rows)."""
    top = page.row
    columns, rows = grid
    for row in range(rows):
        page.sheet.row_dimensions[top + row].height = _ROAD_ROW_HEIGHT
        for column in range(columns):
            page.sheet.cell(row=top + row, column=column + 1).border = BORDER
    for column, row, (winner, value) in cells:
        cell = page.sheet.cell(row=top + row, column=column + 1)
        cell.value = value
        cell.alignment = CENTER_MIDDLE
        if winner is not None:
            cell.fill = PatternFill("solid", fgColor=_TINTS[winner])
    page.skip(rows + 1)


def roads_sheet(workbook: Workbook, sheet: RuleSheet, text: PageText, formats: dict) -> None:
    """The example shoe's Bead Road and Big Road, a hand per cell, as the page draws them."""
    board: Scoreboard | None = sheet.scoreboard
    assert board is not None
    columns = max(board.big.columns, board.bead.columns, 12)
    page = SheetWriter(workbook, text._("Roads"), (_ROAD_CELL,) * columns, text, formats)
    page.paragraph(text.road_cells_text())
    if "bead_road" in board.parts:
        page.heading(text.bead_road_title(), level=3)
        page.caption(text.bead_road_caption(board))
        bead = [
            (
                cell.column,
                cell.row,
                (
                    cell.hand.winner,
                    _road_text(
                        (text.winner_letter(cell.hand.winner.value), cell.hand.score),
                        _INKS[cell.hand.winner],
                        ties=0,
                        pairs=(cell.hand.banker_pair, cell.hand.player_pair),
                    ),
                ),
            )
            for cell in board.bead.cells
        ]
        _road_grid(page, (board.bead.columns, board.bead.rows), bead)
    if "big_road" in board.parts:
        page.heading(text.big_road_title(), level=3)
        page.caption(text.big_road_caption(board))
        big = [
            (
                cell.column,
                cell.row,
                (
                    cell.winner,
                    _road_text(
                        None, None, ties=cell.ties, pairs=(cell.banker_pair, cell.player_pair)
                    ),
                ),
            )
            for cell in board.big.cells
        ]
        _road_grid(page, (columns, board.big.rows), big)


def rtp_sheet(workbook: Workbook, sheet: RuleSheet, text: PageText, formats: dict) -> None:
    page = SheetWriter(workbook, text._("RTP"), (30, 20, 40), text, formats)
    page.heading(text.rtp_title())
    page.paragraph(text.rtp_text())
    page.caption(text.rtp_caption())
    page.table(
        [text.bet_label(), text.rtp_label()],
        [[text.bet_name(o), excel_share(o.rtp_percent)] for o in sheet.bets],
        formats=(None, formats["percent"]),
    )
    page.paragraph(f"{text.best_rtp_text(sheet)} {text.strategy_text()}")


def _win_percentage(sheet: RuleSheet, text: PageText) -> object:
    """The previous month's win percentage of the ADM block: a figure published, as a number;
    on a draft, as the page says it, computed on its date and not yet published (as a bare
    number it read as published); none, as the page says why."""
    adm = sheet.adm
    assert adm is not None
    if adm.win_percentage is not None and not sheet.draft:
        return excel_share(adm.win_percentage)
    return text.win_percentage_value(adm, sheet.draft)


def disclosure_sheet(workbook: Workbook, sheet: RuleSheet, text: PageText, formats: dict) -> None:
    adm = sheet.adm
    assert adm is not None
    page = SheetWriter(workbook, text._("Disclosure"), (44, 60), text, formats)
    page.heading(text.adm_title())
    page.paragraph(text.adm_caption())
    rows: list[tuple[str, object, str | None]] = [
        (text.game_label(), adm.game_name, None),
        (
            text.adm_code_label(),
            adm.regulator_code or text.missing_value("regulator_code"),
            None,
        ),
        (
            text.declared_rtp_label(),
            text.bets_rtp(sheet)
            if adm.declared_rtp is None
            else text.declared_rtp(adm)
            if adm.declared_rtp_reference
            else excel_share(adm.declared_rtp),
            formats["percent"],
        ),
        (
            text.operator_share_label(),
            text.bets_operator_share(sheet)
            if adm.operator_share is None
            else excel_share(adm.operator_share),
            formats["percent"],
        ),
        (
            text.adm_minimum_label(),
            cents_to_decimal(adm.minimum_stake),
            formats["money"],
        ),
        (
            text.adm_maximum_label(),
            cents_to_decimal(adm.maximum_stake),
            formats["money"],
        ),
        (
            text.opening_hours_label(sheet),
            text.opening_hours(adm) if adm.opening_hours else text.missing_value("opening_hours"),
            None,
        ),
        (text.malfunctions_title(), text.malfunction_text(), None),
        (text.strategy_label(), text.strategy_text(), None),
        (text.win_percentage_label(adm), _win_percentage(sheet, text), formats["percent"]),
    ]
    if adm.win_percentage is not None and not sheet.draft:  # a draft's says it was computed
        rows.append((text._("Updated on"), adm.updated_on, formats["date"]))
    page._row([text._("Item"), text._("Value")], header=True)
    for label, value, number_format in rows:
        page._row([label, value], formats=(None, number_format))
    page.skip()
    page.paragraph(text.variation_text())
