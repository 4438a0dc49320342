"""``baccarat-report check``: validate a configuration (every problem at once, each with its
line), say which files of an inbox would be read, and print the effective configuration.

Problems and warnings go to stderr as every command writes them; stdout holds the summary
(or, with ``--show``, only the effective configuration as TOML, ready to redirect to a file),
or one JSON document with ``--json``. Exit 0: clean; 1: warnings; 2: problems.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple

import typer

from reporting.cli.common import (
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_UNUSABLE,
    ConfigOption,
    JsonOption,
    print_json,
    problems_shown,
)
from reporting.cli.completion import complete_profile
from reporting.cli.logs import command_logger
from reporting.errors import InputError, counted, printable

if TYPE_CHECKING:
    from reporting.config.loader import InboxRules, OperatorConfig
    from reporting.ingest.discovery import InboxProfile


#: The key of a game a warning of each kind points at (the line where it is written, else its
#: table's; the game's table for the others; a bet over 100% where its pay is written:
#: :func:`~reporting.config.game_checks.pay_written_at`).
_WARNING_KEYS = {
    "small_stake_wins_nothing": ("limits",),
    "small_stake_favourable": ("limits",),
    "declared_above_theory": ("declared_rtp",),
    "declared_below_minimum": ("declared_rtp",),
}


def config_warnings(config: OperatorConfig) -> tuple[list[str], list[str]]:
    """Every configuration warning of every game, located in the file (a bet over 100% where
    its pay is written, small stakes its rounding pays otherwise at ``limits``, the others at
    the game); and the hints that say how to settle them
    where the warning alone does not name the key to write."""
    import math
    from decimal import Decimal

    from reporting.config.game_checks import pay_written_at
    from reporting.engine.theory import game_odds
    from reporting.figures.regulators import configuration_warnings, declared_rtp_unsupported

    located = config.problems()
    hints = []
    for game_id, game in config.games.items():
        theory = game_odds(game)
        for warning in configuration_warnings(game, theory):
            where = ("games", game_id, *_WARNING_KEYS.get(warning.kind, ()))
            if warning.kind == "favourable_bet":
                (bet,) = [bet for bet in game.bets if bet.id == warning.figures["bet"]]
                table = config.origins[game_id].pay_table
                bases = config.pay_table_bases
                where = pay_written_at(config.lines, game_id, table, bases, bet)
            said = warning if where[:2] == ("games", game_id) else f"in {game_id}, {warning}"
            located.add(where, said)
        if declared_rtp_unsupported(game, theory):
            best = Decimal(math.floor(theory.best_rtp * 10_000)) / 100  # rounded down
            hints.append(
                f"no bet of {game_id} returns what it declares, whatever a certificate says:"
                f" under [games.{game_id}] declare at most {best}%, the best bet's RTP rounded"
                f' down (declared_rtp = "{best}", with declared_rtp_reference = "..." naming its'
                " certificate), or remove declared_rtp and the pages give each bet's RTP"
            )
    return located.messages, hints


def availability_notes(config: OperatorConfig) -> list[str]:
    """Each live game whose pages say it is open 24 hours a day and whose configuration sets
    no ``availability_gap_minutes``: the month's audit names it among what was not checked,
    every month, until the key is set."""
    return [
        f"{game_id}: its pages say it is open 24 hours a day, and availability_gap_minutes is"
        " not set: the monthly audit does not look for its tables' idle stretches, and says so"
        f" (set it under [games.{game_id}]: each stretch of more minutes than that without a"
        " round at one of its tables is then listed)"
        for game_id, game in config.games.items()
        if game.availability_unchecked
    ]


#: What a game whose configuration lists no language publishes.
NO_LANGUAGE = (
    "languages = []: no page of it is written (no rule sheet, no disclosure page); its month is"
    " verified and audited"
)


def publishing_notes(config: OperatorConfig) -> list[str]:
    """What each game of a market whose page format is not written down publishes: no
    regulator block, the rule sheet's table of every bet's RTP; and a game of no language,
    nothing (notes, no warnings: nothing to do)."""
    from reporting.config.regulators import regulator_of_country
    from reporting.figures.regulators import publishes_disclosure

    notes = []
    for game_id, game in config.games.items():
        if not game.languages:  # a game of no page: verified and audited, nothing published
            notes.append(f"{game_id}: {NO_LANGUAGE}")
            continue
        market = regulator_of_country(game.jurisdiction)
        if market is not None and not publishes_disclosure(game) and not market.page_sections:
            notes.append(
                f"{game_id} ({game.jurisdiction}): no page format of {market.name} is written"
                " down here, so its pages carry no regulator block: the rule sheet's table of"
                " every bet's RTP is what they publish"
            )
    return notes


def inbox_listing(inbox: Path, rules: list[InboxProfile] | None = None) -> dict[str, Any]:
    """The round logs of an inbox folder that ``ingest``/``monthly`` would read, by format
    (and log profile, by the configuration's ``[[inbox.profiles]]`` rules)."""
    from reporting.ingest.discovery import discover_inbox, refuse_unless_inbox, unread_names

    refuse_unless_inbox(inbox, "--inbox ")
    sources, unread = discover_inbox(inbox, rules or [])
    return {
        "folder": str(inbox),
        "read": [
            {
                "file": str(source.path.relative_to(inbox)),
                "companion": None
                if source.companion is None
                else str(source.companion.relative_to(inbox)),
                "format": source.format,
                "profile": "spec" if source.profile is None else source.profile.label,
            }
            for source in sources
        ],
        "unread": list(unread_names(inbox, unread)),
    }


class Problem(NamedTuple):
    """A problem ``check`` tells, and whose it is: ``configuration`` or ``log profile``
    (:attr:`~reporting.config.loader.ConfigError.label`), or ``inbox``; said before it unless
    the text says whose itself (``named``: a ``--profile`` that names no profile, "log
    profile 'x': ...", or ``--inbox X: the inbox ...``)."""

    source: str
    text: str
    named: bool = False

    def said(self) -> str:
        """The problem as a line of stderr says it."""
        return self.text if self.named else f"{self.source}: {self.text}"


class _ProfilesChecked(NamedTuple):
    """The log profiles ``check`` read: the inbox rules (none if a profile could not be
    loaded), the references of ``--profile`` that could not be, and the problems, each once,
    with whose they are (a profile's, its file's or a reference's that names none; or the
    configuration's, an inbox rule's that cannot be read)."""

    rules: list[InboxProfile]
    refused: list[str]
    problems: list[Problem]


def _profiles_checked(inbox: InboxRules | None, references: list[str]) -> _ProfilesChecked:
    """Load the configuration's inbox profiles (its rules that could be read, from a file
    with other problems too) and the profiles named by ``--profile``, noting their problems
    (a game of a profile's ``[games]`` the configuration does not list among them), each once
    (a profile of two rules, or of a rule and ``--profile``, is read again each time)."""
    from reporting.config.loader import ConfigError
    from reporting.ingest.discovery import inbox_profiles
    from reporting.ingest.profiles.loader import NoProfile, load_profile, profile_file

    problems: list[Problem] = []

    def note(source: str, *found: str, named: bool = False) -> None:
        for text in dict.fromkeys(found):
            if Problem(source, text, named) not in problems:
                problems.append(Problem(source, text, named))

    rules: list[InboxProfile] = []
    try:
        rules = [] if inbox is None else inbox_profiles(inbox, check_games=True)
    except ConfigError as error:  # a log profile's problems
        note(error.label, *error.problems)
    except InputError as error:
        note("configuration", str(error))
    configured = None if inbox is None or inbox.games is None else list(inbox.games)
    said = _rule_files(inbox)  # the files whose problems the rules' loading noted
    refused = []
    for reference in references:
        file = profile_file(reference)
        try:
            load_profile(reference, configured=configured)
        except ConfigError as error:
            if file is None or file not in said:
                note(error.label, *error.problems)
            refused.append(reference)
        except InputError as error:
            note("log profile", str(error), named=isinstance(error, NoProfile))
            refused.append(reference)
        said.add(file)
    return _ProfilesChecked(rules, refused, problems)


def _rule_files(inbox: InboxRules | None) -> set[Path | None]:
    """The profile files the configuration's inbox rules name, resolved (a built-in
    profile's own file too)."""
    return set(_profile_files(inbox).values())


def _profile_files(inbox: InboxRules | None) -> dict[str, Path]:
    """The file each inbox rule's profile names, resolved (a built-in profile's own too), by
    the reference as written; the spec's log names none."""
    from reporting.ingest.profiles.loader import profile_file

    if inbox is None:
        return {}
    base = None if inbox.source is None else inbox.source.parent
    files = {rule.profile: profile_file(rule.profile, base) for rule in inbox.rules}
    return {reference: file for reference, file in files.items() if file is not None}


def _written_profile_files(config: OperatorConfig) -> dict[str, Path]:
    """Of :func:`_profile_files`, the references that name a file: the effective document
    writes each as its absolute path, and a built-in profile by its name."""
    from reporting.ingest.profiles.builtin import built_in_profiles

    files = _profile_files(config.inbox).items()
    return {reference: file for reference, file in files if reference not in built_in_profiles()}


ProfilesOption = Annotated[
    list[str] | None,
    typer.Option(
        "--profile",
        metavar="NAME|FILE",
        autocompletion=complete_profile,
        help="Also check a log profile (a built-in name or a file); may be given again.",
    ),
]
ShowOption = Annotated[
    bool,
    typer.Option(
        "--show",
        help="Print the effective configuration (every key, defaults filled in) as TOML,"
        " or in the JSON document with --json.",
    ),
]


class _ConfigurationChecked(NamedTuple):
    """The configuration ``check`` read (None if it could not be loaded) and what it says of
    it: its problems, its warnings, the hints that settle them, and its notes; its inbox
    rules (those that could be read, from a file with problems too)."""

    loaded: OperatorConfig | None
    problems: list[str]
    warnings: list[str]
    hints: list[str]
    notes: list[str]
    inbox: InboxRules | None


def _configuration_checked(path: Path) -> _ConfigurationChecked:
    """The configuration at ``path``, checked."""
    from reporting.config.loader import ConfigError, load_config
    from reporting.presentation.bet_words import located_name_clashes

    try:
        loaded = load_config(path)
    except ConfigError as error:
        return _ConfigurationChecked(
            None, error.problems, warnings=[], hints=[], notes=[], inbox=error.inbox
        )
    warnings, hints = config_warnings(loaded)
    notes = publishing_notes(loaded) + availability_notes(loaded)
    return _ConfigurationChecked(
        loaded,
        located_name_clashes(loaded),
        warnings=warnings,
        hints=hints,
        notes=notes,
        inbox=loaded.inbox,
    )


def check_command(
    config: ConfigOption = None,
    inbox: Annotated[
        Path | None,
        typer.Option(
            "--inbox",
            metavar="<dir>",  # a folder, as the other commands' folders show; a file is a problem
            help="Also list the round logs this folder holds that ingest and monthly would read.",
        ),
    ] = None,
    profiles: ProfilesOption = None,
    show: ShowOption = False,
    as_json: JsonOption = False,
) -> None:
    """Validate the configuration (every problem at once, with its line) and an inbox.

    Exit 0: clean; 1: warnings only; 2: problems.
    """
    from reporting.config.effective import effective_document
    from reporting.config.loader import default_config_path

    path = config if config is not None else default_config_path()
    read = _configuration_checked(path)
    loaded = read.loaded
    checked = _profiles_checked(read.inbox, profiles or [])
    problems = [Problem("configuration", text) for text in read.problems]
    problems += [problem for problem in checked.problems if problem not in problems]
    listing = None
    if inbox is not None:
        try:
            listing = inbox_listing(inbox, checked.rules)
        except InputError as error:  # the inbox's, not the configuration's: said as it is
            problems.append(Problem("inbox", str(error), named=True))
    document = {
        "config": None if path is None else str(path),
        "games": [] if loaded is None else list(loaded.games),
        "profiles": list(profiles or ()),
        "profiles_refused": checked.refused,  # of "profiles": their problems are in "problems"
        "problems": [problem.text for problem in problems],
        # of "problems", those of log profiles' files (the others are the configuration's)
        "profile_problems": [p.text for p in problems if p.source == "log profile"],
        # the configuration's, then each inbox file not read and each inbox rule that reads
        # no file of it (each makes the exit 1 too)
        "warnings": read.warnings
        + _unread_warnings(listing)
        + _idle_rules(read.inbox, inbox, checked.rules, listing),
        "hints": read.hints,
        "notes": read.notes,
        "inbox": listing,
    }
    if show:
        document["effective"] = (
            None if loaded is None else effective_document(loaded, _written_profile_files(loaded))
        )
    _report(document, problems, show=show, as_json=as_json)
    raise typer.Exit(
        EXIT_UNUSABLE if problems else EXIT_FINDINGS if document["warnings"] else EXIT_OK
    )


def _idle_rules(
    rules: InboxRules | None,
    inbox: Path | None,
    loaded: list[InboxProfile],
    listing: dict[str, Any] | None,
) -> list[str]:
    """A warning of each ``[[inbox.profiles]]`` rule that reads no file of the inbox listed:
    a folder or pattern misspelt, or one an earlier rule takes every file of, sends the
    provider's files to another reader (the spec's, which refuses them, or another profile).
    Judged once every rule's profile is loaded."""
    from reporting.ingest.discovery import rules_reading_nothing

    if rules is None or inbox is None or listing is None or len(loaded) != len(rules.rules):
        return []
    warnings = []
    for number, why in rules_reading_nothing(inbox, loaded):
        rule = rules.rules[number - 1]
        where = f"{rules.source}:{rule.line}: " if rule.line else ""
        scope = (
            f"folder {rule.folder!r}" if rule.folder is not None else f"pattern {rule.pattern!r}"
        )
        warnings.append(
            f"{where}inbox.profiles.{number}: the rule of {scope} (log profile {rule.profile})"
            f" reads no file of the inbox {printable(str(inbox))}: {why}"
        )
    return warnings


def _unread_warnings(listing: dict[str, Any] | None) -> list[str]:
    """The warnings of an inbox's files that no run would read."""
    from reporting.verify.bearing import unread_line

    return [unread_line(entry) for entry in (listing or {}).get("unread", [])]


def _print_problems(problems: list[Problem], warnings: list[str], hints: list[str]) -> None:
    """The problems (each said as its file's: the configuration's or a log profile's), the
    warnings and the hints: records of the tool's log, as every command's (on stderr, in
    ``--log-file``, under the journal with their priority; ``-q`` leaves out the hints,
    ``-qq`` the warnings too)."""
    log = command_logger()
    shown, rest = problems_shown(problems)
    for problem in shown:
        log.error("%s", problem.said())
    if rest is not None:
        log.error("%s", rest)
    for warning in warnings:
        log.warning("%s", warning)
    for hint in hints:
        log.info("hint: %s", hint)


def _report(
    document: dict[str, Any], problems: list[Problem], *, show: bool, as_json: bool
) -> None:
    """The problems (each said as its file's: the configuration's or a log profile's) and
    warnings on stderr; the summary, the inbox or the effective TOML on stdout."""
    from reporting.config.effective import to_toml

    if as_json:
        print_json(document)
        return
    _print_problems(problems, document["warnings"], document["hints"])
    out = sys.stderr if show else sys.stdout
    where = printable(document["config"] or "the built-in catalogue")
    games = document["games"]
    loaded = f"{counted(len(games), 'game')} ({', '.join(games)}); " if games else "not loaded; "
    of_profiles = len(document["profile_problems"])
    own = sum(problem.source == "configuration" for problem in problems)
    counts = f"{counted(own, 'problem')}, {counted(len(document['warnings']), 'warning')}"
    print(f"configuration {where}: {loaded}{counts}", file=out)
    if of_profiles:
        print(f"log profiles: {counted(of_profiles, 'problem')}", file=out)
    of_inbox = sum(problem.source == "inbox" for problem in problems)
    if of_inbox:
        print(f"inbox: {counted(of_inbox, 'problem')}", file=out)
    for note in document["notes"]:
        print(f"  {note}", file=out)
    for reference in document["profiles"]:  # its problems, if any, are above, naming its file
        said = (
            "refused: see its problems above"
            if reference in document["profiles_refused"]
            else "read and checked against the configuration"
        )
        print(f"log profile {reference}: {said}", file=out)
    listing = document["inbox"]
    if listing is not None:
        unread = f", {counted(len(listing['unread']), 'file')} not read (warned of above)"
        print(
            f"inbox {printable(listing['folder'])}:"
            f" {counted(len(listing['read']), 'round log')} to read"
            f"{unread if listing['unread'] else ''}",
            file=out,
        )
        for source in listing["read"]:  # each name on one line, as its warnings print it
            companion = f" + {printable(source['companion'])}" if source["companion"] else ""
            profile = "" if source["profile"] == "spec" else f", profile {source['profile']}"
            print(
                f"  {printable(source['file'])}{companion} ({source['format']}{profile})", file=out
            )
    if show and document.get("effective") is not None:
        sys.stdout.write(
            f"# The effective configuration of {where}: every key, defaults filled in\n"
        )
        sys.stdout.write(to_toml(document["effective"]))
