"""Loading a log profile: a built-in one by name, or a TOML file, checked strictly.

Every problem of a file is collected and raised at once as a :class:`ProfileError` (a kind
of :class:`~reporting.config.loader.ConfigError`: ``file:line: key: message``): an unknown
key (with "did you mean"), a path that cannot be parsed, a bet field whose ``[]`` steps do
not follow the bets' own, a bet type mapped to no bet type of this tool, a status both void
and settled, a required field missing.

The round log of the spec is the built-in profile ``spec``: :func:`load_profile` gives None
for it, and the spec's own readers read its files.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection
from functools import cache
from pathlib import Path
from typing import Any

from reporting.config.game_checks import timezone_problem
from reporting.config.loader import ConfigError, read_toml
from reporting.config.values import MISSING, Problems, shown, suggestion
from reporting.errors import InputError, printable
from reporting.files import UnusableName, kind_of_file, standing_at, utf8_name
from reporting.ingest.profiles.builtin import DATA_FOLDER, SPEC, built_in_profiles
from reporting.ingest.profiles.cards import CardDialect
from reporting.ingest.profiles.keys import PROFILE_SECTIONS
from reporting.ingest.profiles.model import Profile
from reporting.ingest.profiles.paths import EACH, FieldPath, PathError, parse_path

__all__ = [
    "BUILT_IN",
    "DATA_FOLDER",
    "SPEC",
    "NoProfile",
    "ProfileError",
    "built_in_profiles",
    "load_profile",
    "load_profile_file",
]

_REQUIRED_ROUND = ("round_id", "table_id", "settled_at", "player_cards", "banker_cards")
_REQUIRED_BET = ("bet_id", "account", "type", "stake", "payout")
_OPTIONAL_FIELDS = (
    ("shoe_id", "round"),
    ("hand_no", "round"),
    ("started_at", "round"),
    ("betting_closed_at", "round"),
    ("void_reason", "round"),
    ("placed_at", "bet"),
)


class NoProfile(InputError):
    """A log profile's name that names no profile to read (no built-in one, no such file, a
    FIFO, a loop of links, a name that is no text), said naming it ("log profile 'x': ...")."""


class ProfileError(ConfigError):
    """One or more problems in a log profile, each naming the file, line and key."""

    label = "log profile"


#: The built-in profiles' names, the spec's first.
BUILT_IN = built_in_profiles


def load_profile(
    reference: str, base: Path | None = None, *, configured: Collection[str] | None = None
) -> Profile | None:
    """The profile a reference names: a built-in profile's name, or a file (relative to
    ``base`` when given and the path is relative). None for the spec's round log.

    ``configured``: the configuration's game ids, to which the profile's ``[games]`` is held
    too (each game it names must be one of them). Raises :class:`ProfileError` for a file
    with problems, InputError for a reference that names neither.
    """
    if reference == SPEC:
        return None
    if reference in built_in_profiles():
        if configured is not None:
            path = DATA_FOLDER / f"{reference}.toml"
            return load_profile_file(path, origin="built-in", configured=configured)
        return _built_in(reference)
    try:  # the store keeps the name as text
        label = utf8_name(reference)
    except UnusableName as unusable:
        raise NoProfile(f"log profile '{printable(reference)}': {unusable}") from None
    path = Path(reference)
    if base is not None and not path.is_absolute():
        path = base / path
    if path.is_file():
        return load_profile_file(path, origin=label, configured=configured)
    try:
        mode = path.stat().st_mode
    except OSError:
        mode = None
    # there but no file to read (a FIFO would be waited on for ever), or a loop of links, or
    # a link to nothing
    what = kind_of_file(mode) if mode is not None else standing_at(path)
    if what is not None:
        raise NoProfile(
            f"log profile {reference!r}: {path} is {what}: give a profile's .toml file, or a"
            " built-in profile's name"
        )
    names = built_in_profiles()
    raise NoProfile(
        f"log profile {reference!r}: no built-in profile of that name (built-in:"
        f" {', '.join(names)}){suggestion(reference, names)} and no such file"
    )


def profile_file(reference: str, base: Path | None = None) -> Path | None:
    """The file a reference names, resolved (a built-in profile's own), by which two
    references to one file are known as one (``bad.toml`` and ``./bad.toml``); None for the
    spec's round log or a reference that names no file."""
    if reference == SPEC:
        return None
    if reference in built_in_profiles():
        return DATA_FOLDER / f"{reference}.toml"
    path = Path(reference)
    if base is not None and not path.is_absolute():
        path = base / path
    try:
        return path.resolve() if path.is_file() else None
    except (OSError, RuntimeError):  # a loop of links
        return None


@cache
def _built_in(name: str) -> Profile:
    return load_profile_file(DATA_FOLDER / f"{name}.toml", origin="built-in")


def load_profile_file(
    path: Path, origin: str | None = None, *, configured: Collection[str] | None = None
) -> Profile:
    """A profile file, checked (its ``[games]`` against ``configured`` game ids, if given);
    :class:`ProfileError` listing every problem."""
    try:
        raw, lines = read_toml(path)
    except ConfigError as error:
        raise ProfileError(error.problems) from None
    problems = Problems(str(path), lines)
    sections: dict[str, Any] = {}
    for name, value in raw.items():
        table = PROFILE_SECTIONS.get(name)
        if table is None:
            problems.add((name,), f"unknown section{suggestion(name, PROFILE_SECTIONS)}")
            continue
        sections[name] = table.check(value, (name,), problems)
    for name in ("profile", "round", "bet"):
        if name not in raw:
            problems.add((), f"the [{name}] section is missing")
    for name in _REQUIRED_ROUND:
        if isinstance(raw.get("round"), dict) and name not in raw["round"]:
            problems.add(("round",), f"{name} is missing (a round always has one)")
    if configured is not None:
        _check_games(sections.get("games"), configured, problems)
    _check_sections(raw, sections, problems)
    profile = None
    if MISSING not in sections.values() and all(
        name in sections for name in ("profile", "round", "bet")
    ):
        profile = _profile(sections, path, origin or str(path), problems)
    if problems or profile is None:
        raise ProfileError(problems.messages)
    return profile


def _check_games(games: Any, configured: Collection[str], problems: Problems) -> None:
    """Each game ``[games]`` maps an export's game onto is one the configuration lists (else
    every round of it would be rejected as of an unknown game)."""
    if not isinstance(games, dict):
        return  # absent, or refused by its own check
    known = sorted(configured)
    for export_id, game_id in games.items():
        if game_id not in configured:
            problems.add(
                ("games", export_id),
                f"{game_id!r} is not a game of the configuration (its games:"
                f" {', '.join(known) or 'none'}){suggestion(game_id, known)}",
            )


def _profile(
    sections: dict[str, Any], path: Path, origin: str, problems: Problems
) -> Profile | None:
    """The profile of sections that passed their keys' checks, or None with the problems of
    how they fit together noted."""
    about = sections["profile"]
    layouts = tuple(about.get("layouts", ()))
    csv = _is_csv(about)
    round_section, bet_section = sections["round"], sections["bet"]
    _check_layout(about, bet_section, problems)
    round_fields = {
        name: _paths(value, ("round", name), csv, problems) for name, value in round_section.items()
    }
    each = None
    if not csv and "each" in bet_section:
        each = _path(bet_section["each"], ("bet", "each"), csv, problems)
    bet_fields = {
        name: _path(value, ("bet", name), csv, problems)
        for name, value in bet_section.items()
        if name != "each"
    }
    if each is not None:
        _check_each(each, bet_fields, problems)
    _check_round_places(round_fields, csv, problems)
    _check_codes_are_read(sections, round_section, problems)
    _check_own_places({("bet", name): path for name, path in bet_fields.items()}, csv, problems)
    _check_bets_apart(round_fields, bet_fields, csv, problems)
    rounds = _rounds_path(about, problems)
    void, settled = _statuses(sections.get("status", {}), "status" in round_section, problems)
    if problems or (each is None and not csv):
        return None
    money, times = sections.get("money", {}), sections.get("times", {})
    return Profile(
        name=about["name"],
        description=about.get("description", ""),
        origin=origin,
        sha256=hashlib.sha256(path.read_bytes()).hexdigest(),
        layouts=layouts,
        rounds=rounds,
        round_fields=round_fields,  # type: ignore[arg-type]
        bet_each=each,
        bet_fields=bet_fields,  # type: ignore[arg-type]
        void_statuses=void,
        settled_statuses=settled,
        cards=CardDialect(**sections.get("cards", {})),
        times=times.get("unit", "iso"),
        zone=times.get("zone"),
        money_major=money.get("unit", "major") == "major",
        payout_net=money.get("payout", "gross") == "net",
        decimal=money.get("decimal", "."),
        grouping=money.get("grouping"),
        bet_types=dict(sections.get("bet_types", {})),
        games=sections.get("games"),
        delimiter=sections.get("csv", {}).get("delimiter", ","),
        lacks=_lacks(round_section, bet_section),
    )


def _rounds_path(about: dict[str, Any], problems: Problems) -> FieldPath | None:
    """The path of a JSON document's array of rounds (None: the document is the array)."""
    if "rounds" not in about:
        return None
    rounds = _path(about["rounds"], ("profile", "rounds"), False, problems)
    if rounds is not None and rounds.each_steps:
        problems.add(("profile", "rounds"), "the path of the array of rounds has no []")
    return rounds


def _check_layout(about: dict[str, Any], bet_section: dict[str, Any], problems: Problems) -> None:
    """The keys every profile has, and those its layouts ask for or rule out."""
    for key in ("name", "layouts"):
        if key not in about:
            problems.add(("profile",), f"{key} is missing")
    layouts = tuple(about.get("layouts", ()))
    csv = _is_csv(about)
    if "csv" in layouts and not csv:
        problems.add(
            ("profile", "layouts"),
            "csv is read by columns, json and jsonl by paths: a profile reads one or the other",
        )
    for name in _REQUIRED_BET:
        if name not in bet_section:
            problems.add(("bet",), f"{name} is missing (a bet always has one)")
    if not csv and "each" not in bet_section:
        problems.add(("bet",), 'each is missing: the path of each bet, e.g. "bets[]"')
    if csv and "each" in bet_section:
        problems.add(("bet", "each"), "a csv file holds one bet a row: leave each out")


def _lacks(round_section: dict[str, Any], bet_section: dict[str, Any]) -> tuple[str, ...]:
    """The optional fields the profile does not read: the export does not hold them."""
    return tuple(
        name
        for name, section in _OPTIONAL_FIELDS
        if name not in (round_section if section == "round" else bet_section)
    )


def _check_sections(raw: dict[str, Any], sections: dict[str, Any], problems: Problems) -> None:
    """The checks of a section's keys together (a zone and its times' unit, the money's two
    marks, the cards' two keys and the profile's layouts), on each section whose keys all
    passed their own checks, whatever another section holds: every problem of a file at once
    (a bad ``[times] unit`` hid the money's marks being one). A section with a key that is
    none (``decimel``) or a bad value is left to that key's problem: read without it, it
    would be told of what the key was meant to say."""
    passed = {
        name: value
        for name, value in sections.items()
        if value is not MISSING
        and isinstance(raw.get(name), dict)
        and raw[name].keys() <= PROFILE_SECTIONS[name].keys.keys()
    }
    _check_zone(passed.get("times", {}), problems)
    _check_marks(passed.get("money", {}), problems)
    if "profile" in passed:  # its layouts: a CSV file's cells are never card objects
        _check_card_keys(passed.get("cards", {}), _is_csv(passed["profile"]), problems)


def _is_csv(about: dict[str, Any]) -> bool:
    """Whether a profile's ``[profile]`` reads CSV files (its columns, not JSON paths)."""
    return tuple(about.get("layouts", ())) == ("csv",)


def _check_card_keys(cards: dict[str, Any], csv: bool, problems: Problems) -> None:
    """A card written as an object needs the key of its rank and of its suit, apart, and a
    file whose values are not all text (a CSV file's cells are)."""
    if csv:
        for name in ("rank_key", "suit_key"):
            if name in cards:
                problems.add(
                    ("cards", name),
                    "a CSV cell holds text, never a card object: card objects are read from"
                    " json and jsonl files (leave rank_key and suit_key out)",
                )
        return
    keys = [cards.get(name) for name in ("rank_key", "suit_key")]
    if keys.count(None) == 1:
        given, wanted = ("rank_key", "suit_key") if keys[0] else ("suit_key", "rank_key")
        problems.add(("cards", wanted), f"missing: a card object is read by {given} and {wanted}")
    elif keys[0] is not None and keys[0] == keys[1]:
        problems.add(("cards", "suit_key"), f"{keys[1]!r} is the rank_key too: name each its own")


def _check_zone(times: dict[str, Any], problems: Problems) -> None:
    """A zone names a civil time zone, and serves times written as text (an epoch number
    is an instant already)."""
    if "zone" not in times:
        return
    problem = timezone_problem(times["zone"])
    if problem is not None:
        problems.add(("times", "zone"), problem)
    elif times.get("unit", "iso") != "iso":
        problems.add(
            ("times", "zone"),
            f'a zone reads times written as text (unit = "iso"), not {times["unit"]}, whose'
            " numbers are instants already",
        )


def _check_marks(money: dict[str, Any], problems: Problems) -> None:
    """An amount's thousands are not grouped with its decimal mark (``"1.234"`` would be
    read either way)."""
    if money.get("grouping", "") == money.get("decimal", "."):
        mark = "the decimal mark" if "decimal" in money else "the decimal mark by default"
        problems.add(
            ("money", "grouping"),
            f"{shown(money['grouping'])} is {mark} ([money] decimal): an amount's thousands"
            " are grouped with another character, or none (leave grouping out)",
        )


def _statuses(
    status: dict[str, Any], read: bool, problems: Problems
) -> tuple[frozenset[str], frozenset[str] | None]:
    """The status values meaning void, and those meaning settled (None: every other)."""
    void = frozenset(status.get("void", ()))
    settled = None if "settled" not in status else frozenset(status["settled"])
    if settled is not None and void & settled:
        problems.add(("status",), f"{', '.join(sorted(void & settled))}: both void and settled")
    if read and not void:
        problems.add(("status", "void"), "list the status values that mean a void round")
    return void, settled


def _path(text: str, key: tuple[str, ...], csv: bool, problems: Problems) -> FieldPath | None:
    """A JSON path parsed (a CSV column kept as its one step)."""
    if csv:
        return FieldPath(text, (text,))
    try:
        return parse_path(text)
    except PathError as error:
        problems.add(key, f"bad path: {error}")
        return None


def _paths(
    value: str | list[str], key: tuple[str, ...], csv: bool, problems: Problems
) -> FieldPath | tuple[FieldPath, ...] | None:
    if isinstance(value, list):
        paths = tuple(_path(text, key, csv, problems) for text in value)
        return None if None in paths else paths  # type: ignore[return-value]
    return _path(value, key, csv, problems)


def _check_round_places(fields: dict[str, Any], csv: bool, problems: Problems) -> None:
    """A round's fields that are never one value each read a place of their own (the two
    hands; its id, its table's and its shoe's: a round id read as its table's made each
    round a table)."""
    for names in (("player_cards", "banker_cards"), ("round_id", "table_id", "shoe_id")):
        _check_own_places({("round", name): fields.get(name) for name in names}, csv, problems)


#: Each section of a round field's codes: the field of ``[round]`` they are codes of, and
#: what a profile that reads no such field would do (its codes met nowhere).
_CODES_OF = {
    "status": ("status", "a void round would load as settled"),
    "games": ("game", "each round's game is told by its table"),
}


def _check_codes_are_read(
    sections: dict[str, Any], round_section: dict[str, Any], problems: Problems
) -> None:
    """Each section of codes (:data:`_CODES_OF`) has its field read: codes of a field read
    from nowhere were taken, and never met."""
    for section, (field_name, otherwise) in _CODES_OF.items():
        if sections.get(section) and field_name not in round_section:
            problems.add(
                (section,),
                f"the rounds' {field_name} is not read, so these codes are never met"
                f' ({otherwise}): add {field_name} = "PATH" to [round], or remove [{section}]',
            )


def _check_own_places(fields: dict[tuple[str, str], Any], csv: bool, problems: Problems) -> None:
    """Fields that are never one value (a bet's stake and payout, its id and account, the two
    hands, a round's id and its table's) each read a place of their own: a payout read at the
    stake's path loads every bet as paid its stake, and nothing else would say so."""
    read_for: dict[tuple[Any, ...], str] = {}
    for key, value in fields.items():
        for path in value if isinstance(value, tuple) else (value,):
            if path is None:
                continue
            other = read_for.setdefault(path.steps, ".".join(key))
            if other != ".".join(key):  # (a place listed twice in one field: its list's check)
                place = f"column {path.text!r}" if csv else f"path {path.text!r}"
                problems.add(key, f"the {place} is read for {other} too: each reads its own")
                break


#: The bet fields that are never a round's value: its amounts, its type.
_BET_OWN = ("stake", "payout", "type")


def _check_bets_apart(
    round_fields: dict[str, Any],
    bet_fields: dict[str, FieldPath | None],
    csv: bool,
    problems: Problems,
) -> None:
    """A bet's amounts and type are read at a place of no round field: a payout read at the
    round's hand number (``payout = "Hand"``) paid every bet its hand number, and only
    verify's findings said so."""
    read_for = {
        path.steps: name
        for name, value in round_fields.items()
        for path in (value if isinstance(value, tuple) else (value,))
        if path is not None
    }
    for name in _BET_OWN:
        path = bet_fields.get(name)
        if path is not None and path.steps in read_for:
            place = f"column {path.text!r}" if csv else f"path {path.text!r}"
            problems.add(
                ("bet", name),
                f"the {place} is the round's {read_for[path.steps]}: a bet's {name} reads its own",
            )


def _check_each(each: FieldPath, fields: dict[str, FieldPath | None], problems: Problems) -> None:
    """Each bet field is read on the round (no []) or on an element the bets' path goes
    through: its steps up to its last [] are the bets' path's own."""
    if not each.steps or each.steps[-1] is not EACH:
        problems.add(("bet", "each"), f"{each} must end in [] (each element of an array)")
        return
    for name, path in fields.items():
        if path is None or not path.each_steps:
            continue
        through = path.through_last_each
        if through != each.steps[: len(through)]:
            problems.add(
                ("bet", name),
                f"{path} goes through [] steps the bets' path {each} does not: write it"
                f" from the round through {each}'s own steps (or without [] for a field of"
                " the round)",
            )
