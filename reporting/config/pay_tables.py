"""The pay tables of a configuration: the catalogue's and the operator's ``[pay_tables.X]``,
each checked and resolved onto its base, and a game's table: its named table, changed by its
``pay`` and its pay flags (:data:`~reporting.config.keys.PAY_FLAGS`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reporting.config.bets import as_read
from reporting.config.keys import PAY_FLAGS, PAY_TABLE_KEYS, PAY_TABLE_NAME
from reporting.config.values import MISSING, Key, Problems, Table, suggestion
from reporting.engine.bets import BetRule, PayTable

__all__ = ["pay_table_of", "resolve_pay_tables"]


def resolve_pay_tables(
    layers: list[tuple[Any, Problems]], pay_keys: Mapping[str, Key]
) -> dict[str, Any]:
    """Every pay table by name, resolved onto its base (MISSING for one with problems, which
    are noted once here). Later layers (the operator's file) replace earlier ones by name,
    and a table that replaces one starts from it unless it names another base (the file's
    ``[pay_tables.perfect_pair_b]`` with ``tie = "9"`` changes the tie of the built-in
    table: it stood on ``standard``, and the Danish games' perfect pair fell from 200:1 to
    25:1 without a word); ``pay_keys`` are the pay keys of every bet the configuration
    knows."""
    written: dict[str, tuple[Any, Problems]] = {}
    replaced: dict[str, str] = {}  # a table replaced by a later layer's: its name kept apart
    for tables, problems in layers:
        if not isinstance(tables, dict):
            problems.add(
                ("pay_tables",), "must be a table of pay tables, e.g. [pay_tables.generous]"
            )
            continue
        for name, table in tables.items():
            if name in written:
                replaced[name] = _replaced_name(name)
                written[replaced[name]] = written[name]
            written[name] = (table, problems)
    checked: dict[str, Any] = {}
    for name, (table, problems) in written.items():
        where = ("pay_tables", name)
        named = (
            name in replaced.values() or PAY_TABLE_NAME.check(name, where, problems) is not MISSING
        )
        checked[name] = Table(PAY_TABLE_KEYS | pay_keys).check(table, where, problems)
        checked[name] = checked[name] if named else MISSING
        if name in replaced and checked[name] is not MISSING:
            base = checked[name].get("base", name)  # its own name: the table it replaces
            checked[name] = checked[name] | {"base": replaced[name] if base == name else base}
    resolved: dict[str, Any] = {}
    for name in checked:
        _resolve_pay_table(name, checked, written, resolved)
    hidden = set(replaced.values())
    return {name: table for name, table in resolved.items() if name not in hidden}


#: What the name of a table replaced by a later layer's ends with (:func:`_replaced_name`).
_REPLACED = " (built-in)"


def _replaced_name(name: str) -> str:
    """The name a table replaced by a later layer's of the same name is kept under: no name a
    file may give (:data:`~reporting.config.keys.PAY_TABLE_NAME`), shown as what it is in a
    message of a chain of bases, and in no list of the tables a file may name."""
    return f"{name}{_REPLACED}"


def _resolve_pay_table(
    name: str,
    checked: dict[str, Any],
    written: dict[str, tuple[Any, Problems]],
    resolved: dict[str, Any],
) -> None:
    """One pay table merged onto its base (``standard`` unless it names another), and each
    table it stands on first: the chain walked down to a table resolved, or to one of no
    base, then merged back up. A walk, not a call a table (a chain of a thousand ended every
    command in a traceback, the interpreter's depth); a loop of any length is told once."""
    chain: list[str] = []
    at: str | None = name
    while at is not None and at not in resolved:
        if at in chain:
            _tell_loop((*chain[chain.index(at) :],), at, written)
            resolved.update(dict.fromkeys(chain, MISSING))
            return
        if checked[at] is MISSING:
            resolved[at] = MISSING
            break
        chain.append(at)
        base = _base_of(at, checked)
        if base is not None and base not in checked:
            problems, path = written[at][1], ("pay_tables", at, "base")
            names = sorted(name for name in checked if not name.endswith(_REPLACED))
            known = ", ".join(names)
            problems.add(path, f"no pay table {base!r} (known: {known}){suggestion(base, names)}")
            resolved[chain.pop()] = MISSING
            break
        at = base
    for table in reversed(chain):
        base = _base_of(table, checked)
        own = {key: value for key, value in checked[table].items() if key != "base"}
        parent = {} if base is None else resolved[base]
        resolved[table] = MISSING if parent is MISSING else _merge_pay(parent, own)


def _base_of(name: str, checked: Mapping[str, Any]) -> str | None:
    """The table a checked pay table stands on: its ``base``, else ``standard`` (which stands
    on none unless it names one)."""
    own = name.removesuffix(_REPLACED)  # a replaced built-in stands where it stood
    return checked[name].get("base", None if own == "standard" else "standard")


def _tell_loop(loop: tuple[str, ...], base: str, written: dict[str, tuple[Any, Problems]]) -> None:
    """Tell a loop of bases once: where it was met (its last table), if the file has a line
    for it; else at the first of its tables whose file has one (the operator's, where a table
    of its own closes a loop through the catalogue's)."""
    shown = loop if len(loop) <= 8 else (*loop[:3], f"... {len(loop) - 5:,} more", *loop[-2:])
    circle = " -> ".join((*shown, base))
    for table in (loop[-1], *loop):
        problems = written[table][1]
        if problems.lines.line_of(("pay_tables", table)) is not None:
            break
    else:
        table, problems = loop[-1], written[loop[-1]][1]
    problems.add(("pay_tables", table, "base"), f"pay tables cannot be their own base: {circle}")


def _merge_pay(base: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """Overlay pay-table changes on a base; bonus margins merge row by row, and a table that
    ties two pays (a flag of :data:`~reporting.config.keys.PAY_FLAGS`) keeps them tied when
    only the leading one changes."""
    merged = base | changes
    if isinstance(base.get("bonus_margins"), dict) and isinstance(
        changes.get("bonus_margins"), dict
    ):
        merged["bonus_margins"] = base["bonus_margins"] | changes["bonus_margins"]
    for flag in PAY_FLAGS.values():
        flag.keep_tied(base, changes, merged)
    return merged


#: A bonus bet's pay key of one margin, written in a table under ``bonus_margins``.
_MARGIN_KEY = "bonus_margin_{}"


def margin_key(margin: object) -> str:
    """The pay key of a bonus margin (``bonus_margins = { 9 = "30" }`` sets
    ``bonus_margin_9``)."""
    return _MARGIN_KEY.format(margin)


def written_as(key: str) -> tuple[str, ...]:
    """Where a pay key is written in a table: its own key, or its margin under
    ``bonus_margins``.

    >>> written_as("tie"), written_as(margin_key(9))
    (('tie',), ('bonus_margins', '9'))
    """
    prefix = _MARGIN_KEY.format("")
    return ("bonus_margins", key.removeprefix(prefix)) if key.startswith(prefix) else (key,)


def pay_table_of(
    values: dict[str, Any], tables: dict[str, Any], offered: tuple[BetRule, ...]
) -> PayTable | None:
    """The game's pay table: its bets' declared pays, changed by its named table (the keys of
    the game's bets), its ``pay`` changes and its pay flags."""
    table = tables[values["pay_table"]]
    if table is MISSING or values["pay"] is MISSING:
        return None
    raw = _merge_pay(table, values["pay"] or {})
    for name, flag in PAY_FLAGS.items():
        if values[name] is not None:
            flag.choose(raw, values[name])
    changes: dict[str, Any] = {}
    for key, value in raw.items():
        if key == "bonus_margins":
            changes |= {margin_key(margin): odds for margin, odds in value.items()}
        elif key != "base":
            changes[key] = as_read(value)
    keys = {key for bet in offered for key in bet.pay_keys}
    return PayTable.of(offered, {key: pay for key, pay in changes.items() if key in keys})
