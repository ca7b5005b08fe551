"""The incident page's investigations, kept per (incident, as of).

``audit.incidents.investigate`` is a pure function of the stored events and the time it
judges as of, and it reads every subject in flight during the incident (seconds on a
busy night), so the page keeps its answer per (incident id, as-of instant) until the
store holds events it did not before (``console.readmodel.kept``: the looks the
console itself records never count). The most recent ``KEEP`` answers are kept.

As of: the time asked (``?as_of=``), else that of the incident's latest stored
investigation (``casino-audit incident investigate``: what was recorded), else the end
of the incident's window: judged as the incident stood when it ended, never "now"
(which would change the report with every view).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from audit.incidents.investigation import Investigation, investigate
from audit.incidents.record import RecordedIncident
from audit.store import AuditStore
from console.readmodel.kept import KeptAnswers
from console.readmodel.model import ReadModel

KEEP = 64


@dataclass(frozen=True, slots=True)
class AsOf:
    """The instant an investigation is judged as of, and where it came from (in words)."""

    moment: datetime
    source: str


def default_as_of(incident: RecordedIncident, stored: str | None) -> AsOf:
    """The module docstring's default: the stored investigation's, else the window end."""
    if stored:
        return AsOf(datetime.fromisoformat(stored), "as of the stored investigation")
    return AsOf(incident.window_end, "as of the end of the incident's window")


@dataclass
class Investigations:
    """Investigations kept per (incident, as of) and the model's events generation."""

    model: ReadModel
    store: AuditStore
    judge: Callable[..., Investigation] = investigate
    _kept: KeptAnswers[tuple[str, str], Investigation] = field(init=False)

    def __post_init__(self) -> None:
        self._kept = KeptAnswers(self.model, KEEP)

    def of(self, incident_id: str, as_of: datetime) -> Investigation:
        """The investigation of ``incident_id`` as of ``as_of`` (kept, or made now)."""
        return self._kept.of(
            (incident_id, as_of.isoformat()),
            lambda: self.judge(self.store, incident_id, as_of=as_of),
        )
