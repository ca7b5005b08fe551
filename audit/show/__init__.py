"""What ``casino-audit show ID`` tells of a subject, as typed lines (``audit.show.model``):
one module per kind of subject (``poker``, ``banked``, ``slots``, ``tournament``,
``records``, ``shoes``, ``sessions``) over shared pieces (``common``). Its stories are the
kind records' (``audit.judging.kinds``, ``SubjectKind.shown``); it imports nothing of the
judging path, and ``audit.explain`` composes the page (``explanation``, ``show_lines``)."""

from audit.show.common import FIRST, adjudication_units, collusion_nights

__all__ = [
    "FIRST",
    "adjudication_units",
    "collusion_nights",
]
