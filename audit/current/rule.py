"""The current verdict of a subject: the one rule, and the one interface to it.

**The rule.** A subject is judged again whenever what its verdict depends on changes (new
events, new table terms, a new replayer version, a rerun night), and every judgement is
stored as a new verdict unit (``adjudication`` subject ``<kind>:<subject>|<replayer
version>|<input digest>``, ``audit.judging.path``): nothing is overwritten. Of the units
stored on one (kind, subject), the **current** verdict is the one stored last, in the
store's order (its notification order): a newer unit supersedes every older one, whatever
either found (a re-judgement that finds nothing clears the findings of the one before).
Judging unchanged inputs again stores nothing (the unit id exists), so it changes nothing.
A nightly job's units are subjects too: ``<kind>:<scope>`` (``pipelines.night_units``).

``supersedes`` states the rule; ``latest`` and ``current_of`` (one subject's units) and
``current_units`` (many subjects' units) apply it to units in the order stored;
``current_records`` applies it to every stored verdict record. Consumers depend on
``Verdicts``, which has two implementations deriving their answers through the rule:

* ``StoreVerdicts``: a scan of the store's unit ids (the command line: ``show``,
  ``findings``, ``replay``, the nightly report);
* the console's read model (``console.readmodel.queries.ModelVerdicts``): an index of
  the units kept as the store's notifications arrive, which applies ``supersedes`` to
  each verdict it projects.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from audit.store import StoreReads

KIND = "adjudication"
"""The store kind of verdict units (``audit.store.subjects.Adjudication``)."""

K = TypeVar("K")
R = TypeVar("R")

UnitKey = tuple[str, str | None]
"""(kind, subject) of verdict units; a subject of None stands for every unit of the kind
(a nightly detector's units, one per night)."""


def supersedes(stored_at: int, current_at: int | None) -> bool:
    """The rule: whether a verdict unit stored at position ``stored_at`` (its place in the
    store's order) becomes its subject's current verdict in place of the one stored at
    ``current_at`` (None: the subject has no verdict yet). The later stored wins."""
    return current_at is None or stored_at > current_at


def unit_subject(unit_id: str) -> tuple[str, str]:
    """(kind, subject) of a unit id ``kind:subject|version|digest``."""
    kind, _, rest = unit_id.partition(":")
    return kind, rest.rsplit("|", 2)[0]


def _current_by(units: Iterable[tuple[K, R]]) -> dict[K, R]:
    """Subject key -> what its current unit holds, among ``units`` ((key, value) pairs
    given in the order stored): the rule, ``supersedes``, applied to each subject's units;
    keys in the order first stored."""
    held: dict[K, tuple[int, R]] = {}
    for stored_at, (key, value) in enumerate(units):
        current = held.get(key)
        if supersedes(stored_at, current[0] if current else None):
            held[key] = (stored_at, value)
    return {key: value for key, (_, value) in held.items()}


def current_units(unit_ids: Iterable[str]) -> dict[tuple[str, str], str]:
    """(kind, subject) -> the id of its current unit, among ``unit_ids`` given in the
    order stored (the rule, ``supersedes``), keys in the order first stored."""
    return _current_by((unit_subject(unit_id), unit_id) for unit_id in unit_ids)


def latest(unit_ids: Sequence[str]) -> str | None:
    """The current unit among one subject's unit ids given in the order stored (the
    rule, ``supersedes``); None when there are none."""
    return _current_by((None, unit_id) for unit_id in unit_ids).get(None)


def current_of(units: Sequence[tuple[str, R]]) -> R | None:
    """The record of the current unit among one subject's (unit id, record) pairs given
    in the order stored (``latest``); None when there are none."""
    current_id = latest([unit_id for unit_id, _ in units])
    return next((record for unit_id, record in units if unit_id == current_id), None)


class Verdicts(Protocol):
    """Which verdict units are stored on a subject and which of them is current: what
    ``show``, the evidence bundle and the console ask (see the module docstring)."""

    def unit_ids(self, keys: Sequence[UnitKey]) -> list[str]:
        """The ids of the stored units on any of ``keys``, in the order stored."""
        ...

    def current_unit(self, kind: str, subject: str) -> str | None:
        """The id of the current unit of ``kind`` on ``subject`` (the rule,
        ``supersedes``); None when it has none."""
        ...


class StoreVerdicts:
    """``Verdicts`` by scanning every stored unit id (O(store) per question)."""

    def __init__(self, store: StoreReads):
        self.store = store

    def unit_ids(self, keys: Sequence[UnitKey]) -> list[str]:
        wanted = tuple(
            f"{kind}:" if subject is None else f"{kind}:{subject}|" for kind, subject in keys
        )
        if not wanted:
            return []
        return [uid for uid in self.store.iter_subject_ids(KIND) if uid.startswith(wanted)]

    def current_unit(self, kind: str, subject: str) -> str | None:
        return latest(self.unit_ids([(kind, subject)]))


def current_records(store: StoreReads) -> Iterator[tuple[str, dict[str, Any]]]:
    """(unit id, record) of the current verdict of every judged subject, in first-judged
    order: the rule (``supersedes``) over every stored unit, read once."""
    yield from _current_by(
        ((records[0]["kind"], records[0]["subject"]), (unit_id, records[0]))
        for unit_id, records in store.iter_subjects(KIND)
    ).values()


def current_adjudications(store: StoreReads) -> Iterator[dict[str, Any]]:
    """The current verdict record of every judged subject, in first-judged order."""
    for _, record in current_records(store):
        yield record


def finding_about(
    kind: str | None, rulebook: Any, context: Mapping[str, Any] | None
) -> dict[str, Any]:
    """Who and what a verdict's findings are about, as every finding row carries it (the
    report, ``findings``, ``show`` and the console): ``subject_kind``, ``rulebook`` and
    the verdict's context (``currency``, ``table``, ``players``, ``operator``,
    ``started_at``; see ``audit.judging.path.context``), each None (``players`` empty) when
    the verdict does not say; a ``players`` that is not a mapping counts as empty."""
    about: dict[str, Any] = {
        "subject_kind": kind,
        "rulebook": rulebook,
        "currency": None,
        "table": None,
        "players": {},
        "operator": None,
        "started_at": None,
        **(context or {}),
    }
    if not isinstance(about["players"], Mapping):
        about["players"] = {}
    return about


def current_findings(store: StoreReads, kind: str | None = None) -> Iterator[dict[str, Any]]:
    """Every current finding, optionally of one finding kind, as a row: the finding's
    stored record plus who and what it is about (``finding_about``)."""
    for adjudication in current_adjudications(store):
        about = finding_about(
            adjudication["kind"], adjudication.get("rulebook"), adjudication.get("context")
        )
        for finding in adjudication["findings"]:
            if kind is None or finding["kind"] == kind:
                yield {**finding, **about}
