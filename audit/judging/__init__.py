"""Judging: the one path from stored events to a verdict, and replaying the store.

* ``kinds``: one ``SubjectKind`` record per kind of subject (its adjudicator, opening
  event, whether it is judged under declared terms and is its own table, its words in
  ``show``, the shape of a kind judged across others' ids): ``SUBJECT_KINDS``;
* ``inputs``: what one verdict depends on (``Inputs``);
* ``path``: a subject's inputs (its stored events, the table terms in force at its
  start, a satellite's stored target: ``gather``), its verdict (``judge``), the stored
  verdict unit (``verdict_unit``) and ``judge_stored``, which ``show`` and the console
  use; every verdict the project stores comes through it;
* ``replay``: every stored subject through that path (``replay``);
* ``audit.current`` (below judging, re-exported here): the one rule of which stored
  verdict of a subject is current (the latest stored: ``supersedes``), the one
  interface to it (``Verdicts``, by a scan of the store:
  ``StoreVerdicts``; the console's read model is the other), every current verdict and
  finding (``current_adjudications``, ``current_findings``, and ``finding_about``, who
  and what a finding row is about);
* ``batches``: the batched loop ``replay`` and the nightly share (``judged_batches``,
  ``VerdictWriter``);
* ``banker_runs``: chemin de fer banker runs, judged across a table's coups;
* ``table_sessions``: poker table sessions, judged across a table's consecutive hands.
* ``shoes``: a table's rounds dealt from one shoe, judged together.
"""

from audit.current import (
    KIND,
    StoreVerdicts,
    UnitKey,
    Verdicts,
    current_adjudications,
    current_findings,
    current_of,
    current_records,
    current_units,
    finding_about,
    latest,
    supersedes,
    unit_subject,
)
from audit.judging.banker_runs import banker_run_unit, is_coup, judge_banker_run
from audit.judging.batches import VerdictWriter, judged_batches
from audit.judging.inputs import Inputs
from audit.judging.kinds import (
    BANKER_RUN,
    SHOE,
    STORED_KINDS,
    SUBJECT_KINDS,
    TABLE_SESSION,
    EvidencePart,
    SubjectKind,
    judged_across,
    subject_kind,
)
from audit.judging.kinds.shoe import rounds_of_shoe
from audit.judging.path import (
    REPLAY_KINDS,
    TermsBook,
    adjudication_record,
    adjudication_unit,
    context,
    findings_json,
    gather,
    judge,
    judge_stored,
    opening,
    started_at,
    started_on,
    verdict_record,
    verdict_unit,
)
from audit.judging.replay import ReplaySummary, replay
from audit.judging.shoes import ShoeKey, judge_shoe, shoe_of, shoe_subject, shoes_of_rounds
from audit.judging.table_sessions import judge_table_sessions

__all__ = [
    "BANKER_RUN",
    "KIND",
    "REPLAY_KINDS",
    "SHOE",
    "STORED_KINDS",
    "SUBJECT_KINDS",
    "TABLE_SESSION",
    "EvidencePart",
    "Inputs",
    "ReplaySummary",
    "ShoeKey",
    "StoreVerdicts",
    "SubjectKind",
    "TermsBook",
    "UnitKey",
    "VerdictWriter",
    "Verdicts",
    "adjudication_record",
    "adjudication_unit",
    "banker_run_unit",
    "context",
    "current_adjudications",
    "current_findings",
    "current_of",
    "current_records",
    "current_units",
    "finding_about",
    "findings_json",
    "gather",
    "is_coup",
    "judge",
    "judge_banker_run",
    "judge_shoe",
    "judge_stored",
    "judge_table_sessions",
    "judged_across",
    "judged_batches",
    "latest",
    "opening",
    "replay",
    "rounds_of_shoe",
    "shoe_of",
    "shoe_subject",
    "shoes_of_rounds",
    "started_at",
    "started_on",
    "subject_kind",
    "supersedes",
    "unit_subject",
    "verdict_record",
    "verdict_unit",
]
