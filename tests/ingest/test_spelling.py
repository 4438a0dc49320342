"""The guess of the field an exporter misspelt (reporting.ingest.spelling)."""

from __future__ import annotations

from reporting.ingest.spelling import misspelt_field
from reporting.ingest.validation import BET_FIELDS, ROUND_FIELDS


def test_a_slip_is_guessed_and_a_short_or_far_name_is_not():
    assert misspelt_field("palced_at", BET_FIELDS) == "placed_at"  # two letters swapped
    assert misspelt_field("Shoe-ID", ROUND_FIELDS) == "shoe_id"  # case and separators
    assert misspelt_field("tape", BET_FIELDS) is None  # "type" is too short to guess at
    assert misspelt_field("x" * 500, ROUND_FIELDS) is None  # too long to be a slip
