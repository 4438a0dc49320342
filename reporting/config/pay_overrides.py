"""Pay-table overrides given on the command line (``odds --pay KEY=ODDS``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from fractions import Fraction

from reporting.engine.bets import PayTable
from reporting.engine.money import AmountError, parse_ratio
from reporting.errors import InputError

__all__ = ["OVERRIDABLE", "apply_pay_overrides"]

#: Pay-table keys that ``--pay KEY=ODDS`` may set.
OVERRIDABLE = tuple(
    field.name
    for field in dataclasses.fields(PayTable)
    if field.name not in ("bonus_margins", "bonus_natural_tie_push")
) + tuple(f"bonus_margin_{margin}" for margin in (9, 8, 7, 6, 5, 4))


def apply_pay_overrides(table: PayTable, overrides: Iterable[str]) -> PayTable:
    """Apply ``KEY=ODDS`` overrides (e.g. ``tie=9``, ``bonus_margin_9=50``) to a pay table.

    ``perfect_pair=A`` or ``perfect_pair=B`` picks the perfect pair variant: A pays both hands
    as one hand, B pays 200:1 for both unless ``perfect_pair_both`` says otherwise.
    """
    changes: dict[str, object] = {}
    margins = dict(table.bonus_margins)
    variant = table.perfect_pair_variant
    for override in overrides:
        key, sep, text = override.partition("=")
        key = key.strip()
        if key == "perfect_pair" and text.strip().upper() in ("A", "B"):
            variant = text.strip().upper()
            continue
        if not sep or key not in OVERRIDABLE:
            raise InputError(
                f"--pay {override!r}: expected KEY=ODDS with KEY one of {', '.join(OVERRIDABLE)}"
            )
        try:
            odds = parse_ratio(text)
        except AmountError as error:
            raise InputError(f"--pay {override!r}: {error}") from None
        if odds <= 0:
            raise InputError(f"--pay {override!r}: odds must be above zero")
        if key.startswith("bonus_margin_"):
            margins[int(key.removeprefix("bonus_margin_"))] = odds
        else:
            changes[key] = odds
    changes["bonus_margins"] = tuple(sorted(margins.items(), reverse=True))
    # Variant A pays both hands as one: changing the one-hand odds changes both.
    if "perfect_pair_both" not in changes:
        if variant == "A":
            changes["perfect_pair_both"] = changes.get("perfect_pair_one", table.perfect_pair_one)
        elif table.perfect_pair_variant == "A":
            changes["perfect_pair_both"] = Fraction(200)
    return dataclasses.replace(table, **changes)
