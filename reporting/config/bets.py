"""Bet declarations: the catalogue's (``reporting/data/bets.toml``) and the operator's own.

Both are read by :func:`declare_bets` with the same vocabulary: a bet is a group, its words and
its pay rows (``when`` conditions on the facts of :data:`~reporting.engine.facts.FACTS`, a
``pays`` default, an optional ``key``, and ``says``). The catalogue's words are msgids that the
gettext catalogues translate; the operator's are given in each of its games' languages, as
``{ it = "...", en = "..." }``.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from reporting.config.languages import SUPPORTED_LANGUAGES
from reporting.config.values import (
    MISSING,
    PayValue,
    Problems,
    is_one_line,
    shown,
    shows_something,
    suggestion,
    text_fault,
)
from reporting.engine.bets import BetGroup, BetResult, BetRule, Pay, PayRow, Wording
from reporting.engine.facts import FACTS
from reporting.engine.money import AmountError, parse_ratio
from reporting.engine.odds import MAX_DECKS, row_reach

__all__ = [
    "BETS_PATH",
    "BET_KEYS",
    "NAME_PATTERN",
    "ROW_KEYS",
    "as_read",
    "catalogue_bets",
    "check_rows_decide",
    "declare_bets",
    "parse_pay",
]

BETS_PATH = Path(__file__).resolve().parent.parent / "data" / "bets.toml"
#: An operator's bet id, or a pay key of its rows: lower-case letters, digits and _.
NAME_PATTERN = r"[a-z][a-z0-9_]{0,63}"
#: :data:`NAME_PATTERN` in words, for a message.
NAME_WRITTEN = "a lower-case letter, then lower-case letters, digits and _, at most 64 in all"

#: How :data:`BET_KEYS` says a key is the catalogue's alone.
_CATALOGUE_ONLY = "(catalogue only)"
#: The keys of a bet declaration, with what each holds.
BET_KEYS: Mapping[str, str] = MappingProxyType(
    {
        "group": 'where the pages list it: "main", "side" or "bonus"',
        "name": "its name on the pages",
        "wins": "when it wins, one sentence",
        "wins_plural": f"{_CATALOGUE_ONLY} the sentence's plural, counting the cards dealt",
        "wins_holds": f"{_CATALOGUE_ONLY} what the pays must be for the sentence to stay true",
        "rows": "its pay rows, tried in order: the first that holds decides the bet",
    }
)
#: The keys of :data:`BET_KEYS` an operator's own bet may write: a msgid's plural is the
#: catalogue's (an operator writes each language's sentence itself).
OWN_BET_KEYS = tuple(key for key, said in BET_KEYS.items() if not said.startswith(_CATALOGUE_ONLY))
#: The keys of a pay row.
ROW_KEYS: Mapping[str, str] = MappingProxyType(
    {
        "when": "the conditions, all of which must hold: { FACT = VALUE or [VALUES] }",
        "pays": 'odds "to 1" such as "12" or "1/2", "push" (the stake returned) or "lose"',
        "key": "the name of its pay, which a game's pay = { KEY = ... } may change",
        "says": "when the row applies, for the pages",
    }
)
_TEXT_KEYS = ("name", "wins", "says")


def parse_pay(value: object) -> Pay:
    """A row's pay: odds "to 1" (above zero), or ``"push"`` / ``"lose"``.

    >>> parse_pay("1/2"), parse_pay("push")
    (Fraction(1, 2), <BetResult.PUSH: 'push'>)
    """
    if value in ("push", "lose"):
        return BetResult(value)
    odds = parse_ratio(value)
    if odds <= 0:
        raise AmountError(f"odds must be above zero, got {value!r}")
    return odds


def as_read(pay: object) -> object:
    """A pay as a table writes it (odds as text, ``"push"``, ``"lose"``) or as read, as read.

    >>> as_read("9"), as_read(Fraction(9))
    (Fraction(9, 1), Fraction(9, 1))
    """
    return parse_pay(pay) if isinstance(pay, str) else pay


#: The most characters of an operator's own bet's name, and of a sentence of it (what it wins
#: on, a row's words): a page's table cell, not a page (an 810 KB name printed 349 pages in
#: minutes). A game's name is held to the first; the catalogue's longest sentence has 124.
OWN_NAME_CHARS = 100
OWN_SENTENCE_CHARS = 300


def _wording(
    value: Any,
    path: tuple[str, ...],
    problems: Problems,
    languages: tuple[str, ...] | None,
    bound: int = OWN_SENTENCE_CHARS,
) -> Wording:
    """A msgid (``languages`` None: the catalogue) or the operator's text per language, each
    of at most ``bound`` characters."""
    if languages is None:
        if isinstance(value, str) and value.strip():
            if not is_one_line(value):
                problems.add(path, text_fault(value))
            return Wording(msgid=value)
        problems.add(path, "must be a sentence in English (a msgid)")
        return Wording()
    if not isinstance(value, dict):
        problems.add(path, 'must give the text in each language, e.g. { en = "...", it = "..." }')
        return Wording()
    texts = []
    for language, text in value.items():
        if language not in SUPPORTED_LANGUAGES:
            known = ", ".join(SUPPORTED_LANGUAGES)
            problems.add((*path, language), f"not a language of the pages (they are {known})")
        elif not isinstance(text, str) or not text.strip():
            problems.add((*path, language), "must be a text")
        elif len(text) > bound:
            problems.add((*path, language), f"is {len(text):,} characters long; at most {bound}")
        elif not is_one_line(text):
            problems.add((*path, language), text_fault(text))
        elif not shows_something(text):
            problems.add((*path, language), f"{shown(text)} has no character that shows")
        else:
            texts.append((language, text.strip()))
    missing = [language for language in languages if language not in value]
    if missing:
        problems.add(path, f"missing the text in {', '.join(missing)} (a language of its games)")
    return Wording(by_language=tuple(sorted(texts)))


def _condition(
    name: str, raw: Any, path: tuple[str, ...], problems: Problems
) -> tuple[str, frozenset[object]] | None:
    fact = FACTS.get(name)
    if fact is None:
        known = ", ".join(FACTS)
        problems.add(path, f"unknown fact; the facts are {known}{suggestion(name, FACTS)}")
        return None
    values = raw if isinstance(raw, list) else [raw]
    allowed = []
    for value in values:
        # TOML's true is not 1: compare types as well as values.
        if not any(type(value) is type(known) and value == known for known in fact.values):
            values_of = ", ".join(str(known).lower() for known in fact.values)
            problems.add(path, f"{shown(value)} is not a value of {name} ({values_of})")
            continue
        allowed.append(value)
    if not allowed:
        if not values:
            problems.add(path, "an empty list never holds")
        return None
    return name, frozenset(allowed)


def _conditions(
    when: Any, path: tuple[str, ...], problems: Problems
) -> list[tuple[str, frozenset[object]]]:
    """A row's conditions (``when``), each checked."""
    if when is None or when == {}:
        problems.add(path, 'missing: the conditions, e.g. { winner = "banker" }')
        return []
    if not isinstance(when, dict):
        example = '{ winner = "banker" }'
        problems.add(path, f"must be a table of conditions, e.g. {example}, not {shown(when)}")
        return []
    found = (_condition(name, value, (*path, name), problems) for name, value in when.items())
    return [condition for condition in found if condition is not None]


def _rows(
    raw: Any, path: tuple[str, ...], problems: Problems, languages: tuple[str, ...] | None
) -> list[tuple[int, PayRow]]:
    """A bet's pay rows, each read with its number among the written."""
    if raw is None or raw == []:
        problems.add(path, "missing: at least one pay row")
        return []
    if not isinstance(raw, list):
        problems.add(path, f"must be an array of pay rows, [{{ ... }}, ...], not {shown(raw)}")
        return []
    found = ((n, _row(row, (*path, str(n)), problems, languages)) for n, row in enumerate(raw, 1))
    return [(number, row) for number, row in found if row is not None]


def _row(
    raw: Any, path: tuple[str, ...], problems: Problems, languages: tuple[str, ...] | None
) -> PayRow | None:
    if not isinstance(raw, dict):
        problems.add(path, "a pay row is a table: { when = {...}, pays = ..., says = ... }")
        return None
    before = len(problems)
    for key in raw:
        if key not in ROW_KEYS:
            problems.add((*path, key), f"unknown key; a row has {', '.join(ROW_KEYS)}")
    conditions = _conditions(raw.get("when"), (*path, "when"), problems)
    # The bounds of every pay of a configuration (PayValue: at most 10,000 to 1, written as a
    # short string), then the pay itself.
    if "pays" in raw:
        checked = PayValue().check(raw["pays"], (*path, "pays"), problems)
    else:
        problems.add((*path, "pays"), 'missing: what the row pays, e.g. "8", "push" or "lose"')
        checked = MISSING
    pay: Pay | None = None
    if checked is not MISSING:
        pay = checked if isinstance(checked, Fraction) else BetResult(checked)
    key = raw.get("key")
    if key is not None and (not isinstance(key, str) or not re.fullmatch(NAME_PATTERN, key)):
        problems.add((*path, "key"), f"a pay key is {NAME_WRITTEN}")
        key = None
    if "says" not in raw:
        problems.add((*path, "says"), "missing: when the row applies, for the pages")
    says = _wording(raw.get("says"), (*path, "says"), problems, languages)
    if len(problems) > before or pay is None:
        return None
    return PayRow(tuple(conditions), pay, key, says)


def declare_bets(
    raw: Mapping[str, Any],
    problems: Problems,
    *,
    section: str = "bets",
    languages: Mapping[str, tuple[str, ...]] | None = None,
) -> dict[str, BetRule]:
    """The bets of a ``[bets.ID]`` section, each checked whole; a bet with a problem is left
    out (every problem noted). ``languages`` (the operator's bets) gives each bet the
    languages its words must be written in; None reads the catalogue's msgids."""
    bets: dict[str, BetRule] = {}
    # the catalogue's keys; an operator's sentence counts no cards (wins_plural is a msgid's)
    keys = tuple(BET_KEYS) if languages is None else OWN_BET_KEYS
    for bet_id, body in raw.items():
        path = (section, bet_id)
        if not isinstance(body, dict):
            problems.add(path, "must be a table, e.g. [bets.monkey_6]")
            continue
        own_languages = None if languages is None else languages.get(bet_id, ())
        before = len(problems)
        for key in body:
            if key not in keys:
                problems.add(
                    (*path, key), f"unknown key; a bet has {', '.join(keys)}{suggestion(key, keys)}"
                )
        group = body.get("group")
        if group not in tuple(BetGroup):
            problems.add((*path, "group"), 'must be "main", "side" or "bonus"')
        words = {
            key: _wording(body.get(key), (*path, key), problems, own_languages, bound)
            for key, bound in (("name", OWN_NAME_CHARS), ("wins", OWN_SENTENCE_CHARS))
        }
        rows = _rows(body.get("rows"), (*path, "rows"), problems, own_languages)
        if len(problems) > before:
            if languages is not None:  # the rows read say their own problems in this run too
                _check_rows_reach(bet_id, rows, problems, path)
            continue
        bets[bet_id] = BetRule(
            id=bet_id,
            group=BetGroup(group),
            rows=tuple(row for _, row in rows),
            name=words["name"],
            wins=words["wins"],
            wins_plural=body.get("wins_plural"),
            wins_holds=tuple(tuple(held) for held in body.get("wins_holds", ())),
            own=languages is not None,
        )
    return bets


def check_rows_decide(bet: BetRule, problems: Problems, path: tuple[str, ...]) -> None:
    """A bet that can never win, and each row that never decides, counted exactly on a shoe of
    eight decks (every deal a smaller shoe deals, it deals too): a row whose conditions no
    deal meets together, or whose deals the rows before it all take. One problem for a bet that
    can never win (its rows' problems are why); else one per row."""
    reach = row_reach(bet, MAX_DECKS)
    winning = [
        applies
        for row, applies in zip(bet.rows, reach, strict=True)
        if isinstance(row.default, Fraction)
    ]
    if not any(applies.decides for applies in winning):
        taken = any(applies.holds for applies in winning)
        problems.add(
            path,
            "can never win: no deal meets the conditions of a row that pays odds"
            + (" before the rows above it take the deal" if taken else "")
            + "; check its rows' conditions",
        )
        return
    _row_problems(list(enumerate(bet.rows, start=1)), reach, problems, path)


def _check_rows_reach(
    bet_id: str, rows: list[tuple[int, PayRow]], problems: Problems, path: tuple[str, ...]
) -> None:
    """The rows of a bet whose declaration has problems, those that could be read (each with
    its number as written), held to the same counts as a whole bet's: a row that never holds,
    or that the read rows above it take every deal of, does so whatever the unread rows are
    (they can only take more). Whether the bet can win waits for its every row."""
    if rows:  # counted as a bet of any group: a row's reach reads its conditions alone
        partial = BetRule(bet_id, BetGroup.SIDE, tuple(row for _, row in rows))
        _row_problems(rows, row_reach(partial, MAX_DECKS), problems, path)


def _row_problems(
    rows: list[tuple[int, PayRow]], reach: tuple, problems: Problems, path: tuple[str, ...]
) -> None:
    """Each row (numbered as written) that never holds, or never decides (``reach``: each
    row's, in order, of the rows given)."""
    numbers = [number for number, _ in rows]
    for (number, row), applies in zip(rows, reach, strict=True):
        where = (*path, "rows", str(number))
        if not applies.holds:
            conditions = ", ".join(f"{name} = {_values_text(v)}" for name, v in row.when)
            problems.add(
                where, f"never holds: no deal has {conditions} together; change or remove it"
            )
        elif not applies.decides:
            before = [numbers[index - 1] for index in applies.taken_by]
            rows_said = "row" + "s" * (len(before) > 1) + " " + ", ".join(map(str, before))
            problems.add(
                where,
                f"never decides: {rows_said} above it take{'s' * (len(before) == 1)} every deal"
                " it holds on; move it above them or narrow their conditions",
            )


def _values_text(values: frozenset[object]) -> str:
    """A condition's values as the file writes them: ``6``, ``true``, ``[5, 6]``."""
    texts = sorted(
        (str(value).lower() if isinstance(value, bool) else repr(value)).replace("'", '"')
        for value in values
    )
    return texts[0] if len(texts) == 1 else "[" + ", ".join(texts) + "]"


@cache
def catalogue_bets() -> Mapping[str, BetRule]:
    """The built-in bets, by id, in the catalogue's order (an error in the shipped file is a
    bug: it raises)."""
    with BETS_PATH.open("rb") as handle:
        raw = tomllib.load(handle)
    problems = Problems(str(BETS_PATH))
    bets = declare_bets(raw.get("bets", {}), problems)
    if problems:
        raise ValueError("\n".join(problems.messages))
    return MappingProxyType(bets)


def default_pays() -> dict[str, Fraction | BetResult]:
    """Every pay key of the catalogue's bets at its declared default."""
    pays: dict[str, Fraction | BetResult] = {}
    for bet in catalogue_bets().values():
        for row in bet.rows:
            if row.key is not None:
                pays.setdefault(row.key, row.default)
    return pays
