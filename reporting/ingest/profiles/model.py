"""A log profile as the readers use it: every value checked, every path parsed.

A :class:`Profile` is plain data (it crosses the pipe to the reading process as a pickle);
the readers compile its paths into functions where they read (:mod:`.mapping`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from reporting.ingest.profiles.cards import CardDialect
from reporting.ingest.profiles.paths import FieldPath

__all__ = ["LAYOUT_SUFFIXES", "Profile", "layout_of_name"]

#: The file names each layout reads, by their ending (lower case): each plain, or gzipped.
LAYOUT_SUFFIXES: dict[str, tuple[str, ...]] = {
    "json": (".json", ".json.gz"),
    "jsonl": (".jsonl", ".jsonl.gz"),
    "csv": (".csv", ".csv.gz"),
}


def layout_of_name(name: str, layouts: tuple[str, ...]) -> str | None:
    """The layout of ``layouts`` a file of this name is read as (by its ending), or None."""
    lowered = name.lower()
    for layout in layouts:
        if lowered.endswith(LAYOUT_SUFFIXES[layout]):
            return layout
    return None


@dataclass(frozen=True, eq=False)
class Profile:
    """How one provider's export maps onto the round log's records (see the README's
    "Reading your provider's export")."""

    name: str
    description: str
    origin: str  # "built-in", or the profile file as given
    sha256: str  # of the profile file's bytes
    layouts: tuple[str, ...]
    rounds: FieldPath | None  # json: the array of rounds in the document; None: the document
    #: Round fields: a path, or for cards several (each a card); csv: columns as one-step paths.
    round_fields: dict[str, FieldPath | tuple[FieldPath, ...]]
    bet_each: FieldPath | None  # json/jsonl: each bet of a round; csv: one bet a row
    bet_fields: dict[str, FieldPath]
    void_statuses: frozenset[str]
    settled_statuses: frozenset[str] | None  # None: every status not void is settled
    cards: CardDialect
    times: str  # "iso", "epoch_ms" or "epoch_s"
    money_major: bool  # amounts in major units (5 = 5.00) rather than minor (500)
    payout_net: bool  # the payout is net of the stake (a lost bet: minus the stake)
    bet_types: dict[str, str]  # the provider's type -> the id of one of the catalogue's bets
    games: dict[str, str] | None  # the export's game id -> configured game id
    delimiter: str = ","
    lacks: tuple[str, ...] = field(default=())  # optional fields the export does not hold
    #: The IANA time zone of iso times written without their UTC offset (None: such a time
    #: is a naive_timestamp reject, as in the round log).
    zone: str | None = None
    #: How an amount written as text marks its decimals, and what (if anything) it puts
    #: between its thousands (``"1.234,50"``: ``","`` and ``"."``).
    decimal: str = "."
    grouping: str | None = None

    def reads(self, name: str) -> str | None:
        """The layout a file of this name is read as, or None if the profile reads no such file."""
        return layout_of_name(name, self.layouts)

    @property
    def label(self) -> str:
        """How messages and the store name it: the name, and the file for one not built in."""
        return self.name if self.origin == "built-in" else f"{self.name} ({self.origin})"
