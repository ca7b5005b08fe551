"""Fleet view of the slot machines played on a day: return and meter variance per machine.

Per machine, from the day's events: games, coin in (wagers), coin out (wins credited by
the machine), the actual return against the paytable's theoretical return (basis
points) and how many standard errors apart they are; and the meter variance: each
metered amount's movement between the day's first and last MeterRead (modulo the
meter width) less what the events between them add up to. The replayer's
``reconcile_machine`` (stored verdicts) judges each machine under its rulebook; its
``meter_discrepancy`` findings are counted here beside the figures. Money stays in
integer minor units; only the z-score is a float.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from audit.store import AuditStore

DEFAULT_SD_BPS = 80_000
METERED = {"coin_in": "wager", "coin_out": "win"}


def _on(record: dict[str, Any], day: date) -> bool:
    at = record.get("occurred_at")
    return isinstance(at, datetime) and at.date() == day


def machine_figures(records: Sequence[dict[str, Any]], day: date) -> dict[str, Any]:
    """The day's figures of one machine's records (the whole stream may span days)."""
    config: dict[str, Any] = {}
    games = coin_in = coin_out = 0
    reads: list[tuple[dict[str, int], dict[str, int]]] = []
    since_first_read = {"wager": 0, "win": 0}
    for record in records:
        kind = record.get("type")
        if kind == "MachineConfigured":
            config = record
        if not _on(record, day):
            continue
        if kind == "GamePlayed":
            games += 1
            coin_in += int(record["wager"])
            credited = 0 if record.get("handpaid") else int(record["win"])
            coin_out += credited
            since_first_read["wager"] += int(record["wager"])
            since_first_read["win"] += credited
        elif kind == "MeterRead":
            reads.append((dict(record["meters"]), dict(since_first_read)))
    theoretical = int(config.get("theoretical_return_bps") or 0)
    actual = coin_out * 10_000 // coin_in if coin_in else 0
    sd = int(config.get("return_sd_bps") or DEFAULT_SD_BPS)
    z = (actual - theoretical) / (sd / math.sqrt(games)) if games and theoretical else 0.0
    return {
        "games": games,
        "coin_in": coin_in,
        "coin_out": coin_out,
        "actual_return_bps": actual,
        "theoretical_return_bps": theoretical,
        "z": round(z, 3),
        "meter_variance": _variance(reads, int(config.get("meter_width_digits") or 18)),
    }


def _variance(reads: list[tuple[dict[str, int], dict[str, int]]], width: int) -> dict[str, int]:
    """Meter movement between the first and last reading less the events' sums."""
    if len(reads) < 2:
        return {}
    (first, first_sums), (last, last_sums) = reads[0], reads[-1]
    modulus = 10**width
    variance = {}
    for meter, field_name in METERED.items():
        if meter in first and meter in last:
            moved = (last[meter] - first[meter]) % modulus
            variance[meter] = moved - (last_sums[field_name] - first_sums[field_name])
    return variance


def fleet(store: AuditStore, machines: Sequence[str], day: date) -> dict[str, Any]:
    """machine -> the day's figures, for every machine judged that day."""
    stored = store.iter_records("slots", machines)
    return {machine: machine_figures(records, day) for machine, records in stored}
