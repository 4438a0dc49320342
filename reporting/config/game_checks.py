"""The checks of a game that join several of its keys: one function each, listed in
:data:`GAME_CHECKS`.

Each is given every value (MISSING where a key's own check failed), the configuration's pay
tables and the game's path, and checks only what its keys allow; the loader runs them all,
so that one run lists every problem. :func:`bets_can_win` checks the game once built (its
bets, decks and pays together), when every key of it holds.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Iterable, Iterator, Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

from reporting.config.keys import PAY_FLAGS, PAY_TABLE_OWN_KEYS
from reporting.config.lines import KeyLines
from reporting.config.pay_tables import margin_key, written_as
from reporting.config.regulators import currency_problem, load_regulators, regulator_of_country
from reporting.config.values import MISSING, Problems, suggestion
from reporting.engine.bets import BetRule, PayRow
from reporting.engine.games import ALWAYS_OPEN, GameSpec, cut_card_depths
from reporting.engine.money import cents_to_decimal, parse_ratio
from reporting.engine.theory import ratio_text
from reporting.errors import counted

__all__ = [
    "GAME_CHECKS",
    "sentences_hold",
    "bets_can_win",
    "pay_written_at",
    "pay_flags_agree",
    "pays_of_bets_offered",
    "rows_decide_on_the_shoe",
]


def _check_shoe(
    values: dict[str, Any], _tables: Any, path: tuple[str, ...], problems: Problems
) -> None:
    decks, depth = values["decks"], values["cut_card_depth"]
    if MISSING not in (decks, depth) and depth is not None:
        deepest = cut_card_depths(decks)[-1]
        if depth > deepest:
            problems.add(
                (*path, "cut_card_depth"),
                f"{depth} cards behind the cut card leave {52 * decks - depth} of the shoe's"
                f" {52 * decks} to deal: place it at most {deepest} cards from the end (half"
                " the shoe dealt at least)",
            )
    reshuffled, kind = values["reshuffle_every_round"], values["kind"]
    if MISSING not in (reshuffled, kind) and reshuffled is (kind == "live"):
        if kind == "live":
            game, fixes = "a live game", 'reshuffle_every_round = false, or kind = "rng"'
        else:
            game, fixes = "an RNG game", 'reshuffle_every_round = true, or kind = "live"'
        problems.add(
            (*path, "reshuffle_every_round"),
            f"{str(reshuffled).lower()} for {game}: the pages describe a live game dealt from a"
            f" shoe and an RNG game whose cards are shuffled before every round ({fixes})",
        )
    if reshuffled is True and depth not in (None, MISSING):
        problems.add((*path, "cut_card_depth"), "a shoe reshuffled every round has no cut card")
    if reshuffled is True and values["scoreboard"] not in (None, MISSING, []):
        problems.add(
            (*path, "scoreboard"), "a shoe reshuffled every round keeps no shoe's scoreboard"
        )


def _check_limits(
    values: dict[str, Any], _tables: Any, path: tuple[str, ...], problems: Problems
) -> None:
    limits, bets = values["limits"], values["bets"]
    if limits is MISSING:
        return
    for key in ("min", "max"):
        if key not in limits:
            problems.add((*path, "limits", key), "missing")
    if "min" in limits and "max" in limits and limits["min"] > limits["max"]:
        inherited = " (its base game's)"  # a bound not written here, with its figure
        bounds = [
            f"{key} {cents_to_decimal(limits[key])}"
            f"{'' if problems.lines.written((*path, 'limits', key)) else inherited}"
            for key in ("min", "max")
        ]
        problems.add((*path, "limits"), f"{bounds[0]} is above {bounds[1]}")
    for bet, own in limits.get("per_bet", {}).items():
        where = (*path, "limits", "per_bet", bet)
        if bets is not MISSING and bet not in bets:
            problems.add(where, "the game does not offer this bet")
        minimum, maximum = own.get("min", limits.get("min")), own.get("max", limits.get("max"))
        if None not in (minimum, maximum) and minimum > maximum:
            bounds = [
                f"{key} {cents_to_decimal(value)}{_whose_bound(problems, path, bet, key, own)}"
                for key, value in (("min", minimum), ("max", maximum))
            ]
            problems.add(where, f"{bounds[0]} is above {bounds[1]}")


def _whose_bound(
    problems: Problems, path: tuple[str, ...], bet: str, key: str, own: dict[str, Any]
) -> str:
    """Whose a bet's bound is, said beside its figure when the file does not write it there:
    the game's (its own ``min``), or its base game's (the catalogue's, or the base's own
    per-bet bound)."""
    if problems.lines.written((*path, "limits", "per_bet", bet, key)):
        return ""
    if key not in own and problems.lines.written((*path, "limits", key)):
        return " (the game's)"
    return " (its base game's)"


def _check_exclusive_bets(
    values: dict[str, Any], _tables: Any, path: tuple[str, ...], problems: Problems
) -> None:
    groups, bets = values["exclusive_bets"], values["bets"]
    if MISSING in (groups, bets):
        return
    sets = [frozenset(group) for group in groups]
    for index, group in enumerate(groups):
        if not set(group) <= set(bets):
            problems.add(
                (*path, "exclusive_bets"), f"{list(group)} must name two or more offered bets"
            )
        mine = sets[index]
        # a group given again (or inside one before it), or inside a wider one after it
        earlier = [other for other in sets[:index] if mine <= other]
        later = [other for other in sets[index + 1 :] if mine < other]
        wider = next(iter(earlier + later), None)
        if wider is not None:
            problems.add(
                (*path, "exclusive_bets"),
                f"{sorted(mine)} says again what {sorted(wider)} says (a page would state the"
                " rule twice): remove it",
            )


def _check_pay_table(
    values: dict[str, Any], tables: dict[str, Any], path: tuple[str, ...], problems: Problems
) -> None:
    name = values["pay_table"]
    if name is not MISSING and name not in tables:
        known = ", ".join(sorted(tables))
        problems.add(
            (*path, "pay_table"),
            f"no pay table {name!r} (known: {known}){suggestion(name, tables)}",
        )


#: Files of the time zone database that are no civil zone: a name of the operator's machine's
#: own zone (which differs between machines), a placeholder, a POSIX default; and the copies
#: kept for other uses (``right/``: clocks that count leap seconds, 27 seconds off civil time
#: and ignoring daylight saving in Python's reading; ``posix/``: the same zones again).
_NOT_CIVIL_ZONES = frozenset({"localtime", "Factory", "posixrules"})
_NOT_CIVIL_PREFIXES = ("right/", "posix/")


def _check_timezone(
    values: dict[str, Any], _tables: Any, path: tuple[str, ...], problems: Problems
) -> None:
    name = values["timezone"]
    if name is MISSING:
        return
    problem = timezone_problem(name, "its months are counted in")
    if problem is not None:
        problems.add((*path, "timezone"), problem)


def timezone_problem(name: str, what: str = "its times are written in") -> str | None:
    """Why ``name`` is not a civil IANA time zone (None: it is one); ``what`` ends the hint
    to a file of the database: "name the zone {what}"."""
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        return f"{name!r} is not an IANA time zone such as Europe/Rome"
    if name in _NOT_CIVIL_ZONES or name.startswith(_NOT_CIVIL_PREFIXES):
        return (
            f"{name!r} is a file of the time zone database, not a civil time zone: name the"
            f" zone {what}, such as Europe/Rome"
        )
    return None


def _check_currency(
    values: dict[str, Any], _tables: Any, path: tuple[str, ...], problems: Problems
) -> None:
    code = values["currency"]
    problem = None if code is MISSING else currency_problem(code)
    if problem:
        problems.add((*path, "currency"), problem)


def _check_regulator_market(
    values: dict[str, Any], _tables: Any, path: tuple[str, ...], problems: Problems
) -> None:
    """A game carries the disclosure of its own market's regulator, in that market's currency
    and time zone: an ADM block on a Danish game named the Danish licence above "published
    under the rules of the ADM" and priced its limits in kroner; one in New York's time counted
    a round settled at 00:30 in Rome on 1 November in October."""
    regulator_id, country, currency, timezone = (
        values["regulator"],
        values["jurisdiction"],
        values["currency"],
        values["timezone"],
    )
    if regulator_id in (None, MISSING):
        return
    regulator = load_regulators()[regulator_id]
    if country is not MISSING and country != regulator.country:
        own = regulator_of_country(country)
        problems.add(
            (*path, "regulator"),
            f"{regulator_id} regulates games in {regulator.country}, and this game's jurisdiction"
            f" is {country}: "
            + (f"its regulator is {own.id}" if own else "remove the regulator")
            + f', or set jurisdiction = "{regulator.country}"',
        )
        return  # the regulator is the problem, not the currency or the time zone
    if currency not in (MISSING, regulator.currency) and not currency_problem(currency):
        problems.add(
            (*path, "currency"),
            f"{currency}: a game of {regulator_id} ({regulator.country}) is played in"
            f" {regulator.currency}",
        )
    if timezone not in (MISSING, regulator.timezone):
        problems.add(
            (*path, "timezone"),
            f"{timezone}: a game of {regulator_id} ({regulator.country}) counts its months and"
            f" dates its pages in {regulator.timezone}",
        )


def _check_declared_rtp(
    values: dict[str, Any], _tables: Any, path: tuple[str, ...], problems: Problems
) -> None:
    declared = values["declared_rtp"]
    if declared not in (None, MISSING) and not 0 < Decimal(declared) <= 100:
        problems.add((*path, "declared_rtp"), f'{declared!r} is not a percentage such as "99.50"')


def _check_availability_gap(
    values: dict[str, Any], _tables: Any, path: tuple[str, ...], problems: Problems
) -> None:
    minutes, hours = values["availability_gap_minutes"], values["opening_hours"]
    if minutes not in (None, MISSING) and hours is not MISSING and hours != ALWAYS_OPEN:
        problems.add(
            (*path, "availability_gap_minutes"),
            "applies only to a game open around the clock: set"
            f' opening_hours = "{ALWAYS_OPEN}" or remove it',
        )


def _check_published_languages(
    values: dict[str, Any], _tables: Any, path: tuple[str, ...], problems: Problems
) -> None:
    regulator, languages = values["regulator"], values["languages"]
    if regulator in (None, MISSING) or languages != []:
        return
    if load_regulators()[regulator].has_disclosure_page:
        problems.add(
            (*path, "languages"),
            f"{regulator} games publish a rule sheet and a disclosure page: list at least one"
            " language",
        )


def _check_words(
    values: dict[str, Any], _tables: Any, path: tuple[str, ...], problems: Problems
) -> None:
    words, languages = values["words"], values["languages"]
    if words in (None, MISSING) or languages is MISSING:
        return
    for language in words:
        if language not in languages:
            problems.add(
                (*path, "words", language),
                f"the game publishes no {language} pages (its languages: {', '.join(languages)}):"
                f" list {language} in languages, or remove its words",
            )


def _pays_odds(pay, row) -> bool:
    """Whether a pay row pays odds (not a push or a loss) under ``pay``."""
    return isinstance(pay(row), Fraction)


def pay_written_at(
    lines: KeyLines,
    game_id: str,
    table: str,
    bases: Mapping[str, str],
    bet: BetRule,
    keys: Iterable[str] | None = None,
) -> tuple[str, ...]:
    """Where the file writes what the game pays ``bet`` (its rows' ``keys``, every key of its
    rows by default): the game's own ``pay``, then its pay table's and that table's bases' in
    turn (``bases``: the base each of the file's tables writes), a bonus margin under
    ``bonus_margins``; then the operator's row that declares it; the game where none is
    written (the catalogue's pay). A problem or a warning about a pay points there, not at a
    key the file does not hold."""
    wanted = list(dict.fromkeys(bet.pay_keys if keys is None else keys))
    for place in (("games", game_id, "pay"), *_tables_from(table, bases)):
        for key in wanted:
            if (path := (*place, *written_as(key))) in lines.lines:
                return path
    if bet.own:
        for number, row in enumerate(bet.rows, start=1):
            path = ("bets", bet.id, "rows", str(number))  # a row's line: its pays is on it
            if row.key in wanted and path in lines.lines:
                return (*path, "pays")
    return ("games", game_id)


def _tables_from(table: str | None, bases: Mapping[str, str]) -> Iterator[tuple[str, ...]]:
    """The pay table ``table`` and the bases it is written on, in turn, as key paths (a table
    that writes no base stands on the catalogue's pays)."""
    seen: set[str] = set()
    while table is not None and table not in seen:
        seen.add(table)
        yield ("pay_tables", table)
        table = bases.get(table)


def bets_can_win(
    game: GameSpec,
    path: tuple[str, ...],
    problems: Problems,
    table: str,
    bases: Mapping[str, str],
) -> bool:
    """Whether every bet the game offers can win on its shoe under its pays (a bet's rows are
    held to eight decks where it is declared; a smaller shoe deals less: one deck deals no
    suited pair, so a Perfect Pair offered on it was printed at 25:1 and 0.00%). Each one
    that cannot is a problem: at ``decks`` when the shoe is why, at the pay key when the
    game's pays are (a winning row paid as a push or a loss)."""
    from reporting.engine.odds import MAX_DECKS, row_reach

    def decides_at_odds(bet: BetRule, decks: int, pay) -> bool:
        reached = row_reach(bet, decks)  # the counts of a shoe cached (engine.odds)
        return any(
            reach.decides
            for reach, row in zip(reached, bet.rows, strict=True)
            if _pays_odds(pay, row)
        )

    def wins(bet: BetRule, decks: int, pay) -> bool:
        if decks == MAX_DECKS:  # each row decides on eight decks (bets.check_rows_decide)
            return any(_pays_odds(pay, row) for row in bet.rows)
        return decides_at_odds(bet, decks, pay)

    never = [
        bet
        for bet in game.bets
        if not wins(bet, game.decks, game.pay_table.pay)
        # one that cannot win as declared is refused at its declaration already (counted:
        # an own bet refused there is loaded all the same, and its problem said once)
        and decides_at_odds(bet, MAX_DECKS, _declared)
    ]
    for bet in never:
        if wins(bet, game.decks, _declared):  # the shoe lets it win: the game's pays do not
            # the keys of the rows that pay odds as declared and not as the game pays them (a
            # row without a key pays what it declares)
            keys = list(dict.fromkeys(row.key for row in bet.rows if _taken(row, game)))
            problems.add(
                pay_written_at(problems.lines, path[-1], table, bases, bet, keys),
                f"the {bet.id} bet can never win under the pays of {game.id}: {', '.join(keys)} paid"
                " as a push or a loss leaves it no row that pays odds; pay one at odds, or"
                " leave the bet out",
            )
            continue
        problems.add(
            (*path, "decks"),
            f"the {bet.id} bet can never win on a shoe of {counted(game.decks, 'deck')}: deal"
            " it from more decks, or leave the bet out",
        )
    return not never


def _declared(row: PayRow) -> object:
    """What a row pays as its bet declares it."""
    return row.default


def _taken(row: PayRow, game: GameSpec) -> bool:
    """Whether the row pays odds as declared and not as the game pays it."""
    return _pays_odds(_declared, row) and not _pays_odds(game.pay_table.pay, row)


def sentences_hold(
    game: GameSpec,
    path: tuple[str, ...],
    problems: Problems,
    table: str,
    bases: Mapping[str, str],
) -> None:
    """Each sentence of a bet the game offers that states a pay (``wins_holds``: "a Banker
    win with a total of 6 pays half") is true of the game's pays: a page that said "half"
    beside 0.75:1 published what the game does not pay. A problem where the pay is written."""
    for bet in game.bets:
        for key, relation, other in bet.wins_holds:
            pay = game.pay_table.get(key)
            than = parse_ratio(other) if relation == "=" else game.pay_table.get(other)
            holds = pay == than if relation == "=" else _above(pay, than)
            if not holds:
                said = f"pays {ratio_text(than)}" if relation == "=" else f"pays more than {other}"
                problems.add(
                    pay_written_at(problems.lines, path[-1], table, bases, bet, (key, other)),
                    f"the {bet.id} bet's sentence on the pages ({bet.wins.msgid!r}) holds only"
                    f" where {key} {said}: pay it so, or offer an own bet that says what this"
                    " game pays",
                )


def _above(pay: object, than: object) -> bool:
    """Whether ``pay`` is odds above ``than`` (odds, or a push or loss, which any odds pass)."""
    if not isinstance(pay, Fraction):
        return False
    return not isinstance(than, Fraction) or pay > than


def rows_decide_on_the_shoe(game: GameSpec, path: tuple[str, ...], problems: Problems) -> None:
    """Each row paying odds of a bet the game offers decides on its shoe: a row that only a
    larger shoe deals (a suited pair on one deck) was printed with its pay, 25:1 on a hand
    the game never deals. A problem at ``decks`` each. Counted only on a shoe of fewer decks
    than a deal has cards (a larger one deals every deal eight decks do)."""
    from reporting.engine.odds import MOST_CARDS_DEALT, row_reach

    if game.decks >= MOST_CARDS_DEALT:
        return
    shoe = counted(game.decks, "deck")
    for bet in game.bets:
        reached = row_reach(bet, game.decks)
        for number, (row, reach) in enumerate(zip(bet.rows, reached, strict=True), start=1):
            if not reach.decides and _pays_odds(game.pay_table.pay, row):
                named = f"row {number}" + (f" ({row.key})" if row.key else "")
                problems.add(
                    (*path, "decks"),
                    f"{named} of the {bet.id} bet never decides on a shoe of {shoe}: its page"
                    " would print a pay for a hand this shoe never deals; deal it from more"
                    " decks, or offer a bet without that row",
                )


def pays_of_bets_offered(
    offered: Iterable[BetRule], values: dict[str, Any], path: tuple[str, ...], problems: Problems
) -> None:
    """Each pay the game's own ``pay`` (and each pay flag it sets) changes is a pay of a bet
    the game offers (``offered``): one no bet of it reads was taken and dropped without a word
    (``super_6 = "15"`` on an EZ table, which pays Super 6 nowhere), and the operator believed
    it set. A named pay table may hold other games' pays; the game's own changes may not.
    Judged on the bets alone, beside the game's other problems (its limits' among them)."""
    read = {row.key for bet in offered for row in bet.rows if row.key is not None}
    own = values["pay"] if isinstance(values["pay"], dict) else {}
    given = [
        (key, margin_key(margin))
        for key, value in own.items()
        if key == "bonus_margins" and isinstance(value, dict)
        for margin in value
    ]
    given += [(key, key) for key in own if key not in PAY_TABLE_OWN_KEYS]
    given += [
        (name, flag.leader)
        for name, flag in PAY_FLAGS.items()
        if values.get(name) not in (None, MISSING)
    ]
    for key, pay_key in given:
        if pay_key in read:
            continue
        flag = key in PAY_FLAGS
        problems.add(
            (*path, key) if flag else (*path, "pay", key),
            f"{f'{key} chooses how {pay_key} pays' if flag else pay_key}: the pay of no bet this"
            f" game offers (its bets' pays: {', '.join(sorted(read))})"
            f"{'' if flag else suggestion(pay_key, read)}: remove it, or offer the bet it pays",
        )


def pay_flags_agree(
    game: GameSpec, values: dict[str, Any], path: tuple[str, ...], problems: Problems
) -> None:
    """A pay flag the game sets and its follower's pay in the game's own ``pay`` say the same:
    ``perfect_pair = "A"`` beside ``pay = { perfect_pair_both = "100" }`` paid both hands as
    one, and the 100 written was dropped without a word. A flag of a bet the game does not
    offer is :func:`pays_of_bets_offered`'s problem."""
    own = values["pay"] if isinstance(values["pay"], dict) else {}
    for name, flag in PAY_FLAGS.items():
        value = values[name]
        leader = game.pay_table.get(flag.leader)  # None: no bet offered pays it
        if value is None or flag.follower not in own or leader is None:
            continue
        rule = flag.says_otherwise(leader, own[flag.follower], value)
        if rule is not None:
            problems.add(
                (*path, "pay", flag.follower), f'{name} = "{value}" {rule}: remove one of the two'
            )


#: Every check that joins several keys of a game, in the order their problems are listed.
GAME_CHECKS = (
    _check_shoe,
    _check_limits,
    _check_exclusive_bets,
    _check_pay_table,
    _check_timezone,
    _check_currency,
    _check_regulator_market,
    _check_declared_rtp,
    _check_availability_gap,
    _check_published_languages,
    _check_words,
)
