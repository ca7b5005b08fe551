"""Every subject of a kind with its records, a batch at a time, each row inflated once.

Replay reads every subject of a kind in the order first stored. It used to list the
subjects from their ``Opened`` events (a page of the opening rows, each packed one
inflated whole for its first event) and then read the same subjects' rows again by id,
inflating them a second time. Here a page of opening rows is read once: a subject's
opening row names it (its ``Opened`` event, first in an opening pack, or a row of its
own in a store written per event) and, packed, holds the events stored with it (a
Pluribus hand: all of them); only the rows that start after version 1 (a later append,
or a store written per event) are read by id, for the page's subjects.

What comes out is what ``iter_record_batches(kind, iter_subject_ids(kind))`` gave: per
page, (subject id, records from version ``FIRST_RECORD_VERSION`` on, in version order)
for each subject with at least one record, in the order the subjects were first stored.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from eventsourcing.utils import get_topic

from audit.collector import collector_paused
from audit.store.chain import originator_hex
from audit.store.packing import is_packed, marker, unpack
from audit.store.recording import ChainedRecorder
from audit.store.subjects import FIRST_RECORD_VERSION, SUBJECT_CLASSES

Batch = list[tuple[str, list[dict[str, Any]]]]


def subject_batches(
    recorder: ChainedRecorder,
    subject_id: Callable[[bytes], str],
    decode: Callable[[bytes], dict[str, Any]],
    kind: str,
    batch: int,
) -> Iterator[Batch]:
    """(subject id, records) of every ``kind`` subject with records, ``batch`` subjects a
    page (``subject_id``: an ``Opened`` state's subject id; ``decode``: a stored record)."""
    topics = [get_topic(SUBJECT_CLASSES[kind].Opened), marker(kind, True)]
    start = 1
    while True:
        rows = recorder.select_rows(start, batch, topics)
        if not rows:
            return
        with collector_paused():
            yield _page(recorder, subject_id, decode, rows)
        start = rows[-1].id + 1


def _page(
    recorder: ChainedRecorder,
    subject_id: Callable[[bytes], str],
    decode: Callable[[bytes], dict[str, Any]],
    rows: Any,
) -> Batch:
    """The subjects of a page of opening rows, with their records."""
    subjects: list[tuple[str, str]] = []
    found: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        key = originator_hex(row.originator_id)
        if is_packed(row.topic):
            events = unpack(row.originator_id, row.originator_version, bytes(row.state))
            opened = events[0][2]
            found[key] = [decode(state) for _, _, state in events[1:]]
        else:
            opened = row.state
            found[key] = []
        subjects.append((key, subject_id(opened)))
    later = recorder.states_of(list(found), FIRST_RECORD_VERSION, FIRST_RECORD_VERSION)
    for key, _, state in later:
        found[key].append(decode(state))
    return [(subject, found[key]) for key, subject in subjects if found[key]]
