"""GGPoker operational rules ("house rules"), updated 2022-09-28: online cash games and
tournaments (``TOURNAMENT_HOLDEM``, ``TOURNAMENT_OMAHA``, below the cash books).

Source: ``regulations/ggpoker-house-rules-2022.pt.txt``. In force from 2022-09-28 00:00
UTC (the copy gives a date only; no time zone). The house rules leave the game rules
themselves to the game pages; what they do say:

* tied hands: kickers decide, exact ties split the pot equally (Política de mãos atadas);
* the odd chip of a split cash pot: the copy is silent. Its only rounding sentence, "os
  jogadores não receberão frações de centavos ... $4.096 -> $4.09", sits in the
  tournament-prize section (Política de concessão de prêmios de torneios) and speaks of
  a player's prize, not a cash pot. The room's own cash histories pay the odd cent to the
  first winner left of the button, so that is the open choice made here
  (``OddChip.FIRST_WINNER_LEFT_OF_BUTTON``, ``CASH_ODD_CHIP``), named and cited as a
  choice, not as the text's rule;
* rake per pot, rate and cap on each game's page (Política de taxas e de ancinho), not in
  the copy: no default terms, declare them per table. How a hand's rake is shared over
  its side pots is not said either, and none of the room's cash histories read here has
  a side pot (each prints one ``collected ... from pot`` per winner). The open choice is
  the running total (``RakeSplit.RUNNING_TOTAL``, ``CASH_RAKE_SPLIT``): the main pot
  raked first at the rate, each side pot what the rate on the pots so far adds, until
  the hand's rake is taken. It is the one rule every real record with side pots fits
  (PokerStars' net side pots: 5% of $3.70 as $0.12, $0.05, $0.01, and a capped $0.30
  over $3.15 and $3.58 as $0.15 and $0.15, where a proportional share is $0.14, $0.16);
* fees other than rake (the "Jackpot", "Bingo", "Fortune", "Tax" of a hand's summary,
  ``FeeTaken``): not mentioned; the policy leaves the commission to each game's page. No
  default fee terms (``fees=None``): declare them per table; a fee taken without them is
  ``terms_missing``. The fee is not rake: a rake cap bounds the rake alone;
* boards run more than once after an all-in (run it twice), EV cash-out and all-in
  insurance: not mentioned. The room's own histories divide the pot between the runs in
  whole cents, the odd cent to the first run ($97.85 net run twice: $48.93 to the first
  run's winner, $48.92 to the second's, although the second's is the first winner left of
  the button), so that is the open choice made here (``RunShare.FIRST_RUN_ODD_UNIT``,
  ``CASH_RUN_SHARE``); within a run the tied-hands policy and the odd-chip choice above
  settle each player's share (``runs.split_runs``); a cash-out is paid by the house
  outside the pot and settles nothing of it;
* missed blinds: dead small blind, live big blind + dead small blind (Apostas perdidas);
* server failure: cash hands are reverted, stacks reset to the start (Política de reembolso);
* a big blind all-in for less: not mentioned; the bet to match stays the whole big blind,
  the open choice ``ShortBlind.FULL_BLIND`` (``CASH_SHORT_BLIND``), as the real
  histories read play it (PokerStars'; no GG history read has a short blind).

Silent (standard online rules applied): first to act after the flop is the first active
player left of the button, minimum raise = previous bet or raise, pot-limit maximum = pot
after calling, no raise cap, heads-up the button posts the small blind.

Tournaments (Política de torneios and the sections after it) are played for chips
(``HandStarted.currency`` ``CHIPS``, one chip a unit). What the copy says of a
tournament hand, and what these books make of it:

* no rake: "Nos torneios, a GGPoker não cobra rake, mas normalmente cobra uma taxa de
  torneio" (Política de taxas e de ancinho): the house's fee is in the buy-in, so a
  tournament pot pays no rake (``RakeTerms`` 0 bps) and no other fee (``FeeTerms`` with
  no kind): every chip put in is paid back to the players;
* blinds and antes: the levels are the lobby's (Política de torneios); blinds and antes
  are posted for every player dealt in, present or not (Política de desconexões), and a
  player moved to another table may post several big blinds in a row (Política de
  eliminação de torneios). The blinds judged are those the hand's table posted (the
  importer reads them so: a table moves to a new level from its next deal);
* the odd chip of a split tournament pot: the copy is silent. "Os jogadores não
  receberão frações de centavos" (Política de concessão de prêmios de torneios) speaks
  of a player's prize money, in cents, not of chips in a pot. The room's tournament
  histories read (2020) show no split pot with an odd chip; its cash histories pay the
  odd cent to the first winner left of the button, so that is the open choice
  (``TOURNAMENT_ODD_CHIP``), named and cited as a choice;
* a bounty is prize money (Bounty Política de torneios), paid outside the hand's chips.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from replayer.rankings import STANDARD
from replayer.rulebooks.poker import (
    ActionClock,
    Citations,
    FeeTerms,
    FirstToAct,
    MinRaise,
    OddChip,
    Play,
    PokerRulebook,
    RaiseMax,
    RakeSplit,
    RakeTerms,
    RunShare,
    ShortBlind,
    SplitUnit,
)

_K = "GG-2022"
_SILENT = f"{_K} (silent: standard online rules)"

CASH_ODD_CHIP = OddChip.FIRST_WINNER_LEFT_OF_BUTTON
"""Open choice where GG-2022 is silent (module docstring): the odd cent of a split cash
pot goes to the first winner left of the button, as the room's own cash histories show."""

CASH_RUN_SHARE = RunShare.FIRST_RUN_ODD_UNIT
"""Open choice where GG-2022 is silent (module docstring): a pot run more than once is
divided between the runs in whole cents, the odd cent to the first run, as the room's own
cash histories pay."""

CASH_SHORT_BLIND = ShortBlind.FULL_BLIND
"""Open choice where GG-2022 is silent (module docstring): over a big blind all-in for
less, the bet to match is still the whole big blind, as the real histories read play it
(PokerStars': a big blind of 30 all-in for 20 called for 30; one all-in from the ante
posting none, called for the whole blind); no GG history read has a short blind."""

CASH_RAKE_SPLIT = RakeSplit.RUNNING_TOTAL
"""Open choice where GG-2022 is silent (module docstring): the hand's rake is taken from
the main pot first at the rate, then from each side pot, as every real side-pot record
read (PokerStars') shows; GG's own cash histories read here have no side pot."""

TIME_TO_ACT = timedelta(seconds=30)
LARGEST_TIME_BANK = timedelta(seconds=120)
"""Open choices where GG-2022 sets no number (Política de limite de tempo de jogo: the
limit "varia por mesa, por variante de jogo e/ou por estágio de jogo"; Política de banco
de horas: a bank "será acessado" with no size): 30 s to act and a bank of at most 120 s.
An action is judged late only after both (``replayer.poker.clock``)."""

_CLOCK = f"{_K} Política de limite de tempo de jogo; Política de banco de horas"
CASH_CLOCK = ActionClock(TIME_TO_ACT, LARGEST_TIME_BANK, _CLOCK)
TOURNAMENT_CLOCK = ActionClock(
    TIME_TO_ACT,
    LARGEST_TIME_BANK,
    f"{_CLOCK}; Política de desconexões de torneios e de não participação",
)
"""Out of time a tournament hand is folded facing action, else may be checked
(Política de desconexões); a cash hand is folded (a check then folds nothing)."""

_CITE = Citations(
    rulebook=_K,
    deck=_SILENT,
    hole_cards=_SILENT,
    board=_SILENT,
    burns=_SILENT,
    deal_order=_SILENT,
    blinds=f"{_K} Apostas perdidas Blind",
    first_round_order=_SILENT,
    later_round_order=_SILENT,
    call_amount=_SILENT,
    min_bet=_SILENT,
    min_raise=_SILENT,
    max_raise=_SILENT,
    raise_cap=_SILENT,
    min_players=_SILENT,
    max_seats=_SILENT,
    side_pots=_SILENT,
    uncontested=_SILENT,
    ranking=_SILENT,  # the tied-hands policy is cited where players tie (split, odd_chip)
    split=f"{_K} Política de mãos atadas",
    odd_chip=(
        f"{_K} Política de mãos atadas (silent on the odd chip in cash games: open choice, "
        "the first winner left of the button, as the room's histories pay)"
    ),
    rake_rate=f"{_K} Política de taxas e de ancinho",
    rake_cap=f"{_K} Política de taxas e de ancinho",
    fees=f"{_K} Política de taxas e de ancinho",
    board_runs=(
        f"{_K} Política de mãos atadas (silent on boards run more than once and on the odd "
        "chip in cash games: open choice, the odd cent to the first run, then to the first "
        "winner left of the button)"
    ),
    void_refund=f"{_K} Política de reembolso",
)

CASH_HOLDEM = PokerRulebook(
    id="gg-2022-cash-holdem",
    title="GGPoker house rules 2022-09-28, cash game hold'em",
    valid_from=datetime(2022, 9, 28, tzinfo=UTC),
    valid_until=None,
    variants=("NT",),
    play=Play.CASH,  # the cash-game pages; tournaments below
    cite=_CITE,
    deck_size=52,
    hole_cards=2,
    board_schedule=(0, 3, 1, 1),
    burns=True,
    board_from_bottom=False,
    hole_round_robin=True,
    ranking=STANDARD,  # mãos atadas: kickers decide
    heads_up_button_small_blind=True,
    short_blind=CASH_SHORT_BLIND,  # silent: open choice, as the rooms' histories play
    later_rounds_first=FirstToAct.LEFT_OF_BUTTON,
    min_raise=MinRaise.LAST_BET_OR_RAISE,
    max_raise_no_limit=RaiseMax.UNLIMITED,
    max_raise_pot_limit=RaiseMax.POT,
    raise_cap_no_limit=None,
    raise_cap_pot_limit=None,
    raise_cap_lifted_heads_up=True,
    raise_amount_unlimited_heads_up=False,  # pot limit binds heads-up too, as the rooms play
    min_players=2,
    max_seats=None,
    split_unit=SplitUnit.SMALLEST_CHIP,  # mãos atadas: split equally
    odd_chip=CASH_ODD_CHIP,  # silent: open choice, as the room's histories pay
    run_share=CASH_RUN_SHARE,  # silent: open choice, as the room's histories pay
    table_limits=None,  # stakes per game page, no rule ties them together
    extra_board_card_by=None,  # the room deals; silent
    showdown_order_by=None,  # silent; the room shows the cards itself
    board_runs_forbidden_by=None,  # silent; the rooms offer running it twice
    rake_split=CASH_RAKE_SPLIT,  # silent: open choice, as the side-pot records show
    rake=None,  # per game page: declare per table
    fees=None,  # not mentioned: declare per table
    clock=CASH_CLOCK,  # limite de tempo, banco de horas: sizes an open choice
)

CASH_OMAHA = replace(
    CASH_HOLDEM,
    id="gg-2022-cash-omaha",
    title="GGPoker house rules 2022-09-28, cash game omaha",
    variants=("PO", "NO"),
    hole_cards=4,
)

TOURNAMENT_ODD_CHIP = OddChip.FIRST_WINNER_LEFT_OF_BUTTON
"""Open choice where GG-2022 is silent (module docstring): the odd chip of a split
tournament pot goes to the first winner left of the button, as the room's cash histories
pay the odd cent; the prize section's "frações de centavos" is about prize money."""

_NO_RAKE = f"{_K} Política de taxas e de ancinho (tournaments: no rake, the fee is in the buy-in)"
_TOURNAMENT_CITE = replace(
    _CITE,
    blinds=(
        f"{_K} Política de torneios (levels as the lobby states); Política de desconexões "
        "(blinds and antes posted for every player dealt in); Política de eliminação de "
        "torneios (several big blinds in a row after a move)"
    ),
    odd_chip=(
        f"{_K} Política de mãos atadas (silent on the odd chip of a tournament pot: open "
        "choice, the first winner left of the button; the prize section's fractions of a "
        "cent are prize money)"
    ),
    board_runs=(
        f"{_K} Política de mãos atadas (silent on boards run more than once and on the odd "
        "chip of a tournament pot: open choice, the first winner left of the button)"
    ),
    rake_rate=_NO_RAKE,
    rake_cap=_NO_RAKE,
    fees=_NO_RAKE,
    void_refund=f"{_K} Política de reembolso, torneios",
)

TOURNAMENT_HOLDEM = replace(
    CASH_HOLDEM,
    id="gg-2022-tournament-holdem",
    title="GGPoker house rules 2022-09-28, tournament hold'em",
    play=Play.TOURNAMENT,
    cite=_TOURNAMENT_CITE,
    odd_chip=TOURNAMENT_ODD_CHIP,  # silent: open choice
    rake=RakeTerms(min_bps=0, max_bps=0),  # taxas e ancinho: no rake in tournaments
    fees=FeeTerms(kinds=frozenset()),  # the tournament fee is in the buy-in, not the pot
    clock=TOURNAMENT_CLOCK,  # desconexões: out of time, fold facing action, else check
)

TOURNAMENT_OMAHA = replace(
    TOURNAMENT_HOLDEM,
    id="gg-2022-tournament-omaha",
    title="GGPoker house rules 2022-09-28, tournament omaha",
    variants=CASH_OMAHA.variants,
    hole_cards=4,
)

RULEBOOKS = (CASH_HOLDEM, CASH_OMAHA, TOURNAMENT_HOLDEM, TOURNAMENT_OMAHA)
