"""A stored round's deal, resolved from its cards as the store keeps them: ingest stores a
settled round only with two or three readable cards in each hand, so one without them was
written by something else, and verify stops at it in one line
(:func:`reporting.store.damage.damaged`), never with a traceback halfway through a month."""

from __future__ import annotations

from reporting.engine.cards import CardError, parse_cards
from reporting.engine.rules import DealError, Outcome, resolve_round
from reporting.records import Round

__all__ = ["stored_outcome", "stored_times"]


def stored_outcome(round_id: str, player: str, banker: str) -> Outcome:
    """The deal of a stored settled round, resolved from its cards as the store keeps them;
    the :func:`damaged` error where they are no hands of two or three cards."""
    try:
        return resolve_round(parse_cards(player), parse_cards(banker))
    except (CardError, DealError) as error:
        # Here, not at the top: the roads of a rule sheet resolve deals, and load no store.
        from reporting.store.damage import damaged, quoted, said

        hands = f"player {quoted(player)}, banker {quoted(banker)}"
        raise damaged(round_id, f"cards it cannot deal ({hands}: {said(str(error))})") from None


def stored_times(round: Round) -> None:
    """The :func:`damaged` error of a round whose times are not in the form ingest stores
    (``2026-10-03T18:40:17.000Z``). Called for a round that has findings, before they are
    kept: its checks compare its times as text, and ``garbage`` for a bet's placement read as
    placed after betting closed, a past-posting finding against a bet that was none."""
    from reporting.ingest.validation import STORED_TIME
    from reporting.store.damage import damaged, quoted

    times = [
        (name, value)
        for name, value in (
            ("started_at", round.started_at),
            ("betting_closed_at", round.betting_closed_at),
            ("settled_at", round.settled_at),
        )
        if value is not None
    ]
    times += [
        (f"placed_at of bet {bet.bet_id}", bet.placed_at)
        for bet in round.bets
        if bet.placed_at is not None
    ]
    for name, value in times:
        if STORED_TIME.fullmatch(value) is None:
            raise damaged(
                round.round_id, f"a {name} that is no time as ingest stores one ({quoted(value)})"
            )
