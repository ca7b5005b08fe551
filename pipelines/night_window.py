"""Events outside the night's window: a subject filed under a night none of whose events
falls in that night is a data-quality finding of the night.

A night judges the subjects its day's input files bring (``<input>/<YYYY-MM-DD>/``). A
hand, round or machine stream whose every stored event occurred outside that UTC day,
widened by the tolerance on both sides, belongs to another day: its files were put in
the wrong day's folder (a copy of another day's files, a misfiled export) or its clock
is wrong. It is still judged (its verdict is its own), and the night says where its
events lie (check ``events.in_night``, cited as a casino-audit data-quality check).
A subject with at least one event in the window is the night's: a hand across
midnight, a tournament or a machine stream over several days.

The tolerance is a named setting, ``CASINO_AUDIT_NIGHT_TOLERANCE`` (minutes, default
60: a clock a little off, an export cut a little late), read where the night's step
runs (``casino-audit nightly`` and the DAG's tasks share ``judge_partition``), and
recorded in the night's quality unit beside the findings it gave.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from pipelines.expectations.suites import CITATION_PREFIX
from pipelines.quality import CheckOutcome, QualityResult
from replayer.findings import Finding, FindingKind

TOLERANCE_ENV, DEFAULT_TOLERANCE_MINUTES = "CASINO_AUDIT_NIGHT_TOLERANCE", 60
CHECK = "events.in_night"
STANDING = frozenset({"table"})
"""Families whose records are standing facts, not events of a night: a table's declared
terms hold from their ``effective_from`` on, and every night's folder may carry the
tables' file again (``simulate``'s ``tables.avro``, dated when first declared); they are
never outside a night."""
CITATION = f"{CITATION_PREFIX}: {CHECK}"


class BadTolerance(ValueError):
    """``CASINO_AUDIT_NIGHT_TOLERANCE`` is not a whole number of minutes from 0 to 1440."""


def tolerance_from_env(environ: Mapping[str, str] = os.environ) -> timedelta:
    """The tolerance set by ``CASINO_AUDIT_NIGHT_TOLERANCE`` (minutes), else 60 minutes."""
    text = environ.get(TOLERANCE_ENV, "").strip()
    if not text:
        return timedelta(minutes=DEFAULT_TOLERANCE_MINUTES)
    if not text.isdigit() or int(text) > 24 * 60:
        raise BadTolerance(
            f"{TOLERANCE_ENV}={text[:40]!r}: give a whole number of minutes from 0 to 1440"
        )
    return timedelta(minutes=int(text))


@dataclass(frozen=True, slots=True)
class NightWindow:
    """The UTC instants a night's events may occur at: ``[start, end)``."""

    day: date
    tolerance: timedelta

    @property
    def start(self) -> datetime:
        return datetime.combine(self.day, time(), UTC) - self.tolerance

    @property
    def end(self) -> datetime:
        return datetime.combine(self.day + timedelta(days=1), time(), UTC) + self.tolerance

    def holds(self, at: datetime) -> bool:
        return self.start <= at < self.end

    def to_json(self) -> dict[str, Any]:
        """How the night's quality unit records the window it judged by."""
        return {
            "from": self.start.isoformat(),
            "to": self.end.isoformat(),
            "tolerance_minutes": int(self.tolerance.total_seconds() // 60),
        }


def _times(events: Sequence[Mapping[str, Any]]) -> list[datetime]:
    return [at for e in events if isinstance(at := e.get("occurred_at"), datetime)]


def outside_night(
    window: NightWindow, subject: str, events: Sequence[Mapping[str, Any]]
) -> Finding | None:
    """The finding when no event of ``subject`` (with a time) falls in ``window``; None
    when one does, or when none has a time (the record checks say so)."""
    times = _times(events)
    if not times or any(window.holds(at) for at in times):
        return None
    first, last = min(times), max(times)
    return Finding(
        FindingKind.DATA_QUALITY,
        subject,
        CITATION,
        f"no event falls in the night of {window.day.isoformat()} (UTC, ± "
        f"{window.to_json()['tolerance_minutes']} min): its {len(times)} event(s) occurred "
        f"from {first.astimezone(UTC):%Y-%m-%d %H:%M} to {last.astimezone(UTC):%Y-%m-%d %H:%M}"
        " UTC, another day's (files in the wrong day's folder, or a wrong clock)",
        expected=window.to_json(),
        recorded={"first": first.isoformat(), "last": last.isoformat()},
        detail={"check": CHECK, "events": len(times)},
    )


def with_window(quality: QualityResult, outside: Sequence[Finding]) -> QualityResult:
    """The part of the night's quality with the window's check and its findings."""
    quality.checks.append(
        CheckOutcome(CHECK, "subjects", "in the night's window", not outside, len(outside))
    )
    quality.findings.extend(outside)
    quality.findings.sort(key=lambda f: (f.subject, f.citation, f.finding_id))
    return quality
