"""Cheap weighted and ranged choices from uniform draws: a month makes tens of millions."""

from __future__ import annotations


def between(draw: float, low: int, high: int) -> int:
    """An integer from ``low`` to ``high`` inclusive for a uniform draw in [0, 1).

    ``random.randint`` costs several Python calls; a round makes dozens of such draws.

    >>> between(0.0, 3, 5), between(0.999, 3, 5)
    (3, 5)
    """
    return low + int(draw * (high - low + 1))


def cumulative(weights: list[float]) -> list[float]:
    """Cumulative shares ending at exactly 1.0: ``bisect_right(shares, draw)`` for a draw in
    [0, 1) is then always a valid index of the weighted choice.

    >>> cumulative([1.0, 3.0])
    [0.25, 1.0]
    """
    total = sum(weights)
    running, shares = 0.0, []
    for weight in weights:
        running += weight
        shares.append(running / total)
    shares[-1] = 1.0
    return shares
