"""Checked file manifests: ``SHA256SUMS`` (optionally signed) beside the files ingested.

A folder given to ingest may hold a ``SHA256SUMS`` file in ``sha256sum``'s format, one
``<64 hex digits>  <path relative to the folder>`` per line (``*`` instead of the second
space, ``./`` before the path and GNU's ``\\`` escapes are read too). A manifest governs its
own folder wherever it sits in the tree (the nearest one above a file must list it; see
``ManifestCheck``); a file given alone is checked against the ``SHA256SUMS`` beside it.
Anything named ``SHA256SUMS`` that is not a readable regular file (a folder, a dangling
link, a FIFO, unreadable, past ``MAX_MANIFEST_BYTES``) stops the ingest before any file
is read (``UnusableManifest``, exit 2): it never counts as absent. Before a file covered
by a manifest is read, its SHA-256 is taken and compared; the file is quarantined whole,
and nothing of it stored, when

* its digest differs from the listed one (damaged or changed in transit: the reason
  names the expected and the actual digest),
* it is not listed (the manifest speaks for the whole folder),
* the manifest cannot be trusted: a line not in the format, a path listed
  twice with two digests, or, with a manifest key (``ingest --manifest-key``), no
  ``SHA256SUMS.sig`` or one that is not the key's Ed25519 signature of the manifest's
  exact bytes (a raw 64-byte signature, as ``openssl pkeyutl -sign -rawin`` writes).
  Every file the manifest would cover is then quarantined.

A listed file that is missing from a folder given to ingest is quarantined as missing
(the transfer is incomplete). Listed files ingest does not read (other types) are only
checked for presence. With a manifest key, a folder or file without a manifest beside it
is refused the same way: the key says every input must come signed.

The digest is taken just before the file is read, so this catches corruption in
transit, not a file changed on this host between the check and the read.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from audit.bounded import UnusableInput, read_bounded
from audit.ingest.errors import RecordRejected, cap
from audit.store import key_id

MANIFEST = "SHA256SUMS"
SIGNATURE = "SHA256SUMS.sig"
_LINE = re.compile(r"(\\?)([0-9a-fA-F]{64}) [ *](.+)")
_CHUNK = 1 << 20
_FIELD = "(manifest)"
#: A manifest of a million files is about 100 MB; anything past this is refused.
MAX_MANIFEST_BYTES = 256 << 20
_SIGNATURE_BYTES = 1024
_MAX_NAME, _MAX_PATH = 255, 4096  # Linux's NAME_MAX and PATH_MAX


class ManifestProblem(ValueError):
    """A manifest that cannot be trusted; the message says why."""


class UnusableManifest(ValueError):
    """Something named ``SHA256SUMS`` that is not a readable regular file: the ingest
    cannot run (exit 2) rather than store the files unchecked."""


@dataclass
class _Manifest:
    """One folder's manifest: its entries, or why none of its files may be read."""

    folder: Path
    entries: dict[str, str] = field(default_factory=dict)
    problem: str = ""
    absent: bool = False
    """No manifest at all (a problem only under ``--manifest-key``, and only where no
    nearer manifest governs)."""


def sha256_of(path: Path) -> str:
    """The file's SHA-256, hex, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as file:
        while chunk := file.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def parse_manifest(data: bytes) -> dict[str, str]:
    """``relative path -> lowercase hex digest`` of ``sha256sum`` output; raises
    ManifestProblem on a line not in the format, an unsafe path or a path listed twice
    with different digests."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ManifestProblem(f"{MANIFEST} is not UTF-8 text ({error.reason})") from None
    entries: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        match = _LINE.fullmatch(line)
        if match is None:
            raise ManifestProblem(
                f"{MANIFEST} line {number} is not '<sha256>  <path>': {cap(line, 200)!r}"
            )
        escaped, digest, name = match.groups()
        if escaped:
            name = re.sub(r"\\(.)", lambda m: "\n" if m[1] == "n" else m[1], name)
        relative = _relative(name, number)
        if entries.get(relative, digest.lower()) != digest.lower():
            raise ManifestProblem(f"{MANIFEST} lists {relative} twice with different digests")
        entries[relative] = digest.lower()
    return entries


def _relative(name: str, number: int) -> str:
    path = PurePosixPath(name)
    if path.is_absolute() or ".." in path.parts or not path.parts or path == PurePosixPath("."):
        raise ManifestProblem(
            f"{MANIFEST} line {number} names {cap(name, 200)!r}: only paths inside the "
            "folder are allowed"
        )
    if len(name.encode(errors="surrogatepass")) > _MAX_PATH or any(
        len(part.encode(errors="surrogatepass")) > _MAX_NAME for part in path.parts
    ):
        raise ManifestProblem(
            f"{MANIFEST} line {number} names {cap(name, 200)!r}: longer than a file "
            f"system allows ({_MAX_NAME} bytes a name, {_MAX_PATH} a path)"
        )
    return path.as_posix()


def _load(folder: Path, key: Ed25519PublicKey | None) -> _Manifest | None:
    """The manifest of ``folder`` (None: no manifest and no key, nothing to check); raises
    UnusableManifest when something named ``SHA256SUMS`` is there but is not a readable
    regular file (a folder, a dangling link, a FIFO): failing open would store every file
    unchecked."""
    manifest_path = folder / MANIFEST
    if not os.path.lexists(manifest_path):
        if key is None:
            return None
        return _Manifest(
            folder,
            problem=f"no {MANIFEST} in {folder}; --manifest-key asks "
            "for a signed manifest with every input",
            absent=True,
        )
    try:
        data = read_bounded(manifest_path, MAX_MANIFEST_BYTES)
    except UnusableInput as error:
        raise UnusableManifest(f"{error}: a {MANIFEST} must be a readable regular file") from None
    try:
        if key is not None:
            _check_signature(folder, data, key)
        return _Manifest(folder, parse_manifest(data))
    except ManifestProblem as problem:
        return _Manifest(folder, problem=str(problem))


def _manifest_folders(root: Path) -> list[Path]:
    """The folders under ``root`` (itself included) holding anything named ``SHA256SUMS``."""
    return sorted(
        Path(folder)
        for folder, folders, names in os.walk(root)
        if MANIFEST in names or MANIFEST in folders
    )


def _check_signature(folder: Path, data: bytes, key: Ed25519PublicKey) -> None:
    signature_path = folder / SIGNATURE
    if not signature_path.is_file():
        raise ManifestProblem(
            f"{SIGNATURE} is missing beside {MANIFEST}; --manifest-key asks for a signed manifest"
        )
    try:
        key.verify(read_bounded(signature_path, _SIGNATURE_BYTES), data)
    except (InvalidSignature, ValueError):  # UnusableInput is a ValueError
        raise ManifestProblem(
            f"{SIGNATURE} is not a valid signature of {MANIFEST} by key {key_id(key)}: the "
            "manifest is not trusted"
        ) from None


class ManifestCheck:
    """The manifests covering one ingest's files: which to read, which to quarantine.

    A file in a folder given to ingest is governed by the nearest ``SHA256SUMS`` in its
    own folder or above it, up to the folder given: that manifest must list it, and
    every manifest above that lists it too must give the same digest. A file given alone
    is governed by the manifest beside it. Every lookup is a set or dictionary probe, so
    the check is linear in the manifests' and the folders' sizes."""

    def __init__(
        self, paths: Sequence[Path], files: Sequence[Path], key: Ed25519PublicKey | None = None
    ) -> None:
        """``paths`` as given to ingest, ``files`` the files found under them
        (``audit.ingest.sources.discover``); ``key`` the manifests' signing key. Raises
        UnusableManifest (see ``_load``) before any file is read."""
        self._given = [Path(path) for path in paths]
        self._roots: list[tuple[Path, bool]] = [
            (path, True) if path.is_dir() else (path.parent, False) for path in self._given
        ]
        self._manifests: dict[Path, _Manifest | None] = {}
        for root, whole_folder in self._roots:
            for folder in _manifest_folders(root) if whole_folder else ():
                if folder not in self._manifests:
                    self._manifests[folder] = _load(folder, key)
            if root not in self._manifests:
                self._manifests[root] = _load(root, key)
        self.missing: list[Path] = self._missing(set(files))
        """Files listed in a manifest under a folder given to ingest that are not there."""

    def _missing(self, found: set[Path]) -> list[Path]:
        missing: dict[Path, None] = {}
        folders = {root for root, whole_folder in self._roots if whole_folder}
        for folder, manifest in self._manifests.items():
            if manifest is None or not any(folder.is_relative_to(r) for r in folders):
                continue
            for relative in manifest.entries:
                path = folder / relative
                if path not in found and path not in missing and not path.exists():
                    missing[path] = None
        return list(missing)

    def _chain(self, path: Path) -> list[_Manifest]:
        """The manifests governing ``path``, nearest first."""
        for given, (root, whole_folder) in zip(self._given, self._roots, strict=True):
            if path == given:
                return [m for m in (self._manifests[root],) if m is not None]
            if whole_folder and path.is_relative_to(root):
                folders = [p for p in path.parents if p.is_relative_to(root)]
                return [m for f in folders if (m := self._manifests.get(f)) is not None]
        return []

    def rejection(self, path: Path) -> RecordRejected | None:
        """Why ``path`` must not be read (None: read it), taking its digest if listed."""
        chain = self._chain(path)
        if not chain:
            return None
        problems = [m.problem for m in chain if m.problem and (m is chain[0] or not m.absent)]
        if problems:
            return _rejected(path, f"not read: {problems[0]}", problems[0])
        listing = [
            (manifest, expected)
            for manifest in chain
            if (expected := manifest.entries.get(path.relative_to(manifest.folder).as_posix()))
        ]
        exists = path.exists()
        if exists and (not listing or listing[0][0] is not chain[0]):
            return _rejected(
                path,
                f"not listed in {chain[0].folder / MANIFEST}, which must list every file of "
                "its folder: not read",
                "unlisted",
            )
        if not exists:
            manifest, expected = listing[0]
            relative = path.relative_to(manifest.folder).as_posix()
            return _rejected(
                path,
                f"listed in {manifest.folder / MANIFEST} (sha256 {expected}) but missing: "
                "not received",
                f"{expected}  {relative}",
            )
        try:
            actual = sha256_of(path)
        except OSError as error:
            return _rejected(path, f"cannot be read to check its digest ({error.strerror})", "")
        for manifest, expected in listing:
            if actual != expected:
                return _rejected(
                    path,
                    f"SHA-256 differs from {manifest.folder / MANIFEST}: expected {expected}, "
                    f"actual {actual}; the file was damaged or changed in transit and is not "
                    "read",
                    f"expected {expected}  actual {actual}",
                )
        return None


def _rejected(path: Path, reason: str, evidence: str) -> RecordRejected:
    """A whole file quarantined for its manifest; ``evidence`` (digests) keeps two
    different failures of the same file apart in the quarantine."""
    return RecordRejected(path, "file", _FIELD, reason, evidence)


__all__ = [
    "MANIFEST",
    "SIGNATURE",
    "ManifestCheck",
    "ManifestProblem",
    "UnusableManifest",
    "parse_manifest",
]
