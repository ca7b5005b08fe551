"""A tournament across its hands: its chips, its eliminations and its entries agree.

The tournament's own events are read in order (``sequence``), tallying who is in: an
entry (``PlayerRegistered``: a registration, a late registration or a re-entry,
PT-217/2007 II n.º 116) puts a player in with the tournament's ``starting_chips``; an
elimination takes him out. Then:

* **chips stay in the tournament** (MO-97/2010 art.4(2): no player takes off the table
  the chips he plays with or wins; GG-2022 Poker Regras: no money leaves the table
  during play; the records' own arithmetic, ``casino-audit tournament chips``): a
  ``ChipCountRecorded`` that names exactly the players still in adds up to the chips
  the entries so far brought, ``starting_chips`` each. Between two such counts the hands
  in between moved chips between players only; a count short of the total lost chips
  between hands, one above it made some. A partial count (only the players of one hand)
  is not a total and is not added up. ``tournament_chips_unbalanced``, naming the count's
  hand and the previous whole count's;
* **eliminations agree with the counts** (``elimination_contradicts_chips``): a player
  counted with chips in a later hand after his elimination (with no entry since), a
  player counted with no chips who was never eliminated, an elimination of a player who
  is not in, and finishing places other than the number of players in when they went
  out (the k players eliminated in one hand among R still in finish R-k+1 .. R; which of
  them finishes where is the same-hand rule's, ``eliminations``);
* **the entry is personal** (PT-217/2007 n.º 117: "pessoal e intransmissível", no
  participant may have another take his place): chips counted, or an elimination
  recorded, for a player who never entered is ``entry_not_personal``;
* **late entries close at the money** (GG-2022 Política de torneios: late registration
  closes "se um número suficiente de jogadores for eliminado para iniciar os
  pagamentos"; once the next player eliminated will win a prize, "Nenhum jogador
  adicional poderá entrar"): an entry after the start, once players have been
  eliminated and no more are in than places paid (``TournamentAnnounced.payouts``), is
  ``late_entry_after_itm``. Before any elimination a small field is not "in the money":
  the paid places announced are those of the final field.

Choice: every entry brings ``starting_chips`` (re-entries and rebuys buy a starting
stack; the schema records no other chip amount for an entry, nor any add-on).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any

from replayer.events import FlatEvent
from replayer.findings import Finding, FindingKind

RECORDS = "casino-audit tournament chips"
#: A tournament's rulebook id prefix -> the article keeping chips on the table.
CHIPS_ARTICLE = {"mo-": "MO-97/2010 art.4(2)", "gg-": "GG-2022 Poker Regras"}
PLACES = "casino-audit tournament chips; GG-2022 Política de eliminação de torneios"
LATE_ENTRY = "GG-2022 Política de torneios"
PERSONAL = "PT-217/2007 n.º 117"


def chips_citation(rulebook: str | None) -> str:
    """The records' own arithmetic, and the tournament's rulebook's article if it has one.

    >>> chips_citation("gg-2022-tournament-holdem")
    'casino-audit tournament chips; GG-2022 Poker Regras'
    >>> chips_citation(None)
    'casino-audit tournament chips'
    """
    article = next((a for p, a in CHIPS_ARTICLE.items() if (rulebook or "").startswith(p)), None)
    return RECORDS if article is None else f"{RECORDS}; {article}"


@dataclass(slots=True)
class _Field:
    """Who is in, as the events read so far say."""

    starting_chips: int
    paid_places: int
    entries: int = 0
    eliminations: int = 0
    started: bool = False
    playing: set[str] = field(default_factory=set)
    entered: set[str] = field(default_factory=set)
    out_in: dict[str, str | None] = field(default_factory=dict)
    """Player -> the hand that eliminated him (while he stays out)."""
    whole_count: str | None = None
    """The hand of the last count naming every player in ("" when it names none)."""


def continuity_findings(tournament_id: str, events: Sequence[FlatEvent]) -> list[Finding]:
    """Chips, eliminations and late entries across the tournament's hands."""
    ordered = sorted(events, key=lambda e: e["sequence"])
    announced = next((e for e in ordered if e["type"] == "TournamentAnnounced"), None)
    if announced is None:
        return []
    state = _Field(int(announced.get("starting_chips") or 0), len(announced.get("payouts") or ()))
    rulebook = announced.get("rulebook")
    findings: list[Finding] = []
    for (kind, hand), run in groupby(ordered, key=_run_key):
        group = list(run)
        if kind == "PlayerEliminated":
            findings += _eliminated(tournament_id, state, hand, group)
            continue
        for event in group:
            if kind == "PlayerRegistered":
                findings += _entered(tournament_id, state, event)
            elif kind == "TournamentStarted":
                state.started = True
            elif kind == "PlayerUnregistered":
                state.entries -= 1
                state.playing.discard(str(event["player_id"]))
            elif kind == "ChipCountRecorded":
                findings += _counted(tournament_id, state, event, rulebook)
    return findings


def _run_key(event: FlatEvent) -> tuple[str, Any]:
    """Consecutive eliminations of one hand go together."""
    hand = event.get("hand_id") if event["type"] == "PlayerEliminated" else event["sequence"]
    return str(event["type"]), hand


def _entered(tournament_id: str, state: _Field, event: FlatEvent) -> list[Finding]:
    player = str(event["player_id"])
    late = state.started and state.eliminations > 0 and len(state.playing) <= state.paid_places
    state.entries += 1
    state.playing.add(player)
    state.entered.add(player)
    state.out_in.pop(player, None)
    if not late:
        return []
    return [
        Finding(
            FindingKind.LATE_ENTRY_AFTER_ITM,
            tournament_id,
            LATE_ENTRY,
            f"{player} entered ({event.get('entry_id')}) when {len(state.playing) - 1} "
            f"players were in and {state.paid_places} places are paid: late registration "
            "had closed at the money",
            expected="no entry",
            recorded=str(event.get("entry_id")),
            detail={"player_id": player, "sequence": event["sequence"]},
        )
    ]


def _eliminated(
    tournament_id: str, state: _Field, hand: Any, group: list[FlatEvent]
) -> list[Finding]:
    """One hand's eliminations: each of a player in, the places R-k+1 .. R."""
    findings = []
    before = len(state.playing)
    due = set(range(before - len(group) + 1, before + 1))
    for event in group:
        player, place = str(event["player_id"]), int(event["place"])
        if player not in state.entered:
            findings.append(_stranger(tournament_id, player, event, "eliminated"))
        elif player not in state.playing:
            findings.append(
                _contradiction(
                    tournament_id,
                    f"hand {hand}: {player} eliminated, but he is not in the tournament",
                    expected="a player still in",
                    recorded=player,
                    detail={"player_id": player, "hand_id": hand, "sequence": event["sequence"]},
                )
            )
        elif place not in due:
            findings.append(
                _contradiction(
                    tournament_id,
                    f"hand {hand}: {player} finishes {place}, but {before} players were in "
                    f"and {len(group)} went out: places {min(due)}-{max(due)}",
                    expected=sorted(due),
                    recorded=place,
                    detail={"player_id": player, "hand_id": hand, "sequence": event["sequence"]},
                )
            )
        state.playing.discard(player)
        state.eliminations += 1
        state.out_in[player] = None if hand is None else str(hand)
    return findings


def _counted(tournament_id: str, state: _Field, event: FlatEvent, rulebook: Any) -> list[Finding]:
    hand = event.get("hand_id")
    counts = {str(c["player_id"]): int(c["chips"]) for c in event["counts"]}
    findings = []
    for player, chips in sorted(counts.items()):
        out = state.out_in.get(player, "")
        if player not in state.entered:
            findings.append(
                _stranger(tournament_id, player, event, f"counted with {chips:,} chips")
            )
        elif chips > 0 and player in state.out_in and out != hand:
            findings.append(
                _contradiction(
                    tournament_id,
                    f"hand {hand}: {player} counted with {chips:,} chips after his "
                    f"elimination in hand {out}",
                    expected=0,
                    recorded=chips,
                    detail={
                        "player_id": player,
                        "hand_id": hand,
                        "eliminated_in": out,
                        "sequence": event["sequence"],
                    },
                )
            )
        elif chips == 0 and player in state.playing:
            findings.append(
                _contradiction(
                    tournament_id,
                    f"hand {hand}: {player} counted with no chips, never eliminated",
                    expected="an elimination",
                    recorded=0,
                    detail={"player_id": player, "hand_id": hand, "sequence": event["sequence"]},
                )
            )
    if set(counts) == state.playing and state.playing:
        findings += _total(tournament_id, state, event, sum(counts.values()), rulebook)
        state.whole_count = "" if hand is None else str(hand)
    return findings


def _total(
    tournament_id: str, state: _Field, event: FlatEvent, counted: int, rulebook: Any
) -> list[Finding]:
    in_play = state.entries * state.starting_chips
    if counted == in_play:
        return []
    hand = event.get("hand_id")
    since = f"since hand {state.whole_count}" if state.whole_count else "since the start"
    moved = "left the tournament" if counted < in_play else "came from outside"
    return [
        Finding(
            FindingKind.TOURNAMENT_CHIPS_UNBALANCED,
            tournament_id,
            chips_citation(None if rulebook is None else str(rulebook)),
            f"hand {hand}: the {len(state.playing)} players in hold {counted:,} chips, "
            f"{state.entries} entries brought {in_play:,}: {abs(counted - in_play):,} chips "
            f"{moved} {since}",
            expected=in_play,
            recorded=counted,
            difference=counted - in_play,
            detail={
                "hand_id": hand,
                "previous_hand_id": state.whole_count or None,
                "sequence": event["sequence"],
            },
        )
    ]


def _stranger(tournament_id: str, player: str, event: FlatEvent, what: str) -> Finding:
    """A player without an entry of his own in the tournament's hands."""
    hand = event.get("hand_id")
    return Finding(
        FindingKind.ENTRY_NOT_PERSONAL,
        tournament_id,
        PERSONAL,
        f"hand {hand}: {player} {what}, but he holds no entry: an entry is personal and "
        "cannot pass to another player",
        expected="a player with an entry",
        recorded=player,
        detail={"player_id": player, "hand_id": hand, "sequence": event["sequence"]},
    )


def _contradiction(tournament_id: str, reason: str, **parts: Any) -> Finding:
    kind = FindingKind.ELIMINATION_CONTRADICTS_CHIPS
    return Finding(kind, tournament_id, PLACES, reason, **parts)
