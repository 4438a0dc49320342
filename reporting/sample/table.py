"""One table's month: rounds dealt, bet on, settled and written as the log spells them,
with the faults planned for this table injected through their injectors."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from reporting.engine.cards import Card
from reporting.engine.rules import deal_round
from reporting.sample.bets import PlacedBet, refunds
from reporting.sample.calendar import (
    BETTING_OPEN,
    MINUTE,
    SECOND,
    SECONDS_WITH_MILLISECONDS,
    SETTLE_AFTER,
    pick_style,
    round_starts,
)
from reporting.sample.draws import between
from reporting.sample.faults import injector_for
from reporting.sample.faults.records import (
    NO_NOTE,
    AppliedFault,
    DealChange,
    Injector,
    Note,
    PlannedFault,
    RoundFault,
)
from reporting.sample.games import GameModel
from reporting.sample.shoes import Shoe, TableShoes, partial_deal

VOID_RATE = 0.002
LIVE_VOID_REASONS = (
    "card misread by the shoe scanner",
    "card exposed during the deal",
    "video stream interrupted",
    "dealer error: cards dealt out of order",
)
RNG_VOID_REASONS = ("game server connection lost", "RNG service timeout")

# One round on its way to the writer: (settled ms, table order, game id, round, void, fault).
# A plain tuple, so that the merge orders rounds by settlement time, then table, for free.
RoundRecord = tuple[int, int, str, dict[str, Any], bool, AppliedFault | None]


class Table:
    """One table (or RNG game instance) dealing through the month, round after round."""

    def __init__(
        self,
        model: GameModel,
        number: int,
        order: int,
        span: tuple[int, int],
        month_start_utc: int,
        rounds_per_day: int | None,
        faults: list[PlannedFault],
        unconfigured_game: str,
        seed: int,
    ):
        self.model = model
        self.game = model.game
        self.table_id = model.table_id(number + 1)
        self.order = order  # breaks ties of settlement time in the merge
        self.span = span
        self.month_start_utc = month_start_utc
        self.rounds_per_day = rounds_per_day
        self.rng = random.Random(f"{seed}:{self.game.id}:{number}")
        self.shoes = TableShoes(self.table_id, model.deck, model.clock, self.rng)
        # Faults that wait for the last hand of a shoe, and the others, each in time order.
        self.last_hand_faults = sorted(
            (f for f in faults if injector_for(f.kind).last_hand_of_shoe), key=lambda f: f.target
        )
        self.other_faults = sorted(
            (f for f in faults if not injector_for(f.kind).last_hand_of_shoe),
            key=lambda f: (f.target, f.kind),
        )
        self.injected: dict[str, int] = {}  # kind -> faults of it injected so far
        self.unconfigured_game = unconfigured_game
        self.round_sequence: dict[str, int] = {}  # local day -> rounds numbered
        # The last round with bets and no fault, as written (its bet ids numbered by the
        # writer once it is written): the round a reused bet id is taken from.
        self.last_clean_round: dict[str, Any] | None = None

    @property
    def unplaced_faults(self) -> list[PlannedFault]:
        """Faults the month ended before placing."""
        return self.last_hand_faults + self.other_faults

    def rounds(self) -> Iterator[RoundRecord]:
        """Every round of the month on this table, in time order."""
        rng = self.rng
        model = self.model
        span_end = self.span[1]
        starts = round_starts(rng, self.span, self.month_start_utc, self.rounds_per_day)
        for started in starts:
            settled = started + between(rng.random(), *SETTLE_AFTER)
            if settled >= span_end:
                return
            closed = (started + BETTING_OPEN) // SECOND * SECOND
            if model.live_shoe:
                source = self.shoes.next_hand(started, model.cut_card_depth)
            else:
                # A freshly shuffled shoe each round: its first seven cards are a uniform
                # sample of the decks, and no round deals more than seven.
                source = Shoe(rng.sample(model.deck, 7))
            player, banker = deal_round(source)
            planned, change = self._due_fault(started, source, player, banker)
            if planned is None:
                data, void = self._round(started, closed, settled, player, banker)
                fault = None
                if data["bets"]:
                    self.last_clean_round = data
            else:
                data, void, fault = self._faulty_round(
                    planned, change, started, closed, settled, player, banker
                )
            if self.last_hand_faults and not void:
                # Only a pending last-hand fault needs to know what the shoe has shown.
                self._count_shown(fault, player, banker, change)
            yield settled, self.order, self.game.id, data, void, fault

    def _count_shown(
        self,
        fault: AppliedFault | None,
        player: tuple[Card, ...],
        banker: tuple[Card, ...],
        change: DealChange | None,
    ) -> None:
        """Count the cards of a round a reader will load."""
        if fault is None or injector_for(fault.kind).round_loads:
            if change is not None:
                player, banker = change.player, change.banker
            self.shoes.record_shown(player + banker)

    def _round(
        self,
        started: int,
        closed: int,
        settled: int,
        player: tuple[Card, ...],
        banker: tuple[Card, ...],
    ) -> tuple[dict[str, Any], bool]:
        """A round without a fault: void now and then, otherwise settled."""
        rng = self.rng
        void = rng.random() < VOID_RATE
        style = pick_style(rng.random())
        bets = self._place_bets(started, closed)
        bets.sort()  # by time placed (then bet type, account)
        return self._round_data(started, closed, settled, style, void, player, banker, bets), void

    def _faulty_round(
        self,
        planned: PlannedFault,
        change: DealChange | None,
        started: int,
        closed: int,
        settled: int,
        player: tuple[Card, ...],
        banker: tuple[Card, ...],
    ) -> tuple[dict[str, Any], bool, AppliedFault]:
        """A round carrying a fault, made at each stage by the fault's injector; the random
        draws happen in the order of a round without one, the void draw left out."""
        rng = self.rng
        injector = injector_for(planned.kind)
        note = NO_NOTE
        if change is not None:
            player, banker, note = change.player, change.banker, change.note
        void = injector.voids_round
        style = pick_style(rng.random())
        bets = self._place_bets(started, closed) or self._place_bets(started, closed, count=1)
        target_bet = None
        if injector.into_bets is not None:
            target_bet, note = injector.into_bets(self, bets, started, closed)
        bets.sort()  # by time placed (then bet type, account)
        data = self._round_data(started, closed, settled, style, void, player, banker, bets)
        if target_bet is not None:
            bet_index = next(i for i, bet in enumerate(bets) if bet is target_bet)
        else:
            bet_index = rng.randrange(len(bets))
        fault = self._inject(planned.kind, injector, data, bet_index, settled, note)
        return data, void, fault

    def _inject(
        self,
        kind: str,
        injector: Injector,
        data: dict[str, Any],
        bet_index: int,
        settled: int,
        note: Note,
    ) -> AppliedFault:
        ordinal = self.injected[kind] = self.injected.get(kind, 0) + 1
        fault = RoundFault(kind, injector.category, self, data, bet_index, settled, note, ordinal)
        return injector.into_round(fault)

    def _due_fault(
        self, started: int, source: Shoe, player: tuple[Card, ...], banker: tuple[Card, ...]
    ) -> tuple[PlannedFault | None, DealChange | None]:
        """The fault this round carries, if one is due, and the cards it deals instead: a
        last-hand fault on the last hand of a shoe when its injector can change the hand,
        otherwise the next fault whose time has come."""
        waiting = self.last_hand_faults
        if (
            self.model.live_shoe
            and waiting
            and waiting[0].target <= started
            and source.remaining <= self.model.cut_card_depth
        ):
            into_deal = injector_for(waiting[0].kind).into_deal
            assert into_deal is not None, "a last-hand fault changes the hand"
            change = into_deal(self, player, banker, source)
            if change is not None:
                return waiting.pop(0), change
        if self.other_faults and self.other_faults[0].target <= started:
            planned = self.other_faults.pop(0)
            into_deal = injector_for(planned.kind).into_deal
            if into_deal is None:
                return planned, None
            change = into_deal(self, player, banker, source)
            assert change is not None, f"a {planned.kind} fault fits any hand"
            return planned, change
        return None, None

    def _place_bets(self, started: int, closed: int, count: int | None = None) -> list[PlacedBet]:
        """The round's bets: a count drawn for the local hour unless given."""
        sampler, random_draw = self.model.bets, self.rng.random
        if count is None:
            count = sampler.count(self.model.clock.local_hour(started), random_draw)
        return sampler.place(count, started, closed, random_draw)

    def _round_data(
        self,
        started: int,
        closed: int,
        settled: int,
        style: str,
        void: bool,
        player: tuple[Card, ...],
        banker: tuple[Card, ...],
        bets: list[PlacedBet],
    ) -> dict[str, Any]:
        """The round as the log writes it, every bet settled by the engine (or refunded)."""
        model = self.model
        game = self.game
        clock = model.clock
        day = clock.local_day(started)
        round_number = self.round_sequence[day] = self.round_sequence.get(day, 0) + 1
        data: dict[str, Any] = {
            "round_id": f"{self.table_id}-{day}-{round_number:04d}",
            "table_id": self.table_id,
            "game": game.id,
            "shoe_id": self.shoes.shoe_id if model.live_shoe else None,
        }
        if model.live_shoe:
            data["hand_no"] = self.shoes.hand_no
        data["started_at"] = clock.format(started, style)
        data["betting_closed_at"] = clock.format(closed, style, milliseconds=False)
        data["settled_at"] = clock.format(settled, style)
        if void:
            data["status"] = "void"
            reasons = LIVE_VOID_REASONS if game.kind == "live" else RNG_VOID_REASONS
            data["void_reason"] = reasons[self.rng.randrange(len(reasons))]
            player, banker = partial_deal(player, banker, self.rng)
            payouts = refunds(bets)
        else:
            data["status"] = "settled"
            payouts = model.settler.payouts(player, banker, bets)
        data["player_cards"] = [card.rank + card.suit for card in player]
        data["banker_cards"] = [card.rank + card.suit for card in banker]
        data["bets"] = self._bet_rows(style, bets, payouts)
        return data

    def _bet_rows(
        self, style: str, bets: list[PlacedBet], payouts: list[int]
    ) -> list[dict[str, Any]]:
        """The round's bets as the log writes them (``bet_id`` is numbered by the writer)."""
        clock = self.model.clock
        money = self.model.money_texts
        currency = self.game.currency
        if style == "local":
            placed_at = [clock.format(placed.placed_ms, style) for placed in bets]
        else:
            # UTC spellings, inlined from :meth:`Clock.format`: six of them a round.
            prefixes, seconds = clock.minute_prefixes, SECONDS_WITH_MILLISECONDS
            placed_at = [
                prefixes[placed.placed_ms // MINUTE] + seconds[placed.placed_ms % MINUTE] + style
                for placed in bets
            ]
        return [
            {
                "bet_id": None,  # numbered by the writer, in file order
                "account": placed.account,
                "type": placed.bet,
                "stake": money[placed.stake],
                "payout": money[paid],
                "currency": currency,
                "placed_at": placed_text,
            }
            for placed, paid, placed_text in zip(bets, payouts, placed_at, strict=True)
        ]
