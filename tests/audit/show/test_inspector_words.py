"""Issue 40 items 6 and 7: people named where the round names them, and wording that
does not mislead (a catalogue note never cited as a rule, a band never called "exactly",
a Portuguese title with its meaning, a cagnotte overcharge under the cagnotte's article,
a tournament's page naming the texts its findings cite).

Oracles: the round's own ``BetPlaced`` events (who placed each bet), the catalogue's
titles (``replayer.rulebooks.citations_data``) and the regulation's article numbers."""

from __future__ import annotations

from audit.judging import Inputs, context
from audit.wording import owed, sentence
from audit.wording.citing import NOT_WRITTEN, RULE, rule_label
from replayer.casino import adjudicate_round
from replayer.rulebooks.citations import keys, lookup
from tests.replayer.casino.test_casino_chemin_de_fer import PONTO_STANDS_ON_5, coup

SILENT = "GG-2022 (silent: standard online rules)"


def test_a_catalogue_note_is_never_the_rule_of_a_finding() -> None:
    row = {
        "kind": "mispaid_pot",
        "subject": "gg-1",
        "citation": SILENT,
        "currency": "USD",
        "players": {"1": "ann"},
        "expected": {"1": 300},
        "recorded": {"1": 200},
        "difference": {"1": -100},
        "detail": {"pots": [{"winners": [1]}]},
    }
    assert rule_label(SILENT) == NOT_WRITTEN
    assert rule_label("MO-97/2010 art.16") == RULE
    text = sentence(row)
    assert "(silent" not in text and "GG-2022 is silent here" in text
    assert "USD 1.00 owed to the player" in text


def test_a_band_that_meets_on_one_amount_is_not_called_exact() -> None:
    row = {
        "kind": "rake_rate_out_of_band",
        "subject": "mo-1",
        "citation": "MO-97/2010 art.16",
        "currency": "MOP",
        "expected": {"at_least": 50_000, "at_most": 50_000},
        "recorded": 25_000,
    }
    text = sentence(row)
    assert "exactly" not in text
    assert "a band that comes to MOP 500.00 at both ends on this pot" in text


def test_a_portuguese_title_has_its_meaning_beside_it() -> None:
    row = {
        "kind": "rake_cap_breach",
        "subject": "gg-2",
        "citation": "GG-2022 Política de taxas e de ancinho",
        "currency": "USD",
        "expected": {"at_most": 40},
        "recorded": 50,
    }
    assert 'GG-2022 Política de taxas e de ancinho ("Fees and rake")' in sentence(row)


def test_a_cagnotte_overcharge_cites_the_cagnotte() -> None:
    """The bank's payout short by a cagnotte overcharge cites I.47 (the cagnotte), and
    I.2 is titled by what it says (the higher total wins; equal points void)."""
    events = coup(PONTO_STANDS_ON_5, [1000, 500], {"bank": 21_400}, cagnotte=100)
    findings = adjudicate_round(events).findings
    assert findings and all("PT-217/2007 I.47" in keys(f.citation) for f in findings)
    article = lookup("PT-217/2007 I.2")
    assert article is not None and article.title.startswith("The higher total wins")


def test_a_banked_rounds_bet_is_named_by_its_player() -> None:
    """The round's BetPlaced events name each bet's player: no "player of bet b0"."""
    events = coup(PONTO_STANDS_ON_5, [1000, 500], {"bank": 21_400}, cagnotte=100)
    placed = {e["bet_id"]: e["player_id"] for e in events if e["type"] == "BetPlaced"}
    subject = str(events[0]["round_id"])
    about = context(Inputs("banked", subject, events))
    assert about["players"] == placed
    for finding in adjudicate_round(events).findings:
        row = {**finding.to_record(), "subject_kind": "banked", **about}
        words = sentence(row) + " " + " ".join(o.party for o in owed(row))
        assert "player of bet" not in words and "banker of" not in words, words
        assert any(f"seat {player}" in words for player in placed.values()), words


def test_exported_reasons_are_money_with_currency_and_names() -> None:
    """Issue 40 item 4: ``findings --format csv/jsonl`` (and the nightly's findings.csv
    and .jsonl) give the reason in money with its currency and the player by name; the
    replayer's terse reason, in minor units, stays beside it."""
    import csv
    import io
    import json

    from audit.show.finding_rows import write_findings

    events = coup(PONTO_STANDS_ON_5, [1000, 500], {"bank": 21_400}, cagnotte=100)
    about = context(Inputs("banked", str(events[0]["round_id"]), events))
    rows = [
        {**f.to_record(), "subject_kind": "banked", **about}
        for f in adjudicate_round(events).findings
    ]
    out = io.StringIO()
    write_findings(rows, "jsonl", out)
    for line in out.getvalue().splitlines():
        found = json.loads(line)
        assert "EUR " in found["reason"] and found["reason"] != found["replayer_reason"]
        assert "player of bet" not in found["reason"]
    out = io.StringIO()
    write_findings(rows, "csv", out)
    for row in csv.DictReader(io.StringIO(out.getvalue())):
        assert "EUR " in row["reason"] and "EUR " not in row["replayer_reason"]
