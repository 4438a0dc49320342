"""An independent month of play: round logs with known payout errors, written from the spec.

Independent of the ``reporting`` package (standard library only; the pay keys and defaults
are :data:`oracle.exact.DEFAULT_PAYS`): its own shoes, its own dealer (the drawing rules of
games.md written as a table), its own settlement from the cards, integer cents for money. A
month is written as JSON Lines in the round-log format (round-log.md); a known random subset
of its bets then carries a wrong payout, and :func:`generate_month` returns which.

The deal is never rigged in a shoe: a live game deals its rounds one after the other from a
shuffled shoe (cut card near the end), so that each shoe's cards add up. A game reshuffled
before every round (an RNG game) may have a round dealt again until a chosen bet wins at its
best row, a fresh shoe each time: that is how the rare wins (a twin tiger pair, two perfect
pairs, a Big Tiger) show up in a month of a few thousand rounds. Bets are chosen after the
deal, and a bet that wins at high odds is more likely to be placed.
"""

from __future__ import annotations

import gzip
import json
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from pathlib import Path

from oracle.exact import DEFAULT_PAYS, normalise_pays

__all__ = [
    "MonthGame",
    "card_points",
    "deal_round",
    "generate_month",
    "hand_total",
    "payout_cents",
    "settle",
    "tally",
]

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
#: The first day and the length of the month's play (inside October in any European zone).
MONTH_START = datetime(2026, 10, 2, tzinfo=UTC)
MONTH_SECONDS = 27 * 24 * 3600
#: Stakes in cents: the limits the month keeps to, and the round amounts players like.
MIN_STAKE, MAX_STAKE = 500, 100_000
ROUND_STAKES = (500, 1000, 2000, 2500, 5000, 10_000, 25_000, 50_000, 100_000)

#: Banker's third card (games.md): with the banker's two-card total as key, the player's
#: third-card points on which the banker draws. 0-2 always draw and 7 stands.
BANKER_DRAWS_ON = {
    3: frozenset({0, 1, 2, 3, 4, 5, 6, 7, 9}),
    4: frozenset({2, 3, 4, 5, 6, 7}),
    5: frozenset({4, 5, 6, 7}),
    6: frozenset({6, 7}),
}


@dataclass(frozen=True)
class MonthGame:
    """A game of the month: its id in the operator configuration, its shoe, the bets it
    offers, the odds it pays (pay keys overriding :data:`~oracle.exact.DEFAULT_PAYS`)."""

    game_id: str
    decks: int
    bets: tuple[str, ...]
    pays: Mapping[str, object] = field(default_factory=dict)
    reshuffle_every_round: bool = False
    currency: str = "EUR"

    @property
    def table_id(self) -> str:
        """The one table the game is dealt at."""
        return self.game_id.upper() + "-01"


# --- cards and the deal ---------------------------------------------------------------------


def card_points(card: str) -> int:
    """The points of a card code such as ``"9H"``, ``"10S"``, ``"KD"``."""
    rank = card[:-1]
    if rank == "A":
        return 1
    return int(rank) % 10 if rank.isdigit() else 0


def hand_total(cards: Sequence[str]) -> int:
    """A hand's value: its points modulo 10."""
    return sum(map(card_points, cards)) % 10


def deal_round(draw) -> tuple[list[str], list[str]]:
    """Deal one round with ``draw()`` giving the next card: P1, B1, P2, B2, then the third
    cards by the drawing rules. Returns the player's and the banker's cards in deal order."""
    player, banker = [], []
    for _ in range(2):
        player.append(draw())
        banker.append(draw())
    player_total, banker_total = hand_total(player), hand_total(banker)
    if max(player_total, banker_total) >= 8:  # a natural: both stand
        return player, banker
    player_third = None
    if player_total < 6:
        player.append(draw())
        player_third = card_points(player[-1])
    if player_third is None:
        banker_draws = banker_total < 6
    elif banker_total < 3:
        banker_draws = True
    else:
        banker_draws = player_third in BANKER_DRAWS_ON.get(banker_total, ())
    if banker_draws:
        banker.append(draw())
    return player, banker


# --- settlement -----------------------------------------------------------------------------


def _pair_odds(bet: str, player: Sequence[str], banker: Sequence[str], pays) -> Fraction | None:
    """The odds a pair bet wins at on these hands, or None when it loses."""
    p_pair = player[0][:-1] == player[1][:-1]
    b_pair = banker[0][:-1] == banker[1][:-1]
    if bet == "player_pair":
        return pays["player_pair"] if p_pair else None
    if bet == "banker_pair":
        return pays["banker_pair"] if b_pair else None
    if bet == "either_pair":
        return pays["either_pair"] if p_pair or b_pair else None
    if bet == "perfect_pair":
        suited = [hand[0] == hand[1] for hand in (player, banker)]
        if not any(suited):
            return None
        return pays["perfect_pair_both"] if all(suited) else pays["perfect_pair_one"]
    # tiger_pair
    if p_pair and b_pair:
        twin = player[0][:-1] == banker[0][:-1]
        return pays["tiger_pair_twin"] if twin else pays["tiger_pair_double"]
    return pays["tiger_pair_single"] if p_pair or b_pair else None


def _bonus_odds(mine: Sequence[str], theirs: Sequence[str], pays) -> Fraction | str | None:
    """The bonus table on the side holding ``mine``: odds, ``"push"`` or None (lose)."""
    my_total, their_total = hand_total(mine), hand_total(theirs)
    my_natural = len(mine) == 2 and my_total >= 8
    their_natural = len(theirs) == 2 and their_total >= 8
    if my_total == their_total:
        return "push" if my_natural and their_natural else None
    if my_total < their_total:
        return None
    if my_natural:
        return pays["bonus_natural_win"]
    return pays.get(f"bonus_margin_{my_total - their_total}")


def _banker_win_odds(bet: str, banker: Sequence[str], pays) -> Fraction | str | None:
    """A banker-side bet when the banker's hand wins: odds, ``"push"`` or None (lose)."""
    total, three = hand_total(banker), len(banker) == 3
    table: dict[str, Fraction | str | None] = {
        "banker": pays["banker"],
        "banker_no_commission": pays[
            "banker_no_commission_six" if total == 6 else "banker_no_commission"
        ],
        "banker_ez": "push" if (three and total == 7) else pays["banker_ez"],
        "dragon_7": pays["dragon_7"] if (three and total == 7) else None,
    }
    if total == 6:
        table["super_6"] = pays["super_6"]
        table["lucky_6"] = pays["lucky_6_three_cards" if three else "lucky_6_two_cards"]
        table["tiger"] = pays["tiger_three_cards" if three else "tiger_two_cards"]
        table["big_tiger" if three else "small_tiger"] = pays[
            "big_tiger" if three else "small_tiger"
        ]
    return table.get(bet)


def _odds(bet: str, player: Sequence[str], banker: Sequence[str], pays) -> Fraction | str | None:
    """How ``bet`` ends on these hands: the odds it wins at, ``"push"``, or None (lose)."""
    if bet in ("player_pair", "banker_pair", "either_pair", "perfect_pair", "tiger_pair"):
        return _pair_odds(bet, player, banker, pays)
    cards = len(player) + len(banker)
    if bet in ("small", "big"):
        return pays[bet] if (cards == 4) == (bet == "small") else None
    if bet == "player_bonus":
        return _bonus_odds(player, banker, pays)
    if bet == "banker_bonus":
        return _bonus_odds(banker, player, pays)
    player_total, banker_total = hand_total(player), hand_total(banker)
    if player_total == banker_total:
        if bet == "tie":
            return pays["tie"]
        if bet == "tiger_tie":
            return pays["tiger_tie"] if player_total == 6 else None
        return "push" if bet in ("player", "banker", "banker_no_commission", "banker_ez") else None
    if player_total > banker_total:
        three_card = len(player) == 3
        wins = {
            "player": pays["player"],
            "panda_8": pays["panda_8"] if three_card and player_total == 8 else None,
            "ox_6": pays["ox_6"] if three_card and player_total == 6 else None,
        }
        return wins.get(bet)
    return _banker_win_odds(bet, banker, pays)


def settle(
    bet: str,
    player: Sequence[str],
    banker: Sequence[str],
    pays: Mapping[str, Fraction] = DEFAULT_PAYS,
) -> Fraction:
    """What one unit on ``bet`` returns on these hands, stake included (win ``1 + odds``, push
    1, loss 0), with the odds ``pays`` (every pay key: :func:`~oracle.exact.normalise_pays`)."""
    odds = _odds(bet, player, banker, pays)
    if odds is None:
        return Fraction(0)
    return Fraction(1) if odds == "push" else 1 + odds


def payout_cents(stake: int, returned: Fraction) -> int:
    """The gross payout of a stake of ``stake`` cents returning ``returned`` per unit: the
    winnings rounded down to the cent."""
    if returned <= 1:
        return stake * int(returned)
    winnings = stake * (returned - 1)
    return stake + winnings.numerator // winnings.denominator


# --- the month ------------------------------------------------------------------------------


def _money(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


def _stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def _full_shoe(decks: int) -> list[str]:
    return [rank + suit for _ in range(decks) for suit in SUITS for rank in RANKS]


#: The pay keys of each bet (its rows).
BET_PAY_KEYS: dict[str, tuple[str, ...]] = {
    "perfect_pair": ("perfect_pair_one", "perfect_pair_both"),
    "player_bonus": ("bonus_natural_win",) + tuple(f"bonus_margin_{m}" for m in range(4, 10)),
    "banker_bonus": ("bonus_natural_win",) + tuple(f"bonus_margin_{m}" for m in range(4, 10)),
    "banker_no_commission": ("banker_no_commission", "banker_no_commission_six"),
    "lucky_6": ("lucky_6_two_cards", "lucky_6_three_cards"),
    "tiger": ("tiger_two_cards", "tiger_three_cards"),
    "tiger_pair": ("tiger_pair_single", "tiger_pair_double", "tiger_pair_twin"),
}


def _top_return(bet: str, pays: Mapping[str, Fraction]) -> Fraction:
    """The best a bet can return: its row of the highest odds (the twin tiger pair, two
    perfect pairs, a bonus win by 9...)."""
    return 1 + max(pays[key] for key in BET_PAY_KEYS.get(bet, (bet,)))


class _Table:
    """One game's table: its shoes, its clock, its rounds."""

    def __init__(self, game: MonthGame, rounds: int, rng: random.Random) -> None:
        self.game, self.rng = game, rng
        self.pays = normalise_pays(game.pays)
        self.spacing = MONTH_SECONDS / max(rounds, 1)
        self.full_shoe = _full_shoe(game.decks)
        self.shoe: list[str] = []
        self.shoe_no = 0
        self.hand_no = 0

    def _draw_from_shoe(self) -> tuple[list[str], list[str]]:
        if len(self.shoe) < 16:  # the cut card came out: a new shoe
            self.shoe = list(self.full_shoe)
            self.rng.shuffle(self.shoe)
            del self.shoe[:14]  # behind the cut card
            self.shoe.pop()  # the burn card
            self.shoe_no += 1
            self.hand_no = 0
        self.hand_no += 1
        return deal_round(self.shoe.pop)

    def _deal_fresh(self, aim: str | None) -> tuple[list[str], list[str]]:
        """A round of a shoe shuffled for it alone; with ``aim``, dealt again (up to a few
        thousand times) until that bet wins at its best row."""
        self.shoe_no += 1
        self.hand_no = 1
        full = self.full_shoe
        best = _top_return(aim, self.pays) if aim else None
        for _ in range(4000):
            cards = iter(self.rng.sample(full, 6))
            player, banker = deal_round(cards.__next__)
            if best is None or settle(aim, player, banker, self.pays) == best:
                break
        return player, banker

    def deal(self) -> tuple[list[str], list[str]]:
        """The next round's cards."""
        if not self.game.reshuffle_every_round:
            return self._draw_from_shoe()
        aim = self.rng.choice(self.game.bets) if self.rng.random() < 0.04 else None
        return self._deal_fresh(aim)

    def shoe_id(self) -> str:
        """The id of the shoe the last round came from."""
        return f"{self.game.table_id}-S{self.shoe_no:05d}"


def _stake(rng: random.Random) -> int:
    if rng.random() < 0.4:
        return rng.choice(ROUND_STAKES)
    return rng.randrange(MIN_STAKE, MAX_STAKE + 1)


def _choose_bets(table: _Table, player, banker) -> list[tuple[str, Fraction]]:
    """The bet types placed on a round and what each returns per unit: a few at random, and
    each bet that wins at 4:1 or more, more often than not."""
    rng, offered = table.rng, table.game.bets
    returns = {bet: settle(bet, player, banker, table.pays) for bet in offered}
    chosen = [bet for bet in offered if returns[bet] >= 5 and rng.random() < 0.7]
    for _ in range(rng.randint(1, 3)):
        chosen.append(rng.choice(offered))
    return [(bet, returns[bet]) for bet in chosen[:6]]


def _round_record(table: _Table, index: int, bet_counter: Iterable[int]) -> dict:
    """One settled round of ``table``, the ``index``-th of its month, with correct payouts."""
    rng, game = table.rng, table.game
    player, banker = table.deal()
    started = MONTH_START + timedelta(seconds=index * table.spacing + rng.random())
    closed = started + timedelta(seconds=15)
    settled = closed + timedelta(seconds=20 + rng.random() * 10)
    bets = []
    for (bet, returned), number in zip(
        _choose_bets(table, player, banker), bet_counter, strict=False
    ):
        stake = _stake(rng)
        placed = started + timedelta(milliseconds=rng.randrange(500, 14_500))
        bets.append(
            {
                "bet_id": f"OB-{number:07d}",
                "account": f"acc-{rng.randrange(10_000):04d}",
                "type": bet,
                "stake": _money(stake),
                "payout": _money(payout_cents(stake, returned)),
                "currency": game.currency,
                "placed_at": _stamp(placed),
            }
        )
    return {
        "round_id": f"{game.table_id}-{index + 1:06d}",
        "table_id": game.table_id,
        "game": game.game_id,
        "shoe_id": table.shoe_id(),
        "hand_no": table.hand_no,
        "started_at": _stamp(started),
        "betting_closed_at": _stamp(closed),
        "settled_at": _stamp(settled),
        "status": "settled",
        "player_cards": player,
        "banker_cards": banker,
        "bets": bets,
    }


def _cents(text: str) -> int:
    units, _, cents = text.partition(".")
    return int(units) * 100 + int(cents or 0)


def _wrong_payout(bet: dict, rng: random.Random) -> None:
    """Give ``bet`` a wrong payout: a cent off, a win paid as a loss or a push, a loss or a
    push paid as a win."""
    stake, right = _cents(bet["stake"]), _cents(bet["payout"])
    if right > stake:
        choices = [right + 1, right - 1, 0, stake, stake * 2 if right != stake * 2 else right + 100]
    elif right == stake:
        choices = [stake * 2, stake + 1, 0]
    else:
        choices = [stake * 2, 1, stake]
    wrong = rng.choice(choices)
    assert wrong != right and wrong >= 0
    bet["payout"] = _money(wrong)


def generate_month(
    path: Path,
    games: Sequence[MonthGame],
    rounds: int = 20_000,
    errors: int = 60,
    seed: int = 2026,
) -> set[tuple[str, str]]:
    """Write ``rounds`` settled rounds of October 2026, shared among ``games``, as JSON Lines
    (gzipped when ``path`` ends in ``.gz``), with ``errors`` bets paid wrongly. Returns the
    (round_id, bet_id) of the wrongly paid bets."""
    rng = random.Random(seed)
    records: list[dict] = []
    numbers = iter(range(1, 10**7))
    for position, game in enumerate(games):
        count = rounds // len(games) + (position < rounds % len(games))
        table = _Table(game, count, rng)
        records.extend(_round_record(table, index, numbers) for index in range(count))
    placed = [(record, bet) for record in records for bet in record["bets"]]
    wrong = rng.sample(placed, errors)
    for _record, bet in wrong:
        _wrong_payout(bet, rng)
    records.sort(key=lambda record: record["settled_at"])
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "wt", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record, separators=(",", ":")) + "\n")
    return {(record["round_id"], bet["bet_id"]) for record, bet in wrong}


def tally(path: Path, games: Sequence[MonthGame]) -> dict[str, Counter[str]]:
    """The bets of a month's log by type, settled again from the logged cards (whatever the
    logged payouts): ``placed``, ``won`` (at any odds) and ``top`` (won at the bet's highest
    odds: a twin tiger pair, two perfect pairs, a bonus win by 9...)."""
    pays = {game.game_id: normalise_pays(game.pays) for game in games}
    counts: dict[str, Counter[str]] = {"placed": Counter(), "won": Counter(), "top": Counter()}
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            player, banker = record["player_cards"], record["banker_cards"]
            game_pays = pays[record["game"]]
            for bet in record["bets"]:
                kind = bet["type"]
                returned = settle(kind, player, banker, game_pays)
                counts["placed"][kind] += 1
                counts["won"][kind] += returned > 1
                counts["top"][kind] += returned == _top_return(kind, game_pays)
    return counts
