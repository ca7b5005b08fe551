"""Tournament adjudication beyond incidents: same-hand places, bounty splits, satellites."""

from __future__ import annotations

from replayer.tournaments import (
    Busted,
    Remainder,
    adjudicate_tournament,
    finishing_order,
    seat_value,
)
from tests.replayer.tournaments.test_tournament_cancellation import Tournament


def _kinds(verdict) -> list[tuple[str, str, object, object]]:
    return [
        (str(f.kind), f.detail.get("player_id"), f.expected, f.recorded) for f in verdict.findings
    ]


def _double_bust(
    a: tuple[int, int, int], b: tuple[int, int, int], payouts: tuple[int, ...] = ()
) -> Tournament:
    """A and B busted in hand h9: (place recorded, chips at the start, seat from button)."""
    t = Tournament(payouts=payouts)
    for player in "ABC":
        t.register(player, f"e-{player}")
    t.add("TournamentStarted", late_registration_until=None)
    for player, (place, chips, seat) in zip("AB", (a, b), strict=True):
        t.add(
            "PlayerEliminated",
            player_id=player,
            place=place,
            hand_id="h9",
            chips_at_hand_start=chips,
            seat_from_button=seat,
        )
    return t


def test_more_chips_at_the_start_of_the_hand_finishes_ahead():
    assert _kinds(adjudicate_tournament(_double_bust((2, 900, 5), (3, 400, 1)).events)) == []
    verdict = adjudicate_tournament(_double_bust((3, 900, 5), (2, 400, 1)).events)
    assert _kinds(verdict) == [("wrong_place", "A", 2, 3), ("wrong_place", "B", 3, 2)]
    assert verdict.findings[0].citation == "GG-2022 Política de eliminação de torneios"


def test_equal_stacks_first_seat_left_of_the_button_finishes_ahead():
    assert _kinds(adjudicate_tournament(_double_bust((2, 500, 1), (3, 500, 4)).events)) == []
    wrong = adjudicate_tournament(_double_bust((3, 500, 1), (2, 500, 4)).events)
    assert [k[0] for k in _kinds(wrong)] == ["wrong_place", "wrong_place"]
    order = finishing_order(
        [Busted("x", 5, 100, 3), Busted("y", 6, 100, 2), Busted("z", 7, 300, 9)]
    )
    assert [b.player_id for b in order] == ["z", "y", "x"]


def test_chips_at_the_start_may_come_from_the_hands_chip_count():
    t = _double_bust((3, None, None), (2, None, None))
    t.events.insert(
        5,
        {
            **t.events[4],
            "type": "ChipCountRecorded",
            "hand_id": "h9",
            "counts": [
                {"player_id": "A", "chips": 900, "seat_from_button": 2},
                {"player_id": "B", "chips": 400, "seat_from_button": 1},
            ],
        },
    )
    for n, event in enumerate(t.events):
        event["sequence"] = n
    assert [k[0] for k in _kinds(adjudicate_tournament(t.events))] == ["wrong_place"] * 2


def _split_bounty(amounts: tuple[int, ...], bounty: int = 1_001) -> Tournament:
    t = Tournament(bounty=bounty)
    for player in "ABCD":
        t.register(player, f"e-{player}")
    t.add("TournamentStarted", late_registration_until=None)
    t.add(
        "PlayerEliminated",
        player_id="D",
        place=4,
        hand_id="h1",
        chips_at_hand_start=10,
        seat_from_button=1,
    )
    for player, amount in zip("AB", amounts, strict=False):
        t.add("BountyAwarded", player_id=player, eliminated_player_id="D", amount=amount)
    return t


def test_bounty_on_a_split_pot_is_shared_equally():
    assert _kinds(adjudicate_tournament(_split_bounty((500, 500)).events)) == []
    wrong = adjudicate_tournament(_split_bounty((501, 500)).events)
    assert _kinds(wrong) == [("mispaid_bounty", "A", 500, 501)]
    assert wrong.findings[0].citation == "GG-2022 Bounty Política de torneios"
    paid_out = _split_bounty((501, 500)).events
    assert (
        _kinds(adjudicate_tournament(paid_out, bounty_remainder=Remainder.LARGEST_FRACTION)) == []
    )
    assert _kinds(adjudicate_tournament(_split_bounty((1_001,)).events)) == []


def test_extra_satellite_seat_is_paid_as_tournament_money_buy_in_minus_fee():
    target = Tournament(buy_in=9_000, fee=1_000)  # US$100 = 90 + 10: T$ 90
    target.register("ana", "e1")
    assert seat_value(target.events) == 9_000
    satellite = Tournament(buy_in=1_000, fee=100)
    satellite.register("ana", "s1").register("rui", "s2")
    satellite.add("TournamentStarted", late_registration_until=None)
    satellite.add("PrizePaid", player_id="rui", place=1, amount=10_000, kind="satellite_seat")
    satellite.add("PrizePaid", player_id="ana", place=1, amount=10_000, kind="satellite_seat")
    verdict = adjudicate_tournament(satellite.events, target_events=target.events)
    assert _kinds(verdict) == [
        (
            "mispaid_prize",
            "ana",
            {"kind": "tournament_money", "amount": 9_000},
            {"kind": "satellite_seat", "amount": 10_000},
        )
    ]
    assert verdict.findings[0].citation == (
        "GG-2022 Política de prêmios para vários satélites/assentos"
    )
    fixed = [
        e
        if e.get("player_id") != "ana" or e["type"] != "PrizePaid"
        else {**e, "kind": "tournament_money", "amount": 9_000}
        for e in satellite.events
    ]
    assert _kinds(adjudicate_tournament(fixed, target_events=target.events)) == []


def test_replay_judges_a_satellite_against_the_target_it_names(tmp_path):
    """``satellite_for`` links the two tournaments in the store; replay joins them."""
    from audit.judging import current_findings, replay
    from audit.store import AuditStore, SubjectRecords

    def as_subject(t: Tournament, tournament_id: str, **announced) -> SubjectRecords:
        events = [
            {
                **e,
                "tournament_id": tournament_id,
                "event_id": f"{tournament_id}#{e['sequence']}",
                **(announced if e["type"] == "TournamentAnnounced" else {}),
            }
            for e in t.events
        ]
        return SubjectRecords("tournament", tournament_id, events)

    target = Tournament(buy_in=9_000, fee=1_000).register("ana", "e1")
    satellite = Tournament(buy_in=1_000, fee=100).register("ana", "s1")
    satellite.add("TournamentStarted", late_registration_until=None)
    satellite.add("PrizePaid", player_id="ana", place=1, amount=10_000, kind="satellite_seat")
    store = AuditStore(f"sqlite:///{tmp_path / 's.db'}")
    store.append(
        [
            as_subject(target, "main-event"),
            as_subject(satellite, "sat-1", satellite_for="main-event"),
        ]
    )
    replay(store, kinds=["tournament"])
    [finding] = current_findings(store)
    assert (finding["kind"], finding["subject"]) == ("mispaid_prize", "sat-1")
    assert finding["expected"] == {"kind": "tournament_money", "amount": 9_000}


def _finished(prizes: dict[str, int], places: tuple[int, int] = (2, 3)) -> Tournament:
    """A, B, C for payouts 1,800 / 900 / 300: A (900 chips) and B (400) bust in one hand
    with the recorded ``places``; C wins; cash ``prizes`` as recorded."""
    t = _double_bust((places[0], 900, 1), (places[1], 400, 1), payouts=(1_800, 900, 300))
    for player, amount in prizes.items():
        t.add("PrizePaid", player_id=player, place=None, amount=amount, kind="cash")
    return t.add("TournamentCompleted")


def test_each_place_is_paid_the_announced_prize_pt_n115_n118():
    assert _kinds(adjudicate_tournament(_finished({"C": 1_800, "A": 900, "B": 300}).events)) == []
    short = adjudicate_tournament(_finished({"C": 1_700, "A": 900, "B": 300}).events)
    assert _kinds(short) == [("mispaid_prize", "C", 1_800, 1_700)]
    assert short.findings[0].citation == "PT-217/2007 II n.º 115, n.º 118"


def test_a_place_recorded_against_the_same_hand_rule_is_also_a_wrong_prize():
    swapped = _finished({"C": 1_800, "A": 300, "B": 900}, places=(3, 2))
    assert _kinds(adjudicate_tournament(swapped.events)) == [
        ("wrong_place", "A", 2, 3),
        ("wrong_place", "B", 3, 2),
        ("mispaid_prize", "A", 900, 300),
        ("mispaid_prize", "B", 300, 900),
    ]


def test_prizes_are_not_judged_before_the_tournament_is_completed():
    unfinished = _finished({"C": 0})
    unfinished.events.pop()
    assert _kinds(adjudicate_tournament(unfinished.events)) == []
