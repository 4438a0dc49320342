"""What a command reads of the store that ingest cannot have stored, said in one line as a
store changed by another program or by hand (the sqlite3 shell, a tool that copies tables),
naming the round: never a traceback halfway through a month, nor a finding or a figure made
of it. Each reader checks what it relies on where it reads it, for a comparison's cost (a
round's cards where its deal is resolved, a bet's amounts and currency where they are added
up, a round's file where it is looked up, a round's times before a finding on it is kept, a
round's texts before a page prints them); a store whose shape is not the schema's is refused
before (:mod:`reporting.store.shape`).
"""

from __future__ import annotations

from reporting.config.values import MAX_CENTS
from reporting.errors import InputError, printable
from reporting.ingest.limits import MAX_ID_CHARS, MAX_TEXT_CHARS
from reporting.ingest.rejects import shown

__all__ = ["amounts_past_bound", "damaged", "quoted", "read_from", "said", "within_bound"]

#: The store this process opened last (:func:`read_from`), which a message names.
_STORE: list[str | None] = [None]


def read_from(path: object) -> None:
    """Name ``path`` as the store the stored values come from in every message of damage
    (a command opens one store; a worker forked from it keeps its name)."""
    _STORE[0] = str(path)


#: Characters of a stored value or of an error a message quotes (a hand of a million cards).
_QUOTED = 80


def said(text: str) -> str:
    """``text`` as a message quotes it: on one line, cut short past :data:`_QUOTED`."""
    if len(text) <= _QUOTED:
        return printable(text)
    return f"{printable(text[:_QUOTED])}... ({len(text):,} characters)"


def quoted(text: str) -> str:
    """A stored value as a message quotes it: its repr, cut short past :data:`_QUOTED`."""
    return shown(text, limit=_QUOTED)


def damaged(round_id: str, what: str) -> InputError:
    """The one-line error of a stored round holding ``what`` (in words), which ingest does
    not store."""
    where = "the store" if _STORE[0] is None else f"{printable(_STORE[0])}: the store"
    return InputError(
        f"{where} holds round {said(round_id)} with {what}: ingest stores no such round,"
        " so the store was changed by another program or by hand; use a copy from before the"
        " change"
    )


def amounts_past_bound(round_id: str, stake: int, payout: int) -> InputError:
    """The :func:`damaged` error of a stored bet whose stake or payout is past the amounts
    ingest takes (:data:`~reporting.config.values.MAX_CENTS`)."""
    amounts = f"a bet of stake {stake:,} cents and payout {payout:,}"
    return damaged(round_id, f"{amounts}, where ingest takes amounts below {MAX_CENTS:,} cents")


#: The texts of a round a page prints, and the most characters ingest stores of each (a void
#: reason of 1.4 MB, set by hand, held the audit report's layout for minutes).
_TEXT_BOUNDS = {
    "round_id": MAX_ID_CHARS,
    "table_id": MAX_ID_CHARS,
    "shoe_id": MAX_ID_CHARS,
    "void_reason": MAX_TEXT_CHARS,
}


def within_bound(record: object) -> None:
    """The :func:`damaged` error of a record read from the store (a line of the void register,
    a finding's evidence) whose round's texts are longer than ingest stores."""
    for name, bound in _TEXT_BOUNDS.items():
        value = getattr(record, name, None)
        if value is not None and len(value) > bound:
            round_id = getattr(record, "round_id", "")
            raise damaged(
                round_id, f"a {name} of {len(value):,} characters (ingest stores {bound:,})"
            )
