"""Finding the round logs named on the command line: files, pairs of files (a CSV round log),
and folders read whole. What a file is comes from :data:`reporting.ingest.formats.FORMATS`.

The names read are the round log format's, no others (round-log.md: ``.jsonl``,
``.jsonl.gz``, and a CSV pair as ``rounds.csv`` + ``bets.csv`` in one folder, or two paths
given together), in any case. A name the format does not give is not guessed at: ``.json``
may hold one document rather than lines, ``.ndjson`` or ``.jsonl.gzip`` another tool's
dialect, ``Rounds-2026-10.csv`` a pair whose partner is not certain. In a folder such files
are left unread and :func:`unread_files` lists them, with a reason, for the scheduled job to
raise as an alert (a month computed on part of the inbox must not pass without a word).

Only regular files (or links to one) are read: a FIFO, a device or a socket could hang or
never end. Named on the command line one is refused; in a folder it is listed as unread.

A provider's export is read through a log profile: on the command line (``--profile``) for
every path given, or in the inbox by the configuration's rules (``[[inbox.profiles]]``: a
folder or a file-name pattern and its profile, the first rule a file matches applies). A
profile reads the file names of its layouts (``.json``, ``.json.gz``, ``.jsonl``,
``.jsonl.gz``, ``.csv``); any other file a rule covers is listed as unread.
"""

from __future__ import annotations

import fnmatch
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from reporting.config.loader import InboxRules
from reporting.errors import InputError, printable
from reporting.files import UnusableName, is_kernel_file, kind_of_file, standing_at, utf8_name
from reporting.ingest.formats import (
    FORMATS,
    InputFormat,
    content_problem,
    expected_formats,
    format_of_file,
)
from reporting.ingest.profiles.loader import ProfileError, load_profile, profile_file
from reporting.ingest.profiles.model import LAYOUT_SUFFIXES, Profile
from reporting.ingest.sources import Source

__all__ = [
    "InboxProfile",
    "UnreadFile",
    "discover_inbox",
    "discover_sources",
    "inbox_profiles",
    "refuse_unless_inbox",
    "unread_files",
    "unread_inbox_files",
    "unreadable_entries",
    "unread_names",
]


def refuse_unless_inbox(inbox: Path, named: str = "") -> None:
    """The inbox is a folder, or an error says what stands there, after ``named`` (how the
    command line named it: ``--inbox ``, or nothing)."""
    if inbox.is_dir():
        return
    try:
        what = f"is {kind_of_file(inbox.stat().st_mode)}, not a folder"
    except OSError:
        standing = standing_at(inbox)  # a link to nothing or a loop, if anything
        what = f"is {standing}" if standing else "does not exist"
    raise InputError(f"{named}{inbox}: the inbox {what}")


@dataclass(frozen=True)
class InboxProfile:
    """An inbox rule with its profile loaded: a folder of the inbox (relative, ``/``) or a
    file-name pattern (relative to the inbox), and the profile that reads its files (None:
    the spec's round log)."""

    profile: Profile | None
    folder: str | None = None
    pattern: str | None = None

    def covers(self, relative: str) -> bool:
        """Whether a file of the inbox (its relative name, ``/`` between levels) is the rule's."""
        if self.folder is not None:
            return relative.startswith(self.folder.strip("/") + "/")
        assert self.pattern is not None
        return fnmatch.fnmatchcase(relative, self.pattern)


@dataclass(frozen=True)
class UnreadFile:
    """A file of a folder that is not read as a round log, and why."""

    path: Path
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


#: Why an entry listed is not read when it is gone by the time it is looked at (taken away or
#: renamed by its writer): nothing to read and nothing to say of it, so it is left out of the
#: files said unread (it was listed as "no such file", or as one that "cannot be read (no
#: permission)", and the month exited 1 for a file that no longer was).
class _Gone(str):
    """A reason that is no reason to say: the entry is gone (told by its class, not words)."""


_GONE = _Gone("no such file")


def _gone(problem: str | None) -> bool:
    return isinstance(problem, _Gone)


def _not_regular(path: Path) -> str | None:
    """Why ``path`` cannot be read as a file (a dangling link, a FIFO, ...), or None."""
    try:
        status = path.stat()
    except FileNotFoundError:
        if path.is_symlink():
            return "a symbolic link to nothing (its target does not exist)"
        return _GONE
    except OSError as error:
        return f"cannot be examined ({error.strerror})"
    if not stat.S_ISREG(status.st_mode):
        return f"{kind_of_file(status.st_mode)}, not a regular file"
    if is_kernel_file(path):  # regular by its mode, but may wait for ever (/proc/kmsg)
        return "a file of the kernel's (/proc, /sys), not a round log"
    return None


def _unusable_name(path: Path) -> str | None:
    """Why ``path``'s name cannot be a round log's (:func:`~reporting.files.utf8_name`), or
    None."""
    try:
        utf8_name(path)
    except UnusableName as unusable:
        return str(unusable)
    return None


def _unreadable(path: Path) -> str | None:
    """Why ``path`` cannot be read as a round log's file, whatever its name says, or None."""
    return _unusable_name(path) or _not_regular(path)


def discover_sources(paths: Sequence[Path], profile: Profile | None = None) -> list[Source]:
    """Round logs named on the command line: files, CSV pairs, and folders read whole; with
    a ``profile``, the files it reads (:func:`_profiled_sources`).

    A folder contributes its files of a one-file format (``*.jsonl``, ``*.jsonl.gz``,
    recursively, by name) and each ``rounds.csv`` with the ``bets.csv`` beside it. Two CSV
    paths given together are a pair (rounds file first, or named ``rounds*.csv`` /
    ``bets*.csv``); pairs come after the other sources.
    """
    if profile is not None:
        return _profiled_sources(paths, profile)
    sources: list[Source] = []
    to_pair: dict[str, list[Path]] = {}
    for path in paths:
        if not path.exists():
            if path.is_symlink():
                raise InputError(f"{path}: a symbolic link to nothing (its target does not exist)")
            raise InputError(f"{path}: no such file or folder")
        if path.is_dir():  # its hidden files (a transfer in progress) left alone, as an inbox's
            hidden = {file for file in _files(path) if _hidden(file, path)}
            sources.extend(_within(_sources_in_folder(path, hidden), path))
            continue
        problem = _unreadable(path)
        if problem is not None:
            raise InputError(f"{path}: {problem}; a round log must be a file")
        found = format_of_file(path)
        if found is None:
            raise InputError(f"{path}: not a round log (expected {expected_formats()})")
        problem = content_problem(path)
        if problem is not None:
            raise InputError(f"{path}: {problem}")
        if found.pairing is None:
            sources.append(Source(path, found.name))
        else:
            to_pair.setdefault(found.name, []).append(path)
    for input_format in FORMATS:
        if input_format.name in to_pair:
            sources.append(_pair_of(input_format, to_pair[input_format.name]))
    return sources


def _profiled_sources(paths: Sequence[Path], profile: Profile) -> list[Source]:
    """The files of the paths that ``profile`` reads: a file named must be one (by its name's
    ending), a folder gives every one below it, in path order."""
    sources = []
    for path in paths:
        if path.is_dir():
            for candidate in _files(path):
                if _hidden(candidate, path) or _entry_problem(candidate) is not None:
                    continue  # left alone, or listed by unreadable_entries
                if _outside(candidate, path.resolve()):
                    continue  # listed by unreadable_entries
                layout = profile.reads(candidate.name)
                if layout is not None:
                    sources.append(Source(candidate, layout, profile=profile))
            continue
        if not path.exists():
            if path.is_symlink():
                raise InputError(f"{path}: a symbolic link to nothing (its target does not exist)")
            raise InputError(f"{path}: no such file or folder")
        problem = _unreadable(path)
        if problem is not None:
            raise InputError(f"{path}: {problem}; a round log must be a file")
        layout = profile.reads(path.name)
        if layout is None:
            raise InputError(f"{path}: {not_read_by_profile(profile)}")
        sources.append(Source(path, layout, profile=profile))
    return sources


def names_read_by(profile: Profile) -> str:
    """The file names a profile reads, as a message lists them."""
    return ", ".join(
        f"*{suffix}" for layout in profile.layouts for suffix in LAYOUT_SUFFIXES[layout]
    )


def not_read_by_profile(profile: Profile) -> str:
    """Why a file of another name is not read with ``profile``."""
    return f"not a file the log profile {profile.label} reads ({names_read_by(profile)})"


def inbox_profiles(inbox: InboxRules, *, check_games: bool = False) -> list[InboxProfile]:
    """A configuration's ``[[inbox.profiles]]`` rules (:attr:`OperatorConfig.inbox`) with
    their profiles loaded (a file named relative to the configuration's folder); a
    ProfileError or InputError for a profile that cannot be used, before anything is read.
    ``check_games``: each profile's ``[games]`` is held to the configuration's games too
    (``check``)."""
    configured = list(inbox.games) if check_games and inbox.games is not None else None
    base = None if inbox.source is None else inbox.source.parent
    rules, unusable, problems = [], [], []  # every rule's problems at once, not the first's
    refused: set[Path | None] = set()  # each file's problems once, however it is named
    for number, rule in enumerate(inbox.rules, start=1):
        where = f"{inbox.source}:{rule.line}" if rule.line else str(inbox.source)
        try:
            profile = load_profile(rule.profile, base, configured=configured)
        except ProfileError as error:
            file = profile_file(rule.profile, base)
            if file is None or file not in refused:
                problems += error.problems
            refused.add(file)
            continue
        except InputError as error:
            unusable.append(f"{where}: inbox.profiles.{number}: {error}")
            continue
        rules.append(InboxProfile(profile, rule.folder, rule.pattern))
    if problems:
        raise ProfileError(problems + unusable)
    if unusable:
        raise InputError("; ".join(unusable))
    return rules


def discover_inbox(
    inbox: Path, rules: Sequence[InboxProfile]
) -> tuple[list[Source], list[UnreadFile]]:
    """The inbox's round logs and the files left unread (with why), from one look at the
    folder: the files a rule covers read with its profile, the others as the spec's round
    logs (every file, with no rules). An inbox whose own path is not UTF-8 text is refused:
    each of its files would be "not UTF-8", and the month written without one of them."""
    if _unusable_name(inbox) is not None:
        raise InputError(
            f"{printable(str(inbox))}: the inbox's path is not UTF-8 text (a folder's name on"
            " it), and the store and the reports name its files as text; rename that folder"
        )
    claimed: set[Path] = set()  # read by a rule's profile, or hidden: not the spec's to read
    profiled: list[Source] = []
    unread: list[UnreadFile] = []
    for path in _entries(inbox):
        relative = path.relative_to(inbox).as_posix()
        if _hidden(path, inbox):
            claimed.add(path)
            continue
        rule = next((rule for rule in rules if rule.covers(relative)), None)
        if rule is None or rule.profile is None:
            continue
        claimed.add(path)
        problem = _entry_problem(path)
        if problem is not None:
            if not _gone(problem):
                unread.append(UnreadFile(path, problem))
            continue
        layout = rule.profile.reads(path.name)
        if layout is None:
            reason = not_read_by_profile(rule.profile)
            unread.append(UnreadFile(path, reason))
            continue
        profiled.append(Source(path, layout, profile=rule.profile))
    spec = _sources_in_folder(inbox, claimed, unread)
    unread.extend(item for item in unread_files(inbox) if item.path not in claimed)
    # A link to a file outside the inbox is not followed: whoever may drop files in the inbox
    # (a provider's upload account) could otherwise have any file the job may read loaded,
    # and its lines kept, and shown, as rejected lines.
    inside = inbox.resolve()
    for source in spec + profiled:
        away = [path for path in (source.path, source.companion) if _outside(path, inside)]
        unread.extend(UnreadFile(path, _LINK_OUTSIDE) for path in away)
    return _within(spec + profiled, inbox), sorted(unread, key=lambda item: item.path)


def rules_reading_nothing(inbox: Path, rules: Sequence[InboxProfile]) -> list[tuple[int, str]]:
    """Each inbox rule (by its number, from 1) that is the first rule of no file of the inbox,
    and why: every file it covers an earlier rule reads (the first rule a file matches
    applies), or it covers none (a folder or pattern misspelt, or nothing sent yet)."""
    covered = [False] * len(rules)
    first = [False] * len(rules)
    for path in _entries(inbox):
        if _hidden(path, inbox):
            continue
        relative = path.relative_to(inbox).as_posix()
        found = [number for number, rule in enumerate(rules) if rule.covers(relative)]
        for number in found:
            covered[number] = True
        if found:
            first[found[0]] = True
    return [
        (
            number + 1,
            "an earlier rule reads every file it covers (the first rule a file matches applies)"
            if covered[number]
            else "no file is in that folder"
            if rule.folder is not None
            else "no file's path matches it",
        )
        for number, rule in enumerate(rules)
        if not first[number]
    ]


#: Why a link of the inbox to a file outside it is not read.
_LINK_OUTSIDE = "a link to a file outside the inbox, not followed"
#: The same, of a folder given to ``ingest``.
_LINK_OUTSIDE_FOLDER = "a link to a file outside the folder, not followed (give the file by path)"


def _within(sources: list[Source], folder: Path) -> list[Source]:
    """The sources of a folder whose files lie in it, links followed. A link in a folder to a
    file elsewhere is not followed: whoever may drop files in the folder (a provider's upload
    account) could otherwise have any file the run may read loaded, and its lines kept, and
    shown, as rejected lines. A file named on the command line is read where it points."""
    inside = folder.resolve()
    return [
        source
        for source in sources
        if not any(_outside(path, inside) for path in (source.path, source.companion))
    ]


def _outside(path: Path | None, inside: Path) -> bool:
    """Whether ``path`` (a file of the inbox, links followed) lies outside ``inside``."""
    return path is not None and not path.resolve().is_relative_to(inside)


def unread_files(folder: Path) -> list[UnreadFile]:
    """The files in ``folder`` and below it that :func:`discover_sources` does not read as
    round logs, each with the reason, in path order: other names (``.json``, ``.ndjson``,
    ``Rounds-2026-10.csv``, ...), a name that is not UTF-8, and what is not a regular file (a
    dangling link, a FIFO, a socket, a device, a link to a folder: its files are not read).
    Folders themselves are not listed. (Half a CSV pair is not listed here: an inbox lists
    it, :func:`discover_inbox`, and ``ingest`` of a folder refuses it.)"""
    unread = []
    for path in _entries(folder):
        if _hidden(path, folder):
            continue  # a transfer in progress, an editor's backup: neither read nor named
        problem = _entry_problem(path)
        if problem is not None:
            if not _gone(problem):
                unread.append(UnreadFile(path, problem))
            continue
        found = format_of_file(path)
        if found is None:
            unread.append(UnreadFile(path, f"not a round log name (read: {expected_formats()})"))
        elif found.pairing is not None:
            pairing = found.pairing
            name = path.name.lower()
            if name not in (pairing.main, pairing.companion):
                unread.append(
                    UnreadFile(
                        path,
                        f"a {found.label} file in a folder is read as {pairing.main} with"
                        f" {pairing.companion}; give the two files by path, or rename them",
                    )
                )
    return unread


def unreadable_entries(folder: Path, profile: Profile | None = None) -> list[UnreadFile]:
    """The entries below ``folder`` that no reader can open: a name that is not UTF-8, what is
    not a regular file, a file whose first bytes are not the plain text its name promises, and
    a link of a round log's name (of a name ``profile`` reads, with one) to a file outside the
    folder, not followed (``ingest FOLDER`` warns of them; the files of other names it is not
    asked to read)."""
    inside = folder.resolve()
    found = (
        (path, _entry_problem(path) or _link_out(path, inside, profile))
        for path in _entries(folder)
        if not _hidden(path, folder)
    )
    return [
        UnreadFile(path, problem)
        for path, problem in found
        if problem is not None and not _gone(problem)
    ]


def _link_out(path: Path, inside: Path, profile: Profile | None = None) -> str | None:
    """Why a link of a folder to a file outside it, of a name a reader would read (the spec's,
    or ``profile``), is not read; None for any other entry (a file of another name is not
    asked for)."""
    read = format_of_file(path) if profile is None else profile.reads(path.name)
    if read is None or not _outside(path, inside):
        return None
    return _LINK_OUTSIDE_FOLDER


def not_read_by(folder: Path, profile: Profile) -> list[UnreadFile]:
    """The regular files in ``folder`` and below it whose names ``profile`` does not read,
    each with the names it reads, in path order."""
    return [
        UnreadFile(path, not_read_by_profile(profile))
        for path in _entries(folder)
        if not _hidden(path, folder)
        and _entry_problem(path) is None
        and profile.reads(path.name) is None
    ]


def _entry_problem(path: Path) -> str | None:
    """Why an entry of a folder (:func:`_entries`) cannot be read, or None: its name is not
    text, it is no regular file or cannot be opened, or its first bytes are not the plain text
    its name promises (:func:`~reporting.ingest.formats.content_problem`)."""
    problem = _unusable_name(path)
    if problem is None:
        problem = _not_regular(path)
        if problem is not None and path.is_dir():  # a link to one, or one not listed
            problem = (
                "a link to a folder, not followed"
                if path.is_symlink()
                else "a folder that cannot be listed (no permission): its files are not read"
            )
        elif problem is None and not os.access(path, os.R_OK):
            gone = not os.path.lexists(path)
            problem = _GONE if gone else "a file that cannot be read (no permission)"
        elif problem is None:
            problem = content_problem(path)
    return problem


def unread_inbox_files(inbox: Path, rules: Sequence[InboxProfile] = ()) -> tuple[str, ...]:
    """The inbox's files that are not read as round logs (:func:`discover_inbox`), each as
    ``name (why)``, named relative to the inbox with ``/``. Hidden files (:func:`_hidden`) are
    neither read nor listed; every other file is one or the other, so that nothing in the
    inbox is left out of a month without a word."""
    return unread_names(inbox, discover_inbox(inbox, rules)[1])


def unread_names(inbox: Path, unread: Sequence[UnreadFile]) -> tuple[str, ...]:
    """Files of the inbox left unread (:func:`discover_inbox`) as ``name (why)``, relative to
    the inbox with ``/``, hidden ones left out (see :func:`unread_inbox_files`)."""
    return tuple(  # printable: the names go into the audit's pages and workbook
        f"{printable(item.path.relative_to(inbox).as_posix())} ({item.reason})"
        for item in unread
        if not _hidden(item.path, inbox)
    )


def _hidden(path: Path, inbox: Path) -> bool:
    """A hidden file of the inbox, or of a folder given to ``ingest`` (``.name``, or in a
    hidden folder): a transfer in progress
    (rsync writes ``.name.XXXXXX`` and renames it when whole), an editor's backup. Neither
    read nor named (one was read where its name fitted: a cut upload in ``.upload/`` stopped
    the month, while an editor's ``.x.swp`` beside a read ``.x.jsonl`` was said nowhere)."""
    return any(part.startswith(".") for part in path.relative_to(inbox).parts)


def _entries(folder: Path) -> list[Path]:
    """Every entry below ``folder`` but the folders, in path order; links not followed into
    folders (a link to a folder is listed as the entry it is), and a folder that cannot be
    listed (no permission) listed as the entry it is too. A folder taken away while it was
    walked (an upload client's folder of parts) is not: there is nothing left to read or say
    (a walk that met it stopped the whole run with a FileNotFoundError)."""
    found = []
    unlisted: list[OSError] = []
    for root, folders, files in os.walk(folder, onerror=unlisted.append):
        base = Path(root)
        found.extend(base / name for name in files)
        found.extend(base / name for name in folders if (base / name).is_symlink())
    found.extend(
        Path(error.filename)
        for error in unlisted
        if error.filename and not isinstance(error, FileNotFoundError)
    )
    return sorted(found)


def _files(folder: Path) -> list[Path]:
    """The files below ``folder`` (links to files among them), in path order."""
    return [path for path in _entries(folder) if path.is_file()]


def _sources_in_folder(
    folder: Path,
    skipped: set[Path] | frozenset = frozenset(),
    unpaired: list[UnreadFile] | None = None,
) -> list[Source]:
    """The round logs in a folder and below it, by file name; other files (and those of
    ``skipped``) are left alone. Half of a pair without its other half (``Rounds.csv`` pairs
    with ``Bets.csv`` too) is refused, or added to ``unpaired`` when given (an inbox: its
    other half may be on its way, and the other logs load)."""
    sources: list[Source] = []
    files = _files(folder)
    by_name: dict[tuple[Path, str], list[Path]] = {}  # (folder, name in lower case): files
    for path in files:
        by_name.setdefault((path.parent, path.name.lower()), []).append(path)
    for candidate in files:
        if candidate in skipped or _entry_problem(candidate) is not None:
            continue  # the latter listed by unread_files
        found = format_of_file(candidate)
        if found is None:
            continue
        if found.pairing is None:
            sources.append(Source(candidate, found.name))
            continue
        main, companion = found.pairing.main, found.pairing.companion
        name = candidate.name.lower()
        if name not in (main, companion):
            continue  # listed by unread_files, with how a pair is named
        mains, companions = (
            by_name.get((candidate.parent, half), []) for half in (main, companion)
        )
        problem = _pair_problem(name, (main, mains), (companion, companions))
        others = companions if name == main else mains
        if problem is None:
            problem = _other_half_problem(others)
        if problem is not None:
            if unpaired is None:
                raise InputError(f"{candidate}: {problem}")
            unpaired.append(UnreadFile(candidate, problem))
        elif name == main:
            sources.append(Source(candidate, found.name, companions[0]))
    return sources


def _other_half_problem(others: list[Path]) -> str | None:
    """Why the other half of a pair, found beside a file when its folder was listed, cannot
    be read now, or None (one taken away since has no pair yet)."""
    why = next(filter(None, map(_entry_problem, others)), None)
    if _gone(why):
        return _no_pair_yet(others[0].name)
    return None if why is None else f"its other half, {others[0].name}, cannot be read: {why}"


def _pair_problem(
    name: str, main: tuple[str, list[Path]], companion: tuple[str, list[Path]]
) -> str | None:
    """Why a file named ``name`` (in lower case), one half of a pair named in any case
    (``Rounds.csv`` with ``Bets.csv``), makes no pair in its folder, given the files of each
    half's name there: its other half missing, or either half there twice in different case;
    or None."""
    for half, found in (main, companion):
        if len(found) > 1:
            names = ", ".join(path.name for path in found)
            return f"{len(found)} files named {half} in different case ({names}): rename one"
    other, found = companion if name == main[0] else main
    return None if found else _no_pair_yet(other)


def _no_pair_yet(other: str) -> str:
    return f"no {other} beside it to pair with yet"


def _pair_of(input_format: InputFormat, files: list[Path]) -> Source:
    """The one pair the files of a two-file format given on the command line make, each half
    looked at (the companion found beside a file given alone too)."""
    pair = _paired(input_format, files)
    for half in pair.files:
        problem = content_problem(half)
        if problem is not None:
            raise InputError(f"{half}: {problem}")
    return pair


def _paired(input_format: InputFormat, files: list[Path]) -> Source:
    assert input_format.pairing is not None
    pairing, label = input_format.pairing, input_format.label
    if len(files) == 1:
        single = files[0]
        beside = single.with_name(pairing.companion)
        if single.name.lower() == pairing.main and beside.is_file():
            return Source(single, input_format.name, beside)
        raise InputError(
            f"{single}: a {label} round log is a pair: give {pairing.main} and {pairing.companion}"
        )
    if len(files) != 2:
        raise InputError(
            f"give {label} round logs as pairs: one {pairing.main_word} file and one"
            f" {pairing.companion_word} file"
        )
    first, second = files
    if pairing.companion_word in first.name.lower() and pairing.main_word in second.name.lower():
        first, second = second, first
    return Source(first, input_format.name, second)
