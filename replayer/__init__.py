"""Deterministic, pure re-adjudication of poker hands and the sessions across them,
banked rounds and their shoes, slot machines and tournaments.

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
and reports a slot machine's bad meter readings one finding each (issue 23). Version 6
judges across records (issue 38): poker table sessions (chips vanished between hands, the
button's rotation), shoes (their composition and last coup), tournaments across hands
(chip counts, eliminations, deals, sanctions, staking), the clock (GG-2022's time to act);
reads MO-97/2010 art.12(4) and art.10(3) and PT-217/2007 I.32-33 as written; judges a
PT hand's blinds and bets against the table's limits (n.º 19-20, 82-83), its showdown
order (n.º 62) and an early board card (n.º 110); and cites a winning banker's cagnotte
under I.2, I.45, I.47. Version 7 judges a slot machine's jackpot funding (PT-217/2007
III.3-6, III.8: slot schema v2's jackpot and approval records), a tournament's tables
across its hands (MO-97/2010 art.4(2): chips neither leave nor appear between hands or in
a move between tables) and a win-the-button tournament's button (PT-217/2007 n.º 124,
tournament schema v3).

Importing the package does nothing else: the check against a stale compiled build
(``replayer.compiled.check_sources``) is explicit, at the command line's start and in
``make test``.
"""

REPLAYER_VERSION = "7"
