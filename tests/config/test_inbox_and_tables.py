"""The games' tables (how a log that names no game finds its game) and the inbox's rules
(which files a log profile reads), as the operator configuration holds them."""

from __future__ import annotations

import pytest
from helpers import config_of, problems_of

from reporting.config.loader import InboxRule

GAMES = """\
[games.live-baccarat-it]
languages = ["it"]
tables = ["LB-IT-*", "ROMA-1"]

[games.live-baccarat-dk]
languages = ["da"]
"""


def test_a_game_lists_its_tables_and_an_unlisted_game_has_none(tmp_path):
    config = config_of(tmp_path, GAMES)
    assert config.games["live-baccarat-it"].tables == ("LB-IT-*", "ROMA-1")
    assert config.games["live-baccarat-dk"].tables == ()


def test_a_table_listed_by_two_games_is_a_problem_at_the_second(tmp_path):
    text = GAMES + 'tables = ["ROMA-1"]\n'
    (problem,) = problems_of(tmp_path, text)
    assert problem.endswith(
        "games.live-baccarat-dk.tables: 'ROMA-1' is listed by live-baccarat-it too: a table is"
        " dealt for one game"
    )


def test_two_games_patterns_that_can_match_one_table_are_a_problem_at_the_second(tmp_path):
    """``LB-*`` and ``*IT*`` passed ``check``; a log that names no game then had every round
    of ``LB-IT-01`` rejected as no game's. Patterns that cannot meet pass."""
    text = GAMES + 'tables = ["*IT*"]\n'
    (problem,) = problems_of(tmp_path, text)
    assert problem.endswith(
        "games.live-baccarat-dk.tables: '*IT*' and live-baccarat-it's 'LB-IT-*' both match a"
        " table such as 'LB-IT-': a table is dealt for one game; make the patterns tell such"
        " tables apart"
    )
    apart = config_of(tmp_path, GAMES + 'tables = ["LB-DK-*", "LB-IT"]\n')
    assert apart.games["live-baccarat-dk"].tables == ("LB-DK-*", "LB-IT")


def many_games(patterns_of) -> str:
    """Six games (the four of the catalogue, and two more built on them), each listing the
    thousand patterns ``patterns_of(game_number)`` gives (the most a game lists)."""
    games = ("live-baccarat-it", "live-baccarat-dk", "live-baccarat-gr", "mini-baccarat-it")
    bases = {"table-4": "live-baccarat-it", "table-5": "live-baccarat-dk"}
    return "".join(
        f"[games.{game}]\n"
        + (f'base = "{bases[game]}"\n' if game in bases else "")
        + f"tables = [{', '.join(map(repr, patterns_of(number)))}]\n"
        for number, game in enumerate((*games, *bases))
    )


def test_a_thousand_patterns_a_game_are_compared_by_their_own_letters(tmp_path):
    """Six games of a thousand patterns each (LB-0-0000-* ...) took minutes to compare, each
    pattern with every other game's: only patterns whose first and last letters agree are
    searched now. One that meets another game's is still found."""
    text = many_games(lambda game: [f"LB-{game}-{n:04d}-*" for n in range(1000)])
    config = config_of(tmp_path, text)
    assert len(config.games["table-5"].tables) == 1000
    problems = problems_of(tmp_path, text.replace("'LB-5-0999-*'", "'LB-?-0007-*'"))
    assert len(problems) == 5  # LB-0-0007-* of the first game to LB-4-0007-* of the fifth
    assert problems[0].endswith(
        "games.table-5.tables: 'LB-?-0007-*' and live-baccarat-it's 'LB-0-0007-*' both"
        " match a table such as 'LB-0-0007-': a table is dealt for one game; make the patterns"
        " tell such tables apart"
    )
    assert "table-4's 'LB-4-0007-*' both match a table such as 'LB-4-0007-'" in problems[4]


def test_patterns_too_many_to_compare_are_refused_in_one_line(tmp_path):
    """A thousand patterns a game that all begin with a star: 18 million pairs to compare,
    each a candidate. Past MAX_SEARCH_STEPS the configuration is refused, with what to do."""
    text = many_games(lambda game: [f"*{game}-{n:04d}" for n in range(1000)])
    (problem,) = problems_of(tmp_path, text)
    assert problem.endswith(
        "games: the games' 6,000 table patterns are too many to compare with each other"
        " (1,000,000 steps): list fewer, or patterns that begin with their tables' own letters"
        " (LB-IT-*) rather than a * or ?"
    )


@pytest.mark.parametrize(
    ("tables", "said"),
    [
        ('"LB-IT-01"', "must be a list of strings"),
        ('[" LB-IT"]', "is not a table id (no space at either end)"),
        ('["A", "A"]', "'A' listed more than once"),
    ],
)
def test_tables_that_are_not_a_list_of_ids_are_refused(tmp_path, tables, said):
    text = GAMES.replace('tables = ["LB-IT-*", "ROMA-1"]', f"tables = {tables}")
    (problem,) = problems_of(tmp_path, text)
    assert ":3: games.live-baccarat-it.tables:" in problem and said in problem


def test_inbox_rules_are_kept_in_file_order(tmp_path):
    text = (
        GAMES
        + '\n[[inbox.profiles]]\nfolder = "replay"\nprofile = "replay-api"\n'
        + '\n[[inbox.profiles]]\npattern = "*.csv"\nprofile = "profiles/flat.toml"\n'
    )
    config = config_of(tmp_path, text)
    assert [(rule.folder, rule.pattern, rule.profile) for rule in config.inbox_rules] == [
        ("replay", None, "replay-api"),
        (None, "*.csv", "profiles/flat.toml"),
    ]
    assert all(isinstance(rule, InboxRule) for rule in config.inbox_rules)


def test_each_inbox_rule_is_found_at_its_own_lines_not_the_first_rules(tmp_path):
    """A problem of the second rule named the first rule's line, and so did a missing
    profile of it at run time: the two rules are told apart by their number."""
    text = (
        GAMES
        + '\n[[inbox.profiles]]\nfolder = "a"\nprofile = "replay-api"\n'
        + '\n[[inbox.profiles]]\nfolder = "b"\nprofile = "gone.toml"\n'
        + "\n[[inbox.profiles]]\nfolder = 5\nprofile = 1\n"
    )
    lines = text.splitlines()
    problems = problems_of(tmp_path, text)
    assert [problem.split("/")[-1] for problem in problems] == [
        f"operator.toml:{lines.index('folder = 5') + 1}: inbox.profiles.3.folder: must be a"
        ' string such as "provider-x", not 5',
        f"operator.toml:{lines.index('profile = 1') + 1}: inbox.profiles.3.profile: must be a"
        ' string such as "replay-api", not 1',
    ]
    config = config_of(tmp_path, text.rsplit("\n[[inbox.profiles]]", 1)[0] + "\n")
    second = config.inbox_rules[1]
    assert second.line == lines.index('profile = "gone.toml"') + 1


@pytest.mark.parametrize(
    ("rule", "said"),
    [
        ('folder = "a"\npattern = "*.json"\nprofile = "replay-api"', "one of folder or pattern"),
        ('profile = "replay-api"', "one of folder or pattern"),
        ('folder = "a"', "give a profile"),
        ('folder = "/abs"\nprofile = "replay-api"', "a folder inside the inbox, relative to it"),
        # a rule that names no folder of the inbox would cover nothing, silently
        ('folder = "../"\nprofile = "replay-api"', "(names between /, none of them . or ..)"),
        ('folder = "a/../b"\nprofile = "replay-api"', "a folder inside the inbox"),
        ('pattern = "../*.json"\nprofile = "replay-api"', "a file-name pattern inside the"),
        (
            'folder = "a"\nprofile = "replay-api"\nprofil = 1',
            "unknown key; did you mean 'profile'?",
        ),
    ],
)
def test_an_inbox_rule_that_cannot_be_used_is_refused(tmp_path, rule, said):
    problems = problems_of(tmp_path, GAMES + f"\n[[inbox.profiles]]\n{rule}\n")
    assert any(said in problem for problem in problems), problems


def test_every_inbox_rule_whose_profile_cannot_be_used_is_named_at_once(tmp_path):
    """Two rules naming profiles that do not exist: the first alone was said, without its
    number; the second only once the first was mended."""
    from reporting.errors import InputError
    from reporting.ingest.discovery import inbox_profiles

    text = (
        GAMES
        + '\n[[inbox.profiles]]\nfolder = "a"\nprofile = "nonesuch"\n'
        + '\n[[inbox.profiles]]\nfolder = "b"\nprofile = "nonesuch2"\n'
    )
    lines = text.splitlines()
    with pytest.raises(InputError) as refused:
        inbox_profiles(config_of(tmp_path, text).inbox)
    said = str(refused.value)
    first, second = (lines.index(f'profile = "{name}"') + 1 for name in ("nonesuch", "nonesuch2"))
    assert f"operator.toml:{first}: inbox.profiles.1:" in said
    assert f"operator.toml:{second}: inbox.profiles.2:" in said
