"""Every key a log profile may hold: one table per section, read by the loader (each value
checked by its kind, as the operator configuration's are) and by :func:`json_schema` (the
editors' schema, ``data/profile.schema.json``, held equal by a test)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reporting.config.bets import catalogue_bets
from reporting.config.values import (
    Choice,
    Integer,
    Key,
    Problems,
    Table,
    Text,
    TextList,
)
from reporting.ingest.profiles.cards import DIALECTS
from reporting.ingest.profiles.model import LAYOUT_SUFFIXES
from reporting.ingest.profiles.numbers import DECIMAL_MARKS, GROUPINGS

__all__ = [
    "BET_KEYS",
    "LAYOUTS",
    "PROFILE_SECTIONS",
    "ROUND_KEYS",
    "SCHEMA_PATH",
    "Columns",
    "json_schema",
]

SCHEMA_PATH = Path(__file__).resolve().parent / "data" / "profile.schema.json"
#: How the records of a file are laid out, and the file names each layout reads
#: (:data:`~reporting.ingest.profiles.model.LAYOUT_SUFFIXES`).
LAYOUTS = tuple(LAYOUT_SUFFIXES)
_LAYOUT_MEANINGS = {
    "json": "a document holding an array of rounds",
    "jsonl": "a round a line",
    "csv": "a row a bet",
}
_LAYOUTS_SAID = ", ".join(
    f"{layout} ({_LAYOUT_MEANINGS[layout]}: {', '.join(LAYOUT_SUFFIXES[layout])})"
    for layout in LAYOUTS
)

_PATH = Text('gameplay.".BaccaratGameplay".betEndDate', 300)


class Columns(Text):
    """One field path (or CSV column), or a list of them (a hand's cards in several
    columns or fields)."""

    def check(self, value: Any, path: tuple[str, ...], problems: Problems) -> Any:
        if isinstance(value, list):
            return TextList(Text(self.example, self.max_length), min_items=1, max_items=6).check(
                value, path, problems
            )
        return super().check(value, path, problems)

    def schema(self) -> dict[str, Any]:
        one = super().schema()
        return {"anyOf": [one, {"type": "array", "items": one, "minItems": 1, "maxItems": 6}]}


_CARDS = Columns("playerHand.cards", 300)

#: ``[profile]``.
PROFILE_KEYS: dict[str, Key] = {
    "name": Key(Text("replay-api", 64, r"[a-z0-9]+(?:-[a-z0-9]+)*", "a profile name"), "its name"),
    "description": Key(Text("A provider's replay export", 500), "what export it reads"),
    "layouts": Key(
        TextList(
            Text("json", 8, "|".join(LAYOUTS), f"{', '.join(LAYOUTS[:-1])} or {LAYOUTS[-1]}"),
            min_items=1,
        ),
        f"how its files are laid out: {_LAYOUTS_SAID}",
    ),
    "rounds": Key(
        Text("data", 300),
        "json: the path of the array of rounds in the document (leave it out when the"
        " document is the array)",
    ),
}
#: ``[round]``: where each field of a round is (a JSON path, or a CSV column).
ROUND_KEYS: dict[str, Key] = {
    "round_id": Key(_PATH, "the round's id (required)"),
    "table_id": Key(_PATH, "the table's id (required)"),
    "game": Key(_PATH, "the game's id; without it, the game is found by the table"),
    "shoe_id": Key(_PATH, "the shoe's id"),
    "hand_no": Key(_PATH, "the hand's number in its shoe"),
    "started_at": Key(_PATH, "when the round started"),
    "betting_closed_at": Key(_PATH, "when betting closed"),
    "settled_at": Key(_PATH, "when the round was settled (required)"),
    "status": Key(_PATH, "the round's status or result; without it every round is settled"),
    "void_reason": Key(_PATH, "why a void round was voided; without it, its status value"),
    "player_cards": Key(_CARDS, "the player's cards (required): a path, or a list of them"),
    "banker_cards": Key(_CARDS, "the banker's cards (required): a path, or a list of them"),
}
#: ``[bet]``.
BET_KEYS: dict[str, Key] = {
    "each": Key(
        Text("playersBets[].bets[]", 300),
        "json, jsonl: the path of each bet in the round (csv: one bet a row)",
    ),
    "bet_id": Key(_PATH, "the bet's id (required)"),
    "account": Key(_PATH, "the player's account (required)"),
    "type": Key(_PATH, "the bet type as the provider names it (required)"),
    "stake": Key(_PATH, "the stake (required)"),
    "payout": Key(_PATH, "the payout (required; gross or net: [money] payout)"),
    "currency": Key(_PATH, "the currency; without it, the game's"),
    "placed_at": Key(_PATH, "when the bet was placed"),
}
_STATUS_KEYS: dict[str, Key] = {
    "void": Key(
        TextList(Text("CANCELLED", 100), min_items=1), "status values that mean a void round"
    ),
    "settled": Key(
        TextList(Text("COMPLETED", 100), min_items=1),
        "status values that mean a settled round; without it, every value not void",
    ),
}
_CARD_KEYS: dict[str, Key] = {
    "dialect": Key(
        Choice(DIALECTS),
        "rank_suit (QS, 10H: the round log's), suit_rank (S_K, H11, SPADE_A) or index (numbers)",
    ),
    "separator": Key(Text("_", 3, r"[^A-Za-z0-9\s]{1,3}", "a separator"), "between suit and rank"),
    "ranks": Key(Choice(("letters", "numbers")), "letters (A 2-10 J Q K) or numbers (1-13)"),
    "order": Key(
        Text("SHDC", 4, "(?!.*(.).*\\1)[SHDC]{4}", "the four suits in order"),
        "index: the suits in counting order, each from ace to king",
    ),
    "base": Key(Integer(0, 1), "index: the number of the first card"),
    "radix": Key(Integer(2, 36), "index: the base numbers written as text are in (16: hex)"),
    "rank_key": Key(
        Text("rank", 100),
        'a card written as an object ({"rank": "Q", "suit": "hearts"}): the key of its rank',
    ),
    "suit_key": Key(Text("suit", 100), "a card written as an object: the key of its suit"),
}
_TIME_KEYS: dict[str, Key] = {
    "unit": Key(
        Choice(("iso", "epoch_ms", "epoch_s")),
        "iso (ISO 8601 text with its UTC offset), epoch_ms or epoch_s (numbers)",
    ),
    "zone": Key(
        Text("Europe/Rome", 64, r"[A-Za-z0-9_+-]+(?:/[A-Za-z0-9_+-]+)*", "an IANA time zone"),
        "with unit iso: the IANA time zone whose clock times the export writes without their"
        " UTC offset (2026-10-03 18:40:41 in Rome); each is read with the offset it had"
        " there, and one the clocks showed twice or skipped is rejected",
    ),
}
_MONEY_KEYS: dict[str, Key] = {
    "unit": Key(Choice(("major", "minor")), "major (5 = 5.00 EUR) or minor (500 = 5.00 EUR) units"),
    "payout": Key(
        Choice(("gross", "net")),
        "gross (what was paid back, stake included: 0 when lost) or net (payout minus stake)",
    ),
    "decimal": Key(
        Choice(DECIMAL_MARKS),
        'the decimal mark of an amount written as text ("12,50"): a point (the default) or a'
        " comma; a JSON number is read as JSON writes it",
    ),
    "grouping": Key(
        Choice(GROUPINGS),
        'what an amount written as text puts between its thousands ("1.234,50"): a point, a'
        " comma, an apostrophe, a space, a no-break space or a narrow one (U+202F, as French writes"
        " them); without it, nothing",
    ),
}
_BET_TYPE_KEYS = Table(
    each=Choice(lambda: tuple(catalogue_bets()), "bet type of this tool"),
    description="the provider's bet types and the bet type of this tool each is; a bet of a"
    " type not listed is kept as given, and verify reports it as unverified_bet",
)
_GAME_MAP = Table(
    each=Text("live-baccarat-it", 64),
    description="the export's game ids and the configured game each is; without it, a game"
    " id is the configured one",
)


@dataclass(frozen=True)
class Delimiter(Text):
    """The character between a CSV file's cells: one of its pattern, a tab among them (which
    a :class:`Text` refuses as blank)."""

    def check(self, value: Any, path: tuple[str, ...], problems: Problems) -> Any:
        if value == "\t":
            return value
        return super().check(value, path, problems)


_CSV_KEYS: dict[str, Key] = {
    "delimiter": Key(Delimiter(",", 1, "[,;\t|]", "one of , ; | or a tab"), "the column delimiter"),
}
#: The sections of a profile and their tables.
PROFILE_SECTIONS: dict[str, Table] = {
    "profile": Table(PROFILE_KEYS),
    "round": Table(ROUND_KEYS),
    "bet": Table(BET_KEYS),
    "status": Table(_STATUS_KEYS),
    "cards": Table(_CARD_KEYS),
    "times": Table(_TIME_KEYS),
    "money": Table(_MONEY_KEYS),
    "bet_types": _BET_TYPE_KEYS,
    "games": _GAME_MAP,
    "csv": Table(_CSV_KEYS),
}
_SECTION_HELP = {
    "profile": "what the profile reads",
    "round": "where each field of a round is: a JSON path (keys separated by dots, [] for"
    ' each element of an array, "quoted" keys) or, for csv, a column',
    "bet": "where each field of a bet is, written from the round through the [] steps of each",
    "status": "what the status values mean",
    "cards": "how a card is written",
    "times": "how a time is written",
    "money": "how an amount is written",
    "bet_types": "the provider's bet types",
    "games": "the export's game ids",
    "csv": "csv files only",
}


def json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a log profile, from the tables above."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://baccarat-report.invalid/profile.schema.json",
        "title": "baccarat-report log profile",
        "description": "How a game provider's export maps onto the round log's records."
        " Check a file with: baccarat-report check --profile FILE",
        "type": "object",
        "properties": {
            name: table.schema() | {"description": _SECTION_HELP[name]}
            for name, table in PROFILE_SECTIONS.items()
        },
        "required": ["profile", "round", "bet"],
        "additionalProperties": False,
    }
