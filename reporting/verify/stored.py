"""A stored round's deal, resolved from its cards as the store keeps them: ingest stores a
settled round only with two or three readable cards in each hand, so one without them was
written by something else, and verify stops at it in one line
(:func:`reporting.store.damage.damaged`), never with a traceback halfway through a month."""

from __future__ import annotations

from reporting.engine.cards import CardError, parse_cards
from reporting.engine.rules import DealError, Outcome, resolve_round

__all__ = ["stored_outcome"]


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
