"""Pay-table overrides given on the command line (``odds --pay KEY=ODDS``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from reporting.config.bets import parse_pay
from reporting.config.keys import PAY_FLAGS, PAY_KEYS
from reporting.config.values import MISSING, PayValue, Problems, shown
from reporting.engine.bets import Pay, PayTable
from reporting.errors import InputError

__all__ = ["apply_pay_overrides"]


def apply_pay_overrides(
    table: PayTable, overrides: Iterable[str], options: Mapping[str, str] | None = None
) -> PayTable:
    """Apply ``KEY=ODDS`` overrides (e.g. ``tie=9``, ``bonus_margin_9=50``, ``super_6=15``) to a
    pay table: a key is any pay key of the table's bets (``push`` and ``lose`` are pays too).

    ``FLAG=VALUE`` sets a pay flag (:data:`~reporting.config.keys.PAY_FLAGS`), e.g. the perfect
    pair variant: A pays both hands as one, B pays 200:1 for both unless the both-hands pay
    key says otherwise. A key given twice, or a flag and the pay it ties given against each
    other, is refused: the last would have been taken without a word. ``options``: how the
    command line gave an override other than as ``--pay KEY=ODDS`` (``perfect_pair=A`` by
    ``--perfect-pair A``), for the message.
    """
    options = options or {}
    changes: dict[str, Pay] = {}
    pays = dict(table.pays)
    chosen = {name: flag.value_of(pays) for name, flag in PAY_FLAGS.items()}
    given: dict[str, str] = {}  # each key given, by the override that gave it
    keys = table.keys()
    for override in overrides:
        key, sep, text = override.partition("=")
        key = key.strip()
        value = PAY_FLAGS[key].parse(text) if key in PAY_FLAGS else None
        if value is None and (not sep or key not in keys):
            raise InputError(
                f"--pay {override!r}: expected KEY=ODDS with KEY one of {', '.join(keys)}"
            )
        pay = value if value is not None else _pay(key, text.strip(), override)
        if key in given and (chosen if value is not None else changes)[key] != pay:
            raise InputError(
                f"{_said(given[key], options)} and {_said(override, options)}: give {key} once"
            )
        given[key] = override
        if value is not None:
            chosen[key] = value
        else:
            changes[key] = pay
    for name, flag in PAY_FLAGS.items():
        if name in given and flag.follower in changes:
            leader = changes.get(flag.leader, pays.get(flag.leader))
            said = flag.says_otherwise(leader, changes[flag.follower], chosen[name])
            if said is not None:
                raise InputError(
                    f"{_said(given[name], options)} {said}"
                    f" ({_said(given[flag.follower], options)}): give one of the two"
                )
        flag.override(pays, changes, chosen[name])
    return table.changed(changes)


def _said(override: str, options: Mapping[str, str]) -> str:
    """An override as the command line gave it."""
    return options.get(override, f"--pay {shown(override)}")


def _pay(key: str, text: str, override: str) -> Pay:
    """A pay given on the command line, held to what a configuration's pay of ``key`` may be
    (a catalogue row's :data:`~reporting.config.keys.PAY_KEYS` kind, an own row's
    :class:`~reporting.config.values.PayValue`)."""
    problems = Problems(f"--pay {shown(override)}")
    kind = PAY_KEYS[key].kind if key in PAY_KEYS else PayValue()
    pay = kind.check(text, (), problems)
    if pay is MISSING:
        raise InputError(problems.messages[0])
    return parse_pay(pay) if isinstance(pay, str) else pay  # "push", "lose": their results
