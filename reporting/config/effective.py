"""The effective configuration: every game with every key, defaults filled in, as a document
that the loader reads back to the same games (``baccarat-report check --show``)."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from reporting.config.loader import OperatorConfig
from reporting.engine.bets import BetRule, Pay, PayTable, Wording
from reporting.engine.facts import FACTS
from reporting.engine.games import GameSpec
from reporting.engine.money import format_cents

__all__ = ["effective_document", "to_toml"]

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _odds_text(odds: Fraction) -> str:
    """``Fraction(19, 20)`` -> ``"19/20"``; ``Fraction(8)`` -> ``"8"``: exact, as the catalogue writes odds."""
    return str(odds.numerator) if odds.denominator == 1 else f"{odds.numerator}/{odds.denominator}"


def _pay_text(pay: Pay) -> str:
    """A pay as the file writes it: ``"19/20"``, ``"push"``."""
    return _odds_text(pay) if isinstance(pay, Fraction) else str(pay)


def _pay(table: PayTable) -> dict[str, Any]:
    """Every pay key of the game's bets, as the file writes it."""
    return {key: _pay_text(pay) for key, pay in table.pays}


def _words(wording: Wording) -> dict[str, str]:
    return dict(wording.by_language)


def _bet(bet: BetRule) -> dict[str, Any]:
    """An operator's own bet as its ``[bets.ID]`` declares it (conditions in the order written,
    a condition's values in the order of the fact's values, one value written alone)."""
    rows = []
    for row in bet.rows:
        when: dict[str, Any] = {}
        for name, values in row.when:
            ordered = [value for value in FACTS[name].values if value in values]
            when[name] = ordered[0] if len(ordered) == 1 else ordered
        written: dict[str, Any] = {"when": when}
        if row.key is not None:
            written["key"] = row.key
        rows.append(written | {"pays": _pay_text(row.default), "says": _words(row.says)})
    return {
        "group": bet.group.value,
        "name": _words(bet.name),
        "wins": _words(bet.wins),
        "rows": rows,
    }


def _limits(game: GameSpec) -> dict[str, Any]:
    """The game's most common limits as min and max, the others per bet."""
    common = Counter(limits for _, limits in game.limits).most_common(1)[0][0]
    document: dict[str, Any] = {
        "min": format_cents(common.minimum),
        "max": format_cents(common.maximum),
    }
    per_bet = {
        bet: {"min": format_cents(limits.minimum), "max": format_cents(limits.maximum)}
        for bet, limits in game.limits
        if limits != common
    }
    return document | ({"per_bet": per_bet} if per_bet else {})


def _game(game: GameSpec, base: str, pay_table: str) -> dict[str, Any]:
    document: dict[str, Any] = {} if base == game.id else {"base": base}
    document |= {
        "name": game.name,
        "kind": game.kind,
        "jurisdiction": game.jurisdiction,
        "decks": game.decks,
        "reshuffle_every_round": game.reshuffle_every_round,
        "bets": [bet.id for bet in game.bets],
        "pay_table": pay_table,
        "pay": _pay(game.pay_table),
        "rounding": game.rounding.value,
        "limits": _limits(game),
        "below_minimum": game.below_minimum,
        "above_maximum": game.above_maximum,
        "exclusive_bets": [sorted(group) for group in game.exclusive_bets],
        "currency": game.currency,
        "timezone": game.timezone,
        "languages": list(game.languages),
        # empty too: a base's scoreboard would come back (a shoe reshuffled every round
        # keeps none, and refuses one)
        "scoreboard": list(game.scoreboard),
    }
    optional = {
        "cut_card_depth": game.cut_card_depth,
        "opening_hours": game.opening_hours,
        "availability_gap_minutes": game.availability_gap_minutes,
        "regulator": game.regulator,
        "regulator_code": game.regulator_code,
        "declared_rtp": None if game.declared_rtp is None else str(game.declared_rtp),
        "declared_rtp_reference": game.declared_rtp_reference,
        "statistics_reset": game.statistics_reset,
        "version": game.version,
        "tables": list(game.tables) or None,
        "words": {language: dict(hands) for language, hands in game.words} or None,
    }
    return document | {key: value for key, value in optional.items() if value is not None}


def _operator(config: OperatorConfig) -> dict[str, Any]:
    """``[operator]`` as loaded: paths absolute (the document may be read from elsewhere)."""
    operator = config.operator
    optional = {
        "licences": dict(sorted(operator.licences.items())) or None,
        "logo": None if operator.logo is None else str(operator.logo.path),
        "accent_colour": operator.accent_colour,
        "templates": None if operator.templates is None else str(operator.templates),
    }
    return {"name": config.name} | {key: value for key, value in optional.items() if value}


def effective_document(
    config: OperatorConfig, profile_files: Mapping[str, Path] | None = None
) -> dict[str, Any]:
    """Every key of every configured game as the loader resolved it. ``profile_files``: the
    file each inbox rule's profile names, where it names one (not a built-in profile), by
    the reference as written: written absolute, the document may be read from elsewhere."""
    files = profile_files or {}
    games = {}
    for game_id, game in config.games.items():
        origin = config.origins.get(game_id)
        base, pay_table = (origin.base, origin.pay_table) if origin else (game_id, "standard")
        games[game_id] = _game(game, base, pay_table)
    document: dict[str, Any] = {"operator": _operator(config)}
    if config.inbox_rules:
        document["inbox"] = {
            "profiles": [
                {
                    key: value
                    for key, value in (
                        ("folder", rule.folder),
                        ("pattern", rule.pattern),
                        ("profile", str(files.get(rule.profile, rule.profile))),
                    )
                    if value is not None
                }
                for rule in config.inbox_rules
            ]
        }
    if config.own_bets:
        document["bets"] = {bet_id: _bet(bet) for bet_id, bet in config.own_bets.items()}
    if config.pay_tables:
        document["pay_tables"] = {
            name: _pay_rows(table) for name, table in config.pay_tables.items()
        }
    return document | {"games": games}


def _pay_rows(table: Mapping[str, Any]) -> dict[str, Any]:
    """A resolved pay table of the loader (odds as Fractions) as the file writes it."""
    rows: dict[str, Any] = {}
    for key, value in table.items():
        if key == "bonus_margins":
            rows[key] = {margin: _odds_text(odds) for margin, odds in value.items()}
        elif isinstance(value, Fraction):
            rows[key] = _odds_text(value)
        else:
            rows[key] = value
    return rows


def _key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else _string(key)


def _string(text: str) -> str:
    # JSON's escapes are TOML's, but for DEL, which TOML does not allow unescaped.
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    if isinstance(value, dict):
        inner = ", ".join(f"{_key(key)} = {_value(item)}" for key, item in value.items())
        return "{ " + inner + " }" if inner else "{}"
    raise TypeError(f"no TOML for {type(value).__name__}")


def to_toml(document: dict[str, Any]) -> str:
    """TOML text of a document of tables of keys (the shape :func:`effective_document` gives):
    one ``[section]`` or ``[section.name]`` per table, nested values written inline."""
    lines: list[str] = []

    def table(header: str, keys: dict[str, Any]) -> None:
        lines.extend(["", f"[{header}]"] if lines else [f"[{header}]"])
        for key, value in keys.items():
            if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
                # A list of tables (a bet's pay rows): one a line, as the catalogue writes them.
                lines.append(f"{_key(key)} = [")
                lines.extend(f"  {_value(item)}," for item in value)
                lines.append("]")
            else:
                lines.append(f"{_key(key)} = {_value(value)}")

    for section, content in document.items():
        nested = all(isinstance(value, dict) for value in content.values()) and content
        if nested and section != "operator":
            for name, keys in content.items():
                table(f"{_key(section)}.{_key(name)}", keys)
        else:
            table(_key(section), content)
    return "\n".join(lines) + "\n"
