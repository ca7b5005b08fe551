"""The proof part of an evidence bundle: stored rows linked to a signed checkpoint.

Two kinds, checked without any store (``check_proof``):

* ``merkle`` (RFC 9162, ``audit.store.merkle``): each proven row's chain hash (a packed
  row, ``audit.store.packing``, holds several events; the chain covers its stored,
  compressed bytes) is recomputed from its stored bytes and chain shard
  (``audit.store.chain.link_hash``; an event stored before the hash covered the shard,
  ``chain_form`` 1: ``legacy_link_hash``), hashed as a leaf,
  and its audit path must lead to the checkpoint's signed tree root (tree size = the
  checkpoint's event count, which counts rows). Small: O(log n) hashes per row.
* ``hash-chain`` (checkpoints without a tree root): every row from the first proven
  event to the checkpoint is bundled, and the chain recomputed over them, starting at the
  first proven event's ``chain_prev``, must end at the checkpoint's signed head hash.
  Large (every row in between, whole), but needs nothing but SHA-256.

Either way the checkpoint's Ed25519 signature is checked with the public key given
(``audit.store.signing.signature_valid``, the message the store signs).
"""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from datetime import UTC, datetime
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from audit.store import (
    LEGACY_FORM,
    SHARD_FORM,
    Checkpoint,
    CompactStateError,
    PackedRowError,
    decode_compact_state,
    expand_row,
    heads_from_list,
    heads_list,
    is_compact_state,
    key_id,
    legacy_link_hash,
    link_hash,
    signature_valid,
)

MERKLE, HASH_CHAIN = "merkle", "hash-chain"


class ProofError(ValueError):
    """The proof does not hold; the message says which part."""


#: The fields of a bundled row (``audit.evidence.proofs.event_json``): any other is
#: refused, never ignored (a renamed ``chain_shard`` read as the main shard's ``""``).
ROW_FIELDS = frozenset(
    {"notification_id", "originator_id", "version", "topic", "state", "state_b64",
     "chain_shard", "chain_form", "chain_prev", "chain_hash"}
)  # fmt: skip


def hex_bytes(value: object, what: str) -> bytes:
    """Bytes written as lowercase hex, as the product writes them; another spelling of the
    same bytes (upper case, spaces) is refused, so every byte of a bundle is as made."""
    text = str(value)
    try:
        data = bytes.fromhex(text)
    except ValueError:
        data = None
    if data is None or data.hex() != text:
        raise ProofError(f"{what} is not lowercase hex as the store writes it")
    return data


CHECKPOINT_FIELDS = frozenset(
    {"notification_id", "chain_hash", "event_count", "signature", "key_id", "tree_root",
     "head_time", "shard_heads"}
)  # fmt: skip
PROOF_FIELDS = {MERKLE: frozenset({"type", "checkpoint", "leaves"}),
                HASH_CHAIN: frozenset({"type", "checkpoint", "rows"})}  # fmt: skip
LEAF_FIELDS = frozenset({"index", "path"})


def only_fields(section: object, allowed: frozenset[str], what: str) -> None:
    """``section`` is a JSON object with no field but ``allowed`` (``ProofError``
    otherwise: a field a bundle does not hold is refused, never ignored; a renamed
    ``key_id`` read as absent skipped the key's check)."""
    if not isinstance(section, Mapping):
        raise ProofError(f"{what} is not a JSON object")
    unknown = sorted(str(k) for k in section if k not in allowed)
    if unknown:
        raise ProofError(f"{what} holds fields a bundle does not: {str(unknown)[:120]}")


def _row_fields(row: Mapping[str, Any]) -> None:
    unknown = sorted(str(k) for k in row if k not in ROW_FIELDS)
    if unknown:
        raise ProofError(
            f"event at notification {row.get('notification_id')} holds fields a bundled row "
            f"does not: {str(unknown)[:120]}"
        )


def row_state(row: Mapping[str, Any]) -> bytes:
    """A bundled row's exact stored state bytes (text, or base64 when not UTF-8)."""
    if "state_b64" in row:
        return base64.b64decode(str(row["state_b64"]), validate=True)
    return str(row["state"]).encode()


def recomputed_hash(row: Mapping[str, Any], prev: bytes) -> bytes:
    """The chain hash of a bundled row after ``prev``, in the chain form the row names
    (a row bundled without one is in the legacy form, its shard not covered)."""
    form = row.get("chain_form", LEGACY_FORM)
    if form not in (LEGACY_FORM, SHARD_FORM) or type(form) is not int:
        raise ProofError(
            f"event at notification {row['notification_id']} names no known chain form"
        )
    values = (str(row["originator_id"]), int(row["version"]), str(row["topic"]), row_state(row))
    if form == SHARD_FORM:
        return link_hash(prev, *values, str(row.get("chain_shard", "")))
    return legacy_link_hash(prev, *values)


def checkpoint_of(data: Mapping[str, Any]) -> Checkpoint:
    """The ``Checkpoint`` a bundle's checkpoint section describes."""
    only_fields(data, CHECKPOINT_FIELDS, "the proof's checkpoint")
    values: dict[str, Any] = {
        "notification_id": int(data["notification_id"]),
        "chain_hash": hex_bytes(data["chain_hash"], "the checkpoint's chain hash"),
        "event_count": int(data["event_count"]),
        "signature": hex_bytes(data.get("signature") or "", "the checkpoint's signature"),
        "key_id": str(data.get("key_id") or ""),
    }
    known = {f.name for f in fields(Checkpoint)}
    if data.get("tree_root"):
        if "tree_root" not in known:
            raise ProofError("the checkpoint is a signed tree head, which this checker cannot read")
        values["tree_root"] = hex_bytes(data["tree_root"], "the checkpoint's tree root")
        values["head_time"] = int(data.get("head_time") or 0)
        if "shard_heads" in data:  # signed with the tree head (message v3)
            heads = heads_from_list(data["shard_heads"])
            if heads_list(heads) != data["shard_heads"]:  # e.g. a hash in upper case
                raise ProofError("the checkpoint's shard heads are not as the store writes them")
            values["shard_heads"] = heads
            values["shards_signed"] = True
    return Checkpoint(**values)


@dataclass(frozen=True)
class ProofResult:
    """What a proof showed: the checkpoint, how, and when its head was made."""

    checkpoint: Checkpoint
    method: str
    head_time: str


def _signed(checkpoint: Checkpoint, public_key: Ed25519PublicKey) -> None:
    if not checkpoint.signature:
        raise ProofError(
            f"checkpoint {checkpoint.notification_id} is not signed: it shows only that the "
            "rows agree with each other, not that the store's keeper vouched for them"
        )
    if checkpoint.key_id and checkpoint.key_id != key_id(public_key):
        raise ProofError(
            f"checkpoint {checkpoint.notification_id} names key {checkpoint.key_id}, "
            f"not this key ({key_id(public_key)})"
        )
    if not signature_valid(checkpoint, public_key):
        raise ProofError(
            f"the signature of checkpoint {checkpoint.notification_id} does not verify with "
            "this key: the checkpoint or its signature was changed, or another key signed it"
        )


def check_proof(
    proof: Mapping[str, Any], events: Sequence[Mapping[str, Any]], public_key: Ed25519PublicKey
) -> ProofResult:
    """Check that every row of ``events`` is in the history up to the proof's signed
    checkpoint; raise ``ProofError`` naming what fails."""
    kind = proof.get("type")
    if kind not in (MERKLE, HASH_CHAIN):
        raise ProofError(f"no proof of inclusion ({proof.get('reason') or kind!r})")
    only_fields(proof, PROOF_FIELDS[kind], "the proof")
    checkpoint = checkpoint_of(proof["checkpoint"])
    _signed(checkpoint, public_key)
    for event in events:
        _row_fields(event)
        if int(event["notification_id"]) > checkpoint.notification_id:
            raise ProofError(f"event {event['notification_id']} is after the checkpoint")
        prev = hex_bytes(event["chain_prev"], f"event {event['notification_id']}'s chain_prev")
        if recomputed_hash(event, prev).hex() != event["chain_hash"]:
            raise ProofError(
                f"event at notification {event['notification_id']} does not match its chain "
                "hash: its stored bytes were changed"
            )
    if kind == MERKLE:
        _merkle(proof, events, checkpoint)
        when = datetime.fromtimestamp(checkpoint.head_time / 1000, UTC).isoformat()
        return ProofResult(checkpoint, "Merkle inclusion proofs (RFC 9162)", when)
    last = _hash_chain(proof, events, checkpoint)
    return ProofResult(checkpoint, "hash chain recomputed to the signed head", last)


def _merkle(proof: Mapping[str, Any], events: Sequence[Mapping[str, Any]], cp: Checkpoint) -> None:
    from audit.store import leaf_hash, verify_inclusion

    paths = proof.get("leaves") or {}
    for event in events:
        entry = paths.get(str(event["notification_id"]))
        if entry is None:
            raise ProofError(f"no inclusion proof for notification {event['notification_id']}")
        only_fields(entry, LEAF_FIELDS, "an inclusion proof")
        path = [hex_bytes(h, "an inclusion proof's hash") for h in entry["path"]]
        leaf = leaf_hash(hex_bytes(event["chain_hash"], "a chain hash"))
        if not verify_inclusion(leaf, int(entry["index"]), cp.event_count, path, cp.tree_root):
            raise ProofError(
                f"the inclusion proof of notification {event['notification_id']} does not "
                "lead to the signed tree root"
            )


def _hash_chain(
    proof: Mapping[str, Any], events: Sequence[Mapping[str, Any]], cp: Checkpoint
) -> str:
    """Recompute the chain from the first proven event to the checkpoint; the time the
    head row was stored."""
    rows: dict[int, Mapping[str, Any]] = {}
    for row in [*events, *(proof.get("rows") or ())]:
        _row_fields(row)
        number = int(row["notification_id"])
        if number in rows:
            raise ProofError(f"notification {number} is bundled twice")
        rows[number] = row
    ordered = [rows[n] for n in sorted(rows)]
    if not ordered or int(ordered[-1]["notification_id"]) != cp.notification_id:
        raise ProofError("the bundled rows do not reach the checkpoint")
    first = min(int(e["notification_id"]) for e in events)
    if int(ordered[0]["notification_id"]) != first:
        raise ProofError("rows before the first proven event are bundled")
    prev = hex_bytes(ordered[0]["chain_prev"], "the first row's chain_prev")
    for row in ordered:
        prev = recomputed_hash(row, prev)
        if "chain_hash" in row and row["chain_hash"] != prev.hex():
            raise ProofError(f"notification {row['notification_id']} breaks the chain")
    if prev != cp.chain_hash:
        raise ProofError(
            "the chain recomputed over the bundled rows does not end at the signed head: "
            "a row was changed, added or left out"
        )
    return _row_stored_at(ordered[-1])


def _row_stored_at(row: Mapping[str, Any]) -> str:
    """When a bundled row was stored: its (last) event's time."""
    try:
        events = expand_row(
            row.get("originator_id"), int(row["version"]), str(row["topic"]), row_state(row)
        )
    except PackedRowError:
        return "an unknown time"
    return _stored_at(events[-1][2])


def _stored_at(state: bytes) -> str:
    import orjson

    if is_compact_state(state):
        try:
            return decode_compact_state(state)[0].isoformat()
        except CompactStateError:
            return "an unknown time"
    try:
        stamp = orjson.loads(state).get("timestamp")
    except (orjson.JSONDecodeError, AttributeError):
        return "an unknown time"
    return str(stamp.get("_data_")) if isinstance(stamp, dict) else str(stamp)
