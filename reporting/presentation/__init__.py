"""Presentation: languages and their formatting, the view models of the pages, and the
writers of HTML, PDF and XLSX. Templates only display what the view models computed.
"""
