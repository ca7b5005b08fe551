"""The one judging path: terms looked up by start time, verdict ids over every input,
and no stored subject that stops a replay."""

from __future__ import annotations

from datetime import timedelta

from audit.judging import Inputs, current_adjudications, gather, judge, replay, verdict_unit
from audit.store import SubjectRecords
from tests.poker_sim import EPOCH, HandBuilder


def _raked_hand(hand_id: str, rake: int) -> list[dict]:
    hand = HandBuilder(hand_id=hand_id, stacks={1: 1000, 2: 1000}, button=2)
    hand.post(2, "small_blind", 1).post(1, "big_blind", 2).hole(1, "As Ah").hole(2, "3c 4c")
    hand.act(2, "call", 1).act(1, "check").board("2c 7d 9h").act(1, "check").act(2, "check")
    hand.board("Jd").act(1, "check").act(2, "check").board("Ks").act(1, "check").act(2, "check")
    hand.show(1, "As Ah").show(2, "3c 4c")
    return hand.rake(rake).award(1, 4 - rake).end().events


def _terms(sequence: int, effective_days: int, max_bps: int) -> dict:
    at = EPOCH - timedelta(days=30) + timedelta(days=effective_days)
    return {
        "event_id": f"t#terms-{sequence}",
        "table_id": "t",
        "sequence": sequence,
        "occurred_at": at,
        "type": "TableTermsDeclared",
        "effective_from": at,
        "rulebook": "gg-2022-cash-holdem",
        "operator": "GGPoker",
        "currency": "EUR",
        "rake_min_bps": 0,
        "rake_max_bps": max_bps,
        "rake_cap": None,
        "rake_cap_big_blinds": None,
        "rake_cap_per": "hand",
        "no_flop_no_drop": False,
    }


def test_rake_without_declared_terms_is_a_finding_not_a_silent_judgement(store) -> None:
    store.append([SubjectRecords("poker", "t/1", _raked_hand("t/1", 1))])
    summary = replay(store)
    assert summary.findings == {"terms_missing": 1}


def test_the_terms_in_force_at_the_start_judge_the_hand(store) -> None:
    store.append([SubjectRecords("poker", "t/1", _raked_hand("t/1", 1))])
    store.append([SubjectRecords("table", "t", [_terms(0, 0, 2_500)])])
    assert replay(store).findings == {}
    # a later declaration, effective after the hand started, does not govern it
    store.append([SubjectRecords("table", "t", [_terms(1, 60, 0)])])
    assert replay(store).adjudications_stored == 1  # the table's own verdict only
    # one effective before the hand started does: a new, later verdict
    store.append([SubjectRecords("table", "t", [_terms(2, 10, 0)])])
    summary = replay(store)
    assert summary.findings == {"rake_rate_out_of_band": 1}  # one fault, one finding
    verdicts = [u for u in current_adjudications(store) if u["kind"] == "poker"]
    assert [u["terms_sequence"] for u in verdicts] == [2]


def test_the_verdict_id_covers_the_terms() -> None:
    events = _raked_hand("t/1", 1)
    bare = verdict_unit(Inputs("poker", "t/1", events), judge(Inputs("poker", "t/1", events)))
    termed = Inputs("poker", "t/1", events, terms=_terms(0, 0, 2_500))
    assert verdict_unit(termed, judge(termed)).subject_id != bare.subject_id


def test_an_unjudgeable_stored_subject_does_not_stop_the_replay(store) -> None:
    broken = HandBuilder(hand_id="t/0", stacks={1: 100}).events
    broken[0]["seats"] = []
    store.append([SubjectRecords("poker", "t/0", broken)])
    store.append([SubjectRecords("poker", "t/1", _raked_hand("t/1", 0))])
    summary = replay(store)
    assert summary.subjects["poker"] == 2
    assert set(summary.findings) <= {"data_quality", "invalid_deal"}
    inputs = gather(store, "poker", "t/0", store.records_of("poker", "t/0"))
    assert judge(inputs).findings


def test_a_declaration_outside_the_rulebook_is_a_finding_on_the_table() -> None:
    declared = {**_terms(0, 0, 600), "rulebook": "mo-97-2010-omaha", "rake_min_bps": 200}
    verdict = judge(Inputs("table", "t", [declared]))
    [finding, no_cap] = verdict.findings  # a declared band of 2-6%, and no cap at all
    assert no_cap.citation == "MO-97/2010 art.16" and "5 big blinds" in no_cap.reason
    assert finding.kind == "terms_outside_rulebook"
    assert finding.citation == "MO-97/2010 art.16"
    assert finding.expected == {"min_bps": 300, "max_bps": 500}
    assert finding.recorded == {"min_bps": 200, "max_bps": 600}


def test_a_declaration_narrows_the_rulebook_band_never_widens_it() -> None:
    from replayer.rulebooks.poker import RakeTerms
    from replayer.terms import rake_in_force

    law = RakeTerms(300, 500, cap_big_blinds=5)
    assert rake_in_force(law, RakeTerms(400, 400)) == RakeTerms(400, 400, cap_big_blinds=5)
    assert rake_in_force(law, RakeTerms(600, 700)) == law
    assert rake_in_force(None, RakeTerms(600, 700)) == RakeTerms(600, 700)
