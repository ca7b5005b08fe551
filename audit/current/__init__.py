"""Which stored verdict of a subject is current: the one rule (``supersedes``: the latest
stored) and the one interface to it (``Verdicts``), in ``rule``.

A package of its own below ``audit.judging`` (which re-exports it) so that ``audit.show``
reads verdicts without importing the judging path, whose kind records point at
``show``'s bodies.
"""

from audit.current.rule import (
    KIND,
    StoreVerdicts,
    UnitKey,
    Verdicts,
    current_adjudications,
    current_findings,
    current_of,
    current_records,
    current_units,
    finding_about,
    latest,
    supersedes,
    unit_subject,
)

__all__ = [
    "KIND",
    "StoreVerdicts",
    "UnitKey",
    "Verdicts",
    "current_adjudications",
    "current_findings",
    "current_of",
    "current_records",
    "current_units",
    "finding_about",
    "latest",
    "supersedes",
    "unit_subject",
]
