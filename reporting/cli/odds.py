"""``baccarat-report odds``: exact probabilities and theoretical RTP of every bet."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from reporting.cli.common import (
    ConfigOption,
    JsonOption,
    load_operator_config,
    print_json,
    stdout_console,
)
from reporting.cli.completion import PERFECT_PAIR_VARIANTS, complete_game, complete_perfect_pair
from reporting.errors import InputError

if TYPE_CHECKING:
    from pathlib import Path

    from reporting.engine.theory import ShoeOdds


GameOption = Annotated[
    str | None,
    typer.Option(
        "--game", metavar="ID", autocompletion=complete_game, help="Game id from the configuration."
    ),
]
PerfectPairOption = Annotated[
    str | None,
    typer.Option(
        "--perfect-pair",
        metavar="|".join(PERFECT_PAIR_VARIANTS),
        autocompletion=complete_perfect_pair,
        help="Perfect pair pay table variant, with --game (--decks lists both: perfect_pair"
        " is A, perfect_pair_b is B).",
    ),
]


def _check_what_to_count(game: str | None, decks: int | None, config: Path | None) -> None:
    """A game or a shoe to count; and no ``--config`` for a shoe alone, where it is not read
    (a file of no name included)."""
    if game is None and decks is None:
        raise InputError("odds needs --game ID or --decks N (see --help)")
    if game is None and config is not None:
        raise InputError(
            f"--config {config}: a configuration's games are counted with --game ID; --decks"
            " alone counts every bet of the catalogue"
        )


def odds_command(
    game: GameOption = None,
    decks: Annotated[
        int | None,
        typer.Option(
            "--decks", min=1, max=8, metavar="N", help="Deck count 1-8 (overrides the game's)."
        ),
    ] = None,
    pay: Annotated[
        list[str] | None,
        typer.Option(
            "--pay",
            metavar="KEY=ODDS",
            help="Override pay-table odds, e.g. --pay tie=9 --pay bonus_margin_9=50.",
        ),
    ] = None,
    perfect_pair: PerfectPairOption = None,
    config: ConfigOption = None,
    as_json: JsonOption = False,
) -> None:
    """Exact probabilities and theoretical RTP of every bet, by combinatorial counting.

    Of a game (--game ID: its decks and pay table) or of every bet of the catalogue (--decks
    N); one of the two is needed.
    """
    from reporting.config.pay_overrides import apply_pay_overrides
    from reporting.engine.theory import game_odds

    _check_what_to_count(game, decks, config)
    overrides, options = list(pay or []), {}
    if perfect_pair is not None:
        if perfect_pair.strip().upper() not in PERFECT_PAIR_VARIANTS:
            raise InputError(
                f"--perfect-pair {perfect_pair!r}: expected {' or '.join(PERFECT_PAIR_VARIANTS)}"
            )
        options[len(overrides)] = f"--perfect-pair {perfect_pair.strip()}"
        overrides.append(f"perfect_pair={perfect_pair.strip().upper()}")
    title: str
    if game is not None:
        spec = load_operator_config(config).game(game)
        offered = [bet.id for bet in spec.bets]
        if perfect_pair is not None and "perfect_pair" not in offered:
            raise InputError(
                f"--perfect-pair {perfect_pair}: {spec.id} offers no perfect pair bet (its"
                f" bets: {', '.join(offered)})"
            )
        table = apply_pay_overrides(spec.pay_table, overrides, options)
        result = game_odds(spec, decks=decks, table=table)
        title = f"{spec.name} ({spec.id}), {result.decks} decks"
        if "perfect_pair" in offered:
            title += f", perfect pair {table.perfect_pair_variant}"
    else:
        assert decks is not None
        result, title = _every_bet(decks, overrides, perfect_pair)
    if as_json:
        print_json(odds_document(result, game))
    else:
        print_odds_table(result, title)


def _every_bet(decks: int, overrides: list[str], perfect_pair: str | None) -> tuple[ShoeOdds, str]:
    """``odds --decks N``: every bet of the catalogue, the perfect pair under both tables;
    and the table's title."""
    from reporting.config.bets import catalogue_bets
    from reporting.config.pay_overrides import apply_pay_overrides
    from reporting.engine.bets import PayTable
    from reporting.engine.theory import shoe_odds

    if perfect_pair is not None:  # taken, and the same A and B printed whatever it said
        raise InputError(
            f"--perfect-pair {perfect_pair}: applies to a game (--game ID); --decks lists"
            " every bet of the catalogue, the perfect pair under both tables (perfect_pair"
            " is A, perfect_pair_b is B)"
        )
    bets = catalogue_bets().values()
    table = apply_pay_overrides(PayTable.of(bets), overrides)
    return shoe_odds(decks, bets, table), f"{decks} decks, every bet of the catalogue"


def odds_document(result: ShoeOdds, game: str | None) -> dict:
    """The ``odds --json`` document (shape of the CLI contract)."""
    return {
        "game": game,
        "decks": result.decks,
        "outcomes": {name: float(p) for name, p in result.outcomes.items()},
        "outcomes_exact": {
            name: f"{p.numerator}/{p.denominator}" for name, p in result.outcomes.items()
        },
        "bets": {
            odds.bet: {
                "pays": result.pays[odds.bet],
                "rtp": float(odds.rtp),
                "house_edge": float(odds.house_edge),
                "rtp_exact": f"{odds.rtp.numerator}/{odds.rtp.denominator}",
                "win": float(odds.win),
                "push": float(odds.push),
                "lose": float(odds.lose),
            }
            for odds in result.bets
        },
    }


def print_odds_table(result: ShoeOdds, title: str) -> None:
    """A table a compliance officer reads at a glance."""
    from reporting.cli.tables import FoldingTable
    from reporting.engine.money import round_fraction

    outcomes = ", ".join(
        f"{name.capitalize()} {round_fraction(p, 6)}" for name, p in result.outcomes.items()
    )
    table = FoldingTable(
        title=title, caption=f"Outcome probabilities: {outcomes}", title_justify="left"
    )
    for header, justify in (
        ("Bet", "left"),
        ("Pays", "left"),
        ("Win", "right"),
        ("Push", "right"),
        ("Lose", "right"),
        ("RTP", "right"),
        ("House edge", "right"),
    ):
        table.add_column(header, justify=justify, identifier=header == "Bet")
    for odds in result.bets:
        table.add_row(
            odds.bet,
            result.pays[odds.bet],
            str(round_fraction(odds.win, 6)),
            str(round_fraction(odds.push, 6)),
            str(round_fraction(odds.lose, 6)),
            f"{round_fraction(odds.rtp * 100, 4)}%",
            f"{round_fraction(odds.house_edge * 100, 4)}%",
        )
    stdout_console().print(table)
