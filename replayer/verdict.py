"""What every verdict of the replayer is: the rulebook it was judged under and its findings.

A hand's (``replayer.poker.verdict.HandVerdict``), a banked round's
(``replayer.casino.verdict.RoundVerdict``), a slot machine's
(``replayer.slots.verdict.MachineVerdict``), a tournament's
(``replayer.tournaments.adjudicate.TournamentVerdict``), a table's declarations'
(``replayer.terms.TableVerdict``), a chemin de fer table's banker runs'
(``replayer.casino.garage.RunVerdict``), a shoe's (``replayer.casino.shoes.ShoeVerdict``)
and a poker table session's (``replayer.sessions.SessionVerdict``) each carry more, read
by the step-by-step views; what is stored of any of them is these two fields
(``audit.judging.verdict_unit``). Findings are an immutable tuple, in the order raised.
"""

from __future__ import annotations

from dataclasses import Field
from typing import Any, ClassVar, Protocol

from replayer.findings import Finding


class Verdict(Protocol):
    """A verdict on one subject: what the judging path stores of every kind of verdict.

    Each is a dataclass: the judging path adds the conflicting versions received to its
    findings with ``dataclasses.replace`` (``audit.judging.judge``)."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    @property
    def rulebook_id(self) -> str | None:
        """The rulebook judged under (None: none named, e.g. a tournament's own rules)."""
        ...

    @property
    def findings(self) -> tuple[Finding, ...]:
        """Every departure from the rules found, in the order raised."""
        ...


class Findings(Protocol):
    """Anything holding findings to store: a verdict, an incident's investigation."""

    @property
    def findings(self) -> tuple[Finding, ...]:
        """The findings, in the order raised."""
        ...
