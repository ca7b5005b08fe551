"""Deterministic, pure re-adjudication of poker hands, banked rounds and slot meters.

Imports nothing from ``audit`` or ``pipelines``. ``REPLAYER_VERSION`` is part of every
stored verdict: same events + same replayer version -> byte-identical findings.
Version 3 judges poker v3's FeeTaken, BoardRun and CashoutPaid (version 2 reported them
as unknown events). Version 4 applies what real rooms' payouts show (issue 21): a GG-2022
cash pot's odd chip to the first winner left of the button (a named choice where the
text is silent), the rake's rate and cap on the hand's whole pot rounded once and shared
over the pots in proportion, a rake outside the rules one finding (the payouts judged on
the rake taken), GG-2022's tied-hands policy cited only where players tie, and a hand
whose source names ``none`` never judged by the period choice. Version 5 goes on with
real rooms' files (issue 21: how the rooms share a split pot and the rake over pots and
runs, tournament hands under tournament rules; poker v5's HouseMoneyAdded in the pot)
and reports a slot machine's bad meter readings one finding each (issue 23).

Importing the package checks that no compiled module (``replayer.compiled``) is older than
its source.
"""

from replayer.compiled import check_sources

REPLAYER_VERSION = "5"

check_sources()
