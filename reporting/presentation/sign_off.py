"""The reviewer's sign-off block, asked for alike by the audit workbook's Sign-off sheet and
the audit report's last section: one list, read by both."""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["REVIEWER_FIELDS", "ReviewerField"]


class ReviewerField(NamedTuple):
    """A box the reviewer fills in: its label, and its height in points (None: one line)."""

    label: str
    height: float | None = None

    @property
    def tall(self) -> bool:
        """Whether the box is taller than a line (the signature's)."""
        return self.height is not None


#: What the reviewer fills in, in order.
REVIEWER_FIELDS = (
    ReviewerField("Name"),
    ReviewerField("Role"),
    ReviewerField("Date"),
    ReviewerField("Signature", 45.0),
)
