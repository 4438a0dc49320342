"""The words of the bets on the pages: where a page finds them, and how ``make i18n`` finds the
catalogue's.

A bet's words live in its declaration (:class:`~reporting.engine.bets.BetRule`: ``name``,
``wins``, ``wins_plural`` and each pay row's ``says``), as a
:class:`~reporting.engine.bets.Wording`: a msgid for the catalogue's bets
(``reporting/data/bets.toml``), translated in ``reporting/locale/``; or the operator's own text
in each language for a bet its configuration declares. The rule-sheet macros
(``reporting/templates/rules/macros.html.j2``: ``words``, ``bet_name``, ``bet_wins``) translate
the first and print the second through :func:`own_words`; a bet named by its id alone (the
scoreboard's texts name the catalogue's Banker and Player) is found by :func:`catalogue_bet`.
Both are registered in every template environment by
:func:`reporting.presentation.i18n.make_environment`.

:func:`extract_bet_words` is the babel extraction method of ``reporting/data/bets.toml``
(``babel.cfg``), so that every msgid of the declarations is in ``messages.pot``;
``tests/presentation/test_i18n.py`` holds every catalogue bet's words translated in every
language.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Collection, Iterator
from typing import IO, TYPE_CHECKING, Any

from reporting.config.bets import catalogue_bets, declare_bets
from reporting.config.values import Problems
from reporting.engine.bets import BetRule, Wording
from reporting.engine.games import GameSpec

if TYPE_CHECKING:
    from reporting.config.loader import OperatorConfig

__all__ = [
    "catalogue_bet",
    "extract_bet_words",
    "bet_names",
    "located_name_clashes",
    "name_clashes",
    "own_words",
]


def catalogue_bet(bet_id: str) -> BetRule:
    """A catalogue bet by its id; an error naming it for an id the catalogue does not hold (a
    page never prints a raw id)."""
    try:
        return catalogue_bets()[bet_id]
    except KeyError:
        raise KeyError(
            f"no bet {bet_id!r} in the catalogue (reporting/data/bets.toml): a page names a bet"
            " by its declaration's words"
        ) from None


def own_words(language: str, wording: Wording) -> str:
    """The operator's text of ``wording`` in ``language``; an error naming the text for a
    language the operator did not write it in (a msgid is the templates' to translate)."""
    text = wording.in_language(language)
    if text is None:
        written = ", ".join(code for code, _ in wording.by_language) or "none"
        example = wording.by_language[0][1] if wording.by_language else wording.msgid
        raise KeyError(
            f"no {language!r} text for {example!r} (written in: {written}): an operator's bet"
            " gives its words in every language of its game's pages"
        )
    return text


def name_clashes(game: GameSpec, language: str) -> list[tuple[tuple[str, ...], str]]:
    """Where the names of ``game``'s bets on its ``language`` pages would be one name: each
    clash as the configuration key to change (below the game's) and a sentence; none when
    every bet is told by its name. The operator's words for the hands go into the catalogue's
    names ("Hand" for both hands, "Tie" for the Player), and an own bet may take a catalogue
    bet's name: a page would then list two bets of one name, each with its own pay. A hand
    given the other's name is said alone (the bets' names it clashes are its consequence); an
    own bet without words in the language is left to the check that asks for them."""
    from reporting.presentation.i18n import load_translations, page_translations
    from reporting.presentation.page_words import HAND_NAMES

    words = dict(game.hand_words(language))
    clashes = []
    for hand, word in words.items():
        other = next(name for key, name in HAND_NAMES.items() if key != hand)
        if word.casefold() in {
            other.casefold(),
            load_translations(language).gettext(other).casefold(),
        }:
            clashes.append(
                (
                    ("words", language),
                    f"on the {language} pages of {game.id} the {hand} would be named {word!r},"
                    " the other hand's name: give it a name of its own",
                )
            )
    if clashes:
        return clashes
    translations = page_translations(language, game.hand_words(language))
    named: dict[str, list[tuple[BetRule, str]]] = {}
    for bet in game.bets:
        if bet.name.msgid is not None:
            name = translations.gettext(bet.name.msgid)
        else:
            name = bet.name.in_language(language)
        if name is not None:
            shown = re.sub(r"<[^>]*>", "", name)
            named.setdefault(shown.casefold(), []).append((bet, shown))
    for bets in named.values():
        if len(bets) == 1:
            continue
        own = [bet.id for bet, _ in bets if bet.own]
        ids = [bet.id for bet, _ in bets]
        clashes.append(
            (
                ("bets", own[0]) if own else ("words", language),
                f"on the {language} pages of {game.id} the {', '.join(ids[:-1])} and {ids[-1]}"
                f" bets would be named {bets[0][1]!r}: give them names of their own",
            )
        )
    return clashes


def bet_names(config: OperatorConfig, language: str) -> tuple[tuple[str, str], ...]:
    """Every bet type of the configured games by its name in ``language``, the English of the
    audit's report and workbook: a catalogue bet's msgid, an operator's own bet's words in
    that language, else its id."""
    names = {}
    for game in config.games.values():
        for rule in game.bets:
            names[rule.id] = rule.name.msgid or rule.name.in_language(language) or rule.id
    return tuple(sorted(names.items()))


def located_name_clashes(config: OperatorConfig) -> list[str]:
    """Every clash of bets' names on the pages of every game of ``config`` (:func:`name_clashes`),
    each at its key and line of the file, as the configuration's problems are said. ``check``
    lists them; ``rules`` and ``monthly`` stop on them before any work."""
    problems = []
    for game_id, game in config.games.items():
        for language in game.languages:
            for below, clash in name_clashes(game, language):
                key = ("games", game_id, *below) if below[0] == "words" else below
                line = config.lines.line_of(key) if config.source else None
                where = f"{config.source}:{line}: " if line else ""
                problems.append(f"{where}{'.'.join(key)}: {clash}")
    return problems


# --- message extraction (babel.cfg) ------------------------------------------------------------


#: What each kind of msgid is, for the translators (shown above it in the catalogues).
_NOTES = {
    "name": "Translators: the name of a bet (a brand name such as Super 6 may stay as it is).",
    "wins": "Translators: when a bet wins, beside its name.",
    "says": "Translators: when one pay row of a bet applies; its pay is shown beside it.",
}


def _texts(bet: BetRule) -> Iterator[tuple[str, str | tuple[str, str]]]:
    """The bet's msgids, each with the key it comes from: ``(key, msgid or (singular,
    plural))``."""
    yield "name", bet.name.msgid or ""
    wins = bet.wins.msgid or ""
    yield "wins", wins if bet.wins_plural is None else (wins, bet.wins_plural)
    for row in bet.rows:
        yield "says", row.says.msgid or ""


def _line_of(lines: list[str], start: int, text: str) -> int:
    """The number (from 1) of the first line from ``start`` that holds ``text`` as a TOML
    string; ``start + 1`` (the bet's header) when none does."""
    quoted = json.dumps(text, ensure_ascii=False)  # a TOML basic string is written the same
    for index in range(start, len(lines)):
        if quoted in lines[index]:
            return index + 1
    return start + 1


def extract_bet_words(
    fileobj: IO[bytes],
    keywords: Collection[str],
    comment_tags: Collection[str],
    options: dict[str, Any],
) -> Iterator[tuple[int, str, str | tuple[str, str], list[str]]]:
    """Babel extraction method of a bet declarations file (``reporting/data/bets.toml``):
    every ``name``, ``wins`` (with ``wins_plural``, a plural pair) and row ``says`` msgid,
    read by the same :func:`~reporting.config.bets.declare_bets` the tool reads them with.

    Yields ``(line, function, message, comments)`` as babel expects: ``_`` for a msgid,
    ``ngettext`` for a singular and plural pair. A declaration with a problem is an error.
    """
    source = fileobj.read().decode("utf-8")
    name = getattr(fileobj, "name", "bets.toml")
    problems = Problems(str(name))
    bets = declare_bets(tomllib.loads(source).get("bets", {}), problems)
    if problems:
        raise ValueError("\n".join(problems.messages))
    lines = source.splitlines()
    for bet in bets.values():
        header = next(
            (index for index, line in enumerate(lines) if line.strip() == f"[bets.{bet.id}]"), 0
        )
        for key, message in _texts(bet):
            singular = message if isinstance(message, str) else message[0]
            function = "_" if isinstance(message, str) else "ngettext"
            yield _line_of(lines, header, singular), function, message, [_NOTES[key]]
