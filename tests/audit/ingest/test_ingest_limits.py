"""Limits on what one input may make ingest hold: each a clear rejection, each
overridable; memory stays bounded on the inputs that once took gigabytes."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from audit.families import family_named
from audit.ingest.avro_files import write_events
from audit.ingest.limits import MIB, BadLimit, Limits
from audit.ingest.pipeline import ingest
from audit.store import AuditStore
from cli.main import main
from tests.audit.ingest.test_ingest_avro import hand_events
from tests.avro_craft import container, deflate, encode, varint

POKER = family_named("poker")
REPO = Path(__file__).resolve().parents[3]
#: Peak resident memory allowed to an ingest of one hostile file, imports included (the
#: process alone is ~500 MiB after importing the store; these files once took 5-24 GB).
MEMORY_BOUND_MIB = 1024


def pluribus(phh_sample: Path) -> str:
    return (phh_sample / "pluribus" / "83" / "63.phh").read_text() + "\n"


def store_at(tmp_path: Path) -> AuditStore:
    return AuditStore(f"sqlite:///{tmp_path / 's.db'}")


def test_limits_come_from_the_environment() -> None:
    assert Limits.from_env({}) == Limits()
    assert Limits().max_phh_file_bytes == 16 * MIB and Limits().max_toml_depth == 64
    limits = Limits.from_env(
        {"CASINO_AUDIT_MAX_TOML_DEPTH": "8", "CASINO_AUDIT_MAX_TOML_ITEMS": "1_000"}
    )
    assert (limits.max_toml_depth, limits.max_toml_items) == (8, 1000)
    with pytest.raises(BadLimit, match="CASINO_AUDIT_MAX_EVENTS_PER_SUBJECT='lots'"):
        Limits.from_env({"CASINO_AUDIT_MAX_EVENTS_PER_SUBJECT": "lots"})
    with pytest.raises(BadLimit):
        Limits.from_env({"CASINO_AUDIT_MAX_PHH_FILE_BYTES": "0"})


def test_a_limit_set_in_the_environment_applies_and_a_bad_one_cannot_run(
    phh_sample: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "h.phh").write_text(pluribus(phh_sample) + "x = [[[1]]]\n")
    store = f"sqlite:///{tmp_path / 's.db'}"
    assert main(["--store", store, "ingest", str(tmp_path / "h.phh")]) == 0
    monkeypatch.setenv("CASINO_AUDIT_MAX_TOML_DEPTH", "3")
    (tmp_path / "i.phh").write_text(pluribus(phh_sample) + "x = [[[1]]]\n")
    assert main(["--store", store, "ingest", str(tmp_path / "i.phh")]) == 1
    out = capsys.readouterr().out
    assert "field (limit): a value nested 4 levels deep at line 11, beyond the limit of 3 " in out
    assert "(CASINO_AUDIT_MAX_TOML_DEPTH)" in out
    monkeypatch.setenv("CASINO_AUDIT_MAX_TOML_DEPTH", "deep")
    assert main(["--store", store, "ingest", str(tmp_path / "i.phh")]) == 2
    assert "CASINO_AUDIT_MAX_TOML_DEPTH='deep' is not a positive integer" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("limits", "field", "words"),
    [
        (Limits(max_phh_file_bytes=500), "(limit)", "beyond the limit of 500 "),
        (Limits(max_toml_items=30), "(limit)", "more than 30 keys and values"),
        (Limits(max_toml_depth=1), "(limit)", "a value nested 2 levels deep"),
        (Limits(max_events_per_subject=20), "actions", "the hand has 28 events"),
    ],
)
def test_phh_limits(
    phh_sample: Path, tmp_path: Path, limits: Limits, field: str, words: str
) -> None:
    (tmp_path / "h.phh").write_text(pluribus(phh_sample) + "x = [1]\n")
    summary = ingest(store_at(tmp_path), [tmp_path / "h.phh"], limits=limits)
    (rejected,) = summary.rejected
    assert rejected.field == field and words in rejected.reason, rejected.reason
    assert summary.units_read == summary.quarantined == 1


def test_a_phhs_file_past_its_section_limit_keeps_the_first_sections(
    phh_sample: Path, tmp_path: Path
) -> None:
    text = "".join(f"[{n}]\n{pluribus(phh_sample)}" for n in range(1, 6))
    (tmp_path / "day.phhs").write_text(text)
    summary = ingest(
        store_at(tmp_path), [tmp_path / "day.phhs"], limits=Limits(max_phhs_sections=3)
    )
    assert (summary.subjects_stored, summary.quarantined) == (3, 1)
    assert summary.rejected[0].position == "section 4 and after"
    assert "more than 3 sections" in summary.rejected[0].reason


def test_avro_subject_limits_reject_the_subject_and_keep_the_next(tmp_path: Path) -> None:
    events = hand_events("t/1") + hand_events("t/2")
    write_events(tmp_path / "x.avro", POKER, events)
    for limits, words in (
        (Limits(max_events_per_subject=4), "has more than 4 events"),
        (Limits(max_values_per_subject=30), "values) in one run"),
    ):
        folder = tmp_path / str(limits.max_events_per_subject)
        folder.mkdir()
        summary = ingest(store_at(folder), [tmp_path / "x.avro"], limits=limits)
        assert summary.quarantined == 2, summary.rejected  # both hands are over the limit
        assert words in summary.rejected[0].reason
        assert summary.rejected[0].position == "records 0.. (hand_id t/1)"
    long_hand = hand_events("t/3")
    long_hand += [{**long_hand[-1], "sequence": n, "event_id": f"t/3#{n}"} for n in range(6, 12)]
    write_events(tmp_path / "y.avro", POKER, long_hand + hand_events("t/4"))
    summary = ingest(
        store_at(tmp_path), [tmp_path / "y.avro"], limits=Limits(max_events_per_subject=8)
    )
    assert (summary.subjects_stored, summary.quarantined, summary.units_read) == (1, 1, 2)


# -- memory -------------------------------------------------------------------------------

CHILD = textwrap.dedent(
    """
    import json, resource, sys
    from pathlib import Path
    from audit.ingest.pipeline import ingest
    from audit.store import AuditStore
    summary = ingest(AuditStore(sys.argv[1]), [Path(sys.argv[2])])
    print(json.dumps({
        "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "stored": summary.subjects_stored,
        "quarantined": summary.quarantined,
        "reasons": [r.reason for r in summary.rejected],
    }))
    """
)


def ingest_in_a_process(tmp_path: Path, path: Path) -> dict:
    """Ingest one file in a fresh interpreter; its summary and peak RSS (MiB)."""
    done = subprocess.run(
        [sys.executable, "-c", CHILD, f"sqlite:///{tmp_path / 'child.db'}", str(path)],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_dotted_key_100000_deep_is_rejected_in_bounded_memory(tmp_path: Path) -> None:
    """200 KB of ``a.a.a…`` once drove tomllib past 24 GB."""
    path = tmp_path / "dotted.phh"
    path.write_text("variant = 'NT'\n" + "a" + ".a" * 100_000 + " = 1\n")
    assert 190_000 < path.stat().st_size < 210_000
    result = ingest_in_a_process(tmp_path, path)
    assert (result["stored"], result["quarantined"]) == (0, 1)
    assert "nested 100001 levels deep" in result["reasons"][0]
    assert result["peak_mib"] < MEMORY_BOUND_MIB, result


def million_event_hand(path: Path) -> Path:
    """One poker hand of a million events (a HandStarted, then calls), ~3 MB deflated."""
    count, opening = encode(POKER, hand_events("big/1")[:1])
    blocks = [(count, deflate(opening))]
    hand = b"big/1"
    tail = varint(1748808000000000) + varint(3) + varint(1) + varint(2) + varint(100)
    sequence = 1
    while sequence < 1_000_000:
        stop = min(sequence + 10_000, 1_000_000)
        records = b"".join(
            varint(len(event_id)) + event_id + varint(len(hand)) + hand + varint(n) + tail
            for n in range(sequence, stop)
            for event_id in (b"big/1#%d" % n,)
        )
        blocks.append((stop - sequence, deflate(records)))
        sequence = stop
    path.write_bytes(container(POKER.raw_schema, blocks, codec="deflate"))
    return path


def test_a_hand_of_a_million_events_is_rejected_in_bounded_memory(tmp_path: Path) -> None:
    """A 3-5 MB file of one hand once took 5 GB: its events past the limit are decoded
    and dropped, never held."""
    path = million_event_hand(tmp_path / "million.avro")
    result = ingest_in_a_process(tmp_path, path)
    assert (result["stored"], result["quarantined"]) == (0, 1)
    assert "'big/1' has more than 100,000 events" in result["reasons"][0]
    assert result["peak_mib"] < MEMORY_BOUND_MIB, result


def test_an_array_of_millions_is_rejected_in_bounded_memory(tmp_path: Path) -> None:
    """A record holding a 3,000,000-long array (24 MB of Avro once took 1.3 GB): its block
    is larger than the block limit and is never decompressed past it."""
    events = hand_events("arr/1")
    ended = {key: events[-1][key] for key in ("event_id", "hand_id", "occurred_at")}
    ended |= {"sequence": 6, "type": "HandEnded", "finishing_stacks": [10**6] * 3_000_000}
    count, data = encode(POKER, [*events, ended])
    (tmp_path / "array.avro").write_bytes(
        container(POKER.raw_schema, [(count, deflate(data))], codec="deflate")
    )
    result = ingest_in_a_process(tmp_path, tmp_path / "array.avro")
    assert (result["stored"], result["quarantined"]) == (0, 1)
    assert "decompresses to more than 4,194,304 bytes" in result["reasons"][0]
    assert result["peak_mib"] < MEMORY_BOUND_MIB, result
