"""A table's declarations (``table_id``): each ``TableTermsDeclared`` checked against the
rulebook it names by ``replayer.terms.adjudicate_table`` (MO-97/2010 art.16, GG-2022 live
II 2.2); judged whatever their dates, since they govern later subjects."""

from __future__ import annotations

from audit.judging.inputs import Inputs
from audit.judging.kinds.record import SubjectKind
from audit.wording.labels import RULEBOOK_LEFT_TO_SUBJECTS
from replayer.terms import TableVerdict, adjudicate_table


def _adjudicate(inputs: Inputs, with_steps: bool) -> TableVerdict:
    return adjudicate_table(inputs.events)


TABLE = SubjectKind[TableVerdict](
    "table",
    _adjudicate,
    None,
    title="TABLE DECLARATIONS",
    noun="table declarations",
    own_table=True,
    undated=True,
    no_rulebook=RULEBOOK_LEFT_TO_SUBJECTS,
)
