"""Required refunds after a failure, by rule (pure functions, no I/O).

* ``cash.hand_at_failure``: a cash poker hand in flight is reverted, every stack back to
  its value at the start of the hand (GG-2022 Política de reembolso; MO-97/2010 art.9(2)
  and PT-217/2007 II n.º 69 for void hands);
* ``rounds.live_round_at_failure``: a live casino malfunction voids the round and every
  bet is returned (GG-2022 live II 2.1.8, III 2.1.5, IV 2.1.6);
* ``rounds.rng_round_at_failure``: an RNG casino bet is kept ``PENDING_BET_HOLD`` (24 h),
  then cancelled and refunded (GG-2022 casino 2).

Tournament cancellations are in ``replayer.tournaments``. Each rule returns ``Refund``
lines citing its article.
"""

from replayer.refunds.cash import HandAtFailure, hand_at_failure, hand_closed_at
from replayer.refunds.refund import Refund, totals
from replayer.refunds.rounds import (
    PENDING_BET_HOLD,
    RoundAtFailure,
    live_round_at_failure,
    rng_round_at_failure,
    round_closed_at,
)

__all__ = [
    "PENDING_BET_HOLD",
    "HandAtFailure",
    "Refund",
    "RoundAtFailure",
    "hand_at_failure",
    "hand_closed_at",
    "live_round_at_failure",
    "rng_round_at_failure",
    "round_closed_at",
    "totals",
]
