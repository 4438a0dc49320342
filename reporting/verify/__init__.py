"""Verification: every round of a period checked by the engine, findings stored with where
they came from.

:mod:`~reporting.verify.checks` holds one pure function per finding kind, in one table;
:mod:`~reporting.verify.run` streams the rounds from the store through it and stores the
findings; :mod:`~reporting.verify.totals` gathers the counts the statistics read.
"""
