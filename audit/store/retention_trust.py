"""A retention record under the store's signature and the witness (issue 41 item 1).

A retention record (``audit.store.retention``) lets ``verify`` start after a prefix of
rows; unsigned, anyone who could write to the database could insert one at a later
checkpoint and make ``verify`` skip rows still there, or a day dropped with no archive.
So a record counts only when:

* it is **signed by the store's key**: Ed25519 over ``RETENTION_DOMAIN``, the record's
  fields and the chain hash and Merkle root of its checkpoint (``message``), by the key
  that signed that checkpoint (its ``key_id``). ``retention archive`` signs it with
  ``$CASINO_AUDIT_SIGNING_KEY`` (refused without one) and stores the signature in the
  ``_retention_signatures`` table (append-only, read-only for writers and readers), in
  the transaction that writes the record. ``verify`` refuses an unsigned record and one
  signed under another key id; ``verify --public-key`` also checks the signature.
* **no attached row lies at or below its checkpoint**: the rows a retention retires
  are gone with their partitions; a row still there means the record was forged (or the
  rows were put back), and ``verify`` names it.
* **witnessed where a witness is configured**: ``retention archive`` publishes the record
  (``witness_entry``, format ``witness.RETENTION_FORMAT``) to ``$CASINO_AUDIT_WITNESS`` beside the
  tree heads, and ``verify --witness`` requires the store's latest record to be there,
  field for field and signature for signature.

**Stores archived before** records were signed hold unsigned records: ``verify`` fails
on them, saying so, until the owner attests the record with its archive file
(``casino-audit retention attest --archive FILE``, ``audit.store.partitions.attest``):
the file's SHA-256 must be the record's, the file must verify alone with the store's key
(``audit.store.archive.verify_archive``), end at the record's checkpoint and hold as
many rows as the record says; then the record is signed and published like a new one.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from audit.store.chain import Checkpoint
from audit.store.retention import RetentionRecord
from audit.store.witness import RETENTION_FORMAT, is_retention_entry, load_entries, publish_entry

RETENTION_DOMAIN = b"casino-audit retention v1\n"
ATTEST = "casino-audit retention attest --archive FILE"


def message(record: RetentionRecord, checkpoint: Checkpoint) -> bytes:
    """The exact bytes signed for a retention record at ``checkpoint``."""
    sha = record.archive_sha256.encode()
    return (
        RETENTION_DOMAIN
        + record.checkpoint_id.to_bytes(8, "big")
        + record.retired_rows.to_bytes(8, "big")
        + record.archived_rows.to_bytes(8, "big")
        + record.retired_at.to_bytes(8, "big", signed=True)
        + len(sha).to_bytes(2, "big")
        + sha
        + checkpoint.chain_hash
        + (checkpoint.tree_root or b"")
    )


def sign(
    record: RetentionRecord, checkpoint: Checkpoint, key: Ed25519PrivateKey
) -> RetentionRecord:
    """The record signed with ``key`` (its key id that of ``key``)."""
    from audit.store.signing import key_id

    signature = key.sign(message(record, checkpoint))
    return replace(record, signature=signature, key_id=key_id(key.public_key()))


def _valid(record: RetentionRecord, checkpoint: Checkpoint, key: Ed25519PublicKey) -> bool:
    try:
        key.verify(record.signature, message(record, checkpoint))
    except InvalidSignature:
        return False
    return True


def record_problem(
    record: RetentionRecord,
    checkpoint: Checkpoint,
    attached: int | None,
    public_key: Ed25519PublicKey | None,
) -> str:
    """Why ``record`` (at ``checkpoint``, as the store holds it) does not count, or "".
    ``attached``: the first row still in the store at or below its checkpoint (None:
    none)."""
    at = f"the retention record at checkpoint {record.checkpoint_id}"
    if attached is not None:
        return (
            f"{at} says rows up to it left the store, but the row at notification "
            f"{attached} is still there: the record is forged, or rows were kept or put back "
            "(a retention drops every row it retires)"
        )
    if not record.signature:
        return (
            f"{at} is unsigned: a retention record counts only when signed by the store's "
            f"key (a record made before records were signed is attested by the owner: {ATTEST})"
        )
    from audit.store.signing import key_id

    expected = key_id(public_key) if public_key is not None else checkpoint.key_id
    if record.key_id != expected:
        whose = "the given public key" if public_key is not None else "its checkpoint"
        return (
            f"{at} is signed by key {record.key_id or 'none'}, not by the store's key "
            f"{expected or 'none'} ({whose}): forged"
        )
    if public_key is not None and not _valid(record, checkpoint, public_key):
        return f"{at}: its signature does not verify with the store's key: forged or altered"
    return ""


def witness_entry(record: RetentionRecord) -> dict[str, object]:
    """The record as published to a witness (one JSON object, beside the tree heads)."""
    return {
        "format": RETENTION_FORMAT,
        "checkpoint_id": record.checkpoint_id,
        "retired_rows": record.retired_rows,
        "archived_rows": record.archived_rows,
        "retired_at": record.retired_at,
        "archive_sha256": record.archive_sha256,
        "key_id": record.key_id,
        "signature": record.signature.hex(),
    }


def publish(record: RetentionRecord, witness: str | os.PathLike[str]) -> Path:
    """Publish the record to the witness (a directory or a JSON-lines file)."""

    line = json.dumps(witness_entry(record), sort_keys=True, separators=(",", ":")) + "\n"
    return publish_entry(witness, line.encode(), f"retention-{record.checkpoint_id:012d}")


def witnessed_problem(record: RetentionRecord, witness: str | os.PathLike[str]) -> str:
    """Why the witness does not vouch for ``record``, or "" when it holds it exactly
    (entries that cannot be read are ``load_heads``'s to report)."""

    entries: list[object] = []
    for _, content in load_entries(witness):
        try:
            entries.append(json.loads(content))
        except ValueError:
            continue
    wanted = witness_entry(record)
    found = [e for e in entries if is_retention_entry(e)]
    if wanted in found:
        return ""
    at = f"the retention record at checkpoint {record.checkpoint_id}"
    if any(isinstance(e, dict) and e.get("checkpoint_id") == record.checkpoint_id for e in found):
        return f"{at} differs from the one the witness holds: rewritten"
    return (
        f"{at} is not in the witness: nothing outside the database vouches that those rows "
        "were retired (forged, or retired before records were published: "
        f"{ATTEST} publishes it)"
    )


class Unsignable(ValueError):
    """A retention record cannot be signed as asked (the message says why)."""


def signing_key_for(checkpoint: Checkpoint) -> Ed25519PrivateKey:
    """The store's signing key (``$CASINO_AUDIT_SIGNING_KEY``), which must be the key
    that signed ``checkpoint``; ``Unsignable`` otherwise."""
    from audit.store.signing import SIGNING_KEY_ENV, key_id, signing_key_from_env

    key = signing_key_from_env()
    if key is None:
        raise Unsignable(
            f"a retention record counts only when signed by the store's key: set "
            f"${SIGNING_KEY_ENV} to the key that signs the store's checkpoints"
        )
    if key_id(key.public_key()) != checkpoint.key_id:
        raise Unsignable(
            f"${SIGNING_KEY_ENV} is key {key_id(key.public_key())}, but checkpoint "
            f"{checkpoint.notification_id} is signed by key {checkpoint.key_id or 'none'}: "
            "a retention record is signed by the key of its checkpoint"
        )
    return key


def insert_signature(conn: Any, schema: str, record: RetentionRecord) -> None:
    """Store ``record``'s signature (the owner's connection, in its transaction)."""
    from psycopg import sql

    from audit.store.existing import POSTGRES_EVENTS_TABLE

    conn.execute(
        sql.SQL("INSERT INTO {} (checkpoint_id, signature, key_id) VALUES (%s, %s, %s)").format(
            sql.Identifier(schema, f"{POSTGRES_EVENTS_TABLE}_retention_signatures")
        ),
        (record.checkpoint_id, record.signature, record.key_id),
    )
