"""A shoe (sabot) judged whole: the rounds of one table dealt from one shoe, in play order.

No round shows a shoe: each is legal on its own. Taken together, the rounds of one shoe
(``RoundOpened.shoe_id`` at one table, voided rounds included, since their cards left
the shoe too) must agree with what the shoe holds:

* composition: a shoe of *n* decks shows each card at most *n* times and at most
  *n* × 52 cards in all, its burnt cards included (PT-217/2007 I.4 and I.13 for chemin de
  fer; GG-2022 live II 1.3.1 for punto banco; for blackjack, whose deck count GG-2022 live
  III leaves open, the shoe's own ``ShoeOpened.decks`` against the reshuffle rule, III
  3.2.2). The decks are the ``ShoeOpened`` record's, else the rulebook's;
* the shoe as opened: the decks the rulebook fixes (punto banco, chemin de fer) and the
  cut card where the rulebook places it (``cut_card_from_end``: PT-217/2007 I.13, GG-2022
  live II 3.3.4, live III 3.3);
* the last coup: the round during which the cut card (chemin de fer: the warning card)
  comes out is the shoe's last, a round whose draw the card opens included (PT-217/2007
  I.14; GG-2022 live II 3.2.2, 3.5.4; live III 3.2.2). The last round is the one a
  ``CutCardDrawn`` record names; with a ``ShoeOpened`` stating the cut card, it is also
  found from the cards drawn, and the two must agree. A shoe may end sooner
  (``ShoeEnded``: the table closed, too few players, I.15). A round after the earliest
  of these is ``past_last_coup``;
* chemin de fer: every coup with at least ``min_seated`` players seated (PT-217/2007
  I.16, ``RoundOpened.seated`` where recorded), and no coup past the table's official
  closing time (``ShoeOpened.closing_at``) unless the sabot began at least
  ``closing_grace`` before it (I.107).

Shoe findings are counts of cards and rounds, never money: they carry no ``difference``.
What the records cannot show is not judged: a shoe without ``ShoeOpened`` is judged for
its composition against the rulebook's decks only (its burnt cards and cut card unknown).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from replayer.casino.record import SCHEMA_CITATION, VOID_TYPES
from replayer.events import FlatEvent
from replayer.findings import Finding, FindingKind
from replayer.frozen import rebuilt_by_init
from replayer.rulebooks.casino import CheminDeFerRules, casino_rulebook_for

CARDS_PER_DECK = 52


@dataclass(frozen=True, slots=True)
class ShoeArticles:
    """The articles a game's shoe is judged by: its decks (``decks_fixed``: the rulebook
    fixes their number, else a shoe's declared decks stand), the cut card's place, the
    last coup."""

    decks: str
    decks_fixed: bool
    cut: str
    last: str


SHOE_ARTICLES: dict[str, ShoeArticles] = {
    "punto_banco": ShoeArticles(
        "GG-2022 live II 1.3.1",
        True,
        "GG-2022 live II 1.3.1, 3.3.4",
        "GG-2022 live II 3.2.2, 3.5.4",
    ),
    "chemin_de_fer": ShoeArticles(
        "PT-217/2007 I.4, I.13", True, "PT-217/2007 I.13", "PT-217/2007 I.14"
    ),
    "blackjack": ShoeArticles(
        "GG-2022 live III 3.2.2", False, "GG-2022 live III 3.3", "GG-2022 live III 3.2.2"
    ),
}
"""Game -> its shoe's articles; a game absent here deals from no shoe."""
SEATED = "PT-217/2007 I.16"
CLOSING = "PT-217/2007 I.107"


@dataclass(frozen=True, slots=True)
class ShoeVerdict:
    """Findings on one shoe, with what was counted: rounds (voided ones among them) and
    cards drawn (burnt cards included)."""

    table_id: str
    shoe_id: str
    rulebook_id: str | None
    rounds: int
    voided: int
    cards_drawn: int
    findings: tuple[Finding, ...]

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return rebuilt_by_init(self)  # picklable compiled too (replayer.frozen)


def _opening(events: Sequence[FlatEvent]) -> FlatEvent:
    return next((e for e in events if e.get("type") == "RoundOpened"), events[0])


def play_order(events: Sequence[FlatEvent]) -> tuple[Any, str]:
    """A round's place in its shoe: its opening time, then its id."""
    first = _opening(events)
    return first.get("occurred_at"), str(first.get("round_id", ""))


def _of_type(events: Sequence[FlatEvent], kind: str) -> list[FlatEvent]:
    return [e for e in sorted(events, key=lambda e: e.get("sequence", 0)) if e.get("type") == kind]


@dataclass
class _Shoe:
    """The rounds of one shoe in play order and the cards each drew, counted."""

    rounds: list[Sequence[FlatEvent]]
    ids: list[str]
    opened: FlatEvent | None
    burnt: list[str]
    drawn_before: list[int]  # cards out of the shoe before each round's draw
    cards: list[list[str]]

    @property
    def drawn(self) -> int:
        return len(self.burnt) + sum(len(c) for c in self.cards)


def _read(rounds: Iterable[Sequence[FlatEvent]]) -> _Shoe:
    ordered = sorted((r for r in rounds if r), key=play_order)
    openings = [e for r in ordered for e in _of_type(r, "ShoeOpened")]
    opened = openings[0] if openings else None
    burnt = [str(c) for c in (opened.get("burnt") or ())] if opened else []
    shoe = _Shoe(ordered, [play_order(r)[1] for r in ordered], opened, burnt, [], [])
    out = len(burnt)
    for events in ordered:
        shoe.drawn_before.append(out)
        shoe.cards.append([str(e.get("card")) for e in _of_type(events, "CardDealt")])
        out += len(shoe.cards[-1])
    return shoe


def check_shoe(rounds: Iterable[Sequence[FlatEvent]]) -> ShoeVerdict:
    """Judge one shoe's rounds (one table, one ``shoe_id``) together (the module doc)."""
    shoe = _read(rounds)
    if not shoe.rounds:
        return ShoeVerdict("", "", None, 0, 0, 0, ())
    first = _opening(shoe.rounds[0])
    game = str(first.get("game", ""))
    when = first.get("occurred_at")
    rules = None
    if isinstance(when, datetime):
        rules, _ = casino_rulebook_for(first.get("rulebook"), game, when)
    articles = SHOE_ARTICLES.get(game)
    findings: list[Finding] = []
    if articles is not None:
        findings += _opened_twice(shoe)
        findings += _as_opened(shoe, rules, articles)
        decks = int(shoe.opened["decks"]) if shoe.opened else getattr(rules, "decks", None)
        if decks:
            findings += _composition(shoe, decks, articles)
            findings += _last_coup(shoe, decks, articles)
        if isinstance(rules, CheminDeFerRules):
            findings += _seated(shoe, rules) + _closing(shoe, rules)
    voided = sum(any(e.get("type") in VOID_TYPES for e in r) for r in shoe.rounds)
    where = {"table_id": str(first.get("table_id", "")), "shoe_id": str(first.get("shoe_id", ""))}
    return ShoeVerdict(
        where["table_id"],
        where["shoe_id"],
        getattr(rules, "id", None),
        len(shoe.rounds),
        voided,
        shoe.drawn,
        tuple(_named(f, where) for f in findings),
    )


def _named(finding: Finding, where: dict[str, str]) -> Finding:
    """The finding with its shoe named in its detail (table and shoe id): it is about a
    round, judged as part of the shoe."""
    return Finding(
        finding.kind,
        finding.subject,
        finding.citation,
        finding.reason,
        finding.expected,
        finding.recorded,
        finding.difference,
        {**finding.detail, **where},
    )


def _opened_twice(shoe: _Shoe) -> list[Finding]:
    """``ShoeOpened`` belongs in the shoe's first round, once (the schema's rule)."""
    places = [i for i, r in enumerate(shoe.rounds) if _of_type(r, "ShoeOpened")]
    if not places or places == [0]:
        return []
    named = [shoe.ids[i] for i in places]
    return [
        Finding(
            FindingKind.DATA_QUALITY,
            named[-1],
            SCHEMA_CITATION,
            f"the shoe is opened in round(s) {', '.join(named)}, not once in its first "
            f"round {shoe.ids[0]}: its rounds are counted from the first opening",
            detail={"rounds": named},
        )
    ]


def _as_opened(shoe: _Shoe, rules: Any, articles: ShoeArticles) -> list[Finding]:
    """The decks and the cut card as the shoe was opened, against the rulebook."""
    if shoe.opened is None or rules is None:
        return []
    found = []
    decks = shoe.opened.get("decks")
    if articles.decks_fixed and decks != rules.decks:
        found.append(
            Finding(
                FindingKind.SHOE_COMPOSITION,
                shoe.ids[0],
                articles.decks,
                f"the shoe was opened with {decks} decks; the rules play {rules.decks}",
                expected=rules.decks,
                recorded=decks,
            )
        )
    cut = shoe.opened.get("cut_card_from_end")
    if cut is not None and cut != rules.cut_card_from_end:
        found.append(
            Finding(
                FindingKind.SHOE_COMPOSITION,
                shoe.ids[0],
                articles.cut,
                f"the cut card was placed with {cut} cards behind it; the rules place it "
                f"with {rules.cut_card_from_end}",
                expected=rules.cut_card_from_end,
                recorded=cut,
            )
        )
    return found


def _composition(shoe: _Shoe, decks: int, articles: ShoeArticles) -> list[Finding]:
    """Each card at most ``decks`` times, at most ``decks`` × 52 cards in all; a finding
    names the round where the shoe first showed too many."""
    seen: Counter[str] = Counter(shoe.burnt)
    over: dict[str, str] = {}
    holds = decks * CARDS_PER_DECK
    past_end: str | None = shoe.ids[0] if len(shoe.burnt) > holds else None
    for round_id, before, cards in zip(shoe.ids, shoe.drawn_before, shoe.cards, strict=True):
        seen.update(cards)
        over.update((card, round_id) for card in cards if seen[card] > decks and card not in over)
        if past_end is None and before + len(cards) > holds:
            past_end = round_id
    found = [
        Finding(
            FindingKind.SHOE_COMPOSITION,
            round_id,
            articles.decks,
            f"card {card} shown {seen[card]} times in one shoe of {decks} decks, which "
            f"holds it {decks} times",
            expected=decks,
            recorded=seen[card],
            detail={"card": card, "decks": decks},
        )
        for card, round_id in sorted(over.items())
    ]
    if past_end is not None:
        found.append(
            Finding(
                FindingKind.SHOE_COMPOSITION,
                past_end,
                articles.decks,
                f"{shoe.drawn} cards drawn from one shoe of {decks} decks, which holds {holds}",
                expected=holds,
                recorded=shoe.drawn,
                detail={"decks": decks},
            )
        )
    return found


def _cut_reached(shoe: _Shoe, decks: int) -> tuple[int, int] | None:
    """(round index, cards before the cut card) of the round whose draw reaches the cut
    card as the shoe was opened; None when unknown or never reached."""
    cut = shoe.opened.get("cut_card_from_end") if shoe.opened else None
    if cut is None:
        return None
    before_cut = decks * CARDS_PER_DECK - int(cut)
    for index, (before, cards) in enumerate(zip(shoe.drawn_before, shoe.cards, strict=True)):
        if before <= before_cut < before + len(cards):
            return index, before_cut
    return None


def _last_coup(shoe: _Shoe, decks: int, articles: ShoeArticles) -> list[Finding]:
    """No round after the one the cut card came out in; where it came out agrees with
    where it was placed."""
    found = []
    recorded = [
        (i, int(e.get("after_cards", 0)))
        for i, r in enumerate(shoe.rounds)
        for e in _of_type(r, "CutCardDrawn")
    ]
    reached = _cut_reached(shoe, decks)
    if recorded and reached is not None:
        index, after = recorded[0]
        out_at = shoe.drawn_before[index] + after
        if out_at != reached[1]:
            found.append(
                Finding(
                    FindingKind.SHOE_COMPOSITION,
                    shoe.ids[index],
                    articles.cut,
                    f"the cut card came out after {out_at} cards; as the shoe was opened "
                    f"it lies after {reached[1]}",
                    expected=reached[1],
                    recorded=out_at,
                )
            )
    ends = [i for i, r in enumerate(shoe.rounds) if _of_type(r, "ShoeEnded")]
    ends += [recorded[0][0]] if recorded else [reached[0]] if reached else []
    last = min(ends) if ends else None
    if last is not None and last < len(shoe.rounds) - 1:
        past = shoe.ids[last + 1 :]
        found.append(
            Finding(
                FindingKind.PAST_LAST_COUP,
                past[0],
                articles.last,
                f"{len(past)} round(s) dealt after round {shoe.ids[last]}, the shoe's last "
                "(the cut card came out in it, or the shoe ended), without a new shuffle",
                expected=shoe.ids[last],
                recorded=past,
                detail={"last_coup": shoe.ids[last], "rounds": past},
            )
        )
    return found


def _seated(shoe: _Shoe, rules: CheminDeFerRules) -> list[Finding]:
    """PT-217/2007 I.16: no coup with fewer than four seated players (where recorded)."""
    found = []
    for round_id, events in zip(shoe.ids, shoe.rounds, strict=True):
        seated = _opening(events).get("seated")
        if seated is not None and seated < rules.min_seated:
            found.append(
                Finding(
                    FindingKind.ILLEGAL_ACTION,
                    round_id,
                    SEATED,
                    f"coup played with {seated} players seated; the game needs {rules.min_seated}",
                    expected=rules.min_seated,
                    recorded=seated,
                )
            )
    return found


def _closing(shoe: _Shoe, rules: CheminDeFerRules) -> list[Finding]:
    """PT-217/2007 I.107: past the closing time, only a sabot begun ``closing_grace``
    before it goes on."""
    closing = shoe.opened.get("closing_at") if shoe.opened else None
    began = shoe.opened.get("occurred_at") if shoe.opened else None
    if not isinstance(closing, datetime) or not isinstance(began, datetime):
        return []
    late = [i for i, r in zip(shoe.ids, shoe.rounds, strict=True) if play_order(r)[0] > closing]
    if not late or closing - began >= rules.closing_grace:
        return []
    minutes = int((closing - began).total_seconds() // 60)
    return [
        Finding(
            FindingKind.ILLEGAL_ACTION,
            late[0],
            CLOSING,
            f"{len(late)} coup(s) played after the closing time {closing.isoformat()} from "
            f"a sabot begun {minutes} minutes before it; play goes on only for a sabot begun "
            f"{int(rules.closing_grace.total_seconds() // 60)} minutes before",
            expected=[],
            recorded=late,
            detail={"closing_at": closing.isoformat(), "began": began.isoformat()},
        )
    ]
