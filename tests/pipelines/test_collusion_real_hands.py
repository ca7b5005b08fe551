"""Real players as honest play: the 10,000 public Pluribus hands (six-max no-limit
hold'em, Pluribus against professionals who met again and again) raise no collusion
suspicion. The archive is ``../shared/data/phh/pluribus-2019.tar.gz`` beside the clone
(the test skips, saying where it looked, when it is absent)."""

from __future__ import annotations

import tarfile
from collections import Counter
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from audit.ingest.phh import hand_events, iter_phh_records
from pipelines.detectors.collusion import MIN_HANDS, CollusionDetector
from pipelines.detectors.collusion_cards import FOLDS_AHEAD, STRONG_CHECKS, card_spots

ARCHIVE = Path(__file__).resolve().parents[3] / "shared" / "data" / "phh" / "pluribus-2019.tar.gz"


def judged(root: Path) -> tuple[list[list[dict[str, Any]]], CollusionDetector]:
    """Every hand of the PHH files under ``root``, and a detector over all of them (its
    window the hands' days)."""
    hands = [
        hand_events(record)
        for path in sorted(root.rglob("*.phh"))
        for record in iter_phh_records(path)
    ]
    days = sorted({events[0]["occurred_at"].date() for events in hands})
    detector = CollusionDetector(
        as_of=days[-1], window_days=(days[-1] - days[0] + timedelta(days=1)).days
    )
    for events in hands:
        detector.observe(events)
    return hands, detector


@pytest.mark.long
def test_real_professionals_raise_no_collusion_suspicion(tmp_path: Path) -> None:
    """No pair or ring of the Pluribus hands is suspected; most pairs share enough hands
    to be judged, so the silence is a verdict, not a lack of data."""
    if not ARCHIVE.is_file():
        pytest.skip(f"public hand histories not found at {ARCHIVE}")
    with tarfile.open(ARCHIVE) as tar:
        tar.extractall(tmp_path, filter="data")
    hands, detector = judged(tmp_path)
    report = detector.report()
    assert len(hands) == 10_000
    assert report.pairs_scored >= 50
    assert sum(p.n >= MIN_HANDS for p in detector.pairs.values()) == report.pairs_scored
    assert report.suspicions == []


def test_the_vendored_real_hands_are_read_with_their_cards_and_accuse_nobody(
    phh_sample: Path,
) -> None:
    """The sample of real hands on every clone (56 Pluribus hands, every hole card known;
    omaha and other games beside them): the detector reads the hold'em hands' cards (its
    card spots are there) and suspects nobody, nor lists anybody as undecided above the
    threshold (no pair shares 100 hands here, and no early look reaches 10)."""
    hands, detector = judged(phh_sample)
    spots = Counter((spot, done) for events in hands for _, _, spot, done in card_spots(events))
    # measured: 51 made hands ahead heads-up when checked to, 19 bet; 4 river bets faced
    # with the better hand, none folded
    assert spots == {
        (STRONG_CHECKS, False): 32,
        (STRONG_CHECKS, True): 19,
        (FOLDS_AHEAD, False): 4,
    }
    report = detector.report()
    assert report.suspicions == [] and report.undecided == []
