"""The bets a configuration may offer: the catalogue's, and the operator's own declared in
``[bets.ID]`` (their words in every language of the games that offer them, their rows held
to the counts of :mod:`reporting.engine.odds`, their pay keys their own)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from reporting.config.bets import (
    NAME_PATTERN,
    NAME_WRITTEN,
    catalogue_bets,
    check_rows_decide,
    declare_bets,
)
from reporting.config.keys import PAY_KEYS, PAY_TABLE_OWN_KEYS
from reporting.config.values import Choice, Key, PayValue, Problems
from reporting.engine.bets import BetRule

__all__ = ["OfferedBets"]


@dataclass(frozen=True)
class OfferedBets:
    """The bets a configuration may offer: the catalogue's and the operator's own, with the
    kinds of the keys that name them or their pays."""

    known: Mapping[str, BetRule]
    own: Mapping[str, BetRule]
    #: The ids of the file's bets whose declarations have problems.
    broken: frozenset[str] = frozenset()

    @classmethod
    def of(
        cls, operator: dict[str, Any], catalogue: dict[str, Any], problems: Problems
    ) -> OfferedBets:
        """The catalogue's bets and the ``[bets]`` of the operator's file (each one's words
        required in every language of the games that offer it)."""
        built_in = catalogue_bets()
        section = operator.get("bets", {})
        if not isinstance(section, dict):
            problems.add(("bets",), "must be a table of bets, e.g. [bets.monkey_6]")
            section = {}
        for bet_id in section:
            if bet_id in built_in:
                problems.add(("bets", bet_id), "is a built-in bet: give your own bet another id")
            elif not re.fullmatch(NAME_PATTERN, bet_id):
                problems.add(("bets", bet_id), f"a bet id is {NAME_WRITTEN}")
        section = {
            bet_id: body
            for bet_id, body in section.items()
            if bet_id not in built_in and re.fullmatch(NAME_PATTERN, bet_id)
        }
        languages = _languages_offering(section, operator.get("games", {}), catalogue)
        declared = declare_bets(section, problems, languages=languages)
        broken = (set(section) - set(declared)) | _check_own_pay_keys(declared, built_in, problems)
        own = {bet_id: bet for bet_id, bet in declared.items() if bet_id not in broken}
        for bet_id, bet in own.items():
            check_rows_decide(bet, problems, ("bets", bet_id))
        return cls(known={**built_in, **own}, own=own, broken=frozenset(broken))

    @property
    def choice(self) -> Choice:
        """A bet id of the catalogue or of the operator's file (one whose declaration has
        problems too: they are noted at the declaration, not again where a game names it)."""
        return Choice((*self.known, *sorted(self.broken)), "bet type")

    def pay_keys(self) -> dict[str, Key]:
        """Every pay key a pay table or a game's ``pay`` may set."""
        keys = dict(PAY_KEYS)
        for bet in self.own.values():
            for key in bet.pay_keys:
                keys.setdefault(key, Key(PayValue(), f"what the {bet.id} bet pays"))
        return keys


def _check_own_pay_keys(
    own: Mapping[str, BetRule], built_in: Mapping[str, BetRule], problems: Problems
) -> set[str]:
    """A pay key names one pay: an own row may not take a catalogue bet's key, and rows that
    share a key must pay the same by default. The ids of the bets with a problem."""
    catalogue_keys = {key: bet.id for bet in built_in.values() for key in bet.pay_keys}
    defaults: dict[str, tuple[str, object]] = {}
    broken: set[str] = set()
    for bet_id, bet in own.items():
        for number, row in enumerate(bet.rows, start=1):
            if row.key is None:
                continue
            where = ("bets", bet_id, "rows", str(number), "key")
            if row.key in catalogue_keys:
                problems.add(
                    where,
                    f"{row.key!r} is a pay key of the {catalogue_keys[row.key]} bet: give the"
                    " row a key of its own",
                )
                broken.add(bet_id)
                continue
            if row.key in PAY_TABLE_OWN_KEYS:
                problems.add(
                    where,
                    f"{row.key!r} is a pay table's own key, not a bet's pay: give the row a key"
                    " of its own",
                )
                broken.add(bet_id)
                continue
            first = defaults.setdefault(row.key, (bet_id, row.default))
            if first[1] != row.default:
                problems.add(
                    where,
                    f"{row.key!r} pays differently in the {first[0]} bet: rows that share a key"
                    " share its pay",
                )
                broken.add(bet_id)
    return broken


def _languages_offering(
    section: Mapping[str, Any], games: Any, catalogue: dict[str, Any]
) -> dict[str, tuple[str, ...]]:
    """Each own bet's languages: those of every game of the file that lists it."""
    languages: dict[str, list[str]] = {bet_id: [] for bet_id in section}
    if not isinstance(games, dict):
        return {bet_id: () for bet_id in section}
    for game_id, override in games.items():
        if not isinstance(override, dict):
            continue
        named = override.get("base", game_id)  # not yet checked: any TOML value
        base = catalogue.get("games", {}).get(named, {}) if isinstance(named, str) else {}
        offered = override.get("bets", base.get("bets", []))
        spoken = override.get("languages", base.get("languages", []))
        if not isinstance(offered, list) or not isinstance(spoken, list):
            continue
        for bet_id in offered:
            if isinstance(bet_id, str) and bet_id in languages:
                languages[bet_id] += [lang for lang in spoken if isinstance(lang, str)]
    return {bet_id: tuple(dict.fromkeys(spoken)) for bet_id, spoken in languages.items()}
