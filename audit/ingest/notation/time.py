"""When a PHH hand started, as a timezone-aware UTC datetime.

PHH optional fields (phh-std ``optional.rst``, "Time", "Time Zone", "Day", "Month",
"Year"): ``year``/``month``/``day``, a local ``time`` (``HH:MM:SS``), and the zone in
``time_zone`` (IANA) or ``time_zone_abbreviation``. Our user field ``_time`` (ISO 8601
with a UTC offset) overrides them all. PHH has no per-action times, so every event of a
hand carries this start time.

Approximations are reported as notes, which end up in ``HandStarted.source``:

* no year: ``UNKNOWN_TIME`` and "time unknown";
* year without month or day: the first day of the period, "date approximate";
* date without ``time``: midnight UTC of that date (the UTC date is the recorded date),
  "time of day unknown";
* ``time`` without a zone while ``city``, ``region`` and ``country`` are all given: the
  spec means the venue's local zone, which we cannot look up: UTC, "time zone assumed UTC".
"""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from audit.ingest.errors import FieldError

#: Start time of a hand whose PHH record has no date at all.
UNKNOWN_TIME = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)

#: Fixed UTC offsets (hours) of the time zone abbreviations we accept.
ZONE_ABBREVIATIONS: dict[str, float] = {
    "UTC": 0,
    "GMT": 0,
    "BST": 1,
    "CET": 1,
    "CEST": 2,
    "EET": 2,
    "EEST": 3,
    "HKT": 8,
    "CST": -6,
    "CDT": -5,
    "EST": -5,
    "EDT": -4,
    "MST": -7,
    "MDT": -6,
    "PST": -8,
    "PDT": -7,
    "JST": 9,
    "KST": 9,
    "AEST": 10,
    "AEDT": 11,
}

_LOCATION_FIELDS = ("city", "region", "country")


def start_time(fields: dict[str, Any]) -> tuple[dt.datetime, list[str]]:
    """Return the hand's UTC start time and the notes on how approximate it is."""
    try:
        return _start_time(fields)
    except OverflowError:  # a date at the edge of the calendar, moved across midnight
        field = "_time" if "_time" in fields else "time"
        raise FieldError(field, "the start time in UTC falls outside years 1..9999") from None


def _start_time(fields: dict[str, Any]) -> tuple[dt.datetime, list[str]]:
    if "_time" in fields:
        return _user_time(fields["_time"]), []
    year = _integer_field(fields, "year")
    if year is None:
        return UNKNOWN_TIME, ["time unknown"]
    date, notes = _date(year, fields)
    local_time = fields.get("time")
    if local_time is None:
        midnight = dt.datetime.combine(date, dt.time(), tzinfo=dt.UTC)
        return midnight, [*notes, "time of day unknown"]
    zone, zone_notes = _zone(fields)
    local = dt.datetime.combine(date, _time_of_day(local_time), tzinfo=zone)
    return local.astimezone(dt.UTC), notes + zone_notes


def _user_time(value: Any) -> dt.datetime:
    """Our ``_time`` field: ISO 8601 text or TOML offset date-time, offset required."""
    if isinstance(value, str):
        try:
            value = dt.datetime.fromisoformat(value)
        except ValueError:
            raise FieldError("_time", f"{value!r} is not an ISO 8601 date-time") from None
    if not isinstance(value, dt.datetime) or value.utcoffset() is None:
        raise FieldError("_time", f"{value!r} is not a date-time with a UTC offset")
    return value.astimezone(dt.UTC)


def _integer_field(fields: dict[str, Any], name: str) -> int | None:
    """The PHH field ``name`` if given: an integer (not a boolean), or FieldError."""
    value = fields.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise FieldError(name, f"{value!r} is not an integer")
    return value


def _date(year: int, fields: dict[str, Any]) -> tuple[dt.date, list[str]]:
    """PHH ``year`` with ``month`` and ``day``; a missing month or day means the period start."""
    month = _integer_field(fields, "month")
    day = _integer_field(fields, "day")
    notes = []
    if month is None or day is None:
        notes.append("date approximate")
        day = 1
    month = month or 1
    if not dt.MINYEAR <= year <= dt.MAXYEAR:
        raise FieldError("year", f"year {year} is out of range")
    if not 1 <= month <= 12:
        raise FieldError("month", f"month {month} is not in 1..12")
    try:
        return dt.date(year, month, day), notes
    except (ValueError, OverflowError) as error:
        raise FieldError("day", f"no such date: {error}") from None


def _time_of_day(value: Any) -> dt.time:
    """PHH ``time``: a TOML local time, or the same as ``HH:MM:SS`` text."""
    if isinstance(value, dt.time) and value.tzinfo is None:
        return value
    if isinstance(value, str):
        try:
            return dt.time.fromisoformat(value)
        except ValueError:
            pass
    raise FieldError("time", f"{value!r} is not a local time HH:MM:SS")


def _zone(fields: dict[str, Any]) -> tuple[dt.tzinfo, list[str]]:
    """PHH ``time_zone`` (IANA) else ``time_zone_abbreviation`` else UTC."""
    name = fields.get("time_zone")
    if name is not None:
        try:
            return ZoneInfo(name), []
        except (ZoneInfoNotFoundError, ValueError, TypeError):
            raise FieldError("time_zone", f"{name!r} is not an IANA time zone") from None
    abbreviation = fields.get("time_zone_abbreviation")
    if abbreviation is not None:
        if not isinstance(abbreviation, str) or abbreviation not in ZONE_ABBREVIATIONS:
            raise FieldError(
                "time_zone_abbreviation",
                f"unknown time zone abbreviation {abbreviation!r}: use time_zone (IANA) "
                "or _time instead",
            )
        return dt.timezone(dt.timedelta(hours=ZONE_ABBREVIATIONS[abbreviation])), []
    if all(fields.get(name) for name in _LOCATION_FIELDS):
        return dt.UTC, ["time zone assumed UTC"]
    return dt.UTC, []
