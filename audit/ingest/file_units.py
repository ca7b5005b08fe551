"""One input file into the ingest's units: the reader its suffix names, never a traceback.

``units_of`` yields every unit (a PHH hand, a run of one subject's Avro records, a room
text hand) or rejection a file holds: PHH (``audit.ingest.phh``), Avro
(``audit.ingest.avro_files``) or room text (``audit.ingest.room_text``) by suffix
(``audit.ingest.sources``); a path that is no regular file, or of another suffix, is one
rejection. ``safe_units`` turns a failure of the reader itself into one rejection for the
rest of the file, and a unit whose conversion raises anything is quarantined alone
(``internal_error``): no input stops an ingest (``audit.ingest.pipeline``).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator, Sequence
from pathlib import Path

from audit.ingest.avro_files import iter_avro_units
from audit.ingest.errors import FieldError, RecordRejected, cap
from audit.ingest.invariants import check_widths
from audit.ingest.limits import Limits
from audit.ingest.phh import hand_events, iter_phh_records
from audit.ingest.room_text.reader import iter_text_units
from audit.ingest.rulebook_choice import rulebook_for
from audit.ingest.sources import AVRO_SUFFIXES, PHH_SUFFIXES, TEXT_SUFFIXES
from audit.store import SubjectRecords


def _phh_units(
    path: Path, rulebooks: Sequence[str], limits: Limits
) -> Iterator[SubjectRecords | RecordRejected]:
    for item in iter_phh_records(path, limits):
        if isinstance(item, RecordRejected):
            yield item
            continue
        try:
            # a PHH file writes no tournament: its hands are cash hands
            default = rulebook_for(rulebooks, str(item.fields.get("variant")), tournament=False)
            events = hand_events(item, default_rulebook=default, limits=limits)
            for event in events:  # the conversion checked the rest; widths are the schema's
                check_widths("poker", event)
        except RecordRejected as rejected:
            yield rejected
            continue
        except FieldError as error:  # an event out of range after conversion
            field_name = f"event {event['sequence']} ({event['type']}).{error.field}"
            yield RecordRejected(path, item.position, field_name, error.reason, item.raw)
            continue
        except Exception as error:  # whatever else this hand raises is its own problem
            yield internal_error(path, item.position, error, item.raw)
            continue
        yield SubjectRecords(
            "poker", events[0]["hand_id"], events, source=str(path), position=item.position
        )


def internal_error(
    path: Path | str, position: str, error: BaseException, raw: str
) -> RecordRejected:
    """A unit whose conversion raised ``error``: quarantined alone, with the error."""
    return RecordRejected(
        path,
        position,
        "(record)",
        f"could not be converted: {type(error).__name__}: {cap(str(error), 500)}",
        raw,
    )


def units_of(
    path: Path,
    rulebooks: Sequence[str] = (),
    limits: Limits | None = None,
    header_zone: str | None = None,
) -> Iterator[SubjectRecords | RecordRejected]:
    """Every unit or rejection one file yields (``header_zone``: ``ingest``'s). A path
    that is not a regular file (a FIFO, a socket, a device: opening a FIFO would wait for
    a writer for ever) is one rejection, never opened."""
    limits = limits or Limits.from_env()
    if _not_regular(path):
        yield RecordRejected(
            path,
            "file",
            "(file)",
            "not a regular file (a FIFO, socket or device): not read",
            "",
        )
    elif path.suffix in PHH_SUFFIXES:
        yield from _phh_units(path, rulebooks, limits)
    elif path.suffix in AVRO_SUFFIXES:
        yield from iter_avro_units(path, rulebooks=rulebooks, limits=limits)
    elif path.suffix in TEXT_SUFFIXES:
        yield from iter_text_units(path, rulebooks, limits, header_zone=header_zone)
    else:
        yield RecordRejected(
            path,
            "file",
            "(name)",
            f"unsupported file type {path.suffix or '(none)'}: expected .avro/.phh/.phhs/.txt",
            "",
        )


def _not_regular(path: Path) -> bool:
    """Whether ``path`` (its symlink followed) exists and is no regular file."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False  # missing or unreadable: the reader says which


def safe_units(
    path: Path, rulebooks: Sequence[str], limits: Limits, header_zone: str | None
) -> Iterator[SubjectRecords | RecordRejected]:
    """``units_of``, with a failure of the reader itself (an unreadable file, anything a
    reader did not catch) turned into one rejection for the rest of the file."""
    items = units_of(path, rulebooks, limits, header_zone)
    read = 0
    while True:
        try:
            item = next(items)
        except StopIteration:
            return
        except Exception as error:
            where = "file" if not read else f"after unit {read} of the file"
            yield RecordRejected(
                path,
                where,
                "(file)",
                f"reading stopped: {type(error).__name__}: {cap(str(error), 500)}; the rest "
                "of the file is not read",
                "",
            )
            return
        read += 1
        yield item
