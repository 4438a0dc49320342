"""Two games' table patterns that can match one table (reporting.config.table_patterns),
against a brute-force search with the standard library's fnmatch."""

from __future__ import annotations

import fnmatch
import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

import reporting.config.table_patterns
from reporting.config.table_patterns import TableOwners, common_table

#: The characters a brute force tries: those the patterns below are made of, and one more.
_LETTERS = "AB-X]Y"
_PARTS = st.sampled_from(
    ["A", "B", "-", "*", "?", "[AB]", "[!A]", "[]A]", "[A-B]", "[B-A]", "[!A-X]", "[X-]"]
)


def brute_force(first: str, second: str, longest: int) -> str | None:
    """The first non-empty word of up to ``longest`` characters both patterns match."""
    for size in range(1, longest + 1):
        for letters in itertools.product(_LETTERS, repeat=size):
            word = "".join(letters)
            if fnmatch.fnmatchcase(word, first) and fnmatch.fnmatchcase(word, second):
                return word
    return None


@settings(max_examples=200, deadline=None)
@given(st.lists(_PARTS, max_size=3), st.lists(_PARTS, max_size=3))
def test_two_patterns_meet_exactly_when_a_word_matches_both(first, second):
    # The shortest word two patterns share is no longer than their characters that are not
    # stars, together: the brute force tries every word up to that length.
    longest = max(1, sum(part != "*" for part in first) + sum(part != "*" for part in second))
    first, second = "".join(first) or "A", "".join(second) or "B"
    found = common_table(first, second)
    expected = brute_force(first, second, longest)
    if found is None:
        assert expected is None, (first, second, expected)
    else:
        assert found and fnmatch.fnmatchcase(found, first) and fnmatch.fnmatchcase(found, second)
        assert expected is not None and len(found) == len(expected)  # the shortest


def test_patterns_that_name_every_usual_character_are_read_whole():
    """``DK-[A-Z0-9]*`` names every letter and digit: the search's extra character was one of
    ``XYZ0123456789`` not named, and ``check`` ended in a StopIteration traceback."""
    assert common_table("DK-[A-Z0-9]*", "LB-IT-*") is None
    found = common_table("DK-[A-Z0-9]*", "DK-?[!A-Z0-9]")
    assert found is not None and len(found) == 5
    assert fnmatch.fnmatchcase(found, "DK-[A-Z0-9]*") and fnmatch.fnmatchcase(
        found, "DK-?[!A-Z0-9]"
    )


def test_a_class_of_any_width_is_read_whole():
    """A class was spelt out to its first 4,096 characters: ``T[ -\U0010ffff]*`` and
    ``T\U00020000*`` both match ``T\U00020000`` but were said not to meet. Classes of
    thousands of characters each made each step of the search try them all (two minutes
    for two games of three such patterns)."""
    assert common_table("T[ -\U0010ffff]*", "T\U00020000*") == "T\U00020000"
    wide = "".join(
        f"[{chr(start)}-{chr(start + 4095)}]" for start in range(0x4E00, 0x4E00 + 9 * 4096, 4096)
    )
    assert common_table(wide, "?" * 9) == "".join(
        chr(start) for start in range(0x4E00, 0x4E00 + 9 * 4096, 4096)
    )
    assert common_table(wide, "?" * 8) is None


def test_a_table_s_owners_are_the_game_listing_it_exactly_else_each_whose_pattern_matches():
    owners = TableOwners(
        {"a": ["LB-*", "SPECIAL"], "b": ["*-DK-*"], "c": ["LB-DK-07"], "d": [], "e": ["SPECIAL"]}
    )
    assert owners and not TableOwners({"a": [], "b": ()})
    assert owners.of("LB-IT-01") == ("a",)
    assert owners.of("LB-DK-01") == ("a", "b")  # two patterns: check refuses such a file
    assert owners.of("LB-DK-07") == ("c",)  # listed exactly: its patterns' games do not count
    assert owners.of("SPECIAL") == ("a", "e")
    assert owners.of("lb-it-01") == owners.of("MB-IT-01") == ()  # case-sensitive; no game's
    assert owners.of("LB-[") == ("a",)  # a table id is text, never a pattern itself


def test_a_table_s_owners_are_remembered_up_to_a_bound_of_characters(monkeypatch):
    """A hostile log of many long table ids is looked up in bounded memory."""
    monkeypatch.setattr(reporting.config.table_patterns, "TABLE_CACHE_LIMIT", 100)
    owners = TableOwners({"a": ["T-*"]})
    for number in range(50):
        table = f"T-{number:08d}"  # 10 characters
        assert owners.of(table) == ("a",)
        assert sum(map(len, owners._seen)) == owners._seen_chars <= 100
    assert owners.of("T-" + "x" * 200) == ("a",)  # longer than the bound: not remembered
    assert all(len(table) <= 100 for table in owners._seen)
