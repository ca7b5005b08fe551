"""Tournament schema v2 (issue 38 item 2): deals (PT-217/2007 n.º 119, GG-2022 Política
de negociação de torneios), sanctions (n.º 122) and staked entries withdrawn before the
start (GG-2022 Política de apostas em torneios), judged and stored; a v1 file still reads.
"""

from __future__ import annotations

import json
from pathlib import Path

import fastavro

from audit.families import SCHEMA_DIR, family_named
from audit.ingest.avro_files import write_events
from audit.ingest.avro_shape import to_avro
from audit.ingest.pipeline import ingest
from audit.store import AuditStore
from replayer.tournaments import adjudicate_tournament
from tests.replayer.tournaments.test_tournament_cancellation import Tournament
from tests.replayer.tournaments.test_tournament_continuity import bust

TOURNAMENT = family_named("tournament")
PAYOUTS = (5_000, 3_000, 2_000)


def played_to_three(payouts: tuple[int, ...] = PAYOUTS, seats: int | None = None) -> Tournament:
    """Five entries, two out (5th, 4th): A, B, C left, places 1-3 paying 5,000/3,000/2,000."""
    t = Tournament(payouts=payouts)
    if seats is not None:
        t.events[0]["final_table_seats"] = seats
    for player in "ABCDE":
        t.register(player, f"e-{player}")
    t.add("TournamentStarted", late_registration_until=None)
    return bust(bust(t, "h1", "E", 5), "h2", "D", 4)


def deal(t: Tournament, **shares: int) -> Tournament:
    t.add("DealAgreed", shares=[{"player_id": p, "amount": a} for p, a in shares.items()])
    for player, amount in shares.items():
        t.add("PrizePaid", player_id=player, place=None, amount=amount, kind="cash")
    return t.add("TournamentCompleted")


def kinds(t: Tournament) -> list[tuple[str, str]]:
    return sorted((str(f.kind), f.citation) for f in adjudicate_tournament(t.events).findings)


DEAL = "PT-217/2007 n.º 119; GG-2022 Política de negociação de torneios"


def test_pt_119_a_deal_of_the_players_left_sharing_the_prizes_left_is_clean() -> None:
    """The three left share 10,000 otherwise than 5,000/3,000/2,000 and are paid so: no
    winner is needed, no prize is mispaid."""
    assert kinds(deal(played_to_three(seats=9), A=4_000, B=3_500, C=2_500)) == []


def test_gg_negociacao_every_remaining_player_agrees() -> None:
    """GG-2022 Política de negociação: C is left out of the deal."""
    t = deal(played_to_three(), A=6_000, B=4_000)
    found = adjudicate_tournament(t.events).findings
    [outside] = [f for f in found if str(f.kind) == "deal_outside_rules"]
    assert outside.citation == DEAL and outside.detail["left_out"] == ["C"]


def test_pt_119_deals_only_at_the_final_table() -> None:
    """Three players in, a final table of two seats: not yet the final table."""
    t = deal(played_to_three(seats=2), A=4_000, B=3_500, C=2_500)
    assert kinds(t) == [("deal_outside_rules", DEAL)]


def test_pt_119_a_deal_shares_the_prizes_left_no_more() -> None:
    t = deal(played_to_three(), A=4_000, B=4_000, C=2_500)
    [finding] = adjudicate_tournament(t.events).findings
    assert (finding.expected, finding.recorded, finding.difference) == (10_000, 10_500, 500)


def test_a_prize_paid_against_the_deal_is_mispaid() -> None:
    t = deal(played_to_three(), A=4_000, B=3_500, C=2_500)
    prize = next(e for e in t.events if e["type"] == "PrizePaid" and e["player_id"] == "B")
    prize["amount"] = 3_000
    [finding] = adjudicate_tournament(t.events).findings
    assert str(finding.kind) == "mispaid_prize" and finding.citation == DEAL
    assert (finding.expected, finding.recorded) == (3_500, 3_000)


def finish(t: Tournament, places: dict[str, int]) -> Tournament:
    for player, place in sorted(places.items(), key=lambda item: -item[1]):
        if place > 1:
            bust(t, f"h-{player}", player, place)
    for player, place in places.items():
        t.add("PrizePaid", player_id=player, place=place, amount=PAYOUTS[place - 1], kind="cash")
    return t.add("TournamentCompleted")


def test_pt_122_a_removed_player_takes_the_last_place_in_dispute() -> None:
    """Removed with three in, B finishes 3rd; recorded 2nd he is placed wrongly."""
    t = played_to_three()
    t.add("PlayerSanctioned", player_id="B", sanction="removed", reason="abuse")
    assert kinds(finish(t, {"B": 3, "C": 2, "A": 1})) == []
    t = played_to_three()
    t.add("PlayerSanctioned", player_id="B", sanction="removed", reason="abuse")
    found = kinds(finish(t, {"C": 3, "B": 2, "A": 1}))
    assert ("wrong_place", "PT-217/2007 n.º 122") in found


def test_pt_122_a_disqualified_player_is_due_no_prize() -> None:
    t = played_to_three()
    t.add("PlayerSanctioned", player_id="C", sanction="disqualified", reason="collusion")
    found = adjudicate_tournament(finish(t, {"C": 3, "B": 2, "A": 1}).events).findings
    [finding] = found
    assert str(finding.kind) == "mispaid_prize" and finding.citation == "PT-217/2007 n.º 122"
    assert (finding.expected, finding.recorded) == (0, 2_000)


def test_a_tournament_file_written_with_schema_v1_reads_with_v2(
    tmp_path: Path, store_url: str
) -> None:
    """A v1 file (no final_table_seats, no deal or sanction types) stores under v2; the
    field added in v2 is left out of the stored event when null; v2's new types store."""
    v1 = json.loads((SCHEMA_DIR / "history" / "tournament.v1.avsc").read_text())
    assert v1["version"] == 1 and TOURNAMENT.version >= 2
    assert "final_table_seats" in TOURNAMENT.later_optional_fields
    old_events = played_to_three().events
    old = tmp_path / "old.avro"
    with old.open("wb") as out:
        records = [to_avro(e, namespace=TOURNAMENT.namespace) for e in old_events]
        fastavro.writer(out, fastavro.parse_schema(v1), records)
    store = AuditStore(store_url)
    assert ingest(store, [old]).quarantined == 0
    stored = store.records_of("tournament", "t")
    assert "final_table_seats" not in stored[0]
    new = tmp_path / "new.avro"
    events = deal(played_to_three(seats=9), A=4_000, B=3_500, C=2_500).events
    events[0] = {**events[0], "tournament_id": "t2"}
    for event in events:
        event["tournament_id"] = "t2"
        event["event_id"] = event["event_id"].replace("t#", "t2#")
    write_events(new, TOURNAMENT, events)
    assert ingest(store, [new]).quarantined == 0
    again = store.records_of("tournament", "t2")
    assert again[0]["final_table_seats"] == 9
    assert [e["type"] for e in again][-3:-1] == ["PrizePaid", "PrizePaid"]
    assert "DealAgreed" in {e["type"] for e in again}
    assert adjudicate_tournament(again).findings == ()


STAKING = "GG-2022 Política de apostas em torneios"


def withdrawn(*refunds: tuple[str, int]) -> Tournament:
    """B sells 30% of his entry (1,000 buy-in + 100 fee) to X and 20% to Y, then withdraws
    it before the start; ``refunds`` follow."""
    t = Tournament()
    t.register("A", "e-A")
    t.register("B", "e-B", stakes=[("X", 3_000), ("Y", 2_000)])
    t.add("PlayerUnregistered", player_id="B", entry_id="e-B")
    for person, amount in refunds:
        t.add("RefundPaid", player_id=person, amount=amount, component="buy_in")
    return t.add("TournamentStarted", late_registration_until=None)


def test_gg_staking_a_withdrawn_entrys_stakes_go_back_to_the_backers() -> None:
    """GG-2022 Política de apostas em torneios: X gets 30% of the price back, Y 20%, B the
    rest; the sum is the whole entry."""
    clean = withdrawn(("X", 330), ("Y", 220), ("B", 550))
    assert adjudicate_tournament(clean.events).findings == ()
    kept = withdrawn(("B", 1_100))  # the seller kept the backers' money
    found = {f.detail["player_id"]: f for f in adjudicate_tournament(kept.events).findings}
    assert sorted(found) == ["B", "X", "Y"]
    assert {str(f.kind) for f in found.values()} == {"refund_mismatch"}
    assert found["X"].citation == STAKING
    assert (found["X"].expected, found["X"].recorded, found["X"].difference) == (330, 0, -330)
    assert found["B"].difference == 550


def test_an_unstaked_withdrawal_is_not_a_staking_matter_and_leaves_the_field() -> None:
    t = Tournament(payouts=(1_000,))
    t.register("A", "e-A").register("B", "e-B").register("C", "e-C")
    t.add("PlayerUnregistered", player_id="C", entry_id="e-C")
    t.add("TournamentStarted", late_registration_until=None)
    bust(t, "h1", "B", 2)
    t.add("PrizePaid", player_id="A", place=1, amount=1_000, kind="cash")
    t.add("TournamentCompleted")
    assert adjudicate_tournament(t.events).findings == ()
