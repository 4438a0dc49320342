"""The JSON array splitter: elements exactly as written, hostile documents refused in one
line with the byte offset, over-long or too deep elements streamed past, memory flat."""

from __future__ import annotations

import gzip
import io
import json
import tracemalloc
from pathlib import Path

import pytest
from helpers import interpreters, run_under
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reporting.errors import InputError
from reporting.ingest.limits import MAX_DEPTH, MAX_LINE_BYTES, RAW_TEXT_LIMIT
from reporting.ingest.profiles import json_stream
from reporting.ingest.profiles.json_stream import Element, Unreadable, array_elements

MiB = 1024 * 1024


def split(document: bytes, path: tuple[str, ...] = ()) -> list[Element | Unreadable]:
    return list(array_elements(io.BytesIO(document), path, "games.json"))


def datas(document: bytes, path: tuple[str, ...] = ()) -> list[bytes]:
    items = split(document, path)
    assert [item.index for item in items] == list(range(len(items)))
    return [item.data for item in items if isinstance(item, Element)]


def refused(document: bytes, path: tuple[str, ...] = ()) -> str:
    with pytest.raises(InputError) as caught:
        split(document, path)
    message = str(caught.value)
    assert message.startswith("games.json: byte ") and "\n" not in message
    return message


@pytest.fixture
def small_reads(monkeypatch):
    """Reads of a few bytes: every element, string and separator crosses buffer ends."""

    def use(size: int) -> None:
        monkeypatch.setattr(json_stream, "_READ_BYTES", size)

    return use


# --- what the caller reads ------------------------------------------------------------------


def test_the_document_is_the_array_and_elements_keep_their_bytes():
    document = b'[{"a": 1},\n  {"b" : [1, 2, {"c": "x"}]}, 7, "s", null]'
    assert datas(document) == [b'{"a": 1}', b'{"b" : [1, 2, {"c": "x"}]}', b"7", b'"s"', b"null"]


def test_brackets_and_escaped_quotes_inside_strings_are_text():
    document = b'[{"a": "a]b\\"}{"}, {"b": "\\\\"}, "]", "\\"]"]'
    assert datas(document) == [b'{"a": "a]b\\"}{"}', b'{"b": "\\\\"}', b'"]"', b'"\\"]"']


def test_the_array_under_a_path_other_keys_skipped_before_and_after():
    document = (
        b'{"page": 1, "meta": {"data": [9], "s": "\\"data\\": ["},'
        b' "data": [{"id": 1}, {"id": 2}], "count": 2, "tail": [[{}]]}'
    )
    assert datas(document, ("data",)) == [b'{"id": 1}', b'{"id": 2}']


def test_a_value_nested_ten_thousand_deep_before_the_array_is_skipped():
    junk = b"[" * 10_000 + b'"]"' + b"]" * 10_000
    assert datas(b'{"junk": ' + junk + b', "data": [1]}', ("data",)) == [b"1"]


#: Documents whose values nest past the scan's one-step depth, split: what a test below asks
#: of every interpreter the tool may run under.
NESTED_SPLIT = """\
import io
import sys

from reporting.ingest.profiles.json_stream import _READ_BYTES, array_elements

for depth in (9, 20, 100, 10_000):
    junk = b"[" * depth + b'"]"' + b"]" * depth
    document = b'{"junk": ' + junk + b', "data": [1, {"a": [[[[[[[[[[2]]]]]]]]]]}]}'
    elements = array_elements(io.BytesIO(document), ("data",), "games.json")
    print(depth, *(element.data.decode() for element in elements))
for shift in range(-3, 4):  # an escaped quote at the end of a read, or about it
    document = b'[{"a": "' + b"x" * (_READ_BYTES - 10 + shift) + b'\\\\"y"}, {"b": 1}]'
    elements = array_elements(io.BytesIO(document), (), "games.json")
    print(shift, *(element.data[-8:].decode() for element in elements))
"""


@pytest.mark.parametrize("python", interpreters())
def test_values_nested_past_the_scan_s_step_split_alike_under_every_python(python, tmp_path):
    """Python 3.11.2 (Debian 12's) repeated a group possessively wrongly (CPython gh-106052):
    the scan stepped a bracket too far into a value nested past eight levels, and refused a
    provider's document ("']]]]' where ',' or '}' is expected") that later releases read; a
    string's escaped quote read as its end where the backslash ended a read (3 in 7 places)."""
    script = tmp_path / "nested.py"
    script.write_text(NESTED_SPLIT, encoding="utf-8")
    run = run_under(python, script, timeout=60)
    elements = '1 {"a": [[[[[[[[[[2]]]]]]]]]]}'
    nested = [f"{depth} {elements}" for depth in (9, 20, 100, 10000)]
    escaped = [f'{shift} xxx\\"y"}} {{"b": 1}}' for shift in range(-3, 4)]
    assert run.stdout.splitlines() == nested + escaped, run.stderr


def test_a_path_of_two_keys():
    document = b'{"status": "ok", "result": {"games": [1, 2], "n": 2}}'
    assert datas(document, ("result", "games")) == [b"1", b"2"]


def test_a_key_written_with_escapes_is_the_key():
    assert datas(b'{"d\\u0061ta": [3]}', ("data",)) == [b"3"]


def test_empty_array():
    assert split(b"[]") == []
    assert split(b' { "data" : [ ] } ', ("data",)) == []


def test_an_element_whole_but_not_json_inside_is_yielded_for_the_decoder():
    document = b'[{"a": tru}, {"a":1,,}, [1}, {"ok": 1}]'
    assert datas(document) == [b'{"a": tru}', b'{"a":1,,}', b"[1}", b'{"ok": 1}']


def test_byte_order_mark_crlf_tabs_and_many_elements_a_line():
    document = b'\xef\xbb\xbf[\r\n\t{"a": 1}, {"a": 2},\r\n\t{\r\n\t\t"a": 3\r\n\t}\r\n]\r\n'
    assert datas(document) == [b'{"a": 1}', b'{"a": 2}', b'{\r\n\t\t"a": 3\r\n\t}']


def test_a_gzip_stream(tmp_path: Path):
    path = tmp_path / "games.json.gz"
    games = [{"gameUid": f"G-{n}", "bets": [{"betAmount": n}]} for n in range(3000)]
    path.write_bytes(gzip.compress(json.dumps({"data": games}).encode()))
    with gzip.GzipFile(path, "rb") as handle:
        items = list(array_elements(handle, ("data",), path.name))
    assert [json.loads(item.data) for item in items] == games


def test_a_broken_gzip_stream_is_an_input_error(tmp_path: Path):
    packed = gzip.compress(json.dumps([{"a": "x" * 100} for _ in range(20_000)]).encode())
    handle = gzip.GzipFile(fileobj=io.BytesIO(packed[: len(packed) // 2]))
    with handle, pytest.raises(InputError, match="cannot be read to the end"):
        list(array_elements(handle, (), "games.json.gz"))


# --- a large array: split fast, exactly, whatever the form ----------------------------------


def _games(count: int) -> list[dict]:
    return [
        {
            "gameUid": f"LB-{number:06d}",
            "gameplay": {".BaccaratGameplay": {"playerHand": {"cards": {"0": "S_Q"}}}},
            "playersBets": [{"playerId": "acc-1", "bets": [{"betAmount": 2}, {"x": "},{"}]}],
        }
        for number in range(count)
    ]


@pytest.mark.parametrize("indent", [None, 2, "\t"])
def test_many_elements_are_split_in_few_scans(indent, monkeypatch):
    """The learnt boundary splits nearly all elements in C: the one-at-a-time scan runs for
    a handful (the first two, a buffer's end), not per element."""
    games = _games(5000)
    document = json.dumps(games, indent=indent).encode()
    scans = 0
    scan = json_stream._Reader.value

    def counted(self, keep):
        nonlocal scans
        scans += keep
        return scan(self, keep)

    monkeypatch.setattr(json_stream._Reader, "value", counted)
    assert [json.loads(data) for data in datas(document)] == games
    assert scans < 50


def test_broken_elements_amid_many_are_yielded_in_place():
    elements = [json.dumps(game).encode() for game in _games(3000)]
    for broken in (1, 1000, 1001, 2999):
        elements[broken] = b'{"gameUid": tru, "playersBets": [}'[:-1] + b"]}"
    document = b"[" + b", ".join(elements) + b"]"
    assert datas(document) == elements


def test_elements_that_change_form_and_nest_their_own_first_key():
    """The learnt boundary also occurs inside elements (a child starting with the same key)
    and stops occurring when the form changes: the split is still exact."""
    nesting = [{"id": n, "children": [{"id": n, "x": "}, {"}, {"id": -n}]} for n in range(3000)]
    others = [{"other": n, "pad": "p" * (n % 50)} for n in range(3000)]
    document = (
        b"["
        + b", ".join(json.dumps(element).encode() for element in nesting + others)
        + b","
        + json.dumps(nesting[:500], indent=3).encode()[1:]
    )
    assert [json.loads(data) for data in datas(document)] == nesting + others + nesting[:500]


@pytest.mark.parametrize("read_bytes", [1, 7, 100, 4096])
def test_small_reads_give_the_same_elements(read_bytes, small_reads):
    small_reads(read_bytes)
    games = _games(200)
    document = (
        b'\xef\xbb\xbf{"x": "\\\\\\"]", "data": ' + json.dumps(games, indent=1).encode() + b"}"
    )
    assert [json.loads(data) for data in datas(document, ("data",))] == games


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.text(alphabet=st.sampled_from('ab"\\[]{},: \n\té€')),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(alphabet='k]}"\\', max_size=3), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    elements=st.lists(_JSON, max_size=12),
    indent=st.sampled_from([None, 0, 2]),
    read_bytes=st.sampled_from([1, 3, 16, 1024]),
    wrapped=st.booleans(),
)
def test_any_array_any_form_any_buffer_size(elements, indent, read_bytes, wrapped, small_reads):
    """Property: the elements yielded decode to the array's elements, in order, each
    without surrounding whitespace, whatever the spacing and wherever buffers end."""
    small_reads(read_bytes)
    document = {"before": elements, "data": elements, "after": "]"} if wrapped else elements
    text = json.dumps(document, indent=indent, ensure_ascii=False).encode()
    found = datas(text, ("data",) if wrapped else ())
    assert [json.loads(data) for data in found] == elements
    assert all(data == data.strip() for data in found)


# --- what makes the document unusable -------------------------------------------------------


@pytest.mark.parametrize(
    ("document", "path", "said"),
    [
        (b"", (), "byte 0: empty, not a JSON document"),
        (b" \r\n ", (), "empty, not a JSON document"),
        (b"{}", ("data",), "byte 0: the object has no key 'data'"),
        (b'{"data": 5}', ("data",), "byte 9: the value at data is a number, not an array"),
        (b'{"data": {}}', ("data",), "is an object, not an array"),
        (b'{"data": [1, 2]', ("data",), "byte 0: an object opened here is never closed"),
        (b'[{"a": "unterminated', (), "byte 7: a string opened here is never closed"),
        (b'[{"a": [1, 2}', (), "byte 1: an array or object opened here is never closed"),
        (b"[1, 2", (), "byte 0: the array opened here is never closed"),
        (b"[1] x", (), "byte 4: 'x' after the end of the JSON document"),
        (b"[1] [2]", (), "byte 4: '[2]' after the end"),
        (b"[,]", (), "byte 1: a comma where element #0 is expected"),
        (b"[1,]", (), "byte 2: a comma after the last element"),
        (b"[1,,2]", (), "byte 3: a comma where element #1 is expected"),
        (b'[{"a":1} {"b":2}]', (), "where ',' or ']' after element #0 is expected"),
        (b"[1:2]", (), "where ',' or ']' after element #0 is expected"),
        (b"x", (), "byte 0: the value of the document is 'x', not an array"),
        (b"x", ("data",), "byte 0: 'x' where an object holding the key 'data' is looked for"),
        (b"[1]", ("data",), "an array where an object holding the key 'data'"),
        (b'{"data": [1], "data": [2]}', ("data",), "byte 14: the key 'data' appears twice"),
        (b'{"data": [1], }', ("data",), "byte 12: a comma after the last key"),
        (b'{"data" [1]}', ("data",), "'[1]}' where ':' after a key is expected"),
        (b'{"a": 1 "data": [1]}', ("data",), "where ',' or '}' is expected"),
        (b'{"a": , "data": [1]}', ("data",), "',' where a value is expected"),
        (b"{1: 2}", ("data",), "'1:' where a key is expected"),
        (b"[" * 10_000, (), "byte 1: an array or object opened here is never closed"),
    ],
)
def test_an_unusable_document_is_one_input_error(document, path, said):
    assert said in refused(document, path)


def test_elements_before_the_problem_were_yielded_and_then_it_raises():
    """The caller's transaction per file drops what came before: the generator still
    hands the elements over as it reads them, and raises where the document breaks."""
    reader = array_elements(io.BytesIO(b'{"data": [1, 2], "data": []}'), ("data",), "g.json")
    assert [next(reader).data, next(reader).data] == [b"1", b"2"]
    with pytest.raises(InputError, match="appears twice"):
        next(reader)


# --- elements streamed past -----------------------------------------------------------------


def test_an_element_one_byte_too_long_is_unreadable_and_the_next_one_reads():
    long = b'"' + b"a" * (MAX_LINE_BYTES - 1) + b'"'  # MAX_LINE_BYTES + 1 bytes
    items = split(b"[" + long + b', {"ok": 1}]')
    assert isinstance(items[0], Unreadable) and items[0].index == 0
    assert items[0].head == long[: 4 * RAW_TEXT_LIMIT]
    assert items[0].message == (
        "element of 4,194,305 bytes, longer than any round (4,194,304 bytes at most);"
        " it was not read"
    )
    assert items[1] == Element(1, b'{"ok": 1}')


def test_an_element_of_exactly_the_bound_is_read():
    exact = b'["' + b"a" * (MAX_LINE_BYTES - 4) + b'"]'  # MAX_LINE_BYTES bytes
    assert datas(b"[" + exact + b"]") == [exact]


def test_a_long_element_amid_many_keeps_its_index():
    small = [json.dumps(game).encode() for game in _games(300)]
    long = b'{"gameUid": "big", "x": [' + b"1," * (MAX_LINE_BYTES // 2) + b"1]}"
    items = split(b"[" + b",".join([*small, long, *small]) + b"]")
    assert len(items) == 601 and isinstance(items[300], Unreadable)
    assert [item.data for item in items[:300] + items[301:]] == small + small


def nested(depth: int) -> bytes:
    return b'{"a": ' * (depth - 1) + b"[]" + b"}" * (depth - 1)


def test_nesting_to_the_bound_is_read_beyond_it_is_unreadable():
    many = [json.dumps(game).encode() for game in _games(100)]
    for where in (0, 1, 50, 100):  # scanned one at a time, and split by the learnt boundary
        elements = [*many]
        elements.insert(where, nested(MAX_DEPTH + 1))
        elements.insert(where, nested(MAX_DEPTH))
        items = split(b"[" + b", ".join(elements) + b"]")
        assert items[where] == Element(where, nested(MAX_DEPTH))
        assert isinstance(items[where + 1], Unreadable)
        assert items[where + 1].message.startswith(
            f"arrays and objects nested more than {MAX_DEPTH}"
        )
        assert [item.data for item in items if isinstance(item, Element)] == [
            element for element in elements if element != nested(MAX_DEPTH + 1)
        ]


def test_ten_thousand_deep_with_brackets_in_its_strings():
    deep = b"[" * 10_000 + b'"]]]"' + b"]" * 10_000
    items = split(b"[" + deep + b", 1]")
    assert isinstance(items[0], Unreadable) and items[0].head == deep[: 4 * RAW_TEXT_LIMIT]
    assert items[1] == Element(1, b"1")


# --- memory stays flat ----------------------------------------------------------------------


def peak_of(path: Path, keys: tuple[str, ...]) -> tuple[int, list[tuple[int, str]], int]:
    """How many items were read, which were not elements (and the last item), and the peak
    of traced memory while reading (nothing of the items is kept)."""
    count, notable, item = 0, [], None
    tracemalloc.start()
    try:
        with path.open("rb") as handle:
            for item in array_elements(handle, keys, "f"):
                count += 1
                if isinstance(item, Unreadable):
                    notable.append((item.index, "Unreadable"))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    if item is not None:
        notable.append((item.index, type(item).__name__))
    return count, notable, peak


def write(path: Path, *pieces: bytes | tuple[bytes, int]) -> Path:
    """A file of the pieces, a (bytes, times) piece written that many times over."""
    with path.open("wb") as out:
        for piece in pieces:
            if isinstance(piece, tuple):
                for _ in range(piece[1]):
                    out.write(piece[0])
            else:
                out.write(piece)
    return path


def test_a_large_document_is_read_in_flat_memory(tmp_path: Path):
    element = json.dumps({**_games(1)[0], "referenceCode": "r" * 1200}).encode()  # 1.5 KB
    batch = b"".join(element + b",\n" for _ in range(1000))
    count = 50 * MiB // len(batch)
    path = write(tmp_path / "big.json", b'{"data": [', (batch, count), element, b"]}")
    read, notable, peak = peak_of(path, ("data",))
    assert read == count * 1000 + 1 and notable == [(count * 1000, "Element")]
    assert peak < 8 * MiB


def test_an_endless_string_is_streamed_past_in_flat_memory(tmp_path: Path):
    path = write(tmp_path / "s.json", b'[{"a": "', (b"x" * MiB, 30), b'"}, {"ok": 1}]')
    read, notable, peak = peak_of(path, ())
    assert read == 2 and notable == [(0, "Unreadable"), (1, "Element")]
    assert peak < 3 * MAX_LINE_BYTES


def test_a_deep_element_is_counted_over_in_flat_memory(tmp_path: Path):
    path = write(tmp_path / "d.json", b"[", (b"[{" * 1000, 3000), (b"}]" * 1000, 3000), b",1]")
    read, notable, peak = peak_of(path, ())
    assert read == 2 and notable == [(0, "Unreadable"), (1, "Element")]
    assert peak < 3 * MAX_LINE_BYTES


def test_brackets_nested_63_deep_and_back_are_counted_not_stepped_one_at_a_time(
    tmp_path: Path, monkeypatch
):
    """Nesting within the bound, deeper than one step of the scan takes in, was followed a
    bracket at a time: an element of brackets 63 deep and back, over and over, took a second a
    megabyte (a 340 KB gzip, 100 MB of it, 79 s before its reject). Past _SCANNED_STEPS such
    steps the rest of the value is counted over, as a value nested too deep is: the same
    elements, as fast as counting."""
    counted = []
    count_over = json_stream._Reader.count_over

    def spy(reader, depth, deepest, start):
        counted.append((depth, deepest))
        return count_over(reader, depth, deepest, start)

    monkeypatch.setattr(json_stream._Reader, "count_over", spy)
    wave = b"[" * 63 + b"]" * 63
    path = write(tmp_path / "w.json", b"[[", (wave, 20_000), b"], [", wave * 3, b"], [", b"[" * 65, b"]" * 65, b"]]")  # fmt: skip
    with path.open("rb") as handle:
        items = list(array_elements(handle, (), "f"))
    assert [type(item).__name__ for item in items] == ["Element", "Element", "Unreadable"]
    assert items[0].data == b"[" + wave * 20_000 + b"]"  # within the bounds: read whole
    assert items[1].data == b"[" + wave * 3 + b"]"
    assert "nested more than 64 deep" in items[2].message
    # The first element counted over once its scan took too many steps, within the bound; the
    # third once too deep; the second (three waves) scanned whole.
    (many, deep) = counted
    assert many[1] <= MAX_DEPTH and deep == (MAX_DEPTH + 1, MAX_DEPTH + 1)


def test_a_ten_megabyte_value_before_the_array_is_skipped_in_flat_memory(tmp_path: Path):
    path = write(
        tmp_path / "k.json",
        b'{"note": "',
        (b"n" * MiB, 10),
        b'", "list": [',
        (b'{"x": [1, "]"]},' * 10_000, 60),
        b'1], "data": [1, 2]}',
    )
    read, notable, peak = peak_of(path, ("data",))
    assert read == 2 and notable == [(1, "Element")]
    assert peak < 4 * MiB
