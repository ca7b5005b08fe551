"""``casino-audit show ID``: any stored subject judged and explained, as data
(``explanation``: an ``audit.show.model.Explanation``) and as the command line prints it
(``show_lines``).

Above both ``audit.judging`` and ``audit.show``: it judges (``compose``: a stored
subject through the one judging path, its story told by its kind's record,
``SubjectKind.shown``; a shoe re-judged, ``shoes``; a banker run's coups settled,
``banker_runs``; a table session from its stored verdict, ``sessions``) and ``show``'s
modules tell, importing nothing of the judging path, so the kind records can point at
them.
"""

from audit.explain.compose import explanation, show_lines

__all__ = ["explanation", "show_lines"]
