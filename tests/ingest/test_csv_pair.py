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
    """What the csv module makes of ``text`` given a physical line at a time (a line whose
    text, without its line end, is ``limit`` characters or more cut to ``limit``, as
    ``BoundedLines`` cuts one): the header, then each row that is not blank, with its first
    and last line, or the error of a row it refuses."""
    handle = io.StringIO(text, newline="")

    def cut_lines():
        while line := handle.readline():  # a whole line, its ending read as universal newlines
            content = line.rstrip("\r\n")
            ended = len(line) > len(content)
            if len(content) > limit or (len(content) == limit and ended):
                line = content[:limit] + "\n"
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


@pytest.mark.parametrize("run", [1, 2, 64])
@pytest.mark.parametrize("chunk", [1, 2, 3, 5, 64])
def test_blank_lines_read_a_chunk_at_a_time_give_the_rows_and_lines_of_a_line_a_step(
    monkeypatch, chunk, run
):
    """3,000 random texts, read past runs of ``run`` blank lines or more in chunks of
    ``chunk`` characters and cut at lines of 7 (so that a chunk or a cut parts a ``\\r\\n``,
    a quote, a run of blanks)."""
    monkeypatch.setattr(csv_pair, "SKIP_CHUNK_BYTES", chunk)
    monkeypatch.setattr(csv_pair, "MAX_CSV_LINE_CHARS", 7)
    monkeypatch.setattr(csv_pair, "_BLANK_RUN", run)
    generator = random.Random(chunk * 100 + run)
    for _ in range(3_000):
        text = "".join(generator.choices(_PIECES, k=generator.randrange(1, 40)))
        assert _bounded(text) == _line_a_step(text, 7), repr(text)


def test_a_run_of_blank_lines_is_counted_without_a_row_or_a_line_a_step(monkeypatch):
    monkeypatch.setattr(csv_pair, "_BLANK_RUN", 1)
    text = "h\n" + "\n" * 1000 + "\r\n" * 1000 + "\r" * 1000 + "a\n"
    lines = BoundedLines(io.StringIO(text, newline=""))
    given = []
    for line in lines:
        given.append((lines.number, line))
        lines.row_start = lines.number + 1
    assert given == [(1, "h\n"), (3002, "a\n")]


def test_one_blank_line_between_rows_costs_no_more_than_a_line():
    """Lines ended by ``\\r\\r\\n`` (a writer's text mode on Windows) hold a blank line after
    every row: read past a chunk at a time each, 12 MiB of them took three times as long as
    read a line at a time; the run's chunk reading waits for a run of them."""
    text = "h,a\r\r\n" + "".join(f"R-{n},x\r\r\n" for n in range(200_000))
    lines = BoundedLines(io.StringIO(text, newline=""))
    reader = csv.reader(iter(lines))
    reads = []
    original = lines._skip_blank_lines
    lines._skip_blank_lines = lambda last: reads.append(last) or original(last)
    rows = 0
    for _ in reader:
        rows += 1
        lines.row_start = lines.number + 1
    assert rows == 200_001 and lines.number == 400_002  # the header and every row
    assert reads == []
