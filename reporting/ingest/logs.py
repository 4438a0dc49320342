"""Old home of the round log readers, kept for the two importers outside the ingest stage
that still read names from here (the sample generator's CSV columns, verify's gc pause).

New code imports from :mod:`reporting.ingest.csv_pair` and :mod:`reporting.ingest.sources`;
delete this module once those importers have moved.
"""

from __future__ import annotations

from reporting.ingest.csv_pair import CSV_BET_FIELDS, CSV_ROUND_FIELDS
from reporting.ingest.sources import cyclic_gc_paused

__all__ = ["CSV_BET_FIELDS", "CSV_ROUND_FIELDS", "cyclic_gc_paused"]
