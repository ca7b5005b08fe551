"""The PokerKit oracle names why a room's hand is outside PokerKit's model (hands written
in the PHH the export gives for the rooms' real forms; names and amounts our own)."""

from __future__ import annotations

from tests.pokerkit_oracle import pokerkit_check

HEAD = 'variant = "NT"\nmin_bet = {bb}\nantes = {antes}\nblinds_or_straddles = {blinds}\n'


def _hand(bb: int, antes: str, blinds: str, stacks: str, actions: str, finishing: str) -> str:
    return (
        HEAD.format(bb=bb, antes=antes, blinds=blinds)
        + f"starting_stacks = {stacks}\nactions = {actions}\nfinishing_stacks = {finishing}\n"
    )


def test_a_big_blind_posted_all_in_for_less_is_named() -> None:
    # p2 posts 30 of the 50 big blind all-in; p3 calls the full 50 (the room's rule).
    text = _hand(
        50,
        "[0, 0, 0]",
        "[25, 30, 0]",
        "[500, 30, 500]",
        '["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 cc", "p1 cc", '
        '"d db AhKhQh", "d db 2c", "d db 3d", "p1 cc", "p3 cc", "p1 cc", "p3 cc", '
        '"p1 cc", "p3 cc", "p1 sm AsAd", "p3 sm 7c8c", "p2 sm 9s9d"]',
        "[590, 0, 450]",
    )
    assert pokerkit_check(text).refused.startswith("big blind posted short (30 of 50)")


def test_a_fold_by_a_player_all_in_on_his_ante_is_named() -> None:
    text = _hand(
        20,
        "[5, 5, 3]",
        "[10, 20, 0]",
        "[400, 400, 3]",
        '["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 f", "p1 f"]',
        "[385, 418, 0]",
    )
    assert pokerkit_check(text).refused.startswith("p3 folds all-in (no chips behind)")


def test_a_raise_no_other_player_can_call_is_named() -> None:
    # p3 is all-in for 100; p1 (60 behind) and p2 (70) cannot call more; p4 raises.
    text = _hand(
        20,
        "[0, 0, 0, 0]",
        "[10, 20, 0, 0]",
        "[70, 90, 100, 1000]",
        '["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "d dh p4 ????", '
        '"p3 cbr 100", "p4 cbr 300", "p1 f", "p2 f", "p3 sm AsAd", "p4 sm KsKd"]',
        "[60, 70, 230, 900]",
    )
    assert pokerkit_check(text).refused.startswith("p4 raises where no other player")


def test_cards_shown_after_folding_are_named() -> None:
    text = _hand(
        20,
        "[0, 0, 0]",
        "[10, 20, 0]",
        "[400, 400, 400]",
        '["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 f", "p1 f", "p3 sm 7s"]',
        "[390, 410, 400]",
    )
    assert pokerkit_check(text).refused.startswith("p3 shows or mucks after folding")


def test_a_hand_in_pokerkit_s_model_still_replays() -> None:
    text = _hand(
        20,
        "[0, 0, 0]",
        "[10, 20, 0]",
        "[400, 400, 400]",
        '["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 f", "p1 f"]',
        "[390, 410, 400]",
    )
    assert pokerkit_check(text).agrees
