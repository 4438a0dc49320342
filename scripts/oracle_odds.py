"""The independent calculator's odds for one shoe, from the command line: the yardstick of
``baccarat-report odds``.

Runs ``tests/oracle/exact.py`` (standard library only, written from the spec, no ``reporting``
import) for the shoe and bets of ``odds --game G`` or ``odds --decks N``, and prints the exact
probability of each outcome and each bet's exact RTP, win, push and loss, as JSON::

    python scripts/oracle_odds.py --game live-baccarat-it --config sample_data/operator.toml
    python scripts/oracle_odds.py --decks 8        # every bet the calculator knows

A game is read from the built-in catalogue (``reporting/data/catalogue.toml``) and the operator
configuration with :mod:`tomllib`: its deck count, its bets, its pay table and its ``pay`` and
``bonus_margins`` keys (another key of the configuration does not change the odds). The same
figures as ``odds --json`` give, as exact fractions: compare the two documents' ``*_exact``
fields, or time the two commands side by side.
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from oracle import exact  # noqa: E402 - the oracle lives with the tests, not in the package

CATALOGUE = ROOT / "reporting" / "data" / "catalogue.toml"


def game_shoe(game: str, config: Path) -> tuple[int, list[str], dict[str, str]]:
    """The deck count, bets and pay keys of ``game`` in the operator configuration ``config``
    (its catalogue game's, with the operator's keys laid over them)."""
    catalogue = tomllib.loads(CATALOGUE.read_text(encoding="utf-8"))
    operator = tomllib.loads(config.read_text(encoding="utf-8")).get("games", {}).get(game)
    if operator is None:
        raise SystemExit(f"{config}: no game {game!r}")
    keys = {**catalogue["games"][operator.get("base", game)], **operator}
    pays = dict(catalogue["pay_tables"][keys["pay_table"]])
    pays.update(keys.get("pay", {}))
    pays.update({f"bonus_margin_{m}": odds for m, odds in keys.get("bonus_margins", {}).items()})
    return keys["decks"], list(keys["bets"]), pays


def odds(decks: int, bets: list[str], pays: dict[str, str]) -> dict:
    """The document: each outcome's probability and each bet's RTP, win, push and loss."""
    merged = exact.normalise_pays(pays)
    points, total = exact.points_distribution(exact.shoe_ranks(decks))
    outcomes = {"banker": 0, "player": 0, "tie": 0}
    for (player, banker, _, _), ways in points.items():
        outcomes["tie" if player == banker else "player" if player > banker else "banker"] += ways
    document = {
        "decks": decks,
        "outcomes_exact": {name: _text(Fraction(w, total)) for name, w in outcomes.items()},
        "bets": {},
    }
    for bet in bets:
        if bet in exact.POINT_BETS:
            returns = [(exact.points_return(bet, p, merged), w) for p, w in points.items()]
            whole = total
        else:
            pairs, whole = exact.pair_distribution(decks)
            returns = [(exact.pair_return(bet, p, merged), w) for p, w in pairs.items()]
        by_result = {"win": 0, "push": 0, "lose": 0}
        for value, ways in returns:
            by_result["win" if value > 1 else "push" if value == 1 else "lose"] += ways
        rtp = sum((value * ways for value, ways in returns), Fraction(0)) / whole
        document["bets"][bet] = {
            "rtp_exact": _text(rtp),
            **{name: _text(Fraction(ways, whole)) for name, ways in by_result.items()},
        }
    return document


def _text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def main() -> None:
    """Parse the command line and print the document."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", metavar="ID", help="game id of the operator configuration")
    parser.add_argument("--config", type=Path, default=ROOT / "sample_data" / "operator.toml")
    parser.add_argument("--decks", type=int, choices=range(1, 9), metavar="N")
    arguments = parser.parse_args()
    if arguments.game is not None:
        decks, bets, pays = game_shoe(arguments.game, arguments.config)
        decks = arguments.decks or decks
    elif arguments.decks is not None:
        decks, bets, pays = arguments.decks, list(exact.BETS), {}
    else:
        parser.error("give --game ID or --decks N")
    json.dump(odds(decks, bets, pays), sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()
