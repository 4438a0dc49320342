"""Every HTML rule sheet opened in a real browser at phone and desktop widths: the narrowest
phone's, and the narrowest of each layout its stylesheet draws (:func:`band_widths`).

Debian's Chromium runs headless, driven through the DevTools protocol over a pipe
(``--remote-debugging-pipe``: JSON messages ended by a NUL byte on file descriptors 3 and 4),
so the test needs no Python dependency and no network port. One browser process opens every
page at every width: the viewport is set with ``Emulation.setDeviceMetricsOverride``, which,
unlike ``--window-size``, goes below Chromium's 500 px minimum window width.

In each page a script measures what a reader meets: the page does not scroll sideways, no table
is wider than its container (unless it sits in a scrolling box that shows a visible cue), and
no caption is cut by the viewport or by a clipping box. The Banker matrix must fit the phone
without scrolling and keep a readable font size.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import fcntl
import json
import math
import os
import re
import shutil
import subprocess
import time
from datetime import date
from pathlib import Path

import pytest

from reporting.config.languages import SUPPORTED_LANGUAGES
from reporting.presentation.documents import write_disclosure_page, write_rule_sheet
from reporting.presentation.html import render_disclosure_html, render_html
from reporting.presentation.i18n import TEMPLATE_DIR
from reporting.presentation.publisher import with_publisher
from reporting.presentation.rulesheet import build_rule_sheet
from tests.presentation.test_pdf import RUNS, long_named_sheet
from tests.presentation.variants import VARIANT_GAMES

AS_OF = date(2026, 11, 30)
#: The narrowest phone a page is held to, in CSS pixels (a small Android's viewport).
NARROWEST = 360
#: A stylesheet's breakpoints: ``(max-width: 40rem)``, ``(min-width: 64rem)``.
BREAKPOINT = re.compile(r"\((max|min)-width:\s*([0-9.]+)rem\)")
#: Lengths that follow the viewport's size (none may, for band_widths to hold).
VIEWPORT_LENGTH = re.compile(r"[0-9.](vw|vh|vmin|vmax|[sld]v[wh])\b")


def band_widths(stylesheet: Path) -> tuple[int, ...]:
    """The widths of the viewport a page of ``stylesheet`` is held to, in CSS pixels: the
    narrowest phone, and the narrowest width of each band its media queries draw (the first
    width a ``max-width`` leaves out, the first a ``min-width`` takes in). Within a band the
    same rules apply and no length follows the viewport, so a page is tightest at the band's
    narrowest width: what fits there fits the whole band. A new breakpoint is a new width."""
    css = stylesheet.read_text(encoding="utf-8")
    assert not VIEWPORT_LENGTH.search(css), f"{stylesheet.name} sizes something by the viewport"
    widths = {NARROWEST}
    for kind, rem in BREAKPOINT.findall(css):
        pixels = float(rem) * 16
        widths.add(math.floor(pixels) + 1 if kind == "max" else math.ceil(pixels))
    return tuple(sorted(width for width in widths if width >= NARROWEST))


#: The widths of the rule sheets' and the audit report's pages (360, 481, 641, 1024 and 360,
#: 641, 768, 769, 1024 as the stylesheets stand).
WIDTHS = band_widths(TEMPLATE_DIR / "rules" / "rules.css")
AUDIT_WIDTHS = band_widths(TEMPLATE_DIR / "audit" / "audit.css")
PHONE_HEIGHT = 800
#: The smallest font size (CSS px) a phone reader is asked to read in the Banker matrix.
MATRIX_MIN_FONT_PX = 12
INSTALL = "apt-get update && apt-get install -y --no-install-recommends chromium"

#: Runs in the page; returns every problem found as a sentence (an empty list: none).
MEASURE = r"""
((device, words) => {
  const problems = [];
  const root = document.documentElement;
  const width = window.innerWidth;
  if (width !== device) {
    problems.push(`the layout viewport is ${width} px on a ${device} px screen: ` +
      'the content is too wide, a phone shows it zoomed out');
  }
  const where = (el) => {
    const id = el.closest('[id]');
    return (id ? '#' + id.id + ' ' : '') + el.tagName.toLowerCase() +
      (el.getAttribute('class') ? '.' + el.getAttribute('class').split(' ').join('.') : '');
  };
  if (root.scrollWidth > width) {
    problems.push(`page scrolls sideways: scrollWidth ${root.scrollWidth} > innerWidth ${width}`);
  }
  const clips = (el) => {
    const style = getComputedStyle(el);
    return style.overflowX !== 'visible' && style.overflowX !== 'clip' ? 'scrolls'
      : (style.overflowX === 'clip' || style.overflow === 'hidden') ? 'clips' : null;
  };
  const cued = (box) => [...box.querySelectorAll('.scroll-cue')].some(
    (cue) => cue.getClientRects().length > 0 && getComputedStyle(cue).visibility === 'visible');
  for (const table of document.querySelectorAll('table, svg.road')) {
    const container = table.parentElement;
    const overflow = table.getBoundingClientRect().width - container.clientWidth;
    if (overflow > 0.5) {
      const box = table.closest('.scroll');
      if (!(box && clips(box) === 'scrolls' && cued(box))) {
        problems.push(`${where(table)} is ${Math.round(overflow)} px wider than its container`);
      }
    }
  }
  for (const caption of document.querySelectorAll('caption')) {
    const range = document.createRange();
    range.selectNodeContents(caption);
    const text = range.getBoundingClientRect();
    let left = 0, right = width;
    for (let el = caption.parentElement; el; el = el.parentElement) {
      if (clips(el)) {
        const box = el.getBoundingClientRect();
        left = Math.max(left, box.left);
        right = Math.min(right, box.right);
      }
    }
    if (text.width === 0 || text.left < left - 0.5 || text.right > right + 0.5) {
      problems.push(`${where(caption)} is cut: text ${Math.round(text.left)}..` +
        `${Math.round(text.right)} px, visible ${Math.round(left)}..${Math.round(right)} px`);
    }
  }
  // A figure that fits its column is read whole ("€128,549.40"): its break opportunities
  // (<wbr>) are the printed page's, never a screen's ("€128," over "549.40", two figures).
  for (const figure of document.querySelectorAll('.figure')) {
    const tops = [...figure.getClientRects()].filter((box) => box.width > 0)
      .map((box) => Math.round(box.top));
    if (new Set(tops).size > 1) {
      problems.push(`the figure "${figure.textContent}" is split across lines in ${where(figure)}`);
    }
  }
  // A cell whose content is wider than its column spills over its neighbour.
  for (const cell of document.querySelectorAll('th, td')) {
    if (cell.scrollWidth > cell.clientWidth + 1 && !cell.closest('table.matrix')) {
      problems.push(`${where(cell)} "${cell.textContent.trim().slice(0, 40)}" is ` +
        `${cell.scrollWidth - cell.clientWidth} px wider than its column`);
    }
  }
  // Words: a word is split across two lines only where a hyphen shows: at a soft hyphen
  // (U+00AD, drawn as a hyphen when the line breaks there), or after a hyphen of the word.
  // An id (.id, code) and a word with a digit (a licence, a round id, a figure) never break.
  // The test's Chromium has no hyphenation dictionary, so "hyphens: auto" adds no break of its
  // own here: whatever a word needs to fit is in the page itself.
  const lineOf = (node, start, end) => {
    const range = document.createRange();
    range.setStart(node, start);
    range.setEnd(node, end);
    // the last box: a character after a soft hyphen that broke the line also reports the
    // hyphen drawn at the end of the line before
    const boxes = [...range.getClientRects()].filter((box) => box.width > 0);
    return boxes.length ? Math.round(boxes[boxes.length - 1].bottom) : null;
  };
  const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => node.parentElement.closest('svg, script, style, .action') ||
      node.parentElement.getClientRects().length === 0
      ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
  });
  for (let node = texts.nextNode(); node; node = texts.nextNode()) {
    const el = node.parentElement;
    const id = el.closest('.id, code:not(.source, .hash, .path)');
    for (const match of node.data.matchAll(/\S+/g)) {
      const word = match[0];
      if (word.length < 2) continue;
      // A word whose boxes all sit on one line is not split: its characters are not read
      // one by one (most words of a page; a split word has a box on each of its lines).
      const whole = document.createRange();
      whole.setStart(node, match.index);
      whole.setEnd(node, match.index + word.length);
      const bottoms = [...whole.getClientRects()].filter((box) => box.width > 0)
        .map((box) => box.bottom);
      if (bottoms.length && Math.max(...bottoms) - Math.min(...bottoms) < 3) continue;
      const lines = [];
      for (let i = 0; i < word.length; i++) {
        const line = lineOf(node, match.index + i, match.index + i + 1);
        if (line !== null) lines.push([i, line]);
      }
      for (let k = 1; k < lines.length; k++) {
        if (Math.abs(lines[k][1] - lines[k - 1][1]) < 3) continue;
        const before = word[lines[k][0] - 1];
        const shown = word.replace(/\u00ad/g, '');
        if (id || (words && /\d/.test(word))) {
          problems.push(`the id "${shown}" is broken across lines in ${where(el)}`);
        } else if (words && before !== '\u00ad' && before !== '-') {
          problems.push(`"${word.slice(0, lines[k][0]).replace(/\u00ad/g, '')}|` +
            `${word.slice(lines[k][0]).replace(/\u00ad/g, '')}" is split without a hyphen ` +
            `in ${where(el)}`);
        }
      }
    }
  }
  // A caption that wraps ends on a line of more than one word (no lone word left behind).
  for (const caption of document.querySelectorAll('caption, figcaption')) {
    const bottoms = [];
    const walk = document.createTreeWalker(caption, NodeFilter.SHOW_TEXT, {
      acceptNode: (node) => node.parentElement.closest('.matrix-legend')
        ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
    });
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      for (const match of node.data.matchAll(/\S+/g)) {
        const line = lineOf(node, match.index, match.index + match[0].length);
        if (line !== null) bottoms.push(line);
      }
    }
    const last = bottoms.filter((line) => line === bottoms[bottoms.length - 1]).length;
    if (new Set(bottoms).size > 1 && last === 1) {
      problems.push(`${where(caption)} leaves one word alone on its last line: ` +
        `"${caption.textContent.trim().slice(0, 60)}"`);
    }
  }
  const matrix = document.querySelector('table.matrix');
  if (matrix) {
    const box = matrix.getBoundingClientRect();
    if (box.left < -0.5 || box.right > width + 0.5) {
      problems.push(`the Banker matrix spans ${Math.round(box.left)}..${Math.round(box.right)} px`);
    }
    for (const cell of matrix.querySelectorAll('th, td')) {
      const size = parseFloat(getComputedStyle(cell).fontSize);
      if (size < %(min_font)d) {
        problems.push(`${where(cell)} of the Banker matrix is set in ${size} px`);
        break;
      }
      if (cell.scrollWidth > cell.clientWidth + 1) {
        problems.push(`a cell of the Banker matrix overflows: ${cell.textContent.trim()}`);
        break;
      }
    }
  }
  return problems;
})(%(device)d, %(words)s)
""".replace("%(min_font)d", str(MATRIX_MIN_FONT_PX))


def measure(width: int, words: bool = True) -> str:
    """The script that measures a page on a screen ``width`` px wide. ``words``: every word
    of the page is held to the rules (the rule sheets); without it only ids are (the audit
    report, whose finding messages quote ids and timestamps in running English)."""
    return MEASURE.replace("%(device)d", str(width)).replace("%(words)s", str(words).lower())


def _pipe_ends(commands: int, replies: int) -> None:
    """In the child: put the pipe ends on descriptors 3 (commands) and 4 (replies), where
    ``--remote-debugging-pipe`` expects them, by way of copies above both."""
    commands, replies = (fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (commands, replies))
    os.dup2(commands, 3)
    os.dup2(replies, 4)


class Browser:
    """Headless Chromium driven over the DevTools protocol's pipe: one page, reused."""

    def __init__(self, executable: str, profile: Path):
        read_ours, write_theirs = os.pipe()  # Chromium writes on its fd 4
        read_theirs, write_ours = os.pipe()  # and reads on its fd 3
        self.process = subprocess.Popen(
            [
                executable,
                "--headless",
                "--remote-debugging-pipe",
                "--no-sandbox",  # the test may run as root (a container)
                "--disable-gpu",
                "--no-first-run",
                "--disable-extensions",
                "--disable-background-networking",
                "--hide-scrollbars",
                f"--user-data-dir={profile}",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            # Python's descriptors are not inherited (PEP 446): only the two that
            # _pipe_ends() places on 3 and 4 reach Chromium.
            close_fds=False,
            preexec_fn=lambda: _pipe_ends(read_theirs, write_theirs),
        )
        os.close(read_theirs)
        os.close(write_theirs)
        self._out = os.fdopen(write_ours, "wb", buffering=0)
        self._in = os.fdopen(read_ours, "rb", buffering=0)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict] = []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)[
            "sessionId"
        ]
        self.call("Page.enable", session=True)

    def _message(self) -> dict:
        while b"\0" not in self._buffer:
            chunk = self._in.read(1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed the DevTools pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method: str, session: bool = False, **params) -> dict:
        """Send one command and return its result (events that arrive meanwhile are kept)."""
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        self._out.write(json.dumps(message).encode() + b"\0")
        while True:
            reply = self._message()
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]
            self.events.append(reply)

    def _wait_for(self, event: str, timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while not any(e.get("method") == event for e in self.events):
            if time.monotonic() > deadline:
                raise TimeoutError(event)
            self.events.append(self._message())
        self.events.clear()

    def resize(self, width: int) -> None:
        """Make the viewport ``width`` CSS px wide (a phone below 1000 px, with its handling of
        ``<meta name="viewport">``); the page is laid out again, as when a phone turns."""
        self.call(
            "Emulation.setDeviceMetricsOverride",
            session=True,
            width=width,
            height=PHONE_HEIGHT,
            screenWidth=width,
            screenHeight=PHONE_HEIGHT,
            deviceScaleFactor=1,
            mobile=width < 1000,
        )

    def open(self, path: Path, width: int) -> None:
        """Load ``path`` in a viewport ``width`` CSS px wide."""
        self.resize(width)
        self.events.clear()
        self.call("Page.navigate", session=True, url=path.resolve().as_uri())
        self._wait_for("Page.loadEventFired")

    def evaluate(self, expression: str):
        """The value of a JavaScript expression in the page."""
        result = self.call(
            "Runtime.evaluate", session=True, expression=expression, returnByValue=True
        )
        if "exceptionDetails" in result:
            raise RuntimeError(result["exceptionDetails"])
        return result["result"]["value"]

    def screenshot(self, selector: str, margin: int = 8) -> bytes:
        """A PNG of the element ``selector`` and ``margin`` px around it, at the current width."""
        box = self.evaluate(
            f"(() => {{ const r = document.querySelector({json.dumps(selector)})"
            ".getBoundingClientRect(); return [r.left + scrollX, r.top + scrollY,"
            " r.width, r.height]; })()"
        )
        left, top, width, height = box
        clip = {
            "x": max(0, left - margin),
            "y": max(0, top - margin),
            "width": width + 2 * margin,
            "height": height + 2 * margin,
            "scale": 1,
        }
        data = self.call(
            "Page.captureScreenshot",
            session=True,
            format="png",
            clip=clip,
            captureBeyondViewport=True,
        )["data"]
        return base64.b64decode(data)

    def close(self) -> None:
        with contextlib.suppress(RuntimeError, OSError):
            self.call("Browser.close")
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._out.close()
        self._in.close()


def find_chromium() -> str:
    """Debian's Chromium, or a failure that says how to install it (never a skip)."""
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    pytest.fail(
        "Chromium is needed to open the HTML rule sheets; install it as root with:\n"
        f"  {INSTALL}\n(make test runs scripts/ensure-system-libs.sh, which does this)",
        pytrace=False,
    )


@pytest.fixture(scope="module")
def pages(operator_config, variant_config, tmp_path_factory) -> dict[str, list[Path]]:
    """By language: every configured game's rule sheet, and its ADM disclosure page, as the
    ``rules`` command writes them (published by the sample operator: logo in the masthead);
    and the variant games' (conftest.py: EZ, no commission, Tiger), whose bets are stated row
    by row."""
    folder = tmp_path_factory.mktemp("html")
    written: dict[str, list[Path]] = {language: [] for language in SUPPORTED_LANGUAGES}
    for config in (operator_config, variant_config):
        for game_id in config.games:
            for language in SUPPORTED_LANGUAGES:
                game = config.game(game_id)
                sheet = build_rule_sheet(
                    game, language, disclosure=None, as_of=AS_OF, tool_version="test"
                )
                sheet = with_publisher(sheet, config.operator, game)
                written[language].append(write_rule_sheet(sheet, "html", folder))
                if sheet.adm is not None:
                    written[language].append(write_disclosure_page(sheet, "html", folder))
    return written


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    started = Browser(find_chromium(), tmp_path_factory.mktemp("chromium-profile"))
    yield started
    started.close()


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_every_page_fits_phones_and_desktop(pages, browser, language):
    """Each page is loaded once, at the narrowest width, then widened (a reload per width
    would double the run time and lay the page out the same way)."""
    problems = []
    assert len(pages[language]) >= 4 + len(VARIANT_GAMES)
    for path in pages[language]:
        browser.open(path, WIDTHS[0])
        for width in WIDTHS:
            browser.resize(width)
            assert browser.evaluate("screen.width") == width
            found = browser.evaluate(measure(width))
            problems += [f"{path.name} at {width} px: {problem}" for problem in found]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("run", RUNS)
def test_the_configurations_longest_texts_fit_phones_and_desktop(
    operator_config, browser, tmp_path, run
):
    """A sheet whose texts of the configuration are runs without a space (test_pdf.py: each
    at its longest, of 40 and of 21 characters), in Greek, whose words are the page's longest:
    nothing scrolls sideways, no table is wider than its box. The runs themselves break, as
    they must (the measure's words and ids rules are not theirs). The runs of 40 widened the
    page past a phone's screen and a desktop's window (the heading and the masthead kept them
    whole); those of 21 to 40, the ADM block's table."""
    problems = []
    sheet = long_named_sheet(operator_config, "el", run)
    for render in (render_html, render_disclosure_html):
        path = tmp_path / f"{render.__name__}.html"
        path.write_text(render(sheet), encoding="utf-8")
        browser.open(path, WIDTHS[0])
        for width in WIDTHS:
            browser.resize(width)
            found = browser.evaluate(measure(width))
            problems += [f"{path.name} at {width} px: {p}" for p in found if "WWWW" not in p]
    assert not problems, "\n".join(problems)


def test_the_widths_are_the_first_of_each_band_the_breakpoints_draw(tmp_path):
    stylesheet = tmp_path / "page.css"
    stylesheet.write_text(
        "@media (max-width: 30rem) { p { margin: 0; } }\n"
        "@media screen and (max-width: 63.99rem) { p { color: red; } }\n"
        "@media screen and (min-width: 64rem) { p { color: blue; } }\n"
        "@media screen and (min-width: 48.01rem) { p { color: green; } }\n",
        encoding="utf-8",
    )
    assert band_widths(stylesheet) == (NARROWEST, 481, 769, 1024)
    stylesheet.write_text("h1 { font-size: 5vw; }", encoding="utf-8")
    with pytest.raises(AssertionError, match="sizes something by the viewport"):
        band_widths(stylesheet)


def test_the_measure_catches_a_wide_table_and_a_cut_caption(browser, tmp_path):
    """The check itself: a table wider than a phone, in a clipping box without a cue."""
    page = tmp_path / "wide.html"
    cells = "".join(f"<td>Stands{n}</td>" for n in range(12))
    page.write_text(
        '<!DOCTYPE html><html><head><meta name="viewport" content="width=device-width">'
        "</head><body><div class='scroll' style='overflow-x:auto'><table class='matrix'>"
        f"<caption>{'A caption long enough to run past the screen ' * 3}</caption>"
        f"<tr>{cells}</tr></table></div></body></html>",
        encoding="utf-8",
    )
    browser.open(page, 360)
    problems = browser.evaluate(measure(360))
    assert any("wider than its container" in p for p in problems), problems
    assert any("caption" in p and "is cut" in p for p in problems), problems
    assert any("Banker matrix spans" in p for p in problems), problems


def test_the_measure_catches_split_words_broken_ids_spilt_cells_and_lone_words(browser, tmp_path):
    """The checks of words: a compound broken at the column's edge without a hyphen, an id
    broken at its hyphens, a figure wider than its cell, a caption leaving one word on its
    last line; and a word broken at one of its soft hyphens, which is fine."""
    page = tmp_path / "words.html"
    page.write_text(
        '<!DOCTYPE html><html lang="da"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width"><style>'
        "body { font: 16px 'DejaVu Sans'; } div { width: 90px; overflow-wrap: break-word; }"
        "</style></head><body>"
        "<div>Minimumsindsats</div><div>Maksi\u00admums\u00adind\u00adsats</div>"
        '<div><span class="id">SPIL-0000-EKSEMPEL</span></div>'
        '<table style="width: 80px; table-layout: fixed">'
        "<caption>Ritorno teorico di ciascuna<br>puntata</caption>"
        '<tr><td style="white-space: nowrap">DKK\u00a050.000,00</td></tr></table>'
        "</body></html>",
        encoding="utf-8",
    )
    browser.open(page, 360)
    problems = browser.evaluate(measure(360))
    assert any("Minimums" in p and "split without a hyphen" in p for p in problems), problems
    assert not any("Maksimumsindsats" in p for p in problems), problems
    assert any('the id "SPIL-0000-EKSEMPEL" is broken' in p for p in problems), problems
    assert any("DKK" in p and "wider than its column" in p for p in problems), problems
    assert any("leaves one word alone on its last line" in p for p in problems), problems


def test_the_measure_catches_a_wide_road_without_its_cue(browser, tmp_path):
    """A scoreboard drawing wider than a phone: fine in a scrolling box with a visible cue,
    a problem without the cue (the Big Road of a long shoe is such a drawing)."""
    svg = '<svg class="road big-road" width="900" height="100" viewBox="0 0 900 100"></svg>'
    head = '<!DOCTYPE html><html><head><meta name="viewport" content="width=device-width">'
    for cue, expected in (("", True), ("<p class='scroll-cue'>Swipe</p>", False)):
        page = tmp_path / f"road-{bool(cue)}.html"
        page.write_text(
            f"{head}</head><body><div class='scroll' style='overflow-x:auto'>{cue}{svg}</div>"
            "</body></html>",
            encoding="utf-8",
        )
        browser.open(page, 360)
        problems = browser.evaluate(measure(360))
        found = any("svg.road.big-road" in p and "wider than" in p for p in problems)
        assert found is expected, problems


def test_a_missing_chromium_fails_with_the_install_command(monkeypatch):
    """No skip: without Chromium the test fails and says how to install it."""
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(pytest.fail.Exception) as failure:
        find_chromium()
    assert "apt-get install -y --no-install-recommends chromium" in str(failure.value)


@pytest.fixture(scope="module")
def audit_report_page(operator_config, tmp_path_factory) -> Path:
    """The audit report of a generated month with a fault of every kind: its HTML page, as
    monthly writes it (the same page monthly prints to PDF; the browser reads the HTML)."""
    from helpers import alerts_of

    from reporting.figures.audit import audit_month
    from reporting.ingest.discovery import discover_sources
    from reporting.jobs.audit import month_report
    from reporting.presentation.audit_report import render_audit_html, report_file_names
    from reporting.sample import generate_month
    from reporting.store.load import ingest
    from reporting.store.schema import connect
    from reporting.verify.run import verify

    folder = tmp_path_factory.mktemp("audit-report")
    # A server's inbox sits deep: its path, in the rejected records' and void rounds' tables,
    # must fit a desktop's column whatever the depth (it breaks after a "/", never in a name).
    deep = Path(*(f"provider-exports-{part}" for part in ("live", "casino", "monthly", "2026")))
    log = folder / deep / "inbox" / "round-log-2026-10-live-baccarat.jsonl.gz"
    generate_month(operator_config, "2026-10", log, rounds_per_day=20, faults=1, seed=51105)
    connection = connect(folder / "store.sqlite")
    try:
        ingest(connection, discover_sources([log]), operator_config)
        verified = verify(connection, operator_config, "2026-10")
        audit = audit_month(
            connection,
            operator_config,
            "2026-10",
            as_of_by_game={},
            configuration_path=operator_config.source,
            tool_version="test",
        )
        report = month_report(
            connection,
            operator_config,
            verified,
            audit,
            as_of=AS_OF,
            alerts=alerts_of(connection, verified),
        )
        html = folder / report_file_names("2026-10")[0]
        html.write_text(render_audit_html(report), encoding="utf-8")
        # and the same report of an operator whose name is a run of 40 characters without a
        # space (test_pdf.RUNS): the eyebrow kept it whole, past a phone's screen
        long_named = folder / "long-named" / html.name
        long_named.parent.mkdir()
        operator = "O" + "W" * (RUNS[1] - 1)
        long_named.write_text(
            render_audit_html(dataclasses.replace(report, operator=operator)), encoding="utf-8"
        )
    finally:
        connection.close()
    return html


@pytest.mark.parametrize("operator", ["sample", "long-named"])
def test_the_audit_report_fits_phones_and_desktop(audit_report_page, browser, operator):
    """The report a compliance officer opens: no sideways scroll of the page at any width,
    every wide table or road in a box that scrolls under a visible cue; with the sample
    operator's name, and with a name that is one run of 40 characters (which breaks, as it
    must: the measure's rule for ids is not its)."""
    page = audit_report_page
    if operator == "long-named":
        page = page.parent / "long-named" / page.name
    problems = []
    for width in AUDIT_WIDTHS:
        browser.open(page, width)
        found = browser.evaluate(measure(width, words=False))
        problems += [f"{width} px: {problem}" for problem in found if "WWWW" not in problem]
    assert not problems, "\n".join(problems)
