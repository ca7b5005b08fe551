"""Each record type of ``schemas/banked_round.avsc`` in words, for ``casino-audit show``:
``DESCRIBERS``, one per type, amounts in the round's currency and every record text made
safe to print (``show.common.safe``). A new record type is put into words here, once, and
``tests/pipelines/test_event_tables.py`` fails until it is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from audit.show.common import card, money, safe

Event = Mapping[str, Any]
Describer = Callable[[Event, str | None], str]
"""An event and the round's currency -> the event in words."""

GAMES = {
    "punto_banco": "punto banco",
    "chemin_de_fer": "chemin de fer",
    "blackjack": "blackjack",
    "roulette": "roulette",
    "rng": "RNG game",
}


def bet_name(bet: Event) -> str:
    """What a bet is on: its type, its numbers, its hand."""
    name = safe(bet.get("bet_type"))
    numbers = bet.get("numbers") or ()
    if numbers:
        name += " " + ",".join(safe(n) for n in numbers)
    if bet.get("hand") is not None:
        name += f" (hand {safe(bet.get('hand'))})"
    return name


def describe(event: Event, currency: str | None) -> str:
    """One banked-round event in words (its type, made safe, when no describer knows it)."""
    describer = DESCRIBERS.get(str(event.get("type")))
    return describer(event, currency) if describer else safe(event.get("type"))


def _round_opened(event: Event, currency: str | None) -> str:
    game = GAMES.get(str(event.get("game")), safe(event.get("game")))
    limits = f"bets {money(event.get('min_bet'), currency)}"
    if event.get("max_bet") is not None:
        limits += f" to {money(event.get('max_bet'), currency)}"
    return f"the round opens: {game}, {limits}"


def _bet_placed(event: Event, currency: str | None) -> str:
    late = " after 'no more bets'" if event.get("after_no_more_bets") else ""
    return (
        f"{safe(event.get('player_id'))} bets {money(event.get('amount'), currency)} on "
        f"{bet_name(event)} (bet {safe(event.get('bet_id'))}){late}"
    )


def _card_dealt(event: Event, currency: str | None) -> str:
    to = event.get("to")
    target = f"hand {safe(event.get('hand'))}" if to == "hand" else f"the {safe(to)}"
    return f"card to {target}: {card(event.get('card'))}"


def _player_decision(event: Event, currency: str | None) -> str:
    hand = f" (hand {safe(event.get('hand'))})" if event.get("hand") is not None else ""
    return f"the {safe(event.get('actor'))}{hand} decides: {safe(event.get('decision'))}"


def _on_bet(what: str) -> Describer:
    """A payment on a bet: ``{player} {what} {amount} on bet {bet}``."""

    def said(event: Event, currency: str | None) -> str:
        return (
            f"{safe(event.get('player_id'))} {what} {money(event.get('amount'), currency)} "
            f"on bet {safe(event.get('bet_id'))}"
        )

    return said


def _declared(what: str) -> Describer:
    """The round declared void or a malfunction, with the reason."""

    def said(event: Event, currency: str | None) -> str:
        return f"the round is declared {what}: {safe(event.get('reason'))}"

    return said


DESCRIBERS: dict[str, Describer] = {
    "RoundOpened": _round_opened,
    "BetPlaced": _bet_placed,
    "CardDealt": _card_dealt,
    "PlayerDecision": _player_decision,
    "SpinResult": lambda e, currency: f"the ball lands on {safe(e.get('pocket'))}",
    "PayoutMade": _on_bet("is paid"),
    "CommissionTaken": lambda e, currency: (
        f"the house takes {money(e.get('amount'), currency)} commission on bet "
        f"{safe(e.get('bet_id'))}"
    ),
    "CagnotteTaken": lambda e, currency: (
        f"the house takes {money(e.get('amount'), currency)} cagnotte"
    ),
    "RoundVoided": _declared("void"),
    "RoundMalfunction": _declared("a malfunction"),
    "RefundPaid": _on_bet("is refunded"),
    "RoundSettled": lambda e, currency: "the round is settled",
    "ShoeOpened": lambda e, currency: (
        f"a new shoe of {safe(e.get('decks'))} decks, the cut card "
        f"{safe(e.get('cut_card_from_end'))} cards from its end"
    ),
    "CutCardDrawn": lambda e, currency: (
        f"the cut card comes out after {safe(e.get('after_cards'))} of the round's cards: "
        "this round is the shoe's last"
    ),
    "ShoeEnded": lambda e, currency: f"the shoe ends after this round: {safe(e.get('reason'))}",
}
"""Record type -> its describer (every type of the banked schema's union)."""
