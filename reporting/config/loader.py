"""Loading the game catalogue and an operator configuration into validated :class:`GameSpec` records.

The catalogue (``reporting/data/catalogue.toml``) holds the published variants. An operator
configuration (TOML) selects games from it, overrides any key, and may define games of its
own on a catalogue ``base``. Every key is checked by its kind (:mod:`reporting.config.keys`);
unknown keys and impossible values are problems that name the file, the line and the key
(``operator.toml:12: games.live-baccarat-it.decks: 9 is not 1 to 8``), with a "did you mean"
for a near miss, all collected and reported together in one :class:`ConfigError`. No content
of a file, however hostile, raises anything else.
"""

from __future__ import annotations

import codecs
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from reporting.config.game_checks import (
    GAME_CHECKS,
    bets_can_win,
    pay_flags_agree,
    pays_of_bets_offered,
    rows_decide_on_the_shoe,
    sentences_hold,
)
from reporting.config.keys import (
    CATALOGUE_PATH,
    GAME_ID_PATTERN,
    GAME_KEYS,
    INBOX_KEYS,
    LIMIT_KEYS,
    OPERATOR_GAME_KEYS,
    PAY_FLAGS,
    STARTER_PATH,
    TOP_LEVEL_KEYS,
)
from reporting.config.languages import SUPPORTED_LANGUAGES
from reporting.config.lines import KeyLines, deep_line
from reporting.config.offered_bets import OfferedBets
from reporting.config.operator import Operator, read_operator
from reporting.config.pay_tables import pay_table_of, resolve_pay_tables
from reporting.config.table_patterns import (
    MAX_SEARCH_STEPS,
    SearchBudget,
    SearchTooLong,
    clashes,
    is_pattern,
)
from reporting.config.values import (
    MISSING,
    ChoiceList,
    Key,
    Problems,
    Table,
    shown,
    suggestion,
)
from reporting.engine.bets import BetRule
from reporting.engine.games import GameSpec, StakeLimits
from reporting.engine.money import RoundingPolicy
from reporting.errors import NotARegularFile
from reporting.files import kind_of_file, open_regular, standing_at

__all__ = [
    "CATALOGUE_PATH",
    "MAX_CONFIG_BYTES",
    "SUPPORTED_LANGUAGES",
    "ConfigError",
    "GameOrigin",
    "InboxRule",
    "Operator",
    "OperatorConfig",
    "CHECKOUT_SAMPLE",
    "default_config_path",
    "load_catalogue",
    "load_config",
    "read_toml",
]

#: A configuration larger than this is not one (the sample's is a few KiB).
MAX_CONFIG_BYTES = 1 << 20
#: Game keys a game may leave unset.
OPTIONAL_GAME_KEYS = (
    "cut_card_depth",
    "opening_hours",
    "availability_gap_minutes",
    "scoreboard",
    "pay",
    *PAY_FLAGS,
    "regulator",
    "regulator_code",
    "declared_rtp",
    "declared_rtp_reference",
    "statistics_reset",
    "version",
    "tables",
    "words",
)


class ConfigError(Exception):
    """One or more problems in a configuration file, each naming the file, line and key;
    ``inbox``: its inbox rules that could be read all the same (``check`` judges their
    profiles in the same run), None if the file could not be read as a configuration."""

    label = "configuration"  # how a message names the kind of file

    def __init__(self, problems: list[str], *, inbox: InboxRules | None = None):
        self.problems = problems
        self.inbox = inbox
        super().__init__("; ".join(problems))


@dataclass(frozen=True, slots=True)
class GameOrigin:
    """Where a configured game starts from: its catalogue game and its pay table's name."""

    base: str
    pay_table: str


@dataclass(frozen=True, slots=True)
class InboxRule:
    """``[[inbox.profiles]]``: the inbox files (a folder of it, or a file-name pattern)
    that a log profile reads; ``profile`` as written (a name, or a file relative to the
    configuration's folder, resolved by the reader)."""

    profile: str
    folder: str | None = None
    pattern: str | None = None
    line: int | None = None  # of the configuration file, for messages


@dataclass(frozen=True, slots=True)
class InboxRules:
    """A configuration's ``[[inbox.profiles]]`` rules with what reading their profiles needs:
    the file (a profile file is named relative to its folder) and the ids of the games it
    lists (a profile's ``[games]`` is held to them)."""

    rules: tuple[InboxRule, ...] = ()
    source: Path | None = None
    #: None: the file's games could not be read (``games`` refused or empty), and a
    #: profile's ``[games]`` is not judged by them.
    games: tuple[str, ...] | None = ()


@dataclass(frozen=True)
class OperatorConfig:
    """The operator (``name``, and all of ``[operator]`` as :attr:`operator`) and the games it
    runs, by id."""

    name: str
    games: dict[str, GameSpec]
    source: Path | None
    origins: Mapping[str, GameOrigin] = field(default_factory=dict, compare=False)
    #: The pay tables the operator's file defines, resolved onto their bases (odds as Fractions).
    pay_tables: Mapping[str, Mapping[str, Any]] = field(default_factory=dict, compare=False)
    #: The base each of the file's pay tables writes (``base = "mid"``), by table.
    pay_table_bases: Mapping[str, str] = field(default_factory=dict, compare=False)
    lines: KeyLines = field(default_factory=KeyLines, compare=False, repr=False)
    #: ``[[inbox.profiles]]``, in file order (the first rule a file matches applies).
    inbox_rules: tuple[InboxRule, ...] = ()
    #: ``[operator]``: the name again, licences, logo, accent colour, template folder.
    operator: Operator = field(default_factory=Operator, compare=False)
    #: ``[bets.ID]``: the operator's own bets, declared like the catalogue's.
    own_bets: Mapping[str, BetRule] = field(default_factory=dict, compare=False)

    @property
    def inbox(self) -> InboxRules:
        """The inbox rules, with the file and the games their profiles are read against."""
        return InboxRules(self.inbox_rules, self.source, tuple(self.games))

    def game(self, game_id: str) -> GameSpec:
        """The game with this id, or a :class:`ConfigError` listing the configured ones."""
        try:
            return self.games[game_id]
        except KeyError:
            known = ", ".join(sorted(self.games)) or "none"
            where = self.source or "the built-in catalogue"
            raise ConfigError(
                [
                    f"{where}: no game {game_id!r} is configured (known: {known})"
                    f"{suggestion(game_id, self.games)}"
                ]
            ) from None

    def problems(self) -> Problems:
        """An empty collector of messages that point into this configuration's file."""
        return Problems(str(self.source or CATALOGUE_PATH), self.lines)


#: The sample configuration of a source checkout.
CHECKOUT_SAMPLE = Path(__file__).resolve().parents[2] / "sample_data" / "operator.toml"


def default_config_path() -> Path:
    """The shipped sample configuration, used without ``--config`` (cli.md):
    ``sample_data/operator.toml`` in a source checkout, else its copy in the package (the
    starter ``init`` writes: the same games)."""
    return CHECKOUT_SAMPLE if CHECKOUT_SAMPLE.is_file() else STARTER_PATH


def _read_text(path: Path) -> str:
    """A configuration file's text: a regular file, at most 1 MiB, UTF-8 (a BOM is dropped)."""
    try:
        if not path.exists():
            what = standing_at(path)  # a link to nothing or a loop, if anything
            raise ConfigError([f"{path}: is {what}" if what else f"{path}: file not found"])
        if not path.is_file():
            what = kind_of_file(path.stat().st_mode)
            raise ConfigError(
                [
                    f"{path}: is {what}, not a configuration file; name the configuration's .toml file"
                ]
            )
        with open_regular(path) as handle:  # not a kernel's file either: /proc/kmsg waits
            data = handle.read(MAX_CONFIG_BYTES + 1)
    except NotARegularFile as error:  # a file that became a FIFO since, or the kernel's
        raise ConfigError([str(error)]) from None
    except OSError as error:
        raise ConfigError([f"{path}: cannot be read: {error.strerror or error}"]) from None
    if len(data) > MAX_CONFIG_BYTES:
        raise ConfigError([f"{path}: larger than {MAX_CONFIG_BYTES:,} bytes: not a configuration"])
    data = data.removeprefix(codecs.BOM_UTF8)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - data.rfind(b"\n", 0, error.start)
        raise ConfigError(
            [
                f"{path}:{line}: not UTF-8 text (byte 0x{data[error.start]:02x} at column"
                f" {column}): save the file as UTF-8"
            ]
        ) from None


#: How TOML's parser ends the message of an error met at the end of the text, without a line.
_AT_END = " (at end of document)"


def _parse(path: Path, text: str, lines: KeyLines) -> dict[str, Any]:
    """The TOML document of a text; a ConfigError with the line for anything it cannot read."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        if message.endswith(_AT_END):  # at the line that opened what is left open, or the last
            line = lines.open_at_end or max(1, len(text.splitlines()))
            reason = message.removesuffix(_AT_END)
            raise ConfigError(
                [f"{path}:{line}: not valid TOML: {reason} at the end of the file"]
            ) from None
        position = re.search(r" \(at line (\d+), column (\d+)\)", message)
        if position is None:
            raise ConfigError([f"{path}: not valid TOML: {message}"]) from None
        reason = message[: position.start()] + message[position.end() :]
        raise ConfigError(
            [f"{path}:{position[1]}: not valid TOML: {reason} (column {position[2]})"]
        ) from None
    except RecursionError:
        line = deep_line(text)
        where = f"{path}:{line}" if line else str(path)
        raise ConfigError(
            [f"{where}: not valid TOML: arrays or tables nested too deeply"]
        ) from None
    except ValueError:  # an integer of more than 4,300 digits
        long_number = re.search(r"[0-9_]{4000,}", text)
        line = text.count("\n", 0, long_number.start()) + 1 if long_number else None
        where = f"{path}:{line}" if line else str(path)
        raise ConfigError([f"{where}: a number of thousands of digits is not a value"]) from None


def read_toml(path: Path) -> tuple[dict[str, Any], KeyLines]:
    """A TOML file of ours (a regular file, at most 1 MiB, UTF-8) and where each key is
    written; ConfigError with the line for anything that cannot be read."""
    text = _read_text(path)
    lines = KeyLines.scan(text)
    if lines.too_deep is not None:  # refused before parsing: TOML's parser takes the square
        line, parts = lines.too_deep  # of a key's depth in time (100,000 parts: 10 s)
        raise ConfigError([f"{path}:{line}: a key of {parts:,} dotted parts is not one of ours"])
    return _parse(path, text, lines), lines


@cache
def _catalogue() -> tuple[dict[str, Any], KeyLines]:
    """The shipped catalogue, read once (the loader only reads it, never changes it)."""
    return read_toml(CATALOGUE_PATH)


def load_catalogue() -> OperatorConfig:
    """Every game of the built-in catalogue, unmodified."""
    raw, lines = _catalogue()
    selection = {"games": {game: {} for game in raw.get("games", {})}}
    return _build(raw, selection, None, lines)


def load_config(path: Path | None) -> OperatorConfig:
    """Load an operator configuration on top of the catalogue (the catalogue alone if None).

    Raises :class:`ConfigError` listing every problem of the file; nothing else.
    """
    if path is None:
        return load_catalogue()
    catalogue, _ = _catalogue()
    operator, lines = read_toml(path)
    return _build(catalogue, operator, path, lines)


def _build(
    catalogue: dict[str, Any], operator: dict[str, Any], source: Path | None, lines: KeyLines
) -> OperatorConfig:
    problems = Problems(str(source or CATALOGUE_PATH), lines)
    for key in operator:
        if key not in TOP_LEVEL_KEYS:
            problems.add((key,), f"unknown key{suggestion(key, TOP_LEVEL_KEYS)}")
    publisher = read_operator(operator.get("operator", {}), source, problems)
    catalogue_problems = Problems(str(CATALOGUE_PATH))
    bets = OfferedBets.of(operator, catalogue, problems)
    pay_tables = resolve_pay_tables(
        [
            (catalogue.get("pay_tables", {}), catalogue_problems),
            (operator.get("pay_tables", {}), problems),
        ],
        bets.pay_keys(),
    )
    own_tables = operator.get("pay_tables", {})
    bases = {  # the base each of the file's pay tables writes (for where a pay is written)
        name: table["base"]
        for name, table in (own_tables.items() if isinstance(own_tables, dict) else ())
        if isinstance(table, dict) and isinstance(table.get("base"), str)
    }
    selected = operator.get("games", {})
    if not isinstance(selected, dict):
        problems.add(
            ("games",),
            f"must be a table of games, e.g. [games.live-baccarat-it], not {shown(selected)}",
        )
        selected = {}
    elif not selected:
        problems.add(("games",), "list at least one game, e.g. [games.live-baccarat-it]")
    games: dict[str, GameSpec] = {}
    origins: dict[str, GameOrigin] = {}
    jurisdictions: dict[str, Any] = {}
    for game_id, override in selected.items():
        built = _game(
            game_id, override, catalogue.get("games", {}), pay_tables, bases, bets, problems
        )
        jurisdictions[game_id] = built.jurisdiction
        if built.spec is not None and built.origin is not None:
            games[game_id], origins[game_id] = built.spec, built.origin
    _check_tables(games, problems)
    _check_licences(publisher, jurisdictions, problems)
    inbox_rules = _inbox_rules(operator.get("inbox", {}), problems)
    messages = catalogue_problems.messages + problems.messages
    if messages:
        raise ConfigError(messages, inbox=InboxRules(inbox_rules, source, tuple(selected) or None))
    return OperatorConfig(
        name=publisher.name,
        games=games,
        source=source,
        origins=origins,
        pay_tables={name: pay_tables[name] for name in own_tables},
        pay_table_bases=bases,
        own_bets=bets.own,
        lines=lines,
        inbox_rules=inbox_rules,
        operator=publisher,
    )


def _check_tables(games: Mapping[str, GameSpec], problems: Problems) -> None:
    """A table id listed by two games could be either's, and so could a table two games'
    patterns both match (a log that names no game would have each of its rounds rejected):
    a problem at the second game."""
    listed: dict[str, str] = {}
    patterns: list[tuple[str, str]] = []  # (pattern, game id), in file order
    for game_id, game in games.items():
        for table in game.tables:
            first = listed.setdefault(table, game_id)
            if first != game_id:
                problems.add(
                    ("games", game_id, "tables"),
                    f"{table!r} is listed by {first} too: a table is dealt for one game",
                )
            elif is_pattern(table):
                patterns.append((table, game_id))
    found = clashes(patterns, SearchBudget(MAX_SEARCH_STEPS))
    try:
        for clash in found:
            problems.add(
                ("games", clash.game, "tables"),
                f"{clash.pattern!r} and {clash.other_game}'s {clash.other!r} both match a table"
                f" such as {clash.table!r}: a table is dealt for one game; make the patterns"
                " tell such tables apart",
            )
    except SearchTooLong:
        problems.add(
            ("games",),
            f"the games' {len(patterns):,} table patterns are too many to compare with each"
            f" other ({MAX_SEARCH_STEPS:,} steps): list fewer, or patterns that begin with"
            " their tables' own letters (LB-IT-*) rather than a * or ?",
        )


def _inbox_rules(section: Any, problems: Problems) -> tuple[InboxRule, ...]:
    """``[inbox]``'s rules, each a folder or a pattern (one of the two) and a profile."""
    checked = Table(INBOX_KEYS).check(section, ("inbox",), problems)
    if checked is MISSING:
        return ()
    rules = []
    for index, rule in enumerate(checked.get("profiles", ())):
        path = ("inbox", "profiles", str(index + 1))  # the rule's own lines
        if ("folder" in rule) == ("pattern" in rule) or "profile" not in rule:
            problems.add(
                path,
                "give a profile and one of folder or pattern, e.g."
                ' { folder = "provider-x", profile = "replay-api" }',
            )
            continue
        rules.append(
            InboxRule(
                profile=rule["profile"],
                folder=rule.get("folder"),
                pattern=rule.get("pattern"),
                line=problems.lines.line_of((*path, "profile")),
            )
        )
    return tuple(rules)


def _check_licences(
    operator: Operator, jurisdictions: Mapping[str, Any], problems: Problems
) -> None:
    """A licence of a jurisdiction no configured game is in is a typo, or a game left out.

    Judged on every game's jurisdiction, a game with problems of its own too (so that one run
    shows both); not judged while a game's jurisdiction is unknown (refused, or left to a base
    that is not a catalogue game): the licence may be that game's."""
    if not jurisdictions or MISSING in jurisdictions.values():
        return
    used = sorted(set(jurisdictions.values()))
    for code in operator.licences:
        if code not in used:
            problems.add(
                ("operator", "licences", code),
                f"no configured game is in {code} (the games' jurisdictions: {', '.join(used)})"
                f"{suggestion(code, used)}",
            )


# --- games ------------------------------------------------------------------------------------


class _BuiltGame(NamedTuple):
    """One game of the operator file: its record and origin (None if it has problems), and
    its jurisdiction as checked (MISSING if unknown), which the licence check reads."""

    spec: GameSpec | None
    origin: GameOrigin | None
    jurisdiction: Any


def _game(
    game_id: str,
    override: Any,
    catalogue: dict[str, Any],
    pay_tables: dict[str, Any],
    bases: Mapping[str, str],
    bets: OfferedBets,
    problems: Problems,
) -> _BuiltGame:
    """One game of the operator file merged onto its catalogue base and checked whole; no
    record (every problem noted) when it has any. Without a base it can stand on (a ``base``
    that is not a catalogue game), what the file gives is checked all the same, each key and
    every check that joins keys, so that one run lists the game's problems."""
    path = ("games", game_id)
    if not isinstance(override, dict):
        problems.add(path, "must be a table, e.g. [games.live-baccarat-it]")
        return _BuiltGame(None, None, MISSING)
    before = len(problems)
    if len(game_id) > 64 or not re.fullmatch(GAME_ID_PATTERN, game_id):
        problems.add(path, "a game id is lower-case words joined by '-' (at most 64 characters)")
    base_id = game_id
    if "base" in override:
        base_id = OPERATOR_GAME_KEYS["base"].kind.check(override["base"], (*path, "base"), problems)
    base = catalogue.get(base_id) if isinstance(base_id, str) else None
    if base is None and "base" not in override:
        known = ", ".join(sorted(catalogue))
        problems.add(
            path,
            f"not a catalogue game; set base = one of {known} to define it"
            f"{suggestion(game_id, catalogue)}",
        )
    values = _game_values(override, base, path, problems, _bet_kinds(bets))
    for check in GAME_CHECKS:
        check(values, pay_tables, path, problems)
    spec, whole = None, len(problems) == before
    offered = _offered(values["bets"], bets)
    if base is not None and offered is not None:
        pays_of_bets_offered(offered, values, path, problems)
    if base is not None and whole:
        spec = _game_spec(game_id, values, pay_tables, bets)
        if spec is not None:
            pay_flags_agree(spec, values, path, problems)
        table = values["pay_table"]
        if spec is not None and not bets_can_win(spec, path, problems, table, bases):
            spec = None
        if spec is not None:
            rows_decide_on_the_shoe(spec, path, problems)
            sentences_hold(spec, path, problems, table, bases)
    if spec is None:
        return _BuiltGame(None, None, values["jurisdiction"])
    return _BuiltGame(
        spec, GameOrigin(base=base_id, pay_table=values["pay_table"]), spec.jurisdiction
    )


def _bet_kinds(bets: OfferedBets) -> dict[str, Any]:
    """The kinds of the game keys that name bets or pays, knowing the operator's own bets."""
    per_bet = Table(each=Table(LIMIT_KEYS["per_bet"].kind.each.keys), key_choice=bets.choice)
    return {
        "bets": ChoiceList(bets.choice, min_items=1),
        "exclusive_bets": ChoiceList(bets.choice, groups=True),
        "pay": Table(bets.pay_keys()),
        "limits": Table(LIMIT_KEYS | {"per_bet": Key(per_bet, LIMIT_KEYS["per_bet"].help)}),
    }


def _game_values(
    override: dict[str, Any],
    base: dict[str, Any] | None,
    path: tuple[str, ...],
    problems: Problems,
    kinds: Mapping[str, Any],
) -> dict[str, Any]:
    """Every game key's checked value: the operator's, else the base's (MISSING if refused,
    None if an optional key is unset). Without a base, only the operator's keys are checked
    and a key the file leaves to the base is MISSING (unknown), as are limits that leave it
    min or max: no check judges what the base would have given."""
    values: dict[str, Any] = {}
    base = base or {}
    for key, raw in override.items():
        if key == "base":
            continue
        if key not in GAME_KEYS:
            problems.add((*path, key), f"unknown key{suggestion(key, OPERATOR_GAME_KEYS)}")
            continue
        if key == "limits" and isinstance(raw, dict) and isinstance(base.get("limits"), dict):
            raw = base["limits"] | raw
        kind = kinds.get(key, GAME_KEYS[key].kind)
        values[key] = kind.check(raw, (*path, key), problems)
    for key, raw in base.items():
        if key not in values and key in GAME_KEYS and key not in override:
            kind = kinds.get(key, GAME_KEYS[key].kind)
            values[key] = kind.check(raw, (*path, key), problems)
    for key in GAME_KEYS:
        if key not in values:
            if key not in OPTIONAL_GAME_KEYS and base:
                problems.add((*path, key), "missing (the base game does not set it either)")
            values[key] = MISSING if key not in OPTIONAL_GAME_KEYS or not base else None
    if "kind" in override and "reshuffle_every_round" not in override:
        # a game made live or RNG on a base of the other kind: its shoe follows its kind
        values["reshuffle_every_round"] = (
            MISSING if values["kind"] is MISSING else (values["kind"] == "rng")
        )
    values["limits"] = _limits_to_check(values["limits"], override, base, kinds)
    return values


def _limits_to_check(
    limits: Any, override: dict[str, Any], base: dict[str, Any], kinds: Mapping[str, Any]
) -> Any:
    """The limits the game's checks judge: those read; a game's own min and max where only
    its ``per_bet`` has a fault (it hides not "min is above max"); MISSING for a game of no
    base whose limits leave it min or max."""
    if limits is MISSING:
        limits = _limits_but_per_bet(override.get("limits"), base.get("limits"), kinds)
    if not base and isinstance(limits, dict) and not {"min", "max"} <= set(limits):
        return MISSING
    return limits


def _limits_but_per_bet(written: Any, based: Any, kinds: Mapping[str, Any]) -> Any:
    """A game's limits (``written`` over its base's, ``based``, as they are read) without their
    ``per_bet``, for the checks of its own min and max (their problems are noted already:
    read again into problems of no file), or MISSING. The game is not built from them: its
    ``per_bet`` has a problem."""
    raw = based if written is None else written
    if isinstance(written, dict) and isinstance(based, dict):
        raw = based | written
    if not isinstance(raw, dict) or "per_bet" not in raw:
        return MISSING
    own = {key: value for key, value in raw.items() if key != "per_bet"}
    return kinds.get("limits", GAME_KEYS["limits"].kind).check(own, (), Problems(""))


def _offered(chosen: Any, bets: OfferedBets) -> tuple[BetRule, ...] | None:
    """The rules of the bets a game offers, as its checked ``bets`` names them; None if that
    list was refused or names a bet with problems of its own declaration (noted there)."""
    if chosen is MISSING or bets.broken & set(chosen):
        return None
    return tuple(bets.known[bet] for bet in chosen)


def _game_spec(
    game_id: str, values: dict[str, Any], pay_tables: dict[str, Any], bets: OfferedBets
) -> GameSpec | None:
    """The game record from values that passed every check (None if its pay table did not)."""
    offered = _offered(values["bets"], bets)
    if offered is None:
        return None
    table = pay_table_of(values, pay_tables, offered)
    limits = _limits_of(values, offered)
    if table is None or limits is None:
        return None
    return GameSpec(
        id=game_id,
        name=values["name"],
        kind=values["kind"],
        jurisdiction=values["jurisdiction"],
        decks=values["decks"],
        reshuffle_every_round=values["reshuffle_every_round"],
        cut_card_depth=values["cut_card_depth"],
        bets=offered,
        pay_table=table,
        rounding=RoundingPolicy(values["rounding"]),
        limits=limits,
        below_minimum=values["below_minimum"],
        above_maximum=values["above_maximum"],
        exclusive_bets=tuple(frozenset(group) for group in values["exclusive_bets"]),
        currency=values["currency"],
        timezone=values["timezone"],
        regulator=values["regulator"],
        regulator_code=values["regulator_code"],
        declared_rtp=None if values["declared_rtp"] is None else Decimal(values["declared_rtp"]),
        opening_hours=values["opening_hours"],
        statistics_reset=values["statistics_reset"],
        version=values["version"],
        languages=tuple(values["languages"]),
        tables=tuple(values["tables"] or ()),
        declared_rtp_reference=values["declared_rtp_reference"],
        scoreboard=tuple(values["scoreboard"] or ()),
        availability_gap_minutes=values["availability_gap_minutes"],
        words=tuple(
            (language, tuple(sorted(hands.items())))
            for language, hands in sorted((values["words"] or {}).items())
        ),
    )


def _limits_of(
    values: dict[str, Any], offered: tuple[BetRule, ...]
) -> tuple[tuple[str, StakeLimits], ...] | None:
    """Each offered bet's limits: the game's, or its own ``per_bet`` ones."""
    limits = values["limits"]
    per_bet = limits.get("per_bet", {})
    result = []
    for bet in offered:
        own = per_bet.get(bet.id, {})
        minimum, maximum = own.get("min", limits["min"]), own.get("max", limits["max"])
        if minimum > maximum:
            return None
        result.append((bet.id, StakeLimits(minimum, maximum)))
    return tuple(result)
