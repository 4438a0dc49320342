"""Log profiles: the built-in ones load, the schema is the loader's, bad files are refused
with every problem at its line and key."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib

import pytest
from helpers import MINIMAL_PROFILE, schema_errors

from reporting.config.bets import catalogue_bets
from reporting.errors import InputError
from reporting.ingest.profiles.keys import SCHEMA_PATH
from reporting.ingest.profiles.loader import (
    DATA_FOLDER,
    ProfileError,
    built_in_profiles,
    load_profile,
)
from reporting.ingest.profiles.paths import EACH

SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))

MINIMAL = MINIMAL_PROFILE


def test_the_built_in_profiles_are_the_spec_and_the_shipped_files():
    assert built_in_profiles() == ("spec", "flat-csv", "numeric-feed", "replay-api")
    assert load_profile("spec") is None  # the spec's own readers read it


@pytest.mark.parametrize("name", ["flat-csv", "numeric-feed", "replay-api"])
def test_each_built_in_profile_loads_and_meets_the_schema(name):
    profile = load_profile(name)
    assert profile is not None and profile.name == name and profile.origin == "built-in"
    text = (DATA_FOLDER / f"{name}.toml").read_text(encoding="utf-8")
    assert schema_errors(tomllib.loads(text), SCHEMA) == []


def test_the_replay_profile_reads_what_the_export_holds_and_says_what_it_lacks():
    profile = load_profile("replay-api")
    assert profile.layouts == ("json", "jsonl")
    assert profile.bet_each.steps == ("playersBets", EACH, "bets", EACH)
    assert profile.round_fields["betting_closed_at"].steps == (
        "gameplay",
        ".BaccaratGameplay",
        "betEndDate",
    )
    assert profile.lacks == ("shoe_id", "hand_no", "void_reason", "placed_at")
    assert profile.bet_types["BC_BANKER"] == "banker"
    assert "BC_PLAYER_TIGER" not in profile.bet_types  # kept as given: unverified_bet
    assert profile.void_statuses == {"CANCELLED"} and profile.money_major
    assert not profile.payout_net and profile.times == "epoch_ms"


SHIPPED = [name for name in built_in_profiles() if name != "spec"]


@pytest.mark.parametrize("name", SHIPPED)
def test_each_built_in_profile_maps_a_code_to_every_bet_of_the_catalogue(name):
    """A bet added to reporting/data/bets.toml needs its provider code in every shipped
    profile: without one, the provider's bets of that type would be unverified_bet."""
    mapped = set(load_profile(name).bet_types.values())
    assert mapped == set(catalogue_bets())


def test_the_replay_profile_names_each_bet_bc_and_its_id_in_capitals():
    bet_types = load_profile("replay-api").bet_types
    for bet_id in catalogue_bets():
        assert bet_types["BC_" + bet_id.upper()] == bet_id
    # Its one other name: the endpoint's for the Tiger Tie (the Tiger family's tie bet).
    aliases = {code: bet_id for code, bet_id in bet_types.items() if code[3:].lower() != bet_id}
    assert aliases == {"BC_TIE_TIGER": "tiger_tie"}


def test_the_flat_csv_profile_names_each_bet_by_its_english_name():
    bet_types = load_profile("flat-csv").bet_types
    assert bet_types == {bet.name.msgid: bet.id for bet in catalogue_bets().values()}


def test_the_numeric_feed_keeps_its_codes_and_numbers_the_variants_after_them():
    bet_types = load_profile("numeric-feed").bet_types
    # The feed's own numbering of the classic bets, Dragon 7 and Panda 8.
    assert [bet_types[str(code)] for code in range(1, 14)] == [
        "player", "banker", "tie", "player_pair", "banker_pair", "either_pair", "perfect_pair",
        "small", "big", "player_bonus", "banker_bonus", "dragon_7", "panda_8",
    ]  # fmt: skip
    # Then the other variants from 14, in the catalogue's order: one code each, no gaps.
    assert sorted(map(int, bet_types)) == list(range(1, len(catalogue_bets()) + 1))
    variants = [bet_types[str(code)] for code in range(14, len(bet_types) + 1)]
    assert variants == [bet for bet in catalogue_bets() if bet not in list(bet_types.values())[:13]]


def test_a_minimal_profile_file_loads_with_its_defaults(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(MINIMAL, encoding="utf-8")
    profile = load_profile(str(path))
    assert profile.origin == str(path) and profile.label == f"mine ({path})"
    assert profile.times == "iso" and profile.money_major and not profile.payout_net
    assert profile.settled_statuses is None and profile.cards.dialect == "rank_suit"
    assert len(profile.sha256) == 64


def test_a_profile_file_is_found_relative_to_a_base_folder(tmp_path):
    (tmp_path / "mine.toml").write_text(MINIMAL, encoding="utf-8")
    assert load_profile("mine.toml", base=tmp_path).name == "mine"


def test_a_reference_that_is_neither_a_built_in_name_nor_a_file_says_so():
    with pytest.raises(InputError, match=r"no built-in profile.*did you mean 'replay-api'"):
        load_profile("replay-ap")


def test_a_profile_that_is_there_but_no_regular_file_is_named_as_what_it_is(tmp_path):
    """A FIFO (or a link to /dev/zero) given as a profile was "no built-in profile of that
    name ... and no such file": it is there, and what it is is said."""
    import os

    os.mkfifo(tmp_path / "fifo.toml")
    (tmp_path / "zero.toml").symlink_to("/dev/zero")
    (tmp_path / "folder.toml").mkdir()
    for name, kind in (("fifo.toml", "a FIFO"), ("zero.toml", "a character device")):
        with pytest.raises(InputError, match=rf"{name}': .* is {kind}"):
            load_profile(name, base=tmp_path)
    with pytest.raises(InputError, match=r"is a folder: give a profile's \.toml file"):
        load_profile("folder.toml", base=tmp_path)


def problems_of(tmp_path, text: str) -> list[str]:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ProfileError) as raised:
        load_profile(str(path))
    return raised.value.problems


def test_an_unknown_key_is_refused_at_its_line_with_a_did_you_mean(tmp_path):
    text = MINIMAL.replace('settled_at = "at"', 'settled_at = "at"\nsettle_at = "x"')
    assert problems_of(tmp_path, text) == [
        f"{tmp_path / 'bad.toml'}:9: round.settle_at: unknown key; did you mean 'settled_at'?"
    ]


@pytest.mark.parametrize(
    ("section", "said"),
    [
        (  # its void codes never met: a void round loaded as settled, its refunds as losses
            '[status]\nvoid = ["CANCELLED"]',
            "status: the rounds' status is not read, so these codes are never met (a void round"
            ' would load as settled): add status = "PATH" to [round], or remove [status]',
        ),
        (  # its codes never met: each round's game told by its table, without a word
            '[games]\nBAC_IT = "live-baccarat-it"',
            "games: the rounds' game is not read, so these codes are never met (each round's"
            ' game is told by its table): add game = "PATH" to [round], or remove [games]',
        ),
    ],
    ids=["status", "games"],
)
def test_codes_without_a_path_to_read_them_are_refused(tmp_path, section, said):
    """A [status] or [games] section without the [round] field its codes are codes of."""
    text = MINIMAL + f"\n{section}\n"
    assert problems_of(tmp_path, text) == [f"{tmp_path / 'bad.toml'}:20: {said}"]


def test_a_round_s_id_and_its_table_s_read_at_one_place_are_refused(tmp_path):
    """round_id and table_id both at "id" loaded, each round a table of its own (a shoe of
    its own, idle hours of every table), without a word."""
    text = MINIMAL.replace('table_id = "table"', 'table_id = "id"')
    assert problems_of(tmp_path, text) == [
        f"{tmp_path / 'bad.toml'}:7: round.table_id: the path 'id' is read for round.round_id"
        " too: each reads its own"
    ]


def test_a_bet_type_mapped_to_nothing_is_refused_with_its_key(tmp_path):
    text = MINIMAL + '\n[bet_types]\nBC_PLAYER = "playr"\n'
    (problem,) = problems_of(tmp_path, text)
    assert problem.startswith(f"{tmp_path / 'bad.toml'}:21: bet_types.BC_PLAYER: 'playr' is not")
    assert problem.endswith("did you mean 'player'?")


def test_a_path_that_cannot_be_parsed_is_refused_with_its_key(tmp_path):
    text = MINIMAL.replace('round_id = "id"', 'round_id = "game..id"')
    (problem,) = problems_of(tmp_path, text)
    assert ":6: round.round_id: bad path: expected a key at character 6" in problem


def test_a_bet_field_off_the_bets_path_is_refused(tmp_path):
    text = MINIMAL.replace('account = "bets[].who"', 'account = "players[].who"')
    (problem,) = problems_of(tmp_path, text)
    assert "bet.account: players[].who goes through [] steps the bets' path bets[] does not" in (
        problem
    )


def test_a_bet_s_amount_or_type_read_at_a_round_field_s_place_is_refused(tmp_path):
    """A payout read at the round's hand number (``payout = "Hand"``) passed ``check
    --profile`` and loaded every bet as paid its hand number; only verify's findings said so.
    A bet's stake, payout and type each read a place of no round field; its id or account
    may be the round's (a feed of one bet a round, one player at a table)."""
    text = MINIMAL.replace('payout = "bets[].paid"', 'payout = "table"')
    assert problems_of(tmp_path, text) == [
        f"{tmp_path / 'bad.toml'}:18: bet.payout: the path 'table' is the round's table_id: a"
        " bet's payout reads its own"
    ]
    shared = tmp_path / "shared.toml"
    shared.write_text(MINIMAL.replace('account = "bets[].who"', 'account = "table"'), "utf-8")
    assert load_profile(str(shared)).bet_fields["account"].text == "table"


def test_two_fields_never_one_value_read_at_one_place_are_refused(tmp_path):
    """A payout read at the stake's path loaded every bet as paid its stake, with no word of
    the profile (check --profile passed it)."""
    text = MINIMAL.replace('payout = "bets[].paid"', 'payout = "bets[].stake"')
    (problem,) = problems_of(tmp_path, text)
    assert problem.endswith(
        "bet.payout: the path 'bets[].stake' is read for bet.stake too: each reads its own"
    )
    hands = MINIMAL.replace('banker_cards = "b"', 'banker_cards = ["b", "p"]')
    (problem,) = problems_of(tmp_path, hands)
    assert problem.endswith(
        "round.banker_cards: the path 'p' is read for round.player_cards too: each reads its own"
    )


def test_a_missing_required_field_and_a_missing_section_are_both_said(tmp_path):
    text = MINIMAL.replace('table_id = "table"\n', "").split("[bet]")[0]
    problems = problems_of(tmp_path, text)
    assert any(problem.endswith("the [bet] section is missing") for problem in problems)
    assert any("round: table_id is missing" in problem for problem in problems)


@pytest.mark.parametrize(
    ("section", "keys", "said"),
    [
        ("times", 'zone = "Europe/Roma"', "times.zone: 'Europe/Roma' is not an IANA time zone"),
        (
            "times",
            'zone = "posixrules"',
            "times.zone: 'posixrules' is a file of the time zone database",
        ),
        (
            "times",
            'unit = "epoch_ms"\nzone = "Europe/Rome"',
            'times.zone: a zone reads times written as text (unit = "iso"), not epoch_ms',
        ),
        (
            "cards",
            'rank_key = "rank"',
            "cards.suit_key: missing: a card object is read by rank_key and",
        ),
        (
            "cards",
            'suit_key = "suit"',
            "cards.rank_key: missing: a card object is read by suit_key and",
        ),
        ("cards", 'rank_key = "c"\nsuit_key = "c"', "cards.suit_key: 'c' is the rank_key too"),
        ("money", 'grouping = "."', "money.grouping: '.' is the decimal mark by default ([money]"),
        ("money", 'decimal = ","\ngrouping = ","', "money.grouping: ',' is the decimal mark"),
        ("money", 'decimal = ";"', "money.decimal: ';' is not one of '.', ','"),
        (
            "money",
            'grouping = "_"',
            """money.grouping: '_' is not one of '.', ',', "'", ' ', '\\xa0',""",
        ),
    ],
)
def test_keys_of_a_section_that_do_not_hold_together_are_refused(tmp_path, section, keys, said):
    """A zone that is none or serves no text; a card object without the key of its rank or
    of its suit, or with one key for both; an amount's marks that are not two known
    characters apart."""
    (problem,) = problems_of(tmp_path, MINIMAL + f"\n[{section}]\n{keys}\n")
    assert said in problem


def test_a_bad_key_of_one_section_hides_no_problem_of_another(tmp_path):
    """A ``[times] unit`` that is none hid the money's two marks being one and the cards'
    two keys being one: the user mended the problem shown, and was given the next ones."""
    text = MINIMAL + (
        '\n[cards]\nrank_key = "c"\nsuit_key = "c"\n'
        '\n[money]\ndecimal = ","\ngrouping = ","\n'
        '\n[times]\nunit = "iso8601"\n'
    )
    said = [problem.split(": ", 1)[1] for problem in problems_of(tmp_path, text)]
    assert [problem.split(":")[0] for problem in said] == [  # by their lines
        "cards.suit_key",
        "money.grouping",
        "times.unit",
    ]


def test_a_section_with_a_key_that_is_none_or_a_bad_profile_is_told_nothing_it_did_not_mean(
    tmp_path,
):
    """``decimel = ","`` beside ``grouping = "."`` was also told "leave grouping out" (the
    grouping read against the default decimal point); a CSV profile with a bad name and a
    rank_key alone was told to add a suit_key, then, the name mended, to remove both."""
    money = problems_of(tmp_path, MINIMAL + '\n[money]\ndecimel = ","\ngrouping = "."\n')
    assert [problem.split(": ")[1] for problem in money] == ["money.decimel"]
    csv = (
        MINIMAL.replace('layouts = ["jsonl"]', 'layouts = ["csv"]')
        .replace('name = "mine"', 'name = ""')
        .replace('each = "bets[]"\n', "")
        .replace("bets[].", "")
    )
    said = problems_of(tmp_path, csv + '\n[cards]\nrank_key = "rank"\n')
    assert [problem.split(": ")[1] for problem in said] == ["profile.name"]


def test_card_objects_in_a_csv_profile_are_refused(tmp_path):
    """A CSV cell holds text: a profile of CSV files that read cards as objects loaded, and
    read no card as one."""
    text = (
        MINIMAL.replace('layouts = ["jsonl"]', 'layouts = ["csv"]')
        .replace('each = "bets[]"\n', "")
        .replace("bets[].", "")
    )
    text += '\n[cards]\nrank_key = "rank"\nsuit_key = "suit"\n'
    problems = problems_of(tmp_path, text)
    assert [problem.split(": ")[1] for problem in problems] == ["cards.rank_key", "cards.suit_key"]
    assert all("a CSV cell holds text, never a card object" in problem for problem in problems)


def test_the_marks_are_kept_and_a_point_alone_is_the_default(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(MINIMAL + '\n[money]\ndecimal = ","\ngrouping = "."\n', encoding="utf-8")
    assert (load_profile(str(path)).decimal, load_profile(str(path)).grouping) == (",", ".")
    path.write_text(MINIMAL, encoding="utf-8")
    assert (load_profile(str(path)).decimal, load_profile(str(path)).grouping) == (".", None)


def test_a_zone_is_kept_and_none_is_the_default(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(MINIMAL + '\n[times]\nzone = "Europe/Copenhagen"\n', encoding="utf-8")
    assert load_profile(str(path)).zone == "Europe/Copenhagen"
    path.write_text(MINIMAL, encoding="utf-8")
    assert load_profile(str(path)).zone is None


def test_a_status_both_void_and_settled_is_refused(tmp_path):
    text = MINIMAL.replace('banker_cards = "b"', 'banker_cards = "b"\nstatus = "s"')
    text += '\n[status]\nvoid = ["X"]\nsettled = ["X", "OK"]\n'
    assert any("X: both void and settled" in problem for problem in problems_of(tmp_path, text))


def test_csv_and_json_layouts_are_not_mixed(tmp_path):
    text = MINIMAL.replace('layouts = ["jsonl"]', 'layouts = ["jsonl", "csv"]')
    assert any("a profile reads one or the other" in p for p in problems_of(tmp_path, text))


def test_a_profile_that_is_not_toml_says_where(tmp_path):
    (problem,) = problems_of(tmp_path, "[profile\nname = 1\n")
    assert problem.startswith(f"{tmp_path / 'bad.toml'}:1: not valid TOML")


def test_a_profile_whose_name_is_not_utf8_is_refused_in_one_line(tmp_path):
    """The store keeps a profile's name as text: one of bytes that are no UTF-8 loaded its
    file, and ingest stopped at the insert of the files' log with a traceback."""
    name = os.fsdecode(b"p\xff.toml")
    (tmp_path / name).write_bytes((DATA_FOLDER / "numeric-feed.toml").read_bytes())
    with pytest.raises(InputError) as refused:
        load_profile(str(tmp_path / name))
    assert str(refused.value) == (
        f"log profile '{tmp_path}/p\\xff.toml': its name is not UTF-8 text (the store keeps"
        " names as text): rename it"
    )


def test_a_profile_named_in_a_configuration_that_the_locale_cannot_write_is_a_problem(tmp_path):
    """Under a C locale, a profile named "profé.toml" in the configuration (UTF-8 text) could
    not be looked for: ``check`` and every command that loads the configuration ended in a
    traceback (UnicodeEncodeError)."""
    config = tmp_path / "operator.toml"
    config.write_text(
        '[operator]\nname = "X"\n[games.live-baccarat-it]\n[[inbox.profiles]]\nfolder = "x"\n'
        'profile = "profé.toml"\n',
        encoding="utf-8",
    )
    environment = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("LC_", "PYTHONUTF8", "PYTHONIOENCODING", "PYTHONCOERCECLOCALE"))
    }
    environment |= {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}
    done = subprocess.run(
        [sys.executable, "-m", "reporting", "check", "--config", str(config)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        env=environment,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert (
        f"baccarat-report: configuration: {config}:6: inbox.profiles.1: log profile"
        " 'prof\\xe9.toml': its name has characters this machine's locale (ascii) cannot write:"
        " run under a UTF-8 locale (LANG=C.UTF-8)"
    ) in done.stderr.splitlines(), done.stderr


def test_a_profile_named_by_a_loop_of_links_or_a_link_to_nothing_is_said_to_be_one(tmp_path):
    """Each was "no built-in profile of that name ... and no such file", where a file of
    that name stood."""
    (tmp_path / "a.toml").symlink_to(tmp_path / "b.toml")
    (tmp_path / "b.toml").symlink_to(tmp_path / "a.toml")
    (tmp_path / "gone.toml").symlink_to(tmp_path / "nowhere.toml")
    for name, standing in (
        ("a.toml", "a loop of symbolic links"),
        ("gone.toml", "a symbolic link to nothing (its target does not exist)"),
    ):
        with pytest.raises(InputError) as refused:
            load_profile(name, base=tmp_path)
        assert str(refused.value) == (
            f"log profile {name!r}: {tmp_path / name} is {standing}: give a profile's .toml"
            " file, or a built-in profile's name"
        )
