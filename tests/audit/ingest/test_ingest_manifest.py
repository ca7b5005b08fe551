"""Checked manifests: ``SHA256SUMS`` (and ``SHA256SUMS.sig``) beside the files ingested.

Through the installed ``casino-audit`` on a small synthetic day (three Avro files): a
good manifest stores everything; one flipped byte, a missing file, an unlisted file, a
bad signature and the wrong key each quarantine the file (or, for the signature, every
file) with a reason naming it, and store nothing of it. Signatures are made as the
ingest chapter (``docs/ingest.md``) says, with ``openssl pkeyutl -sign -rawin`` when
OpenSSL is there, else with the same Ed25519 key through ``cryptography``.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from audit.ingest.manifest_check import ManifestCheck, ManifestProblem, parse_manifest
from audit.store.signing import load_private_key
from simulate.day import generate_day
from tests.fault_harness import DAY, Result, assert_clean, run_cli, sqlite_url


@pytest.fixture(scope="module")
def original(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A day of 40 hands at two tables: ``tables.avro`` and two poker input files."""
    folder = tmp_path_factory.mktemp("manifest-day") / DAY.isoformat()
    generate_day(3, DAY, hands=40, tables=2, out=folder)
    (folder / "manifest.json").unlink()  # the simulator's own, not read by ingest
    return folder


@pytest.fixture
def day(original: Path, tmp_path: Path) -> Path:
    """A copy of the day this test may damage."""
    return Path(shutil.copytree(original, tmp_path / "in" / DAY.isoformat()))


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(private, public) key files made by ``casino-audit keygen``."""
    folder = tmp_path_factory.mktemp("keys")
    made = run_cli("sqlite:///unused.db", "keygen", str(folder / "sender"))
    assert made.code == 0, made
    return (
        folder / "sender" / "checkpoint-signing.key",
        folder / "sender" / "checkpoint-signing.pub",
    )


def write_manifest(folder: Path, leave_out: str = "") -> None:
    """``SHA256SUMS`` as ``sha256sum *.avro`` writes it (without ``leave_out``)."""
    lines = [
        f"{hashlib.sha256(path.read_bytes()).hexdigest()}  {path.name}\n"
        for path in sorted(folder.glob("*.avro"))
        if path.name != leave_out
    ]
    (folder / "SHA256SUMS").write_text("".join(lines))


def sign(folder: Path, private_key: Path) -> None:
    """``SHA256SUMS.sig``: the raw Ed25519 signature of the manifest's bytes."""
    manifest, signature = folder / "SHA256SUMS", folder / "SHA256SUMS.sig"
    if shutil.which("openssl"):
        subprocess.run(
            [
                *("openssl", "pkeyutl", "-sign", "-rawin", "-inkey", str(private_key)),
                *("-in", str(manifest), "-out", str(signature)),
            ],
            check=True,
        )
    else:
        signature.write_bytes(load_private_key(private_key).sign(manifest.read_bytes()))


def ingest(store: Path, folder: Path, *options: str) -> Result:
    result = run_cli(sqlite_url(store), "ingest", *options, str(folder))
    assert_clean(result)
    return result


def counted(result: Result, name: str) -> int:
    match = re.search(rf"^{name}:\s+(\d+)$", result.out, re.M)
    assert match, result
    return int(match.group(1))


def subjects_in(files: list[Path], tmp_path: Path) -> int:
    """Subjects these files hold, from an ingest of them alone (no manifest beside)."""
    alone = tmp_path / "alone" / DAY.isoformat()
    alone.mkdir(parents=True)
    for path in files:
        shutil.copy(path, alone / path.name)
    result = ingest(tmp_path / "alone.db", alone)
    assert result.code == 0, result
    return counted(result, "subjects stored")


def test_a_good_manifest_stores_everything(day: Path, tmp_path: Path) -> None:
    everything = subjects_in(sorted(day.glob("*.avro")), tmp_path)
    write_manifest(day)
    result = ingest(tmp_path / "s.db", day)
    assert result.code == 0, result
    assert counted(result, "subjects stored") == everything
    assert counted(result, "records quarantined") == 0


def test_a_flipped_byte_quarantines_that_file_and_stores_nothing_of_it(
    day: Path, tmp_path: Path
) -> None:
    write_manifest(day)
    victim = sorted(day.glob("poker-*.avro"))[0]
    listed = hashlib.sha256(victim.read_bytes()).hexdigest()
    data = bytearray(victim.read_bytes())
    data[len(data) // 2] ^= 0x01
    victim.write_bytes(bytes(data))
    others = subjects_in([p for p in sorted(day.glob("*.avro")) if p != victim], tmp_path)
    result = ingest(tmp_path / "s.db", day)
    assert result.code == 1, result
    assert counted(result, "subjects stored") == others
    assert counted(result, "records quarantined") == 1
    actual = hashlib.sha256(bytes(data)).hexdigest()
    assert f"quarantined: {victim}, file, field (manifest): SHA-256 differs" in result.out
    assert f"expected {listed}, actual {actual}" in result.out
    alone = ingest(tmp_path / "alone-file.db", victim)  # checked against SHA256SUMS beside it
    assert (alone.code, counted(alone, "subjects stored")) == (1, 0)
    assert f"expected {listed}, actual {actual}" in alone.out


def test_a_listed_file_missing_is_quarantined_and_the_rest_stored(
    day: Path, tmp_path: Path
) -> None:
    write_manifest(day)
    victim = sorted(day.glob("poker-*.avro"))[-1]
    victim.unlink()
    others = subjects_in(sorted(day.glob("*.avro")), tmp_path)
    result = ingest(tmp_path / "s.db", day)
    assert result.code == 1, result
    assert counted(result, "subjects stored") == others
    assert re.search(rf"quarantined: {re.escape(str(victim))}, .*but missing", result.out)


def test_an_unlisted_file_is_quarantined_unread(day: Path, tmp_path: Path) -> None:
    victim = sorted(day.glob("poker-*.avro"))[0]
    write_manifest(day, leave_out=victim.name)
    others = subjects_in([p for p in sorted(day.glob("*.avro")) if p != victim], tmp_path)
    result = ingest(tmp_path / "s.db", day)
    assert result.code == 1, result
    assert counted(result, "subjects stored") == others
    assert f"quarantined: {victim}, file, field (manifest): not listed in" in result.out


def test_a_signed_manifest_is_checked_with_the_senders_key(
    day: Path, tmp_path: Path, keys: tuple[Path, Path]
) -> None:
    everything = subjects_in(sorted(day.glob("*.avro")), tmp_path)
    write_manifest(day)
    sign(day, keys[0])
    result = ingest(tmp_path / "s.db", day, "--manifest-key", str(keys[1]))
    assert result.code == 0, result
    assert counted(result, "subjects stored") == everything


def test_a_bad_signature_quarantines_every_file(
    day: Path, tmp_path: Path, keys: tuple[Path, Path]
) -> None:
    write_manifest(day)
    sign(day, keys[0])
    manifest = day / "SHA256SUMS"
    manifest.write_text(manifest.read_text() + manifest.read_text().splitlines()[0] + "\n")
    result = ingest(tmp_path / "s.db", day, "--manifest-key", str(keys[1]))
    assert result.code == 1, result
    assert counted(result, "subjects stored") == 0
    assert counted(result, "records quarantined") == len(list(day.glob("*.avro")))
    assert "SHA256SUMS.sig is not a valid signature of SHA256SUMS by key" in result.out


def test_the_wrong_key_quarantines_every_file(
    day: Path, tmp_path: Path, keys: tuple[Path, Path]
) -> None:
    write_manifest(day)
    sign(day, keys[0])
    other = run_cli("sqlite:///unused.db", "keygen", str(tmp_path / "other"))
    assert other.code == 0, other
    wrong = tmp_path / "other" / "checkpoint-signing.pub"
    result = ingest(tmp_path / "s.db", day, "--manifest-key", str(wrong))
    assert result.code == 1, result
    assert counted(result, "subjects stored") == 0
    assert "is not a valid signature" in result.out


def test_a_key_asks_for_a_signed_manifest(
    day: Path, tmp_path: Path, keys: tuple[Path, Path]
) -> None:
    result = ingest(tmp_path / "s.db", day, "--manifest-key", str(keys[1]))
    assert (result.code, counted(result, "subjects stored")) == (1, 0)
    assert "no SHA256SUMS in" in result.out
    write_manifest(day)
    result = ingest(tmp_path / "s.db", day, "--manifest-key", str(keys[1]))
    assert (result.code, counted(result, "subjects stored")) == (1, 0)
    assert "SHA256SUMS.sig is missing" in result.out


def test_an_unusable_key_cannot_run(day: Path, tmp_path: Path) -> None:
    (tmp_path / "not-a-key.pub").write_text("hello")
    result = ingest(tmp_path / "s.db", day, "--manifest-key", str(tmp_path / "not-a-key.pub"))
    assert result.code == 2 and "--manifest-key:" in result.err, result


def test_sha256sum_output_is_read_as_gnu_writes_it() -> None:
    digest = "ab" * 32
    text = f"{digest}  a.avro\n{digest.upper()} *./sub/b.avro\n\\{digest}  c\\\\d.avro\n\n"
    assert parse_manifest(text.encode()) == {
        "a.avro": digest,
        "sub/b.avro": digest,
        "c\\d.avro": digest,
    }


@pytest.mark.parametrize(
    "line",
    [
        "ab  short-digest.avro",
        f"{'ab' * 32}  ../outside.avro",
        f"{'ab' * 32}  /etc/passwd",
        f"{'ab' * 32}\tx.avro",
    ],
)
def test_a_line_not_in_the_format_makes_the_manifest_untrusted(line: str) -> None:
    with pytest.raises(ManifestProblem):
        parse_manifest(line.encode())


def test_one_path_with_two_digests_makes_the_manifest_untrusted() -> None:
    text = f"{'ab' * 32}  x.avro\n{'cd' * 32}  x.avro\n"
    with pytest.raises(ManifestProblem, match="twice"):
        parse_manifest(text.encode())


# -- failing closed (issue #26, item 3) -------------------------------------------------


def _not_a_regular_file(kind: str, manifest: Path) -> None:
    if kind == "folder":
        manifest.mkdir()
    elif kind == "dangling link":
        manifest.symlink_to(manifest.parent / "nowhere")
    elif kind == "fifo":
        os.mkfifo(manifest)
    else:  # unreadable: only refused when the tests do not run as root
        manifest.write_text("")
        manifest.chmod(0)


@pytest.mark.parametrize("kind", ["folder", "dangling link", "fifo", "unreadable"])
@pytest.mark.parametrize("where", [".", "sub"])
def test_a_manifest_that_is_not_a_readable_regular_file_stops_the_ingest(
    day: Path, store_url: str, kind: str, where: str
) -> None:
    if kind == "unreadable" and os.geteuid() == 0:
        pytest.skip("root reads a file of mode 0")
    folder = day / where
    if where != ".":
        folder.mkdir()
        shutil.move(sorted(day.glob("poker-*.avro"))[0], folder)
    _not_a_regular_file(kind, folder / "SHA256SUMS")
    result = run_cli(store_url, "ingest", str(day))
    assert_clean(result)
    assert result.code == 2, result
    assert f"{folder / 'SHA256SUMS'}: " in result.err and "regular file" in result.err
    assert run_cli(store_url, "quarantine").out.startswith("0 quarantined"), "nothing read"


def test_a_manifest_in_a_subfolder_governs_its_folder(
    day: Path, tmp_path: Path, store_url: str
) -> None:
    sub = day / "late"
    sub.mkdir()
    victim = Path(shutil.move(sorted(day.glob("poker-*.avro"))[0], sub))
    others = subjects_in([p for p in sorted(day.glob("*.avro"))], tmp_path)
    (sub / "SHA256SUMS").write_text(f"{'0' * 64}  {victim.name}\n")
    result = run_cli(store_url, "ingest", str(day))
    assert_clean(result)
    assert result.code == 1, result
    assert counted(result, "subjects stored") == others
    assert f"quarantined: {victim}, file, field (manifest): SHA-256 differs" in result.out
    write_manifest(sub)  # the right digest: the file goes in
    result = run_cli(store_url, "ingest", str(day))
    assert result.code == 0 and counted(result, "subjects stored") > 0, result


def test_a_manifest_above_must_agree_with_the_one_beside_the_file(day: Path) -> None:
    sub = day / "late"
    sub.mkdir()
    victim = Path(shutil.move(sorted(day.glob("poker-*.avro"))[0], sub))
    write_manifest(sub)
    (day / "SHA256SUMS").write_text(f"{'0' * 64}  late/{victim.name}\n")
    files = sorted(day.rglob("*.avro"))
    check = ManifestCheck([day], files)
    assert "SHA-256 differs from " + str(day / "SHA256SUMS") in check.rejection(victim).reason
    beside = next(p for p in files if p.parent == day)
    assert "not listed in" in check.rejection(beside).reason  # the root lists only late/


def test_listed_but_missing_files_are_found_in_linear_time(tmp_path: Path) -> None:
    """200,000 listed, none there: a set, not ``in`` on a list (that took > 10 minutes)."""
    names = [f"h{i:06}.avro" for i in range(200_000)]
    (tmp_path / "SHA256SUMS").write_text("".join(f"{'a' * 64}  {n}\n" for n in names))
    check = ManifestCheck([tmp_path], [])
    assert check.missing == [tmp_path / n for n in names]


@pytest.mark.parametrize("name", ["x" * 300 + ".avro", "/".join(["d" * 200] * 30) + "/a.avro"])
def test_a_path_no_file_system_allows_makes_the_manifest_untrusted(
    name: str, tmp_path: Path
) -> None:
    """Found by tests/fuzz/test_fuzz_inputs.py: such a path once ended ingest in an OSError."""
    with pytest.raises(ManifestProblem, match="longer than a file system allows"):
        parse_manifest(f"{'a' * 64}  {name}\n".encode())
    (tmp_path / "SHA256SUMS").write_text(f"{'a' * 64}  {name}\n")
    (tmp_path / "a.avro").write_bytes(b"")
    check = ManifestCheck([tmp_path], [tmp_path / "a.avro"])
    assert check.missing == []
    assert "longer than a file system allows" in check.rejection(tmp_path / "a.avro").reason
