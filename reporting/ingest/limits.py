"""The bounds every reader holds to, in one place, each with the reason for its value.

A round log comes from another system and may be hostile or broken: a gzip bomb, one endless
line, JSON nested thousands deep, a 20 MB field. Past one of these bounds a line (or CSV row)
is that line's reject, never a crash, and the reader's memory stays within a few times the
bound whatever the input. Real logs stay far inside every one of them.
"""

from __future__ import annotations

__all__ = [
    "MAX_AMOUNT_CHARS",
    "MAX_BATCH_BETS",
    "MAX_CSV_COLUMNS",
    "MAX_CSV_FIELD_CHARS",
    "MAX_CSV_LINE_CHARS",
    "GZIP_ALLOWANCE_BYTES",
    "MAX_DEPTH",
    "MAX_GZIP_RATIO",
    "MAX_ID_CHARS",
    "MAX_LEARNT_FIELDS",
    "MAX_LINE_BYTES",
    "MAX_MESSAGE_CHARS",
    "MAX_NAMED_FIELDS",
    "MAX_NUMBER_EXPONENT",
    "MAX_REJECTED_LINES",
    "MAX_ROUNDS_APART",
    "MAX_ROUND_ROWS",
    "MAX_SHOWN_VALUE_CHARS",
    "MAX_TEXT_CHARS",
    "RAW_TEXT_LIMIT",
    "SKIP_CHUNK_BYTES",
    "past_round_bounds",
    "round_past_bound",
]

#: Bytes of one JSON Lines line (its ending included), counted before decoding. A round with
#: 6 bets is about 1.2 KB and each bet adds about 200 bytes: 4 MiB holds a round of some
#: 20,000 bets, beyond the busiest live table; decoding such a line takes some 30 MB, so a
#: line at the bound still fits the reader's memory many times over. The rows of one round
#: in a CSV export (a row a bet, or the bets.csv rows of a pair) are held to as many
#: characters: past it the round is one reject and the rest of its rows are only counted.
MAX_LINE_BYTES = 4 * 1024 * 1024


#: Rows of one round in a CSV export (a row a bet, or the bets.csv rows of a pair), besides
#: their characters (:data:`MAX_LINE_BYTES`): five times the bets of a JSON Lines round at
#: its bound. A row is held as some 400 bytes of objects however short it is, so a round of
#: millions of one-character rows, within the characters' bound, took over a gigabyte; past
#: this many rows the round is one reject, and its rows held cost some 40 MB.
MAX_ROUND_ROWS = 100_000


def past_round_bounds(chars: int, rows: int) -> bool:
    """Whether a round of a CSV export held so far in ``rows`` rows of ``chars`` characters
    passed a bound: :data:`MAX_LINE_BYTES` characters or :data:`MAX_ROUND_ROWS` rows."""
    return chars > MAX_LINE_BYTES or rows > MAX_ROUND_ROWS


def round_past_bound(count: str, lines: str, chars: int) -> str:
    """The reject of a round of a CSV export past a bound (:func:`past_round_bounds`), the
    characters' when its ``chars`` passed it, else the rows': its ``count`` (``"600,000
    rows"``) and the ``lines`` they were on."""
    bound, unit = (
        (MAX_LINE_BYTES, "characters") if chars > MAX_LINE_BYTES else (MAX_ROUND_ROWS, "rows")
    )
    return f"a round of {count} ({lines}) and over {bound:,} {unit}: not read"


#: Characters of one physical line of a CSV file. A rounds row is about 300 characters and a
#: bets row about 150; 1 Mi characters leaves room for any free text, while a line of that
#: many one-character cells still parses into well under 100 MB.
MAX_CSV_LINE_CHARS = 1024 * 1024

#: Characters of one CSV cell (a quoted cell may span lines). The longest real cell is a
#: free-text void reason or an id, a few hundred characters; Python's csv module stops at
#: 131,072 by default and would fail the whole pair, this bound makes it that row's reject.
MAX_CSV_FIELD_CHARS = 64 * 1024

#: Columns of a CSV header. A rounds file has 12 and a bets file 8; an exporter may add its
#: own, but not a thousand: a header past that is not a round log's (and checking each name
#: for a misspelling would cost seconds).
MAX_CSV_COLUMNS = 1_000

#: Nesting of arrays and objects in a JSON line. A round is 3 deep (round, bets, bet); 64
#: leaves room for any structured extra field an exporter adds, and is far below the ~1,000
#: at which the decoders raise RecursionError (which is also caught, as the same reject).
MAX_DEPTH = 64

#: Characters of a money amount before it is converted. The largest amount accepted (see
#: ``reporting.config.values.MAX_CENTS``) has 12 digits, a point and 2 decimals; 32 leaves
#: room for leading zeros and keeps ``int()`` far from its 4,300-digit refusal.
MAX_AMOUNT_CHARS = 32

#: Exponent of a JSON number read as money or as an epoch time (``1e3``, ``1.79e12``). Real
#: exports write none, or a small one; 10**20 is already past any amount (``MAX_CENTS`` is
#: 10**14 cents) and any epoch millisecond of the years handled (about 2.5 * 10**14), and the
#: bound keeps ``10**exponent`` from being computed for ``1e999999999``.
MAX_NUMBER_EXPONENT = 20

#: Characters of a rejected line's text that are kept (the database stores it; the workbook
#: shows it): enough to see what was wrong, bounded for a hostile line of megabytes.
RAW_TEXT_LIMIT = 10_000

#: Characters of an id a round or bet carries (round, table, shoe, bet, account, a bet type
#: the tool does not settle). Real ones are a few dozen (a UUID is 36, a composite id with a
#: date and a table about 40); 256 leaves room for any exporter. Past it the round is that
#: line's reject: an id is printed whole in the audit report, where a word of 200,000
#: characters takes minutes to break across lines.
MAX_ID_CHARS = 256

#: Characters of a round's free text (its void reason): a sentence or two, printed in the void
#: register; 1,000 leaves room for any, and keeps a hostile reason from filling pages.
MAX_TEXT_CHARS = 1_000

#: Characters of a reject message: one line on a terminal and in a workbook cell; a 20 MB
#: field must not make a 20 MB message.
MAX_MESSAGE_CHARS = 500
#: Characters of a value quoted inside a reject message ("field 'x...' is ..."), cut with an
#: ellipsis past them.
MAX_SHOWN_VALUE_CHARS = 60

#: Decompressed bytes a gzipped file may give per compressed byte, once it has given
#: :data:`GZIP_ALLOWANCE_BYTES`. Round logs compress 8-9 times (the sample's, the benchmark's),
#: a pretty-printed export some 20 times; a gzip of newlines or zeros, a thousand times, and
#: read through it takes time in proportion (flat memory). Past both bounds the file is
#: refused whole; a smaller bomb is read through as any file (its lines rejected one by one).
MAX_GZIP_RATIO = 100
#: Decompressed bytes any gzipped file may give, however well it compresses: only past them is
#: a file held to :data:`MAX_GZIP_RATIO`, so a log of any size up to them loads whatever its
#: ratio, and a bomb is refused once it has given them at more than that ratio.
GZIP_ALLOWANCE_BYTES = 1 << 30

#: Bytes read at a time while streaming past the rest of an over-long line: large enough to
#: cost little per byte, small enough to hold in memory any number of times.
SKIP_CHUNK_BYTES = 1024 * 1024

#: Bets a batch of rounds may hold before it is handed on early. A batch normally holds a
#: fixed number of rounds (the store's ``BATCH_ROUNDS``) of about 6 bets each; rounds of
#: thousands of bets each would otherwise make a batch of millions of records.
MAX_BATCH_BETS = 200_000

#: Rejected lines after which a file that holds fewer rounds than rejects is refused whole: a
#: gzip of a gigabyte of "x" lines would otherwise be hours of rejects written to the
#: database. A real log with a broken exporter shows its problem in its first thousand lines;
#: a million leaves room for a real month with many bad lines, as long as most lines load.
MAX_REJECTED_LINES = 1_000_000

#: Rounds of a CSV export with their rows apart (a round's rows, then another round's, then
#: the first's again: neither part loads) past which the file is refused whole, as not grouped
#: by round: its rejects would be most of its rounds, each in parts. A provider's glitch
#: splits a few; an export sorted by another column splits nearly all.
MAX_ROUNDS_APART = 1_000

#: Round fields of an exporter's own (``"dealer"``, ``"provider"``) a JSON Lines reader learns
#: per file, so that lines holding them stay on the fast check for repeated keys; a real
#: exporter adds a handful. Past the bound, lines with further fields take the slower check.
MAX_LEARNT_FIELDS = 16

#: Fields of a file the tool does not read (an exporter's own), named per file in the ingest
#: log and the audit; past these, how many more (a real exporter adds a handful; a hostile
#: file's thousand names would fill the audit's page). A name is kept to its first 64
#: characters.
MAX_NAMED_FIELDS = 20
