"""``casino-audit show ID``: any stored subject explained for an inspector
(``audit.show.explain``), one module per kind of subject (``poker``, ``banked``,
``slots``, ``tournament``, ``records``) over shared pieces (``common``)."""

from audit.show.common import FIRST, UnitIds, UnitKey, adjudication_units, scanned_unit_ids
from audit.show.explain import collusion_nights, show_lines

__all__ = [
    "FIRST",
    "UnitIds",
    "UnitKey",
    "adjudication_units",
    "collusion_nights",
    "scanned_unit_ids",
    "show_lines",
]
