"""Retention records under the store's signature and the witness (issue 41 item 1,
``audit.store.retention_trust``), on the throwaway PostgreSQL server of
``.ci/with-postgres`` (skipped without it).

The attack of the issue: as the owner, insert a retention record at a later checkpoint
(date 1970, archive sha256 of zeros), then flip a byte in a row still attached, or drop
that day's partition by hand with no archive. Before, ``verify --public-key --witness``
passed both ("consistent with every witnessed head"). Now each fails, saying which: a
row still attached under the record, an unsigned record, a forged signature, a record
the witness lacks. A store archived before records were signed fails verify naming
``retention attest``, which signs and publishes the record given its archive.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from audit.store import SIGNING_KEY_ENV, AuditStore
from tests.audit.store.test_retention import (
    EVENTS,
    Store,
    _cut,
    _ingest,
    _two_days,
    hands,
    partitioned_store,
)


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Store]:
    yield from partitioned_store(tmp_path, monkeypatch)


FORGED = "INSERT INTO {events}_retention VALUES (%s, %s, %s, 0, %s)"


def _verify(store: Store, *extra: str) -> tuple[int, str]:
    witness = str(store.tmp / "witness.jsonl")
    return store.cli("verify", "--public-key", str(store.public_key), "--witness", witness, *extra)


def _forge_at_a_later_checkpoint(store: Store, phh_sample: Path) -> int:
    """Two days cut (no archive), then a forged record at the second day's checkpoint."""
    _two_days(store, phh_sample)
    second = _cut(store)
    _ingest(store, hands(phh_sample, store.tmp / "d3", 18, 2))
    [(count,)] = store.sql(
        f"SELECT event_count FROM {EVENTS}_checkpoints WHERE notification_id = %s", second
    )
    store.sql(FORGED.format(events=EVENTS), second, count, 8, "0" * 64)
    return second


def _flip_a_byte(store: Store, notification_id: int) -> None:
    table = f"{EVENTS}_p0"
    store.sql(f"ALTER TABLE {table} DISABLE TRIGGER USER")
    store.sql(
        f"UPDATE {table} SET state = set_byte(state, 0, get_byte(state, 0) # 1) "
        "WHERE notification_id = %s",
        notification_id,
    )


def test_a_forged_record_over_attached_rows_fails_verify(store: Store, phh_sample: Path) -> None:
    second = _forge_at_a_later_checkpoint(store, phh_sample)
    _flip_a_byte(store, 3)
    code, out = _verify(store)
    assert code == 1, out
    assert f"the retention record at checkpoint {second}" in out
    assert "the row at notification 1 is still there" in out
    code, out = store.cli("verify")
    assert code == 1, out
    assert "is still there" in out


def test_a_day_dropped_without_an_archive_under_a_forged_record_fails_verify(
    store: Store, phh_sample: Path
) -> None:
    second = _forge_at_a_later_checkpoint(store, phh_sample)
    for index in (0, 1):
        store.sql(f"ALTER TABLE {EVENTS} DETACH PARTITION {EVENTS}_p{index}")
        store.sql(f"DROP TABLE {EVENTS}_p{index}")
    code, out = _verify(store)
    assert code == 1, out
    assert f"the retention record at checkpoint {second} is unsigned" in out
    code, out = store.cli("verify")
    assert code == 1, out
    assert "is unsigned" in out
    # A signature forged under the store's key id: the key tells.
    [(key_id,)] = store.sql(
        f"SELECT key_id FROM {EVENTS}_checkpoints WHERE notification_id = %s", second
    )
    store.sql(
        f"INSERT INTO {EVENTS}_retention_signatures VALUES (%s, %s, %s)",
        second,
        os.urandom(64),
        key_id,
    )
    code, out = store.cli("verify", "--public-key", str(store.public_key))
    assert code == 1, out
    assert "its signature does not verify with the store's key" in out
    # Without the key nothing is authenticated; the witness still tells.
    code, out = store.cli("verify", "--witness", str(store.tmp / "witness.jsonl"))
    assert code == 1, out
    assert f"the retention record at checkpoint {second} is not in the witness" in out


def test_a_genuine_record_is_signed_witnessed_and_verifies(store: Store, phh_sample: Path) -> None:
    cut = _two_days(store, phh_sample)
    archive = store.tmp / "day1.jsonl"
    code, out = store.cli("retention", "archive", "--through", str(cut), "--out", str(archive))
    assert code == 0, out
    [(signature, key_id)] = store.sql(
        f"SELECT signature, key_id FROM {EVENTS}_retention_signatures"
    )
    assert len(bytes(signature)) == 64 and key_id  # type: ignore[arg-type]
    witness = (store.tmp / "witness.jsonl").read_text()
    assert '"format":"casino-audit retention v1"' in witness
    code, out = _verify(store)
    assert code == 0, out
    assert "consistent with every witnessed head" in out
    assert f"retired at checkpoint {cut} on " in out and f"(signed by key {key_id})" in out
    # The record's fields changed behind the signature (a new row at another checkpoint
    # cannot reuse it; here the witness's copy is altered): named as rewritten.
    path = store.tmp / "witness.jsonl"
    path.write_text(witness.replace(f'"archived_rows":{cut}', f'"archived_rows":{cut - 1}'))
    code, out = _verify(store)
    assert code == 1, out
    assert "differs from the one the witness holds" in out


def test_a_store_archived_before_records_were_signed_is_attested_with_its_archive(
    store: Store, phh_sample: Path
) -> None:
    """The stated path for stores archived before: verify fails naming ``retention
    attest``; the owner attests the record with its archive file; verify passes."""
    cut = _two_days(store, phh_sample)
    archive = store.tmp / "day1.jsonl"
    code, out = store.cli("retention", "archive", "--through", str(cut), "--out", str(archive))
    assert code == 0, out
    # As the release before wrote it: no signature, nothing in the witness.
    store.sql(f"DROP TABLE {EVENTS}_retention_signatures")
    path = store.tmp / "witness.jsonl"
    path.write_text(
        "".join(line for line in path.read_text().splitlines(True) if "retention v1" not in line)
    )
    code, out = _verify(store)
    assert code == 1, out
    assert "is unsigned" in out
    assert "casino-audit retention attest --archive FILE" in out
    # An archive that is not the record's is refused.
    other = store.tmp / "other.jsonl"
    other.write_bytes(archive.read_bytes() + b"\n")
    code, out = store.cli("db", "init")
    assert code == 0, out  # the owner's DDL makes the signatures' table again
    code, out = store.cli("retention", "attest", "--archive", str(other))
    assert code == 2, out
    assert "names the archive" in out
    code, out = store.cli("retention", "attest", "--archive", str(archive))
    assert code == 0, out
    assert f"attested: rows 1..{cut} retired at checkpoint {cut}" in out
    code, out = _verify(store)
    assert code == 0, out


def test_archiving_without_the_stores_key_is_refused(
    store: Store, phh_sample: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cut = _two_days(store, phh_sample)
    monkeypatch.delenv(SIGNING_KEY_ENV)
    code, out = store.cli(
        "retention", "archive", "--through", str(cut), "--out", str(store.tmp / "a.jsonl")
    )
    assert code == 2, out
    assert "counts only when signed by the store's key" in out
    assert not (store.tmp / "a.jsonl").exists()
    opened = AuditStore(store.url, create=False)
    try:
        assert opened.retention() is None
    finally:
        opened.close()


def test_verify_archive_given_the_store_compares_with_its_record(
    store: Store, phh_sample: Path
) -> None:
    """A genuine archive cut short at an earlier checkpoint (``through`` set there)
    verifies alone; given the store, its sha256 and range are not the record's."""
    import json

    cut = _two_days(store, phh_sample)
    archive = store.tmp / "day1.jsonl"
    assert store.cli("retention", "archive", "--through", str(cut), "--out", str(archive))[0] == 0
    code, out = store.cli("verify-archive", str(archive), "--public-key", str(store.public_key))
    assert code == 0, out
    assert f"the store's retention record at checkpoint {cut} names this archive" in out
    lines = [json.loads(line) for line in archive.read_text().splitlines()]
    earlier = max(
        line["checkpoint"]["notification_id"]
        for line in lines
        if "checkpoint" in line and line["checkpoint"]["notification_id"] < cut
    )
    lines[0]["through"] = earlier
    kept = [
        line
        for line in lines
        if not any(
            k in line and line[k]["notification_id"] > earlier for k in ("row", "checkpoint")
        )
    ]
    short = store.tmp / "short.jsonl"
    short.write_text("".join(json.dumps(line) + "\n" for line in kept))
    code, out = store.cli("verify-archive", str(short), "--public-key", str(store.public_key))
    assert code == 1, out
    assert f"no retention record at checkpoint {earlier}" in out
    # The same content spaced otherwise: it verifies, but it is not the record's file.
    other = store.tmp / "other.jsonl"
    other.write_text(archive.read_text().replace('{"format"', '{ "format"', 1))
    code, out = store.cli("verify-archive", str(other))
    assert code == 1, out
    assert "names archive sha256" in out


def _writer(store: Store, phh_sample: Path, number: int) -> subprocess.Popen[str]:
    """A writer process: three ingests of two hands each on its own chain shard."""
    commands = [
        [sys.executable, "-m", "cli", "--store", store.url, "ingest", "--chain-shard",
         f"writer/{number}", "--rulebook", "gg-2022-cash-holdem",
         str(hands(phh_sample, store.tmp / f"w{number}-{r}", 4 + 6 * number + 2 * r, 2))]
        for r in range(3)
    ]  # fmt: skip
    program = (
        "import subprocess, sys\n"
        f"for command in {commands!r}:\n"
        "    done = subprocess.run(command, capture_output=True, text=True)\n"
        "    print(done.returncode, done.stdout[-300:].replace(chr(10), ' '))\n"
    )
    return subprocess.Popen(
        [sys.executable, "-c", program],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONPATH": os.getcwd()},
    )


def test_a_retention_cut_interleaved_with_three_writers(store: Store, phh_sample: Path) -> None:
    """Three writer processes ingest on their own shards while the owner cuts the day
    twice: every hand is stored once and the store verifies; then the first day is
    archived, the archive verifies alone and is the record's, and the store verifies
    from the signed record against the witness."""
    _ingest(store, hands(phh_sample, store.tmp / "d0", 0, 4))
    writers = [_writer(store, phh_sample, n) for n in range(3)]
    cuts = [_cut(store) for _ in range(2)]
    outputs = [w.communicate(timeout=900)[0] for w in writers]  # a guard, not a measure
    for output in outputs:
        codes = [line.split()[0] for line in output.splitlines() if line[:1].isdigit()]
        assert codes == ["0", "0", "0"], output
    opened = AuditStore(store.url, create=False)
    try:
        stored = sorted(set(opened.iter_subject_ids("poker")))
        assert len(stored) == 4 + 3 * 6, "\n".join([*stored, *outputs])
    finally:
        opened.close()
    code, out = _verify(store)
    assert code == 0, out
    archive = store.tmp / "day1.jsonl"
    code, out = store.cli("retention", "archive", "--through", str(cuts[0]), "--out", str(archive))
    assert code == 0, out
    code, out = store.cli("verify-archive", str(archive), "--public-key", str(store.public_key))
    assert code == 0, out
    assert "names this archive" in out
    _ingest(store, hands(phh_sample, store.tmp / "d9", 22, 2))  # a head after the writers
    code, out = _verify(store)
    assert code == 0, out
