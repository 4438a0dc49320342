"""Reading round logs: finding the sources, decoding each format, validating each line into
records (or a rejected line with its reason), and the second process that reads large files.

Nothing here writes to the store; :mod:`reporting.store.load` writes what the readers give.
"""
