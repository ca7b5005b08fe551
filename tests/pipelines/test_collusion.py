"""The collusion detector on a seeded population with planted groups."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest

from audit.ingest.avro_files import read_events
from pipelines.detectors.collusion import (
    EARLY_THRESHOLD,
    MIN_HANDS,
    NOT_ENOUGH,
    NOT_SUSPECTED,
    SUSPECTED,
    THRESHOLD,
    CollusionDetector,
    CollusionReport,
    PairVerdict,
)
from pipelines.detectors.collusion_features import CARD_COUNTS, PairCounts, PlayerCounts
from pipelines.detectors.collusion_findings import collusion_findings
from replayer.findings import FindingKind
from simulate import DayManifest, generate_day
from simulate.demo import DEMO_COLLUDERS, DEMO_DAY, DEMO_HANDS, DEMO_SEED

START = date(2025, 3, 1)
GROUPS = [("chip_dumping", 2), ("soft_play", 2), ("whipsaw", 2), ("soft_play", 3)]
DAYS = 2
SEED = 5
#: Seeds of the several-seed proof: the first in every run, the others in the long tier.
SEEDS = [SEED, pytest.param(1, marks=pytest.mark.long)] + [
    pytest.param(seed, marks=pytest.mark.long) for seed in (2, 3, 4)
]
#: Planted groups the detector misses at these seeds, measured (docs/figures.md, *Collusion*):
#: soft play is the weakest method, a soft-playing pair shows only in the few pots they
#: alone contest (seed 4: 48 heads-up spots in 919 shared hands, score 3.4).
KNOWN_MISSES = {(4, "soft_play", 2)}


def read_hands(folder: Path, manifest: DayManifest) -> Iterator[list[dict]]:
    for name in manifest.input_files:
        hands: dict[str, list[dict]] = defaultdict(list)
        for event in read_events(folder / name):
            hands[event["hand_id"]].append(event)
        yield from hands.values()


def small_population(
    seed: int, base: Path, days: int = DAYS, **options: Any
) -> tuple[list[list[dict]], DayManifest]:
    """``days`` days of 2,500 hands at three tables (one per venue) and 45 players with
    the four planted ``GROUPS`` (or ``options``)."""
    hands: list[list[dict]] = []
    manifest = None
    settings: dict[str, Any] = {
        "hands": 2_500,
        "tables": 3,
        "players": 45,
        "colluders": GROUPS,
        **options,
    }
    for k in range(days):
        out = base / f"day{k}"
        manifest = generate_day(seed, START + timedelta(days=k), out=out, **settings)
        hands.extend(read_hands(out, manifest))
    assert manifest is not None
    return hands, manifest


@pytest.fixture(scope="module")
def population(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[list[dict]], DayManifest]:
    return small_population(SEED, tmp_path_factory.mktemp("population"))


@pytest.fixture(scope="module")
def report(population: tuple[list[list[dict]], DayManifest]) -> CollusionReport:
    hands, _ = population
    return detector_over(hands).report(THRESHOLD)


def planted_pairs(manifest: DayManifest) -> set[tuple[str, str]]:
    """Every pair of players planted in one group (the oracle: the simulator's manifest)."""
    return {
        (a, b)
        for group in manifest.collusion
        for i, a in enumerate(sorted(group.players))
        for b in sorted(group.players)[i + 1 :]
    }


@pytest.mark.parametrize("seed", SEEDS)
def test_planted_groups_are_found_and_no_honest_pair(
    seed: int, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Over several seeds: no honest pair is suspected; every chip-dumping and whipsaw
    pair is found; every soft-playing pair, and at least one pair of each soft-playing
    ring, is found except the measured ``KNOWN_MISSES``."""
    if seed == SEED:  # the module's population, shared with the tests below
        hands, manifest = request.getfixturevalue("population")
    else:
        hands, manifest = small_population(seed, tmp_path)
    report = detector_over(hands).report(THRESHOLD)
    colluding = planted_pairs(manifest)
    suspected_pairs = {s.players for s in report.suspicions if s.subject.startswith("pair:")}
    assert suspected_pairs <= colluding, "an honest pair was flagged"
    for group in manifest.collusion:
        members = set(group.players)
        found = any(set(pair) <= members for pair in suspected_pairs)
        expected = (seed, group.method, len(members)) not in KNOWN_MISSES
        assert found is expected, (seed, group)
    assert report.pairs_scored > 50
    assert all(s.shared_hands >= MIN_HANDS for s in report.suspicions)


def test_the_demo_day_finds_its_planted_pairs_and_accuses_no_honest_pair(
    tmp_path: Path,
) -> None:
    """The demo day (seed 7, its poker hands): its two planted pairs keep their seats all
    day, share enough hands to be judged (205 and 169) and are found; no honest pair is
    suspected."""
    manifest = generate_day(
        DEMO_SEED,
        DEMO_DAY,
        hands=DEMO_HANDS,
        out=tmp_path,
        colluders=DEMO_COLLUDERS,
        groups_stay=True,
        fault_rate=0.01,
    )
    detector = CollusionDetector(as_of=DEMO_DAY)
    for events in read_hands(tmp_path, manifest):
        detector.observe(events)
    report = detector.report()
    planted = sorted(g.subject for g in manifest.collusion)
    assert sorted(s.subject for s in report.suspicions) == planted
    verdicts = [detector.verdict(tuple(g.players)) for g in manifest.collusion]  # type: ignore[arg-type]
    assert [(v.verdict, v.still_needed) for v in verdicts] == [(SUSPECTED, 0), (SUSPECTED, 0)]
    assert all(v.shared_hands >= MIN_HANDS for v in verdicts)
    assert detector.verdict(("nobody", "else")) == PairVerdict(
        ("else", "nobody"), 0, MIN_HANDS, 0.0, NOT_ENOUGH, MIN_HANDS
    )


def test_a_pair_with_too_few_hands_is_not_judged_and_says_how_many_more(
    population: tuple[list[list[dict]], DayManifest],
) -> None:
    """Below ``MIN_HANDS`` shared hands (and short of the early look's score) a pair is
    neither accused nor cleared, and its verdict says how many more hands it needs."""
    hands, _ = population
    detector = detector_over(hands[:300])
    few = [key for key, pair in sorted(detector.pairs.items()) if pair.n < MIN_HANDS]
    assert few
    for key in few[:50]:
        verdict = detector.verdict(key)
        if verdict.verdict == NOT_ENOUGH:
            assert verdict.still_needed == MIN_HANDS - verdict.shared_hands > 0
        else:  # the early look: only a score far above any honest pair's
            assert verdict.verdict == SUSPECTED and verdict.score >= EARLY_THRESHOLD
    report = detector.report()
    assert all(v.shared_hands < MIN_HANDS for v in report.undecided)
    assert [v.score for v in report.undecided] == sorted(
        (v.score for v in report.undecided), reverse=True
    )
    assert all(v.score >= THRESHOLD and v.verdict == NOT_ENOUGH for v in report.undecided)


def test_a_pair_with_enough_hands_is_judged_either_way(
    population: tuple[list[list[dict]], DayManifest], report: CollusionReport
) -> None:
    hands, manifest = population
    detector = detector_over(hands)
    suspected = {s.players for s in report.suspicions}
    for key, pair in sorted(detector.pairs.items())[:400]:
        verdict = detector.verdict(key)
        if pair.n < MIN_HANDS:
            assert verdict.verdict == NOT_ENOUGH
        else:
            assert verdict.verdict == (SUSPECTED if key in suspected else NOT_SUSPECTED)
    assert planted_pairs(manifest) & suspected


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
        assert 0 < finding.detail["seated_together"] <= 1  # supporting, not scored
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


def test_merged_partition_states_give_the_single_pass_report(
    population: tuple[list[list[dict]], DayManifest], report: CollusionReport
) -> None:
    """The night stores one state per partition and the window merges them (through JSON, as
    the store keeps them): the same pairs, counts, evidence and suspicions as one pass."""
    import orjson

    hands, _ = population
    merged = CollusionDetector(as_of=START + timedelta(days=DAYS - 1))
    for first in range(0, len(hands), 700):  # parts of 700 hands
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


def test_a_state_stored_before_the_quiet_counts_still_merges(
    population: tuple[list[list[dict]], DayManifest],
) -> None:
    """A night's state stored before the heads-up pot counts (``hu_pots``, ``hu_quiet``)
    and the card counts were added still merges: the old values in their places, the new
    counts 0."""
    hands, _ = population
    single = detector_over(hands[:300])
    state = single.state()
    old_players = PlayerCounts.FIELDS.index("hu_pots")
    old_sides = PairCounts.SIDES.index(CARD_COUNTS[0])
    old = {
        "players": {pid: values[:old_players] for pid, values in state["players"].items()},
        "pairs": [
            [a, b, sums[:5], sides[:old_sides], *rest]
            for a, b, sums, sides, *rest in state["pairs"]
        ],
        "venues": state["venues"],
    }
    merged = CollusionDetector(as_of=START + timedelta(days=DAYS - 1))
    merged.merge(old)
    for key, pair in single.pairs.items():
        other = merged.pairs[key]
        assert (other.n, other.flow, other.faced, other.hu_pots) == (
            pair.n,
            pair.flow,
            pair.faced,
            0,
        )
    for pid, player in single.players.items():
        assert (merged.players[pid].hands, merged.players[pid].hu) == (player.hands, player.hu)
        assert merged.players[pid].hu_quiet == 0
        assert [getattr(merged.players[pid], name) for name in CARD_COUNTS] == [0] * len(
            CARD_COUNTS
        )
