"""Pay-table overrides given on the command line (``odds --pay KEY=ODDS``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from reporting.config.bets import as_read
from reporting.config.keys import PAY_FLAGS, PAY_KEYS
from reporting.config.values import MISSING, PayValue, Problems, shown
from reporting.engine.bets import Pay, PayTable
from reporting.errors import InputError

__all__ = ["apply_pay_overrides"]


def apply_pay_overrides(
    table: PayTable, overrides: Sequence[str], options: Mapping[int, str] | None = None
) -> PayTable:
    """Apply ``KEY=ODDS`` overrides (e.g. ``tie=9``, ``bonus_margin_9=50``, ``super_6=15``) to a
    pay table: a key is any pay key of the table's bets (``push`` and ``lose`` are pays too).

    ``FLAG=VALUE`` sets a pay flag (:data:`~reporting.config.keys.PAY_FLAGS`), e.g. the perfect
    pair variant: A pays both hands as one, B pays 200:1 for both unless the both-hands pay
    key says otherwise. A key given twice, or a flag and the pay it ties given against each
    other, is refused: the last would have been taken without a word. ``options``: how the
    command line gave an override other than as ``--pay KEY=ODDS``, by its place in
    ``overrides`` (``perfect_pair=A``, given as ``--perfect-pair A``), for the messages.
    """
    said = {index: f"--pay {shown(text)}" for index, text in enumerate(overrides)}
    said |= options or {}
    changes: dict[str, Pay] = {}
    pays = dict(table.pays)
    chosen = {name: flag.value_of(pays) for name, flag in PAY_FLAGS.items()}
    given: dict[str, int] = {}  # each key given, by the place of the override that gave it
    for index, override in enumerate(overrides):
        key, value = _read(override, table.keys(), said[index])
        if key in given and (chosen if key in PAY_FLAGS else changes)[key] != value:
            raise InputError(f"{said[given[key]]} and {said[index]}: give {key} once")
        given[key] = index
        (chosen if key in PAY_FLAGS else changes)[key] = value
    for name, flag in PAY_FLAGS.items():
        if name in given and flag.follower in changes:
            leader = flag.leader_pay({**pays, **changes})
            rule = flag.says_otherwise(leader, changes[flag.follower], chosen[name])
            if rule is not None:
                raise InputError(
                    f"{said[given[name]]} {rule} ({said[given[flag.follower]]}): give one of"
                    " the two"
                )
        flag.override(pays, changes, chosen[name])
    return table.changed(changes)


def _read(override: str, keys: Sequence[str], said: str) -> tuple[str, Pay | str]:
    """An override's key, and its pay or its flag's value (``perfect_pair=A``: ``"A"``)."""
    key, sep, text = override.partition("=")
    key = key.strip()
    flag = PAY_FLAGS.get(key)
    value = None if flag is None else flag.parse(text)
    if value is not None and flag is not None and flag.leader not in keys:
        raise InputError(
            f"{said}: {key} chooses how {flag.leader} pays, the pay of no bet counted here (their"
            f" pays: {', '.join(keys)})"
        )
    if value is None and (not sep or key not in keys):
        raise InputError(f"{said}: expected KEY=ODDS with KEY one of {', '.join(keys)}")
    return key, value if value is not None else _pay(key, text.strip(), override)


def _pay(key: str, text: str, override: str) -> Pay:
    """A pay given on the command line, held to what a configuration's pay of ``key`` may be
    (a catalogue row's :data:`~reporting.config.keys.PAY_KEYS` kind, an own row's
    :class:`~reporting.config.values.PayValue`)."""
    problems = Problems(f"--pay {shown(override)}")
    kind = PAY_KEYS[key].kind if key in PAY_KEYS else PayValue()
    pay = kind.check(text, (), problems)
    if pay is MISSING:
        raise InputError(problems.messages[0])
    return as_read(pay)  # "push", "lose": their results
