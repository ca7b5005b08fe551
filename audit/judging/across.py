"""Subjects judged across other subjects' events, with none of their own, named by the
shape of their id: a table's chemin de fer banker runs ``table:T``
(``audit.judging.banker_runs``), a poker table session ``<table>@<first hand>``
(``audit.judging.table_sessions``) and a shoe ``shoe:T:S`` (``audit.judging.shoes``).

``show``, the console's subject page and evidence bundles ask ``judged_across`` which
of these kinds an id may name, in this one place; a hand id may hold an ``@`` too, so a
caller still asks the store for the kind's verdict."""

from __future__ import annotations

from collections.abc import Callable

from audit.judging.banker_runs import BANKER_RUN
from audit.judging.shoes import SHOE
from audit.judging.table_sessions import TABLE_SESSION

ACROSS_IDS: tuple[tuple[str, Callable[[str], bool]], ...] = (
    (BANKER_RUN, lambda subject: subject.startswith("table:")),
    (TABLE_SESSION, lambda subject: "@" in subject),
    (SHOE, lambda subject: subject.startswith(f"{SHOE}:")),
)
"""Kind -> whether an id has its shape, in the order ``show`` tries them."""


def judged_across(subject: str) -> tuple[str, ...]:
    """The kinds judged across other subjects whose id shape ``subject`` has."""
    return tuple(kind for kind, named in ACROSS_IDS if named(subject))
