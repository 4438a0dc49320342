"""Every key an operator configuration may hold: one table per section, read by the loader
(which checks each value by its kind) and by :func:`json_schema` (the editors' schema).

A new game key is one row of :data:`GAME_KEYS` (and a field of
:class:`~reporting.engine.games.GameSpec`); ``tests/config/test_schema.py`` holds the shipped
schema file equal to these tables.
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from reporting.config.bets import (
    BET_KEYS,
    NAME_PATTERN,
    OWN_NAME_CHARS,
    ROW_KEYS,
    as_read,
    catalogue_bets,
    default_pays,
)
from reporting.config.languages import LANGUAGES, SUPPORTED_LANGUAGES
from reporting.config.regulators import load_regulators
from reporting.config.values import (
    MISSING,
    Amount,
    Boolean,
    CataloguePay,
    Choice,
    ChoiceList,
    Integer,
    Key,
    Kind,
    Odds,
    PayValue,
    Problems,
    Table,
    TableList,
    Text,
    TextList,
    suggestion,
)
from reporting.engine.bets import BetGroup
from reporting.engine.facts import FACTS
from reporting.engine.games import MIN_CUT_CARD_DEPTH, cut_card_depths
from reporting.engine.money import RoundingPolicy

__all__ = [
    "CATALOGUE_PATH",
    "GAME_ID_PATTERN",
    "GAME_KEYS",
    "HAND_WORD_KEYS",
    "HandWords",
    "LIMIT_KEYS",
    "Licences",
    "PayFlag",
    "OPERATOR_GAME_KEYS",
    "INBOX_KEYS",
    "INBOX_RULE_KEYS",
    "OPERATOR_KEYS",
    "PAY_FLAGS",
    "PAY_KEYS",
    "PAY_TABLE_KEYS",
    "PAY_TABLE_NAME",
    "PAY_TABLE_OWN_KEYS",
    "SCHEMA_PATH",
    "SCOREBOARD_PARTS",
    "STARTER_LOGO_PATH",
    "STARTER_PATH",
    "TOP_LEVEL_KEYS",
    "catalogue_games",
    "json_schema",
]

CATALOGUE_PATH = Path(__file__).resolve().parent.parent / "data" / "catalogue.toml"
SCHEMA_PATH = Path(__file__).resolve().parent / "data" / "operator.schema.json"
#: The starter configuration ``init`` writes: a copy of sample_data/operator.toml, shipped in
#: the package (tests/config/test_schema.py holds the two equal).
STARTER_PATH = Path(__file__).resolve().parent / "data" / "operator.toml"
#: The logo the starter names (``logo = "logo.svg"``), written beside it: sample_data/logo.svg.
STARTER_LOGO_PATH = STARTER_PATH.with_name("logo.svg")
GAME_ID_PATTERN = r"[a-z0-9]+(?:-[a-z0-9]+)*"
_TABLE_NAME_PATTERN = r"[A-Za-z0-9_-]{1,64}"
#: A pay table's name: of a ``[pay_tables.NAME]``, and as a game's ``pay_table`` names it.
PAY_TABLE_NAME = Text(
    "standard", 64, _TABLE_NAME_PATTERN, "a pay table name (letters, digits, _ and -)"
)
_JURISDICTION_PATTERN = "[A-Z]{2}"


@cache
def catalogue_games() -> tuple[str, ...]:
    """The ids of the catalogue's games, in file order."""
    with CATALOGUE_PATH.open("rb") as handle:
        return tuple(tomllib.load(handle).get("games", {}))


#: The parts of a live table's scoreboard a rule sheet can explain (games.md), and the share of
#: the bets placed at the table on Banker, Player and Tie that some tables show ("% Su" on
#: Italian ones; games.md lists it for no game): a sheet of a table without it says so.
SCOREBOARD_PARTS = ("statistics", "bead_road", "big_road", "bet_shares")
_OWN_NAME = {"type": "string", "pattern": f"^{NAME_PATTERN}$"}


@dataclasses.dataclass(frozen=True)
class BetChoice(Choice):
    """A bet id: the loader checks it against the catalogue's bets and the file's ``[bets]``;
    the editors' schema, which cannot read the file's ``[bets]``, takes a catalogue id or any
    id an own bet may have."""

    def schema(self) -> dict[str, Any]:
        return {"anyOf": [super().schema(), _OWN_NAME | {"description": "a bet of [bets]"}]}


@dataclasses.dataclass(frozen=True)
class PayKeys(Table):
    """A game's ``pay`` or a ``[pay_tables.X]``: the catalogue's pay keys (and the loader adds
    the keys of the file's own bets); the editors' schema takes any key an own bet's row may
    name, with a pay."""

    def schema(self) -> dict[str, Any]:
        return super().schema() | {
            "propertyNames": _OWN_NAME,
            "additionalProperties": PayValue().schema()
            | {"description": "what a row of a bet of [bets] pays"},
        }


#: The built-in bets a game may offer (an operator's own bets are added where it declares them).
_BET = BetChoice(lambda: tuple(catalogue_bets()), "bet type")

#: The bonus table's margins, as ``bonus_margins = { 9 = "30" }`` writes them (each is the pay key
#: ``bonus_margin_9`` of the bonus bets' rows).
BONUS_MARGINS = ("9", "8", "7", "6", "5", "4")


def _pay_keys() -> dict[str, Key]:
    keys: dict[str, Key] = {}
    for bet in catalogue_bets().values():
        for row in bet.rows:
            if row.key is not None and row.key not in keys:
                default = None if isinstance(row.default, Fraction) else str(row.default)
                keys[row.key] = Key(
                    CataloguePay(bet.id, default), f"what the {bet.id} bet pays: {row.says.msgid}"
                )
    return keys


#: The pays of the catalogue's bets (``pay = {...}`` of a game, ``[pay_tables.X]``): every pay
#: key its bets' rows declare. A game's own bets add theirs.
PAY_KEYS: dict[str, Key] = {
    **_pay_keys(),
    "bonus_margins": Key(
        Table(each=Odds(), key_choice=Choice(BONUS_MARGINS)),
        'bonus bets: odds of a non-natural win by 9, 8, ... 4 points, e.g. { 9 = "30" }',
    ),
}
#: A ``[pay_tables.X]`` table: the odds and the table it starts from.
PAY_TABLE_KEYS: dict[str, Key] = PAY_KEYS | {
    "base": Key(
        PAY_TABLE_NAME,
        "the pay table this one changes (default: standard; for a table named as a built-in"
        " one, that table)",
    ),
}
#: The keys of a pay table (and of a game's ``pay``) that are no one bet's pay: the table it
#: starts from, and the bonus bets' margins (each margin a pay of its own).
PAY_TABLE_OWN_KEYS = tuple(key for key in PAY_TABLE_KEYS if key not in _pay_keys())

_MIN_MAX = {
    "min": Key(Amount(), 'minimum stake, a decimal string such as "5.00"'),
    "max": Key(Amount("1000.00"), 'maximum stake, a decimal string such as "1000.00"'),
}
#: ``limits = {...}`` of a game.
LIMIT_KEYS: dict[str, Key] = _MIN_MAX | {
    "per_bet": Key(
        Table(each=Table(_MIN_MAX), key_choice=_BET),
        'limits of single bet types, e.g. { tie = { max = "100.00" } }',
    ),
}

#: A hand's name of the operator's own: a word or a few, with nothing a page's sentence could
#: read as markup or as a placeholder (no < > & " % { }), no space at either end. A word of
#: more than 20 characters does not fit the columns of a printed page's tables (the drawing
#: matrix's, with the widest letters); real names are shorter ("Bankholderen": 12).
_HAND_WORD = Text(
    "Player",
    40,
    r"[^\s<>&\"%{}]{1,20}(?: [^\s<>&\"%{}]{1,20})*",
    "a word or a few, each of at most 20 characters",
)
#: ``words = { it = { ... } }`` of a game: the hands whose names an operator may choose.
HAND_WORD_KEYS: dict[str, Key] = {
    "player": Key(_HAND_WORD, "the Player's name, in place of the catalogue's (Giocatore)"),
    "banker": Key(_HAND_WORD, "the Banker's name, in place of the catalogue's (Banco)"),
}


@dataclasses.dataclass(frozen=True)
class HandWords(Kind):
    """``words = { it = { player = "Player", banker = "Banker" } }``: the operator's own names
    of the hands on a game's pages in a language, put in every sentence in place of the
    catalogue's. A language whose sentences decline the names (Greek) takes none: the
    languages table says which (:attr:`~reporting.config.languages.Language.hand_genitive`)."""

    hands: Table = Table(HAND_WORD_KEYS)

    @staticmethod
    def languages() -> tuple[str, ...]:
        """The languages whose pages take an operator's words for the hands."""
        return tuple(entry.code for entry in LANGUAGES if entry.hand_genitive is not None)

    def check(self, value: Any, path: tuple[str, ...], problems: Problems) -> Any:
        if not isinstance(value, dict):
            problems.add(path, 'must be a table such as { it = { player = "Player" } }')
            return MISSING
        checked: dict[str, Any] = {}
        for code, raw in value.items():
            if code in SUPPORTED_LANGUAGES and code not in self.languages():
                problems.add(
                    (*path, code),
                    f"the {code} pages decline the hands' names (their article and ending"
                    " follow the word): no word of the configuration's can stand in for them"
                    f" (languages that take one: {', '.join(self.languages())})",
                )
                checked[code] = MISSING
            elif code not in SUPPORTED_LANGUAGES:
                known = self.languages()
                problems.add(
                    (*path, code),
                    f"not a language of the pages (known: {', '.join(known)})"
                    + suggestion(code, known),
                )
                checked[code] = MISSING
            else:
                checked[code] = self.hands.check(raw, (*path, code), problems)
        return MISSING if MISSING in checked.values() else checked

    def schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "propertyNames": {"enum": list(self.languages())},
            "additionalProperties": self.hands.schema() | {"minProperties": 1},
        }


@dataclasses.dataclass(frozen=True)
class PayFlag(Key):
    """A pay-table option that is a switch, not odds: whether one pay key of a bet (the
    ``follower``) pays as another (the ``leader``), which the value ``tied`` says, or pays
    ``untied_pays`` unless the table sets it. A game key of its own (unset: as its pay table
    pays), and a ``--pay KEY=VALUE`` of ``odds``. The effective configuration (``check
    --show``) writes no flag: the follower's pay, written with every pay, says it.

    Nothing outside this table names a flag: the loader and the overrides read these rows."""

    kind: Choice  # its two values: ``tied``, and the other
    leader: str = ""
    follower: str = ""
    tied: str = ""
    untied_pays: Fraction = Fraction(0)

    def parse(self, text: str) -> str | None:
        """The value a ``--pay KEY=VALUE`` writes (any case, spaces around), or None if it
        is not one of the flag's."""
        value = text.strip().upper()
        return value if value in self.kind.known() else None

    def leader_pay(self, pays: Mapping[str, object]) -> object:
        """The leader's pay in a table of pays (by pay key; written, as odds in text, or
        read), as read: the bet's declared pay where the table does not set it."""
        return as_read(pays.get(self.leader, default_pays()[self.leader]))

    def value_of(self, pays: Mapping[str, object]) -> str:
        """The flag's value in a table of pays (by pay key; written or read): tied while the
        follower pays as the leader (or is not set)."""
        follower = pays.get(self.follower)
        if follower is None or as_read(follower) == self.leader_pay(pays):
            return self.tied
        (untied,) = (value for value in self.kind.known() if value != self.tied)
        return untied

    def keep_tied(
        self, base: Mapping[str, object], changes: Mapping[str, object], merged: dict[str, object]
    ) -> None:
        """A table laid over ``base``: a tied base stays tied when only the leader changes."""
        if (
            self.value_of(base) == self.tied
            and self.leader in changes
            and self.follower not in changes
        ):
            merged[self.follower] = changes[self.leader]

    def choose(self, pays: dict[str, object], value: str) -> None:
        """A game's flag set to ``value`` on its table of pays (written or read): the follower
        pays as the leader (:meth:`leader_pay`); untied, the follower's own pay where the
        table gives it one, else ``untied_pays``."""
        if value == self.tied:
            pays[self.follower] = self.leader_pay(pays)
        elif self.value_of(pays) == self.tied:
            pays[self.follower] = self.untied_pays

    def says_otherwise(self, leader: object, follower: object, value: str) -> str | None:
        """What a follower's pay written beside the flag's ``value`` says against it (None: it
        agrees): tied, a pay other than the leader's; untied, the leader's own.

        >>> flag = PAY_FLAGS["perfect_pair"]
        >>> flag.says_otherwise(Fraction(25), Fraction(100), "A")
        'pays perfect_pair_both as perfect_pair_one (25), not 100'
        >>> flag.says_otherwise(Fraction(25), "25", "B"), flag.says_otherwise(25, "150", "B")
        ('pays perfect_pair_both apart from perfect_pair_one (25), not as it', None)
        """
        leader, follower = as_read(leader), as_read(follower)
        if (follower == leader) == (value == self.tied):
            return None
        if value == self.tied:
            return (
                f"pays {self.follower} as {self.leader} ({_shown(leader)}), not {_shown(follower)}"
            )
        return f"pays {self.follower} apart from {self.leader} ({_shown(leader)}), not as it"

    def override(self, pays: Mapping[str, object], changes: dict[str, object], value: str) -> None:
        """``--pay KEY=VALUE`` on a game's table (``pays``), unless ``changes`` sets the follower:
        tied, it pays as the leader (changed or not); untied from a tied table, ``untied_pays``."""
        if self.follower not in pays or self.follower in changes:
            return
        if value == self.tied:
            changes[self.follower] = self.leader_pay({**pays, **changes})
        elif self.value_of(pays) == self.tied:
            changes[self.follower] = self.untied_pays


def _shown(pay: object) -> str:
    """A pay in a message: odds as ``odds --game`` gives them ("0.95"), else its result."""
    from reporting.engine.theory import ratio_text  # the counting's: when a message needs it

    if isinstance(pay, Fraction | int):
        return ratio_text(Fraction(pay))
    return str(getattr(pay, "value", pay))


#: What variant B of the perfect pair pays for both hands (the catalogue's perfect_pair_b).
_PERFECT_PAIR_B = Fraction(200)
#: The pay-table options that are switches, by game key (each also a row of :data:`GAME_KEYS`).
PAY_FLAGS: dict[str, PayFlag] = {
    "perfect_pair": PayFlag(
        Choice(("A", "B")),
        f"perfect pair variant: A pays both hands as one, B pays {_PERFECT_PAIR_B} for both",
        leader="perfect_pair_one",
        follower="perfect_pair_both",
        tied="A",
        untied_pays=_PERFECT_PAIR_B,
    ),
}

#: The keys of a game (``[games.ID]``); every one may override the catalogue's.
GAME_KEYS: dict[str, Key] = {
    "name": Key(Text("Live Baccarat", OWN_NAME_CHARS), "the game's name on its pages"),
    "kind": Key(
        Choice(("live", "rng")), "dealt from a shoe (live) or by a random number generator"
    ),
    "jurisdiction": Key(
        Text("IT", 2, "[A-Z]{2}", "a country code"), "ISO 3166 code of the licensing market"
    ),
    "decks": Key(Integer(1, 8), "decks in the shoe"),
    "reshuffle_every_round": Key(
        Boolean(),
        "whether the shoe is shuffled before every round: true for an RNG game, false for a live"
        " one (a game that changes its base's kind follows it)",
    ),
    "cut_card_depth": Key(
        Integer(MIN_CUT_CARD_DEPTH, cut_card_depths(8)[-1]),
        "cards left behind the cut card, at most half the shoe (a live shoe's; its pages state"
        " it only when set)",
    ),
    "bets": Key(ChoiceList(_BET, min_items=1), "the bet types the game offers"),
    "pay_table": Key(
        PAY_TABLE_NAME,
        "the pay table: standard, perfect_pair_b, or one of [pay_tables]",
    ),
    "pay": Key(PayKeys(PAY_KEYS), "changes to the pay table's odds for this game"),
    **PAY_FLAGS,
    "rounding": Key(
        Choice(tuple(policy.value for policy in RoundingPolicy)),
        "how a win between cents is rounded",
    ),
    "limits": Key(Table(LIMIT_KEYS), "stake limits of every bet, and of single bet types"),
    "below_minimum": Key(
        Choice(("reject",)), "what the platform does with a stake below the minimum"
    ),
    "above_maximum": Key(
        Choice(("cap", "reject")), "what the platform does with a stake above the maximum"
    ),
    "exclusive_bets": Key(
        ChoiceList(_BET, groups=True), "groups of bets an account may hold only one of per round"
    ),
    "currency": Key(
        Text("EUR", 3, "[A-Z]{3}", "an ISO 4217 code"),
        "ISO 4217 currency code, of two decimals (EUR, DKK, SEK): money is in hundredths",
    ),
    "timezone": Key(
        Text("Europe/Rome", 64, r"[A-Za-z0-9_+-]+(?:/[A-Za-z0-9_+-]+)*", "an IANA time zone"),
        "IANA time zone the game's months and dates are counted in (a regulator's game: its"
        " regulator's, Europe/Rome for the ADM)",
    ),
    "opening_hours": Key(
        Text("24h", 200), '"24h" or a text shown as written (pages state it only when set)'
    ),
    "availability_gap_minutes": Key(
        Integer(1, 24 * 60),
        "a game open 24h: a stretch of more minutes than this without a round at one of its"
        " tables is an availability gap in the month's audit",
    ),
    "scoreboard": Key(
        ChoiceList(Choice(SCOREBOARD_PARTS, "scoreboard part")),
        "what the live table shows players of its shoe: statistics, bead_road, big_road (the"
        " rule sheet explains each, with an example drawn from a shoe dealt by the engine),"
        " bet_shares (the share of the bets placed at the table on Banker, Player and Tie: the"
        ' Italian tables\' "% Su"; a sheet of a table without it says it is not shown)',
    ),
    "languages": Key(
        ChoiceList(Choice(SUPPORTED_LANGUAGES, "language with a catalogue")),
        "languages of the rule sheets, in order",
    ),
    "words": Key(
        HandWords(),
        "the hands' names on the game's pages in a language, where the market says them"
        ' otherwise than the catalogue, e.g. { it = { player = "Player", banker = "Banker" } }'
        " (the Italian catalogue says Giocatore and Banco): every sentence and bet name of"
        " those pages takes them",
    ),
    "regulator": Key(
        Choice(lambda: sorted(load_regulators()), "regulator"),
        "the regulator whose disclosure the game carries",
    ),
    "regulator_code": Key(Text("2376", 32), "the game's code with its regulator"),
    "declared_rtp": Key(
        Text("99.50", 6, r"[0-9]{1,3}(?:\.[0-9]{1,2})?", "a percentage"),
        "the RTP declared to the regulator, percent, as a string",
    ),
    "declared_rtp_reference": Key(
        Text("GLI-19 certificate IT-2026-0042, 2026-03-01", 300),
        "the certificate or approval the declared RTP rests on, cited beside it on every page"
        " (a declared RTP above every bet's theoretical RTP stays a warning whatever it cites)",
    ),
    "statistics_reset": Key(
        Text("00:01", 5, "(?:[01][0-9]|2[0-3]):[0-5][0-9]", "a time"),
        "local time the table statistics reset",
    ),
    "version": Key(Text("4.15.1.2", 32), "the game software's version"),
    "tables": Key(
        TextList(
            Text("LB-IT-01", 64, r"\S(?:.*\S)?", "a table id (no space at either end)"),
            max_items=1000,
        ),
        "the tables the game is dealt at, by id or by pattern, matched case-sensitively: a *"
        " stands for any characters (LB-IT-*), a ? for one (LB-IT-0?), and in a pattern"
        " that holds a * or a ?, [...] for one of the characters it lists (LB-IT-?[12];"
        " [!12] for one it does not list); an id with neither * nor ? is exact, brackets"
        " included. A log that names no game finds its game by its table, and a round that"
        " names another game at one of them is rejected",
    ),
}
#: A game of the operator file: the game keys and the catalogue game it starts from.
OPERATOR_GAME_KEYS: dict[str, Key] = GAME_KEYS | {
    "base": Key(
        Choice(catalogue_games, "catalogue game"),
        "the catalogue game this one starts from (default: its own id)",
    ),
}


@dataclasses.dataclass(frozen=True)
class Licences(Kind):
    """``licences = { IT = "...", DK = "..." }``: the operator's licence or concession number
    in each jurisdiction (ISO 3166 code, as games write theirs), one line of text each."""

    number: Text = Text("ADM-0000-ESEMPIO", 100)

    def check(self, value: Any, path: tuple[str, ...], problems: Problems) -> Any:
        if not isinstance(value, dict):
            problems.add(path, f'must be a table such as {{ IT = "{self.number.example}" }}')
            return MISSING
        checked: dict[str, Any] = {}
        for code, raw in value.items():
            if not re.fullmatch(_JURISDICTION_PATTERN, code):
                problems.add((*path, code), "not a jurisdiction: an ISO 3166 code such as IT")
                checked[code] = MISSING
            else:
                checked[code] = self.number.check(raw, (*path, code), problems)
        return MISSING if MISSING in checked.values() else checked

    def schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "propertyNames": {"pattern": f"^{_JURISDICTION_PATTERN}$"},
            "additionalProperties": self.number.schema(),
        }


#: The longest path a key may name: Linux's ``PATH_MAX`` (4,096 bytes, at least as many
#: characters), so that every file the system can open may be named, and the absolute paths
#: ``check --show`` writes load back (500 characters refused a logo named from a deep folder).
MAX_PATH_CHARACTERS = 4096

#: ``[operator]``: who publishes the pages, and how they look (paths relative to the file).
OPERATOR_KEYS: dict[str, Key] = {
    "name": Key(Text("Casinò Esempio S.p.A.", 200), "the operator's name on every page"),
    "licences": Key(
        Licences(),
        "the operator's licence or concession number in each jurisdiction of its games, e.g."
        ' { IT = "ADM-0000-ESEMPIO" }: a game\'s pages show the number of its jurisdiction',
    ),
    "logo": Key(
        Text("logo.svg", MAX_PATH_CHARACTERS),
        "an image file (PNG, JPEG or SVG, at most 512 KiB), relative to this file: drawn in"
        " the masthead of every page, embedded in it",
    ),
    "accent_colour": Key(
        Text("#7a1f2b", 7, "#[0-9A-Fa-f]{6}", "a colour #rrggbb"),
        "the pages' accent colour (the rule under headings, links, labels) on the HTML and PDF,"
        " #rrggbb; at least 4.5:1 against white (WCAG AA), as it colours text",
    ),
    "templates": Key(
        Text("templates", MAX_PATH_CHARACTERS),
        "a folder (relative to this file) whose files replace the built-in templates of the"
        " same relative name (rules/page.html.j2, rules/rules.css, rules/sections/...)",
    ),
}
#: A path within the inbox: names between ``/``, none of them ``.`` or ``..`` (``../x`` would
#: name no file of the inbox, and the rule would cover nothing, silently).
_INBOX_RELATIVE = r"(?!\.\.?(?:/|$))[^/\\]+(?:/(?!\.\.?(?:/|$))[^/\\]+)*/?"
#: One ``[[inbox.profiles]]`` rule: which inbox files a log profile reads.
INBOX_RULE_KEYS: dict[str, Key] = {
    "folder": Key(
        Text(
            "provider-x",
            200,
            _INBOX_RELATIVE,
            "a folder inside the inbox, relative to it (names between /, none of them . or ..)",
        ),
        "a folder of the inbox (relative to it, / between levels): its round logs are read with"
        " the profile",
    ),
    "pattern": Key(
        Text(
            "*.json",
            200,
            _INBOX_RELATIVE,
            "a file-name pattern inside the inbox (names between /, none of them . or ..)",
        ),
        "a pattern of a file's path from the inbox (* any characters, / included; ? one):"
        " files matching it are read with the profile (backoffice-*.csv takes the inbox's own"
        " files, acme/backoffice-*.csv those of its folder acme, */backoffice-*.csv any folder's)",
    ),
    "profile": Key(
        Text("replay-api", MAX_PATH_CHARACTERS),
        "a built-in log profile's name, or a profile file (relative to this configuration file)",
    ),
}
#: ``[inbox]``.
INBOX_KEYS: dict[str, Key] = {
    "profiles": Key(
        TableList(Table(INBOX_RULE_KEYS)),
        "which inbox files are providers' exports and the log profile that reads each, first"
        " matching rule first; other files are round logs of the spec",
    ),
}
#: The sections of the file.
TOP_LEVEL_KEYS = ("operator", "games", "bets", "pay_tables", "inbox")


def _words_schema(help_text: str) -> dict[str, Any]:
    """An operator's text in each of its languages: ``{ en = "...", it = "..." }``."""
    return {
        "type": "object",
        "description": help_text + ', in each language of its games: { en = "...", it = "..." }',
        "minProperties": 1,
        "propertyNames": {"enum": list(SUPPORTED_LANGUAGES)},
        "additionalProperties": {"type": "string", "minLength": 1},
    }


def _fact_schema(name: str) -> dict[str, Any]:
    """A condition on one fact: one of its values, or a list of them."""
    values = FACTS[name].values
    if all(isinstance(value, bool) for value in values):
        one: dict[str, Any] = {"type": "boolean"}
    else:
        kind = "string" if isinstance(values[0], str) else "integer"
        one = {"type": kind, "enum": list(values)}
    listed = {"type": "array", "items": one, "minItems": 1, "uniqueItems": True}
    return {"anyOf": [one, listed], "description": FACTS[name].meaning}


def _bets_schema() -> dict[str, Any]:
    """``[bets.ID]``: the operator's own bets, in the vocabulary of the catalogue's."""
    row = {
        "type": "object",
        "properties": {
            "when": {
                "type": "object",
                "description": ROW_KEYS["when"],
                "minProperties": 1,
                "properties": {name: _fact_schema(name) for name in FACTS},
                "additionalProperties": False,
            },
            "pays": PayValue().schema() | {"description": ROW_KEYS["pays"]},
            "key": _OWN_NAME | {"description": ROW_KEYS["key"]},
            "says": _words_schema(ROW_KEYS["says"]),
        },
        "required": ["when", "pays", "says"],
        "additionalProperties": False,
    }
    bet = {
        "type": "object",
        "properties": {
            "group": {
                "type": "string",
                "enum": [group.value for group in BetGroup],
                "description": BET_KEYS["group"],
            },
            "name": _words_schema(BET_KEYS["name"]),
            "wins": _words_schema(BET_KEYS["wins"]),
            "rows": {"type": "array", "description": BET_KEYS["rows"], "minItems": 1, "items": row},
        },
        "required": ["group", "name", "wins", "rows"],
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "description": "the operator's own bets, by id (a game offers one in its bets = [...]),"
        " declared like the catalogue's: check --config FILE counts each row on the exact odds",
        "propertyNames": {"pattern": f"^{NAME_PATTERN}$"},
        "additionalProperties": bet,
    }


def json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of an operator configuration, from the tables above."""
    game = Table(OPERATOR_GAME_KEYS).schema()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://baccarat-report.invalid/operator.schema.json",
        "title": "baccarat-report operator configuration",
        "description": "The games an operator runs and where they depart from the built-in"
        " catalogue. Check a file with: baccarat-report check --config FILE",
        "type": "object",
        "properties": {
            "operator": Table(OPERATOR_KEYS).schema() | {"description": "who the operator is"},
            "inbox": Table(INBOX_KEYS).schema()
            | {"description": "how the monthly job reads the inbox"},
            "games": {
                "type": "object",
                "description": "the games the operator runs, by id (a catalogue id, or any id"
                " with base = a catalogue id)",
                "minProperties": 1,
                "propertyNames": {"pattern": f"^{GAME_ID_PATTERN}$", "maxLength": 64},
                "additionalProperties": game,
            },
            "pay_tables": {
                "type": "object",
                "description": "pay tables of the operator's own, by name",
                "propertyNames": {"pattern": f"^{_TABLE_NAME_PATTERN}$"},
                "additionalProperties": PayKeys(PAY_TABLE_KEYS).schema(),
            },
            "bets": _bets_schema(),
        },
        "required": ["games"],
        "additionalProperties": False,
    }
