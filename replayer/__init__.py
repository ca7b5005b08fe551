"""Deterministic, pure re-adjudication of poker hands, banked rounds and slot meters.

Imports nothing from ``audit`` or ``pipelines``. ``REPLAYER_VERSION`` is part of every
stored verdict: same events + same replayer version -> byte-identical findings.
Version 3 judges poker v3's FeeTaken, BoardRun and CashoutPaid (version 2 reported them
as unknown events); every other verdict is unchanged.
"""

REPLAYER_VERSION = "3"
