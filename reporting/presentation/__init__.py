"""Presentation: languages and their formatting, the view models of the pages, and the
writers of HTML, PDF and XLSX. Templates only display what the view models computed.

i18n (catalogues, filters, the template environment), bet_words (how the pages find the bets'
words in their declarations, and how ``make i18n`` extracts them), rulesheet (the rule
sheet's view model), html, pdf, rulesheet_xlsx and audit_xlsx (the writers, the two workbooks
on workbook_base), documents (a game's documents: build the sheet, write each format).
"""

import os
import sys


def _zone_babel_cannot_read(zone: str) -> bool:
    """Whether babel, which reads ``TZ`` as it is imported, would stop on it or keep a zone
    no clock can use: a path that is no zone file (``/etc/timezone``, a text file; ``/etc``, a
    folder; a file it may not read), or a name no zone database knows whose offset, as the C
    library reads it, is a day or more (``UTC+25``)."""
    path = zone.removeprefix(":")
    if os.path.exists(path):
        try:
            with open(path, "rb") as handle:
                return handle.read(4) != b"TZif"
        except OSError:
            return True
    import time
    import zoneinfo

    try:
        zoneinfo.ZoneInfo(path)
        return False
    except (ValueError, zoneinfo.ZoneInfoNotFoundError):
        return max(abs(time.timezone), abs(time.altzone)) >= 24 * 3600


def _import_babel_dates() -> None:
    """Import ``babel.dates`` with ``TZ`` set aside for the import alone when babel could not
    read it (:func:`_zone_babel_cannot_read`): every command that writes a page stopped on a
    traceback. The pages use no local zone (each game has its own); a command's log keeps
    the zone its lines are stamped in."""
    zone = os.environ.get("TZ")
    if not zone or "babel.dates" in sys.modules or not _zone_babel_cannot_read(zone):
        return
    del os.environ["TZ"]
    try:
        import babel.dates  # noqa: F401
    finally:
        os.environ["TZ"] = zone


_import_babel_dates()
