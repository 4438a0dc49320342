"""Pay-table overrides given on the command line (``odds --pay KEY=ODDS``)."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from reporting.config.bets import parse_pay
from reporting.engine.bets import Pay, PayTable
from reporting.engine.money import AmountError
from reporting.errors import InputError

__all__ = ["apply_pay_overrides"]


def apply_pay_overrides(table: PayTable, overrides: Iterable[str]) -> PayTable:
    """Apply ``KEY=ODDS`` overrides (e.g. ``tie=9``, ``bonus_margin_9=50``, ``super_6=15``) to a
    pay table: a key is any pay key of the table's bets (``push`` and ``lose`` are pays too).

    ``perfect_pair=A`` or ``perfect_pair=B`` picks the perfect pair variant: A pays both hands
    as one, B pays 200:1 for both unless ``perfect_pair_both`` says otherwise.
    """
    changes: dict[str, Pay] = {}
    variant = table.perfect_pair_variant
    keys = table.keys()
    for override in overrides:
        key, sep, text = override.partition("=")
        key = key.strip()
        if key == "perfect_pair" and text.strip().upper() in ("A", "B"):
            variant = text.strip().upper()
            continue
        if not sep or key not in keys:
            raise InputError(
                f"--pay {override!r}: expected KEY=ODDS with KEY one of {', '.join(keys)}"
            )
        try:
            changes[key] = parse_pay(text.strip())
        except AmountError as error:
            raise InputError(f"--pay {override!r}: {error}") from None
    # Variant A pays both hands as one: changing the one-hand odds changes both.
    if "perfect_pair_both" in keys and "perfect_pair_both" not in changes:
        if variant == "A":
            changes["perfect_pair_both"] = changes.get(
                "perfect_pair_one",
                table.get("perfect_pair_one"),  # type: ignore[arg-type]
            )
        elif table.perfect_pair_variant == "A":
            changes["perfect_pair_both"] = Fraction(200)
    return table.changed(changes)
