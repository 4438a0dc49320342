"""Line numbers of keys in a TOML text, found by a light scan (tomllib keeps no positions)."""

from __future__ import annotations

from reporting.config.lines import KeyLines

TEXT = """\
# a comment = not a key
title = "x"
[games.live-baccarat-it]
decks = 8
"quoted key" = 1
limits = { min = "5.00", max = "1000.00" }
pay.tie = "9"
notes = \"\"\"
fake = "inside a string"
\"\"\"
bets = [
  "player",
]
[ games . "odd.id" ]
name = 'x'
[[logs]]
level = "info"
"""


def test_headers_keys_dotted_and_quoted_keys_have_their_lines():
    lines = KeyLines.scan(TEXT)
    assert lines.line_of(("title",)) == 2
    assert lines.line_of(("games", "live-baccarat-it")) == 3
    assert lines.line_of(("games", "live-baccarat-it", "decks")) == 4
    assert lines.line_of(("games", "live-baccarat-it", "quoted key")) == 5
    assert lines.line_of(("games", "live-baccarat-it", "pay", "tie")) == 7
    assert lines.line_of(("games", "odd.id", "name")) == 15
    assert lines.line_of(("logs", "level")) == 17


def test_a_key_inside_an_inline_table_or_array_is_at_the_line_that_opens_it():
    lines = KeyLines.scan(TEXT)
    assert lines.line_of(("games", "live-baccarat-it", "limits", "max")) == 6
    assert lines.line_of(("games", "live-baccarat-it", "bets")) == 11


def test_lines_inside_a_multi_line_string_are_not_keys():
    lines = KeyLines.scan(TEXT)
    assert ("games", "live-baccarat-it", "fake") not in lines.lines
    assert ("a comment",) not in lines.lines


def test_an_unwritten_key_falls_back_to_its_table_or_to_nothing():
    lines = KeyLines.scan(TEXT)
    assert lines.line_of(("games", "live-baccarat-it", "currency")) == 3
    assert lines.line_of(("pay_tables", "x")) is None


def test_an_array_of_tables_opened_and_closed_on_its_elements_lines():
    text = (
        "[bets.a]\n"
        'rows = [ { when = { winner = "tie" }, pays = "8", says = "a ] in words" },\n'
        '  { when = { winner = "player" }, pays = "1", says = "y" } ]\n'
        'name = "n"\n'
        "[games.g]\n"
        'bets = ["a", "tie"]\n'
    )
    lines = KeyLines.scan(text).lines
    assert lines[("bets", "a", "rows", "1")] == 2
    assert lines[("bets", "a", "rows", "2")] == 3
    assert lines[("bets", "a", "name")] == 4  # the array closed on line 3, brackets in words aside
    assert lines[("games", "g", "bets")] == 6


def test_three_quotes_inside_a_one_line_string_open_no_multi_line_string():
    """A wins sentence that quoted three quotes (`"Pays ''' odds"`) was taken for a
    multi-line string left open: every key after it had no line, or the wrong one."""
    text = (
        "[bets.q]\n"
        "wins = { en = \"Pays ''' odds\", it = 'x \"\"\" y' }\n"
        "name = 'it''s'\n"
        "[games.g]\n"
        "langauges = ['it']\n"
        'notes = """opened\n'
        "still ''' in it\n"
        'closed"""\n'
        "after = 1\n"
    )
    lines = KeyLines.scan(text)
    assert lines.lines[("bets", "q", "name")] == 3
    assert lines.lines[("games", "g", "langauges")] == 5
    assert lines.lines[("games", "g", "after")] == 9
    assert lines.open_at_end is None


def test_a_multi_line_string_closes_where_its_quotes_do_not_where_a_count_says():
    """A comment after the closing quotes that quoted three quotes again kept the string
    open by the count of quotes: every key after it had no line."""
    text = (
        "[games.g]\n"
        'notes = """a\n'
        'b"""  # closed here, not """\n'
        "bogus = 1\n"
        "escaped = '''x\n"
        "y'''\n"
        'more = """\\"""still in it\n'
        'end"""\n'
        "last = 2\n"
    )
    lines = KeyLines.scan(text)
    assert lines.lines[("games", "g", "bogus")] == 4
    assert lines.lines[("games", "g", "last")] == 9
    assert lines.open_at_end is None
