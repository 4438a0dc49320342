"""Presentation: languages and their formatting, the view models of the pages, and the
writers of HTML, PDF and XLSX. Templates only display what the view models computed.

i18n (catalogues, filters, the template environment), bet_words (how the pages find the bets'
words in their declarations, and how ``make i18n`` extracts them), rulesheet (the rule
sheet's view model), html, pdf, rulesheet_xlsx and audit_xlsx (the writers, the two workbooks
on workbook_base), documents (a game's documents: build the sheet, write each format).
"""
