"""The demo's collusion line is honest per planted group: found, missed, false alarm."""

from __future__ import annotations

from types import SimpleNamespace

from pipelines.simulate.manifest import CollusionGroup
from pipelines.simulate.score import collusion_lines

DUMPING = CollusionGroup("g01", "chip_dumping", ("gg-p0290", "gg-p0200"), 0.35)
SOFT = CollusionGroup("g02", "soft_play", ("mo-p0080", "mo-p0055"), 1.0)
MANIFEST = SimpleNamespace(collusion=[DUMPING, SOFT])


def test_an_honest_pair_alerted_is_a_false_alarm_not_a_find() -> None:
    found = [("pair:gg-p0011|gg-p0042", "collusion_suspected"), ("t/1", "mispaid_pot")]
    assert collusion_lines(MANIFEST, found) == [  # type: ignore[arg-type]
        "collusion: 0 of 2 planted group(s) found, 1 false alarm(s)",
        "  missed: pair:gg-p0200|gg-p0290 (chip dumping)",
        "  missed: pair:mo-p0055|mo-p0080 (soft play)",
        "  false alarm: pair:gg-p0011|gg-p0042 (not planted)",
    ]


def test_a_planted_pair_found_is_found() -> None:
    found = [(SOFT.subject, "collusion_suspected")]
    lines = collusion_lines(MANIFEST, found)  # type: ignore[arg-type]
    assert lines[0] == "collusion: 1 of 2 planted group(s) found, 0 false alarm(s)"
    assert "  found: pair:mo-p0055|mo-p0080 (soft play)" in lines
