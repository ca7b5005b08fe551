"""Slot jackpots judged from the records: PT-217/2007 III.3 (the jackpot is a fixed share
of every wager, "sem prejuízo" of the 80% of III.2), III.4 (a superjackpot across linked
machines), III.5 (the amount held in trust), III.6 (an unawarded jackpot moved whole to a
like machine) and III.8 (approved characteristics not altered).

The simulated fleet (``simulate.fleet.group_day``) plants each fault class; every machine
of the group is judged with the other machines' jackpot records, as ``audit.judging``
gathers them. Hand-built streams check the arithmetic against exact fractions."""

from __future__ import annotations

import json
import random
from datetime import UTC, date, datetime, timedelta
from fractions import Fraction
from math import floor
from pathlib import Path
from typing import Any

import fastavro
import pytest

from audit.families import SCHEMA_DIR, family_named
from audit.ingest.avro_shape import to_avro
from audit.ingest.pipeline import ingest
from audit.judging import judge_stored
from audit.notation.money import format_money
from audit.store import AuditStore
from audit.wording.sentences import sentence
from replayer.slots import reconcile_machine
from replayer.slots.jackpot import jackpot_records, related_machines
from simulate.avro_out import write_input_file
from simulate.envelope import envelope
from simulate.fleet import group_day
from simulate.jackpots import (
    JACKPOT_FAULTS,
    PARTIAL_TRANSFER,
    SHARE_BELOW_RETURN,
    SHORT_CONTRIBUTION,
    UNAPPROVED,
    UNBACKED_LEVEL,
)
from simulate.slots import machine_month

DAY = date(2025, 6, 1)
T0 = datetime(2025, 6, 1, tzinfo=UTC)
LINKED = ["slot-0001", "slot-0002", "slot-0003", "slot-0004"]  # group 0: superjackpot sj-0
OWN = ["slot-0005", "slot-0006", "slot-0007", "slot-0008"]  # group 1: own jackpots


def judged(streams: dict[str, list[dict[str, Any]]]) -> dict[str, list[Any]]:
    """Each machine's findings, judged with the jackpot records of the machines it names."""
    verdicts = {}
    for machine, events in streams.items():
        related = [
            record
            for other in related_machines(events)
            for record in jackpot_records(streams.get(other, ()))
        ]
        verdicts[machine] = list(reconcile_machine(events, related).findings)
    return verdicts


def kinds(streams: dict[str, list[dict[str, Any]]]) -> dict[str, set[str]]:
    return {m: {str(f.kind) for f in found} for m, found in judged(streams).items() if found}


@pytest.mark.parametrize(("group", "members"), [(0, LINKED), (1, OWN)])
@pytest.mark.parametrize("seed", [1, 2])
def test_clean_jackpots_raise_nothing_pt_iii_3_to_6(
    seed: int, group: int, members: list[str]
) -> None:
    streams, planted = group_day(seed, DAY, group, members, games=150)
    assert planted == {}
    assert kinds(streams) == {}
    types = {e["type"] for events in streams.values() for e in events}
    assert {"JackpotContributed", "JackpotLevelRead", "ConfigurationApproved"} <= types
    if group == 1:  # one of the own jackpots moved whole to a like machine (III.6)
        assert {"JackpotTransferred", "JackpotReceived"} <= types


PLANTS = [
    (SHORT_CONTRIBUTION, 1, LINKED, "PT-217/2007 III.4"),
    (SHORT_CONTRIBUTION, 1, OWN, "PT-217/2007 III.3"),
    (SHARE_BELOW_RETURN, 1, OWN, "PT-217/2007 III.3"),
    (UNBACKED_LEVEL, 0, LINKED, "PT-217/2007 III.5"),
    (UNBACKED_LEVEL, 2, OWN, "PT-217/2007 III.5"),
    (PARTIAL_TRANSFER, 0, OWN, "PT-217/2007 III.6"),
    (UNAPPROVED, 3, LINKED, "PT-217/2007 III.8"),
]


@pytest.mark.parametrize(("fault", "index", "members", "article"), PLANTS)
def test_each_planted_jackpot_fault_is_found_on_its_machine_alone(
    fault: str, index: int, members: list[str], article: str
) -> None:
    """PT-217/2007 III.3, III.4, III.5, III.6, III.8: the planted machine raises exactly
    the fault's finding kinds, citing the article; no other machine of the group raises."""
    machine = members[index]
    group = 0 if members is LINKED else 1
    streams, planted = group_day(3, DAY, group, members, games=150, faults={machine: fault})
    assert list(planted) == [machine]
    expected = set(JACKPOT_FAULTS[fault][0])
    assert kinds(streams) == {machine: expected}
    found = judged(streams)[machine]
    assert {f.citation for f in found} == {article}
    money = [f for f in found if f.difference is not None]
    assert all(isinstance(f.difference, int) for f in money)


def test_every_jackpot_fault_class_is_planted_above() -> None:
    assert {fault for fault, *_ in PLANTS} == set(JACKPOT_FAULTS)


def test_a_partial_transfer_names_what_stayed_behind_pt_iii_6() -> None:
    machine = OWN[0]
    streams, planted = group_day(4, DAY, 1, OWN, games=150, faults={machine: PARTIAL_TRANSFER})
    [finding] = judged(streams)[machine]
    held, moved = planted[machine].detail["held"], planted[machine].detail["moved"]
    assert (finding.expected, finding.recorded, finding.difference) == (held, moved, moved - held)
    assert f"{moved} moved of the {held}" in finding.reason


def test_a_short_level_is_the_amount_missing_pt_iii_5() -> None:
    machine = LINKED[0]
    streams, planted = group_day(5, DAY, 0, LINKED, games=150, faults={machine: UNBACKED_LEVEL})
    [finding] = judged(streams)[machine]
    assert finding.difference == -planted[machine].detail["short"]
    # the pool's level is every linked machine's deductions (III.4): an independent sum
    deducted = sum(
        e["amount"] for m in LINKED for e in streams[m] if e["type"] == "JackpotContributed"
    )
    opening, *_, closing = [e for e in streams[machine] if e["type"] == "JackpotLevelRead"]
    assert finding.expected == opening["amount"] + deducted
    assert finding.recorded == closing["amount"]


def test_without_a_linked_machine_on_record_the_pool_is_not_judged_pt_iii_4() -> None:
    streams, _ = group_day(6, DAY, 0, LINKED, games=150, faults={LINKED[0]: UNBACKED_LEVEL})
    del streams[LINKED[2]]
    assert "jackpot_liability" not in kinds(streams).get(LINKED[0], set())


# Hand-built streams -------------------------------------------------------------------


class Stream:
    def __init__(self, machine: str, **declared: Any):
        self.machine = machine
        self.events: list[dict[str, Any]] = []
        self.emit(
            "MachineConfigured",
            rulebook="pt-217-2007-slots",
            currency="EUR",
            denomination=declared.pop("denomination", 1),
            meter_width_digits=10,
            theoretical_return_bps=declared.pop("theoretical_return_bps", 9_300),
            return_sd_bps=None,
            max_single_win=100_000,
            paytable_id="pt-93",
            source=None,
            model=declared.pop("model", "aurora-5"),
            jackpot_pool=declared.pop("pool", machine),
            jackpot_rate_bps=declared.pop("rate", 250),
            jackpot_linked=declared.pop("linked", None),
        )

    def emit(self, record_type: str, **body: Any) -> dict[str, Any]:
        at = T0 + timedelta(seconds=10 * len(self.events) + int(self.machine[-1]))
        event = envelope("machine_id", self.machine, len(self.events), at, record_type, **body)
        self.events.append(event)
        return event

    def games(self, *wagers: int) -> None:
        for wager in wagers:
            self.emit("GamePlayed", wager=wager, win=0, handpaid=False)


def test_each_deduction_is_the_fixed_share_of_the_wagers_exactly_pt_iii_3() -> None:
    """2.5% of 30 is 0.75 (0 sent, 0.75 carried); of 100 in all, 2.5: 2 sent in all. The
    oracle is exact fractions. A deduction of 1 on the first 30 is 1 too many, and the
    next, of 1 where the 70 wagered since and the carried 0.75 make 2, is 1 short: each
    deduction is judged on the wagers since the one before."""
    rate = Fraction(250, 10_000)
    legal = Stream("m1")
    legal.games(30)
    legal.emit("JackpotContributed", pool="m1", amount=floor(30 * rate))
    legal.games(30, 40)
    legal.emit("JackpotContributed", pool="m1", amount=floor(100 * rate) - floor(30 * rate))
    assert reconcile_machine(legal.events).findings == ()
    early = Stream("m1")
    early.games(30)
    early.emit("JackpotContributed", pool="m1", amount=1)
    early.games(30, 40)
    early.emit("JackpotContributed", pool="m1", amount=1)
    first, second = reconcile_machine(early.events).findings
    assert (first.kind, first.citation) == ("jackpot_contribution", "PT-217/2007 III.3")
    assert (first.expected, first.recorded, first.difference) == (0, 1, 1)
    assert (second.expected, second.recorded, second.difference) == (2, 1, -1)


def test_a_deduction_without_a_declared_jackpot_is_a_finding_pt_iii_3() -> None:
    stream = Stream("m1", rate=None, pool=None)
    stream.games(100)
    stream.emit("JackpotContributed", pool="m1", amount=2)
    [finding] = reconcile_machine(stream.events).findings
    assert finding.kind == "jackpot_contribution" and "no jackpot" in finding.reason


def test_the_return_without_the_jackpot_share_reaches_80_percent_pt_iii_3() -> None:
    assert reconcile_machine(Stream("m1", rate=1_300).events).findings == ()  # 93 - 13 = 80
    [finding] = reconcile_machine(Stream("m1", rate=1_301).events).findings
    assert (finding.kind, finding.citation) == ("return_out_of_band", "PT-217/2007 III.3")
    assert (finding.expected, finding.recorded) == (8_000, 7_999)


def test_awards_leave_the_pool_and_the_level_holds_the_rest_pt_iii_5() -> None:
    stream = Stream("m1", rate=1_000)
    stream.emit("JackpotLevelRead", pool="m1", amount=5_000)
    stream.games(100, 100)
    stream.emit("JackpotContributed", pool="m1", amount=20)
    stream.emit("JackpotAwarded", pool="m1", amount=3_000)
    stream.emit("JackpotLevelRead", pool="m1", amount=2_020)
    assert reconcile_machine(stream.events).findings == ()
    stream.events[-1]["amount"] = 5_020  # the award never left the pool's books
    [finding] = reconcile_machine(stream.events).findings
    assert (finding.kind, finding.citation) == ("jackpot_liability", "PT-217/2007 III.5")
    assert (finding.expected, finding.recorded, finding.difference) == (2_020, 5_020, 3_000)


def linked_pool(rates: dict[str, int]) -> dict[str, Stream]:
    machines = sorted(rates)
    return {m: Stream(m, pool="sj", rate=r, linked=machines) for m, r in rates.items()}


def test_the_machine_deducting_another_share_than_its_pool_is_named_pt_iii_4() -> None:
    pool = linked_pool({"m1": 500, "m2": 500, "m3": 700})
    found = judged({m: s.events for m, s in pool.items()})
    assert [f.detail["check"] for f in found["m3"]] == ["link_rate"]
    assert (found["m3"][0].expected, found["m3"][0].recorded) == (500, 700)
    assert found["m1"] == found["m2"] == []
    assert found["m3"][0].citation == "PT-217/2007 III.4"


def test_a_link_one_machine_does_not_state_is_a_finding_pt_iii_4() -> None:
    pool = linked_pool({"m1": 500, "m2": 500})
    pool["m3"] = Stream("m3", pool="sj", rate=500, linked=["m2", "m3"])
    found = judged({m: s.events for m, s in pool.items()})
    assert [f.detail["check"] for f in found["m3"]] == ["link"]  # m2 does not list m3
    assert found["m1"] == found["m2"] == []


def test_a_jackpot_moved_to_an_unlike_machine_or_not_received_pt_iii_6() -> None:
    sender, receiver = Stream("m1"), Stream("m2", denomination=5)  # other bets
    sender.emit("JackpotLevelRead", pool="m1", amount=4_000)
    sender.emit("JackpotTransferred", pool="m1", amount=4_000, to_machine="m2", reason="fault")
    found = judged({"m1": sender.events, "m2": receiver.events})
    [finding] = found["m1"]
    assert (finding.kind, finding.citation) == ("jackpot_transfer", "PT-217/2007 III.6")
    assert "differs in denomination" in finding.reason
    assert "records receiving nothing" in finding.reason
    alike = Stream("m2")
    alike.emit("JackpotReceived", pool="m2", amount=4_000, from_machine="m1")
    assert judged({"m1": sender.events, "m2": alike.events})["m1"] == []
    assert "no record of machine m2" in judged({"m1": sender.events})["m1"][0].reason


def test_a_configuration_no_approval_lists_pt_iii_8() -> None:
    stream = Stream("m1")
    approval = dict(
        approval="IGJ-1",
        model="aurora-5",
        paytable_id="pt-93",
        denomination=1,
        theoretical_return_bps=9_300,
        max_single_win=100_000,
        jackpot_rate_bps=250,
    )
    stream.emit("ConfigurationApproved", **approval)
    assert reconcile_machine(stream.events).findings == ()
    envelope_fields = ("event_id", "machine_id", "sequence", "occurred_at", "type")
    body = {k: v for k, v in stream.events[0].items() if k not in envelope_fields}
    stream.emit("MachineConfigured", **{**body, "paytable_id": "pt-95"})
    [finding] = reconcile_machine(stream.events).findings
    assert (finding.kind, finding.citation) == ("unapproved_configuration", "PT-217/2007 III.8")
    assert finding.detail["differ"] == {"paytable_id": {"approved": "pt-93", "configured": "pt-95"}}
    stream.emit("ConfigurationApproved", **{**approval, "paytable_id": "pt-95"})
    assert len(reconcile_machine(stream.events).findings) == 1  # approved after: still one


def test_no_approval_on_record_is_not_judged_pt_iii_8() -> None:
    events = machine_month(random.Random(1), "m1", T0, days=1, games_per_day=20)
    assert reconcile_machine(events).findings == ()


def test_a_v1_slot_file_reads_with_v2_and_the_judging_path_reads_linked_machines(
    tmp_path: Path, store_url: str
) -> None:
    """A machine written under slots v1 stores as it was (no jackpot fields), and a stored
    superjackpot is judged with its linked machines' records (``audit.judging.gather``)."""
    slots = family_named("slots")
    v1 = json.loads((SCHEMA_DIR / "history" / "slot_machine.v1.avsc").read_text())
    assert (v1["version"], slots.version) == (1, 2)
    old = machine_month(random.Random(2), "old-1", T0, days=1, games_per_day=20)
    path = tmp_path / "old.avro"
    with path.open("wb") as out:
        records = [to_avro(e, namespace=slots.namespace) for e in old]
        fastavro.writer(out, fastavro.parse_schema(v1), records)
    streams, _ = group_day(7, DAY, 0, LINKED, games=60, faults={LINKED[0]: UNBACKED_LEVEL})
    new = tmp_path / "pool.avro"
    write_input_file(new, slots, [e for m in LINKED for e in streams[m]], stream_id="pool")
    store = AuditStore(store_url)
    summary = ingest(store, [path, new])
    assert summary.quarantined == 0
    assert "jackpot_pool" not in store.records_of("slots", "old-1")[0]
    judged_old = judge_stored(store, "slots", "old-1")
    assert judged_old is not None and list(judged_old[1].findings) == []
    pool = judge_stored(store, "slots", LINKED[0])
    assert pool is not None
    inputs, verdict = pool
    assert {r["machine_id"] for r in inputs.related} == set(LINKED[1:])
    assert [str(f.kind) for f in verdict.findings] == ["jackpot_liability"]


def test_jackpot_findings_read_as_money_pt_iii_5_and_iii_6() -> None:
    machine = OWN[0]
    streams, planted = group_day(4, DAY, 1, OWN, games=150, faults={machine: PARTIAL_TRANSFER})
    [finding] = judged(streams)[machine]
    held, moved = planted[machine].detail["held"], planted[machine].detail["moved"]
    text = sentence({**finding.to_record(), "currency": "EUR"})
    assert text == (
        f"jackpot {machine} moved to machine {OWN[1]}: {format_money(moved, 'EUR')} moved of "
        f"the {format_money(held, 'EUR')} it held (PT-217/2007 III.6)"
    )
    levels = [e["amount"] for e in streams[machine] if e["type"] == "JackpotLevelRead"]
    assert levels[-1] == held - moved  # what stayed behind is still on the books (III.5)


def stored_and_judged(tmp_path: Path, streams: dict[str, list[dict[str, Any]]]) -> AuditStore:
    """A SQLite store holding the machines' streams, replayed (the caller closes it)."""
    from audit.judging import replay

    path = tmp_path / "machines.avro"
    events = [e for machine in sorted(streams) for e in streams[machine]]
    write_input_file(path, family_named("slots"), events, stream_id="machines")
    store = AuditStore(f"sqlite:///{tmp_path / 'store.db'}")
    ingest(store, [path])
    replay(store, kinds=["slots"])
    return store


def test_a_linked_machine_s_bundle_carries_its_pool_and_is_judged_again_pt_iii_4_5(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The evidence bundle of a superjackpot machine holds the linked machines' records it
    was judged with; the verdict is recomputed from the bundle alone, and a bundle missing
    one linked machine's records no longer gives it."""
    import copy

    from audit.evidence.check import verify_bundle
    from audit.store.signing import SIGNING_KEY_ENV, generate_keypair, load_public_key
    from tests.bundles import bundle_from_store

    private, public = generate_keypair(tmp_path / "keys")
    monkeypatch.setenv(SIGNING_KEY_ENV, str(private))
    streams, _ = group_day(8, DAY, 0, LINKED, games=40, faults={LINKED[0]: UNBACKED_LEVEL})
    store = stored_and_judged(tmp_path, streams)
    try:
        bundle = bundle_from_store(store, LINKED[0])
    finally:
        store.close()
    key = load_public_key(public)
    report = verify_bundle(bundle, key)
    assert report.ok, report.problems
    assert any("recomputed" in line and "jackpot_liability" in line for line in report.proven)
    changed = copy.deepcopy(bundle)
    changed["inputs"] = [i for i in changed["inputs"] if LINKED[3] not in json.dumps(i)]
    assert len(changed["inputs"]) < len(bundle["inputs"])
    assert not verify_bundle(changed, key).ok


def test_show_reads_the_jackpot_in_money(tmp_path: Path) -> None:
    """``show`` of a machine: its jackpot declared, the levels and the transfer in money,
    the finding at the transfer (PT-217/2007 III.6)."""
    from audit.explain import show_lines

    streams, planted = group_day(8, DAY, 1, OWN, games=40, faults={OWN[0]: PARTIAL_TRANSFER})
    store = stored_and_judged(tmp_path, streams)
    try:
        lines = show_lines(store, OWN[0]) or []
    finally:
        store.close()
    moved = format_money(planted[OWN[0]].detail["moved"], "EUR")
    text = "\n".join(lines)
    assert f"jackpot {OWN[0]} at 10% of every wager" in text
    assert f"jackpot {OWN[0]}: {moved} moved to machine {OWN[1]}" in text
    assert "first divergence" in text and "jackpot_transfer" in text
