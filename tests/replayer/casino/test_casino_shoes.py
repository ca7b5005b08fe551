"""A shoe judged whole across its rounds (``replayer.casino.shoes``).

The oracle is exact counting done here, on the shoe the test builds: how many times each
card was put in, where the cut card lies, which round reaches it. The module under test
never decides what a clean shoe is.
"""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime, timedelta

from replayer.casino.cards import RANKS, SUITS
from replayer.casino.shoes import check_shoe
from simulate.casino import RoundWriter

START = datetime(2024, 5, 2, 20, 0, tzinfo=UTC)
GAMES = {
    "punto_banco": ("gg-2022-live-baccarat", 8, 7),
    "chemin_de_fer": ("pt-217-2007-chemin-de-fer", 6, 7),
    "blackjack": ("gg-2022-live-blackjack", 8, 208),
}


def deck_shoe(decks: int, seed: int) -> list[str]:
    cards = [rank + suit for rank in RANKS for suit in SUITS] * decks
    random.Random(seed).shuffle(cards)
    return cards


def one_round(
    n: int,
    cards: list[str],
    game: str = "punto_banco",
    *,
    opened: dict | None = None,
    cut_after: int | None = None,
    void: bool = False,
    seated: int | None = None,
    at: datetime | None = None,
) -> list[dict]:
    writer = RoundWriter(f"t-1/{n:04d}", at or START + timedelta(minutes=n))
    writer.emit(
        "RoundOpened",
        rulebook=GAMES[game][0],
        table_id="t-1",
        game=game,
        currency="EUR",
        shoe_id="s-1",
        min_bet=100,
        seated=seated,
    )
    if opened is not None:
        writer.emit("ShoeOpened", **{"burnt": [], "closing_at": None, **opened})
    for index, card in enumerate(cards):
        if cut_after == index:
            writer.emit("CutCardDrawn", after_cards=index)
        writer.emit("CardDealt", to="player" if index % 2 == 0 else "banker", card=card)
    if cut_after == len(cards):
        writer.emit("CutCardDrawn", after_cards=len(cards))
    if void:
        writer.emit("RoundVoided", reason="shoe jammed")
    return writer.events


def dealt_shoe(game: str, seed: int = 1, extra_rounds: int = 0) -> list[list[dict]]:
    """A whole shoe dealt clean in rounds of 4 to 6 cards, opened and cut as the rules
    place the cut card; the round whose draw reaches the cut card is the last, then
    ``extra_rounds`` more are dealt from what is left. Counted here, independently."""
    _, decks, cut = GAMES[game]
    cards = deck_shoe(decks, seed)
    before_cut = decks * 52 - cut
    rng = random.Random(seed)
    rounds, out, n, last_seen = [], 0, 0, None
    while last_seen is None or n <= last_seen + extra_rounds:
        take = rng.randint(4, 6)
        drawn = cards[out : out + take]
        cut_after = before_cut - out if out <= before_cut < out + take else None
        if cut_after is not None:
            last_seen = n
        opened = {"decks": decks, "cut_card_from_end": cut} if n == 0 else None
        rounds.append(one_round(n, drawn, game, opened=opened, cut_after=cut_after))
        out += take
        n += 1
    return rounds


def found(rounds: list[list[dict]]) -> list[tuple[str, str, str]]:
    return [(f.kind, f.subject, f.citation) for f in check_shoe(rounds).findings]


def test_a_whole_shoe_dealt_by_the_rules_raises_nothing() -> None:
    for game in GAMES:
        rounds = dealt_shoe(game)
        verdict = check_shoe(reversed(rounds))  # play order is the records' own, not the list's
        assert verdict.findings == ()
        assert verdict.cards_drawn == sum(sum(e["type"] == "CardDealt" for e in r) for r in rounds)


def test_a_card_shown_more_often_than_eight_decks_hold_gg_live_ii_1_3_1() -> None:
    rounds = dealt_shoe("punto_banco")
    counts = Counter(e["card"] for r in rounds for e in r if e["type"] == "CardDealt")
    card = next(c for c, k in counts.items() if k == 8)  # all eight copies already dealt
    last = rounds[-1]
    dealt = next(e for e in last if e["type"] == "CardDealt" and e["card"] != card)
    dealt["card"] = card  # one round, still legal alone: the card once in it
    assert sum(e.get("card") == card for e in last) == 1
    assert ("shoe_composition", last[0]["round_id"], "GG-2022 live II 1.3.1") in found(rounds)


def test_more_cards_than_six_decks_hold_pt_i4_i13() -> None:
    cards = deck_shoe(6, 3) + deck_shoe(6, 4)[:1]
    rounds = [
        one_round(n, cards[k : k + 6], "chemin_de_fer") for n, k in enumerate(range(0, 313, 6))
    ]
    holds = [f for f in check_shoe(rounds).findings if f.recorded == 313]
    assert [(f.kind, f.citation, f.expected) for f in holds] == [
        ("shoe_composition", "PT-217/2007 I.4, I.13", 312)
    ]


def test_voided_rounds_count_their_cards() -> None:
    cards = deck_shoe(6, 5)[:6]
    void = one_round(0, cards, "chemin_de_fer", void=True)
    rounds = [void, *[one_round(k, cards, "chemin_de_fer") for k in range(1, 7)]]
    verdict = check_shoe(rounds)
    assert (verdict.rounds, verdict.voided) == (7, 1)
    # each of the six cards shown 7 times (the void round's included) in a 6-deck shoe
    assert sorted(f.detail["card"] for f in verdict.findings) == sorted(cards)
    assert check_shoe(rounds[1:]).findings == ()


def test_a_round_after_the_last_coup_gg_live_ii_3_2_2_3_5_4_and_pt_i14() -> None:
    for game, citation in (
        ("punto_banco", "GG-2022 live II 3.2.2, 3.5.4"),
        ("chemin_de_fer", "PT-217/2007 I.14"),
        ("blackjack", "GG-2022 live III 3.2.2"),
    ):
        rounds = dealt_shoe(game, extra_rounds=1)
        assert found(rounds) == [("past_last_coup", rounds[-1][0]["round_id"], citation)]


def test_the_last_coup_from_the_cards_drawn_when_no_cut_card_is_recorded() -> None:
    rounds = dealt_shoe("punto_banco", extra_rounds=2)
    bare = [[e for e in r if e["type"] != "CutCardDrawn"] for r in rounds]
    assert found(bare) == [
        ("past_last_coup", bare[-2][0]["round_id"], "GG-2022 live II 3.2.2, 3.5.4")
    ]


def test_a_cut_card_out_where_it_was_not_placed_gg_live_ii_3_3_4() -> None:
    rounds = dealt_shoe("punto_banco")
    late = next(e for e in rounds[-1] if e["type"] == "CutCardDrawn")
    late["after_cards"] += 1
    assert found(rounds) == [
        ("shoe_composition", rounds[-1][0]["round_id"], "GG-2022 live II 1.3.1, 3.3.4")
    ]


def test_the_shoe_as_opened_decks_and_cut_card_pt_i13_gg_live_iii_3_3() -> None:
    wrong = [one_round(0, ["As", "2s", "3s", "4s"], opened={"decks": 6, "cut_card_from_end": 5})]
    assert found(wrong) == [
        ("shoe_composition", "t-1/0000", "GG-2022 live II 1.3.1"),
        ("shoe_composition", "t-1/0000", "GG-2022 live II 1.3.1, 3.3.4"),
    ]
    chemmy = [
        one_round(0, ["As"] * 4, "chemin_de_fer", opened={"decks": 6, "cut_card_from_end": 8})
    ]
    assert found(chemmy) == [("shoe_composition", "t-1/0000", "PT-217/2007 I.13")]
    # blackjack: the decks are the shoe's own (GG-2022 live III leaves them open)
    bj = [one_round(0, ["As"] * 4, "blackjack", opened={"decks": 6, "cut_card_from_end": 104})]
    assert found(bj) == [("shoe_composition", "t-1/0000", "GG-2022 live III 3.3")]


def test_four_seated_players_pt_i16() -> None:
    rounds = [
        one_round(0, ["As", "2s", "3s", "4s"], "chemin_de_fer", seated=4),
        one_round(1, ["5s", "6s", "7s", "8s"], "chemin_de_fer", seated=3),
        one_round(2, ["9s", "Ts", "Js", "Qs"], "chemin_de_fer"),  # not recorded: not judged
    ]
    assert found(rounds) == [("illegal_action", "t-1/0001", "PT-217/2007 I.16")]


def test_play_past_closing_only_from_a_sabot_begun_20_minutes_before_pt_i107() -> None:
    closing = START + timedelta(minutes=30)
    cards = deck_shoe(6, 7)

    def sabot(opened_at: datetime) -> list[list[dict]]:
        opened = {"decks": 6, "closing_at": closing}
        times = [opened_at + timedelta(minutes=4 * k) for k in range(6)]
        return [
            one_round(
                k,
                cards[4 * k : 4 * k + 4],
                "chemin_de_fer",
                at=t,
                opened=opened if k == 0 else None,
            )
            for k, t in enumerate(times)
        ]

    assert found(sabot(closing - timedelta(minutes=20))) == []
    late = sabot(closing - timedelta(minutes=19))
    assert found(late) == [("illegal_action", late[5][0]["round_id"], "PT-217/2007 I.107")]


def test_a_shoe_opened_again_under_the_same_id_is_named() -> None:
    rounds = dealt_shoe("punto_banco")[:3]
    rounds[2] = one_round(2, ["As", "Ks"], opened={"decks": 8, "cut_card_from_end": 7})
    assert ("data_quality", "t-1/0002", "schemas/banked_round.avsc") in found(rounds)


def test_older_rounds_without_shoe_records_are_judged_on_the_rulebook_s_decks() -> None:
    rounds = [one_round(n, ["As", "2c", "3d", "4h"]) for n in range(8)]
    assert found(rounds) == []  # each card 8 times: what eight decks hold
    rounds.append(one_round(8, ["As", "5c", "6d", "7h"]))
    assert found(rounds) == [("shoe_composition", "t-1/0008", "GG-2022 live II 1.3.1")]
