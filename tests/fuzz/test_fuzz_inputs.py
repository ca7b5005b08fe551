"""Fuzzing the files a user hands in besides hand histories (issue #26): rake schedules
(YAML and JSON), ``SHA256SUMS`` manifests, public keys and evidence bundles.

Each kind has a target that reads one mutated file the way its command does and accepts
only the documented outcomes: a schedule is read or ``BadSchedule``; a manifest is
parsed or ``ManifestProblem``, and through ``ManifestCheck`` every file of its folder is
read or quarantined (none vanishes) or the check is ``UnusableManifest``; a key is loaded
or ``KeyError_``; a bundle is refused by ``audit.bounded`` or checked by
``verify_bundle`` (which never raises) and never proven once changed. Anything else
raised is a traceback, counted and kept. Hand histories are fuzzed by
``tests/fuzz/test_fuzz_ingest.py``.

Mutations start from a good file of each kind and apply byte flips, truncation,
duplicated slices, and hostile snippets: YAML anchors and aliases nested nine deep
(expanding to 10^9 values), recursive aliases, 10^5 nested brackets, huge integers,
NUL, BOM, ESC/BEL/RLO, and non-UTF-8 bytes.

``test_fuzz_inputs_sample``: a seeded hypothesis sample for CI, 300 examples per kind
(``CASINO_AUDIT_FUZZ_SAMPLE``). ``test_fuzz_inputs_long`` (``make long``, marked
``long``): ``CASINO_AUDIT_FUZZ_EXECUTIONS`` inputs per kind (default 100,000) from a
seeded ``random.Random`` (``CASINO_AUDIT_FUZZ_SEED``, default 1), figures written to
``CASINO_AUDIT_FUZZ_REPORT`` per kind (executions, tracebacks, hangs: inputs over
``HANG_SECONDS``, vanished files, false proofs, slowest input in seconds, the process's
peak RSS when the kind ended): 0 tracebacks, 0 vanished, 0 false proofs; hangs and the
slowest input are reported, never asserted.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import random
import resource
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.bounded import UnusableInput, json_bounded
from audit.evidence.check import FORMAT, FORMAT_VERSION, verify_bundle
from audit.ingest.manifest_check import (
    ManifestCheck,
    ManifestProblem,
    UnusableManifest,
    parse_manifest,
)
from audit.ingest.room_text.schedule import BadSchedule, RakeSchedule
from audit.store.signing import KeyError_, generate_keypair, load_public_key
from tests.fuzz.test_fuzz_ingest import Draw, HypothesisDraw, RandomDraw

SCHEDULE_JSON = b"""{"room": "ggpoker", "operator": "GGPoker", "source": "rake page",
 "effective_from": "2022-09-28T00:00:00+00:00",
 "stakes": [{"game": "NT", "currency": "USD", "small_blind": "0.05", "big_blind": "0.10",
             "rake_bps": 500, "cap": "1.00", "cap_per": "hand", "no_flop_no_drop": true,
             "fees": {"kinds": ["jackpot"], "max_bps": 100, "cap": "0.50"}}]}
"""
SCHEDULE_YAML = b"""room: ggpoker
effective_from: '2022-09-28T00:00:00+00:00'
usd: &usd {game: NT, currency: USD, rake_bps: 500, cap: '1.00'}
stakes:
  - {<<: *usd, small_blind: '0.05', big_blind: '0.10'}
  - {<<: *usd, small_blind: '0.10', big_blind: '0.25', fees: {kinds: [jackpot]}}
"""
LAUGHS = b'l0: &l0 "lol"\n' + b"".join(
    f"l{n}: &l{n} [{', '.join([f'*l{n - 1}'] * 9)}]\n".encode() for n in range(1, 10)
)
HOSTILE = (
    LAUGHS,
    b"a: &a [*a]\n",
    b"*l9",
    b"[" * 100_000,
    b"{" * 50_000,
    b"- " * 20_000 + b"x",
    b"9" * 5_000,
    b"1e999999",
    b"\x00",
    b"\xef\xbb\xbf",
    b"\x1b[31m\x07\xe2\x80\xae",
    b"\xff\xfe\x81",
    b"!!python/object/apply:os.system ['true']",
    b"&x ",
    b": : :",
    b"\n" * 1000,
    b'"' + b"\\" * 999,
)
FILES = ("a.avro", "sub/b.avro", "c d.phh", "e.txt")


def mutate(seed: bytes, draw: Draw) -> bytes:
    """One to four mutations of ``seed`` (see the module docstring)."""
    data = bytearray(seed)
    for _ in range(draw.integer(1, 4)):
        how = draw.integer(0, 4)
        at = draw.integer(0, len(data))
        if how == 0 and data:
            data[min(at, len(data) - 1)] ^= 1 << draw.integer(0, 7)
        elif how == 1:
            del data[at:]
        elif how == 2:
            end = draw.integer(at, len(data))
            data[at:at] = data[at:end] * draw.integer(1, 3)
        else:
            data[at:at] = draw.choice(HOSTILE)
    return bytes(data)


#: An input the long run counts as a hang: reported with the figures, never asserted.
HANG_SECONDS = 10.0


@dataclass
class Outcome:
    """What the fuzzing saw, per kind."""

    executions: dict[str, int] = field(default_factory=dict)
    tracebacks: list[str] = field(default_factory=list)
    vanished: int = 0
    """Files of a manifest's folder neither read nor quarantined under their own name."""
    false_proofs: int = 0
    """Changed, unsigned bundles that ``verify_bundle`` called proven."""
    slowest: float = 0.0
    hangs: int = 0
    """Inputs that took longer than ``HANG_SECONDS``."""

    def ran(self, kind: str) -> None:
        self.executions[kind] = self.executions.get(kind, 0) + 1


def _schedule(folder: Path, data: bytes, draw: Draw, outcome: Outcome) -> None:
    path = folder / draw.choice(("rake.yaml", "rake.json"))
    path.write_bytes(data)
    try:
        RakeSchedule(path)
    except BadSchedule as error:
        assert str(error).startswith(str(path)), error  # names the file


def _manifest(folder: Path, data: bytes, draw: Draw, outcome: Outcome) -> None:
    with contextlib.suppress(ManifestProblem):
        parse_manifest(data)
    files = []
    for name in FILES:
        (folder / name).parent.mkdir(exist_ok=True)
        (folder / name).write_bytes(name.encode())
        files.append(folder / name)
    (folder / draw.choice(("SHA256SUMS", "sub/SHA256SUMS"))).write_bytes(data)
    try:
        check = ManifestCheck([folder], files)
    except UnusableManifest:
        return
    for path in [*files, *check.missing]:
        rejected = check.rejection(path)
        if rejected is not None and Path(rejected.source) != path:
            outcome.vanished += 1


def _key(folder: Path, data: bytes, draw: Draw, outcome: Outcome) -> None:
    path = folder / "key.pub"
    path.write_bytes(data)
    try:
        load_public_key(path)
    except KeyError_ as error:
        assert str(path) in str(error), error


def _bundle(folder: Path, data: bytes, draw: Draw, outcome: Outcome) -> None:
    try:
        bundle = json_bounded(data.decode("utf-8", "replace"), "bundle.json", max_depth=64)
    except UnusableInput:
        return
    report = verify_bundle(bundle if isinstance(bundle, dict) else {}, _KEYS[1])
    if report.ok:  # no mutation of an unsigned bundle can be proven
        outcome.false_proofs += 1


_KEYS: list = []


def _keys(folder: Path) -> tuple[bytes, bytes]:
    """(public key PEM, a bundle's bytes): seeds for the key and bundle targets."""
    private_path, public_path = generate_keypair(folder / "keys")
    if not _KEYS:
        _KEYS.extend([private_path, load_public_key(public_path)])
    bundle = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "made_at": "2025-03-01T00:00:00+00:00",
        "made_by": "fuzz",
        "subject": {"kind": "poker", "id": "gg/1"},
        "events": [{"notification_id": 1, "state": "{}", "topic": "x", "version": 1}],
        "inputs": [],
        "verdict": {"unit": "poker:gg/1|1", "events": []},
        "rulebook": {"id": "gg-2022", "citations": []},
        "replayer_version": "1",
        "proof": {"type": "merkle", "checkpoint": {"notification_id": 1}},
    }
    return public_path.read_bytes(), json.dumps(bundle).encode()


def _manifest_seed() -> bytes:
    return b"".join(
        f"{hashlib.sha256(name.encode()).hexdigest()}  {name}\n".encode() for name in FILES
    )


Target = Callable[[Path, bytes, Draw, Outcome], None]


def _targets(folder: Path) -> dict[str, tuple[Target, tuple[bytes, ...]]]:
    public, bundle = _keys(folder)
    return {
        "schedule": (_schedule, (SCHEDULE_JSON, SCHEDULE_YAML)),
        "manifest": (_manifest, (_manifest_seed(),)),
        "key": (_key, (public,)),
        "bundle": (_bundle, (bundle,)),
    }


def run_one(kind: str, target: Target, seed: bytes, draw: Draw, outcome: Outcome) -> None:
    """Mutate ``seed`` and hand it to ``target`` in a fresh folder; count what happens."""
    data = mutate(seed, draw)
    folder = Path(tempfile.mkdtemp(prefix="casino-audit-fuzz-input-"))
    started = time.monotonic()
    try:
        target(folder, data, draw, outcome)
    except Exception:  # any other exception is a traceback the user would see
        outcome.tracebacks.append(f"{kind}: {data[:2000]!r}\n{traceback.format_exc()}")
    finally:
        took = time.monotonic() - started
        outcome.slowest = max(outcome.slowest, took)
        outcome.hangs += took > HANG_SECONDS
        outcome.ran(kind)
        _remove(folder)


def _remove(folder: Path) -> None:
    for path in sorted(folder.rglob("*"), key=lambda p: len(p.parts), reverse=True):
        if path.is_dir() and not path.is_symlink():
            path.rmdir()
        else:
            path.unlink()
    folder.rmdir()


KINDS = ("schedule", "manifest", "key", "bundle")


@pytest.fixture(scope="module")
def targets(tmp_path_factory: pytest.TempPathFactory) -> dict:
    return _targets(tmp_path_factory.mktemp("fuzz-seeds"))


@pytest.mark.parametrize("kind", KINDS)
def test_fuzz_inputs_sample(kind: str, targets: dict) -> None:
    """A seeded sample per kind: every outcome one the module docstring allows."""
    target, seeds = targets[kind]
    outcome = Outcome()

    @settings(
        max_examples=int(os.environ.get("CASINO_AUDIT_FUZZ_SAMPLE", "300")),
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(data=st.data())
    def sample(data: st.DataObject) -> None:
        draw = HypothesisDraw(data)
        run_one(kind, target, draw.choice(seeds), draw, outcome)

    sample()
    assert outcome.tracebacks == [], outcome.tracebacks[0]
    assert (outcome.vanished, outcome.false_proofs) == (0, 0)


@pytest.mark.long
def test_fuzz_inputs_long(targets: dict, tmp_path: Path) -> None:
    """``CASINO_AUDIT_FUZZ_EXECUTIONS`` inputs per kind; figures per kind in the report."""
    executions = int(os.environ.get("CASINO_AUDIT_FUZZ_EXECUTIONS", "100000"))
    seed = int(os.environ.get("CASINO_AUDIT_FUZZ_SEED", "1"))
    report = Path(os.environ.get("CASINO_AUDIT_FUZZ_REPORT", tmp_path / "fuzz-inputs.json"))
    draw = RandomDraw(random.Random(seed))
    outcomes = {kind: Outcome() for kind in KINDS}
    figures: dict[str, object] = {"seed": seed}
    for kind in KINDS:
        target, seeds = targets[kind]
        outcome, started = outcomes[kind], time.monotonic()
        for _ in range(executions):
            run_one(kind, target, draw.choice(seeds), draw, outcome)
        figures[kind] = {
            "executions": outcome.executions[kind],
            "tracebacks": len(outcome.tracebacks),
            "hangs": outcome.hangs,
            "vanished": outcome.vanished,
            "false_proofs": outcome.false_proofs,
            "slowest_input_seconds": round(outcome.slowest, 2),
            "seconds": round(time.monotonic() - started, 1),
            # the process's high-water mark when this kind (and those before it) ended
            "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        }
    report.write_text(json.dumps(figures, indent=2) + "\n")
    tracebacks = [t for outcome in outcomes.values() for t in outcome.tracebacks]
    (report.parent / "fuzz-inputs-tracebacks.txt").write_text("\n".join(tracebacks))
    print(json.dumps(figures))
    assert tracebacks == []
    assert all((o.vanished, o.false_proofs) == (0, 0) for o in outcomes.values())
