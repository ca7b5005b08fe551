"""Table terms: what a table declares where its rulebook leaves the choice to the house.

A table's terms are stored events (``schemas/table_terms.avsc``: ``TableTermsDeclared``),
each effective from a given instant. A hand or round is judged under the declaration in
force at its start: the latest whose ``effective_from`` is not after the start (ties: the
later sequence). PT-217/2007 n.º 7 and the GG-2022 game pages leave the rake (rate, cap,
"no flop, no drop") to the table; MO-97/2010 art.16 fixes a band (3-5% of each pot, at
most five big blinds) that a declaration may narrow but never widen.

``adjudicate_table`` judges the declarations themselves: terms the named rulebook does not
allow are a ``terms_outside_rulebook`` finding on the table, cited to the article.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from replayer.events import FlatEvent
from replayer.findings import Finding, FindingKind
from replayer.rulebooks.poker import FeeTerms, PokerRulebook, RakeTerms
from replayer.rulebooks.registry import all_rulebooks

DECLARED = "TableTermsDeclared"
SCHEMA = "schemas/table_terms.avsc"


def terms_in_force(declarations: Sequence[FlatEvent], at: datetime | None) -> FlatEvent | None:
    """The declaration governing a subject started at ``at`` (None: none in force).

    A subject whose start time is unknown is governed by no declaration: which one was
    in force cannot be told.
    """
    if at is None:
        return None
    best: FlatEvent | None = None
    for record in declarations:
        if record.get("type") != DECLARED:
            continue
        effective = record.get("effective_from")
        if not isinstance(effective, datetime) or effective > at:
            continue
        key = (effective, int(record.get("sequence", 0)))
        if best is None or key >= (best["effective_from"], int(best.get("sequence", 0))):
            best = record
    return best


def declared_rake(record: Mapping[str, Any] | None) -> RakeTerms | None:
    """The rake a declaration states (None: it states none).

    ``rake_cap_per = "pot"`` caps each pot's rake instead of the hand's.
    Raises ``ValueError`` for a band that is not ``0 <= min <= max <= 10000`` bps.
    """
    if record is None or record.get("rake_min_bps") is None:
        return None
    low = int(record["rake_min_bps"])
    high = record.get("rake_max_bps")
    return RakeTerms(
        min_bps=low,
        max_bps=low if high is None else int(high),
        cap=record.get("rake_cap"),
        cap_big_blinds=record.get("rake_cap_big_blinds"),
        only_if_board=bool(record.get("no_flop_no_drop", False)),
        cap_per_pot=record.get("rake_cap_per") == "pot",
    )


def declared_chip(record: Mapping[str, Any] | None) -> int | None:
    """The smallest chip a declaration states, minor units (None: it states none).

    A room's hand history does not name its chips, yet a tie is paid in them: PokerStars'
    $0.25/$0.50 tables of 2008-2010 played in $0.05 (every stack, bet and payout a
    multiple of it; a $1.90 four-way tie paid $0.50, $0.50, $0.45, $0.45), its tables of
    the same stakes from 2012 in cents. The declared chip is the table's split unit
    (MO-97/2010 art.10(4); GG-2022 Política de mãos atadas: shared equally, in chips).

    >>> declared_chip({"smallest_chip": 5}), declared_chip({"smallest_chip": None})
    (5, None)
    """
    chip = None if record is None else record.get("smallest_chip")
    return chip if isinstance(chip, int) and chip > 0 else None


def _least(*values: int | None) -> int | None:
    present = [value for value in values if value is not None]
    return min(present) if present else None


def rake_in_force(rulebook: RakeTerms | None, declared: RakeTerms | None) -> RakeTerms | None:
    """The rake terms a hand is judged by.

    Where the rulebook fixes a band (MO-97/2010 art.16) a declaration narrows it: the band
    is the overlap, the cap the lower one. A declaration that does not overlap the
    rulebook's band is outside the law: the rulebook's own terms govern (the declaration
    itself is a ``terms_outside_rulebook`` finding, ``adjudicate_table``). Where the
    rulebook leaves the rake to the table (PT-217/2007 n.º 7; GG-2022) the declaration
    governs alone.
    """
    if declared is None or rulebook is None:
        return declared if rulebook is None else rulebook
    low = max(rulebook.min_bps, declared.min_bps)
    high = min(rulebook.max_bps, declared.max_bps)
    if low > high:
        return rulebook
    return RakeTerms(
        min_bps=low,
        max_bps=high,
        cap=_least(rulebook.cap, declared.cap),
        cap_big_blinds=_least(rulebook.cap_big_blinds, declared.cap_big_blinds),
        only_if_board=rulebook.only_if_board or declared.only_if_board,
        cap_per_pot=rulebook.cap_per_pot and declared.cap_per_pot,
    )


def declared_fees(record: Mapping[str, Any] | None) -> FeeTerms | None:
    """The fees other than rake a declaration allows (None: it states none).

    ``fee_kinds`` (FeeKind symbols; empty: none allowed), ``fee_max_bps`` and ``fee_cap``
    (minor units), each bounding the hand's fees together (``schemas/table_terms.avsc``
    v2; a declaration without ``fee_kinds``, every v1 one included, states none, and
    ``adjudicate_hand(fee_terms=...)`` may pass terms directly). Raises ``ValueError``
    for an unknown kind or a rate outside 0..10000 bps.
    """
    if record is None or record.get("fee_kinds") is None:
        return None
    return FeeTerms(
        kinds=frozenset(str(kind) for kind in record["fee_kinds"]),
        max_bps=record.get("fee_max_bps"),
        cap=record.get("fee_cap"),
    )


def fees_in_force(rulebook: FeeTerms | None, declared: FeeTerms | None) -> FeeTerms | None:
    """The fee terms a hand is judged by: like the rake (``rake_in_force``), a rulebook
    that fixes its fees (MO-97/2010 art.16: none besides the commission) is narrowed by a
    declaration, never widened (the kinds both allow, the lower bounds); where the
    rulebook leaves them to the table (PT-217/2007 n.º 7, 65; GG-2022) the declaration
    governs alone, and with neither, a fee taken is ``terms_missing``.
    """
    if declared is None or rulebook is None:
        return declared if rulebook is None else rulebook
    return FeeTerms(
        kinds=rulebook.kinds & declared.kinds,
        max_bps=_least(rulebook.max_bps, declared.max_bps),
        cap=_least(rulebook.cap, declared.cap),
    )


@dataclass(frozen=True)
class TableVerdict:
    """The verdict on one table's declarations (a ``replayer.verdict.Verdict``)."""

    table_id: str
    rulebook_id: str | None
    findings: tuple[Finding, ...] = ()
    declarations: int = 0


def adjudicate_table(events: Sequence[FlatEvent]) -> TableVerdict:
    """Check every declaration of a table against the rulebook it names.

    Poker: a declared rake band or cap wider than the rulebook's own (MO-97/2010 art.16:
    3-5% of each pot, at most five big blinds) is ``terms_outside_rulebook``; a band that
    is not ``0 <= min <= max <= 100%`` is ``data_quality``. Banked games: a declared
    commission above the rulebook's rate (GG-2022 live II 2.2: 5% of the banker's win) is
    ``terms_outside_rulebook``. An unknown rulebook id is ``no_rulebook``.
    """
    ordered = sorted(events, key=lambda e: int(e.get("sequence", 0)))
    table_id = str(ordered[0].get("table_id", "")) if ordered else ""
    rulebook: str | None = None
    findings: list[Finding] = []
    declarations = 0
    books = {book.id: book for book in all_rulebooks()}
    for record in ordered:
        if record.get("type") != DECLARED:
            continue
        declarations += 1
        rulebook_id = record.get("rulebook")
        if rulebook_id is None:
            continue
        rulebook = str(rulebook_id)
        book = books.get(str(rulebook_id))
        if book is None:
            findings.append(
                _finding(
                    FindingKind.NO_RULEBOOK,
                    table_id,
                    record,
                    "casino-audit rulebook registry",
                    f"the table declares unknown rulebook {rulebook_id!r}",
                    expected=sorted(books),
                    recorded=rulebook_id,
                )
            )
            continue
        findings.extend(_outside(table_id, record, book))
    return TableVerdict(table_id, rulebook, tuple(findings), declarations)


def _outside(table_id: str, record: FlatEvent, book: Any) -> list[Finding]:
    """Findings for what one declaration states beyond its rulebook."""
    found: list[Finding] = []
    if isinstance(book, PokerRulebook):
        try:
            declared = declared_rake(record)
        except ValueError as error:
            return [_finding(FindingKind.DATA_QUALITY, table_id, record, SCHEMA, str(error))]
        found.extend(_limits_outside(table_id, record, book))
        law = book.rake
        if declared is None or law is None:
            return found
        if declared.min_bps < law.min_bps or declared.max_bps > law.max_bps:
            found.append(
                _finding(
                    FindingKind.TERMS_OUTSIDE_RULEBOOK,
                    table_id,
                    record,
                    book.cite.rake_rate,
                    f"declared rake {_percent(declared.min_bps)}-{_percent(declared.max_bps)}"
                    f" of each pot; {book.id} allows {_percent(law.min_bps)}-"
                    f"{_percent(law.max_bps)}",
                    expected={"min_bps": law.min_bps, "max_bps": law.max_bps},
                    recorded={"min_bps": declared.min_bps, "max_bps": declared.max_bps},
                )
            )
        if (
            law.cap_big_blinds is not None
            and (declared.cap_big_blinds is None or declared.cap_big_blinds > law.cap_big_blinds)
            and declared.cap is None
        ):
            found.append(
                _finding(
                    FindingKind.TERMS_OUTSIDE_RULEBOOK,
                    table_id,
                    record,
                    book.cite.rake_cap,
                    f"declared rake cap of {declared.cap_big_blinds or 'no'} big blinds; "
                    f"{book.id} caps the rake at {law.cap_big_blinds} big blinds",
                    expected={"cap_big_blinds": law.cap_big_blinds},
                    recorded={"cap_big_blinds": declared.cap_big_blinds},
                )
            )
        return found
    rule_rate = getattr(book, "commission_bps", None)
    declared_rate = record.get("commission_bps")
    if rule_rate is not None and declared_rate is not None and declared_rate > rule_rate:
        found.append(
            _finding(
                FindingKind.TERMS_OUTSIDE_RULEBOOK,
                table_id,
                record,
                getattr(book, "commission_citation", "GG-2022 live II 2.2"),
                f"declared banker commission {_percent(declared_rate)}; {book.id} allows "
                f"{_percent(rule_rate)}",
                expected={"commission_bps": rule_rate},
                recorded={"commission_bps": declared_rate},
            )
        )
    return found


def _limits_outside(table_id: str, record: FlatEvent, book: PokerRulebook) -> list[Finding]:
    """A declared minimum that is not the share of the maximum the rulebook allows
    (``TableLimits``: PT-217/2007 n.º 20, from 20% to 40%)."""
    rules = book.table_limits
    minimum, maximum = record.get("min_bet"), record.get("max_bet")
    if rules is None or not isinstance(minimum, int) or not isinstance(maximum, int):
        return []
    issue = rules.minimum_share_issue(minimum, maximum)
    if issue is None:
        return []
    low, high = rules.min_to_max_bps
    return [
        _finding(
            FindingKind.TERMS_OUTSIDE_RULEBOOK,
            table_id,
            record,
            rules.minimum_share,
            issue,
            expected={"min_bet_bps_of_max": [low, high]},
            recorded={"min_bet": minimum, "max_bet": maximum},
        )
    ]


def _percent(bps: int) -> str:
    whole, rest = divmod(int(bps), 100)
    return f"{whole}%" if not rest else f"{whole}.{rest:02d}".rstrip("0") + "%"


def _finding(
    kind: FindingKind,
    table_id: str,
    record: FlatEvent,
    citation: str,
    reason: str,
    *,
    expected: Any = None,
    recorded: Any = None,
) -> Finding:
    effective = record.get("effective_from")
    return Finding(
        kind,
        table_id,
        citation,
        reason,
        expected=expected,
        recorded=recorded,
        detail={
            "sequence": int(record.get("sequence", 0)),
            "effective_from": effective.isoformat() if isinstance(effective, datetime) else None,
        },
    )
