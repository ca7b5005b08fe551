"""The names an incident's scope may use: the tables, games, machines and tournaments
the store holds.

An incident scoped to a name the store does not hold finds nothing in flight there and
says so nowhere; ``unknown_names`` lets ``casino-audit incident record`` and ``amend``
refuse such a scope, listing the names it knows, unless the caller chooses to record
ahead of the data (``--allow-unknown-scope``). The names are read from stored events:

* ``tables``: poker tables, ``HandStarted.table_id`` and the declared ``table`` subjects;
* ``games``: live tables and RNG game instances, ``RoundOpened.table_id``;
* ``machines``: slot machines, the ``slots`` subjects' ids;
* ``tournaments``: the ``tournament`` subjects' ids.

A family is read only when the scope names something in it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from audit.store import AuditStore
from audit.wording import terminal_safe

SHOWN = 20
"""At most this many known names are listed in a message (then "and N more")."""


def _opened_tables(store: AuditStore, kind: str, opening: str) -> set[str]:
    names = set()
    for _, events in store.iter_subjects(kind):
        first = next((e for e in events if e["type"] == opening), None)
        if first is not None and first.get("table_id"):
            names.add(str(first["table_id"]))
    return names


def known_names(store: AuditStore, scope: str) -> set[str]:
    """Every name ``scope`` (``tables``, ``games``, ``machines``, ``tournaments``) may use."""
    if scope == "tables":
        declared = set(store.iter_subject_ids("table"))
        return declared | _opened_tables(store, "poker", "HandStarted")
    if scope == "games":
        return _opened_tables(store, "banked", "RoundOpened")
    if scope == "machines":
        return set(store.iter_subject_ids("slots"))
    if scope == "tournaments":
        return set(store.iter_subject_ids("tournament"))
    raise ValueError(f"unknown scope {scope!r}")


def _listed(names: set[str]) -> str:
    if not names:
        return "none stored"
    ordered = sorted(names)
    more = f" and {len(ordered) - SHOWN} more" if len(ordered) > SHOWN else ""
    return ", ".join(terminal_safe(n) for n in ordered[:SHOWN]) + more


def unknown_names(store: AuditStore, scope: Mapping[str, Sequence[str]]) -> list[str]:
    """One line per scope that names what the store does not hold: the unknown names
    and the known ones; empty when every name is known."""
    problems = []
    for name, values in scope.items():
        if not values:
            continue
        known = known_names(store, name)
        unknown = sorted(set(values) - known)
        if unknown:
            problems.append(
                f"--{name}: {', '.join(terminal_safe(n) for n in unknown)} not in the store; "
                f"known: {_listed(known)}"
            )
    return problems
