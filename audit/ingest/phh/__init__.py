"""PHH (Poker Hand History, phh-std) hands into the poker family's events, shaped like
``room_text``: ``reader`` splits a ``.phh``/``.phhs`` file into records, ``building``
turns a record into events, ``actions`` replays its ``actions``, ``cards``, ``money`` and
``time`` read its cards, amounts and start time (also for the rooms' text formats).
"""

from audit.ingest.notation.time import UNKNOWN_TIME
from audit.ingest.phh.building import hand_events, poker_event
from audit.ingest.phh.reader import PhhRecord, iter_phh_records

__all__ = ["UNKNOWN_TIME", "PhhRecord", "hand_events", "iter_phh_records", "poker_event"]
