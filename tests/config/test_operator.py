"""``[operator]``: name, licences, logo, accent colour and template folder, each checked as
strictly as a game key (``file:line: operator.key: message``), and the schema refusing the
same shapes."""

from __future__ import annotations

import io
import json
import re
import tomllib
from pathlib import Path

import pytest
from helpers import png_bytes, run_main, schema_errors

from reporting.config.keys import SCHEMA_PATH, STARTER_LOGO_PATH
from reporting.config.loader import ConfigError, load_config
from reporting.config.operator import MAX_LOGO_BYTES, contrast_on_white, logo_media_type

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data"
SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
GAMES = "\n[games.live-baccarat-it]\n[games.live-baccarat-dk]\n"
SVG = b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>'


def config_with(tmp_path: Path, operator: str) -> Path:
    path = tmp_path / "operator.toml"
    path.write_text(f'[operator]\nname = "Casinò Prova"\n{operator}\n{GAMES}', encoding="utf-8")
    return path


def problems_of(tmp_path: Path, operator: str) -> list[str]:
    with pytest.raises(ConfigError) as error:
        load_config(config_with(tmp_path, operator))
    return error.value.problems


def test_the_sample_operator_is_read_whole():
    operator = load_config(SAMPLE / "operator.toml").operator
    assert operator.name == "Casinò Esempio S.p.A."
    assert operator.licence("IT") == "ADM-0000-ESEMPIO"
    assert operator.licence("DK") == "SPIL-0000-EKSEMPEL" and operator.licence("FR") is None
    assert operator.logo.media_type == "image/svg+xml"
    assert operator.logo.data == (SAMPLE / "logo.svg").read_bytes()
    assert len(operator.logo.data) < 1024  # a few hundred bytes, drawn by hand
    assert operator.accent_colour == "#1f4e79" and contrast_on_white("#1f4e79") >= 4.5
    assert operator.templates is None


def test_paths_are_relative_to_the_configuration_file(tmp_path, monkeypatch):
    (tmp_path / "brand").mkdir()
    (tmp_path / "brand" / "logo.png").write_bytes(png_bytes())
    (tmp_path / "brand" / "templates").mkdir()
    config = config_with(tmp_path, 'logo = "brand/logo.png"\ntemplates = "brand/templates"')
    monkeypatch.chdir(SAMPLE)  # elsewhere: the working folder does not matter
    operator = load_config(config).operator
    assert operator.logo.media_type == "image/png"
    assert operator.templates == (tmp_path / "brand" / "templates").resolve()


def jpeg_bytes() -> bytes:
    """A real 2 x 2 JPEG, made by Pillow (WeasyPrint's image library)."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (2, 2), "#1f4e79").save(buffer, "JPEG")
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("image", "message"),
    [
        (png_bytes(20_000, 20_000), "an image of over 16,777,216 pixels: not a logo"),
        (
            png_bytes(5_000, 5_000),
            "an image of 5,000 x 5,000 pixels: a logo has at most 16,777,216",
        ),
        (png_bytes()[:-24], "the image cannot be decoded (image file is truncated)"),
        (jpeg_bytes()[:-40], "the image cannot be decoded"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(40), "the image cannot be decoded"),
    ],
    ids=["bomb", "too-many-pixels", "truncated-png", "truncated-jpeg", "bad-header"],
)
@pytest.mark.parametrize("weasyprint_first", [False, True], ids=["alone", "after-weasyprint"])
def test_a_raster_logo_the_printer_could_not_draw_is_refused_at_its_line(
    tmp_path, monkeypatch, image, message, weasyprint_first
):
    """A PNG of 20,000 x 20,000 pixels in 380 KB (a decompression bomb), or a broken file,
    passed the check, and the printer left it off every page without a word (or drew a cut
    one with its missing rows grey): refused, whether WeasyPrint's import (which lets Pillow
    read a truncated file, as here) came first or not."""
    from PIL import ImageFile

    monkeypatch.setattr(ImageFile, "LOAD_TRUNCATED_IMAGES", weasyprint_first)
    (tmp_path / "logo.png").write_bytes(image)
    with pytest.raises(ConfigError) as refused:
        load_config(config_with(tmp_path, 'logo = "logo.png"'))
    (problem,) = refused.value.problems
    assert re.fullmatch(
        r".*operator\.toml:\d+: operator\.logo: .*logo\.png: " + re.escape(message) + r".*", problem
    ), problem


def test_an_image_is_told_by_its_bytes_not_its_name(tmp_path):
    (tmp_path / "logo.svg").write_bytes(png_bytes())  # a PNG under an SVG's name
    (tmp_path / "photo.png").write_bytes(jpeg_bytes())
    assert load_config(config_with(tmp_path, 'logo = "logo.svg"')).operator.logo.media_type == (
        "image/png"
    )
    assert load_config(config_with(tmp_path, 'logo = "photo.png"')).operator.logo.media_type == (
        "image/jpeg"
    )
    assert logo_media_type(b"GIF89a" + bytes(20)) is None
    assert logo_media_type(b"<?xml version='1.0'?><!-- a -->\n<svg>") == "image/svg+xml"
    assert logo_media_type(b"<html><svg></svg></html>") is None


@pytest.mark.parametrize(
    ("operator", "files", "key", "message"),
    [
        ('colour = "#123456"', {}, "operator.colour", "unknown key"),
        ('accent_color = "#123456"', {}, "operator.accent_color", "did you mean 'accent_colour'"),
        ('licences = "ADM-1"', {}, "operator.licences", "must be a table"),
        ('licences = { it = "ADM-1" }', {}, "operator.licences.it", "ISO 3166 code"),
        ("licences = { IT = 15 }", {}, "operator.licences.IT", "must be a string"),
        ('licences = { IT = "" }', {}, "operator.licences.IT", "must not be empty"),
        # a number of invisible characters alone counted as given, and was printed as such
        ('licences = { IT = "\u200b\u00ad" }', {}, "operator.licences.IT", "no character that"),
        ('templates = "\ufeff\u200e"', {}, "operator.templates", "no character that shows"),
        # a key of 100,000 characters was repeated whole in the message: cut, as values are
        (
            f'licences = {{ {"X" * 100_000} = "1" }}',
            {},
            'operator.licences."' + "X" * 60 + '"... (100,000 characters)',
            "ISO 3166 code",
        ),
        ('licences = { FR = "ANJ-1" }', {}, "operator.licences.FR", "no configured game is in FR"),
        ('accent_colour = "red"', {}, "operator.accent_colour", "a colour #rrggbb"),
        ('accent_colour = "#ffcc00"', {}, "operator.accent_colour", "contrast of 1.51:1"),
        ('accent_colour = "#777777"', {}, "operator.accent_colour", "at least 4.5:1 (WCAG AA)"),
        ('logo = "none.svg"', {}, "operator.logo", "file not found"),
        ('logo = "logo.svg"', {"logo.svg/": b""}, "operator.logo", "not a regular file"),
        ('logo = "logo.png"', {"logo.png": b"not an image"}, "operator.logo", "not a PNG, JPEG"),
        ('logo = "logo.gif"', {"logo.gif": b"GIF89a" + bytes(40)}, "operator.logo", "not a PNG"),
        (
            'logo = "big.png"',
            {"big.png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(MAX_LOGO_BYTES)},
            "operator.logo",
            "larger than 512 KiB",
        ),
        (
            'logo = "bomb.svg"',
            {
                "bomb.svg": b'<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">]>\n'
                b'<svg xmlns="http://www.w3.org/2000/svg">&a;&a;</svg>'
            },
            "operator.logo",
            "declares entities",
        ),
        (
            'logo = "plain.svg"',
            {"plain.svg": b"<svg><rect/></svg>"},
            "operator.logo",
            'needs xmlns="http://www.w3.org/2000/svg"',
        ),
        (
            'logo = "cut.svg"',
            {"cut.svg": SVG[:-7]},
            "operator.logo",
            "not well-formed SVG (line 1",
        ),
        ('templates = "missing"', {}, "operator.templates", "folder not found"),
        ('templates = "file"', {"file": b"x"}, "operator.templates", "not a folder"),
    ],
)
def test_each_mistake_is_refused_at_its_line_and_key(tmp_path, operator, files, key, message):
    for name, data in files.items():
        if name.endswith("/"):
            (tmp_path / name).mkdir()
        else:
            (tmp_path / name).write_bytes(data)
    problems = problems_of(tmp_path, operator)
    assert len(problems) == 1, problems
    path = tmp_path / "operator.toml"
    assert problems[0].startswith(f"{path}:3: {key}: "), problems
    assert message in problems[0], problems


SVG_NS = "http://www.w3.org/2000/svg"
#: An SVG logo's problems (None: the logo is taken).
TOO_MANY = "draws over 10,000 elements"
TOO_DEEP = "nests elements over 100 deep"


def _nested_uses(levels: int, per_level: int = 10) -> bytes:
    """An SVG of a few KiB whose ``<use>`` nest ``levels`` deep, ``per_level`` a level:
    ``per_level ** levels`` rectangles drawn."""
    groups = ['<rect id="a0" width="1" height="1"/>']
    for level in range(1, levels + 1):
        uses = f'<use href="#a{level - 1}"/>' * per_level
        groups.append(f'<g id="a{level}">{uses}</g>')
    return (
        f'<svg xmlns="{SVG_NS}" width="100" height="40"><defs>{"".join(groups)}</defs>'
        f'<use href="#a{levels}"/></svg>'
    ).encode()


def _chained_nests(chains: int, depth: int = 90) -> bytes:
    """``chains`` nests of ``depth`` groups, each ending in a ``<use>`` of the one before,
    defined before they are drawn: ``chains * depth`` levels deep as drawn, none deep alone."""
    nests = []
    for chain in range(chains):
        inner = f'<use href="#c{chain - 1}"/>' if chain else "<rect/>"
        nests.append(f'<g id="c{chain}">' + "<g>" * depth + inner + "</g>" * depth + "</g>")
    return (
        f'<svg xmlns="{SVG_NS}"><defs>{"".join(nests)}</defs><use href="#c{chains - 1}"/></svg>'
    ).encode()


@pytest.mark.parametrize(
    ("svg", "message"),
    [
        pytest.param(_nested_uses(6), TOO_MANY, id="a-million-by-use"),
        pytest.param(_nested_uses(4), TOO_MANY, id="11111-by-use"),
        pytest.param(_nested_uses(3), None, id="1111-by-use"),
        pytest.param(f'<svg xmlns="{SVG_NS}">{"<rect/>" * 9_999}</svg>'.encode(), None, id="10000"),
        pytest.param(
            f'<svg xmlns="{SVG_NS}">{"<rect/>" * 10_000}</svg>'.encode(), TOO_MANY, id="10001"
        ),
        pytest.param(
            f'<svg xmlns="{SVG_NS}"><g id="g"><use xlink:href="#g" xmlns:xlink='
            '"http://www.w3.org/1999/xlink"/></g></svg>'.encode(),
            "draws an element that holds it",
            id="itself",
        ),
        pytest.param(
            f'<svg xmlns="{SVG_NS}">{"<g>" * 20_000}<rect/>{"</g>" * 20_000}</svg>'.encode(),
            TOO_DEEP,
            id="nested-20000-deep",
        ),
        pytest.param(
            f'<svg xmlns="{SVG_NS}">{"<g>" * 98}<rect/>{"</g>" * 98}</svg>'.encode(),
            None,
            id="100-levels",
        ),
        pytest.param(
            f'<svg xmlns="{SVG_NS}">{"<g>" * 99}<rect/>{"</g>" * 99}</svg>'.encode(),
            TOO_DEEP,
            id="101-levels",
        ),
        pytest.param(_chained_nests(5), TOO_DEEP, id="450-levels-by-chained-use"),
        pytest.param(_chained_nests(1), None, id="one-nest-of-90"),
    ],
)
def test_an_svg_logo_that_draws_without_bound_is_refused(tmp_path, svg, message):
    """A logo is drawn on every printed page: a small file whose ``<use>`` draw a million
    rectangles took minutes and gigabytes a page, and one nested hundreds deep was left out.
    Counted as drawn (a ``<use>`` as what it draws, however the file orders them), without
    recursion."""
    (tmp_path / "logo.svg").write_bytes(svg)
    if message is None:
        assert load_config(config_with(tmp_path, 'logo = "logo.svg"')).operator.logo.data == svg
        return
    (problem,) = problems_of(tmp_path, 'logo = "logo.svg"')
    assert problem.startswith(f"{tmp_path / 'operator.toml'}:3: operator.logo: "), problem
    assert message in problem


def test_every_problem_of_the_section_is_listed_at_once(tmp_path):
    problems = problems_of(
        tmp_path, 'logo = "none.svg"\naccent_colour = "#eeeeee"\ntemplates = "no-such-folder"'
    )
    assert [problem.split(": ")[1] for problem in problems] == [
        "operator.logo",
        "operator.accent_colour",
        "operator.templates",
    ]


def test_a_colour_that_reads_on_white_is_taken_in_lower_case(tmp_path):
    config = load_config(config_with(tmp_path, 'accent_colour = "#1F4E79"'))
    assert config.operator.accent_colour == "#1f4e79"


@pytest.mark.parametrize(
    "operator",
    [
        '[operator]\ncolour = "red"',
        '[operator]\nlicences = { it = "x" }',
        "[operator]\nlicences = { IT = 5 }",
        '[operator]\naccent_colour = "#12345"',
        "[operator]\nlogo = 5",
        '[operator]\ntemplates = ""',
    ],
)
def test_the_schema_refuses_the_shapes_the_loader_refuses(tmp_path, operator):
    text = f"{operator}\n{GAMES}"
    path = tmp_path / "operator.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError):
        load_config(path)
    assert schema_errors(tomllib.loads(text), SCHEMA) != []


def test_a_bad_logo_is_exit_2_with_its_line_and_no_traceback(tmp_path):
    (tmp_path / "logo.svg").write_bytes(b"\x00" * 100)
    config = config_with(tmp_path, 'logo = "logo.svg"')
    process = run_main("check", "--config", str(config))
    assert process.returncode == 2, process.stderr
    assert f"{config}:3: operator.logo:" in process.stderr
    assert "not a PNG, JPEG or SVG image" in process.stderr
    assert "Traceback" not in process.stderr


def test_the_starter_s_logo_is_the_sample_s_and_ships_by_package_data():
    assert STARTER_LOGO_PATH.read_bytes() == (SAMPLE / "logo.svg").read_bytes()
    repository = SAMPLE.parent
    settings = tomllib.loads((repository / "pyproject.toml").read_text(encoding="utf-8"))
    globs = settings["tool"]["setuptools"]["package-data"]["reporting.config"]
    relative = STARTER_LOGO_PATH.relative_to(repository / "reporting" / "config")
    assert any(relative.match(glob) for glob in globs)


def test_init_writes_the_logo_beside_the_starter_and_keeps_one_already_there(tmp_path):
    fresh, own = tmp_path / "fresh", tmp_path / "own"
    fresh.mkdir()
    own.mkdir()
    (own / "logo.svg").write_bytes(SVG)
    for folder in (fresh, own):
        process = run_main("init", str(folder / "operator.toml"))
        assert process.returncode == 0, process.stderr
    assert (fresh / "logo.svg").read_bytes() == STARTER_LOGO_PATH.read_bytes()
    assert (own / "logo.svg").read_bytes() == SVG
    assert load_config(own / "operator.toml").operator.logo.data == SVG
