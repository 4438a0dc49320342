"""Presentation: languages and their formatting, the view models of the pages, and the
writers of HTML, PDF and XLSX. Templates only display what the view models computed.

i18n (catalogues, filters, the template environment), bet_words (how the pages find the bets'
words in their declarations, and how ``make i18n`` extracts them), rulesheet (the rule
sheet's view model), html, pdf, rulesheet_xlsx and audit_xlsx (the writers, the two workbooks
on workbook_base), documents (a game's documents: build the sheet, write each format).
"""

import os


def _import_babel_dates() -> None:
    """Import ``babel.dates``, which reads the machine's time zone (``TZ``) as it is imported
    and stops on one it cannot read (``TZ=/etc/timezone``, a text file), or keeps one no
    clock can use (``TZ=UTC+25``: the first catalogue read then fails). The pages use no
    local zone (each game has its own), so babel is then imported again with ``TZ`` set aside
    for the import alone: a command's log keeps the zone its lines are stamped in."""
    zone = os.environ.get("TZ")
    if not zone:
        return
    import sys
    from datetime import datetime

    try:
        import babel.dates

        datetime.now(babel.dates.LOCALTZ)
        return
    except ValueError:
        pass
    for name in [name for name in sys.modules if name.partition(".")[0] == "babel"]:
        del sys.modules[name]
    del os.environ["TZ"]
    try:
        import babel.dates  # noqa: F401, F811
    finally:
        os.environ["TZ"] = zone


_import_babel_dates()
