"""The verdict record is ``VerdictRecorded``; stores written when it was ``HandAdjudicated``
stay readable (issue 25).

A store whose verdict units were written by the code before the rename (the unit opened,
then its record under the ``Adjudication.HandAdjudicated`` topic, naming that type) is
read, verified, shown, its verdicts found as the current ones by the lookups replay, the
nightly, the console and evidence bundles use, and then takes new verdicts under the new
name and still verifies. On SQLite and PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.persistence import StoredEvent
from eventsourcing.utils import get_topic, resolve_topic

from audit.evidence.bundle import build_bundle
from audit.evidence.check import verify_bundle
from audit.evidence.treecache import TreeCache
from audit.explain import show_lines
from audit.judging import (
    KIND,
    adjudication_record,
    adjudication_unit,
    current_adjudications,
    judge_stored,
    replay,
    verdict_unit,
)
from audit.store import (
    DUPLICATE,
    VERDICT_RECORD,
    Adjudication,
    AuditStore,
    SubjectRecords,
    canonical,
    record_digest,
    subject_uuid,
)
from audit.store.signing import SIGNING_KEY_ENV, generate_keypair, load_public_key
from cli.main import main
from console.readmodel import queries
from console.readmodel.model import ReadModel
from console.readmodel.queries import ModelVerdicts
from pipelines.night_units import LEDGER, iter_days_units, unit
from tests.audit.judging.test_judging import _raked_hand, _terms

OLD_TYPE = "HandAdjudicated"
OLD_TOPIC = "audit.store.subjects:Adjudication.HandAdjudicated"
"""The topic every verdict row was stored under before the rename (the chain covers it)."""
NEW_TOPIC = "audit.store.subjects:Adjudication.VerdictRecorded"
HAND = "t/1"
NIGHT = date(2023, 3, 1)
LEDGER_SCOPE = f"{NIGHT.isoformat()}/poker/0"


def _as_before(record: dict[str, Any]) -> dict[str, Any]:
    """The record naming its type as the code before the rename did."""
    return {**record, "type": OLD_TYPE}


def write_as_before(store: AuditStore, written: SubjectRecords) -> None:
    """Store a verdict unit as the code before the rename did: ``Adjudication.Opened``,
    then its one record, naming ``HandAdjudicated``, under that type's topic."""
    aggregate = subject_uuid(KIND, written.subject_id)
    now = datetime.now(UTC)
    opened = Adjudication.Opened(
        originator_id=aggregate,
        originator_version=1,
        timestamp=now,
        originator_topic=get_topic(Adjudication),
        subject_id=written.subject_id,
    )
    (record,) = written.records
    state = store.transcoder.encode({"timestamp": now, "record": _as_before(record)})
    store.recorder.insert_events(
        [
            store.mapper.to_stored_event(opened),
            StoredEvent(
                originator_id=aggregate, originator_version=2, topic=OLD_TOPIC, state=state
            ),
        ]
    )


LEDGER_CONTENT = {"verdicts": {HAND: "poker:t/1|..."}}
"""A night's ledger (no findings: what the night relied on)."""


def ledger_unit() -> SubjectRecords:
    """The night's ledger unit as the nightly makes it now."""
    return unit(LEDGER, LEDGER_SCOPE, [], **LEDGER_CONTENT)


def ledger_as_before() -> SubjectRecords:
    """The night's ledger unit as the code before the rename made it: its id digests its
    record, which names ``HandAdjudicated``."""
    record = _as_before(adjudication_record(LEDGER, LEDGER_SCOPE, [], **LEDGER_CONTENT))
    return adjudication_unit(record, record_digest([canonical(record)]))


@dataclass
class OldStore:
    """A store written before the rename: its URL, the open store, the hand's verdict
    unit (as judged now: a verdict's id digests its inputs, not its record type) and the
    checkpoints' public key."""

    url: str
    store: AuditStore
    verdict: SubjectRecords
    public_key: Any


@pytest.fixture
def old_store(
    store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[OldStore]:
    """A raked hand without declared terms, judged and a night's ledger unit stored the
    way the code before the rename stored them; signed checkpoints."""
    private, public = generate_keypair(tmp_path / "keys")
    monkeypatch.setenv(SIGNING_KEY_ENV, str(private))
    store = AuditStore(store_url)
    store.append([SubjectRecords("poker", HAND, _raked_hand(HAND, 1))])
    judged = judge_stored(store, "poker", HAND)
    assert judged is not None
    verdict = verdict_unit(*judged)
    write_as_before(store, verdict)
    write_as_before(store, ledger_as_before())
    store.checkpoint()
    yield OldStore(store_url, store, verdict, load_public_key(public))
    store.close()


def _topics(store: AuditStore, unit_id: str) -> list[str]:
    return [e.topic for e in store.recorder.select_events(subject_uuid(KIND, unit_id))]


def test_the_old_rows_read_and_verify_unchanged(old_store: OldStore) -> None:
    store, unit_id = old_store.store, old_store.verdict.subject_id
    assert _topics(store, unit_id)[1] == OLD_TOPIC  # never rewritten
    (record,) = store.records_of(KIND, unit_id)
    assert record == _as_before(old_store.verdict.records[0])
    # the old topic is an alias of the new class: eventsourcing rebuilds the aggregate
    aggregate = store.repository.get(subject_uuid(KIND, unit_id))
    assert aggregate.records == [record]
    assert resolve_topic(OLD_TOPIC) is Adjudication.VerdictRecorded
    assert OLD_TYPE not in vars(Adjudication)  # the old class is gone: only the alias
    report = store.verify(old_store.public_key)
    assert report.ok and report.signatures_checked >= 1, report


def test_the_old_verdict_is_shown_and_current(
    old_store: OldStore, capsys: pytest.CaptureFixture[str]
) -> None:
    store = old_store.store
    lines = show_lines(store, HAND)
    assert lines is not None
    text = "\n".join(lines)
    assert "VERDICT HISTORY: 1 stored verdict(s)" in text and "(current)" in text
    assert "the judgement above is the current stored verdict" in text
    assert main(["--store", old_store.url, "show", HAND]) == 0
    assert "the judgement above is the current stored verdict" in capsys.readouterr().out
    (current,) = [a for a in current_adjudications(store) if a["kind"] == "poker"]
    assert current["type"] == OLD_TYPE and current["findings"]
    assert replay(store).adjudications_stored == 0  # the hand's verdict is the stored one
    (ledger,) = iter_days_units(store, [NIGHT], [LEDGER])
    assert ledger == ((LEDGER, LEDGER_SCOPE), ledger_as_before().records[0])


def test_the_same_conclusion_under_the_new_name_stores_nothing_new(old_store: OldStore) -> None:
    store = old_store.store
    assert ledger_unit().subject_id == ledger_as_before().subject_id  # the same unit id
    result = store.append([old_store.verdict, ledger_unit()])
    assert result.outcomes == [DUPLICATE, DUPLICATE] and not result.conflicts


def test_the_console_and_evidence_bundles_read_the_old_verdict(old_store: OldStore) -> None:
    store = old_store.store
    model = ReadModel(store)
    (poker,) = [u for u in queries.units_of(model, HAND) if u["kind"] == "poker"]
    assert poker["findings"] == len(old_store.verdict.records[0]["findings"]) > 0
    assert NIGHT.isoformat() in [n for (n,) in _nights(model)]
    bundle = build_bundle(
        store,
        ModelVerdicts(model),
        HAND,
        made_by="tests",
        made_at=datetime(2023, 3, 2, tzinfo=UTC),
        trees=TreeCache(),
    )
    assert bundle["verdict"]["unit"] == old_store.verdict.subject_id
    report = verify_bundle(bundle, old_store.public_key)
    assert report.ok, report.problems


def _nights(model: ReadModel) -> list[tuple[str]]:
    with model.reading() as db:
        return list(db.execute("SELECT day FROM nights"))


def test_new_verdicts_go_under_the_new_name_and_the_store_still_verifies(
    old_store: OldStore,
) -> None:
    store = old_store.store
    model = ReadModel(store)
    store.append([SubjectRecords("table", "t", [_terms(0, 0, 2_500)])])
    assert replay(store).findings == {}  # the hand again, under its terms: a new verdict
    store.checkpoint()
    (current,) = [a for a in current_adjudications(store) if a["kind"] == "poker"]
    assert current["type"] == VERDICT_RECORD and not current["findings"]
    ids = [u for u in store.iter_subject_ids(KIND) if u.startswith(f"poker:{HAND}|")]
    assert ids[0] == old_store.verdict.subject_id and len(ids) == 2  # oldest first
    assert [_topics(store, i)[1] for i in ids] == [OLD_TOPIC, NEW_TOPIC]
    lines = show_lines(store, HAND)
    assert lines is not None and "VERDICT HISTORY: 2 stored verdict(s)" in "\n".join(lines)
    assert model.refresh()
    (poker,) = [u for u in queries.units_of(model, HAND) if u["kind"] == "poker"]
    assert poker["findings"] == 0 and poker["digest"] == current["input_digest"]
    report = store.verify(old_store.public_key)
    assert report.ok and report.signatures_checked >= 2, report
