"""The one rule of which stored verdict of a subject is current (``audit.judging.current``):
the store scan and the console's read model give the same answer on a store where
subjects were judged several times (re-judged on new terms, nights rerun), a newer
verdict superseding an older one."""

from __future__ import annotations

from typing import Any

from audit.explain import show_lines
from audit.judging import (
    KIND,
    StoreVerdicts,
    current_findings,
    current_records,
    latest,
    replay,
    supersedes,
)
from audit.show import collusion_nights
from audit.store import AuditStore, SubjectRecords, subject_uuid
from console.readmodel.model import ReadModel
from console.readmodel.queries import ModelVerdicts, unit_ids
from pipelines.night_units import unit
from replayer.findings import Finding, FindingKind
from tests.audit.judging.test_judging import _raked_hand, _terms


def _suspicion(pair: str) -> Finding:
    return Finding(
        FindingKind("collusion_suspected"), pair, "UIGEA 31 CFR 132", "chips flow one way"
    )


def _agree(store: AuditStore, model: ReadModel) -> dict[tuple[str, str], str]:
    """Assert the scan and the read model name the same current unit of every judged
    subject and hold the same current findings; the scan's answer."""
    assert model.refresh() or True
    scanned = {(r["kind"], r["subject"]): uid for uid, r in current_records(store)}
    by_scan, by_model = StoreVerdicts(store), ModelVerdicts(model)
    for (kind, subject), unit_id in scanned.items():
        assert by_scan.current_unit(kind, subject) == unit_id, (kind, subject)
        assert by_model.current_unit(kind, subject) == unit_id, (kind, subject)
        assert by_model.unit_ids([(kind, subject)]) == by_scan.unit_ids([(kind, subject)])
    with model.reading() as db:
        indexed = {
            (r[0], r[1]): r[2] for r in db.execute("SELECT kind, subject, originator FROM units")
        }
        rows = db.execute("SELECT subject_kind, subject, finding_id, kind FROM findings")
        model_findings = sorted(tuple(r) for r in rows)
    assert indexed == {key: subject_uuid(KIND, uid).hex for key, uid in scanned.items()}
    scan_findings = sorted(
        (f["subject_kind"], f["subject"], f["finding_id"], f["kind"])
        for f in current_findings(store)
    )
    assert model_findings == scan_findings
    return scanned


def _kinds(store: AuditStore, subject: str) -> list[str]:
    return sorted(f["kind"] for f in current_findings(store) if f["subject"] == subject)


def test_the_scan_and_the_read_model_agree_on_the_current_verdict(store: Any) -> None:
    model = ReadModel(store)
    store.append([SubjectRecords("poker", "t/1", _raked_hand("t/1", 1))])
    store.append([SubjectRecords("poker", "t/2", _raked_hand("t/2", 0))])
    replay(store)  # no terms declared: the raked hand's rake is a finding
    first = _agree(store, model)
    assert _kinds(store, "t/1") == ["terms_missing"]

    store.append([SubjectRecords("table", "t", [_terms(0, 0, 2_500)])])
    replay(store)  # re-judged under the terms: the newer verdict finds nothing
    replay(store)  # a rerun with nothing new stores nothing and changes nothing
    second = _agree(store, model)
    assert second[("poker", "t/1")] != first[("poker", "t/1")]
    assert _kinds(store, "t/1") == []

    store.append([SubjectRecords("table", "t", [_terms(1, 10, 0)])])
    replay(store)  # terms in force at its start forbid rake: judged a third time
    third = _agree(store, model)
    history = StoreVerdicts(store).unit_ids([("poker", "t/1")])
    assert len(history) == 3 and history[0] == first[("poker", "t/1")]
    assert third[("poker", "t/1")] == latest(history) == history[-1]
    assert _kinds(store, "t/1") == ["rake_rate_out_of_band"]

    # a night judged, then rerun concluding differently: the rerun's unit is current
    store.append([unit("collusion", "2025-03-01", [_suspicion("pair:a|b")])])
    night = _agree(store, model)[("collusion", "2025-03-01")]
    store.append([unit("collusion", "2025-03-01", [_suspicion("pair:c|d")])])
    rerun = _agree(store, model)[("collusion", "2025-03-01")]
    assert rerun != night
    assert unit_ids(model, [("collusion", None)]) == [night, rerun]
    assert [f["subject"] for f in current_findings(store, "collusion_suspected")] == ["pair:c|d"]
    # the pair the rerun no longer flags holds no suspicion that night, for show and
    # evidence alike; the pair it flags holds the rerun's
    assert collusion_nights(store, "pair:a|b", None) == {}
    assert show_lines(store, "pair:a|b") is None
    assert show_lines(store, "pair:c|d") is not None
    flagged = collusion_nights(store, "pair:c|d", ModelVerdicts(model))
    assert list(flagged) == ["2025-03-01"] and flagged["2025-03-01"][1][0] == rerun


def test_the_later_stored_unit_supersedes() -> None:
    assert supersedes(0, None)
    assert supersedes(7, 3)
    assert not supersedes(3, 7)
    assert latest([]) is None
    assert latest(["poker:h|1|a", "poker:h|1|b"]) == "poker:h|1|b"
