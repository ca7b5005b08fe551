"""Deterministic, pure re-adjudication of poker hands, banked rounds and slot meters.

Imports nothing from ``audit`` or ``pipelines``. ``REPLAYER_VERSION`` is part of every
stored verdict: same events + same replayer version -> byte-identical findings.
"""

REPLAYER_VERSION = "2"
