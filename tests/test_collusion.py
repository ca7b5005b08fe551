"""The collusion detector on a seeded population with planted groups."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path

import pytest

from audit.ingest.avro_files import read_events
from pipelines.detectors.collusion import (
    THRESHOLD,
    CollusionDetector,
    CollusionReport,
)
from pipelines.detectors.collusion_findings import collusion_findings
from pipelines.simulate import DayManifest, generate_day
from replayer.findings import FindingKind

START = date(2025, 3, 1)
GROUPS = [("chip_dumping", 2), ("soft_play", 2), ("whipsaw", 2), ("soft_play", 3)]
DAYS = 2


def read_hands(folder: Path, manifest: DayManifest) -> Iterator[list[dict]]:
    for shard in manifest.shards:
        hands: dict[str, list[dict]] = defaultdict(list)
        for event in read_events(folder / shard):
            hands[event["hand_id"]].append(event)
        yield from hands.values()


@pytest.fixture(scope="module")
def population(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[list[dict]], DayManifest]:
    """Two days at three small tables (one per venue), four planted groups."""
    hands: list[list[dict]] = []
    manifest = None
    for k in range(DAYS):
        out = tmp_path_factory.mktemp(f"day{k}")
        manifest = generate_day(
            5,
            START + timedelta(days=k),
            hands=2_500,
            out=out,
            tables=3,
            players=45,
            colluders=GROUPS,
        )
        hands.extend(read_hands(out, manifest))
    assert manifest is not None
    return hands, manifest


@pytest.fixture(scope="module")
def report(population: tuple[list[list[dict]], DayManifest]) -> CollusionReport:
    hands, _ = population
    detector = CollusionDetector(as_of=START + timedelta(days=DAYS - 1))
    for events in hands:
        detector.observe(events)
    return detector.report(THRESHOLD)


@pytest.mark.xfail(
    strict=True,
    reason="known detector defect (issue #23): on this seed's day, as simulated since the "
    "replayer-4 rake rules, the honest pair pt-p0005/pt-p0009 scores 5.71 over THRESHOLD 5.5",
)
def test_planted_groups_are_found_and_no_honest_pair(
    population: tuple[list[list[dict]], DayManifest], report: CollusionReport
) -> None:
    _, manifest = population
    colluding = set()
    for group in manifest.collusion:
        members = sorted(group.players)
        colluding.update((a, b) for i, a in enumerate(members) for b in members[i + 1 :])
    suspected_pairs = {s.players for s in report.suspicions if s.subject.startswith("pair:")}
    assert suspected_pairs <= colluding, "an honest pair was flagged"
    for group in manifest.collusion:
        if len(group.players) == 2:
            assert tuple(sorted(group.players)) in suspected_pairs, group
        else:  # a soft-play ring: its most active pair at least (under 1,000 shared hands)
            members = set(group.players)
            assert any(set(pair) <= members for pair in suspected_pairs), group
    assert report.pairs_scored > 50


def test_findings_name_subject_rule_and_evidence(
    population: tuple[list[list[dict]], DayManifest], report: CollusionReport
) -> None:
    hands, _ = population
    hand_ids = {events[0]["hand_id"] for events in hands}
    findings = collusion_findings(report)
    assert len(findings) == len(report.suspicions) > 0
    for finding in findings:
        assert finding.kind is FindingKind.COLLUSION_SUSPECTED
        assert finding.subject.startswith(("pair:", "ring:"))
        assert any(key in finding.citation for key in ("GG-2022", "PT-217/2007", "MO-97/2010"))
        assert finding.recorded >= THRESHOLD
        evidence = finding.detail["evidence_hands"]
        assert evidence and set(evidence) <= hand_ids
    assert collusion_findings(report) == findings  # deterministic


def test_window_excludes_older_hands(population: tuple[list[list[dict]], DayManifest]) -> None:
    hands, _ = population
    detector = CollusionDetector(as_of=START - timedelta(days=1))
    for events in hands[:200]:
        detector.observe(events)
    assert detector.pairs == {}
    one_day = CollusionDetector(as_of=START, window_days=1)
    for events in hands:
        one_day.observe(events)
    assert max(p.n for p in one_day.pairs.values()) < max(
        p.n for p in detector_over(hands).pairs.values()
    )


def detector_over(hands: list[list[dict]]) -> CollusionDetector:
    detector = CollusionDetector(as_of=START + timedelta(days=DAYS - 1))
    for events in hands:
        detector.observe(events)
    return detector


def test_merged_shard_states_give_the_single_pass_report(
    population: tuple[list[list[dict]], DayManifest], report: CollusionReport
) -> None:
    """The night stores one state per shard and the window merges them (through JSON, as
    the store keeps them): the same pairs, counts, evidence and suspicions as one pass."""
    import orjson

    hands, _ = population
    merged = CollusionDetector(as_of=START + timedelta(days=DAYS - 1))
    for first in range(0, len(hands), 700):  # shards of 700 hands
        part = detector_over(hands[first : first + 700])
        merged.merge(orjson.loads(orjson.dumps(part.state())))
    single = detector_over(hands)
    assert sorted(merged.pairs) == sorted(single.pairs)
    for key, pair in single.pairs.items():
        other = merged.pairs[key]
        assert (other.n, other.faced, other.hu, other.venues) == (
            pair.n,
            pair.faced,
            pair.hu,
            pair.venues,
        )
        assert sorted(other.evidence) == sorted(pair.evidence)
        assert other.flow == pytest.approx(pair.flow, abs=1e-9)
    for first, second in zip(merged.scores(), single.scores(), strict=True):
        assert first.players == second.players
        assert first.score == pytest.approx(second.score, abs=1e-6)
    suspicions = merged.report().suspicions
    assert [s.subject for s in suspicions] == [s.subject for s in report.suspicions]
    assert [s.evidence for s in suspicions] == [s.evidence for s in report.suspicions]
