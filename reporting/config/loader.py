"""Loading the game catalogue and an operator configuration into validated :class:`GameSpec` records.

The catalogue (``reporting/data/catalogue.toml``) holds the published variants. An operator
configuration (TOML) selects games from it, overrides any key, and may define games of its
own on a catalogue ``base``. Unknown keys and impossible values are errors that name the file
and the key, all collected and reported together.
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
import zoneinfo
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Literal

import msgspec

from reporting.config.languages import SUPPORTED_LANGUAGES
from reporting.config.regulators import load_regulators
from reporting.engine.bets import BONUS_MARGINS, BetType, PayTable
from reporting.engine.games import GameSpec, StakeLimits
from reporting.engine.money import AmountError, RoundingPolicy, parse_amount, parse_ratio

__all__ = [
    "CATALOGUE_PATH",
    "SUPPORTED_LANGUAGES",
    "ConfigError",
    "OperatorConfig",
    "default_config_path",
    "load_catalogue",
    "load_config",
]

CATALOGUE_PATH = Path(__file__).resolve().parent.parent / "data" / "catalogue.toml"


class ConfigError(Exception):
    """One or more problems in a configuration file, each naming the file and the key."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("; ".join(problems))


class _Limits(msgspec.Struct, forbid_unknown_fields=True):
    min: str
    max: str
    per_bet: dict[str, dict[str, str]] = {}


class _Game(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    kind: Literal["live", "rng"]
    jurisdiction: str
    decks: int
    reshuffle_every_round: bool
    cut_card_depth: int
    bets: list[str]
    pay_table: str
    rounding: str
    limits: _Limits
    below_minimum: Literal["reject"]
    above_maximum: Literal["cap", "reject"]
    exclusive_bets: list[list[str]]
    currency: str
    timezone: str
    opening_hours: str
    languages: list[str]
    pay: dict[str, Any] = {}
    perfect_pair: Literal["A", "B"] | None = None
    regulator: str | None = None
    regulator_code: str | None = None
    declared_rtp: str | None = None
    statistics_reset: str | None = None
    version: str | None = None


_GAME_KEYS = set(_Game.__struct_fields__)
#: Keys of a ``[pay_tables.X]`` table: the pay table's own fields (a new bet's odds field is
#: one), ``base``, and ``bonus_natural_tie`` ("push" or "lose") for the boolean field.
_PAY_TABLE_KEYS = {
    field.name for field in dataclasses.fields(PayTable) if field.name != "bonus_natural_tie_push"
} | {"base", "bonus_natural_tie"}
_GAME_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


@dataclass(frozen=True)
class OperatorConfig:
    """The operator's name and the games it runs, by id."""

    name: str
    games: dict[str, GameSpec]
    source: Path | None

    def game(self, game_id: str) -> GameSpec:
        """The game with this id, or a :class:`ConfigError` listing the configured ones."""
        try:
            return self.games[game_id]
        except KeyError:
            known = ", ".join(sorted(self.games)) or "none"
            where = self.source or "the built-in catalogue"
            raise ConfigError(
                [f"{where}: no game {game_id!r} is configured (known: {known})"]
            ) from None


def default_config_path() -> Path | None:
    """The shipped sample configuration when running from a source checkout, else None."""
    candidate = Path(__file__).resolve().parents[2] / "sample_data" / "operator.toml"
    return candidate if candidate.is_file() else None


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise ConfigError([f"{path}: file not found"]) from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError([f"{path}: not valid TOML: {error}"]) from None


def load_catalogue() -> OperatorConfig:
    """Every game of the built-in catalogue, unmodified."""
    raw = _read_toml(CATALOGUE_PATH)
    return _build(raw, {"games": {game: {} for game in raw.get("games", {})}}, None)


def load_config(path: Path | None) -> OperatorConfig:
    """Load an operator configuration on top of the catalogue (the catalogue alone if None)."""
    if path is None:
        return load_catalogue()
    return _build(_read_toml(CATALOGUE_PATH), _read_toml(path), path)


def _build(
    catalogue: dict[str, Any], operator: dict[str, Any], source: Path | None
) -> OperatorConfig:
    problems: list[str] = []
    where = str(source) if source else str(CATALOGUE_PATH)
    name = _operator_name(operator, where, problems)
    pay_tables = dict(catalogue.get("pay_tables", {}))
    for table_name, table in operator.get("pay_tables", {}).items():
        pay_tables[table_name] = table
    selected = operator.get("games", {})
    if not isinstance(selected, dict) or not selected:
        problems.append(f"{where}: games: list at least one game, e.g. [games.live-baccarat-it]")
        raise ConfigError(problems)

    games: dict[str, GameSpec] = {}
    for game_id, override in selected.items():
        entry = _game_entry(game_id, override, catalogue, where, problems)
        if entry is None:
            continue
        spec = _game_spec(game_id, entry, pay_tables, f"{where}: games.{game_id}", problems)
        if spec is not None:
            games[game_id] = spec
    if problems:
        raise ConfigError(problems)
    return OperatorConfig(name=name, games=games, source=source)


def _operator_name(operator: dict[str, Any], where: str, problems: list[str]) -> str:
    """The operator's name; unknown top-level and ``[operator]`` keys are problems."""
    unknown_top = set(operator) - {"operator", "games", "pay_tables"}
    problems += [f"{where}: {key}: unknown key" for key in sorted(unknown_top)]
    operator_section = operator.get("operator", {})
    if not isinstance(operator_section, dict):
        problems.append(f"{where}: operator: must be a table")
        operator_section = {}
    problems += [
        f"{where}: operator.{key}: unknown key" for key in sorted(set(operator_section) - {"name"})
    ]
    return operator_section.get("name", "Operator")


def _game_entry(
    game_id: str, override: Any, catalogue: dict[str, Any], file: str, problems: list[str]
) -> _Game | None:
    """One game of the operator file merged onto its catalogue base, type-checked; None (and
    the problems noted) when it cannot be."""
    key = f"games.{game_id}"
    where = f"{file}: {key}"
    if not isinstance(override, dict):
        problems.append(f"{where}: must be a table")
        return None
    if not _GAME_ID.fullmatch(game_id):
        problems.append(f"{where}: a game id is lower-case words joined by '-'")
        return None
    override = dict(override)
    base_id = override.pop("base", game_id)
    base = catalogue.get("games", {}).get(base_id)
    if base is None:
        known = ", ".join(sorted(catalogue.get("games", {})))
        problems.append(f"{where}: not a catalogue game; set base = one of {known} to define it")
        return None
    for unknown in sorted(set(override) - _GAME_KEYS):
        problems.append(f"{where}.{unknown}: unknown key")
    merged = dict(base) | {k: v for k, v in override.items() if k in _GAME_KEYS}
    if isinstance(override.get("limits"), dict) and isinstance(base.get("limits"), dict):
        merged["limits"] = base["limits"] | override["limits"]
    try:
        return msgspec.convert(merged, _Game)
    except msgspec.ValidationError as error:
        problems.append(f"{file}: {_msgspec_key(key, str(error))}")
        return None


def _msgspec_key(prefix: str, message: str) -> str:
    """Turn msgspec's ``... - at `$.limits.min``` into ``games.X.limits.min: ...``."""
    text, _, path = message.rpartition(" - at `")
    if not text:
        return f"{prefix}: {message}"
    path = path.rstrip("`").removeprefix("$").lstrip(".")
    return f"{prefix}{'.' + path if path else ''}: {text}"


def _bet(value: str, where: str, problems: list[str]) -> BetType | None:
    try:
        return BetType(value)
    except ValueError:
        known = " ".join(bet.value for bet in BetType)
        problems.append(f"{where}: unknown bet type {value!r} (known: {known})")
        return None


def _limits(raw: dict[str, str], where: str, problems: list[str]) -> StakeLimits | None:
    try:
        minimum = parse_amount(raw["min"], allow_zero=False)
        maximum = parse_amount(raw["max"], allow_zero=False)
    except KeyError as missing:
        problems.append(f"{where}: missing {missing.args[0]}")
        return None
    except AmountError as error:
        problems.append(f"{where}: {error}")
        return None
    if minimum > maximum:
        problems.append(f"{where}: min {raw['min']} is above max {raw['max']}")
        return None
    return StakeLimits(minimum, maximum)


def _pay_table(
    name: str, tables: dict[str, Any], where: str, problems: list[str], seen: tuple[str, ...] = ()
) -> dict[str, Any] | None:
    if name in seen:
        problems.append(f"{where}: pay table {name!r} is its own base")
        return None
    table = tables.get(name)
    if not isinstance(table, dict):
        problems.append(f"{where}: no pay table {name!r} (known: {', '.join(sorted(tables))})")
        return None
    for unknown in sorted(set(table) - _PAY_TABLE_KEYS):
        problems.append(f"{where}: pay_tables.{name}.{unknown}: unknown key")
    if "base" in table:
        base = _pay_table(table["base"], tables, where, problems, (*seen, name))
        if base is None:
            return None
    else:
        base = (
            {}
            if name == "standard"
            else _pay_table("standard", tables, where, problems, (*seen, name))
        )
        if base is None:
            return None
    return _merge_pay(base, {k: v for k, v in table.items() if k != "base"})


def _merge_pay(base: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """Overlay pay-table changes on a base; bonus margins merge row by row, and a table that
    pays both perfect pairs as one (variant A) keeps doing so when the one-hand odds change."""
    merged = base | changes
    if isinstance(base.get("bonus_margins"), dict) and isinstance(
        changes.get("bonus_margins"), dict
    ):
        merged["bonus_margins"] = base["bonus_margins"] | changes["bonus_margins"]
    variant_a = base.get("perfect_pair_both", base.get("perfect_pair_one")) == base.get(
        "perfect_pair_one"
    )
    if variant_a and "perfect_pair_one" in changes and "perfect_pair_both" not in changes:
        merged["perfect_pair_both"] = changes["perfect_pair_one"]
    return merged


def _build_pay_table(raw: dict[str, Any], where: str, problems: list[str]) -> PayTable | None:
    values: dict[str, Any] = {}
    try:
        for key, text in raw.items():
            if key == "bonus_margins":
                margins = {int(margin): parse_ratio(odds) for margin, odds in text.items()}
                unknown = set(margins) - set(BONUS_MARGINS)
                if unknown:
                    problems.append(
                        f"{where}: bonus_margins: margins {sorted(unknown)} are not 4-9"
                    )
                    return None
                values[key] = tuple(sorted(margins.items(), reverse=True))
            elif key == "bonus_natural_tie":
                if text not in ("push", "lose"):
                    problems.append(f"{where}: bonus_natural_tie: must be 'push' or 'lose'")
                    return None
                values["bonus_natural_tie_push"] = text == "push"
            elif key in _PAY_TABLE_KEYS:
                values[key] = parse_ratio(text)
                if values[key] <= 0:
                    problems.append(f"{where}: {key}: odds must be above zero")
                    return None
            else:
                problems.append(f"{where}: pay.{key}: unknown key")
                return None
    except (AmountError, ValueError, AttributeError) as error:
        problems.append(f"{where}: pay table: {error}")
        return None
    return PayTable(**values)


def _game_spec(
    game_id: str, entry: _Game, pay_tables: dict[str, Any], where: str, problems: list[str]
) -> GameSpec | None:
    """The validated game, or None with every problem of the entry noted (in key order of the
    checks below, so that one run lists them all)."""
    before = len(problems)
    _check_shoe(entry, where, problems)
    offered = _offered_bets(entry, where, problems)
    rounding = _rounding(entry, where, problems)
    table = _game_pay_table(entry, pay_tables, where, problems)
    limits = _game_limits(entry, offered, where, problems)
    groups = _exclusive_groups(entry, offered, where, problems)
    _check_market(entry, where, problems)
    declared = _declared_rtp(entry, where, problems)
    _check_presentation(entry, where, problems)
    if len(problems) > before or table is None:
        return None
    return GameSpec(
        id=game_id,
        name=entry.name,
        kind=entry.kind,
        jurisdiction=entry.jurisdiction,
        decks=entry.decks,
        reshuffle_every_round=entry.reshuffle_every_round,
        cut_card_depth=entry.cut_card_depth,
        bets=offered,
        pay_table=table,
        rounding=rounding,
        limits=tuple(limits),
        below_minimum=entry.below_minimum,
        above_maximum=entry.above_maximum,
        exclusive_bets=tuple(groups),
        currency=entry.currency,
        timezone=entry.timezone,
        regulator=entry.regulator,
        regulator_code=entry.regulator_code,
        declared_rtp=declared,
        opening_hours=entry.opening_hours,
        statistics_reset=entry.statistics_reset,
        version=entry.version,
        languages=tuple(entry.languages),
    )


def _check_shoe(entry: _Game, where: str, problems: list[str]) -> None:
    if not 1 <= entry.decks <= 8:
        problems.append(f"{where}.decks: {entry.decks} is not 1 to 8")
    if not 0 <= entry.cut_card_depth < 52 * max(entry.decks, 1) - 6:
        problems.append(f"{where}.cut_card_depth: {entry.cut_card_depth} does not fit the shoe")


def _offered_bets(entry: _Game, where: str, problems: list[str]) -> tuple[BetType, ...]:
    bets = [_bet(value, f"{where}.bets", problems) for value in entry.bets]
    offered = tuple(bet for bet in bets if bet is not None)
    if len(set(offered)) != len(offered):
        problems.append(f"{where}.bets: a bet type is listed twice")
    if not offered:
        problems.append(f"{where}.bets: offer at least one bet")
    return offered


def _rounding(entry: _Game, where: str, problems: list[str]) -> RoundingPolicy:
    try:
        return RoundingPolicy(entry.rounding)
    except ValueError:
        known = ", ".join(policy.value for policy in RoundingPolicy)
        problems.append(f"{where}.rounding: {entry.rounding!r} is not one of {known}")
        return RoundingPolicy.DOWN


def _game_pay_table(
    entry: _Game, pay_tables: dict[str, Any], where: str, problems: list[str]
) -> PayTable | None:
    raw_table = _pay_table(entry.pay_table, pay_tables, f"{where}.pay_table", problems)
    if raw_table is None:
        return None
    raw_table = _merge_pay(raw_table, entry.pay)
    if entry.perfect_pair is not None:
        one = raw_table.get("perfect_pair_one", "25")
        raw_table["perfect_pair_both"] = one if entry.perfect_pair == "A" else "200"
    return _build_pay_table(raw_table, f"{where}.pay", problems)


def _game_limits(
    entry: _Game, offered: tuple[BetType, ...], where: str, problems: list[str]
) -> list[tuple[BetType, StakeLimits]]:
    """Each offered bet's limits: the game's, or its own ``per_bet`` overrides."""
    default_limits = _limits(
        {"min": entry.limits.min, "max": entry.limits.max}, f"{where}.limits", problems
    )
    for bet_name, raw in entry.limits.per_bet.items():
        bet = _bet(bet_name, f"{where}.limits.per_bet", problems)
        if bet is not None and bet not in offered:
            problems.append(f"{where}.limits.per_bet.{bet_name}: the game does not offer this bet")
        unknown = set(raw) - {"min", "max"}
        if unknown:
            problems.append(f"{where}.limits.per_bet.{bet_name}.{sorted(unknown)[0]}: unknown key")
    if default_limits is None:
        return []
    limits = []
    for bet in offered:
        raw = entry.limits.per_bet.get(bet.value)
        if raw is None:
            limits.append((bet, default_limits))
            continue
        merged = {"min": raw.get("min", entry.limits.min), "max": raw.get("max", entry.limits.max)}
        bet_limits = _limits(merged, f"{where}.limits.per_bet.{bet.value}", problems)
        if bet_limits is not None:
            limits.append((bet, bet_limits))
    return limits


def _exclusive_groups(
    entry: _Game, offered: tuple[BetType, ...], where: str, problems: list[str]
) -> list[frozenset[BetType]]:
    groups = []
    for group in entry.exclusive_bets:
        members = frozenset(
            b for b in (_bet(v, f"{where}.exclusive_bets", problems) for v in group) if b
        )
        if len(members) < 2 or not members <= set(offered):
            problems.append(f"{where}.exclusive_bets: {group} must name two or more offered bets")
        groups.append(members)
    return groups


def _check_market(entry: _Game, where: str, problems: list[str]) -> None:
    """Currency, jurisdiction, time zone and regulator."""
    if not re.fullmatch(r"[A-Z]{3}", entry.currency):
        problems.append(f"{where}.currency: {entry.currency!r} is not an ISO 4217 code such as EUR")
    if not re.fullmatch(r"[A-Z]{2}", entry.jurisdiction):
        problems.append(
            f"{where}.jurisdiction: {entry.jurisdiction!r} is not a country code such as IT"
        )
    try:
        zoneinfo.ZoneInfo(entry.timezone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        problems.append(
            f"{where}.timezone: {entry.timezone!r} is not an IANA time zone such as Europe/Rome"
        )


def _declared_rtp(entry: _Game, where: str, problems: list[str]) -> Decimal | None:
    if entry.declared_rtp is None:
        return None
    try:
        declared = Decimal(entry.declared_rtp)
    except InvalidOperation:
        declared = None
    if (
        declared is None
        or not declared.is_finite()
        or not 0 < declared <= 100
        or declared.as_tuple().exponent < -2
    ):
        problems.append(
            f'{where}.declared_rtp: {entry.declared_rtp!r} is not a percentage such as "99.50"'
        )
        return None
    return declared


def _check_presentation(entry: _Game, where: str, problems: list[str]) -> None:
    """Languages, regulator, statistics reset time, and a cut card a reshuffled shoe cannot have."""
    for language in entry.languages:
        if language not in SUPPORTED_LANGUAGES:
            problems.append(
                f"{where}.languages: {language!r} has no catalogue (have: {', '.join(SUPPORTED_LANGUAGES)})"
            )
    regulators = load_regulators()
    if entry.regulator is not None and entry.regulator not in regulators:
        problems.append(
            f"{where}.regulator: {entry.regulator!r} is not a known regulator"
            f" (known: {', '.join(sorted(regulators))})"
        )
    if entry.statistics_reset is not None and not re.fullmatch(
        r"([01][0-9]|2[0-3]):[0-5][0-9]", entry.statistics_reset
    ):
        problems.append(
            f"{where}.statistics_reset: {entry.statistics_reset!r} is not a time such as 00:01"
        )
    if entry.reshuffle_every_round and entry.kind == "live" and entry.cut_card_depth:
        problems.append(f"{where}.cut_card_depth: a shoe reshuffled every round has no cut card")
