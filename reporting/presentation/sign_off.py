"""The reviewer's sign-off block, asked for alike by the audit workbook's Sign-off sheet and
the audit report's last section: what the reviewer attests, under which licences, and the
boxes to fill in; each written once here and read by both."""

from __future__ import annotations

from typing import NamedTuple

from markupsafe import Markup, escape

from reporting.config.loader import OperatorConfig
from reporting.presentation.i18n import breakable
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

#: What the reviewer's signature attests, above the boxes: the same words under the report
#: and in the workbook, whose Sign-off sheet holds the remarks (a row per finding kind and
#: per other matter).
ATTESTATION = (
    "I have reviewed this audit of the period, its findings and what it says was not read or"
    " not checked, and written my remarks in the Sign-off sheet of its workbook."
)


class LicenceLine(NamedTuple):
    """A jurisdiction of the operator's games and its licence, as the sign-off names it."""

    jurisdiction: str  # ISO 3166, as the games write it
    words: str  # how its pages name the licence, with %(number)s (an English msgid)
    number: str | None  # the operator's number there; None: the configuration gives none

    @property
    def label(self) -> str:
        """The line's label: ``Licence, IT``."""
        return f"Licence, {self.jurisdiction}"

    @property
    def given(self) -> bool:
        """Whether the configuration gives the number."""
        return self.number is not None

    @property
    def text(self) -> str:
        """The licence in its pages' words, or what to set where the number is missing."""
        if self.number is None:
            return (
                f'not given: set licences = {{ {self.jurisdiction} = "..." }} under [operator]'
                " in the configuration"
            )
        return self.words % {"number": self.number}

    @property
    def html(self) -> Markup:
        """:attr:`text` of a given number for a page, the number kept whole on a narrow
        screen (a missing one is said by :attr:`text` alone)."""
        number = Markup('<span class="id">{}</span>').format(breakable(self.number))
        return Markup(escape(self.words)) % {"number": number}


def licence_lines(config: OperatorConfig) -> tuple[LicenceLine, ...]:
    """The licence of each jurisdiction a configured game is in, by code: the words its pages
    name it with (its regulator's, :func:`~reporting.presentation.publisher.licence_words`) and
    the operator's number there, if the configuration gives it."""
    return tuple(
        LicenceLine(
            jurisdiction, licence_words(jurisdiction), config.operator.licence(jurisdiction)
        )
        for jurisdiction in sorted({game.jurisdiction for game in config.games.values()})
    )
