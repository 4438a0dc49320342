"""Money in integer minor units (cents), parsed from strings only, rounded by named policies.

Every amount the tool reads goes through :func:`parse_amount`; every fractional amount the
engine produces (a 0.95:1 banker win on an odd stake) goes through :func:`round_cents` with a
:class:`RoundingPolicy`. No float is ever accepted or produced.
"""

from __future__ import annotations

import enum
import re
from decimal import Decimal
from fractions import Fraction

__all__ = [
    "DECIMALS",
    "AmountError",
    "RoundingPolicy",
    "cents_to_decimal",
    "exact_decimal",
    "format_cents",
    "format_money",
    "parse_amount",
    "parse_ratio",
    "round_apart",
    "round_cents",
    "round_fraction",
]

#: The decimals of every amount: money is counted in hundredths (cents) of the currency's unit,
#: as round logs write it (round-log.md), so a game's currency has as many
#: (reporting.config.regulators.currency_problem).
DECIMALS = 2
#: Cents in a unit of the currency.
_CENTS = 10**DECIMALS

_AMOUNT = re.compile(rf"(?P<units>[0-9]+)(?:\.(?P<fraction>[0-9]{{1,{DECIMALS}}}))?")


class AmountError(ValueError):
    """An amount that is not a plain decimal string with at most two decimals."""


def parse_amount(text: object, *, allow_zero: bool = True) -> int:
    """Parse a decimal money string into integer cents.

    Only plain decimal strings are accepted: no sign, no exponent, no thousands separator,
    at most two decimals. Numbers of any Python type are refused, because a JSON number
    has already passed through a float.

    >>> parse_amount("25.00"), parse_amount("5"), parse_amount("12.3")
    (2500, 500, 1230)
    >>> parse_amount(25.0)
    Traceback (most recent call last):
    ...
    reporting.engine.money.AmountError: amount must be a decimal string such as "25.00", got the number 25.0
    """
    if isinstance(text, bool) or not isinstance(text, str):
        if isinstance(text, int | float | Decimal):
            raise AmountError(
                f'amount must be a decimal string such as "25.00", got the number {text!r}'
            )
        raise AmountError(f"amount must be a decimal string, got {type(text).__name__}")
    match = _AMOUNT.fullmatch(text)
    if match is None:
        raise AmountError(
            f'amount {text!r} is not a plain decimal with at most {DECIMALS} decimals (e.g. "25.00")'
        )
    cents = int(match["units"]) * _CENTS + int((match["fraction"] or "0").ljust(DECIMALS, "0"))
    if cents == 0 and not allow_zero:
        raise AmountError(f"amount {text!r} must be greater than zero")
    return cents


def cents_to_decimal(cents: int) -> Decimal:
    """Exact ``Decimal`` for an amount in cents (``1234`` -> ``Decimal('12.34')``)."""
    return Decimal(cents).scaleb(-DECIMALS)


def format_cents(cents: int) -> str:
    """Plain, locale-free decimal string for cents, as the round log writes it.

    >>> format_cents(2408), format_cents(5), format_cents(-150)
    ('24.08', '0.05', '-1.50')
    """
    sign = "-" if cents < 0 else ""
    units, fraction = divmod(abs(cents), _CENTS)
    return f"{sign}{units}.{fraction:0{DECIMALS}d}"


def format_money(cents: int, currency: str | None = None) -> str:
    """Cents for a person to read, in English: thousands separated, then the currency's code
    (none where a table's header names it).

    >>> format_money(1234500, "EUR"), format_money(5, "DKK"), format_money(-123456)
    ('12,345.00 EUR', '0.05 DKK', '-1,234.56')
    """
    sign = "-" if cents < 0 else ""
    units, fraction = divmod(abs(cents), _CENTS)
    figure = f"{sign}{units:,}.{fraction:0{DECIMALS}d}"
    return figure if currency is None else f"{figure} {currency}"


class RoundingPolicy(enum.StrEnum):
    """How a win that falls between cents is rounded to a payable amount.

    ``down`` (the default, as operators pay it) truncates toward zero; ``half_up`` rounds
    halves away from zero; ``half_even`` rounds halves to the even cent.
    """

    DOWN = "down"
    HALF_UP = "half_up"
    HALF_EVEN = "half_even"


def round_cents(amount: Fraction, policy: RoundingPolicy) -> int:
    """Round an exact non-negative amount of cents to whole cents under ``policy``.

    >>> from fractions import Fraction
    >>> win = Fraction(1235) * Fraction(19, 20)   # 12.35 at 0.95:1 is 11.7325
    >>> [round_cents(win, p) for p in RoundingPolicy]
    [1173, 1173, 1173]
    >>> half = Fraction(2345, 2)                  # exactly 11.725
    >>> [round_cents(half, p) for p in RoundingPolicy]
    [1172, 1173, 1172]
    >>> round_cents(Fraction(2347, 2), RoundingPolicy.HALF_EVEN)   # 11.735 -> 11.74
    1174
    """
    if amount < 0:
        raise ValueError("round_cents is for non-negative amounts")
    whole, remainder = divmod(amount.numerator, amount.denominator)
    if policy is RoundingPolicy.DOWN or remainder == 0:
        return whole
    twice = 2 * remainder
    if twice > amount.denominator:
        return whole + 1
    if twice < amount.denominator:
        return whole
    if policy is RoundingPolicy.HALF_UP:
        return whole + 1
    return whole + (whole % 2)


_RATIO = re.compile(r"(?P<num>[0-9]+(?:\.[0-9]+)?)(?:\s*[/:]\s*(?P<den>[0-9]+(?:\.[0-9]+)?))?")


def parse_ratio(text: object) -> Fraction:
    """Parse pay-table odds such as ``"8"``, ``"0.95"``, ``"19/20"`` or ``"3:2"`` exactly.

    >>> parse_ratio("0.95"), parse_ratio("19/20"), parse_ratio("1.5"), parse_ratio("3:2")
    (Fraction(19, 20), Fraction(19, 20), Fraction(3, 2), Fraction(3, 2))
    """
    if isinstance(text, (bool, float)):
        raise AmountError(f'odds must be written as a string such as "19/20", got {text!r}')
    if isinstance(text, int):
        return Fraction(text)
    if not isinstance(text, str):
        raise AmountError(f"odds must be a string, got {type(text).__name__}")
    match = _RATIO.fullmatch(text.strip())
    if match is None:
        if _RATIO.fullmatch(text.strip().removeprefix("-")):  # a number, below zero
            raise AmountError(f"odds {text!r} must be above zero")
        raise AmountError(f'odds {text!r} are not a number or ratio such as "8", "0.95", "19/20"')
    ratio = Fraction(Decimal(match["num"]))
    if match["den"] is not None:
        denominator = Fraction(Decimal(match["den"]))
        if denominator == 0:
            raise AmountError(f"odds {text!r} divide by zero")
        ratio /= denominator
    return ratio


def round_fraction(value: Fraction, places: int) -> Decimal:
    """Round an exact fraction to ``places`` decimals, halves up (away from zero), as a Decimal.

    Used wherever an exact ratio is shown: the 2-decimal win percentage, 6-decimal odds.

    >>> round_fraction(Fraction(9712, 100), 2), round_fraction(Fraction(1, 8), 2), round_fraction(Fraction(-1, 8), 2)
    (Decimal('97.12'), Decimal('0.13'), Decimal('-0.13'))
    """
    scale = 10**places
    scaled = abs(value) * scale
    whole, remainder = divmod(scaled.numerator, scaled.denominator)
    if 2 * remainder >= scaled.denominator:
        whole += 1
    sign = "-" if value < 0 and whole else ""
    # From text, every digit is kept: scaleb() would round to the context's 28 digits.
    return Decimal(f"{sign}{whole}E-{places}")


def round_apart(
    value: Fraction, bound: Fraction | Decimal, places: int = 2, most: int = 6
) -> Decimal:
    """``value`` rounded to ``places`` decimals (:func:`round_fraction`), or to more, up to
    ``most``, where it would show as ``bound`` though it is not: a message that compares a
    figure with a bound must not print them alike ("returns 100.00%: above 100%").

    >>> round_apart(Fraction(1000004, 10000), 100), round_apart(Fraction(989479, 10000), Decimal("98.95"))
    (Decimal('100.0004'), Decimal('98.948'))
    >>> round_apart(Fraction(9894, 100), Decimal("99.50")), round_apart(Fraction(100), 100)
    (Decimal('98.94'), Decimal('100.00'))
    """
    shown = round_fraction(value, places)
    while shown == bound and value != bound and places < most:
        places += 1
        shown = round_fraction(value, places)
    return shown


def exact_decimal(value: Fraction) -> Decimal | None:
    """The exact decimal of a fraction whose denominator has no prime but 2 and 5, else None.

    >>> exact_decimal(Fraction(19, 20)), exact_decimal(Fraction(8)), exact_decimal(Fraction(1, 3))
    (Decimal('0.95'), Decimal('8'), None)
    """
    denominator = value.denominator
    # A denominator holds fewer twos, and fewer fives, than it has bits: it divides 10**bits
    # exactly when it has no other prime, and the places are the least power of ten it divides.
    bits = denominator.bit_length()
    if 10**bits % denominator:
        return None
    places = next(power for power in range(bits) if 10**power % denominator == 0)
    return round_fraction(value, places)
