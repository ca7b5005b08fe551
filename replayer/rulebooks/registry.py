"""The rulebook registry: which rulebook judges a hand or round.

A rulebook is jurisdiction x game x effective period (ARCHITECTURE.md). Every module of
this package that defines ``RULEBOOKS`` (a tuple of objects satisfying ``Rulebook``) is
registered, in module-name order, the first time the registry is used; casino rulebooks
join by adding a ``replayer/rulebooks/casino*.py`` module with its own ``RULEBOOKS``.

Choosing (``choose_rulebook``):

* an explicit id (``HandStarted.rulebook``, or an override) must exist, cover the variant
  and be in force at the start time;
* without an id, exactly one registered rulebook may cover the variant at that time. None,
  or several (e.g. a PO hand after 2022-09-28 is covered by Macau, Portugal and GGPoker
  alike), is a ``no_rulebook`` finding naming the variant, the time and the candidates:
  the replayer never guesses a jurisdiction;
* ``NONE_APPLIES`` (``"none"``) as the id: the source says that no registered rulebook is
  its own (a room whose rules text the project does not hold: a PokerStars hand, or a
  GGPoker hand outside GG-2022's period or games), so the hand is not judged by the
  period choice either: a land casino's rules in force that day (PT-217/2007, MO-97/2010)
  are not the room's rules. It is a ``no_rulebook`` finding naming the rulebooks in force
  that ``ingest --rulebook`` could name.

Every ``no_rulebook`` finding names the rulebooks covering the variant in force at the
hand's start (or, when the start is unknown, every one covering the variant). A rulebook
with a ``play`` (``PokerRulebook.play``: cash games, tournaments or both) is a candidate
and is named only for a hand of a play it judges (``tournament``).
"""

from __future__ import annotations

import importlib
import pkgutil
from datetime import datetime
from typing import Protocol, runtime_checkable

from replayer.findings import Finding, FindingKind

CITATION = "casino-audit rulebook registry"
UNKNOWN_TIME = "an unknown time"
NONE_APPLIES = "none"
"""The id a source gives a hand that no registered rulebook governs (see the module
docstring): never chosen by period, always a ``no_rulebook`` finding."""


@runtime_checkable
class Rulebook(Protocol):
    """What the registry needs of any rulebook (poker, casino, ...)."""

    @property
    def id(self) -> str: ...

    @property
    def valid_from(self) -> datetime: ...

    @property
    def valid_until(self) -> datetime | None: ...

    @property
    def variants(self) -> tuple[str, ...]: ...

    def covers(self, variant: str, at: datetime) -> bool: ...


_BOOKS: dict[str, Rulebook] = {}


def _load() -> dict[str, Rulebook]:
    if not _BOOKS:
        package = importlib.import_module("replayer.rulebooks")
        names = sorted(info.name for info in pkgutil.iter_modules(package.__path__))
        for name in names:
            module = importlib.import_module(f"replayer.rulebooks.{name}")
            for book in getattr(module, "RULEBOOKS", ()):
                register(book)
    return _BOOKS


def register(book: Rulebook) -> None:
    """Add a rulebook; a second, different rulebook under the same id is an error."""
    if not isinstance(book.valid_from, datetime) or book.valid_from.tzinfo is None:
        raise ValueError(f"rulebook {book.id!r}: valid_from must be tz-aware")
    existing = _BOOKS.get(book.id)
    if existing is not None and existing != book:
        raise ValueError(f"rulebook id {book.id!r} registered twice")
    _BOOKS[book.id] = book


def all_rulebooks() -> tuple[Rulebook, ...]:
    """Every registered rulebook, sorted by id."""
    books = _load()
    return tuple(books[key] for key in sorted(books))


def get_rulebook(rulebook_id: str) -> Rulebook:
    """The rulebook with this id; ``KeyError`` naming the known ids otherwise."""
    books = _load()
    try:
        return books[rulebook_id]
    except KeyError:
        raise KeyError(f"unknown rulebook {rulebook_id!r}; known: {sorted(books)}") from None


def choose_rulebook(
    rulebook_id: str | None,
    variant: str,
    started_at: datetime,
    *,
    subject: str = "",
    time_known: bool = True,
    tournament: bool = False,
) -> Rulebook | Finding:
    """The rulebook that judges a hand started at ``started_at``, or a ``no_rulebook``
    finding that says why none does (see the module docstring).

    ``time_known=False`` (the source gave no date): a rulebook named for the hand judges
    it without the period check, which cannot be made; without a name there is nothing
    to choose by, so it is a ``no_rulebook`` finding. ``tournament``: the hand is a
    tournament's (candidates and hints are the rulebooks judging its play).
    """
    when = started_at.isoformat() if time_known else UNKNOWN_TIME
    if not time_known:
        book = _load().get(rulebook_id) if rulebook_id is not None else None
        if book is not None and variant in book.variants:
            return book
        reason = (
            "the hand's start time is unknown and it names no rulebook"
            if rulebook_id is None
            else f"rulebook {rulebook_id!r} is unknown or does not cover variant {variant!r}"
        )
        return _none(subject, reason, variant, None, rulebook_id, _judging(tournament))
    if started_at.tzinfo is None:
        reason = f"start time {when} has no time zone"
        return _none(subject, reason, variant, started_at, rulebook_id, _judging(tournament))
    if rulebook_id is not None:
        book = _load().get(rulebook_id)
        if rulebook_id == NONE_APPLIES:
            reason = "its source names no rulebook that governs it (the room's rules are not held)"
        elif book is None:
            reason = f"unknown rulebook {rulebook_id!r}"
        elif variant not in book.variants:
            reason = f"rulebook {rulebook_id!r} does not cover variant {variant!r}"
        elif not book.covers(variant, started_at):
            reason = f"rulebook {rulebook_id!r} is not in force at {when}"
        else:
            return book  # of either play: the replayer names a play it does not judge
        return _none(subject, reason, variant, started_at, rulebook_id, _judging(tournament))
    books = _judging(tournament)
    candidates = [key for key in sorted(books) if books[key].covers(variant, started_at)]
    if len(candidates) == 1:
        return books[candidates[0]]
    if candidates:
        reason = f"several rulebooks cover variant {variant!r} at {when}: {candidates}"
    else:
        reason = f"no rulebook covers variant {variant!r} at {when}"
    return _none(subject, reason, variant, started_at, None, books, candidates)


def _judging(tournament: bool) -> dict[str, Rulebook]:
    """The registered rulebooks that judge a hand of this play, by id (made only when a
    choice or a finding needs them: a hand naming its rulebook is judged without)."""
    return {key: book for key, book in _load().items() if _judges(book, tournament)}


def _judges(book: Rulebook, tournament: bool) -> bool:
    """Whether ``book`` judges a hand of this play (a book without a play judges any)."""
    play = getattr(book, "play", None)
    return play is None or play.judges(tournament)


def _none(
    subject: str,
    reason: str,
    variant: str,
    at: datetime | None,
    rulebook_id: str | None,
    books: dict[str, Rulebook],
    candidates: list[str] | None = None,
) -> Finding:
    """The ``no_rulebook`` finding; it names the rulebooks that would judge the subject
    if named for it (``ingest --rulebook ID``): every rulebook covering its variant in
    force at its start ``at``, or, when the time is unknown (``at`` None) or has no zone,
    every one covering its variant."""
    when = UNKNOWN_TIME if at is None else at.isoformat()
    for_variant = sorted(key for key, book in books.items() if variant in book.variants)
    if at is None or at.tzinfo is None:
        would_judge = for_variant
    else:
        would_judge = [key for key in for_variant if books[key].covers(variant, at)]
    if would_judge:
        hint = f"; ingest --rulebook {' or --rulebook '.join(would_judge)} would judge it"
    elif for_variant:
        hint = f"; rulebooks for {variant!r} ({', '.join(for_variant)}) are not in force then"
    else:
        hint = f"; no rulebook covers variant {variant!r}"
    return Finding(
        kind=FindingKind.NO_RULEBOOK,
        subject=subject,
        citation=CITATION,
        reason=reason + hint,
        expected="exactly one rulebook in force for the variant and start time",
        recorded={"rulebook": rulebook_id, "variant": variant, "started_at": when},
        detail={"candidates": candidates or [], "would_judge": would_judge},
    )
