"""Finding kinds in plain words: the one table people read a kind through.

A finding's ``kind`` (``replayer.findings.FindingKind``) is an identifier for code and
filters; pages and reports show ``kind_label(kind)`` ("Pot paid wrongly"), with the
identifier beside it, small, for whoever filters or searches by it. Every kind has a
label (``tests/audit/show/test_kind_labels.py`` checks the table against ``FindingKind``); a kind
this table does not know (a newer store) reads as its identifier, never as nothing.
"""

from __future__ import annotations

from replayer.findings import FindingKind

KIND_LABELS: dict[str, str] = {
    FindingKind.MISPAID_POT: "Pot paid wrongly",
    FindingKind.RAKE_CAP_BREACH: "Rake above its cap",
    FindingKind.RAKE_RATE_OUT_OF_BAND: "Rake rate outside the allowed band",
    FindingKind.ILLEGAL_ACTION: "Action the rules do not allow",
    FindingKind.INVALID_DEAL: "Cards dealt wrongly",
    FindingKind.VOID_HAND_NOT_REFUNDED: "Void hand not refunded",
    FindingKind.MISPAID_BET: "Bet paid wrongly",
    FindingKind.METER_DISCREPANCY: "Machine meters do not add up",
    FindingKind.COLLUSION_SUSPECTED: "Suspected collusion",
    FindingKind.REFUND_MISMATCH: "Refund wrong",
    FindingKind.CHAIN_BROKEN: "Stored records broken or altered",
    FindingKind.DATA_QUALITY: "Input records failing checks",
    FindingKind.NO_RULEBOOK: "No rulebook to judge by",
    FindingKind.WRONG_DRAW: "Drawing rule not followed",
    FindingKind.WRONG_PLACE: "Tournament place wrong",
    FindingKind.MISPAID_BOUNTY: "Bounty paid wrongly",
    FindingKind.MISPAID_PRIZE: "Prize paid wrongly",
    FindingKind.RETURN_OUT_OF_BAND: "Machine return outside the allowed band",
    FindingKind.PAST_POSTED_BET: "Bet placed after betting closed",
    FindingKind.TERMS_MISSING: "Table terms not declared",
    FindingKind.TERMS_OUTSIDE_RULEBOOK: "Table terms the rulebook does not allow",
    FindingKind.CONFLICTING_VERSIONS: "Operator sent conflicting versions",
    FindingKind.FEE_NOT_ALLOWED: "Fee taken that is not allowed",
    FindingKind.CHIPS_VANISHED: "Chips left the table between hands",
    FindingKind.RECORD_CONTRADICTS_ITSELF: "Room's record disagrees with itself",
    FindingKind.BUTTON_NOT_ROTATED: "Button did not move",
    FindingKind.SHOE_COMPOSITION: "Shoe shows cards its decks cannot hold",
    FindingKind.PAST_LAST_COUP: "Round dealt after the shoe's last coup",
    FindingKind.ACTED_OUT_OF_TIME: "Action after the player's time ran out",
    FindingKind.TOURNAMENT_CHIPS_UNBALANCED: "Tournament chips do not add up",
    FindingKind.ELIMINATION_CONTRADICTS_CHIPS: "Elimination the chip counts contradict",
    FindingKind.LATE_ENTRY_AFTER_ITM: "Entry after the paid places were reached",
    FindingKind.ENTRY_NOT_PERSONAL: "Tournament seat played by someone without an entry",
    FindingKind.DEAL_OUTSIDE_RULES: "Tournament deal the rules do not allow",
    FindingKind.JACKPOT_CONTRIBUTION: "Jackpot deduction other than the declared share",
    FindingKind.JACKPOT_LIABILITY: "Jackpot holds other than its contributions",
    FindingKind.JACKPOT_TRANSFER: "Jackpot not moved whole to a like machine",
    FindingKind.UNAPPROVED_CONFIGURATION: "Machine configured other than approved",
    FindingKind.TOURNAMENT_CHIPS_VANISHED: "Tournament chips left the table between hands",
    FindingKind.TOURNAMENT_CHIPS_APPEARED: "Tournament chips appeared between hands",
    FindingKind.BUTTON_NOT_TO_WINNER: "Button did not go to the last hand's winner",
}


METER_LABELS: dict[str, str] = {
    "coin_in": "coin in",
    "coin_out": "coin out",
    "jackpot": "jackpot",
    "games_played": "games played",
    "games_won": "games won",
    "drop": "drop",
    "bills_in": "bills in",
    "ticket_in": "tickets in",
    "ticket_out": "tickets out",
    "cancelled_credits": "cancelled credits",
    "handpaid_cancelled_credits": "hand-paid cancelled credits",
    "total_won": "total won",
    "total_handpaid": "total hand-paid",
}
"""A slot meter (``replayer.slots.meters``: SAS names) in plain words."""


def meter_label(meter: object) -> str:
    """A slot meter in plain words; an unknown meter as its identifier."""
    text = str(meter or "")
    return METER_LABELS.get(text, text or "meter")


def kind_label(kind: object) -> str:
    """``kind`` in plain words; an unknown kind as its identifier (never empty)."""
    text = str(kind or "")
    return KIND_LABELS.get(text, text or "finding")


SUBJECT_NOUNS: dict[str, tuple[str, str]] = {
    "poker": ("poker hand", "poker hands"),
    "banked": ("banked-game round", "banked-game rounds"),
    "slots": ("slot machine", "slot machines"),
    "tournament": ("tournament", "tournaments"),
    "table": ("table's terms", "tables' terms"),
    "banker_run": ("chemin de fer banker run", "chemin de fer banker runs"),
    "table_session": ("poker table session", "poker table sessions"),
    "shoe": ("shoe of cards", "shoes of cards"),
    "collusion": ("player pair or ring", "player pairs or rings"),
    "data_quality": ("night's input check", "night's input checks"),
    "meters": ("night's slot fleet check", "night's slot fleet checks"),
    "incident": ("incident", "incidents"),
}
"""A judged subject's kind (``audit.judging.ADJUDICATORS`` and the detectors) as a noun,
(singular, plural), for counts ("331 poker hands")."""


def subject_count(kind: str, count: int) -> str:
    """``count`` subjects of ``kind`` in words: ``331 poker hands``, ``1 slot machine``."""
    one, many = SUBJECT_NOUNS.get(kind, (f"{kind} subject", f"{kind} subjects"))
    return f"{count} {one if count == 1 else many}"


RULEBOOK_LEFT_TO_SUBJECTS = (
    "not declared for the table: each round, machine or tournament names its own"
)
"""A table's declaration without a rulebook: a banked floor, a slot floor or a tournament
programme leaves it to each subject (``RoundOpened.rulebook``,
``MachineConfigured.rulebook``)."""
