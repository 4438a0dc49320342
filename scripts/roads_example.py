"""Example: the shoe statistics, Bead Road and Big Road of a shoe dealt by the engine, written
as one HTML page and its PDF, to look at them in a browser and a PDF viewer.

Run with ``python scripts/roads_example.py OUT_DIR`` (``--seed N`` for another shoe). Writes
``roads.html`` and ``roads.pdf`` into ``OUT_DIR``, the same bytes for the same seed. The words
are English placeholders; the pages take theirs from each language's catalogue.
"""

from __future__ import annotations

import argparse
from datetime import date
from fractions import Fraction
from html import escape
from pathlib import Path

from reporting.presentation.pdf import html_to_pdf
from reporting.presentation.roads import (
    EXAMPLE_SEED,
    RoadLabels,
    bead_road,
    bead_road_svg,
    big_road,
    big_road_svg,
    deal_shoe,
    hands_from_outcomes,
    shoe_statistics,
)


def _percent(share: Fraction | None) -> str:
    """A share as a percentage with one decimal, rounded half up, for this example only."""
    if share is None:
        return ""
    tenths = int(share * 1000 + Fraction(1, 2))
    return f"{tenths // 10}.{tenths % 10}%"


def example_page(seed: int) -> str:
    """One page holding the statistics and both roads of the shoe dealt from ``seed``."""
    hands = hands_from_outcomes(deal_shoe(seed))
    statistics = shoe_statistics(hands)
    big = big_road(hands)
    rows = [
        ("Hands", statistics.hands),
        ("Banker", statistics.banker_wins),
        ("Player", statistics.player_wins),
        ("Tie", statistics.ties),
        ("Banker pair", statistics.banker_pairs),
        ("Player pair", statistics.player_pairs),
    ]
    table = "".join(
        f"<tr><th>{escape(name)}</th><td>{count}</td>"
        f"<td>{_percent(statistics.share(count))}</td></tr>"
        for name, count in rows
    )
    bead_labels = RoadLabels("Bead Road", f"The last {min(36, len(hands))} hands of the shoe")
    big_labels = RoadLabels("Big Road", f"Every hand of the shoe, {big.columns} columns")
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>Roads of shoe {seed}</title><style>"
        "body{font-family:'DejaVu Sans',sans-serif;margin:8px}"
        ".big{overflow-x:auto}svg{display:block;margin:6px 0}"
        "@media print{.big svg{max-width:100%;height:auto}}"
        "td,th{padding:2px 8px;text-align:right}th{text-align:left}</style></head><body>"
        f"<h1>Shoe statistics</h1><table>{table}</table>"
        f"<h2>Bead Road</h2>{bead_road_svg(bead_road(hands), bead_labels)}"
        f'<h2>Big Road</h2><div class="big">{big_road_svg(big, big_labels)}</div>'
        "</body></html>"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--seed", type=int, default=EXAMPLE_SEED)
    arguments = parser.parse_args()
    arguments.out_dir.mkdir(parents=True, exist_ok=True)
    html = example_page(arguments.seed)
    (arguments.out_dir / "roads.html").write_text(html, encoding="utf-8")
    (arguments.out_dir / "roads.pdf").write_bytes(html_to_pdf(html, date(2026, 12, 1)))
    print(f"wrote roads.html and roads.pdf into {arguments.out_dir}")


if __name__ == "__main__":
    main()
