"""``casino-audit show ID``: any stored subject explained for an inspector, as data
(``explanation``: an ``audit.show.model.Explanation``) and as the command line prints it
(``show_lines``, ``audit.show.text``); one module per kind of subject (``poker``,
``banked``, ``slots``, ``tournament``, ``records``) over shared pieces (``common``)."""

from audit.show.common import FIRST, adjudication_units
from audit.show.explain import collusion_nights, explanation, show_lines

__all__ = [
    "FIRST",
    "adjudication_units",
    "collusion_nights",
    "explanation",
    "show_lines",
]
