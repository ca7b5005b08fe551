"""The tables of a synthetic day: rulebook, variant, stakes, currency and declared rake.

Each rulebook in force gets tables in turn (``TABLE_KINDS``), each table its own stakes
drawn from realistic ladders per venue:

* Macau (``mo-97-2010-omaha``, MOP, live): pot-limit and no-limit omaha; the table
  declares a rake rate inside the 3%-5% band of MO-97/2010 art.16, capped at five big
  blinds (the rulebook's own ``RakeTerms`` judge it).
* Portugal (``pt-217-2007-*``, EUR, live): omaha, hold'em and "póquer sintético" with
  antes (n.º 102). PT-217/2007 n.º 7 (the rake modalities) is cut from our copy, so each
  table declares a fixed house percentage and a cap in big blinds (``RakeTerms``), as
  n.º 65 takes it "de cada um dos pagamentos".
* GGPoker (``gg-2022-cash-*``, USD/EUR, online): hold'em and omaha; rate and cap are on
  each game's page (GG-2022 Política de taxas e de ancinho), declared per table with
  "no flop, no drop"; hands carry a shuffle commitment and reveal the deck.

The declared terms are written to the manifest so that a replay passes them as
``adjudicate_hand(..., rake_terms=...)`` where the rulebook leaves the rake open.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from replayer.rulebooks.poker import RakeTerms
from simulate.envelope import envelope

#: (venue, rulebook id, variant, seats at the table)
TABLE_KINDS: tuple[tuple[str, str, str, int], ...] = (
    ("gg", "gg-2022-cash-holdem", "NT", 6),
    ("mo", "mo-97-2010-omaha", "PO", 10),
    ("pt", "pt-217-2007-holdem", "NT", 10),
    ("gg", "gg-2022-cash-omaha", "PO", 6),
    ("pt", "pt-217-2007-omaha", "PO", 10),
    ("mo", "mo-97-2010-omaha", "NO", 9),
    ("gg", "gg-2022-cash-holdem", "NT", 9),
    ("pt", "pt-217-2007-synthetic", "NSY", 11),
)

#: Stakes ladders: (smallest chip, small blind, big blind) in minor units.
_STAKES: dict[str, tuple[tuple[int, int, int], ...]] = {
    "mo": ((500, 2_500, 5_000), (500, 5_000, 10_000), (1_000, 10_000, 20_000)),
    "pt": ((50, 100, 200), (50, 250, 500), (100, 500, 1_000)),
    "gg": ((1, 5, 10), (1, 10, 25), (1, 25, 50), (1, 50, 100), (1, 100, 200)),
}


@dataclass(frozen=True, slots=True)
class TableSpec:
    """One table of the day; every amount in minor units of ``currency``."""

    table_id: str
    venue: str
    rulebook: str
    variant: str
    seats: int
    currency: str
    smallest_chip: int
    small_blind: int
    big_blind: int
    ante: int
    min_bet: int
    rate_bps: int
    """The house rate the dealer applies to every pot."""
    rake_terms: RakeTerms | None
    """Declared terms passed to the replayer; None: the rulebook's own (MO-97/2010 art.16)."""
    committed: bool
    """Hands publish a shuffle commitment and reveal the deck."""

    @property
    def buy_in_range(self) -> tuple[int, int]:
        """Smallest and largest buy-in, in big blinds (of the table minimum)."""
        return (40, 200) if self.venue != "mo" else (50, 300)


def make_tables(seed: int, count: int) -> list[TableSpec]:
    """``count`` tables cycling through ``TABLE_KINDS``, stakes drawn from ``seed``."""
    rng = random.Random(f"{seed}:tables")
    tables = []
    for index in range(count):
        venue, rulebook, variant, seats = TABLE_KINDS[index % len(TABLE_KINDS)]
        chip, small, big = rng.choice(_STAKES[venue])
        ante = 0
        if variant in ("NSY", "PSY"):  # PT-217/2007 n.º 102: an ante from every player
            ante, small, big = small, 0, 0
        min_bet = big or 2 * ante
        if venue == "mo":
            rate = rng.choice((300, 400, 500))
            terms = None
            currency = "MOP"
        elif venue == "pt":
            rate = rng.choice((250, 500))
            terms = (
                RakeTerms(rate, rate, cap_big_blinds=10)
                if big
                else RakeTerms(rate, rate, cap=20 * ante)
            )
            currency = "EUR"
        else:
            rate = 500
            terms = RakeTerms(rate, rate, cap_big_blinds=4 if big <= 25 else 2, only_if_board=True)
            currency = rng.choice(("USD", "USD", "EUR"))
        tables.append(
            TableSpec(
                table_id=f"{venue}-{variant.lower()}-{index + 1:03d}",
                venue=venue,
                rulebook=rulebook,
                variant=variant,
                seats=seats,
                currency=currency,
                smallest_chip=chip,
                small_blind=small,
                big_blind=big,
                ante=ante,
                min_bet=min_bet,
                rate_bps=rate,
                rake_terms=terms,
                committed=venue == "gg",
            )
        )
    return tables


OPERATORS = {"gg": "GGPoker", "mo": "Casino Lisboa Macau", "pt": "Casino Estoril"}
"""Who runs each venue's tables (synthetic names)."""
DECLARED_FROM = datetime(2024, 1, 1, tzinfo=UTC)
"""When the synthetic tables' terms take effect: before any generated day, the same for
every day, so the declarations of several days are one stored fact."""


def terms_declarations(tables: Sequence[TableSpec]) -> list[dict[str, Any]]:
    """Each table's ``TableTermsDeclared`` (``schemas/table_terms.avsc``): its rulebook,
    operator, currency, smallest chip, minimum bet and the rake it declares (none at a
    Macau table: MO-97/2010 art.16 fixes the band itself)."""
    declarations = []
    for table in tables:
        terms = table.rake_terms
        declarations.append(
            {
                **envelope("table_id", table.table_id, 0, DECLARED_FROM, "TableTermsDeclared"),
                "effective_from": DECLARED_FROM,
                "rulebook": table.rulebook,
                "operator": OPERATORS.get(table.venue),
                "game": table.variant,
                "currency": table.currency,
                "rake_min_bps": None if terms is None else terms.min_bps,
                "rake_max_bps": None if terms is None else terms.max_bps,
                "rake_cap": None if terms is None else terms.cap,
                "rake_cap_big_blinds": None if terms is None else terms.cap_big_blinds,
                "rake_cap_per": "pot" if terms is not None and terms.cap_per_pot else "hand",
                "no_flop_no_drop": bool(terms is not None and terms.only_if_board),
                "commission_bps": None,
                "cagnotte_bps": None,
                "min_bet": table.min_bet,
                "max_bet": None,
                "smallest_chip": table.smallest_chip,
                "source": "synthetic table card",
            }
        )
    return declarations


def operator_declarations(
    tables: Sequence[tuple[str, str]],
    operator: str,
    currency: str,
    *,
    player_accounts: bool | None = None,
) -> list[dict[str, Any]]:
    """A ``TableTermsDeclared`` per (table id, game) of a banked floor, a slot floor or a
    tournament programme: who runs it, its game and currency, and (banked floors) whether
    its rounds name players by the operator's accounts (``player_accounts``); the rulebook
    is left to each subject (``RoundOpened.rulebook``, ``MachineConfigured.rulebook``), so
    nothing else is declared."""
    return [
        {
            **envelope("table_id", table_id, 0, DECLARED_FROM, "TableTermsDeclared"),
            "effective_from": DECLARED_FROM,
            "rulebook": None,
            "operator": operator,
            "game": game,
            "currency": currency,
            "player_accounts": player_accounts,
            "source": "synthetic table card",
        }
        for table_id, game in tables
    ]


def rake_terms_dict(terms: RakeTerms | None) -> dict[str, int | bool | None] | None:
    """JSON form of declared rake terms (manifest)."""
    if terms is None:
        return None
    return {
        "min_bps": terms.min_bps,
        "max_bps": terms.max_bps,
        "cap": terms.cap,
        "cap_big_blinds": terms.cap_big_blinds,
        "only_if_board": terms.only_if_board,
    }


def rake_terms_from(data: dict[str, Any] | None) -> RakeTerms | None:
    """Inverse of ``rake_terms_dict``."""
    return None if data is None else RakeTerms(**data)
