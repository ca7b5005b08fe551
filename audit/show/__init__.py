"""``casino-audit show ID``: any stored subject explained for an inspector, as data
(``explanation``: an ``audit.show.model.Explanation``) and as the command line prints it
(``show_lines``, ``audit.show.text``); one module per kind of subject (``poker``,
``banked``, ``slots``, ``tournament``, ``records``) over shared pieces (``common``)."""

from audit.show.common import FIRST, UnitIds, UnitKey, adjudication_units, scanned_unit_ids
from audit.show.explain import collusion_nights, explanation, show_lines

__all__ = [
    "FIRST",
    "UnitIds",
    "UnitKey",
    "adjudication_units",
    "collusion_nights",
    "explanation",
    "scanned_unit_ids",
    "show_lines",
]
