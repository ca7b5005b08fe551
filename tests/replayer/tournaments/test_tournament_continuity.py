"""A tournament across its hands (issue 38 item 2): chips stay in, eliminations agree with
the counts, late entries close at the money (``replayer.tournaments.continuity``).

Hand-built tournaments (``tests.replayer.tournaments.test_tournament_cancellation.Tournament``,
5,000 chips an entry) and the simulator's clean days as the independent "untouched" set.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from replayer.findings import FindingKind
from replayer.tournaments import adjudicate_tournament
from replayer.tournaments.continuity import continuity_findings
from simulate.tournaments import _units
from tests.replayer.tournaments.test_tournament_cancellation import Tournament


def four_players(payouts: tuple[int, ...] = (700, 300)) -> Tournament:
    t = Tournament(payouts=payouts)
    for player in "ABCD":
        t.register(player, f"e-{player}")
    return t.add("TournamentStarted", late_registration_until=None)


def count(t: Tournament, hand: str, **chips: int) -> Tournament:
    return t.add(
        "ChipCountRecorded",
        hand_id=hand,
        counts=[{"player_id": p, "chips": c, "seat_from_button": None} for p, c in chips.items()],
    )


def bust(t: Tournament, hand: str, player: str, place: int) -> Tournament:
    return t.add(
        "PlayerEliminated",
        player_id=player,
        place=place,
        hand_id=hand,
        chips_at_hand_start=None,
        seat_from_button=None,
    )


def kinds(t: Tournament) -> list[str]:
    return [str(f.kind) for f in continuity_findings("t", t.events)]


def test_a_whole_count_holding_every_entrys_chips_is_clean() -> None:
    t = count(four_players(), "h1", A=5_000, B=5_000, C=5_000, D=5_000)
    t = count(bust(t, "h1", "D", 4), "h2", A=9_000, B=6_000, C=5_000)
    assert kinds(t) == []


def test_mo_art_4_2_chips_leaving_the_tournament_between_hands() -> None:
    """MO-97/2010 art.4(2): no player takes chips off the table during a tournament; the
    whole count of h2 is 1,500 short of what the four entries brought."""
    t = count(four_players(), "h1", A=5_000, B=5_000, C=5_000, D=5_000)
    t.events[0]["rulebook"] = "mo-97-2010-omaha"
    t = count(bust(t, "h1", "D", 4), "h2", A=7_500, B=6_000, C=5_000)
    [finding] = continuity_findings("t", t.events)
    assert finding.kind == FindingKind.TOURNAMENT_CHIPS_UNBALANCED
    assert finding.citation == "casino-audit tournament chips; MO-97/2010 art.4(2)"
    assert (finding.expected, finding.recorded, finding.difference) == (20_000, 18_500, -1_500)
    assert finding.detail["hand_id"] == "h2" and finding.detail["previous_hand_id"] == "h1"
    assert t.events[finding.detail["sequence"]]["type"] == "ChipCountRecorded"


def test_gg_chips_from_nowhere_and_a_partial_count_is_no_total() -> None:
    """GG-2022 Poker Regras (chips only between hands, none leave): a whole count above the
    entries' chips is reported; a count of one hand's players only is not added up."""
    t = four_players()
    t.events[0]["rulebook"] = "gg-2022-tournament-holdem"
    count(t, "h1", A=12_000, B=1_000)
    assert kinds(t) == []
    count(t, "h2", A=12_000, B=1_000, C=4_000, D=4_000)
    [finding] = continuity_findings("t", t.events)
    assert finding.citation == "casino-audit tournament chips; GG-2022 Poker Regras"
    assert finding.difference == 1_000


def test_re_entries_bring_their_starting_stack() -> None:
    """PT-217/2007 n.º 116: a re-entry is an entry, with its own starting chips."""
    t = bust(count(four_players(), "h1", A=5_000, B=5_000, C=5_000, D=5_000), "h1", "D", 4)
    t.register("D", "e-D2")
    count(t, "h2", A=9_000, B=6_000, C=5_000, D=5_000)
    assert kinds(t) == []


def test_a_player_counted_with_chips_after_his_elimination() -> None:
    """The counts contradict the elimination: D went out in h1, holds chips in h3."""
    t = bust(four_players(), "h1", "D", 4)
    count(t, "h3", A=8_000, D=2_000)
    [finding] = continuity_findings("t", t.events)
    assert finding.kind == FindingKind.ELIMINATION_CONTRADICTS_CHIPS
    assert (finding.detail["player_id"], finding.detail["hand_id"]) == ("D", "h3")
    assert finding.detail["eliminated_in"] == "h1"


def test_the_busting_hands_own_count_may_name_him() -> None:
    t = count(four_players(), "h1", A=5_000, B=5_000, C=5_000, D=5_000)
    t = count(bust(t, "h1", "D", 4), "h1", A=5_000, B=5_000, C=5_000, D=5_000)
    assert FindingKind.ELIMINATION_CONTRADICTS_CHIPS not in kinds(t)


def test_a_place_other_than_the_players_in() -> None:
    """Four in, one out: he finishes 4th, not 3rd (and the next one 3rd)."""
    t = bust(bust(four_players(), "h1", "D", 3), "h2", "C", 3)
    [finding] = continuity_findings("t", t.events)
    assert finding.kind == FindingKind.ELIMINATION_CONTRADICTS_CHIPS
    assert (finding.expected, finding.recorded) == ([4], 3)
    assert finding.detail["player_id"] == "D"


def test_two_out_in_one_hand_share_the_two_last_places() -> None:
    t = bust(bust(four_players(), "h1", "C", 3), "h1", "D", 4)
    assert kinds(t) == []


def test_an_elimination_of_a_player_not_in() -> None:
    t = bust(bust(four_players(), "h1", "D", 4), "h2", "D", 3)
    assert kinds(t) == ["elimination_contradicts_chips"]


def test_a_player_at_zero_never_eliminated() -> None:
    t = count(four_players(), "h2", A=10_000, B=5_000, C=5_000, D=0)
    assert kinds(t) == ["elimination_contradicts_chips"]


def test_pt_117_the_entry_is_personal() -> None:
    """PT-217/2007 n.º 117: no participant may have another take his place: X, who never
    entered, is counted with chips and eliminated."""
    t = count(four_players(), "h2", A=5_000, X=5_000)
    bust(t, "h2", "X", 4)
    found = continuity_findings("t", t.events)
    assert [str(f.kind) for f in found] == ["entry_not_personal"] * 2
    assert {f.citation for f in found} == {"PT-217/2007 n.º 117"}
    assert {f.detail["player_id"] for f in found} == {"X"}


def test_gg_torneios_no_entry_once_in_the_money() -> None:
    """GG-2022 Política de torneios: once the next player out wins a prize, "Nenhum
    jogador adicional poderá entrar". Two places paid, two players in: E may not enter."""
    t = bust(bust(four_players(), "h1", "D", 4), "h2", "C", 3)
    before = list(t.events)
    t.register("E", "e-E")
    [finding] = continuity_findings("t", t.events)
    assert finding.kind == FindingKind.LATE_ENTRY_AFTER_ITM
    assert finding.citation == "GG-2022 Política de torneios"
    assert finding.detail["player_id"] == "E"
    assert continuity_findings("t", before) == []


def test_an_entry_before_the_money_is_a_late_registration() -> None:
    t = bust(four_players(), "h1", "D", 4)
    t.register("E", "e-E")
    assert kinds(t) == []


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_untouched_simulated_tournaments_raise_nothing_new(seed: int) -> None:
    """The simulator's tournaments (places from the players in, counts of one hand's
    players) raise no continuity finding."""
    planted: list[Any] = []
    for unit in _units(seed, date(2025, 3, 1), 12, 0.0, planted):
        for events in unit:
            tournament = str(events[0]["tournament_id"])
            assert continuity_findings(tournament, events) == []
            assert not adjudicate_tournament(events).findings or events[0].get("satellite_for")
