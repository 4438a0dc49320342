"""``python -m reporting`` runs the command-line tool."""

from reporting.cli import main

main()
