"""Slot jackpot findings as sentences, in the machine's money (``replayer.slots.jackpot``:
PT-217/2007 III.3-6). A shape not recognised reads as the finding's reason."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from audit.wording.rows import _cite, _detail, _is_amount, _money


def contribution(row: Mapping[str, Any]) -> str | None:
    """A deduction other than the declared share of the wagers since the one before."""
    detail, expected, recorded = _detail(row), row.get("expected"), row.get("recorded")
    wagered, rate = detail.get("wagered"), detail.get("rate_bps")
    if not (
        _is_amount(expected) and _is_amount(recorded) and _is_amount(wagered) and _is_amount(rate)
    ):
        return None
    gap = recorded - expected
    return (
        f"{_money(row, recorded)} deducted to jackpot {detail.get('pool')} from "
        f"{_money(row, wagered)} wagered since the deduction before, where the declared "
        f"{rate / 100:g}% makes {_money(row, expected)}: {_money(row, abs(gap))} "
        f"{'too much' if gap > 0 else 'short'} ({_cite(row)})"
    )


def liability(row: Mapping[str, Any]) -> str | None:
    """A jackpot read as holding other than its books give."""
    expected, recorded = row.get("expected"), row.get("recorded")
    if not (_is_amount(expected) and _is_amount(recorded)):
        return None
    gap = recorded - expected
    return (
        f"jackpot {_detail(row).get('pool')} read as holding {_money(row, recorded)} where "
        f"its reading before, contributions, awards and transfers give {_money(row, expected)}"
        f": {_money(row, abs(gap))} {'more' if gap > 0 else 'missing'} of the amount held in "
        f"trust ({_cite(row)})"
    )


def transfer(row: Mapping[str, Any]) -> str | None:
    """A jackpot moved otherwise than whole to a like machine that records receiving it:
    what was moved of what it held, how the machine differs, what it records receiving."""
    detail, expected, recorded = _detail(row), row.get("expected"), row.get("recorded")
    if not _is_amount(recorded):
        return None
    to, received, unlike = detail.get("to_machine"), detail.get("received"), detail.get("unlike")
    said = [f"{_money(row, recorded)} moved"]
    if _is_amount(expected):
        said[0] += f" of the {_money(row, expected)} it held"
    if isinstance(received, list):
        if unlike:
            said.append(f"machine {to} differs in {', '.join(map(str, unlike))}")
        if recorded not in received:
            amounts = ", ".join(_money(row, a) for a in received) or "nothing"
            said.append(f"machine {to} records receiving {amounts}")
    else:
        said.append(f"no record of machine {to}")
    return f"jackpot {detail.get('pool')} moved to machine {to}: {'; '.join(said)} ({_cite(row)})"
