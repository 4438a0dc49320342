"""Option values read without pydantic where typer's own result is plain: a command starts
without importing it.

typer (0.2x) coerces every value of every option through a pydantic ``TypeAdapter``, built
the first time the option is parsed, even for an option not given: the root's
``--log-file``, ``--quiet`` and ``--verbose`` alone import pydantic for every command. That
import costs more than all of ``odds``'s counting. Most values are plain (a word, a whole
number in its range, a path, a list of words), and for those :class:`PlainValues` gives the
very value typer would: a path through typer's own checks (:func:`coerce_cli_path`, handed a
:class:`~pathlib.Path` so that it needs no pydantic), a number only when it is written in
digits and lies in the option's range. Anything else, an out-of-range number included, goes
to typer's own coercion, so every message for a bad value is typer's, unchanged.

Under a typer that does not coerce through runtime parameters (before 0.2x: click's types),
:func:`read_plainly` finds no ``_runtime_param`` and changes nothing.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import typer
from typer._click.exceptions import NoArgsIsHelpError, UsageError

__all__ = [
    "PlainValues",
    "PlainValuesCommand",
    "PlainValuesGroup",
    "read_plainly",
    "refuse_what_click_takes",
]

#: A whole number as typer's coercion reads it, written in digits without a leading zero.
_DIGITS = re.compile(r"0|[1-9][0-9]*")

#: :func:`plain_value`'s answer for a value it leaves to typer.
NOT_PLAIN = object()


class PlainValues:
    """An option's coercion (typer's ``RuntimeParam`` contract: ``coerce``): plain values
    read here, any other handed to typer's own, built only when first needed."""

    def __init__(self, descriptor: Any) -> None:
        self._descriptor = descriptor
        self._typers: Any = None

    def coerce(self, value: Any, param: Any, ctx: typer.Context) -> Any:
        """``value`` as the command receives it."""
        plain = plain_value(value, self._descriptor, param, ctx)
        if plain is not NOT_PLAIN:
            return plain
        if self._typers is None:
            from typer._coercion import build_runtime_param

            self._typers = build_runtime_param(self._descriptor)
        return self._typers.coerce(value, param=param, ctx=ctx)


def plain_value(value: Any, descriptor: Any, param: Any, ctx: typer.Context) -> Any:
    """The value typer's coercion gives ``value`` if it is plain, else :data:`NOT_PLAIN`."""
    info = descriptor.parameter_info
    if info.parser is not None or getattr(info, "click_type", None) is not None:
        return NOT_PLAIN
    if value is None:  # not given, no default
        return () if param.multiple or param.nargs == -1 else None
    annotation = descriptor.annotation
    if annotation is bool and isinstance(value, bool):
        return value
    if annotation is str and isinstance(value, str):
        return value
    if annotation is int and not info.clamp:
        return _whole_number(value, info.min, info.max)
    if annotation is Path and isinstance(value, str) and value and info.path_type is None:
        from typer._param_types import coerce_cli_path

        return coerce_cli_path(Path(value), info, path_type=Path, param=param, ctx=ctx)
    if (
        annotation == list[str]
        and param.multiple
        and isinstance(value, tuple | list)
        and all(isinstance(item, str) for item in value)
    ):
        return list(value)
    return NOT_PLAIN


def _whole_number(value: Any, low: float | None, high: float | None) -> Any:
    if isinstance(value, str) and _DIGITS.fullmatch(value):
        number = int(value)
    elif isinstance(value, int) and not isinstance(value, bool):
        number = value
    else:
        return NOT_PLAIN
    if (low is not None and number < low) or (high is not None and number > high):
        return NOT_PLAIN  # typer's message says which bound
    return number


def read_plainly(params: list[Any]) -> None:
    """Give each typer option of ``params`` whose coercion is not built yet a
    :class:`PlainValues`."""
    for param in params:
        if getattr(param, "_runtime_param", NOT_PLAIN) is None and hasattr(
            param, "type_descriptor"
        ):
            param._runtime_param = PlainValues(param.type_descriptor)


class _ReadsPlainly:
    """typer's parsing, each option read by :class:`PlainValues` (mixed into a command and
    a group)."""

    def parse_args(self, ctx: typer.Context, args: list[str]) -> list[str]:
        """typer's parsing, each option read by :class:`PlainValues`, after
        :func:`refuse_what_click_takes`."""
        read_plainly(self.get_params(ctx))  # type: ignore[attr-defined]
        if not ctx.resilient_parsing:
            refuse_what_click_takes(self.make_parser(ctx), args)  # type: ignore[attr-defined]
        return super().parse_args(ctx, args)  # type: ignore[misc]


def refuse_what_click_takes(parser: Any, args: list[str]) -> None:
    """Refuse what click's parsing takes without a word: an option of one value given twice
    (it keeps the last: ``--game a --game b`` ran b alone); an empty or blank path (read as
    the working folder: ``--out ''`` wrote the month's reports there, ``ingest ''`` read it
    as an inbox; ``--db ''`` was "a directory"); and an environment variable of an option
    set to nothing (click takes it as unset: ``BACCARAT_REPORT_CONFIG=`` in a cron line
    whose variable was empty read the shipped sample configuration). A mistake of another
    kind is left to the parsing that follows, which says it, and help asked for is given."""
    try:
        values, _, order = parser.parse_args(args=list(args))
    except UsageError:
        return
    if any(param.is_eager for param in order):  # --help: answered whatever else was given
        return
    seen: set[int] = set()
    for param in order:
        name = param.opts[0] if param.param_type_name == "option" else param.metavar or param.name
        if _takes_a_path(param) and any(not str(path).strip() for path in _given(values, param)):
            raise UsageError(f"{name} is blank: {_path_wanted(param)}", parser.ctx)
        if param.param_type_name != "option" or param.multiple or param.count or param.is_flag:
            continue
        if id(param) in seen:
            given = " and ".join(repr(value) for value in _values_of(param, args))
            raise UsageError(f"{name} is given more than once ({given}): give it once", parser.ctx)
        seen.add(id(param))
    for param in parser.ctx.command.get_params(parser.ctx):
        envvar = getattr(param, "envvar", None)
        if isinstance(envvar, str) and os.environ.get(envvar) == "" and param not in order:
            raise UsageError(
                f"{envvar} is set, to nothing, for {param.opts[0]}: set it to a"
                f" {_path_wanted(param).removeprefix('name a ')}, or unset it",
                parser.ctx,
            )


#: The options whose text names a file or a place without being read as a path (a built-in
#: profile's name or a profile's file; a folder or a URL), and what to name instead of a blank.
_NAMED_AS_TEXT = {
    "--profile": "name a built-in log profile or a profile's file",
    "--logs": "name a folder or a URL",
}


#: What an option's metavar names, where its type takes a file or a folder alike.
_METAVAR_NAMES = {"FILE": "name a file", "<dir>": "name a folder"}


def _named_as_text(param: Any) -> str | None:
    """What to name instead of a blank, for an option whose text names a file or a place
    without being read as a path (:data:`_NAMED_AS_TEXT`); None for any other parameter."""
    if param.param_type_name != "option":
        return None
    return _NAMED_AS_TEXT.get(param.opts[0])


def _takes_a_path(param: Any) -> bool:
    """Whether ``param``'s values name files or places (typer reads them as paths, or they
    are text that names one: :data:`_NAMED_AS_TEXT`)."""
    descriptor = getattr(param, "type_descriptor", None)
    annotation = getattr(descriptor, "annotation", None)
    return annotation is Path or annotation == list[Path] or _named_as_text(param) is not None


def _given(values: dict[str, Any], param: Any) -> tuple[Any, ...]:
    """The values the parsing gave a parameter, one or several."""
    value = values.get(param.name)
    return tuple(value) if isinstance(value, list | tuple) else (value,)


def _values_of(option: Any, args: list[str]) -> list[str]:
    """The values the command line gives an option, each time it is given (``--game a``,
    ``--game=b``), for a message."""
    found = []
    for index, arg in enumerate(args):
        if arg == "--":
            break
        if arg in option.opts and index + 1 < len(args):
            found.append(args[index + 1])
        found += [arg.partition("=")[2] for opt in option.opts if arg.startswith(f"{opt}=")]
    return found


def _path_wanted(param: Any) -> str:
    """What a path parameter names: "name a file", "name a folder", or either (an option's
    metavar says it where the option takes either, to say what stands there itself:
    ``check --config FILE``, ``check --inbox <dir>``)."""
    named = _named_as_text(param)
    if named is not None:
        return named
    if param.metavar in _METAVAR_NAMES:
        return _METAVAR_NAMES[param.metavar]
    info = param.type_descriptor.parameter_info
    if info.file_okay and info.dir_okay:
        return "name a file or a folder"
    return "name a file" if info.file_okay else "name a folder"


class PlainValuesCommand(_ReadsPlainly, typer.core.TyperCommand):
    """A command whose plain option values are read without pydantic."""


class OneLineUsageError(UsageError):
    """A mistake on the command line (an unknown option or command, a bad or missing value)
    said as every other failure of the command is: one line of the log (on stderr, and in
    ``--log-file`` when the root's options were read), then exit 2. Click's own four lines
    (the usage, a hint, a blank line, the error) are not the contract, and a scheduler's log
    would carry them all."""

    @classmethod
    def of(cls, error: UsageError) -> OneLineUsageError:
        """``error``'s message and context, said in one line."""
        return cls(error.format_message(), error.ctx)

    def show(self, file: Any = None) -> None:
        """The line, with the help to read (``see 'baccarat-report verify -h'``)."""
        from reporting.cli.logs import command_logger

        hint = ""
        if self.ctx is not None and self.ctx.command.get_help_option(self.ctx) is not None:
            hint = f" (see '{self.ctx.command_path} {self.ctx.help_option_names[0]}')"
        command_logger().error("%s%s", " ".join(self.format_message().split()), hint)


class PlainValuesGroup(_ReadsPlainly, typer.core.TyperGroup):
    """The root: its options (``--log-file``, ``--quiet``, ...) read without pydantic, and a
    mistake on the command line, its own or a command's, said in one line
    (:class:`OneLineUsageError`)."""

    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().make_context(*args, **kwargs)
        except UsageError as error:
            raise _one_line(error) from None

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except UsageError as error:
            raise _one_line(error) from None


def _one_line(error: UsageError) -> UsageError:
    """``error`` said in one line; no arguments at all stays help (click's error that shows
    it)."""
    if isinstance(error, NoArgsIsHelpError | OneLineUsageError):
        return error
    return OneLineUsageError.of(error)
