"""TEMPORARY stand-in (not committed): replaced by the stream helper's module."""

from __future__ import annotations

from typing import NamedTuple

import msgspec


class Element(NamedTuple):
    index: int
    data: bytes


class Unreadable(NamedTuple):
    index: int
    head: bytes
    message: str


def array_elements(handle, path, name):
    document = msgspec.json.Decoder(float_hook=msgspec.Raw).decode(handle.read())
    for key in path:
        document = document[key]
    for index, element in enumerate(document):
        yield Element(index, msgspec.json.encode(element))
