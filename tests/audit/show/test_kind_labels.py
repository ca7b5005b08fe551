"""Finding kinds in plain words (``audit.wording.labels``): one label per kind of the
replayer's vocabulary, each distinct, words not identifiers; an unknown kind reads as
its identifier, never as nothing."""

from __future__ import annotations

from audit.wording import KIND_LABELS, kind_label, subject_count
from replayer.findings import FindingKind


def test_every_finding_kind_has_its_own_plain_words_label() -> None:
    assert set(KIND_LABELS) == {kind.value for kind in FindingKind}
    labels = list(KIND_LABELS.values())
    assert len(set(labels)) == len(labels)
    for kind, label in KIND_LABELS.items():
        assert "_" not in label and label[0].isupper() and label != kind, label
    assert kind_label("mispaid_pot") == "Pot paid wrongly"


def test_an_unknown_kind_reads_as_its_identifier() -> None:
    assert kind_label("a_kind_from_a_newer_store") == "a_kind_from_a_newer_store"
    assert kind_label("") == "finding"


def test_subject_counts_in_words() -> None:
    assert subject_count("poker", 331) == "331 poker hands"
    assert subject_count("slots", 1) == "1 slot machine"
    assert subject_count("other", 2) == "2 other subjects"
