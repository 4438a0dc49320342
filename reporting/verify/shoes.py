"""Per-shoe summaries, collected in verify's shoe pass: what the audit's shoe statistics and
its Bead Road and Big Road are drawn from, without a second scan of the rounds.

The shoe pass (:func:`reporting.store.reading.read_shoes`) already gives each shoe of the
period whole, in hand order, for the card counts; :func:`summarize_shoe` reads the same rounds
into one :class:`ShoeSummary` per game, table and shoe: its span, its rounds, void rounds and
cards, the counts of wins and pairs, and every settled hand packed in one byte
(:func:`encode_hand`, :func:`decode_hands`). The outcome of each hand is the engine's
(:func:`reporting.engine.rules.resolve_round` on the logged cards): the round pass has
resolved the rounds of the month already, so their hands are handed over by round id
(:func:`encode_outcome`) and only a shoe's rounds of another month are resolved here. The
findings that fall on each shoe are counted by the store afterwards, in one ``GROUP BY``
(:func:`shoe_findings`).

A shoe summary is of the shoe whole, as it was dealt: a shoe that spans the turn of a month
holds the hands of both months (its first and last settlement say so), so its roads are the
roads the table showed. Its findings are those of the month in scope only.

The layout of a hand's byte, most significant bit first::

    bit  7 6 | 5 4 3 2 | 1           | 0
         winner | score | player pair | banker pair

winner: 0 Banker, 1 Player, 2 Tie (3 is never written); score: the winning hand's value, on a
tie the tied value (0 to 9).

>>> hand = encode_hand(Winner.TIE, 7, player_pair=True)
>>> hand, bin(hand)
(158, '0b10011110')
>>> decode_hands(bytes([hand, encode_hand(Winner.BANKER, 9, banker_pair=True)]))
(ShoeHand(winner=<Winner.TIE: 'tie'>, score=7, player_pair=True, banker_pair=False), ShoeHand(winner=<Winner.BANKER: 'banker'>, score=9, player_pair=False, banker_pair=True))
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, NamedTuple

from reporting.engine.rules import Outcome, Winner
from reporting.verify.stored import stored_outcome

if TYPE_CHECKING:  # the roads import this module: a rule sheet loads no store, nor sqlite3
    import sqlite3

    from reporting.engine.games import GameSpec
    from reporting.records import Round
    from reporting.store.reading import SourceFiles

__all__ = [
    "MISSING_NAMED",
    "WINNER_CODES",
    "ShoeFindings",
    "ShoeHand",
    "ShoeSummary",
    "decode_hands",
    "encode_hand",
    "encode_outcome",
    "shoe_findings",
    "summarize_shoe",
    "with_findings",
]

#: The two bits of a hand's winner, by winner.
WINNER_CODES: Mapping[Winner, int] = {Winner.BANKER: 0, Winner.PLAYER: 1, Winner.TIE: 2}
_WINNERS_BY_CODE = {code: winner for winner, code in WINNER_CODES.items()}
_BANKER_CODE, _PLAYER_CODE, _TIE_CODE = (
    WINNER_CODES[w] for w in (Winner.BANKER, Winner.PLAYER, Winner.TIE)
)


class ShoeHand(NamedTuple):
    """One settled hand as its byte holds it."""

    winner: Winner
    score: int  # the winning hand's value; on a tie, the tied value
    player_pair: bool
    banker_pair: bool


def encode_hand(
    winner: Winner, score: int, *, player_pair: bool = False, banker_pair: bool = False
) -> int:
    """A hand in one byte (the layout is in the module's docstring).

    >>> encode_hand(Winner.PLAYER, 8), encode_hand(Winner.BANKER, 0, banker_pair=True)
    (96, 1)
    """
    if not 0 <= score <= 9:
        raise ValueError(f"a baccarat hand scores 0 to 9, not {score}")
    return WINNER_CODES[winner] << 6 | score << 2 | player_pair << 1 | banker_pair


def encode_outcome(outcome: Outcome) -> int:
    """The byte of a round the engine resolved."""
    winner = outcome.winner
    if winner is Winner.PLAYER:
        head = _PLAYER_CODE << 6 | outcome.player_value << 2
    else:  # a Banker win or a tie: the Banker's value is the winning (or tied) one
        head = (_TIE_CODE if winner is Winner.TIE else _BANKER_CODE) << 6
        head |= outcome.banker_value << 2
    return head | outcome.player_pair << 1 | outcome.banker_pair


def decode_hands(data: bytes) -> tuple[ShoeHand, ...]:
    """The hands of :attr:`ShoeSummary.hands`, in dealing order. A byte that no hand can give
    (winner code 3, a score above 9) is a ``ValueError``: the bytes are not a shoe's."""
    hands = []
    for position, byte in enumerate(data):
        winner, score = _WINNERS_BY_CODE.get(byte >> 6), byte >> 2 & 0b1111
        if winner is None or score > 9:
            raise ValueError(f"byte {position} ({byte:#04x}) is not a hand: see encode_hand")
        hands.append(ShoeHand(winner, score, bool(byte & 0b10), bool(byte & 0b1)))
    return tuple(hands)


@dataclass(frozen=True, slots=True)
class ShoeSummary:
    """One shoe of one table, whole: its statistics and every settled hand, in dealing order.

    Times are the store's UTC text; ``rounds`` counts the settled hands (``len(hands)``),
    ``void_rounds`` the rounds declared void, ``cards_dealt`` the cards of every round as
    logged (a void round's partial deal included). Banker, Player and tie wins sum to
    ``rounds``. ``hands_missing`` counts the hand numbers (void rounds' included) below the
    highest that no round holds. ``findings`` counts the findings of the month in scope on the
    shoe's rounds;
    ``finding_hands`` the hands holding them, numbered from 1 in dealing order as the roads
    number them (a finding on a void round has no hand: it is counted, not numbered).
    """

    game_id: str
    table_id: str
    shoe_id: str
    first_settled_at: str
    last_settled_at: str
    rounds: int
    void_rounds: int
    cards_dealt: int
    banker_wins: int
    player_wins: int
    ties: int
    banker_pairs: int
    player_pairs: int
    hands: bytes
    findings: int = 0
    finding_hands: tuple[int, ...] = ()
    #: Hand numbers below the shoe's highest that no round of the store holds (its rounds
    #: numbered 1, 2, 4: hand 3 was dealt, and is in no log read or its line was rejected),
    #: and the first :data:`MISSING_NAMED` of them; 0 where a round of the shoe has no hand
    #: number (``hands_judged`` False: which hands are missing cannot be told).
    hands_missing: int = 0
    first_missing: tuple[int, ...] = ()
    hands_judged: bool = True


class _Tally:
    """A shoe's summary while its rounds come."""

    __slots__ = ("cards", "first", "hands", "in_scope", "last", "numbers", "round", "voids")

    def __init__(self, round: Round):
        self.round = round  # the first: its game, table and shoe
        self.first = self.last = round.settled_at
        self.hands = bytearray()
        self.voids = self.cards = 0
        self.in_scope = False
        self.numbers: set[int] | None = set()  # the hand numbers; None: a round has none

    def summary(self) -> ShoeSummary:
        hands = bytes(self.hands)
        wins, pairs = [0, 0, 0], [0, 0, 0, 0]  # by winner code; by pair bits
        for byte, count in Counter(hands).items():
            wins[byte >> 6] += count
            pairs[byte & 0b11] += count
        return ShoeSummary(
            game_id=self.round.game_id,
            table_id=self.round.table_id,
            shoe_id=self.round.shoe_id or "",
            first_settled_at=self.first,
            last_settled_at=self.last,
            rounds=len(hands),
            void_rounds=self.voids,
            cards_dealt=self.cards,
            banker_wins=wins[_BANKER_CODE],
            player_wins=wins[_PLAYER_CODE],
            ties=wins[_TIE_CODE],
            banker_pairs=pairs[0b01] + pairs[0b11],
            player_pairs=pairs[0b10] + pairs[0b11],
            hands=hands,
            **_missing(self.numbers),
        )


#: The missing hand numbers a shoe's summary names (the rest are counted).
MISSING_NAMED = 10


def _missing(numbers: set[int] | None) -> dict[str, object]:
    """The hand numbers below the highest of ``numbers`` that it lacks: how many, and the
    first :data:`MISSING_NAMED` (from the gaps between the numbers held, never a range of
    every number: a hostile hand number of a million costs no more than a real one)."""
    if numbers is None:  # a round of the shoe has no hand number
        return {"hands_judged": False}
    if not numbers:
        return {}
    held = sorted(numbers)
    count = held[-1] - len(held)
    first: list[int] = []
    below = 0
    for number in held:
        first.extend(range(below + 1, min(number, below + 1 + MISSING_NAMED - len(first))))
        if len(first) >= MISSING_NAMED:
            break
        below = number
    return {"hands_missing": count, "first_missing": tuple(first)}


def summarize_shoe(
    shoe: Iterable[tuple[Round, SourceFiles]],
    games: Mapping[str, GameSpec],
    month: str | None,
    known: dict[str, int] | None = None,
) -> list[ShoeSummary]:
    """The summaries of one shoe of :func:`~reporting.store.reading.read_shoes` (its rounds in
    hand order): one per game and table that dealt from it (one, unless two tables logged the
    same shoe id) and holds a round of ``month`` (or ``month`` is None). Rounds of a game not
    in ``games`` are passed over, as the card counts pass over them.

    ``known`` maps round ids to their hand's byte (:func:`encode_outcome`) where the round
    pass resolved them already; each one used is taken out. A settled round not in it is
    resolved here by the engine.
    """
    known = {} if known is None else known
    tallies: dict[tuple[str, str], _Tally] = {}
    for round, _files in shoe:
        if round.game_id not in games:
            continue
        tally = tallies.get((round.game_id, round.table_id))
        if tally is None:
            tally = tallies[(round.game_id, round.table_id)] = _Tally(round)
        settled_at = round.settled_at
        if settled_at < tally.first:
            tally.first = settled_at
        elif settled_at > tally.last:
            tally.last = settled_at
        if month is None or round.report_month == month:
            tally.in_scope = True
        if tally.numbers is not None:
            if round.hand_no is None:
                tally.numbers = None  # which hands are missing cannot be told
            else:
                tally.numbers.add(round.hand_no)
        player, banker = round.player_cards, round.banker_cards
        tally.cards += len(player.split()) + len(banker.split())
        if round.status == "void":
            tally.voids += 1
            continue
        hand = known.pop(round.round_id, None)
        if hand is None:
            hand = encode_outcome(stored_outcome(round.round_id, player, banker))
        tally.hands.append(hand)
    return [tally.summary() for tally in tallies.values() if tally.in_scope]


class ShoeFindings(NamedTuple):
    """The findings of the month on one shoe: how many, and the hands they fall on."""

    count: int
    hands: tuple[int, ...]


#: Per game, table and shoe: the findings in scope on its rounds, and the number of each
#: settled hand holding one, counted as :func:`summarize_shoe` orders the hands (hand number,
#: settlement time, round id; void rounds are not hands). Only the shoes holding a finding
#: are numbered.
_SHOE_FINDINGS = """
WITH hit AS MATERIALIZED (
    SELECT r.game_id, r.table_id, r.shoe_id, r.round_id, count(*) AS findings
    FROM findings AS f JOIN rounds AS r ON r.round_id = f.round_id
    WHERE r.shoe_id IS NOT NULL AND {where} AND f.game_id IN (SELECT value FROM json_each(?))
    GROUP BY r.round_id
), numbered AS (
    SELECT r.round_id, row_number() OVER (
        PARTITION BY r.game_id, r.table_id, r.shoe_id
        ORDER BY r.hand_no, r.settled_at, r.round_id
    ) AS hand
    FROM rounds AS r
    WHERE r.status = 'settled'
        AND r.shoe_id IN (SELECT shoe_id FROM hit)
)
SELECT hit.game_id, hit.table_id, hit.shoe_id, hit.findings, numbered.hand
FROM hit LEFT JOIN numbered ON numbered.round_id = hit.round_id
ORDER BY hit.game_id, hit.table_id, hit.shoe_id, numbered.hand
"""


def shoe_findings(
    connection: sqlite3.Connection, games: Mapping[str, GameSpec], month: str | None
) -> dict[tuple[str, str, str], ShoeFindings]:
    """The stored findings of ``month`` (or of every month) and of ``games`` that fall on a
    round of a shoe, by game, table and shoe id."""
    where, params = ("1", ()) if month is None else ("f.report_month = ?", (month,))
    found: dict[tuple[str, str, str], tuple[int, list[int]]] = {}
    rows = connection.execute(
        _SHOE_FINDINGS.format(where=where), (*params, json.dumps(sorted(games)))
    )
    for game_id, table_id, shoe_id, findings, hand in rows:
        count, hands = found.get((game_id, table_id, shoe_id), (0, []))
        if hand is not None:
            hands.append(hand)
        found[(game_id, table_id, shoe_id)] = (count + findings, hands)
    return {key: ShoeFindings(count, tuple(hands)) for key, (count, hands) in found.items()}


def with_findings(
    summaries: Iterable[ShoeSummary], findings: Mapping[tuple[str, str, str], ShoeFindings]
) -> list[ShoeSummary]:
    """The summaries with their findings, ordered by game, table and first settlement."""
    shoes = []
    for summary in summaries:
        found = findings.get((summary.game_id, summary.table_id, summary.shoe_id))
        if found is not None:
            summary = replace(summary, findings=found.count, finding_hands=found.hands)
        shoes.append(summary)
    shoes.sort(key=lambda s: (s.game_id, s.table_id, s.first_settled_at, s.shoe_id))
    return shoes
