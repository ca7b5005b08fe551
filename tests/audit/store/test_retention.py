"""Retention by day on a partitioned PostgreSQL store (``audit.store.partitions``): the
day cut, the archive of a day, ``verify`` from the retention record, ``verify-archive``
alone, and what deleting a prefix without a record, or a writer role, cannot do.

Real hands (the vendored Pluribus sample) through the CLI, signed checkpoints, on the
throwaway server of ``.ci/with-postgres`` (skipped without it)."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import io
import json
import re
import shutil
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from audit.evidence.proof_check import MERKLE, ProofError, check_proof
from audit.evidence.proofs import event_json, prove
from audit.evidence.treecache import TreeCache
from audit.store import SIGNING_KEY_ENV, AuditStore, generate_keypair, load_public_key
from audit.store.witness import WITNESS_ENV
from cli.main import main
from tests.audit.store import test_packed_rows
from tests.audit.store.test_roles import as_role
from tests.conftest import postgres_base_url

EVENTS = "casinoaudit_events"


def run(*args: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue() + err.getvalue()


def hands(phh_sample: Path, folder: Path, start: int, count: int) -> Path:
    folder.mkdir(parents=True)
    for path in sorted((phh_sample / "pluribus").rglob("*.phh"))[start : start + count]:
        shutil.copy(path, folder / f"{path.parent.name}-{path.name}")
    return folder


@dataclass
class Store:
    url: str
    schema: str
    public_key: Path
    tmp: Path

    def cli(self, *args: str) -> tuple[int, str]:
        return run("--store", self.url, *args)

    def sql(self, statement: str, *params: object) -> list[tuple[object, ...]]:
        with psycopg.connect(self.url.split("?")[0], autocommit=True) as conn:
            conn.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(self.schema)))
            cur = conn.execute(statement, params)  # type: ignore[arg-type]
            return cur.fetchall() if cur.description else []


def _schema_url() -> tuple[str, str]:
    schema = f"ret_{uuid.uuid4().hex[:10]}"
    return f"{postgres_base_url()}?schema={schema}", schema


def _drop(schema: str) -> None:
    with psycopg.connect(postgres_base_url(), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Store]:
    yield from partitioned_store(tmp_path, monkeypatch)


def partitioned_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Store]:
    """A new partitioned store (``db init --partitioned``), checkpoints signed and
    published to a witness (``tmp_path / "witness.jsonl"``)."""
    url, schema = _schema_url()
    private, public = generate_keypair(tmp_path / "keys")
    monkeypatch.setenv(SIGNING_KEY_ENV, str(private))
    monkeypatch.setenv(WITNESS_ENV, str(tmp_path / "witness.jsonl"))
    try:
        code, out = run("--store", url, "db", "init", "--partitioned")
        assert code == 0, out
        assert "partitioned by notification id" in out
        yield Store(url, schema, public, tmp_path)
    finally:
        _drop(schema)


def _ingest(store: Store, folder: Path, shard: str | None = None) -> None:
    args = ["ingest", "--rulebook", "gg-2022-cash-holdem", str(folder)]
    if shard:
        args[1:1] = ["--chain-shard", shard]
    code, out = store.cli(*args)
    assert code == 0, out


def _cut(store: Store) -> int:
    code, out = store.cli("retention", "cut")
    assert code == 0, out
    found = re.search(r"day cut at checkpoint (\d+)", out)
    assert found, out
    return int(found.group(1))


def _two_days(store: Store, phh_sample: Path) -> int:
    """Day 1 on the main chain and a day shard, cut; day 2 likewise: day 1's cut."""
    _ingest(store, hands(phh_sample, store.tmp / "d1", 0, 6))
    _ingest(store, hands(phh_sample, store.tmp / "d1b", 6, 3), "night/day1/b")
    cut = _cut(store)
    _ingest(store, hands(phh_sample, store.tmp / "d2", 9, 6))
    _ingest(store, hands(phh_sample, store.tmp / "d2b", 15, 3), "night/day2/b")
    return cut


def test_the_events_table_is_partitioned_and_every_partition_refuses_truncate(
    store: Store, phh_sample: Path
) -> None:
    cut = _two_days(store, phh_sample)
    kind = store.sql(
        "SELECT relkind::text FROM pg_class WHERE relname = %s AND relnamespace = %s::regnamespace",
        EVENTS,
        store.schema,
    )
    assert kind == [("p",)]
    parts = store.sql(
        "SELECT c.relname, (SELECT max(notification_id) FROM "
        "casinoaudit_events WHERE tableoid = c.oid) FROM pg_inherits i "
        "JOIN pg_class c ON c.oid = i.inhrelid "
        "WHERE i.inhparent = 'casinoaudit_events'::regclass ORDER BY 1"
    )
    assert [p[0] for p in parts] == [f"{EVENTS}_p0", f"{EVENTS}_p1"]
    assert parts[0][1] == cut  # day 1's partition ends at its cut's checkpoint
    for part in (f"{EVENTS}_p0", f"{EVENTS}_p1"):
        with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
            store.sql(f"TRUNCATE {part}")
        with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
            store.sql(f"DELETE FROM {part}")
    code, out = store.cli("verify", "--public-key", str(store.public_key))
    assert code == 0, out


def test_a_day_archived_leaves_a_store_that_verifies_from_its_retention_record(
    store: Store, phh_sample: Path
) -> None:
    cut = _two_days(store, phh_sample)
    archive = store.tmp / "day1.jsonl"
    code, out = store.cli("retention", "archive", "--through", str(cut), "--out", str(archive))
    assert code == 0, out
    retired = store.sql("SELECT count(*) FROM casinoaudit_events WHERE notification_id <= %s", cut)
    assert retired == [(0,)]
    assert store.sql("SELECT relname FROM pg_class WHERE relname = %s", f"{EVENTS}_p0") == []
    rows = [json.loads(line) for line in archive.read_text().splitlines()]
    archived = [r["row"] for r in rows if "row" in r]
    assert [r["notification_id"] for r in archived] == list(range(1, cut + 1))
    # The store: verified from the record, which verify names.
    code, out = store.cli("verify", "--public-key", str(store.public_key))
    assert code == 0, out
    sha = archive.read_bytes()
    assert f"rows 1..{cut} retired at checkpoint {cut} on " in out
    assert f"archive sha256 {hashlib.sha256(sha).hexdigest()}" in out
    # The archive alone.
    code, out = run("verify-archive", str(archive), "--public-key", str(store.public_key))
    assert code == 0, out
    assert f"archive intact: {cut} rows" in out
    # New writes, on the main chain and on a shard whose rows all left, extend both.
    _ingest(store, hands(phh_sample, store.tmp / "d3", 18, 4), "night/day1/b")
    _ingest(store, hands(phh_sample, store.tmp / "d3m", 22, 2))
    code, out = store.cli("verify", "--public-key", str(store.public_key))
    assert code == 0, out
    # A second day cut and archived: the next archive starts at the first's checkpoint.
    second = _cut(store)
    code, out = store.cli(
        "retention", "archive", "--through", str(second), "--out", str(store.tmp / "d2.jsonl")
    )
    assert code == 0, out
    assert f"retired at checkpoint {second}" in out
    code, out = run("verify-archive", str(store.tmp / "d2.jsonl"))
    assert code == 0, out
    _ingest(store, hands(phh_sample, store.tmp / "d4", 24, 2))
    code, out = store.cli("verify", "--public-key", str(store.public_key))
    assert code == 0, out
    assert f"retired at checkpoint {second}" in out
    witness = str(store.tmp / "witness.jsonl")
    code, out = store.cli("verify", "--witness", witness, "--public-key", str(store.public_key))
    assert code == 0, out
    assert "consistent with every witnessed head" in out


def _ingest_again(store: Store, folder: Path, shard: str | None = None) -> tuple[int, str]:
    args = ["ingest", "--rulebook", "gg-2022-cash-holdem", str(folder)]
    if shard:
        args[1:1] = ["--chain-shard", shard]
    return store.cli(*args)


def _count(out: str, label: str) -> int:
    found = re.search(rf"^{label}:\s+(\d+)$", out, re.MULTILINE)
    assert found, out
    return int(found.group(1))


def test_a_retired_days_file_ingested_again_is_quarantined_not_stored(
    store: Store, phh_sample: Path
) -> None:
    """Idempotency across retention: day 1's units, retired, are refused by name of the
    retention; day 2's are already stored; a new file's go in; verify still passes."""
    cut = _two_days(store, phh_sample)
    archive = store.tmp / "day1.jsonl"
    code, out = store.cli("retention", "archive", "--through", str(cut), "--out", str(archive))
    assert code == 0, out
    archived = {
        uuid.UUID(json.loads(line)["row"]["originator_id"])
        for line in archive.read_text().splitlines()
        if line.startswith('{"row"')
    }
    retired = store.sql("SELECT originator_id, checkpoint_id FROM casinoaudit_events_retired")
    assert {(o, c) for o, c in retired} == {(o, cut) for o in archived}
    assert len(retired) >= 9  # day 1's nine hands at least
    sha = hashlib.sha256(archive.read_bytes()).hexdigest()
    head = store.sql("SELECT max(notification_id) FROM casinoaudit_events")[0][0]
    for folder, shard in (("d1", None), ("d1b", "night/day1/b")):
        code, out = _ingest_again(store, store.tmp / folder, shard)
        assert code != 0, out
        units = len(list((store.tmp / folder).iterdir()))
        assert _count(out, "subjects stored") == 0
        assert _count(out, "already stored") == 0
        assert _count(out, "records quarantined") == units
        assert out.count(f"was retired at checkpoint {cut} on ") == units, out
        assert f"(archive sha256 {sha[:12]}" in out
    stored = store.sql(
        "SELECT count(*) FROM casinoaudit_events WHERE notification_id > %s AND topic NOT ILIKE %s",
        head,
        "%quarantine%",
    )
    assert stored == [(0,)]  # the quarantine records only: no hand, no conflict fact
    code, out = store.cli("verify", "--public-key", str(store.public_key))
    assert code == 0, out
    # Day 2, still attached: already stored, as before.
    code, out = _ingest_again(store, store.tmp / "d2")
    assert code == 0, out
    assert (_count(out, "subjects stored"), _count(out, "already stored")) == (0, 6)
    # A new file: stored.
    code, out = _ingest_again(store, hands(phh_sample, store.tmp / "d5", 30, 2))
    assert code == 0, out
    assert _count(out, "subjects stored") == 2


def test_merkle_proofs_of_rows_after_a_retention_still_verify(
    store: Store, phh_sample: Path
) -> None:
    """Inclusion proofs of attached rows against the latest signed tree head, made from
    the retention checkpoint's frontier and the rows after it (a tree cache made afresh),
    and from a cache built before the archive; a proof against a changed row fails."""
    cut = _two_days(store, phh_sample)
    before = TreeCache()
    opened = AuditStore(store.url, create=False)
    rows = list(opened.chained.iter_chain_rows())
    prove(opened, rows[-3:], before, MERKLE)  # the cache holds every leaf from the first
    code, out = store.cli("retention", "archive", "--through", str(cut), "--out",
                          str(store.tmp / "a.jsonl"))  # fmt: skip
    assert code == 0, out
    key = load_public_key(store.public_key)
    try:
        attached = [r for r in opened.chained.iter_chain_rows() if r.notification_id > cut]
        assert attached and attached[0].notification_id > cut
        for trees in (TreeCache(), before):
            for picked in (attached[:1], attached[len(attached) // 2 :][:3], attached[-1:]):
                proof = prove(opened, picked, trees, MERKLE)
                events = [event_json(r) for r in picked]
                assert check_proof(proof, events, key).checkpoint.event_count > cut
        changed = [dict(event_json(attached[0]), chain_hash="00" * 32)]
        with pytest.raises(ProofError):
            check_proof(prove(opened, attached[:1], TreeCache(), MERKLE), changed, key)
    finally:
        opened.close()


def test_a_byte_changed_in_an_archive_is_named_by_its_row(store: Store, phh_sample: Path) -> None:
    cut = _two_days(store, phh_sample)
    archive = store.tmp / "day1.jsonl"
    assert store.cli("retention", "archive", "--through", str(cut), "--out", str(archive))[0] == 0
    lines = archive.read_text().splitlines()
    at = next(n for n, line in enumerate(lines) if '"row"' in line and n > len(lines) // 2)
    entry = json.loads(lines[at])
    state = bytearray(base64.b64decode(entry["row"]["state_b64"]))
    state[len(state) // 2] ^= 1
    entry["row"]["state_b64"] = base64.b64encode(bytes(state)).decode()
    lines[at] = json.dumps(entry)
    archive.write_text("\n".join(lines) + "\n")
    code, out = run("verify-archive", str(archive))
    assert code == 1
    assert f"event at notification {entry['row']['notification_id']} " in out
    assert "was altered" in out
    (store.tmp / "junk.jsonl").write_text('{"format": "casino-audit archive 1"}\nnot json\n')
    code, out = run("verify-archive", str(store.tmp / "junk.jsonl"))
    assert code == 2
    assert "line 1" in out or "line 2" in out
    assert "Traceback" not in out


def test_a_prefix_dropped_without_a_retention_record_fails_verify(
    store: Store, phh_sample: Path
) -> None:
    _two_days(store, phh_sample)
    store.sql(f"ALTER TABLE {EVENTS} DETACH PARTITION {EVENTS}_p0")
    store.sql(f"DROP TABLE {EVENTS}_p0")
    code, out = store.cli("verify")
    assert code == 1
    assert "CHAIN BROKEN" in out
    assert "retention" not in out
    code, out = store.cli("verify", "--witness", str(store.tmp / "witness.jsonl"))
    assert code == 1, out


def test_a_retention_record_whose_checkpoint_is_gone_fails_verify(
    store: Store, phh_sample: Path
) -> None:
    cut = _two_days(store, phh_sample)
    assert store.cli("retention", "archive", "--through", str(cut), "--out",
                     str(store.tmp / "a.jsonl"))[0] == 0  # fmt: skip
    store.sql(f"ALTER TABLE {EVENTS}_checkpoints DISABLE TRIGGER casino_audit_append_only")
    store.sql(f"DELETE FROM {EVENTS}_checkpoints WHERE notification_id = %s", cut)
    code, out = store.cli("verify")
    assert code == 1
    assert f"names checkpoint {cut}" in out


def test_archiving_through_a_checkpoint_that_is_no_cut_is_refused(
    store: Store, phh_sample: Path
) -> None:
    _ingest(store, hands(phh_sample, store.tmp / "d1", 0, 4))
    first = AuditStore(store.url, create=False)
    try:
        through = max(c.notification_id for c in first.chained.checkpoints())
    finally:
        first.close()
    _ingest(store, hands(phh_sample, store.tmp / "d1b", 4, 2))
    code, out = store.cli(
        "retention", "archive", "--through", str(through), "--out", str(store.tmp / "x.jsonl")
    )
    assert code == 2
    assert "does not end a day" in out
    code, out = store.cli("verify")
    assert code == 0, out


def test_a_write_with_no_partition_for_its_id_is_refused_clearly(
    store: Store, phh_sample: Path
) -> None:
    _ingest(store, hands(phh_sample, store.tmp / "d1", 0, 2))
    store.sql(
        "SELECT setval(pg_get_serial_sequence('casinoaudit_events', 'notification_id'), %s)",
        10**12 + 5,
    )
    code, out = store.cli("ingest", str(hands(phh_sample, store.tmp / "d2", 2, 2)))
    assert code == 2
    assert "no partition of the events table" in out
    assert "retention cut" in out
    assert "Traceback" not in out


def test_racing_writers_on_a_partitioned_store_store_each_version_once(
    store: Store,
) -> None:
    """The packed-row racing test on a partitioned store, whose primary key holds the
    notification id: the per-subject re-read refuses what the key no longer does."""
    test_packed_rows.test_racing_writers_of_two_shards_store_each_version_once(store.url)


def test_a_writer_role_cannot_cut_archive_detach_or_drop(phh_sample: Path, tmp_path: Path) -> None:
    base = postgres_base_url()
    tag = uuid.uuid4().hex[:8]
    owner, writer = f"ret_owner_{tag}", f"ret_writer_{tag}"
    url, schema = _schema_url()
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE ROLE {} NOLOGIN").format(sql.Identifier(owner)))
        conn.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(writer)))
    try:
        assert run("--store", url, "db", "init", "--partitioned", "--owner", owner)[0] == 0
        code, out = run("--store", url, "db", "grant", "--writer", writer)
        assert code == 0, out
        writer_url = as_role(base, writer, schema)
        code, out = run("--store", writer_url, "ingest", "--rulebook", "gg-2022-cash-holdem",
                        str(hands(phh_sample, tmp_path / "d1", 0, 3)))  # fmt: skip
        assert code == 0, out
        code, out = run("--store", writer_url, "verify")
        assert code == 0, out
        code, out = run("--store", writer_url, "retention", "cut")
        assert code == 2
        assert "owner" in out
        with psycopg.connect(writer_url.split("?")[0], autocommit=True) as conn:
            for statement in (
                f"ALTER TABLE {schema}.{EVENTS} DETACH PARTITION {schema}.{EVENTS}_p0",
                f"DROP TABLE {schema}.{EVENTS}_p0",
                f"TRUNCATE {schema}.{EVENTS}_p0",
                f"INSERT INTO {schema}.{EVENTS}_retention VALUES (1, 1, 1, 1, 'x')",
                f"INSERT INTO {schema}.{EVENTS}_retired VALUES (gen_random_uuid(), 1)",
            ):
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    conn.execute(statement)  # type: ignore[arg-type]
    finally:
        _drop(schema)
        with psycopg.connect(base, autocommit=True) as conn:
            for role in (owner, writer):
                conn.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(role)))
                conn.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(role)))


def test_partitioning_is_chosen_when_the_store_is_made(tmp_path: Path) -> None:
    url, schema = _schema_url()
    try:
        assert run("--store", url, "db", "init")[0] == 0
        code, out = run("--store", url, "db", "init", "--partitioned")
        assert code == 2
        assert "not partitioned" in out
        code, out = run("--store", f"sqlite:///{tmp_path / 's.db'}", "db", "init", "--partitioned")
        assert code == 2
        code, out = run("--store", url, "retention", "cut")
        assert code == 2
        assert "not partitioned" in out
    finally:
        _drop(schema)
