"""Findings in words: one sentence an inspector can act on, and who is owed what.

Input is a *finding row*: the stored finding record (``finding_id, kind, subject,
citation, reason, expected, recorded, difference, detail``; ``Finding.to_record``) plus
the context the store adds (``audit.judging.current_findings``): ``subject_kind``,
``currency`` (ISO 4217, ``XXX`` for chips, or None), ``table``, ``players`` (poker: seat
number as a string -> player id), ``operator``, ``rulebook``, ``started_at``. A row
without the context keys (older callers) works: a missing key counts as None (``{}`` for
``players``); amounts are then written in minor units and seats without names.

Money is always written by ``audit.notation.money.format_money``; the functions here never turn
an amount into a float.

Modules: ``rows`` (reading a row), ``owed`` (who is owed what, the sign convention and
counting once), ``sentences`` (a finding in words), ``labels`` (a kind in plain
words); the escaping for terminal, CSV and shell is ``audit.notation.escape`` (re-exported
here), which the store uses too.
"""

from audit.notation.escape import csv_safe, multiline_safe, show_command, terminal_safe
from audit.wording.labels import KIND_LABELS, kind_label, meter_label, subject_count
from audit.wording.owed import Owed, OwedTotals, Sums, owed, owed_totals
from audit.wording.rows import NO_OPERATOR, operator_name, player_named
from audit.wording.sentences import sentence

__all__ = [
    "KIND_LABELS",
    "NO_OPERATOR",
    "Owed",
    "OwedTotals",
    "Sums",
    "csv_safe",
    "kind_label",
    "meter_label",
    "multiline_safe",
    "operator_name",
    "owed",
    "owed_totals",
    "player_named",
    "sentence",
    "show_command",
    "subject_count",
    "terminal_safe",
]
