"""Shared pieces of ``casino-audit show``: names, money, times, cards, the first-divergence
mark, the findings section and the verdict history (``audit.show``), as typed lines
(``audit.show.model``).

Every name printed (players, tables, machines, ids, free text from the records) goes
through ``wording.terminal_safe``: names are hostile input.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from audit.current import KIND as ADJUDICATION
from audit.current import (
    StoreVerdicts,
    UnitKey,
    Verdicts,
    current_of,
    current_units,
    finding_about,
    latest,
)
from audit.notation.money import format_money
from audit.show.model import Card, Field, Line, Role
from audit.store import StoreReads
from audit.wording import sentence, terminal_safe
from audit.wording.citing import RULE, rule_label
from replayer import REPLAYER_VERSION
from replayer.rulebooks.citations import summary_line
from replayer.rulebooks.registry import all_rulebooks

summary_of = lru_cache(maxsize=4096)(summary_line)
"""``summary_line`` kept per citation: a pure function of the citation and the rulebook
catalogue (code, not data); a subject with hundreds of findings cites a handful of rules."""
label_of = lru_cache(maxsize=4096)(rule_label)
"""``rule_label`` kept per citation, as ``summary_of``."""

FIRST = ">>> first divergence"
"""Prefix of the line marking where expected and recorded first part ways."""
INDENT = "  "
_SUITS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
_RANKS = {"T": "10"}


def safe(value: Any) -> str:
    """Any value as printable text (names and record text are hostile input)."""
    return terminal_safe("" if value is None else str(value))


def money(amount: Any, currency: str | None) -> str:
    """Minor units in words (``audit.notation.money``); anything not an integer is shown as is."""
    if isinstance(amount, int) and not isinstance(amount, bool):
        return format_money(amount, currency)
    return "-" if amount is None else safe(amount)


def signed(amount: int, currency: str | None) -> str:
    """A change of money: ``+EUR 2.00``, ``-EUR 0.35``, ``EUR 0.00``."""
    return ("+" if amount > 0 else "") + format_money(amount, currency)


def clock(when: Any, *, date: bool = True) -> str:
    """A UTC time as an inspector reads it: ``2025-03-01 17:00:00 UTC`` (or the time only)."""
    if not isinstance(when, datetime):
        return "-" if when is None else safe(when)
    utc = when.astimezone(UTC) if when.tzinfo is not None else when
    return utc.strftime("%Y-%m-%d %H:%M:%S UTC" if date else "%H:%M:%S")


def card(text: Any) -> str:
    """One card as text: ``As`` -> ``A♠``, ``Td`` -> ``10♦``, ``??`` -> ``(hidden)``."""
    return card_of(text).text


def card_of(text: Any) -> Card:
    """One card as data: its text (``card``) and its suit letter (empty when hidden or
    not a card)."""
    value = str(text)
    if value == "??":
        return Card("(hidden)", "")
    if len(value) == 2 and value[1] in _SUITS:
        return Card(_RANKS.get(value[0], value[0]) + _SUITS[value[1]], value[1])
    return Card(safe(value), "")


def cards_of(values: Iterable[Any] | None) -> tuple[Card, ...]:
    return tuple(card_of(c) for c in values or ())


def cards(values: Iterable[Any] | None) -> str:
    shown = [card(c) for c in values or ()]
    return " ".join(shown) if shown else "(none)"


def percent(bps: Any) -> str:
    """Basis points as a percentage: 500 -> ``5%``, 9312 -> ``93.12%``."""
    if not isinstance(bps, int):
        return "-"
    whole, rest = divmod(abs(bps), 100)
    sign = "-" if bps < 0 else ""
    return f"{sign}{whole}%" if not rest else f"{sign}{whole}.{rest:02d}%"


def fields(pairs: Sequence[tuple[str, Any]]) -> tuple[Field, ...]:
    """The subject's header fields, (label, value) in order (an empty value: unknown)."""
    return tuple(
        Field(label, None if value in (None, "") else str(value)) for label, value in pairs
    )


def heading(text: str) -> Line:
    return Line(Role.HEADING, text)


def row(text: str) -> Line:
    return Line(Role.ROW, text)


def step(text: str) -> Line:
    return Line(Role.STEP, text)


def state(text: str) -> Line:
    return Line(Role.STATE, text)


def flag(text: str) -> Line:
    return Line(Role.FLAG, text)


def note(text: str) -> Line:
    return Line(Role.NOTE, text)


class Marks:
    """Where expected and recorded first part ways: the smallest event sequence a finding
    points at. ``at(sequence, why)`` returns the mark line once, at that sequence
    (``where`` says the place in words, by default ``#sequence``)."""

    def __init__(self, sequences: Iterable[int | None]):
        known = [s for s in sequences if isinstance(s, int)]
        self.first = min(known) if known else None
        self.done = False

    def at(self, sequence: Any, why: str, where: str | None = None) -> list[Line]:
        if self.done or self.first is None or sequence != self.first:
            return []
        self.done = True
        return [divergence(where or f"#{sequence}", why)]

    def rest(self, why: str) -> list[Line]:
        """The mark when no listed line carried it (e.g. a finding at settlement)."""
        if self.done or self.first is None:
            return []
        self.done = True
        return [divergence(f"#{self.first}", why)]


def divergence(where: str, why: str) -> Line:
    """The first-divergence mark: where, and why (the findings raised there)."""
    return Line(Role.DIVERGENCE, f"{FIRST} at {where}: {why}")


def numbered(findings: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """finding_id -> its number in the findings section (1-based)."""
    return {str(f.get("finding_id")): n for n, f in enumerate(findings, 1)}


def rows(findings: Iterable[Mapping[str, Any]], about: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Finding rows as ``audit.judging.current_findings`` makes them: the finding's
    record plus who and what it is about (``audit.judging.finding_about``; ``about``
    holds ``subject_kind``, ``rulebook`` and the context)."""
    whole = finding_about(about.get("subject_kind"), about.get("rulebook"), about)
    return [{**f, **whole} for f in findings]


def findings_section(
    found: Sequence[Mapping[str, Any]], *, variant: str | None = None, at: datetime | None = None
) -> list[Line]:
    """Each finding in words (``wording.sentence``), its rule's summary, and for a
    ``no_rulebook`` finding the ``--rulebook`` that would judge it."""
    lines = [heading(f"FINDINGS: {len(found)} finding(s)")]
    if not found:
        lines.append(note(f"{INDENT}none: the records agree with the rules"))
    for number, one in enumerate(found, 1):
        lines.append(
            Line(
                Role.FINDING,
                f"{INDENT}{number}. [{safe(one.get('kind'))}] {safe(sentence(dict(one)))}",
            )
        )
        citation = str(one.get("citation") or "")
        if citation:
            summary = summary_of(citation) or citation
            label = "rule" if label_of(citation) == RULE else "not written in the rules"
            if not summary.startswith(citation):
                lines.append(Line(Role.RULE, f"{INDENT}   {label}: {safe(citation)}"))
                lines.append(Line(Role.RULE, f"{INDENT}         {safe(summary)}"))
            else:
                lines.append(Line(Role.RULE, f"{INDENT}   {label}: {safe(summary)}"))
        if one.get("kind") == "no_rulebook":
            hint = rulebook_hint(one, variant, at)
            lines += [Line(Role.RULE, f"{INDENT}   {text}") for text in hint]
    return lines


def rulebook_hint(row: Mapping[str, Any], variant: str | None, at: datetime | None) -> list[str]:
    """Which ``--rulebook`` would judge a subject a ``no_rulebook`` finding is about."""
    detail = row.get("detail") or {}
    candidates = [str(c) for c in detail.get("candidates") or ()]
    if candidates:
        named = " or ".join(f"--rulebook {safe(c)}" for c in candidates)
        return [f"to judge it, name one rulebook (several cover it): {named}"]
    recorded = row.get("recorded")
    if isinstance(recorded, Mapping) and recorded.get("variant"):
        variant = str(recorded["variant"])
    if not variant:
        return ["no rulebook can be named for it: its variant or game is unknown"]
    books = [b for b in all_rulebooks() if variant in b.variants]
    if not books:
        return [f"no registered rulebook covers {safe(variant)}: none can judge it"]
    in_force = [b for b in books if at is None or b.covers(variant, at)]
    if in_force:
        named = " or ".join(f"--rulebook {safe(b.id)}" for b in in_force)
        return [f"rulebooks covering {safe(variant)}: {named}"]
    listed = ", ".join(f"{safe(b.id)} (in force from {b.valid_from.date()})" for b in books)
    return [f"rulebooks for {safe(variant)}, none in force at its start: {listed}"]


def adjudication_units(
    store: StoreReads, keys: Sequence[UnitKey], verdicts: Verdicts | None = None
) -> list[tuple[str, dict[str, Any]]]:
    """(unit id, record) of every stored adjudication unit on one of ``keys``, in the order
    stored (oldest first); ``verdicts`` finds their ids (``audit.judging.Verdicts``; by
    default a scan of the store)."""
    ids = (verdicts or StoreVerdicts(store)).unit_ids(keys)
    return [(uid, records[0]) for uid, records in store.iter_records(ADJUDICATION, ids) if records]


def history_section(
    units: Sequence[tuple[str, Mapping[str, Any]]], *, judged_digest: str | None = None
) -> list[Line]:
    """Every stored verdict on the subject (``units`` in the order stored), newest first,
    the current one marked (``audit.judging.latest``); and whether the judgement shown
    above is the current one."""
    lines = [heading(f"VERDICT HISTORY: {len(units)} stored verdict(s), newest first")]
    if not units:
        lines.append(note(f"{INDENT}none stored yet (run casino-audit replay)"))
    current_id = latest([unit_id for unit_id, _ in units])
    current_record = current_of(units)
    for unit_id, record in reversed(units):
        digest = str(record.get("input_digest") or "-")
        count = len(record.get("findings") or ())
        extra = f", as of {safe(record['as_of'])}" if record.get("as_of") else ""
        scope = f" over {safe(record.get('subject'))}" if record.get("kind") == "collusion" else ""
        current = "  (current)" if unit_id == current_id else ""
        lines.append(
            row(
                f"{INDENT}replayer {safe(record.get('replayer_version'))}{scope}, inputs "
                f"{safe(digest[:16])}, {count} finding(s){extra}{current}"
            )
        )
    if judged_digest is not None:
        if (
            current_record is not None
            and current_record.get("input_digest") == judged_digest
            and current_record.get("replayer_version") == REPLAYER_VERSION
        ):
            lines.append(note(f"{INDENT}the judgement above is the current stored verdict"))
        else:
            lines.append(
                note(
                    f"{INDENT}the judgement above is not stored yet (new inputs or replayer "
                    f"{REPLAYER_VERSION}): run casino-audit replay"
                )
            )
    return lines


def latest_declaration(events: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
    """A table's declaration in force last (the latest ``effective_from``, then sequence)."""
    declared = [e for e in events if e.get("type") == "TableTermsDeclared"]
    if not declared:
        return {}
    return max(declared, key=lambda e: (str(e.get("effective_from")), e.get("sequence", 0)))


@dataclass(frozen=True)
class Setting:
    """What a header takes from a subject's events when no opening event says it (a
    table's declarations): its game, when it starts, its currency and its operator."""

    variant: Any
    started_at: Any
    currency: Any
    operator: Any


def declared_setting(events: Sequence[Mapping[str, Any]]) -> Setting:
    """A table's header: the game, currency and operator of its declaration in force last
    (``latest_declaration``), from when its first declaration took effect."""
    latest = latest_declaration(events)
    starts = [e["effective_from"] for e in events if e.get("effective_from")]
    return Setting(
        latest.get("game"),
        min(starts) if starts else None,
        latest.get("currency"),
        latest.get("operator"),
    )


Flagged = tuple[Mapping[str, Any], tuple[str, Mapping[str, Any]]]
"""A night's suspicion: (the finding, its detector unit (unit id, record))."""


def collusion_nights(
    store: StoreReads, subject: str, verdicts: Verdicts | None
) -> dict[str, Flagged]:
    """Night -> the nightly detector's suspicion on a pair (or ring) that night, in the
    order the units were stored: the pair's verdict history, as ``show`` and the console
    list it. Only each night's current unit counts (``audit.current.current_units``): when
    a rerun of a night no longer flags the pair, that night holds no suspicion."""
    units = adjudication_units(store, [("collusion", None)], verdicts)
    current = set(current_units(unit_id for unit_id, _ in units).values())
    by_night: dict[str, Flagged] = {}
    for unit_id, record in units:
        if unit_id not in current:
            continue
        for finding in record.get("findings") or ():
            if finding.get("subject") == subject:
                by_night[str(record.get("subject"))] = (finding, (unit_id, record))
    return by_night
