"""The demo's collusion line is honest per planted group: found, missed, not enough shared
hands to judge, false alarm (``simulate.score.collusion_lines``)."""

from __future__ import annotations

from types import SimpleNamespace

from pipelines.detectors.collusion import NOT_ENOUGH, NOT_SUSPECTED, SUSPECTED, PairVerdict
from simulate.manifest import CollusionGroup
from simulate.score import collusion_lines

DUMPING = CollusionGroup("g01", "chip_dumping", ("gg-p0290", "gg-p0200"), 0.35)
SOFT = CollusionGroup("g02", "soft_play", ("mo-p0080", "mo-p0055"), 1.0)
RING = CollusionGroup("g03", "soft_play", ("pt-p0003", "pt-p0001", "pt-p0002"), 1.0)
MANIFEST = SimpleNamespace(collusion=[DUMPING, SOFT])
ALERT = "collusion_suspected"


def judge_with(**shared: tuple[int, float]):
    """A judge from ``a|b`` -> (shared hands, score), 100 hands needed, threshold 5.5."""

    def judge(players: tuple[str, str]) -> PairVerdict:
        n, score = shared.get("|".join(sorted(players)), (0, 0.0))
        word = NOT_ENOUGH if n < 100 else SUSPECTED if score >= 5.5 else NOT_SUSPECTED
        return PairVerdict(tuple(sorted(players)), n, 100, score, word)  # type: ignore[arg-type]

    return judge


def test_an_honest_pair_alerted_is_a_false_alarm_and_too_few_hands_is_no_verdict() -> None:
    found = [("pair:gg-p0011|gg-p0042", ALERT), ("t/1", "mispaid_pot")]
    judge = judge_with(**{"gg-p0200|gg-p0290": (10, 3.9), "mo-p0055|mo-p0080": (140, 1.7)})
    assert collusion_lines(MANIFEST, found, judge) == [  # type: ignore[arg-type]
        "collusion: 0 of 2 planted group(s) found, 1 missed, 1 with not enough shared hands "
        "to judge; 1 false alarm(s)",
        "  not enough shared hands to judge: pair:gg-p0200|gg-p0290 (chip dumping; "
        "gg-p0200|gg-p0290: 10 shared hands of 100 needed)",
        "  missed: pair:mo-p0055|mo-p0080 (soft play; mo-p0055|mo-p0080: score 1.70 over 140 "
        "shared hands)",
        "  false alarm: pair:gg-p0011|gg-p0042 (not planted)",
    ]


def test_a_planted_pair_found_is_found() -> None:
    found = [(SOFT.subject, ALERT)]
    judge = judge_with(**{"mo-p0055|mo-p0080": (300, 8.25)})
    lines = collusion_lines(MANIFEST, found, judge)  # type: ignore[arg-type]
    assert lines[0] == (
        "collusion: 1 of 2 planted group(s) found, 0 missed, 1 with not enough shared hands "
        "to judge; 0 false alarm(s)"
    )
    assert (
        "  found: pair:mo-p0055|mo-p0080 (soft play; mo-p0055|mo-p0080: score 8.25 over 300 "
        "shared hands)" in lines
    )


def test_a_pair_inside_a_planted_ring_finds_the_ring_and_is_no_false_alarm() -> None:
    found = [("pair:pt-p0001|pt-p0002", ALERT)]
    judge = judge_with(**{"pt-p0001|pt-p0002": (400, 7.0), "pt-p0002|pt-p0003": (200, 2.0)})
    lines = collusion_lines(SimpleNamespace(collusion=[RING]), found, judge)  # type: ignore[arg-type]
    assert lines[0].startswith("collusion: 1 of 1 planted group(s) found")
    assert lines[0].endswith("; 0 false alarm(s)")
    assert lines[1].startswith(
        "  found: ring:pt-p0001|pt-p0002|pt-p0003 (soft play, alerted as pair:pt-p0001|pt-p0002; "
    )
    assert "pt-p0001|pt-p0003: 0 shared hands of 100 needed" in lines[1]
