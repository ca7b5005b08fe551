"""A test writer of GGPoker and PokerStars text hand histories from flat poker events.

Written for this project from the rooms' published layout (header, table and seat lines,
``*** HOLE CARDS ***``, streets, ``Uncalled bet (…) returned to …``, ``collected … from
pot``, ``*** SUMMARY ***``, ``Total pot … | Rake …``): it writes what an operator following
the events would print, so that reading the text back must give the same events. It
handles what the simulator (``tests.poker_sim``) and ``HandBuilder`` produce: blinds,
straddles, antes, missed blinds, fees (``FeeTaken``), run-it-twice (``BoardRun``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

SYMBOL = {"USD": "$", "EUR": "€", "GBP": "£", "XXX": ""}
GAME = {"NT": "Hold'em No Limit", "PO": "Omaha Pot Limit", "NO": "Omaha No Limit"}
RUN_WORD = {1: "FIRST", 2: "SECOND", 3: "THIRD"}
STREETS = ("FLOP", "TURN", "RIVER")
FEE_WORD = {"jackpot": "Jackpot", "bingo": "Bingo", "fortune": "Fortune", "tax": "Tax"}


def money(minor: int, currency: str, *, trim: bool = True) -> str:
    """``€1,005.5`` (GGPoker trims zeros) or ``€1,005.50``; chips are 100 minor units."""
    major = Decimal(minor) / 100
    text = f"{major:,.2f}"
    if trim and "." in text:
        text = text.rstrip("0").rstrip(".")
    return SYMBOL[currency] + text


class _Writer:
    def __init__(self, events: Sequence[Mapping[str, Any]], room: str, hidden: set[int]) -> None:
        self.events = events
        self.room = room
        self.hidden = hidden
        self.start = events[0]
        self.currency = self.start["currency"]
        self.name = {s["seat"]: s["player_id"] for s in self.start["seats"]}
        self.lines: list[str] = []

    def m(self, minor: int) -> str:
        return money(minor, self.currency, trim=self.room == "ggpoker")

    def header(self, number: str) -> None:
        start = self.start
        game = GAME[start["variant"]]
        stakes = f"{self.m(start['small_blind'])}/{self.m(start['big_blind'])}"
        at = start["occurred_at"].astimezone(UTC)
        if self.room == "ggpoker":
            self.lines.append(f"Poker Hand #HD{number}: {game} ({stakes}) - {at:%Y/%m/%d %H:%M:%S}")
        else:
            code = "" if self.currency == "XXX" else f" {self.currency}"
            et = at.astimezone(ZoneInfo("America/New_York"))
            self.lines.append(
                f"PokerStars Hand #{number}: {game} ({stakes}{code}) - "
                f"{et:%Y/%m/%d %H:%M:%S} ET [{at:%Y/%m/%d %H:%M:%S} UTC]"
            )
        self.lines.append(
            f"Table '{start['table_id']}' 9-max Seat #{start['button']} is the button"
        )
        for seat in start["seats"]:
            self.lines.append(
                f"Seat {seat['seat']}: {seat['player_id']} ({self.m(seat['stack'])} in chips)"
            )

    def body(self) -> None:
        events = self.events
        last_action = max(
            (i for i, e in enumerate(events) if e["type"] == "ActionTaken"), default=-1
        )
        uncalled = [e for e in events if e["type"] == "PotAwarded" and e["pot_index"] is None]
        street: dict[int, int] = dict.fromkeys(self.name, 0)
        board: list[str] = []
        boards: dict[int, list[str]] = {}
        run = 0
        posts = {
            "small_blind": "small blind",
            "big_blind": "big blind",
            "straddle": "straddle",
            "ante": "the ante",
        }
        in_settlement = False
        pending_missed: dict[int, int] = {}
        for index, event in enumerate(events[1:], start=1):
            kind, seat = event["type"], event.get("seat")
            who = self.name.get(seat, "")
            if kind == "BlindPosted":
                if event["kind"] == "missed_big_blind":
                    pending_missed[seat] = event["amount"]
                elif event["kind"] == "dead_small_blind":
                    total = pending_missed.pop(seat) + event["amount"]
                    self.lines.append(f"{who}: posts small & big blinds {self.m(total)}")
                else:
                    self.lines.append(
                        f"{who}: posts {posts[event['kind']]} {self.m(event['amount'])}"
                    )
                if event["kind"] not in ("ante", "dead_small_blind"):
                    street[seat] += event["amount"]
            elif kind == "CardsDealt" and event["target"] == "hole":
                if "*** HOLE CARDS ***" not in self.lines:
                    self._missed(pending_missed)
                    self.lines.append("*** HOLE CARDS ***")
                shown = "" if seat in self.hidden else " [" + " ".join(event["cards"]) + "]"
                self.lines.append(f"Dealt to {who}{shown}" if shown else f"Dealt to {who} ")
            elif kind == "CardsDealt" and event["target"] == "board":
                street = dict.fromkeys(street, 0)
                base = list(board) if not run else list(boards.get(run, board))
                label = STREETS[{0: 0, 3: 1, 4: 2}[len(base)]]
                prefix = f"{RUN_WORD[run]} " if run else ""
                before = f" [{' '.join(base)}]" if base else ""
                self.lines.append(f"*** {prefix}{label} ***{before} [{' '.join(event['cards'])}]")
                (boards.setdefault(run, list(board)) if run else board).extend(event["cards"])
            elif kind == "BoardRun" and not in_settlement:
                run = event["run"]
            elif kind == "ActionTaken":
                self._action(event, street)
                if index == last_action:
                    for back in uncalled:
                        self.lines.append(
                            f"Uncalled bet ({self.m(back['amount'])}) returned to "
                            f"{self.name[back['seat']]}"
                        )
            elif kind == "CardsShown":
                if event["mucked"] and not event["cards"]:
                    self.lines.append(f"{who}: mucks hand")
                else:
                    verb = "mucks" if event["mucked"] else "shows"
                    self.lines.append(f"{who}: {verb} [{' '.join(event['cards'])}]")
            elif kind in ("PotAwarded", "BoardRun", "FeeTaken", "RakeTaken", "CashoutPaid"):
                in_settlement = True
        self._settlement(board, boards)

    def _missed(self, pending: dict[int, int]) -> None:
        for seat, amount in pending.items():
            self.lines.append(f"{self.name[seat]}: posts small & big blinds {self.m(amount)}")
        pending.clear()

    def _action(self, event: Mapping[str, Any], street: dict[int, int]) -> None:
        seat, action, amount = event["seat"], event["action"], event["amount"]
        who = self.name[seat]
        before = max(street.values())
        street[seat] += amount
        if action in ("fold", "check"):
            self.lines.append(f"{who}: {action}s")
        elif action == "raise":
            self.lines.append(
                f"{who}: raises {self.m(street[seat] - before)} to {self.m(street[seat])}"
            )
        else:
            self.lines.append(f"{who}: {action}s {self.m(amount)}")

    def _settlement(self, board: list[str], boards: dict[int, list[str]]) -> None:
        settle = [e for e in self.events if e["type"] in ("PotAwarded", "BoardRun")]
        awards = [e for e in settle if e["type"] == "PotAwarded" and e["pot_index"] is not None]
        pots = sorted({e["pot_index"] for e in awards})
        run = 0
        for event in settle:
            if event["type"] == "BoardRun":
                run = event["run"]
                self.lines.append(f"*** {RUN_WORD[run]} SHOWDOWN ***")
                continue
            if event["pot_index"] is None:
                continue
            if run == 0 and "*** SHOWDOWN ***" not in self.lines:
                self.lines.append("*** SHOWDOWN ***")
            pot = (
                "pot"
                if len(pots) == 1
                else ("main pot" if event["pot_index"] == 0 else f"side pot-{event['pot_index']}")
            )
            self.lines.append(
                f"{self.name[event['seat']]} collected {self.m(event['amount'])} from {pot}"
            )
        for event in self.events:
            if event["type"] == "CashoutPaid":
                self.lines.append(
                    f"{self.name[event['seat']]}: Receives Cashout ({self.m(event['amount'])})"
                )
            elif event["type"] == "FeeTaken" and event["seat"] is not None:
                self.lines.append(
                    f"{self.name[event['seat']]}: Pays Cashout Risk ({self.m(event['amount'])})"
                )
        self.lines.append("*** SUMMARY ***")
        self.lines.append(self._total(awards, pots))
        if boards:
            self.lines.append(f"Hand was run {'two' if len(boards) == 2 else 'three'} times")
            for run, cards in sorted(boards.items()):
                self.lines.append(f"{RUN_WORD[run]} Board [{' '.join(cards)}]")
        elif board:
            self.lines.append(f"Board [{' '.join(board)}]")
        button = self.start["button"]
        won = {seat: sum(e["amount"] for e in awards if e["seat"] == seat) for seat in self.name}
        for seat, name in self.name.items():
            mark = " (button)" if seat == button else ""
            outcome = f"collected ({self.m(won[seat])})" if won[seat] else "lost"
            self.lines.append(f"Seat {seat}: {name}{mark} {outcome}")

    def _total(self, awards: list[Mapping[str, Any]], pots: list[int]) -> str:
        rake = sum(e["amount"] for e in self.events if e["type"] == "RakeTaken")
        fees = {w: 0 for w in FEE_WORD.values()}
        for e in self.events:
            if e["type"] == "FeeTaken" and e["seat"] is None:
                fees[FEE_WORD[e["kind"]]] += e["amount"]
        put = sum(e["amount"] for e in self.events if e["type"] in ("BlindPosted", "ActionTaken"))
        back = sum(
            e["amount"] for e in self.events if e["type"] == "PotAwarded" and e["pot_index"] is None
        )
        total = put - back  # what was put in, as the rooms write it, whatever was paid
        if self.room == "ggpoker":
            parts = [f"Rake {self.m(rake)}", *(f"{w} {self.m(a)}" for w, a in fees.items())]
            return f"Total pot {self.m(total)} | " + " | ".join(parts)
        split = ""
        if len(pots) > 1:
            by_pot = {p: sum(e["amount"] for e in awards if e["pot_index"] == p) for p in pots}
            split = f" Main pot {self.m(by_pot[0])}." + "".join(
                f" Side pot-{p} {self.m(by_pot[p])}." for p in pots[1:]
            )
        return f"Total pot {self.m(total)}{split} | Rake {self.m(rake)}"


def write(
    events: Sequence[Mapping[str, Any]], room: str, number: str, hidden: Sequence[int] = ()
) -> str:
    """One hand as ``room`` (``"ggpoker"`` or ``"pokerstars"``) text; ``hidden`` seats get
    a blank ``Dealt to`` line (GGPoker) or none (PokerStars)."""
    writer = _Writer(events, room, set(hidden))
    writer.header(number)
    writer.body()
    lines = writer.lines
    if room == "pokerstars":
        lines = [
            line for line in lines if not (line.startswith("Dealt to ") and line.endswith(" "))
        ]
    return "\n".join(lines) + "\n"


def write_file(hands: Sequence[str]) -> str:
    """Hands separated by blank lines, as both rooms export them."""
    return "\n\n".join(hand.rstrip("\n") for hand in hands) + "\n"
