"""``ingest`` and ``verify`` judged by the independent oracle: a month dealt, settled and paid
by tests/oracle/month.py, with a known set of wrongly paid bets, must come back from
``verify --json`` as exactly those ``payout_mismatch`` findings (precision and recall 1) and
nothing else: no ``unverified_bet``, no finding of another kind.

Two months: one of the standard bets (passes without the variants, proving the month and the
test), one of the variant bets (variants.md) at three games: an 8-deck EZ table with the
no-commission banker beside the commission one, a 6-deck RNG tiger table, a 6-deck
no-commission table with every standard side bet; non-default pays at each.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from oracle.configs import STANDARD, GameConfig, operator_toml
from oracle.month import MonthGame, generate_month, tally
from typer.testing import CliRunner

from reporting.cli import app

runner = CliRunner()

#: The catalogue games the months start from: decks and whether each round has its own shoe.
BASES = {"live-baccarat-it": (8, False), "mini-baccarat-it": (6, True)}
#: Injected payout errors per month: well under the 10,000 findings verify's JSON lists.
ERRORS = 60


def declare(game_id: str, base: str, bets: tuple[str, ...], decks=None, pays=None):
    """A game both ways: its configuration section and the oracle's month game."""
    base_decks, reshuffle = BASES[base]
    pays = pays or {}
    config = GameConfig(game_id, base, bets, decks=decks, pays=pays)
    game = MonthGame(game_id, decks or base_decks, bets, pays, reshuffle_every_round=reshuffle)
    return config, game


SCENARIOS = {
    "standard": (
        10_000,
        [
            declare(
                "std-live",
                "live-baccarat-it",
                STANDARD,
                pays={"perfect_pair_both": "250", "tie": "9", "bonus_margin_9": "50"},
            ),
            declare(
                "std-rng",
                "mini-baccarat-it",
                ("player", "banker", "tie", "perfect_pair", "player_pair", "either_pair"),
                pays={"banker": "0.96"},
            ),
        ],
    ),
    "variants": (
        20_000,
        [
            declare(
                "ez-live",
                "live-baccarat-it",
                (
                    "player",
                    "banker",
                    "banker_ez",
                    "banker_no_commission",
                    "tie",
                    "dragon_7",
                    "panda_8",
                    "ox_6",
                    "perfect_pair",
                ),
                pays={"perfect_pair_both": "250", "dragon_7": "30"},
            ),
            declare(
                "tiger-rng",
                "mini-baccarat-it",
                (
                    "player",
                    "banker",
                    "tie",
                    "tiger",
                    "small_tiger",
                    "big_tiger",
                    "tiger_tie",
                    "tiger_pair",
                    "perfect_pair",
                ),
                pays={"tiger_pair_twin": "50", "big_tiger": "40", "perfect_pair_both": "200"},
            ),
            declare(
                "six-live",
                "live-baccarat-it",
                ("player", "banker_no_commission", "tie", "super_6", "lucky_6", *STANDARD[3:]),
                decks=6,
                pays={"super_6": "15", "lucky_6_three_cards": "22"},  # its six "pays half"
            ),
        ],
    ),
}

#: Bets whose best row is rare (a twin pair, two perfect pairs, a three-card six...).
RARE_TOP = {"tiger_pair", "perfect_pair", "big_tiger", "dragon_7", "panda_8", "ox_6", "tiger_tie"}


@dataclass
class Checked:
    """A month written by the oracle, and what the tool made of it."""

    games: list[MonthGame]
    rounds: int
    errors: set[tuple[str, str]]
    counts: dict
    ingest: dict | None
    ingest_output: str
    verify: dict | None
    verify_output: str


def run(*args: str) -> tuple[dict | None, str]:
    """Run the CLI; its JSON document (None when there is none) and its output."""
    result = runner.invoke(app, list(args))
    try:
        return json.loads(result.stdout), result.output
    except ValueError:
        return None, f"exit {result.exit_code}: {result.output} {result.exception!r}"


@pytest.fixture(scope="module", params=sorted(SCENARIOS))
def checked(request, tmp_path_factory) -> Checked:
    """The month of a scenario, ingested and verified (once per scenario)."""
    rounds, declared = SCENARIOS[request.param]
    folder: Path = tmp_path_factory.mktemp(f"oracle-{request.param}")
    config = folder / "operator.toml"
    config.write_text(operator_toml([section for section, _ in declared]), encoding="utf-8")
    games = [game for _, game in declared]
    log = folder / "round-log-2026-10.jsonl.gz"
    errors = generate_month(log, games, rounds=rounds, errors=ERRORS, seed=len(request.param))
    db = str(folder / "store.sqlite")
    ingest, ingest_output = run("ingest", "--config", str(config), "--db", db, str(log), "--json")
    verify, verify_output = run(
        "verify", "--config", str(config), "--db", db, "--json", "--month", "2026-10"
    )
    counts = tally(log, games)
    return Checked(games, rounds, errors, counts, ingest, ingest_output, verify, verify_output)


def test_the_month_places_every_bet_offered_and_wins_the_rare_ones(checked):
    """The oracle's month itself: every bet type offered is placed hundreds of times and won
    many times, the rare best rows included."""
    placed, won, top = (checked.counts[name] for name in ("placed", "won", "top"))
    for game in checked.games:
        for bet in game.bets:
            assert placed[bet] >= 300, (bet, placed[bet])
            assert won[bet] >= 50, (bet, won[bet])
            if bet in RARE_TOP:
                assert top[bet] >= 5, (bet, top[bet])
    assert len(checked.errors) == ERRORS


def test_ingest_loads_every_round_and_every_bet(checked):
    assert checked.ingest is not None, checked.ingest_output
    assert checked.ingest["rejected"][:5] == []
    assert checked.ingest["rejected_count"] == 0
    assert checked.ingest["rounds_loaded"] == checked.rounds
    assert checked.ingest["bets_loaded"] == sum(checked.counts["placed"].values())


def test_verify_finds_exactly_the_injected_payout_errors(checked):
    """Precision and recall 1: every wrongly paid bet found, no rightly paid bet flagged."""
    assert checked.verify is not None, checked.verify_output
    assert checked.verify["findings_truncated"] is False
    found = {
        (finding["round_id"], finding["bet_id"])
        for finding in checked.verify["findings"]
        if finding["kind"] == "payout_mismatch"
    }
    missed = sorted(checked.errors - found)
    flagged_wrongly = [
        finding["message"]
        for finding in checked.verify["findings"]
        if finding["kind"] == "payout_mismatch"
        and (finding["round_id"], finding["bet_id"]) not in checked.errors
    ]
    assert (missed[:10], len(missed)) == ([], 0)
    assert (flagged_wrongly[:10], len(flagged_wrongly)) == ([], 0)


def test_verify_checks_every_bet_and_finds_nothing_else(checked):
    assert checked.verify is not None, checked.verify_output
    by_kind = {kind: n for kind, n in checked.verify["findings_by_kind"].items() if n}
    assert by_kind == {"payout_mismatch": ERRORS}
    assert checked.verify["rounds_checked"] == checked.rounds
    assert checked.verify["bets_checked"] == sum(checked.counts["placed"].values())
    others = [f["message"] for f in checked.verify["findings"] if f["kind"] != "payout_mismatch"]
    assert others[:10] == []
