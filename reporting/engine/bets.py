"""Bets as data: a bet is a declaration on the facts of a round, settled by one function.

A :class:`BetRule` is a list of :class:`PayRow` s tried in order; the first row whose
conditions all hold on a round's :class:`~reporting.engine.facts.RoundFacts` decides the bet:
a win at the row's odds, or a push. No row: the bet loses. A row that names a pay ``key`` takes
its odds from the game's :class:`PayTable`, so that ``pay = { KEY = "ODDS" }`` of a game may
change it; the table holds every key of the game's bets, each at its declared default unless
the game says otherwise.

The built-in bets are declared in ``reporting/data/bets.toml``; an operator declares its own
in its configuration with the same vocabulary (:data:`~reporting.engine.facts.FACTS`). Nothing
here reads a file: :mod:`reporting.config` loads the declarations and builds these records.

A bet's payout is the stake plus the exactly computed win, rounded to the cent by the game's
:class:`~reporting.engine.money.RoundingPolicy`. Pushes and void rounds return the stake.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from operator import attrgetter

from reporting.engine.facts import FACTS, FactGroup, RoundFacts
from reporting.engine.money import RoundingPolicy, round_cents

__all__ = [
    "BetGroup",
    "BetResult",
    "BetRule",
    "PayRow",
    "PayTable",
    "RESULT_FACTS",
    "Resolution",
    "Settlement",
    "Wording",
    "facts_read",
    "refund",
    "resolve_bet",
    "settle",
]


class BetResult(enum.StrEnum):
    """How a bet ended."""

    WIN = "win"
    PUSH = "push"
    LOSE = "lose"


class BetGroup(enum.StrEnum):
    """How the pages group a bet."""

    MAIN = "main"  # Player, Banker, Tie and their variants
    SIDE = "side"  # settled on the cards (whatever the main result, or with the one it names)
    BONUS = "bonus"  # pays by the bonus table


#: The facts of the main result: which hand won (or a tie), and by how many points (0 on a
#: tie). A bet whose rows read none of them is settled on the cards whatever the result.
RESULT_FACTS = frozenset({"winner", "margin"})


#: What a pay row pays: odds "to 1" (a win), or a push or a loss whatever the odds.
Pay = Fraction | BetResult


@dataclass(frozen=True, slots=True)
class Wording:
    """A text of a bet's pages: a msgid the catalogues translate (built-in bets), or the
    operator's own text in each language (``by_language``, for the operator's bets)."""

    msgid: str | None = None
    by_language: tuple[tuple[str, str], ...] = ()

    def in_language(self, language: str) -> str | None:
        """The operator's text in ``language``; None for a msgid (translate it) or a language
        the operator did not write."""
        return dict(self.by_language).get(language)


@dataclass(frozen=True, slots=True)
class PayRow:
    """One row of a bet: when it applies, and what it pays.

    ``when`` holds each condition as a fact name and the values it may take. ``key`` names
    the row's pay in the pay table (None: the row always pays ``default``).
    """

    when: tuple[tuple[str, frozenset[object]], ...]
    default: Pay
    key: str | None = None
    says: Wording = field(default_factory=Wording)

    def __post_init__(self) -> None:
        for name, _ in self.when:
            if name not in FACTS:
                raise ValueError(f"unknown fact {name!r} in a pay row")

    def holds(self, facts: RoundFacts) -> bool:
        """Whether every condition of the row holds on ``facts``."""
        # A loop rather than all() over a generator: settlement's hot path, half the time.
        for name, values in self.when:  # noqa: SIM110
            if getattr(facts, name) not in values:
                return False
        return True

    @property
    def paid_by_the_bonus_table(self) -> bool:
        """Whether the bet is one of the catalogue's bonus bets, which the rule sheet's bonus
        table states (an operator's own bet of the group is stated by its own rows)."""
        return self.group is BetGroup.BONUS and not self.own

    @property
    def facts(self) -> frozenset[str]:
        """The names of the facts the row reads."""
        return frozenset(name for name, _ in self.when)

    def condition(self, name: str) -> frozenset[object] | None:
        """The values the row allows a fact, or None if it names no condition on it."""
        for fact, values in self.when:
            if fact == name:
                return values
        return None


@dataclass(frozen=True, slots=True)
class BetRule:
    """A bet: its id (the bet type of the round log), its group, its rows and its words."""

    id: str
    group: BetGroup
    rows: tuple[PayRow, ...]
    name: Wording = field(default_factory=Wording)
    wins: Wording = field(default_factory=Wording)
    #: The sentence's plural (msgid), for a sentence that counts the cards dealt (%(cards)s).
    wins_plural: str | None = None
    #: What the pays must be for the sentence to stay true, where it states a pay: each
    #: ``(key, "=", odds)`` or ``(key, ">", other key)`` (``banker_no_commission``'s "pays
    #: half": its six at 1/2).
    wins_holds: tuple[tuple[str, str, str], ...] = ()
    #: Declared by the operator's configuration rather than the catalogue.
    own: bool = False

    @property
    def paid_by_the_bonus_table(self) -> bool:
        """Whether the bet is one of the catalogue's bonus bets, which the rule sheet's bonus
        table states (an operator's own bet of the group is stated by its own rows)."""
        return self.group is BetGroup.BONUS and not self.own

    @property
    def facts(self) -> frozenset[str]:
        """The names of every fact the bet reads."""
        return frozenset().union(*(row.facts for row in self.rows))

    @property
    def reads_the_result(self) -> bool:
        """Whether the bet wins only with a main result: a row names the hand that wins (or
        a tie) or the points between the hands; a side bet that does not is settled on the
        cards whatever the main result (its pages say which)."""
        return bool(self.facts & RESULT_FACTS)

    @property
    def fact_groups(self) -> frozenset[FactGroup]:
        """The groups of facts the bet reads (what its odds are counted on)."""
        return frozenset(FACTS[name].group for name in self.facts)

    @property
    def pay_keys(self) -> tuple[str, ...]:
        """The keys of its rows' pays, in row order (each once)."""
        return tuple(dict.fromkeys(row.key for row in self.rows if row.key is not None))

    def __str__(self) -> str:
        return self.id


@dataclass(frozen=True, slots=True)
class PayTable:
    """What each pay key pays in one game: odds "to 1", or a push or a loss."""

    pays: tuple[tuple[str, Pay], ...] = ()
    _by_key: dict[str, Pay] = field(init=False, repr=False, compare=False, hash=False)

    @classmethod
    def of(cls, bets: Iterable[BetRule], changes: Mapping[str, Pay] | None = None) -> PayTable:
        """Every pay key of ``bets`` at its declared default, unless ``changes`` sets it.

        A key that two bets declare with different defaults, or a change to a key none of the
        bets has, is an error.
        """
        pays: dict[str, Pay] = {}
        for bet in bets:
            for row in bet.rows:
                if row.key is None:
                    continue
                if row.key in pays and pays[row.key] != row.default:
                    raise ValueError(f"pay key {row.key!r} is declared with two defaults")
                pays[row.key] = row.default
        for key, pay in (changes or {}).items():
            if key not in pays:
                raise KeyError(key)
            pays[key] = pay
        return cls(tuple(pays.items()))

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_key", dict(self.pays))

    def pay(self, row: PayRow) -> Pay:
        """What ``row`` pays in this table."""
        if row.key is None:
            return row.default
        return self._by_key[row.key]

    def get(self, key: str) -> Pay | None:
        """What ``key`` pays, or None if no bet of the table has it."""
        return self._by_key.get(key)

    def odds(self, key: str) -> Fraction | None:
        """The odds ``key`` pays, or None if it is not a win (or not in the table)."""
        pay = self.get(key)
        return pay if isinstance(pay, Fraction) else None

    def keys(self) -> tuple[str, ...]:
        """The pay keys, in declaration order."""
        return tuple(key for key, _ in self.pays)

    def changed(self, changes: Mapping[str, Pay]) -> PayTable:
        """The same table with ``changes`` applied (keys it does not hold are an error)."""
        pays = dict(self.pays)
        for key, pay in changes.items():
            if key not in pays:
                raise KeyError(key)
            pays[key] = pay
        return PayTable(tuple(pays.items()))

    @property
    def perfect_pair_variant(self) -> str:
        """``"A"`` when the perfect pair pays both hands as one, ``"B"`` when both pay more."""
        return "A" if self.get("perfect_pair_both") == self.get("perfect_pair_one") else "B"


@dataclass(frozen=True, slots=True)
class Resolution:
    """A bet's result before any money: which row decided it, and its odds."""

    result: BetResult
    odds: Fraction  # 0 unless result is WIN
    row: str  # "<bet id>:<row number from 1>", or "<bet id>:lose" when no row holds
    pay_row: PayRow | None = None

    def payout(self, stake: int, rounding: RoundingPolicy) -> int:
        """What a stake of ``stake`` cents brings back, the win rounded by ``rounding``."""
        if self.result is BetResult.WIN:
            return stake + round_cents(stake * self.odds, rounding)
        return stake if self.result is BetResult.PUSH else 0

    def return_multiple(self) -> Fraction:
        """What one unit staked brings back, stake included (exact)."""
        if self.result is BetResult.WIN:
            return 1 + self.odds
        return Fraction(1) if self.result is BetResult.PUSH else Fraction(0)


_NOTHING = Fraction(0)


def facts_read(bet: BetRule) -> Callable[[RoundFacts], object]:
    """What ``bet`` reads of a round's facts, as one hashable value: two records on which it
    gives the same value decide the bet alike (a cache key derived from the declaration).

    >>> from reporting.engine.cards import parse_cards
    >>> from reporting.engine.facts import facts_of
    >>> tie = BetRule("tie", BetGroup.MAIN, (PayRow((("winner", frozenset({"tie"})),), Fraction(8), "tie"),))
    >>> facts_read(tie)(facts_of(parse_cards("9H KS"), parse_cards("5D 4C")))
    'tie'
    """
    names = sorted(bet.facts)
    return attrgetter(*names) if names else _read_nothing


def _read_nothing(facts: RoundFacts) -> tuple[()]:
    return ()


def resolve_bet(bet: BetRule, facts: RoundFacts, table: PayTable) -> Resolution:
    """Decide a bet on a round's facts: the first of its rows that holds, under ``table``.

    >>> from reporting.engine.cards import parse_cards
    >>> from reporting.engine.facts import facts_of
    >>> tie = BetRule("tie", BetGroup.MAIN, (PayRow((("winner", frozenset({"tie"})),), Fraction(8), "tie"),))
    >>> resolve_bet(tie, facts_of(parse_cards("9H KS"), parse_cards("5D 4C")), PayTable.of([tie])).odds
    Fraction(8, 1)
    """
    for number, row in enumerate(bet.rows, start=1):
        if row.holds(facts):
            pay = table.pay(row)
            row_id = f"{bet.id}:{number}"
            if isinstance(pay, Fraction):
                return Resolution(BetResult.WIN, pay, row_id, row)
            return Resolution(pay, _NOTHING, row_id, row)
    return Resolution(BetResult.LOSE, _NOTHING, f"{bet.id}:lose")


@dataclass(frozen=True, slots=True)
class Settlement:
    """A bet settled in cents: what it returns (stake included) and which row paid."""

    bet_type: str
    stake: int
    payout: int
    result: BetResult
    row: str
    exact_win: Fraction  # the win before rounding, in cents


def settle(
    bet: BetRule,
    stake: int,
    facts: RoundFacts,
    table: PayTable,
    rounding: RoundingPolicy = RoundingPolicy.DOWN,
) -> Settlement:
    """Settle a bet of ``stake`` cents: stake plus the win rounded by ``rounding``."""
    if not isinstance(stake, int) or isinstance(stake, bool) or stake <= 0:
        raise ValueError(f"stake must be a positive integer number of cents, got {stake!r}")
    resolution = resolve_bet(bet, facts, table)
    exact_win = stake * resolution.odds if resolution.result is BetResult.WIN else _NOTHING
    payout = resolution.payout(stake, rounding)
    return Settlement(bet.id, stake, payout, resolution.result, resolution.row, exact_win)


def refund(bet: str, stake: int) -> Settlement:
    """Settlement of a bet on a void round: the stake comes back."""
    return Settlement(bet, stake, stake, BetResult.PUSH, "void_refund", _NOTHING)
