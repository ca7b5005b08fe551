"""The explanation of a subject as data (``audit.explain.explanation``): what the
command line prints (``audit.show.text``) and the console renders with templates.

An ``Explanation`` is one ``Part`` per family the subject id is stored under (or an
``Unjudged`` part when its records cannot be judged). A part has a title, header
fields, a story, its findings and its verdict history. Every line carries its role
(``Role``), so no reader of an explanation looks at a line's text to know what it is.
A poker hand's story is structured (``PokerStory``: seats, streets of actions, pots and
the settlement the rules give beside the one recorded, the first divergence); the other
stories are lines typed by role.

Every text in it is already safe to print (``audit.show.common.safe``); money is
written in the subject's currency.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Role(StrEnum):
    """What a line of an explanation is."""

    HEADING = "heading"
    """A section's heading (``SEATS``, ``FINDINGS: 2 finding(s)``, ...)."""
    ROW = "row"
    """A line of a section: a bet, a configuration, a coup, a stored verdict..."""
    STEP = "step"
    """One recorded event, in order."""
    STATE = "state"
    """What an event leaves: the pot, the table's state, a window's deltas."""
    FLAG = "flag"
    """A finding raised at the line above (``! kind: see finding N``)."""
    DIVERGENCE = "divergence"
    """Where expected and recorded first part ways (``>>> first divergence ...``)."""
    FINDING = "finding"
    """A finding in words."""
    RULE = "rule"
    """A finding's rule, or which rulebook would judge it."""
    NOTE = "note"
    """A remark: nothing found, nothing stored, how to go on."""
    LINK = "link"
    """Another subject to look at (``Line.subject``): a pair's evidence hand, say."""
    BLANK = "blank"
    """An empty line between two groups."""


@dataclass(frozen=True)
class Line:
    """One line as printed (indentation included) and what it is."""

    role: Role
    text: str
    subject: str | None = None
    """The subject a ``LINK`` line points at (its id as stored)."""


BLANK = Line(Role.BLANK, "")


@dataclass(frozen=True)
class Field:
    """One header field: ``label  value`` (None: not known)."""

    label: str
    value: str | None


@dataclass(frozen=True)
class Card:
    """One card: as shown (``A♠``, ``10♦``, ``(hidden)``) and its suit (``s``, ``h``,
    ``d``, ``c``; empty when hidden or not a card)."""

    text: str
    suit: str


@dataclass(frozen=True)
class Seat:
    """A seat at the start of a hand."""

    seat: str
    label: str
    """``seat 2 (name)`` as the story says it."""
    player: str | None
    stack: str
    button: bool
    hole: tuple[Card, ...]
    """The hole cards dealt to it, as recorded (hidden cards included)."""


@dataclass(frozen=True)
class Flag:
    """A finding raised at an action: its kind and its number in the findings."""

    kind: str
    number: int | None


@dataclass(frozen=True)
class Action:
    """One event of a hand, with the state after it."""

    sequence: int
    time: str
    street: str
    kind: str
    """The event's type (``ActionTaken``, ``BlindPosted``, ``CardsDealt``, ...)."""
    seat: str | None
    player: str | None
    action: str | None
    """What the seat did (``fold``, ``raise``, ``small_blind``...) or the cards' target."""
    amount: str | None
    """The chips it moves (None when none: a fold, a check, a deal)."""
    cards: tuple[Card, ...]
    words: str
    """The event in words (``replayer.poker.wording``)."""
    state: str | None
    """Pot, the actor's chips behind, who acts next; None when the event moves none."""
    flags: tuple[Flag, ...]
    divergence: str | None
    """The first-divergence mark when the hand first parts from the rules here."""


@dataclass(frozen=True)
class Street:
    """Consecutive actions on one street, with the board cards dealt on it."""

    name: str
    board: tuple[Card, ...]
    actions: tuple[Action, ...]


@dataclass(frozen=True)
class Payout:
    """One seat's settlement: what it put in, what the rules pay, what was recorded."""

    seat: str
    label: str
    put_in: str
    expected: str
    recorded: str
    difference: str | None
    """What is owed or overpaid (or why the rules' share cannot be told); None when equal."""


@dataclass(frozen=True)
class Charge:
    """What the house took (rake, other fees): allowed by the rules vs recorded."""

    what: str
    allowed: str
    recorded: str
    difference: str | None


@dataclass(frozen=True)
class Pot:
    """A pot as the rules build it: its amount, its rake, the seats eligible for it, its
    winners (None: cannot be judged)."""

    name: str
    amount: str
    rake: str
    eligible: tuple[str, ...]
    winners: tuple[str, ...] | None


@dataclass(frozen=True)
class Settlement:
    """The settlement the rules give beside the recorded one."""

    judged: bool
    payouts: tuple[Payout, ...]
    charges: tuple[Charge, ...]
    outside: tuple[str, ...]
    """Money moved outside the pots (cash-outs, insurance, the odd chip kept)."""
    pots: tuple[Pot, ...]
    balance: str | None
    """Why the recorded settlement does not add up, when it does not."""


@dataclass(frozen=True)
class PokerStory:
    """A poker hand: seats, its actions street by street, the settlement."""

    seats: tuple[Seat, ...]
    streets: tuple[Street, ...]
    unreplayed: tuple[Line, ...]
    """When the hand could not be replayed step by step: why (its first divergence)."""
    settlement: Settlement
    first_divergence: int | None
    """The sequence of the event where expected and recorded first part ways."""


Story = PokerStory | tuple[Line, ...]


@dataclass(frozen=True)
class Part:
    """A subject under one family: title, header fields, story, findings, history."""

    title: str
    fields: tuple[Field, ...]
    story: Story
    findings: tuple[Line, ...]
    history: tuple[Line, ...]


@dataclass(frozen=True)
class Unjudged:
    """A subject under one family whose records cannot be judged, and why."""

    title: str
    reason: str


@dataclass(frozen=True)
class Explanation:
    """A subject explained: one part per family it is stored under."""

    subject: str
    parts: tuple[Part | Unjudged, ...]
