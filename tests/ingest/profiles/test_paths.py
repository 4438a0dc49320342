"""Field paths: parsed once, read on decoded records; [] walks arrays."""

from __future__ import annotations

import pytest

from reporting.ingest.profiles.paths import ABSENT, EACH, PathError, getter, parse_path, values_at

GAME = {
    "gameUid": "G1",
    "gameplay": {".BaccaratGameplay": {"betEndDate": 5}},
    "playersBets": [
        {"playerId": "a", "tileId": "T1", "bets": [{"betId": "B1"}, {"betId": "B2"}]},
        {"playerId": "b", "tileId": "T1", "bets": [{"betId": "B3"}]},
    ],
}


def test_a_path_of_keys_quoted_keys_and_each_steps_is_parsed():
    assert parse_path('gameplay.".BaccaratGameplay".betEndDate').steps == (
        "gameplay",
        ".BaccaratGameplay",
        "betEndDate",
    )
    assert parse_path("playersBets[].bets[]").steps == ("playersBets", EACH, "bets", EACH)
    assert parse_path('"a \\"b\\""').steps == ('a "b"',)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "expected a key at character 1"),
        ("a..b", "expected a key at character 3"),
        ("a.", "expected a key at character 3"),
        ("a[0]", "unexpected '\\[' at character 2"),
        ("a b", "unexpected ' ' at character 2"),
        ('"unclosed', "expected a key at character 1"),
        (".".join("k" * 1 for _ in range(40)), "more than 32 steps"),
        # a lone surrogate escape names no key of a JSON text (it stopped a read on a traceback)
        ('data."\\ud800"', 'bad quoted key "\\\\ud800"'),
    ],
)
def test_a_path_that_cannot_be_parsed_says_where(text, message):
    with pytest.raises(PathError, match=message):
        parse_path(text)


def test_a_getter_reads_a_value_and_absent_where_there_is_none():
    assert getter(parse_path('gameplay.".BaccaratGameplay".betEndDate').steps)(GAME) == 5
    assert getter(("gameplay", "missing"))(GAME) is ABSENT
    assert getter(("gameUid", "deeper"))(GAME) is ABSENT  # a text is not an object
    assert getter(("gameUid",))([1, 2]) is ABSENT


def test_values_through_each_steps_are_every_element_s():
    steps = parse_path("playersBets[].bets[].betId").steps
    assert list(values_at(GAME, steps)) == ["B1", "B2", "B3"]
    assert list(values_at(GAME, parse_path("playersBets[].tileId").steps)) == ["T1", "T1"]
    assert list(values_at({"playersBets": "x"}, steps)) == []
