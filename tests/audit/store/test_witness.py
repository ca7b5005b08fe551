"""Witnessed, signed tree heads: history that the database's own users cannot rewrite
unnoticed.

Each attack below is one an attacker with full write access to the database (triggers
bypassed, ``tests.store_tamper``) can make so that ``verify`` and ``verify --public-key``
alone see nothing wrong, or only refuse; ``verify --witness`` fails each and names what
is inconsistent with which witnessed head.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from uuid import UUID

import pytest

from audit.store import AuditStore
from audit.store.chain import Checkpoint, link_hash, originator_hex
from audit.store.merkle import tree_root
from audit.store.packing import pack_events, unpack
from audit.store.shards import MAIN_SHARD
from audit.store.signing import (
    SIGNING_KEY_ENV,
    generate_keypair,
    load_private_key,
    load_public_key,
    sign,
)
from audit.store.witness import WITNESS_ENV, describe_head, head_time_text, load_heads, publish
from cli.main import main
from tests.audit.store.test_store import hand
from tests.store_tamper import (
    checkpoints_table,
    execute,
    flip_a_byte,
    recompute_history,
    written_per_event,
)


@dataclass
class Witnessed:
    """A store with three signed tree heads (after 5, 10 and 15 rows), each published."""

    url: str
    store: AuditStore
    witness: Path
    public: Path
    private: Path

    def heads(self) -> list[Checkpoint]:
        return sorted((w.head for w in load_heads(self.witness)[0]), key=lambda h: h.event_count)

    def cli_verify(self, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
        capsys.readouterr()
        code = main(["--store", self.url, "verify", *extra])
        return code, capsys.readouterr().out

    def verify_witness(self, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
        return self.cli_verify(
            capsys, "--witness", str(self.witness), "--public-key", str(self.public)
        )


@pytest.fixture(params=["jsonl", "directory"])
def witnessed(
    request: pytest.FixtureRequest,
    store_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[Witnessed]:
    private, public = generate_keypair(tmp_path / "keys")
    witness = tmp_path / ("witness.jsonl" if request.param == "jsonl" else "witness")
    monkeypatch.setenv(SIGNING_KEY_ENV, str(private))
    monkeypatch.setenv(WITNESS_ENV, str(witness) + ("/" if request.param == "directory" else ""))
    store = AuditStore(store_url)
    for i in range(3):
        store.append([hand(f"t/{i}/{n}") for n in range(5)])  # 5 rows, a packed row per hand
        store.checkpoint()
    yield Witnessed(store_url, store, witness, public, private)
    store.close()


def test_an_honest_store_verifies_clean(
    witnessed: Witnessed, capsys: pytest.CaptureFixture[str]
) -> None:
    heads = witnessed.heads()
    assert [h.event_count for h in heads] == [5, 10, 15]
    assert all(len(h.signature) == 64 and h.tree_root for h in heads)
    code, out = witnessed.verify_witness(capsys)
    assert code == 0, out
    assert "consistent with every witnessed head" in out
    assert "3 head(s)" in out and "3 signature(s) valid" in out and "0 event(s) unwitnessed" in out
    code, out = witnessed.cli_verify(capsys, "--public-key", str(witnessed.public))
    assert code == 0 and "signatures: 3 valid, 0 checkpoint(s) unsigned" in out
    # the witnessed roots are the RFC 9162 roots over the stored chain hashes
    rows = execute(witnessed.url, "SELECT chain_hash FROM {t} ORDER BY {id}")
    hashes = [bytes(r[0]) for r in rows]
    assert [h.tree_root for h in heads] == [tree_root(hashes, n) for n in (5, 10, 15)]


def test_no_new_events_no_new_head_and_publishing_twice_writes_once(
    witnessed: Witnessed,
) -> None:
    before = witnessed.heads()
    again = witnessed.store.checkpoint()
    assert again == before[-1]  # the recorded head, not a new one
    assert witnessed.heads() == before


def test_verification_reads_the_events_once_for_all_heads(
    witnessed: Witnessed, monkeypatch: pytest.MonkeyPatch
) -> None:
    recorder = witnessed.store.recorder
    calls = []
    original = recorder.iter_chain_rows

    def counted(upto=None):
        calls.append(1)
        return original(upto)

    monkeypatch.setattr(recorder, "iter_chain_rows", counted)
    report = witnessed.store.verify_witness(witnessed.witness, load_public_key(witnessed.public))
    assert report.ok and report.heads_checked == 3 and calls == [1]


# -- the attacks --------------------------------------------------------------------------


def recompute_everything(url: str, victim: int, old: bytes, new: bytes) -> None:
    """Alter a payout, then recompute every chain hash and checkpoint; the signatures go."""

    def alter(state: bytes) -> bytes:
        events = unpack("the victim", 1, state)
        assert any(old in event for _, _, event in events)
        return pack_events([(topic, event.replace(old, new)) for _, topic, event in events])

    recompute_history(url, victim, alter, strip_signatures=True)


def test_a_altered_payout_with_the_whole_chain_and_checkpoints_recomputed(
    witnessed: Witnessed, capsys: pytest.CaptureFixture[str]
) -> None:
    heads = witnessed.heads()
    recompute_everything(witnessed.url, 3, b'"amount":100', b'"amount":900')
    assert witnessed.store.verify().ok  # the chain and its checkpoints agree again
    assert not witnessed.store.verify(load_public_key(witnessed.public)).ok
    code, out = witnessed.verify_witness(capsys)
    assert code == 1
    store_root = tree_root(
        (bytes(r[0]) for r in execute(witnessed.url, "SELECT chain_hash FROM {t} ORDER BY {id}")),
        5,
    )
    first = heads[0]
    assert (
        f"the history up to notification 5 was rewritten: witnessed root "
        f"{first.tree_root.hex()}, store has {store_root.hex()} ({describe_head(first)})" in out
    )
    assert head_time_text(first.head_time) in out and first.key_id in out
    for head in heads:
        assert f"the history up to notification {head.notification_id} was rewritten" in out
        assert f"checkpoint at notification {head.notification_id} differs" in out


def test_b_all_checkpoints_deleted(
    witnessed: Witnessed, capsys: pytest.CaptureFixture[str]
) -> None:
    execute(witnessed.url, f"DELETE FROM {checkpoints_table(witnessed.url)}")
    assert witnessed.store.verify().ok
    code, out = witnessed.cli_verify(capsys, "--public-key", str(witnessed.public))
    assert code == 1 and "it has no checkpoint" in out
    code, out = witnessed.verify_witness(capsys)
    assert code == 1
    for head in witnessed.heads():
        assert (
            f"checkpoint at notification {head.notification_id} is missing from the database: "
            f"dropped ({describe_head(head)})" in out
        )
    assert "rewritten" not in out  # the events themselves are as witnessed


def test_c_checkpoints_replaced_by_unsigned_ones(
    witnessed: Witnessed, capsys: pytest.CaptureFixture[str]
) -> None:
    table = checkpoints_table(witnessed.url)
    rows = execute(witnessed.url, f"SELECT notification_id, chain_hash, event_count FROM {table}")
    execute(witnessed.url, f"DELETE FROM {table}")
    for notification_id, chain_hash, count in rows:  # the old, unrooted, unsigned form
        execute(
            witnessed.url,
            f"INSERT INTO {table} (notification_id, chain_hash, event_count, signature, key_id) "
            "VALUES ({p}, {p}, {p}, {p}, '')",
            (notification_id, bytes(chain_hash), count, b""),
        )
    assert witnessed.store.verify().ok
    code, out = witnessed.cli_verify(capsys, "--public-key", str(witnessed.public))
    assert code == 1 and "none of its 3 checkpoints is signed" in out
    code, out = witnessed.verify_witness(capsys)
    assert code == 1
    for head in witnessed.heads():
        assert (
            f"checkpoint at notification {head.notification_id} is unsigned in the database "
            f"but its witnessed head is signed" in out
        )
        assert describe_head(head) in out


def test_d_truncated_back_to_an_earlier_signed_checkpoint(
    witnessed: Witnessed, capsys: pytest.CaptureFixture[str]
) -> None:
    execute(witnessed.url, "DELETE FROM {t} WHERE {id} > 5")
    execute(
        witnessed.url, f"DELETE FROM {checkpoints_table(witnessed.url)} WHERE notification_id > 5"
    )
    key = load_public_key(witnessed.public)
    assert witnessed.store.verify(key).ok  # signed, whole and chained: only a witness knows
    code, out = witnessed.verify_witness(capsys)
    assert code == 1
    last = witnessed.heads()[-1]
    assert (
        "the store has 5 events, head witnessed at 15 (notification 15): events at the end "
        f"were deleted ({describe_head(last)}); 1 more witnessed head(s) beyond the store's end"
        in out
    )
    assert "checkpoint at notification 10 is missing from the database" in out
    assert "checkpoint at notification 15 is missing from the database" in out


def test_e_tail_deleted_with_its_checkpoint(
    witnessed: Witnessed, capsys: pytest.CaptureFixture[str]
) -> None:
    execute(witnessed.url, "DELETE FROM {t} WHERE {id} > 12")
    execute(
        witnessed.url, f"DELETE FROM {checkpoints_table(witnessed.url)} WHERE notification_id = 15"
    )
    assert witnessed.store.verify().ok
    code, out = witnessed.cli_verify(capsys, "--public-key", str(witnessed.public))
    assert code == 1
    assert "2 event(s) after the last signed checkpoint (notification 10)" in out
    code, out = witnessed.verify_witness(capsys)
    assert code == 1
    last = witnessed.heads()[-1]
    assert "the store has 12 events, head witnessed at 15 (notification 15)" in out
    assert describe_head(last) in out
    assert "checkpoint at notification 15 is missing from the database: dropped" in out


def test_f_correctly_chained_forged_row_appended(
    witnessed: Witnessed, capsys: pytest.CaptureFixture[str]
) -> None:
    url = witnessed.url
    *_, (originator_id, version, topic, state, head) = execute(
        url,
        "SELECT originator_id, originator_version, topic, state, chain_hash FROM {t} ORDER BY {id}",
    )
    oid = originator_hex(originator_id)
    forged = bytes(state).replace(b'"amount":300', b'"amount":99900')
    link = link_hash(bytes(head), oid, version + 1, topic, forged, MAIN_SHARD)
    execute(
        url,
        "INSERT INTO {t} (originator_id, originator_version, topic, state, chain_prev, "
        "chain_hash, chain_form) VALUES ({p}, {p}, {p}, {p}, {p}, {p}, 2)",
        (
            oid if url.startswith("sqlite") else UUID(oid),
            version + 1,
            topic,
            forged,
            bytes(head),
            link,
        ),
    )
    # and the attacker checkpoints it, unsigned, so that nothing in the database is amiss
    witnessed.store.signing_key = None
    forged_checkpoint = witnessed.store.checkpoint(publish="")
    assert forged_checkpoint is not None and forged_checkpoint.event_count == 16
    assert witnessed.store.verify().ok
    code, out = witnessed.cli_verify(capsys, "--public-key", str(witnessed.public))
    assert code == 1 and "1 checkpoint(s) after the first signed one are unsigned" in out
    code, out = witnessed.verify_witness(capsys)
    assert code == 1
    last = witnessed.heads()[-1]
    assert (
        "1 event(s) after the last witnessed head (notification 15) are unwitnessed: a forged "
        "row appended after the last head cannot be told from a genuine one "
        f"({describe_head(last)})" in out
    )
    assert "1 event(s) unwitnessed" in out


def test_g_every_signature_stripped(
    witnessed: Witnessed, capsys: pytest.CaptureFixture[str]
) -> None:
    execute(
        witnessed.url,
        f"UPDATE {checkpoints_table(witnessed.url)} SET signature = {{p}}, key_id = ''",
        (b"",),
    )
    assert witnessed.store.verify().ok
    code, out = witnessed.cli_verify(capsys, "--public-key", str(witnessed.public))
    assert code == 1
    assert "NOT VERIFIED: nothing signed vouches for the store's 15 events" in out
    code, out = witnessed.verify_witness(capsys)
    assert code == 1
    for head in witnessed.heads():
        assert (
            f"checkpoint at notification {head.notification_id} is unsigned in the database" in out
        )


def test_a_forged_or_unsigned_witnessed_head_fails_with_the_public_key(
    witnessed: Witnessed, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The witness file itself: a head signed by another key, or not at all, is named."""
    other_private, _ = generate_keypair(tmp_path / "other")

    heads = witnessed.heads()
    forged = tmp_path / "forged.jsonl"
    publish(sign(heads[0], load_private_key(other_private)), forged)
    publish(replace(heads[1], signature=b"", key_id=""), forged)
    publish(heads[2], forged)
    code, out = witnessed.cli_verify(
        capsys, "--witness", str(forged), "--public-key", str(witnessed.public)
    )
    assert code == 1
    assert "witnessed head at notification 5 is not signed by this key: forged" in out
    assert "witnessed head at notification 10 is unsigned: it cannot be authenticated" in out
    assert "1 signature(s) valid" in out
    # without the key the roots still bind the history: consistent
    code, out = witnessed.cli_verify(capsys, "--witness", str(forged))
    assert code == 0 and "signatures not checked" in out


def test_an_unreadable_witness_entry_and_a_missing_witness(
    witnessed: Witnessed, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"format": "casino-audit tree head v2", "tree_size": "x"}\n')
    code, out = witnessed.cli_verify(capsys, "--witness", str(broken))
    assert code == 1 and f"witness entry {broken}:1 cannot be read" in out
    assert "no witnessed head: all 15 events are unwitnessed" in out
    assert main(["--store", witnessed.url, "verify", "--witness", str(tmp_path / "nope")]) == 2


# -- checkpoints as tree heads --------------------------------------------------------------


def test_cli_checkpoint_publish(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 's.db'}"
    AuditStore(url).append([hand(f"t/{n}") for n in range(5)])  # five rows
    assert main(["keygen", str(tmp_path / "k")]) == 0
    key = str(tmp_path / "k" / "checkpoint-signing.key")
    folder = tmp_path / "heads"
    folder.mkdir()
    capsys.readouterr()
    assert main(["--store", url, "checkpoint", "--sign-key", key, "--publish", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "root " in out and "signed by key" in out and f"published to the witness {folder}" in out
    assert len(list(folder.glob("tree-head-000000000005-*.json"))) == 1
    public = str(tmp_path / "k" / "checkpoint-signing.pub")
    assert main(["--store", url, "verify", "--witness", str(folder), "--public-key", public]) == 0


def test_a_damaged_frontier_is_not_built_on(
    witnessed: Witnessed, capsys: pytest.CaptureFixture[str]
) -> None:
    execute(
        witnessed.url,
        f"UPDATE {checkpoints_table(witnessed.url)} SET tree_frontier = {{p}}",
        (b"\x00" * 64,),
    )
    witnessed.store.append([hand(f"t/9/{n}") for n in range(5)])
    assert witnessed.store.checkpoint().event_count == 20
    code, out = witnessed.verify_witness(capsys)
    assert code == 0, out


def test_checkpoints_written_before_the_merkle_tree_still_verify(
    store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An old store: a checkpoints table without the tree columns, with old-style signed
    checkpoints. It verifies as before; opening it adds the columns, and the next
    checkpoint is a signed tree head, built from the first event (five rows of one event
    each, then a packed row)."""
    private, public = generate_keypair(tmp_path / "keys")
    key = load_public_key(public)
    store = AuditStore(store_url)
    with written_per_event():
        store.append([hand("t/1")])
    notification_id, chain_hash, count = store.recorder.chain_head()
    old = sign(Checkpoint(notification_id, chain_hash, count), load_private_key(private))
    table = checkpoints_table(store_url)
    execute(
        store_url,
        f"INSERT INTO {table} (notification_id, chain_hash, event_count, signature, key_id) "
        "VALUES ({p}, {p}, {p}, {p}, {p})",
        (old.notification_id, old.chain_hash, old.event_count, old.signature, old.key_id),
    )
    for column in ("tree_root", "tree_frontier", "head_time"):
        execute(store_url, f"ALTER TABLE {table} DROP COLUMN {column}")
    store.close()

    store = AuditStore(store_url)
    store.recorder._tree_columns = False
    report = store.verify(key)
    assert report.ok and report.signatures_checked == 1
    store.append([hand("t/2")])
    monkeypatch.setenv(SIGNING_KEY_ENV, str(private))
    store.signing_key = load_private_key(private)
    head = store.checkpoint(publish=tmp_path / "w.jsonl")
    assert head is not None and head.tree_root and head.event_count == 6
    report = store.verify(key)
    assert report.ok and report.signatures_checked == 2
    assert store.verify_witness(tmp_path / "w.jsonl", key).ok
    store.close()


def test_an_altered_row_left_unchained_is_named_by_the_chain_and_the_witness(
    witnessed: Witnessed, capsys: pytest.CaptureFixture[str]
) -> None:
    """Past the chain's first break the witness keeps reading, recomputing each hash from
    the event's content (the stored hashes are not taken on trust)."""
    flip_a_byte(witnessed.url, 8)
    code, out = witnessed.verify_witness(capsys)
    assert code == 1
    assert "CHAIN BROKEN at notification 8" in out
    assert "the history up to notification 5 was rewritten" not in out
    assert "the history up to notification 10 was rewritten" in out
    assert "the history up to notification 15 was rewritten" in out


def test_replay_publishes_its_checkpoint_to_the_witness_of_the_environment(
    store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    witness = tmp_path / "witness.jsonl"
    monkeypatch.setenv(WITNESS_ENV, str(witness))
    store = AuditStore(store_url)
    store.append([hand("t/1"), hand("t/2")])
    assert main(["--store", store_url, "replay"]) == 0
    [head] = [w.head for w in load_heads(witness)[0]]
    assert head.event_count == store.count_rows() > 3
    assert store.verify_witness(witness).ok
    store.close()


def test_proofs_over_the_store_verify_against_the_witnessed_roots(witnessed: Witnessed) -> None:
    from audit.store import heads as store_heads
    from audit.store.merkle import leaf_hash, verify_consistency, verify_inclusion

    recorder = witnessed.store.recorder
    small, _, large = witnessed.heads()
    proof = store_heads.consistency_proof(recorder, 5, 15)
    assert verify_consistency(5, 15, small.tree_root, large.tree_root, proof)
    rows = execute(
        witnessed.url,
        "SELECT originator_id, originator_version, topic, state, chain_prev FROM {t} ORDER BY {id}",
    )
    oid, version, topic, state, prev = rows[7]
    leaf = leaf_hash(
        link_hash(bytes(prev), originator_hex(oid), version, topic, bytes(state), MAIN_SHARD)
    )
    path = store_heads.inclusion_proof(recorder, 7, 15)
    assert verify_inclusion(leaf, 7, 15, path, large.tree_root)
    assert not verify_inclusion(leaf, 7, 15, path, small.tree_root)
