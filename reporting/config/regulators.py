"""The regulators whose games carry a disclosure, as data (``reporting/data/regulators.toml``).

A regulator's facts (the day its monthly figure is refreshed, the market's minimum RTP, the
game keys it requires, the sections of its own page) live in that one file, validated strictly
on load: an unknown key, or a game naming a regulator the file does not hold, is an error.
The warnings a regulator's facts give are worded once, in :mod:`reporting.figures.regulators`.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import cache
from pathlib import Path
from typing import Literal

import msgspec

from reporting.engine.money import DECIMALS

__all__ = [
    "CURRENCIES_PATH",
    "DEFAULT_UPDATE_DAY",
    "REGULATORS_PATH",
    "REQUIRABLE_KEYS",
    "Regulator",
    "currency_decimals",
    "currency_problem",
    "load_regulators",
    "regulator_of_country",
]

REGULATORS_PATH = Path(__file__).resolve().parent.parent / "data" / "regulators.toml"
#: The day a game without a regulator has its monthly figure refreshed (the ADM rule of
#: disclosures.md, which the tool applies to every game's disclosure file).
DEFAULT_UPDATE_DAY = 5
#: Game keys a regulator may require, with the words a warning names each one by
#: (``{regulator}`` is the regulator's id).
REQUIRABLE_KEYS: dict[str, str] = {
    "regulator_code": "{regulator} game code",
    "declared_rtp": "declared RTP",
    "opening_hours": "statement of opening hours",
}


class _Entry(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    country: str
    currency: str
    timezone: str
    licence: str
    market: str
    update_day: int | None = None
    required: list[Literal[tuple(REQUIRABLE_KEYS)]] = []  # type: ignore[valid-type]
    page_sections: list[Literal["disclosure"]] = []
    minimum_rtp: str | None = None


@dataclass(frozen=True, slots=True)
class Regulator:
    """One regulator: who it is and the facts its games' pages and checks depend on."""

    id: str
    name: str
    country: str  # ISO 3166 alpha-2: the jurisdiction its games name
    currency: str  # ISO 4217
    timezone: str  # IANA
    licence: str  # msgid: how a page names the operator's licence, with %(number)s
    update_day: int | None  # None: the regulator sets none (the tool's DEFAULT_UPDATE_DAY)
    market: str
    minimum_rtp: Decimal | None  # percent
    required: tuple[str, ...]
    page_sections: tuple[str, ...]

    @property
    def has_disclosure_page(self) -> bool:
        """Whether the regulator's games publish the disclosure block on a page of its own."""
        return "disclosure" in self.page_sections


@cache
def load_regulators(path: Path = REGULATORS_PATH) -> dict[str, Regulator]:
    """Every regulator of the file, by id; ValueError naming the file and key on bad data."""
    with path.open("rb") as handle:
        raw = tomllib.load(handle)
    unknown = set(raw) - {"regulators"}
    if unknown:
        raise ValueError(f"{path}: {sorted(unknown)[0]}: unknown key")
    regulators = {}
    for regulator_id, table in raw.get("regulators", {}).items():
        where = f"{path}: regulators.{regulator_id}"
        try:
            entry = msgspec.convert(table, _Entry)
        except msgspec.ValidationError as error:
            raise ValueError(f"{where}: {error}") from None
        if entry.update_day is not None and not 1 <= entry.update_day <= 28:
            raise ValueError(f"{where}.update_day: {entry.update_day} is not a day 1 to 28")
        _check_facts(where, entry)
        minimum = None
        if entry.minimum_rtp is not None:
            try:
                minimum = Decimal(entry.minimum_rtp)
            except InvalidOperation:
                raise ValueError(
                    f"{where}.minimum_rtp: {entry.minimum_rtp!r} is not a percentage"
                ) from None
        regulators[regulator_id] = Regulator(
            id=regulator_id,
            name=entry.name,
            country=entry.country,
            currency=entry.currency,
            timezone=entry.timezone,
            licence=entry.licence,
            update_day=entry.update_day,
            market=entry.market,
            minimum_rtp=minimum,
            required=tuple(entry.required),
            page_sections=tuple(entry.page_sections),
        )
    countries = [regulator.country for regulator in regulators.values()]
    if len(set(countries)) != len(countries):
        raise ValueError(
            f"{path}: two regulators of one country: a game's licence is named by its country"
        )
    return regulators


#: The currencies in use, with the decimals CLDR writes them in (``make currencies`` writes it).
CURRENCIES_PATH = REGULATORS_PATH.with_name("currencies.json")


@cache
def currency_decimals() -> dict[str, int]:
    """Each currency in use (legal tender somewhere, as CLDR lists them), by code, with the
    decimals CLDR writes its amounts in: those the pages print them in."""
    with CURRENCIES_PATH.open("rb") as handle:
        return json.load(handle)["decimals"]


def currency_problem(code: str) -> str | None:
    """Why ``code`` cannot be a game's currency (None: it can): it must be an ISO 4217 code
    in use, of :data:`~reporting.engine.money.DECIMALS` decimals as CLDR writes it. A
    currency of other decimals (JPY has none, KWD three) would have its amounts misread by
    the logs' hundredths and its pages' examples printed in units the engine does not pay
    in."""
    if not (len(code) == 3 and code.isascii() and code.isupper() and code.isalpha()):
        return f"{code!r} is not an ISO 4217 code such as EUR"
    decimals = currency_decimals().get(code)
    if decimals is None:
        return f"{code!r} is not an ISO 4217 code of a currency in use"
    if decimals != DECIMALS:
        return (
            f"{code} is counted in {decimals} decimals; round logs carry money in hundredths,"
            f" so a game's currency has {DECIMALS} decimals (EUR, DKK, SEK, ...)"
        )
    return None


def _check_facts(where: str, entry: _Entry) -> None:
    """A country, currency and time zone that exist, and licence words with their number."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    if not (len(entry.country) == 2 and entry.country.isupper() and entry.country.isalpha()):
        raise ValueError(f"{where}.country: {entry.country!r} is not an ISO 3166 code such as IT")
    problem = currency_problem(entry.currency)
    if problem:
        raise ValueError(f"{where}.currency: {problem}")
    try:
        ZoneInfo(entry.timezone)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"{where}.timezone: {entry.timezone!r} is not a time zone") from None
    if entry.licence.count("%(number)s") != 1 or "%" in entry.licence.replace("%(number)s", ""):
        raise ValueError(f"{where}.licence: the words must hold %(number)s once, and no other %")


def regulator_of_country(country: str) -> Regulator | None:
    """The regulator of a jurisdiction (ISO 3166), if the file holds one."""
    return next((r for r in load_regulators().values() if r.country == country), None)
