"""Benchmark: the JSON array splitter alone against msgspec decoding the same elements.

Measures and prints; it never passes or fails on time. Writes a generated JSON array of
games shaped like the ``replay-api`` export (SHAPES.md, about 1.5 KB each, compact or
pretty-printed) to a temporary file, then times, best of ``--repeat`` runs:

* split: :func:`reporting.ingest.profiles.json_stream.array_elements` over the file;
* decode: ``msgspec.json.decode`` of every element's bytes (held in memory beforehand).

Run with ``python scripts/bench_json_stream.py`` (200,000 games) or ``--games 50000``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
import time
from pathlib import Path

import msgspec

from reporting.ingest.profiles.json_stream import Element, array_elements

_BET_TYPES = ("BC_PLAYER", "BC_BANKER", "BC_TIE", "BC_PLAYER_PAIR", "BC_BANKER_PAIR")
_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_CARDS = [f"{suit}_{rank}" for suit in "SHDC" for rank in _RANKS]


def game(number: int, chance: random.Random) -> dict:
    """A game of the replay-api shape, with 2 to 4 accounts of 1 to 3 bets each."""
    start = 1_790_000_000_000 + number * 30_000
    bets, bet_number = [], number * 10
    for _ in range(chance.randint(2, 4)):
        entries = []
        for _ in range(chance.randint(1, 3)):
            bet_number += 1
            stake = chance.choice((1, 2, 5, 10, 25, 100))
            entries.append(
                {
                    "betId": f"B-{bet_number:08d}",
                    "txId": f"tx-B-{bet_number:08d}",
                    "betAmount": stake,
                    "payoffAmount": chance.choice((0, 2 * stake)),
                    "playerBetStatus": "PAID",
                    "resultType": "LOSE",
                    "betType": chance.choice(_BET_TYPES),
                }
            )
        bets.append(
            {
                "playerId": f"acc-{chance.randrange(100_000)}",
                "tileId": "LB-IT-01",
                "currency": "EUR",
                "bets": entries,
            }
        )
    hands = {
        hand: {"cards": {str(i): chance.choice(_CARDS) for i in range(3)}, "score": 4}
        for hand in ("playerHand", "bankerHand")
    }
    return {
        "gameUid": f"LB-IT-01-20261001-{number:06d}",
        "gameReferenceCode": f"LB-IT-01/20261001/{number:06d}",
        "gameType": "BACCARAT",
        "gameResultType": "BANKER_WIN",
        "startDate": start,
        "endDate": start + 25_345,
        "gameplay": {".BaccaratGameplay": {"betEndDate": start + 14_468, **hands, "burnCards": {}}},
        "playersBets": bets,
    }


def write_array(path: Path, games: int, *, indent: int | None) -> None:
    chance = random.Random(12)
    with path.open("w", encoding="utf-8") as out:
        out.write("[")
        for number in range(games):
            if number:
                out.write(",")
            out.write(json.dumps(game(number, chance), indent=indent))
        out.write("]")


def best_of(repeat: int, run) -> float:
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        run()
        times.append(time.perf_counter() - began)
    return min(times)


def measure(path: Path, repeat: int) -> None:
    size = path.stat().st_size

    def split() -> list[bytes]:
        with path.open("rb") as handle:
            return [
                item.data
                for item in array_elements(handle, (), path.name)
                if isinstance(item, Element)
            ]

    elements = split()
    decode = msgspec.json.decode

    def decode_all() -> None:
        for data in elements:
            decode(data)

    def count_only() -> None:
        with path.open("rb") as handle:
            for _ in array_elements(handle, (), path.name):
                pass

    split_time = best_of(repeat, count_only)
    decode_time = best_of(repeat, decode_all)
    count = len(elements)
    print(f"  {count:,} elements, {size / 2**20:,.1f} MiB, {size / count:,.0f} bytes each")
    print(
        f"  split : {size / split_time / 2**20:8.1f} MiB/s  {split_time / count * 1e6:6.2f} us/element"
    )
    print(
        f"  decode: {size / decode_time / 2**20:8.1f} MiB/s  {decode_time / count * 1e6:6.2f} us/element"
        "  (msgspec.json.decode of each element's bytes)"
    )
    print(f"  split / decode: {split_time / decode_time:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for label, indent in (("compact", None), ("pretty-printed (indent 2)", 2)):
            path = Path(folder, "games.json")
            write_array(path, arguments.games, indent=indent)
            print(f"{label}:")
            measure(path, arguments.repeat)
            os.remove(path)


if __name__ == "__main__":
    main()
