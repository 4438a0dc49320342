"""The operator's own bets (issue 22, point 4): ``[bets.ID]`` declared in the configuration
with the catalogue's vocabulary, their exact odds, and what ``check`` refuses.

tests/config/own_bets.toml holds the worked examples of docs/operators/catalogue-and-games.md: Heavenly 9 and Blazing 7s (two
of the "5 Treasures" side bets) and a Monkey 6 on face cards.
"""

from __future__ import annotations

import itertools
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from reporting.cli import app
from reporting.config.bets import catalogue_bets, check_rows_decide
from reporting.config.effective import effective_document, to_toml
from reporting.config.loader import ConfigError, load_config
from reporting.config.values import Problems
from reporting.engine.facts import FACTS, FactGroup
from reporting.engine.odds import bet_odds
from reporting.engine.theory import describe_odds

OWN_BETS = Path(__file__).resolve().parent / "own_bets.toml"
runner = CliRunner()


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "operator.toml"
    path.write_text(text, encoding="utf-8")
    return path


def problems_of(path: Path) -> list[str]:
    with pytest.raises(ConfigError) as error:
        load_config(path)
    return error.value.problems


# --- the worked examples ----------------------------------------------------------------------


def test_the_worked_examples_load_as_bets_of_the_game():
    config = load_config(OWN_BETS)
    game = config.game("treasures-it")
    assert set(config.own_bets) == {"heavenly_9", "blazing_7s", "monkey_6"}
    assert game.bet_ids == ("player", "banker", "tie", "heavenly_9", "blazing_7s", "monkey_6")
    for bet_id in config.own_bets:
        bet = game.bet(bet_id)
        assert bet is config.own_bets[bet_id] and bet.own
        assert {language for language, _ in bet.name.by_language} == {"en", "it"}
        assert all({lang for lang, _ in row.says.by_language} == {"en", "it"} for row in bet.rows)
    assert game.bet("heavenly_9").name.in_language("it") == "Nove Celeste"
    assert game.bet("monkey_6").fact_groups == {FactGroup.POINTS, FactGroup.FACES}
    assert game.pay_table.odds("monkey_6") == 450
    assert describe_odds(game.bet("heavenly_9"), game.pay_table) == (
        "heavenly_9_natural 3:1, heavenly_9_three_cards 2:1"
    )


def test_check_is_clean_on_the_worked_examples():
    result = runner.invoke(app, ["check", "--config", str(OWN_BETS), "--json"])
    document = json.loads(result.stdout)
    assert (document["problems"], document["warnings"]) == ([], [])
    assert result.exit_code == 0


def odds_json(*args: str) -> dict:
    result = runner.invoke(app, ["odds", "--config", str(OWN_BETS), *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def exact(text: str) -> Fraction:
    return Fraction(text)


# An independent count for the points bets: the deal card by card over point classes (P1, B1,
# P2, B2, thirds), games.md's rules written out again, each leaf weighted by the cards left.
PLAYER_DRAWS_ON = set(range(6))
BANKER_DRAWS_AFTER = {0: set(range(10)), 1: set(range(10)), 2: set(range(10)),
                      3: set(range(10)) - {8}, 4: set(range(2, 8)), 5: set(range(4, 8)),
                      6: {6, 7}, 7: set()}  # fmt: skip


def _falling(n: int, k: int) -> int:
    result = 1
    for i in range(k):
        result *= n - i
    return result


def rounds_by_points(decks: int) -> dict[tuple[int, int, int, int, bool, bool], Fraction]:
    """(Player's total, Banker's, Player's cards, Banker's cards, naturals) -> probability."""
    counts = [16 * decks] + [4 * decks] * 9
    size = 52 * decks
    found: dict[tuple, Fraction] = {}

    def leaf(player: list[int], banker: list[int], weight: int) -> None:
        key = (sum(player) % 10, sum(banker) % 10, len(player), len(banker),
               sum(player[:2]) % 10 >= 8, sum(banker[:2]) % 10 >= 8)  # fmt: skip
        cards = len(player) + len(banker)
        found[key] = found.get(key, 0) + Fraction(weight, _falling(size, cards))

    for p1, b1, p2, b2 in itertools.product(range(10), repeat=4):
        weight = 1
        for point in (p1, b1, p2, b2):
            weight *= counts[point]
            counts[point] -= 1
        player, banker = [p1, p2], [b1, b2]
        player_two, banker_two = (p1 + p2) % 10, (b1 + b2) % 10
        if weight == 0:
            pass
        elif player_two >= 8 or banker_two >= 8:
            leaf(player, banker, weight)
        elif player_two in PLAYER_DRAWS_ON:
            for p3 in range(10):
                w5 = weight * counts[p3]
                if not w5:
                    continue
                counts[p3] -= 1
                if p3 in BANKER_DRAWS_AFTER[banker_two]:
                    for b3 in range(10):
                        if counts[b3]:
                            leaf([*player, p3], [*banker, b3], w5 * counts[b3])
                else:
                    leaf([*player, p3], banker, w5)
                counts[p3] += 1
        elif banker_two <= 5:
            for b3 in range(10):
                if counts[b3]:
                    leaf(player, [*banker, b3], weight * counts[b3])
        else:
            leaf(player, banker, weight)
        for point in (p1, b1, p2, b2):
            counts[point] += 1
    return found


def test_odds_gives_each_own_bet_its_exact_rtp_as_an_independent_count_does():
    document = odds_json("--game", "treasures-it")
    assert set(document["bets"]) == {
        "player", "banker", "tie", "heavenly_9", "blazing_7s", "monkey_6"
    }  # fmt: skip
    rounds = rounds_by_points(8)
    # Blazing 7s: a 7-7 tie pays 40:1, six cards 100:1.
    six_cards = sum(
        p for (pt, bt, pc, bc, _, _), p in rounds.items() if pt == bt == 7 and pc == bc == 3
    )
    any_7_7 = sum(p for (pt, bt, *_), p in rounds.items() if pt == bt == 7)
    blazing = document["bets"]["blazing_7s"]
    assert exact(blazing["rtp_exact"]) == 101 * six_cards + 41 * (any_7_7 - six_cards)
    assert blazing["pays"] == "blazing_7s_six_cards 100:1, blazing_7s 40:1"
    # Heavenly 9: a natural 9 wins 3:1, a three-card 9 2:1.
    natural = sum(
        p
        for (pt, bt, pc, bc, pn, bn), p in rounds.items()
        if (pt == 9 > bt and pn) or (bt == 9 > pt and bn)
    )
    three_cards = sum(
        p
        for (pt, bt, pc, bc, _, _), p in rounds.items()
        if (pt == 9 > bt and pc == 3) or (bt == 9 > pt and bc == 3)
    )
    assert exact(document["bets"]["heavenly_9"]["rtp_exact"]) == 4 * natural + 3 * three_cards
    for bet_id in ("heavenly_9", "blazing_7s", "monkey_6"):
        assert 0.85 < document["bets"][bet_id]["rtp"] < 1


def monkey_6_by_classes(decks: int) -> Fraction:
    """The probability of a Monkey 6 win, dealt card by card over (points, face card) classes:
    the Banker ends on a three-card 6 holding two or more of J, Q and K, and wins."""
    classes = [(points, False, 4 * decks) for points in range(1, 10)]
    classes += [(0, False, 4 * decks), (0, True, 12 * decks)]
    counts = [count for _, _, count in classes]
    size = 52 * decks
    total = Fraction(0)
    for p1, b1, p2, b2 in itertools.product(range(len(classes)), repeat=4):
        weight = 1
        for card in (p1, b1, p2, b2):
            weight *= counts[card]
            counts[card] -= 1
        player_two = (classes[p1][0] + classes[p2][0]) % 10
        banker_two = (classes[b1][0] + classes[b2][0]) % 10
        banker_faces = classes[b1][1] + classes[b2][1]
        if weight and player_two < 8 and banker_two < 8 and banker_faces >= 1:
            if player_two in PLAYER_DRAWS_ON:
                thirds = [
                    (p3, counts[p3])
                    for p3 in range(len(classes))
                    if classes[p3][0] in BANKER_DRAWS_AFTER[banker_two]
                ]
            else:
                thirds = [(None, 1)] if banker_two <= 5 else []
            for p3, w5 in thirds:
                if p3 is not None:
                    counts[p3] -= 1
                player_total = (player_two + (0 if p3 is None else classes[p3][0])) % 10
                for b3, (points, face, _) in enumerate(classes):
                    banker_total = (banker_two + points) % 10
                    if banker_total == 6 > player_total and banker_faces + face >= 2:
                        cards = 6 if p3 is not None else 5
                        ways = weight * w5 * counts[b3] * _falling(size - cards, 6 - cards)
                        total += Fraction(ways, _falling(size, 6))
                if p3 is not None:
                    counts[p3] += 1
        for card in (p1, b1, p2, b2):
            counts[card] += 1
    return total


def test_monkey_6_reads_face_cards_and_its_odds_are_an_independent_count():
    document = odds_json("--game", "treasures-it", "--decks", "1")
    win = monkey_6_by_classes(1)
    assert win > 0
    assert exact(document["bets"]["monkey_6"]["rtp_exact"]) == 451 * win
    assert document["bets"]["monkey_6"]["win"] == float(win)


def test_a_game_changes_an_own_bet_s_pay_by_its_key(tmp_path):
    text = OWN_BETS.read_text(encoding="utf-8") + 'pay = { monkey_6 = "500" }\n'
    game = load_config(write(tmp_path, text)).game("treasures-it")
    assert game.pay_table.odds("monkey_6") == 500
    before = bet_odds(game.bet("monkey_6"), 8, load_config(OWN_BETS).game("treasures-it").pay_table)
    after = bet_odds(game.bet("monkey_6"), 8, game.pay_table)
    assert after.rtp - before.rtp == 50 * after.win


def test_the_effective_configuration_writes_the_own_bets_back(tmp_path):
    config = load_config(OWN_BETS)
    written = write(tmp_path, to_toml(effective_document(config)))
    again = load_config(written)
    assert again.own_bets == config.own_bets
    assert again.games == config.games
    assert effective_document(again) == effective_document(config)


# --- what check refuses: one clear line each --------------------------------------------------

BET = """\
[bets.mine]
group = "side"
name = {{ en = "Mine" }}
wins = {{ en = "When it wins." }}
rows = [
{rows}
]

[games.mine-it]
base = "live-baccarat-it"
bets = ["player", "banker", "mine"]
languages = ["en"]
declared_rtp = "98.00"
"""


def row(when: str, pays: str = "10", key: str | None = None) -> str:
    keyed = f', key = "{key}"' if key else ""
    return f'  {{ when = {{ {when} }}, pays = "{pays}"{keyed}, says = {{ en = "A row." }} }},'


def declared(tmp_path: Path, *rows: str) -> tuple[Path, list[str]]:
    path = write(tmp_path, BET.format(rows="\n".join(rows)))
    return path, problems_of(path)


def test_a_bet_that_can_never_win_is_one_error_at_the_bet(tmp_path):
    path, problems = declared(tmp_path, row("player_natural = true, player_cards = 3"))
    assert problems == [
        f"{path}:1: bets.mine: can never win: no deal meets the conditions of a row that pays"
        " odds; check its rows' conditions"
    ]


def test_a_bet_whose_winning_rows_are_taken_by_a_push_row_can_never_win(tmp_path):
    _, problems = declared(
        tmp_path, row('winner = "banker"', "push"), row('winner = "banker", banker_total = 6')
    )
    (problem,) = problems
    assert ": bets.mine: can never win: " in problem and "rows above it take the deal" in problem


def test_a_row_taken_by_the_rows_above_it_is_one_error_at_its_line(tmp_path):
    path, problems = declared(
        tmp_path,
        row('winner = "banker"', "1", "mine_any"),
        row('winner = "banker", banker_total = 6', "2", "mine_six"),
    )
    assert problems == [
        f"{path}:7: bets.mine.rows.2: never decides: row 1 above it takes every deal it holds on;"
        " move it above them or narrow their conditions"
    ]


def test_a_row_whose_conditions_never_meet_is_one_error(tmp_path):
    path, problems = declared(
        tmp_path,
        row('winner = "banker", banker_total = 6', "12", "mine_six"),
        row("banker_natural = true, banker_cards = 3", "50", "mine_never"),
    )
    assert problems == [
        f"{path}:7: bets.mine.rows.2: never holds: no deal has banker_natural = true,"
        " banker_cards = 3 together; change or remove it"
    ]


def test_rows_in_the_right_order_are_fine(tmp_path):
    path = write(
        tmp_path,
        BET.format(
            rows="\n".join(
                [
                    row('winner = "banker", banker_total = 6', "2", "six"),
                    row('winner = "banker"', "1"),
                ]
            )
        ),
    )
    assert load_config(path).game("mine-it").offers("mine")


@pytest.mark.parametrize(
    ("when", "message"),
    [
        pytest.param(
            'banker_colour = "red"',
            "bets.mine.rows.1.when.banker_colour: unknown fact; the facts are winner,",
            id="unknown-fact",
        ),
        pytest.param(
            "banker_total = 10",
            "bets.mine.rows.1.when.banker_total: 10 is not a value of banker_total (0, 1,",
            id="total-10",
        ),
        pytest.param(
            'winner = "dragon"',
            "bets.mine.rows.1.when.winner: 'dragon' is not a value of winner (player, banker, tie)",
            id="winner-dragon",
        ),
        pytest.param(
            "player_natural = 1",
            "bets.mine.rows.1.when.player_natural: 1 is not a value of player_natural (false, true)",
            id="a-number-for-a-flag",
        ),
        pytest.param(
            "cards_dealt = [3, 4]",
            "bets.mine.rows.1.when.cards_dealt: 3 is not a value of cards_dealt (4, 5, 6)",
            id="one-value-of-a-list",
        ),
        pytest.param(
            "player_faces = []",
            "bets.mine.rows.1.when.player_faces: an empty list never holds",
            id="empty-list",
        ),
    ],
)
def test_an_unknown_fact_or_a_value_out_of_its_domain_is_one_error_at_the_row(
    tmp_path, when, message
):
    path, problems = declared(tmp_path, row(when))
    (problem,) = problems
    assert problem.startswith(f"{path}:6: {message}"), problem


def test_a_bet_without_the_text_of_a_language_of_its_games(tmp_path):
    text = BET.format(rows=row('winner = "banker", banker_total = 6')).replace(
        'languages = ["en"]', 'languages = ["it", "en"]'
    )
    path = write(tmp_path, text)
    problems = problems_of(path)
    assert f"{path}:3: bets.mine.name: missing the text in it (a language of its games)" in problems
    assert f"{path}:4: bets.mine.wins: missing the text in it (a language of its games)" in problems
    assert any(
        p.startswith(f"{path}:6: bets.mine.rows.1.says: missing the text in it") for p in problems
    )
    assert len(problems) == 3


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            BET.replace("[bets.mine]", "[bets.tiger]").replace('"mine"]', '"tiger"]'),
            ":1: bets.tiger: is a built-in bet: give your own bet another id",
            id="a-catalogue-id",
        ),
        pytest.param(
            BET.replace("[bets.mine]", "[bets.Mine]"),
            ":1: bets.Mine: a bet id is a lower-case letter, then lower-case letters, digits and"
            " _, at most 64 in all",
            id="a-bad-id",
        ),
        pytest.param(
            BET.replace('group = "side"', 'group = "jackpot"'),
            ':2: bets.mine.group: must be "main", "side" or "bonus"',
            id="a-bad-group",
        ),
        pytest.param(
            BET.replace('name = {{ en = "Mine" }}', 'name = {{ en = "' + "M" * 101 + '" }}'),
            ":3: bets.mine.name.en: is 101 characters long; at most 100",
            id="a-name-past-its-bound",  # an 810 KB name printed 349 pages in minutes
        ),
        pytest.param(
            BET.replace("When it wins.", "w" * 301),
            ":4: bets.mine.wins.en: is 301 characters long; at most 300",
            id="a-sentence-past-its-bound",
        ),
        pytest.param(
            BET.replace('name = {{ en = "Mine" }}', 'name = {{ en = "Mine", EN = "Mine" }}'),
            ":3: bets.mine.name.EN: not a language of the pages (they are it, da, el, en",
            id="no-language-of-the-pages",  # was kept without a word
        ),
        pytest.param(
            BET.replace("rows = [\n{rows}\n]", 'rows = {{ when = {{ winner = "tie" }} }}'),
            ":5: bets.mine.rows: must be an array of pay rows, [{ ... }, ...], not a table",
            id="rows-as-a-table",  # was "missing"
        ),
        pytest.param(
            BET.replace("{rows}", '  {{ when = "tie", pays = "8", says = {{ en = "A tie." }} }},'),
            ':6: bets.mine.rows.1.when: must be a table of conditions, e.g. { winner = "banker" },'
            " not 'tie'",
            id="when-as-a-text",  # was "missing"
        ),
        pytest.param(
            BET.replace(
                "{rows}", '  {{ when = {{ winner = "tie" }}, says = {{ en = "A tie." }} }},'
            ),
            ':6: bets.mine.rows.1.pays: missing: what the row pays, e.g. "8", "push" or "lose"',
            id="no-pays",  # was "odds must be a string, got NoneType"
        ),
        pytest.param(
            BET.replace(
                "{rows}", '  {{ when = {{ winer = "tie" }}, pays = "8", says = {{ en = "A." }} }},'
            ),
            ":6: bets.mine.rows.1.when.winer: unknown fact; the facts are winner,",
            id="a-misspelt-fact",
        ),
        pytest.param(
            BET.replace('group = "side"', 'group = "side"\nwins_plural = "x"'),
            ":3: bets.mine.wins_plural: unknown key; a bet has group, name, wins, rows",
            id="the-catalogue-s-plural",
        ),
    ],
)
def test_a_bad_declaration_names_its_line_and_key(tmp_path, text, expected):
    path = write(tmp_path, text.format(rows=row('winner = "banker", banker_total = 6')))
    problems = problems_of(path)
    assert any(problem.startswith(f"{path}{expected}") for problem in problems), problems


def test_a_row_may_not_take_a_catalogue_pay_key_nor_share_one_with_another_pay(tmp_path):
    path, problems = declared(
        tmp_path,
        row('winner = "banker", banker_total = 6', "12", "super_6"),
        row('winner = "player", player_total = 6', "12", "sixes"),
        row('winner = "tie", banker_total = 6', "30", "sixes"),
    )
    assert problems == [
        f"{path}:6: bets.mine.rows.1.key: 'super_6' is a pay key of the super_6 bet: give the"
        " row a key of its own",
        f"{path}:8: bets.mine.rows.3.key: 'sixes' pays differently in the mine bet: rows that"
        " share a key share its pay",
    ]


@pytest.mark.parametrize("key", ["base", "bonus_margins"])
def test_a_row_may_not_take_a_pay_table_s_own_key(tmp_path, key):
    """A row keyed "base" was taken: a game's `pay = { base = "5" }` was then dropped without
    a word, the pages and settlement paying the row's default, and every pay table's base
    of the file was read as that pay."""
    path, problems = declared(tmp_path, row('winner = "tie"', "8", key))
    assert problems == [
        f"{path}:6: bets.mine.rows.1.key: {key!r} is a pay table's own key, not a bet's pay:"
        " give the row a key of its own",
    ]


def test_check_prints_the_error_with_its_line_and_exits_2(tmp_path):
    path = write(tmp_path, BET.format(rows=row("player_natural = true, player_cards = 3")))
    result = runner.invoke(app, ["check", "--config", str(path)])
    assert result.exit_code == 2
    assert re.search(rf"{re.escape(str(path))}:1: bets\.mine: can never win", result.output)


def test_every_catalogue_bet_s_rows_all_decide():
    """bets.toml's own rule: a row that never decides is an error (the loader checks the
    operator's bets; this test the catalogue's)."""
    for bet in catalogue_bets().values():
        problems = Problems("bets.toml")
        check_rows_decide(bet, problems, ("bets", bet.id))
        assert problems.messages == [], problems.messages


#: Values of every TOML type, each put in place of every key of a declaration and of a row.
HOSTILE = ["5", "-1", "9" * 40, "1.5", "nan", "true", '""', '"push"', '"x"', "[]", "[[]]", "{}",
           '{ en = 5 }', '{ when = {} }', '{ banker_total = "6" }', "1979-05-27T07:32:00Z"]  # fmt: skip
ROW = {"when": "{ banker_total = 6 }", "pays": '"9"', "key": '"mine"', "says": '{ en = "A." }'}
DECLARATION = {"group": '"side"', "name": '{ en = "Mine" }', "wins": '{ en = "When." }'}


def declaration(changes: dict[str, str], row_changes: dict[str, str]) -> str:
    row = ", ".join(f"{key} = {value}" for key, value in (ROW | row_changes).items())
    keys = DECLARATION | {"rows": f"[{{ {row} }}]"} | changes
    declared = "\n".join(f"{key} = {value}" for key, value in keys.items())
    return f'[bets.mine]\n{declared}\n[games.live-baccarat-it]\nlanguages = ["en"]\n'


def loads_or_refuses(path: Path, text: str) -> None:
    """A configuration, or a ConfigError whose every problem names the file: nothing else."""
    path.write_text(text, encoding="utf-8")
    try:
        load_config(path)
    except ConfigError as error:
        assert error.problems, text
        assert all(problem.startswith(str(path)) for problem in error.problems), error.problems


@pytest.mark.parametrize("key", [*DECLARATION, "rows", *(f"rows.{key}" for key in ROW)])
def test_every_key_of_a_declaration_given_hostile_values_is_refused_cleanly(tmp_path, key):
    path = tmp_path / "operator.toml"
    loads_or_refuses(path, declaration({}, {}))
    for value in HOSTILE:
        if key.startswith("rows."):
            loads_or_refuses(path, declaration({}, {key.removeprefix("rows."): value}))
        else:
            loads_or_refuses(path, declaration({key: value}, {}))


@pytest.mark.parametrize(
    ("pays", "message"),
    [
        ("9" * 5000, "(5,000 characters) is too long for odds"),
        ("20000", "is above 10000 to 1"),
        ("1/30000", "is finer than 1/10000"),
    ],
)
def test_an_own_bet_s_pay_has_the_bounds_of_every_pay_of_a_configuration(tmp_path, pays, message):
    # A pay of 5,000 digits once reached the odds as a number too large for a float.
    _, problems = declared(tmp_path, row('winner = "tie"', pays))
    (problem,) = problems
    assert ": bets.mine.rows.1.pays: " in problem and message in problem


def test_a_misspelt_fact_or_key_is_told_the_name_it_is_close_to(tmp_path):
    path, problems = declared(tmp_path, row('winer = "tie"'))
    assert problems == [
        f"{path}:6: bets.mine.rows.1.when.winer: unknown fact; the facts are {', '.join(FACTS)};"
        " did you mean 'winner'?"
    ]
    path = write(tmp_path, BET.format(rows=row('winner = "tie"')).replace("group =", "gruop ="))
    assert (
        f"{path}:2: bets.mine.gruop: unknown key; a bet has group, name, wins, rows; did you"
        in (" ".join(problems_of(path)))
    )


def test_a_row_the_game_s_shoe_never_deals_is_a_problem_at_its_decks(tmp_path):
    """One deck deals no suited pair: an own bet paying 25:1 on one, offered on a game of one
    deck, was printed at 25:1 (its other row, any pair, can win: the bet as a whole could)."""
    suited = (
        '  { when = { suited_pairs = [1, 2] }, key = "suited_s", pays = "25",'
        ' says = { en = "A suited pair." } },\n'
        '  { when = { pairs = [1, 2] }, key = "suited_p", pays = "5", says = { en = "A pair." } },'
    )
    path = write(
        tmp_path, BET.format(rows=suited).replace("[games.mine-it]", "[games.mine-it]\ndecks = 1")
    )
    assert problems_of(path) == [
        f"{path}:11: games.mine-it.decks: row 1 (suited_s) of the mine bet never decides on a"
        " shoe of 1 deck: its page would print a pay for a hand this shoe never deals; deal it"
        " from more decks, or offer a bet without that row"
    ]
    assert load_config(write(tmp_path, BET.format(rows=suited))).game("mine-it").decks == 8


def test_the_rows_read_of_a_bet_with_a_problem_say_theirs_in_the_same_run(tmp_path):
    """A misspelt fact in a bet's third row left the bet out, and its second row (which the
    first takes every deal of) was told only in the next run, once the fact was mended."""
    path, problems = declared(
        tmp_path,
        row('winner = "tie"', "8", "w1a"),
        row('winner = "tie", player_total = 7', "40", "w1b"),
        row('winer = "player"', "1", "w1c"),
    )
    assert problems[0] == (
        f"{path}:7: bets.mine.rows.2: never decides: row 1 above it takes every deal it holds"
        " on; move it above them or narrow their conditions"
    )
    assert problems[1].startswith(f"{path}:8: bets.mine.rows.3.when.winer: unknown fact;")
    assert len(problems) == 2
    path, problems = declared(  # a row unread above them: the rows keep their own numbers
        tmp_path,
        row('winer = "player"', "1", "w1c"),
        row('winner = "tie"', "8", "w1a"),
        row('winner = "tie", player_total = 7', "40", "w1b"),
    )
    assert f"{path}:8: bets.mine.rows.3: never decides: row 2 above it takes every deal it" in (
        " ".join(problems)
    )


@pytest.mark.parametrize(
    ("pays", "said"),
    [("true", "true"), ("8.0", "a floating-point number"), ("{ x = 1 }", "a table")],
)
def test_a_pay_of_another_type_is_said_in_toml_s_words(tmp_path, pays, said):
    """`pays = true` said "got True", Python's spelling of TOML's value."""
    text = BET.format(rows=row('winner = "tie"')).replace('pays = "10"', f"pays = {pays}")
    assert problems_of(write(tmp_path, text)) == [
        f"{tmp_path / 'operator.toml'}:6: bets.mine.rows.1.pays: must be odds written as a"
        f' string such as "19/20", not {said}'
    ]


def test_odds_without_an_exact_decimal_form_are_refused_where_the_pages_would_round_them(tmp_path):
    """A pay of 2/3 was printed 0.6667:1 on the pages (more than the engine pays: DKK 6,667.00
    on a stake of 10,000.00, where it pays 6,666.66), and the worked example's product was
    wrong; 19/20 is 0.95 exactly and stays."""
    path = write(tmp_path, BET.format(rows=row('winner = "tie"', "2/3")))
    assert problems_of(path) == [
        f"{path}:6: bets.mine.rows.1.pays: '2/3' has no exact decimal form, and the pages state"
        ' odds as decimals ("0.95:1"): give odds that have one'
    ]
    assert load_config(write(tmp_path, BET.format(rows=row('winner = "tie"', "19/20"))))
