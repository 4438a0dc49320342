"""The records of a fault on its way, and the :class:`Injector` of a kind: its stages
and which rounds and formats can carry it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

from reporting.engine.cards import Card
from reporting.sample.bets import PlacedBet
from reporting.sample.shoes import Shoe

if TYPE_CHECKING:
    from reporting.sample.exports import ExportWriter
    from reporting.sample.games import GameModel
    from reporting.sample.table import Table
    from reporting.sample.writers import CsvWriter, JsonLinesWriter

_NOWHERE: Mapping[str, str] = MappingProxyType({})


# --------------------------------------------------------------------------------------------
# Records of a fault on its way


@dataclass(slots=True)
class PlannedFault:
    """A fault to inject: its kind, the table that carries it, and from when."""

    kind: str
    game: str
    table: int  # table number within the game, from 0
    target: int = 0  # epoch ms: the fault goes on the first suitable round from here on


@dataclass(slots=True)
class AppliedFault:
    """A fault as written into a round, with what the manifest says of it."""

    kind: str
    category: str
    bet_index: int | None
    detail: str
    # Instructions the writer carries out, because they depend on the encoding.
    truncate_fraction: float = 0.0  # bad_json
    conflict_payout: str | None = None  # conflict (JSON lines): another payout for bet_index
    conflict_settled_at: str | None = None  # conflict (CSV): another settled_at
    reused_round: dict[str, Any] | None = None  # duplicate_bet_id: the round whose bet id
    misspelled: tuple[str, int, str] | None = None  # bad_card: hand, index, the card dealt
    unknown_table: str | None = None  # unknown_game: a table for shapes that name no game
    extra: dict[str, Any] = field(default_factory=dict)  # more manifest keys


@dataclass(frozen=True, slots=True)
class Note:
    """What an early stage knows for the description: its text and more manifest keys."""

    detail: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)


NO_NOTE = Note()


@dataclass(frozen=True, slots=True)
class DealChange:
    """The cards a fault deals instead, and what to say of them."""

    player: tuple[Card, ...]
    banker: tuple[Card, ...]
    note: Note


@dataclass(frozen=True, slots=True)
class RoundFault:
    """A fault due on a round, at the stage where it is written into the round's data."""

    kind: str
    category: str
    table: Table
    data: dict[str, Any]  # the round as the log writes it
    bet_index: int  # the bet concerned: an earlier stage's, else one drawn at random
    settled: int  # epoch ms
    note: Note  # from the deal or bets stage
    ordinal: int  # 1 for the table's first fault of this kind, 2 for its second, ...

    @property
    def bet(self) -> dict[str, Any]:
        """The bet concerned, as written."""
        return self.data["bets"][self.bet_index]

    def applied(
        self, bet_index: int | None, detail: str, extra: Mapping[str, Any] | None = None, **writer
    ) -> AppliedFault:
        """The fault as written, with the manifest's description and the writer's
        instructions (``truncate_fraction``, ``conflict_payout``, ``conflict_settled_at``,
        ``reused_round``)."""
        extra = dict(extra or {})
        return AppliedFault(self.kind, self.category, bet_index, detail, extra=extra, **writer)


# --------------------------------------------------------------------------------------------
# The injector of a kind

DealStage = Callable[["Table", tuple[Card, ...], tuple[Card, ...], Shoe], DealChange | None]
BetStage = Callable[["Table", list[PlacedBet], int, int], tuple[PlacedBet, Note]]
RoundStage = Callable[[RoundFault], AppliedFault]
JsonLineStage = Callable[["JsonLinesWriter", dict[str, Any], AppliedFault], tuple[int, None]]
CsvStage = Callable[["CsvWriter", dict[str, Any], AppliedFault], tuple[int, int | None]]
ExportStage = Callable[["ExportWriter", dict[str, Any], AppliedFault], tuple[int, int | None]]


@dataclass(frozen=True, slots=True, kw_only=True)
class Injector:
    """How one fault kind is injected, stage by stage, and which rounds can carry it."""

    category: Literal["finding", "reject"]
    # The stages, in the order a round meets them (see :mod:`reporting.sample.faults`). A deal stage
    # of a last-hand fault returns None when this hand cannot carry it: the fault waits.
    into_deal: DealStage | None = None
    into_bets: BetStage | None = None
    into_round: RoundStage
    into_json_line: JsonLineStage | None = None  # else the round is encoded as it is
    into_csv_rows: CsvStage | None = None
    into_export: ExportStage | None = None  # the export shapes' element (exports.py)
    suits_game: Callable[[GameModel], bool] | None = None  # None: every game
    no_game: str = ""  # why the kind is skipped when no game of the configuration suits it
    # Formats that cannot carry the kind, and why. The fault is made all the same (the month's
    # draws do not depend on the format): such a format writes the round as the fault left it
    # when a reader would load it (``uncarried`` taking out what the format cannot hold), and
    # leaves it out when a reader would reject it, so that every format loads the same rounds.
    not_in: Mapping[str, str] = field(default_factory=lambda: _NOWHERE)
    uncarried: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    last_hand_of_shoe: bool = False  # waits for the last hand of a shoe
    voids_round: bool = False
    first_copy_loads: bool = False  # a repeat is rejected, the round itself loads

    @property
    def round_loads(self) -> bool:
        """Whether a reader loads the round that carries this fault."""
        return self.category == "finding" or self.first_copy_loads

    def carried_by(self, fmt: str) -> bool:
        """Whether a log of format ``fmt`` carries this kind."""
        return fmt not in self.not_in


def noted_on_round(fault: RoundFault) -> AppliedFault:
    """A fault of the round as a whole, described by an earlier stage."""
    return fault.applied(None, fault.note.detail, fault.note.extra)


def noted_on_bet(fault: RoundFault) -> AppliedFault:
    """A fault of one bet, described by an earlier stage."""
    return fault.applied(fault.bet_index, fault.note.detail, fault.note.extra)
