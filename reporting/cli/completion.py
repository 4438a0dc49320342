"""Shell completion of option values: the games of the configuration a command would read,
languages, formats, log profiles, perfect pair variants.

typer's completion (``--install-completion``) completes the commands and option names by
itself; each function here is an option's ``autocompletion``, called with what is typed so
far. They read their tables where they run (``--help`` imports this module), and answer
nothing rather than fail: a half-typed command line is not the place for an error.
"""

from __future__ import annotations

from collections.abc import Iterable

import typer

__all__ = [
    "complete_format",
    "complete_formats",
    "complete_game",
    "complete_game_or_all",
    "complete_languages",
    "complete_perfect_pair",
    "complete_profile",
]

#: The perfect pair bet's pay table variants (``odds --perfect-pair``).
PERFECT_PAIR_VARIANTS = ("A", "B")


def complete_game(ctx: typer.Context, incomplete: str) -> list[str]:
    """The game ids of the configuration the command would read: ``--config`` if typed
    before, else ``BACCARAT_REPORT_CONFIG``, else the default."""
    return _starting(_games(ctx), incomplete)


def complete_game_or_all(ctx: typer.Context, incomplete: str) -> list[str]:
    """The game ids, and ``all`` (``rules --game``)."""
    return _starting((*_games(ctx), "all"), incomplete)


def complete_languages(incomplete: str) -> list[str]:
    """A comma-separated list of the languages of the rule sheets (``it,d`` -> ``it,da``),
    or ``all``."""
    from reporting.config.languages import SUPPORTED_LANGUAGES

    return _list_of(SUPPORTED_LANGUAGES, incomplete)


def complete_formats(incomplete: str) -> list[str]:
    """A comma-separated list of the rule sheets' formats (``rules --format``)."""
    from reporting.cli.rules import FORMATS

    return _list_of(FORMATS, incomplete)


def complete_format(incomplete: str) -> list[str]:
    """The shapes ``sample`` writes (``sample --format``)."""
    from reporting.cli.sample import FORMATS

    return _starting(FORMATS, incomplete)


def complete_profile(incomplete: str) -> list[str]:
    """The built-in log profiles (a profile file: the shell's own file completion, when no
    name matches)."""
    from reporting.ingest.profiles.builtin import built_in_profiles

    return _starting(built_in_profiles(), incomplete)


def complete_perfect_pair(incomplete: str) -> list[str]:
    """The perfect pair variants, ``A`` and ``B``."""
    return _starting(PERFECT_PAIR_VARIANTS, incomplete.upper())


def _games(ctx: typer.Context) -> tuple[str, ...]:
    """The game ids of the command's configuration; none if it cannot be read."""
    from reporting.cli.common import load_operator_config
    from reporting.config.loader import ConfigError
    from reporting.errors import InputError

    try:
        return tuple(load_operator_config(ctx.params.get("config")).games)
    except (ConfigError, InputError, OSError):
        return ()


def _starting(values: Iterable[str], incomplete: str) -> list[str]:
    return [value for value in values if value.startswith(incomplete)]


def _list_of(known: tuple[str, ...], incomplete: str) -> list[str]:
    """Complete the last item of a comma-separated list; ``all`` stands alone."""
    typed, _, last = incomplete.rpartition(",")
    chosen = set(typed.split(",")) if typed else set()
    prefix = f"{typed}," if typed else ""
    choices = [prefix + value for value in known if value not in chosen]
    if not typed:
        choices.append("all")
    return _starting(choices, prefix + last)
