"""``SubjectKind``: what the judging path knows of one kind of subject, in one record.

A kind's record (one module per family in this package, built from the family's own
replayer functions) says how its subject is judged (``adjudicate``: every kind's adapter
takes a subject's ``Inputs`` and whether to build the step-by-step view), which event
opens it (its start, its table, its operator's terms), whether it is judged under the
table terms declared in force (``declared``) and whether it is its own table
(``own_table``: the terms are declared under the subject's id), the other stored events
its rules need (``related``), who its findings name (``players``, ``about``), how
``show`` titles it (``title``, ``place``, ``noun``), and, for a kind judged across other
subjects' events (a table's banker runs, a poker table session, a shoe), the shape of its
ids (``across``), which stored subjects feed it (``feed``) and what its evidence bundle
holds as inputs (``evidence``); for a stored kind, how ``show`` tells it (``shown``: its
story, a function of ``audit.show``, and what its header says beyond the opening event).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from audit.grouping.subject_index import SubjectIndex
from audit.judging.inputs import Inputs
from audit.show.common import Setting
from audit.show.model import Story
from audit.store import RecordReads, StoreReads
from replayer.verdict import Verdict

V = TypeVar("V", bound=Verdict, covariant=True)
"""The verdict class a kind's adjudicator returns."""
Related = Callable[[RecordReads, str, Mapping[str, Any]], Sequence[dict[str, Any]]]
"""(the store, the kind, the subject's opening event) -> the other stored events its rules
need (a satellite's target tournament)."""
Players = Callable[[Inputs, Mapping[str, Any]], dict[str, str]]
"""(inputs, opening event) -> the keys its findings use for people -> player ids."""
About = Callable[[Inputs, Mapping[str, Any]], dict[str, Any]]
"""(inputs, opening event) -> what the kind adds to a verdict's context."""
IdShape = Callable[[str], bool]
"""Whether a subject id has the shape of a kind's ids."""
BundleInputs = Callable[[StoreReads, str, Mapping[str, Any]], list[tuple[str, str]]]
"""(the store, a subject, its stored verdict record) -> the (kind, subject) of each stored
aggregate its evidence bundle holds as inputs."""


@dataclass(frozen=True)
class Feed:
    """Which stored subjects a kind judged across others is judged over: the stored kind
    (``kind``) and, from one such subject's events, the group it falls in (``group``: its
    table, or its tournament; None: it feeds no subject of this kind)."""

    kind: str
    group: Callable[[Sequence[dict[str, Any]]], str | None]


@dataclass(frozen=True)
class EvidencePart:
    """A kind judged across others in an evidence bundle (``audit.evidence``): it has no
    events of its own, so the bundle's ``inputs`` are what its verdict judged."""

    inputs: BundleInputs
    noun: str
    """What its inputs are, in words (``round``, ``hand``, ``coup``)."""
    note: str
    """What its bundle cannot prove."""


Tell = Callable[[Inputs, Verdict, Mapping[str, Any], Mapping[str, int]], Story]
"""(a subject's inputs, its verdict, what it is about (its context: players, currency),
finding id -> its number) -> the story ``show`` tells of it (``audit.show.model.Story``)."""
MoreFields = Callable[
    [StoreReads, str, Mapping[str, Any], SubjectIndex | None], list[tuple[str, Any]]
]
"""(the store, a subject, its opening event, the subject index) -> the header fields its
kind adds (a tournament's hands, a tournament hand's tournament and level)."""


@dataclass(frozen=True)
class Shown:
    """How ``show`` (``audit.explain``) tells a stored kind's subject: its story (``story``),
    the kind in words from its opening event (``what``; None: the record's ``noun``), the
    game named when the opening event names none (``variant``), what its header takes from
    its events instead of an opening event (``setting``: a table's declarations), and the
    header fields the kind adds (``more``)."""

    story: Tell
    what: Callable[[Mapping[str, Any]], str] | None = None
    variant: str | None = None
    setting: Callable[[Sequence[Mapping[str, Any]]], Setting] | None = None
    more: MoreFields | None = None


def no_players(inputs: Inputs, first: Mapping[str, Any]) -> dict[str, str]:
    """A kind whose findings name no player."""
    return {}


def nothing_more(inputs: Inputs, first: Mapping[str, Any]) -> dict[str, Any]:
    """A kind that adds nothing to a verdict's context."""
    return {}


@dataclass(frozen=True)
class SubjectKind(Generic[V]):
    """One kind of subject (see the module docstring)."""

    name: str
    adjudicate: Callable[[Inputs, bool], V]
    """(a subject's inputs, build the step-by-step view) -> its verdict."""
    opening: str | None
    """The event type that opens a subject (None: the kind has none, e.g. a table's
    declarations); a kind with one is judged incomplete while sequences are missing."""
    title: str
    """``show``'s heading (``POKER HAND``)."""
    noun: str
    """The kind in words (``poker hand``)."""
    place: str = "table"
    """What ``show`` calls where it happens (``table``, ``machine``, ``tournament``)."""
    declared: bool = False
    """Judged with the table's declared terms in force at its start (poker: the rake the
    rulebook leaves to the table; other kinds: they name the operator, ``context``)."""
    own_table: bool = False
    """The subject is its own table (its terms are declared under its id)."""
    undated: bool = False
    """Judged whatever its dates (a table's declarations govern later subjects), never
    left out of a replay for its start day."""
    prefetch_tables: bool = False
    """A batch reads the declarations of every table its subjects name in one query."""
    in_flight: bool = False
    """Its subjects can be in flight during an incident (``audit.incidents.inflight``), so
    an incident's finding on one is told with the subject's own context."""
    related: Related | None = None
    players: Players = no_players
    about: About = nothing_more
    no_rulebook: str = "none named"
    """What ``show`` says of a verdict that names no rulebook and whose findings cite none
    (table declarations: the floor leaves it to each round, machine or tournament)."""
    across: IdShape | None = None
    """A kind judged across other subjects' events, with none of its own
    (``audit.judging.judged_across``): whether an id has its shape. None: a stored kind,
    its subjects' own events judged one subject at a time (``replay``)."""
    feed: Feed | None = None
    """A kind judged across others: the stored subjects ``replay`` judges it over."""
    evidence: EvidencePart | None = None
    """A kind judged across others: its evidence bundle's inputs."""
    shown: Shown | None = None
    """A stored kind: how ``show`` tells its subjects (None: a kind judged across others,
    whose page ``audit.explain`` composes from its stored verdict)."""
