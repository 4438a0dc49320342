"""The reviewer's sign-off block, asked for alike by the audit workbook's Sign-off sheet and
the audit report's last section: what the reviewer attests, under which licences, and the
boxes to fill in; each written once here and read by both."""

from __future__ import annotations

from typing import NamedTuple

from reporting.config.loader import OperatorConfig
from reporting.presentation.publisher import licence_words

__all__ = ["ATTESTATION", "REVIEWER_FIELDS", "LicenceLine", "ReviewerField", "licence_lines"]


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

#: What the reviewer's signature attests, above the boxes.
ATTESTATION = (
    "I have reviewed this audit of the period: its findings, the checks not run and the"
    " other matters, with my remarks on each."
)


class LicenceLine(NamedTuple):
    """A jurisdiction of the operator's games and its licence, as the sign-off names it."""

    jurisdiction: str  # ISO 3166, as the games write it
    text: str  # in the words of the jurisdiction's pages, or what the configuration lacks
    given: bool  # whether the configuration gives the number

    @property
    def label(self) -> str:
        """The line's label: ``Licence, IT``."""
        return f"Licence, {self.jurisdiction}"


def licence_lines(config: OperatorConfig) -> tuple[LicenceLine, ...]:
    """The licence of each jurisdiction a configured game is in, by code: the words its pages
    name it with (its regulator's, :func:`~reporting.presentation.publisher.licence_words`),
    or the configuration's missing number said as such."""
    lines = []
    for jurisdiction in sorted({game.jurisdiction for game in config.games.values()}):
        number = config.operator.licence(jurisdiction)
        if number is None:
            text = "no number in the configuration ([operator] licences)"
        else:
            text = licence_words(jurisdiction) % {"number": number}
        lines.append(LicenceLine(jurisdiction, text, number is not None))
    return tuple(lines)
