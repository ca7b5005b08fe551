"""``banked_rounds``: a day of banked table games for ``generate_day(extra=...)``.

A floor of punto banco, roulette, blackjack and chemin de fer tables (about 35/30/25/10%
of the rounds, at least two tables a game, at most ``ROUNDS_PER_TABLE`` rounds a table),
each table's rounds spread evenly through the day. Each table plays from its own named
streams ``"<seed>:<day>:<table>"`` (the rounds) and ``"...:faults"`` (the faults): no
global random state, no clock; the same seed and day give byte-identical input files.

Faults (``casino.plant``; the finding kinds come from running the replayer on each):

* ``overpaid``: one payout a unit too much: ``mispaid_bet`` (GG-2022 live II 2.2, III,
  IV; PT-217/2007 I.47 for a bank);
* ``unpaid_winner``: a winning bet's payout missing: ``mispaid_bet``;
* ``wrong_commission``: 6% withheld for 5% (punto banco commission, chemin de fer
  cagnotte, PT-217/2007 I.47), the bet paid that much less: ``mispaid_bet`` (twice);
* ``malfunction_not_refunded``: a malfunction voids the round and one stake is not given
  back: ``void_hand_not_refunded`` (GG-2022 live; PT-217/2007 I.75);
* ``late_bet_refunded``: a bet accepted after "no more bets" (then refunded):
  ``illegal_action`` (GG-2022 live II 2.1.6, IV).

Across rounds (``simulate.shoes``): the card tables deal real shoes, one after another,
each opened and ended as the rules say (``ShoeOpened``, ``CutCardDrawn``, and
``ShoeEnded`` when the table closes for the day mid-shoe), and plant at a shoe's last
coup a card shown more often than its decks hold or a round dealt past it; chemin de fer
also a banker keeping the hand after losing the sabot's last coup (PT-217/2007 I.32), a
coup with three players seated (I.16), a sabot played on past a closing time minutes
after it began (I.107) and a garage the rules do not allow (I.34, I.46). Each round
stays legal on its own.

``fault_rate`` is the share of rounds that get one; a drawn kind waits at its table for a
round that offers a place for it (a payout to leave unpaid, a commission to overcharge,
a shoe's last coup). ``every_across``: every fault across rounds is planted at least
once in the day: each table starts with those its game offers that no table before it
planted waiting (they need the places a table offers: its shoes' last coups, a sabot's
first coup, a banker's second or third coup).

Chemin de fer is judged across coups as well: the garage rule (PT-217/2007 I.34, I.46,
``replayer.casino.garage``) compares each coup's bank with what the banker's previous
coup left in it. So a chemin de fer table plays banker runs: the bank stays with its
banker while he wins or ties, carrying the *due* settlement of each coup (a planted
fault changes what was paid, never what the rules left in the bank; a voided coup leaves
it as it was), passes to the next seat when he loses or gives it up, and after his 3rd
and later odd won coups he sometimes sets half aside (a lawful garage, I.34), or, having
won a sabot's last coup, halves the bank for the next sabot (lawful, I.33). Bankers
are named per day, so runs never span two days.

Players are the operator's player ids (``live-p0001`` …), never seat labels: each table
seats ``_SEATS`` patrons of the day (``patrons``), drawn from ``PATRONS`` so that no
patron of a table's previous day sits at it again (a banker's run cannot seem to carry
over midnight). A round's bettors are the table's patrons by seat; the chemin de fer
bank is held by the patron in the banker's seat, his pontos are the next seats round.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from audit.families import family_named
from replayer.rulebooks.casino import CheminDeFerRules
from simulate.avro_out import write_input_file
from simulate.casino import (
    BANKED_FAULTS,
    SHOE_DEALERS,
    SIMULATORS,
    FlatEvent,
    chemin_de_fer_round,
    plant,
)
from simulate.day import ExtraGenerator
from simulate.manifest import PlantedFault
from simulate.shoes import (
    CHEMIN_FAULTS,
    SHOE_FAULTS,
    SHOE_RULEBOOKS,
    TOO_FEW_SEATED,
    DealingShoe,
    shown_too_often,
)
from simulate.tables import OPERATORS, operator_declarations

#: Game -> (table id prefix, share of the rounds in percent).
GAMES: dict[str, tuple[str, int]] = {
    "punto_banco": ("bac", 35),
    "roulette": ("rou", 30),
    "blackjack": ("bj", 25),
    "chemin_de_fer": ("chemmy", 10),
}
ROUNDS_PER_TABLE = 1_200
#: Faults a game's rounds can offer a place for (``casino.plant``): only the baccarat
#: games withhold a commission, and a late bet is planted on even-chance and baccarat bets.
OFFERED: dict[str, tuple[str, ...]] = {
    "punto_banco": (*BANKED_FAULTS, *SHOE_FAULTS),
    "roulette": tuple(f for f in BANKED_FAULTS if f != "wrong_commission"),
    "blackjack": (
        *(f for f in BANKED_FAULTS if f not in ("wrong_commission", "late_bet_refunded")),
        *SHOE_FAULTS,
    ),
    "chemin_de_fer": (
        *(f for f in BANKED_FAULTS if f != "late_bet_refunded"),
        *SHOE_FAULTS,
        *CHEMIN_FAULTS,
    ),
}
ACROSS = {**SHOE_FAULTS, **CHEMIN_FAULTS}
"""The faults planted across rounds, at a shoe's last coup (``simulate.shoes``)."""
MALFUNCTION = "malfunction_not_refunded"
GARAGE, KEPT_HAND = "garage_not_allowed", "kept_hand_after_lost_sabot"
CLOSED, PLAYERS_SHORT = "table_closed", "players_short"
"""Why a shoe ends before its cut card (``ShoeEnded.reason``)."""


def _closing_grace() -> timedelta:
    """PT-217/2007 I.107: play goes on past the closing time for a sabot begun this long
    before it."""
    rules = SHOE_RULEBOOKS["chemin_de_fer"]
    assert isinstance(rules, CheminDeFerRules)
    return rules.closing_grace


CLOSING_GRACE = _closing_grace()
FLOOR_OPERATOR = OPERATORS["pt"]
"""Who runs the banked floor (its tables' declared operator)."""
TERMS_FILE = "banked-tables.avro"
"""The floor's table declarations (not listed among the input files of subjects)."""
_BANKS = (10_000, 20_000, 50_000, 100_000)
_SEATS = 8
PATRONS = 400
"""The live casino's patrons: player ids ``live-p0001`` to ``live-p0400``."""
_LABEL = re.compile(r"p(\d+)")
"""A player as the round simulators label him: by seat or box (``p0``, ``p1``, …)."""


def patrons(seed: int, day: date, table_id: str) -> list[str]:
    """The ``_SEATS`` patrons at ``table_id`` on ``day`` (by seat), none of whom sat at
    it the day before; the same seed, day and table give the same patrons."""

    def drawn(on: date) -> list[str]:
        rng = random.Random(f"{seed}:{on.isoformat()}:{table_id}:patrons")
        return [f"live-p{n:04d}" for n in rng.sample(range(1, PATRONS + 1), 2 * _SEATS)]

    yesterday = set(drawn(day - timedelta(days=1))[:_SEATS])
    return [p for p in drawn(day) if p not in yesterday][:_SEATS]


def _named(events: list[FlatEvent], seated: list[str], first: int) -> list[FlatEvent]:
    """The round with each seat label ``p<k>`` replaced by the patron ``k`` seats after
    ``first``."""
    for event in events:
        label = _LABEL.fullmatch(str(event.get("player_id", "")))
        if label is not None:
            event["player_id"] = seated[(first + int(label[1])) % len(seated)]
    return events


@dataclass(frozen=True, slots=True)
class Table:
    table_id: str
    game: str
    rounds: int


def floor_tables(rounds: int) -> list[Table]:
    """The tables playing ``rounds`` rounds, in game order, rounds shared evenly."""
    tables = []
    left = rounds
    for index, (game, (prefix, share)) in enumerate(GAMES.items()):
        count = left if index == len(GAMES) - 1 else rounds * share // 100
        left -= count
        n = max(min(count, 2), -(-count // ROUNDS_PER_TABLE))
        tables += [
            Table(f"{prefix}-{k + 1:02d}", game, count // n + (k < count % n)) for k in range(n)
        ]
    return tables


@dataclass(slots=True)
class _BankerRun:
    """A chemin de fer table's bank: the seat holding it, what is in it, coups won."""

    seated: list[str]
    seat: int = -1
    bank: int = 0
    wins: int = 0
    matched: bool = True
    """The punters' stakes matched the bank in the last coup (no I.46 garage open)."""

    @property
    def banker(self) -> str:
        """The patron in the banker's seat."""
        return self.seated[self.seat]

    def open(self, rng: random.Random) -> None:
        """A new banker when the bank is empty: the next seat, a fresh bank."""
        if self.bank == 0:
            self.seat, self.bank, self.wins = (self.seat + 1) % _SEATS, rng.choice(_BANKS), 0

    def settle(
        self,
        rng: random.Random,
        events: list[FlatEvent],
        void: bool,
        sabot_ends: bool = False,
        keep: bool = False,
    ) -> None:
        """Carry what the rules left in the bank (the clean coup's bank payout); at the end
        of a sabot a winning banker may halve the bank (I.33). ``keep``: a banker who
        lost the sabot's last coup keeps the hand (the I.32 fault)."""
        if void:
            return
        after = sum(
            e["amount"] for e in events if e["type"] == "PayoutMade" and e["bet_id"] == "bank"
        )
        pontos = sum(e["amount"] for e in events if e.get("bet_type") == "ponto")
        self.matched = pontos >= self.bank
        lost = after < self.bank
        if lost and keep:
            self.bank = after or rng.choice(_BANKS)
        elif lost or rng.random() < 0.1:  # lost: the hand passes, or given up
            self.bank = 0
        elif after > self.bank:
            self.wins += 1
            self.bank = after
            if self.wins >= 3 and self.wins % 2 and rng.random() < 0.5:
                self.bank -= self.bank // 2  # I.34 garage: the banker keeps the larger half
            elif sabot_ends and rng.random() < 0.3:
                self.bank -= self.bank // 2  # I.33: at a new sabot he may halve the bank

    def set_aside_unlawfully(self) -> bool:
        """``garage_not_allowed``: a banker who has won one or two coups, the punters'
        stakes matching his bank, plays on with a third of it set aside (neither I.34
        nor I.46 open to him); False when that is no fault here."""
        if self.wins not in (1, 2) or not self.matched:
            return False
        self.bank -= self.bank // 3
        return True


def banked_rounds(
    rounds: int, *, fault_rate: float = 0.0, per_file: int = 10_000, every_across: bool = False
) -> ExtraGenerator:
    """An ``extra`` generator: ``rounds`` banked rounds in ``banked-<k>.avro`` input files of at
    most ``per_file`` rounds, with faults planted in about ``fault_rate`` of them and,
    ``every_across``, each fault across rounds at least once (module docstring)."""

    def extra(seed: int, day: date, out: Path) -> tuple[list[str], list[PlantedFault]]:
        faults: list[PlantedFault] = []
        files: list[str] = []
        buffer: list[FlatEvent] = []
        family = family_named("banked")
        stream_id = f"{seed}:{day.isoformat()}:banked"
        out.mkdir(parents=True, exist_ok=True)
        write_input_file(
            out / TERMS_FILE,
            family_named("table"),
            operator_declarations(
                [(t.table_id, t.game) for t in floor_tables(rounds)],
                FLOOR_OPERATOR,
                "EUR",
                player_accounts=True,  # the patrons' ids (``patrons``), not seat labels
            ),
            stream_id=f"{seed}:banked-tables",
        )
        floor = _floor_day(seed, day, rounds, fault_rate, faults, every_across)
        for count, events in enumerate(floor, 1):
            buffer += events
            if count % per_file == 0 or count == rounds:
                files.append(f"banked-{len(files) + 1:03d}.avro")
                write_input_file(out / files[-1], family, buffer, stream_id=stream_id)
                buffer = []
        return files, faults

    return extra


def _floor_day(
    seed: int,
    day: date,
    rounds: int,
    fault_rate: float,
    faults: list[PlantedFault],
    every_across: bool = False,
) -> Iterator[list[FlatEvent]]:
    """Every table's rounds in turn, appending the faults planted to ``faults``;
    ``every_across``: each table starts with the faults across rounds its game offers
    that no table before it planted waiting."""
    start = datetime(day.year, day.month, day.day, tzinfo=UTC)
    for table in floor_tables(rounds):
        stream_id = f"{seed}:{day.isoformat()}:{table.table_id}"
        rng, fault_rng = random.Random(stream_id), random.Random(f"{stream_id}:faults")
        interval = 86_400 / max(table.rounds, 1)
        run = _BankerRun(patrons(seed, day, table.table_id))
        shoes = random.Random(f"{stream_id}:shoes")
        deal = _Deal(table, day, shoes, run, faults, interval=timedelta(seconds=interval))
        planted = {fault.kind for fault in faults}
        deal.pending += [k for k in OFFERED[table.game] if every_across and k in ACROSS]
        deal.pending = [k for k in deal.pending if not (every_across and k in planted)]
        offset = rng.uniform(0, interval / 2)
        for number in range(table.rounds):
            round_id = f"{table.table_id}/{day:%Y%m%d}-{number + 1:05d}"
            at = start + timedelta(seconds=offset + number * interval)
            if fault_rng.random() < fault_rate:
                deal.pending.append(fault_rng.choice(OFFERED[table.game]))
            yield deal.round(rng, round_id, at, closing=number == table.rounds - 1)


@dataclass
class _Deal:
    """One table's rounds through the day: its shoes (card games), its banker runs
    (chemin de fer) and the faults waiting for a round that offers them a place."""

    table: Table
    day: date
    shoe_rng: random.Random
    run: _BankerRun
    faults: list[PlantedFault]
    pending: list[str] = field(default_factory=list)
    shoe: DealingShoe | None = None
    shoes: int = 0
    interval: timedelta = timedelta(0)
    """Between two rounds of the table."""
    next_round: str | None = None
    """An across fault found in the next round (``dealt_past_last_coup`` or
    ``kept_hand_after_lost_sabot``, planned at a shoe's last coup; ``played_past_closing``,
    at a sabot's first)."""

    def _dealing(self) -> DealingShoe | None:
        """The shoe this round is dealt from: a new one after the last coup (unless the
        next round is planted past it); None for a game without a shoe."""
        if self.table.game not in SHOE_RULEBOOKS:
            return None
        if self.shoe is None or (
            self.shoe.last_coup_dealt and self.next_round != "dealt_past_last_coup"
        ):
            self.shoes += 1
            shoe_id = f"{self.table.table_id}/{self.day:%Y%m%d}-s{self.shoes:03d}"
            self.shoe = DealingShoe.opened(shoe_id, self.table.game, self.shoe_rng)
        return self.shoe

    def round(
        self, rng: random.Random, round_id: str, at: datetime, closing: bool = False
    ) -> list[FlatEvent]:
        """The round ``round_id``, clean or with a fault planted; ``closing``: the table's
        last of the day (its shoe ends with it)."""
        game, seated = self.table.game, self.run.seated
        shoe = self._dealing()
        cards = shoe.left() if shoe is not None else None
        garage = False
        if game == "chemin_de_fer":
            self.run.open(rng)
            garage = self._garage(shoe)
            clean = chemin_de_fer_round(
                rng, round_id, at, banker=self.run.banker, bank=self.run.bank, cards=cards
            )
            clean = _named(clean, seated, self.run.seat + 1)
            clean[0]["seated"] = len(seated)  # every seat taken (PT-217/2007 I.16)
        elif shoe is not None and cards is not None:
            clean = _named(SHOE_DEALERS[game](rng, round_id, at, cards), seated, 0)
        else:
            clean = _named(SIMULATORS[game](rng, round_id, at), seated, 0)
        clean[0]["table_id"] = self.table.table_id
        if shoe is not None:
            clean[0]["shoe_id"] = shoe.shoe_id
        planned, self.next_round = self.next_round, None
        planned = GARAGE if garage else planned
        if planned is not None:
            self._planted(planned, round_id)
            events, planted = clean, None  # one fault a round
        else:
            events, planted = _plant_pending(clean, self.pending)
        if planted is not None:
            kind, kinds = planted
            self._planted(kind, round_id, kinds)
        if game == "chemin_de_fer" and shoe is not None and shoe.rounds == 0:
            self._closing_time(shoe, at, planned is None and planted is None and not closing)
        last_coup = shoe is not None and shoe.last_coup(events)
        across = planned is None and planted is None and last_coup
        if across and shoe is not None:
            self._plant_at_last_coup(shoe, events, round_id)
        free = planned is None and planted is None and not last_coup and not closing
        ended = free and game == "chemin_de_fer" and self._sabot_ends_lost(events)
        if shoe is not None:
            events = shoe.recorded(events, closing or ended, PLAYERS_SHORT if ended else CLOSED)
        if game == "chemin_de_fer":
            void = planted is not None and planted[0] == MALFUNCTION
            keep = self.next_round == KEPT_HAND
            self.run.settle(rng, clean, void, sabot_ends=last_coup or ended, keep=keep)
        return events

    def _sabot_ends_lost(self, events: list[FlatEvent]) -> bool:
        """``kept_hand_after_lost_sabot`` where no last coup offered a place: the sabot
        ends after a coup the bank lost (too few players, PT-217/2007 I.15: ``ShoeEnded``)
        and the banker keeps the hand at the next sabot's first coup (the I.32 fault)."""
        if KEPT_HAND not in self.pending or self.next_round is not None:
            return False
        if not _bank_loses(events):
            return False
        self.pending.remove(KEPT_HAND)
        self.next_round = KEPT_HAND
        return True

    def _garage(self, shoe: DealingShoe | None) -> bool:
        """``garage_not_allowed`` planted in the coup about to be dealt: not a sabot's
        first (I.33 lets a banker halve the bank there) nor a coup another fault is
        planned for, the banker's run going on (``_BankerRun.set_aside_unlawfully``)."""
        if GARAGE not in self.pending or self.next_round is not None:
            return False
        if shoe is None or shoe.rounds == 0 or not self.run.set_aside_unlawfully():
            return False
        self.pending.remove(GARAGE)
        return True

    def _closing_time(self, shoe: DealingShoe, at: datetime, free: bool) -> None:
        """A sabot's declared closing time (PT-217/2007 I.107): the day's end; with the
        ``played_past_closing`` fault, between this first coup and the next and less than
        the rule's grace after it (however far apart a table's coups are), so that the
        sabot, begun minutes before it, plays on past it."""
        shoe.closing_at = datetime(self.day.year, self.day.month, self.day.day, tzinfo=UTC)
        shoe.closing_at += timedelta(days=1)
        if free and self.next_round is None and "played_past_closing" in self.pending:
            self.pending.remove("played_past_closing")
            shoe.closing_at = at + min(self.interval, CLOSING_GRACE) / 2
            self.next_round = "played_past_closing"

    def _planted(self, kind: str, round_id: str, kinds: Sequence[str] = ()) -> None:
        detail = {"game": self.table.game, "table_id": self.table.table_id}
        found = tuple(sorted(set(kinds or ACROSS[kind])))
        self.faults.append(PlantedFault(kind, round_id, found, detail))

    def _plant_at_last_coup(
        self, shoe: DealingShoe, events: list[FlatEvent], round_id: str
    ) -> None:
        """The first pending fault across rounds this last coup offers a place for:
        planted in it now, or planned for the next round. The faults planned for the next
        round are tried first: few last coups offer them a place (cards left for one more
        round, a banker who lost)."""
        now: dict[str, Callable[[], bool]] = {
            "card_shown_too_often": lambda: shown_too_often(shoe, events) is not None,
        }
        later: dict[str, Callable[[], bool]] = {
            "dealt_past_last_coup": lambda: shoe.can_deal_after(events),
            KEPT_HAND: lambda: _bank_loses(events),
        }
        waiting = [k for k in self.pending if k in ACROSS]
        for kind in sorted(waiting, key=lambda k: k not in later):
            if kind in now and now[kind]():
                self._planted(kind, round_id)
            elif kind in later and later[kind]():
                self.next_round = kind
            else:
                continue
            self.pending.remove(kind)
            return


def _too_few_seated(events: list[FlatEvent]) -> bool:
    """The coup recorded with too few players seated (PT-217/2007 I.16)."""
    events[0]["seated"] = TOO_FEW_SEATED
    return True


ANY_COUP: dict[str, Callable[[list[FlatEvent]], bool]] = {"too_few_seated": _too_few_seated}
"""Faults across rounds any coup offers a place for (planted as the round's own are)."""


def _bank_loses(events: list[FlatEvent]) -> bool:
    """Whether the chemin de fer bank loses this (clean) coup."""
    bank = next(e["amount"] for e in events if e.get("bet_type") == "bank")
    paid = sum(e["amount"] for e in events if e["type"] == "PayoutMade" and e["bet_id"] == "bank")
    return paid < bank and not any(e["type"] == "RoundMalfunction" for e in events)


def _plant_pending(
    clean: list[FlatEvent], pending: list[str]
) -> tuple[list[FlatEvent], tuple[str, list[str]] | None]:
    """The round with the first pending fault it offers a place for (removed from
    ``pending``), and that fault's kind and finding kinds; else the clean round."""
    for kind in pending:
        if kind in ANY_COUP:
            result = (clean, list(ACROSS[kind])) if ANY_COUP[kind](clean) else None
        else:
            result = plant(clean, kind)
        if result is not None:
            pending.remove(kind)
            return result[0], (kind, result[1])
    return clean, None
