"""Faults: one injector per finding kind and reject reason, all in one table.

:data:`INJECTORS` maps every kind of :data:`FAULT_KINDS` to its
:class:`~reporting.sample.faults.records.Injector`, the one place that knows how that fault
is made (its stages are in :mod:`.findings` and :mod:`.rejects`), at the stages it needs:

1. the deal (``into_deal``): cards changed before the round is settled;
2. the bets (``into_bets``): a stake or a placing time changed, a bet added;
3. the round as written (``into_round``, every kind): a field changed after settlement, and
   the description the manifest gives;
4. the encoded line (``into_json_line``, ``into_csv_rows``): what only a format can break.

Planning (:func:`plan_faults`) spreads N faults of each kind over the games that can carry
it, their tables and the month. Every random draw comes from the table's own source, in the
order of the stages above, so the same seed gives the same faults.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from reporting.errors import InputError
from reporting.records import FINDING_KINDS, REJECT_REASONS, FindingKind, RejectReason
from reporting.sample.calendar import DAY
from reporting.sample.exports import EXPORT_FORMATS
from reporting.sample.faults.findings import (
    add_an_unverified_bet,
    add_exclusive_breach,
    deals_from_a_shoe,
    describe_late_bet,
    has_exclusive_bets,
    keep_a_void_stake,
    log_a_card_once_too_often,
    misstate_payout,
    place_after_closing,
    plan_a_reused_bet_id,
    reverse_a_drawing_decision,
    settle_before_starting,
    stake_outside_limits,
    without_unverified_bets,
    write_a_reused_bet_id,
    write_an_unverified_bet,
)
from reporting.sample.faults.records import (
    AppliedFault,
    Injector,
    PlannedFault,
    noted_on_bet,
    noted_on_round,
)
from reporting.sample.faults.rejects import (
    cut_short,
    drop_settled_at,
    drop_the_offset,
    misspell_a_card,
    name_an_unconfigured_game,
    plan_a_conflicting_repeat,
    rename_the_bet_type,
    stake_as_number,
    write_an_impossible_value,
    write_an_unknown_card,
    write_an_unknown_table,
    write_cut_short,
    write_game_cut_short,
    write_repeat_with_another_payout,
    write_repeat_with_another_settled_at,
    write_stake_as_number,
    write_stake_too_precise,
    write_stake_with_a_comma,
)

if TYPE_CHECKING:
    from reporting.sample.exports import ExportWriter
    from reporting.sample.games import GameModel
    from reporting.sample.writers import LogWriter


FAULT_KINDS: tuple[str, ...] = FINDING_KINDS + REJECT_REASONS
#: Every format the generator writes: the spec's round log (JSON lines, a CSV pair), then the
#: providers' export shapes.
FORMATS: tuple[str, ...] = ("jsonl", "csv", *EXPORT_FORMATS)
_REPLAY = ("replay-api", "replay-api-jsonl")


_NO_JSON_IN_CSV = "a CSV file has no JSON to break"
_NO_JSON_IN_A_DOCUMENT = "a broken element would break the whole JSON document"
_LEFT_TO_THE_SPEC = "a shape's writer spells it from the round's facts: left to the spec formats"
_SHAPES_ONLY = "the spec's round log knows only the bet types the engine settles"


def _in_every_shape(reason: str) -> Mapping[str, str]:
    return MappingProxyType(dict.fromkeys(EXPORT_FORMATS, reason))


# Keys in the order of FAULT_KINDS; a test holds them equal.
INJECTORS: Mapping[str, Injector] = MappingProxyType(
    {
        FindingKind.PAYOUT_MISMATCH: Injector(category="finding", into_round=misstate_payout),
        FindingKind.VOID_NOT_REFUNDED: Injector(
            category="finding", into_round=keep_a_void_stake, voids_round=True
        ),
        FindingKind.STAKE_OUT_OF_LIMITS: Injector(
            category="finding", into_bets=stake_outside_limits, into_round=noted_on_bet
        ),
        FindingKind.LATE_BET: Injector(
            category="finding",
            into_bets=place_after_closing,
            into_round=describe_late_bet,
            not_in=MappingProxyType(dict.fromkeys(_REPLAY, "the shape has no bet placement time")),
        ),
        FindingKind.THIRD_CARD_RULE: Injector(
            category="finding", into_deal=reverse_a_drawing_decision, into_round=noted_on_round
        ),
        FindingKind.SHOE_CARD_COUNT: Injector(
            category="finding",
            into_deal=log_a_card_once_too_often,
            into_round=noted_on_round,
            last_hand_of_shoe=True,
            suits_game=deals_from_a_shoe,
            no_game="no game of the configuration deals from a shoe with a shoe id",
            not_in=MappingProxyType(dict.fromkeys(_REPLAY, "the shape has no shoe id")),
        ),
        FindingKind.EXCLUSIVE_SIDE_BETS: Injector(
            category="finding",
            into_bets=add_exclusive_breach,
            into_round=noted_on_round,
            suits_game=has_exclusive_bets,
            no_game="no game of the configuration has exclusive bets",
        ),
        FindingKind.TIME_ORDER: Injector(category="finding", into_round=settle_before_starting),
        FindingKind.DUPLICATE_BET_ID: Injector(
            category="finding",
            into_round=plan_a_reused_bet_id,
            into_json_line=write_a_reused_bet_id,  # type: ignore[arg-type]
            into_csv_rows=write_a_reused_bet_id,
            into_export=write_a_reused_bet_id,  # type: ignore[arg-type]
        ),
        FindingKind.UNVERIFIED_BET: Injector(
            category="finding",
            into_round=add_an_unverified_bet,
            into_export=write_an_unverified_bet,
            not_in=MappingProxyType(dict.fromkeys(("jsonl", "csv"), _SHAPES_ONLY)),
            uncarried=without_unverified_bets,
        ),
        RejectReason.BAD_JSON: Injector(
            category="reject",
            into_round=cut_short,
            into_json_line=write_cut_short,
            into_export=write_game_cut_short,  # type: ignore[arg-type]
            not_in=MappingProxyType(
                {
                    "csv": _NO_JSON_IN_CSV,
                    "replay-api": _NO_JSON_IN_A_DOCUMENT,
                    "numeric-feed": _NO_JSON_IN_A_DOCUMENT,
                    "flat-csv": _NO_JSON_IN_CSV,
                }
            ),  # fmt: skip
        ),
        RejectReason.MISSING_FIELD: Injector(category="reject", into_round=drop_settled_at),
        RejectReason.BAD_CARD: Injector(
            category="reject", into_round=misspell_a_card, into_export=write_an_unknown_card
        ),
        RejectReason.BAD_MONEY: Injector(
            category="reject",
            into_round=stake_as_number,
            into_json_line=write_stake_as_number,
            into_csv_rows=write_stake_with_a_comma,
            into_export=write_stake_too_precise,
        ),
        RejectReason.NAIVE_TIMESTAMP: Injector(
            category="reject",
            into_round=drop_the_offset,
            not_in=_in_every_shape("a shape's writer spells every time from an instant"),
        ),
        RejectReason.UNKNOWN_BET_TYPE: Injector(
            category="reject",
            into_round=rename_the_bet_type,
            not_in=_in_every_shape("a shape's bet types are its profile's map: left to the spec"),
        ),
        RejectReason.UNKNOWN_GAME: Injector(
            category="reject",
            into_round=name_an_unconfigured_game,
            into_export=write_an_unknown_table,
        ),
        RejectReason.CONFLICT: Injector(
            category="reject",
            into_round=plan_a_conflicting_repeat,
            into_json_line=write_repeat_with_another_payout,
            into_csv_rows=write_repeat_with_another_settled_at,
            first_copy_loads=True,
            not_in=_in_every_shape("a shape's writer writes each round once: the round loads"),
        ),
        RejectReason.BAD_VALUE: Injector(
            category="reject",
            into_round=write_an_impossible_value,
            not_in=_in_every_shape(_LEFT_TO_THE_SPEC),
        ),
    }
)


def every_kind_injected(
    kinds: tuple[str, ...], injectors: Mapping[str, Injector]
) -> tuple[Injector, ...]:
    """The injector of each kind, in order; a kind without one is named (a finding kind or a
    reject reason added to reporting/records.py and not here), never a bare KeyError."""
    if missing := [kind for kind in kinds if kind not in injectors]:
        raise LookupError(
            f"fault kind(s) with no injector: {', '.join(missing)}: add one each to INJECTORS"
            " (reporting/sample/faults/__init__.py)"
        )
    return tuple(injectors[kind] for kind in kinds)


#: The kinds a log of each format carries, in the order of FAULT_KINDS: a month generated with
#: ``faults=N`` holds N of each kind of its format that the configuration's games suit.
CARRIED_KINDS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        fmt: tuple(
            kind
            for kind, injector in zip(
                FAULT_KINDS, every_kind_injected(FAULT_KINDS, INJECTORS), strict=True
            )
            if injector.carried_by(fmt)
        )
        for fmt in FORMATS
    }
)


def injector_for(kind: str) -> Injector:
    """The injector of a fault kind; an unknown kind is an error, never a default."""
    try:
        return INJECTORS[kind]
    except KeyError:
        raise KeyError(
            f"fault kind {kind!r} has no injector: add one to INJECTORS (reporting/sample/faults/__init__.py)"
        ) from None


def write_round(
    writer: LogWriter | ExportWriter, data: dict[str, Any], fault: AppliedFault | None
) -> tuple[int, int | None, int] | None:
    """Write a round, its fault's injector changing the encoded line(s) where it must.

    Returns the position of the round (its last line when repeated; a JSON document's element
    index), in CSV the line of the bet the fault concerns, and the bets written; or None when
    the format leaves the round out (a replay-api game without bets, or a fault the format
    cannot carry on a round a reader would reject).
    """
    if fault is not None:
        injector = injector_for(fault.kind)
        if not injector.carried_by(writer.format):
            if not injector.round_loads:
                return None
            if injector.uncarried is not None:
                data = injector.uncarried(data)
            fault = None
    if fault is None:
        written = writer.write_round(data, None)
    else:
        stage: Any = {"jsonl": injector.into_json_line, "csv": injector.into_csv_rows}.get(
            writer.format, injector.into_export
        )
        if stage is None:
            written = writer.write_round(data, fault.bet_index)
        else:
            written = stage(writer, data, fault)
    if written is None:
        return None
    return written[0], written[1], len(data["bets"])


# --------------------------------------------------------------------------------------------
# Planning


def plan_faults(
    models: list[GameModel],
    spans: dict[str, tuple[int, int]],
    tables: int,
    count: int,
    rng: random.Random,
    kinds: tuple[str, ...] = FAULT_KINDS,
) -> tuple[list[PlannedFault], dict[str, str]]:
    """Which game and table carries each fault of ``kinds``, and from when; and the kinds that
    no game can carry. The plan does not depend on the format written (a format that cannot
    carry a kind says so as it writes): every format deals the same month."""
    skipped: dict[str, str] = {}
    planned: list[PlannedFault] = []
    if count <= 0:
        return planned, skipped
    for kind_index, kind in enumerate(FAULT_KINDS):
        if kind not in kinds:
            continue
        eligible, reason = _eligible_games(injector_for(kind), models)
        if reason is not None:
            skipped[kind] = reason
            continue
        for ordinal in range(count):
            spread = kind_index + ordinal
            game = eligible[spread % len(eligible)]
            table = (kind_index + ordinal // len(eligible)) % tables
            planned.append(PlannedFault(kind, game, table))
    _aim(planned, spans, rng)
    return planned, skipped


def _eligible_games(injector: Injector, models: list[GameModel]) -> tuple[list[str], str | None]:
    """The games that can carry a kind, or why none can."""
    suits = injector.suits_game
    games = [model.game.id for model in models if suits is None or suits(model)]
    if suits is not None and not games:
        return [], injector.no_game
    return games, None


def _aim(
    planned: list[PlannedFault], spans: dict[str, tuple[int, int]], rng: random.Random
) -> None:
    """Spread each table's faults over its month, in an order of the seed's choosing. A fault
    that waits for the last hand of a shoe is aimed at the first half of the month."""
    by_table: dict[tuple[str, int], list[PlannedFault]] = {}
    for fault in planned:
        by_table.setdefault((fault.game, fault.table), []).append(fault)
    for (game, _), faults in sorted(by_table.items()):
        start, end = spans[game]
        shoe_faults = [fault for fault in faults if injector_for(fault.kind).last_hand_of_shoe]
        other_faults = [fault for fault in faults if not injector_for(fault.kind).last_hand_of_shoe]
        rng.shuffle(other_faults)
        for group, reach in ((other_faults, 0.90), (shoe_faults, 0.50)):
            for position, fault in enumerate(group):
                share = 0.03 + (reach - 0.03) * (position + 0.5) / len(group)
                fault.target = start + int((end - start) * share)


#: Rounds a fault takes, at the least (its own, and those around it it needs).
ROUNDS_A_FAULT = 4
#: Rounds a table deals in a day open 24 hours (a round about every 45 s).
ROUNDS_A_FULL_DAY = DAY / 45_000


def most_faults(tables: int, games: int, rounds_per_day: int | None) -> int:
    """The most faults of one kind the rounds of a month could hold, at the very most (31
    days): a count above it is refused before anything is planned or held in memory."""
    per_day = rounds_per_day if rounds_per_day is not None else ROUNDS_A_FULL_DAY
    return int(31 * per_day * tables * games) // ROUNDS_A_FAULT


def check_room_for_faults(
    planned: list[PlannedFault], spans: dict[str, tuple[int, int]], rounds_per_day: int | None
) -> None:
    """Refuse, before writing, a fault count the month's rounds cannot hold."""
    per_table: dict[tuple[str, int], list[PlannedFault]] = {}
    for fault in planned:
        per_table.setdefault((fault.game, fault.table), []).append(fault)
    for (game, _), faults in per_table.items():
        start, end = spans[game]
        days = (end - start) / DAY
        rounds = days * (rounds_per_day if rounds_per_day is not None else ROUNDS_A_FULL_DAY)
        shoe_faults = sum(injector_for(fault.kind).last_hand_of_shoe for fault in faults)
        # A shoe fault goes on the last hand of a shoe (about 80 hands) after its aim in the
        # first half of the month: each needs a shoe of its own that ends in the month.
        if len(faults) * ROUNDS_A_FAULT > rounds or (
            shoe_faults and shoe_faults > rounds // 85 - 1
        ):
            raise InputError(
                f"{game}: about {int(rounds)} rounds a table cannot carry {len(faults)} faults "
                f"({shoe_faults} of them one per shoe): raise --rounds-per-day or --tables, or "
                "lower --faults"
            )
