"""A banked round's rebuilt outcome reads in words: no Python literal (``banco False``,
``None``) and no identifier (``player_total``) reaches a person."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from audit.show.banked import _outcome
from replayer.casino.coup import rebuild
from replayer.casino.punto_banco import next_side

SHOE = ["4c", "Kd", "Ac", "8h"]


def _verdict(outcome: dict) -> SimpleNamespace:
    return SimpleNamespace(void=False, outcome=outcome)


@pytest.mark.parametrize("banco", [True, False])
def test_a_chemin_de_fer_coup_says_whether_it_was_a_banco(banco: bool) -> None:
    coup = rebuild(SHOE, next_side)
    text = _outcome(_verdict({**coup.as_outcome(), "banco": banco}))
    assert "the banker wins" in text and "player total 5" in text
    assert ("banco: one ponto staked the whole bank" in text) is banco
    assert ("no banco" in text) is not banco
    assert not re.search(r"\b(True|False|None)\b|_", text)


def test_blackjack_hands_and_an_unfinished_coup_read_as_words() -> None:
    text = _outcome(_verdict({"dealer": ["Jc", "9c"], "hands": {"1": ["3h", "2h"]}}))
    assert text.startswith("dealer ") and "; hand 1 " in text
    unfinished = _outcome(_verdict({"player": ["4c"], "winner": None, "settled": False}))
    assert "no winner: the coup was not completed" in unfinished
    assert "settled: no" in unfinished
    assert not re.search(r"\b(True|False|None)\b", unfinished)
