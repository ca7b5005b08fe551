"""Shards under the signature (issue #26, item 5), on SQLite and PostgreSQL.

Each event's chain hash covers its chain shard (the formula is spelled out here, not taken
from the code), the Merkle leaves are those hashes, and each checkpoint's shard heads are
inside the signed message (v3) and the witnessed head. Every shard tampering the attack
run found passing ``verify --public-key --witness`` is caught: an event's shard renamed or
moved, two shards' names swapped (with or without the hashes recomputed), a checkpoint's
shard heads edited, a head dropped, the heads emptied or put back in the unsigned form.

A store written before (events in the legacy form, checkpoints signed over message v2,
heads published as v2) is rebuilt here by rewriting a store the way that release wrote
it (``tests.store_tamper.as_written_before_shard_form``): it verifies, with its witness,
and takes new writes in the new form beside the old.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from audit.store import AuditStore
from audit.store.signing import generate_keypair, load_private_key, load_public_key
from audit.store.witness import publish
from tests.audit.store.test_store import five
from tests.store_tamper import as_written_before_shard_form, checkpoints_table, execute, rechain

EAST, WEST = "east/1", "west/2"


@dataclass
class SignedShards:
    """Five one-row hands written alternately to two shards, signed and witnessed: east
    1-5, west 6-10, east 11-15, west 16-20 (checkpoint at 20 by west: heads east at 15,
    west at 20), east 21-25 (checkpoint at 25 by east: head east at 25)."""

    url: str
    east: AuditStore
    west: AuditStore
    witness: Path
    private: Any
    public: Any

    def outcomes(self, witness: Path | None = None) -> tuple[Any, Any, Any]:
        """(verify, verify --public-key, verify --witness --public-key)."""
        store = self.east
        return (
            store.verify(),
            store.verify(self.public),
            store.verify_witness(witness or self.witness, self.public),
        )

    def set_heads(self, notification_id: int, value: object) -> None:
        """Write a checkpoint's recorded shard heads as the JSON ``value``, by hand."""
        execute(
            self.url,
            f"UPDATE {checkpoints_table(self.url)} SET shard_heads = {{p}} "
            "WHERE notification_id = {p}",
            (json.dumps(value).encode(), notification_id),
        )

    def hash_at(self, notification_id: int) -> str:
        rows = execute(self.url, "SELECT chain_hash FROM {t} WHERE {id} = {p}", (notification_id,))
        return bytes(rows[0][0]).hex()


@pytest.fixture
def shards(store_url: str, tmp_path: Path) -> Iterator[SignedShards]:
    private_path, public_path = generate_keypair(tmp_path / "keys")
    private, public = load_private_key(private_path), load_public_key(public_path)
    witness = tmp_path / "witness.jsonl"
    east = AuditStore(store_url, chain_shard=EAST)
    west = AuditStore(store_url, chain_shard=WEST)
    east.signing_key = west.signing_key = private
    east.append(five("e/1"))
    west.append(five("w/1"))
    east.append(five("e/2"))
    west.append(five("w/2"))
    west.checkpoint(publish=witness)
    east.append(five("e/3"))
    east.checkpoint(publish=witness)
    yield SignedShards(store_url, east, west, witness, private, public)
    west.close()
    east.close()


def _forms(url: str) -> dict[int, int]:
    return dict(execute(url, "SELECT chain_form, count(*) FROM {t} GROUP BY chain_form"))


def _expected_hash(prev: bytes, shard: str, oid: str, version: int, topic: str, state: bytes):
    """The documented shard-form formula (docs/store.md, ``audit.store.chain``), written out."""

    def part(data: bytes) -> bytes:
        return len(data).to_bytes(4, "big") + data

    body = prev + b"\x02" + part(shard.encode()) + part(oid.encode())
    body += version.to_bytes(8, "big") + part(topic.encode()) + part(state)
    return hashlib.sha256(body).digest()


def test_each_events_hash_covers_its_shard_and_the_heads_are_signed(
    shards: SignedShards,
) -> None:
    plain, signed, witnessed = shards.outcomes()
    assert plain.ok and signed.ok and witnessed.ok, (plain, signed, witnessed.problems)
    assert signed.signatures_checked == 2 and witnessed.signatures_checked == 2
    assert _forms(shards.url) == {2: 25}
    rows = execute(
        shards.url,
        "SELECT originator_id, originator_version, topic, state, chain_prev, chain_hash, "
        "chain_shard FROM {t} WHERE {id} IN (1, 6, 17) ORDER BY {id}",
    )
    for oid, version, topic, state, prev, chain_hash, shard in rows:
        oid_hex = oid.hex if isinstance(oid, UUID) else oid
        expected = _expected_hash(bytes(prev), shard, oid_hex, version, topic, bytes(state))
        assert bytes(chain_hash) == expected
    lines = [json.loads(line) for line in shards.witness.read_text().splitlines()]
    assert [line["format"] for line in lines] == ["casino-audit tree head v3"] * 2
    assert lines[0]["shard_heads"] == [
        [EAST, 15, shards.hash_at(15)],
        [WEST, 20, shards.hash_at(20)],
    ]
    assert lines[1]["shard_heads"] == [[EAST, 25, shards.hash_at(25)]]


@pytest.mark.parametrize("new_shard", ["west/3", EAST], ids=["renamed", "moved"])
def test_an_events_shard_changed_is_caught(shards: SignedShards, new_shard: str) -> None:
    execute(shards.url, "UPDATE {t} SET chain_shard = {p} WHERE {id} = 17", (new_shard,))
    plain, signed, witnessed = shards.outcomes()
    assert plain.broken_at == 17 and signed.broken_at == 17, plain.problem
    assert not witnessed.ok and witnessed.chain.broken_at == 17


def test_two_shards_names_swapped_rows_and_heads_alike_are_caught(shards: SignedShards) -> None:
    """The attack run's swap: every event of east named west and the other way round, and
    the checkpoints' shard heads renamed to match; nothing else changed."""
    swap = {EAST: WEST, WEST: EAST}
    for old, new in ((EAST, "swapping"), (WEST, EAST), ("swapping", WEST)):
        execute(shards.url, "UPDATE {t} SET chain_shard = {p} WHERE chain_shard = {p}", (new, old))
    first = [[swap[EAST], 15, shards.hash_at(15)], [swap[WEST], 20, shards.hash_at(20)]]
    shards.set_heads(20, {"form": 3, "heads": sorted(first)})
    shards.set_heads(25, {"form": 3, "heads": [[WEST, 25, shards.hash_at(25)]]})
    plain, signed, witnessed = shards.outcomes()
    assert plain.broken_at == 1 and "content or shard no longer matches" in plain.problem
    assert signed.broken_at == 1
    assert not witnessed.ok and witnessed.chain.broken_at == 1


def test_shards_swapped_with_every_hash_recomputed_fail_the_signature_and_witness(
    shards: SignedShards,
) -> None:
    """With the algorithms but not the key: the names swapped, every chain hash, root,
    frontier and shard head recomputed. The store agrees with itself; the signed roots
    and shard heads, and the witnessed ones, do not."""
    rechain(shards.url, rename={EAST: WEST, WEST: EAST})
    plain, signed, witnessed = shards.outcomes()
    assert plain.ok, plain.problem  # consistent: only a signature or a witness can tell
    assert not signed.ok and "is not signed by this key" in signed.problem
    assert any("was rewritten" in p for p in witnessed.problems), witnessed.problems


def _edited(shards: SignedShards) -> dict[str, tuple[int, object, str]]:
    """Edits of a checkpoint's recorded shard heads: (checkpoint, new value, what plain
    ``verify`` says)."""
    east = [EAST, 15, shards.hash_at(15)]
    return {
        "head moved back": (
            20,
            {"form": 3, "heads": [east, [WEST, 19, shards.hash_at(19)]]},
            f"shard {WEST!r} ended at notification 19, the store's ends at 20",
        ),
        "head renamed": (
            20,
            {"form": 3, "heads": [east, ["other", 20, shards.hash_at(20)]]},
            "names shard 'other' ending at notification 20, and the store has no event of it",
        ),
        "head dropped": (
            20,
            {"form": 3, "heads": [east]},
            f"names no head for shard {WEST!r}, written since the checkpoint before",
        ),
        "heads emptied": (
            20,
            {"form": 3, "heads": []},
            f"names no head for shard {EAST!r}, written since the checkpoint before",
        ),
        "unsigned form": (
            25,
            [[EAST, 25, shards.hash_at(25)]],
            "its shard heads are in the unsigned form, after the signed heads of the "
            "checkpoint at notification 20",
        ),
    }


@pytest.mark.parametrize(
    "edit", ["head moved back", "head renamed", "head dropped", "heads emptied", "unsigned form"]
)
def test_a_checkpoints_shard_heads_edited_are_caught(shards: SignedShards, edit: str) -> None:
    at, value, problem = _edited(shards)[edit]
    shards.set_heads(at, value)
    plain, signed, witnessed = shards.outcomes()
    assert not plain.ok and problem in plain.problem, plain.problem
    assert not signed.ok
    assert any(
        f"checkpoint at notification {at} records other shard heads than its witnessed head" in p
        for p in witnessed.problems
    ), witnessed.problems


def test_every_checkpoints_heads_emptied_in_the_unsigned_form_fail_the_signature(
    shards: SignedShards,
) -> None:
    """No signed form left for ``verify`` to compare with: the store agrees with itself,
    the signatures (made over the heads) and the witness do not."""
    for at in (20, 25):
        shards.set_heads(at, [])
    plain, signed, witnessed = shards.outcomes()
    assert plain.ok, plain.problem
    assert "checkpoint at notification 20 is not signed by this key" in signed.problem
    assert sum("records other shard heads" in p for p in witnessed.problems) == 2


def test_a_store_written_before_the_shard_form_verifies_and_takes_new_writes(
    shards: SignedShards, tmp_path: Path
) -> None:
    as_written_before_shard_form(shards.url, key=shards.private)
    old_witness = tmp_path / "before.jsonl"
    for checkpoint in sorted(shards.east.recorder.checkpoints(), key=lambda c: c.notification_id):
        publish(checkpoint, old_witness)
    assert _forms(shards.url) == {1: 25}
    lines = [json.loads(line) for line in old_witness.read_text().splitlines()]
    assert [line["format"] for line in lines] == ["casino-audit tree head v2"] * 2
    assert all("shard_heads" not in line for line in lines)
    plain, signed, witnessed = shards.outcomes(old_witness)
    assert plain.ok and signed.ok and witnessed.ok, (plain, signed, witnessed.problems)
    assert signed.signatures_checked == 2

    # New writes go in under the new form, beside the old.
    shards.west.append(five("w/3"))
    head = shards.west.checkpoint(publish=old_witness)
    assert head is not None and head.shards_signed
    assert _forms(shards.url) == {1: 25, 2: 5}
    assert json.loads(old_witness.read_text().splitlines()[-1])["shard_heads"] == [
        [WEST, 30, shards.hash_at(30)]
    ]
    plain, signed, witnessed = shards.outcomes(old_witness)
    assert plain.ok and signed.ok and witnessed.ok, (plain, signed, witnessed.problems)
    assert (plain.events_checked, signed.signatures_checked, witnessed.heads_checked) == (30, 3, 3)

    # The form is the row's marker, not a guess: flipped either way, the hash is wrong.
    execute(shards.url, "UPDATE {t} SET chain_form = 2 WHERE {id} = 3")
    assert shards.east.verify().broken_at == 3
    execute(shards.url, "UPDATE {t} SET chain_form = 1 WHERE {id} = 3")
    execute(shards.url, "UPDATE {t} SET chain_form = 1 WHERE {id} = 28")
    assert shards.east.verify().broken_at == 28
    execute(shards.url, "UPDATE {t} SET chain_form = 2 WHERE {id} = 28")
    execute(shards.url, "UPDATE {t} SET chain_shard = 'other' WHERE {id} = 28")
    assert shards.east.verify().broken_at == 28
