"""A table's declarations (``table_id``): each ``TableTermsDeclared`` checked against the
rulebook it names by ``replayer.terms.adjudicate_table`` (MO-97/2010 art.16, GG-2022 live
II 2.2); judged whatever their dates, since they govern later subjects."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from audit.judging.inputs import Inputs
from audit.judging.kinds.record import Shown, SubjectKind
from audit.show.common import declared_setting
from audit.show.model import Line
from audit.show.records import table_body
from audit.wording.labels import RULEBOOK_LEFT_TO_SUBJECTS
from replayer.terms import TableVerdict, adjudicate_table
from replayer.verdict import Verdict


def _adjudicate(inputs: Inputs, with_steps: bool) -> TableVerdict:
    return adjudicate_table(inputs.events)


def _story(
    inputs: Inputs, verdict: Verdict, about: Mapping[str, Any], numbers: Mapping[str, int]
) -> tuple[Line, ...]:
    """The table's declarations in order (``audit.show.records``)."""
    return tuple(table_body(verdict, inputs.events, numbers))


TABLE = SubjectKind[TableVerdict](
    "table",
    _adjudicate,
    None,
    title="TABLE DECLARATIONS",
    noun="table declarations",
    own_table=True,
    undated=True,
    no_rulebook=RULEBOOK_LEFT_TO_SUBJECTS,
    shown=Shown(_story, setting=declared_setting),
)
