"""The physical lines a CSV file is read by (``BoundedLines``): blank lines where a row would
start are read past a chunk at a time, and every row, line number and cut line is what a
reader taking a line a step makes of the same text."""

from __future__ import annotations

import csv
import io
import random

import pytest

from reporting.ingest import csv_pair
from reporting.ingest.csv_pair import BoundedLines


def _line_a_step(text: str, limit: int) -> list[tuple]:
    """What the csv module makes of ``text`` given a physical line at a time (each cut at
    ``limit`` characters, as ``BoundedLines`` cuts one): the header, then each row that is
    not blank, with its first and last line, or the error of a row it refuses."""
    handle = io.StringIO(text, newline="")

    def cut_lines():
        while line := handle.readline(limit):
            if len(line) == limit and line[-1] not in "\r\n":  # the rest read past
                rest = handle.readline()
                line += "\n" if rest else ""
            yield line

    reader = csv.reader(cut_lines())
    found: list[tuple] = []
    while True:
        first = reader.line_num + 1
        try:
            row = next(reader)
        except StopIteration:
            return found
        except csv.Error as error:
            found.append(("refused", first, reader.line_num, str(error)))
            continue
        if row or first == 1:
            found.append((row, first, reader.line_num))


def _bounded(text: str) -> list[tuple]:
    """The same, through ``BoundedLines`` as the CSV readers drive it."""
    lines = BoundedLines(io.StringIO(text, newline=""))
    reader = csv.reader(iter(lines))
    found: list[tuple] = []
    while True:
        lines.row_start = lines.number + 1
        try:
            row = next(reader)
        except StopIteration:
            return found
        except csv.Error as error:
            found.append(("refused", lines.row_start, lines.number, str(error)))
            continue
        if row or lines.row_start == 1:
            found.append((row, lines.row_start, lines.number))


#: What the texts are made of: cells, quotes, line ends of every kind, blank runs.
_PIECES = ["a", "bc", ",", '"', '""', "\n", "\r", "\r\n", "\n\n\n", "\r\n\r\n", " ", "\x00"]


@pytest.mark.parametrize("chunk", [1, 2, 3, 5, 64])
def test_blank_lines_read_a_chunk_at_a_time_give_the_rows_and_lines_of_a_line_a_step(
    monkeypatch, chunk
):
    """3,000 random texts, read past blank lines in chunks of ``chunk`` characters and cut at
    lines of 7 (so that a chunk or a cut parts a ``\\r\\n``, a quote, a run of blanks)."""
    monkeypatch.setattr(csv_pair, "SKIP_CHUNK_BYTES", chunk)
    monkeypatch.setattr(csv_pair, "MAX_CSV_LINE_CHARS", 7)
    generator = random.Random(chunk)
    for _ in range(3_000):
        text = "".join(generator.choices(_PIECES, k=generator.randrange(1, 40)))
        assert _bounded(text) == _line_a_step(text, 7), repr(text)


def test_a_run_of_blank_lines_is_counted_without_a_row_or_a_line_a_step():
    text = "h\n" + "\n" * 1000 + "\r\n" * 1000 + "\r" * 1000 + "a\n"
    lines = BoundedLines(io.StringIO(text, newline=""))
    given = []
    for line in lines:
        given.append((lines.number, line))
        lines.row_start = lines.number + 1
    assert given == [(1, "h\n"), (3002, "a\n")]
