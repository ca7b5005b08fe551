"""Evidence bundles (``audit.evidence.bundle`` makes them, ``audit.evidence.check`` checks them with
no store): a bundle proves its events are in the store's history up to a signed
checkpoint (Merkle inclusion, or the hash chain where the events and the checkpoint's
head are on one chain shard) and that its verdict is what the replayer gives for them;
changing any byte of its events, inputs, verdict, rules, proof or signature, or checking
it with another key, fails. On SQLite and PostgreSQL.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from audit.evidence.check import verify_bundle
from audit.store import AuditStore
from audit.store.signing import generate_keypair, load_public_key
from cli.main import main
from console.readmodel.model import ReadModel
from console.readmodel.queries import ModelVerdicts
from tests.console_store import (
    HOSTILE_TABLE,
    ConsoleStore,
    console_store,
    make_client,
)

__all__ = ["console_store", "make_client"]  # fixtures used here
PROOFS = ("merkle", "hash-chain")
MERKLE, HASH_CHAIN = PROOFS
PROVEN_SECTIONS = (
    "format",
    "format_version",
    "subject",
    "events",
    "inputs",
    "verdict",
    "rulebook",
    "replayer_version",
    "proof",
)


def _subjects(store_url: str) -> dict[str, str]:
    """One judged subject with findings per kind (a poker hand at a declared table)."""
    store = AuditStore(store_url)
    try:
        model = ReadModel(store)
        with model.reading() as db:
            rows = db.execute(
                "SELECT kind, subject FROM units WHERE findings > 0 AND table_id <> ? "
                "ORDER BY kind, subject",
                (HOSTILE_TABLE,),
            ).fetchall()
            plain = db.execute(
                "SELECT kind, MIN(subject) FROM units WHERE kind IN "
                "('slots', 'tournament', 'table') GROUP BY kind"
            ).fetchall()
    finally:
        store.close()
    found: dict[str, str] = {}
    for kind, subject in [*rows, *plain]:
        found.setdefault(kind, subject)
    return found


def _bundle(client: Any, subject: str, **params: str) -> dict[str, Any]:
    query = "&".join(f"{k}={quote(v)}" for k, v in params.items())
    response = client.get("/subjects/" + quote(subject, safe="") + "/evidence?" + query)
    assert response.status_code == 200, response.text[:500]
    assert response.headers["content-disposition"].startswith("attachment;")
    return json.loads(response.content)


@pytest.fixture
def key(console_store: ConsoleStore) -> Any:
    return load_public_key(console_store.public_key)


def test_a_bundle_proves_its_events_and_verdict(
    console_store: ConsoleStore,
    make_client: Any,
    key: Any,
    tmp_path: Path,
    capsys: Any,
) -> None:
    hand = _subjects(console_store.url)["poker"]
    bundle = _bundle(make_client("inspector"), hand, proof=MERKLE)
    assert bundle["proof"]["type"] == MERKLE
    assert [g["kind"] for g in bundle["inputs"]] == ["table"]  # the declared terms
    assert bundle["verdict"]["unit"].startswith(f"poker:{hand}|")
    assert bundle["rulebook"]["citations"] and bundle["made_by"] == "inspector-1"
    report = verify_bundle(bundle, key)
    assert report.ok, report.problems
    rows = len(bundle["events"])
    assert report.proven[0].startswith("these ")
    assert f"stored events ({rows} row(s)) of poker subject {hand}" in report.proven[0]
    assert f"signed by key {bundle['proof']['checkpoint']['key_id']}" in report.proven[0]
    assert "recomputed" in report.proven[1]
    path = tmp_path / "bundle.json"
    path.write_text(json.dumps(bundle))
    nowhere = f"sqlite:///{tmp_path / 'no-store.db'}"
    args = ["--store", nowhere, "verify-evidence", str(path)]
    assert main([*args, "--public-key", str(console_store.public_key)]) == 0
    assert capsys.readouterr().out.count("PROVEN: ") == 3
    assert not (tmp_path / "no-store.db").exists()  # no store was opened


@pytest.mark.parametrize("kind", ["banked", "slots", "tournament", "table"])
def test_bundles_of_other_kinds_verify(
    console_store: ConsoleStore, make_client: Any, key: Any, kind: str
) -> None:
    subject = _subjects(console_store.url)[kind]
    bundle = _bundle(make_client("inspector"), subject, kind=kind)
    report = verify_bundle(bundle, key)
    assert report.ok, (subject, report.problems)


def _leaves(node: Any, path: tuple = ()) -> Iterator[tuple]:
    if isinstance(node, dict):
        for name, value in node.items():
            yield from _leaves(value, (*path, name))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _leaves(value, (*path, index))
    else:
        yield path


def _changed(value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str) and value:
        middle = len(value) // 2
        return value[:middle] + ("x" if value[middle] != "x" else "y") + value[middle + 1 :]
    return "x"


def _sample(paths: list[tuple], rng: random.Random) -> list[tuple]:
    """Every leaf, except the hash chain's rows in between: the first and last three
    rows whole and twelve leaves drawn from the others."""
    rows = [p for p in paths if p[:2] == ("proof", "rows")]
    ends = {p for p in rows if p[2] < 3 or p[2] >= max(r[2] for r in rows) - 2} if rows else set()
    middle = [p for p in rows if p not in ends]
    keep = set(rng.sample(middle, min(12, len(middle))))
    return [p for p in paths if p[:2] != ("proof", "rows") or p in ends or p in keep]


def test_changing_any_byte_fails(console_store: ConsoleStore, make_client: Any, key: Any) -> None:
    hand = _subjects(console_store.url)["poker"]
    _no_change_passes(_bundle(make_client("inspector"), hand, proof=MERKLE), key)


def _no_change_passes(bundle: dict[str, Any], key: Any) -> None:
    """Change each proven leaf of the bundle in turn: every change fails verification."""
    assert verify_bundle(bundle, key).ok
    paths = [p for section in PROVEN_SECTIONS for p in _leaves(bundle[section], (section,))]
    checked = 0
    for path in _sample(paths, random.Random(7)):
        parent = bundle
        for step in path[:-1]:
            parent = parent[step]
        original = parent[path[-1]]
        parent[path[-1]] = _changed(original)
        try:
            report = verify_bundle(bundle, key)
        finally:
            parent[path[-1]] = original
        assert not report.ok and report.problems, path
        checked += 1
    assert checked > 60  # a packed row per hand and per verdict unit: fewer leaves
    assert verify_bundle(bundle, key).ok  # every change was undone


def test_another_key_fails(
    console_store: ConsoleStore, make_client: Any, tmp_path: Path, key: Any
) -> None:
    _, other = generate_keypair(tmp_path / "other")
    other_key = load_public_key(other)
    hand = _subjects(console_store.url)["poker"]
    for proof in (MERKLE,):
        bundle = _bundle(make_client("inspector"), hand, proof=proof)
        report = verify_bundle(bundle, other_key)
        assert not report.ok and "not this key" in report.problems[0]
        bundle["proof"]["checkpoint"]["key_id"] = ""
        report = verify_bundle(bundle, other_key)
        assert not report.ok and "does not verify with this key" in report.problems[0]
        bundle["proof"]["checkpoint"]["signature"] = ""
        report = verify_bundle(bundle, key)
        assert not report.ok and "is not signed" in report.problems[0]
    path = tmp_path / "bundle.json"
    path.write_text(json.dumps(_bundle(make_client("inspector"), hand)))
    assert main(["verify-evidence", str(path), "--public-key", str(other)]) == 1


def test_events_no_checkpoint_covers_are_not_proven(
    console_store: ConsoleStore, make_client: Any, key: Any
) -> None:
    from audit.judging import gather, judge, verdict_unit
    from audit.store import SubjectRecords
    from tests.console_store import hostile_hand

    store = AuditStore(console_store.url)
    try:
        subject = f"late-{random.Random().randrange(10**9)}/1"
        events = hostile_hand(subject, "late", ("a", "b", "c"))
        store.append([SubjectRecords("poker", subject, events)])
        inputs = gather(store, "poker", subject, store.records_of("poker", subject))
        store.append([verdict_unit(inputs, judge(inputs))])
    finally:
        store.close()
    client = make_client("inspector")
    bundle = _bundle(client, subject)
    assert bundle["proof"]["type"] == "none"
    report = verify_bundle(bundle, key)
    assert not report.ok and "no checkpoint covers these events" in report.problems[0]
    merkle = client.get("/subjects/" + quote(subject, safe="") + "/evidence?proof=merkle")
    assert merkle.status_code == 409


# -- hash-chain proofs: where the events and the checkpoint's head share one chain --------


def test_a_hash_chain_proof_is_refused_across_chain_shards(
    console_store: ConsoleStore, make_client: Any
) -> None:
    """The nightly writes each input file on its own chain shard: a hand's table terms and its
    events are on different chains, which only the Merkle tree covers together."""
    hand = _subjects(console_store.url)["poker"]
    client = make_client("inspector")
    response = client.get("/subjects/" + quote(hand, safe="") + "/evidence?proof=hash-chain")
    assert response.status_code == 409 and "chain shard" in response.text


@pytest.fixture
def one_chain(store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A small day ingested and replayed on the main chain alone (as every store written
    before chain shards is), with signed checkpoints: (store, read model, public key)."""
    from datetime import date

    from audit.ingest.pipeline import ingest
    from audit.judging import replay
    from audit.store.signing import SIGNING_KEY_ENV
    from simulate.day import generate_day

    day = date(2025, 3, 2)
    generate_day(3, day, hands=12, out=tmp_path / "in" / day.isoformat(), fault_rate=0.3)
    private, public = generate_keypair(tmp_path / "keys")
    monkeypatch.setenv(SIGNING_KEY_ENV, str(private))
    store = AuditStore(store_url)
    ingest(store, [tmp_path / "in"])
    replay(store)
    yield store, ReadModel(store), load_public_key(public)
    store.close()


def test_a_hash_chain_bundle_on_one_chain_proves_and_resists_change(one_chain: Any) -> None:
    from datetime import UTC, datetime

    from audit.evidence.bundle import build_bundle
    from audit.evidence.treecache import TreeCache

    store, model, key = one_chain
    with model.reading() as db:
        (hand,) = db.execute(
            "SELECT subject FROM units WHERE kind = 'poker' AND findings > 0 "
            "ORDER BY subject LIMIT 1"
        ).fetchone()
    bundle = build_bundle(
        store,
        ModelVerdicts(model),
        hand,
        made_by="tests",
        made_at=datetime(2025, 3, 3, tzinfo=UTC),
        trees=TreeCache(),
        proof=HASH_CHAIN,
    )
    assert bundle["proof"]["type"] == HASH_CHAIN
    assert [g["kind"] for g in bundle["inputs"]] == ["table"]
    report = verify_bundle(bundle, key)
    assert report.ok, report.problems
    assert "recomputed" in report.proven[1]
    _no_change_passes(bundle, key)
