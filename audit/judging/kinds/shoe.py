"""A shoe (``shoe:<table id>:<shoe id>``): the rounds one table dealt from one shoe, judged
whole by ``replayer.casino.shoes.check_shoe`` (``audit.judging.shoes``). Who and what its
verdict is about comes from its first round's ``RoundOpened`` and its table's terms in
force, as a banked round's does."""

from __future__ import annotations

from audit.judging.inputs import Inputs
from audit.judging.kinds.banked import player_accounts, rounds_of
from audit.judging.kinds.record import SubjectKind
from replayer.casino.shoes import ShoeVerdict, check_shoe

SHOE = "shoe"
"""The subject kind of a shoe (``shoe:<table id>:<shoe id>``)."""


def _adjudicate(inputs: Inputs, with_steps: bool) -> ShoeVerdict:
    return check_shoe(rounds_of(inputs.events))


def _named(subject: str) -> bool:
    return subject.startswith(f"{SHOE}:")


SHOES = SubjectKind[ShoeVerdict](
    SHOE,
    _adjudicate,
    "RoundOpened",
    title="SHOE",
    noun="shoe",
    about=player_accounts,
    across=_named,
)
