"""One ``SubjectKind`` record per kind (issue 42 item 1): checked against what the judging
path does not own (the families' Avro schemas, the replayer's own entry points), and with
the kinds judged across others (a shoe, a banker run) through their records."""

from __future__ import annotations

from dataclasses import fields

import pytest

from audit.families import FAMILIES
from audit.judging import (
    BANKER_RUN,
    SHOE,
    STORED_KINDS,
    SUBJECT_KINDS,
    TABLE_SESSION,
    Inputs,
    judge,
    judge_shoe,
    judged_across,
    shoe_of,
)
from replayer.casino.shoes import check_shoe
from tests.replayer.casino.test_casino_shoes import dealt_shoe


def test_every_stored_kind_is_a_family_and_opens_with_one_of_its_record_types() -> None:
    assert STORED_KINDS == ("poker", "banked", "slots", "tournament", "table")
    for name in STORED_KINDS:
        record = SUBJECT_KINDS[name]
        if record.opening is not None:
            assert record.opening in FAMILIES[name].record_names, name


def test_the_kinds_judged_across_others_are_named_by_the_shape_of_their_id() -> None:
    assert judged_across("table:T1") == (BANKER_RUN,)
    assert judged_across("T1@h-1") == (TABLE_SESSION,)
    assert judged_across("shoe:T1:S1") == (SHOE,)
    assert judged_across("h-1") == ()
    assert not set(STORED_KINDS) & {BANKER_RUN, TABLE_SESSION, SHOE}


def test_a_shoe_judged_through_its_record_is_the_replayer_s_verdict() -> None:
    rounds = dealt_shoe("punto_banco")
    key = shoe_of(rounds[0])
    assert key is not None
    inputs, verdict = judge_shoe(key, rounds)
    assert inputs.kind == SHOE and inputs.subject == f"shoe:{key[0]}:{key[1]}"
    assert verdict == check_shoe(rounds)
    assert isinstance(verdict.findings, tuple)


@pytest.mark.parametrize("kind", STORED_KINDS)
def test_every_kind_s_verdict_has_its_findings_as_a_tuple(kind: str) -> None:
    verdict = judge(Inputs(kind, "x", [{"type": "Nothing", "sequence": 1}]))
    assert isinstance(verdict.findings, tuple)
    if SUBJECT_KINDS[kind].opening is not None:  # no opening event: a finding says so
        assert verdict.findings, kind
    assert {f.name for f in fields(verdict)} >= {"findings", "rulebook_id"}


def test_a_kind_the_registry_does_not_hold_is_unjudgeable_never_an_exception() -> None:
    [finding] = judge(Inputs("no_such_kind", "x", [{"type": "Nothing"}])).findings
    assert finding.kind == "data_quality" and "no_such_kind" in finding.reason


def test_a_kind_judged_across_others_names_what_feeds_it_and_its_bundle_part() -> None:
    """Replay groups the stored subjects a kind judged across others is judged over by its
    record's ``feed``; its evidence bundle's inputs come from its record too."""
    for name, kind in SUBJECT_KINDS.items():
        across = kind.across is not None
        assert (kind.feed is not None, kind.evidence is not None) == (across, across), name
        if kind.feed is not None:
            assert kind.feed.kind in STORED_KINDS
    rounds = dealt_shoe("punto_banco")
    shoe = SUBJECT_KINDS[SHOE].feed
    assert shoe is not None
    assert {shoe.group(r) for r in rounds} == {str(rounds[0][0]["table_id"])}
    run = SUBJECT_KINDS[BANKER_RUN].feed
    assert run is not None and run.group(rounds[0]) is None  # a baccarat round is no coup
    coup = [{**rounds[0][0], "game": "chemin_de_fer"}, *rounds[0][1:]]
    assert run.group(coup) == str(rounds[0][0]["table_id"])
