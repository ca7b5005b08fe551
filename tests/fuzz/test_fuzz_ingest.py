"""Fuzzing the ingest: mutated real PHH files and hostile Avro files, never a traceback.

The target (``run_inputs``) writes a handful of mutated inputs to a fresh folder and
ingests it, and checks that the ingest returned a summary (any exception is a failure)
and that every record read is accounted for: ``units_read == stored + already stored +
quarantined``; a folder of ``.phh`` files only is also checked against an oracle that
does not trust the reader: each ``.phh`` file is exactly one record.

Mutations (``mutate_phh``, ``avro_input``), driven by any ``Draw``:

* PHH (the real hands of ``phh_sample``): byte flips, truncation, splices, a TOML value
  replaced by a hostile one (integers past 64 bits, hex of 160 bits, deep nesting, wrong
  types, unicode and NUL, NaN and infinities, huge exponents, long arrays and strings),
  a user field added with a hostile value, an action replaced by a hostile one, dotted
  keys hundreds deep, several hands as sections of a ``.phhs`` file;
* Avro (generated poker hands and slot machines): integer fields set past their width
  (``int`` fields to 2^31 and 2^40, ``long`` fields to ±2^63, ``sequence`` near 2^63,
  timestamps past year 9999), strings replaced (bad cards, empty, NUL), events dropped
  or repeated, the records split over blocks (null or deflate codec), then byte flips,
  truncation and insertions in the container.

``test_fuzz_sample`` is a seeded hypothesis sample for CI: 500 examples of one to four
inputs (``CASINO_AUDIT_FUZZ_SAMPLE`` changes the count), well under a minute.
``test_fuzz_long`` (``make long``, marked ``long``) drives the same target from a seeded
``random.Random`` and batches inputs per ingest for speed; it is sized by environment:
``CASINO_AUDIT_FUZZ_EXECUTIONS`` (inputs, default 1,000,000), ``CASINO_AUDIT_FUZZ_SECONDS``
(a time budget, default none), ``CASINO_AUDIT_FUZZ_SEED`` (default 1) and
``CASINO_AUDIT_FUZZ_REPORT`` (a JSON file for the figures: executions, executions/s,
tracebacks, vanished records, peak RSS). Inputs that raised are saved beside the report.
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
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any, Protocol

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.families import family_named
from audit.ingest.pipeline import IngestSummary, ingest
from audit.store import AuditStore
from simulate.fleet import machine_day
from tests.audit.ingest.test_ingest_avro import hand_events
from tests.avro_craft import container, deflate, encode

POKER, SLOTS = family_named("poker"), family_named("slots")

#: Real hands the PHH mutations start from (paths under ``phh_sample``).
SEED_HANDS = (
    "pluribus/83/63.phh",
    "pluribus/102/0.phh",
    "wsop/2023/43/5/11.phh",
    "wsop/2023/43/5/63.phh",
    "wsop/2023/43/5/85.phh",
    "antonius-blom-2009.phh",
    "phua-xuan-2019.phh",
    "alice-carol-wikipedia.phh",
)

HOSTILE_VALUES = (
    "99999999999999999999999",
    "-99999999999999999999999",
    "0x" + "f" * 40,
    "0b" + "1" * 70,
    "9223372036854775807",
    "92233720368547758.08",
    "-1",
    "0",
    "1e999999",
    "1e-999999",
    "1e99999999999999999999",
    "nan",
    "-nan",
    "inf",
    "-inf",
    "0.001",
    "1.5",
    "true",
    "'x'",
    '""',
    '"💥"',
    '"\\u0000"',
    '"\\ud7ff\\ue000"',
    "'" + "x" * 5000 + "'",
    "[]",
    "{}",
    "[[]]",
    "[" * 80 + "]" * 80,
    "{a = " * 40 + "1" + "}" * 40,
    "[" + "1," * 3000 + "]",
    "['a', 1, 1.5, true]",
    "{a.b.c = [1, {d = 2}]}",
    "1979-05-27T07:32:00Z",
    "9999-12-31T23:59:59-23:59",
    "0001-01-01T00:00:00+23:59",
    "07:32:00",
    "1979-05-27",
)
HOSTILE_FIELDS = (
    "_time",
    "_rake",
    "_button",
    "_table",
    "_rulebook",
    "_smallest_chip",
    "currency",
    "year",
    "month",
    "day",
    "time",
    "time_zone",
    "time_zone_abbreviation",
    "city",
    "hand",
    "table",
    "players",
    "ante_trimming_status",
    "bring_in",
    "min_bet",
    "antes",
    "finishing_stacks",
    "actions",
    "variant",
)
HOSTILE_ACTIONS = (
    "p1 cbr 1e999999",
    "p1 cbr 99999999999999999999999",
    "p1 cbr nan",
    "p1 cbr sNaN",
    "p1 cbr -5",
    "p1 cbr 0.0001",
    "p99999999999999999999 f",
    "p0 cc",
    "p1 pb",
    "d dh p1 " + "As" * 30,
    "d dh p1 ????",
    "d db " + "??" * 500,
    "p1 sm " + "Kh" * 3,
    "p1 sd AsAs",
    "d db",
    "",
    "# just a comment",
    "p1 cc # \u0000",
    "p1\tf",
)
INT_VALUES = (2**31, 2**31 - 1, -(2**31) - 1, 2**40, 2**63 - 1, -(2**63), -1, 0, 2**62)


class Draw(Protocol):
    def integer(self, low: int, high: int) -> int: ...

    def choice(self, items: Sequence[Any]) -> Any: ...


class HypothesisDraw:
    def __init__(self, data: st.DataObject) -> None:
        self.data = data

    def integer(self, low: int, high: int) -> int:
        return self.data.draw(st.integers(low, high))

    def choice(self, items: Sequence[Any]) -> Any:
        return items[self.data.draw(st.integers(0, len(items) - 1))]


class RandomDraw:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)

    def choice(self, items: Sequence[Any]) -> Any:
        return items[self.rng.randrange(len(items))]


# -- PHH mutations ------------------------------------------------------------------------


def _lines_with_values(text: str) -> list[int]:
    return [n for n, line in enumerate(text.split("\n")) if " = " in line]


def _replace_value(text: str, draw: Draw) -> str:
    lines = text.split("\n")
    candidates = _lines_with_values(text)
    if not candidates:
        return text
    number = draw.choice(candidates)
    key = lines[number].split(" = ", 1)[0]
    lines[number] = f"{key} = {draw.choice(HOSTILE_VALUES)}"
    return "\n".join(lines)


def _replace_action(text: str, draw: Draw) -> str:
    start = text.find("actions = [")
    if start < 0:
        return text
    quotes = [i for i in range(start, min(len(text), start + 20_000)) if text[i] == "'"]
    if len(quotes) < 2:
        return text
    index = draw.integer(0, len(quotes) // 2 - 1) * 2
    first, last = quotes[index], quotes[index + 1]
    action = draw.choice(HOSTILE_ACTIONS).replace("'", "")
    return text[: first + 1] + action + text[last:]


def _flip(data: bytes, draw: Draw, start: int = 0) -> bytes:
    """Up to eight bytes from ``start`` on xor-ed with random values."""
    if len(data) <= start:
        return data
    out = bytearray(data)
    for _ in range(draw.integer(1, 8)):
        out[draw.integer(start, len(out) - 1)] ^= draw.integer(1, 255)
    return bytes(out)


def _splice(data: bytes, draw: Draw, start: int = 0) -> bytes:
    """A chunk of the data repeated somewhere from ``start`` on."""
    if len(data) < start + 2:
        return data
    begin = draw.integer(start, len(data) - 1)
    chunk = data[begin : begin + draw.integer(1, 200)]
    at = draw.integer(start, len(data))
    return data[:at] + chunk * draw.integer(1, 3) + data[at:]


def mutate_phh(text: str, draw: Draw) -> bytes:
    """One to three mutations of a PHH text."""
    data = text.encode()
    for _ in range(draw.integer(1, 3)):
        kind = draw.integer(0, 8)
        current = data.decode("utf-8", "replace")
        if kind == 0:
            data = _flip(data, draw)
        elif kind == 1:
            data = data[: draw.integer(0, len(data))]
        elif kind == 2:
            data = _splice(data, draw)
        elif kind in (3, 4):
            data = _replace_value(current, draw).encode()
        elif kind == 5:
            name = draw.choice(HOSTILE_FIELDS)
            data = f"{current}\n{name} = {draw.choice(HOSTILE_VALUES)}\n".encode()
        elif kind in (6, 7):
            data = _replace_action(current, draw).encode()
        else:
            depth = draw.integer(2, 400)
            data = f"{current}\n{'.'.join(['k'] * depth)} = 1\n".encode()
    return data


# -- Avro inputs --------------------------------------------------------------------------


@cache
def _machines() -> tuple[tuple[dict[str, Any], ...], ...]:
    return tuple(
        tuple(machine_day(seed, date(2025, 6, 1), f"m-{seed}", games=4)[0]) for seed in range(3)
    )


def _spoil(event: dict[str, Any], draw: Draw) -> dict[str, Any]:
    event = dict(event)
    ints = [k for k, v in event.items() if type(v) is int] + ["sequence", "occurred_at"]
    strings = [k for k, v in event.items() if type(v) is str and k != "type"]
    kind = draw.integer(0, 3)
    if kind <= 1 or not strings:
        key = draw.choice(ints)
        event[key] = draw.choice(INT_VALUES)
        if key == "occurred_at" and event[key] < 0:
            event[key] = -(2**62)
    elif kind == 2:
        event[draw.choice(strings)] = draw.choice(("Zz", "", "\u0000", "x" * 300, "??", "XXX"))
    else:
        for key, value in event.items():
            if type(value) is list and value and type(value[0]) is str:
                event[key] = [draw.choice(("As", "As", "1s", "??", ""))] * draw.integer(1, 60)
    return event


def avro_input(draw: Draw, number: int) -> bytes:
    """A poker or slots container of a few subjects, spoilt at field and byte level."""
    if draw.integer(0, 2):
        events = [e for n in range(draw.integer(1, 3)) for e in hand_events(f"f{number}/{n}")]
        family = POKER
    else:
        events = [dict(e) for e in draw.choice(_machines())]
        family = SLOTS
    for _ in range(draw.integer(0, 3)):
        index = draw.integer(0, len(events) - 1)
        choice = draw.integer(0, 5)
        if choice == 0:
            del events[index]
        elif choice == 1:
            events.insert(index, dict(events[index]))
        else:
            events[index] = _spoil(events[index], draw)
        if not events:
            break
    cuts = sorted({draw.integer(0, len(events)) for _ in range(draw.integer(0, 2))})
    codec = draw.choice(("null", "deflate"))
    blocks = []
    for start, stop in zip([0, *cuts], [*cuts, len(events)], strict=True):
        try:
            count, data = encode(family, events[start:stop])
        except Exception:  # a spoilt value the writer cannot encode at all: leave it out
            count, data = encode(family, [])
        blocks.append((count, deflate(data) if codec == "deflate" else data))
    out = container(family.raw_schema, blocks, codec=codec)
    # Mostly past the header (the schema is most of a small file): the blocks are the
    # interesting part; one mutation in eight may hit the header too.
    start = 0 if draw.integer(0, 7) == 0 else len(container(family.raw_schema, [], codec=codec))
    for _ in range(draw.choice((0, 0, 1, 1, 2))):
        kind = draw.integer(0, 2)
        if kind == 0:
            out = _flip(out, draw, start)
        elif kind == 1:
            out = out[: draw.integer(start, len(out))]
        else:
            out = _splice(out, draw, start)
    return out


# -- the target ---------------------------------------------------------------------------


@dataclass
class Outcome:
    executions: int = 0
    ingests: int = 0
    tracebacks: list[str] = field(default_factory=list)
    vanished: int = 0
    units: int = 0


def make_inputs(
    draw: Draw, hands: Sequence[str], count: int, start: int
) -> list[tuple[str, bytes]]:
    """``count`` mutated inputs, named uniquely from ``start``."""
    inputs = []
    for number in range(start, start + count):
        kind = draw.integer(0, 9)
        if kind <= 5:
            inputs.append((f"h{number}.phh", mutate_phh(draw.choice(hands), draw)))
        elif kind == 6:
            sections = [
                f"[{n}]\n".encode() + mutate_phh(draw.choice(hands), draw)
                for n in range(1, draw.integer(2, 4))
            ]
            inputs.append((f"s{number}.phhs", b"\n".join(sections)))
        else:
            inputs.append((f"a{number}.avro", avro_input(draw, number)))
    return inputs


def run_inputs(
    store: AuditStore, folder: Path, inputs: list[tuple[str, bytes]], outcome: Outcome
) -> IngestSummary | None:
    """The fuzz target: ingest ``inputs`` from ``folder``; count what does not add up."""
    folder.mkdir(parents=True)
    for name, data in inputs:
        (folder / name).write_bytes(data)
    outcome.executions += len(inputs)
    outcome.ingests += 1
    try:
        summary = ingest(store, [folder])
    except Exception:
        outcome.tracebacks.append(traceback.format_exc())
        return None
    accounted = (
        summary.subjects_stored + summary.subjects_already_stored + summary.units_quarantined
    )
    outcome.units += summary.units_read
    outcome.vanished += abs(summary.units_read - accounted)
    if all(name.endswith(".phh") for name, _ in inputs):
        outcome.vanished += abs(len(inputs) - accounted)  # one record per .phh file
    return summary


@pytest.fixture(scope="module")
def seed_hands(phh_sample: Path) -> list[str]:
    return [(phh_sample / relative).read_text() for relative in SEED_HANDS]


@pytest.fixture(scope="module")
def fuzz_store(tmp_path_factory: pytest.TempPathFactory) -> AuditStore:
    return AuditStore(f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'store.db'}")


@pytest.fixture(scope="module")
def sample_outcome(fuzz_store: AuditStore) -> Outcome:
    yield Outcome()
    assert fuzz_store.verify().ok


@settings(
    max_examples=int(os.environ.get("CASINO_AUDIT_FUZZ_SAMPLE", "500")),
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
@given(data=st.data())
def test_fuzz_sample(
    data: st.DataObject,
    seed_hands: list[str],
    fuzz_store: AuditStore,
    sample_outcome: Outcome,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """A seeded sample: a few mutated inputs per example, ingested together."""
    draw = HypothesisDraw(data)
    inputs = make_inputs(draw, seed_hands, draw.integer(1, 4), 0)
    folder = tmp_path_factory.mktemp("example")
    before = (len(sample_outcome.tracebacks), sample_outcome.vanished)
    # The folder's name, unique, is the subject id's prefix of every PHH hand of it.
    run_inputs(fuzz_store, folder / f"x{sample_outcome.ingests}", inputs, sample_outcome)
    assert (len(sample_outcome.tracebacks), sample_outcome.vanished) == before, (
        sample_outcome.tracebacks[-1:] or "records vanished"
    )
    shutil.rmtree(folder)


@pytest.mark.long
def test_fuzz_long(seed_hands: list[str], tmp_path: Path) -> None:
    """As many inputs as ``CASINO_AUDIT_FUZZ_EXECUTIONS`` (or ``_SECONDS``) allow."""
    executions = int(os.environ.get("CASINO_AUDIT_FUZZ_EXECUTIONS", "1000000"))
    budget = float(os.environ.get("CASINO_AUDIT_FUZZ_SECONDS", "inf"))
    seed = int(os.environ.get("CASINO_AUDIT_FUZZ_SEED", "1"))
    report = Path(os.environ.get("CASINO_AUDIT_FUZZ_REPORT", tmp_path / "fuzz-report.json"))
    report.parent.mkdir(parents=True, exist_ok=True)
    per_ingest, per_store = 40, 20_000
    draw = RandomDraw(random.Random(seed))
    outcome = Outcome()
    started = time.monotonic()
    work = Path(tempfile.mkdtemp(prefix="casino-audit-fuzz-"))
    crashes = report.parent / "fuzz-crashes"
    store: AuditStore | None = None
    try:
        while outcome.executions < executions and time.monotonic() - started < budget:
            if store is None or outcome.executions % per_store < per_ingest:
                if store is not None:
                    assert store.verify().ok
                    store.close()
                shutil.rmtree(work / "store", ignore_errors=True)
                (work / "store").mkdir()
                store = AuditStore(f"sqlite:///{work / 'store' / 'store.db'}")
            count = min(per_ingest, executions - outcome.executions)
            inputs = make_inputs(draw, seed_hands, count, outcome.executions)
            folder = work / f"x{outcome.ingests}"
            failures = len(outcome.tracebacks), outcome.vanished
            run_inputs(store, folder, inputs, outcome)
            if (len(outcome.tracebacks), outcome.vanished) != failures:
                keep = crashes / f"ingest-{outcome.ingests}"
                shutil.copytree(folder, keep)
                (keep / "traceback.txt").write_text("".join(outcome.tracebacks[-1:]))
            shutil.rmtree(folder, ignore_errors=True)
            if outcome.ingests % 50 == 0:
                _write_report(report, outcome, started, seed)
    finally:
        _write_report(report, outcome, started, seed)
        shutil.rmtree(work, ignore_errors=True)
    print(report.read_text())
    assert outcome.tracebacks == [] and outcome.vanished == 0


def _write_report(path: Path, outcome: Outcome, started: float, seed: int) -> None:
    elapsed = time.monotonic() - started
    path.write_text(
        json.dumps(
            {
                "seed": seed,
                "executions": outcome.executions,
                "ingests": outcome.ingests,
                "records_read": outcome.units,
                "tracebacks": len(outcome.tracebacks),
                "vanished_records": outcome.vanished,
                "seconds": round(elapsed, 1),
                "executions_per_second": round(outcome.executions / max(elapsed, 1e-9), 1),
                "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
            },
            indent=2,
        )
        + "\n"
    )
