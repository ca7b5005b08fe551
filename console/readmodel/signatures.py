"""The overview's signature status in plain words: neutral when nothing was ever signed,
an alarm only when a signature is missing or wrong where one should be.

``require_signed`` (``audit.store.heads``) is strict, as ``verify --public-key`` must be:
anything a signature does not vouch for fails it. The overview tells an inspector *why*,
and only the cases that point to tampering are alarms:

* **not signed** (neutral): no checkpoint carries a signature: no signing key was
  configured when they were written. (A store whose every signature was stripped reads
  the same: the witness, ``casino-audit verify --witness``, tells them apart.)
* **signature missing where one was before** (alarm): an unsigned checkpoint after a
  signed one: signatures stripped or checkpoints replaced;
* **signature does not verify** (alarm): the history up to it was rewritten, or forged;
* **covered** (ok): every event is covered by a signed checkpoint, or the only events
  after the last one are the console's own access trail (``console.auth.trail``: looks,
  sign-offs, notes), which the next signed checkpoint covers. An inspector's clicks
  never raise an alarm;
* **not covered** (alarm): other events after the last signed checkpoint: appended
  without a signed checkpoint, or later checkpoints dropped.
"""

from __future__ import annotations

from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from audit.store import AfterSigned, Checkpoint, signature_valid

OK, NEUTRAL, ALARM = "ok", "neutral", "alarm"


@dataclass(frozen=True, slots=True)
class SignatureStatus:
    """``level`` (``ok``, ``neutral``, ``alarm``), the tile's word and the sentence."""

    level: str
    headline: str
    detail: str


def signature_status(
    checkpoints: list[Checkpoint], public_key: Ed25519PublicKey, after: AfterSigned
) -> SignatureStatus:
    """The status of a store whose chain verified, under ``public_key``; ``after``: the
    rows after its last signed checkpoint (``audit.store.events_after``)."""
    ordered = sorted(checkpoints, key=lambda c: c.notification_id)
    signed = [c for c in ordered if c.signature]
    forged = next((c for c in signed if not signature_valid(c, public_key)), None)
    if forged is not None:
        return SignatureStatus(
            ALARM,
            "SIGNATURE INVALID",
            f"the signature of the checkpoint at notification {forged.notification_id} does "
            f"not verify with the public key (key id {forged.key_id or '-'}): the history up "
            "to it was rewritten or the checkpoint forged",
        )
    if not signed:
        return SignatureStatus(
            NEUTRAL,
            "not signed",
            "not signed: no signing key configured (none of the "
            f"{len(ordered)} checkpoint(s) carries a signature). To sign, set "
            "CASINO_AUDIT_SIGNING_KEY for ingest, replay and nightly, or run "
            "casino-audit checkpoint --sign-key FILE",
        )
    late = [c for c in ordered if not c.signature and c.notification_id > signed[0].notification_id]
    if late:
        return SignatureStatus(
            ALARM,
            "SIGNATURE MISSING",
            f"signature missing where one was before: {len(late)} checkpoint(s) after the "
            f"first signed one are unsigned, the first at notification "
            f"{late[0].notification_id} (signatures stripped or checkpoints replaced)",
        )
    last = signed[-1]
    covered = f"{len(signed)} signature(s) valid"
    if not after.events:
        return SignatureStatus(OK, "covered", f"{covered}, covering every event")
    if after.events == after.trail:
        return SignatureStatus(
            OK,
            "covered",
            f"{covered}, covering every event up to notification {last.notification_id}; "
            f"the {after.events} later event(s) are this console's access trail (looks, "
            "sign-offs, notes), covered by the next signed checkpoint",
        )
    return SignatureStatus(
        ALARM,
        "NOT COVERED",
        f"{after.events - after.trail} event(s) after the last signed checkpoint "
        f"(notification {last.notification_id}) are not covered by a signature: appended "
        "without a signed checkpoint, or its later checkpoints dropped",
    )
