"""Signed checkpoints: anyone holding the public key can check the store's history.

A checkpoint (last notification id, head hash, event count) is signed with Ed25519.
Whoever can write to the database can recompute a whole hash chain after altering it,
but cannot sign the new head without the private key, which the operator (or the
regulator) keeps off the database host. ``casino-audit keygen`` makes a key pair;
``CASINO_AUDIT_SIGNING_KEY`` names the private key file, and every ingest, replay and
nightly run then signs its checkpoint; ``casino-audit verify --public-key FILE`` checks
every signature.

A checkpoint with a Merkle tree root (written since the Merkle tree, ``audit.store.merkle``)
is a *signed tree head*: the message also covers the root of the first ``event_count``
events and the head's time (``DOMAIN_TREE_HEAD``). A checkpoint without a root (written
before) is signed and checked with the original message (``DOMAIN``). Since issue #26 a
tree head also signs the heads of the chain shards written since the checkpoint before
(``DOMAIN_SHARDED_HEAD``, message v3: ``audit.store.shards.heads_message`` after the v2
fields); tree heads recorded before keep message v2, the form recorded with their shard
heads saying which (``Checkpoint.shards_signed``). Dropping the root from a signed tree
head, or the signed form from its shard heads, does not turn it into a valid checkpoint
of an older form: the signature was made over the other message.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from audit.bounded import UnusableInput, read_bounded
from audit.store.chain import Checkpoint
from audit.store.shards import heads_message

SIGNING_KEY_ENV = "CASINO_AUDIT_SIGNING_KEY"
DOMAIN = b"casino-audit checkpoint v1\n"
DOMAIN_TREE_HEAD = b"casino-audit tree head v2\n"
DOMAIN_SHARDED_HEAD = b"casino-audit tree head v3\n"
#: A PEM key is under 200 bytes; anything past this is not a key (``audit.bounded``).
MAX_KEY_BYTES = 1 << 16


class KeyError_(ValueError):
    """A key file cannot be used; the message names it."""


def message(checkpoint: Checkpoint) -> bytes:
    """The exact bytes signed for a checkpoint: v3 (a tree head and its shard heads) when
    it has a root and signed shard heads, v2 (a tree head) when it has a root."""
    if checkpoint.tree_root:
        fields = (
            checkpoint.notification_id.to_bytes(8, "big")
            + checkpoint.chain_hash
            + checkpoint.event_count.to_bytes(8, "big")
            + checkpoint.tree_root
            + checkpoint.head_time.to_bytes(8, "big", signed=True)
        )
        if checkpoint.shards_signed:
            return DOMAIN_SHARDED_HEAD + fields + heads_message(checkpoint.shard_heads or ())
        return DOMAIN_TREE_HEAD + fields
    return (
        DOMAIN
        + checkpoint.notification_id.to_bytes(8, "big")
        + checkpoint.chain_hash
        + checkpoint.event_count.to_bytes(8, "big")
    )


def key_id(public_key: Ed25519PublicKey) -> str:
    """A short fingerprint of a public key (first 16 hex digits of its SHA-256)."""
    raw = public_key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:16]


def generate_keypair(folder: Path) -> tuple[Path, Path]:
    """Write ``checkpoint-signing.key`` (mode 0600 from its creation) and
    ``checkpoint-signing.pub``. Never overwrites: ``KeyError_`` naming the file when
    either is already there (a lost private key cannot sign again; a replaced public
    key would vouch for other signatures) or when the folder cannot be written."""
    private_path, public_path = folder / "checkpoint-signing.key", folder / "checkpoint-signing.pub"
    for path in (private_path, public_path):
        if path.exists() or path.is_symlink():
            raise KeyError_(f"{path} already exists: a key is never overwritten")
    private = Ed25519PrivateKey.generate()
    pem = private.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    public = private.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    try:
        folder.mkdir(parents=True, exist_ok=True)
        _write_new(private_path, pem, 0o600)
        try:
            _write_new(public_path, public, 0o644)
        except BaseException:
            private_path.unlink()
            raise
    except FileExistsError as error:  # made by someone else meanwhile
        raise KeyError_(f"{error.filename} already exists: a key is never overwritten") from None
    except OSError as error:
        where = error.filename or folder
        raise KeyError_(f"{where}: cannot write a key ({error.strerror})") from None
    return private_path, public_path


def _write_new(path: Path, data: bytes, mode: int) -> None:
    """Create ``path`` (never an existing file or a symlink) with ``mode`` and ``data``."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), mode)
    with os.fdopen(fd, "wb") as file:
        file.write(data)


def _load_key(path: Path, load: Callable[[bytes], object], what: str) -> object:
    """The key in the PEM file ``path`` (read within bounds), or ``KeyError_`` naming the
    file and why it cannot be used as the ``what`` key; the caller checks its kind."""
    try:
        key = load(read_bounded(path, MAX_KEY_BYTES))
    except UnusableInput as error:
        raise KeyError_(f"not a usable {what} key: {error}") from None
    except (ValueError, TypeError, UnsupportedAlgorithm) as error:  # an OID no key has
        raise KeyError_(f"{path}: not a usable {what} key ({error})") from None
    return key


def _not_ed25519(path: Path, what: str) -> KeyError_:
    return KeyError_(f"{path}: not an Ed25519 {what} key")


def load_private_key(path: Path) -> Ed25519PrivateKey:
    key = _load_key(
        path, lambda data: serialization.load_pem_private_key(data, password=None), "private"
    )
    if not isinstance(key, Ed25519PrivateKey):
        raise _not_ed25519(path, "private")
    return key


def load_public_key(path: Path) -> Ed25519PublicKey:
    key = _load_key(path, serialization.load_pem_public_key, "public")
    if not isinstance(key, Ed25519PublicKey):
        raise _not_ed25519(path, "public")
    return key


def signing_key_from_env() -> Ed25519PrivateKey | None:
    path = os.environ.get(SIGNING_KEY_ENV)
    return load_private_key(Path(path)) if path else None


def sign(checkpoint: Checkpoint, private_key: Ed25519PrivateKey) -> Checkpoint:
    """The checkpoint with its signature and key id."""
    return replace(
        checkpoint,
        signature=private_key.sign(message(checkpoint)),
        key_id=key_id(private_key.public_key()),
    )


def signature_valid(checkpoint: Checkpoint, public_key: Ed25519PublicKey) -> bool:
    try:
        public_key.verify(checkpoint.signature, message(checkpoint))
    except (InvalidSignature, ValueError, OverflowError):  # UnicodeError is a ValueError
        return False
    return True
