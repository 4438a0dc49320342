"""``python -m reporting`` runs the command-line tool."""

from reporting.launch import main

main()
