"""Hostile configurations: every mutation of the sample gives a loaded configuration or a
ConfigError naming its line, never another exception (issue 11: huge numbers, wrong types,
non-UTF-8 files, empty lists and strings, unicode).

The mutations are deterministic (no Hypothesis): every ``key = value`` line of the effective
sample configuration (every game key written out) gets each hostile value in turn, and the
file's bytes are cut, flipped and re-encoded.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from helpers import run_main

from reporting.config.effective import effective_document, to_toml
from reporting.config.lines import DEPTH, KeyLines
from reporting.config.loader import ConfigError, load_config
from reporting.config.rtp import favourable_bet_warnings

SAMPLE_CONFIG = Path(__file__).resolve().parents[2] / "sample_data" / "operator.toml"

#: TOML values of every type and size, each put in place of every key's value.
HOSTILE_VALUES = [
    "5",
    "0",
    "-1",
    "9" * 40,
    "9" * 5000,
    "1.5",
    "nan",
    "-inf",
    "true",
    '""',
    '" "',
    '"' + "x" * 5000 + '"',
    '"\\u0000"',
    '"\\u202e\\u2028"',
    '"é中文🂡"',
    '"0"',
    '"-5.00"',
    '"1e400"',
    '"' + "9" * 32 + '"',
    '"0.' + "0" * 31 + '1"',
    '"5000000000000.00"',
    "[]",
    "[1, 2]",
    '["it", "it"]',
    "[[]]",
    '[["player"]]',
    "{}",
    "{ a = 1 }",
    '{ min = "1.00", max = 5 }',
    "1979-05-27T07:32:00Z",
    "0001-01-01",
    "9999-12-31T23:59:59",
    "07:32:00",
]


SAMPLE_TABLES = {game.id: game.pay_table for game in load_config(SAMPLE_CONFIG).games.values()}


def toml_value(value: object) -> str:
    return to_toml({"s": {"v": value}}).splitlines()[1].removeprefix("v = ")


def leaves(table: dict, prefix: tuple[str, ...] = ()):
    for key, value in table.items():
        if isinstance(value, dict) and value:
            yield from leaves(value, (*prefix, key))
        else:
            yield (*prefix, key), value


VALUES_PER_KEY = 5


def effective_sample() -> list[str]:
    """The sample with every key of every game on a line of its own (``pay.tie = "8"``)."""
    document = effective_document(load_config(SAMPLE_CONFIG))
    lines = ["[operator]", f"name = {toml_value(document['operator']['name'])}"]
    for game_id, game in document["games"].items():
        lines.append(f"[games.{game_id}]")
        lines += [f"{'.'.join(path)} = {toml_value(value)}" for path, value in leaves(game)]
    return lines


def load_or_refuse(path: Path, text: str | bytes) -> None:
    """Load a mutated file: a configuration (whose warnings compute) or a ConfigError whose
    every problem names the file; anything else fails the test with the input shown."""
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(text)
    try:
        config = load_config(path)
    except ConfigError as error:
        assert error.problems, text
        assert all(problem.startswith(str(path)) for problem in error.problems), error.problems
        assert all(len(problem) < 1000 for problem in error.problems), error.problems
        return
    for game in config.games.values():
        if game.pay_table != SAMPLE_TABLES.get(game.id):
            favourable_bet_warnings(game)


@pytest.mark.slow  # every key times every value: make test runs it, make test-fast does not
def test_every_key_given_every_hostile_value_gives_a_config_error_or_a_config(tmp_path):
    lines = effective_sample()
    path = tmp_path / "operator.toml"
    load_or_refuse(path, "\n".join(lines))  # the flattened sample itself loads
    assignments = [number for number, line in enumerate(lines) if " = " in line]
    assert len(assignments) > 120  # every key of four games, pay table rows included
    # each key with a window of the values, the windows moving along: every value goes to
    # about twenty keys, every key gets values of several types
    cases = 0
    for index, number in enumerate(assignments):
        key = lines[number].split(" = ")[0]
        for step in range(VALUES_PER_KEY):
            value = HOSTILE_VALUES[(index * VALUES_PER_KEY + step) % len(HOSTILE_VALUES)]
            mutated = [*lines[:number], f"{key} = {value}", *lines[number + 1 :]]
            load_or_refuse(path, "\n".join(mutated))
            cases += 1
    assert cases > 600


def test_a_wrong_type_shows_with_its_line_and_the_game_s_other_problems(tmp_path):
    """One run lists every problem: a wrong type does not hide the same game's others."""
    path = tmp_path / "operator.toml"
    path.write_text(
        "[games.live-baccarat-it]\n"
        'decks = "8"\n'
        "pay_tables = 5\n"
        'currency = "euro"\n'
        'limits = { min = "5", max = "' + "9" * 5000 + '" }\n'
        'pay = { tie = "' + "1" * 32 + '" }\n'
        "languages = 5\n",
        encoding="utf-8",
    )
    with pytest.raises(ConfigError) as error:
        load_config(path)
    lines = [int(re.match(rf"{re.escape(str(path))}:(\d+):", p)[1]) for p in error.value.problems]
    assert lines == [2, 3, 4, 5, 6, 7], error.value.problems


@pytest.mark.parametrize(
    "mutation",
    ["truncate", "flip", "latin-1", "utf-16", "bom", "nul", "deep-array", "deep-table", "huge"],
)
def test_damaged_bytes_give_a_config_error(tmp_path, mutation):
    data = SAMPLE_CONFIG.read_bytes()
    chooser = random.Random(mutation)
    if mutation == "truncate":
        variants = [data[: chooser.randrange(len(data))] for _ in range(60)]
    elif mutation == "flip":
        variants = []
        for _ in range(60):
            flipped = bytearray(data)
            flipped[chooser.randrange(len(data))] = chooser.randrange(256)
            variants.append(bytes(flipped))
    elif mutation == "latin-1":
        variants = [data.decode("utf-8").encode("latin-1")]
    elif mutation == "utf-16":
        variants = [data.decode("utf-8").encode("utf-16")]
    elif mutation == "bom":
        variants = [b"\xef\xbb\xbf" + data]
    elif mutation == "nul":
        variants = [data.replace(b"\n", b"\x00\n", 3)]
    elif mutation == "deep-array":
        variants = [data + b"\nx = " + b"[" * 5000 + b"]" * 5000 + b"\n"]
    elif mutation == "deep-table":
        variants = [data + b"\nx = " + b"{a=" * 3000 + b"1" + b"}" * 3000 + b"\n"]
    else:
        variants = [data + b"#" * (2 << 20)]
    for variant in variants:
        load_or_refuse(tmp_path / "operator.toml", variant)


def test_a_bom_is_read_as_excel_writes_it(tmp_path):
    path = tmp_path / "operator.toml"
    path.write_bytes(b"\xef\xbb\xbf" + SAMPLE_CONFIG.read_bytes())
    logo = SAMPLE_CONFIG.with_name("logo.svg")  # the sample's logo, relative to it
    (tmp_path / logo.name).write_bytes(logo.read_bytes())
    assert load_config(path).games == load_config(SAMPLE_CONFIG).games


def test_a_non_utf8_file_names_the_line_and_byte(tmp_path):
    path = tmp_path / "operator.toml"
    path.write_bytes(b'[operator]\nname = "Casin\xf2"\n[games.live-baccarat-it]\n')
    with pytest.raises(ConfigError) as error:
        load_config(path)
    assert error.value.problems == [
        f"{path}:2: not UTF-8 text (byte 0xf2 at column 14): save the file as UTF-8"
    ]


def test_a_folder_a_pipe_and_a_large_file_are_refused(tmp_path):
    import os

    with pytest.raises(ConfigError, match="is a folder, not a configuration file"):
        load_config(tmp_path)
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    with pytest.raises(ConfigError, match=r"is a FIFO \(named pipe\), not a configuration"):
        load_config(fifo)  # would block for ever if opened
    large = tmp_path / "large.toml"
    large.write_bytes(b"#" * (2 << 20))
    with pytest.raises(ConfigError, match="larger than"):
        load_config(large)


@pytest.mark.parametrize("where", ["header", "key", "inline-table"])
def test_a_key_of_thousands_of_dotted_parts_is_refused_at_its_line_before_parsing(tmp_path, where):
    """A header of 40,000 dotted parts (80 KB) took 6 GB to scan for its lines (every prefix
    noted), and TOML's parser takes time as the square of a key's depth (one in an inline
    table, 24 s for 200,000 parts): such a key is refused at its line before parsing, and the
    scan notes paths to a bounded depth."""
    deep = ".".join(["a"] * 40_000)
    line = {"header": f"[{deep}]", "key": f"{deep} = 1", "inline-table": f"x = {{ {deep} = 1 }}"}
    text = f'[operator]\nname = "Op"\n{line[where]}\n'
    path = tmp_path / "operator.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as refused:
        load_config(path)
    message = f"{path}:3: a key of 40,000 dotted parts is not one of ours"
    assert refused.value.problems == [message]
    scanned = KeyLines.scan(text)
    assert scanned.too_deep == (3, 40_000)
    assert max(len(path) for path in scanned.lines) <= DEPTH


#: An operator's own bet, as docs/operators/catalogue-and-games.md writes one.
OWN_BET = """\
[bets.lucky_7]
group = "side"
name = { en = "Lucky 7" }
wins = { en = "The Banker wins with 7." }
rows = [{ when = { winner = "banker", banker_total = 7 }, pays = "6", says = { en = "A 7." } }]
"""


@pytest.mark.parametrize(
    ("name", "said"),
    [
        (r"Live\U000E0041Baccarat", "holds a control character"),  # a tag character
        (r"Bac\u00adcarat", "holds a control character"),  # a soft hyphen
        (r"\u3164", "has no character that shows"),  # a Hangul filler alone
        (r"\u2800", "has no character that shows"),  # the blank Braille pattern
    ],
    ids=["tag-character", "soft-hyphen", "hangul-filler", "braille-blank"],
)
def test_a_name_holding_what_does_not_show_is_refused(tmp_path, name, said):
    """A tag character (a format character, as a zero-width space is) passed in a game's name
    and printed nothing between "Live" and "Baccarat"; a name of a Hangul filler or the blank
    Braille pattern alone printed nothing at all. Each is refused as the other characters
    that do not show are."""
    path = tmp_path / "operator.toml"
    path.write_text(f'[games.live-baccarat-dk]\nname = "{name}"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as refused:
        load_config(path)
    (problem,) = refused.value.problems
    assert f"{path}:2: games.live-baccarat-dk.name: " in problem and said in problem
    # and in an operator's own bet's words, which its pages print too
    own = OWN_BET.replace('name = { en = "Lucky 7" }', f'name = {{ en = "{name}" }}')
    path.write_text(
        own + "[games.live-baccarat-dk]\nlanguages = ['en']\nbets = ['player', 'lucky_7']\n"
    )
    with pytest.raises(ConfigError) as refused:
        load_config(path)
    assert any("bets.lucky_7.name.en: " in p and said in p for p in refused.value.problems)


def test_a_line_break_a_tab_or_a_direction_override_in_a_text_is_refused_at_its_line(tmp_path):
    """A text printed on a page is one line: a line break, a tab, or a bidirectional override
    (which printed "Casinò \\u202eEsempio" backwards in a regulator's running header) is
    refused in every text of the file, the operator's own bets' wordings included; so is a
    character that does not show (a zero-width space, a direction mark, a byte order mark),
    which a page printed as its escape ("Lucky 7\\u200e")."""
    text = "\n".join(
        [
            "[operator]",
            r'name = "Casinò \u202eEsempio\u202c S.p.A."',
            "[games.g1]",
            'base = "live-baccarat-it"',
            r'name = "Live\nBaccarat"',
            r'words = { en = { player = "Pl\u2066ayer" } }',
            "[games.g2]",
            'base = "live-baccarat-it"',
            r'name = "Live\tBaccarat"',
            "[bets.b1]",
            'group = "side"',
            r'name = { en = "B\u202e1", it = "B1" }',
            r'wins = { en = "x\ufeff", it = "y\u200b" }',
            r'rows = [ { when = { winner = "tie" }, key = "b1", pays = "8", says = { en = "a\nb", it = "c\u200e" } } ]',
        ]
    )
    path = tmp_path / "operator.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as refused:
        load_config(path)
    fault = (
        "holds a control character, a line break, a direction override or a character that"
        " does not show (a zero-width space, a direction mark, a byte order mark)"
    )
    assert refused.value.problems == [
        f"{path}:2: operator.name: 'Casinò \\u202eEsempio\\u202c S.p.A.' {fault}",
        f"{path}:5: games.g1.name: 'Live\\nBaccarat' {fault}",
        f"{path}:6: games.g1.words.en.player: 'Pl\\u2066ayer' {fault}",
        f"{path}:9: games.g2.name: 'Live\\tBaccarat' {fault}",
        f"{path}:12: bets.b1.name.en: 'B\\u202e1' {fault}",
        f"{path}:13: bets.b1.wins.en: 'x\\ufeff' {fault}",
        f"{path}:13: bets.b1.wins.it: 'y\\u200b' {fault}",
        f"{path}:14: bets.b1.rows.1.says.en: 'a\\nb' {fault}",
        f"{path}:14: bets.b1.rows.1.says.it: 'c\\u200e' {fault}",
    ]


def test_a_file_of_the_kernels_named_as_the_configuration_is_refused_without_waiting():
    """/proc/kmsg calls itself a regular file and waits for the kernel's next line: `check
    --config /proc/kmsg` (or a log profile of that name) waited for ever."""
    done = run_main("check", "--config", "/proc/kmsg")  # a child: stopped if it waits
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (
        "baccarat-report: configuration: /proc/kmsg: a file of the kernel's (/proc, /sys), not read"
    )


def test_a_logo_of_the_kernels_is_a_problem_of_its_key_without_waiting(tmp_path):
    config = tmp_path / "operator.toml"
    config.write_text('[operator]\nname = "X"\nlogo = "/proc/kmsg"\n', encoding="utf-8")
    done = run_main("check", "--config", str(config))  # a child: stopped if it waits
    assert done.returncode == 2
    assert (
        f"baccarat-report: configuration: {config}:3: operator.logo: /proc/kmsg: a file of the"
        " kernel's (/proc, /sys), not read"
    ) in done.stderr.splitlines(), done.stderr


def test_arrays_nested_past_what_toml_s_parser_reads_are_refused_at_their_line(tmp_path):
    """A value of 2,000 nested arrays: TOML's parser gives up (RecursionError), and the
    problem named no line."""
    config = tmp_path / "operator.toml"
    config.write_text('[operator]\nname = "X"\nx = ' + "[" * 2000 + "]" * 2000 + "\n")
    with pytest.raises(ConfigError) as refused:
        load_config(config)
    assert refused.value.problems == [
        f"{config}:3: not valid TOML: arrays or tables nested too deeply"
    ]


@pytest.mark.parametrize(
    ("tail", "line", "reason"),
    [
        ('notes = """opened here\n\nnever closed', 3, "Unterminated string"),
        ("notes = '''opened here\nnever closed\n", 3, "Expected \"'''\""),
        ("languages = [\n  'it',\n  'en'", 3, "Unclosed array"),
        ("x = 1\nlogo =", 4, "Invalid value"),
    ],
)
def test_toml_left_open_at_the_end_of_the_file_is_refused_at_the_line_that_opened_it(
    tmp_path, tail, line, reason
):
    """TOML's parser says only "at end of document" of a string or array that is never
    closed: the problem named no line, and the line to look at is where it was opened."""
    config = tmp_path / "operator.toml"
    config.write_text('[operator]\nname = "X"\n' + tail, encoding="utf-8")
    with pytest.raises(ConfigError) as refused:
        load_config(config)
    assert refused.value.problems == [
        f"{config}:{line}: not valid TOML: {reason} at the end of the file"
    ]


@pytest.mark.parametrize(
    ("value", "kind"), [('["live-baccarat-it"]', "a list"), ("{ x = 1 }", "a table")]
)
def test_a_game_s_base_of_another_type_is_a_problem_not_a_traceback(tmp_path, value, kind):
    """The look for each own bet's languages read a game's base before it was checked: an
    array or a table there ended every command in a traceback (unhashable type)."""
    config = tmp_path / "operator.toml"
    config.write_text(f'[operator]\nname = "X"\n[games.g1]\nbase = {value}\n', encoding="utf-8")
    with pytest.raises(ConfigError) as refused:
        load_config(config)
    (problem,) = refused.value.problems
    assert problem.startswith(f"{config}:4: games.g1.base: must be one of ")
    assert problem.endswith(f", not {kind}")


def problems_of(path: Path, text: str) -> list[str]:
    """The problems of a configuration of ``text`` written at ``path``, which must not load."""
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as error:
        load_config(path)
    return error.value.problems


def test_a_chain_or_loop_of_a_thousand_pay_tables_is_read_or_told_once(tmp_path):
    """Each base was resolved one call deeper: a loop of 1,000 tables, or a chain of about
    980 written top-down, ended every command in a RecursionError. A chain loads, however
    written; a loop of any length is one problem, at its line."""
    path = tmp_path / "operator.toml"
    tables = [f'[pay_tables.t{i}]\nbase = "t{i - 1}"\n' for i in range(1, 1000)]
    root = '[pay_tables.t0]\ntie = "9"\n'
    game = '[games.live-baccarat-gr]\npay_table = "t999"\n'
    for chain in (root + "".join(tables), "".join(reversed(tables)) + root):
        path.write_text(chain + game, encoding="utf-8")
        assert load_config(path).game("live-baccarat-gr").pay_table.odds("tie") == 9
    loop = "".join(f'[pay_tables.t{i}]\nbase = "t{(i + 1) % 1000}"\n' for i in range(1000))
    problems = problems_of(path, loop + "[games.live-baccarat-gr]\n")
    assert problems == [
        f"{path}:2000: pay_tables.t999.base: pay tables cannot be their own base: t0 -> t1 ->"
        " t2 -> ... 995 more -> t998 -> t999 -> t0"
    ]


def test_a_pay_table_s_name_is_held_to_the_names_a_game_may_give(tmp_path):
    path = tmp_path / "operator.toml"
    problems = problems_of(
        path,
        '[pay_tables."a b"]\ntie = "9"\n[pay_tables.""]\ntie = "9"\n[pay_tables.ok-1]\ntie = "9"\n'
        "[games.live-baccarat-gr]\n",
    )
    assert problems == [
        f"{path}:1: pay_tables.\"a b\": 'a b' is not a pay table name (letters, digits, _ and"
        ' -) such as "standard"',
        f'{path}:3: pay_tables."": must not be empty (e.g. "standard")',
    ]


def test_a_loop_through_the_operator_s_standard_table_is_told_at_its_line(tmp_path):
    """It was told of the catalogue's file, at a key written nowhere."""
    path = tmp_path / "operator.toml"
    problems = problems_of(
        path, '[pay_tables.standard]\nbase = "perfect_pair_b"\n[games.live-baccarat-gr]\n'
    )
    assert problems == [
        f"{path}:2: pay_tables.standard.base: pay tables cannot be their own base: standard ->"
        " perfect_pair_b -> standard"
    ]


def test_a_list_of_a_hundred_thousand_items_is_refused_at_once_and_said_once(tmp_path):
    """The duplicates were looked for in quadratic time (100,000 languages: 94 s), and each
    bad item of a list was its own problem (300,000 of them: 117 MB of JSON)."""
    path = tmp_path / "operator.toml"
    problems = problems_of(
        path,
        "[games.live-baccarat-gr]\nlanguages = [" + ", ".join(['"en"'] * 100_000) + "]\n"
        "tables = [" + ", ".join(["1"] * 5_000) + "]\n",
    )  # at once: it took 94 s
    assert problems[0].endswith("languages: lists 100,000 items; at most 1,000")
    assert len(problems) == 2, problems  # and tables' 5,000 items of one wrong type: once
    problems = problems_of(
        path,  # under the bound, the item at fault is named
        '[games.live-baccarat-gr]\nlanguages = ["el", "en", "en"]\n',
    )
    assert problems == [f"{path}:2: games.live-baccarat-gr.languages: en listed more than once"]


def test_a_wrong_value_under_per_bet_hides_not_the_game_s_min_above_max(tmp_path):
    """The whole of ``limits`` was set aside for a fault under ``per_bet``, and the game's
    own "min is above max" went unsaid until the next run."""
    path = tmp_path / "operator.toml"
    for limits, said in (
        (
            '{ min = "10", max = "5", per_bet = { tie = { min = "x" } } }',
            ["min 10.00 is above max 5.00"],
        ),
        ('{ per_bet = { tie = { min = "x" } } }', []),  # the base's min and max: not missing
    ):
        problems = problems_of(path, f"[games.live-baccarat-gr]\nlimits = {limits}\n")
        assert "per_bet.tie.min: amount 'x' is not a plain decimal" in problems[0]
        assert [problem.rsplit(": ", 1)[1] for problem in problems[1:]] == said, problems


def test_a_min_above_a_max_says_both_figures_and_which_is_the_game_s(tmp_path):
    """ "min is above max" where the file wrote only a max (the min the catalogue game's 50.00),
    or a bet's max under the game's min: a reader looked for a min not written. The message
    gives both figures, and a bound it takes from elsewhere says whose it is: the game's for a
    bet's, the base game's for the game's (written with dotted keys too)."""
    path = tmp_path / "operator.toml"
    (problem,) = problems_of(path, '[games.live-baccarat-dk]\nlimits = { max = "10.00" }\n')
    assert problem.endswith(
        "games.live-baccarat-dk.limits: min 50.00 (its base game's) is above max 10.00"
    )
    for written in (
        '[games.live-baccarat-dk]\nlimits.min = "60000.00"\n',
        '[games]\nlive-baccarat-dk = { limits = { min = "60000.00" } }\n',
    ):
        (problem,) = problems_of(path, written)
        assert problem.endswith("limits: min 60000.00 is above max 50000.00 (its base game's)")
    (problem,) = problems_of(
        path, '[games.live-baccarat-dk]\nlimits = { min = "20.00", max = "10.00" }\n'
    )
    assert problem.endswith("limits: min 20.00 is above max 10.00")
    (problem,) = problems_of(
        path, '[games.live-baccarat-dk]\nlimits = { per_bet = { tie = { max = "10.00" } } }\n'
    )
    assert problem.endswith("limits.per_bet.tie: min 50.00 (its base game's) is above max 10.00")
    (problem,) = problems_of(
        path,
        '[games.live-baccarat-dk]\nlimits = { min = "20.00", per_bet = { tie = { max = "10.00" } } }\n',
    )
    assert problem.endswith("limits.per_bet.tie: min 20.00 (the game's) is above max 10.00")


def test_a_repeated_item_is_told_beside_a_bad_one_and_hides_no_later_check(tmp_path):
    """``languages = ["da", "xx", "da"]`` told of 'xx' alone, the repeat only at the next run;
    a game's ``bets`` with a repeat hid its limits' problems until the next run: each run told
    one more. Both are told at once."""
    path = tmp_path / "operator.toml"
    problems = problems_of(path, '[games.live-baccarat-dk]\nlanguages = ["da", "xx", "da"]\n')
    assert [problem.split(": ", 2)[2] for problem in problems] == [
        "'xx' is not a known language with a catalogue (known: it, da, el, en, es, pt, ro, sv,"
        " nl, de, fr)",
        "da listed more than once",
    ]
    problems = problems_of(
        path,
        '[games.mini-baccarat-it]\nlanguages = ["it"]\nbets = ["player", "banker", "tie", "tie"]\n'
        'limits = { min = "1.00", max = "1000.00", per_bet = { panda_8 = { max = "5.00" } } }\n',
    )
    assert [problem.split(": ", 1)[1] for problem in problems] == [
        "games.mini-baccarat-it.bets: tie listed more than once",
        "games.mini-baccarat-it.limits.per_bet.panda_8: the game does not offer this bet",
    ]
