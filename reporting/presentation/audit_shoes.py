"""The shoes of the audit report: each shoe with findings as verify summarised it, ready to
draw (its hands decoded, its disputed hands marked), and drawn: statistics and both roads."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from markupsafe import Markup

from reporting.presentation import roads
from reporting.verify.shoes import ShoeSummary

__all__ = ["ShoePanel", "ShoeView", "shoe_panel", "shoe_panels", "shoe_views", "svg_markup"]


def svg_markup(text: str) -> Markup:
    """A drawing of this package (its words escaped by it) as page markup."""
    return Markup(text)


@dataclass(frozen=True, slots=True)
class ShoeView:
    """A shoe to draw in the report, as verify's shoe summaries give it: its hands in
    dealing order, the hand numbers of its findings' rounds, how many findings it holds."""

    game_id: str
    table_id: str
    shoe_id: str
    first_settled_at: str  # UTC, the store's text
    last_settled_at: str
    hands: tuple[roads.Hand, ...]
    marked: frozenset[int]
    findings: int


def shoe_views(summaries: Iterable[ShoeSummary]) -> tuple[ShoeView, ...]:
    """The shoes verify summarised that hold findings, ready to draw: their hands decoded,
    the hands of their findings marked."""
    return tuple(
        ShoeView(
            game_id=summary.game_id,
            table_id=summary.table_id,
            shoe_id=summary.shoe_id,
            first_settled_at=summary.first_settled_at,
            last_settled_at=summary.last_settled_at,
            hands=roads.hands_from_summary(summary),
            marked=frozenset(summary.finding_hands),
            findings=summary.findings,
        )
        for summary in summaries
        if summary.findings
    )


@dataclass(frozen=True, slots=True)
class ShoePanel:
    """A shoe as the report shows it: its statistics and both roads, disputed hands marked."""

    shoe: ShoeView
    statistics: roads.ShoeStatistics
    marked: tuple[int, ...]  # sorted
    bead_road: Markup
    big_road: Markup


def shoe_panel(shoe: ShoeView) -> ShoePanel:
    """A shoe drawn: its statistics, its Bead Road and Big Road, its disputed hands outlined."""
    statistics = roads.shoe_statistics(shoe.hands)
    where = f"shoe {shoe.shoe_id} at {shoe.table_id}"
    marked = tuple(sorted(shoe.marked))
    disputed = ", ".join(map(str, marked)) or "none"
    bead = roads.bead_road_svg(
        roads.bead_road(shoe.hands, window=max(len(shoe.hands), 1)),
        roads.RoadLabels(
            f"Bead Road, {where}",
            f"Bead Road of {where}: {statistics.hands} hands, {statistics.banker_wins} Banker,"
            f" {statistics.player_wins} Player, {statistics.ties} ties; disputed hands:"
            f" {disputed}.",
        ),
        marked=shoe.marked,
    )
    big = roads.big_road_svg(
        roads.big_road(shoe.hands),
        roads.RoadLabels(
            f"Big Road, {where}",
            f"Big Road of {where}; disputed hands outlined: {disputed}.",
        ),
        marked=shoe.marked,
    )
    return ShoePanel(shoe, statistics, marked, svg_markup(bead), svg_markup(big))


def shoe_panels(shoes: Sequence[ShoeView], most: int) -> tuple[tuple[ShoePanel, ...], int, int]:
    """The shoes holding findings, the most first, at most ``most``, drawn in table and time
    order; with the count of those not drawn and of all with findings."""
    holding = [shoe for shoe in shoes if shoe.findings > 0]
    chosen = sorted(holding, key=lambda s: (-s.findings, s.first_settled_at, s.game_id, s.shoe_id))[
        :most
    ]
    chosen.sort(key=lambda s: (s.game_id, s.table_id, s.first_settled_at, s.shoe_id))
    return tuple(map(shoe_panel, chosen)), len(holding) - len(chosen), len(holding)
