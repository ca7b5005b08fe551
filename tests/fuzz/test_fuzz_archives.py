"""Fuzzing retention archives and signed evidence bundles (issue 41 item 6), beside
``tests/fuzz/test_fuzz_inputs.py`` (which fuzzes an unsigned bundle's shape).

Seeds are genuine: archives the product wrote (``tests/archive_maker.py``: from genesis,
and from a signed head with its frontier) and a bundle the product built and signed (a
simulated day ingested and replayed into a SQLite store). Mutations are those of
``test_fuzz_inputs.mutate`` plus archive-shaped ones: a number set to 2^70, a float or a
string, a field added, a line duplicated or dropped, a line longer than ``MAX_LINE``.
Accepted outcomes: an archive is read (``ArchiveReport``, ok or not) or refused
(``ArchiveError``); a bundle is refused by ``audit.bounded`` or checked by
``verify_bundle`` (which never raises), and is never proven once a field the signature
covers changed (a false proof). Anything else raised is a traceback, counted and kept.

``test_fuzz_archives_sample``: a seeded hypothesis sample for CI (200 examples per kind,
``CASINO_AUDIT_FUZZ_SAMPLE``). ``test_fuzz_archives_long`` (marked ``long``):
``CASINO_AUDIT_FUZZ_EXECUTIONS`` inputs per kind (default 20,000) from
``random.Random(CASINO_AUDIT_FUZZ_SEED)``, figures per kind to ``CASINO_AUDIT_FUZZ_REPORT``
(executions, tracebacks, hangs over ``HANG_SECONDS``, false proofs, archives that still
verify though changed, slowest input, peak RSS): 0 tracebacks, 0 false proofs asserted;
hangs and the slowest input reported. An archive that still verifies once changed is
one whose change the chain does not cover (JSON spacing, a checkpoint line repeated): its
SHA-256 differs from the retention record's, which ``verify-archive`` given a store
compares (``tests/audit/store/test_retention_trust.py``).
"""

from __future__ import annotations

import json
import os
import random
import resource
import shutil
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.bounded import UnusableInput, json_bounded
from audit.evidence.check import verify_bundle
from audit.store.archive import MAX_LINE, ArchiveError, verify_archive
from audit.store.signing import load_public_key
from tests.archive_maker import make_archives
from tests.fuzz.test_fuzz_ingest import Draw, HypothesisDraw, RandomDraw
from tests.fuzz.test_fuzz_inputs import mutate

HANG_SECONDS = 10.0
#: Bundle sections no signature covers (``audit.evidence.check.UNAUTHENTICATED``).
UNSIGNED = ("made_at", "made_by")
ARCHIVE_SNIPPETS = (
    b"1180591620717411303424",
    b"1e308",
    b"-1",
    b"0.5",
    b"true",
    b'"x"',
    b"null",
    b', "extra": 1',
)


@dataclass
class Outcome:
    executions: dict[str, int] = field(default_factory=dict)
    tracebacks: list[str] = field(default_factory=list)
    false_proofs: int = 0
    still_verify: int = 0
    slowest: float = 0.0
    hangs: int = 0
    proven_changes: list[str] = field(default_factory=list)


def _difference(original: Any, changed: Any, path: str = "") -> str:
    """Where two JSON values first differ (for a false proof's report)."""
    if isinstance(original, dict) and isinstance(changed, dict):
        for key in sorted(set(original) | set(changed), key=str):
            if original.get(key) != changed.get(key):
                return _difference(original.get(key), changed.get(key), f"{path}.{key}")
    if isinstance(original, list) and isinstance(changed, list) and len(original) == len(changed):
        for n, (a, b) in enumerate(zip(original, changed, strict=True)):
            if a != b:
                return _difference(a, b, f"{path}[{n}]")
    return f"{path}: {str(original)[:200]!r} -> {str(changed)[:200]!r}"


def mutate_archive(seed: bytes, draw: Draw) -> bytes:
    """An archive mutation: a value replaced, a line repeated or dropped, an overlong
    line, or ``mutate``'s byte-level changes."""
    lines = seed.splitlines(True)
    how = draw.integer(0, 4)
    at = draw.integer(0, len(lines) - 1)
    if how == 0:  # a value after a key replaced by a hostile one
        line = lines[at]
        colon = line.find(b":", draw.integer(0, max(0, len(line) - 1)))
        if colon > 0:
            end = min((line.find(c, colon) for c in (b",", b"}") if line.find(c, colon) > 0),
                      default=len(line))  # fmt: skip
            lines[at] = line[: colon + 1] + draw.choice(ARCHIVE_SNIPPETS) + line[end:]
    elif how == 1:
        lines.insert(at, lines[draw.integer(0, len(lines) - 1)])
    elif how == 2:
        del lines[at]
    elif how == 3 and draw.integer(0, 9) == 0:  # rarely: a line past the bound
        lines.insert(at, b'{"row": "' + b"y" * (MAX_LINE + 1) + b'"}\n')
    else:
        return mutate(seed, draw)
    return b"".join(lines)


def _archive(seeds: Any) -> Callable[[Path, bytes, Outcome], None]:
    key = load_public_key(seeds.public_key)

    def target(folder: Path, data: bytes, outcome: Outcome) -> None:
        path = folder / "archive.jsonl"
        path.write_bytes(data)
        try:
            report = verify_archive(path, key)
        except ArchiveError as error:
            assert str(path) in str(error), error  # names the file (and line)
            return
        outcome.still_verify += report.ok and data not in (seeds.whole, seeds.later)

    return target


def _proven_sections(bundle: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in bundle.items() if k not in UNSIGNED}


def _bundle(original: dict[str, Any], key: Any) -> Callable[[Path, bytes, Outcome], None]:
    def target(folder: Path, data: bytes, outcome: Outcome) -> None:
        try:
            bundle = json_bounded(data.decode("utf-8", "replace"), "bundle.json", max_depth=64)
        except UnusableInput:
            return
        if not isinstance(bundle, dict):
            bundle = {}
        report = verify_bundle(bundle, key)
        if report.ok and _proven_sections(bundle) != _proven_sections(original):
            outcome.false_proofs += 1
            outcome.proven_changes.append(
                _difference(_proven_sections(original), _proven_sections(bundle))
            )

    return target


def _signed_bundle(folder: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[bytes, Any]:
    """A genuine bundle: a simulated day ingested and replayed, one hand's bundle."""
    from audit.evidence.bundle import build_bundle
    from audit.evidence.treecache import TreeCache
    from audit.ingest.pipeline import ingest
    from audit.judging import replay
    from audit.store import AuditStore
    from audit.store.signing import SIGNING_KEY_ENV, generate_keypair
    from console.readmodel.model import ReadModel
    from console.readmodel.queries import ModelVerdicts
    from simulate.day import generate_day

    day = date(2025, 3, 2)
    generate_day(2, day, hands=4, out=folder / "in" / day.isoformat(), fault_rate=0.5)
    private, public = generate_keypair(folder / "bundle-keys")
    monkeypatch.setenv(SIGNING_KEY_ENV, str(private))
    store = AuditStore(f"sqlite:///{folder / 'bundle.db'}")
    try:
        ingest(store, [folder / "in"])
        replay(store)
        model = ReadModel(store)
        with model.reading() as db:
            (hand,) = db.execute(
                "SELECT subject FROM units WHERE kind = 'poker' ORDER BY findings DESC LIMIT 1"
            ).fetchone()
        bundle = build_bundle(
            store,
            ModelVerdicts(model),
            hand,
            made_by="fuzz",
            made_at=datetime(2025, 3, 3, tzinfo=UTC),
            trees=TreeCache(),
        )
    finally:
        store.close()
    return json.dumps(bundle).encode(), load_public_key(public)


KINDS = ("archive", "bundle")
Target = Callable[[Path, bytes, Outcome], None]


@pytest.fixture(scope="module")
def targets(
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[str, tuple[Target, tuple[bytes, ...], Callable[[bytes, Draw], bytes]]]:
    folder = tmp_path_factory.mktemp("fuzz-archives")
    with pytest.MonkeyPatch.context() as monkeypatch:
        seeds = make_archives(folder, monkeypatch)
        bundle, key = _signed_bundle(folder, monkeypatch)
    assert verify_bundle(json.loads(bundle), key).ok
    return {
        "archive": (_archive(seeds), (seeds.whole, seeds.later), mutate_archive),
        "bundle": (_bundle(json.loads(bundle), key), (bundle,), mutate),
    }


def run_one(kind: str, target: Target, data: bytes, outcome: Outcome) -> None:
    folder = Path(tempfile.mkdtemp(prefix="casino-audit-fuzz-archive-"))
    started = time.monotonic()
    try:
        target(folder, data, outcome)
    except Exception:  # any other exception is a traceback the user would see
        outcome.tracebacks.append(f"{kind}: {data[:2000]!r}\n{traceback.format_exc()}")
    finally:
        took = time.monotonic() - started
        outcome.slowest = max(outcome.slowest, took)
        outcome.hangs += took > HANG_SECONDS
        outcome.executions[kind] = outcome.executions.get(kind, 0) + 1
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("kind", KINDS)
def test_fuzz_archives_sample(kind: str, targets: dict) -> None:
    """A seeded sample per kind: every outcome one the module docstring allows."""
    target, seeds, mutation = targets[kind]
    outcome = Outcome()

    @settings(
        max_examples=int(os.environ.get("CASINO_AUDIT_FUZZ_SAMPLE", "200")),
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(data=st.data())
    def sample(data: st.DataObject) -> None:
        draw = HypothesisDraw(data)
        run_one(kind, target, mutation(draw.choice(seeds), draw), outcome)

    sample()
    assert outcome.tracebacks == [], outcome.tracebacks[0]
    assert outcome.false_proofs == 0, outcome.proven_changes


@pytest.mark.long
def test_fuzz_archives_long(targets: dict, tmp_path: Path) -> None:
    """``CASINO_AUDIT_FUZZ_EXECUTIONS`` inputs per kind; figures per kind in the report."""
    executions = int(os.environ.get("CASINO_AUDIT_FUZZ_EXECUTIONS", "20000"))
    seed = int(os.environ.get("CASINO_AUDIT_FUZZ_SEED", "1"))
    report = Path(os.environ.get("CASINO_AUDIT_FUZZ_REPORT", tmp_path / "fuzz-archives.json"))
    draw = RandomDraw(random.Random(seed))
    figures: dict[str, object] = {"seed": seed}
    tracebacks: list[str] = []
    false_proofs = 0
    for kind in KINDS:
        target, seeds, mutation = targets[kind]
        outcome, started = Outcome(), time.monotonic()
        for _ in range(executions):
            run_one(kind, target, mutation(draw.choice(seeds), draw), outcome)
        figures[kind] = {
            "executions": outcome.executions[kind],
            "tracebacks": len(outcome.tracebacks),
            "hangs": outcome.hangs,
            "false_proofs": outcome.false_proofs,
            "changed_but_verify": outcome.still_verify,
            "slowest_input_seconds": round(outcome.slowest, 2),
            "seconds": round(time.monotonic() - started, 1),
            "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        }
        tracebacks += outcome.tracebacks + [f"false proof: {c}" for c in outcome.proven_changes]
        false_proofs += outcome.false_proofs
    report.write_text(json.dumps(figures, indent=2) + "\n")
    (report.parent / "fuzz-archives-tracebacks.txt").write_text("\n".join(tracebacks))
    print(json.dumps(figures))
    assert tracebacks == []
    assert false_proofs == 0
