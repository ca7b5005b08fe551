"""Making signed tree heads (checkpoints with a Merkle root and the heads of the chain
shards written since the checkpoint it extends), and what ``verify
--public-key`` asks of the database's checkpoints when there is no witness.

A checkpoint's root is computed from the previous rooted checkpoint's frontier (the
O(log n) subtree roots stored beside it) plus the events written since, so a checkpoint
after each ingest reads only that ingest's events; the frontier is used only when it
folds to its checkpoint's root and, when this process signs, that checkpoint's signature
verifies under its own key. Otherwise the tree is built from the first event, or from
the latest retention record's checkpoint once rows were retired (only the stored 32-byte
chain hashes are read, never the event bodies).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from audit.store import merkle
from audit.store.chain import ChainReport, Checkpoint
from audit.store.merkle import TreeBuilder
from audit.store.recording import ChainedRecorder
from audit.store.signing import sign, signature_valid
from audit.store.unsigned_tail import AfterSigned


def _trusted_base(
    recorder: Any, notification_id: int, count: int, key: Ed25519PrivateKey | None
) -> tuple[int, TreeBuilder]:
    """(notification id, tree) of the latest usable rooted checkpoint at or before the
    head; (0, empty tree) when there is none."""
    public = key.public_key() if key is not None else None
    for prior in recorder.rooted_checkpoints_before(notification_id):
        if prior.event_count > count:
            continue
        try:
            builder = TreeBuilder.from_frontier_bytes(prior.event_count, prior.tree_frontier)
        except ValueError:
            continue
        if builder.root() != prior.tree_root:
            continue
        if public is not None and not (prior.signature and signature_valid(prior, public)):
            continue
        return prior.notification_id, builder
    return _retention_base(recorder)


def _retention_base(recorder: Any) -> tuple[int, TreeBuilder]:
    """Where a tree is built from when no recent checkpoint serves: the first row, or,
    once rows were retired (``audit.store.retention``), the latest retention record's
    checkpoint, whose frontier folds to its root (``verify`` refuses the store
    otherwise): the rows before it are no longer there to be read."""
    start = recorder.retention_start()
    if start is not None:
        try:
            builder = TreeBuilder.from_frontier_bytes(start.event_count, start.tree_frontier)
        except ValueError:
            return 0, TreeBuilder()
        if builder.root() == start.tree_root:
            return start.notification_id, builder
    return 0, TreeBuilder()


def tree_head(
    recorder: Any,
    notification_id: int,
    chain_hash: bytes,
    count: int,
    key: Ed25519PrivateKey | None,
) -> Checkpoint:
    """The (unsigned) tree head of the events up to ``notification_id``, with the heads
    of the shards written since the tree head it extends (at most since the checkpoint
    before it: ``verify`` asks for every shard written since that one), in the signed
    form where the store records shard heads."""
    after, builder = _trusted_base(recorder, notification_id, count, key)
    for leaf in recorder.iter_chain_hashes(after, notification_id):
        builder.append(leaf)
    if after and builder.size != count:  # the base does not add up: build from the start
        after, builder = _retention_base(recorder)
        for leaf in recorder.iter_chain_hashes(after, notification_id):
            builder.append(leaf)
    return Checkpoint(
        notification_id,
        chain_hash,
        builder.size,
        tree_root=builder.root(),
        head_time=time.time_ns() // 1_000_000,
        tree_frontier=builder.frontier_bytes(),
        shard_heads=tuple(recorder.shard_heads_between(after, notification_id)),
        shards_signed=recorder.is_sharded(),
    )


def make_checkpoint(recorder: ChainedRecorder, key: Ed25519PrivateKey | None) -> Checkpoint | None:
    """Record the signed tree head of the store now (None when it is empty) and return it.

    One checkpoint per notification id: when the head already has a rooted checkpoint
    (no events since), that one is returned, unless this process signs and it is signed
    but not by this key (then the head is made again, with the shard heads as recorded,
    and signed). A head whose checkpoint predates the Merkle tree gets a tree
    head that is returned (to be published) but cannot be recorded beside it; it is
    signed only if the old one is, so that the database never holds less than the
    witness.
    """
    notification_id, chain_hash, count = recorder.chain_head()
    if not count:
        return None
    stored: Checkpoint | None = recorder.checkpoint_at(notification_id)
    if stored is not None and stored.tree_root and stored.chain_hash == chain_hash:
        if key is None or not stored.signature:
            return stored
        if signature_valid(stored, key.public_key()):
            return stored
    head = tree_head(recorder, notification_id, chain_hash, count, key)
    if stored is not None and stored.tree_root and stored.shard_heads is not None:
        # signed again by this key: the shard heads as recorded, so the witness's copy
        # agrees with the database's
        head = replace(head, shard_heads=stored.shard_heads, shards_signed=stored.shards_signed)
    if key is not None and (stored is None or stored.signature):
        head = sign(head, key)
    if stored is None:
        recorder.write_checkpoint(head)
        again = recorder.checkpoint_at(notification_id)
        if again is not None and again.tree_root == head.tree_root and again != head:
            return again  # another process recorded this head first: publish its copy
    return head


def require_signed(
    report: ChainReport,
    checkpoints: list[Checkpoint],
    public_key: Ed25519PublicKey,
    tail: Callable[[int], AfterSigned] | None = None,
) -> ChainReport:
    """``verify --public-key`` without a witness: every checkpoint's signature verifies,
    and signatures cover the whole store. Refused: a store without checkpoints or
    without a signed one, an unsigned checkpoint after the first signed one (signatures
    stripped or checkpoints replaced), and events after the last signed checkpoint,
    unless ``tail`` (the rows after a notification id, ``unsigned_tail.events_after``)
    says every one of them is the console's own access trail: that tail is named
    (``trail_unsigned``), not failed; the next signed checkpoint covers it.
    Unsigned checkpoints before the first signed one (written before signing was set
    up) are counted, not failed: the first signed checkpoint covers them.

    What this cannot see is a store truncated back to a signed checkpoint, or a history
    rewritten with every later checkpoint dropped and a new unsigned tail: the witness
    (``verify --witness``) does.
    """
    ordered = sorted(checkpoints, key=lambda c: c.notification_id)
    for checkpoint in ordered:
        if checkpoint.signature and not signature_valid(checkpoint, public_key):
            return replace(
                report,
                broken_at=checkpoint.notification_id,
                problem=(
                    f"checkpoint at notification {checkpoint.notification_id} is not "
                    f"signed by this key (key id {checkpoint.key_id or '-'}): the history "
                    "up to it was rewritten or the checkpoint forged"
                ),
            )
    signed = [c for c in ordered if c.signature]
    unsigned = len(ordered) - len(signed)
    report = replace(report, signatures_checked=len(signed), unsigned_checkpoints=unsigned)
    if not report.events_checked:
        return report
    if not signed:
        what = (
            f"none of its {len(ordered)} checkpoints is signed"
            if ordered
            else ("it has no checkpoint")
        )
        return replace(
            report,
            problem=(
                f"nothing signed vouches for the store's {report.events_checked} events: "
                f"{what}: written without a signing key (set CASINO_AUDIT_SIGNING_KEY for "
                "the writer, or sign the head: casino-audit checkpoint --sign-key FILE), or "
                "signed checkpoints deleted or stripped (verify --witness tells them apart)"
            ),
        )
    late = [c for c in ordered if not c.signature and c.notification_id > signed[0].notification_id]
    if late:
        return replace(
            report,
            broken_at=late[0].notification_id,
            problem=(
                f"{len(late)} checkpoint(s) after the first signed one are unsigned, the first "
                f"at notification {late[0].notification_id}: written by a writer without the "
                "signing key (CASINO_AUDIT_SIGNING_KEY), or signatures stripped or "
                "checkpoints replaced"
            ),
        )
    last = signed[-1]
    if last.event_count < report.events_checked:
        return _unsigned_tail(report, last, tail)
    return report


def _unsigned_tail(
    report: ChainReport, last: Checkpoint, tail: Callable[[int], AfterSigned] | None
) -> ChainReport:
    """The verdict on rows after the last signed checkpoint ``last``: named when they are
    all the console's trail, else not covered (how many of them are trail said too)."""
    after = tail(last.notification_id) if tail is not None else None
    if after is not None and after.only_trail:
        return replace(report, trail_unsigned=after.trail)
    later = report.events_checked - last.event_count
    trail = f" ({after.trail} of them the console's access trail)" if after and after.trail else ""
    return replace(
        report,
        broken_at=last.notification_id,
        problem=(
            f"{later} event(s) after the last signed checkpoint (notification "
            f"{last.notification_id}) are not covered by a signature{trail}: appended after "
            "it, or its later checkpoints dropped"
        ),
    )


# -- proofs over the stored events (RFC 9162 §2.1.3-2.1.4) ---------------------------------


def leaf_hashes(recorder: Any) -> Iterator[bytes]:
    """The Merkle leaf hashes of the stored events in order (of their stored chain hashes)."""
    return (merkle.leaf_hash(h) for h in recorder.iter_chain_hashes(0, 2**63 - 1))


def inclusion_proof(recorder: Any, m: int, n: int) -> list[bytes]:
    """The audit path of event ``m`` (0-based, notification order) in the tree head of
    size ``n``: with the event's row anyone verifies it against a signed root
    (``merkle.verify_inclusion`` of ``leaf_hash(link_hash(chain_prev, ...))``)."""
    return merkle.inclusion_proof(leaf_hashes(recorder), m, n)


def consistency_proof(recorder: Any, m: int, n: int) -> list[bytes]:
    """The proof that the tree head of size ``m`` is a prefix of the one of size ``n``
    (``merkle.verify_consistency`` with the two signed roots)."""
    return merkle.consistency_proof(leaf_hashes(recorder), m, n)
