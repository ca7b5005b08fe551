"""Places of players eliminated in the same hand (GG-2022 Política de eliminação).

"Se dois ou mais jogadores forem eliminados na mesma mão, o jogador com mais fichas no
início da mão termina à frente ... Se todos os jogadores começarem a mão com um número
idêntico de fichas, a classificação final é determinada pela localização da mesa, com o
primeiro jogador eliminado sentado à esquerda do botão terminando à frente."

Chips at the start of the hand and the seat counted clockwise from the button
(1 = first left of the button) come from PlayerEliminated, else from the
ChipCountRecorded of that hand. The places recorded for one hand are taken as the set
to hand out; the rule says in which order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from replayer.events import FlatEvent
from replayer.findings import Finding, FindingKind

SAME_HAND = "GG-2022 Política de eliminação de torneios"


@dataclass(frozen=True, slots=True)
class Busted:
    """A player eliminated in a hand, as the rule needs him."""

    player_id: str
    place: int
    chips_at_hand_start: int | None
    seat_from_button: int | None


def finishing_order(busted: Sequence[Busted]) -> list[Busted]:
    """Best place first: more chips at the start of the hand, then nearer the button's
    left (seat 1 first)."""
    return sorted(busted, key=lambda b: (-(b.chips_at_hand_start or 0), b.seat_from_button or 0))


def _same_hands(events: Sequence[FlatEvent]) -> list[tuple[str, list[Busted]]]:
    """(hand id, the players it eliminated) for every hand that eliminated two or more,
    with chips and seat at the start of the hand from PlayerEliminated, else from that
    hand's ChipCountRecorded."""
    counts: dict[tuple[str, str], tuple[int, int | None]] = {}
    by_hand: dict[str, list[FlatEvent]] = {}
    for event in sorted(events, key=lambda e: e["sequence"]):
        if event["type"] == "ChipCountRecorded" and event.get("hand_id"):
            for count in event["counts"]:
                key = (str(event["hand_id"]), str(count["player_id"]))
                counts[key] = (int(count["chips"]), count.get("seat_from_button"))
        elif event["type"] == "PlayerEliminated" and event.get("hand_id"):
            by_hand.setdefault(str(event["hand_id"]), []).append(event)
    hands = []
    for hand_id, eliminated in by_hand.items():
        if len(eliminated) < 2:
            continue
        busted = []
        for event in eliminated:
            player = str(event["player_id"])
            chips, seat = counts.get((hand_id, player), (None, None))
            start_chips = event.get("chips_at_hand_start")
            start_seat = event.get("seat_from_button")
            busted.append(
                Busted(
                    player,
                    int(event["place"]),
                    chips if start_chips is None else int(start_chips),
                    seat if start_seat is None else int(start_seat),
                )
            )
        hands.append((hand_id, busted))
    return hands


def _ranked(busted: Sequence[Busted]) -> list[tuple[Busted, int]]:
    """Each player of one hand with the place the rule gives him: the hand's recorded
    places handed out in ``finishing_order``."""
    places = sorted(b.place for b in busted)
    return list(zip(finishing_order(busted), places, strict=True))


def rule_places(events: Sequence[FlatEvent]) -> dict[str, list[int]]:
    """Every eliminated player's finishing places under the rule (one per elimination:
    re-entries): as recorded, but reordered within a hand that eliminated several; a hand
    whose chips at the start are unknown keeps its recorded places."""
    places: dict[str, list[int]] = {}
    corrected: dict[tuple[str, str], int] = {}
    for hand_id, busted in _same_hands(events):
        if all(b.chips_at_hand_start is not None for b in busted):
            for player, place in _ranked(busted):
                corrected[(hand_id, player.player_id)] = place
    for event in sorted(events, key=lambda e: e["sequence"]):
        if event["type"] == "PlayerEliminated":
            player_id = str(event["player_id"])
            key = (str(event.get("hand_id")), player_id)
            places.setdefault(player_id, []).append(corrected.get(key, int(event["place"])))
    return places


def place_findings(tournament_id: str, events: Sequence[FlatEvent]) -> list[Finding]:
    """``wrong_place`` for every same-hand elimination ranked against the rule."""
    findings = []
    for hand_id, busted in _same_hands(events):
        missing = [b.player_id for b in busted if b.chips_at_hand_start is None]
        if missing:
            findings.append(
                Finding(
                    FindingKind.DATA_QUALITY,
                    tournament_id,
                    SAME_HAND,
                    f"hand {hand_id}: no chips at the start of the hand for {', '.join(missing)}",
                    detail={"hand_id": hand_id},
                )
            )
            continue
        for busted_player, place in _ranked(busted):
            if busted_player.place != place:
                findings.append(
                    Finding(
                        FindingKind.WRONG_PLACE,
                        tournament_id,
                        SAME_HAND,
                        f"hand {hand_id}: {busted_player.player_id} "
                        f"({busted_player.chips_at_hand_start} chips at the start, seat "
                        f"{busted_player.seat_from_button} from the button) finishes "
                        f"{place}, recorded {busted_player.place}",
                        expected=place,
                        recorded=busted_player.place,
                        difference=busted_player.place - place,
                        detail={"hand_id": hand_id, "player_id": busted_player.player_id},
                    )
                )
    return findings
