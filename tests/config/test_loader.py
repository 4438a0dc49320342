"""The game catalogue and operator configurations: games.md facts in, strict validation."""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from reporting.config.bets import catalogue_bets
from reporting.config.loader import (
    CATALOGUE_PATH,
    SUPPORTED_LANGUAGES,
    ConfigError,
    default_config_path,
    load_catalogue,
    load_config,
)
from reporting.engine.games import StakeLimits
from reporting.engine.money import RoundingPolicy
from reporting.errors import InputError

SAMPLE_CONFIG = Path(__file__).resolve().parents[2] / "sample_data" / "operator.toml"
MAIN_BETS = ("player", "banker", "tie")


def bets(names: str) -> set[str]:
    return set(names.split())


# --- the catalogue ----------------------------------------------------------------------------


def test_catalogue_has_the_four_games_of_games_md():
    catalogue = load_catalogue()
    assert set(catalogue.games) == {
        "live-baccarat-it",
        "live-baccarat-dk",
        "live-baccarat-gr",
        "mini-baccarat-it",
    }
    assert catalogue.source is None


def test_catalogue_live_baccarat_italy():
    game = load_catalogue().game("live-baccarat-it")
    assert (game.kind, game.jurisdiction, game.decks) == ("live", "IT", 8)
    assert not game.reshuffle_every_round
    assert (game.currency, game.timezone) == ("EUR", "Europe/Rome")
    assert game.bet_ids[:3] == MAIN_BETS
    assert set(game.bet_ids) - set(MAIN_BETS) == bets(
        "player_pair banker_pair perfect_pair either_pair small big player_bonus banker_bonus"
    )
    assert game.pay_table.perfect_pair_variant == "A"
    assert game.pay_table.odds("perfect_pair_both") == game.pay_table.odds("perfect_pair_one") == 25
    assert all(limits == StakeLimits(500, 100_000) for _, limits in game.limits)
    assert {bet for bet, _ in game.limits} == set(game.bet_ids)
    assert (game.below_minimum, game.above_maximum) == ("reject", "cap")
    assert (game.regulator, game.regulator_code) == ("ADM", "2376")
    assert game.declared_rtp == Decimal("99.50")
    assert game.operator_share == Decimal("0.50")
    assert str(game.declared_rtp) == "99.50" and str(game.operator_share) == "0.50"
    assert game.opening_hours == "24h"
    assert game.statistics_reset == "00:01"
    assert game.exclusive_bets == ()
    assert game.rounding is RoundingPolicy.DOWN
    assert game.pay_table.odds("banker") == Fraction(19, 20)  # even money less 5%


def test_catalogue_live_baccarat_denmark():
    game = load_catalogue().game("live-baccarat-dk")
    assert (game.decks, game.currency, game.timezone) == (8, "DKK", "Europe/Copenhagen")
    assert game.jurisdiction == "DK"
    assert set(game.bet_ids) - set(MAIN_BETS) == bets(
        "player_pair banker_pair perfect_pair either_pair player_bonus banker_bonus"
    )
    assert not game.offers("small") and not game.offers("big")
    assert game.pay_table.perfect_pair_variant == "B"
    assert (game.pay_table.odds("perfect_pair_one"), game.pay_table.odds("perfect_pair_both")) == (
        25,
        200,
    )
    assert game.limits_for("banker") == StakeLimits(5_000, 5_000_000)
    assert game.declared_rtp is None and game.operator_share is None


def test_catalogue_live_baccarat_greece_allows_one_pair_bet_per_round():
    game = load_catalogue().game("live-baccarat-gr")
    assert (game.decks, game.currency, game.timezone) == (8, "EUR", "Europe/Athens")
    assert set(game.bet_ids) - set(MAIN_BETS) == bets("player_pair banker_pair")
    assert game.exclusive_bets == (frozenset({"player_pair", "banker_pair"}),)
    assert game.overall_limits == StakeLimits(100, 500_000)


def test_catalogue_mini_baccarat_italy():
    game = load_catalogue().game("mini-baccarat-it")
    assert (game.kind, game.decks, game.reshuffle_every_round) == ("rng", 6, True)
    assert (game.currency, game.timezone) == ("EUR", "Europe/Rome")
    assert game.bet_ids == MAIN_BETS
    assert set(game.bet_ids) - set(MAIN_BETS) == set()
    assert game.overall_limits == StakeLimits(100, 100_000)
    assert game.version == "4.15.1.2"


def test_catalogue_languages_are_supported():
    assert set(SUPPORTED_LANGUAGES) == {
        "it",
        "da",
        "el",
        "en",
        "es",
        "pt",
        "ro",
        "sv",
        "nl",
        "de",
        "fr",
    }
    expected = {
        "live-baccarat-it": ("it", "en"),
        "live-baccarat-dk": ("da", "en"),
        "live-baccarat-gr": ("el", "en"),
        "mini-baccarat-it": ("it", "en"),
    }
    assert {gid: game.languages for gid, game in load_catalogue().games.items()} == expected


def test_limits_for_a_bet_not_offered_is_a_key_error():
    with pytest.raises(KeyError, match="small"):
        load_catalogue().game("mini-baccarat-it").limits_for("small")


def test_unknown_game_lists_the_known_ones():
    with pytest.raises(ConfigError) as error:
        load_catalogue().game("live-baccarat-xx")
    (problem,) = error.value.problems
    assert "'live-baccarat-xx'" in problem
    assert "live-baccarat-it" in problem


# --- the sample configuration -----------------------------------------------------------------


def test_sample_config_loads():
    config = load_config(SAMPLE_CONFIG)
    assert config.name == "Casinò Esempio S.p.A."
    assert config.source == SAMPLE_CONFIG
    # the catalogue's four games, and two of the operator's own on catalogue bases
    assert set(config.games) == set(load_catalogue().games) | {"no-commission-dk", "ez-baccarat-it"}
    assert config.game("no-commission-dk").bet_ids[:3] == ("player", "banker_no_commission", "tie")
    assert config.game("ez-baccarat-it").bet_ids == (
        "player",
        "banker_ez",
        "tie",
        "dragon_7",
        "panda_8",
    )
    denmark = config.game("live-baccarat-dk")
    # the operator lowers the tie maximum only
    assert denmark.limits_for("tie") == StakeLimits(5_000, 1_000_000)
    assert denmark.limits_for("banker") == StakeLimits(5_000, 5_000_000)


def test_default_config_path_is_the_sample_in_a_checkout():
    assert default_config_path() == SAMPLE_CONFIG


def test_default_config_path_installed_is_the_package_s_copy_of_the_sample(monkeypatch, tmp_path):
    """cli.md: without --config, "the shipped sample configuration is used". Installed (no
    sample_data/ beside the package), the catalogue's games were used instead, whose Mini
    Baccarat has no ADM code and no opening hours: `check` warned, and its pages were drafts.
    The package's copy of the sample (the starter ``init`` writes) is used now."""
    from reporting.config import loader
    from reporting.config.keys import STARTER_PATH

    monkeypatch.setattr(loader, "CHECKOUT_SAMPLE", tmp_path / "sample_data" / "operator.toml")
    assert default_config_path() == STARTER_PATH
    installed, checkout = load_config(STARTER_PATH), load_config(SAMPLE_CONFIG)
    assert installed.games == checkout.games and installed.operator.name == checkout.operator.name


def test_no_config_is_the_catalogue():
    assert load_config(None).games == load_catalogue().games


# --- operator configurations: what works ------------------------------------------------------


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "operator.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_custom_game_on_a_catalogue_base(tmp_path):
    path = write(
        tmp_path,
        """
        [operator]
        name = "Test"

        [games.live-baccarat-it-vip]
        base = "live-baccarat-it"
        name = "Live Baccarat VIP"
        limits = { min = "100.00", max = "20000.00" }
        pay = { tie = "9" }
        rounding = "half_even"
        """,
    )
    config = load_config(path)
    assert set(config.games) == {"live-baccarat-it-vip"}
    game = config.game("live-baccarat-it-vip")
    assert game.id == "live-baccarat-it-vip"
    assert game.name == "Live Baccarat VIP"
    assert game.limits_for("player") == StakeLimits(10_000, 2_000_000)
    assert game.pay_table.odds("tie") == 9
    assert game.pay_table.odds("banker") == Fraction(19, 20)
    assert game.rounding is RoundingPolicy.HALF_EVEN
    # everything else comes from the base
    base = load_catalogue().game("live-baccarat-it")
    assert (game.decks, game.bet_ids, game.currency, game.regulator_code) == (
        base.decks,
        base.bet_ids,
        base.currency,
        base.regulator_code,
    )


def test_perfect_pair_variant_can_be_chosen_per_game(tmp_path):
    path = write(
        tmp_path,
        """
        [games.live-baccarat-it]
        perfect_pair = "B"

        [games.live-baccarat-dk]
        perfect_pair = "A"
        """,
    )
    config = load_config(path)
    assert config.game("live-baccarat-it").pay_table.perfect_pair_variant == "B"
    assert config.game("live-baccarat-it").pay_table.odds("perfect_pair_both") == 200
    assert config.game("live-baccarat-dk").pay_table.perfect_pair_variant == "A"


def test_per_bet_limits(tmp_path):
    path = write(
        tmp_path,
        """
        [games.live-baccarat-it.limits]
        per_bet = { tie = { max = "100.00" }, small = { min = "1.00", max = "50.00" } }
        """,
    )
    game = load_config(path).game("live-baccarat-it")
    assert game.limits_for("tie") == StakeLimits(500, 10_000)
    assert game.limits_for("small") == StakeLimits(100, 5_000)
    assert game.limits_for("player") == StakeLimits(500, 100_000)


def test_a_stake_limit_at_the_highest_odds_pays_an_amount_the_ingest_takes(tmp_path):
    """A limit of 100,000,000.00 passed the check with a tie at 10,000 to 1, and every
    winning tie of the month (a payout of 1,000,100,000,000.00) was rejected by the ingest
    as beyond any amount, the month's figures computed without them. The highest limit pays,
    at the highest odds, an amount the ingest takes; a limit above it is refused."""
    from reporting.config.values import MAX_AMOUNT_CENTS, MAX_CENTS, MAX_ODDS

    assert MAX_AMOUNT_CENTS * (MAX_ODDS + 1) < MAX_CENTS
    at_most = write(
        tmp_path,
        """
        [games.live-baccarat-dk]
        limits = { min = "10000000.00", max = "10000000.00" }
        pay = { tie = "10000" }
        """,
    )
    assert load_config(at_most).game("live-baccarat-dk").limits_for("tie").maximum == (
        MAX_AMOUNT_CENTS
    )
    above = write(tmp_path, '[games.live-baccarat-dk]\nlimits = { max = "10000000.01" }\n')
    (problem,) = problems_of(above)
    assert problem.endswith("limits.max: '10000000.01' is too large (at most 10,000,000.00)")


# --- operator configurations: what is refused -------------------------------------------------


def names(problem: str, path: Path, key: str) -> bool:
    """Whether a problem is ``path[:line]: key...`` (the line where the key is written)."""
    return re.match(rf"{re.escape(str(path))}(:[0-9]+)?: {re.escape(key)}", problem) is not None


def problems_of(path: Path) -> list[str]:
    with pytest.raises(ConfigError) as error:
        load_config(path)
    assert str(error.value) == "; ".join(error.value.problems)
    return error.value.problems


@pytest.mark.parametrize(
    ("toml", "key"),
    [
        pytest.param(
            'colour = "red"\n[games.live-baccarat-it]\n', "colour", id="unknown-top-level-key"
        ),
        pytest.param(
            '[operator]\nname = "X"\nemail = "a@b"\n[games.live-baccarat-it]\n',
            "operator.email",
            id="unknown-operator-key",
        ),
        pytest.param(
            "[games.live-baccarat-it]\nshoe_colour = 'red'\n",
            "games.live-baccarat-it.shoe_colour",
            id="unknown-game-key",
        ),
        pytest.param(
            "[games.my-table]\ndecks = 8\n", "games.my-table", id="unknown-game-id-without-base"
        ),
        pytest.param(
            "[games.live-baccarat-it]\ndecks = 9\n", "games.live-baccarat-it.decks", id="decks-9"
        ),
        pytest.param(
            "[games.live-baccarat-it]\ndecks = 0\n", "games.live-baccarat-it.decks", id="decks-0"
        ),
        pytest.param(
            "[games.live-baccarat-it]\ndecks = '8'\n",
            "games.live-baccarat-it.decks",
            id="decks-as-string",
        ),
        pytest.param(
            "[games.live-baccarat-it]\nlimits = { min = '100.00', max = '10.00' }\n",
            "games.live-baccarat-it.limits",
            id="min-above-max",
        ),
        pytest.param(
            "[games.live-baccarat-it]\nlimits = { min = 5, max = '10.00' }\n",
            "games.live-baccarat-it.limits.min",
            id="limit-as-number",
        ),
        pytest.param(
            "[games.live-baccarat-it]\nlimits = { min = '0.00', max = '10.00' }\n",
            "games.live-baccarat-it.limits",
            id="limit-zero",
        ),
        pytest.param(
            "[games.live-baccarat-it]\nreshuffle_every_round = true\nscoreboard = []\n",
            "games.live-baccarat-it.reshuffle_every_round",
            id="a-live-game-reshuffled-every-round",
        ),
        pytest.param(
            "[games.mini-baccarat-it]\nkind = 'live'\nreshuffle_every_round = true\n",
            "games.mini-baccarat-it.reshuffle_every_round",
            id="a-live-game-reshuffled-every-round-on-an-rng-base",
        ),
        pytest.param(
            "[games.live-baccarat-it]\ndecks = 2\ncut_card_depth = 53\n",
            "games.live-baccarat-it.cut_card_depth",
            id="cut-card-past-half-the-shoe",
        ),
        pytest.param(
            "[games.live-baccarat-it]\ntimezone = 'Europe/Atlantis'\n",
            "games.live-baccarat-it.timezone",
            id="bad-timezone",
        ),
        # files of the time zone database that are no civil zone: they loaded, and counted
        # rounds of 31 October 22:30 UTC in November (right/: Rome's summer time all year)
        *(
            pytest.param(
                f"[games.live-baccarat-gr]\ntimezone = '{zone}'\n",
                "games.live-baccarat-gr.timezone",
                id=f"timezone-{zone}",
            )
            for zone in ("right/Europe/Athens", "posix/Europe/Athens", "localtime", "Factory")
        ),
        pytest.param(  # the ADM's months are Rome's: New York's counted 00:30 of 1 November
            "[games.live-baccarat-it]\ntimezone = 'America/New_York'\n",  # in October
            "games.live-baccarat-it.timezone",
            id="a-timezone-not-the-regulator-s",
        ),
        pytest.param(
            "[games.live-baccarat-it]\ncurrency = 'euro'\n",
            "games.live-baccarat-it.currency",
            id="bad-currency",
        ),
        pytest.param(
            "[games.live-baccarat-it]\ndeclared_rtp = '101'\n",
            "games.live-baccarat-it.declared_rtp",
            id="declared-rtp-101",
        ),
        pytest.param(
            "[games.live-baccarat-it]\ndeclared_rtp = '99.505'\n",
            "games.live-baccarat-it.declared_rtp",
            id="declared-rtp-3-decimals",
        ),
        pytest.param(
            "[games.live-baccarat-it]\ndeclared_rtp = 99.5\n",
            "games.live-baccarat-it.declared_rtp",
            id="declared-rtp-as-number",
        ),
        pytest.param(
            "[games.live-baccarat-it]\nlanguages = ['it', 'ja']\n",
            "games.live-baccarat-it.languages",
            id="unsupported-language",
        ),
        pytest.param(
            "[games.mini-baccarat-it.limits]\nper_bet = { small = { max = '10.00' } }\n",
            "games.mini-baccarat-it.limits.per_bet.small",
            id="per-bet-limit-for-a-bet-not-offered",
        ),
        pytest.param(
            "[games.live-baccarat-it]\nbets = ['player', 'dragon']\n",
            "games.live-baccarat-it.bets",
            id="unknown-bet-type",
        ),
        pytest.param(
            "[games.live-baccarat-it]\nrounding = 'up'\n",
            "games.live-baccarat-it.rounding",
            id="unknown-rounding",
        ),
        pytest.param(
            "[games.live-baccarat-it]\nkind = 'video'\n",
            "games.live-baccarat-it.kind",
            id="unknown-kind",
        ),
        pytest.param(
            "[games.live-baccarat-it]\npay = { tie = '-8' }\n",
            "games.live-baccarat-it.pay",
            id="negative-odds",
        ),
        pytest.param(
            "[games.live-baccarat-it]\npay = { jackpot = '100' }\n",
            "games.live-baccarat-it.pay",
            id="unknown-pay-key",
        ),
        pytest.param(
            "[games.live-baccarat-it]\npay_table = 'generous'\n",
            "games.live-baccarat-it.pay_table",
            id="unknown-pay-table",
        ),
        pytest.param(
            "[games.live-baccarat-it]\nstatistics_reset = '24:01'\n",
            "games.live-baccarat-it.statistics_reset",
            id="bad-reset-time",
        ),
        pytest.param(
            "[games.live-baccarat-gr]\nexclusive_bets = [['player_pair', 'small']]\n",
            "games.live-baccarat-gr.exclusive_bets",
            id="exclusive-bet-not-offered",
        ),
        pytest.param(
            "[games.Live_Baccarat]\nbase = 'live-baccarat-it'\n",
            "games.Live_Baccarat",
            id="bad-game-id",
        ),
        pytest.param('[operator]\nname = "X"\n', "games", id="no-games"),
    ],
)
def test_a_bad_configuration_names_the_file_and_the_key(tmp_path, toml, key):
    path = write(tmp_path, toml)
    problems = problems_of(path)
    assert problems
    assert any(names(problem, path, key) for problem in problems), problems
    assert all(names(problem, path, "") for problem in problems), problems


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("JPY", "JPY is counted in 0 decimals; round logs carry money in hundredths"),
        ("KWD", "KWD is counted in 3 decimals; round logs carry money in hundredths"),
        ("XYZ", "'XYZ' is not an ISO 4217 code of a currency in use"),
        ("DEM", "'DEM' is not an ISO 4217 code of a currency in use"),
    ],
)
def test_a_currency_whose_amounts_are_not_hundredths_is_refused(tmp_path, code, message):
    """Money is read, stored and paid in hundredths: a rule sheet of a yen game printed "a
    winning Banker bet of JP¥5 earns 0.95 × 5.35 = 5.0825, paid as JP¥5"."""
    path = write(tmp_path, f"[games.live-baccarat-it]\ncurrency = '{code}'\n")
    (problem,) = problems_of(path)
    assert names(problem, path, "games.live-baccarat-it.currency"), problem
    assert message in problem
    for accepted in ("EUR", "DKK", "SEK", "RON", "GBP"):  # a game of no regulator's block
        path = write(tmp_path, f"[games.live-baccarat-dk]\ncurrency = '{accepted}'\n")
        assert load_config(path).games["live-baccarat-dk"].currency == accepted


def test_a_catalogue_bet_s_winning_row_pays_odds_not_a_push_or_a_loss(tmp_path):
    """``pay = { player = "lose" }`` printed "The Player wins. → Loses" and an RTP of 9.52%
    for a bet that cannot win; in a game's pay, a pay table, and ``odds --pay`` alike. A row
    whose default is a push may stay one; an own bet's rows may pay anything."""
    from reporting.config.pay_overrides import apply_pay_overrides
    from reporting.engine.bets import PayTable

    path = write(
        tmp_path,
        "[pay_tables.mine]\nbase = 'standard'\ntie = 'lose'\n"
        "[games.live-baccarat-it]\npay = { player = 'lose', banker = 'push' }\n",
    )
    problems = problems_of(path)
    for key, value in (
        ("pay_tables.mine.tie", "'lose'"),
        ("games.live-baccarat-it.pay.player", "'lose'"),
        ("games.live-baccarat-it.pay.banker", "'push'"),
    ):
        (problem,) = [problem for problem in problems if names(problem, path, key)]
        assert f"{value}: the " in problem and "wins on this row, which pays odds" in problem
    assert len(problems) == 3, problems
    bonus = write(
        tmp_path,
        "[games.live-baccarat-it]\nbets = ['player', 'banker', 'tie', 'player_bonus']\n"
        "pay = { bonus_natural_tie = 'push' }\n",
    )
    pays = dict(load_config(bonus).games["live-baccarat-it"].pay_table.pays)
    assert pays["bonus_natural_tie"] == "push"
    table = PayTable.of([catalogue_bets()["tie"]])
    with pytest.raises(InputError, match="'push': the tie bet wins on this row"):
        apply_pay_overrides(table, ["tie=push"])
    assert apply_pay_overrides(table, ["tie=9"]).odds("tie") == 9
    bonus = PayTable.of([catalogue_bets()["player_bonus"]])
    with pytest.raises(InputError, match="this row of the player_bonus bet pays odds or returns"):
        apply_pay_overrides(bonus, ["bonus_natural_tie=lose"])


@pytest.mark.parametrize(
    ("toml", "key", "message"),
    [
        (
            "[games.live-baccarat-dk]\nregulator = 'ADM'\nregulator_code = '1'\n",
            "games.live-baccarat-dk.regulator",
            "ADM regulates games in IT, and this game's jurisdiction is DK: its regulator is DGA,"
            ' or set jurisdiction = "IT"',
        ),
        (
            "[games.live-baccarat-it]\ncurrency = 'DKK'\n",
            "games.live-baccarat-it.currency",
            "DKK: a game of ADM (IT) is played in EUR",
        ),
        (
            "[games.live-baccarat-it]\ntimezone = 'Europe/London'\n",
            "games.live-baccarat-it.timezone",
            "Europe/London: a game of ADM (IT) counts its months and dates its pages in"
            " Europe/Rome",
        ),
    ],
)
def test_a_game_carries_its_own_market_s_regulator_in_its_currency(tmp_path, toml, key, message):
    """An ADM block on a Danish game named the Danish licence above "published under the rules
    of the ADM", its limits in kroner; an ADM game in London's time was counted an hour off
    Rome's."""
    path = write(tmp_path, toml)
    (problem,) = problems_of(path)
    assert names(problem, path, key), problem
    assert problem.endswith(message), problem


def own_bet_on_a_danish_game(bet_id: str, group: str, rows: str, decks: int) -> str:
    """A configuration of one own bet (its ``rows``, TOML lines) offered beside Player and
    Banker by the Danish game, dealt from ``decks`` decks, published in English."""
    return f"""
        [bets.{bet_id}]
        group = "{group}"
        name = {{ en = "{bet_id.capitalize()}" }}
        wins = {{ en = "When it wins." }}
        rows = [{rows}
        ]
        [games.live-baccarat-dk]
        decks = {decks}
        languages = ["en"]
        bets = ["player", "banker", "{bet_id}"]
        """


def test_a_bet_that_can_never_win_on_the_game_s_shoe_is_refused_at_decks(tmp_path):
    """One deck deals no suited pair: a Perfect Pair offered on it was printed at 25:1 and
    0.00%. Judged on the game's own shoe and pays, for catalogue and own bets alike."""
    path = write(tmp_path, "[games.live-baccarat-dk]\ndecks = 1\n")
    (problem,) = problems_of(path)
    assert names(problem, path, "games.live-baccarat-dk.decks"), problem
    assert problem.endswith(
        "the perfect_pair bet can never win on a shoe of 1 deck: deal it from more decks, or"
        " leave the bet out"
    )
    two = write(tmp_path, "[games.live-baccarat-dk]\ndecks = 2\n")
    assert load_config(two).games["live-baccarat-dk"].decks == 2
    own = write(
        tmp_path,
        own_bet_on_a_danish_game(
            "suited",
            "bonus",
            """
          { when = { player_suited_pair = true }, key = "suited", pays = "50", says = { en = "A suited pair." } },
          { when = { winner = "tie" }, pays = "push", says = { en = "A tie." } },""",
            decks=1,
        ),
    )
    (problem,) = problems_of(own)
    assert "the suited bet can never win on a shoe of 1 deck" in problem
    # An own bet that can never win as declared is refused there, once: more decks would not
    # help it, and the game's shoe is not named.
    never = write(
        tmp_path,
        own_bet_on_a_danish_game(
            "mine",
            "side",
            """
          { when = { player_natural = true, player_cards = 3 }, pays = "10", says = { en = "A row." } },""",
            decks=6,
        ),
    )
    (problem,) = problems_of(never)
    assert "can never win: no deal meets the conditions of a row that pays odds" in problem


def test_a_bet_the_game_s_pays_leave_no_win_is_refused_at_the_pay_key(tmp_path):
    """An own bet paid "push" by its game on its one winning row was refused at ``decks``
    ("deal it from more decks") on eight decks, the most there are, at the game's header:
    the problem is the pay, named at its key's line."""
    text = own_bet_on_a_danish_game(
        "mine",
        "side",
        """
          { when = { winner = "banker", banker_total = 6 }, key = "mine", pays = "40", says = { en = "A six." } },""",
        decks=8,
    )
    path = write(tmp_path, text + 'pay = { mine = "push" }\n')
    (problem,) = problems_of(path)
    assert names(problem, path, "games.live-baccarat-dk.pay.mine"), problem
    assert problem.endswith(
        "the mine bet can never win under the pays of live-baccarat-dk: mine paid as a push or a loss leaves"
        " it no row that pays odds; pay one at odds, or leave the bet out"
    )
    assert "decks" not in problem


def test_a_pay_of_no_bet_the_game_offers_is_a_problem_at_its_key(tmp_path, sample_config_path):
    """``pay = { super_6 = "15" }`` and ``perfect_pair = "B"`` on the EZ game (Player, EZ
    Banker, Tie, Dragon 7, Panda 8) were taken and dropped without a word: the operator
    believed Super 6 paid 15:1 there. Each is a problem at its key; Dragon 7's pay is read."""
    text = sample_config_path.read_text(encoding="utf-8").replace(
        'bets = ["player", "banker_ez", "tie", "dragon_7", "panda_8"]\npay_table = "standard"\n',
        'bets = ["player", "banker_ez", "tie", "dragon_7", "panda_8"]\npay_table = "standard"\n'
        'pay = { super_6 = "15", dragon_7 = "40" }\nperfect_pair = "B"\n',
    )
    path = write(tmp_path, text)
    (tmp_path / "logo.svg").write_bytes((sample_config_path.parent / "logo.svg").read_bytes())
    problems = problems_of(path)
    offered = "the pay of no bet this game offers (its bets' pays: banker_ez, dragon_7, panda_8, player, tie): remove it, or offer the bet it pays"  # fmt: skip
    assert problems == [
        f"{path}:82: games.ez-baccarat-it.pay.super_6: super_6: {offered}",
        f"{path}:83: games.ez-baccarat-it.perfect_pair: perfect_pair chooses how"
        f" perfect_pair_one pays: {offered}",
    ]


def test_a_pay_of_no_bet_offered_is_told_beside_the_game_s_other_problems(
    tmp_path, sample_config_path
):
    """The pays of no bet offered were judged on the built game: a game whose limits had a
    problem too was not built, and its ``pay = { super_6 = "15" }`` was told only on the next
    run, once the limits were mended. Both are told at once; a refused pay flag is told once,
    as refused, not also as the pay of no bet."""
    text = sample_config_path.read_text(encoding="utf-8").replace(
        'pay_table = "standard"\nlimits = { min = "5.00", max = "1000.00" }\n',
        'pay_table = "standard"\npay = { super_6 = "15" }\nperfect_pair = "C"\n'
        'limits = { min = "5.00", max = "1000.00", per_bet = { player = { min = "2000.00" } } }\n',
    )
    path = write(tmp_path, text)
    (tmp_path / "logo.svg").write_bytes((sample_config_path.parent / "logo.svg").read_bytes())
    offered = "the pay of no bet this game offers (its bets' pays: banker_ez, dragon_7, panda_8, player, tie): remove it, or offer the bet it pays"  # fmt: skip
    assert problems_of(path) == [
        f"{path}:82: games.ez-baccarat-it.pay.super_6: super_6: {offered}",
        f"{path}:83: games.ez-baccarat-it.perfect_pair: 'C' is not one of A, B",
        f"{path}:84: games.ez-baccarat-it.limits.per_bet.player: min 2000.00 is above max"
        " 1000.00 (the game's)",
    ]


def test_loading_counts_no_deal_for_a_game_of_eight_decks(monkeypatch, sample_config_path):
    """Every row of a bet decides on eight decks (each declaration is held to it), so whether
    a bet of an eight-deck game can win needs no count: counting every bet of every game took
    most of each command's start, odds's and ingest's too. Only a smaller shoe is counted,
    each bet once."""
    import reporting.engine.odds as odds

    counted = []
    row_reach = odds.row_reach

    def counting(bet, decks):
        counted.append((bet.id, decks))
        return row_reach(bet, decks)

    monkeypatch.setattr(odds, "row_reach", counting)
    config = load_config(sample_config_path)
    small = [game for game in config.games.values() if game.decks < 8]
    assert small and any(game.decks == 8 for game in config.games.values())
    assert sorted(counted) == sorted((bet.id, game.decks) for game in small for bet in game.bets)


def test_a_cut_card_leaves_at_least_half_the_shoe_to_deal(tmp_path):
    """One deck cut 45 cards from its end dealt one hand, and its page said "The 1 hands of
    the example shoe, in 1 columns"."""
    (problem,) = problems_of(
        write(tmp_path, "[games.live-baccarat-it]\ndecks = 1\ncut_card_depth = 45\n")
    )
    assert problem.endswith(
        "games.live-baccarat-it.cut_card_depth: 45 cards behind the cut card leave 7 of the"
        " shoe's 52 to deal: place it at most 26 cards from the end (half the shoe dealt at"
        " least)"
    )
    half = write(tmp_path, "[games.live-baccarat-it]\ndecks = 2\ncut_card_depth = 52\n")
    assert load_config(half).games["live-baccarat-it"].cut_card_depth == 52


def test_an_exclusive_group_another_one_already_holds_is_refused(tmp_path):
    """A group given twice, or inside a wider one, printed its house rule twice."""
    path = write(
        tmp_path,
        "[games.live-baccarat-gr]\nexclusive_bets = [['player', 'banker'], ['banker', 'player'],"
        " ['player', 'banker', 'tie'], ['tie', 'player_pair']]\n",
    )
    problems = problems_of(path)
    assert [problem.split("exclusive_bets: ")[1] for problem in problems] == [
        "['banker', 'player'] says again what ['banker', 'player', 'tie'] says (a page would"
        " state the rule twice): remove it",
        "['banker', 'player'] says again what ['banker', 'player'] says (a page would state the"
        " rule twice): remove it",
    ]
    apart = write(
        tmp_path,
        "[games.live-baccarat-gr]\nexclusive_bets = [['player', 'banker'], ['tie', 'player']]\n",
    )
    assert len(load_config(apart).games["live-baccarat-gr"].exclusive_bets) == 2


def test_a_game_of_the_other_kind_than_its_base_has_the_shoe_of_its_kind(tmp_path):
    """kind is the one fact: a live game on the RNG base is dealt from a shoe, an RNG game on
    a live base reshuffled before every round, unless the file says otherwise (refused)."""
    live = write(tmp_path, "[games.mini-baccarat-it]\nkind = 'live'\n")
    assert not load_config(live).games["mini-baccarat-it"].reshuffle_every_round
    rng = write(tmp_path, "[games.live-baccarat-it]\nkind = 'rng'\nscoreboard = []\n")
    assert load_config(rng).games["live-baccarat-it"].reshuffle_every_round


def test_every_problem_is_collected_at_once(tmp_path):
    path = write(
        tmp_path,
        """
        colour = "red"

        [games.live-baccarat-it]
        decks = 9
        currency = "euro"
        timezone = "Mars/Olympus"
        declared_rtp = "101"
        languages = ["it", "ja"]
        shoe_colour = "red"

        [games.mini-baccarat-it.limits]
        min = "10.00"
        max = "1.00"

        [games.nowhere]
        decks = 8
        """,
    )
    problems = problems_of(path)
    expected_keys = [
        "colour",
        "games.live-baccarat-it.decks",
        "games.live-baccarat-it.currency",
        "games.live-baccarat-it.timezone",
        "games.live-baccarat-it.declared_rtp",
        "games.live-baccarat-it.languages",
        "games.live-baccarat-it.shoe_colour",
        "games.mini-baccarat-it.limits",
        "games.nowhere",
    ]
    for key in expected_keys:
        assert any(names(problem, path, key) for problem in problems), (key, problems)
    assert len(problems) >= len(expected_keys)


def test_messages_say_what_to_do_next(tmp_path):
    (problem,) = problems_of(write(tmp_path, "[games.my-table]\ndecks = 8\n"))
    assert "base =" in problem and "live-baccarat-it" in problem
    (problem,) = problems_of(write(tmp_path, "[games.live-baccarat-it]\nlanguages = ['ja']\n"))
    assert "'ja'" in problem and ", ".join(SUPPORTED_LANGUAGES) in problem


def test_missing_and_unparsable_files(tmp_path):
    missing = tmp_path / "nope.toml"
    (problem,) = problems_of(missing)
    assert problem == f"{missing}: file not found"
    # a link to nothing and a loop of links were "file not found" too, beside a name in the
    # folder: what stands there is said
    (tmp_path / "gone.toml").symlink_to("removed.toml")
    (tmp_path / "a.toml").symlink_to("b.toml")
    (tmp_path / "b.toml").symlink_to("a.toml")
    assert problems_of(tmp_path / "gone.toml") == [
        f"{tmp_path / 'gone.toml'}: is a symbolic link to nothing (its target does not exist)"
    ]
    assert problems_of(tmp_path / "a.toml") == [
        f"{tmp_path / 'a.toml'}: is a loop of symbolic links"
    ]
    broken = write(tmp_path, "[games.live-baccarat-it\n")
    (problem,) = problems_of(broken)
    assert problem.startswith(f"{broken}:1: not valid TOML")


def test_catalogue_path_is_shipped_in_the_package():
    assert CATALOGUE_PATH.is_file()
    assert CATALOGUE_PATH.parent.name == "data"


# --- lines and "did you mean" -------------------------------------------------------------------


def test_near_misses_are_named(tmp_path):
    problems = problems_of(
        write(
            tmp_path,
            "[game.live-baccarat-it]\n"
            "[games.live-baccarat-itt]\n"
            "[games.live-baccarat-dk]\n"
            "rounding = 'half-up'\n"
            "bets = ['player', 'baker']\n"
            "[games.my-table]\n"
            "base = 'live-baccarat-gk'\n",
        )
    )
    assert [problem.split(": ", 1)[1] for problem in problems] == [
        "game: unknown key; did you mean 'games'?",
        "games.live-baccarat-itt: not a catalogue game; set base = one of live-baccarat-dk,"
        " live-baccarat-gr, live-baccarat-it, mini-baccarat-it to define it; did you mean"
        " 'live-baccarat-it'?",
        "games.live-baccarat-dk.rounding: 'half-up' is not one of down, half_up, half_even;"
        " did you mean 'half_up'?",
        "games.live-baccarat-dk.bets: 'baker' is not a known bet type (known:"
        f" {', '.join(catalogue_bets())}); did you mean 'banker'?",
        "games.my-table.base: 'live-baccarat-gk' is not a known catalogue game (known:"
        " live-baccarat-it, live-baccarat-dk, live-baccarat-gr, mini-baccarat-it); did you mean"
        " 'live-baccarat-gr'?",
    ]
    assert [problem.split(": ", 1)[0] for problem in problems] == [
        f"{tmp_path / 'operator.toml'}:{line}" for line in (1, 2, 4, 5, 7)
    ]


def test_an_unknown_game_asked_for_suggests_the_nearest():
    with pytest.raises(ConfigError, match="did you mean 'live-baccarat-it'"):
        load_catalogue().game("live-baccarat-itt")


def test_pay_tables_that_are_their_own_base_or_name_a_missing_one(tmp_path):
    problems = problems_of(
        write(
            tmp_path,
            "[pay_tables.a]\nbase = 'b'\n[pay_tables.b]\nbase = 'a'\n"
            "[pay_tables.c]\nbase = 'standart'\n"
            "[pay_tables.d]\nbase = 'd'\n"
            "[games.live-baccarat-it]\npay_table = 'a'\n",
        )
    )
    assert any(
        ":8: pay_tables.d.base: pay tables cannot be their own base: d -> d" in p for p in problems
    )
    assert any(
        ":4: pay_tables.b.base: pay tables cannot be their own base: a -> b -> a" in p
        for p in problems
    )
    assert any(":6: pay_tables.c.base: no pay table 'standart'" in p for p in problems)
    assert any("did you mean 'standard'?" in p for p in problems)


def test_a_pay_table_of_the_operator_changes_its_base_and_the_game_uses_it(tmp_path):
    path = write(
        tmp_path,
        "[pay_tables.generous]\nbase = 'perfect_pair_b'\ntie = '9'\n"
        "[games.live-baccarat-it]\npay_table = 'generous'\n",
    )
    table = load_config(path).game("live-baccarat-it").pay_table
    assert (table.odds("tie"), table.odds("perfect_pair_both"), table.odds("banker")) == (
        9,
        200,
        Fraction(19, 20),
    )


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('games = "live-baccarat-dk"\n', "not 'live-baccarat-dk'"),
        ("[[games]]\nid = 'live-baccarat-dk'\n", "not a list"),
        ("games = []\n", "not a list"),
    ],
)
def test_games_that_are_not_a_table_are_told_so(tmp_path, text, said):
    """``games = "live-baccarat-dk"`` was told "list at least one game", as if none were
    listed: it is no table of games."""
    (problem,) = problems_of(write(tmp_path, text))
    assert problem.endswith(
        f"games: must be a table of games, e.g. [games.live-baccarat-it], {said}"
    )


def test_a_pay_table_named_as_a_built_in_one_changes_it(tmp_path):
    """``[pay_tables.perfect_pair_b]`` with ``tie = "9"`` stood on ``standard``: the Danish
    catalogue game, on perfect_pair_b, paid both hands of a perfect pair 25:1 instead of 200:1,
    without a word. A table named as a built-in one starts from it (as ``base`` set to its own
    name does); a base it names is kept; the known tables of a message are the file's names."""

    def danish(text: str) -> tuple:
        table = load_config(write(tmp_path, text)).game("live-baccarat-dk").pay_table
        return table.odds("tie"), table.odds("perfect_pair_both")

    assert danish("[pay_tables.perfect_pair_b]\ntie = '9'\n[games.live-baccarat-dk]\n") == (9, 200)
    assert danish(
        "[pay_tables.perfect_pair_b]\nbase = 'perfect_pair_b'\nperfect_pair_both = '150'\n"
        "[games.live-baccarat-dk]\n"
    ) == (8, 150)
    assert danish(
        "[pay_tables.perfect_pair_b]\nbase = 'standard'\ntie = '9'\n[games.live-baccarat-dk]\n"
    ) == (9, 25)
    # the file's standard: the built-in standard changed, and perfect_pair_b on top of it
    assert danish("[pay_tables.standard]\ntie = '9'\n[games.live-baccarat-dk]\n") == (9, 200)
    (problem,) = problems_of(
        write(tmp_path, "[pay_tables.perfect_pair_b]\nbase = 'nope'\n[games.live-baccarat-dk]\n")
    )
    assert problem.endswith("no pay table 'nope' (known: perfect_pair_b, standard)")


def test_a_pay_the_bet_s_sentence_states_otherwise_is_refused_where_it_is_written(tmp_path):
    """A Banker (no commission) six paid 3/4: the page said "a Banker win with a total of 6
    pays half" beside 0.75:1; a Lucky 6 paying its two-card 6 more than its three-card one
    kept "a three-card 6 pays more"."""
    path = tmp_path / "operator.toml"
    path.write_text(
        '[operator]\nname = "X"\n[games.live-baccarat-dk]\n'
        'bets = ["player", "banker_no_commission", "tie", "lucky_6"]\n'
        'pay = { banker_no_commission_six = "0.75", lucky_6_two_cards = "20",'
        ' lucky_6_three_cards = "12" }\n',
        encoding="utf-8",
    )
    problems = problems_of(path)
    assert [problem.split(": the ")[0] for problem in problems] == [
        f"{path}:5: games.live-baccarat-dk.pay.banker_no_commission_six",
        f"{path}:5: games.live-baccarat-dk.pay.lucky_6_three_cards",
    ]
    assert problems[0].endswith(
        "holds only where banker_no_commission_six pays 0.5: pay it so, or offer an own bet"
        " that says what this game pays"
    )
    assert "holds only where lucky_6_three_cards pays more than lucky_6_two_cards" in problems[1]


def test_each_catalogue_sentence_that_states_a_pay_holds_of_its_own_pays():
    """The catalogue's ``wins_holds`` name their bet's own pay keys, and its default pays keep
    its sentence true (a typo in one would refuse every game that offers the bet)."""
    from reporting.config.bets import catalogue_bets
    from reporting.engine.bets import PayTable

    stating = {bet_id: bet for bet_id, bet in catalogue_bets().items() if bet.wins_holds}
    assert set(stating) == {"banker_no_commission", "lucky_6", "tiger", "tiger_pair"}
    for bet in stating.values():
        table = PayTable.of([bet])
        for key, relation, other in bet.wins_holds:
            assert key in bet.pay_keys and relation in ("=", ">"), bet.id
            assert (other in bet.pay_keys) == (relation == ">"), bet.id
            if relation == ">":
                assert table.odds(key) > table.odds(other), bet.id
            else:
                assert str(table.odds(key)) == other, bet.id
