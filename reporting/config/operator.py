"""``[operator]`` of an operator configuration: who publishes the pages and how they look.

The operator's name, its licence or concession number in each jurisdiction, an optional logo
(read here, once: a PNG, JPEG or SVG file told by its bytes, at most :data:`MAX_LOGO_BYTES`),
an optional accent colour (refused when text in it would be hard to read on white) and an
optional folder of templates that replace the built-in ones by name. Paths are relative to
the configuration file. Every problem is noted at the key's line, like any other key's.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from reporting.config.keys import OPERATOR_KEYS
from reporting.config.values import MISSING, Problems, Table
from reporting.errors import NotARegularFile
from reporting.files import open_regular

__all__ = [
    "DEFAULT_OPERATOR_NAME",
    "MAX_LOGO_BYTES",
    "MAX_LOGO_PIXELS",
    "MIN_ACCENT_CONTRAST",
    "Logo",
    "Operator",
    "contrast_on_white",
    "logo_media_type",
    "read_operator",
]

#: The name on the pages of a configuration that gives none.
DEFAULT_OPERATOR_NAME = "Operator"
#: A logo larger than this is not a masthead's logo (the sample's is under 1 KiB).
MAX_LOGO_BYTES = 512 * 1024
#: A raster logo of more pixels than this is refused: Pillow (which WeasyPrint draws PNG and
#: JPEG with) refuses images of over 178 million pixels as decompression bombs, leaving the
#: page without its logo; a masthead's logo needs far fewer.
MAX_LOGO_PIXELS = 4096 * 4096
#: WCAG 2 level AA for normal text: the accent colours text (labels, links), so it must reach
#: this contrast against the white page.
MIN_ACCENT_CONTRAST = 4.5

#: The most elements an SVG logo draws, each ``<use>`` counted as what it refers to: ten
#: ``<use>`` a level, six levels deep, is a file of 2 KiB that draws a million rectangles
#: (minutes and gigabytes for each page printed). The sample's logo draws 6.
MAX_LOGO_ELEMENTS = 10_000
#: The deepest an SVG logo nests its elements: the printer draws an SVG by recursion and leaves
#: out, without a word, one nested some hundreds deep (a real logo nests a few).
MAX_LOGO_DEPTH = 100

_SVG_NAMESPACE = "http://www.w3.org/2000/svg"
_XLINK_NAMESPACE = "http://www.w3.org/1999/xlink"
# What may come before an SVG's root element: an XML declaration, comments, a DOCTYPE (one
# with an internal subset is an SVG, refused for its entities by _svg_problem).
_SVG_PROLOGUE = re.compile(
    r"\s*(?:<\?xml[^>]*\?>\s*)?(?:(?:<!--.*?-->|<!DOCTYPE[^>\[]*(?:\[.*?\])?\s*>)\s*)*<svg[\s>/]",
    re.DOTALL,
)


@dataclass(frozen=True)
class Logo:
    """The operator's logo as read from its file: bytes and the media type they are."""

    media_type: str  # image/png, image/jpeg or image/svg+xml
    data: bytes = field(repr=False)
    path: Path


@dataclass(frozen=True)
class Operator:
    """Who publishes the pages (``[operator]``): name, licences, logo, accent, templates."""

    name: str = DEFAULT_OPERATOR_NAME
    #: Licence or concession number by jurisdiction (ISO 3166 code: IT, DK, GR).
    licences: Mapping[str, str] = field(default_factory=dict)
    logo: Logo | None = None
    accent_colour: str | None = None  # "#rrggbb", lower case
    templates: Path | None = None  # a folder whose files replace the built-in templates

    def licence(self, jurisdiction: str) -> str | None:
        """The operator's licence number in a jurisdiction, None if the file gives none."""
        return self.licences.get(jurisdiction)


def read_operator(section: Any, source: Path | None, problems: Problems) -> Operator:
    """``[operator]`` checked (every problem noted in ``problems``); paths are resolved
    against the folder of ``source``, the configuration file."""
    checked = Table(OPERATOR_KEYS).check(section, ("operator",), problems)
    if checked is MISSING:
        checked = {}  # the problems are noted; what follows checks nothing twice
    folder = source.resolve().parent if source is not None else Path.cwd()
    logo = None
    if checked.get("logo") is not None:
        logo = _read_logo(folder / checked["logo"], ("operator", "logo"), problems)
    accent = checked.get("accent_colour")
    if accent is not None:
        accent = _checked_accent(accent.lower(), ("operator", "accent_colour"), problems)
    templates = None
    if checked.get("templates") is not None:
        templates = _templates_folder(folder / checked["templates"], problems)
    return Operator(
        name=checked.get("name", DEFAULT_OPERATOR_NAME),
        licences=dict(checked.get("licences", {})),
        logo=logo,
        accent_colour=accent,
        templates=templates,
    )


# --- the logo ----------------------------------------------------------------------------------


def logo_media_type(data: bytes) -> str | None:
    """The media type of an image told by its first bytes (PNG, JPEG or SVG), else None.

    >>> logo_media_type(b"\\x89PNG\\r\\n\\x1a\\n\\x00\\x00\\x00\\rIHDR"), logo_media_type(b"GIF89a")
    ('image/png', None)
    >>> logo_media_type(b'<?xml version="1.0"?>\\n<svg xmlns="http://www.w3.org/2000/svg"/>')
    'image/svg+xml'
    """
    if data.startswith(b"\x89PNG\r\n\x1a\n") and data[12:16] == b"IHDR":
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    try:
        text = data.removeprefix(codecs.BOM_UTF8)[:4096].decode("utf-8", errors="strict")
    except UnicodeDecodeError as error:
        if error.start < 4090:  # not a character cut by the 4 KiB slice
            return None
        text = data.removeprefix(codecs.BOM_UTF8)[: error.start].decode("utf-8")
    return "image/svg+xml" if _SVG_PROLOGUE.match(text) else None


def _read_logo(path: Path, key: tuple[str, ...], problems: Problems) -> Logo | None:
    """The logo file read once, bounded, and told by its bytes (None with the problem noted)."""
    try:
        if not path.exists():
            problems.add(key, f"{path}: file not found (a logo is relative to this file)")
            return None
        if not path.is_file():
            problems.add(key, f"{path}: not a regular file")
            return None
        with open_regular(path) as handle:  # not a kernel's file either: /proc/kmsg waits
            data = handle.read(MAX_LOGO_BYTES + 1)
    except NotARegularFile as error:
        problems.add(key, str(error))
        return None
    except OSError as error:
        problems.add(key, f"{path}: cannot be read: {error.strerror or error}")
        return None
    if len(data) > MAX_LOGO_BYTES:
        problems.add(key, f"{path}: larger than {MAX_LOGO_BYTES // 1024} KiB: not a page's logo")
        return None
    media_type = logo_media_type(data)
    if media_type is None:
        problems.add(key, f"{path}: not a PNG, JPEG or SVG image (told by its bytes)")
        return None
    reason = _svg_problem(data) if media_type == "image/svg+xml" else _raster_problem(data)
    if reason is not None:
        problems.add(key, f"{path}: {reason}")
        return None
    return Logo(media_type=media_type, data=data, path=path)


def _raster_problem(data: bytes) -> str | None:
    """Why a PNG or JPEG file cannot be a logo (None: it can): it must decode whole (stricter
    than the pages' printer, which leaves off a file it cannot decode without a word and
    draws a cut one with its missing rows grey) and be of at most :data:`MAX_LOGO_PIXELS`
    pixels."""
    import io
    import warnings

    from PIL import Image, ImageFile  # WeasyPrint's, imported only for a raster logo

    # WeasyPrint's import lets Pillow draw a truncated file (its missing rows grey): a logo
    # cut short is refused here whether WeasyPrint was imported first or not.
    truncated, ImageFile.LOAD_TRUNCATED_IMAGES = ImageFile.LOAD_TRUNCATED_IMAGES, False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as image:
                width, height = image.size
                if width * height > MAX_LOGO_PIXELS:
                    return (
                        f"an image of {width:,} x {height:,} pixels: a logo has at most"
                        f" {MAX_LOGO_PIXELS:,}"
                    )
                image.load()
    except Image.DecompressionBombError:
        return f"an image of over {MAX_LOGO_PIXELS:,} pixels: not a logo"
    except Image.UnidentifiedImageError:
        return "the image cannot be decoded (its header is not one of a PNG or JPEG image)"
    except (OSError, SyntaxError, ValueError) as error:
        return f"the image cannot be decoded ({' '.join(str(error).split())[:200]})"
    finally:
        ImageFile.LOAD_TRUNCATED_IMAGES = truncated
    return None


def _svg_problem(data: bytes) -> str | None:
    """Why an SVG file cannot be a logo (None: it can). It is only ever shown through
    ``<img>`` (no script runs, nothing is fetched), but it must parse, declare no entities
    (an entity can expand to gigabytes) and be in the SVG namespace (a browser draws nothing
    otherwise)."""
    text = data.removeprefix(codecs.BOM_UTF8)
    if b"<!ENTITY" in text or re.search(rb"<!DOCTYPE[^>]*\[", text):
        return "an SVG that declares entities is refused (it could expand without bound)"
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as error:
        return f"not well-formed SVG (line {error.position[0]} of the image: {error.msg})"
    except ValueError as error:  # a declared encoding Python does not know
        return f"not well-formed SVG ({error})"
    if root.tag != f"{{{_SVG_NAMESPACE}}}svg":
        return f'an SVG logo needs xmlns="{_SVG_NAMESPACE}" on its <svg> (browsers draw nothing)'
    return _drawing_problem(root)


def _drawing_problem(root: ElementTree.Element) -> str | None:
    """Why an SVG would cost a page without bound (None: it would not): more than
    :data:`MAX_LOGO_ELEMENTS` drawn, or nested deeper than :data:`MAX_LOGO_DEPTH`, each
    ``<use>`` counted as the element it draws (and one that draws an element holding it
    refused). Walked without recursion: a file may nest elements thousands deep."""
    use = f"{{{_SVG_NAMESPACE}}}use"
    by_id = {element.get("id"): element for element in root.iter() if element.get("id")}

    def drawn_by(element: ElementTree.Element) -> list[ElementTree.Element]:
        parts = list(element)
        reference = element.get("href") or element.get(f"{{{_XLINK_NAMESPACE}}}href") or ""
        if element.tag == use and reference.startswith("#") and reference[1:] in by_id:
            parts.append(by_id[reference[1:]])
        return parts

    # Each element walked once: what it draws (itself included) and how deep (its height).
    drawn: dict[int, tuple[int, int]] = {}
    open_ = {id(root)}
    stack = [(root, iter(drawn_by(root)))]
    while stack:
        element, parts = stack[-1]
        part = next(parts, None)
        if part is None:
            stack.pop()
            open_.discard(id(element))
            below = [drawn[id(child)] for child in drawn_by(element)]
            total = 1 + sum(count for count, _ in below)
            if total > MAX_LOGO_ELEMENTS:
                return (
                    f"the SVG draws over {MAX_LOGO_ELEMENTS:,} elements (each <use> counted as"
                    " what it draws): not a page's logo"
                )
            drawn[id(element)] = (total, 1 + max((height for _, height in below), default=0))
        elif id(part) in open_:
            return "a <use> of the SVG draws an element that holds it (it would draw itself)"
        elif len(stack) + (drawn[id(part)][1] if id(part) in drawn else 1) > MAX_LOGO_DEPTH:
            return (
                f"the SVG nests elements over {MAX_LOGO_DEPTH} deep (each <use> counted as what"
                " it draws): the printer would leave it out"
            )
        elif id(part) not in drawn:
            open_.add(id(part))
            stack.append((part, iter(drawn_by(part))))
    return None


# --- the accent colour -------------------------------------------------------------------------


def contrast_on_white(colour: str) -> float:
    """The WCAG 2 contrast ratio of ``#rrggbb`` text on white (1 to 21).

    >>> round(contrast_on_white("#000000"), 2), round(contrast_on_white("#7a1f2b"), 2)
    (21.0, 10.2)
    >>> round(contrast_on_white("#ffcc00"), 2), round(contrast_on_white("#767676"), 2)
    (1.51, 4.54)
    """

    def linear(pair: str) -> float:
        channel = int(pair, 16) / 255
        return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(colour[index : index + 2]) for index in (1, 3, 5))
    luminance = 0.2126 * red + 0.7152 * green + 0.0722 * blue
    return 1.05 / (luminance + 0.05)


def _checked_accent(colour: str, key: tuple[str, ...], problems: Problems) -> str | None:
    ratio = contrast_on_white(colour)
    if ratio < MIN_ACCENT_CONTRAST:
        shown = int(ratio * 100) / 100  # never rounded up to the threshold
        problems.add(
            key,
            f"{colour} has a contrast of {shown}:1 on the white page; the accent colours text"
            f" (labels, links), which needs at least {MIN_ACCENT_CONTRAST}:1 (WCAG AA): choose"
            " a darker colour",
        )
        return None
    return colour


# --- the template folder -----------------------------------------------------------------------


def _templates_folder(path: Path, problems: Problems) -> Path | None:
    key = ("operator", "templates")
    try:
        if not path.exists():
            problems.add(key, f"{path}: folder not found (relative to this file)")
        elif not path.is_dir():
            problems.add(key, f"{path}: not a folder")
        else:
            return path
    except OSError as error:
        problems.add(key, f"{path}: cannot be read: {error.strerror or error}")
    return None
